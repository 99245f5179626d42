"""`compoworld rollout`: agents on tasks, scored per criterion, with rewards."""

from __future__ import annotations

import argparse
import sys

from compoworld.cli._common import print_summary, warehouse
from compoworld.errors import UserError


def tasks_for(args: argparse.Namespace) -> list:
    """The tasks to roll out: those ids from the warehouse, or `--tasks N` made the one way (the
    task stages, stored in the warehouse)."""
    from compoworld.stages.runner import make_tasks
    from compoworld.tasks.model import Task
    from compoworld.warehouse import task_row

    from compoworld.cli.tasks import task_config

    if args.task_ids:
        wh = warehouse(args)
        wh.require_existing()
        found = {i: task_row(wh, i) for i in args.task_ids}
        missing = [i for i, row in found.items() if row is None]
        if missing:
            raise UserError(f"no task {', '.join(missing)} in the warehouse at {wh.root}; check the ids (the tasks "
                            "table lists them), make tasks with `compoworld tasks generate`, or pass --tasks N")
        return [Task.model_validate_json(row["task_json"]) for row in found.values() if row is not None]
    cfg = task_config(args, args.tasks or 10)
    tasks, _ = make_tasks(cfg, warehouse(args, cfg.warehouse).create(), log=lambda msg: None)
    if not tasks:
        raise UserError(f"no task could be made from {cfg.tasks} designs (seed {args.seed}); see the failures table")
    return tasks


def cmd_rollout(args: argparse.Namespace) -> int:
    from compoworld.rollout.agents import make_agent
    from compoworld.rollout.runner import run_rollouts

    try:
        make_agent(args.agent, seed=args.seed)  # an unknown agent is refused before any task is made
    except ValueError as exc:
        raise UserError(str(exc)) from None
    tasks = tasks_for(args)
    print(f"[compoworld] rolling out {args.agent} on {len(tasks)} task(s) x {args.group_size}", file=sys.stderr, flush=True)
    out = run_rollouts(args.agent, tasks=tasks, group_size=args.group_size, seed=args.seed, workers=args.workers,
                       discover_mode=args.discover_mode)
    print_summary(out, args.json)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    ro = sub.add_parser("rollout", help="roll out an agent on tasks and score it")
    ro.add_argument("--agent", default="reference", help="reference | perturbed | litellm:MODEL")
    ro.add_argument("--tasks", type=int, help="make this many tasks (the task stages; default 10) and roll out on them")
    ro.add_argument("--task-ids", nargs="*", help="only these task ids, read from the warehouse")
    ro.add_argument("--services-from", choices=["library", "compiled", "all"], default="library")
    ro.add_argument("--group-size", type=int, default=8)
    ro.add_argument("--seed", type=int, default=0)
    ro.add_argument("--workers", type=int, default=1, help="concurrent rollouts (for model servers)")
    ro.add_argument("--discover-mode", choices=["direct", "gateway"], default="direct",
                    help="what the agent is given: every tool (direct) or four meta-tools that discover and call them (gateway)")
    ro.add_argument("--config", help="YAML config for everything else (default: configs/default.yaml)")
    ro.add_argument("--warehouse")
    ro.add_argument("--json", action="store_true")
    ro.set_defaults(func=cmd_rollout)
