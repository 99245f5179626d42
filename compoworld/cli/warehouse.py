"""`compoworld sql`, `compoworld warehouse stats` and `compoworld warehouse check`."""

from __future__ import annotations

import argparse

from compoworld.cli._common import existing_warehouse, print_json


def cmd_sql(args: argparse.Namespace) -> int:
    from compoworld.cli._format import render

    result = existing_warehouse(args).read_query(args.query)
    print(render(result, "json" if args.json else "csv" if args.csv else "table"))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    wh = existing_warehouse(args)
    stats = wh.stats()
    # A skipped check (it could not be set up) is neither a pass nor a failure: counted on its own.
    checks = wh.service_check_outcomes()
    if args.json:
        print_json({**stats, **{f"service_checks_{k}": n for k, n in checks.items()}})
        return 0
    for table, n in stats.items():
        outcomes = f" ({', '.join(f'{c:,} {k}' for k, c in checks.items())})" if table == "service_checks" and n else ""
        print(f"{table:>20}: {n:,}{outcomes}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from compoworld.warehouse import TABLES

    wh = existing_warehouse(args)
    damaged = wh.check()
    n_parts = sum(len(wh.part_paths(t)) for t in TABLES)
    if args.json:
        print_json({"warehouse": str(wh.root), "parts": n_parts,
                    "damaged": [{"table": d.table, "run_id": d.run_id, "path": str(d.path), "reason": d.reason} for d in damaged]})
    elif not damaged:
        print(f"{n_parts:,} parts checked, none damaged")
    else:
        for d in damaged:
            print(f"damaged: {d.table} run={d.run_id} {d.path}: {d.reason}")
        print(f"{len(damaged):,} of {n_parts:,} parts damaged: reads skip them and 'compoworld run' "
              "(or 'compoworld retry-failed') rewrites them")
    return 1 if damaged else 0


def register(sub: argparse._SubParsersAction) -> None:
    sql = sub.add_parser("sql", help="run a read-only SQL query over the warehouse")
    sql.add_argument("query", help="one read statement: FROM t, SELECT, WITH, DESCRIBE, SHOW, SUMMARIZE or EXPLAIN")
    sql.add_argument("--warehouse")
    fmt = sql.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    sql.set_defaults(func=cmd_sql)

    wh = sub.add_parser("warehouse", help="warehouse inspection")
    whsub = wh.add_subparsers(dest="warehouse_command", required=True)
    st = whsub.add_parser("stats", help="row counts per table (service checks: passed, failed, skipped)")
    st.add_argument("--warehouse")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_stats)
    ck = whsub.add_parser("check", help="list damaged parts (exit 0: none, 1: some)")
    ck.add_argument("--warehouse")
    ck.add_argument("--json", action="store_true")
    ck.set_defaults(func=cmd_check)
