"""`compoworld run`: the whole factory end to end on a config."""

from __future__ import annotations

import argparse

from compoworld.cli._common import print_json, progress


def cmd_run(args: argparse.Namespace) -> int:
    from compoworld.config import load_config
    from compoworld.pipeline import run_pipeline
    from compoworld.warehouse import Warehouse, resolve_warehouse_dir

    cfg = load_config(args.config)
    if args.tasks is not None:
        cfg = cfg.model_copy(update={"tasks": args.tasks})
    wh = Warehouse(resolve_warehouse_dir(args.warehouse, cfg.warehouse))
    log = (lambda msg: None) if args.json else (lambda msg: print(f"[compoworld] {msg}", flush=True))
    result = run_pipeline(cfg, wh, log=log, progress=None if args.json else progress)
    if args.json:
        print_json(result)
        return 0
    print(f"\nDone in {result['seconds']} s. Run {result['run_id']}, warehouse at {result['warehouse']}")
    for table, n in result["stats"].items():
        if n:
            print(f"  {table:>18}: {n:,} rows")
    where = f" --warehouse {result['warehouse']}"
    print("\nTry:")
    print(f'  compoworld sql "SELECT agent, kind, round(pass_rate, 3) AS pass_rate FROM pass_rate_by_kind"{where}')
    print(f'  compoworld sql "SELECT * FROM reward_spread ORDER BY reward_std DESC LIMIT 5"{where}')
    print(f'  compoworld sql "SELECT difficulty, count(*) AS tasks FROM tasks GROUP BY 1 ORDER BY 1"{where}')
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run the whole factory end to end on a config")
    run.add_argument("--config", help="YAML config (default: configs/default.yaml)")
    run.add_argument("--warehouse")
    run.add_argument("--tasks", type=int, help="override the number of tasks")
    run.add_argument("--json", action="store_true")
    run.set_defaults(func=cmd_run)
