"""`compoworld rollout`: agents on tasks, scored per criterion, with rewards."""

from __future__ import annotations

import argparse

from compoworld.cli._common import error, print_json


def cmd_rollout(args: argparse.Namespace) -> int:
    from compoworld.rollout.runner import run_rollouts

    task_ids = [t for t in (args.task_ids or []) if t]
    try:
        out = run_rollouts(args.agent, n_tasks=args.tasks, task_ids=task_ids or None, group_size=args.group_size,
                           seed=args.seed, workers=args.workers)
    except KeyError as exc:
        return error(str(exc.args[0]))
    if args.json:
        print_json(out)
    else:
        for key, value in out.items():
            if not isinstance(value, (list, dict)):
                print(f"{key:>22}: {value}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    ro = sub.add_parser("rollout", help="roll out an agent on tasks and score it")
    ro.add_argument("--agent", default="reference", help="reference | perturbed | litellm:MODEL")
    ro.add_argument("--tasks", type=int, help="number of tasks to generate and roll out")
    ro.add_argument("--task-ids", nargs="*", help="only these task ids")
    ro.add_argument("--group-size", type=int, default=8)
    ro.add_argument("--seed", type=int, default=0)
    ro.add_argument("--workers", type=int, default=1, help="concurrent rollouts (for model servers)")
    ro.add_argument("--json", action="store_true")
    ro.set_defaults(func=cmd_rollout)
