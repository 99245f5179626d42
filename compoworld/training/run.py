"""Running one training job from its spec: `python -m compoworld.training.run JOB.json` (what the
launch command runs, under `accelerate launch` on GPUs).

- `sft`: TRL's SFTTrainer on the SFT dataset's `messages` and `tools`, assistant-only loss.
- `grpo`: TRL's GRPOTrainer rolling out multi-turn in the product environment (`environment_factory`
  routes each task to a `TaskEnvironment` of its service set; the model's tool calls run there),
  rewarded with the Completion-Focused Rubric Reward computed within each rollout group.

The job folder gets `result.json` (losses / rewards per step, step times) and the trained `model/`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from compoworld.atomic import atomic_write_text
from compoworld.training.spec import RESULT_FILE, DataRef, GRPOParams, JobSpec, SFTParams, read_spec, write_spec


def load_split(data: DataRef) -> Any:
    """A split of a local Hub layout (folder) or of a Hub dataset repo at `revision`."""
    import datasets

    datasets.disable_progress_bars()
    if Path(data.path).is_dir():
        return datasets.load_dataset(str(Path(data.path).absolute()), split=data.split)
    return datasets.load_dataset(data.path, revision=data.revision, split=data.split)


def _timer() -> Any:
    from transformers import TrainerCallback

    class StepTimer(TrainerCallback):
        """Wall time of each optimizer step (for GRPO: generation, tool calls and rewards included)."""

        def __init__(self) -> None:
            self.times: list[float] = []
            self._t0 = 0.0

        def on_step_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self._t0 = time.perf_counter()

        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self.times.append(round(time.perf_counter() - self._t0, 3))

    return StepTimer()


def _base_model(spec: JobSpec, rows: Any, wait_s: float = 900.0) -> str:
    """The model to start from: the tiny model (built now, tokenizer trained on `rows`) or the given id/path.

    Under `accelerate launch` with several processes only rank 0 builds the tiny model; the others
    wait for it. The build is deterministic, so a job folder that has one already reuses it."""
    if spec.model != "tiny":
        from compoworld.training.models import model_dir

        return model_dir(spec.model, log=lambda m: print(m, flush=True))
    from compoworld.training.tiny import TinyConfig, build_tiny

    base = spec.job_dir / "base"
    marker = base / ".built"
    if _is_main_process() and not marker.is_file():
        build_tiny(rows, base, spec.tiny or TinyConfig())
        marker.write_text(spec.job_id + "\n")
    deadline = time.monotonic() + wait_s
    while not marker.is_file():
        if time.monotonic() > deadline:
            raise TimeoutError(f"rank 0 did not build the tiny model in {base} within {wait_s:.0f} s")
        time.sleep(1.0)
    return str(base)


def _common_args(spec: JobSpec, params: SFTParams | GRPOParams) -> dict[str, Any]:
    cpu = spec.hardware.accelerator == "cpu"
    return {"output_dir": str(spec.job_dir / "checkpoints"), "max_steps": params.max_steps,
            "learning_rate": params.learning_rate, "per_device_train_batch_size": params.per_device_train_batch_size,
            "gradient_accumulation_steps": params.gradient_accumulation_steps, "seed": params.seed, "logging_steps": 1,
            "save_strategy": "no", "report_to": "none", "use_cpu": cpu, "dataloader_pin_memory": not cpu,
            "bf16": spec.hardware.mixed_precision == "bf16", "fp16": spec.hardware.mixed_precision == "fp16",
            "disable_tqdm": True}


def _tokenizer(spec: JobSpec, model: str) -> Any:
    """The model's tokenizer, with the spec's chat template when it gives one; the tool-aware template comes
    with the response template that reads its turns back (GRPO's tool calls)."""
    from compoworld.training import tiny

    tokenizer = tiny.load_tokenizer(model)
    if spec.chat_template:
        tokenizer.chat_template = spec.chat_template
    tokenizer = tiny.with_response_template(tokenizer)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def _rows_to_train(tokenizer: Any, ds: Any, params: SFTParams) -> tuple[list[int], list[int], int]:
    """Token counts of every row, the indices of the rows to train on, and how many of them are cut to
    `max_length` (a `FitError` before any weights load when none can be trained on)."""
    from compoworld.training.tokens import check_fit, check_truncation, prompt_tokens, summarize, token_counts

    counts = token_counts(tokenizer, ds)
    print(f"tokens per row: {summarize(counts)}", flush=True)
    keep = check_fit(counts, params.max_length, params.drop_long_rows, params.truncate_long_rows)
    if not (params.truncate_long_rows and params.max_length):
        if len(keep) < len(counts):
            print(f"dropping {len(counts) - len(keep)} of {len(counts)} rows longer than {params.max_length} tokens", flush=True)
        return counts, keep, 0
    # Cut before its first assistant token, a row has no loss (TRL drops it): leave those out, and say so.
    learnable = check_truncation([prompt_tokens(tokenizer, ds[i]) for i in keep], params.max_length)
    if len(learnable) < len(keep):
        print(f"dropping {len(keep) - len(learnable)} of {len(keep)} rows whose prompt alone fills {params.max_length} tokens",
              flush=True)
    keep = [keep[i] for i in learnable]
    truncated = sum(counts[i] > params.max_length for i in keep)
    print(f"truncating {truncated} of {len(keep)} rows to their first {params.max_length} tokens", flush=True)
    return counts, keep, truncated


def run_sft(spec: JobSpec) -> dict[str, Any]:
    from trl import SFTConfig, SFTTrainer

    from compoworld.training.tokens import summarize

    params = spec.params()
    assert isinstance(params, SFTParams)
    ds = load_split(spec.data).select_columns(["messages", "tools"])
    if spec.model != "tiny":  # count before the weights load (a GGUF's tokenizer converts in seconds, its model in ~40 s)
        from compoworld.training.models import tokenizer_dir

        counts, keep, truncated = _rows_to_train(_tokenizer(spec, tokenizer_dir(spec.model)), ds, params)
    model = _base_model(spec, ds)
    tokenizer = _tokenizer(spec, model)
    if spec.model == "tiny":
        counts, keep, truncated = _rows_to_train(tokenizer, ds, params)
    dropped = len(ds) - len(keep)
    if dropped:
        ds = ds.select(keep)
    args = SFTConfig(**_common_args(spec, params), assistant_only_loss=True, max_length=params.max_length,
                     lr_scheduler_type=params.lr_scheduler_type, warmup_steps=params.warmup_steps)
    timer = _timer()
    trainer = SFTTrainer(model=model, args=args, train_dataset=ds, processing_class=tokenizer, callbacks=[timer])
    out = trainer.train()
    losses = [{"step": h["step"], "loss": h["loss"]} for h in trainer.state.log_history if "loss" in h]
    trainer.save_model(str(spec.job_dir / "model"))
    tokenizer.save_pretrained(str(spec.job_dir / "model"))
    return {"train_rows": len(ds), "dropped_long_rows": dropped, "truncated_long_rows": truncated, "tokens_per_row": summarize(counts), "learning_rate": params.learning_rate,
            "losses": losses, "loss_first": losses[0]["loss"] if losses else None,
            "loss_last": losses[-1]["loss"] if losses else None, "step_seconds": timer.times,
            "train_runtime": out.metrics.get("train_runtime")}


def run_grpo(spec: JobSpec) -> dict[str, Any]:
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # environment_factory is marked experimental in TRL
    from trl import GRPOConfig, GRPOTrainer

    from compoworld.rewards import make_trl_reward_func
    from compoworld.training.environment import env_key, environment_factories, score_rollout

    params = spec.params()
    assert isinstance(params, GRPOParams)
    raw = load_split(spec.data)
    model = _base_model(spec, raw)
    # Each row goes to the environment of its service set in its discovery mode (rows built before
    # gateway mode have no column: direct).
    if "discover_mode" not in raw.column_names:
        raw = raw.add_column("discover_mode", ["direct"] * len(raw))
    modes = raw["discover_mode"]
    ds = raw.map(lambda r: {"environment": env_key(r["services"], r["discover_mode"])})
    # The environment's reset checks the row's mode against its own, so the column stays.
    ds = ds.select_columns(["prompt", "environment", "task_id", "services", "seed", "initial_state",
                            "initial_state_hash", "rubric", "discover_mode"])
    factories: dict[str, Any] = {}
    for mode in sorted(set(modes)):
        factories |= environment_factories({tuple(r["services"]) for r, m in zip(raw, modes) if m == mode}, mode)
    tokenizer = _tokenizer(spec, model)
    tokenizer.padding_side = "left"
    scored: list[dict[str, Any]] = []

    def score_and_record(prompt: Any, completion: Any, environment: Any = None, **row: Any) -> list[bool]:
        results = score_rollout(prompt, completion, environment, **row)
        scored.append({"task_id": row.get("task_id"), "criteria": results, "tool_calls": len(environment.calls),
                       "ok_calls": sum(c["ok"] for c in environment.calls)})
        return results

    reward = make_trl_reward_func(score_and_record, kind=params.reward_kind, floor=params.reward_floor)
    args = GRPOConfig(**_common_args(spec, params), num_generations=params.num_generations,
                      max_completion_length=params.max_completion_length,
                      max_tool_calling_iterations=params.max_tool_calling_iterations, temperature=params.temperature,
                      beta=params.beta, log_completions=False)
    timer = _timer()
    trainer = GRPOTrainer(model=model, reward_funcs=[reward], args=args, train_dataset=ds, processing_class=tokenizer,
                          environment_factory=factories, callbacks=[timer])
    out = trainer.train()
    logs = [h for h in trainer.state.log_history if "reward" in h]
    trainer.save_model(str(spec.job_dir / "model"))
    tokenizer.save_pretrained(str(spec.job_dir / "model"))
    return {"train_rows": len(ds), "environments": len(factories), "steps": logs, "rollouts": scored,
            "step_seconds": timer.times, "train_runtime": out.metrics.get("train_runtime")}


def run_job(spec: JobSpec) -> dict[str, Any]:
    """Run the job in this process and write `result.json` into its folder (and `job.json`, when the job was
    not started by a launcher, so the checkpoint still names the job and data that made it)."""
    spec.job_dir.mkdir(parents=True, exist_ok=True)
    if _is_main_process() and not spec.spec_path.is_file():
        write_spec(spec)
    t0 = time.perf_counter()
    result = run_sft(spec) if spec.kind == "sft" else run_grpo(spec)
    result = {"job_id": spec.job_id, "kind": spec.kind, "model": spec.model, "data": spec.data.model_dump(),
              "seconds": round(time.perf_counter() - t0, 2), "model_dir": str(spec.job_dir / "model"), **result}
    if _is_main_process():
        atomic_write_text(spec.job_dir / RESULT_FILE, json.dumps(result, indent=1, default=str) + "\n")
    return result


def _is_main_process() -> bool:
    return os.environ.get("RANK", "0") == "0"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m compoworld.training.run JOB.json", file=sys.stderr)
        return 2
    from compoworld.training.models import ModelError
    from compoworld.training.tokens import FitError

    try:
        result = run_job(read_spec(Path(argv[0])))
    except (FitError, ModelError) as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    summary = {k: result.get(k) for k in ("job_id", "kind", "seconds", "loss_first", "loss_last", "step_seconds")}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
