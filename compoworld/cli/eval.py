"""`compoworld eval`: an agent or a trained checkpoint on the held-out tasks, with the figures recorded."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from compoworld.cli._common import existing_warehouse, print_json
from compoworld.errors import UserError


def _agent_spec(args: argparse.Namespace) -> str:
    """`--agent`, or `local:DIR` for `--checkpoint DIR` (with `--agent local`, or no --agent)."""
    if args.checkpoint is None:
        if args.agent is None:
            raise UserError("no agent to evaluate; pass --agent AGENT (reference, perturbed, litellm:MODEL, local:MODEL) "
                            "or --checkpoint DIR")
        return args.agent
    if not Path(args.checkpoint).is_dir():
        raise UserError(f"no checkpoint at {args.checkpoint}; pass a training job's folder or its model/ folder "
                        "(compoworld train prints it)")
    if args.agent not in (None, "local", f"local:{args.checkpoint}"):
        raise UserError(f"--checkpoint runs the local agent, not {args.agent!r}; leave out --agent or pass --agent local")
    return f"local:{args.checkpoint}"


def _agent_kwargs(args: argparse.Namespace, spec: str) -> dict[str, Any]:
    if not spec.startswith(("local:", "litellm:")):
        return {}
    names = {"max_steps": args.max_steps, "temperature": args.temperature}
    if spec.startswith("local:"):
        names["max_new_tokens"] = args.max_new_tokens
    return {k: v for k, v in names.items() if v is not None}


def _print_text(out: dict[str, Any]) -> None:
    figs = out["figures"]
    print(f"{out['agent']} on {out['n_tasks']} {out['split']} task(s) x {out['group_size']}, {out['discover_mode']} mode: "
          f"success {figs['success_rate']:.4f}, partial credit {figs['mean_partial_credit']:.4f} "
          f"({out['seconds']} s; evaluation {out['evaluation_id']})")
    if out.get("job_id"):
        print(f"  trained by job {out['job_id']} on dataset {out['dataset_id']} (revision {out['data_revision']}, "
              f"run {out['data_run_id']})")
    stops = ", ".join(f"{reason} {n}" for reason, n in figs.get("stop_reasons", {}).items())
    print(f"  tool calls per episode {figs.get('mean_steps', 0)} (discovery share {figs.get('discovery_share', 0)}, "
          f"failed calls {figs.get('failed_calls', 0)}); stop reasons: {stops or 'none'}")
    for title, key, measure in (("capability", "by_capability", "success_rate"),
                                ("criterion kind", "by_criterion_kind", "pass_rate"), ("service", "by_service", "pass_rate")):
        parts = ", ".join(f"{name} {v[measure]:.2f}" for name, v in figs[key].items())
        print(f"  {measure.replace('_', ' ')} per {title}: {parts}")


def cmd_eval(args: argparse.Namespace) -> int:
    from compoworld.evaluation import EvalOptions, evaluate
    from compoworld.evaluation.evaluate import agent_and_provenance

    spec = _agent_spec(args)
    kwargs = _agent_kwargs(args, spec)
    agent_and_provenance(spec, args.seed, **kwargs)  # an unknown agent is refused before the warehouse is read
    wh = existing_warehouse(args)
    options = EvalOptions(split=args.split, discover_mode=args.discover_mode, n_tasks=args.tasks, group_size=args.group_size,
                          seed=args.seed, test_fraction=args.test_fraction, agent_kwargs=kwargs, workers=args.workers)
    from compoworld.training.models import ModelError

    try:
        out = evaluate(wh, spec, options, log=lambda msg: print(f"[compoworld] {msg}", file=sys.stderr, flush=True))
    except ModelError as exc:  # a model the local agent cannot load (no such checkpoint, package missing)
        raise UserError(str(exc)) from None
    print_json(out) if args.json else _print_text(out)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="evaluate an agent or a checkpoint on the held-out tasks (service sets not trained on)")
    p.add_argument("--agent", help="reference | perturbed | litellm:MODEL | local:MODEL (a checkpoint folder, smollm2 or tiny)")
    p.add_argument("--checkpoint", help="a training job's folder or its model/ folder (the local agent runs it)")
    p.add_argument("--split", choices=["test", "train"], default="test")
    p.add_argument("--discover-mode", choices=["direct", "gateway"], default="direct",
                   help="what the agent is given: every tool (direct) or four meta-tools (gateway)")
    p.add_argument("--tasks", type=int, help="evaluate the first N tasks of the split (by task id)")
    p.add_argument("--group-size", type=int, default=1, help="rollouts per task (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--test-fraction", type=float,
                   help="the split rule's test fraction (default: the checkpoint's dataset's, else 0.1)")
    p.add_argument("--max-steps", type=int, help="local/litellm agents: tool calls per episode (default: twice the reference solution's, discovery included)")
    p.add_argument("--max-new-tokens", type=int, help="local agent: tokens per turn (default 256)")
    p.add_argument("--temperature", type=float, help="local/litellm agents: sampling temperature (default 0: greedy)")
    p.add_argument("--workers", type=int, default=1,
                   help="rollouts at once (default 1): concurrent requests for litellm:, one batched generate for local:")
    p.add_argument("--warehouse")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)
