"""Synthesis: loading and cleaning MCP specs, inferring and compiling services, the cache, the
world-model path, the LLM layer and the coder path (all offline: LiteLLM mock responses)."""

from __future__ import annotations

import gzip
import json
import random
import re
import subprocess
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld.services import Environment, ToolCall
from compoworld.services.registry import library_services
from compoworld.services.semantics import is_semantic_type
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, load_specs
from compoworld.synthesis.world import GATEWAY_PLUGINS, MODELS

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str, props: dict[str, Any], required: list[str] | None = None, description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description or name.replace("_", " "),
            "inputSchema": {"type": "object", "properties": props, "required": required or []}}


S = {"type": "string"}
TICKET_TOOLS = [
    _tool("create_ticket", {"title": S, "requester_email": {"type": "string", "format": "email"},
                            "priority": {"type": "string", "enum": ["low", "normal", "high"]}, "description": S},
          ["title", "requester_email"], "Open a support ticket."),
    _tool("get_ticket", {"ticket_id": S}, ["ticket_id"], "Get one ticket by id."),
    _tool("list_tickets", {"priority": {"type": "string", "enum": ["low", "normal", "high"]}, "query": S,
                           "limit": {"type": "integer", "minimum": 1, "maximum": 50}, "offset": {"type": "integer", "minimum": 0}},
          [], "List tickets, optionally filtered by priority or matching a query."),
    _tool("update_ticket", {"ticket_id": S, "priority": {"type": "string", "enum": ["low", "normal", "high"]}, "description": S},
          ["ticket_id"], "Change a ticket's priority or description."),
    _tool("close_ticket", {"ticket_id": S}, ["ticket_id"], "Close a ticket."),
    _tool("delete_ticket", {"ticket_id": S}, ["ticket_id"], "Delete a ticket permanently."),
    _tool("add_comment", {"ticket_id": S, "body": S}, ["ticket_id", "body"], "Add a comment to a ticket."),
    _tool("list_comments", {"ticket_id": S}, ["ticket_id"], "List the comments of a ticket."),
    _tool("get_weather", {"city": S}, ["city"], "Get the current weather for a city."),
    _tool("calculate", {"expression": S}, ["expression"], "Evaluate an arithmetic expression."),
    _tool("summarize_text", {"text": S}, ["text"], "Summarize a piece of text."),
    _tool("navigate", {"url": {"type": "string", "format": "uri"}}, ["url"], "Navigate the browser to a URL."),
]


def _server(name: str = "Ticket Desk", tools: list[dict[str, Any]] | None = None) -> ServerSpec:
    path_free = {"id": f"test/{name}", "name": name, "tools": tools or TICKET_TOOLS}
    from compoworld.synthesis.loader import _server as normalize

    spec, rejections = normalize(path_free, "k", "inline")
    assert spec is not None and not rejections
    return spec


@pytest.fixture(scope="module")
def desk() -> Any:
    plan = infer_plan(_server(), "ticket_desk")
    return plan, build_service(plan)


def test_compiled_seeded_records_are_what_the_state_model_gives_back(desk: Any) -> None:
    """What lets an environment given a state validate only the records not seeded (see
    `environment._validated`) holds for compiled services too."""
    from compoworld.services.environment import generated_state

    _, cls = desk
    for seed in (0, 5):
        state = generated_state(cls, seed)
        assert sum(map(len, state.values())) > 0
        assert cls.validate_state(state) == state


def _step(env: Environment, tool: str, **args: Any) -> Any:
    return env.step({"name": f"ticket_desk__{tool}", "arguments": args})


# -- loading -----------------------------------------------------------------------------------

def _write_jsonl_gz(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(gzip.compress(b"\n".join(lines) + b"\n"))
    return path


def test_bad_specs_are_rejected_with_reasons_and_never_stop_the_run(tmp_path: Path) -> None:
    good = {"id": "x/good", "name": "Good", "tools": TICKET_TOOLS[:3]}
    loop = {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}}}
    mixed = {"id": "x/mixed", "name": "Mixed", "tools": [
        _tool("fine_tool", {"q": S}, ["q"]),
        {"name": "l" * 500, "description": "too long", "inputSchema": {"type": "object"}},
        {"name": "looping", "description": "ref loop", "inputSchema": loop},
        {"name": "broken_schema", "inputSchema": {"type": "object", "properties": {"a": {"type": "nonsense"}}}},
        _tool("fine_tool", {"other": S}),  # same name again
    ]}
    fork = {"id": "x/fork", "name": "Good (fork)", "tools": TICKET_TOOLS[:3]}
    empty = {"id": "x/empty", "name": "Empty", "tools": []}
    truncated = json.dumps({"id": "x/trunc", "name": "Trunc", "tools": TICKET_TOOLS[:2]}).encode()[:-40]
    non_utf8 = b'{"id": "x/latin", "name": "Caf\xe9", "tools": []}'
    f = _write_jsonl_gz(tmp_path / "corpus.jsonl.gz", [json.dumps(r).encode() for r in (good, mixed, fork, empty)] + [truncated, non_utf8])
    res = load_specs([f])
    assert res.servers_in == 6 and res.servers_unique == 5
    assert [d.server_id for d in res.duplicates] == ["x/fork"] and res.servers[0].forks == ["x/fork"]
    by_tool = {(r.server_id, r.tool): r.reason for r in res.rejections if r.tool is not None}
    assert ("x/mixed", "looping") not in by_tool  # a recursive schema is unrolled, not rejected (test_corpus_shapes)
    assert by_tool[("x/mixed", "broken_schema")] == "invalid_schema"
    assert by_tool[("x/mixed", "fine_tool")] == "name_collision"
    assert any(k[0] == "x/mixed" and v == "overlong_name" and "500" in next(r.detail for r in res.rejections if r.reason == "overlong_name") for k, v in by_tool.items())
    servers = {r.reason for r in res.rejections if r.tool is None}
    assert {"no_tools", "truncated_json", "non_utf8"} <= servers
    kept = {s.id: [t.name for t in s.tools] for s in res.servers}
    assert kept == {"x/good": ["create_ticket", "get_ticket", "list_tickets"], "x/mixed": ["fine_tool", "looping"]}
    # everything read is accounted for: kept, merged or rejected
    assert len(res.servers) + len(res.duplicates) + res.servers_rejected == res.servers_in


