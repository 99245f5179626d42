"""What the data teaches, measured: training arms evaluated on held-out composed tasks.

    python bench/train_effect.py --budget smoke|lease|full [--json] [--work DIR] [--prepare] [--out FILE]

(a) the base model against the same model after SFT on the verified trajectories of composed tasks;
(b) SFT + GRPO with the completion-focused reward against SFT + GRPO with the uniform reward;
(c) at a fixed budget (same base, steps, batch and learning rate), SFT on composed tasks against SFT
    on few-service tasks. The walk cannot make single-service tasks (it revisits a service and never
    visits one twice in a row), so the contrast arm is the fewest services a walk takes: two.
Every arm is evaluated by `compoworld.evaluation.evaluate` on the same held-out composed tasks (the
test split: service sets no training row shares), in gateway mode, once per training seed; the
figures are the mean, standard deviation, min and max over seeds. `floor` is an agent that answers at
once without calling a tool: what a model that never calls a tool scores.

Data is made the one way (the pipeline's task, collect, score and dataset stages), except that the
few-service tasks come from the task factory with a two-service walk (the pipeline's config has no
walk size) and are written to their warehouse as the instantiate stage writes tasks. Jobs run with
`compoworld.training.run.run_job` (in this process) and are recorded as `training_jobs` rows; the
evaluations as `evaluations` rows linked to them, in the composed warehouse under `--work`.

`--budget smoke` runs on CPU in minutes with the random tiny model (one shared base built on the
data): it shows the plumbing end to end, not an effect; the output says whether the model ever
called a tool. `--budget lease` is SmolLM2-135M-Instruct sized for about eight minutes of one H200
(short SFT and GRPO runs, rows cut to 4,096 tokens, short episodes); `--budget full` is the GPU
configuration at real lengths (hours). Both run only where CUDA is available and otherwise print
what they would run.

The data stage runs on CPU and is resumable: `--prepare` builds the tasks, rollouts and datasets into
`--work` and stops, and a later run with the same `--work` (on a GPU machine, say) trains on them
instead of building them again. The SFT arms of every seed run before the GRPO arms, and `--out`
is rewritten after each evaluation, so a run cut short still leaves what it measured.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compoworld.config import PipelineConfig
from compoworld.datasets import build_datasets
from compoworld.datasets.layout import read_manifest
from compoworld.evaluation import EvalOptions, evaluate
from compoworld.evaluation.evaluate import split_tasks
from compoworld.evaluation.figures import figures
from compoworld.rollout.runner import collect
from compoworld.rollout.trajectory import Episode
from compoworld.stages.base import index_ranges
from compoworld.stages.items import range_part
from compoworld.stages.runner import run_pipeline
from compoworld.tasks.factory import TaskConfig, generate
from compoworld.tasks.model import Task
from compoworld.tasks.records import task_rows
from compoworld.tasks.walk import WalkConfig
from compoworld.training.launcher import job_row
from compoworld.atomic import atomic_write_text
from compoworld.training.spec import DataRef, Hardware, local_data_ref, make_spec
from compoworld.warehouse import Warehouse, write_training_job

FEW_SERVICES = WalkConfig(n_services=2, min_length=3, max_length=5)


@dataclass(frozen=True)
class Budget:
    name: str
    model: str  # "tiny": one random base built on the data, shared by every arm; else a model spec (smollm2)
    composed_tasks: int
    few_service_tasks: int
    group_size: int
    seeds: tuple[int, ...]
    sft: dict[str, Any]
    grpo: dict[str, Any]
    eval_tasks: int | None  # None: every held-out task
    eval_agent: dict[str, Any]
    hardware: Hardware = field(default_factory=Hardware)
    eval_workers: int = 1  # rollouts evaluated at once: one batched generate on a GPU
    tiny_vocab: int = 8192
    tiny_context: int = 16384  # composed gateway rows run to ~12k tiny-tokenizer tokens: all of them fit


BUDGETS = {
    "smoke": Budget(
        name="smoke", model="tiny", composed_tasks=40, few_service_tasks=40, group_size=2, seeds=(0, 1),
        sft={"max_steps": 6, "per_device_train_batch_size": 1, "learning_rate": 3e-3, "max_length": 16384,
             "drop_long_rows": True},
        grpo={"max_steps": 2, "per_device_train_batch_size": 4, "num_generations": 2, "max_completion_length": 64,
              "max_tool_calling_iterations": 2, "learning_rate": 1e-3},
        eval_tasks=6, eval_agent={"max_steps": 4, "max_new_tokens": 48}),
    "lease": Budget(
        name="lease", model="smollm2", composed_tasks=300, few_service_tasks=300, group_size=4, seeds=(0, 1),
        sft={"max_steps": 30, "per_device_train_batch_size": 8, "learning_rate": 5e-5, "max_length": 4096,
             "truncate_long_rows": True, "lr_scheduler_type": "cosine", "warmup_steps": 3},
        grpo={"max_steps": 3, "per_device_train_batch_size": 8, "num_generations": 4, "max_completion_length": 256,
              "max_tool_calling_iterations": 4, "learning_rate": 1e-6},
        eval_tasks=32, eval_agent={"max_steps": 12, "max_new_tokens": 192}, eval_workers=32,
        hardware=Hardware(accelerator="cuda", num_processes=1, gpu_type="H200", mixed_precision="bf16")),
    "full": Budget(
        name="full", model="smollm2", composed_tasks=1000, few_service_tasks=1000, group_size=8, seeds=(0, 1, 2),
        sft={"max_steps": 300, "per_device_train_batch_size": 4, "gradient_accumulation_steps": 4, "learning_rate": 5e-5,
             "max_length": 8192, "truncate_long_rows": True, "lr_scheduler_type": "cosine", "warmup_steps": 10},
        grpo={"max_steps": 100, "per_device_train_batch_size": 8, "num_generations": 8, "max_completion_length": 4096,
              "max_tool_calling_iterations": 30, "learning_rate": 1e-6},
        eval_tasks=None, eval_agent={"max_steps": 30, "max_new_tokens": 512}, eval_workers=64,
        hardware=Hardware(accelerator="cuda", num_processes=1, gpu_type="H100", mixed_precision="bf16")),
}


class Idle:
    """Answers at once, calling no tool: the floor a model that never calls a tool scores."""

    kind = "idle"
    model = ""
    label = "idle"

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        episode.answer("Done.")


def quiet(_: str) -> None:
    return None


def composed_data(work: Path, budget: Budget) -> tuple[Warehouse, str, Path]:
    """The pipeline's tasks, rollouts, rewards and datasets (gateway mode) for composed tasks."""
    cfg = PipelineConfig(tasks=budget.composed_tasks, group_size=budget.group_size, discover_mode="gateway",
                         stages={"verify": False, "datasets": False}, datasets_dir=str(work / "unused"))
    wh = Warehouse(work / "composed-wh")
    run_pipeline(cfg, wh, log=quiet)
    build_datasets(wh, work / "composed", cfg.run_id)
    return wh, cfg.run_id, work / "composed"


