"""Fidelity: each failure family of issue 12 as a regression test on small specs written here.

For every family two things are tested: the compiler now gets the small spec right (the fidelity
check passes), and the check catches the old failure (a plan carrying that defect fails it)."""

from __future__ import annotations

import itertools
import json
import re
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
from compoworld.synthesis.verify import verify_service

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


def test_an_exclusion_argument_is_an_option_not_a_field_of_the_records() -> None:
    """`search_files(path, pattern, excludePatterns)`: what to leave out of a search is no attribute of a
    file; before, every file carried an `exclude_patterns` list and the argument filtered on it."""
    srv = server("files", tool("write_file", "Write a file.", {"path": S, "content": S}, ("path", "content")),
                 tool("search_files", "Search files under a path.", {"path": S, "pattern": S,
                      "excludePatterns": {"type": "array", "items": S}}, ("path", "pattern")))
    plan = infer_plan(srv, "files")
    search = next(t for t in plan.tools if t.name == "search_files")
    assert {p.name: p.role for p in search.params}["excludePatterns"] == "option"
    assert all(f.name != "exclude_patterns" for e in plan.entities for f in e.fields)


def test_optional_filter_check_catches_days_as_an_exact_filter() -> None:
    plan = broken(TICKETS, "list_tickets")
    t = next(t for t in plan.tools if t.name == "list_tickets")
    days = next(p for p in t.params if p.name == "days")
    days.role, days.field = "filter", "status"  # the old defect: an optional number compared with a record field
    assert results(TICKETS, plan)[("list_tickets", "optional_filter")] == ["fail"]


def test_an_unknown_id_finding_nothing_is_no_failure_of_the_optional_filter_check() -> None:
    """`list_deals(pipeline_id)` with a number no pipeline has rightly finds nothing: the check holds
    an optional number to "never empties the list" only when it names no record (`days`, `min_score`);
    PipeRun's listings had been sent to the world model for it."""
    srv = server("deals", tool("create_pipeline", "Create a pipeline.", {"name": S}, ("name",)),
                 tool("create_deal", "Create a deal.", {"title": S}, ("title",)),
                 tool("list_deals", "List deals.", {"pipeline_id": N, "page": N}))
    plan = infer_plan(srv, "deals")
    assert {p.name: p.role for t in plan.tools if t.name == "list_deals" for p in t.params}["pipeline_id"] in ("ref", "filter")
    r = results(srv, plan)
    assert r[("list_deals", "kind")] == ["pass"] and "fail" not in r.get(("list_deals", "optional_filter"), [])


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


def test_reverting_ending_and_shutting_down_change_something() -> None:
    """`git_revert`, `rollback_transaction`, `end_codegen_session` and `shutdown_simulator` change the
    state: they are not lookups that answer some record (they read a file, an event), and the kind
    check fails one compiled read-only."""
    srv = server("ops", tool("git_revert", "Revert the current branch to a commit or state.", {"repo_path": S, "commit": S}, ("repo_path", "commit")),
                 tool("rollback_transaction", "Roll back the current transaction.", {"transaction_id": S}, ("transaction_id",)),
                 tool("end_codegen_session", "End a code generation session and generate the test file", {"sessionId": S}, ("sessionId",)),
                 tool("shutdown_simulator", "Shut down a running simulator.", {"udid": S}, ("udid",)),
                 tool("list_commits", "List the commits of a repository.", {"repo_path": S}, ("repo_path",)))
    plan = infer_plan(srv, "ops")
    writes = {t.name: t.read_only for t in plan.tools}
    assert writes == {"git_revert": False, "rollback_transaction": False, "end_codegen_session": False,
                      "shutdown_simulator": False, "list_commits": True}, writes
    assert all(s == ["pass"] for (_, check), s in results(srv).items() if check == "kind")
    bad = broken(srv, "git_revert", op="lookup", read_only=True)
    assert results(srv, bad)[("git_revert", "kind")] == ["fail"]


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


def test_a_random_record_is_no_random_number_and_a_distribution_draws_from_itself() -> None:
    """`get_random_emoji()` draws an emoji, not a number in [0, 100]; `random(min, max)` draws in its
    range; `vonmises_random(mu)` an angle in [0, 2pi), as `random.vonmisesvariate` does."""
    import math

    srv = server("rand", tool("get_random_emoji", "Get a random emoji with its name and category.", {}),
                 tool("random", "A random number.", {"min": I, "max": I}, ("min", "max")),
                 tool("vonmises_random", "Generate a random number from the von Mises distribution.",
                      {"mu": {"type": "number", "minimum": 0, "maximum": 6.283185307179586}}, ("mu",)))
    plan = infer_plan(srv, "rand")
    ops = {t.name: (t.op, t.compute) for t in plan.tools}
    assert ops["get_random_emoji"][1] is None and ops["random"] == ("compute", "random_number")
    assert ops["vonmises_random"] == ("compute", "random_number")
    env = Environment([build_service(plan)], seed=2)
    angles = [env.step({"name": "rand__vonmises_random", "arguments": {"mu": 0.5 + i / 100}}).data for i in range(12)]
    assert all(0 <= a["result"] < 2 * math.pi and set(a) == {"mu", "kappa", "result"} for a in angles)
    assert len({a["result"] for a in angles}) > 1
    ints = [env.step({"name": "rand__random", "arguments": {"min": 3, "max": 5 + i}}).data["result"] for i in range(10)]
    assert all(3 <= v <= 5 + i and isinstance(v, int) for i, v in enumerate(ints))


def test_a_codec_named_for_its_format_answers_the_converted_text() -> None:
    """`encodeUrl(input)` names the format it turns text into, not a url it reads: the domain check held
    it to an answer with a `url` key and left four working codecs structural."""
    srv = server("helper", tool("encodeUrl", "Encode input data to URL-encoded format", {"input": S}, ("input",)),
                 tool("decodeHtml", "Decode HTML-encoded input data", {"input": S}, ("input",)))
    r = results(srv)
    assert r[("encodeUrl", "domain")] == r[("decodeHtml", "domain")] == ["pass"]
    env = Environment([build_service(infer_plan(srv, "helper"))], seed=1)
    assert env.step({"name": "helper__encodeUrl", "arguments": {"input": "a b&c"}}).data["output"] == "a%20b%26c"
    assert env.step({"name": "helper__decodeHtml", "arguments": {"input": "&lt;p&gt;"}}).data["output"] == "<p>"


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


def test_a_write_applies_the_fields_its_envelope_argument_holds() -> None:
    """`create_variable(params={name, type, default_value})` writes a variable with that name, type
    and default, which the service's reads then show; `update_variable(variable_id, updates={...})`
    changes them. The envelope is no field of its own."""
    srv = server("catalog",
                 tool("create_variable", "Create a catalog variable.", {"params": {"type": "object", "properties": {
                     "name": S, "type": {"type": "string", "enum": ["text", "number"]}, "default_value": S}, "required": ["name"]}}, ("params",)),
                 tool("update_variable", "Update a catalog variable.", {"variable_id": S, "updates": {"type": "object", "properties": {
                     "name": S, "default_value": S}}}, ("variable_id", "updates")),
                 tool("get_variable", "Get a catalog variable by its id.", {"variable_id": S}, ("variable_id",)))
    plan = infer_plan(srv, "catalog")
    create = next(t for t in plan.tools if t.name == "create_variable")
    assert {(p.name, p.role, p.within) for p in create.params} == {("name", "field", "params"), ("type", "field", "params"),
                                                                    ("default_value", "field", "params")}
    env = Environment([build_service(plan)], seed=1)
    made = env.step({"name": "catalog__create_variable", "arguments": {"params": {"name": "region", "type": "text", "default_value": "EU"}}})
    assert made.ok and (made.data["name"], made.data["type"], made.data["default_value"]) == ("region", "text", "EU")
    assert "params" not in made.data
    changed = env.step({"name": "catalog__update_variable", "arguments": {"variable_id": made.data["id"], "updates": {"default_value": "US"}}})
    assert changed.ok and changed.data["default_value"] == "US" and changed.data["name"] == "region"
    read = env.step({"name": "catalog__get_variable", "arguments": {"variable_id": made.data["id"]}})
    assert read.ok and (read.data["name"], read.data["default_value"]) == ("region", "US")


def test_a_send_whose_message_comes_wrapped_in_one_object_sends_it() -> None:
    """`send_email(email={to, subject, body})` sends an email with that subject, which the service's
    search then finds; it is no lookup of an email whose `email` equals the whole object (it answered
    "no email with email {...}", and the seeded emails carried a second, contradicting copy of
    their fields under `email`)."""
    email = {"type": "object", "properties": {"to": S, "subject": S, "body": S, "cc": S}, "required": ["to", "subject", "body"]}
    srv = server("mail",
                 tool("send_email", "Send an email using the mail app", {"email": email}, ("email",)),
                 tool("search_emails", "Search emails containing the given text", {"query": S, "limit": I}, ("query",)))
    plan = infer_plan(srv, "mail")
    send = next(t for t in plan.tools if t.name == "send_email")
    assert {(p.name, p.within) for p in send.params} == {("to", "email"), ("subject", "email"), ("body", "email"), ("cc", "email")}
    env = Environment([build_service(plan)], seed=1)
    assert all("email" not in r for r in env.state()["mail"][plan.entities[0].collection].values())
    sent = env.step({"name": "mail__send_email", "arguments": {"email": {"to": "ana@example.com", "subject": "Zebra crossing plan",
                                                                          "body": "See the attached map."}}})
    assert sent.ok, sent.error
    assert (sent.data["to"], sent.data["subject"], sent.data["status"]) == ("ana@example.com", "Zebra crossing plan", "sent")
    found = env.step({"name": "mail__search_emails", "arguments": {"query": "Zebra crossing"}})
    assert found.ok and [r["id"] for r in found.data["items"]] == [sent.data["id"]]


def test_a_batch_create_makes_one_record_per_item_its_fields_inside_the_items_envelope() -> None:
    """`calls_batch_create(inputs=[{properties: {hs_call_title, hs_call_body}}])` creates the calls, which
    the service's listing then shows (it was an action that only logged itself: "batch" read as the
    verb), and `calls_batch_update(inputs=[{id, properties}])` changes each named call; verification
    reads the first record a batch create answers."""
    item = {"type": "object", "properties": {"properties": {"type": "object", "properties": {"hs_call_title": S, "hs_call_body": S},
                                                            "required": ["hs_call_title"]},
                                             "associations": {"type": "array", "items": {"type": "object", "properties": {"id": S}}}},
            "required": ["properties"]}
    srv = server("crm", tool("calls_batch_create", "Create multiple call records in a single request", {"inputs": {"type": "array", "items": item}},
                             ("inputs",)),
                 tool("calls_batch_update", "Update multiple call records in a single request",
                      {"inputs": {"type": "array", "items": {"type": "object", "properties": {"id": S, **item["properties"]}, "required": ["id"]}}},
                      ("inputs",)),
                 tool("calls_list", "List call records", {"limit": I}),
                 tool("calls_get", "Get a call record by its id", {"callId": S}, ("callId",)))
    plan = infer_plan(srv, "crm")
    create = next(t for t in plan.tools if t.name == "calls_batch_create")
    assert create.op == "create" and [p.role for p in create.params] == ["items"]
    assert {"hs_call_title", "hs_call_body"} <= {f.name for f in plan.entities[0].fields}
    env = Environment([build_service(plan)], seed=1)
    made = env.step({"name": "crm__calls_batch_create", "arguments": {"inputs": [
        {"properties": {"hs_call_title": "Renewal call with Kestrel", "hs_call_body": "Agreed on a two-year term."}},
        {"properties": {"hs_call_title": "Onboarding call"}}]}})
    assert made.ok, made.error
    ids = [r["id"] for r in made.data["inputs"]]
    assert [r["hs_call_title"] for r in made.data["inputs"]] == ["Renewal call with Kestrel", "Onboarding call"]
    listed = env.step({"name": "crm__calls_list", "arguments": {"limit": 100}})
    assert set(ids) <= {r["id"] for r in listed.data["items"]}
    # a batch update changes each item's record, named by its id (it stored the whole list on some call)
    changed = env.step({"name": "crm__calls_batch_update", "arguments": {"inputs": [{"id": ids[1], "properties": {"hs_call_title": "Kickoff call"}}]}})
    assert changed.ok and env.state()["crm"][create.collection][ids[1]]["hs_call_title"] == "Kickoff call"  # type: ignore[index]
    assert all("inputs" not in r for r in env.state()["crm"][create.collection].values())  # type: ignore[index]
    unknown = env.step({"name": "crm__calls_batch_update", "arguments": {"inputs": [{"id": "call_404", "properties": {"hs_call_title": "X"}}]}})
    assert not unknown.ok and unknown.error_kind == "not_found"
    verdict = verify_service(build_service(plan))
    # the batch create is the entity's only create: what it made is read back and listed
    assert {("calls_get", "create_read"), ("calls_list", "list_finds_created")} <= \
        {(c.tool, c.check) for c in verdict.checks if c.status == "pass"}, verdict.failures()


def test_reads_and_transitions_take_their_key_and_filters_from_an_envelope() -> None:
    """`get_change(params={change_id})` reads that change and not-found for an unknown id (it answered
    some change whatever the id), `approve_change(params={change_id})` approves it (it only logged
    itself as "completed"), `list_changes(params={state})` filters on the state (it ignored it)."""
    env_of = lambda props, req=(): {"params": {"type": "object", "properties": props, "required": list(req)}}  # noqa: E731
    srv = server("changes",
                 tool("create_change", "Create a change request.", env_of({"title": S, "state": S}, ("title",)), ("params",)),
                 tool("get_change", "Get a change request by its id.", env_of({"change_id": S}, ("change_id",)), ("params",)),
                 tool("approve_change", "Approve a change request.", env_of({"change_id": S, "comments": S}, ("change_id",)), ("params",)),
                 tool("list_changes", "List change requests.", env_of({"state": S, "limit": I}), ("params",)))
    plan = infer_plan(srv, "changes")
    assert {t.name: t.op for t in plan.tools} == {"create_change": "create", "get_change": "get", "approve_change": "transition",
                                                   "list_changes": "list"}
    env = Environment([build_service(plan)], seed=1)
    rows = env.state()["changes"][plan.entities[0].collection]
    first, second = list(rows)[:2]
    got = env.step({"name": "changes__get_change", "arguments": {"params": {"change_id": second}}})
    assert got.ok and got.data["id"] == second
    unknown = env.step({"name": "changes__get_change", "arguments": {"params": {"change_id": "chg_404"}}})
    assert not unknown.ok and unknown.error_kind == "not_found"
    approved = env.step({"name": "changes__approve_change", "arguments": {"params": {"change_id": first, "comments": "ok"}}})
    assert approved.ok and approved.data["id"] == first and approved.data["status"] == "approved"
    made = env.step({"name": "changes__create_change", "arguments": {"params": {"title": "Rotate keys", "state": "review"}}})
    listed = env.step({"name": "changes__list_changes", "arguments": {"params": {"state": "review"}}})
    assert listed.ok and made.data["id"] in [r["id"] for r in listed.data["items"]]
    assert all(r["state"] == "review" for r in listed.data["items"])
    # verification calls these tools as a caller would, the key and the filters inside the envelope
    verdict = verify_service(build_service(plan))
    assert verdict.verified, [(c.tool, c.check, c.detail) for c in verdict.failures()]
    ran = {(c.tool, c.check) for c in verdict.checks if c.status == "pass"}
    assert {("get_change", "create_read"), ("list_changes", "filter"), ("approve_change", "transition")} <= ran


def test_a_span_ends_after_it_starts() -> None:
    """Seeded sessions and bookings never end before they start (the two dates are drawn apart)."""
    from compoworld.synthesis.runtime import time_pairs

    assert time_pairs(("starts_at", "ends_at", "title")) == [("starts_at", "ends_at")]
    assert time_pairs(("start_date", "end_date", "started_at", "finished_at")) == [("start_date", "end_date"), ("started_at", "finished_at")]
    srv = server("sessions", tool("list_sessions", "List the sessions of an application.", {"limit": I}))
    env = Environment([build_service(infer_plan(srv, "sessions"))], seed=5)
    rows = list(env.services["sessions"].db["sessions"])
    assert rows and all(r["starts_at"] <= r["ends_at"] for r in rows)


def test_nfts_and_products_are_records_of_their_kind() -> None:
    """A chain service's NFTs are numbered items of a collection at an address with a metadata URI,
    not stock quotes; a shop's products are the world's catalog, named and priced alike."""
    from compoworld.services.fake import PRODUCTS

    nfts = server("nft_chain", tool("get_nfts", "Get the ERC721 NFTs owned by a wallet on Ethereum.", {"owner": S, "limit": I}))
    env = Environment([build_service(infer_plan(nfts, "nft_chain"))], seed=4)
    row = next(iter(env.services["nft_chain"].db["nfts"]))
    assert re.fullmatch(r"0x[0-9a-f]{40}", row["contract_address"]) and re.fullmatch(r"\d+", row["token_id"])
    assert row["name"].endswith(f"#{row['token_id']}") and row["token_uri"].endswith(f"/{row['token_id']}.json")
    assert "price" not in row and "symbol" not in row
    shop = server("shop", tool("list_products", "List the products of the shop.", {"limit": I}))
    env = Environment([build_service(infer_plan(shop, "shop"))], seed=4)
    prices = dict(PRODUCTS)
    rows = list(env.services["shop"].db["products"])
    assert rows and all(r["name"] in prices and r["price"] == prices[r["name"]] for r in rows)