def test_damaged_gzip_and_plain_tools_list_responses(tmp_path: Path) -> None:
    blob = gzip.compress(b"\n".join(json.dumps({"id": f"s{i}", "name": f"S{i}", "tools": [_tool(f"get_item_{i}", {"item_id": S}, ["item_id"])]}).encode() for i in range(50)))
    (tmp_path / "cut.jsonl.gz").write_bytes(blob[: len(blob) // 2])
    (tmp_path / "weather_api.json").write_text(json.dumps({"tools": [TICKET_TOOLS[8]]}))
    (tmp_path / "rpc.json").write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": [TICKET_TOOLS[9]]}}))
    res = load_specs([tmp_path])
    names = {s.name for s in res.servers}
    assert {"weather_api", "rpc"} <= names
    assert 0 < sum(s.name.startswith("S") for s in res.servers) < 50  # the complete part of the archive is kept
    assert any("gzip" in r.detail for r in res.rejections)


# -- inference ---------------------------------------------------------------------------------

def test_inference_finds_operations_entities_and_semantics(desk: Any) -> None:
    plan, _ = desk
    ops = {t.name: (t.op, t.collection) for t in plan.tools}
    assert ops["create_ticket"] == ("create", "tickets")
    assert ops["get_ticket"] == ("get", "tickets")
    assert ops["list_tickets"] == ("list", "tickets")
    assert ops["update_ticket"] == ("update", "tickets")
    assert ops["close_ticket"] == ("transition", "tickets")
    assert ops["delete_ticket"] == ("delete", "tickets")
    assert ops["add_comment"] == ("create", "comments")
    assert ops["list_comments"][0] == "list"
    assert ops["get_weather"][0] == "lookup"
    assert plan.entity(ops["get_weather"][1]).world  # type: ignore[union-attr]
    assert ops["calculate"][0] == "compute"
    assert ops["summarize_text"][0] == "world_model"
    assert ops["navigate"][0] == "action"
    close = next(t for t in plan.tools if t.name == "close_ticket")
    assert close.target_status == "closed"
    lt = next(t for t in plan.tools if t.name == "list_tickets")
    assert {p.name: p.role for p in lt.params} == {"priority": "filter", "query": "query", "limit": "limit", "offset": "offset"}
    specs = build_service(plan).tool_specs()
    assert specs["get_ticket"].param_semantics["ticket_id"] == "ticket_desk.ticket_id"
    assert specs["add_comment"].param_semantics["ticket_id"] == "ticket_desk.ticket_id"
    assert specs["create_ticket"].param_semantics["requester_email"] == "email"
    assert specs["create_ticket"].output_semantics["id"] == "ticket_desk.ticket_id"
    assert specs["get_weather"].param_semantics["city"] == "city"
    for s in specs.values():
        jsonschema.Draft202012Validator.check_schema(s.input_schema)
        jsonschema.Draft202012Validator.check_schema(s.output_schema)
        assert all(is_semantic_type(v) for v in [*s.param_semantics.values(), *s.output_semantics.values()])
    assert specs["summarize_text"].kind == "world_model" and specs["get_weather"].kind == "deterministic"


def test_generality_on_unseen_naming_styles() -> None:
    """Servers unlike the corpus (camelCase, kebab-case, other domains) compile to the same kinds of operations."""
    from compoworld.synthesis.verify import verify_service

    loans = [
        _tool("createLoan", {"bookIsbn": S, "borrowerEmail": {"type": "string", "format": "email"}, "dueDate": {"type": "string", "format": "date"}},
              ["bookIsbn", "borrowerEmail"], "Lend a book to a borrower."),
        _tool("getLoan", {"loanId": S}, ["loanId"], "Fetch a loan."),
        _tool("listLoans", {"borrowerEmail": S, "pageSize": {"type": "integer"}, "pageToken": S}, [], "List loans."),
        _tool("renewLoan", {"loanId": S, "dueDate": {"type": "string", "format": "date"}}, ["loanId", "dueDate"], "Extend a loan."),
        _tool("archiveLoan", {"loanId": S}, ["loanId"], "Archive a returned loan."),
        _tool("removeLoan", {"loanId": S}, ["loanId"], "Remove a loan record."),
    ]
    clinic = [
        _tool("schedule-appointment", {"pet-name": S, "vet": S, "starts-at": {"type": "string", "format": "date-time"}}, ["pet-name", "starts-at"]),
        _tool("find-appointments", {"vet": S, "limit": {"type": "integer"}}),
        _tool("cancel-appointment", {"appointment-id": S}, ["appointment-id"]),
        _tool("convert-units", {"value": {"type": "number"}, "from_unit": S, "to_unit": S}, ["value", "from_unit", "to_unit"]),
    ]
    for server, expected in ((_server("Lending Library", loans), {"createLoan": "create", "getLoan": "get", "listLoans": "list",
                                                                   "renewLoan": "transition", "archiveLoan": "transition", "removeLoan": "delete"}),
                             (_server("Pet Clinic", clinic), {"schedule-appointment": "create", "find-appointments": "list",
                                                              "cancel-appointment": "transition", "convert-units": "compute"})):
        plan = infer_plan(server, "held_out")
        assert {t.original: t.op for t in plan.tools} == expected
        verdict = verify_service(build_service(plan))
        assert verdict.verified, [c for c in verdict.checks if c.status == "fail"]
    clinic_plan = infer_plan(_server("Pet Clinic", clinic), "held_out")
    assert {t.name for t in clinic_plan.tools} == {"schedule_appointment", "find_appointments", "cancel_appointment", "convert_units"}


def test_a_write_verb_ending_a_name_is_a_noun_when_the_description_reads() -> None:
    """`web_data_linkedin_posts` ("Quickly read structured linkedin posts data") reads posts and
    `time_series_daily_adjusted` reads a series: neither creates nor updates anything. A name that
    leads with its write (`post_status`), or a description that writes, keeps the write."""
    url = {"type": "string", "format": "uri"}
    tools = [
        _tool("web_data_linkedin_posts", {"url": url}, ["url"], "Quickly read structured linkedin posts data."),
        _tool("time_series_daily_adjusted", {"symbol": S}, ["symbol"], "Fetch daily adjusted time series of a stock."),
        _tool("browser_console_logs", {}, [], "Retrieve the console logs of the current page."),
        _tool("post_status", {"text": S}, ["text"], "Post a status update."),
        _tool("team_notes_record", {"text": S}, ["text"], "Record a note for the team."),
    ]
    plan = infer_plan(_server("Web Data", tools), "web_data")
    ops = {t.original: t.op for t in plan.tools}
    assert ops["web_data_linkedin_posts"] in ("list", "lookup", "get")
    assert ops["time_series_daily_adjusted"] in ("list", "lookup", "get")
    assert ops["browser_console_logs"] in ("list", "lookup", "get")
    assert ops["post_status"] == "create" and ops["team_notes_record"] == "create"
    cls = build_service(plan)
    assert cls.tool_specs()["web_data_linkedin_posts"].read_only and not cls.tool_specs()["post_status"].read_only


def test_a_name_ending_in_a_read_or_naming_a_store_reads_when_the_description_reads() -> None:
    """`app-store-details` and `app-store-search` (the App Store), `API-post-search` (an HTTP method)
    and `tag_list` ("Get a list of tags") had compiled to creates or simulated tags: they read, and the
    fidelity lexicon reads them the same way. A name and description that write keep the write."""
    from compoworld.synthesis.fidelity import ToolIntent

    tools = [
        _tool("app-store-details", {"id": {"type": "integer"}}, ["id"], "Get detailed information about an App Store app."),
        _tool("app-store-search", {"term": S}, ["term"], "Search for apps on the App Store."),
        _tool("API-post-search", {"query": S}, [], "Search by title."),
        _tool("tag_list", {}, [], "Get a list of tags."),
        _tool("create_task_list", {"name": S}, ["name"], "Create a new task list."),
    ]
    server = _server("App Market", tools)
    plan = infer_plan(server, "apps")
    by = {t.original: t for t in plan.tools}
    for name in ("app-store-details", "app-store-search", "API-post-search", "tag_list"):
        assert by[name].op in ("list", "lookup", "get") and by[name].read_only, (name, by[name].op)
        assert ToolIntent(next(t for t in server.tools if t.name == name)).read, name
    assert by["create_task_list"].op == "create" and ToolIntent(next(t for t in server.tools if t.name == "create_task_list")).write


def test_a_read_word_naming_a_thing_gives_way_to_the_write_verb_of_the_name() -> None:
    """HubSpot's `engagement_details_update` and `engagement_details_archive` had compiled to lookups (a
    write answered as a read) and WAHA's `StatusController_sendTextStatus` was judged a read by the
    fidelity lexicon: "details", "info" and "status" name a thing there, and the name's write verb says
    what the tool does. Without a write verb they still read (`engagement_details_get`, `map_place_details`)."""
    from compoworld.synthesis.fidelity import ToolIntent

    key = {"engagementId": S}
    tools = [
        _tool("engagement_details_get", key, ["engagementId"], "Get an engagement by id."),
        _tool("engagement_details_update", {**key, "title": S}, ["engagementId"], "Update an engagement."),
        _tool("engagement_details_archive", key, ["engagementId"], "Archive (delete) an engagement."),
        _tool("StatusController_sendTextStatus", {"text": S}, ["text"], "Send a text status."),
        _tool("map_place_details", {"uid": S}, ["uid"], "Get the details of a place."),
    ]
    server = _server("Engagements", tools)
    by = {t.original: t for t in infer_plan(server, "crm").tools}
    assert by["engagement_details_update"].op == "update" and not by["engagement_details_update"].read_only
    assert by["engagement_details_archive"].op not in ("get", "lookup", "list") and not by["engagement_details_archive"].read_only
    assert by["StatusController_sendTextStatus"].op == "create"
    assert by["engagement_details_get"].op in ("get", "lookup") and by["map_place_details"].op in ("get", "lookup")
    intent = {t.name: ToolIntent(t) for t in server.tools}
    assert intent["engagement_details_update"].write and intent["StatusController_sendTextStatus"].write
    assert intent["engagement_details_get"].read and intent["map_place_details"].read
    # a calculator's `log(x, base)` is a logarithm, not a write to a log; joining a group changes it
    other = _server("Calculator", [_tool("log", {"x": {"type": "number"}, "base": {"type": "number"}}, ["x"], "Calculate the logarithm of a number."),
                                   _tool("GroupsController_joinInfoGroup", {"code": S}, ["code"], "Get info about a group before joining.")])
    log, join = (ToolIntent(t) for t in other.tools)
    assert not log.write and join.write


def test_a_setter_that_names_no_record_changes_the_one_its_key_looks_up() -> None:
    """Hugo Frontmatter Manager's `set_title(file_path, title)` and `set_date(file_path, date_value)` had
    made collections of "titles" and "dates" of their own, which `get_frontmatter(file_path)` never
    read (so they were simulated): a setter whose name names no record changes the record that the
    service's read looks up by the same key argument, and the read then shows the change."""
    path = {"type": "string", "description": "Path to the Markdown file."}
    tools = [_tool("get_frontmatter", {"file_path": path}, ["file_path"], "Get the frontmatter of a Hugo post."),
             _tool("set_title", {"file_path": path, "title": S}, ["file_path", "title"], "Set the title of a Hugo post."),
             _tool("set_date", {"file_path": path, "date_value": S}, ["file_path", "date_value"], "Set the date of a Hugo post.")]
    plan = infer_plan(_server("Hugo Frontmatter", tools), "hugo")
    by = {t.original: t for t in plan.tools}
    assert by["set_title"].op == by["set_date"].op == "update"
    assert by["set_title"].collection == by["set_date"].collection == by["get_frontmatter"].collection
    env = Environment([build_service(plan)], seed=3)
    post = next(iter(env.services["hugo"].db[by["get_frontmatter"].collection]))["file_path"]
    assert env.step(ToolCall(name="hugo__set_title", arguments={"file_path": post, "title": "Launch notes"})).ok
    got = json.loads(env.step(ToolCall(name="hugo__get_frontmatter", arguments={"file_path": post})).content)
    assert got["title"] == "Launch notes"
    missing = env.step(ToolCall(name="hugo__set_title", arguments={"file_path": "/posts/none.md", "title": "x"}))
    assert not missing.ok and "no frontmatter" in missing.error


def test_a_name_that_ends_in_list_answers_a_list() -> None:
    """FMP's `getIndexList()` ("Retrieve a comprehensive list of stock market indexes") and Formula 1's
    `getSeasonList()` answered one record, the same for every call: the name's "list" was dropped before
    the noun's number was read. They answer every record now; `getIndex(symbol)` still answers one."""
    tools = [_tool("getIndexList", {}, [], "Retrieve a comprehensive list of stock market indexes."),
             _tool("getIndex", {"symbol": S}, ["symbol"], "Get one stock market index by its symbol.")]
    plan = infer_plan(_server("Market Indexes", tools), "fmp")
    by = {t.original: t for t in plan.tools}
    assert by["getIndexList"].op == "list" and by["getIndex"].op in ("get", "lookup")
    env = Environment([build_service(plan)], seed=3)
    listed = env.step(ToolCall(name="fmp__getIndexList", arguments={}))
    assert listed.ok and len(listed.data["items"]) == len(env.services["fmp"].db[by["getIndexList"].collection]) > 1


def test_a_read_of_the_whole_configuration_answers_every_setting() -> None:
    """`get_config()` and `printEnv()` take no key: they answer the configuration (every setting, each
    named once, an environment's as a shell names them), not one setting picked for every call."""
    tools = [
        _tool("get_config", {}, [], "Get the complete server configuration as JSON."),
        _tool("set_config_value", {"key": S, "value": S}, ["key", "value"], "Set a configuration value."),
    ]
    env_tools = [_tool("printEnv", {}, [], "Prints all environment variables, helpful for debugging.")]
    for server, tool in ((_server("Desktop Commander", tools), "get_config"), (_server("Everything", env_tools), "printEnv")):
        plan = infer_plan(server, "svc")
        env = Environment([build_service(plan)], seed=3)
        obs = env.step({"name": f"svc__{tool}", "arguments": {}})
        assert obs.ok, obs.content
        names = [item["setting"] for item in obs.data["items"]]
        assert len(names) >= 8 and len(set(names)) == len(names)
        assert not any(re.search(r"_\d+$", n) for n in names), names
        assert all(n == n.upper() for n in names) if tool == "printEnv" else all(n == n.lower() for n in names)


def test_a_price_history_is_the_asked_symbols_bars_over_time() -> None:
    """`get_historical_stock_prices(ticker)` answers the ticker's bars (dates in order, each bar's high
    and low bounding its open and close, each opening at the last close, near where it trades), not
    one quote; `get_stock_price(ticker)` beside it still answers a quote, and a history of analysts'
    grades is no price history."""
    tools = [
        _tool("get_historical_stock_prices", {"ticker": S, "period": S, "interval": S}, ["ticker"], "Get historical stock prices for a ticker."),
        _tool("get_stock_price", {"ticker": S}, ["ticker"], "Get the current stock price for a ticker."),
        _tool("get_historical_stock_grades", {"symbol": S}, ["symbol"], "Get the historical analyst grades of a stock."),
    ]
    plan = infer_plan(_server("Stock Desk", tools), "stocks")
    topics = {t.original: next(e.topic for e in plan.entities if e.collection == t.collection) for t in plan.tools}
    assert topics["get_historical_stock_prices"] == "price_history"
    assert topics["get_stock_price"] != "price_history" and topics["get_historical_stock_grades"] != "price_history"
    env = Environment([build_service(plan)], seed=5)
    obs = env.step({"name": "stocks__get_historical_stock_prices", "arguments": {"ticker": "MSFT"}})
    assert obs.ok, obs.content
    record = obs.data["items"][0] if "items" in obs.data else obs.data
    assert record["symbol"] == "MSFT"
    bars = record["candles"]
    assert len(bars) >= 5 and [b["date"] for b in bars] == sorted(b["date"] for b in bars)
    for before, bar in zip(bars, bars[1:]):
        assert bar["open"] == before["close"]
    assert all(b["low"] <= min(b["open"], b["close"]) <= max(b["open"], b["close"]) <= b["high"] for b in bars)
    assert all(300 < b["close"] < 560 for b in bars)  # MSFT trades near 420
    hourly = env.step({"name": "stocks__get_historical_stock_prices", "arguments": {"ticker": "MSFT", "interval": "1h"}})
    hours = hourly.data["items"][0]["candles"] if "items" in hourly.data else hourly.data["candles"]
    assert [datetime.fromisoformat(b["date"].replace("Z", "+00:00")) for b in hours][1] - \
        datetime.fromisoformat(hours[0]["date"].replace("Z", "+00:00")) == timedelta(hours=1)
    coins = infer_plan(_server("Coin Desk", [_tool("get_historical_data", {"coin": S}, ["coin"], "Fetch historical price data for a coin.")]), "coins")
    eth = Environment([build_service(coins)], seed=5).step({"name": "coins__get_historical_data", "arguments": {"coin": "ethereum"}})
    assert eth.ok and eth.data["symbol"] == "ETH" and all(2_000 < b["close"] < 5_000 for b in eth.data["candles"])  # near 3,400


def test_a_lone_search_finds_the_records_its_description_names() -> None:
    """A service whose one tool is `search(query)`, "Search for files in Google Drive.", finds files
    (a path, a title that matches), not generic hits titled "Result 3"."""
    plan = infer_plan(_server("Drive Search", [_tool("search", {"query": S}, ["query"], "Search for files in Google Drive.")]), "drive")
    env = Environment([build_service(plan)], seed=2)
    listed = env.step({"name": "drive__search", "arguments": {"query": "e"}})
    assert listed.ok and listed.data["items"], listed.content
    hit = listed.data["items"][0]
    assert hit["path"].endswith(hit["title"]) and "Result" not in hit["title"]
    word = hit["title"].split(".")[0].split("-")[-1]
    found = env.step({"name": "drive__search", "arguments": {"query": word}})
    assert found.ok and hit["id"] in {item["id"] for item in found.data["items"]}


def test_thinking_tools_keep_the_agents_entries() -> None:
    """`sequentialthinking(thought, thoughtNumber, ...)` and `mentalmodel(modelName, problem)` keep what
    the agent sends as an entry of its reasoning and answer it back (no document with placeholder
    text, no logged action); `get_thoughts` lists the entries; `reasoning(content)`, a question for a
    model, keeps nothing."""
    I, B = {"type": "integer"}, {"type": "boolean"}
    tools = [
        _tool("sequentialthinking", {"thought": S, "thoughtNumber": I, "totalThoughts": I, "nextThoughtNeeded": B},
              ["thought", "thoughtNumber", "totalThoughts", "nextThoughtNeeded"], "A detailed tool for reflective problem-solving through thoughts."),
        _tool("mentalmodel", {"modelName": S, "problem": S}, ["modelName", "problem"], "Apply a mental model to a problem."),
        _tool("get_thoughts", {}, [], "Retrieve all thoughts recorded in the current session."),
        _tool("reasoning", {"content": S}, ["content"], "Deep thinking and complex problem solving"),
    ]
    plan = infer_plan(_server("Thinking", tools), "think")
    ops = {t.original: t.op for t in plan.tools}
    assert ops["sequentialthinking"] == "create" and ops["mentalmodel"] == "create" and ops["get_thoughts"] == "list"
    assert ops["reasoning"] != "create"
    env = Environment([build_service(plan)], seed=4)
    obs = env.step({"name": "think__sequentialthinking", "arguments": {"thought": "First, list the open invoices.", "thoughtNumber": 1,
                                                                       "totalThoughts": 3, "nextThoughtNeeded": True}})
    assert obs.ok, obs.content
    assert {"First, list the open invoices.", 1, 3, True} <= set(obs.data.values()) and "as recorded" not in obs.content
    listed = env.step({"name": "think__get_thoughts", "arguments": {}})
    assert listed.ok and obs.data["id"] in {item["id"] for item in listed.data["items"]}


def test_records_keyed_by_a_ticker_are_the_markets() -> None:
    """`plus_dm(symbol)` (plus directional movement) is no direct message and `getCompanyProfile(symbol)`
    no person: a record keyed by a ticker is a quote or the listed company, whose profile is its own
    (Apple's industry, headquarters and website)."""
    tools = [
        _tool("plus_dm", {"symbol": S, "interval": S, "time_period": {"type": "number"}}, ["symbol", "interval"], "Fetch plus directional movement"),
        _tool("getCompanyProfile", {"symbol": S}, ["symbol"], "Access detailed company profile data."),
    ]
    plan = infer_plan(_server("Market Data", tools), "market")
    topics = {t.original: next(e.topic for e in plan.entities if e.collection == t.collection) for t in plan.tools}
    assert topics["plus_dm"] not in ("message", "person") and topics["getCompanyProfile"] == "company"
    env = Environment([build_service(plan)], seed=6)
    profile = env.step({"name": "market__getCompanyProfile", "arguments": {"symbol": "AAPL"}})
    assert profile.ok, profile.content
    assert profile.data["name"] == "Apple Inc." and profile.data["city"] == "Cupertino" and profile.data["domain"] == "apple.com"
    dm = env.step({"name": "market__plus_dm", "arguments": {"symbol": "IBM", "interval": "daily"}})
    assert dm.ok and dm.data["symbol"] == "IBM" and not {"sender", "recipient", "subject"} & set(dm.data)


def test_a_fetched_url_answers_its_page() -> None:
    """`fetch(url)` and `scrape_as_markdown(url)` answer the page the address names (its host in the
    title, text about what its path names), not a drive's document with placeholder text."""
    url = {"type": "string", "format": "uri"}
    tools = [_tool("fetch", {"url": url}, ["url"], "Fetches a URL from the internet and extracts its contents as markdown."),
             _tool("scrape_as_markdown", {"url": url}, ["url"], "Scrape a single webpage URL with advanced options for content extraction.")]
    plan = infer_plan(_server("Web Fetch", tools), "web")
    env = Environment([build_service(plan)], seed=8)
    for tool in ("fetch", "scrape_as_markdown"):
        obs = env.step({"name": f"web__{tool}", "arguments": {"url": "https://northstarbio.com/pricing"}})
        assert obs.ok, obs.content
        assert obs.data["url"] == "https://northstarbio.com/pricing" and "northstarbio.com" in obs.data["title"]
        assert "Pricing" in obs.data["title"] and "as recorded" not in obs.content


def test_a_teams_projects_are_projects() -> None:
    """`list_projects` of a tracker answers a team's projects (a name, a key, what it is for, a lead),
    not records named "Project 3"; a project's saved context is no project."""
    tools = [_tool("list_projects", {"limit": {"type": "integer"}}, [], "List projects in the workspace."),
             _tool("get_project", {"project_id": S}, ["project_id"], "Get a project by its id."),
             _tool("save_project_context", {"content": S}, ["content"], "Save the context of the current project."),
             _tool("get_context", {"context_id": S}, ["context_id"], "Get a saved context.")]
    plan = infer_plan(_server("Tracker", tools), "tracker")
    topics = {t.original: next((e.topic for e in plan.entities if e.collection == t.collection), None) for t in plan.tools}
    assert topics["list_projects"] == "project" and topics["get_context"] != "project"
    env = Environment([build_service(plan)], seed=9)
    listed = env.step({"name": "tracker__list_projects", "arguments": {}})
    assert listed.ok, listed.content
    first = listed.data["items"][0]
    assert first["name"] and not re.fullmatch(r"Project \d+", first["name"]) and first["key"].isupper()
    assert "as recorded" not in listed.content and len(first["lead"].split()) == 2


def test_a_lookup_by_query_answers_what_the_query_names() -> None:
    """`get_station_info(query)` answers the station the query names, another for another query; it is
    no single station whatever is asked. `execute_query(query)` runs a statement: no record is named by it."""
    tools = [_tool("get_station_info", {"query": S, "limit": {"type": "integer"}}, ["query"], "Get detailed information about a train station"),
             _tool("execute_query", {"query": S}, ["query"], "Execute a query against the cluster")]
    plan = infer_plan(_server("Rail Info", tools), "rail")
    keys = {t.original: [p.field for p in t.params if p.role == "key"] for t in plan.tools}
    assert keys == {"get_station_info": ["name"], "execute_query": []}
    env = Environment([build_service(plan)], seed=3)
    a = env.step({"name": "rail__get_station_info", "arguments": {"query": "Amsterdam Centraal"}})
    b = env.step({"name": "rail__get_station_info", "arguments": {"query": "Utrecht Centraal"}})
    assert a.ok and b.ok and a.data["name"] == "Amsterdam Centraal" and b.data["name"] == "Utrecht Centraal"
    assert env.step({"name": "rail__get_station_info", "arguments": {"query": "Amsterdam Centraal"}}).data == a.data


def test_an_indicator_is_a_dated_series_where_its_values_lie() -> None:
    """`rsi(symbol)` answers a run of dated points between 0 and 100, `wti_crude_oil()` a monthly
    series near 75 USD a barrel, `sma(symbol)` points near where the symbol trades: not one number
    named "Oil 12" at any magnitude."""
    interval = {"type": "string"}
    tools = [_tool("rsi", {"symbol": S, "interval": interval, "time_period": {"type": "number"}}, ["symbol", "interval"], "Fetch relative strength index (RSI)"),
             _tool("sma", {"symbol": S, "interval": interval, "time_period": {"type": "number"}}, ["symbol", "interval"], "Fetch simple moving average (SMA)"),
             _tool("wti_crude_oil", {"interval": interval}, [], "Fetch WTI crude oil")]
    plan = infer_plan(_server("Market Indicators", tools), "ind")
    env = Environment([build_service(plan)], seed=2)
    for tool, args, lo, hi in (("rsi", {"symbol": "IBM", "interval": "daily"}, 0, 100), ("wti_crude_oil", {}, 50, 100),
                               ("sma", {"symbol": "AAPL", "interval": "daily"}, 150, 230)):
        obs = env.step({"name": f"ind__{tool}", "arguments": args})
        assert obs.ok, obs.content
        points = obs.data["data"]
        assert len(points) >= 5 and [p["date"] for p in points] == sorted(p["date"] for p in points)
        assert all(lo <= p["value"] <= hi for p in points), (tool, points)
    # asked for weekly points, the same indicator answers weekly points (and the same again when asked again)
    weekly = env.step({"name": "ind__rsi", "arguments": {"symbol": "IBM", "interval": "weekly"}})
    days = [date.fromisoformat(p["date"]) for p in weekly.data["data"]]
    assert weekly.data["interval"] == "weekly" and {(b - a).days for a, b in zip(days, days[1:])} == {7}
    assert env.step({"name": "ind__rsi", "arguments": {"symbol": "IBM", "interval": "weekly"}}).data == weekly.data


def test_indicators_and_series_whose_words_name_other_things() -> None:
    """Alpha Vantage's `bop(symbol)` ("Fetch balance of power") had answered a balance, `roc` an exchange
    rate, `plus_dm` a stock quote and `natural_gas()` an on-chain transfer: each answers its dated series,
    named as Alpha Vantage names it, and passes the fidelity checks (a balance of power promises no balance)."""
    from compoworld.synthesis.fidelity import promised_value

    ind = {"symbol": S, "interval": S, "time_period": {"type": "number"}}
    tools = [_tool("bop", ind, ["symbol", "interval"], "Fetch balance of power"),
             _tool("roc", ind, ["symbol", "interval"], "Fetch rate of change"),
             _tool("plus_dm", ind, ["symbol", "interval"], "Fetch plus directional movement"),
             _tool("natural_gas", {"interval": S}, [], "Fetch natural gas"),
             _tool("exchange_rate", {"from_currency": S, "to_currency": S}, ["from_currency", "to_currency"], "Fetch exchange rate")]
    plan = infer_plan(_server("Alphavantage", tools), "av")
    env = Environment([build_service(plan)], seed=2)
    for tool, args, name in (("bop", {"symbol": "IBM", "interval": "daily"}, "Balance Of Power (BOP)"),
                             ("roc", {"symbol": "IBM", "interval": "daily"}, "Rate of change (ROC)"),
                             ("plus_dm", {"symbol": "IBM", "interval": "daily"}, "Directional Movement (DM)"),
                             ("natural_gas", {}, "Natural gas")):
        obs = env.step({"name": f"av__{tool}", "arguments": args})
        assert obs.ok and obs.data["name"] == name and len(obs.data["data"]) >= 5, (tool, obs.content)
        assert not {"balance", "rate", "price", "hash"} & set(obs.data), (tool, obs.data)
    assert 2.0 <= min(p["value"] for p in env.step({"name": "av__natural_gas", "arguments": {}}).data["data"]) <= 4.0
    rate = env.step({"name": "av__exchange_rate", "arguments": {"from_currency": "USD", "to_currency": "EUR"}}).data
    assert {"base", "quote", "rate"} <= set(rate)  # an exchange rate is still one
    assert promised_value("Fetch balance of power") is None and promised_value("Get the balance of a wallet") == "balance"


def test_a_market_data_services_williams_r_and_standard_deviation_are_indicator_series() -> None:
    """FMP's `getWilliams(symbol, periodLength, timeframe)` ("Calculate the Williams %R for a stock") and
    `getStandardDeviation` had answered stock quotes (a price, a volume): no indicator. They answer the
    symbol's dated series, Williams %R between -100 and 0, a standard deviation in the quote's currency, at
    the timeframe asked for in FMP's own names ("1hour", "1day"), which had been ignored."""
    ind = {"symbol": {"type": "string", "description": "Stock symbol"}, "periodLength": {"type": "number"},
           "timeframe": {"type": "string", "description": "Timeframe (1min, 5min, 1hour, 1day)"}}
    req = ["symbol", "periodLength", "timeframe"]
    tools = [_tool("getWilliams", ind, req, "Calculate the Williams %R for a stock using the FMP Williams %R API."),
             _tool("getStandardDeviation", ind, req, "Calculate the standard deviation for a stock using the FMP Standard Deviation API."),
             _tool("getQuote", {"symbol": S}, ["symbol"], "Get a real-time stock quote.")]
    env = Environment([build_service(infer_plan(_server("Financial Modeling Prep", tools), "fmp"))], seed=2)
    args = {"symbol": "AAPL", "periodLength": 14, "timeframe": "1day"}
    for tool, name, lo, hi in (("getWilliams", "Williams %R", -100, 0), ("getStandardDeviation", "Standard Deviation", 0, 50)):
        obs = env.step({"name": f"fmp__{tool}", "arguments": args})
        assert obs.ok, obs.error
        series = obs.data["items"][0] if "items" in obs.data else obs.data
        assert series["name"] == name and series["symbol"] == "AAPL" and not {"price", "volume"} & set(series), (tool, series)
        assert len(series["data"]) >= 5 and all(lo <= p["value"] <= hi for p in series["data"]), (tool, series["data"])
    # at FMP's own timeframe names ("1hour"): hourly points, and the record says the timeframe it is shown at
    hourly = env.step({"name": "fmp__getWilliams", "arguments": dict(args, timeframe="1hour")}).data["items"][0]
    assert hourly["timeframe"] == "1hour" and "T" in hourly["data"][0]["date"] and hourly["data"][0]["date"] != hourly["data"][1]["date"][:10]


def test_a_sports_services_games_and_players() -> None:
    """In a baseball service a box score is a game between two teams with its score, a player an athlete
    of a team with a position, and a team's leaders players' season statistics: not a film with a genre,
    not a contact with an email, not an ops metric in milliseconds."""
    I = {"type": "integer"}
    tools = [_tool("get_boxscore", {"game_id": I}, ["game_id"], "Get the boxscore of an MLB game."),
             _tool("lookup_player", {"name": S}, ["name"], "Look up an MLB player by name."),
             _tool("get_team_leaders", {"team_id": I}, ["team_id"], "Returns stat leader data for a given team")]
    plan = infer_plan(_server("MLB Stats Server", tools), "mlb")
    env = Environment([build_service(plan)], seed=4)
    game = env.step({"name": "mlb__get_boxscore", "arguments": {"game_id": 717465}})
    assert game.ok, game.content
    assert game.data["home_team"] != game.data["away_team"] and isinstance(game.data["home_score"], int)
    assert not {"genre", "creator", "rating"} & set(game.data)
    player = env.step({"name": "mlb__lookup_player", "arguments": {"name": "Shohei Ohtani"}})
    assert player.ok and player.data["name"] == "Shohei Ohtani" and player.data["team"] and player.data["position"]
    assert "email" not in player.data
    leaders = env.step({"name": "mlb__get_team_leaders", "arguments": {"team_id": 147}})
    assert leaders.ok and leaders.data["items"], leaders.content
    from compoworld.synthesis.world import STAT_RANGES
    ranges = {name: (lo, hi) for name, lo, hi, _ in STAT_RANGES}
    for row in leaders.data["items"]:  # a season statistic of a player, where that statistic lies (not 2,544 ms)
        lo, hi = ranges[row["stat"]]
        assert lo <= row["value"] <= hi and len(row["player"].split()) == 2 and "unit" not in row
    # a baseball service's teams are the league's, not football clubs ("Harbor City FC" had played in the MLB)
    from compoworld.synthesis.world import LEAGUES, TEAMS
    mlb_teams = LEAGUES[0].teams
    assert {game.data["home_team"], game.data["away_team"], player.data["team"]} <= set(mlb_teams), (game.data, player.data)
    assert all(row["team"] in mlb_teams and row["team"] not in TEAMS for row in leaders.data["items"])
    assert player.data["position"] in {"Pitcher", "Catcher", "First base", "Second base", "Shortstop", "Third base", "Left field",
                                       "Center field", "Right field", "Designated hitter"}, player.data


def test_a_tokens_info_is_what_the_token_is() -> None:
    """`get_token_info(symbol)` answers what the token is (its name, decimals, supply, what it is for),
    a known coin's own facts, not a quote of its price."""
    plan = infer_plan(_server("Token Desk", [_tool("get_token_info", {"symbol": S}, ["symbol"], "Get information about an ERC20 token.")]), "tok")
    obs = Environment([build_service(plan)], seed=2).step({"name": "tok__get_token_info", "arguments": {"symbol": "USDC"}})
    assert obs.ok, obs.content
    assert obs.data["name"] == "USD Coin" and obs.data["decimals"] == 6 and "stablecoin" in obs.data["description"]
    assert "price" not in obs.data


# -- compiled runtime ---------------------------------------------------------------------------

def test_compiled_crud_round_trip_through_the_environment(desk: Any) -> None:
    _, cls = desk
    env = Environment([cls], seed=3)
    created = _step(env, "create_ticket", title="Printer on fire", requester_email="ada@example.com", priority="high")
    assert created.ok, created.error
    tid = created.data["id"]
    assert created.data["status"] == "open" and created.data["created_at"]
    got = _step(env, "get_ticket", ticket_id=tid)
    assert got.ok and got.data == created.data
    page = _step(env, "list_tickets", query="printer fire", limit=50)
    assert tid in [r["id"] for r in page.data["items"]]
    high = _step(env, "list_tickets", priority="high", limit=50)
    assert high.data["items"] and all(r["priority"] == "high" for r in high.data["items"])
    assert tid in [r["id"] for r in high.data["items"]]
    assert _step(env, "update_ticket", ticket_id=tid, description="smoke").data["description"] == "smoke"
    closed = _step(env, "close_ticket", ticket_id=tid)
    assert closed.ok and closed.data["status"] == "closed"
    before = env.state_hash()
    again = _step(env, "close_ticket", ticket_id=tid)
    assert not again.ok and again.error_kind == "business_rule" and env.state_hash() == before
    comment = _step(env, "add_comment", ticket_id=tid, body="on it")
    assert comment.ok and comment.data["ticket_id"] == tid
    assert tid in {c["ticket_id"] for c in _step(env, "list_comments", ticket_id=tid).data["items"]}
    orphan = _step(env, "add_comment", ticket_id="ticket_9999", body="x")
    assert not orphan.ok and orphan.error_kind == "not_found"
    assert _step(env, "delete_ticket", ticket_id=tid).ok
    gone = _step(env, "get_ticket", ticket_id=tid)
    assert not gone.ok and gone.error_kind == "not_found"


def test_lookups_computations_actions_and_invalid_arguments(desk: Any) -> None:
    _, cls = desk
    env = Environment([cls], seed=3)
    w1 = _step(env, "get_weather", city="Reykjavik")
    w2 = _step(env, "get_weather", city="Reykjavik")
    assert w1.ok and w1.data == w2.data and w1.data["city"] == "Reykjavik" and isinstance(w1.data["temperature_c"], (int, float))
    assert _step(env, "calculate", expression="2 * (3 + 4) ** 2").data["result"] == 98
    bad = _step(env, "calculate", expression="__import__('os')")
    assert not bad.ok and bad.error_kind == "business_rule"
    nav = _step(env, "navigate", url="https://example.com/a")
    assert nav.ok and env.state()["ticket_desk"]["action_log"][nav.data["id"]]["arguments"] == {"url": "https://example.com/a"}
    before = env.state_hash()
    for args in ({}, {"title": 5, "requester_email": "a@b.co"}, {"title": "t", "requester_email": "not-an-email"},
                 {"title": "t", "requester_email": "a@b.co", "priority": "urgent"}, {"title": "t", "requester_email": "a@b.co", "extra": 1}):
        obs = _step(env, "create_ticket", **args)
        assert not obs.ok and obs.error_kind == "invalid_arguments", args
    assert env.state_hash() == before


FORECAST_TOOLS = [_tool("get_forecast", {"city": S, "units": {"type": "string", "enum": ["metric", "imperial"]},
                                         "days": {"type": "integer", "minimum": 1, "maximum": 14},
                                         "location": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                                                      "required": ["lat", "lon"]}},
                        ["city"], "Get the weather forecast for a city.")]
INTERNALS = re.compile(r"must contain|\bdata[.\[]|Error\b|Exception|<class|\w+\(\w+=|\{'|\bNone\b|\bTrue\b|\bFalse\b")


def test_argument_errors_name_the_argument_and_what_it_must_be() -> None:
    """What a compiled tool says about a bad call: the argument and what was expected, in words, and
    nothing of how it is checked (no validator jargon, no Python reprs or class names)."""
    cls = build_service(infer_plan(_server("Forecasts", FORECAST_TOOLS), "forecasts"))
    env = Environment([cls], seed=1)
    expected = {
        "missing": ({}, "missing required argument 'city'"),
        "wrong type": ({"city": 5}, "argument 'city' must be a string (got 5)"),
        "out of enum": ({"city": "Oslo", "units": "kelvin"}, 'argument \'units\' must be one of "metric", "imperial" (got "kelvin")'),
        "integer as text": ({"city": "Oslo", "days": "three"}, 'argument \'days\' must be an integer (got "three")'),
        "out of range": ({"city": "Oslo", "days": 30}, "argument 'days' must be at most 14 (got 30)"),
        "unknown": ({"city": "Oslo", "country": "NO"}, "unknown argument 'country' (the arguments are: city, days, location, units)"),
        "nested": ({"city": "Oslo", "location": {"lat": 59.9}}, "argument 'location' is missing required field 'lon'"),
        "nested type": ({"city": "Oslo", "location": {"lat": 59.9, "lon": True}}, "argument 'location.lon' must be a number (got true)"),
        "several": ({"units": 1, "days": 0}, "missing required argument 'city'; argument 'units' must be one of \"metric\", "
                                             "\"imperial\" (got 1); argument 'days' must be at least 1 (got 0)"),
    }
    for case, (args, message) in expected.items():
        obs = env.step({"name": "forecasts__get_forecast", "arguments": args})
        assert obs.error_kind == "invalid_arguments" and obs.error == message, (case, obs.error)
        assert not INTERNALS.search(obs.error or ""), (case, obs.error)
    assert env.step({"name": "forecasts__get_forecast", "arguments": {"city": "Oslo", "units": "metric", "days": 3}}).ok


def test_same_seed_same_state_and_outputs_different_seed_different_state(desk: Any) -> None:
    _, cls = desk
    runs = []
    for seed in (5, 5, 6):
        env = Environment([cls], seed=seed)
        outs = [env.state_hash()]
        outs.append(_step(env, "create_ticket", title="A", requester_email="a@b.co").content)
        outs.append(_step(env, "get_weather", city="Oslo").content)
        outs.append(_step(env, "summarize_text", text="One. Two. Three.").content)
        runs.append(outs)
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[2][0]


def test_state_snapshot_validates_and_reloads(desk: Any) -> None:
    _, cls = desk
    env = Environment([cls], seed=2)
    _step(env, "create_ticket", title="A", requester_email="a@b.co")
    snap, h = env.state(), env.state_hash()
    env.reset(2)
    assert env.state_hash() != h
    env.reset(2, {"ticket_desk": snap["ticket_desk"]})
    assert env.state_hash() == h
    with pytest.raises(Exception):
        env.reset(2, {"ticket_desk": {"tickets": {"t1": {"id": "t1", "priority": {"not": "a string"}}}}})


def test_composes_with_the_library_crm_service(desk: Any) -> None:
    _, cls = desk
    crm = library_services()["crm"]
    env = Environment([crm, cls], seed=4)
    names = {t["function"]["name"] for t in env.tools_openai()}
    assert "crm__create_contact" in names and "ticket_desk__create_ticket" in names
    assert {t["name"] for t in env.tools_mcp()["tools"]} == names
    contact = next(iter(env.state()["crm"]["contacts"].values()))
    t = env.step(ToolCall("ticket_desk__create_ticket", {"title": "Invoice question", "requester_email": contact["email"]}))
    assert t.ok and t.data["requester_email"] == contact["email"]
    assert env.step(ToolCall("crm__get_contact", {"contact_id": contact["id"]})).ok
    changes = env.diff(env.state(), env.state())
    assert changes == []


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                           max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_step_never_raises_and_failed_calls_change_nothing(desk: Any, data: st.DataObject) -> None:
    _, cls = desk
    env = Environment([library_services()["crm"], cls], seed=4)
    specs = env.tool_specs()
    ids = [k for svc in env.state().values() for coll in svc.values() for k in list(coll)[:4]]
    for _ in range(data.draw(st.integers(1, 5))):
        name = data.draw(st.sampled_from(sorted(specs)) | st.text(max_size=12))
        props = specs[name].input_schema.get("properties", {}) if name in specs else {}
        args = {p: data.draw(st.sampled_from(ids) | json_values) for p in props if data.draw(st.booleans())}
        if data.draw(st.booleans()):
            args = data.draw(st.dictionaries(st.text(max_size=6), json_values, max_size=3) | json_values)
        before = env.state_hash()
        obs = env.step({"name": name, "arguments": args})
        json.loads(obs.content)
        if not obs.ok:
            assert obs.error and obs.error_kind and env.state_hash() == before


# -- world model ---------------------------------------------------------------------------------

def test_world_model_offline_is_deterministic_consistent_and_marked_simulated(desk: Any) -> None:
    from compoworld.synthesis import world_model

    world_model.configure(None)
    _, cls = desk
    env = Environment([cls], seed=1)
    a = _step(env, "summarize_text", text="Alpha beta. Gamma delta. Epsilon.")
    b = _step(env, "summarize_text", text="Alpha beta. Gamma delta. Epsilon.")
    c = _step(env, "summarize_text", text="Something else entirely.")
    assert a.ok and a.simulated and a.data == b.data and a.data != c.data
    assert a.data["summary"].startswith("Alpha beta.")
    sims = env.state()["ticket_desk"]["simulations"]
    assert len(sims) == 2 and {r["source"] for r in sims.values()} == {"offline"}
    assert not _step(env, "get_ticket", ticket_id="ticket_0001").simulated


def test_world_model_through_litellm_mock_is_cached(desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from compoworld import llm
    from compoworld.synthesis import world_model

    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path))
    _, cls = desk
    try:
        world_model.configure("openai/gpt-4o-mini", mock_response='{"summary": "Mocked summary.", "source_words": 3}')
        env = Environment([cls], seed=1)
        obs = _step(env, "summarize_text", text="x y z")
        assert obs.ok and obs.simulated and obs.data["summary"] == "Mocked summary."
        assert next(iter(env.state()["ticket_desk"]["simulations"].values()))["source"] == "llm:openai/gpt-4o-mini"
        entries = llm.cache_entries()
        assert len(entries) == 1 and (tmp_path / "llm" / "cache.jsonl").exists()
        env2 = Environment([cls], seed=1)
        assert _step(env2, "summarize_text", text="x y z").data == obs.data
        assert len(llm.cache_entries()) == 1  # the second environment was answered from the cache
        world_model.configure("openai/gpt-4o-mini", mock_response="this is not json")
        fallback = _step(Environment([cls], seed=1), "summarize_text", text="p q")
        assert fallback.ok and fallback.data["summary"] == "p q"  # an unusable answer falls back to the offline simulator
    finally:
        world_model.configure(None)


