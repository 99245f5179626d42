"""`compoworld services ...` and `compoworld serve-mcp`."""

from __future__ import annotations

import argparse

from compoworld.cli._common import print_json, print_rows
from compoworld.errors import UserError


def cmd_list(args: argparse.Namespace) -> int:
    from compoworld.services.registry import all_services

    rows = [cls.info() for cls in all_services(args.origin).values()]
    if args.json:
        print_json(rows)
    else:
        print_rows(rows, ["name", "origin", "domain", "n_tools", "description"])
        print(f"\n{len(rows)} services, {sum(r['n_tools'] for r in rows)} tools")
    return 0


def _unknown_service(names: list[str]) -> UserError:
    return UserError(f"unknown service{'s' if len(names) > 1 else ''} {', '.join(map(repr, names))}; "
                     "list the services with: compoworld services list")


def cmd_show(args: argparse.Namespace) -> int:
    from compoworld.services.registry import get_service

    try:
        cls = get_service(args.name)
    except KeyError:
        raise _unknown_service([args.name]) from None
    if args.json:
        print_json({"tools": [spec.mcp() for spec in cls.tool_specs().values()]})
        return 0
    info = cls.info()
    print(f"{info['name']} ({info['origin']}, {info['domain']}): {info['description']}")
    for spec in cls.tool_specs().values():
        flags = "read  " if spec.read_only else ("write!" if spec.destructive else "write ")
        print(f"  {flags} {spec.name:<28} {spec.description}")
    return 0


def cmd_serve_mcp(args: argparse.Namespace) -> int:
    from compoworld.services.mcp_server import serve
    from compoworld.services.registry import all_services

    names = [s.strip() for s in args.services.split(",") if s.strip()]
    if not names:
        raise UserError("--services names no service; pass comma-separated names from 'compoworld services list'")
    known = all_services()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise _unknown_service(unknown)
    serve(names, seed=args.seed, http=args.http, port=args.port, discover_mode=args.discover_mode)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    services = sub.add_parser("services", help="list and inspect services")
    ssub = services.add_subparsers(dest="services_command", required=True)
    sl = ssub.add_parser("list", help="all services (library and compiled)")
    sl.add_argument("--origin", choices=["all", "library", "compiled"], default="all")
    sl.add_argument("--json", action="store_true")
    sl.set_defaults(func=cmd_list)
    ss = ssub.add_parser("show", help="one service's tools in MCP tools/list form")
    ss.add_argument("name")
    ss.add_argument("--json", action="store_true")
    ss.set_defaults(func=cmd_show)

    mcp = sub.add_parser("serve-mcp", help="serve a composed environment as an MCP server")
    mcp.add_argument("--services", required=True, help="comma-separated service names")
    mcp.add_argument("--seed", type=int, default=0)
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 instead of stdio")
    mcp.add_argument("--port", type=int, default=8765)
    mcp.add_argument("--discover-mode", choices=["direct", "gateway"], default="direct",
                     help="serve every namespaced tool (direct) or four meta-tools that discover and call them (gateway)")
    mcp.set_defaults(func=cmd_serve_mcp)
