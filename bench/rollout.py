"""Rollout throughput: environment steps per second for reference-teacher rollouts over a batch of tasks.

Tasks come from the task factory (not timed). Two figures: end to end (fresh environment in the
task's initial state, the episode, rubric scoring, the trajectory record and its content hash) and
the episode alone (the agent's tool calls through `Environment.step`). One core, as bench/env_step.py.

    python bench/rollout.py [--json] [--tasks N] [--group-size G] [--agent reference|perturbed] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from compoworld.rollout import PerturbedPolicy, ReferenceTeacher, collect, summarize
from compoworld.rollout.runner import classes_for
from compoworld.tasks.factory import TaskConfig, generate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tasks", type=int, default=100, help="tasks to design (accepted ones are rolled out)")
    ap.add_argument("--group-size", type=int, default=4)
    ap.add_argument("--agent", choices=["reference", "perturbed"], default="reference")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    tasks, _, _ = generate(TaskConfig(n=args.tasks, seed=args.seed))
    classes = classes_for(tasks)
    agent = ReferenceTeacher() if args.agent == "reference" else PerturbedPolicy(seed=args.seed)
    collect(tasks[:5], agent, group_size=1, classes=classes)  # warm the seeded-state cache and imports
    t0 = time.perf_counter()
    trajs = collect(tasks, agent, group_size=args.group_size, seed=args.seed, classes=classes)
    wall = time.perf_counter() - t0
    s = summarize(trajs, seconds=wall)
    episode_s = sum(t.elapsed_s for t in trajs)
    out = {
        "agent": args.agent,
        "tasks": len(tasks),
        "trajectories": s["trajectories"],
        "steps": s["steps"],
        "success_rate": s["success_rate"],
        "mean_partial_credit": s["mean_partial_credit"],
        "steps_per_second": s["steps_per_second"],
        "episode_steps_per_second": round(s["steps"] / episode_s, 1) if episode_s else 0.0,
        "rollouts_per_second": round(len(trajs) / wall, 1),
        "ms_per_rollout": round(1000 * wall / max(len(trajs), 1), 3),
        "seconds": round(wall, 3),
        # GRPO learns only from groups whose rewards differ: tasks whose rollouts got different partial credit
        "groups_with_spread": sum(len({t.partial_credit for t in trajs if t.task_id == task.id}) > 1 for task in tasks),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['trajectories']} {args.agent} rollouts on {out['tasks']} tasks, {out['steps']} tool calls, "
              f"success {out['success_rate']:.1%}, partial credit {out['mean_partial_credit']:.3f}")
        print(f"steps/s end to end   {out['steps_per_second']:>10,.1f}   (fresh env + episode + scoring + record)")
        print(f"steps/s in episodes  {out['episode_steps_per_second']:>10,.1f}   (the agent's tool calls only)")
        print(f"rollouts/s           {out['rollouts_per_second']:>10,.1f}   ({out['ms_per_rollout']} ms each)")
        print(f"groups with spread   {out['groups_with_spread']:>10} of {out['tasks']}")


if __name__ == "__main__":
    main()