# -- llm.py ----------------------------------------------------------------------------------------

def test_llm_chat_mock_cache_tool_calls_retries_and_no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import litellm

    from compoworld import llm

    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path))
    msgs = [{"role": "user", "content": "hi"}]
    r1 = llm.chat("openai/gpt-4o-mini", msgs, mock_response="hello")
    r2 = llm.chat("openai/gpt-4o-mini", msgs, mock_response="hello")
    assert r1.content == "hello" and not r1.cached and r2.cached and r1.key == r2.key
    calls = [{"id": "c1", "type": "function", "function": {"name": "crm__get_company", "arguments": '{"company_id": "co_0001"}'}}]
    r3 = llm.chat("openai/gpt-4o-mini", msgs, mock_tool_calls=calls, mock_response="")
    assert r3.tool_calls[0]["function"]["name"] == "crm__get_company"
    with pytest.raises(llm.NoModelConfigured):
        llm.chat("", msgs)
    attempts = {"n": 0}
    real = litellm.completion

    def flaky(**kwargs: Any) -> Any:
        attempts["n"] += 1
        if attempts["n"] < 3:
            raise litellm.RateLimitError("slow down", llm_provider="openai", model="gpt-4o-mini")
        return real(**kwargs)

    monkeypatch.setattr(litellm, "completion", flaky)
    monkeypatch.setattr(llm.time, "sleep", lambda s: None)
    r4 = llm.chat("openai/gpt-4o-mini", [{"role": "user", "content": "retry"}], mock_response="ok", cache=False)
    assert r4.content == "ok" and attempts["n"] == 3
    attempts["n"] = -10
    with pytest.raises(litellm.RateLimitError):
        llm.chat("openai/gpt-4o-mini", [{"role": "user", "content": "give up"}], mock_response="x", cache=False, retries=1)


# -- pipeline, cache, registry ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def synth_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    from compoworld.synthesis import run_synth

    d = tmp_path_factory.mktemp("synth")
    spec = d / "specs.jsonl"
    rows = [{"id": "t/desk", "name": "Ticket Desk", "tools": TICKET_TOOLS},
            {"id": "t/desk-fork", "name": "Ticket Desk fork", "tools": TICKET_TOOLS},
            {"id": "t/crm", "name": "CRM", "tools": TICKET_TOOLS[:3]},
            {"id": "t/none", "name": "Nothing", "tools": []}]
    spec.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = run_synth([spec], workers=1, cache_directory=d / "root" / "synth", verify_library_services=False)
    return report, d / "root" / "synth"


def test_run_synth_reports_and_writes_the_cache(synth_run: tuple[Any, Path]) -> None:
    report, cache = synth_run
    s = report.summary()
    for key in ("servers_in", "servers_unique", "servers_rejected", "services_compiled", "tools_in", "tools_compiled",
                "tools_deterministic", "tools_world_model", "services_verified", "seconds"):
        assert key in s
    assert (s["servers_in"], s["servers_unique"], s["servers_rejected"], s["services_compiled"]) == (4, 3, 1, 2)
    assert s["tools_compiled"] == len(TICKET_TOOLS) + 3 and s["tools_world_model"] == 1
    assert s["services_verified"] == 2, s["failed_checks"]
    assert {r["reason"] for r in s["rejections"]} == {"no_tools"}
    names = sorted(x.name for x in report.services)
    assert names == ["crm_mcp", "ticket_desk"]  # never shadows the library's crm
    assert all(c.service in names for c in report.checks) and len(report.checks) > 50
    assert (cache / "index.json").exists()


def test_cached_services_load_fast_without_recompiling(synth_run: tuple[Any, Path]) -> None:
    _, cache = synth_run
    code = ("import sys, time, json; t = time.perf_counter();"
            "from compoworld.services.registry import all_services, get_service;"
            "svc = all_services('compiled'); dt = time.perf_counter() - t;"
            "print(json.dumps({'names': sorted(svc), 'seconds': dt, 'origin': get_service('ticket_desk').origin,"
            "'compiled_anything': 'compoworld.synthesis.infer' in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                         env={"COMPOWORLD_CACHE_DIR": str(cache.parent), "PATH": ""})
    info = json.loads(out.stdout)
    assert info["names"] == ["crm_mcp", "ticket_desk"] and info["origin"] == "compiled"
    assert info["seconds"] < 1.0 and not info["compiled_anything"]


def test_cache_round_trip_and_environment_by_name(synth_run: tuple[Any, Path]) -> None:
    from compoworld.synthesis.cache import load_compiled

    _, cache = synth_run
    root = cache.parent
    t0 = time.perf_counter()
    loaded = load_compiled(directory=cache)
    assert time.perf_counter() - t0 < 1.0
    cls = loaded["ticket_desk"]
    assert cls.origin == "compiled" and cls.verified is True
    assert "plan" not in cls.__dict__ or not hasattr(cls.__dict__["plan"], "tools")  # nothing parsed yet
    info = cls.info()
    assert info["n_tools"] == len(TICKET_TOOLS) and info["n_world_model"] == 1 and info["origin"] == "compiled"
    env = Environment([cls, library_services()["crm"]], seed=9)
    obs = env.step({"name": "ticket_desk__create_ticket", "arguments": {"title": "From cache", "requester_email": "c@d.io"}})
    assert obs.ok and env.step({"name": "ticket_desk__get_ticket", "arguments": {"ticket_id": obs.data["id"]}}).ok
    code = ("from compoworld.services import compose;"
            "e = compose(['ticket_desk', 'crm'], seed=11); print(e.state_hash());"
            "print(e.step({'name': 'ticket_desk__get_weather', 'arguments': {'city': 'Lima'}}).content)")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                           env={"COMPOWORLD_CACHE_DIR": str(root), "PYTHONHASHSEED": str(i), "PATH": ""}).stdout for i in (1, 2)}
    assert len(outs) == 1 and "Lima" in outs.pop()


def test_compiled_service_serves_over_mcp(desk: Any) -> None:
    import asyncio

    from fastmcp import Client

    from compoworld.services.mcp_server import ERROR_KIND_META, SIMULATED_META, build_server

    _, cls = desk
    env = Environment([library_services()["crm"], cls], seed=2)

    async def go() -> tuple[Any, ...]:
        async with Client(build_server(env)) as client:
            listed = {t.name: t for t in await client.list_tools()}
            created = await client.call_tool_mcp("ticket_desk__create_ticket", {"title": "Via MCP", "requester_email": "m@c.p"})
            summary = await client.call_tool_mcp("ticket_desk__summarize_text", {"text": "Served. Over MCP."})
            bad = await client.call_tool_mcp("ticket_desk__get_ticket", {"ticket_id": 7})
            return listed, created, summary, bad

    listed, created, summary, bad = asyncio.run(go())
    assert {"crm__create_contact", "ticket_desk__create_ticket", "ticket_desk__summarize_text"} <= set(listed)
    assert listed["ticket_desk__create_ticket"].input_schema == env.tool_specs()["ticket_desk__create_ticket"].input_schema
    assert not created.is_error and created.structured_content["title"] == "Via MCP"
    assert created.structured_content["id"] in env.state()["ticket_desk"]["tickets"]
    assert not summary.is_error and summary.meta[SIMULATED_META] is True
    assert bad.is_error and bad.meta[ERROR_KIND_META] == "invalid_arguments"


def test_a_coins_data_is_a_coin_record_and_a_coin_flip_is_still_a_flip() -> None:
    """`coingecko_coin_data(id)` and `get-coin-quotes` had compiled to a coin flip (heads or tails),
    the first then simulated as random business words; a coin's data is the coin's record, and only a
    tool that says it flips or tosses a coin flips one."""
    tools = [_tool("coingecko_coin_data", {"id": S}, ["id"], "Get current data for a coin (price, market, volume, etc.)"),
             _tool("flip_coin", {}, [], "Flip a coin."),
             _tool("toss", {"times": {"type": "integer"}}, [], "Toss a coin a number of times.")]
    plan = infer_plan(_server("Coin Desk", tools), "coins")
    by = {t.original: t for t in plan.tools}
    assert by["coingecko_coin_data"].op == "lookup" and by["coingecko_coin_data"].compute is None
    assert next(e.topic for e in plan.entities if e.collection == by["coingecko_coin_data"].collection) == "price"
    assert by["flip_coin"].compute == "coin" and by["toss"].compute == "coin"
    env = Environment([build_service(plan)], seed=2)
    for coin_id, coin in env.state()["coins"][by["coingecko_coin_data"].collection].items():
        obs = env.step({"name": "coins__coingecko_coin_data", "arguments": {"id": coin_id}})
        assert obs.ok and obs.data["symbol"] == coin["symbol"] and obs.data["price"] > 0 and "result" not in obs.data, obs.content


def test_statistics_are_measures_of_the_services_domain_and_lie_in_their_range() -> None:
    """DexPaprika's `getStats` had answered signups and p95 latency (an ops dashboard's measures in any
    domain) at values outside their range: a DEX's statistics are its volume, locked value, pools and
    fees, a search engine's its documents and shards, each value where the measure lies."""
    from compoworld.synthesis.world import DOMAIN_METRICS, METRICS

    def of(word: str) -> list[Any]:
        return next(m for keys, m in DOMAIN_METRICS if word in keys)

    cases = [("DexPaprika", "Get high-level statistics about the DexPaprika ecosystem", of("dexpaprika")),
             ("Elasticsearch", "Get index statistics", of("elasticsearch")),
             ("NixOS", "Get statistics about NixOS packages", of("nixos")),
             ("Product Dashboard", "Get product statistics", METRICS)]
    for server_name, description, measures in cases:
        plan = infer_plan(_server(server_name, [_tool("getStats", {}, [], description)]), "svc")
        obs = Environment([build_service(plan)], seed=3).step({"name": "svc__getStats", "arguments": {}})
        assert obs.ok, obs.content
        ranges = {name: (unit, lo, hi) for name, unit, lo, hi in measures}
        rows = obs.data["items"] if isinstance(obs.data, dict) and "items" in obs.data else [obs.data]
        for row in rows:
            assert row["name"] in ranges, (server_name, row)
            unit, lo, hi = ranges[row["name"]]
            assert row["unit"] == unit and lo <= row["value"] <= hi, (server_name, row)


def test_a_things_statistics_are_measures_of_it_not_its_record_again() -> None:
    """`get_cluster_stats()` beside `get_cluster_health()` had answered the cluster's record (a name, a
    host, a region): it answers measures of the cluster in a search engine's terms. A deck the service
    makes keeps its statistics on its own record (they follow its cards)."""
    from compoworld.synthesis.world import DOMAIN_METRICS

    search = next(m for keys, m in DOMAIN_METRICS if "elasticsearch" in keys)
    plan = infer_plan(_server("Elasticsearch", [_tool("get_cluster_health", {}, [], "Get cluster health."),
                                                _tool("get_cluster_stats", {}, [], "Get cluster statistics.")]), "es")
    obs = Environment([build_service(plan)], seed=4).step({"name": "es__get_cluster_stats", "arguments": {}})
    rows = obs.data["items"] if "items" in obs.data else [obs.data]
    assert obs.ok and all(r["name"] in {m[0] for m in search} and not {"host", "region"} & set(r) for r in rows), obs.content
    decks = infer_plan(_server("Deck Manager", [_tool("create_deck", {"name": S}, ["name"], "Create a deck."),
                                                _tool("view_deck_stats", {"deck_id": S}, ["deck_id"], "View a deck's statistics.")]), "decks")
    assert len({t.collection for t in decks.tools}) == 1


def test_an_offline_world_model_answer_says_so_and_makes_nothing_up() -> None:
    """Without a configured model a simulated tool had answered random business words ("Pricing
    analytics audit webinar ...") for anything: the stand-in says it is one and invents no content."""
    from compoworld.synthesis.world import WORDS

    plan = infer_plan(_server("Stories", [_tool("generate_story", {"prompt": S}, ["prompt"], "Generate a short story from a prompt.")]), "stories")
    assert plan.tools[0].op == "world_model"
    obs = Environment([build_service(plan)], seed=1).step({"name": "stories__generate_story", "arguments": {"prompt": "Will it rain?"}})
    assert obs.ok and obs.simulated, obs.content
    said = obs.data["result"]
    assert "Will it rain?" in said and "no world model is configured" in said
    assert not set(said.lower().replace(".", " ").replace(":", " ").split()) & (set(WORDS) - {"model", "world"}), said


def test_an_integrations_help_lists_what_its_own_tools_do() -> None:
    """After Effects' `get-help()` and Suricata's `get_suricata_help()` had answered "Help 12, as
    recorded.": an integration's help is its own catalog, each tool with what it does, and a topic
    asked about narrows it to the tools that mention it."""
    tools = [_tool("get-help", {}, [], "Get help on using the After Effects MCP integration"),
             _tool("create_composition", {"name": S}, ["name"], "Create a new composition in After Effects."),
             _tool("apply_effect", {"layer": S, "effect": S}, ["layer", "effect"], "Apply an effect to a layer."),
             _tool("get_topic_help", {"topic": S}, ["topic"], "Get help about one topic.")]
    plan = infer_plan(_server("After Effects", tools), "ae")
    assert {t.original: t.compute for t in plan.tools}["get-help"] == "help"
    env = Environment([build_service(plan)], seed=1)
    every = env.step({"name": "ae__get_help", "arguments": {}})
    assert every.ok and set(every.data["tools"]) == {"create_composition", "apply_effect"}, every.content
    assert "Apply an effect to a layer." in every.data["content"] and "as recorded" not in every.content
    narrowed = env.step({"name": "ae__get_topic_help", "arguments": {"topic": "layers"}})
    assert narrowed.ok and narrowed.data["tools"] == ["apply_effect"], narrowed.content


def test_a_reference_named_for_a_name_holds_the_referenced_records_name() -> None:
    """Papers With Code's papers had `author_name: "autho_0012"` (an id in a name) beside an `author_id`
    of another author: a reference named for a name holds the name of the record its id names, and
    a filter by that name finds the papers of that author."""
    tools = [_tool("create_author", {"name": S}, ["name"], "Create an author."),
             _tool("list_authors", {}, [], "List authors."),
             _tool("create_paper", {"title": S, "author_id": S, "author_name": S}, ["title"], "Create a paper."),
             _tool("list_papers", {"author_name": S}, [], "List papers, optionally by author name.")]
    plan = infer_plan(_server("Papers", tools), "papers")
    env = Environment([build_service(plan)], seed=6)
    authors = {a["id"]: a["name"] for a in env.step({"name": "papers__list_authors", "arguments": {}}).data["items"]}
    papers = env.step({"name": "papers__list_papers", "arguments": {}}).data["items"]
    linked = [p for p in papers if p.get("author_id") is not None and p.get("author_name") is not None]
    assert linked, papers
    for paper in linked:
        assert paper["author_name"] == authors[paper["author_id"]], paper
        found = env.step({"name": "papers__list_papers", "arguments": {"author_name": paper["author_name"]}})
        assert found.ok and paper["id"] in {p["id"] for p in found.data["items"]}, found.content


def test_an_orchestrators_workflows_and_runs_are_of_their_kind() -> None:
    """Airflow's DAGs had been "Dag 6, as recorded." with a value of 496.65, and a run lasted six weeks:
    a DAG is a workflow with a schedule, an owner and what it does, a run has a state and lasts minutes.
    A CRM that says it "enhances your workflows" keeps its sales pipelines."""
    from compoworld.synthesis.world import PLACEHOLDER, RUN_STATES, WORKFLOWS

    tools = [_tool("fetch_dags", {"limit": {"type": "integer"}}, [], "Fetch all DAGs."),
             _tool("get_dag", {"dag_id": S}, ["dag_id"], "Get a DAG by its id."),
             _tool("get_dag_runs", {"dag_id": S, "limit": {"type": "integer"}}, ["dag_id"], "Get the runs of a DAG.")]
    server = _server("Apache Airflow", tools)
    plan = infer_plan(server, "airflow")
    assert {e.entity: e.topic for e in plan.entities} == {"dag": "workflow", "run": "run"}
    env = Environment([build_service(plan)], seed=2)
    dags = env.step({"name": "airflow__fetch_dags", "arguments": {"limit": 50}}).data["items"]
    assert dags and PLACEHOLDER not in json.dumps(dags)
    for dag in dags:
        known = next(w for w in WORKFLOWS if dag["name"].startswith(w[0]))
        assert dag["description"] == known[1] and dag["schedule"] == known[2], dag
    runs = env.step({"name": "airflow__get_dag_runs", "arguments": {"dag_id": dags[0]["id"], "limit": 50}}).data["items"]
    assert runs
    for run in runs:
        began, ended = (datetime.fromisoformat(run[k].replace("Z", "+00:00")) for k in ("started_at", "ended_at"))
        assert run["state"] in RUN_STATES and timedelta(0) < ended - began < timedelta(hours=2), run

    crm = _server("PipeRun", [_tool("list_pipelines", {}, [], "List the sales pipelines."),
                              _tool("list_deals", {"pipeline_id": S}, [], "List deals.")])
    crm.description = "Enhance your workflows by connecting your CRM."
    assert not {e.topic for e in infer_plan(crm, "crm").entities} & {"workflow", "run"}


def test_a_generator_described_in_portuguese_or_spanish_is_a_world_model_tool() -> None:
    """`apresenta(tema)`: "Gera um mapa mental ... sobre um tema" had been a lookup of "Mapa 3, as
    recorded."; content generated about any theme is a world-model tool (simulated, or answered by
    a configured model), as its English counterpart is."""
    tools = [_tool("apresenta", {"tema": S}, ["tema"], "Gera um mapa mental para apresentações sobre um tema."),
             _tool("resumen", {"texto": S}, ["texto"], "Genera un resumen del texto."),
             _tool("mind_map", {"topic": S}, ["topic"], "Generate a mind map about a topic.")]
    plan = infer_plan(_server("Mapas", tools), "mapas")
    assert {t.original: t.op for t in plan.tools} == {"apresenta": "world_model", "resumen": "world_model", "mind_map": "world_model"}


