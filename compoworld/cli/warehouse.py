"""`compoworld sql` and `compoworld warehouse stats`."""

from __future__ import annotations

import argparse

from compoworld.cli._common import print_json, warehouse


def cmd_sql(args: argparse.Namespace) -> int:
    from compoworld.warehouse import render

    result = warehouse(args).fetch(args.query)
    print(render(result, "json" if args.json else "csv" if args.csv else "table"))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    stats = warehouse(args).stats()
    if args.json:
        print_json(stats)
    else:
        for table, n in stats.items():
            print(f"{table:>20}: {n}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    sql = sub.add_parser("sql", help="run a SQL query over the warehouse")
    sql.add_argument("query")
    sql.add_argument("--warehouse")
    fmt = sql.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    sql.set_defaults(func=cmd_sql)

    wh = sub.add_parser("warehouse", help="warehouse inspection")
    whsub = wh.add_subparsers(dest="warehouse_command", required=True)
    st = whsub.add_parser("stats", help="row counts per table")
    st.add_argument("--warehouse")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_stats)
