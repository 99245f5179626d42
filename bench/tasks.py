"""Task factory throughput and quality: accepted tasks per second and the acceptance figures.

    python bench/tasks.py [--n 1000] [--seed 0] [--services-from library] [--json]
                          [--no-mutation-test] [--allow-surviving-mutants]

Besides throughput and acceptance it prints the quality measures of issue 11 (mutation score,
dangling lookups, step-list share, world violations, graph density, ...): see `FactoryReport`.
"""

from __future__ import annotations

import argparse
import json
import time

from compoworld.tasks.factory import TaskConfig, generate
from compoworld.tasks.graph import build_graph
from compoworld.services.registry import all_services


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--services-from", default="library")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-mutation-test", action="store_true", help="skip replaying mutants in the probe")
    ap.add_argument("--allow-surviving-mutants", action="store_true",
                    help="keep tasks with a surviving mutant (the gate rejects them by default)")
    args = ap.parse_args()
    build_graph(all_services(args.services_from).values())  # explore once, outside the timed run
    cpu0 = time.process_time()
    tasks, rejected, report = generate(TaskConfig(n=args.n, seed=args.seed, services_from=args.services_from,
                                                   mutation_test=not args.no_mutation_test,
                                                   require_all_mutants_killed=not args.allow_surviving_mutants))
    cpu = time.process_time() - cpu0  # this process's CPU time: the one-core rate when other jobs share the machine
    out = report.model_dump()
    out["cpu_seconds"] = round(cpu, 2)
    out["tasks_per_cpu_second"] = round(report.accepted / cpu, 1) if cpu else 0.0
    out["acceptance_rate"] = round(report.accepted / max(report.designed, 1), 4)
    out["stale_trap_share"] = round(sum(bool(t.stale) for t in tasks) / max(len(tasks), 1), 4)
    out["mean_reference_steps"] = round(sum(len(t.plan) for t in tasks) / max(len(tasks), 1), 2)
    out["mean_criteria"] = round(sum(len(t.rubric) for t in tasks) / max(len(tasks), 1), 2)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")


if __name__ == "__main__":
    main()