def test_finance_records_are_coherent_with_their_ticker_and_of_the_analysts_kind() -> None:
    """A quote of AAPL is Apple's, in USD, near where it trades, with a day's move; a stock's grades
    are a broker's grades; `from`/`to` dates bound a listing instead of filtering on text; a
    `periodLength` says how to compute, not which records; a plan upgrade is no analyst's grade."""
    from compoworld.synthesis.world import BROKERS, GRADES, TICKER_INFO

    srv = server("stocks", tool("get_stock_quote", "Get the latest stock quote for a ticker symbol.", {"symbol": S}, ("symbol",)),
                 tool("get_stock_grades", "Get the analyst grades of a stock.", {"symbol": S}, ("symbol",)),
                 tool("get_williams", "Calculate the Williams %R of a stock.", {"symbol": S, "periodLength": N, "timeframe": S,
                                                                                 "from": {"type": "string", "description": "Start date (YYYY-MM-DD)"},
                                                                                 "to": {"type": "string", "description": "End date (YYYY-MM-DD)"}}, ("symbol",)))
    plan = infer_plan(srv, "stocks")
    roles = {p.name: p.role for p in next(t for t in plan.tools if t.name == "get_williams").params}
    assert roles["periodLength"] == roles["timeframe"] == "option" and roles["from"] in ("min", "option") and roles["to"] in ("max", "option")
    assert {e.topic for e in plan.entities} >= {"grade"}
    env = Environment([build_service(plan)], seed=6)
    for symbol in ("AAPL", "NVDA", "BTC"):
        q = env.step({"name": "stocks__get_stock_quote", "arguments": {"symbol": symbol}}).data
        name, base = TICKER_INFO[symbol]
        assert q["name"] == name and q["currency"] == "USD" and abs(q["price"] / base - 1) <= 0.04 and -6 <= q["change_percent"] <= 6
    grades = list(env.services["stocks"].db["grades"])
    assert grades and all(g["grading_company"] in BROKERS and g["new_grade"] in GRADES for g in grades)
    plans = infer_plan(server("hosting", tool("get_plan_upgrade", "Get the pending upgrade of the hosting plan.", {"app": S}, ("app",))), "hosting")
    assert all(e.topic != "grade" for e in plans.entities)


def test_a_tool_suffix_names_no_entity_and_emojis_are_emojis() -> None:
    srv = server("emoji_hub", tool("get_random_emoji_tool", "Get a random emoji with its name, category, group, htmlCode and unicode.", {}),
                 tool("get_all_emojis_tool", "Get all emojis.", {}))
    plan = infer_plan(srv, "emoji_hub")
    assert {e.entity for e in plan.entities} & {"emoji", "emojis"} and not {e.entity for e in plan.entities} & {"tool", "tools"}
    env = Environment([build_service(plan)], seed=3)
    got = env.step({"name": "emoji_hub__get_random_emoji_tool", "arguments": {}}).data
    assert got["html_code"] == "".join(f"&#{ord(c)};" for c in got["emoji"]) and got["unicode"].startswith("U+")


def test_folders_are_folders_and_a_first_name_is_a_first_name() -> None:
    """A notes service's directories are folders (no file extension, no document body); a user's
    `first_name` and `last_name` are the two halves of one person's name, not the full name twice."""
    notes = server("notes", tool("create_directory", "Create a new directory in your notes.", {"path": S}, ("path",)),
                   tool("list_directories", "List the directories of your notes.", {"limit": I}))
    plan = infer_plan(notes, "notes")
    assert next(e for e in plan.entities if e.entity == "directory").topic == "folder"
    rows = list(Environment([build_service(plan)], seed=2).services["notes"].db["directories"])
    assert rows and all("." not in r["path"].rsplit("/", 1)[-1] and "content" not in r for r in rows)
    crm = server("crm", tool("create_user", "Create a user.", {"first_name": S, "last_name": S, "email": S}, ("email",)),
                 tool("list_users", "List the users.", {"limit": I}))
    users = list(Environment([build_service(infer_plan(crm, "crm"))], seed=2).services["crm"].db["users"])
    assert users and all(" " not in u["first_name"] and u["first_name"] != u["last_name"] for u in users)


def test_domain_check_catches_placeholder_text_and_a_read_without_the_value_it_is_named_for() -> None:
    """A record nothing in the spec shapes answers placeholder text ("Gizmo 3, as recorded."), and a
    read named for a value (a page's URL) that answers a document without it says nothing its spec
    asks for: both are structural, not faithful. A note read by its id answers the note."""
    def domain(srv: ServerSpec) -> dict[str, tuple[str, str]]:
        cls = build_service(infer_plan(srv, srv.name))
        return {c.tool or "": (c.status, c.detail) for c in check_fidelity(cls, srv) if c.check == "fidelity_domain"}

    gizmo = domain(server("gizmos", tool("get_gizmo", "Get a stored gizmo.", {"gizmo_id": S}, ("gizmo_id",)),
                          tool("rename_gizmo", "Rename a gizmo.", {"gizmo_id": S, "name": S}, ("gizmo_id", "name"))))
    assert gizmo["get_gizmo"] == ("fail", "placeholder text where the spec asks for content")
    page = domain(server("browser", tool("get_current_page_url", "Get the URL of the current page.", {})))
    assert page["get_current_page_url"] == ("fail", "no url in the answer, which the tool is named for")
    notes = domain(server("notes", tool("get_note", "Get a note by its id.", {"note_id": S}, ("note_id",)),
                          tool("create_note", "Create a note.", {"title": S, "body": S}, ("title",))))
    assert notes["get_note"] == ("pass", "")
    assert level_of("deterministic", "get", generic=True) == "structural"


def test_a_read_of_records_nothing_shapes_or_writes_is_simulated_not_a_generic_lookup() -> None:
    """DynamoDB's `dynamodb_batch_get`, Node's `eval(code)` and Neovim's `vim_visual` had answered a
    generic record ("Result 12, as recorded.", a value of 2800.79) as lookups: records no archetype
    shapes and no tool writes. They are world-model tools now, and offline they say that nothing was
    generated. A read of such records that its service writes stays a lookup of them."""
    editor = server("editor", tool("vim_visual", "vim visual.", {"startLine": N, "endLine": N}, ("startLine", "endLine")),
                    tool("eval", "eval.", {"code": S}, ("code",)))
    plan = infer_plan(editor, "editor")
    assert {t.name: t.op for t in plan.tools} == {"vim_visual": "world_model", "eval": "world_model"}
    assert not [e for e in plan.entities if e.world], plan.entities  # no records seeded that no tool reads
    env = Environment([build_service(plan)], seed=1)
    obs = env.step({"name": "editor__vim_visual", "arguments": {"startLine": 1, "endLine": 3}})
    assert obs.ok and "as recorded" not in obs.content and "nothing was generated offline" in obs.content, obs
    assert level_of("world_model", "world_model") == "simulated"
    gizmos = server("gizmos", tool("get_gizmo", "Get a stored gizmo.", {"gizmo_id": S}, ("gizmo_id",)),
                    tool("rename_gizmo", "Rename a gizmo.", {"gizmo_id": S, "name": S}, ("gizmo_id", "name")))
    assert {t.name: t.op for t in infer_plan(gizmos, "gizmos").tools}["get_gizmo"] in ("get", "lookup")


# -- levels and the pipeline ----------------------------------------------------------------------

def test_levels() -> None:
    assert level_of("world_model", "world_model") == "simulated"
    assert level_of("deterministic", "action") == "structural"
    assert level_of("deterministic", "get") == "faithful"
    assert level_of("deterministic", "get", generic=True) == "structural"


def test_search_hits_of_placeholder_text_over_records_nothing_writes_are_simulated(tmp_path: Path) -> None:
    """RuneScape's `search_npctypes` had answered generic search hits ("Npctype 1, as recorded." at a
    company's web address) and counted as structural. Such hits over records no tool writes are
    recompiled as world-model tools; the service's own notes stay faithful."""
    from compoworld.synthesis.pipeline import run_synth

    def search(name: str, what: str) -> dict[str, Any]:
        return {"name": name, "description": f"Search the {name.split('_')[1]}.txt file for {what} definitions.",
                "inputSchema": {"type": "object", "properties": {"query": S}, "required": ["query"]}}
    spec = {"name": "Old School RuneScape Cache", "description": "Search the game cache definitions of Old School RuneScape.", "tools": [
        search("search_npctypes", "NPC"), search("search_varptypes", "player variable"),
        {"name": "create_note", "description": "Create a note.", "inputSchema": {"type": "object", "properties": {"title": S, "body": S}, "required": ["title"]}},
        {"name": "get_note", "description": "Get a note by its id.", "inputSchema": {"type": "object", "properties": {"note_id": S}, "required": ["note_id"]}}]}
    path = tmp_path / "osrs.json"
    path.write_text(json.dumps(spec))
    report = run_synth([path], workers=1, cache_directory=tmp_path / "synth", verify_library_services=False)
    failed = {(c.tool, c.detail) for c in report.fidelity_checks if c.status == "fail"}
    assert failed == {(t, "placeholder text in the records it lists") for t in ("search_npctypes", "search_varptypes")}, failed
    assert report.fidelity == {"faithful": 2, "structural": 0, "simulated": 2}


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

    # the verify stage writes each fidelity check as a `service_checks` row too (`fidelity:<check>`)
    from compoworld.stages.verify import check_rows

    checks = check_rows(compiled["forecasts"])
    fid = [r for r in checks if r["check_name"].startswith("fidelity:")]
    assert len(fid) == len(report.fidelity_checks) and all(r["service"] == "forecasts" for r in fid)
    failed = next(r for r in fid if r["check_name"] == "fidelity:output_fields" and r["detail"].startswith("[fail] get_forecast"))
    assert failed["passed"] is False
    assert any(r["check_name"] == "fidelity:kind" and r["passed"] for r in fid)
    assert len({r["check_id"] for r in checks}) == len(checks)
    assert [r for r in check_rows(faithful["forecasts"]) if r["check_name"].startswith("fidelity:")]  # the same version


# -- writes aimed at the entity their spec names (issue 12, the wrong target of a write) ----------

COURSES = server(
    "courses",
    tool("create_tag", "Create a tag.", {"tag": {"type": "string", "description": "tag identification string"}, "title": S}, ("tag",)),
    tool("post_course_tag", "Attach a tag to a course.", {"course": {"type": "string", "description": "course identification string"},
                                                          "tag": {"type": "string", "description": "tag identification string"}}, ("course", "tag")),
    tool("get_course_tags", "List the tags of a course.", {"course": {"type": "string", "description": "course identification string"}}, ("course",)),
    tool("delete_course_tag", "Remove a tag attachment from a course.", {"course": {"type": "string", "description": "course identification string"},
                                                                         "tag": {"type": "string", "description": "tag identification string"}}, ("course", "tag")),
)


def test_a_write_uses_every_argument_that_names_its_record() -> None:
    # `delete_course_tag(course, tag)` removes the tag of *that* course: another course's is not-found
    assert results(COURSES)[("delete_course_tag", "target")] == ["pass"]
    cls = build_service(infer_plan(COURSES, "courses"))
    env = Environment([cls], seed=3)
    made = env.step({"name": "courses__post_course_tag", "arguments": {"course": "c-1", "tag": "urgent"}})
    assert made.ok
    other = env.step({"name": "courses__delete_course_tag", "arguments": {"course": "c-2", "tag": "urgent"}})
    assert not other.ok and other.error_kind == "not_found"
    assert env.step({"name": "courses__delete_course_tag", "arguments": {"course": "c-1", "tag": "urgent"}}).ok


def test_target_check_catches_a_write_that_ignores_an_argument_naming_its_record() -> None:
    plan = broken(COURSES, "delete_course_tag")
    t = next(t for t in plan.tools if t.name == "delete_course_tag")
    for p in t.params:
        if p.name == "course":
            p.role, p.field = "option", None
    assert results(COURSES, plan)[("delete_course_tag", "target")] == ["fail"]


VAULT = server(
    "vault",
    tool("list_files_in_vault", "List the notes (files) of the vault.", {}),
    tool("get_file_contents", "Return the content of a note file.", {"filepath": {"type": "string", "description": "Path to the file"}}, ("filepath",)),
    tool("patch_content", "Insert content into an existing note relative to a heading.",
         {"filepath": {"type": "string", "description": "Path to the file (relative to vault root)"}, "content": S,
          "target": {"type": "string", "description": "Heading path"}}, ("filepath", "content", "target")),
)


def test_a_write_named_after_part_of_a_record_acts_on_that_record() -> None:
    # `patch_content(filepath)` patches the note at that path, not a "contents" table of its own
    plan = infer_plan(VAULT, "vault")
    patch = next(t for t in plan.tools if t.name == "patch_content")
    assert patch.collection == next(t for t in plan.tools if t.name == "get_file_contents").collection
    assert results(VAULT)[("patch_content", "target")] == ["pass"]



def test_a_part_added_under_a_record_is_a_new_part_not_the_record_again() -> None:
    # Monday's `add_doc_block(doc_id, ...)` had been a create of docs keyed by an id that exists: "already exists" every time
    docs = server("docs", tool("get_docs", "List the documents.", {}),
                  tool("get_doc_content", "Get a document's content.", {"doc_id": S}, ("doc_id",)),
                  tool("add_doc_block", "Add a block to a document",
                       {"doc_id": S, "block_type": {"type": "string", "description": "Type of block (normal_text, heading, divider, etc.)"},
                        "content": S, "after_block_id": S}, ("doc_id", "block_type", "content")))
    env = Environment([build_service(infer_plan(docs, "docs"))], seed=3)
    doc = env.step({"name": "docs__get_docs", "arguments": {}}).data["items"][0]["id"]
    obs = env.step({"name": "docs__add_doc_block", "arguments": {"doc_id": doc, "block_type": "heading", "content": "Decisions"}})
    assert obs.ok, obs.error
    assert obs.data["doc_id"] == doc and obs.data["content"] == "Decisions" and obs.data["id"] != doc
    # the block to add it after is another block, not the new block's own id; nor is a new item's title an identity
    after = env.step({"name": "docs__add_doc_block", "arguments": {"doc_id": doc, "block_type": "divider", "content": "-",
                                                                   "after_block_id": obs.data["id"]}})
    assert after.ok and after.data["id"] != obs.data["id"], after.error
    items = server("board", tool("get_items", "List the items of the board.", {}),
                   tool("create_item", "Create an item, or a subitem under a parent item.",
                        {"itemTitle": S, "parentItemId": S}, ("itemTitle",)))
    env = Environment([build_service(infer_plan(items, "board"))], seed=3)
    first = env.step({"name": "board__create_item", "arguments": {"itemTitle": "Launch plan"}})
    sub = env.step({"name": "board__create_item", "arguments": {"itemTitle": "Launch plan", "parentItemId": first.data["id"]}})
    assert first.ok and sub.ok and sub.data["id"] != first.data["id"], sub.error

def test_target_check_catches_a_write_over_another_collection_than_its_key_names() -> None:
    from compoworld.synthesis.plan import EntityPlan, FieldPlan

    plan = broken(VAULT, "patch_content")
    own = EntityPlan(collection="contents", entity="content", prefix="cont", fields=[
        FieldPlan(name="id", shape=S, role="id"), FieldPlan(name="filepath", shape=S, role="key"), FieldPlan(name="content", shape=S),
        FieldPlan(name="created_at", shape=S, role="created"), FieldPlan(name="updated_at", shape=S, role="updated")])
    plan.entities.append(own)
    t = next(t for t in plan.tools if t.name == "patch_content")
    t.collection = "contents"
    for p in t.params:
        if p.name == "filepath":
            p.collection = "contents"
    assert results(VAULT, plan)[("patch_content", "target")] == ["fail"]


def test_find_is_no_search_for_the_domain_check() -> None:
    from compoworld.synthesis.plan import FieldPlan

    # `find` with a filter answers documents; search hits (title, url, snippet, score) are generic
    srv = server("docs", tool("find", "Run a find query against a collection.", {"collection": S, "filter": {"type": "object"}}, ("collection",)))
    assert infer_plan(srv, "docs").tools[0].collection == "documents"
    plan = broken(srv, "find", op="lookup")
    e = plan.entities[0]
    plan.entities[0] = e.model_copy(update={"fields": [f for f in e.fields if f.name in ("id", "collection")] +
                                            [FieldPlan(name=n, shape=sh) for n, sh in (("title", S), ("url", S), ("snippet", S), ("score", N))]})
    plan.tools[0].output_schema = {"type": "object"}
    assert results(srv, plan)[("find", "domain")] == ["fail"]


def test_a_read_answers_the_value_its_description_says_it_gets() -> None:
    """"Get the version of the server" answered a controller record with no version; "Get the size of
    the collection" no size. A description that names no such value promises nothing."""
    from compoworld.synthesis.fidelity import promised_value

    assert promised_value("Get the version of the server") == "version"
    assert promised_value("Returns the current price of a token.") == "price"
    assert promised_value("Get the latest version of a prompt") is None and promised_value("Get a list of users") is None
    srv = server("api", tool("server_get", "Get the version of the server", {}))
    plan = infer_plan(srv, "api")
    e = plan.entities[0]
    plan.entities[0] = e.model_copy(update={"fields": [f for f in e.fields if "version" not in f.name]})
    assert results(srv, plan)[("server_get", "domain")] == ["fail"]


# -- records from the right domain: the chain a service is about -------------------------------

def test_addresses_and_token_symbols_follow_the_chain_the_service_names() -> None:
    import re

    def records(name: str, desc: str) -> list[dict[str, Any]]:
        srv = ServerSpec(id=name, source="test", name=name, description=desc, tools=[
            tool("get_token_balance", "Get the token balance of a wallet address.", {"address": S, "symbol": S}, ("address",)),
            tool("list_balances", "List the balances of wallet addresses.", {"limit": I})])
        env = Environment([build_service(infer_plan(srv, name))], seed=5)
        return env.step({"name": f"{name}__list_balances", "arguments": {"limit": 20}}).data["items"]

    btc = records("ordinals", "Bitcoin ordinals and inscriptions explorer.")
    assert btc and all(re.fullmatch(r"bc1q[a-z0-9]{38}", r["address"]) for r in btc if r.get("address"))
    stark = records("starknet", "Starknet wallet balances and transfers.")
    assert stark and all(r["symbol"] in ("STRK", "ETH", "USDC", "USDT", "WBTC") for r in stark if r.get("symbol"))
    assert all(re.fullmatch(r"0x[0-9a-f]{64}", r["address"]) for r in stark if r.get("address"))


def test_a_visualization_is_generated_not_a_record_and_a_lookup_by_name_carries_that_name() -> None:
    srv = server("portfolio", tool("visualize_portfolio", "Create a visualization of the current portfolio allocation.", {"user_id": S}, ("user_id",)),
                 tool("get_author_info", "Get author info.", {"author_name": S}, ("author_name",)))
    plan = infer_plan(srv, "portfolio")
    ops = {t.name: t.op for t in plan.tools}
    assert ops["visualize_portfolio"] == "world_model"  # simulated, honestly: no user-like record is made
    env = Environment([build_service(plan)], seed=2)
    got = env.step({"name": "portfolio__get_author_info", "arguments": {"author_name": "Ada Lovelace"}})
    assert got.ok and got.data.get("name", "Ada Lovelace") == "Ada Lovelace"


# -- records in their domain's shape: archetypes of entities that named no known family ------------

def _record(data: Any) -> dict[str, Any]:
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    if isinstance(data, list):
        data = data[0] if data else {}
    return data if isinstance(data, dict) else {}


