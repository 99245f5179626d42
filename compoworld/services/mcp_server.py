"""Serve a composed environment over MCP (FastMCP): stdio by default, streamable HTTP on loopback.

Every namespaced tool of the environment becomes one MCP tool whose inputSchema is the tool
spec's own schema, registered as-is (not re-derived from a Python signature), so an MCP client
sees exactly what `tools_mcp()` and `tools_openai()` describe. Every call goes through
`Environment.step`, the one path agents, tests and benchmarks use, so validation, atomicity and
observation text are the same in and out of process. In gateway mode the server offers the four
meta-tools of `compoworld.services.gateway` instead, and every call goes through `Gateway.step`.

Run: `python -m compoworld.services.mcp_server --services crm,email --seed 7 [--discover-mode gateway]
[--http --port N]`.
"""

from __future__ import annotations

import argparse
from typing import Any, Sequence

from fastmcp import FastMCP
from fastmcp.tools.base import Tool, ToolResult
from mcp_types import TextContent, ToolAnnotations
from pydantic import PrivateAttr

from compoworld.services.environment import DISCOVER_MODES, SEP, DiscoverMode, Environment, compose
from compoworld.services.gateway import Gateway, surface
from compoworld.services.tool import ToolSpec

SIMULATED_META = "compoworld/simulated"
ERROR_KIND_META = "compoworld/error_kind"
LOOPBACK = "127.0.0.1"


def mcp_output_schema(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The output schema if MCP can carry it, else None.

    MCP requires an outputSchema of type object (structured content is always an object), and a
    client rejects a result whose schema does not compile, so anything else is served as text only.
    """
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    from jsonschema.validators import validator_for

    try:
        validator_for(schema).check_schema(schema)
    except Exception:
        return None
    return schema


class EnvTool(Tool):
    """One tool the environment offers (namespaced, or a gateway meta-tool); `run` hands the raw
    arguments to its `step`."""

    _env: Environment | Gateway = PrivateAttr()
    _validator: Any = PrivateAttr(default=None)

    @classmethod
    def build(cls, env: Environment | Gateway, name: str, spec: ToolSpec) -> "EnvTool":
        entry = spec.mcp(name)
        output_schema = mcp_output_schema(spec.output_schema)
        service, sep, bare = name.partition(SEP)
        tool = cls(
            name=name,
            # FastMCP would title-case the raw name ("Crm  Create Company"); say which service instead.
            title=f"{service}: {bare.replace('_', ' ')}" if sep else f"gateway: {name.replace('_', ' ')}",
            description=spec.description,
            parameters=spec.input_schema,
            output_schema=output_schema,
            annotations=ToolAnnotations(
                read_only_hint=spec.read_only,
                destructive_hint=spec.destructive,
                idempotent_hint=spec.idempotent,
            ),
            meta=dict(entry.get("_meta") or {}),
        )
        tool._env = env
        if output_schema is not None:
            from jsonschema.validators import validator_for

            tool._validator = validator_for(output_schema)(output_schema)
        return tool

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        # Synchronous on the event loop on purpose: calls from concurrent sessions are serialized,
        # so one step never interleaves with another on the shared state.
        obs = self._env.step({"name": self.name, "arguments": arguments})
        meta: dict[str, Any] = {SIMULATED_META: obs.simulated}
        text = [TextContent(type="text", text=obs.content)]
        if not obs.ok:
            meta[ERROR_KIND_META] = obs.error_kind
            return ToolResult(content=text, meta=meta, is_error=True)
        structured = obs.data if isinstance(obs.data, dict) else None
        if self._validator is not None:
            # A client drops the whole result when structured content breaks the advertised schema;
            # a service defect must reach the agent as a readable error instead (the step itself
            # succeeded, so any write it made stays).
            problem = next(iter(self._validator.iter_errors(structured)), None) if structured is not None else None
            if structured is None or problem is not None:
                meta[ERROR_KIND_META] = "invalid_output"
                why = problem.message if problem is not None else "the result is not an object"
                msg = f"{self.name} returned output that does not match its output schema: {why}"
                return ToolResult(content=[TextContent(type="text", text=msg)], meta=meta, is_error=True)
        return ToolResult(content=text, structured_content=structured, meta=meta)


def build_server(env: Environment, name: str | None = None, discover_mode: DiscoverMode = "direct") -> FastMCP:
    """An MCP server exposing every namespaced tool of `env` (all calls go through `env.step`), or in
    gateway mode the four meta-tools in front of it (all calls go through `Gateway.step`)."""
    services = list(env.services)
    described = "; ".join(f"{n}: {type(s).description}" for n, s in env.services.items() if getattr(type(s), "description", ""))
    how = ("Tools are named service__tool." if discover_mode == "direct" else
           "Discover the services' tools with list_services, list_tools and describe_tool; run them with call_tool.")
    server = FastMCP(
        name=name or f"compoworld[{','.join(services)}]",
        instructions=f"CompoWorld simulated environment (seed {env.seed}). {how} {described}".strip(),
        # The specs' schemas are already self-contained; serve them byte-for-byte as declared.
        dereference_schemas=False,
        mask_error_details=False,
    )
    offered = surface(env, discover_mode)
    for tool_name, spec in offered.tool_specs().items():
        server.add_tool(EnvTool.build(offered, tool_name, spec))
    return server


def serve(
    services: Sequence[str],
    seed: int,
    http: bool = False,
    port: int = 8765,
    host: str = LOOPBACK,
    scale: float = 1.0,
    discover_mode: DiscoverMode = "direct",
) -> None:
    """Compose `services` with `seed` and serve them over stdio, or streamable HTTP at host:port/mcp."""
    server = build_server(compose(list(services), seed=seed, scale=scale), discover_mode=discover_mode)
    if http:
        server.run(transport="http", host=host, port=port, show_banner=False)
    else:
        server.run(transport="stdio", show_banner=False)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="compoworld.services.mcp_server", description=__doc__.splitlines()[0])
    parser.add_argument("--services", required=True, help="comma-separated service names, e.g. crm,email")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--host", default=LOOPBACK)
    parser.add_argument("--discover-mode", choices=DISCOVER_MODES, default="direct",
                        help="every namespaced tool (direct) or four meta-tools that discover and call them (gateway)")
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.services.split(",") if s.strip()]
    if not names:
        parser.error("--services names no service")
    from compoworld.services.registry import get_service

    for name in names:
        try:
            get_service(name)
        except KeyError:
            parser.error(f"unknown service {name!r}")
    serve(names, args.seed, http=args.http, port=args.port, host=args.host, scale=args.scale,
          discover_mode=args.discover_mode)


if __name__ == "__main__":
    main()
