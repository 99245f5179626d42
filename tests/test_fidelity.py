"""Fidelity: each failure family of issue 12 as a regression test on small specs written here.

For every family two things are tested: the compiler now gets the small spec right (the fidelity
check passes), and the check catches the old failure (a plan carrying that defect fails it)."""

from __future__ import annotations

import itertools
import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from compoworld.services.environment import Environment
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity, level_of
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn
from compoworld.synthesis.plan import ServicePlan

S, I, N = {"type": "string"}, {"type": "integer"}, {"type": "number"}


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = (), out: dict[str, Any] | None = None) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)},
                  output_schema=out)


def server(name: str, *tools: ToolIn) -> ServerSpec:
    return ServerSpec(id=name, source="test", name=name, tools=list(tools))


def results(srv: ServerSpec, plan: ServicePlan | None = None) -> dict[tuple[str, str], list[str]]:
    """(tool, check) -> statuses of the fidelity checks of `plan` (default: the compiled plan)."""
    cls = build_service(plan or infer_plan(srv, srv.name))
    out: dict[tuple[str, str], list[str]] = {}
    for c in check_fidelity(cls, srv):
        out.setdefault((c.tool or "", c.check.removeprefix("fidelity_")), []).append(c.status)
    return out


_BROKEN = itertools.count()


def broken(srv: ServerSpec, tool_name: str, **changes: Any) -> ServicePlan:
    """The compiled plan with one tool changed back to a defect of the family under test (a new
    version: seeded states are memoized by name and version)."""
    plan = infer_plan(srv, srv.name)
    plan.version = f"1.broken{next(_BROKEN)}"
    t = next(t for t in plan.tools if t.name == tool_name)
    for k, v in changes.items():
        setattr(t, k, v)
    return plan


# -- keyed lookups ------------------------------------------------------------------------------

TICKETS = server(
    "tickets",
    tool("create_ticket", "Create a support ticket.", {"title": S, "body": S, "status": {"type": "string", "enum": ["open", "closed"]}}, ("title",)),
    tool("get_ticket", "Get a ticket by its id.", {"ticket_id": S}, ("ticket_id",)),
    tool("list_tickets", "List tickets.", {"status": {"type": "array", "items": {"type": "string", "enum": ["open", "closed"]}}, "days": I, "limit": I}),
)


def test_keyed_lookup_returns_that_keys_record_and_not_found_for_an_unknown_key() -> None:
    assert results(TICKETS)[("get_ticket", "keyed_lookup")] == ["pass"]
    plan = infer_plan(TICKETS, "tickets")
    env = Environment([build_service(plan)], seed=3)
    ids = list(env.services["tickets"].db["tickets"].rows)[:2]
    seen = [env.step({"name": "tickets__get_ticket", "arguments": {"ticket_id": i}}).data["id"] for i in ids]
    assert seen == ids
    unknown = env.step({"name": "tickets__get_ticket", "arguments": {"ticket_id": "tick_9999"}})
    assert not unknown.ok and unknown.error_kind == "not_found"


def test_keyed_lookup_check_catches_a_lookup_that_ignores_its_key() -> None:
    plan = broken(TICKETS, "get_ticket")
    t = next(t for t in plan.tools if t.name == "get_ticket")
    t.params[0].role = "option"  # the old defect: the key is not bound, every call returns the same record
    assert results(TICKETS, plan)[("get_ticket", "keyed_lookup")] == ["fail"]


def test_outside_world_lookup_names_the_key_it_was_asked_about() -> None:
    weather = server("weather", tool("get_weather", "Current weather for a city.", {"city": S}, ("city",)))
    assert results(weather)[("get_weather", "keyed_lookup")] == ["pass"]


# -- optional arguments -------------------------------------------------------------------------

def test_optional_window_and_status_list_do_not_empty_a_listing() -> None:
    r = results(TICKETS)
    assert r[("list_tickets", "optional_filter")] == ["pass"]
    env = Environment([build_service(infer_plan(TICKETS, "tickets"))], seed=3)
    total = env.step({"name": "tickets__list_tickets", "arguments": {}}).data["total"]
    assert total > 0
    assert env.step({"name": "tickets__list_tickets", "arguments": {"days": 7}}).data["total"] == total
    by_status = env.step({"name": "tickets__list_tickets", "arguments": {"status": ["open"]}}).data
    assert by_status["total"] > 0 and all(i["status"] == "open" for i in by_status["items"])


