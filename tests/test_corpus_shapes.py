"""The shapes of MCP tool collections the loader reads, its error for any other shape, and the
schemas of older drafts and recursive schemas it accepts. Every spec is written here for the test
(no corpus entry), one per shape."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from compoworld.cli import main
from compoworld.errors import UserError
from compoworld.services import Environment
from compoworld.services.json_schema import fits, sample
from compoworld.services.sampling import schema_arguments
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import LoadResult, load_specs
from compoworld.synthesis.verify import verify_service

FORECAST = {"name": "get_forecast", "description": "Get the weather forecast for a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
NOTE = {"name": "create_note", "description": "Create a note.",
        "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "body": {"type": "string"}}, "required": ["title"]}}
SEARCH = {"name": "search_web", "description": "Search the web.",
          "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def _load(tmp_path: Path, name: str, doc: Any) -> LoadResult:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return load_specs([path])


def _kept(res: LoadResult) -> dict[str, tuple[list[str], list[str]]]:
    """Server name -> (tool names, categories); and nothing rejected."""
    assert not res.rejections, res.rejections
    return {s.name: ([t.name for t in s.tools], s.categories) for s in res.servers}


# -- one test per shape ----------------------------------------------------------------------------

def test_a_list_of_servers_as_json_and_as_json_lines(tmp_path: Path) -> None:
    servers = [{"id": "x/weather", "name": "Weather", "tools": [FORECAST]}, {"id": "x/notes", "name": "Notes", "tools": [NOTE]}]
    assert _kept(_load(tmp_path, "list.json", servers)) == {"Weather": (["get_forecast"], []), "Notes": (["create_note"], [])}
    lines = tmp_path / "servers.jsonl.gz"
    lines.write_bytes(gzip.compress(b"\n".join(json.dumps(s).encode() for s in servers)))
    assert _kept(load_specs([lines])) == {"Weather": (["get_forecast"], []), "Notes": (["create_note"], [])}


def test_servers_keyed_by_name(tmp_path: Path) -> None:
    """The held-out collection's shape, whose every server was once rejected with "tools is not a list"."""
    doc = {"Weather": {"description": "Forecasts.", "tools": [FORECAST]}, "Notes": {"tools": [NOTE]}}
    res = _load(tmp_path, "by_name.json", doc)
    assert _kept(res) == {"Weather": (["get_forecast"], []), "Notes": (["create_note"], [])}
    assert [s.id for s in res.servers] == ["by_name/Weather", "by_name/Notes"]
    assert res.servers[0].description == "Forecasts."


def test_servers_nested_in_groups(tmp_path: Path) -> None:
    groups = {"groups": [{"name": "Weather & Maps", "servers": [{"name": "Weather", "tools": [FORECAST]}]},
                         {"name": "Productivity", "servers": {"Notes": {"tools": [NOTE]}}}]}
    assert _kept(_load(tmp_path, "groups.json", groups)) == {
        "Weather": (["get_forecast"], ["Weather & Maps"]), "Notes": (["create_note"], ["Productivity"])}
    by_category = {"Research": {"Search": {"tools": [SEARCH]}}, "Productivity": {"Notes": {"categories": ["Writing"], "tools": [NOTE]}}}
    assert _kept(_load(tmp_path, "categories.json", by_category)) == {
        "Search": (["search_web"], ["Research"]), "Notes": (["create_note"], ["Writing"])}  # a server's own categories win


def test_a_tools_list_result_and_a_json_rpc_reply(tmp_path: Path) -> None:
    assert _kept(_load(tmp_path, "weather_api.json", {"tools": [FORECAST]})) == {"weather_api": (["get_forecast"], [])}
    reply = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [FORECAST, SEARCH], "nextCursor": None}}
    assert _kept(_load(tmp_path, "rpc.json", reply)) == {"rpc": (["get_forecast", "search_web"], [])}
    assert _kept(_load(tmp_path, "bare.json", [FORECAST, NOTE])) == {"bare": (["get_forecast", "create_note"], [])}