def few_service_data(work: Path, budget: Budget) -> tuple[Warehouse, str, Path]:
    """Two-service tasks from the factory, written as the instantiate stage writes tasks, then the pipeline's
    collect and score stages and the dataset build, as for composed tasks."""
    cfg = PipelineConfig(tasks=budget.few_service_tasks, seed=1, group_size=budget.group_size, discover_mode="gateway",
                         stages={"verify": False, "datasets": False}, datasets_dir=str(work / "unused"))
    wh = Warehouse(work / "few-wh").create()
    tasks, _, _ = generate(TaskConfig(n=cfg.tasks, seed=cfg.seed, walk=FEW_SERVICES))
    for a, b in index_ranges(cfg):
        batch = [t for t in tasks if a <= t.index < b]
        for table in ("tasks", "rubric_criteria", "reference_steps"):
            wh.write(table, [r for t in batch for r in task_rows(t)[table]], run_id=cfg.run_id,
                     part=range_part("instantiate", a, b))
    run_pipeline(cfg, wh, log=quiet, names=["collect", "score"])
    build_datasets(wh, work / "few", cfg.run_id)
    return wh, cfg.run_id, work / "few"


def data_ref(folder: Path, split: str = "train") -> DataRef:
    return local_data_ref(folder, split)


def build_base(work: Path, budget: Budget, sft_folders: list[Path]) -> str:
    """The model every arm starts from: for `tiny`, one random model whose tokenizer is trained on all the
    SFT rows (so arms differ only in what they train on); else the model spec itself."""
    if budget.model != "tiny":
        return budget.model
    import datasets

    from compoworld.training.tiny import TinyConfig, build_tiny

    rows = [r for f in sft_folders for r in datasets.load_dataset(str(f), split="train")]
    config = TinyConfig(vocab_size=budget.tiny_vocab, max_position_embeddings=budget.tiny_context)
    return str(build_tiny(rows, work / "base", config))