def test_optional_filter_check_catches_days_as_an_exact_filter() -> None:
    plan = broken(TICKETS, "list_tickets")
    t = next(t for t in plan.tools if t.name == "list_tickets")
    days = next(p for p in t.params if p.name == "days")
    days.role, days.field = "filter", "status"  # the old defect: an optional number compared with a record field
    assert results(TICKETS, plan)[("list_tickets", "optional_filter")] == ["fail"]


# -- one coherent state per service -------------------------------------------------------------

FILES = server(
    "files",
    tool("write_file", "Write a file (creates or overwrites).", {"path": S, "content": S}, ("path", "content")),
    tool("read_file", "Read a file.", {"path": S}, ("path",)),
    tool("list_files", "List files.", {}),
    tool("search_files", "Search files by name or content.", {"query": S}, ("query",)),
)


def test_a_rewritten_file_is_one_file_holding_the_new_content() -> None:
    r = results(FILES)
    assert r[("write_file", "sees_writes")] == ["pass"]
    assert r[("list_files", "sees_writes")] == ["pass"] and r[("search_files", "sees_writes")] == ["pass"]
    env = Environment([build_service(infer_plan(FILES, "files"))], seed=3)
    for content in ("first draft", "second draft"):
        assert env.step({"name": "files__write_file", "arguments": {"path": "/notes/a.md", "content": content}}).ok
    read = env.step({"name": "files__read_file", "arguments": {"path": "/notes/a.md"}}).data
    assert read["content"] == "second draft"
    listed = env.step({"name": "files__list_files", "arguments": {}}).data["items"]
    assert sum(i.get("path") == "/notes/a.md" for i in listed) == 1


def test_sees_writes_check_catches_a_rewrite_that_duplicates() -> None:
    plan = broken(FILES, "write_file", verb="create")  # the old defect: every write inserts a new record
    assert results(FILES, plan)[("write_file", "sees_writes")] == ["fail"]


def test_sees_writes_check_catches_a_write_that_only_logs_itself() -> None:
    notes = server("notes", tool("add_note", "Add a note.", {"title": S, "text": S}, ("title",)),
                   tool("get_note", "Get a note by id.", {"note_id": S}, ("note_id",)))
    assert results(notes)[("get_note", "sees_writes")] == ["pass"]
    plan = broken(notes, "add_note", op="action", collection="action_log")
    plan = plan.model_copy(update={"entities": [*plan.entities, _action_log()]})
    assert "fail" in results(notes, plan)[("add_note", "sees_writes")]


def _action_log() -> Any:
    from compoworld.synthesis.plan import EntityPlan
    from compoworld.synthesis.shapes import ACTION_FIELDS

    return EntityPlan(collection="action_log", entity="logged_action", prefix="act", fields=list(ACTION_FIELDS), size=0)


# -- kind: reads are reads, writes are writes ---------------------------------------------------

def test_add_note_is_a_write_and_add_numbers_is_arithmetic() -> None:
    calc = server("calc", tool("add", "Add two numbers.", {"a": N, "b": N}, ("a", "b")),
                  tool("add_note", "Add a note.", {"text": S}, ("text",)), tool("list_notes", "List notes.", {}))
    plan = infer_plan(calc, "calc")
    ops = {t.name: (t.op, t.compute) for t in plan.tools}
    assert ops["add"] == ("compute", "arith_add") and ops["add_note"][0] == "create"
    assert results(calc)[("add_note", "kind")] == ["pass"]
    bad = broken(calc, "add_note", op="compute", compute="arith_add", read_only=True)
    assert results(calc, bad)[("add_note", "kind")] == ["fail"]


def test_read_tools_are_not_compiled_as_actions_that_answer_completed() -> None:
    gh = server("gh", tool("list_pull_requests", "List pull requests for a repository", {"owner": S, "repo": S}, ("owner", "repo")),
                tool("count_goals", "Get the total number of goals.", {}),
                tool("news_search", "Search news articles.", {"query": S}, ("query",)),
                tool("minus_di", "Fetch minus directional indicator", {"symbol": S, "time_period": I}, ("symbol", "time_period")))
    plan = infer_plan(gh, "gh")
    assert all(t.read_only for t in plan.tools), [(t.name, t.op) for t in plan.tools]
    assert next(t for t in plan.tools if t.name == "minus_di").compute is None  # a stock indicator, not a subtraction
    assert all(s == ["pass"] for (_, check), s in results(gh).items() if check == "kind")
    bad = broken(gh, "list_pull_requests", op="action", read_only=False)
    assert results(gh, bad)[("list_pull_requests", "kind")] == ["fail"]