def test_a_web_services_status_is_its_health_not_a_metric() -> None:
    """ChEMBL's `example_status()` ("Get status information for ChEMBL Web Services") and an API's
    `check_status()` ("Check if the API is alive") had answered a metric "Status 12" at 3,014.67 %:
    they answer the service's state, version and uptime. An order's status is no health."""
    for server_name, tool_name, description in (("ChEMBL", "get_status", "Get status information for ChEMBL Web Services"),
                                                ("Courses API", "check_status", "Check if the API is alive and responding.")):
        plan = infer_plan(_server(server_name, [_tool(tool_name, {}, [], description)]), "svc")
        assert {e.topic for e in plan.entities} == {"health"}, plan.entities
        obs = Environment([build_service(plan)], seed=2).step({"name": f"svc__{tool_name}", "arguments": {}})
        assert obs.ok and obs.data["status"] in ("healthy", "degraded", "unhealthy") and "version" in obs.data, obs.content
    orders = infer_plan(_server("Shop", [_tool("get_order_status", {"order_id": S}, ["order_id"], "Get the status of an order.")]), "shop")
    assert "health" not in {e.topic for e in orders.entities}


def test_a_companys_profile_is_a_company_and_a_persons_profile_a_person() -> None:
    """Bright Data's `web_data_linkedin_company_profile` had answered a person (a name, an email, a
    username) from the same profiles its person profiles were: a company's profile is a company's."""
    url = {"type": "string", "format": "uri"}
    tools = [_tool("web_data_linkedin_company_profile", {"url": url}, ["url"], "Quickly read structured linkedin company profile data."),
             _tool("web_data_linkedin_person_profile", {"url": url}, ["url"], "Quickly read structured linkedin people profile data.")]
    plan = infer_plan(_server("Bright Data", tools), "bd")
    topics = {t.original: next(e.topic for e in plan.entities if e.collection == t.collection) for t in plan.tools}
    assert topics == {"web_data_linkedin_company_profile": "company", "web_data_linkedin_person_profile": "person"}
    env = Environment([build_service(plan)], seed=2)
    company = env.step({"name": "bd__web_data_linkedin_company_profile", "arguments": {"url": "https://www.linkedin.com/company/acme"}})
    assert company.ok and {"industry", "employees"} <= set(company.data) and "email" not in company.data, company.content


def test_how_a_search_runs_is_no_field_of_its_results() -> None:
    """DuckDuckGo's videos carried the `safesearch` and `timelimit` of the search as fields, and a
    `summarize` flag filtered them; a search's options never shape or filter its records, while a flag
    naming a state of the records (`archived`) still filters."""
    tools = [_tool("video_search", {"keywords": S, "safesearch": {"type": "string", "enum": ["on", "moderate", "off"]},
                                    "timelimit": {"type": "string", "enum": ["d", "w", "m"]}, "summarize": {"type": "boolean"},
                                    "duration": {"type": "string", "enum": ["short", "medium", "long"]}},
                   ["keywords"], "Search for videos."),
             _tool("list_notes", {"archived": {"type": "boolean"}, "recursive": {"type": "boolean"}}, [], "List notes.")]
    plan = infer_plan(_server("Video Finder", tools), "finder")
    fields = {e.entity: {f.name for f in e.fields} for e in plan.entities}
    assert "duration" in fields["video"] and not fields["video"] & {"safesearch", "timelimit", "summarize"}
    assert "archived" in fields["note"] and "recursive" not in fields["note"]
    roles = {(t.original, p.name): p.role for t in plan.tools for p in t.params}
    assert roles[("video_search", "safesearch")] == roles[("video_search", "summarize")] == "option"
    assert roles[("video_search", "duration")] == "filter" and roles[("list_notes", "archived")] == "filter"
    env = Environment([build_service(plan)], seed=3)
    video = next(iter(env.state()["finder"][next(e.collection for e in plan.entities if e.entity == "video")].values()))
    word = video["title"].split()[-1]
    plain = env.step({"name": "finder__video_search", "arguments": {"keywords": word}})
    optioned = env.step({"name": "finder__video_search", "arguments": {"keywords": word, "safesearch": "off", "summarize": True}})
    assert plain.ok and plain.data["items"] and optioned.data == plain.data


def test_an_address_off_a_chain_is_a_street_and_a_wallet_is_on_one() -> None:
    """HubSpot's companies had Ethereum addresses: off a blockchain, a company's or a person's address
    is a street's; a wallet's, and any address of a chain service, stays an address on the chain."""
    crm = infer_plan(_server("Sales CRM", [_tool("create_company", {"name": S, "address": S}, ["name"], "Create a company."),
                                           _tool("list_companies", {}, [], "List companies.")]), "crm")
    env = Environment([build_service(crm)], seed=4)
    addresses = [c["address"] for c in env.state()["crm"][crm.entities[0].collection].values()]
    assert addresses and all(re.fullmatch(r"\d+ \w+ Street", a) for a in addresses), addresses
    chain = infer_plan(_server("Ethereum Wallet", [_tool("get_wallet", {"address": S}, ["address"], "Get an Ethereum wallet's balance."),
                                                   _tool("list_wallets", {}, [], "List wallets.")]), "wallets")
    env = Environment([build_service(chain)], seed=4)
    wallets = [w["address"] for w in env.state()["wallets"][chain.entities[0].collection].values()]
    assert wallets and all(re.fullmatch(r"0x[0-9a-f]{40}", a) for a in wallets), wallets


def test_a_preprint_servers_records_are_papers() -> None:
    """bioRxiv, medRxiv and Sci-Hub searches answered generic hits ("Biorxiv 6, as recorded."); their
    records are papers (title, authors, abstract), and a search "by key words" searches the papers."""
    tools = [_tool("search_biorxiv_key_words", {"key_words": S}, ["key_words"], "search biorxiv key words."),
             _tool("get_biorxiv_metadata", {"doi": S}, ["doi"], "get biorxiv metadata.")]
    plan = infer_plan(_server("bioRxiv", tools), "biorxiv")
    assert {e.topic for e in plan.entities if e.world} == {"paper"}
    assert {t.original: t.collection for t in plan.tools}["search_biorxiv_key_words"] == "biorxivs"
    env = Environment([build_service(plan)], seed=5)
    paper = next(iter(env.state()["biorxiv"]["biorxivs"].values()))
    obs = env.step({"name": "biorxiv__get_biorxiv_metadata", "arguments": {"doi": paper["doi"]}})
    assert obs.ok and obs.data["authors"] and obs.data["abstract"].startswith("We study"), obs.content
    assert ", as recorded." not in obs.content


def test_a_batch_archive_moves_or_deletes_each_named_record() -> None:
    """`calls_batch_archive(callIds)` had compiled to a logged action that changed nothing; each call
    named is archived now (one already archived stays as it is, an unknown id is reported), and a
    batch whose spec says "Archive (delete)" deletes them."""
    tools = [_tool("create_call", {"title": S}, ["title"], "Create a call record."),
             _tool("list_calls", {}, [], "List call records."),
             _tool("calls_batch_archive", {"callIds": {"type": "array", "items": S}}, ["callIds"], "Archive multiple calls."),
             _tool("notes_batch_archive", {"noteIds": {"type": "array", "items": S}}, ["noteIds"], "Archive (delete) multiple notes."),
             _tool("list_notes", {}, [], "List notes.")]
    plan = infer_plan(_server("Call Log", tools), "calls")
    by = {t.original: t for t in plan.tools}
    assert (by["calls_batch_archive"].op, by["calls_batch_archive"].many) == ("transition", True)
    assert (by["notes_batch_archive"].op, by["notes_batch_archive"].many) == ("delete", True)
    env = Environment([build_service(plan)], seed=6)
    calls = [i for i, c in env.state()["calls"][by["list_calls"].collection].items() if c["status"] != "archived"][:2]
    obs = env.step({"name": "calls__calls_batch_archive", "arguments": {"callIds": [*calls, "call_9999"]}})
    assert obs.ok and [r["id"] for r in obs.data["items"]] == calls and obs.data["not_found"] == ["call_9999"], obs.content
    assert all(env.state()["calls"][by["list_calls"].collection][c]["status"] == "archived" for c in calls)
    again = env.step({"name": "calls__calls_batch_archive", "arguments": {"callIds": calls[:1]}})
    assert again.ok and again.data["unchanged"] == calls[:1] and again.data["items"] == []
    unknown = env.step({"name": "calls__calls_batch_archive", "arguments": {"callIds": ["call_9999"]}})
    assert not unknown.ok and unknown.error_kind == "not_found"
    notes = list(env.state()["calls"][by["list_notes"].collection])[:2]
    assert env.step({"name": "calls__notes_batch_archive", "arguments": {"noteIds": notes}}).ok
    assert not set(notes) & set(env.state()["calls"][by["list_notes"].collection])


def test_a_docstrings_returns_section_and_a_map_of_no_place_choose_no_archetype() -> None:
    """An A2A bridge's agents had become metrics ("Returns: Dictionary with registration status"), a
    mind map and a site map places, and `decode_level_from_url` a URL decoder that echoed its input."""
    agents = infer_plan(_server("A2A Bridge", [
        _tool("register_agent", {"url": S}, ["url"], "Register an A2A agent.\n\n    Returns:\n        Dictionary with registration status"),
        _tool("list_agents", {}, [], "List all registered A2A agents."),
        _tool("unregister_agent", {"url": S}, ["url"], "Unregister an A2A agent.\n\n    Returns:\n        Dictionary with unregistration status")]),
        "bridge")
    assert next(e.topic for e in agents.entities if e.entity == "agent") != "metric"
    maps = infer_plan(_server("Mind Maps", [_tool("get_mind_map", {"map_id": S}, ["map_id"], "Get a mind map by id."),
                                            _tool("get_site_map", {"url": S}, ["url"], "Get the site map of a web site.")]), "maps")
    assert "place" not in {e.topic for e in maps.entities}
    codecs = infer_plan(_server("Codecs", [_tool("encodeUrl", {"input": S}, ["input"], "Encode input data to URL-encoded format"),
                                           _tool("decode_level_from_url", {"encoded_level": S}, ["encoded_level"],
                                                 "Decode a game level from an encoded URL string.")]), "codecs")
    by = {t.original: t for t in codecs.tools}
    assert by["encodeUrl"].compute == "url_encode" and by["decode_level_from_url"].compute is None


def test_one_folder_per_path_and_a_list_of_commodities_names_each() -> None:
    """PowerShell's `ensure_directory` made a second folder at the same path and FMP's commodities were
    each "Global commodity price index": a folder is refused where one is (or, for a tool that says it
    ensures the folder exists, the one there is returned), and a list of commodities names each."""
    tools = [_tool("create_directory", {"path": S}, ["path"], "Create a new directory."),
             _tool("ensure_directory", {"path": S}, ["path"], "Ensure directory exists and return absolute path."),
             _tool("make_directory", {"path": S}, ["path"], "Create a new directory or ensure a directory exists."),
             _tool("list_directory", {"path": S}, ["path"], "List a directory.")]
    plan = infer_plan(_server("Disk", tools), "disk")
    env = Environment([build_service(plan)], seed=7)
    first = env.step({"name": "disk__create_directory", "arguments": {"path": "/reports/q3"}})
    again = env.step({"name": "disk__create_directory", "arguments": {"path": "/reports/q3"}})
    assert first.ok and not again.ok and "already exists" in (again.error or "")
    for tool in ("ensure_directory", "make_directory"):
        got = env.step({"name": f"disk__{tool}", "arguments": {"path": "/reports/q3"}})
        assert got.ok and got.data["id"] == first.data["id"], got.content
    folders = [r for r in env.state()["disk"][plan.entities[0].collection].values() if r["path"] == "/reports/q3"]
    assert len(folders) == 1
    commodities = infer_plan(_server("Market Data", [_tool("listCommodities", {}, [], "List tracked commodities.")]), "fmp")
    env = Environment([build_service(commodities)], seed=7)
    names = [c["name"] for c in env.step({"name": "fmp__listCommodities", "arguments": {}}).data["items"]]
    assert len(names) > 2 and len(set(names)) == len(names) and "Crude oil" in names, names


def test_a_runs_state_is_its_own_and_a_bound_on_a_date_is_no_field() -> None:
    """Airflow's DAG runs carried `updated_at_gte` and `updated_at_lte` as fields (a filter's bounds, typed
    plain strings), and their `state` named a record of a `states` collection ("active", "open"): a
    bound limits the records' `updated_at`, and a run's state is a run state."""
    tools = [_tool("get_task_states", {}, [], "List the states a task can be in."),
             _tool("get_dag_runs", {"dag_id": S, "state": {"type": "array", "items": S},
                                    "updated_at_gte": {"anyOf": [S, {"type": "null"}]}}, ["dag_id"], "Get DAG runs by ID"),
             _tool("update_dag_run_state", {"dag_id": S, "dag_run_id": S, "state": S}, ["dag_id", "dag_run_id"], "Update a DAG run state")]
    plan = infer_plan(_server("Apache Airflow", tools), "airflow")
    runs = next(e for e in plan.entities if e.entity == "run")
    assert {f.name for f in runs.fields}.isdisjoint({"updated_at_gte", "updated_at_lte"})
    roles = {(t.original, p.name): (p.role, p.field) for t in plan.tools for p in t.params}
    assert roles[("get_dag_runs", "updated_at_gte")] in (("min", "updated_at"), ("option", None))  # a bound on a field it has
    assert roles[("update_dag_run_state", "state")] == ("field", "state")


def test_a_prompts_model_is_a_model_and_its_temperature_a_sampling_one() -> None:
    """Arize Phoenix's prompts ran on a `model_name` that was the prompt's own name, at a temperature of
    26.7 (a weather reading's): a prompt's model is a model, its temperature lies in [0, 1]."""
    tools = [_tool("create_prompt", {"name": S, "template": S, "model_name": S, "temperature": {"type": "number"}}, ["name", "template"],
                   "Create a prompt template."),
             _tool("list_prompts", {}, [], "List prompt templates.")]
    plan = infer_plan(_server("Prompt Hub", tools), "prompts")
    env = Environment([build_service(plan)], seed=8)
    prompts = list(env.state()["prompts"][plan.entities[0].collection].values())
    assert prompts and all(0 <= p["temperature"] <= 1 for p in prompts), [p["temperature"] for p in prompts]
    assert all(p["model_name"] != p["name"] and p["model_name"] in {m for _, m in MODELS} for p in prompts)


def test_trash_is_undone_by_untrash_and_a_schedulers_tasks_are_tasks() -> None:
    """Gmail's `trash_message` deleted the message and `untrash_message` deleted it too; a task
    scheduler's `add_command_task` added a "command" that `list_tasks` never showed; and "Remove
    password protection from a Word document" deleted the document."""
    mail = infer_plan(_server("Mail", [_tool("list_messages", {}, [], "List messages."),
                                       _tool("trash_message", {"id": S}, ["id"], "Moves the specified message to the trash."),
                                       _tool("untrash_message", {"id": S}, ["id"], "Removes the specified message from the trash.")]), "mail")
    env = Environment([build_service(mail)], seed=9)
    mid = next(i for i, m in env.state()["mail"][mail.entities[0].collection].items() if m["status"] != "trashed")
    assert env.step({"name": "mail__trash_message", "arguments": {"id": mid}}).data["status"] == "trashed"
    assert env.step({"name": "mail__untrash_message", "arguments": {"id": mid}}).data["status"] == "active"
    assert mid in env.state()["mail"][mail.entities[0].collection]
    tasks = infer_plan(_server("Task Scheduler", [_tool("list_tasks", {}, [], "List all scheduled tasks."),
                                                  _tool("get_task", {"task_id": S}, ["task_id"], "Get details of a specific task."),
                                                  _tool("add_command_task", {"name": S, "command": S}, ["name", "command"], "Add a new shell command task."),
                                                  _tool("add_reminder_task", {"name": S, "message": S}, ["name", "message"], "Add a new reminder task.")]),
                       "scheduler")
    assert {t.collection for t in tasks.tools} == {"tasks"}
    env = Environment([build_service(tasks)], seed=9)
    made = env.step({"name": "scheduler__add_command_task", "arguments": {"name": "nightly backup", "command": "backup.sh"}})
    assert made.ok and made.data["id"] in [t["id"] for t in env.step({"name": "scheduler__list_tasks", "arguments": {}}).data["items"]]
    docs = infer_plan(_server("Word Documents", [_tool("get_document", {"filename": S}, ["filename"], "Get a document."),
                                                 _tool("unprotect_document", {"filename": S, "password": S}, ["filename", "password"],
                                                       "Remove password protection from a Word document.")]), "docs")
    assert next(t.op for t in docs.tools if t.original == "unprotect_document") != "delete"


def test_an_api_gateways_routes_services_and_plugins_are_its_own() -> None:
    """Kong's routes had been places (a hotel with a rating and coordinates) and its plugins documents:
    a gateway's route matches paths and methods, its service is a host and port it proxies to, its
    plugin a plugin by name; a bus company's routes stay routes of its own kind."""
    tools = [_tool("list_all_routes", {}, [], "List all routes."),
             _tool("create_route", {"name": S, "paths": {"type": "array", "items": S}}, ["name"], "Create a route."),
             _tool("list_all_services", {}, [], "List all services."),
             _tool("list_all_plugins", {}, [], "List all plugins."),
             _tool("retrieve_service_associated_to_a_specific_route", {}, [], "Kong Admin API tool for services - read operations")]
    plan = infer_plan(_server("Kong", tools), "kong")
    assert {t.original: t.collection for t in plan.tools}["retrieve_service_associated_to_a_specific_route"] == "services"
    topics = {e.entity: e.topic for e in plan.entities if e.entity in ("route", "service", "plugin")}
    assert topics == {"route": "gateway_route", "service": "gateway_service", "plugin": "gateway_plugin"}, topics
    env = Environment([build_service(plan)], seed=10)
    routes = env.step({"name": "kong__list_all_routes", "arguments": {}}).data["items"]
    assert routes and all(r["paths"][0].startswith("/api/") and "rating" not in r and "latitude" not in r for r in routes)
    services = env.step({"name": "kong__list_all_services", "arguments": {}}).data["items"]
    assert all(s["host"].endswith(".internal") and 8000 <= s["port"] <= 8099 for s in services)
    assert {p["name"] for p in env.step({"name": "kong__list_all_plugins", "arguments": {}}).data["items"]} <= set(GATEWAY_PLUGINS)
    bus = infer_plan(_server("KMB Bus", [_tool("list_routes", {}, [], "List the bus routes of Hong Kong's KMB.")]), "kmb")
    assert not any(e.topic.startswith("gateway_") for e in bus.entities)


def test_a_place_is_what_the_names_say_not_a_location_mentioned() -> None:
    """A Blender object "at a location", a refugee population "by country" and an API's operations had
    become places with a rating and coordinates; a place is what the entity's or its tools' names call
    one (an attraction, a geocode), not anything a description locates."""
    blender = infer_plan(_server("Blender", [_tool("get_object_info", {"name": S}, ["name"],
                                                   "Get detailed information about a specific object in the Blender scene, its location and rotation.")]),
                         "blender")
    population = infer_plan(_server("UNHCR Population Data", [_tool("get_population_data", {"country": S, "year": {"type": "integer"}},
                                                                    ["country"], "Get refugee population data by country of origin and asylum.")]),
                            "unhcr")
    travel = infer_plan(_server("Travel Planner", [_tool("search_attractions", {"city": S}, ["city"], "Search tourist attractions in a city.")]),
                        "travel")
    assert "place" not in {e.topic for e in blender.entities} | {e.topic for e in population.entities}
    assert "place" in {e.topic for e in travel.entities}


def test_rates_countries_and_chat_channels_are_what_they_name() -> None:
    """Frankfurter's rates for base CAD were CHF to JPY at 414.05, Comex Stat's countries museums with a
    rating and Slack's channels films with a genre: a rate is of the pair asked at about the market's
    level, a country has its code and capital, a chat's channel a name, a topic and members."""
    rates = infer_plan(_server("Frankfurter", [_tool("get_latest_exchange_rates", {"base_currency": S}, ["base_currency"],
                                                     "Returns the latest exchange rates for a base currency.")]), "fx")
    env = Environment([build_service(rates)], seed=11)
    items = env.step({"name": "fx__get_latest_exchange_rates", "arguments": {"base_currency": "CAD"}}).data["items"]
    assert items and all(r["base"] == "CAD" and r["quote"] != "CAD" for r in items)
    usd = [r for r in items if r["quote"] == "USD"]
    assert all(0.7 < r["rate"] < 0.78 for r in usd), usd
    countries = infer_plan(_server("Comex Stat", [_tool("getCountryDetails", {"countryId": S}, ["countryId"], "getCountryDetails."),
                                                  _tool("listCountries", {}, [], "List countries.")]), "comex")
    env = Environment([build_service(countries)], seed=11)
    listed = env.step({"name": "comex__listCountries", "arguments": {}}).data["items"]
    assert listed and all("rating" not in c and "latitude" not in c for c in listed)
    germany = next((c for c in listed if c["name"] == "Germany"), None)
    assert germany is not None and (germany["code"], germany["capital"], germany["currency"]) == ("DE", "Berlin", "EUR")
    chat = infer_plan(_server("Slack", [_tool("slack_list_channels", {}, [], "List public channels in the workspace.")]), "slack")
    env = Environment([build_service(chat)], seed=11)
    channels = env.step({"name": "slack__slack_list_channels", "arguments": {}}).data["items"]
    assert channels and all("genre" not in c and c["member_count"] >= 3 and c["topic"] for c in channels)


def test_a_notes_content_is_its_text_and_a_read_content_record_a_document() -> None:
    """Basic Memory's notes held "Content 12, as recorded.": `write_note(title, content)` made `content`
    a reference to the records `read_content(path)` reads, which were of no kind. A parameter named for
    text is the text, and a file's contents are a document with its title's text."""
    tools = [_tool("write_note", {"title": S, "content": S, "folder": S}, ["title", "content", "folder"], "Create or update a note."),
             _tool("read_note", {"identifier": S}, ["identifier"], "Read a note by its title or permalink."),
             _tool("read_content", {"path": S}, ["path"], "Read a file's raw content by path.")]
    plan = infer_plan(_server("Basic Memory", tools), "memory")
    note = next(e for e in plan.entities if e.entity == "note")
    assert note.field("content").role == "data" and note.field("content").ref is None
    env = Environment([build_service(plan)], seed=5)
    state = env.state()["memory"]
    for collection in ("notes", "contents"):
        for record in state[collection].values():
            assert ", as recorded." not in record["content"] and record["content"].startswith(record["title"]), record
    written = env.step({"name": "memory__write_note", "arguments": {"title": "Launch plan", "content": "Ship on Friday.", "folder": "plans"}})
    assert written.ok and written.data["content"] == "Ship on Friday.", written.content