def train(wh: Warehouse, kind: str, data: DataRef, model: str, params: dict[str, Any], seed: int, jobs: Path,
          budget: Budget) -> dict[str, Any]:
    """One job, run here, recorded as a `training_jobs` row; returns its result (losses or rewards per step)."""
    from compoworld.training.run import run_job

    spec = make_spec(kind, data, jobs, model=model, hyperparameters={**params, "seed": seed}, hardware=budget.hardware)
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):  # the trainers print their logs: stdout keeps only the figures
        result = run_job(spec)
    write_training_job(wh, job_row(spec, {"returncode": 0, "result": result}))
    return {"job_id": spec.job_id, "dir": str(spec.job_dir), "seconds": round(time.perf_counter() - t0, 1),
            "train_rows": result.get("train_rows"), "tokens_per_row": result.get("tokens_per_row"),
            "curve": [round(x["loss"], 4) for x in result.get("losses", [])]
            or [(round(s["reward"], 4), round(s.get("reward_std", 0.0), 4)) for s in result.get("steps", [])]}


def run_eval(wh: Warehouse, model: str, budget: Budget, test_fraction: float) -> dict[str, Any]:
    out = evaluate(wh, f"local:{model}", EvalOptions(discover_mode="gateway", n_tasks=budget.eval_tasks,
                                                      test_fraction=test_fraction, agent_kwargs=budget.eval_agent,
                                                      workers=budget.eval_workers))
    f = out["figures"]
    return {"evaluation_id": out["evaluation_id"], "task_ids": out["task_ids"], "success_rate": f["success_rate"],
            "mean_partial_credit": f["mean_partial_credit"], "mean_completion_focused_reward": f["mean_completion_focused_reward"],
            "tool_calls": round(f["mean_steps"] * f["trajectories"]), "stop_reasons": f["stop_reasons"],
            "seconds": out["seconds"]}