# -- computations against reference implementations ---------------------------------------------

COMPUTE = server(
    "calc",
    tool("convert_time", "Convert a time between time zones.", {"source_timezone": S, "target_timezone": S, "time": S},
         ("source_timezone", "target_timezone", "time")),
    tool("calculate_statistics", "Compute statistics (mean, median) of numbers.", {"numbers": {"type": "array", "items": N}}, ("numbers",)),
    tool("convert_units", "Convert a value between length units.",
         {"value": N, "from_unit": {"type": "string", "enum": ["meters", "kilometers", "miles", "feet"]},
          "to_unit": {"type": "string", "enum": ["meters", "kilometers", "miles", "feet"]}}, ("value", "from_unit", "to_unit")),
    tool("random_float", "A random number between min and max.", {"min": N, "max": N}, ("min", "max")),
)


def test_computations_pass_against_reference_implementations() -> None:
    r = results(COMPUTE)
    for name in ("convert_time", "calculate_statistics", "convert_units", "random_float"):
        assert r[(name, "computation")] == ["pass"], name


@pytest.mark.parametrize(("when", "src", "dst"), [("2024-07-01T12:00:00", "America/New_York", "Europe/London"),
                                                   ("2024-01-15T09:30:00", "Europe/Berlin", "Asia/Kolkata"),
                                                   ("2024-03-31T01:30:00", "UTC", "Australia/Lord_Howe")])
def test_time_zone_conversion_follows_zoneinfo(when: str, src: str, dst: str) -> None:
    env = Environment([build_service(infer_plan(COMPUTE, "calc"))], seed=1)
    got = env.step({"name": "calc__convert_time", "arguments": {"source_timezone": src, "target_timezone": dst, "time": when}})
    want = datetime.fromisoformat(when).replace(tzinfo=ZoneInfo(src)).astimezone(ZoneInfo(dst)).strftime("%Y-%m-%dT%H:%M:%S")
    assert got.ok and got.data["converted_time"] == want


def test_statistics_units_and_random_ranges() -> None:
    import statistics

    env = Environment([build_service(infer_plan(COMPUTE, "calc"))], seed=1)
    xs = [1.5, 2, 9, 4, 4]
    st = env.step({"name": "calc__calculate_statistics", "arguments": {"numbers": xs}}).data
    assert (st["mean"], st["median"], st["stdev"]) == (pytest.approx(statistics.mean(xs)), statistics.median(xs), pytest.approx(statistics.stdev(xs)))
    for unit in ("meters", "kilometers", "miles", "feet"):
        assert env.step({"name": "calc__convert_units", "arguments": {"value": 2, "from_unit": unit, "to_unit": unit}}).data["result"] == 2
    km = env.step({"name": "calc__convert_units", "arguments": {"value": 1, "from_unit": "miles", "to_unit": "kilometers"}}).data
    assert km["result"] == pytest.approx(1.609344)
    draws = [env.step({"name": "calc__random_float", "arguments": {"min": 0.25 + i / 1000, "max": 0.75}}).data["result"] for i in range(20)]
    assert all(0.25 <= d <= 0.75 for d in draws) and len(set(draws)) > 1


def test_computation_check_catches_a_statistics_tool_that_counts_characters() -> None:
    plan = broken(COMPUTE, "calculate_statistics", op="compute", compute="count_text")
    assert results(COMPUTE, plan)[("calculate_statistics", "computation")] == ["fail"]


# -- promised output fields ---------------------------------------------------------------------

WEATHER_OUT = {"type": "object", "properties": {"temperature": N, "humidity": N, "wind_speed": N}, "required": ["temperature", "humidity", "wind_speed"]}


