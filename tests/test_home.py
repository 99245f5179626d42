"""Home automation of compiled services (compoworld/synthesis/home.py): a Home Assistant's tools read and
switch one home of devices, and the fidelity check `home` catches a switch that changes nothing."""

from __future__ import annotations

from typing import Any

from compoworld.services.environment import Environment
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn

S = {"type": "string"}


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ()) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)})


HASS = ServerSpec(id="hass", source="test", name="Hass-MCP", description="Control your Home Assistant devices.", tools=[
    tool("get_entity", "Get the state of a Home Assistant entity (e.g. 'light.living_room')", {"entity_id": S, "fields": {"type": "array"}},
         ("entity_id",)),
    tool("entity_action", "Perform an action on a Home Assistant entity (on, off, toggle), e.g. 'light.living_room'",
         {"entity_id": S, "action": S, "params": S}, ("entity_id", "action", "params")),
    tool("list_entities", "Get a list of Home Assistant entities", {"domain": S, "limit": {"type": "integer"}}),
    tool("domain_summary_tool", "Get a summary of entities in a specific domain", {"domain": S}, ("domain",)),
    tool("call_service_tool", "Call any Home Assistant service", {"domain": S, "service": S, "data": {"type": "object"}}, ("domain", "service")),
    tool("get_history", "Get the history of an entity's state changes", {"entity_id": S, "hours": {"type": "integer"}}, ("entity_id",)),
    tool("list_automations", "Get a list of all automations from Home Assistant", {}),
])


def _env() -> tuple[Environment, Any]:
    plan = infer_plan(HASS, "hass")
    return Environment([build_service(plan)], seed=3), plan


def step(env: Environment, name: str, **args: Any) -> Any:
    return env.step({"name": f"hass__{name}", "arguments": args})


def test_a_home_assistants_tools_read_and_switch_one_home() -> None:
    from compoworld.synthesis.verify import verify_service

    env, plan = _env()
    verdict = verify_service(build_service(plan))
    assert verdict.verified, [c for c in verdict.checks if c.status == "fail"]
    assert {t.original: (t.op, t.read_only) for t in plan.tools}["entity_action"] == ("home", False)
    lights = step(env, "list_entities", domain="light").data["entities"]
    assert lights and all(e["entity_id"].startswith("light.") for e in lights)
    before = step(env, "get_entity", entity_id="light.kitchen").data["state"]
    flipped = step(env, "entity_action", entity_id="light.kitchen", action="toggle", params="")
    assert flipped.ok and flipped.data["previous_state"] == before and flipped.data["state"] != before
    assert step(env, "get_entity", entity_id="light.kitchen").data["state"] == flipped.data["state"]
    history = step(env, "get_history", entity_id="light.kitchen").data["states"]
    assert history[-1]["state"] == flipped.data["state"]
    summary = step(env, "domain_summary_tool", domain="light").data
    assert summary["total_count"] == len(lights) and sum(summary["state_distribution"].values()) == len(lights)
    unlocked = step(env, "call_service_tool", domain="lock", service="unlock", data={"entity_id": "lock.front_door"})
    assert unlocked.ok and step(env, "get_entity", entity_id="lock.front_door").data["state"] == "unlocked"


def test_a_sensor_cannot_be_switched_and_a_refused_call_changes_nothing() -> None:
    env, _ = _env()
    before = env.state()
    refused = step(env, "entity_action", entity_id="sensor.outdoor_humidity", action="off", params="")
    assert not refused.ok and "cannot be switched" in (refused.error or "")
    wrong = step(env, "entity_action", entity_id="lock.front_door", action="on", params="")
    assert not wrong.ok and "lock" in (wrong.error or "")
    assert not step(env, "get_entity", entity_id="light.nowhere").ok
    assert env.state() == before


def test_the_home_check_passes_a_home_and_catches_a_switch_that_changes_nothing() -> None:
    plan = infer_plan(HASS, "hass")
    passed = {(c.tool, c.status) for c in check_fidelity(build_service(plan), HASS) if c.check == "fidelity_home"}
    assert passed == {("entity_action", "pass"), ("get_entity", "pass")}
    broken = plan.model_copy(deep=True)
    broken.version = "1.broken-home"
    act = next(t for t in broken.tools if t.name == "entity_action")
    act.home = "get_entity"  # the old defect: the action reads the entity and switches nothing
    failed = {(c.tool, c.status) for c in check_fidelity(build_service(broken), HASS) if c.check == "fidelity_home"}
    assert ("entity_action", "fail") in failed