def test_a_games_champions_and_heroes_are_its_roster_not_football_clubs() -> None:
    """OP.GG's champion tier list answered football clubs ("Lakeside Athletic 2", 37 played): a game's
    champions and heroes are its own roster, with a role and how they fare, and the game is the one
    the tool names (OP.GG serves League of Legends and Valorant)."""
    from compoworld.synthesis.world import ROSTERS

    tools = [_tool("lol_brawl_champion_tier_rank", {"lang": S}, [], "Retrieves champion tier ranking list in brawl mode."),
             _tool("lol_champion_meta_data", {"champion": S}, ["champion"], "Retrieves meta data for a specific champion."),
             _tool("valorant_leaderboard", {"region": S}, [], "Valorant leaderboard.")]
    plan = infer_plan(_server("OP.GG for Valorant and LoL", tools), "op_gg")
    env = Environment([build_service(plan)], seed=3)
    lol = {name for name, _ in ROSTERS["lol"]}
    ranks = env.step({"name": "op_gg__lol_brawl_champion_tier_rank", "arguments": {}})
    rows = ranks.data["items"] if "items" in ranks.data else [ranks.data]
    assert all(r["name"] in lol and r["tier"] in "SABC" and 40 < r["win_rate"] < 60 and "played" not in r for r in rows), ranks.content
    ekko = env.step({"name": "op_gg__lol_champion_meta_data", "arguments": {"champion": "EKKO"}})
    assert ekko.ok and ekko.data["name"] == "Ekko", ekko.content
    dota = infer_plan(_server("OpenDota", [_tool("get_heroes", {}, [], "Get list of all Dota 2 heroes.")]), "opendota")
    heroes = Environment([build_service(dota)], seed=3).step({"name": "opendota__get_heroes", "arguments": {}}).data["items"]
    assert heroes and {h["name"] for h in heroes} <= {name for name, _ in ROSTERS["dota"]}


def test_a_permission_is_a_users_level_on_an_object_not_a_news_story() -> None:
    """EduBase's 30 permission tools (`edubase_post_quiz_permission`) made news stories ("Zenith Foods
    reports record quarterly revenue"), their HTTP verb "post" read as a blog post, and their levels
    "permission-06": a permission is a user's level, one of those the description lists between slashes."""
    level = {"type": "string", "description": "permission level (view / control / modify / grant / admin)"}
    args = {"quiz": S, "user": S, "permission": level}
    tools = [_tool(f"edubase_{verb}_quiz_permission", args, ["quiz", "user", "permission"], f"{what} a user permission on a quiz.")
             for verb, what in (("get", "Check"), ("post", "Create"), ("delete", "Remove"))]
    plan = infer_plan(_server("EduBase", tools), "edubase")
    permission = next(e for e in plan.entities if e.entity == "permission")
    assert permission.topic == "permission"
    env = Environment([build_service(plan)], seed=4)
    records = list(env.state()["edubase"]["permissions"].values())
    listed = ["view", "control", "modify", "grant", "admin"]
    # the permission is part of each record's key: the listed levels while they last, then other levels
    assert [r["permission"] for r in records[:5]] == listed
    assert all(r["permission"].split("-")[0] in listed + ["comment", "edit"] for r in records), records
    assert not any("revenue" in str(r.get("name")) or r.get("source") for r in records), records[0]


def test_create_or_update_updates_what_is_there() -> None:
    """GitLab's `create_or_update_file` refused its second call on a path ("a file with file_path ...
    already exists"): a tool that says it creates or updates updates the record its key names."""
    tools = [_tool("create_or_update_file", {"project_id": S, "file_path": S, "content": S}, ["project_id", "file_path", "content"],
                   "Create or update a single file in a GitLab project"),
             _tool("get_file_contents", {"project_id": S, "file_path": S}, ["project_id", "file_path"], "Get the contents of a file.")]
    env = Environment([build_service(infer_plan(_server("GitLab", tools), "gitlab"))], seed=2)
    before = len(env.state()["gitlab"]["files"])
    for content in ("one", "two"):
        obs = env.step({"name": "gitlab__create_or_update_file", "arguments": {"project_id": "p1", "file_path": "/a.md", "content": content}})
        assert obs.ok, obs.error
    assert len(env.state()["gitlab"]["files"]) == before + 1
    read = env.step({"name": "gitlab__get_file_contents", "arguments": {"project_id": "p1", "file_path": "/a.md"}})
    assert read.ok and read.data["content"] == "two", read.content


def test_an_accounting_systems_records_are_its_ledgers() -> None:
    """Xero's chart of accounts answered people (a name, an email, a city), its tax rates exchange
    rates, its journals research papers: an accounting system's accounts have a code and a type, its
    tax rates a percentage, its journals a number and a narration."""
    tools = [_tool("list_accounts", {}, [], "Retrieves the full chart of accounts"),
             _tool("list_tax_rates", {}, [], "List all tax rates in Xero"),
             _tool("list_journals", {}, [], "List journals")]
    env = Environment([build_service(infer_plan(_server("Xero", tools), "xero"))], seed=6)
    accounts = env.step({"name": "xero__list_accounts", "arguments": {}}).data["items"]
    assert accounts and all(a["code"].isdigit() and a["type"] in ("REVENUE", "EXPENSE", "CURRENT", "CURRLIAB", "BANK")
                            and "email" not in a for a in accounts), accounts[0]
    rates = env.step({"name": "xero__list_tax_rates", "arguments": {}}).data["items"]
    assert rates and all(0 <= r["rate"] <= 25 and "base" not in r for r in rates), rates[0]
    journals = env.step({"name": "xero__list_journals", "arguments": {}}).data["items"]
    assert journals and all(isinstance(j["journal_number"], int) and "abstract" not in j for j in journals), journals[0]


def test_an_exchanges_trades_order_books_and_tiers_are_of_the_pair_asked() -> None:
    """CCXT's trades were stock quotes of companies ("Prairie Media" at 847.63 CAD for UNI-10), its
    leverage tiers football standings: a crypto exchange's trades have a side, a price at the pair's
    level and an amount; its order book bids below asks; its tiers a notional band and a leverage."""
    tools = [_tool("get_trades", {"exchange": S, "symbol": S}, ["exchange", "symbol"], "Get recent trades for a trading pair"),
             _tool("get_orderbook", {"exchange": S, "symbol": S}, ["exchange", "symbol"], "Get the order book for a trading pair"),
             _tool("get_leverage_tiers", {"exchange": S}, ["exchange"], "Get leverage tiers")]
    env = Environment([build_service(infer_plan(_server("CCXT", tools), "ccxt"))], seed=8)
    for symbol, level in (("SOL/USDT", 145.0), ("DOGE/USDT", 0.12)):
        trades = env.step({"name": "ccxt__get_trades", "arguments": {"exchange": "binance", "symbol": symbol}}).data["items"]
        assert trades and all(t["side"] in ("buy", "sell") and abs(t["price"] / level - 1) < 0.05 and "change_percent" not in t
                              for t in trades), trades
        book = env.step({"name": "ccxt__get_orderbook", "arguments": {"exchange": "binance", "symbol": symbol}}).data
        assert max(p for p, _ in book["bids"]) < min(p for p, _ in book["asks"]) and abs(book["bids"][0][0] / level - 1) < 0.05, book
    tiers = env.step({"name": "ccxt__get_leverage_tiers", "arguments": {"exchange": "binance"}}).data["items"]
    assert tiers and all(t["max_leverage"] >= 1 and t["max_notional"] > t["min_notional"] and "team" not in t for t in tiers), tiers


def test_an_emails_message_id_names_it_and_a_batch_delete_deletes_each() -> None:
    """Gmail's `read_email(messageId)` ignored its key (an option) and `delete_email(messageId)` and
    `batch_delete_messages(ids)` were logged actions that deleted nothing: an email's message id names
    the email, and a batch delete deletes each record named."""
    tools = [_tool("search_emails", {"query": S}, [], "Searches for emails using Gmail search syntax"),
             _tool("read_email", {"messageId": S}, ["messageId"], "Retrieves the content of a specific email"),
             _tool("delete_email", {"messageId": S}, ["messageId"], "Permanently deletes an email"),
             _tool("batch_delete_emails", {"ids": {"type": "array", "items": S}}, ["ids"], "Delete multiple emails")]
    env = Environment([build_service(infer_plan(_server("Gmail", tools), "gmail"))], seed=9)
    first, second, third = list(env.state()["gmail"]["emails"])[:3]
    read = env.step({"name": "gmail__read_email", "arguments": {"messageId": second}})
    assert read.ok and read.data["id"] == second, read.content
    assert env.step({"name": "gmail__delete_email", "arguments": {"messageId": first}}).ok
    batch = env.step({"name": "gmail__batch_delete_emails", "arguments": {"ids": [second, third]}})
    assert batch.ok, batch.error
    assert not {first, second, third} & set(env.state()["gmail"]["emails"])
    gone = env.step({"name": "gmail__read_email", "arguments": {"messageId": second}})
    assert not gone.ok and gone.error_kind == "not_found"


def test_a_records_file_is_in_a_format_of_its_kind() -> None:
    """yt-dlp's audio downloads were saved as `.docx` and Basic Memory's notes as `.py`: a record's file
    is in a format of what the record is."""
    tools = [_tool("download_audio", {"url": {"type": "string", "format": "uri"}}, ["url"],
                   "Download audio in best available quality to the user's Downloads folder."),
             _tool("list_audios", {}, [], "List downloaded audio files.")]
    env = Environment([build_service(infer_plan(_server("yt-dlp", tools), "ytdlp"))], seed=1)
    audios = env.step({"name": "ytdlp__list_audios", "arguments": {}}).data["items"]
    paths = [a["path"] for a in audios if a.get("path")]
    assert paths and all(p.rsplit(".", 1)[-1] in ("mp3", "m4a", "wav") for p in paths), paths


def test_a_research_catalogs_areas_tasks_and_methods_are_its_own() -> None:
    """Papers with Code's research areas, methods and conferences were papers with authors and an
    abstract, and an area's tasks bug tickets ("Password reset email never arrives"): a research
    catalog's records are areas, tasks, methods and conferences, named as the field knows them."""
    from compoworld.synthesis.world import CONFERENCES, RESEARCH_AREAS, RESEARCH_METHODS, RESEARCH_TASKS

    tools = [_tool("search_research_areas", {"name": S}, [], "Search research areas by name"),
             _tool("list_research_area_tasks", {"area_id": S}, ["area_id"], "List the tasks of a research area"),
             _tool("list_paper_methods", {"paper_id": S}, ["paper_id"], "List the methods used in a paper"),
             _tool("list_conferences", {}, [], "List conferences")]
    env = Environment([build_service(infer_plan(_server("Papers with Code", tools), "paperswithcode"))], seed=5)
    areas = env.step({"name": "paperswithcode__search_research_areas", "arguments": {}}).data["items"]
    assert areas and {a["name"] for a in areas} <= {name for name, _ in RESEARCH_AREAS} and not any("abstract" in a for a in areas)
    area = areas[0]["id"]
    tasks = env.step({"name": "paperswithcode__list_research_area_tasks", "arguments": {"area_id": area}}).data["items"]
    assert tasks and {t["name"] for t in tasks} <= {name for name, _ in RESEARCH_TASKS} and not any("assignee" in t for t in tasks)
    methods = env.step({"name": "paperswithcode__list_paper_methods", "arguments": {"paper_id": "p1"}}).data["items"]
    full = {name: full for name, full, _, _ in RESEARCH_METHODS}
    assert methods and all(m["full_name"] == full[m["name"]] for m in methods), methods
    conferences = env.step({"name": "paperswithcode__list_conferences", "arguments": {}}).data["items"]
    assert conferences and {c["name"] for c in conferences} <= {name for name, _ in CONFERENCES}


def test_an_events_times_are_times_and_a_markets_calendars_list_what_they_name() -> None:
    """Google Calendar's events began at "start-04" (a start "in ISO format" is a time) and ended months
    after they began; FMP's dividend, earnings and IPO calendars answered meetings: a meeting lasts an
    hour or two, and a market's calendar lists its dividends, earnings announcements and listings."""
    iso = {"type": "string", "description": "Start time in ISO format"}
    calendar = infer_plan(_server("Google Calendar", [
        _tool("create_event", {"summary": S, "start": iso, "end": {**iso, "description": "End time in ISO format"}}, ["summary", "start", "end"],
              "Create a new calendar event"),
        _tool("list_events", {}, [], "List calendar events")]), "calendar")
    env = Environment([build_service(calendar)], seed=3)
    for event in env.step({"name": "calendar__list_events", "arguments": {}}).data["items"]:
        began, ended = (datetime.fromisoformat(event[k].replace("Z", "+00:00")) for k in ("start", "end"))
        assert timedelta(minutes=15) <= ended - began <= timedelta(hours=3), event
    fmp = infer_plan(_server("Financial Modeling Prep", [
        _tool(f"get{kind}Calendar", {"from": {"type": "string", "description": "Start date (YYYY-MM-DD)"}}, [], f"{kind} calendar of stocks")
        for kind in ("Dividends", "Earnings", "IPO")]), "fmp")
    env = Environment([build_service(fmp)], seed=3)

    def rows(kind: str) -> list[dict[str, Any]]:
        data = env.step({"name": f"fmp__get{kind}Calendar", "arguments": {}}).data
        return data["items"] if "items" in data else [data]

    assert all(r["ex_date"] <= r["record_date"] <= r["payment_date"] for r in rows("Dividends"))
    assert all(r["fiscal_date_ending"] < r["date"] and 0.8 < r["eps_actual"] / r["eps_estimated"] < 1.2 for r in rows("Earnings"))
    assert all(r["exchange"] in ("NASDAQ", "NYSE") and "-" in r["price_range"] and "starts_at" not in r for r in rows("IPO"))


def test_a_chats_send_tools_send_messages() -> None:
    """WAHA's `sendLinkPreview` and `sendContactVcard` had made news stories and `sendLocation` a place
    with a rating; Telegram's `tg_send_message(text, reply_to_message_id?)` refused to send without a
    message to reply to: a chat's send tools send messages, which its message listing shows."""
    tools = [_tool("sendText", {"chatId": S, "text": S}, ["chatId", "text"], "Send a text message"),
             _tool("sendLocation", {"chatId": S, "latitude": {"type": "number"}, "longitude": {"type": "number"}}, ["chatId"], "Send a location"),
             _tool("sendContactVcard", {"chatId": S, "vcard": S}, ["chatId"], "Send a contact card"),
             _tool("getMessages", {"chatId": S}, ["chatId"], "Get the messages of a chat"),
             _tool("tg_send_message", {"text": S, "reply_to_message_id": S}, ["text"], "Send a Telegram message")]
    plan = infer_plan(_server("WhatsApp HTTP API", tools), "waha")
    assert {t.original: t.collection for t in plan.tools if t.original.startswith(("send", "tg_"))} == \
        {"sendText": "messages", "sendLocation": "messages", "sendContactVcard": "messages", "tg_send_message": "messages"}
    env = Environment([build_service(plan)], seed=2)
    sent = env.step({"name": "waha__sendLocation", "arguments": {"chatId": "chat_0001", "latitude": 52.5, "longitude": 13.4}})
    assert sent.ok and sent.data["status"] == "sent", sent.content
    listed = env.step({"name": "waha__getMessages", "arguments": {"chatId": "chat_0001"}}).data["items"]
    assert sent.data["id"] in {m["id"] for m in listed}
    assert env.step({"name": "waha__tg_send_message", "arguments": {"text": "Shipped today."}}).ok


def test_a_controllers_methods_act_on_the_controllers_records() -> None:
    """WAHA's `SessionsController_list`, `ChannelsController_create` and `LabelsController_getAll` made
    one collection of "controllers" (events with a start and an end): a NestJS controller's methods act
    on the records the controller is named for."""
    tools = [_tool("ContactsController_getAll", {"session": S}, [], "Get all contacts"),
             _tool("ChannelsController_list", {"session": S}, [], "Get list of know channels"),
             _tool("LabelsController_getAll", {"session": S}, [], "Get all labels"),
             _tool("VersionController_get", {}, [], "Get the version of the server")]
    plan = infer_plan(_server("WAHA", tools), "waha")
    collections = {t.original: t.collection for t in plan.tools}
    assert collections == {"ContactsController_getAll": "contacts", "ChannelsController_list": "channels",
                           "LabelsController_getAll": "labels", "VersionController_get": "versions"}, collections


def test_a_solana_nodes_answers_are_slots_epochs_and_lamports() -> None:
    """Solana's RPC tools had answered people (`get_largest_accounts`: an email and a city), orders
    (`get_recent_performance_samples`), an email (`get_fee_for_message`) and placeholders (`get_epoch_info`):
    a node answers slots and epochs that agree, supplies and fees in lamports, base58 keys."""
    tools = [_tool("get_epoch_info", {}, [], "Returns information about the current epoch."),
             _tool("get_supply", {}, [], "Returns information about the current supply."),
             _tool("get_fee_for_message", {"from_pubkey": S, "to_pubkey": S, "lamports": {"type": "integer"}}, ["from_pubkey", "to_pubkey", "lamports"],
                   "Returns the fee for a message."),
             _tool("get_largest_accounts", {}, [], "Returns the 20 largest accounts, by lamport balance.")]
    env = Environment([build_service(infer_plan(_server("Solana Client", tools), "solana_client"))], seed=4)

    def call(name: str, **args: Any) -> Any:
        data = env.step({"name": f"solana_client__{name}", "arguments": args}).data
        return data["items"][0] if isinstance(data, dict) and "items" in data else data

    epoch = call("get_epoch_info")
    assert (epoch["epoch"], epoch["slot_index"]) == divmod(epoch["absolute_slot"], epoch["slots_in_epoch"]), epoch
    supply = call("get_supply")
    assert supply["circulating"] + supply["non_circulating"] == supply["total"]
    assert call("get_fee_for_message", from_pubkey="a", to_pubkey="b", lamports=1000)["fee"] == 5000
    account = call("get_largest_accounts")
    assert "email" not in account and len(account["pubkey"]) >= 32 and isinstance(account["lamports"], int), account


def test_a_symbols_minute_and_hour_data_are_bars_and_its_ttm_statements_statements() -> None:
    """FMP's `getCryptocurrency1MinuteData(symbol)` and `getIndex1HourData(symbol)` answered one quote of
    a company, its trailing-twelve-months statements a company profile: a symbol's minute or hour data is
    its bars over time, and `getIncomeStatementTTM` a statement."""
    ttm = infer_plan(_server("Financial Modeling Prep", [_tool(f"get{kind}StatementTTM", {"symbol": S}, ["symbol"], f"{kind} statement TTM.")
                                                          for kind in ("Income", "BalanceSheet", "CashFlow")]), "fmp")
    income = Environment([build_service(ttm)], seed=2).step({"name": "fmp__getIncomeStatementTTM", "arguments": {"symbol": "AAPL"}}).data
    income = income["items"][0] if "items" in income else income
    assert income["revenue"] > income["net_income"] and "employees" not in income, income
    tools = [_tool(name, {"symbol": S}, ["symbol"], f"{name}.") for name in ("getCryptocurrency1MinuteData", "getIndex1HourData")]
    plan = infer_plan(_server("Financial Modeling Prep", tools), "fmp")
    env = Environment([build_service(plan)], seed=2)
    for name in ("getCryptocurrency1MinuteData", "getIndex1HourData"):
        bars = env.step({"name": f"fmp__{name}", "arguments": {"symbol": "BTCUSD"}}).data["candles"]
        assert len(bars) > 3 and all(b["low"] <= min(b["open"], b["close"]) <= max(b["open"], b["close"]) <= b["high"] for b in bars)


def test_an_exchange_is_a_venue_of_its_kind_not_an_exchange_rate() -> None:
    """RabbitMQ's exchanges, CoinMarketCap's and FMP's exchanges had been exchange rates (a base, a quote
    and a rate): a broker's exchange has a type, a crypto exchange is a known venue, a stock exchange
    has its acronym, country, currency and time zone. An exchange rate is still one where money is said."""
    from compoworld.synthesis.world import STOCK_EXCHANGES

    def first(server: str, service: str, tool: str, description: str) -> dict[str, Any]:
        plan = infer_plan(_server(server, [_tool(tool, {}, [], description)]), service)
        data = Environment([build_service(plan)], seed=1).step({"name": f"{service}__{tool}", "arguments": {}}).data
        return data["items"][0] if "items" in data else data

    broker = first("RabbitMQ", "rabbitmq", "list_exchanges", "List all exchanges in the RabbitMQ broker")
    assert broker["type"] in ("direct", "fanout", "topic", "headers") and "rate" not in broker, broker
    stock = first("Financial Modeling Prep", "fmp", "getAvailableExchanges", "Get the list of available stock exchanges")
    assert (stock["name"], stock["acronym"]) in {(name, acronym) for name, acronym, *_ in STOCK_EXCHANGES} and "base" not in stock, stock
    crypto = first("CoinMarketCap", "cmc", "exchangeInfo", "Get information about a cryptocurrency exchange")
    assert crypto["countries"] and "rate" not in crypto, crypto
    fx = first("Frankfurter", "fx", "get_exchange_rates", "Get the latest currency exchange rates")
    assert {"base", "quote", "rate"} <= set(fx), fx


def test_an_index_is_a_market_benchmark_or_a_store_of_documents() -> None:
    """FMP's indexes and Elasticsearch's and Redis's indexes had all been ops metrics ("Index 12" at
    1,891.04 GB): a stock market index has its symbol, name, exchange and currency; a search engine's
    index its name, health, document count and size."""
    from compoworld.synthesis.world import MARKET_INDEXES, SEARCH_INDEXES

    def items(server: str, service: str, tool: str, description: str) -> list[dict[str, Any]]:
        plan = infer_plan(_server(server, [_tool(tool, {}, [], description)]), service)
        return Environment([build_service(plan)], seed=1).step({"name": f"{service}__{tool}", "arguments": {}}).data["items"]

    market = items("Financial Modeling Prep", "fmp", "getIndexList", "Retrieve a comprehensive list of stock market indexes.")
    assert {(r["symbol"], r["name"]) for r in market} <= {(sym, name) for sym, name, *_ in MARKET_INDEXES} and "unit" not in market[0]
    search = items("Elasticsearch", "es", "list_indices", "List all indices in the Elasticsearch cluster.")
    assert {r["name"] for r in search} <= set(SEARCH_INDEXES) and all(r["docs_count"] > 0 for r in search) and "unit" not in search[0]