_ISO_DAY = r"\d{4}-\d\d-\d\d"
ARCHETYPES: list[tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    # (tool, description, input properties, arguments, field -> expected value (a regex or a set of values))
    ("list_tasks", "List the tasks on the team's board.", {"limit": I}, {}, {"priority": r"[1-5]", "due_date": _ISO_DAY, "assignee": r"\w+ \w+"}),
    ("list_messages", "List the messages in the inbox.", {"limit": I}, {}, {"sender": r"\w+ \w+", "recipient": r"[^@]+@[^@]+", "sent_at": _ISO_DAY + ".*"}),
    ("list_orders", "List the orders of the shop.", {"limit": I}, {}, {"order_number": r"ORD-\d+", "currency": {"USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SGD"}}),
    ("list_servers", "List the servers of the account.", {"limit": I}, {}, {"state": {"running", "stopped", "degraded"}, "host": r"ip-[\d-]+\.internal",
                                                                            "region": {"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1"}}),
    ("read_console", "Read the messages of the application console log.", {"limit": I}, {}, {"level": {"INFO", "WARN", "ERROR", "DEBUG"}, "logged_at": _ISO_DAY + ".*"}),
    ("list_images", "List the images of the library.", {"limit": I}, {}, {"format": {"png", "jpg", "webp"}, "filename": r"[a-z-]+(-\d+)?\.(png|jpg|webp)"}),
    ("sma", "Fetch simple moving average", {"symbol": S, "interval": S}, {"symbol": "IBM", "interval": "daily"},
     {"name": {"Simple Moving Average (SMA)"}, "unit": {"USD"}, "data": r"\[\{'date': '\d{4}-\d\d-\d\d', 'value': \d+\.\d+\}.*"}),
    ("list_settings", "List the configuration settings.", {"limit": I}, {}, {"setting": r"[a-z_]+(_\d+)?", "scope": {"global", "project", "user"}}),
    ("list_components", "List the UI components of the library.", {"limit": I}, {}, {"import_path": r"@/components/ui/[a-z-]+"}),
    ("list_prompts", "List the prompts of the server.", {"limit": I}, {}, {"template": r"(?s).*\{\w+\}.*"}),
    ("get_standings", "Get the league standings.", {"season": I}, {"season": 2025}, {"team": r"[A-Z][\w ]+", "points": r"\d+"}),
    ("get_version", "Get version information", {}, {}, {"version": r"\d+\.\d+\.\d+", "released_at": _ISO_DAY}),
    ("list_tables", "List the tables of the database.", {"limit": I}, {}, {"row_count": r"\d+"}),
    ("whois_domain", "Look up whois information about the domain", {"domain": S}, {"domain": "example.com"},
     {"registrar": {"Gandi SAS", "Namecheap, Inc.", "GoDaddy.com, LLC", "Cloudflare, Inc.", "RIPE NCC", "ARIN"}}),
    ("list_models", "List all available models.", {"limit": I}, {}, {"provider": {"OpenAI", "Anthropic", "Mistral AI", "Google", "Meta"}}),
    ("list_courses", "List the available courses.", {"limit": I}, {}, {"instructor": r"\w+ \w+", "start_date": _ISO_DAY}),
    ("get_scene_info", "Get detailed information about the current scene", {}, {}, {"object_count": r"\d+"}),
    ("get_definitions", "Get definitions for a word.", {"word": S}, {}, {"part_of_speech": {"noun", "verb", "adjective"}}),
    ("get_verse", "Get a verse of the Quran.", {"edition_name": S}, {"edition_name": "en.asad"}, {"reference": r"\d+:\d+", "language": {"en", "ar", "tr"}}),
    ("read_graph", "Read the entire knowledge graph", {}, {}, {"entity_type": {"person", "organization", "project", "event"}}),
    ("list_engagements", "List all engagements of the CRM.", {"limit": I}, {}, {"activity_type": {"call", "email", "meeting", "note"}, "contact": r"\w+ \w+"}),
    ("get_compound_details", "Get detailed information about a specific compound by its PubChem CID.", {"cid": I}, {"cid": 2519},
     {"formula": r"(C\d*|H\d*|N\d*|O\d*)+"}),
    ("list_processes", "List the running processes.", {"limit": I}, {}, {"pid": r"\d+", "command": r".+"}),
    ("list_scans", "List all available scan results.", {"limit": I}, {}, {"findings_count": r"\d+", "finished_at": _ISO_DAY + ".*"}),
    ("list_tabs", "List the open browser tabs.", {"limit": I}, {}, {"active": {True, False}}),
    ("list_endpoints", "List the endpoints of the API.", {"limit": I}, {}, {"method": {"GET", "POST", "DELETE"}, "path": r"(/v\d+)?/[\w/{}]+"}),
    ("check_domain_availability", "Check if a domain name is available for registration.", {"domain": S}, {"domain": "example.com"},
     {"available": {True, False}}),
    ("list_shortcuts", "List all available Siri shortcuts.", {"limit": I}, {}, {"action_count": r"\d+", "folder": {"Home", "Work", "Health", "Starter Shortcuts"}}),
    ("list_tags", "List the tags.", {"limit": I}, {}, {"usage_count": r"\d+"}),
    # a code host's commits, branches, pull requests and releases are no code packages (version, stars, licence)
    ("list_commits", "Get the list of commits of a branch in a GitHub repository.", {"limit": I}, {},
     {"sha": r"[0-9a-f]{40}", "author": r"[A-Z][a-z]+ [A-Z][a-z]+", "additions": r"\d+"}),
    ("list_branches", "List branches in a GitHub repository.", {"limit": I}, {}, {"name": r"main|develop|[a-z]+/[\w.-]+", "sha": r"[0-9a-f]{40}"}),
    ("list_pull_requests", "List pull requests in a GitHub repository.", {"limit": I}, {},
     {"state": {"open", "closed", "merged"}, "base": r"main|develop|[a-z]+/[\w.-]+", "head": r"main|develop|[a-z]+/[\w.-]+"}),
    ("list_releases", "List releases of a GitHub repository.", {"limit": I}, {}, {"tag_name": r"v\d+\.\d+\.\d+", "draft": r"True|False"}),
    # a health check answers a state, not a measurement in ms; a cluster's in Elasticsearch's colours
    ("get_health", "Check the health of the service.", {}, {}, {"status": {"healthy", "degraded", "unhealthy"}, "uptime_seconds": r"\d+"}),
    ("get_cluster_health", "Get cluster health status", {}, {}, {"status": {"green", "yellow", "red"}}),
]


@pytest.mark.parametrize("name,desc,props,args,expect", ARCHETYPES, ids=[a[0] for a in ARCHETYPES])
def test_an_entity_of_a_known_archetype_answers_records_of_its_domain(name: str, desc: str, props: dict[str, Any],
                                                                      args: dict[str, Any], expect: dict[str, Any]) -> None:
    import re

    srv = server(f"arch_{name}", tool(name, desc, props))
    assert results(srv)[(name, "domain")] == ["pass"]  # the records carry fields of their own, not a name and a value
    env = Environment([build_service(infer_plan(srv, srv.name))], seed=3)
    obs = env.step({"name": f"{srv.name}__{name}", "arguments": args})
    rec = _record(obs.data)
    assert obs.ok and rec, obs
    for field, want in expect.items():
        assert field in rec, (field, rec)
        got = rec[field]
        assert (got in want) if isinstance(want, set) else re.fullmatch(want, str(got)), (field, got)


def test_statements_dividends_splits_insider_trades_and_transcripts_are_records_of_their_kind() -> None:
    """An income statement is no company and no quote (it answered a city and an industry), a balance
    sheet no database table, a dividend no share price, an insider's trade no token transfer (it
    answered a hash and addresses), a transcript no film (genre, rating) and no person; their lines
    agree with each other. A price chart adjusted for dividends is the symbol's bars."""
    from compoworld.synthesis.world import COINS, INSIDER_TRANSACTIONS, SPLIT_RATIOS, TICKER_INFO

    sym = {"symbol": S}
    srv = server("stocks", tool("income_statement", "Fetch the company income statement.", sym, ("symbol",)),
                 tool("balance_sheet", "Fetch the company balance sheet.", sym, ("symbol",)),
                 tool("cash_flow", "Fetch the company cash flow.", sym, ("symbol",)),
                 tool("company_dividends", "Fetch the company dividends.", sym, ("symbol",)),
                 tool("company_splits", "Fetch the company stock splits.", sym, ("symbol",)),
                 tool("insider_transactions", "Fetch the insider transactions of the stock.", sym, ("symbol",)),
                 tool("get_dividend_adjusted_chart", "Stock prices adjusted for dividends.", sym, ("symbol",)),
                 tool("get_earnings_transcript", "The transcript of an earnings call.", {"symbol": S, "quarter": I}, ("symbol", "quarter")))
    plan = infer_plan(srv, "stocks")
    env = Environment([build_service(plan)], seed=5)

    def record(name: str) -> dict[str, Any]:
        # a symbol the tool's records hold (a listing filters on it; a lookup derives any symbol's)
        rows = env.state()["stocks"][next(t.collection for t in plan.tools if t.name == name)].values()
        symbol = next((r["symbol"] for r in rows if isinstance(r.get("symbol"), str)), "MSFT")
        obs = env.step({"name": f"stocks__{name}", "arguments": {"symbol": symbol} if name != "get_earnings_transcript" else
                        {"symbol": symbol, "quarter": 3}})
        assert obs.ok, (name, obs.error)
        rec = _record(obs.data)
        assert rec, (name, obs.data)
        return rec

    income = record("income_statement")
    assert 0 < income["net_income"] <= income["operating_income"] <= income["gross_profit"] <= income["revenue"], income
    assert not {"city", "industry", "domain", "volume"} & set(income)
    sheet = record("balance_sheet")
    assert abs(sheet["total_assets"] - sheet["total_liabilities"] - sheet["total_equity"]) < 0.01 and "row_count" not in sheet
    flow = record("cash_flow")
    assert abs(flow["operating_cash_flow"] - flow["capital_expenditure"] - flow["free_cash_flow"]) < 0.01
    dividend = record("company_dividends")
    assert dividend["ex_date"] < dividend["record_date"] < dividend["payment_date"] and 0 < dividend["dividend"] < 10
    split = record("company_splits")
    assert (split["numerator"], split["denominator"]) in SPLIT_RATIOS
    trade = record("insider_transactions")
    assert trade["transaction_type"] in INSIDER_TRANSACTIONS and not {"hash", "from_address", "to_address"} & set(trade)
    chart = record("get_dividend_adjusted_chart")  # a chart of a symbol is its bars over time
    assert chart["candles"] and all(b["low"] <= b["close"] <= b["high"] for b in chart["candles"]), chart
    transcript = record("get_earnings_transcript")
    assert "earnings call" in transcript["transcript"] and not {"genre", "rating", "email"} & set(transcript)
    # the call is the listed company's that the ticker names (a seeded transcript of BTC had been
    # "Bitcoin earnings call" over another company's call)
    assert transcript["symbol"] in TICKER_INFO and transcript["symbol"] not in COINS, transcript
    company = TICKER_INFO[transcript["symbol"]][0]
    assert f"{company} earnings call" in transcript["title"] and f"the {company} earnings call" in transcript["transcript"], transcript

    videos = server("videos", tool("get_transcript", "Get the transcript of a YouTube video.", {"video_id": S}, ("video_id",)))
    vplan = infer_plan(videos, "videos")
    env = Environment([build_service(vplan)], seed=5)
    video = next(iter(env.state()["videos"][vplan.tools[0].collection]))  # the video's id is the transcript's
    obs = env.step({"name": "videos__get_transcript", "arguments": {"video_id": video}})
    rec = _record(obs.data)
    assert obs.ok and rec.get("transcript") and "earnings" not in rec["transcript"] and not {"genre", "rating", "email"} & set(rec), rec


def test_a_search_finds_the_whole_query_then_every_word_then_any_word() -> None:
    """A search for "Quote for Quarry Capital" answered every note holding any of its words (the one asked
    for among near-namesakes, "for" matching everything); it answers the notes holding the phrase, else
    those holding every word, else those holding any, the most words first."""
    srv = server("notes", tool("create_note", "Create a note.", {"title": S, "content": S}, ("title", "content")),
                 tool("search_notes", "Search for notes containing the given text.", {"query": S}, ("query",)))
    env = Environment([build_service(infer_plan(srv, "notes"))], seed=1)
    made = {}
    for title in ("Quote for Quarry Capital", "Quote for Quarry Pharma", "Capital plan for Zenith"):
        obs = env.step({"name": "notes__create_note", "arguments": {"title": title, "content": f"{title}: notes from the call."}})
        made[title] = obs.data["id"]

    def found(query: str) -> list[str]:
        obs = env.step({"name": "notes__search_notes", "arguments": {"query": query}})
        assert obs.ok, obs.error
        return [r["id"] for r in obs.data["items"]]

    assert found("Quote for Quarry Capital") == [made["Quote for Quarry Capital"]]
    assert found("pharma quarry quote") == [made["Quote for Quarry Pharma"]]
    both = found("zenith quarry")  # no note holds both words: those holding either
    assert made["Capital plan for Zenith"] in both and made["Quote for Quarry Pharma"] in both


def test_a_transfer_on_a_chain_goes_between_addresses_and_a_swap_between_tokens() -> None:
    """`send_ETH(to, amount)` of an Ethereum wallet held currency codes in `to` ("GBP", "JPY", a rate's
    ends); its records go to addresses, and a swap quote's `from` and `to` are the chain's tokens."""
    from compoworld.synthesis.world import CRYPTO

    srv = server("ethereum_wallet", tool("send_ETH", "Send ETH to an address.", {"to": S, "amount": S}, ("to", "amount")),
                 tool("get_swap_quote", "Get a quote to swap one token for another on Ethereum.", {"from": S, "to": S, "amount": N},
                      ("from", "to", "amount")))
    plan = infer_plan(srv, "ethereum_wallet")
    env = Environment([build_service(plan)], seed=4)
    by_tool = {t.name: t.collection for t in plan.tools}
    sends = list(env.state()["ethereum_wallet"][by_tool["send_ETH"]].values())
    assert sends and all(re.fullmatch(r"0x[0-9a-f]{40}", r["to"]) for r in sends), sends[:2]
    quotes = list(env.state()["ethereum_wallet"][by_tool["get_swap_quote"]].values())
    # (a lookup's keys are kept unique: past the chain's tokens they carry a suffix, "UNI-8")
    assert quotes and all({r["from"].split("-")[0], r["to"].split("-")[0]} <= set(CRYPTO["evm"]) for r in quotes), quotes[:2]


