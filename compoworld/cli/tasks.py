"""`compoworld tasks generate|show`."""

from __future__ import annotations

import argparse
import json
import sys
import time

from compoworld.cli._common import print_json, print_summary, warehouse
from compoworld.errors import UserError


def task_config(args: argparse.Namespace, n: int):
    """The run config tasks are made under: the config file's, with this command's size, seed and services."""
    from compoworld.config import load_config

    return load_config(getattr(args, "config", None), {"tasks": n, "seed": args.seed, "services_from": args.services_from})


def cmd_generate(args: argparse.Namespace) -> int:
    from compoworld.stages.items import TaskIndex
    from compoworld.stages.runner import make_tasks
    from compoworld.tasks.factory import Rejection, factory_report

    cfg = task_config(args, args.n)
    wh = warehouse(args, cfg.warehouse).create()
    log = (lambda msg: None) if args.json else (lambda msg: print(f"[compoworld] {msg}", file=sys.stderr, flush=True))
    t0 = time.perf_counter()
    tasks, summary = make_tasks(cfg, wh, log)
    seconds = time.perf_counter() - t0
    failures = [f for f in wh.failures("instantiate") if f["run_id"] == cfg.run_id]
    rejected = [Rejection(index=TaskIndex.decode(f["item_id"]).index, phase=f["reason"].removeprefix("rejected_"),
                          reason=f["error"].split(": ", 1)[-1]) for f in failures if f["reason"].startswith("rejected_")]
    report = factory_report(tasks, rejected, seconds)
    out = {**report.model_dump(), "failed": len(failures) - len(rejected), "run_id": cfg.run_id, "warehouse": str(wh.root),
           "walks": summary["walks"]}
    print_summary(out, args.json)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from compoworld.warehouse import task_row

    wh = warehouse(args)
    wh.require_existing()
    row = task_row(wh, args.id)
    if row is None:
        raise UserError(f"no task {args.id!r} in the warehouse at {wh.root}; check the id (the tasks table lists them) "
                        "or make tasks with `compoworld tasks generate`")
    task = row["task_json"]
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
    tg = tsub.add_parser("generate", help="draw walks, design, probe and store tasks (the pipeline's task stages)")
    tg.add_argument("--n", type=int, default=100)
    tg.add_argument("--seed", type=int, default=0)
    tg.add_argument("--services-from", choices=["library", "compiled", "all"], default="library")
    tg.add_argument("--config", help="YAML config for everything else (default: configs/default.yaml)")
    tg.add_argument("--warehouse")
    tg.add_argument("--json", action="store_true")
    tg.set_defaults(func=cmd_generate)
    ts = tsub.add_parser("show", help="one task from the warehouse")
    ts.add_argument("id")
    ts.add_argument("--warehouse")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=cmd_show)
