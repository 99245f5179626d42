"""Clinical calculators of compiled services (compoworld/synthesis/clinical.py): tools named for a standard
formula compute it, and the fidelity check `computation` holds them to a worked textbook example."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.services.environment import Environment
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn

N, I, B, S = {"type": "number"}, {"type": "integer"}, {"type": "boolean"}, {"type": "string"}


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ()) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)})


MEDICAL = ServerSpec(id="med", source="test", name="Medical Calculator", tools=[
    tool("map_calculator", "Calculate Mean Arterial Pressure (MAP)", {"sbp": I, "dbp": I}, ("sbp", "dbp")),
    tool("egfr_epi", "eGFR by the 2021 CKD-EPI creatinine equation", {"scr": N, "age": I, "male": B}, ("scr", "age", "male")),
    tool("corrected_calcium", "Calcium correction for hypoalbuminemia", {"serum_calcium": N, "patient_albumin": N, "normal_albumin": N},
         ("serum_calcium", "patient_albumin")),
    tool("ibw_abw_calculator", "Ideal and adjusted body weight (Devine)", {"weight_kg": N, "height_inches": N, "male": B},
         ("weight_kg", "height_inches", "male")),
    tool("crcl_cockcroft_gault", "Creatinine clearance (Cockcroft-Gault)", {"age": I, "weight": N, "height": N, "scr": N, "sex": S},
         ("age", "weight", "height", "scr", "sex")),
    tool("homa_ir", "HOMA-IR score for insulin resistance", {"fasting_insulin": N, "fasting_glucose": N}, ("fasting_insulin", "fasting_glucose")),
    tool("maintenance_fluids", "Maintenance IV fluid rate by the 4-2-1 rule", {"weight_kg": N}, ("weight_kg",)),
    tool("wells_pe_criteria", "Wells' criteria for pulmonary embolism",
         {"clinical_signs_dvt": B, "previous_dvt_pe": B, "heart_rate_over_100": B, "hemoptysis": B}),
    tool("revised_cardiac_risk_index", "Revised Cardiac Risk Index for pre-operative risk", {"high_risk_surgery": B, "insulin_treatment": B,
                                                                                             "ischemic_heart_disease": B}),
    tool("pregnancy_calculator", "Pregnancy due dates calculator", {"calculation_method": S, "date_value": S, "cycle_length": I},
         ("calculation_method", "date_value")),
])


@pytest.fixture(scope="module")
def env() -> Environment:
    return Environment([build_service(infer_plan(MEDICAL, "med"))], seed=1)


@pytest.mark.parametrize(("name", "args", "key", "want"), [
    ("map_calculator", {"sbp": 140, "dbp": 90}, "map", 106.7),
    ("egfr_epi", {"scr": 0.8, "age": 60, "male": False}, "egfr", 84.3),  # 142 x (0.8/0.7)^-1.2 x 0.9938^60 x 1.012
    ("corrected_calcium", {"serum_calcium": 7.6, "patient_albumin": 2.5}, "corrected_calcium", 8.8),
    ("ibw_abw_calculator", {"weight_kg": 90, "height_inches": 64, "male": False}, "ideal_body_weight", 54.7),
    ("crcl_cockcroft_gault", {"age": 40, "weight": 80, "height": 70, "scr": 1.2, "sex": "male"}, "creatinine_clearance", 92.6),
    ("homa_ir", {"fasting_insulin": 15, "fasting_glucose": 108}, "homa_ir", 4.0),
    ("maintenance_fluids", {"weight_kg": 15}, "rate", 50.0),
    ("wells_pe_criteria", {"previous_dvt_pe": True, "hemoptysis": True}, "score", 2.5),
    ("revised_cardiac_risk_index", {"high_risk_surgery": True, "insulin_treatment": True, "ischemic_heart_disease": True}, "points", 3),
    ("pregnancy_calculator", {"calculation_method": "conception", "date_value": "2024-03-01"}, "due_date", "2024-11-22"),
])
def test_a_clinical_calculator_computes_the_formula_it_is_named_for(env: Environment, name: str, args: dict[str, Any], key: str,
                                                                      want: Any) -> None:
    obs = env.step({"name": f"med__{name}", "arguments": args})
    assert obs.ok, obs.error
    got = obs.data[key]
    assert got == want if isinstance(want, str) else abs(got - want) <= 0.05, obs.content


def test_a_bad_argument_is_an_error_that_names_it(env: Environment) -> None:
    obs = env.step({"name": "med__crcl_cockcroft_gault", "arguments": {"age": 40, "weight": 80, "height": 70, "scr": 1.2, "sex": "x"}})
    assert not obs.ok and "sex" in (obs.error or "")
    obs = env.step({"name": "med__pregnancy_calculator", "arguments": {"calculation_method": "lmp", "date_value": "March"}})
    assert not obs.ok and "YYYY-MM-DD" in (obs.error or "")


def test_the_computation_check_holds_each_calculator_to_its_worked_example() -> None:
    plan = infer_plan(MEDICAL, "med")
    statuses = {c.tool: c.status for c in check_fidelity(build_service(plan), MEDICAL) if c.check == "fidelity_computation"}
    assert statuses == {t.name: "pass" for t in plan.tools}
    broken = plan.model_copy(deep=True)
    broken.version = "1.broken-map"
    next(t for t in broken.tools if t.name == "map_calculator").compute = "clinical_homa_ir"  # a formula that is not MAP
    statuses = {c.tool: c.status for c in check_fidelity(build_service(broken), MEDICAL) if c.check == "fidelity_computation"}
    assert statuses["map_calculator"] == "fail"