def spread(evals: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean, standard deviation, min and max over seeds of success and partial credit."""
    out: dict[str, Any] = {"seeds": len(evals)}
    if not evals:
        return out
    for key in ("success_rate", "mean_partial_credit"):
        xs = [e[key] for e in evals]
        out[key] = {"mean": round(statistics.mean(xs), 4), "std": round(statistics.pstdev(xs), 4),
                    "min": min(xs), "max": max(xs)}
    out["tool_calls"] = sum(e["tool_calls"] for e in evals)
    out["stop_reasons"] = dict(sum((Counter(e["stop_reasons"]) for e in evals), Counter()))
    return out


DATA_MARKER = "data.json"


def prepare(work: Path, budget: Budget, log: Any) -> dict[str, Any]:
    """The data stage, once per `--work`: a later run with the same data settings reuses it (the marker is
    written last, so a cut-short build is redone; the pipeline's own stages resume)."""
    settings = {"composed_tasks": budget.composed_tasks, "few_service_tasks": budget.few_service_tasks,
                "group_size": budget.group_size}
    marker = work / DATA_MARKER
    if marker.is_file():
        done = json.loads(marker.read_text())
        if done["settings"] != settings:
            raise SystemExit(f"error: {work} holds data made for {done['settings']}, not {settings}; pass another --work")
        log(f"data: reusing {work} (composed {done['composed_rows']} SFT rows, few-service {done['few_service_rows']})")
        return done
    t0 = time.perf_counter()
    _, run_id, composed = composed_data(work, budget)
    _, _, few = few_service_data(work, budget)
    done = {"settings": settings, "composed_run_id": run_id,
            "composed_rows": read_manifest(composed / "sft")["splits"]["train"]["rows"],
            "few_service_rows": read_manifest(few / "sft")["splits"]["train"]["rows"],
            "seconds": round(time.perf_counter() - t0, 1)}
    atomic_write_text(marker, json.dumps(done, indent=1) + "\n")
    log(f"data: composed {done['composed_rows']} SFT rows, few-service {done['few_service_rows']} ({done['seconds']} s)")
    return done


ARMS = ("sft_composed", "sft_few_service", "sft_grpo_completion_focused", "sft_grpo_uniform")


def report(budget: Budget, state: dict[str, Any]) -> dict[str, Any]:
    """The figures so far (every arm's evaluations over the seeds it has reached)."""
    arms, base_eval = state["arms"], state.get("base")
    evals = [e for es in arms.values() for e in es] + ([base_eval] if base_eval else [])
    tool_calls = sum(e["tool_calls"] for e in evals)
    model_note = (f"the random tiny model ({budget.tiny_vocab}-token vocabulary, built on the data, {budget.sft['max_steps']} "
                  "SFT steps): it shows the "
                  "pipeline end to end, not an effect" if budget.model == "tiny" else f"{budget.model}")
    return {
        "budget": budget.name, "model": model_note, "complete": state["complete"],
        "note": ("no evaluated model called a tool: every figure is the floor of an agent that calls none"
                 if tool_calls == 0 else f"the evaluated models made {tool_calls} tool calls in all"),
        "held_out_tasks": state["held_out_tasks"],
        "same_tasks_for_every_arm": all(e["task_ids"] == evals[0]["task_ids"] for e in evals),
        "test_fraction": state["test_fraction"], "floor": state["floor"],
        "a_base": {k: base_eval[k] for k in ("success_rate", "mean_partial_credit", "tool_calls", "seconds")} if base_eval else None,
        "a_sft_composed": spread(arms["sft_composed"]),
        "b_sft_grpo_completion_focused": spread(arms["sft_grpo_completion_focused"]),
        "b_sft_grpo_uniform": spread(arms["sft_grpo_uniform"]),
        "c_sft_composed": spread(arms["sft_composed"]),
        "c_sft_few_service": spread(arms["sft_few_service"]),
        "few_service_walk": FEW_SERVICES.model_dump(include={"n_services", "min_length", "max_length"}),
        "jobs": {arm: [{k: j[k] for k in ("job_id", "seconds", "train_rows", "curve")} for j in js]
                 for arm, js in state["jobs"].items()},
        "evaluations": {"base": base_eval["evaluation_id"] if base_eval else None,
                        **{arm: [{k: e[k] for k in ("evaluation_id", "seconds", "stop_reasons")} for e in es]
                           for arm, es in arms.items()}},
        "data": state["data"], "warehouse": state["warehouse"], "seconds": round(time.perf_counter() - state["t0"], 1),
    }


def run(budget: Budget, work: Path, log: Any, out_file: Path | None = None, arms: tuple[str, ...] = ARMS) -> dict[str, Any]:
    """The `arms` (default all), SFT arms of all seeds first (GRPO starts from SFT on composed tasks, which
    is trained for it even when its own arm is not asked for); `out_file` is rewritten after each
    evaluation with the figures so far."""
    t0 = time.perf_counter()
    data = prepare(work, budget, log)
    wh, run_id, composed, few = Warehouse(work / "composed-wh"), data["composed_run_id"], work / "composed", work / "few"
    fraction = read_manifest(composed / "sft")["split_rule"]["test_fraction"]
    base = build_base(work, budget, [composed / "sft", few / "sft"])
    jobs = work / "jobs"
    held_out = split_tasks(wh, "test", fraction, run_id)[:budget.eval_tasks]
    floor = figures(collect(held_out, Idle(), group_size=1, discover_mode="gateway"), {t.id: t for t in held_out})
    state: dict[str, Any] = {"t0": t0, "complete": False, "held_out_tasks": len(held_out), "test_fraction": fraction,
                             "floor": {"success_rate": floor["success_rate"], "mean_partial_credit": floor["mean_partial_credit"]},
                             "arms": {arm: [] for arm in ARMS}, "jobs": {arm: [] for arm in ARMS}, "data": data,
                             "warehouse": str(wh.root)}

    def save() -> None:
        if out_file is not None:
            atomic_write_text(out_file, json.dumps(report(budget, state), indent=1) + "\n")

    state["base"] = run_eval(wh, base, budget, fraction)
    log(f"base: success {state['base']['success_rate']}, partial credit {state['base']['mean_partial_credit']} "
        f"({state['base']['seconds']} s, {time.perf_counter() - t0:.0f} s in)")
    save()

    def arm_done(arm: str, seed: int, job: dict[str, Any]) -> None:
        state["jobs"][arm].append(job)
        state["arms"][arm].append(run_eval(wh, job["dir"], budget, fraction))
        e = state["arms"][arm][-1]
        log(f"seed {seed} {arm}: success {e['success_rate']}, partial credit {e['mean_partial_credit']} "
            f"(job {job['seconds']} s, eval {e['seconds']} s, {time.perf_counter() - t0:.0f} s in)")
        save()

    grpo_arms = [arm for arm in arms if arm.startswith("sft_grpo_")]
    sft_of_seed: dict[int, dict[str, Any]] = {}
    for seed in budget.seeds:
        if "sft_composed" in arms or grpo_arms:
            sft_of_seed[seed] = train(wh, "sft", data_ref(composed / "sft"), base, budget.sft, seed, jobs, budget)
        if "sft_composed" in arms:
            arm_done("sft_composed", seed, sft_of_seed[seed])
        if "sft_few_service" in arms:
            arm_done("sft_few_service", seed, train(wh, "sft", data_ref(few / "sft"), base, budget.sft, seed, jobs, budget))
    for seed in budget.seeds:
        for arm in grpo_arms:
            grpo = train(wh, "grpo", data_ref(composed / "rl"), str(Path(sft_of_seed[seed]["dir"]) / "model"),
                         {**budget.grpo, "reward_kind": arm.removeprefix("sft_grpo_")}, seed, jobs, budget)
            arm_done(arm, seed, grpo)
    state["complete"] = True
    save()
    return report(budget, state)


def plan(budget: Budget, why: str) -> dict[str, Any]:
    settings = {k: (v.model_dump() if isinstance(v, Hardware) else v) for k, v in vars(budget).items()}
    return {"budget": budget.name, "ran": False, "why": why, "would_run": settings,
            "arms": ["a: base vs SFT(composed)", "b: SFT+GRPO(completion_focused) vs SFT+GRPO(uniform)",
                     "c: SFT(composed) vs SFT(few-service, 2-service walks), same steps/batch/lr"],
            "evaluated_on": "every held-out composed task (test split), gateway mode, greedy, once per seed"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", choices=sorted(BUDGETS), default="smoke")
    ap.add_argument("--work", help="folder for warehouses, datasets and jobs (default: a new temporary folder)")
    ap.add_argument("--prepare", action="store_true", help="build the data into --work and stop (no GPU needed)")
    ap.add_argument("--out", help="a JSON file rewritten after each evaluation with the figures so far")
    ap.add_argument("--seeds", help="training seeds, comma-separated (default: the budget's)")
    ap.add_argument("--arms", help=f"arms to run, comma-separated (default: all of {', '.join(ARMS)})")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    budget = BUDGETS[args.budget]
    if args.seeds:
        budget = dataclasses.replace(budget, seeds=tuple(int(x) for x in args.seeds.split(",")))
    arms = tuple(args.arms.split(",")) if args.arms else ARMS
    if not set(arms) <= set(ARMS):
        ap.error(f"unknown arm(s) {', '.join(sorted(set(arms) - set(ARMS)))}; choose from {', '.join(ARMS)}")
    log = (lambda m: print(f"[train_effect] {m}", file=sys.stderr, flush=True))
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="train_effect-"))
    if args.prepare:
        work.mkdir(parents=True, exist_ok=True)
        done = prepare(work, budget, log)
        print(json.dumps(done) if args.json else f"data for --budget {budget.name} in {work}: {done}")
        return
    if budget.hardware.accelerator == "cuda":
        import torch

        if not torch.cuda.is_available():
            out = plan(budget, "no CUDA device here: this budget needs a GPU (SmolLM2 at 8k tokens is 300-570 s a step on CPU)")
            print(json.dumps(out) if args.json else json.dumps(out, indent=1))
            return
    out = run(budget, work, log, Path(args.out) if args.out else None, arms)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['model']}; {out['note']}")
    print(f"held-out composed tasks: {out['held_out_tasks']} (same for every arm: {out['same_tasks_for_every_arm']})")
    print(f"floor (no tool call): success {out['floor']['success_rate']}, partial credit {out['floor']['mean_partial_credit']}")
    print(f"(a) base: {out['a_base']}")
    for key in ("a_sft_composed", "b_sft_grpo_completion_focused", "b_sft_grpo_uniform", "c_sft_few_service"):
        s = out[key]
        print(f"    {key}: success {s['success_rate']['mean']} +- {s['success_rate']['std']}, "
              f"partial credit {s['mean_partial_credit']['mean']} +- {s['mean_partial_credit']['std']} ({s['seeds']} seeds)")
    print(f"{out['seconds']} s; rows in {out['warehouse']}")


if __name__ == "__main__":
    main()