def test_a_screeners_lower_than_and_more_than_bound_what_it_lists() -> None:
    """`stockScreener(priceLowerThan=...)` answered stocks of any price (the bound was an option); a
    `...LowerThan` argument is an upper bound of its field and `...MoreThan` a lower one."""
    srv = server("screener", tool("stockScreener", "Search for stocks by price and volume with the stock screener.",
                                  {"priceLowerThan": N, "priceMoreThan": N, "volumeMoreThan": N, "limit": I}))
    env = Environment([build_service(infer_plan(srv, "screener"))], seed=3)
    everything = env.step({"name": "screener__stockScreener", "arguments": {"limit": 100}}).data["items"]
    prices = sorted(r["price"] for r in everything)
    cut = prices[len(prices) // 2]
    below = env.step({"name": "screener__stockScreener", "arguments": {"priceLowerThan": cut, "limit": 100}}).data["items"]
    above = env.step({"name": "screener__stockScreener", "arguments": {"priceMoreThan": cut, "limit": 100}}).data["items"]
    assert below and all(r["price"] <= cut for r in below) and len(below) < len(everything)
    assert above and all(r["price"] >= cut for r in above) and len(above) < len(everything)


def test_a_symbol_argument_is_the_ticker_not_the_id_of_a_symbols_record() -> None:
    """A service that lists `symbols` made every other tool's `symbol` a reference to those records'
    ids (`symbol="symbo_0008"`); a ticker is the value itself, and a quote looked up by it is its own."""
    srv = server("market", tool("search_symbols", "Search for stock symbols by keywords.", {"keywords": S}, ("keywords",)),
                 tool("get_quote", "Get the latest stock quote for a symbol.", {"symbol": S}, ("symbol",)))
    plan = infer_plan(srv, "market")
    quote = next(t for t in plan.tools if t.name == "get_quote")
    assert not quote.input_schema["properties"]["symbol"].get("x-semantic-type", "").endswith("_id"), quote.input_schema
    assert [p.role for p in quote.params] == ["key"]
    env = Environment([build_service(plan)], seed=2)
    obs = env.step({"name": "market__get_quote", "arguments": {"symbol": "AAPL"}})
    assert obs.ok and obs.data["symbol"] == "AAPL" and obs.data.get("name") == "Apple Inc.", obs.data


def test_an_archetype_record_agrees_with_itself() -> None:
    # a compound's formula and weight are the same compound's; a config setting's value is its own
    from compoworld.synthesis.world import COMPOUNDS, SETTINGS

    srv = server("chem", tool("list_compounds", "List the compounds of the library.", {"limit": I}))
    env = Environment([build_service(infer_plan(srv, "chem"))], seed=4)
    items = env.step({"name": "chem__list_compounds", "arguments": {"limit": 50}}).data["items"]
    known = {c[1]: c[2] for c in COMPOUNDS}
    assert items and all(known[r["formula"]] == r["molecular_weight"] for r in items)
    srv = server("cfg", tool("list_settings", "List the configuration settings.", {"limit": I}))
    env = Environment([build_service(infer_plan(srv, "cfg"))], seed=4)
    items = env.step({"name": "cfg__list_settings", "arguments": {"limit": 50}}).data["items"]
    values = {s[0]: s[1] for s in SETTINGS}
    assert items and all(values[r["setting"]] == r["value"] for r in items if r["setting"] in values)
    assert len({r["setting"] for r in items}) == len(items)  # a setting's name is a key: one record each


def test_a_broad_archetype_needs_the_records_own_name() -> None:
    # "... on the simulator device" in a description does not make a screen size a server record
    srv = server("phone", tool("get_screen_size", "Get the screen size of the mobile device in pixels.", {}),
                 tool("list_servers", "List the servers of the account.", {"limit": I}))
    topics = {e.entity: e.topic for e in infer_plan(srv, "phone").entities}
    assert topics.get("server") == "resource" and topics.get("size") != "resource", topics


MATH = server(
    "mathx",
    tool("sin", "Calculate sine of an angle in radians", {"x": N}, ("x",)),
    tool("log", "Calculate logarithm of a number with optional base", {"base": N, "x": N}, ("x",)),
    tool("gcd", "Greatest common divisor of two integers", {"a": I, "b": I}, ("a", "b")),
    tool("is_prime", "Check if a number is prime", {"n": I}, ("n",)),
    tool("quadratic_roots", "Solve a x^2 + b x + c = 0", {"a": N, "b": N, "c": N}, ("a", "b", "c")),
    tool("degrees_to_radians", "Convert degrees to radians", {"degrees": N}, ("degrees",)),
    tool("encodeHtml", "Encode input data to HTML-encoded format", {"input": S}, ("input",)),
    tool("tail_log", "Show the last lines of the server log", {"lines": I}, ("lines",)),
)


def test_functions_of_numbers_compute_what_their_names_say() -> None:
    import math

    plan = infer_plan(MATH, "mathx")
    ops = {t.name: t.compute for t in plan.tools}
    assert ops["tail_log"] is None  # a log of a server, not a logarithm
    env = Environment([build_service(plan)], seed=1)

    def call(tool_: str, **args: Any) -> Any:
        obs = env.step({"name": f"mathx__{tool_}", "arguments": args})
        return obs.data if obs.ok else obs.error_kind

    assert call("sin", x=0.3)["result"] == pytest.approx(math.sin(0.3))
    assert call("log", x=81, base=3)["result"] == pytest.approx(4)
    assert isinstance(call("log", x=-1), str)  # refused with an error kind, not a number
    assert call("gcd", a=84, b=36)["result"] == 12
    assert (call("is_prime", n=7919)["result"], call("is_prime", n=7917)["result"]) == (True, False)
    assert sorted(call("quadratic_roots", a=2, b=-2, c=-12)["roots"]) == [-2, 3]
    assert call("degrees_to_radians", degrees=90)["result"] == pytest.approx(math.pi / 2)
    assert call("encodeHtml", input="<b>&</b>")["output"] == "&lt;b&gt;&amp;&lt;/b&gt;"
    r = results(MATH)
    for name in ("sin", "log", "gcd", "is_prime", "quadratic_roots", "degrees_to_radians"):
        assert r[(name, "computation")] == ["pass"], name


def test_math_check_catches_a_conversion_the_wrong_way_round() -> None:
    plan = broken(MATH, "degrees_to_radians", op="compute", compute="math_degrees")
    assert results(MATH, plan)[("degrees_to_radians", "computation")] == ["fail"]


EPOCH = server(
    "cal",
    tool("getDateByTimestamp", "Convert the provided timestamp to date format", {"ts": N}, ("ts",)),
    tool("batchGetDateByTimestamp", "Batch convert timestamps to dates", {"tsList": {"type": "array", "items": N}}, ("tsList",)),
    tool("get_timestamp", "Get the timestamp for the time.", {"time": S}, ("time",)),
)


def test_unix_timestamps_convert_both_ways() -> None:
    plan = infer_plan(EPOCH, "cal")
    assert {t.name: t.compute for t in plan.tools} == {"getDateByTimestamp": "epoch_to_date",
                                                       "batchGetDateByTimestamp": "epoch_to_date", "get_timestamp": "epoch_to_timestamp"}
    env = Environment([build_service(plan)], seed=1)
    assert env.step({"name": "cal__getDateByTimestamp", "arguments": {"ts": 86400 * 365}}).data["date"] == "1971-01-01"
    assert [i["date"] for i in env.step({"name": "cal__batchGetDateByTimestamp", "arguments": {"tsList": [0, 1e12]}}).data["items"]] == \
        ["1970-01-01", "2001-09-09"]  # 10^12 is milliseconds
    assert env.step({"name": "cal__get_timestamp", "arguments": {"time": "2000-01-01"}}).data["timestamp"] == 946684800
    assert not env.step({"name": "cal__get_timestamp", "arguments": {"time": "soon"}}).ok
    assert all(results(EPOCH)[(t, "computation")] == ["pass"] for t in ("getDateByTimestamp", "batchGetDateByTimestamp", "get_timestamp"))
    wrong = broken(EPOCH, "get_timestamp", op="compute", compute="epoch_to_date")
    assert results(EPOCH, wrong)[("get_timestamp", "computation")] == ["fail"]


# -- arguments that belong together, values that say what they are ------------------------------

PLANE = server(
    "plane",
    tool("list_projects", "List projects", {}),
    tool("list_issues", "List issues of a project", {"project_id": S}, ("project_id",)),
    tool("get_issue", "Get an issue", {"issue_id": S}, ("issue_id",)),
    tool("get_worklog", "Get a worklog", {"worklog_id": S}, ("worklog_id",)),
    tool("create_worklog", "Log work on an issue", {"project_id": S, "issue_id": S, "hours": N, "scorm": S}, ("project_id", "issue_id", "hours")),
    tool("update_worklog", "Update an existing worklog", {"project_id": S, "issue_id": S, "worklog_id": S, "hours": N},
         ("project_id", "issue_id", "worklog_id")),
)


def test_state_drawn_arguments_come_from_one_record() -> None:
    import random

    from compoworld.services.sampling import schema_arguments

    env = Environment([build_service(infer_plan(PLANE, "plane"))], seed=3)
    spec = env.services["plane"].specs()["update_worklog"]
    worklogs = {r["id"]: r for r in env.services["plane"].db["worklogs"]}
    assert worklogs
    for k in range(10):
        args = schema_arguments(spec, env, "plane", random.Random(k))
        rec = worklogs[args["worklog_id"]]
        assert (args["project_id"], args["issue_id"]) == (rec["project_id"], rec["issue_id"])
        assert env.step({"name": "plane__update_worklog", "arguments": {**args, "hours": 2}}).ok


def test_plain_text_fields_say_what_they_hold_and_references_match_exactly() -> None:
    from compoworld.synthesis.runtime import matches

    env = Environment([build_service(infer_plan(PLANE, "plane"))], seed=3)
    labels = [r.get("scorm") for r in env.services["plane"].db["worklogs"] if isinstance(r.get("scorm"), str)]
    assert labels and all(re.fullmatch(r"scorm-\d\d", v) for v in labels)  # not a random "mspsyt"
    assert matches("database-12", "database-1") and not matches("database-12", "database-1", exact=True)
    assert matches(["course-02", "course-03"], "COURSE-03", exact=True)


def test_a_reversing_service_keeps_symbols_at_addresses_and_a_database_does_not() -> None:
    # "a generic record (a name, a description, a value)" was what list_globals of a disassembler
    # answered; a function of a binary is a symbol at an address in a segment.
    tools = (tool("list_functions", "List all functions in the program", {"offset": I}), tool("list_segments", "List segments", {}))
    ghidra = server("ghidra", *tools).model_copy(update={"description": "Reverse engineer binaries with Ghidra: decompile functions."})
    env = Environment([build_service(infer_plan(ghidra, "ghidra"))], seed=2)
    rows = env.step({"name": "ghidra__list_functions", "arguments": {}}).data["items"]
    assert rows and all(re.fullmatch(r"0x[0-9A-F]{8}", r["address"]) and r["segment"].startswith(".") for r in rows)
    assert results(ghidra)[("list_functions", "domain")] == ["pass"]
    database = server("pg", *tools).model_copy(update={"description": "Query a PostgreSQL database: tables, functions, triggers."})
    env = Environment([build_service(infer_plan(database, "pg"))], seed=2)
    data = env.step({"name": "pg__list_functions", "arguments": {}}).data
    assert all("segment" not in r for r in data.get("items", [data])), data


# -- values the specification gives, values a field's name says, moves and renames ---------------

def test_examples_in_a_parameter_description_are_what_its_records_hold() -> None:
    from compoworld.synthesis.schema import spec_examples

    assert spec_examples({"description": "Network name (e.g., 'mainnet', 'sepolia'). Defaults to Mainnet."}) == ["mainnet", "sepolia"]
    assert spec_examples({"description": "Address or ENS name (e.g., '0x1234...' or 'vitalik.eth')"}) == ["vitalik.eth"]
    assert spec_examples({"description": "Search text; quote 'like this' for a phrase"}) == []  # no cue, no examples
    assert spec_examples({"examples": ["a", 3, "b"]}) == ["a", "b"]
    # listed without quotes inside parentheses, or up to an "etc."; a sentence after "e.g." lists nothing
    assert spec_examples({"description": "Type of season (e.g., regular, postseason)"}) == ["regular", "postseason"]
    assert spec_examples({"description": "User community (RE, SB, AG, etc.)"}) == ["RE", "SB", "AG"]
    assert spec_examples({"description": 'Node type: "nodes-base.slack", "nodes-base.googleSheets", etc.'}) == \
        ["nodes-base.slack", "nodes-base.googleSheets"]
    assert spec_examples({"description": "Query, e.g. find the open bugs, then sort them"}) == []
    assert spec_examples({"description": "Location (e.g., city, state)"}) == []  # the parts of a value, not values
    unity = server("unity", tool("find_assets_by_type", "Find all Unity assets of a specified type in the project.",
                                 {"assetType": {"type": "string", "description": 'Type of assets to find (e.g., "Material", "Prefab", "Scene", "Script")'}},
                                 ("assetType",)),
                   tool("create_asset", "Create a Unity asset.", {"name": S, "assetType": S}, ("name", "assetType")))
    env = Environment([build_service(infer_plan(unity, "unity"))], seed=4)
    types = {r["asset_type"] for r in env.services["unity"].db["assets"]}
    assert types and types <= {"Material", "Prefab", "Scene", "Script"}  # not business words like "migration"
    found = env.step({"name": "unity__find_assets_by_type", "arguments": {"assetType": sorted(types)[0]}})
    assert found.ok and found.data["items"] and all(r["asset_type"] == sorted(types)[0] for r in found.data["items"])


def test_a_field_whose_name_says_what_it_holds_gets_a_value_of_that_kind() -> None:
    jobs = server("jobs", tool("create_job", "Create a scheduled job.", {"title": S, "schedule": S, "command": S, "doi": S, "desc": S},
                               ("title",)),
                  tool("list_jobs", "List scheduled jobs.", {}))
    env = Environment([build_service(infer_plan(jobs, "jobs"))], seed=4)
    rows = list(env.services["jobs"].db["jobs"])
    assert rows
    for r in rows:  # labels such as "schedule-03" were filler: a cron line, a command and a DOI say what they are
        assert re.fullmatch(r"[\d*/,-]+ [\d*/,-]+ [\d*/,-]+ [\d*/,-]+ [\d*/,-]+", r["schedule"]), r["schedule"]
        assert not re.fullmatch(r"command-\d\d", r["command"]) and r["doi"].startswith("10.")
        assert not re.fullmatch(r"desc-\d\d", r["desc"]) and r["desc"].endswith(".")  # a line of text


MOVER = server(
    "files",
    tool("write_file", "Create a new file or overwrite an existing one.", {"path": S, "content": S}, ("path", "content")),
    tool("read_file", "Read the complete contents of a file.", {"path": S}, ("path",)),
    tool("move_file", "Move or rename files and directories.", {"source": S, "destination": S}, ("source", "destination")),
)


def test_a_move_changes_the_records_path_instead_of_storing_source_and_destination() -> None:
    env = Environment([build_service(infer_plan(MOVER, "files"))], seed=4)
    files = env.services["files"].db["files"]
    assert all("source" not in r and "destination" not in r for r in files)
    first, second = list(files)[:2]
    moved = env.step({"name": "files__move_file", "arguments": {"source": first["path"], "destination": "/archive/old.txt"}})
    assert moved.ok and moved.data["id"] == first["id"] and moved.data["path"] == "/archive/old.txt"
    assert env.step({"name": "files__read_file", "arguments": {"path": "/archive/old.txt"}}).data["content"] == first["content"]
    assert env.step({"name": "files__read_file", "arguments": {"path": first["path"]}}).error_kind == "not_found"
    clash = env.step({"name": "files__move_file", "arguments": {"source": "/archive/old.txt", "destination": second["path"]}})
    assert not clash.ok and "already exists" in (clash.error or "")
    assert env.step({"name": "files__read_file", "arguments": {"path": second["path"]}}).data["id"] == second["id"]
    rename = server("kv", tool("set", "Set a key to a value.", {"key": S, "value": S}, ("key", "value")),
                    tool("get", "Get the value of a key.", {"key": S}, ("key",)),
                    tool("rename", "Rename a key.", {"old_key": S, "new_key": S}, ("old_key", "new_key")))
    params = {p.name: (p.role, p.field) for p in next(t for t in infer_plan(rename, "kv").tools if t.name == "rename").params}
    assert params == {"old_key": ("key", "key"), "new_key": ("field", "key")}


def test_a_record_about_a_person_is_one_person_and_chain_records_are_not_tables() -> None:
    scholar = server("scholar", tool("get_author_info", "Get an author's profile.", {"author_name": {"type": "string", "x-semantic-type": "person_name"}},
                                     ("author_name",)),
                     tool("list_authors", "List authors.", {}))
    env = Environment([build_service(infer_plan(scholar, "scholar"))], seed=4)
    for r in env.services["scholar"].db["authors"]:
        assert r.get("name", r["author_name"]) == r["author_name"]
        if r.get("email"):  # the author's own address, not another person's
            assert r["author_name"].split()[-1].lower() in r["email"]
    ordinals = ServerSpec(id="ordiscan", source="test", name="ordiscan", description="Bitcoin ordinals and inscriptions explorer.", tools=[
        tool("list_collection_inscriptions", "List the inscriptions of a collection.", {"slug": S}),
        tool("get_inscription", "Get an inscription by its id.", {"inscription_id": S}, ("inscription_id",))])
    env = Environment([build_service(infer_plan(ordinals, "ordiscan"))], seed=4)
    rows = list(env.services["ordiscan"].db["inscriptions"])
    assert rows and all("table" not in r and "row_count" not in r for r in rows)
    assert all(re.fullmatch(r"bc1q[a-z0-9]{38}", r["address"]) for r in rows if r.get("address"))


def test_the_user_or_account_a_description_addresses_makes_no_record_a_person() -> None:
    """"After the user chooses a week" and "numbers of your account" speak to the caller: a workbook
    is no person and a phone number no account holder (both answered a name, an email and a username).
    A record its own names call a user still is one."""
    jw = server("jw", tool("getWorkbookContent", "Get the workbook content after the user chooses a week.", {"url": S}, ("url",)))
    phones = server("voice", tool("list_phone_numbers", "List all phone numbers associated with your account.", {}))
    users = server("accounts", tool("get_user", "Get a user of the workspace.", {"user_id": S}, ("user_id",)))
    topics = {n: {e.entity: e.topic for e in infer_plan(s, n).entities} for n, s in (("jw", jw), ("voice", phones), ("accounts", users))}
    assert topics["jw"].get("workbook") != "person" and topics["voice"].get("number") != "person", topics
    assert topics["accounts"]["user"] == "person"
    env = Environment([build_service(infer_plan(jw, "jw"))], seed=4)
    assert all("email" not in r and "username" not in r for r in env.services["jw"].db["workbooks"])


def test_a_token_off_a_blockchain_authenticates_and_a_wipe_deletes() -> None:
    """A dashboard's "validate a token" and an ads API's "needs an access token" are no coins with a
    price (they answered symbols, prices and volumes); on a chain a token still has one. Wiping logs
    removes them, it does not write an empty log record."""
    ads = server("ads", tool("get_insights", "Get performance insights for a campaign. Requires an access token.", {"campaign_id": S}, ("campaign_id",)))
    coins = ServerSpec(id="dex", source="test", name="dex", description="Ethereum DEX data.", tools=[
        tool("get_token_info", "Get a token's price and volume.", {"token_address": S}, ("token_address",))])
    assert all(e.topic != "price" for e in infer_plan(ads, "ads").entities)
    assert any(e.topic in ("price", "chain") for e in infer_plan(coins, "dex").entities)
    logs = server("browser", tool("wipeLogs", "Wipe all browser logs from memory", {}), tool("getConsoleLogs", "Check our browser logs", {}))
    wipe = next(t for t in infer_plan(logs, "browser").tools if t.name == "wipeLogs")
    assert wipe.op not in ("create", "lookup", "list"), wipe.op


def test_only_arithmetic_is_evaluated_as_an_expression_and_code_runs_in_the_world_model() -> None:
    """`Execute JavaScript in the browser console` and `eval_ruby(code)` answered "cannot parse
    expression", and the rank of a stored tensor parsed the tensor's name as arithmetic: running code is
    a world-model tool (its output depends on an interpreter) and a named tensor no expression. A
    calculator still calculates, and SHA-384 is SHA-384."""
    import hashlib

    srv = server("tools", tool("browser_evaluate", "Execute JavaScript in the browser console", {"script": S}, ("script",)),
                 tool("rank", "Computes the rank of a stored tensor.", {"name": S}, ("name",)),
                 tool("calculate", "Calculates/evaluates the given expression.", {"expression": S}, ("expression",)),
                 tool("sha384", "Calculate SHA-384 hash of a string", {"input": S}, ("input",)))
    plan = infer_plan(srv, "tools")
    ops = {t.name: (t.op, t.compute) for t in plan.tools}
    assert ops["browser_evaluate"][0] == "world_model" and ops["rank"][1] != "expression", ops
    env = Environment([build_service(plan)], seed=2)
    ran = env.step({"name": "tools__browser_evaluate", "arguments": {"script": "document.title"}})
    assert ran.ok and ran.simulated and set(ran.data) >= {"stdout", "exit_code"}
    assert env.step({"name": "tools__calculate", "arguments": {"expression": "2*(3+4)"}}).data["result"] == 14
    assert env.step({"name": "tools__sha384", "arguments": {"input": "abc"}}).data["hash"] == hashlib.sha384(b"abc").hexdigest()


def test_a_transfer_writes_a_transfer_and_no_record_keeps_a_credential() -> None:
    """`transfer_eth(privateKey, to, amount)` was a lookup of a record keyed by the private key (marked
    faithful): a transfer is a write that makes a transfer, of what its name says, and a private key or
    a password authorizes the call without being stored. Transferring an app to a team changes the app.
    A listing of an inscription's transfers still reads."""
    wallet = ServerSpec(id="evm", source="test", name="evm", description="Ethereum wallet tools.", tools=[
        tool("transfer_eth", "Transfer ETH to an address.", {"privateKey": S, "to": S, "amount": S}, ("privateKey", "to", "amount")),
        tool("get_inscription_transfers", "Get the transfers of an inscription.", {"id": S}, ("id",))])
    plan = infer_plan(wallet, "evm")
    ops = {t.name: (t.op, t.collection) for t in plan.tools}
    assert ops["transfer_eth"] == ("create", "transfers") and ops["get_inscription_transfers"][0] in ("get", "list", "lookup"), ops
    env = Environment([build_service(plan)], seed=5)
    sent = env.step({"name": "evm__transfer_eth", "arguments": {"privateKey": "0x" + "ab" * 32, "to": "0x" + "11" * 20, "amount": "0.5"}})
    assert sent.ok and sent.data["to"] == "0x" + "11" * 20 and "0x" + "ab" * 32 not in sent.content
    hosting = server("hosting", tool("transfer_app", "Transfer app ownership to a team.", {"app": S, "recipient": S}, ("app", "recipient")),
                     tool("list_apps", "List apps.", {}))
    assert {t.name: t.op for t in infer_plan(hosting, "hosting").tools}["transfer_app"] == "transition"


def test_verbs_that_change_something_are_no_reads() -> None:
    """`system_toggle_dark_mode`, `regenerate_application_api_key`, `reconnect_wifi` and
    `cleanup_debug_session` were lookups answering a record; `demote_group_participants` a lookup and
    `ensure_directory` too. They change something: a toggle or a reconnect is an action, a demotion a
    transition of the participant, an ensured directory a created one. A status read stays a read."""
    srv = server("os", tool("system_toggle_dark_mode", "Toggle dark mode.", {}),
                 tool("regenerate_application_api_key", "Regenerate the API key of an application.", {"application_id": S}, ("application_id",)),
                 tool("reconnect_wifi", "Force the device to reconnect to WiFi.", {}),
                 tool("demote_group_participants", "Demote participants from admin status in a group.", {"participant_id": S}, ("participant_id",)),
                 tool("ensure_directory", "Create a directory if it does not exist.", {"path": S}, ("path",)),
                 tool("migrate_status", "Check the status of the migrations.", {}),
                 tool("unpause_dag", "Unpause a DAG by ID", {"dag_id": S}, ("dag_id",)), tool("list_dags", "List DAGs.", {}))
    ops = {t.name: t.op for t in infer_plan(srv, "os").tools}
    assert ops["unpause_dag"] == "transition", ops  # it answered the DAG, still paused
    assert ops["system_toggle_dark_mode"] == ops["regenerate_application_api_key"] == ops["reconnect_wifi"] == "action", ops
    assert ops["demote_group_participants"] == "transition" and ops["ensure_directory"] == "create", ops
    assert ops["migrate_status"] in ("get", "lookup", "list"), ops


def test_the_chains_a_blockchain_service_supports_are_networks() -> None:
    """`getSupportedChains` answered token transfers (a hash, an amount, a sender): a chain a bridge
    supports is a network with its chain id and native currency, each once; Starknet's are Starknet's.
    A Docker network is no blockchain's."""
    from compoworld.synthesis.world import NETWORKS

    bridge = ServerSpec(id="bridge", source="test", name="bridge", description="Cross-chain bridge rates for EVM tokens.", tools=[
        tool("getSupportedChains", "Fetches the list of chains supported for bridging", {})])
    stark = ServerSpec(id="starknet", source="test", name="starknet", description="Starknet tools.", tools=[
        tool("get_supported_starknet_networks", "Get the supported Starknet networks", {})])
    for srv, chain in ((bridge, "evm"), (stark, "starknet")):
        env = Environment([build_service(infer_plan(srv, srv.name))], seed=2)
        got = env.step({"name": f"{srv.name}__{srv.tools[0].name}", "arguments": {}}).data["items"]
        assert sorted((r["name"], r["chain_id"], r["native_currency"]) for r in got) == sorted(n[:3] for n in NETWORKS[chain])
    docker = server("docker", tool("list_networks", "List Docker networks", {}), tool("create_network", "Create a network", {"name": S}, ("name",)))
    assert all(e.topic != "network" for e in infer_plan(docker, "docker").entities)


def test_a_listing_keyed_by_a_record_lists_that_record() -> None:
    """FMP's `searchCUSIP(cusip)` answered every security whatever the CUSIP: a key given to a listing
    names the records it lists."""
    srv = server("fmp", tool("searchCUSIP", "Search securities by CUSIP number.", {"cusip": S}, ("cusip",)))
    plan = infer_plan(srv, "fmp")
    assert plan.tools[0].op == "list" and any(p.role == "key" for p in plan.tools[0].params)
    env = Environment([build_service(plan)], seed=4)
    rows = list(env.services["fmp"].db[plan.tools[0].collection])
    for r in rows[:3]:
        got = env.step({"name": "fmp__searchCUSIP", "arguments": {"cusip": r["cusip"]}}).data["items"]
        assert got and all(g["cusip"] == r["cusip"] for g in got), got
    assert env.step({"name": "fmp__searchCUSIP", "arguments": {"cusip": "zz-unknown"}}).data["items"] == []


def test_a_declared_field_holds_what_its_archetypes_field_holds() -> None:
    """A company registry's `search_companies_by_name_and_city(name, city)` answered companies named
    "Company 4": the spec declares `name` without saying what it holds, and a company's name is a
    company's name from the world."""
    from compoworld.services.fake import world

    srv = server("registry", tool("search_companies_by_name_and_city", "search companies by name and city.", {"name": S, "city": S}))
    env = Environment([build_service(infer_plan(srv, "registry"))], seed=3)
    rows = list(env.services["registry"].db["companies"])
    known = {c.name for c in world(3).companies} | {c.name for c in world(0).companies}
    assert rows and all(not re.fullmatch(r"Company \d+", r["name"]) for r in rows), [r["name"] for r in rows]
    assert any(r["name"] in known for r in rows)


def test_where_words_count_the_same_a_record_is_no_person() -> None:
    """Stripe's `list_payment_intents(customer)` answered people (a name, an email, a username): its
    words count as much for a payment as for a customer, and a payment intent is the payment."""
    srv = server("stripe", tool("list_payment_intents", "This tool will list payment intents in Stripe. It takes the ID of the customer.",
                                {"customer": S, "limit": I}))
    topics = {e.entity: e.topic for e in infer_plan(srv, "stripe").entities}
    assert topics.get("intent") == "order", topics
    users = server("team", tool("get_user_profile", "Get a member's profile.", {"user_id": S}, ("user_id",)))
    assert {e.topic for e in infer_plan(users, "team").entities} == {"person"}


def test_a_state_change_sets_the_flags_that_name_the_state() -> None:
    """Airflow's `unpause_dag` set the DAG active and left its declared `is_paused` true: a flag
    named for the new state, or for a state it ends, follows the state. A flag with other words
    (`only_active`) is left alone."""
    dag = {"type": "object", "properties": {"dag_id": S, "is_paused": {"type": "boolean"}, "only_active": {"type": "boolean"}}}
    srv = server("airflow", tool("pause_dag", "Pause a DAG by ID", {"dag_id": S}, ("dag_id",)),
                 tool("unpause_dag", "Unpause a DAG by ID", {"dag_id": S}, ("dag_id",)),
                 tool("get_dag", "Get a DAG by ID", {"dag_id": S}, ("dag_id",), out=dag))
    env = Environment([build_service(infer_plan(srv, "airflow"))], seed=5)
    rows = list(env.services["airflow"].db["dags"])
    before = {r["id"]: r.get("only_active") for r in rows}
    done = 0
    for r in rows[:4]:
        for verb, paused in (("pause", True), ("unpause", False)):
            got = env.step({"name": f"airflow__{verb}_dag", "arguments": {"dag_id": r["id"]}})
            if got.ok:  # pausing a DAG already paused is refused
                assert got.data["is_paused"] is paused, got.data
                done += 1
    assert done >= 4
    assert {r["id"]: r.get("only_active") for r in env.services["airflow"].db["dags"]} == before


def test_a_records_own_entity_id_is_its_id() -> None:
    """A DAG answered `{"id": "dag_0001", "dag_id": "ddc4646d3a4f"}` while `get_dag(dag_id)` takes
    the first: an agent passing the `dag_id` it read got not-found. A record's own `<entity>_id` is the
    id its tools take."""
    dag = {"type": "object", "properties": {"dag_id": S, "is_paused": {"type": "boolean"}}}
    srv = server("airflow", tool("get_dag", "Get a DAG by ID", {"dag_id": S}, ("dag_id",), out=dag),
                 tool("list_dags", "List DAGs", {}, (), out={"type": "object", "properties": {"dags": {"type": "array", "items": dag}}}))
    env = Environment([build_service(infer_plan(srv, "airflow"))], seed=5)
    for r in list(env.services["airflow"].db["dags"])[:3]:
        got = env.step({"name": "airflow__get_dag", "arguments": {"dag_id": r["dag_id"]}})
        assert got.ok and got.data["id"] == got.data["dag_id"] == r["dag_id"], got.content


def test_stored_documents_of_no_declared_shape_are_rows_of_the_world() -> None:
    mongo = server("mongo", tool("insert_many", "Insert documents into a collection.",
                                 {"collection": S, "documents": {"type": "array", "items": {"type": "object"}}}, ("collection", "documents")),
                   tool("find", "Run a find query against a collection.", {"collection": S, "filter": {"type": "object"}}, ("collection",)))
    env = Environment([build_service(infer_plan(mongo, "mongo"))], seed=4)
    docs = [d for r in env.services["mongo"].db[next(iter(env.services["mongo"].db))] for d in r.get("documents") or []]
    assert docs and all(d.get("name") and "@" in d.get("email", "") for d in docs)  # not [{}]


def test_a_new_value_argument_sets_the_field_it_names_and_a_rename_keys_on_the_old_name() -> None:
    tasks = server("tasks", tool("add_task", "Add a task.", {"title": S, "status": {"type": "string", "enum": ["todo", "done", "blocked"]}}, ("title",)),
                   tool("update_status", "Updates the status of a task.", {"id": S, "newStatus": {"type": "string", "enum": ["todo", "done", "blocked"]}},
                        ("id", "newStatus")),
                   tool("rename_task", "Rename a task.", {"task": S, "new_name": S}, ("task", "new_name")))
    plan = infer_plan(tasks, "tasks")
    roles = {t.name: {p.name: (p.role, p.field) for p in t.params} for t in plan.tools}
    assert roles["update_status"]["newStatus"] == ("field", "status")  # not a condition on a `new_status` field
    assert roles["rename_task"] == {"task": ("key", "task"), "new_name": ("field", "task")}
    env = Environment([build_service(plan)], seed=4)
    row = next(iter(env.services["tasks"].db["tasks"]))
    done = env.step({"name": "tasks__update_status", "arguments": {"id": row["id"], "newStatus": "blocked"}})
    assert done.ok and done.data["status"] == "blocked" and "new_status" not in done.data


def test_a_field_pointing_at_a_sibling_record_holds_another_records_id() -> None:
    ctxs = server("contexts", tool("save_context", "Save a project context.", {"id": S, "content": S, "parentContextId": S, "continuationOf": S},
                                   ("id", "content")),
                  tool("get_context", "Get a saved context.", {"id": S}, ("id",)))
    env = Environment([build_service(infer_plan(ctxs, "contexts"))], seed=4)
    rows = list(env.services["contexts"].db["contexts"])
    ids = {r["id"] for r in rows}
    assert len(rows) >= 2
    for r in rows:  # "parent-context-id-01" named nothing; a parent is another saved context, never itself
        assert r["parent_context_id"] in ids and r["parent_context_id"] != r["id"]
        assert r["continuation_of"] in ids and r["continuation_of"] != r["id"]


def test_a_tool_named_by_a_noun_alone_looks_that_noun_up() -> None:
    # The issue's "a weather lookup returns a place with a rating": `weather(city)` has no verb, and its
    # noun was dropped, so the `city` argument made it a place lookup.
    srv = server("test_server", tool("add", "add.", {"a": N, "b": N}, ("a", "b")), tool("weather", "weather.", {"city": S}, ("city",)))
    env = Environment([build_service(infer_plan(srv, "test_server"))], seed=3)
    for city in ("Paris", "Springfield"):  # a seeded city and one derived on the spot
        obs = env.step({"name": "test_server__weather", "arguments": {"city": city}})
        assert obs.ok, obs.content
        assert {"temperature_c", "conditions", "humidity"} <= set(obs.data) and "rating" not in obs.data
        assert obs.data["city"] == city and obs.data.get("name", city) == city  # its name is the city asked about
        assert 25 <= obs.data["humidity"] <= 98


def test_a_knowledge_graph_makes_one_record_per_item_and_its_nodes_are_its_entities() -> None:
    # The review's "the batch is stored as one record with null name/entity_type", and search_nodes over
    # "Node N" records that never saw a created entity.
    item = {"type": "object", "properties": {"name": S, "entityType": S, "observations": {"type": "array", "items": S}},
            "required": ["name", "entityType", "observations"]}
    rel = {"type": "object", "properties": {"from": S, "to": S, "relationType": S}, "required": ["from", "to", "relationType"]}
    srv = server("memory", tool("create_entities", "Create multiple new entities in the knowledge graph", {"entities": {"type": "array", "items": item}}, ("entities",)),
                 tool("create_relations", "Create multiple new relations between entities", {"relations": {"type": "array", "items": rel}}, ("relations",)),
                 tool("delete_relations", "Delete multiple relations from the knowledge graph", {"relations": {"type": "array", "items": rel}}, ("relations",)),
                 tool("delete_entities", "Delete multiple entities and their associated relations from the knowledge graph",
                      {"entityNames": {"type": "array", "items": S}}, ("entityNames",)),
                 tool("add_observations", "Add new observations to existing entities in the knowledge graph",
                      {"observations": {"type": "array", "items": {"type": "object", "properties": {"entityName": S, "contents": {"type": "array", "items": S}}}}},
                      ("observations",)),
                 tool("search_nodes", "Search for nodes in the knowledge graph based on a query", {"query": S}, ("query",)),
                 tool("open_nodes", "Open specific nodes in the knowledge graph by their names", {"names": {"type": "array", "items": S}}, ("names",)))
    env = Environment([build_service(infer_plan(srv, "memory"))], seed=5)
    seeded = list(env.services["memory"].db["entities"])
    assert seeded and all(r["entity_type"] in ("person", "organization") and r["name"] for r in seeded)
    made = env.step({"name": "memory__create_entities", "arguments": {"entities": [
        {"name": "Ada Lovelace", "entityType": "person", "observations": ["wrote the first program"]},
        {"name": "Charles Babbage", "entityType": "person", "observations": []},
        {"name": seeded[0]["name"], "entityType": "person", "observations": []}]}})  # exists already: skipped
    assert made.ok, made.content
    assert [(r["name"], r["entity_type"], r["observations"]) for r in made.data["entities"]] == [
        ("Ada Lovelace", "person", ["wrote the first program"]), ("Charles Babbage", "person", [])]
    found = env.step({"name": "memory__search_nodes", "arguments": {"query": "Lovelace"}})
    assert [r["name"] for r in found.data["items"]] == ["Ada Lovelace"]
    opened = env.step({"name": "memory__open_nodes", "arguments": {"names": ["Charles Babbage", "Nobody"]}})
    assert [r["name"] for r in opened.data["items"]] == ["Charles Babbage"] and opened.data["not_found"] == ["Nobody"]
    link = {"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "works_with"}
    related = env.step({"name": "memory__create_relations", "arguments": {"relations": [link]}})
    assert related.ok and [(r["from"], r["to"], r["relation_type"]) for r in related.data["relations"]] == [
        ("Ada Lovelace", "Charles Babbage", "works_with")]
    before = len(env.services["memory"].db["relations"])
    gone = env.step({"name": "memory__delete_relations", "arguments": {"relations": [link, {**link, "to": "Nobody"}]}})
    assert gone.ok and len(gone.data["deleted"]) == 1 and gone.data["not_found"] == [{**link, "to": "Nobody"}]
    assert len(env.services["memory"].db["relations"]) == before - 1
    again = env.step({"name": "memory__delete_relations", "arguments": {"relations": [link]}})
    assert not again.ok and len(env.services["memory"].db["relations"]) == before - 1  # nothing matched: an error, nothing changed
    removed = env.step({"name": "memory__delete_entities", "arguments": {"entityNames": ["Ada Lovelace"]}})
    assert removed.ok and [r["name"] for r in removed.data["deleted"]] == ["Ada Lovelace"]
    assert env.step({"name": "memory__search_nodes", "arguments": {"query": "Lovelace"}}).data["items"] == []


def test_a_balance_is_a_holding_and_a_slug_is_its_records_name() -> None:
    # The review's "a balance answers with a transfer's fields" and "each inscription carries a `slug-01` label".
    network = {"type": "string", "description": "Network name (e.g., 'mainnet', 'sepolia'). Defaults to Mainnet."}
    wallet = server("starknet", tool("get_token_balance", "Get the token balance for a Starknet address",
                                     {"ownerAddress": S, "tokenAddress": S, "network": network}, ("ownerAddress", "tokenAddress")),
                    tool("get_network_status", "Get the status of a network", {"network": S}, ("network",)))
    plan = infer_plan(wallet, "starknet")
    env = Environment([build_service(plan)], seed=4)
    row = next(iter(env.services["starknet"].db["balances"]))
    assert {"balance", "symbol"} <= set(row) and not {"hash", "from_address", "to_address"} & set(row)
    # a parameter whose spec lists its values holds them, even where a `network` record exists: no `netwo_0002`
    roles = {p.name: p.role for t in plan.tools if t.name == "get_token_balance" for p in t.params}
    assert roles["network"] != "ref" and all(r.get("network") in (None, "mainnet", "sepolia") for r in env.services["starknet"].db["balances"])
    boards = server("boards", tool("create_board", "Create a board.", {"name": S, "slug": S}, ("name",)),
                    tool("list_boards", "List boards.", {}))
    env = Environment([build_service(infer_plan(boards, "boards"))], seed=4)
    rows = list(env.services["boards"].db["boards"])
    assert rows and all(r["slug"] == "-".join(re.findall(r"[a-z0-9]+", r["name"].lower())) for r in rows)


def test_a_file_of_a_known_kind_has_that_kinds_extension() -> None:
    # The review's "an asset is a file like `asset_1.docx`": a Unity Material is a `.mat` file, a Scene a `.unity` one.
    kinds = {"type": "string", "description": 'Type of assets to find (e.g., "Material", "Prefab", "Scene", "Script")'}
    unity = server("unity", tool("find_assets_by_type", "Find all Unity assets of a specified type (e.g., Material, Prefab, Scene, Script) in "
                                 "the project. Set searchPath to an empty string to search the entire Assets folder.",
                                 {"assetType": kinds, "searchPath": {"type": "string", "default": "", "description": "Directory to search in. Can be "
                                                                     "absolute or relative to Unity project Assets folder."}}, ("assetType",)))
    env = Environment([build_service(infer_plan(unity, "unity"))], seed=12)
    extension = {"Material": ".mat", "Prefab": ".prefab", "Scene": ".unity", "Script": ".cs"}
    for kind, ext in extension.items():
        found = env.step({"name": "unity__find_assets_by_type", "arguments": {"assetType": kind}})
        assert found.ok, found.content
        for asset in found.data["items"]:
            paths = [v for v in asset.values() if isinstance(v, str) and "." in v.rsplit("/", 1)[-1] and not v[0].isdigit()]
            assert paths and all(p.endswith(ext) for p in paths), asset


def test_a_symbol_outside_a_reversing_service_is_a_ticker() -> None:
    """Symbols at code addresses (`sub_4040C0`, `InternetOpenA`) belong to services that reverse
    binaries; a stock service's symbols are tickers."""
    srv = server("stock_data", tool("get_symbol", "Get the details of a stock symbol.", {"symbol_id": S}, ("symbol_id",)),
                 tool("list_symbols", "List stock symbols.", {}))
    rows = list(Environment([build_service(infer_plan(srv, srv.name))], seed=3).state()["stock_data"]["symbols"].values())
    assert rows and all(re.fullmatch(r"[A-Z]{2,5}(-\d+)?", r["symbol"]) for r in rows), [r["symbol"] for r in rows]


def test_trades_stakes_and_upkeep_are_no_reads() -> None:
    """`buy_supplies`, `delegate`, `withdraw_contract`, `begin_transaction`, `k8s_expose_resource`,
    `pg_upgrade` and `pg_manage_constraints` were lookups answering some record, and the kind check
    passed them: they change what an account or a system holds. A quote for a trade stays a read."""
    srv = server("ops", tool("buy_supplies", "Buy lemons, sugar and cups for the stand.", {"lemons": I, "cups": I}),
                 tool("delegate", "Delegate tokens to a validator.", {"validator": S, "amount": N}, ("validator", "amount")),
                 tool("withdraw_contract", "Withdraw a contract that was sent for signing.", {"contract_id": S}, ("contract_id",)),
                 tool("begin_transaction", "Begin a database transaction.", {}),
                 tool("k8s_expose_resource", "Expose a resource as a new Kubernetes service.", {"name": S, "port": I}, ("name", "port")),
                 tool("pg_upgrade", "Upgrade PostgreSQL: version migration.", {"database": S}, ("database",)),
                 tool("pg_manage_constraints", "Manage PostgreSQL constraints: get, create or drop foreign keys.", {"operation": S}, ("operation",)),
                 tool("get_quote", "Get a quote for buying a token.", {"symbol": S}, ("symbol",)))
    plan = infer_plan(srv, "ops")
    read_only = {t.name: t.read_only for t in plan.tools}
    assert read_only == {"buy_supplies": False, "delegate": False, "withdraw_contract": False, "begin_transaction": False,
                         "k8s_expose_resource": False, "pg_upgrade": False, "pg_manage_constraints": False, "get_quote": True}, read_only
    bad = broken(srv, "buy_supplies", op="lookup", read_only=True)
    assert results(srv, bad)[("buy_supplies", "kind")] == ["fail"]


def test_a_flag_a_spec_declares_a_string_holds_yes_or_no_never_an_email() -> None:
    """test_4's `find_user` answered `is_email_verified: "tariq.li@halcyon.io"`, and a task joined a
    second service on that "email". A field named `is_*` or `has_*` is a flag whatever its declared
    type: a string one holds "true" or "false" and is no join key."""
    user = {"type": "object", "properties": {"email": S, "full_name": S, "is_email_verified": S, "has_avatar": S}}
    srv = server("accounts", tool("find_user", "Find a user in the database by email.", {"email": S}, ("email",), out=user),
                 tool("find_all_users", "Retrieve all users from the database.", {}))
    plan = infer_plan(srv, "accounts")
    fields = {f.name: f.sem for e in plan.entities for f in e.fields}
    assert fields["is_email_verified"] == fields["has_avatar"] == "flag", fields
    env = Environment([build_service(plan)], seed=3)
    rows = list(env.services["accounts"].db[plan.entities[0].collection])
    assert rows and all(r["is_email_verified"] in ("true", "false") and r["has_avatar"] in ("true", "false") for r in rows), rows[:2]
    assert all("@" in r["email"] for r in rows)


def test_a_fetched_page_is_a_web_page_in_the_markup_its_tool_names() -> None:
    """`fetch_html(url)` and `fetch_markdown(url)` answered "Html 4, as recorded." under a document's
    title and path. A page fetched, scraped or read by its address is a web page: its title, its
    address and its text, as HTML where the tool fetches HTML and as Markdown where it fetches
    Markdown. A browser's profiles, a note's raw HTML and scraped flights are no web pages."""
    srv = server("fetch", tool("fetch_html", "Fetch a website and return the content as HTML", {"url": S}, ("url",)),
                 tool("fetch_markdown", "Fetch a website and return the content as Markdown", {"url": S}, ("url",)))
    plan = infer_plan(srv, "fetch")
    assert {e.entity: e.topic for e in plan.entities} == {"html": "webpage", "markdown": "webpage"}
    env = Environment([build_service(plan)], seed=2)
    html = next(iter(env.services["fetch"].db["htmls"]))
    got = env.step({"name": "fetch__fetch_html", "arguments": {"url": html["url"]}})
    assert got.ok and got.data["url"] == html["url"] and got.data["html"].startswith("<html>"), got.content
    assert got.data["title"].split(" | ")[0] in got.data["html"] and ", as recorded." not in got.content
    # a page no seeded record holds is the page its address names: its path's topic, its host's site
    md = env.step({"name": "fetch__fetch_markdown", "arguments": {"url": "https://example.org/docs/pricing-plans"}})
    assert md.ok and md.data["url"] == "https://example.org/docs/pricing-plans", md.content
    assert md.data["title"] == "Pricing plans | example.org" and md.data["markdown"].startswith("# Pricing plans\n"), md.content
    assert results(srv)[("fetch_html", "domain")] == results(srv)[("fetch_markdown", "domain")] == ["pass"]
    others = server("others", tool("create_browser", "Create a browser profile with a proxy and a user agent.", {"name": S}, ("name",)),
                    tool("notes_create_raw_html", "Create a note from raw HTML.", {"html": S}, ("html",)),
                    tool("scrape_flights_tool", "Scrape flight data from Kayak.", {"origin": S, "destination": S}))
    assert "webpage" not in {e.topic for e in infer_plan(others, "others").entities}


def test_a_search_named_for_nothing_searches_the_services_records() -> None:
    """Google Drive's `search(query)` answered generic hits ("Result 3, as recorded.") of a
    collection of its own, which never saw the files the service's writes made. A search named for
    no record searches what the description names ("Search files"), else the records most of the
    service's tools are about; a file created is then found by it."""
    srv = server("google_drive", tool("create_file", "Create a file.", {"name": S, "content": S}, ("name",)),
                 tool("get_file", "Get a file by id.", {"file_id": S}, ("file_id",)),
                 tool("list_files", "List files.", {}),
                 tool("list_comments", "List the comments of a file.", {"file_id": S}, ("file_id",)),
                 tool("search", "Search files in Google Drive", {"query": S}, ("query",)))
    plan = infer_plan(srv, "drive")
    search = next(t for t in plan.tools if t.name == "search")
    assert (search.op, search.collection) == ("list", "files"), (search.op, search.collection)
    env = Environment([build_service(plan)], seed=4)
    made = env.step({"name": "drive__create_file", "arguments": {"name": "Quarterly zebra budget.xlsx", "content": "numbers"}})
    assert made.ok, made.content
    found = env.step({"name": "drive__search", "arguments": {"query": "zebra"}})
    assert found.ok and [r["id"] for r in found.data["items"]] == [made.data["id"]], found.content
    # a search in a service of no main record (one tool) keeps its hits
    alone = server("web", tool("search", "Search the web.", {"query": S}, ("query",)))
    assert [t.collection for t in infer_plan(alone, "web").tools] == ["results"]


def test_a_formula_without_a_reference_is_simulated_and_permutations_are_counted() -> None:
    """The medical calculators (`corrected_sodium(measured_sodium, serum_glucose)`) answered config
    settings looked up by their numbers ("setting of hyperglycemia" read as a setting), and were
    faithful. A formula no reference implementation here knows is simulated (world model), never a
    record; one it knows is computed and checked against Python's `math` (`permutations(n, k)`)."""
    srv = server("calc", tool("corrected_sodium", "Calculates corrected sodium level in the setting of hyperglycemia.",
                              {"measured_sodium": N, "serum_glucose": N}, ("measured_sodium", "serum_glucose")),
                 tool("permutations", "Calculate the number of ways to choose k items from n items without repetition and with order.",
                      {"k": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None}, "n": {"type": "integer", "minimum": 1}},
                      ("n",)),
                 tool("maps_reverse_geocode", "Convert coordinates into an address", {"latitude": N, "longitude": N}, ("latitude", "longitude")))
    plan = infer_plan(srv, "calc")
    ops = {t.name: (t.op, t.compute, t.fidelity) for t in plan.tools}
    assert ops["corrected_sodium"][0] == "world_model" and ops["permutations"][:2] == ("compute", "math_perm"), ops
    assert ops["maps_reverse_geocode"][0] != "world_model", ops  # coordinates look a place up
    env = Environment([build_service(plan)], seed=1)
    got = env.step({"name": "calc__permutations", "arguments": {"n": 5, "k": 2}})
    assert got.ok and got.data["result"] == 20, got.content
    assert env.step({"name": "calc__permutations", "arguments": {"n": 4}}).data["result"] == 24
    assert results(srv)[("permutations", "computation")] == ["pass"]


def test_an_email_address_inside_an_object_is_an_email() -> None:
    """Google Drive's permissions held `permissionDetails.emailAddress: "0xfaefbc91..."`, a wallet
    address: the word `address` decided. A field named for an email holds an email wherever it sits."""
    grant = {"type": "object", "properties": {"emailAddress": S, "domain": S, "role": S}}
    perm = {"type": "object", "properties": {"role": S, "grants": {"type": "array", "items": grant}}}
    srv = server("drive", tool("list_permissions", "List all permissions of a file.", {}, (),
                               out={"type": "object", "properties": {"permissions": {"type": "array", "items": perm}}}))
    env = Environment([build_service(infer_plan(srv, "drive"))], seed=2)
    got = env.step({"name": "drive__list_permissions", "arguments": {}})
    grants = [g for r in got.data["items"] for g in r.get("grants") or []]
    assert grants and all(re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]+", g["emailAddress"]) for g in grants), got.content


def test_categories_are_names_and_a_definition_is_a_words_only_in_a_dictionary() -> None:
    """HubSpot's subscription definitions answered dictionary words ("serendipity, noun"), and a news
    feed's categories answered news articles. A definition is a word's only where the words are about
    a dictionary; a category (named so by the tool) is a name like "Technology"."""
    srv = server("crm", tool("get_subscription_definitions", "Get all subscription definitions for the portal", {}),
                 tool("get_rss_categories", "Return a list of all available RSS feed categories.", {}))
    dictionary = server("dictionary", tool("get_definitions", "Get the definitions of an English word from the dictionary.", {"word": S}, ("word",)))
    topics = {e.entity: e.topic for e in infer_plan(srv, "crm").entities}
    assert topics["definition"] != "definition" and topics["category"] == "tag", topics
    assert [e.topic for e in infer_plan(dictionary, "dictionary").entities] == ["definition"]
    env = Environment([build_service(infer_plan(srv, "crm"))], seed=1)
    names = [r["name"] for r in env.step({"name": "crm__get_rss_categories", "arguments": {}}).data["items"]]
    assert names[:3] == ["Technology", "Business", "Markets"] and len(set(names)) == len(names), names


def test_a_record_is_a_person_only_where_its_own_noun_names_one() -> None:
    """OpenDota's `get_player_heroes` answered people with emails, a browser profile manager's
    browsers were people, and a chess server's moves too: a modifier ("player", "user") named the
    owner, not the record. A record is a person where its own noun is one (a user, a batter, a
    coauthor), or a part of one (a user's name)."""
    srv = server("games", tool("get_player_heroes", "Get a player's most played heroes.", {"account_id": I}, ("account_id",)),
                 tool("get_valid_moves", "Get the valid moves for the current player.", {}),
                 tool("get_statcast_batter_data", "Get Statcast data for a batter.", {"player_id": I}, ("player_id",)),
                 tool("get_coauthors", "Get the coauthors of an author.", {"author_id": S}, ("author_id",)),
                 tool("get_user", "Get a user by id.", {"user_id": S}, ("user_id",)))
    topics = {e.entity: e.topic for e in infer_plan(srv, "games").entities}
    assert topics.get("heroe") != "person" and topics.get("move") != "person", topics
    assert topics["batter"] == topics["coauthor"] == topics["user"] == "person", topics


PLAYWRIGHT = server(
    "playwright",
    tool("playwright_navigate", "Navigate to a URL", {"url": S, "timeout": I}, ("url",)),
    tool("playwright_go_back", "Navigate back in browser history", {}),
    tool("playwright_go_forward", "Navigate forward in browser history", {}),
    tool("playwright_click", "Click an element on the page", {"selector": S}, ("selector",)),
    tool("playwright_fill", "Fill out an input field", {"selector": S, "value": S}, ("selector", "value")),
    tool("playwright_get_visible_text", "Get the visible text content of the current page", {}),
    tool("playwright_get_visible_html", "Get the HTML content of the current page", {}),
    tool("playwright_screenshot", "Take a screenshot of the current page", {"name": S}, ("name",)),
    tool("playwright_close", "Close the browser and release all resources", {}),
    tool("playwright_console_logs", "Retrieve console logs from the browser", {}),
)


def test_a_browser_service_holds_one_session_of_pages() -> None:
    """Playwright's tools were logged actions answering "completed" (navigate, click, back) and
    lookups of documents no navigation had opened (get the visible text). A browser service now holds
    one session: navigating opens the page its URL names, reads and screenshots answer the open page,
    a click or a fill is remembered on it, back and forward move along the history, closing ends the
    session, and each of them refuses before any page is open."""
    plan = infer_plan(PLAYWRIGHT, "playwright")
    kinds = {t.original: t.browser for t in plan.tools if t.op == "browser"}
    assert kinds == {"playwright_navigate": "navigate", "playwright_go_back": "back", "playwright_go_forward": "forward",
                     "playwright_click": "interact", "playwright_fill": "interact", "playwright_get_visible_text": "read",
                     "playwright_get_visible_html": "read", "playwright_screenshot": "screenshot", "playwright_close": "close"}, kinds
    env = Environment([build_service(plan)], seed=3)

    def step(tool_name: str, **args: Any) -> Any:
        return env.step({"name": f"playwright__{tool_name}", "arguments": args})

    early = step("playwright_get_visible_text")
    assert not early.ok and "navigate" in (early.error or ""), early.content
    opened = step("playwright_navigate", url="https://example.com/pricing-plans")
    assert opened.ok and opened.data == {"url": "https://example.com/pricing-plans", "title": "Pricing plans | example.com", "status": 200}
    text = step("playwright_get_visible_text").data
    assert text["url"] == "https://example.com/pricing-plans" and text["text"].startswith("Pricing plans from example.com")
    assert step("playwright_get_visible_html").data["html"].startswith("<html><head><title>Pricing plans | example.com</title>")
    assert step("playwright_fill", selector="#email", value="ana@example.com").data["ok"] is True
    assert step("playwright_click", selector="#submit").ok
    page = next(r for r in env.services["playwright"].db["browser_pages"] if r["current"])
    assert [(e["action"], e["target"]) for e in page["events"]] == [("fill", "#email"), ("click", "#submit")]
    assert step("playwright_navigate", url="https://example.org/careers").ok
    assert step("playwright_go_back").data["url"] == "https://example.com/pricing-plans"
    assert step("playwright_go_forward").data["url"] == "https://example.org/careers"
    assert not step("playwright_go_forward").ok  # no later page
    assert step("playwright_screenshot", name="careers").data["url"] == "https://example.org/careers"
    assert step("playwright_close").data == {"closed": True, "pages": 2}
    assert not step("playwright_get_visible_text").ok
    bad = step("playwright_navigate", url="example.com")
    assert not bad.ok and "http" in (bad.error or "")
    checks = results(PLAYWRIGHT)
    assert {t for (t, c), s in checks.items() if c == "session" and s == ["pass"]} == set(kinds), checks


def test_session_check_catches_a_read_that_ignores_the_open_page() -> None:
    """The session check reads what a tool should do from its spec: a read compiled as a logged
    action, and a back compiled as a forward, fail it."""
    checks = results(PLAYWRIGHT, broken(PLAYWRIGHT, "playwright_get_visible_text", op="action", browser=None, collection="action_log"))
    assert checks[("playwright_get_visible_text", "session")] == ["fail"]
    bad = broken(PLAYWRIGHT, "playwright_go_back", browser="forward")
    assert results(PLAYWRIGHT, bad)[("playwright_go_back", "session")] == ["fail"]


def test_a_web_search_lists_pages_about_the_query() -> None:
    """`brave_web_search(query)` was a lookup keyed by the query's text that answered one page whatever
    was asked ("pricing" gave "Release notes"), and Google Search's hits were "Result 3, as recorded.".
    A web search engine lists pages of the web about the query, the same for the same query, with the
    filters it was given."""
    srv = server("google_search", tool("search", "Perform a web search query", {"query": S, "region": S, "limit": I}, ("query",)),
                 tool("brave_web_search", "Performs a web search using the Brave Search API", {"query": S, "count": I}, ("query",)))
    plan = infer_plan(srv, "google_search")
    assert {t.original: t.op for t in plan.tools} == {"search": "list", "brave_web_search": "list"}
    assert {e.topic for e in plan.entities} == {"web_result"}
    env = Environment([build_service(plan)], seed=1)
    got = env.step({"name": "google_search__search", "arguments": {"query": "Halcyon quarterly results", "region": "US"}})
    hits = got.data["items"]
    assert len(hits) >= 5 and all("Halcyon quarterly results" in h["title"] and h["url"].endswith("/halcyon-quarterly-results") for h in hits), got.content
    assert all(h["region"] == "US" for h in hits) and ", as recorded." not in got.content
    again = env.step({"name": "google_search__search", "arguments": {"query": "Halcyon quarterly results", "region": "US"}})
    assert again.data == got.data
    brave = env.step({"name": "google_search__brave_web_search", "arguments": {"query": "pricing"}})
    assert brave.ok and all("pricing" in h["title"].lower() for h in brave.data["items"]), brave.content


def test_one_generic_word_does_not_make_a_product_a_package_or_a_place() -> None:
    """An artwork ("a specific artwork or cultural item") answered a price and `in_stock`, a Jira or
    KiCad project a code package with stars and a licence, and Gmail's forwarding addresses street
    addresses. One generic word of an archetype ("item", "project", "address") does not make it:
    something else must say so (a price, a registry, a city)."""
    srv = server("misc", tool("get_artwork_details", "Get detailed information about a specific artwork or cultural item.", {"artwork_id": S}, ("artwork_id",)),
                 tool("list_projects", "List all projects in Jira.", {}),
                 tool("list_forwarding_addresses", "Lists the forwarding addresses for the specified account", {}),
                 tool("search_modules", "Search Terraform registry modules.", {"query": S}, ("query",)),
                 tool("get_product", "Get a product of the shop with its price.", {"product_id": S}, ("product_id",)))
    topics = {e.entity: e.topic for e in infer_plan(srv, "misc").entities}
    assert topics.get("artwork") != "product" and topics.get("project") != "package" and topics.get("address") != "place", topics
    assert topics["module"] == "package" and topics["product"] == "product", topics


def test_a_redis_scan_is_no_security_scan_and_a_mental_model_no_ai_model() -> None:
    """Redis' `scan_keys` answered security scans (target, findings), Clear Thought's mental models and
    Anki's note types answered AI models (provider, context window), and Airflow's connections
    answered servers. The service may say what the word means (Replicate's models are AI models,
    Nmap's scans security scans)."""
    def topics(name: str, description: str, *tools: ToolIn) -> dict[str, str]:
        srv = ServerSpec(id=name, source="test", name=name, description=description, tools=list(tools))
        return {e.entity: e.topic for e in infer_plan(srv, name).entities}

    assert topics("redis", "Redis key-value store.", tool("scan_keys", "Scan keys with the SCAN command.", {"pattern": S})).get("key") != "scan"
    assert topics("nmap", "Network security scanner.", tool("list_scans", "List all scans.", {}))["scan"] == "scan"
    assert topics("anki", "Anki flashcards.", tool("list_models", "List the note models.", {})).get("model") != "model"
    assert topics("replicate", "Run AI models in the cloud.", tool("list_models", "List models.", {}))["model"] == "model"
    assert topics("airflow", "Apache Airflow.", tool("list_connections", "List connections.", {})).get("connection") != "resource"


def test_a_measure_is_in_the_unit_its_record_names() -> None:
    """System Resource Monitor's disk space answered a value "in km". A record's unit follows what it
    measures: a disk's space in GB, a CPU's usage in percent."""
    srv = server("monitor", tool("get_disk_space", "Returns the disk space usage for the largest drive.", {}),
                 tool("get_cpu_usage", "Returns the CPU usage statistics.", {}))
    env = Environment([build_service(infer_plan(srv, "monitor"))], seed=2)
    units = {name: env.step({"name": f"monitor__{name}", "arguments": {}}).data.get("unit") for name in ("get_disk_space", "get_cpu_usage")}
    assert units == {"get_disk_space": "GB", "get_cpu_usage": "%"}, units


def test_a_citys_weather_lies_at_the_city() -> None:
    """Berlin's weather answered latitude 41.6 and longitude -116.1 (Idaho). A record about a city of
    the world lies at that city, seeded or looked up."""
    out = {"type": "object", "properties": {"city": S, "latitude": N, "longitude": N, "temperature_c": N}}
    srv = server("weather", tool("get_weather_by_city", "Get the current weather of a city.", {"city": S}, ("city",), out=out))
    env = Environment([build_service(infer_plan(srv, "weather"))], seed=2)
    for city, (lat, lon) in (("Berlin", (52.52, 13.405)), ("Sydney", (-33.8688, 151.2093))):
        got = env.step({"name": "weather__get_weather_by_city", "arguments": {"city": city}})
        assert got.ok and (got.data["latitude"], got.data["longitude"]) == (lat, lon), got.content


def test_a_new_record_is_named_from_its_own_values_and_holds_nothing_yet() -> None:
    """A folder made at `/docs/new` is `new`, holds 0 items and was modified when it was made; a MIDI
    track made by index is named by its kind and number; neither comes back with null names."""
    srv = server(
        "desk",
        tool("create_directory", "Create a new directory.", {"path": S}, ("path",)),
        tool("list_directory", "Get a detailed listing of all files and directories in a specified path.", {"path": S}, ("path",)),
        tool("create_midi_track", "Create a new MIDI track in the session.", {"index": I}),
        tool("get_track_info", "Get information about a track.", {"track_index": I}, ("track_index",)),
    )
    env = Environment([build_service(infer_plan(srv, "desk"))], seed=3)
    folder = env.step({"name": "desk__create_directory", "arguments": {"path": "/docs/new"}}).data
    assert folder["name"] == "new" and folder["item_count"] == 0
    assert folder["modified_at"] == folder["created_at"] is not None
    track = env.step({"name": "desk__create_midi_track", "arguments": {"index": 2}}).data
    assert re.fullmatch(r"Track \d+", track["name"]), track


def test_a_tool_that_converts_and_saves_makes_a_record_and_is_no_lookup() -> None:
    """`convert_plan_to_tasks` ("Convert a plan into a task list and save it") had been a read-only
    lookup that answered a stored plan; it makes one, and the kind check now reads "and save it"."""
    srv = server(
        "organizer",
        tool("create_task_list", "Create a new task list and save it to the .tasks folder.", {"title": S, "description": S}, ("title",)),
        tool("convert_plan_to_tasks", "Convert a Cursor agent's plan text into a formatted Markdown task list and save it.",
             {"plan_text": S, "title": S}, ("plan_text", "title")),
    )
    plan = infer_plan(srv, "organizer")
    convert = next(t for t in plan.tools if t.name == "convert_plan_to_tasks")
    assert convert.op == "create"
    env = Environment([build_service(plan)], seed=3)
    made = [env.step({"name": "organizer__convert_plan_to_tasks", "arguments": {"plan_text": "1. draft\n2. ship", "title": "Launch"}}).data
            for _ in range(2)]
    assert made[0]["id"] != made[1]["id"] and made[0]["plan_text"] == "1. draft\n2. ship"
    lookup = broken(srv, "convert_plan_to_tasks", op="lookup", read_only=True)
    assert results(srv, lookup)[("convert_plan_to_tasks", "kind")] == ["fail"]


def test_a_python_dictionary_or_a_papers_key_words_are_no_dictionary_words() -> None:
    """Home Assistant's system overview ("Returns: A dictionary containing ..."), Unstructured's jobs and
    PubMed's key-word search answered dictionary words ("serendipity, noun"). "Word" alone, or a
    docstring's Python dict, is no dictionary; a Dictionary API's definitions still are."""
    srv = server("home", tool("system_overview", "Get a comprehensive overview of the entire Home Assistant system.\n\n"
                                                 "Returns:\n    A dictionary containing:\n    - total_entities: Total count", {}),
                 tool("search_pubmed_key_words", "Search for articles on PubMed using key words.", {"key_words": S}, ("key_words",)))
    books = server("books", tool("get_definitions", "Get definitions for a word using Dictionary API.\n\n    Args:\n        word: The word",
                                 {"word": S}, ("word",)))
    topics = {e.entity: e.topic for e in infer_plan(srv, "home").entities}
    assert "definition" not in topics.values(), topics
    assert [e.topic for e in infer_plan(books, "books").entities] == ["definition"]


DESK = server(
    "desk",
    tool("write_file", "Completely replace file contents.", {"path": S, "content": S}, ("path", "content")),
    tool("read_file", "Read the complete contents of a file.", {"path": S}, ("path",)),
    tool("create_directory", "Create a new directory or ensure a directory exists.", {"path": S}, ("path",)),
    tool("list_directory", "Get a detailed listing of all files and directories in a specified path.", {"path": S}, ("path",)),
)


def test_a_directory_listing_shows_what_lies_in_the_directory() -> None:
    """`list_directory(path)` had answered the folder record at that path (and nothing a write made
    inside it). It lists the directory's entries: folders first, then files, each with its type;
    directories only implied by deeper paths too; a path nothing lies under is not found."""
    env = Environment([build_service(infer_plan(DESK, "desk"))], seed=3)
    step = lambda name, **args: env.step({"name": f"desk__{name}", "arguments": args})  # noqa: E731
    assert step("write_file", path="/docs/a.md", content="hello").ok and step("create_directory", path="/docs/new").ok
    assert step("write_file", path="/docs/deep/b.md", content="x").ok
    listed = step("list_directory", path="/docs").data["items"]
    assert [(i["name"], i["type"]) for i in listed] == [("deep", "directory"), ("new", "directory"), ("a.md", "file")]
    assert listed[2]["size"] == 5
    assert step("list_directory", path="/nowhere").error_kind == "not_found"
    top = step("list_directory", path="/").data["items"]
    assert {"docs"} <= {i["name"] for i in top} and all(i["path"].count("/") == 1 for i in top)
    seeded = [r for r in env.services["desk"].db["directories"].rows.values() if r["id"] != listed[1]["id"]]
    for folder in seeded[:3]:  # a seeded folder holds as many items as its listing shows
        assert folder["item_count"] == step("list_directory", path=folder["path"]).data["total"]


def test_directory_check_catches_a_listing_that_answers_the_records_at_its_path() -> None:
    r = results(DESK)
    assert r[("list_directory", "directory")] == ["pass"]
    plan = infer_plan(DESK, "desk")
    lister = next(t for t in plan.tools if t.name == "list_directory")
    params = [p.model_copy(update={"role": "filter"}) for p in lister.params]
    assert results(DESK, broken(DESK, "list_directory", params=params))[("list_directory", "directory")] == ["fail"]


def test_a_built_or_pulled_image_is_listed_and_a_docker_image_is_no_picture() -> None:
    """Docker's `build_image` and `pull_image` had logged "completed" beside `list_images`: the image
    they make is listed now. Building a project makes no record; a container image is no picture."""
    srv = server(
        "docker",
        tool("list_images", "List Docker images.", {"name": S}),
        tool("remove_image", "Remove a Docker image.", {"image": S}, ("image",)),
        tool("build_image", "Build a Docker image from a Dockerfile.", {"path": S, "tag": S}, ("path", "tag")),
        tool("pull_image", "Pull a Docker image from a registry.", {"repository": S, "tag": S}, ("repository",)),
        tool("build_project", "Build the project with its build tool.", {"target": S}),
    )
    plan = infer_plan(srv, "docker")
    ops = {t.name: t.op for t in plan.tools}
    assert ops["build_image"] == ops["pull_image"] == "create" and ops["build_project"] == "action"
    env = Environment([build_service(plan)], seed=3)
    built = env.step({"name": "docker__build_image", "arguments": {"path": "/src/billing", "tag": "billing-api:1.4"}}).data
    pulled = env.step({"name": "docker__pull_image", "arguments": {"repository": "nginx", "tag": "1.27"}}).data
    listed = env.step({"name": "docker__list_images", "arguments": {}}).data["items"]
    assert {built["id"], pulled["id"]} <= {i["id"] for i in listed}
    seeded = [i for i in listed if i["id"] not in (built["id"], pulled["id"])]
    assert seeded and not any(str(i.get("name", "")).endswith((".png", ".jpg", ".webp")) for i in seeded), seeded[:2]


def test_a_setter_named_for_a_record_and_its_attribute_changes_that_record() -> None:
    """Neo4j Aura's `update_instance_name(instance_id, name)` and IDA's `set_function_prototype(
    function_address, prototype)` had written records of their own ("names", "prototypes") that no
    read of the instance or the function saw."""
    srv = server(
        "aura",
        tool("list_instances", "List all database instances.", {}),
        tool("get_instance_details", "Get the details of one instance.", {"instance_id": S}, ("instance_id",)),
        tool("update_instance_name", "Update the name of an instance.", {"instance_id": S, "name": S}, ("instance_id", "name")),
    )
    plan = infer_plan(srv, "aura")
    assert {t.collection for t in plan.tools} == {"instances"}
    env = Environment([build_service(plan)], seed=3)
    iid = env.step({"name": "aura__list_instances", "arguments": {}}).data["items"][0]["id"]
    assert env.step({"name": "aura__update_instance_name", "arguments": {"instance_id": iid, "name": "analytics-prod"}}).ok
    assert env.step({"name": "aura__get_instance_details", "arguments": {"instance_id": iid}}).data["name"] == "analytics-prod"


def test_a_tool_that_says_look_up_reads_whatever_its_name_says() -> None:
    """`papers-batch` ("Look up multiple papers by their IDs") was an action by its name's "batch",
    then simulated for failing the kind check; it reads the papers its ids name."""
    srv = server("research", tool("papers_search", "Search for papers.", {"query": S}, ("query",)),
                 tool("papers_batch", "Look up multiple papers by their IDs", {"paperIds": {"type": "array", "items": S}}, ("paperIds",)))
    plan = infer_plan(srv, "research")
    batch = next(t for t in plan.tools if t.original == "papers_batch")
    assert batch.op in ("get", "lookup") and batch.read_only
    env = Environment([build_service(plan)], seed=3)
    ids = list(env.services["research"].db["papers"].rows)[:2]
    got = env.step({"name": f"research__{batch.name}", "arguments": {"paperIds": ids}}).data
    assert [i["id"] for i in got["items"]] == ids


def test_add_issue_comment_adds_a_comment_and_is_no_write_of_an_issue() -> None:
    """The fidelity lexicon read `add_issue_comment` as a write of an issue ("comment" is a verb too),
    so `list_issues` was blamed for not showing the comment and GitHub's issue listing was simulated."""
    srv = server(
        "gh",
        tool("create_issue", "Create a new issue in a GitHub repository.", {"title": S, "body": S}, ("title",)),
        tool("list_issues", "List issues in a GitHub repository.", {"state": S}),
        tool("add_issue_comment", "Add a comment to an existing issue.", {"issue_id": S, "body": S}, ("issue_id", "body")),
    )
    r = results(srv)
    assert r[("list_issues", "sees_writes")] == ["pass"], r
    assert r[("create_issue", "kind")] == r[("add_issue_comment", "kind")] == ["pass"]


def test_a_tool_that_answers_a_prompt_is_simulated_not_a_lookup_of_stored_answers() -> None:
    """Octagon's market-intelligence agents and `sampleLLM` take a prompt and answer it; they had been
    faithful lookups of stored records keyed by the prompt's text."""
    srv = server("octagon", tool("octagon_sec_agent", "A specialized agent for SEC filings analysis.", {"prompt": S}, ("prompt",)),
                 tool("sample_llm", "Samples from an LLM using MCP's sampling feature.", {"prompt": S, "maxTokens": I}, ("prompt",)),
                 tool("get_filing", "Get one SEC filing by its accession number.", {"accession_number": S}, ("accession_number",)))
    ops = {t.name: t.op for t in infer_plan(srv, "octagon").tools}
    assert ops["octagon_sec_agent"] == ops["sample_llm"] == "world_model" and ops["get_filing"] in ("get", "lookup")


def test_a_record_named_for_the_service_keeps_its_noun_and_its_own_id_field_is_its_id() -> None:
    """On a server named "Goal Story", `goalstory_read_one_goal(id)` lost its noun with the service's
    name ("one" was left) and read generic results; and Airflow's DAGs held a `dag_id` that
    `get_dag(dag_id)` (bound to the record id) never found."""
    srv = server("Goal Story", tool("goalstory_create_goal", "Create a new goal.", {"title": S}, ("title",)),
                 tool("goalstory_read_goals", "List goals.", {"limit": I}),
                 tool("goalstory_read_one_goal", "Retrieve detailed information about a specific goal.", {"id": S}, ("id",)))
    plan = infer_plan(srv, "goals")
    assert next(t for t in plan.tools if t.original == "goalstory_read_one_goal").collection == "goals"
    env = Environment([build_service(plan)], seed=3)
    made = env.step({"name": "goals__goalstory_create_goal", "arguments": {"title": "Run a marathon"}}).data
    assert env.step({"name": "goals__goalstory_read_one_goal", "arguments": {"id": made["id"]}}).data["title"] == "Run a marathon"

    from compoworld.synthesis.loader import load_specs
    airflow = next(s for s in load_specs(None).servers if s.name == "Apache Airflow")
    aplan = infer_plan(airflow, "airflow")
    env = Environment([build_service(aplan)], seed=3)
    dag = next(iter(env.services["airflow"].db["dags"].rows.values()))
    get_dag = next(t for t in aplan.tools if t.original == "get_dag")
    assert dag.get("dag_id", dag["id"]) == dag["id"]  # a DAG's own id field, where it has one, is its id
    found = env.step({"name": f"airflow__{get_dag.name}", "arguments": {"dag_id": dag["id"]}})
    assert found.ok and found.data["id"] == dag["id"], found.error


def test_a_sessions_id_names_the_session_a_tool_about_sessions_reads() -> None:
    """`session_id` is plumbing to most tools (ignored as an option), but `get_session(session_id)`
    had ignored the very session it was asked for; an extraction by instruction from a session is
    still simulated."""
    srv = server("codegen", tool("start_session", "Start a new code generation session.", {"name": S}, ("name",)),
                 tool("get_session", "Get information about a session.", {"session_id": S}, ("session_id",)),
                 tool("extract_session", "Extract data from the session's page.", {"session_id": S, "instruction": S},
                      ("session_id", "instruction")))
    plan = infer_plan(srv, "codegen")
    ops = {t.name: t.op for t in plan.tools}
    assert ops["extract_session"] == "world_model"
    env = Environment([build_service(plan)], seed=3)
    ids = list(env.services["codegen"].db["sessions"].rows)[:2]
    got = [env.step({"name": "codegen__get_session", "arguments": {"session_id": i}}).data["id"] for i in ids]
    assert got == ids


def test_the_outside_worlds_listing_answers_about_what_it_is_asked() -> None:
    """Yahoo Finance's news for a ticker answered nothing for any ticker the seeded news did not hold
    (and its headlines named other companies). A listing of the outside world derives a few records
    about what it is asked for, the same in every run, and news about a known ticker is its company's."""
    srv = server("markets", tool("get_news", "Get the latest news articles for a stock ticker.", {"ticker": S}, ("ticker",)))
    plan = infer_plan(srv, "markets")
    envs = [Environment([build_service(plan)], seed=3) for _ in range(2)]
    answers = [env.step({"name": "markets__get_news", "arguments": {"ticker": "AAPL"}}).data["items"] for env in envs]
    assert answers[0] == answers[1] and len(answers[0]) >= 1
    assert all(i["ticker"] == "AAPL" and i["title"].startswith("Apple Inc.") for i in answers[0]), answers[0]
    assert len({i["id"] for i in answers[0]}) == len(answers[0])
    assert results(srv)[("get_news", "keyed_lookup")] == ["pass"]


def test_a_calculator_that_uses_a_library_evaluates_and_an_anki_model_is_no_ai_model() -> None:
    """`cal(exp)` ("Use the expr-eval library to evaluate the input mathematical expression") had been
    an update of stored code packages by the description's "use"; it evaluates, with the constants
    `PI` and `E` as expr-eval spells them. An Anki service's models are note types, not AI models."""
    srv = server("calc", tool("cal", "Use the expr-eval library to evaluate the input mathematical expression and return the result.",
                              {"exp": S}))
    env = Environment([build_service(infer_plan(srv, "calc"))], seed=3)
    assert env.step({"name": "calc__cal", "arguments": {"exp": "2*(3+4)"}}).data["result"] == 14
    assert abs(env.step({"name": "calc__cal", "arguments": {"exp": "2*PI"}}).data["result"] - 2 * 3.141592653589793) < 1e-9
    anki = ServerSpec(id="anki", source="test", name="anki", description="Anki flashcards: decks, notes and note types.",
                      tools=[tool("getModel", "Get a model, including field and template definitions, from Anki.", {"modelName": S})])
    env = Environment([build_service(infer_plan(anki, "anki"))], seed=3)
    got = env.step({"name": "anki__getModel", "arguments": {}}).data
    assert not any(isinstance(v, str) and ("claude" in v or "gpt" in v or "Anthropic" in v) for v in got.values()), got


def test_sending_a_message_sends_a_new_one() -> None:
    """WhatsApp's and other `send_message(recipient, message)` tools had looked a stored message up by
    the text to send and marked it sent (an unknown text: not found). Sending makes a new message."""
    srv = server("chat", tool("list_messages", "List messages of a chat.", {"chat_id": S}),
                 tool("send_message", "Send a message to a person or group.", {"recipient": S, "message": S}, ("recipient", "message")))
    plan = infer_plan(srv, "chat")
    assert next(t for t in plan.tools if t.name == "send_message").op == "create"
    env = Environment([build_service(plan)], seed=3)
    sent = env.step({"name": "chat__send_message", "arguments": {"recipient": "+1-555-0100", "message": "Running late, start without me"}})
    assert sent.ok and sent.data["message"] == "Running late, start without me" and sent.data.get("status") == "sent", sent.content
    again = env.step({"name": "chat__send_message", "arguments": {"recipient": "+1-555-0100", "message": "Running late, start without me"}})
    assert again.ok and again.data["id"] != sent.data["id"]


def test_a_derived_name_never_breaks_the_fields_declared_shape() -> None:
    """Notion's database `title` is rich text (an array): naming a new database "Database 9" broke its
    output schema, and the whole service failed verification."""
    rich = {"type": "array", "items": {"type": "object", "properties": {"text": {"type": "object"}}}}
    srv = server("notion", tool("create_database", "Create a database.", {"parent_id": S, "title": rich}, ("parent_id",)),
                 tool("get_database", "Get a database by its id.", {"database_id": S}, ("database_id",)))
    cls = build_service(infer_plan(srv, "notion"))
    made = Environment([cls], seed=3).step({"name": "notion__create_database", "arguments": {"parent_id": "page_1"}}).data
    assert not isinstance(made.get("title"), str), made
    assert not [c for c in verify_service(cls).checks if c.status == "fail"]


def test_a_games_market_trades_items_not_stocks() -> None:
    """EVE Online's `get-market-prices` ("Get market prices for all items in EVE Online") and RuneScape's
    item prices answered stock quotes (NFLX, TSLA)."""
    srv = ServerSpec(id="eve", source="test", name="EVE Online Market Data", description="Market data of the game EVE Online.",
                     tools=[tool("get_market_prices", "Get market prices for all items in EVE Online.", {})])
    plan = infer_plan(srv, "eve")
    assert plan.entities[0].topic != "price"
    listed = Environment([build_service(plan)], seed=3).step({"name": "eve__get_market_prices", "arguments": {}}).data["items"]
    assert not any(i.get("symbol") in ("NFLX", "TSLA", "AAPL", "BTC", "ETH") for i in listed), listed[:2]


def test_a_derived_record_about_a_place_is_named_for_it() -> None:
    """Region Weather's `get_weather(region_name="Reykjavik")` answered a record named "Toronto"."""
    srv = server("regions", tool("get_weather", "Get the current weather of a region.", {"region_name": S}, ("region_name",)))
    env = Environment([build_service(infer_plan(srv, "regions"))], seed=3)
    got = env.step({"name": "regions__get_weather", "arguments": {"region_name": "Reykjavik"}}).data
    assert got["region_name"] == "Reykjavik" and got.get("name", "Reykjavik") == "Reykjavik", got


def test_reading_the_whole_graph_lists_the_entities_the_graph_holds() -> None:
    """A knowledge-graph server's `read_graph()` ("Read the entire knowledge graph") answered one record
    of a collection of its own, the same on every call, that never saw the entities created."""
    items = {"type": "array", "items": {"type": "object", "properties": {"name": S, "entityType": S, "observations": {"type": "array", "items": S}}}}
    srv = server("memory", tool("create_entities", "Create multiple new entities in the knowledge graph.", {"entities": items}, ("entities",)),
                 tool("read_graph", "Read the entire knowledge graph.", {}))
    env = Environment([build_service(infer_plan(srv, "memory"))], seed=3)
    made = env.step({"name": "memory__create_entities", "arguments": {"entities": [{"name": "Ada Lovelace", "entityType": "person",
                                                                                     "observations": ["wrote the first program"]}]}})
    assert made.ok, made.error
    graph = env.step({"name": "memory__read_graph", "arguments": {}}).data
    assert "Ada Lovelace" in [i.get("name") for i in graph["items"]] and len(graph["items"]) > 1


def test_a_create_refuses_a_unique_identifier_a_record_already_has() -> None:
    """OpenProject's `create_project(identifier: "Identifier of the project (unique)")` made two projects
    with one identifier. A unique value of the new record's own identity is refused the second time;
    the unique id of another record (an index's, when adding documents to it) is not."""
    srv = server("op", tool("create_project", "Creates a new project.", {"name": S, "identifier": {**S, "description": "Identifier of the project (unique)"}},
                            ("name", "identifier")),
                 tool("add_documents", "Add documents to an index.", {"indexUid": {**S, "description": "Unique identifier of the index"},
                                                                     "title": S}, ("indexUid", "title")),
                 tool("list_projects", "List projects.", {}))
    env = Environment([build_service(infer_plan(srv, "op"))], seed=3)
    first = env.step({"name": "op__create_project", "arguments": {"name": "Website", "identifier": "website"}})
    again = env.step({"name": "op__create_project", "arguments": {"name": "Website 2", "identifier": "website"}})
    assert first.ok and again.error_kind == "business_rule" and "website" in again.error
    for title in ("a", "b"):
        assert env.step({"name": "op__add_documents", "arguments": {"indexUid": "movies", "title": title}}).ok


# -- repositories of a code host ----------------------------------------------------------------

def _code_host() -> ServerSpec:
    """GitHub's shape: a repository's coordinates are `owner` and `repo`, and each record in one
    (an issue, a pull request) has a number of its own within that repository."""
    coords = {"owner": S, "repo": S}
    return server(
        f"code_host{next(_BROKEN)}",
        tool("list_repositories", "List repositories of an owner.", {"owner": S}, ("owner",)),
        tool("get_repository", "Get a repository's details.", coords, ("owner", "repo")),
        tool("create_issue", "Create a new issue in a GitHub repository.", {**coords, "title": S, "body": S}, ("owner", "repo", "title")),
        tool("list_issues", "List issues in a GitHub repository.", {**coords, "state": S}, ("owner", "repo")),
        tool("get_issue", "Get details of a specific issue in a GitHub repository.", {**coords, "issue_number": N}, ("owner", "repo", "issue_number")),
        tool("list_pull_requests", "List pull requests in a GitHub repository.", coords, ("owner", "repo")),
        tool("get_pull_request", "Get details of a specific pull request.", {**coords, "pull_number": N}, ("owner", "repo", "pull_number")),
    )


def test_a_code_hosts_records_live_in_the_repositories_it_lists_and_are_found_by_their_number() -> None:
    srv = _code_host()
    plan = infer_plan(srv, srv.name)
    roles = {t.name: {p.name: p.role for p in t.params} for t in plan.tools}
    assert roles["get_issue"] == {"owner": "ref", "repo": "ref", "issue_number": "key"}
    assert roles["get_pull_request"] == {"owner": "ref", "repo": "ref", "pull_number": "key"}  # the number, not the repository
    env = Environment([build_service(plan)], seed=4)
    db = env.services[srv.name].db
    repos = {(r["owner"], r["repo"]) for r in db["repositories"]}
    # issues and pull requests sit in repositories the host lists, under the organisation that owns them
    assert {(r["owner"], r["repo"]) for c in ("issues", "requests") for r in db[c]} <= repos
    issue = next(iter(db["issues"]))
    coords = {"owner": issue["owner"], "repo": issue["repo"]}
    listed = env.step({"name": f"{srv.name}__list_issues", "arguments": coords}).data["items"]
    assert issue["id"] in {r["id"] for r in listed}
    got = env.step({"name": f"{srv.name}__get_issue", "arguments": {**coords, "issue_number": issue["issue_number"]}})
    assert got.ok and got.data["id"] == issue["id"]
    elsewhere = next(r for o, r in sorted(repos) if r != issue["repo"])  # the same number in another repository
    other = env.step({"name": f"{srv.name}__get_issue", "arguments": {**coords, "repo": elsewhere, "issue_number": issue["issue_number"]}})
    assert not other.ok or other.data["repo"] == elsewhere
    assert results(srv)[("get_issue", "keyed_lookup")] == ["pass"]


def test_records_named_like_a_collection_the_runtime_keeps_are_their_own() -> None:
    """Contentful's AI Actions are records of their own, not the service's log of actions (they were
    found among logged actions, so no id named one); a service's browsers are no browser session."""
    srv = server(
        "ai_actions",
        tool("create_ai_action", "Create a new AI Action.", {"name": S, "instruction": S}, ("name", "instruction")),
        tool("get_ai_action", "Retrieve an AI Action.", {"aiActionId": S}, ("aiActionId",)),
        tool("publish_ai_action", "Publish an AI Action.", {"aiActionId": S}, ("aiActionId",)),
        tool("restart_worker", "Restart the background worker.", {}),  # an action: the service keeps an action log
    )
    plan = infer_plan(srv, srv.name)
    colls = {t.name: t.collection for t in plan.tools}
    assert colls["restart_worker"] == "action_log"
    assert colls["create_ai_action"] == colls["get_ai_action"] == colls["publish_ai_action"] != "action_log"
    env = Environment([build_service(plan)], seed=2)
    made = env.step({"name": "ai_actions__create_ai_action", "arguments": {"name": "Summarise", "instruction": "Summarise the entry."}})
    assert made.ok
    got = env.step({"name": "ai_actions__get_ai_action", "arguments": {"aiActionId": made.data["id"]}})
    assert got.ok and got.data["name"] == "Summarise"


def test_a_listing_of_one_players_records_answers_that_players_and_in_order() -> None:
    """`get_player_matches(account_id)`: the records are the account's (they had been the same for every
    account, `account_id` ignored), the same for the same account, and a match derived for an account
    ends after it starts (derived records had their two dates drawn apart, in any order)."""
    out = {"type": "array", "items": {"type": "object", "properties": {"match_id": I, "hero": S, "start_time": S, "end_time": S}}}
    srv = server("player_stats", tool("get_player_matches", "Get the recent matches of a player.", {"account_id": I}, ("account_id",), out=out))
    plan = infer_plan(srv, srv.name)
    assert {p.name: p.role for p in plan.tools[0].params} == {"account_id": "filter"}
    env = Environment([build_service(plan)], seed=5)

    def matches(account: int) -> list[dict[str, Any]]:
        obs = env.step({"name": "player_stats__get_player_matches", "arguments": {"account_id": account}})
        assert obs.ok, obs
        return obs.data["items"]

    first, other = matches(1234), matches(99)
    assert first and other and first == matches(1234)
    assert {r["account_id"] for r in first} == {1234} and {r["account_id"] for r in other} == {99}
    from compoworld.synthesis.runtime import time_pairs

    pairs = time_pairs(tuple(first[0]))
    assert pairs  # a match starts and ends (`starts_at`, `ends_at`)
    for r in first + other:
        for start, end in pairs:
            assert r[start] <= r[end], r


def test_only_companies_have_statements_and_only_screens_have_shows() -> None:
    """A balance sheet, a dividend or an analyst's grade is a company's: their seeded symbols are stock
    tickers (Bitcoin and Solana had balance sheets). `dbt_show` shows query results, which are no TV
    show (dbt's compile and show answered films with a genre and a rating)."""
    srv = server("statements", tool("getBalanceSheetStatement", "Access balance sheet statements of public companies.", {"symbol": S}, ("symbol",)),
                 tool("getDividends", "Fetch the company dividends.", {"symbol": S}, ("symbol",)),
                 tool("getQuote", "Get the latest stock or crypto quote.", {"symbol": S}, ("symbol",)))
    plan = infer_plan(srv, srv.name)
    env = Environment([build_service(plan)], seed=6)
    db = env.services[srv.name].db
    topics = {e.collection: e.topic for e in plan.entities}
    statements = [c for c, t in topics.items() if t in ("balance_statement", "dividend")]
    assert len(statements) == 2
    for c in statements:
        symbols = {r["symbol"] for r in db[c]}
        assert not symbols & {"BTC", "ETH", "SOL", "ADA"} and all(s.isalpha() and s.isupper() for s in symbols), symbols
    refused = env.step({"name": f"{srv.name}__getBalanceSheetStatement", "arguments": {"symbol": "BTC"}})  # asked for a coin's
    assert not refused.ok and refused.error_kind == "not_found" and "no balance sheet" in refused.error
    assert env.step({"name": f"{srv.name}__getBalanceSheetStatement", "arguments": {"symbol": "KO"}}).ok
    dbt = server("dbt", tool("dbt_show", "Preview the results of a model using dbt show.", {"models": S}),
                 tool("dbt_compile", "Compile dbt models and print the SQL.", {"models": S}))
    assert all(e.topic != "media" for e in infer_plan(dbt, dbt.name).entities)


def test_a_read_that_answers_the_same_whatever_object_it_is_given_is_recompiled() -> None:
    """`wallet_populate_transaction(transaction)` answered one stored transfer whatever transaction it was
    given (the review's seed 27): a read whose required arguments are all objects must answer from them,
    or it is served as simulated. A read that does answer from its object passes (`get_quote(request)`
    looks the symbol up)."""
    from compoworld.synthesis.fidelity import failing_tools

    tx = {"type": "object", "properties": {"to": S, "data": S, "from": S}, "required": ["to"]}
    srv = server("wallet_tx", tool("wallet_populate_transaction", "Populate a transaction with missing fields", {"transaction": tx}, ("transaction",)))
    checks = check_fidelity(build_service(infer_plan(srv, srv.name)), srv)
    assert [c.status for c in checks if c.check == "fidelity_object_input"] == ["fail"]
    assert failing_tools(checks) == {"wallet_populate_transaction"}
    quote = server("quotes_obj", tool("get_quote", "Get the latest stock quote.", {"request": {"type": "object", "properties": {"symbol": S},
                                                                                                       "required": ["symbol"]}}, ("request",)))
    assert results(quote)[("get_quote", "object_input")] == ["pass"]


# -- counts -------------------------------------------------------------------------------------

DOCUMENTS = server(
    "docstore",
    tool("insert_document", "Insert a document into a collection.", {"collection": S, "document": S}, ("collection", "document")),
    tool("find_documents", "Find documents in a collection.", {"collection": S, "limit": I}, ("collection",)),
    tool("count_documents", "Count the documents in a collection.", {"collection": S, "limit": I, "skip": I}, ("collection",)),
)


def test_a_count_tool_answers_how_many_records_its_listing_shows_and_sees_a_create() -> None:
    """`count_documents(collection)` had answered one document (or "there is no document yet"): it
    answers the number of records the same collection lists, one more after an insert, and a given
    window (`limit`, `skip`) bounds it as a count command's does."""
    plan = infer_plan(DOCUMENTS, "docstore")
    assert next(t for t in plan.tools if t.name == "count_documents").op == "count"
    env = Environment([build_service(plan)], seed=4)
    listed = env.step({"name": "docstore__find_documents", "arguments": {"collection": "orders", "limit": 100}}).data["total"]
    before = env.step({"name": "docstore__count_documents", "arguments": {"collection": "orders"}})
    assert before.ok and before.data == {"count": listed}
    assert env.step({"name": "docstore__insert_document", "arguments": {"collection": "orders", "document": '{"sku": "A-1"}'}}).ok
    assert env.step({"name": "docstore__count_documents", "arguments": {"collection": "orders"}}).data == {"count": listed + 1}
    assert env.step({"name": "docstore__count_documents", "arguments": {"collection": "orders", "skip": 1, "limit": 100}}).data == {"count": listed}
    assert results(DOCUMENTS)[("count_documents", "sees_writes")] == ["pass"]


def test_sees_writes_check_catches_a_count_that_answers_one_record() -> None:
    plan = broken(DOCUMENTS, "count_documents", op="get")  # the old defect: a count compiled as a read of one record
    assert "fail" in results(DOCUMENTS, plan)[("count_documents", "sees_writes")]


def test_a_search_that_found_nothing_is_still_judged_by_the_records_it_lists() -> None:
    """NASA's `cmr(keyword)` found nothing for any keyword the check drew, so its placeholder hits ("Result 1,
    as recorded.") were never seen and it counted faithful: the records it lists are judged all the same."""
    srv = server("nasa_like", tool("nasa_cmr", "NASA Common Metadata Repository - search for NASA data collections",
                                   {"keyword": S, "limit": {"type": "integer"}}, ("keyword",)))
    plan = infer_plan(srv, srv.name)
    env = Environment([build_service(plan)], seed=7)
    for word in ("zz-nothing", "office-front.png"):
        assert env.step({"name": "nasa_like__nasa_cmr", "arguments": {"keyword": word}}).data["items"] == []
    assert results(srv)[("nasa_cmr", "domain")] == ["fail"]
