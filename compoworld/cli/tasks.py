"""`compoworld tasks generate|show`."""

from __future__ import annotations

import argparse
import json

from compoworld.cli._common import error, print_json, progress, warehouse


def cmd_generate(args: argparse.Namespace) -> int:
    from compoworld.tasks.factory import TaskConfig, generate
    from compoworld.tasks.records import task_rows
    from compoworld.warehouse import dedupe

    cfg = TaskConfig(n=args.n, seed=args.seed, services_from=args.services_from)
    bar = progress(cfg.n, "designing tasks")
    tasks, _, report = generate(cfg, progress=bar.update)
    bar.close()
    wh = warehouse(args)
    run_id = f"tasks-{args.services_from}-s{args.seed}-n{args.n}"
    tables: dict[str, list[dict]] = {}
    for task in tasks:
        for table, rows in task_rows(task).items():
            tables.setdefault(table, []).extend(rows)
    for table, rows in tables.items():
        wh.write(table, dedupe(table, rows), run_id=run_id, part="all")
    out = {**report.model_dump(), "run_id": run_id, "warehouse": str(wh.root)}
    if args.json:
        print_json(out)
    else:
        for key, value in out.items():
            print(f"{key:>22}: {value}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    rows = warehouse(args).query("SELECT task_json FROM tasks WHERE task_id = ? LIMIT 1", [args.id])
    if not rows:
        return error(f"no task {args.id} in the warehouse (run `compoworld tasks generate` first)")
    task = rows[0]["task_json"]
    task = json.loads(task) if isinstance(task, str) else task
    if args.json:
        print_json(task)
        return 0
    print(task["instruction"])
    for i, step in enumerate(task["plan"]):
        print(f"  {i:2d}. {step['tool']} {json.dumps(step['arguments'])}")
    for c in task["rubric"]:
        print(f"  [{c['kind']}] {c['description']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    tasks = sub.add_parser("tasks", help="generate and inspect cross-service tasks")
    tsub = tasks.add_subparsers(dest="tasks_command", required=True)
    tg = tsub.add_parser("generate", help="sample walks, design, probe and store tasks")
    tg.add_argument("--n", type=int, default=100)
    tg.add_argument("--seed", type=int, default=0)
    tg.add_argument("--services-from", choices=["library", "compiled", "all"], default="library")
    tg.add_argument("--warehouse")
    tg.add_argument("--json", action="store_true")
    tg.set_defaults(func=cmd_generate)
    ts = tsub.add_parser("show", help="one task from the warehouse")
    ts.add_argument("id")
    ts.add_argument("--warehouse")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=cmd_show)
