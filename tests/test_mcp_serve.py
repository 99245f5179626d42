"""Serving a composed environment over MCP: the official client over real transports, FastMCP in memory."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable

import orjson
import pytest
from fastmcp import Client
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from typing_extensions import TypedDict

from compoworld.services import Collection, Environment, Service, ToolError, compose, tool
from compoworld.services.gateway import META_SPECS, META_TOOLS
from compoworld.services.mcp_server import ERROR_KIND_META, SIMULATED_META, build_server, mcp_output_schema

ROOT = Path(__file__).resolve().parents[1]
SERVER_ARGS = ["-m", "compoworld.services.mcp_server", "--services", "crm", "--seed", "7"]
NEW_EMAIL = "zelda.quintero@example.org"


def _entries(tools: Iterable[Any]) -> dict[str, dict[str, Any]]:
    return {t.name: t.model_dump(by_alias=True, exclude_none=True) for t in tools}


def _text(result: Any) -> str:
    return "".join(c.text for c in result.content if c.type == "text")


async def _exercise(session: ClientSession) -> None:
    """What every real transport must support: list, read, write, read back, and fail cleanly."""
    listed = _entries((await session.list_tools()).tools)
    expected = compose(["crm"], seed=7).tools_mcp()["tools"]
    assert set(listed) == {t["name"] for t in expected}
    for spec in expected:
        got = listed[spec["name"]]
        assert got["inputSchema"] == spec["inputSchema"]
        assert got["description"] == spec["description"]
        assert got["annotations"] == spec["annotations"]
        assert got.get("outputSchema") == spec["outputSchema"]  # crm's outputs are all objects
    assert listed["crm__delete_contact"]["annotations"]["destructiveHint"] is True
    assert listed["crm__search_companies"]["annotations"]["readOnlyHint"] is True

    companies = await session.call_tool("crm__search_companies", {"limit": 3})
    assert not companies.is_error
    assert companies.structured_content["total"] > 3
    assert orjson.loads(_text(companies)) == companies.structured_content
    company_id = companies.structured_content["items"][0]["id"]

    before = await session.call_tool("crm__search_contacts", {"query": NEW_EMAIL})
    assert before.structured_content["items"] == []
    created = await session.call_tool(
        "crm__create_contact", {"company_id": company_id, "name": "Zelda Quintero", "email": NEW_EMAIL}
    )
    assert not created.is_error, _text(created)
    assert created.meta[SIMULATED_META] is False
    new_id = created.structured_content["id"]
    after = await session.call_tool("crm__search_contacts", {"query": NEW_EMAIL})
    assert [c["id"] for c in after.structured_content["items"]] == [new_id]
    fetched = await session.call_tool("crm__get_contact", {"contact_id": new_id})
    assert fetched.structured_content["company_id"] == company_id

    duplicate = await session.call_tool(
        "crm__create_contact", {"company_id": company_id, "name": "Zelda Again", "email": NEW_EMAIL}
    )
    assert duplicate.is_error and "already exists" in _text(duplicate)
    bad = await session.call_tool("crm__create_contact", {"company_id": company_id, "nickname": "Z"})
    assert bad.is_error
    assert "name: is required" in _text(bad) and "nickname: is not a parameter" in _text(bad)
    assert bad.meta[ERROR_KIND_META] == "invalid_arguments"
    unknown = await session.call_tool("crm__no_such_tool", {})
    assert unknown.is_error
    # Failed calls changed nothing: still exactly one contact with that email.
    again = await session.call_tool("crm__search_contacts", {"query": NEW_EMAIL})
    assert again.structured_content["total"] == 1


@pytest.mark.integration
def test_stdio_official_client_lists_reads_writes_and_errors() -> None:
    params = StdioServerParameters(command=sys.executable, args=SERVER_ARGS, cwd=str(ROOT), env=dict(os.environ))

    async def go() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await _exercise(session)

    asyncio.run(asyncio.wait_for(go(), timeout=60))


@pytest.mark.integration
def test_stdio_gateway_mode_offers_the_meta_tools() -> None:
    params = StdioServerParameters(command=sys.executable, args=[*SERVER_ARGS, "--discover-mode", "gateway"], cwd=str(ROOT),
                                   env=dict(os.environ))

    async def go() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            assert [t.name for t in (await session.list_tools()).tools] == list(META_TOOLS)
            found = await session.call_tool("call_tool", {"tool_name": "crm__search_companies", "arguments": {"limit": 2}})
            assert not found.is_error and len(found.structured_content["items"]) == 2

    asyncio.run(asyncio.wait_for(go(), timeout=60))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(proc: subprocess.Popen[bytes], port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited early: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("server did not start listening")


@pytest.mark.integration
def test_streamable_http_official_client_on_loopback() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, *SERVER_ARGS, "--http", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        _wait_listening(proc, port)

        async def go() -> None:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                await _exercise(session)

        asyncio.run(asyncio.wait_for(go(), timeout=60))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- in memory: the same server object, FastMCP's client -------------------------------------------

class Note(TypedDict):
    id: str
    text: str


class Notes(Service):
    """A tiny service with the tool shapes crm lacks: world-model, non-object output, a defect."""

    name = "mcpnotes"  # unique: the initial-state cache is keyed by service name
    description = "Notes for tests."
    tables = {"notes": Collection(Note, "note", "nt")}

    def generate(self, gen: Any) -> dict[str, list[dict]]:
        return {"notes": [{"id": "nt_0001", "text": "hello"}]}

    @tool(kind="world_model")
    def summarize(self, note_id: str) -> Note:
        """Summarize a note (simulated).

        Args:
            note_id: The note.
        """
        return self.db["notes"].insert({"text": f"summary of {self.db['notes'].require(note_id)['text']}"})

    @tool(read_only=True)
    def texts(self) -> list[str]:
        """All note texts."""
        return [n["text"] for n in self.db["notes"]]

    @tool
    def broken(self) -> Note:
        """Writes a note but returns a record missing a required field."""
        self.db["notes"].insert({"text": "orphan"})
        return {"id": "nt_x"}  # type: ignore[typeddict-item]

    @tool
    def refuse(self) -> Note:
        """Always refuses after writing (the write must roll back)."""
        self.db["notes"].insert({"text": "never"})
        raise ToolError("refused on purpose")


def _call(env: Environment, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def go() -> list[Any]:
        async with Client(build_server(env)) as client:
            return [await client.call_tool_mcp(name, args) for name, args in calls]

    return asyncio.run(go())


def test_world_model_results_are_marked_simulated_and_non_object_outputs_are_text_only() -> None:
    env = Environment([Notes], seed=1)

    async def listing() -> dict[str, dict[str, Any]]:
        async with Client(build_server(env)) as client:
            return _entries(await client.list_tools())

    listed = asyncio.run(listing())
    assert listed["mcpnotes__summarize"]["_meta"]["compoworld/implementation"] == "world_model"
    assert "outputSchema" not in listed["mcpnotes__texts"]  # an array: MCP outputs must be objects
    assert listed["mcpnotes__texts"]["inputSchema"] == env.tool_specs()["mcpnotes__texts"].input_schema

    summary, texts = _call(env, [("mcpnotes__summarize", {"note_id": "nt_0001"}), ("mcpnotes__texts", {})])
    assert not summary.is_error and summary.meta[SIMULATED_META] is True
    assert summary.structured_content["text"] == "summary of hello"
    assert not texts.is_error and texts.meta[SIMULATED_META] is False
    assert texts.structured_content is None
    assert orjson.loads(_text(texts)) == ["hello", "summary of hello"]


def test_errors_are_tool_errors_and_rollback_holds_through_mcp() -> None:
    env = Environment([Notes], seed=1)
    start = env.state_hash()
    refused, mistyped, missing = _call(env, [
        ("mcpnotes__refuse", {}), ("mcpnotes__summarize", {"note_id": 5}), ("mcpnotes__summarize", {"note_id": "nt_0404"}),
    ])
    assert refused.is_error and "refused on purpose" in _text(refused)
    assert refused.meta[ERROR_KIND_META] == "business_rule"
    assert mistyped.is_error and mistyped.meta[ERROR_KIND_META] == "invalid_arguments" and "note_id" in _text(mistyped)
    assert missing.is_error and missing.meta[ERROR_KIND_META] == "not_found" and "nt_0404" in _text(missing)
    assert env.state_hash() == start

    (broken,) = _call(env, [("mcpnotes__broken", {})])
    assert broken.is_error and broken.meta[ERROR_KIND_META] == "invalid_output"
    assert "text" in _text(broken)


def test_mcp_calls_reach_the_same_state_as_direct_steps() -> None:
    calls = [
        ("crm__create_company", {"name": "Tessellate Labs", "domain": "tessellate.dev"}),
        ("crm__create_company", {"name": "Tessellate Labs", "domain": "dup.dev"}),  # rejected: duplicate
        ("crm__update_deal_stage", {"deal_id": "deal_0001", "stage": "closed_won"}),
    ]
    served, direct = compose(["crm"], seed=7), compose(["crm"], seed=7)
    results = _call(served, calls)
    observations = [direct.step({"name": n, "arguments": a}) for n, a in calls]
    assert [r.is_error for r in results] == [not o.ok for o in observations]
    assert [_text(r) for r in results] == [o.content for o in observations]
    assert served.state_hash() == direct.state_hash() != compose(["crm"], seed=7).state_hash()


def test_gateway_mode_serves_the_four_meta_tools_and_calls_through() -> None:
    served, direct = compose(["crm", "email"], seed=7), compose(["crm", "email"], seed=7)
    calls = [
        ("crm__create_company", {"name": "Tessellate Labs", "domain": "tessellate.dev"}),
        ("crm__create_company", {"name": "Tessellate Labs", "domain": "dup.dev"}),  # rejected: duplicate
        ("crm__create_company", {"title": "No name"}),  # bad arguments
        ("crm__no_such_tool", {}),
    ]

    async def go() -> tuple[dict[str, Any], list[Any], list[Any]]:
        async with Client(build_server(served, discover_mode="gateway")) as client:
            listed = _entries(await client.list_tools())
            discovered = [await client.call_tool_mcp(n, a) for n, a in [
                ("list_services", {}), ("list_tools", {"service": "crm"}), ("describe_tool", {"tool": "crm__create_company"}),
                ("list_tools", {"service": "nowhere"}), ("crm__create_company", {"name": "Direct"})]]
            results = [await client.call_tool_mcp("call_tool", {"tool_name": n, "arguments": a}) for n, a in calls]
            return listed, discovered, results

    listed, discovered, results = asyncio.run(go())
    assert list(listed) == list(META_TOOLS)
    for name, entry in listed.items():
        assert entry["inputSchema"] == META_SPECS[name].input_schema
        assert entry["annotations"]["readOnlyHint"] is (name != "call_tool")
    services, tools, described, unknown_service, not_a_meta_tool = discovered
    assert [s["name"] for s in services.structured_content["services"]] == ["crm", "email"]
    assert list(tools.structured_content["tools"]) == [n.removeprefix("crm__") for n in served.tool_specs() if n.startswith("crm__")]
    assert described.structured_content["input_schema"] == served.tool_specs()["crm__create_company"].input_schema
    assert unknown_service.is_error and unknown_service.meta[ERROR_KIND_META] == "not_found"
    assert not_a_meta_tool.is_error  # not served: the MCP server itself refuses it, as any unknown tool
    observations = [direct.step({"name": n, "arguments": a}) for n, a in calls]
    assert [_text(r) for r in results] == [o.content for o in observations]
    assert [r.meta.get(ERROR_KIND_META) for r in results] == [o.error_kind for o in observations]
    assert [o.error_kind for o in observations] == [None, "business_rule", "invalid_arguments", "unknown_tool"]
    assert served.state_hash() == direct.state_hash()


def test_mcp_output_schema_accepts_only_valid_object_schemas() -> None:
    obj = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert mcp_output_schema(obj) is obj
    assert mcp_output_schema({"type": "array", "items": {"type": "string"}}) is None
    assert mcp_output_schema({"anyOf": [obj, {"type": "null"}]}) is None
    assert mcp_output_schema({"type": "object", "properties": {"a": {"type": 5}}}) is None
    assert mcp_output_schema(None) is None
