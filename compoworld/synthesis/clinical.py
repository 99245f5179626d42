"""Clinical calculators: the standard formulas a medical calculation server's tools are named for,
computed from their arguments (Cockcroft-Gault creatinine clearance, CKD-EPI 2021 eGFR, mean arterial pressure, calcium
corrected for albumin, Devine ideal and adjusted body weight, HOMA-IR, the 4-2-1 maintenance fluid
rule, Wells' criteria for pulmonary embolism, the Revised Cardiac Risk Index, Naegele's due date).

Before this they were world-model tools answering "Simulated map_calculator ..." or lookups of a
record named "Result 3". Arguments are found by what their names say (`sbp`, `systolic`,
`patient_albumin`, `height_inches`); an argument a formula needs and the call lacks is an error that
names it. `WORKED` holds a textbook example of each formula, worked by hand, which the fidelity check
`computation` calls each tool with.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Callable

from compoworld.services.tool import ToolError

NUM = {"type": "number"}


def clinical_formula(tokens: set[str], params: set[str]) -> str | None:
    """The formula a tool computes, from the words of its name (and its parameters' names), or None."""
    t = tokens
    words = {w for p in params for w in re.split(r"[_\W]+", p.lower()) if w}
    if t & {"cockcroft", "crcl"} or {"creatinine", "clearance"} <= t:
        return "crcl"
    if "egfr" in t or {"ckd", "epi"} <= t:
        return "egfr_cys" if words & {"scys", "cystatin", "cys"} else "egfr"
    if ({"map"} & t and {"sbp", "dbp"} <= words) or {"mean", "arterial"} <= t:
        return "map"
    if {"corrected", "calcium"} <= t:
        return "corrected_calcium"
    if t & {"ibw"} or {"ideal", "body", "weight"} <= t:
        return "ibw"
    if "homa" in t:
        return "homa_ir"
    if "maintenance" in t and t & {"fluid", "fluids"}:
        return "maintenance_fluids"
    if "wells" in t and (t & {"pe"} or {"pulmonary", "embolism"} <= t):
        return "wells_pe"
    if "rcri" in t or {"revised", "cardiac", "risk"} <= t:
        return "rcri"
    if "pregnancy" in t or {"due", "date"} <= t and "gestational" in words:
        return "due_date"
    return None


def _arg(args: dict[str, Any], *names: str, required: bool = True, default: Any = None) -> Any:
    """The argument whose name is one of `names`, or holds one of them as a word (`patient_albumin`)."""
    for want in names:
        for k, v in args.items():
            if v is not None and (k.lower() == want or want in re.split(r"[_\W]+", k.lower())):
                return v
    if required and default is None:
        raise ToolError(f"missing required argument '{names[0]}'")
    return default


def _num(args: dict[str, Any], *names: str, default: float | None = None) -> float:
    v = _arg(args, *names, default=default)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise ToolError(f"'{names[0]}' must be a number, got {v!r}") from None


def _male(args: dict[str, Any]) -> bool:
    v = _arg(args, "male", "sex", "gender", "female")
    if isinstance(v, bool):
        return v if any(k.lower() == "male" for k in args) else not v
    s = str(v).strip().lower()
    if s in ("m", "male", "man"):
        return True
    if s in ("f", "female", "woman"):
        return False
    raise ToolError(f"sex must be 'male' or 'female', got {v!r}")


def _crcl(args: dict[str, Any]) -> dict[str, Any]:
    age, weight, scr = _num(args, "age"), _num(args, "weight"), _num(args, "scr", "creatinine")
    if scr <= 0:
        raise ToolError("serum creatinine must be positive")
    male = _male(args)
    crcl = (140 - age) * weight / (72 * scr) * (1.0 if male else 0.85)
    return {"creatinine_clearance": round(crcl, 1), "unit": "mL/min", "formula": "Cockcroft-Gault"}


def _egfr(args: dict[str, Any]) -> dict[str, Any]:
    """CKD-EPI 2021, creatinine (N Engl J Med 2021;385:1737), race-free."""
    scr, age, male = _num(args, "scr", "creatinine"), _num(args, "age"), _male(args)
    k, a = (0.9, -0.302) if male else (0.7, -0.241)
    gfr = 142 * min(scr / k, 1) ** a * max(scr / k, 1) ** -1.200 * 0.9938 ** age * (1.0 if male else 1.012)
    return {"egfr": round(gfr, 1), "unit": "mL/min/1.73m2", "equation": "CKD-EPI 2021 (creatinine)"}


def _egfr_cys(args: dict[str, Any]) -> dict[str, Any]:
    """CKD-EPI 2021, creatinine and cystatin C."""
    scr, scys, age, male = _num(args, "scr", "creatinine"), _num(args, "scys", "cystatin"), _num(args, "age"), _male(args)
    k, a = (0.9, -0.144) if male else (0.7, -0.219)
    gfr = (135 * min(scr / k, 1) ** a * max(scr / k, 1) ** -0.544 * min(scys / 0.8, 1) ** -0.323 * max(scys / 0.8, 1) ** -0.778
           * 0.9961 ** age * (1.0 if male else 0.963))
    return {"egfr": round(gfr, 1), "unit": "mL/min/1.73m2", "equation": "CKD-EPI 2021 (creatinine-cystatin C)"}


def _map(args: dict[str, Any]) -> dict[str, Any]:
    sbp, dbp = _num(args, "sbp", "systolic"), _num(args, "dbp", "diastolic")
    return {"map": round((sbp + 2 * dbp) / 3, 1), "unit": "mmHg", "sbp": sbp, "dbp": dbp}


def _corrected_calcium(args: dict[str, Any]) -> dict[str, Any]:
    ca, alb = _num(args, "serum_calcium", "calcium"), _num(args, "patient_albumin", "albumin")
    normal = _num(args, "normal_albumin", default=4.0)
    return {"corrected_calcium": round(ca + 0.8 * (normal - alb), 2), "unit": "mg/dL"}


def _ibw(args: dict[str, Any]) -> dict[str, Any]:
    height = _num(args, "height_inches", "height")
    key = next((k for k in args if "height" in k.lower()), "")
    inches = height / 2.54 if "cm" in key.lower() or (height > 100 and "inch" not in key.lower()) else height
    ibw = (50.0 if _male(args) else 45.5) + 2.3 * (inches - 60)
    out: dict[str, Any] = {"ideal_body_weight": round(ibw, 1), "unit": "kg", "formula": "Devine"}
    weight = _arg(args, "weight_kg", "weight", required=False)
    if weight is not None:
        out["adjusted_body_weight"] = round(ibw + 0.4 * (float(weight) - ibw), 1)
    return out


def _homa(args: dict[str, Any]) -> dict[str, Any]:
    return {"homa_ir": round(_num(args, "fasting_insulin", "insulin") * _num(args, "fasting_glucose", "glucose") / 405, 2)}


def _fluids(args: dict[str, Any]) -> dict[str, Any]:
    w = _num(args, "weight_kg", "weight")
    if w <= 0:
        raise ToolError("weight must be positive")
    rate = 4 * min(w, 10) + 2 * min(max(w - 10, 0), 10) + 1 * max(w - 20, 0)
    return {"rate": round(rate, 1), "unit": "mL/hr", "rule": "4-2-1"}


# Wells' criteria for PE (Wells PS, et al. Thromb Haemost 2000): the points of each finding
# (a previous DVT or PE is checked before the signs of one: `previous_dvt_pe` scores 1.5, not 3)
WELLS = [(("previous", "history", "prior"), 1.5), (("dvt", "signs"), 3.0), (("alternative",), 3.0), (("heart", "rate"), 1.5),
         (("immobilization", "surgery"), 1.5), (("hemoptysis",), 1.0), (("malignancy", "cancer"), 1.0)]


def _wells(args: dict[str, Any]) -> dict[str, Any]:
    score = 0.0
    for k, v in args.items():
        ws = set(re.split(r"[_\W]+", k.lower()))
        if v is True:
            score += next((pts for keys, pts in WELLS if ws & set(keys)), 0.0)
    tier = "low" if score < 2 else "moderate" if score <= 6 else "high"
    return {"score": score, "risk": tier, "pe_likely": score > 4}


# the Revised Cardiac Risk Index (Lee 1999): one point per predictor, and the risk of a major cardiac event
RCRI_RISK = {0: "3.9%", 1: "6.0%", 2: "10.1%"}


def _rcri(args: dict[str, Any]) -> dict[str, Any]:
    points = sum(1 for v in args.values() if v is True)
    return {"points": points, "risk_class": ["I", "II", "III", "IV"][min(points, 3)], "major_cardiac_event_risk": RCRI_RISK.get(points, "15.0%")}


def _due_date(args: dict[str, Any]) -> dict[str, Any]:
    method = str(_arg(args, "calculation_method", "method", default="lmp")).lower()
    raw = _arg(args, "date_value", "date", "lmp")
    try:
        day = date.fromisoformat(str(raw)[:10])
    except ValueError:
        raise ToolError(f"date must be YYYY-MM-DD, got {raw!r}") from None
    if method == "lmp":
        due = day + timedelta(days=280 + int(_num(args, "cycle_length", default=28)) - 28)  # Naegele's rule
    elif method == "conception":
        due = day + timedelta(days=266)
    elif method == "ultrasound":
        weeks = _arg(args, "gestational_age_weeks", required=False, default=0) or 0
        days = _arg(args, "gestational_age_days", required=False, default=0) or 0
        due = day + timedelta(days=280 - (int(weeks) * 7 + int(days)))
    else:
        raise ToolError(f"calculation_method must be 'lmp', 'conception' or 'ultrasound', got {method!r}")
    return {"due_date": due.isoformat(), "method": method}


FORMULAS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], dict[str, Any]]] = {
    "crcl": (_crcl, {"creatinine_clearance": NUM}), "map": (_map, {"map": NUM}),
    "egfr": (_egfr, {"egfr": NUM}), "egfr_cys": (_egfr_cys, {"egfr": NUM}),
    "corrected_calcium": (_corrected_calcium, {"corrected_calcium": NUM}), "ibw": (_ibw, {"ideal_body_weight": NUM}),
    "homa_ir": (_homa, {"homa_ir": NUM}), "maintenance_fluids": (_fluids, {"rate": NUM}), "wells_pe": (_wells, {"score": NUM}),
    "rcri": (_rcri, {"points": {"type": "integer"}}), "due_date": (_due_date, {"due_date": {"type": "string"}}),
}

