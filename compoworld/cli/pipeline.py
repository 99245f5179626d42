"""`compoworld run`, `compoworld retry-failed`, `compoworld deploy`: the factory as Prefect flows.

The flows live in the top-level `flows` package, which the library never imports: these commands
are the edge that needs Prefect, and load a flow module by name (`_flows`). Prefect is imported only
after `_prefect_env` has decided where its state lives: with neither PREFECT_HOME nor
PREFECT_API_URL set, under the warehouse (`data/.prefect/home`), so a run needs no server, no
network and nothing in the user's home directory.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from compoworld.cli._common import error, print_json
from compoworld.errors import UserError

DEFAULT_API_URL = "http://127.0.0.1:4200/api"  # where `make ui` serves the Prefect API


def _prefect_env(warehouse_root: Path, quiet: bool = False) -> None:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    if not os.environ.get("PREFECT_HOME") and not os.environ.get("PREFECT_API_URL"):
        home = warehouse_root / "data" / ".prefect" / "home"
        home.mkdir(parents=True, exist_ok=True)  # Prefect creates its home, not the folders above it
        os.environ["PREFECT_HOME"] = str(home)
    # The first start of the local API creates its database: slow machines need more than 20 s.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    if quiet:
        os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")


def _flows(module: str) -> ModuleType:
    """A module of the `flows` package (installed with compoworld), loaded at this edge only."""
    try:
        return importlib.import_module(f"flows.{module}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("flows", f"flows.{module}"):
            raise
        raise UserError("the `flows` package is not installed next to compoworld; reinstall with `make setup`, "
                        "or use `compoworld run --no-prefect`") from None


def _resolve(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]]:
    from compoworld.config import load_config
    from compoworld.warehouse import Warehouse, resolve_warehouse_dir

    overrides: dict[str, Any] = {"tasks": args.tasks} if getattr(args, "tasks", None) is not None else {}
    if getattr(args, "discover_mode", None) is not None:
        overrides["discover_mode"] = args.discover_mode
    cfg = load_config(args.config, overrides)
    return cfg, Warehouse(resolve_warehouse_dir(args.warehouse, cfg.warehouse)), overrides


def print_summary(result: dict[str, Any], seconds: float) -> None:
    print(f"\nDone in {seconds:.1f} s. Run {result['run_id']}, warehouse at {result['warehouse']}")
    print(f"  {result['services']} services ({result['tools']} tools), {result['tasks']:,} tasks", end="")
    if result.get("service_checks"):
        print(f"; service checks: {result['service_checks_passed']:,} passed, {result['service_checks_failed']:,} failed, "
              f"{result['service_checks_skipped']:,} skipped (not applicable)", end="")
    print()
    for stage, totals in (result.get("stages") or {}).items():
        if isinstance(totals, dict) and totals.get("batches") == 0:
            print(f"  warning: stage {stage} had nothing to do")
        elif isinstance(totals, dict) and totals.get("rows") == 0 and totals.get("succeeded") == 0 \
                and totals.get("cached", 0) < totals.get("batches", 0) and stage != "train":
            print(f"  warning: stage {stage} produced nothing ({totals.get('failed', 0)} item(s) failed)")
    for a in result["agents"]:
        reward = f", mean completion-focused reward {a['mean_cf_reward']:.3f}" if a.get("mean_cf_reward") is not None else ""
        print(f"  {a['agent']:>10}: {a['trajectories']:,} trajectories, success {a['success_rate']:.1%}, "
              f"partial credit {a['mean_partial_credit']:.3f}{reward}")
    fails = result.get("unresolved_failures") or []
    if fails:
        print("  unresolved failures: " + ", ".join(f"{f['stage']}/{f['reason']}: {f['n']}" for f in fails))
        if any(not f["reason"].startswith("rejected_") for f in fails):
            print(f"  (re-run only the failed items with: compoworld retry-failed --warehouse {result['warehouse']})")
    print("\nRows in the warehouse (all runs; same as `compoworld warehouse stats`):")
    for table, n in result["stats"].items():
        if n:
            print(f"  {table:>18}: {n:,}")
    from compoworld.warehouse import example_queries

    print("\nTry:")
    for query in example_queries():
        print(f'  compoworld sql "{query}" --warehouse {result["warehouse"]}')


def cmd_run(args: argparse.Namespace) -> int:
    cfg, wh, overrides = _resolve(args)
    t0 = time.perf_counter()
    with wh.lock(wait=not args.no_wait):
        if args.no_prefect:
            from compoworld.stages.runner import run_pipeline

            log = (lambda msg: None) if args.json else (lambda msg: print(f"[compoworld] {msg}", flush=True))
            result = run_pipeline(cfg, wh, log=log)
        else:
            _prefect_env(wh.root, quiet=args.json)
            with _flows("stage").local_run_settings():
                result = _flows("pipeline").pipeline_flow(config=args.config, warehouse=str(wh.root), overrides=overrides)
    seconds = time.perf_counter() - t0
    if args.json:
        print_json({**result, "seconds": round(seconds, 1)})
    else:
        print_summary(result, seconds)
    return 0


def cmd_retry_failed(args: argparse.Namespace) -> int:
    from compoworld.stages.registry import registration
    from compoworld.warehouse import Warehouse, resolve_warehouse_dir

    if args.stage is not None:
        registration(args.stage)  # an unknown stage is a UserError naming the stages
    config_wh = None
    if args.config:
        from compoworld.config import load_config

        config_wh = load_config(args.config).warehouse
    wh = Warehouse(resolve_warehouse_dir(args.warehouse, config_wh))
    wh.require_existing()
    _prefect_env(wh.root, quiet=args.json)
    with wh.lock(wait=not args.no_wait), _flows("stage").local_run_settings():
        report = _flows("retry").retry_failed_flow(warehouse=str(wh.root), stage=args.stage, run_id=args.run, config=args.config,
                                                   include_rejected=args.include_rejected, resume=not args.no_resume)
    if args.json:
        print_json(report)
    else:
        print(f"retried {report['retried']} item(s): {report['resolved']} resolved, {report['still_failing']} still failing; "
              f"{report['unresolved_after']} unresolved failure(s) left")
        if report.get("rejected_not_retried"):
            print(f"({report['rejected_not_retried']} task(s) rejected by the designer or the probe were not retried: "
                  "a rejection is deterministic; --include-rejected re-designs them)")
    return 0 if report["still_failing"] == 0 else 1


def cmd_deploy(args: argparse.Namespace) -> int:
    from compoworld.config import FLOW_NAMES

    unknown = [f for f in args.flows or [] if f not in FLOW_NAMES]
    if unknown:
        return error(f"unknown flow(s) {unknown}; flows: {', '.join(FLOW_NAMES)}")
    _, wh, overrides = _resolve(args)
    os.environ.setdefault("PREFECT_API_URL", DEFAULT_API_URL)
    _prefect_env(wh.root)
    import httpx

    url = os.environ["PREFECT_API_URL"].rstrip("/")
    try:
        httpx.get(f"{url}/health", timeout=5).raise_for_status()
    except httpx.HTTPError as exc:
        return error(f"no Prefect server at {url} ({exc.__class__.__name__}); start one with `make ui` "
                     "or set PREFECT_API_URL")
    print(f"serving {len(args.flows or FLOW_NAMES)} deployment(s) to {url} (warehouse {wh.root}); Ctrl+C to stop", flush=True)
    _flows("deploy").serve_all(args.config, str(wh.root), overrides, args.flows, schedules=not args.no_schedules, limit=args.limit)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run the whole factory end to end (the Prefect pipeline flow)")
    run.add_argument("--config", help="YAML config (default: configs/default.yaml)")
    run.add_argument("--warehouse")
    run.add_argument("--tasks", type=int, help="override the number of tasks")
    run.add_argument("--discover-mode", choices=["direct", "gateway"],
                     help="override the config's discover_mode: agents get every tool (direct) or four meta-tools (gateway)")
    run.add_argument("--json", action="store_true", help="print the summary as JSON (and only warnings from Prefect)")
    run.add_argument("--no-prefect", action="store_true",
                     help="run the stages in this process without Prefect (no retries, caching or resume)")
    run.add_argument("--no-wait", action="store_true", help="refuse at once when another run holds the warehouse (default: wait)")
    run.set_defaults(func=cmd_run)

    retry = sub.add_parser("retry-failed", help="re-run only the failed items, then carry them through the later stages")
    retry.add_argument("--stage", help="only this stage's failures (a stage name: see `compoworld run --help`)")
    retry.add_argument("--run", help="only this run's failures (default: every run with unresolved failures)")
    retry.add_argument("--warehouse")
    retry.add_argument("--config", help="the config of a run that has no runs row")
    retry.add_argument("--include-rejected", action="store_true", help="also re-design tasks the designer or probe rejected")
    retry.add_argument("--no-resume", action="store_true", help="do not run the later stages afterwards")
    retry.add_argument("--no-wait", action="store_true", help="refuse at once when another run holds the warehouse (default: wait)")
    retry.add_argument("--json", action="store_true")
    retry.set_defaults(func=cmd_retry_failed)

    deploy = sub.add_parser("deploy", help="serve a deployment (with its schedule) of every flow to a Prefect server")
    deploy.add_argument("--config", help="YAML config the deployments run (default: configs/default.yaml)")
    deploy.add_argument("--warehouse")
    deploy.add_argument("--tasks", type=int, help="override the number of tasks")
    deploy.add_argument("--flows", nargs="*", help="only these flows (default: all)")
    deploy.add_argument("--no-schedules", action="store_true", help="deploy without schedules (runs start from the UI/API)")
    deploy.add_argument("--limit", type=int, help="most flow runs at once in this process")
    deploy.set_defaults(func=cmd_deploy)