def test_statistics_are_measures_of_the_services_own_domain() -> None:
    """A Hugging Face dataset viewer's `get_statistics(dataset)` had answered an ops dashboard (p95 latency,
    monthly recurring revenue) and MongoDB Lens's `get-stats` the same: a dataset's statistics are its rows,
    columns and values, a database's its sizes, tables and connections."""
    from compoworld.synthesis.world import DOMAIN_METRICS

    def measures(server: str, service: str, tool: str, props: dict[str, Any], description: str) -> set[str]:
        spec = _server(server, [_tool(tool, props, list(props), description)])
        env = Environment([build_service(infer_plan(spec, service))], seed=1)
        data = env.step({"name": f"{service}__{tool}", "arguments": {k: "ylecun/mnist" for k in props}}).data
        return {r["name"] for r in data.get("items", [data])}

    names = {keys: {m[0] for m in ms} for keys, ms in DOMAIN_METRICS}
    dataset = measures("Hugging Face Dataset Viewer", "hf", "get_statistics", {"dataset": S}, "Get statistics about a Hugging Face dataset")
    assert dataset and dataset <= next(v for k, v in names.items() if "huggingface" in k), dataset
    database = measures("MongoDB Lens", "mongo", "get_stats", {}, "Get statistics of the MongoDB database")
    assert database and database <= next(v for k, v in names.items() if "mongodb" in k), database


def test_an_evm_nodes_gas_is_a_price_in_wei_or_an_estimate() -> None:
    """`eth_gasPrice()` ("the current gas price in wei") had answered a stock quote of USDT and
    `estimate_gas(to)` a token transfer: the price is the same in wei and gwei, an estimate's fee its gas
    at its price."""
    tools = [_tool("eth_gasPrice", {}, [], "Retrieves the current gas price in wei"),
             _tool("estimate_gas", {"to": S, "value": S}, ["to"], "Estimate the gas cost of a transaction on the EVM network")]
    plan = infer_plan(_server("Ethereum RPC", tools), "eth")
    env = Environment([build_service(plan)], seed=4)
    price = env.step({"name": "eth__eth_gasPrice", "arguments": {}}).data
    assert price["gas_price_wei"] == round(price["gas_price_gwei"] * 1e9) and 1 <= price["gas_price_gwei"] <= 100, price
    assert not {"symbol", "currency"} & set(price)
    est = env.step({"name": "eth__estimate_gas", "arguments": {"to": "0x2333e2426b13e3afd3c03c0e60c0c4c2edd01e70"}}).data
    assert est["gas"] >= 21_000 and abs(est["fee_eth"] - est["gas"] * est["gas_price_gwei"] / 1e9) < 1e-7, est
    assert "hash" not in est and "from_address" not in est


def test_chembls_records_are_drugs_targets_and_cell_lines() -> None:
    """ChEMBL's `example_*` lookups answered documents ("Assay 6, as recorded.", filed under /workspace):
    its drugs have a ChEMBL id, a name and an approval year, its mechanisms a target, its cell lines a
    tissue, its organisms a taxonomy."""
    from compoworld.synthesis.world import CELL_LINES, CHEMBL_DRUGS

    tools = [_tool("example_drug", {"drug_type": S}, ["drug_type"], "Get drug data for the specified type"),
             _tool("example_mechanism", {"mechanism_of_action": S}, ["mechanism_of_action"], "Get data for the specified mechanism of action"),
             _tool("example_cell_line", {"cell_line_name": S}, ["cell_line_name"], "Get cell line data for the specified name")]
    env = Environment([build_service(infer_plan(_server("ChEMBL", tools), "chembl"))], seed=6)
    state = env.state()["chembl"]
    drugs = {(d, name, year) for d, name, year, *_ in CHEMBL_DRUGS}
    assert all((r["molecule_chembl_id"], r["pref_name"], r["first_approval"]) in drugs for r in state["drugs"].values())
    line = next(iter(state["lines"].values()))
    found = env.step({"name": "chembl__example_cell_line", "arguments": {"cell_line_name": line["cell_line_name"]}}).data
    assert (found["cell_line_name"], found["cell_source_tissue"]) in CELL_LINES and ", as recorded." not in str(found), found
    mechanism = next(iter(state["mechanisms"].values()))
    assert mechanism["target_chembl_id"].startswith("CHEMBL") and mechanism["action_type"] in ("INHIBITOR", "MODULATOR")


def test_star_wars_and_formula_one_services_answer_their_own_worlds() -> None:
    """SWAPI's planets and starships and an F1 server's circuits and seasons answered placeholders
    ("Planet 6, as recorded."), its standings football tables: they answer the catalog's records."""
    from compoworld.synthesis.world import CATALOGS

    swapi = infer_plan(_server("SWAPI", [_tool("planets", {"page": {"type": "integer"}}, [], "Search for planets"),
                                         _tool("starship", {"id": S}, ["id"], "Get a starship by id")]), "swapi")
    env = Environment([build_service(swapi)], seed=3)
    planets = env.step({"name": "swapi__planets", "arguments": {}}).data["items"]
    known = {p["name"]: p for p in CATALOGS["sw_planet"]}
    base = [re.sub(r" \d+$", "", p["name"]) for p in planets]  # numbered past the catalog's end
    assert planets and all(b in known and p["climate"] == known[b]["climate"] for b, p in zip(base, planets)), planets[:2]
    f1 = infer_plan(_server("Formula1 MCP", [_tool("getCircuitInfo", {"circuitId": S}, ["circuitId"], "Get circuit information"),
                                             _tool("getDriverStandings", {"year": {"type": "integer"}}, [], "Get driver standings")]), "formula1")
    env = Environment([build_service(f1)], seed=3)
    circuit = next(iter(env.state()["formula1"]["circuits"].values()))
    assert circuit["circuit_name"] in {c["circuit_name"] for c in CATALOGS["f1_circuit"]} and circuit["laps"] > 40, circuit
    standings = env.step({"name": "formula1__getDriverStandings", "arguments": {}}).data["items"]
    assert standings and all("played" not in s and s["points"] >= 0 for s in standings), standings[:2]


def test_the_qurans_chapters_reciters_and_translations_are_its_own() -> None:
    """Quran.com's chapters, reciters, translations and tafsirs answered placeholders ("Chapter 6, as
    recorded."), its reciters in the language "rust": a chapter has its names and verse count, a reciter a
    style, and a reader's language is a human one."""
    from compoworld.synthesis.world import CATALOGS

    tools = [_tool("list_chapters", {"language": S}, [], "List Chapters"), _tool("chapter_reciters", {"language": S}, [], "List of chapter reciters")]
    env = Environment([build_service(infer_plan(_server("Quran.com", tools), "quran_com"))], seed=5)
    chapters = env.step({"name": "quran_com__list_chapters", "arguments": {}}).data["items"]
    known = {c["chapter_number"]: c for c in CATALOGS["quran_chapter"]}
    assert chapters and all(c["verses_count"] == known[c["chapter_number"]]["verses_count"] for c in chapters), chapters[:2]
    reciters = env.step({"name": "quran_com__chapter_reciters", "arguments": {}}).data["items"]
    assert reciters and all(r["style"] in ("Murattal", "Mujawwad") and r.get("language", "en") == "en" for r in reciters), reciters[:2]


def test_banks_problems_and_museum_objects_are_catalog_records() -> None:
    """BrasilAPI's banks, LeetCode's problems and the Met's objects answered placeholders ("Bank 6, as
    recorded."): they are records of the catalog, whose fields agree (a bank's code, name and ISPB)."""
    from compoworld.synthesis.world import CATALOGS

    banks = infer_plan(_server("BrasilAPI", [_tool("get_all_banks", {}, [], "Get all Brazilian banks")]), "brasilapi")
    rows = Environment([build_service(banks)], seed=2).step({"name": "brasilapi__get_all_banks", "arguments": {}}).data["items"]
    known = {b["ispb"]: b for b in CATALOGS["br_bank"]}
    assert rows and all(known[r["ispb"]]["full_name"] == r["full_name"] for r in rows), rows[:2]
    met = infer_plan(_server("Met Museum", [_tool("search_museum_objects", {"q": S}, [], "Search for objects in the Met Museum")]), "met_museum")
    objects = Environment([build_service(met)], seed=2).step({"name": "met_museum__search_museum_objects", "arguments": {}}).data["items"]
    artists = {o["artist_display_name"] for o in CATALOGS["met_object"]}
    assert objects and all(o["artist_display_name"] in artists for o in objects), objects[:2]


def test_a_trade_statistics_services_products_and_blocs_are_what_they_name() -> None:
    """Comex Stat's Harmonized System headings and NBM codes answered placeholders, its economic blocks UI
    components in the language "rust": a heading has its code and what it covers, a bloc its acronym and
    members, and a reader's language is a human one."""
    from compoworld.synthesis.world import CATALOGS

    tools = [_tool("getHarmonizedSystem", {"language": S}, [], "getHarmonizedSystem."), _tool("getEconomicBlocks", {"language": S}, [], "getEconomicBlocks.")]
    env = Environment([build_service(infer_plan(_server("Comex Stat", tools), "comexstat"))], seed=4)
    heading = env.step({"name": "comexstat__getHarmonizedSystem", "arguments": {}}).data
    heading = heading["items"][0] if "items" in heading else heading
    assert (heading["code"], heading["description"]) in {(h["code"], h["description"]) for h in CATALOGS["hs_heading"]}, heading
    blocs = env.step({"name": "comexstat__getEconomicBlocks", "arguments": {}}).data["items"]
    assert blocs and all(b["members"] >= 3 and b.get("language", "en") == "en" for b in blocs), blocs[:2]


def test_a_records_language_is_a_programming_one_only_about_code() -> None:
    """A WhatsApp session's or a podcast's `language` had been "rust" or "go": a record's language is a
    programming language only where the record or its service is about code."""
    from compoworld.synthesis.world import HUMAN_LANGUAGES, LANGUAGES

    def languages(server: str, service: str, tool: str, description: str) -> set[str]:
        plan = infer_plan(_server(server, [_tool(tool, {"language": S}, [], description)]), service)
        state = Environment([build_service(plan)], seed=2).state()[service]
        return {r["language"] for rows in state.values() for r in rows.values() if isinstance(r.get("language"), str)}

    spoken = languages("Podcast Index", "podcasts", "list_episodes", "List podcast episodes")
    assert spoken and spoken <= set(HUMAN_LANGUAGES), spoken
    code = languages("Code Snippets", "snippets", "list_snippets", "List code snippets")
    assert code and code <= set(LANGUAGES), code


def test_a_chats_presence_is_online_or_offline_not_an_event() -> None:
    """WAHA's presences had been events with a start, an end and a location: a contact's presence is
    whether it is online, with when it was last seen."""
    tools = [_tool("PresenceController_getPresenceAll", {"session": S}, [], "Get all subscribed presence information.")]
    env = Environment([build_service(infer_plan(_server("WAHA", tools), "waha"))], seed=3)
    presences = env.step({"name": "waha__PresenceController_getPresenceAll", "arguments": {}}).data["items"]
    assert presences and all(p["presence"] in ("online", "offline", "typing", "recording", "paused") and "starts_at" not in p
                             for p in presences), presences[:2]


def test_an_ingestion_that_returns_a_feeds_id_makes_a_feed() -> None:
    """Graphlit's `ingestSlackMessages` "executes asynchronously and returns the feed identifier": it had
    been a logged action that no listing saw. It makes one of the feeds `queryFeeds` lists and
    `deleteFeed` removes, named after its source; the source's other arguments are no fields of every feed."""
    ingest_doc = "Ingests messages from Slack channel into the knowledge base.\n Executes asynchronously and returns the feed identifier."
    tools = [_tool("ingestSlackMessages", {"channelName": S, "readLimit": {"type": "number"}}, ["channelName"], ingest_doc),
             _tool("ingestRedditPosts", {"subredditName": S, "readLimit": {"type": "number"}}, ["subredditName"],
                   "Ingests posts from Reddit subreddit.\n Executes asynchronously and returns the feed identifier."),
             _tool("queryFeeds", {"name": S, "type": {"type": "string", "enum": ["SLACK", "REDDIT", "RSS"]}}, [], "Query feeds from the knowledge base."),
             _tool("deleteFeed", {"id": S}, ["id"], "Deletes feed from the knowledge base.")]
    env = Environment([build_service(infer_plan(_server("Graphlit", tools), "graphlit"))], seed=5)
    made = env.step({"name": "graphlit__ingestSlackMessages", "arguments": {"channelName": "eng-alerts", "readLimit": 20}})
    assert made.ok and made.data["name"] == "eng-alerts", made.content
    listed = env.step({"name": "graphlit__queryFeeds", "arguments": {"name": "eng-alerts"}}).data["items"]
    assert [f["id"] for f in listed] == [made.data["id"]], listed
    seeded = env.step({"name": "graphlit__queryFeeds", "arguments": {}}).data["items"]
    assert all(not {"read_limit", "channel_name", "subreddit_name"} & set(f) for f in seeded), seeded[:2]
    assert env.step({"name": "graphlit__deleteFeed", "arguments": {"id": made.data["id"]}}).ok
    assert not env.step({"name": "graphlit__queryFeeds", "arguments": {"name": "eng-alerts"}}).data["items"]


def test_a_kubernetes_clusters_nodes_contexts_and_events_are_kubectls() -> None:
    """A Kubernetes server's nodes had been records "Node 3, as recorded.", its kubeconfig contexts
    documents and its events calendar events with a location: they are the objects kubectl shows."""
    tools = [_tool("list_nodes", {}, [], "List all nodes in the cluster"),
             _tool("k8s_get_contexts", {}, [], "List all available Kubernetes contexts"),
             _tool("get_events", {"namespace": S}, [], "Get Kubernetes events from the cluster"),
             _tool("create_pod", {"name": S, "namespace": S, "image": S}, ["name", "namespace", "image"], "Create a new Kubernetes pod")]
    env = Environment([build_service(infer_plan(_server("Kubernetes", tools), "kubernetes"))], seed=6)
    nodes = env.step({"name": "kubernetes__list_nodes", "arguments": {}}).data["items"]
    assert nodes and all(n["status"] in ("Ready", "NotReady") and n["version"].startswith("v1.") for n in nodes), nodes[:2]
    contexts = env.step({"name": "kubernetes__k8s_get_contexts", "arguments": {}}).data["items"]
    assert contexts and all(c["cluster"] and c["user"] and "content" not in c for c in contexts), contexts[:2]
    events = env.step({"name": "kubernetes__get_events", "arguments": {}}).data["items"]
    assert events and all(e["type"] in ("Normal", "Warning") and e["reason"] and "location" not in e for e in events), events[:2]


def test_a_companys_record_is_one_company_of_the_world() -> None:
    """HubSpot's companies had one company's name, another's domain and the description "Company 6, as
    recorded.": a company's name, domain, website, city and description are one company's."""
    from compoworld.services.fake import world

    tools = [_tool("crm_get_company", {"companyId": S}, ["companyId"], "Get a single company by ID"),
             _tool("crm_search_companies", {"query": S}, [], "Search companies"),
             _tool("crm_create_company", {"properties": {"type": "object", "properties": {"name": S, "domain": S, "website": S,
                                                                                           "city": S, "description": S}}},
                   ["properties"], "Create a new company record")]
    env = Environment([build_service(infer_plan(_server("HubSpot", tools), "hubspot"))], seed=8)
    companies = {(c.name, c.domain, f"https://{c.domain}", c.city) for c in world(8).companies}
    seeded = list(env.state()["hubspot"]["companies"].values())
    assert seeded
    for rec in seeded:
        assert (rec["name"], rec["domain"], rec["website"], rec["city"]) in companies, rec
        assert rec["description"].startswith(rec["name"]) and ", as recorded." not in rec["description"], rec


def test_a_labels_text_colour_is_a_colour() -> None:
    """Gmail's labels had `textColor` "Label 1, as recorded.": a field named for a colour holds one,
    whatever other word it has."""
    from compoworld.synthesis.world import COLORS

    color = {"type": "object", "properties": {"textColor": S, "backgroundColor": S}}
    tools = [_tool("create_label", {"name": S, "color": color}, ["name"], "Creates a new Gmail label"),
             _tool("get_label", {"id": S}, ["id"], "Gets a specific Gmail label")]
    env = Environment([build_service(infer_plan(_server("Gmail", tools), "gmail"))], seed=2)
    labels = list(env.state()["gmail"]["labels"].values())
    assert labels and all(set(lab["color"].values()) <= set(COLORS) for lab in labels), labels[:2]


def test_voices_experiments_and_memories_are_what_they_name() -> None:
    """ElevenLabs' voices, Arize Phoenix's experiments and a memory server's memories had been "Voice 6,
    as recorded.": a voice has a speaker's name, gender and accent, an experiment a dataset and a
    status, a memory a fact about the world's people or companies. A debugger's memory is no fact."""
    from compoworld.synthesis.world import EXPERIMENT_DATASETS, VOICES

    def records(server: str, service: str, tool: str, description: str, collection: str | None = None) -> list[dict[str, Any]]:
        plan = infer_plan(_server(server, [_tool(tool, {}, [], description)]), service)
        state = Environment([build_service(plan)], seed=3).state()[service]
        return [r for name, rows in state.items() if collection in (None, name) for r in rows.values()]

    voices = records("ElevenLabs", "elevenlabs", "search_voices", "Search for existing voices", "voices")
    assert voices and all((v["name"], v["gender"], v["accent"]) in {x[:3] for x in VOICES} for v in voices), voices[:2]
    experiments = records("Arize Phoenix", "phoenix", "list_experiments", "List the experiments run on a dataset", "experiments")
    assert experiments and all(e["dataset"] in EXPERIMENT_DATASETS and e["status"] for e in experiments), experiments[:2]
    memories = records("Memory", "memory", "list_memories", "List all stored memories", "memories")
    assert memories and all(", as recorded." not in m["content"] for m in memories), memories[:2]
    frames = records("GDB", "gdb", "gdb_examine_memory", "Examine memory of the debugged process")
    facts = {m["content"] for m in memories}
    assert not any(set(map(str, f.values())) & facts for f in frames), frames[:2]


def test_a_devices_apps_are_software_and_an_asylum_application_is_not() -> None:
    """A phone's apps and Raygun's applications had been "App 1, as recorded.": an app has a name, a
    package and a platform. UNHCR's asylum applications are no software."""
    from compoworld.synthesis.world import APPS

    def apps(server: str, service: str, tool: str, description: str) -> list[dict[str, Any]]:
        plan = infer_plan(_server(server, [_tool(tool, {}, [], description)]), service)
        state = Environment([build_service(plan)], seed=4).state()[service]
        return [r for name, rows in state.items() if name.startswith("app") for r in rows.values()]

    phone = apps("Mobile", "mobile", "mobile_list_apps", "List all the installed apps on the device")
    assert phone and all((a["name"], a["package_name"], a["platform"]) in set(APPS) for a in phone), phone[:2]
    asylum = apps("UNHCR", "unhcr", "get_rsd_applications", "Get refugee status determination (RSD) asylum applications")
    assert asylum and not any(a.get("package_name") for a in asylum), asylum[:2]


def test_a_create_stores_the_declared_defaults_of_arguments_left_out() -> None:
    """Redis' `create_vector_index_hash()` stored `dim` null where its schema says 1536: an argument left out
    takes its declared default, an argument given wins, and one with no default, or a default its own schema
    refuses, stays empty."""
    tools = [_tool("create_ticket", {"title": S, "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal"},
                                     "due_days": {"type": "integer", "default": 7}, "description": S,
                                     # Unstructured's generator left its "unset" sentinel as a default: not a value
                                     "labels": {"type": ["array", "null"], "items": S, "default": "~?~unset~?~sentinel~?~"}},
                   ["title"], "Open a support ticket."),
             _tool("get_ticket", {"ticket_id": S}, ["ticket_id"], "Get one ticket by id.")]
    env = Environment([build_service(infer_plan(_server("Ticket Desk", tools), "desk"))], seed=2)

    def create(args: dict[str, Any]) -> dict[str, Any]:
        obs = env.step(ToolCall(name="desk__create_ticket", arguments=args))
        assert obs.ok, obs.error
        got = env.step(ToolCall(name="desk__get_ticket", arguments={"ticket_id": json.loads(obs.content)["id"]}))
        return json.loads(got.content)

    plain = create({"title": "Printer jams"})
    assert (plain["priority"], plain["due_days"], plain["description"], plain["labels"]) == ("normal", 7, None, None)
    given = create({"title": "VPN down", "priority": "high", "due_days": 1})
    assert (given["priority"], given["due_days"]) == ("high", 1)


def test_a_create_stores_the_default_its_description_states() -> None:
    """Heroku's `create_app(region)` ("Region: us/eu. Default: us") stored region null: a default the
    description states is the stored value too, where it fits (a word the enum lists or the spec quotes,
    a number, a boolean); "defaults to latest" or "Default depends on ..." states none."""
    from compoworld.synthesis.schema import said_default

    tools = [_tool("create_app", {"app": S, "region": {"type": "string", "enum": ["us", "eu"], "description": "Region: us/eu. Default: us"},
                                  "frame_rate": {"type": "number", "description": "Frames per second (default: 30.0)"},
                                  "private": {"type": "boolean", "description": "Private app, default is false."},
                                  "stack": {"type": "string", "description": "The stack; defaults to latest."}},
                   ["app"], "Create an app."),
             _tool("get_app", {"app_id": S}, ["app_id"], "Get one app by id.")]
    env = Environment([build_service(infer_plan(_server("Apps", tools), "apps"))], seed=2)
    made = env.step(ToolCall(name="apps__create_app", arguments={"app": "billing"})).data
    got = env.step(ToolCall(name="apps__get_app", arguments={"app_id": made["id"]})).data
    assert (got["region"], got["frame_rate"], got["private"], got["stack"]) == ("us", 30.0, False, None), got
    assert said_default({"type": "string", "description": "Default depends on the device"}) is None
    assert said_default({"type": "string", "description": "Output format. Default: 'markdown'."}) == "markdown"


def test_a_time_zone_argument_is_drawn_as_an_iana_name() -> None:
    """`convert_time(sourceTimezone, targetTimezone, time)` had been called with "woakvh" and "Sourcetimezone
    989" by the review and the task sampler, so every call failed: a parameter named for a time zone gets
    an IANA name, and the compiled converter answers the converted time."""
    import random

    from compoworld.services.sampling import TIME_ZONES, sample_arguments, schema_arguments

    tz = {"type": "string", "description": "IANA timezone name, e.g. Asia/Shanghai"}
    tools = [_tool("convert_time", {"sourceTimezone": tz, "targetTimezone": tz, "time": S}, ["sourceTimezone", "targetTimezone", "time"],
                   "Convert time between timezones.")]
    env = Environment([build_service(infer_plan(_server("Time", tools), "time"))], seed=1)
    spec = env.tool_specs()["time__convert_time"]
    for seed in range(5):
        for args in (schema_arguments(spec, env, "time", random.Random(seed)), sample_arguments(spec, env, random.Random(seed), service="time")):
            assert args is not None and args["sourceTimezone"] in TIME_ZONES and args["targetTimezone"] in TIME_ZONES, args
    obs = env.step({"name": "time__convert_time", "arguments": {"sourceTimezone": "Europe/London", "targetTimezone": "Asia/Tokyo",
                                                                "time": "2026-03-10 15:30:00"}})
    assert obs.ok and obs.data["converted_time"].startswith("2026-03-11T00:30"), obs.content