def test_outputs_carry_the_fields_the_output_schema_promises() -> None:
    weather = server("weather", tool("get_weather", "Current weather for a city.", {"city": S}, ("city",), WEATHER_OUT))
    assert results(weather)[("get_weather", "output_fields")] == ["pass"]
    plan = broken(weather, "get_weather")
    e = plan.entities[0]
    plan.entities[0] = e.model_copy(update={"fields": [f for f in e.fields if f.name != "wind_speed"]})
    plan.tools[0].output_schema = {"type": "object"}
    assert results(weather, plan)[("get_weather", "output_fields")] == ["fail"]


# -- outputs from the wrong domain --------------------------------------------------------------

def test_domain_check_catches_generic_records_from_a_tool_that_is_no_search() -> None:
    from compoworld.synthesis.plan import FieldPlan

    weather = server("weather", tool("get_weather", "Current weather for a city.", {"city": S}, ("city",)))
    assert results(weather)[("get_weather", "domain")] == ["pass"]
    for fields in ((("title", S), ("url", S), ("snippet", S), ("score", N)),  # a search hit
                   (("name", S), ("description", S), ("value", N))):  # a name, a description, a value
        plan = broken(weather, "get_weather")
        e = plan.entities[0]
        keep = [f for f in e.fields if f.name in ("id", "city")]
        plan.entities[0] = e.model_copy(update={"fields": keep + [FieldPlan(name=n, shape=sh) for n, sh in fields]})
        plan.tools[0].output_schema = {"type": "object"}
        assert results(weather, plan)[("get_weather", "domain")] == ["fail"], fields
    web = server("web", tool("web_search", "Search the web.", {"query": S}, ("query",)))
    assert ("web_search", "domain") not in results(web)  # search hits are what a search returns


# -- levels and the pipeline ----------------------------------------------------------------------

def test_levels() -> None:
    assert level_of("world_model", "world_model") == "simulated"
    assert level_of("deterministic", "action") == "structural"
    assert level_of("deterministic", "get") == "faithful"
    assert level_of("deterministic", "get", generic=True) == "structural"


def test_a_tool_that_cannot_pass_is_compiled_as_a_simulated_world_model_tool(tmp_path: Path) -> None:
    from compoworld.synthesis.pipeline import run_synth

    # the output schema promises fields a forecast record of this spec cannot show: `forecast` is a list of objects
    promise = {"type": "object", "properties": {"forecast": {"type": "array", "items": {"type": "object"}}}, "required": ["forecast", "zz_confidence"]}
    spec = {"name": "Forecasts", "tools": [
        {"name": "get_forecast", "description": "Get the forecast for a city.", "inputSchema": {"type": "object", "properties": {"city": S}, "required": ["city"]},
         "outputSchema": promise},
        {"name": "create_alert", "description": "Create a weather alert.", "inputSchema": {"type": "object", "properties": {"title": S, "city": S}, "required": ["title"]}},
        {"name": "get_alert", "description": "Get an alert by id.", "inputSchema": {"type": "object", "properties": {"alert_id": S}, "required": ["alert_id"]}},
    ]}
    path = tmp_path / "forecasts.json"
    path.write_text(json.dumps(spec))
    report = run_synth([path], workers=1, cache_directory=tmp_path / "synth", verify_library_services=False)
    assert report.fidelity == {"faithful": 2, "structural": 0, "simulated": 1}
    assert any(c.tool == "get_forecast" and c.check == "fidelity_output_fields" and c.status == "fail" for c in report.fidelity_checks)
    assert report.summary()["fidelity"] == report.fidelity

    # the warehouse row of each tool carries its level; tasks see only faithful tools by default
    from compoworld.config import PipelineConfig
    from compoworld.services.records import service_rows
    from compoworld.synthesis.cache import at_fidelity, load_compiled

    compiled = load_compiled(directory=tmp_path / "synth")
    rows = {r["name"]: r["fidelity"] for r in service_rows(compiled)["tools"]}
    assert rows == {"get_forecast": "simulated", "create_alert": "faithful", "get_alert": "faithful"}
    assert PipelineConfig().tool_fidelity == "faithful"
    faithful = at_fidelity(compiled, {"faithful"})
    assert set(faithful["forecasts"].tool_specs()) == {"create_alert", "get_alert"}
    assert set(at_fidelity(compiled, {"faithful", "structural", "simulated"})["forecasts"].tool_specs()) == set(rows)
