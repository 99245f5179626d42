"""`compoworld ...`: the command line over the library. Thin: parse, call, print."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

Handler = Callable[[argparse.Namespace], int]


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=None, default=str))


def _print_rows(rows: list[dict[str, Any]], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) if rows else len(c) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in columns))


# -- services -----------------------------------------------------------------------------------------
def cmd_services_list(args: argparse.Namespace) -> int:
    from compoworld.services.registry import all_services

    rows = [cls.info() for cls in all_services(args.origin).values()]
    if args.json:
        _print_json(rows)
    else:
        _print_rows(rows, ["name", "origin", "domain", "n_tools", "description"])
        print(f"\n{len(rows)} services, {sum(r['n_tools'] for r in rows)} tools")
    return 0


def cmd_services_show(args: argparse.Namespace) -> int:
    from compoworld.services.registry import get_service

    try:
        cls = get_service(args.name)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    listing = {"tools": [spec.mcp() for spec in cls.tool_specs().values()]}
    if args.json:
        _print_json(listing)
    else:
        info = cls.info()
        print(f"{info['name']} ({info['origin']}, {info['domain']}): {info['description']}")
        for spec in cls.tool_specs().values():
            flags = "read " if spec.read_only else ("write!" if spec.destructive else "write ")
            print(f"  {flags} {spec.name:<28} {spec.description}")
    return 0


def cmd_serve_mcp(args: argparse.Namespace) -> int:
    from compoworld.services.mcp_server import serve

    serve([s for s in args.services.split(",") if s], seed=args.seed, http=args.http, port=args.port)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A scripted episode over composed services: what the foundation can do end to end."""
    from compoworld.demo import scripted_episode

    scripted_episode(seed=args.seed, out=print)
    return 0


# -- parser -------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="compoworld", description="CompoWorld: verified cross-service tasks, trajectories and rewards.")
    sub = p.add_subparsers(dest="command", required=True)

    services = sub.add_parser("services", help="list and inspect services")
    ssub = services.add_subparsers(dest="services_command", required=True)
    sl = ssub.add_parser("list", help="all services (library and compiled)")
    sl.add_argument("--origin", choices=["all", "library", "compiled"], default="all")
    sl.add_argument("--json", action="store_true")
    sl.set_defaults(func=cmd_services_list)
    ss = ssub.add_parser("show", help="one service's tools in MCP tools/list form")
    ss.add_argument("name")
    ss.add_argument("--json", action="store_true")
    ss.set_defaults(func=cmd_services_show)

    mcp = sub.add_parser("serve-mcp", help="serve a composed environment as an MCP server")
    mcp.add_argument("--services", required=True, help="comma-separated service names")
    mcp.add_argument("--seed", type=int, default=0)
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 instead of stdio")
    mcp.add_argument("--port", type=int, default=8765)
    mcp.set_defaults(func=cmd_serve_mcp)

    demo = sub.add_parser("demo", help="play a scripted cross-service episode")
    demo.add_argument("--seed", type=int, default=7)
    demo.set_defaults(func=cmd_demo)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler = args.func
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