def test_a_single_server_and_tools_keyed_by_name(tmp_path: Path) -> None:
    server = {"name": "Weather", "description": "Forecasts.", "tools": [FORECAST]}
    assert _kept(_load(tmp_path, "one.json", server)) == {"Weather": (["get_forecast"], [])}
    keyed = {"name": "Notes", "tools": {"create_note": {k: v for k, v in NOTE.items() if k != "name"}}}
    assert _kept(_load(tmp_path, "keyed_tools.json", keyed)) == {"Notes": (["create_note"], [])}


def test_an_unknown_shape_is_an_error_naming_the_accepted_shapes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"version": 3, "theme": {"dark": True}, "plugins": ["a", "b"]}))
    with pytest.raises(UserError) as exc:
        load_specs([path])
    message = str(exc.value)
    assert str(path) in message and "\n" not in message
    for shape in ("a list of servers", "mapping server names to servers", "nested in groups", "a tools/list result",
                  "JSON-RPC reply", "a single server"):
        assert shape in message
    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["synth", "--specs", str(path)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("error: ") and "a tools/list result" in err[0]
    assert not (tmp_path / "cache" / "synth").exists()


# -- schemas --------------------------------------------------------------------------------------

DRAFT_04 = {"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/convert.json", "type": "object",
            "properties": {"amount": {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 1000000,
                                      "exclusiveMaximum": False},
                           "target": {"$ref": "#/definitions/currency"}},
            "required": ["amount", "target"],
            "definitions": {"currency": {"id": "#currency", "type": "string", "enum": ["EUR", "USD", "JPY"]}}}


def _compile(tmp_path: Path, tools: list[dict[str, Any]], name: str) -> tuple[Any, type[Any]]:
    """Load a one-server spec file (nothing rejected) and build its service."""
    res = _load(tmp_path, f"{name}.json", {"name": name, "tools": tools})
    assert not res.rejections, res.rejections
    (server,) = res.servers
    return server, build_service(infer_plan(server, name))


def test_draft_04_schemas_are_normalized_not_rejected(tmp_path: Path) -> None:
    tool = {"name": "convert_amount", "description": "Convert an amount of money into another currency.", "inputSchema": DRAFT_04}
    server, cls = _compile(tmp_path, [tool], "money_box")
    schema = server.tools[0].input_schema
    amount = schema["properties"]["amount"]
    assert amount["exclusiveMinimum"] == 0 and "minimum" not in amount  # draft-04's boolean flag, as a bound
    assert amount["maximum"] == 1000000 and "exclusiveMaximum" not in amount
    assert schema["properties"]["target"] == {"type": "string", "enum": ["EUR", "USD", "JPY"]}  # `definitions` resolved
    assert "id" not in schema and "definitions" not in schema and schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    env = Environment([cls], seed=1)
    zero = env.step({"name": "money_box__convert_amount", "arguments": {"amount": 0, "target": "EUR"}})
    assert zero.error_kind == "invalid_arguments" and zero.error == "argument 'amount' must be greater than 0 (got 0)"
    assert env.step({"name": "money_box__convert_amount", "arguments": {"amount": 12.5, "target": "EUR"}}).error_kind != "invalid_arguments"
    # Without a declared draft, a boolean bound is read the same way (later drafts would reject it).
    undeclared = {k: v for k, v in DRAFT_04.items() if k not in ("$schema", "id")}
    server, _ = _compile(tmp_path, [{**tool, "inputSchema": undeclared}], "money_box_2")
    assert server.tools[0].input_schema["properties"]["amount"]["exclusiveMinimum"] == 0


def test_parameters_written_beside_properties_are_the_tools_parameters(tmp_path: Path) -> None:
    """Gmail AutoAuth, Excel and DICOM wrote their parameters next to an empty `properties`: the tools
    took no argument at all (`delete_worksheet` could name no sheet). They are lifted into `properties`,
    required only where `required` says so, and a stray keyword of JSON Schema stays what it is."""
    stray = {"type": "object", "properties": {}, "additionalProperties": False,
             "filepath": {"type": "string", "description": "Path to the Excel file"},
             "sheet_name": {"type": "string", "description": "Name of the sheet to delete"}, "required": ["filepath"]}
    tools = [{"name": "create_worksheet", "description": "Create a new worksheet in a workbook.",
              "inputSchema": {"type": "object", "properties": {"filepath": {"type": "string"}, "sheet_name": {"type": "string"}}}},
             {"name": "delete_worksheet", "description": "Delete a worksheet from a workbook.", "inputSchema": stray}]
    server, cls = _compile(tmp_path, tools, "sheets")
    schema = server.tools[1].input_schema
    assert set(schema["properties"]) == {"filepath", "sheet_name"} and schema["required"] == ["filepath"]
    assert schema["additionalProperties"] is False and "filepath" not in {k for k in schema if k != "properties"} - {"required"}
    env = Environment([cls], seed=1)
    made = env.step({"name": "sheets__create_worksheet", "arguments": {"filepath": "/books/q3.xlsx", "sheet_name": "Budget"}})
    assert made.ok, made.error
    gone = env.step({"name": "sheets__delete_worksheet", "arguments": {"filepath": "/books/q3.xlsx", "sheet_name": "Budget"}})
    assert gone.ok, gone.error
    again = env.step({"name": "sheets__delete_worksheet", "arguments": {"filepath": "/books/q3.xlsx", "sheet_name": "Budget"}})
    assert again.error_kind == "not_found"  # the sheet it named is gone: a delete, not a logged action
    assert env.step({"name": "sheets__delete_worksheet", "arguments": {"sheet_name": "Budget"}}).error_kind == "invalid_arguments"


TREE = {"type": "object", "properties": {"name": {"type": "string"}, "root": {"$ref": "#/$defs/section"}},
        "required": ["name", "root"],
        "$defs": {"section": {"type": "object", "properties": {"title": {"type": "string"},
                                                               "children": {"type": "array", "items": {"$ref": "#/$defs/section"}}},
                              "required": ["title"]}}}
OUTLINE_TOOLS = [{"name": "create_outline", "description": "Create an outline: a tree of sections.", "inputSchema": TREE},
                 {"name": "get_outline", "description": "Get one outline by id.",
                  "inputSchema": {"type": "object", "properties": {"outline_id": {"type": "string"}}, "required": ["outline_id"]}}]


def _tree(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"title": f"level {depth}"}
    return node if depth == 0 else {**node, "children": [_tree(depth - 1)]}


def test_a_recursive_schema_compiles_validates_samples_and_round_trips(tmp_path: Path) -> None:
    server, cls = _compile(tmp_path, OUTLINE_TOOLS, "outlines")
    schema = server.tools[0].input_schema
    assert "$defs" not in json.dumps(schema) and "$ref" not in json.dumps(schema)  # agents get a self-contained schema
    env = Environment([cls], seed=1)
    tree = _tree(5)  # deeper than the levels spelled out: the deepest ones are checked for their type only
    made = env.step({"name": "outlines__create_outline", "arguments": {"name": "Launch plan", "root": tree}})
    assert made.ok, made.error
    got = env.step({"name": "outlines__get_outline", "arguments": {"outline_id": made.data["id"]}})
    assert got.ok and got.data["root"] == tree
    bad = env.step({"name": "outlines__create_outline", "arguments": {"name": "x", "root": {"title": "A", "children": [{"title": 5}]}}})
    assert bad.error == "argument 'root.children[0].title' must be a string (got 5)"
    bad = env.step({"name": "outlines__create_outline", "arguments": {"name": "x", "root": {"title": "A", "children": [{}]}}})
    assert bad.error == "argument 'root.children[0]' is missing required field 'title'"
    spec = env.tool_specs()["outlines__create_outline"]
    args = schema_arguments(spec, env, "outlines", random.Random(3))
    assert args is not None and fits(schema, args)
    assert isinstance(sample(schema, random.Random(4)), dict)  # terminates
    verdict = verify_service(cls)
    assert verdict.verified, [c for c in verdict.checks if c.status == "fail"]