# A worked example of each formula (arguments by what they name, the answer and the key it is under),
# worked by hand from the published formula: what the fidelity check expects.
WORKED: dict[str, tuple[dict[str, Any], str, Any]] = {
    "crcl": ({"age": 60, "weight": 72, "scr": 1.0, "sex": "female"}, "creatinine_clearance", 68.0),
    "map": ({"sbp": 120, "dbp": 80}, "map", 93.3),
    "egfr": ({"scr": 1.0, "age": 50, "male": True}, "egfr", 91.7),
    "egfr_cys": ({"scr": 1.0, "scys": 1.0, "age": 50, "male": True}, "egfr", 88.1),
    "corrected_calcium": ({"serum_calcium": 8.0, "patient_albumin": 2.0, "normal_albumin": 4.0}, "corrected_calcium", 9.6),
    "ibw": ({"height_inches": 70, "male": True, "weight_kg": 100}, "ideal_body_weight", 73.0),
    "homa_ir": ({"fasting_glucose": 90, "fasting_insulin": 9}, "homa_ir", 2.0),
    "maintenance_fluids": ({"weight_kg": 70}, "rate", 110.0),
    "wells_pe": ({"clinical_signs_dvt": True, "heart_rate_over_100": True}, "score", 4.5),
    "rcri": ({"high_risk_surgery": True, "insulin_treatment": True}, "points", 2),
    "due_date": ({"calculation_method": "lmp", "date_value": "2024-01-01", "cycle_length": 28}, "due_date", "2024-10-07"),
}