def test_a_read_told_how_many_to_answer_answers_a_list() -> None:
    """`get_command_history(count)` had answered one log line and `fiatMap(limit)` one quote of ETH: a read
    that takes how many records to answer lists them. A sampling knob is no such count (`top_k` beside
    `temperature`), nor the depth of an order book, nor a record's own key (`read_note(identifier, page_size)`)."""
    n = {"type": "integer"}
    tools = [_tool("get_command_history", {"count": n}, [], "Get recent command execution history."),
             _tool("get_order_book", {"symbol": S, "limit": n}, ["symbol"], "Get the order book of a trading pair."),
             _tool("read_note", {"identifier": S, "page_size": n}, ["identifier"], "Read a note by its title or permalink."),
             _tool("get_second_opinion", {"prompt": S, "temperature": {"type": "number"}, "top_k": n}, ["prompt"],
                   "Get a second opinion from another model.")]
    ops = {t.original: t.op for t in infer_plan(_server("Shell Tools", tools), "shell").tools}
    assert ops["get_command_history"] == "list", ops
    assert ops["get_order_book"] != "list" and ops["read_note"] != "list" and ops["get_second_opinion"] != "list", ops
    env = Environment([build_service(infer_plan(_server("Shell Tools", tools), "shell"))], seed=3)
    obs = env.step({"name": "shell__get_command_history", "arguments": {"count": 5}})
    assert obs.ok and isinstance(obs.data.get("items"), list) and 1 < len(obs.data["items"]) <= 5, obs.content


def test_a_named_settings_object_is_no_generic_setting() -> None:
    """Gmail's `update_pop(accessWindow, disposition)` had answered `setting: timezone, value: Europe/Berlin`
    beside the fields it set: POP settings are one object with their own fields. A generic setting (a
    service's `get_setting(key)`) keeps the setting archetype."""
    enum = lambda *v: {"type": "string", "enum": list(v)}  # noqa: E731
    tools = [_tool("get_pop", {}, [], "Gets POP settings"),
             _tool("update_pop", {"accessWindow": enum("disabled", "allMail", "fromNowOn"), "disposition": enum("archive", "trash", "leaveInInbox")},
                   ["accessWindow", "disposition"], "Updates POP settings"),
             _tool("get_setting", {"key": S}, ["key"], "Get a configuration setting by key.")]
    plan = infer_plan(_server("Mail Settings", tools), "mail")
    env = Environment([build_service(plan)], seed=1)
    done = env.step({"name": "mail__update_pop", "arguments": {"accessWindow": "allMail", "disposition": "trash"}})
    got = env.step({"name": "mail__get_pop", "arguments": {}})
    assert done.ok and got.ok and (got.data["access_window"], got.data["disposition"]) == ("allMail", "trash"), got.content
    assert not {"setting", "value", "scope"} & set(got.data) and got.data["name"] not in ("timezone", "log_level"), got.data
    assert {e.entity: e.topic for e in plan.entities}.get("setting") == "config"


def test_a_dcf_valuation_is_a_value_per_share_beside_the_price() -> None:
    """FMP's `getDCFValuation(symbol)` had answered an analyst estimate (revenue_avg, eps_avg) and
    `calculateCustomDCF` a stock quote: a discounted-cash-flow valuation answers the value per share it
    implies next to the price the stock trades at."""
    tools = [_tool("getDCFValuation", {"symbol": S}, ["symbol"], "Estimate the intrinsic value of a company with the FMP Discounted Cash Flow Valuation API."),
             _tool("getDCFValuationsBulk", {}, [], "Retrieve discounted cash flow (DCF) valuations for multiple symbols in one request.")]
    env = Environment([build_service(infer_plan(_server("Financial Modeling Prep", tools), "fmp"))], seed=2)
    one = env.step({"name": "fmp__getDCFValuation", "arguments": {"symbol": "AAPL"}})
    assert one.ok and {"dcf", "stock_price"} <= set(one.data) and not {"revenue_avg", "eps_avg"} & set(one.data), one.content
    assert 150 <= one.data["stock_price"] <= 260 and 0.7 <= one.data["dcf"] / one.data["stock_price"] <= 1.35, one.data
    bulk = env.step({"name": "fmp__getDCFValuationsBulk", "arguments": {}})
    assert bulk.ok and all(0.7 <= r["dcf"] / r["stock_price"] <= 1.35 for r in bulk.data["items"]), bulk.content


def test_an_assignment_is_coursework_due_on_a_day() -> None:
    """Canvas's assignments had been courses (an instructor, credits, enrolled students): an assignment is
    work a course sets, with a due date to come and the points it is worth. Azure's role assignments are
    no coursework."""
    tools = [_tool("get_course_assignments", {"course_id": S}, ["course_id"], "Get all assignments for a specific course."),
             _tool("get_courses", {}, [], "Get all courses.")]
    env = Environment([build_service(infer_plan(_server("Canvas", tools), "canvas"))], seed=4)
    course = env.step({"name": "canvas__get_courses", "arguments": {}}).data["items"][0]
    got = env.step({"name": "canvas__get_course_assignments", "arguments": {"course_id": course["id"]}})
    assert got.ok and got.data["items"], got.content
    for a in got.data["items"]:
        assert not {"instructor", "credits", "enrolled"} & set(a) and 10 <= a["points_possible"] <= 100, a
        assert datetime.fromisoformat(a["due_at"].replace("Z", "+00:00")).tzinfo is not None
    roles = infer_plan(_server("Azure", [_tool("list_role_assignments", {"scope": S}, [], "List role assignments at a scope.")]), "azure")
    assert all(e.topic != "assignment" for e in roles.entities)


def test_meteorological_data_at_coordinates_is_weather_not_a_place() -> None:
    """NASA's `power(latitude, longitude, ...)`, "meteorological data", had answered a market with a
    street address and a rating: a read of the weather at some coordinates answers the weather there."""
    N = {"type": "number"}
    tools = [_tool("nasa/power", {"parameters": S, "community": S, "latitude": N, "longitude": N, "start": S, "end": S},
                   ["parameters", "community", "latitude", "longitude", "start", "end"],
                   "Prediction of Worldwide Energy Resources - meteorological data")]
    env = Environment([build_service(infer_plan(_server("NASA", tools), "nasa"))], seed=2)
    got = env.step({"name": "nasa__nasa_power", "arguments": {"parameters": "T2M", "community": "RE", "latitude": 48.8566,
                                                             "longitude": 2.3522, "start": "20260101", "end": "20260107"}})
    assert got.ok and not {"address", "rating"} & set(got.data), got.content
    assert {"temperature_c", "conditions"} <= set(got.data), got.content


def test_a_coin_asked_for_by_name_or_pair_is_quoted_as_that_coin() -> None:
    """`get_current_price(coin="bitcoin")` had answered Tether at 1.03 USD (and `get_coin_price(coin_id=
    "bitcoin")` Microsoft's stock at 419), `get_binance_price("BTCUSDT")` a company called Prairie
    Networks at 29 SGD."""
    tools = [_tool("get_current_price", {"coin": S}, ["coin"], "Get the current price of a coin."),
             _tool("get_binance_price", {"symbol": S}, ["symbol"], "Get the current price of a Binance trading pair.")]
    env = Environment([build_service(infer_plan(_server("Coin Prices", tools), "coins"))], seed=5)
    btc = env.step({"name": "coins__get_current_price", "arguments": {"coin": "bitcoin"}})
    assert btc.ok and btc.data["symbol"] == "BTC" and btc.data["name"] == "Bitcoin", btc.content
    assert 50_000 < btc.data["price"] < 90_000 and btc.data["currency"] == "USD", btc.content
    pair = env.step({"name": "coins__get_binance_price", "arguments": {"symbol": "ETHUSDT"}})
    assert pair.ok and pair.data["symbol"] == "ETHUSDT" and pair.data["name"] == "Ethereum", pair.content
    assert 2_500 < pair.data["price"] < 4_500, pair.content


def test_a_bulk_read_answers_many_records() -> None:
    """FMP's `getEODDataBulk(date)` ("end-of-day stock price data for multiple symbols in bulk") had
    answered one quote for the day."""
    tools = [_tool("getEODDataBulk", {"date": {"type": "string", "description": "Date in YYYY-MM-DD format"}}, ["date"],
                   "The EOD Bulk API allows users to retrieve end-of-day stock price data for multiple symbols in bulk.")]
    env = Environment([build_service(infer_plan(_server("Financial Modeling Prep", tools), "fmp"))], seed=2)
    got = env.step({"name": "fmp__getEODDataBulk", "arguments": {"date": "2024-03-15"}})
    assert got.ok and len(got.data["items"]) >= 2, got.content
    assert len({r["symbol"] for r in got.data["items"]}) == len(got.data["items"]), got.content


def test_a_threat_intelligence_platforms_indicators_malware_and_actors_are_stix_objects() -> None:
    """OpenCTI's `search_indicators(query)` had answered dated metric series, `get_latest_reports` ops
    metrics, `search_malware` and `search_threat_actors` generic search hits. They answer indicators with
    a detection pattern, malware families, threat actors with aliases and reports on intrusions, and a
    search finds what it names."""
    q = {"query": {"type": "string"}, "first": {"type": "number"}}
    tools = [_tool("search_indicators", q, ["query"], "Search for indicators in OpenCTI"),
             _tool("search_malware", q, ["query"], "Search for malware in OpenCTI"),
             _tool("search_threat_actors", q, ["query"], "Search for threat actors in OpenCTI"),
             _tool("get_latest_reports", {"first": {"type": "number"}}, [], "Get the latest reports from OpenCTI"),
             _tool("list_marking_definitions", {}, [], "List all marking definitions")]
    server = _server("OpenCTI", tools)
    server.description = "Retrieve threat intelligence data from OpenCTI: reports, indicators, malware and threat actors."
    env = Environment([build_service(infer_plan(server, "cti"))], seed=4)

    def items(tool: str, **args: Any) -> list[dict[str, Any]]:
        obs = env.step({"name": f"cti__{tool}", "arguments": args})
        assert obs.ok, obs.error
        return obs.data["items"]

    indicators = items("search_indicators", query="Emotet")
    assert indicators and all("Emotet" in i["name"] and i["pattern"].startswith("[") and i["pattern_type"] == "stix" for i in indicators)
    assert not {"data", "interval", "unit"} & set(indicators[0])
    assert {m["malware_types"] for m in items("search_malware", query="LockBit")} == {"ransomware"}
    actors = items("search_threat_actors", query="APT28")
    assert actors and "Fancy Bear" in actors[0]["aliases"] and not {"url", "snippet", "score"} & set(actors[0])
    reports = items("get_latest_reports")
    assert reports and all(r["report_types"].endswith("-report") or r["report_types"] == "malware-analysis" for r in reports)
    assert {m["definition"] for m in items("list_marking_definitions")} >= {"TLP:RED", "TLP:GREEN"}


def test_a_market_data_services_sectors_are_the_markets_sectors() -> None:
    """FMP's `getAvailableSectors` had listed files of placeholder text ("Sector 1, as recorded.") and
    `getAvailableIndustries` stock quotes: they list the sectors and industries stocks are classed in."""
    tools = [_tool("getAvailableSectors", {}, [], "Access a complete list of industry sectors using the FMP Available Sectors API."),
             _tool("getAvailableIndustries", {}, [], "Access a comprehensive list of industries where stock symbols are available.")]
    env = Environment([build_service(infer_plan(_server("Financial Modeling Prep", tools), "financial_modeling_prep"))], seed=2)
    sectors = env.step({"name": "financial_modeling_prep__getAvailableSectors", "arguments": {}}).data["items"]
    assert {"Technology", "Healthcare", "Energy"} <= {r["sector"] for r in sectors}, sectors
    assert all(r["name"] == r["sector"] and "content" not in r for r in sectors), sectors
    industries = env.step({"name": "financial_modeling_prep__getAvailableIndustries", "arguments": {}}).data["items"]
    assert all({"industry", "sector"} <= set(r) and "price" not in r for r in industries), industries


def test_a_setter_of_what_is_current_sets_it_and_a_missing_record_is_named() -> None:
    """The shipped Virtual Traveling Bot's `set_current_location(address)`: the address given is the new
    current location, not a condition that finds the one to change ("there is no location yet", every
    time). A record a setter's reference finds nothing for is named by that reference."""
    loaded = load_specs()
    server = next((s for s in loaded.servers if s.name == "Virtual Traveling Bot"), None)
    if server is None:
        pytest.skip("the shipped corpus is not available")
    env = Environment([build_service(infer_plan(server, "bot"))], seed=7)
    for address in ("303 Summit Street", "12 Harbour Road"):
        moved = env.step({"name": "bot__set_current_location", "arguments": {"address": address}})
        assert moved.ok and moved.data["address"] == address, moved.content
    svc = env.services["bot"]
    used = {row["settings"] for row in svc.db["travelers"]}
    unused = next(row["id"] for row in svc.db["settings"] if row["id"] not in used)  # a setting no traveler has
    refused = env.step({"name": "bot__set_traveler_info", "arguments": {"settings": unused}})
    assert not refused.ok and refused.error == f"no traveler with settings {unused!r}", refused.error


def test_a_list_of_references_names_the_services_own_records() -> None:
    """A mailing list's `contact_ids` are ids of the service's contacts (they had been made-up
    "contact-id-04", and Airflow runs' `dag_ids` random letters), so a lookup by them finds them."""
    A = {"type": "array", "items": S}
    tools = [_tool("list_contacts", {}, [], "List contacts"),
             _tool("get_contact", {"contactId": S}, ["contactId"], "Get a contact by ID"),
             _tool("list_mailing_lists", {}, [], "List mailing lists"),
             _tool("create_mailing_list", {"name": S, "contactIds": A}, ["name", "contactIds"], "Create a mailing list of contacts")]
    env = Environment([build_service(infer_plan(_server("Mail Lists", tools), "ml"))], seed=4)
    contacts = {row["id"] for row in env.services["ml"].db["contacts"]}
    lists = env.step({"name": "ml__list_mailing_lists", "arguments": {}})
    assert lists.ok and lists.data["items"], lists.content
    for row in lists.data["items"]:
        assert row["contact_ids"] and set(row["contact_ids"]) <= contacts, (row, contacts)


def test_views_of_one_list_give_records_of_the_fullest_view() -> None:
    """A field declared as `anyOf` two views of one list (Weaviate's tenants, one view with the statuses'
    enum) holds items of the fuller view, not random letters ("activityStatus": "gufdgp")."""
    from compoworld.synthesis.runtime import _world
    from compoworld.synthesis.world import ValueContext, value_for

    item = {"type": "object", "properties": {"activityStatus": S, "name": S}}
    full = {"type": "object", "properties": {"activityStatus": {"type": "string", "enum": ["COLD", "ACTIVE", "INACTIVE"]}, "name": S}}
    shape = {"anyOf": [{"type": "array", "items": item}, {"type": "array", "items": full}]}
    ctx = ValueContext.of(_world(7), datetime(2026, 2, 17), "tenant", "tenants", "", "Weaviate")
    for n in range(4):
        tenants = value_for("tenants", None, shape, random.Random(n), ctx, n)
        assert tenants and all(t["activityStatus"] in ("COLD", "ACTIVE", "INACTIVE") for t in tenants), tenants


def test_a_space_agencys_pictures_are_of_the_sky_and_a_forecasters_predictions_no_weather() -> None:
    """NASA's picture of the day had been a company's logo; a forecasting agent's prediction (Chronulus'
    panel of experts) had been a weather observation in Toronto."""
    N = {"type": "number"}
    apod = _tool("nasa_apod", {"date": {"type": "string", "description": "The date of the APOD image (YYYY-MM-DD)"}}, [],
                 "Fetch NASA's Astronomy Picture of the Day")
    env = Environment([build_service(infer_plan(_server("NASA", [apod]), "nasa"))], seed=4)
    from compoworld.synthesis.world import IMAGES, SKY_IMAGES
    pictures = [row["filename"] for row in env.services["nasa"].db[next(iter(env.services["nasa"].db))]]
    assert pictures and all(p.rsplit(".", 1)[0].rstrip("-0123456789") in SKY_IMAGES for p in pictures), pictures
    assert not any(p.rsplit(".", 1)[0] in IMAGES for p in pictures)
    tools = [_tool("create_prediction_agent", {"session_id": S, "num_experts": N}, ["session_id"],
                   "Creates a BinaryPredictor agent and provides predictions and forecasts from a panel of experts."),
             _tool("reuse_prediction_agent_and_get_prediction", {"agent_id": S, "num_experts": N}, ["agent_id"],
                   "Provides input data to a BinaryPredictor agent and returns the consensus prediction of a panel of experts, "
                   "a forecast with their estimates.")]
    plan = infer_plan(_server("Chronulus", tools), "chronulus")
    assert all(e.topic != "weather" for e in plan.entities), [(e.collection, e.topic) for e in plan.entities]


def test_linear_algebra_and_a_search_engines_ranking_rules_are_no_shop_league_or_picture() -> None:
    """A matrix's rank had been a league table, its QR decomposition a QR-code picture, a vector's dot
    product a shop's goods with a price; Meilisearch's ranking rules football clubs with points."""
    tools = [_tool("create_tensor", {"name": S, "shape": {"type": "array", "items": {"type": "integer"}},
                                     "values": {"type": "array", "items": {"type": "number"}}}, ["name", "shape", "values"],
                   "Creates a new tensor and stores it in memory."),
             _tool("rank", {"name": S}, ["name"], "Computes the rank of a stored matrix."),
             _tool("qr_decompose", {"name": S}, ["name"], "Computes the QR decomposition of a stored matrix."),
             _tool("vector_dot_product", {"name_a": S, "name_b": S}, ["name_a", "name_b"], "Computes the dot product of two stored vectors.")]
    plan = infer_plan(_server("Scientific Computation", tools), "sci")
    topics = {t.name: next(e.topic for e in plan.entities if e.collection == t.collection) for t in plan.tools if t.collection}
    assert not {"standing", "image", "product"} & set(topics.values()), topics
    meili = [_tool("get-ranking-rules", {"indexUid": S}, ["indexUid"], "Get the ranking rules setting"),
             _tool("update-ranking-rules", {"indexUid": S, "value": {"type": "array", "items": S}}, ["indexUid", "value"],
                   "Update the ranking rules setting")]
    plan = infer_plan(_server("Meilisearch", meili), "meili")
    assert all(e.topic != "standing" for e in plan.entities), [(e.collection, e.topic) for e in plan.entities]


def test_a_diagram_editors_shape_categories_are_shape_libraries() -> None:
    """draw.io's shape categories had been news sections (Technology, Markets, Politics)."""
    from compoworld.synthesis.world import CATEGORY_NAMES, CATEGORY_SCOPES

    tools = [_tool("get_shape_categories", {}, [], "Retrieve all available shape categories from the diagram's library.")]
    env = Environment([build_service(infer_plan(_server("Draw.io Diagramming", tools), "drawio"))], seed=4)
    got = env.step({"name": "drawio__get_shape_categories", "arguments": {}})
    assert got.ok and got.data["items"], got.content
    names = {row["name"] for row in got.data["items"]}
    assert names <= set(CATEGORY_SCOPES[0][1]) and not names & set(CATEGORY_NAMES), names


def test_a_bound_on_when_a_record_started_filters_by_it() -> None:
    """Airflow's `get_dag_runs(start_date_gte=...)` had been read as a "start" of `date_gte` and ignored:
    a run that started in October was listed for runs started after March."""
    D = {"type": "string", "format": "date-time"}
    tools = [_tool("get_dags", {}, [], "List DAGs"),
             _tool("get_dag_runs", {"dag_id": S, "start_date_gte": D, "start_date_lte": D, "end_date_gte": D}, ["dag_id"],
                   "Get DAG runs by ID")]
    plan = infer_plan(_server("Apache Airflow", tools), "airflow")
    runs = next(t for t in plan.tools if t.name == "get_dag_runs")
    roles = {p.name: (p.role, p.field) for p in runs.params}
    assert roles["start_date_gte"] == ("min", "started_at") and roles["start_date_lte"] == ("max", "started_at"), roles
    assert roles["end_date_gte"] == ("min", "ended_at"), roles
    env = Environment([build_service(plan)], seed=4)
    dag = next(iter(env.services["airflow"].db["runs"]))["dag_id"]
    everything = env.step({"name": "airflow__get_dag_runs", "arguments": {"dag_id": dag, "start_date_gte": "2000-01-01T00:00:00Z"}})
    assert everything.ok and everything.data["items"], everything.content
    later = env.step({"name": "airflow__get_dag_runs", "arguments": {"dag_id": dag, "start_date_gte": "2099-01-01T00:00:00Z"}})
    assert later.ok and later.data["items"] == [], later.content


def test_a_trends_aggregators_rankings_are_hot_lists_and_a_games_hiscores_its_best_players() -> None:
    """Trends Hub's `get_bilibili_rank()` had answered one football club of a league table and
    `get_weibo_trending()` one headline; RuneScape's `get_top_rankings` football clubs too. A hot list is
    many headlines with their source; a game's hiscores are its players, best first, with falling experience."""
    rank_type = {"type": {"anyOf": [{"const": 0, "type": "number"}, {"const": 1, "type": "number"}]}}
    tools = [_tool("get-bilibili-rank", rank_type, [], "获取哔哩哔哩视频排行榜"),
             _tool("get-weibo-trending", {}, [], "获取微博热搜榜")]
    server = _server("Trends Hub", tools)
    server.description = "Aggregate trending topics from various platforms in one place: real-time hot lists."
    env = Environment([build_service(infer_plan(server, "trends_hub"))], seed=3)
    for tool in ("get_bilibili_rank", "get_weibo_trending"):
        obs = env.step({"name": f"trends_hub__{tool}", "arguments": {}})
        assert obs.ok, obs.error
        rows = obs.data["items"]
        assert len(rows) > 1 and all(r["title"] and r["url"] and r["published_at"] for r in rows), rows
        assert not {"team", "played", "wins", "points"} & set(rows[0]), rows[0]
    game = _server("RuneScape OSRS", [_tool("get_top_rankings", {"name": {"type": "string"}, "gameMode": {"type": "string"}},
                                            ["name", "gameMode"], "Get the top rankings of a skill or activity from the hiscores")])
    game.description = "Old School RuneScape data: hiscores, items and prices."
    env = Environment([build_service(infer_plan(game, "osrs"))], seed=3)
    obs = env.step({"name": "osrs__get_top_rankings", "arguments": {"name": "Overall", "gameMode": "osrs"}})
    assert obs.ok, obs.error
    rows = obs.data["items"]
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) > 1, rows
    assert all(a["xp"] > b["xp"] for a, b in zip(rows, rows[1:])) and all(r["player"] and 1 <= r["level"] <= 99 for r in rows), rows
    assert not {"team", "played", "points"} & set(rows[0]), rows[0]


def test_a_companys_esg_rating_is_three_scores_and_a_grade_and_a_coin_has_no_company_profile() -> None:
    """FMP's `getESGRatings(symbol)` had answered stock quotes (a price and a volume), and Alpha Vantage's
    `company_overview(symbol)` gave SOL (a coin) a company in education with 42 employees. An ESG rating
    is the company's three scores, their mean and the grade it earns; a coin is refused by name."""
    sym = {"symbol": {"type": "string", "description": "Stock symbol"}}
    fmp = _server("Financial Modeling Prep", [_tool("getESGRatings", sym, ["symbol"], "Access comprehensive ESG ratings for companies and funds.")])
    env = Environment([build_service(infer_plan(fmp, "financial_modeling_prep"))], seed=2)
    obs = env.step({"name": "financial_modeling_prep__getESGRatings", "arguments": {"symbol": "IBM"}})
    assert obs.ok, obs.error
    rows = obs.data["items"]
    assert rows and not {"price", "volume", "change_percent"} & set(rows[0]), rows
    for r in rows:
        pillars = [r["environmental_score"], r["social_score"], r["governance_score"]]
        assert r["symbol"] == "IBM" and r["company_name"] == "International Business Machines Corporation"
        assert abs(r["esg_score"] - sum(pillars) / 3) < 0.01 and r["esg_rating"] in ("AAA", "AA", "A", "BBB", "BB", "B", "CCC")
    visa = env.step({"name": "financial_modeling_prep__getESGRatings", "arguments": {"symbol": "V"}})
    assert visa.ok and visa.data["items"] and {r["symbol"] for r in visa.data["items"]} == {"V"}, visa  # not NVDA's, which holds a V
    av = _server("Alphavantage", [_tool("company_overview", {"symbol": {"type": "string"}}, ["symbol"], "Fetch company overview")])
    env = Environment([build_service(infer_plan(av, "alphavantage"))], seed=2)
    coin = env.step({"name": "alphavantage__company_overview", "arguments": {"symbol": "SOL"}})
    assert not coin.ok and "cryptocurrency" in (coin.error or ""), coin
    apple = env.step({"name": "alphavantage__company_overview", "arguments": {"symbol": "AAPL"}})
    assert apple.ok and apple.data["name"] == "Apple Inc." and apple.data["city"] == "Cupertino", apple
    seeded = [r for t in env.services["alphavantage"].db.values() for r in t.rows.values()]
    assert seeded and not any(str(r.get("symbol")).upper() in ("BTC", "ETH", "SOL", "ADA") for r in seeded), seeded


def test_a_call_that_selects_a_record_makes_it_current_and_one_with_nothing_to_set_is_an_action() -> None:
    """`use_database(database)`, `browser_tab_select(index)` and Kong's `update_service()` (no arguments in
    its spec) had been updates that refused every call ("this tool has nothing it can update") while marked
    faithful. A selecting call makes the record it names the current one and an unknown name is not found;
    a write given nothing to set is a logged action (structural), not an update."""
    tools = [_tool("list_databases", {}, [], "List all databases"),
             _tool("use_database", {"database": {"type": "string", "description": "Database name"}}, ["database"],
                   "Switch to a specific database"),
             _tool("update_service", {}, [], "Kong Admin API tool for services - update operations")]
    plan = infer_plan(_server("MongoDB Lens", tools), "mongo")
    ops = {t.name: t.op for t in plan.tools}
    assert ops["use_database"] == "update" and ops["update_service"] == "action", ops
    env = Environment([build_service(plan)], seed=5)
    dbs = env.step({"name": "mongo__list_databases", "arguments": {}}).data["items"]
    first, second = dbs[0]["database"], dbs[1]["database"]
    for name in (first, second):
        obs = env.step({"name": "mongo__use_database", "arguments": {"database": name}})
        assert obs.ok and obs.data["current"] is True, obs
    current = [r["database"] for r in env.step({"name": "mongo__list_databases", "arguments": {}}).data["items"] if r.get("current")]
    assert current == [second], current
    missing = env.step({"name": "mongo__use_database", "arguments": {"database": "no_such_db"}})
    assert not missing.ok and "no_such_db" in (missing.error or "")
    assert env.step({"name": "mongo__update_service", "arguments": {}}).ok


def test_a_weather_services_warnings_stations_and_places_are_its_own() -> None:
    """IPMA's `get_weather_warnings` had answered temperature readings in London and Sydney, its
    `get_weather_stations` and `get_locations` hotels and museums with a rating, `get_seismic_data`
    placeholder text. A warning is an event over an area with a level and a window, a station has its code
    and height, a place its coordinates, a quake its magnitude: in Portugal, for a Portuguese service."""
    tools = [_tool("get_weather_warnings", {}, [], "Obter avisos meteorológicos ativos em Portugal"),
             _tool("get_weather_stations", {}, [], "Obter dados de observação das estações meteorológicas"),
             _tool("get_locations", {}, [], "Listar todas as cidades/locais disponíveis para previsão"),
             _tool("get_seismic_data", {"area": {"type": "string"}}, [], "Obter dados sísmicos recentes")]
    server = _server("IPMA Weather Data", tools)
    server.description = "Real-time and forecast meteorological data for cities across Portugal: warnings, seismic data, UV index."
    env = Environment([build_service(infer_plan(server, "ipma"))], seed=6)

    def call(tool: str) -> Any:
        obs = env.step({"name": f"ipma__{tool}", "arguments": {}})
        assert obs.ok, obs.error
        return obs.data

    warnings = call("get_weather_warnings")["items"]
    assert warnings and all(w["level"] in ("Yellow", "Orange", "Red") and w["ends_at"] > w["starts_at"] and w["event"] for w in warnings), warnings
    assert not {"temperature_c", "humidity", "rating"} & set(warnings[0])
    stations = call("get_weather_stations")["items"]
    assert stations and all(s["station_id"] and s["city"] in s["name"] and isinstance(s["elevation_m"], int) for s in stations), stations
    places = call("get_locations")["items"]
    assert {"Lisboa", "Porto", "Faro"} <= {p["name"] for p in places} and all(p["country"] == "PT" and "rating" not in p for p in places), places
    quake = call("get_seismic_data")
    quake = quake["items"][0] if "items" in quake else quake
    assert 0 < quake["magnitude"] < 9 and quake["depth_km"] > 0 and " km " in quake["place"], quake


def test_a_team_games_match_has_two_sides_a_winner_and_the_games_characters() -> None:
    """OpenDota's `get_match_data(match_id)` had answered a calendar event ("Match 2" in Denver, from
    February to April). A Dota match has the Radiant's and the Dire's scores, the side with more won, a
    length, a mode and ten of Dota's heroes; a player's recent matches are that player's, each its own."""
    from compoworld.synthesis.world import ROSTERS

    tools = [_tool("get_match_data", {"match_id": {"type": "integer"}}, ["match_id"], "Get detailed data for a specific match."),
             _tool("get_player_recent_matches", {"account_id": {"type": "integer"}}, ["account_id"], "Get recent matches played by a player.")]
    server = _server("OpenDota", tools)
    server.description = "Real-time access to Dota 2 statistics, match data and player profiles through the OpenDota API."
    plan = infer_plan(server, "opendota")
    env = Environment([build_service(plan)], seed=4)
    heroes = {name for name, _ in ROSTERS["dota"]}
    match = env.step({"name": "opendota__get_match_data", "arguments": {"match_id": 2}}).data
    recent = env.step({"name": "opendota__get_player_recent_matches", "arguments": {"account_id": 375}}).data["items"]
    assert recent and all(m["account_id"] == 375 and isinstance(m["match_id"], int) for m in recent), recent
    for m in [match, *recent]:
        assert m["radiant_score"] != m["dire_score"], m
        assert m["winner"] == ("Radiant" if m["radiant_score"] > m["dire_score"] else "Dire"), m
        assert len(set(m["heroes"])) == 10 and set(m["heroes"]) <= heroes, m
        assert 1_500 <= m["duration_seconds"] <= 3_600 and m["start_time"] < env.services["opendota"].ctx.clock.now(), m
    assert len({(m["radiant_score"], m["dire_score"], tuple(m["heroes"])) for m in recent}) == len(recent)


def test_a_series_named_for_its_interval_answers_bars_at_that_interval() -> None:
    """Alpha Vantage's `time_series_weekly_adjusted(symbol)` had answered daily bars marked `interval:
    1d`. A tool named weekly or monthly answers bars a week or a month apart, and says so."""
    tools = [_tool(f"time_series_{every}", {"symbol": S}, ["symbol"], f"Fetch a time series {every}") for every in ("daily", "weekly_adjusted", "monthly")]
    server = _server("Alpha Vantage", tools)
    server.description = "Stock market data: quotes, time series and technical indicators from Alpha Vantage."
    env = Environment([build_service(infer_plan(server, "av"))], seed=5)
    gaps = {}
    for every in ("daily", "weekly_adjusted", "monthly"):
        obs = env.step({"name": f"av__time_series_{every}", "arguments": {"symbol": "ORCL"}})
        record = obs.data["items"][0] if "items" in obs.data else obs.data
        days = [date.fromisoformat(b["date"][:10]) for b in record["candles"]]
        gaps[every] = ({(b - a).days for a, b in zip(days, days[1:])}, record["interval"])
    assert gaps["daily"] == ({1}, "daily"), gaps
    assert gaps["weekly_adjusted"] == ({7}, "weekly"), gaps
    assert gaps["monthly"][0] <= {28, 29, 30, 31} and gaps["monthly"][1] == "monthly", gaps


def test_a_key_the_spec_constrains_is_seeded_so_that_a_call_can_name_it() -> None:
    """Local API's groups were seeded with `groupId` "shipment" while the spec says it "must be a
    numeric string" (`^\\d+$`): every `update_group` call was refused or not found. Seeded keys follow
    the spec's pattern, each its own, and a call naming one changes that record."""
    group_id = {"type": "string", "pattern": "^\\d+$", "description": "The id of the group, a numeric string (e.g. \"123\")"}
    tools = [_tool("update_group", {"groupId": group_id, "groupName": S}, ["groupId", "groupName"], "Update the browser group"),
             _tool("get_group_list", {}, [], "Get the list of browser groups")]
    env = Environment([build_service(infer_plan(_server("Local API", tools), "localapi"))], seed=3)
    groups = env.step({"name": "localapi__get_group_list", "arguments": {}}).data["items"]
    ids = [g["group_id"] for g in groups]
    assert ids and all(re.fullmatch(r"\d+", i) for i in ids) and len(set(ids)) == len(ids), ids
    updated = env.step({"name": "localapi__update_group", "arguments": {"groupId": ids[1], "groupName": "QA browsers"}})
    assert updated.ok and updated.data["group_name"] == "QA browsers" and updated.data["group_id"] == ids[1], updated


def test_a_platforms_hot_list_lists_headlines_and_a_team_game_has_two_sides() -> None:
    """Pulse CN's `douyin_hotspots()` had answered one research paper on every call (the service's
    `the_paper_news_hotspots` made its hot lists papers); college football's `get_games_teams(year)` had
    answered films with a genre and a creator. A hot list lists headlines; a team's game is a game
    between two teams, the team one of them."""
    lim = {"limit": {"type": "number", "exclusiveMinimum": 0, "description": "How many hot topics to show"}}
    hot = [_tool(name, lim if name != "douyin_hotspots" else {}, [], desc) for name, desc in [
        ("douyin_hotspots", "获取抖音热搜榜单，返回包含热点内容的实时数据。"),
        ("the_paper_news_hotspots", "获取澎湃新闻热搜榜单，返回包含热点内容的实时数据。"),
        ("today_headlines_hotspots", "获取今日头条热点热搜。")]]
    env = Environment([build_service(infer_plan(_server("Pulse CN", hot), "pulse"))], seed=2)
    for name in ("douyin_hotspots", "today_headlines_hotspots"):
        items = env.step({"name": f"pulse__{name}", "arguments": {}}).data["items"]
        assert len(items) > 1 and all({"title", "source", "published_at"} <= set(i) and "abstract" not in i for i in items), items
    games = [_tool("get_games_teams", {"year": {"type": "integer"}, "team": S, "conference": S}, ["year"],
                   "Get college football team game data. Required: year plus at least one of: week, team or conference.")]
    server = _server("College Football Data", games)
    server.description = "College football data: games, teams, plays and rankings."
    env = Environment([build_service(infer_plan(server, "cfb"))], seed=2)
    rows = env.step({"name": "cfb__get_games_teams", "arguments": {"year": 2023}}).data["items"]
    assert rows and all(r["home_team"] != r["away_team"] and r["team"] in (r["home_team"], r["away_team"]) and "genre" not in r
                        for r in rows), rows


def test_a_pages_requests_a_bridge_aggregators_bridges_and_a_portals_datasets_are_their_own_records() -> None:
    """Seed 48 drew three wrong answers: Playwright's `browser_network_requests` listed documents
    ("Request 1, as recorded."), LI.FI's `getSupportedBridges` listed token transfers with hashes, and
    Data.gov's `package_search` found code libraries with stars. Now: requests with a method, a status and
    a resource type; bridge protocols; an open-data portal's datasets, found by their words."""
    browser = _server("Playwright Browser", [_tool("browser_network_requests", {}, [], "Returns all network requests since loading the page"),
                                             _tool("browser_navigate", {"url": S}, ["url"], "Navigate to a URL")])
    env = Environment([build_service(infer_plan(browser, "pw"))], seed=1)
    reqs = env.step({"name": "pw__browser_network_requests", "arguments": {}}).data["items"]
    assert reqs and all(r["method"] in ("GET", "POST") and isinstance(r["status"], int) and r["url"].startswith("https://") for r in reqs), reqs
    assert {"document", "script"} <= {r["resource_type"] for r in reqs}, reqs
    lifi = _server("Bridge Rates", [_tool("getSupportedBridges", {}, [], "Fetches the list of bridges supported by LiFi for cross-chain bridging"),
                                    _tool("getSupportedChains", {}, [], "Fetches the chains supported by LiFi")])
    lifi.description = "Cross-chain bridge rates from LI.FI."
    env = Environment([build_service(infer_plan(lifi, "bridge_rates"))], seed=1)
    bridges = env.step({"name": "bridge_rates__getSupportedBridges", "arguments": {}}).data["items"]
    assert {"Stargate", "Across"} <= {b["name"] for b in bridges} and not any("hash" in b for b in bridges), bridges
    gov = _server("Data.gov", [_tool("package_search", {"q": {"type": "string", "description": "Search query"}, "rows": {"type": "number"}}, [],
                                     "Search for packages (datasets) on Data.gov")])
    env = Environment([build_service(infer_plan(gov, "data_gov"))], seed=1)
    found = env.step({"name": "data_gov__package_search", "arguments": {"q": "earthquake"}}).data["items"]
    assert [d["title"] for d in found] == ["USGS Earthquake Catalog"] and found[0]["organization"] == "U.S. Geological Survey", found


def test_a_docstring_documents_the_arguments_its_schema_leaves_bare() -> None:
    """MLB's `get_top_prospects(team, player_type)` says in its docstring what each argument is
    (`playerType: Either "pitchers" or "batters".`) while the schema gives only names: the parameter's
    description is the docstring's, what the prospects' type holds is one of the values it names (it had
    been "forecast" and "webinar"), and a filter by one of them answers only those."""
    desc = ("Retrieves the top prospects by team or leaguewide.\n\n    ARGUMENTS\n    team: The team name. If not specified,\n"
            "        the function will return leaguewide top prospects.\n    playerType: Either \"pitchers\" or \"batters\".\n"
            "        If not specified, both.\n")
    props = {"team": {"anyOf": [S, {"type": "null"}], "default": None}, "player_type": {"anyOf": [S, {"type": "null"}], "default": None}}
    srv = _server("MLB Stats", [_tool("get_top_prospects", props, [], desc)])
    schema = srv.tools[0].input_schema["properties"]
    assert schema["player_type"]["description"] == 'Either "pitchers" or "batters". If not specified, both.'
    assert schema["team"]["description"].startswith("The team name. If not specified, the function will return")
    env = Environment([build_service(infer_plan(srv, "mlb"))], seed=1)
    every = env.step({"name": "mlb__get_top_prospects", "arguments": {}}).data["items"]
    assert {p["player_type"] for p in every} == {"pitchers", "batters"}, every
    pitchers = env.step({"name": "mlb__get_top_prospects", "arguments": {"player_type": "pitchers"}}).data["items"]
    assert pitchers and {p["player_type"] for p in pitchers} == {"pitchers"}


def test_an_index_quote_is_the_index_and_a_days_move_is_a_few_percent() -> None:
    """FMP's `getAllIndexQuotes()` had listed Oracle, Ethereum and Meta: the quotes of a service's market
    indexes are the indexes (the S&P 500 at its level), and a `change_percent` moves a few percent either
    way rather than anywhere in 0-100."""
    sym = {"symbol": {"type": "string", "description": "Index symbol (e.g., ^GSPC)"}}
    srv = _server("Financial Modeling Prep", [
        _tool("getIndexList", {}, [], "Retrieve a comprehensive list of stock market indexes"),
        _tool("getIndexQuote", sym, ["symbol"], "Access real-time stock index quotes"),
        _tool("getAllIndexQuotes", {"short": {"type": "boolean"}}, [], "Real-time quotes for a wide range of stock indexes"),
        _tool("getQuote", sym, ["symbol"], "Access real-time stock quotes"),
        _tool("getStockPriceChange", sym, ["symbol"], "Track stock price fluctuations")])
    env = Environment([build_service(infer_plan(srv, "fmp"))], seed=1)
    quotes = env.step({"name": "fmp__getAllIndexQuotes", "arguments": {}}).data["items"]
    assert {"^GSPC", "^DJI"} <= {q["symbol"] for q in quotes} and all(q["symbol"].startswith("^") for q in quotes), quotes
    assert all(-5 <= q["change_percent"] <= 5 for q in quotes), quotes
    one = env.step({"name": "fmp__getIndexQuote", "arguments": {"symbol": "^GSPC"}})
    assert one.ok and one.data["name"] == "S&P 500", one
    stock = env.step({"name": "fmp__getQuote", "arguments": {"symbol": "AAPL"}})
    assert stock.ok and not stock.data["symbol"].startswith("^"), stock


def test_an_updates_add_and_remove_change_the_records_list_and_nothing_else() -> None:
    """Gmail's `modify_message(id, addLabelIds, removeLabelIds)`: the labels given go into (or out of) the
    message's `label_ids`, which its reads show; the message had instead carried `add_label_ids` and kept
    its old labels. A label that does not exist is not found and changes nothing."""
    ids = {"type": "array", "items": S}
    srv = _server("Gmail", [
        _tool("create_label", {"name": S}, ["name"], "Create a label"),
        _tool("send_message", {"to": S, "subject": S, "body": S, "labelIds": ids}, ["to", "subject", "body"], "Send an email"),
        _tool("get_message", {"id": S}, ["id"], "Get a message"),
        _tool("modify_message", {"id": S, "addLabelIds": ids, "removeLabelIds": ids}, ["id"], "Modify the labels on a message")])
    plan = infer_plan(srv, "gmail")
    roles = {p.name: (p.role, p.field) for p in next(t for t in plan.tools if t.name == "modify_message").params}
    assert roles["addLabelIds"] == ("add", "label_ids") and roles["removeLabelIds"] == ("remove", "label_ids"), roles
    assert not {"add_label_ids", "remove_label_ids"} & {f.name for e in plan.entities for f in e.fields}
    env = Environment([build_service(plan)], seed=1)
    a = env.step({"name": "gmail__create_label", "arguments": {"name": "Invoices"}}).data["id"]
    b = env.step({"name": "gmail__create_label", "arguments": {"name": "Urgent"}}).data["id"]
    msg = env.step({"name": "gmail__send_message", "arguments": {"to": "ana@example.com", "subject": "Hi", "body": "x", "labelIds": [a]}}).data
    out = env.step({"name": "gmail__modify_message", "arguments": {"id": msg["id"], "addLabelIds": [b], "removeLabelIds": [a]}})
    assert out.ok and out.data["label_ids"] == [b], out
    assert env.step({"name": "gmail__get_message", "arguments": {"id": msg["id"]}}).data["label_ids"] == [b]
    bad = env.step({"name": "gmail__modify_message", "arguments": {"id": msg["id"], "addLabelIds": ["label_9999"], "removeLabelIds": [b]}})
    assert not bad.ok and "label_9999" in bad.error
    assert env.step({"name": "gmail__get_message", "arguments": {"id": msg["id"]}}).data["label_ids"] == [b]


def test_an_apps_permissions_and_a_documents_conversion_are_what_they_say() -> None:
    """Seed 49 drew Google Play's permissions as documents ("Permission 6, as recorded.") and seed 48
    Pandoc's `convert_contents` answering one document whatever it was given. An app's permissions are
    Android's, with their group; a conversion converts Markdown, HTML and text, and refuses in one line
    a format it cannot write."""
    srv = _server("App Market Intelligence", [
        _tool("google-play-permissions", {"appId": S, "country": {"type": "string", "default": "us"}, "short": {"type": "boolean"}}, ["appId"],
              "Get permissions required by a Google Play app. Returns a list of permissions with:\n- permission: Description of the "
              "permission (e.g., 'modify storage contents')\n- type: Permission category (e.g., 'Storage', 'Network')"),
        _tool("google-play-details", {"appId": S}, ["appId"], "Get detailed information about a Google Play app")])
    srv.description = "Analyze data from the Apple App Store and Google Play Store to gain insights about apps."
    env = Environment([build_service(infer_plan(srv, "apps"))], seed=1)
    perms = env.step({"name": "apps__google_play_permissions", "arguments": {"appId": "com.spotify.music"}}).data["items"]
    assert perms and all(p["type"] in ("Network communication", "Camera", "Microphone", "Location", "Storage", "Contacts", "Other", "Identity")
                         and "as recorded" not in p["permission"] for p in perms), perms
    fmt = {"type": "string", "enum": ["markdown", "html", "pdf", "txt"], "default": "markdown"}
    pandoc = _server("Pandoc", [_tool("convert-contents", {"contents": S, "input_format": fmt, "output_format": fmt, "output_file": S}, [],
                                      "Converts content between different formats.")])
    env = Environment([build_service(infer_plan(pandoc, "pandoc"))], seed=1)

    def convert(args: dict[str, Any]) -> Any:
        return env.step({"name": "pandoc__convert_contents", "arguments": args})

    assert convert({"contents": "# Plan\n\nShip **now**.", "output_format": "html"}).data["content"] == \
        "<h1>Plan</h1>\n<p>Ship <strong>now</strong>.</p>\n"
    assert convert({"contents": "<h2>A</h2><p>b <em>c</em></p>", "input_format": "html", "output_format": "markdown"}).data["content"] == "## A\n\nb *c*"
    assert convert({"contents": "# Plan\n\n- one\n- two", "output_format": "txt"}).data["content"] == "Plan\n\n- one\n- two"
    pdf = convert({"contents": "x", "output_format": "pdf", "output_file": "/tmp/x.pdf"})
    assert not pdf.ok and pdf.error.splitlines() == [pdf.error] and "markdown, html, text" in pdf.error
