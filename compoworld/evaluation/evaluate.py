"""One evaluation: an agent on the tasks of a split, scored per criterion, recorded in the warehouse.

The split is the datasets' split (`compoworld.datasets.splits.assign_splits` with the datasets' salt),
computed over the tasks of the run the checkpoint's data was built from when the warehouse holds it
(else over every task), so `test` is exactly the service sets the training rows left out.
The evaluation id is a content hash of what was evaluated and how (agent, checkpoint, tasks, mode,
seed, group size, agent settings): a rerun rewrites its rows instead of adding copies."""

from __future__ import annotations

import time
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from compoworld.canonical import content_hash
from compoworld.datasets.build import SPLIT_SALT, BuildOptions
from compoworld.datasets.source import load_source
from compoworld.datasets.splits import assign_splits
from compoworld.errors import UserError
from compoworld.evaluation.figures import figures, result_rows
from compoworld.evaluation.provenance import Provenance, provenance_of
from compoworld.rollout.agents import Agent, make_agent
from compoworld.rollout.runner import collect
from compoworld.services.environment import DiscoverMode
from compoworld.tasks.model import Task
from compoworld.warehouse import Warehouse, write_evaluation

LOCAL = "local:"


class EvalOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    split: Literal["train", "test"] = "test"
    discover_mode: DiscoverMode = "direct"
    n_tasks: int | None = Field(None, ge=1)  # the first N tasks of the split, by task id
    group_size: int = Field(1, ge=1)
    seed: int = 0
    test_fraction: float | None = Field(None, ge=0.0, lt=1.0)  # None: the checkpoint's data's split rule, else the datasets' default
    agent_kwargs: dict[str, Any] = Field(default_factory=dict)  # local/litellm agent settings (max_steps, ...)
    # Rollouts at once: concurrent requests to a model server, or one batched generate for a local model.
    # Not part of the evaluation's id: it changes how fast the figures come, not what is asked.
    workers: int = Field(1, ge=1)


def agent_and_provenance(spec: str, seed: int, **kwargs: Any) -> tuple[Agent, Provenance]:
    """The agent for `spec` (a `UserError` for an unknown one) and, for `local:CHECKPOINT`, where it came from.
    A job folder given as the model runs the job's trained checkpoint."""
    provenance = provenance_of(spec[len(LOCAL):]) if spec.startswith(LOCAL) else Provenance()
    if provenance.checkpoint is not None:
        spec = LOCAL + provenance.checkpoint
    try:
        return make_agent(spec, seed=seed, **kwargs), provenance
    except ValueError as exc:
        raise UserError(str(exc)) from None


def split_tasks(wh: Warehouse, split: str, test_fraction: float, run_id: str | None = None) -> list[Task]:
    """The tasks of `split`, by task id: those of `run_id` when the warehouse holds any, else every task."""
    source = load_source(wh, run_id) if run_id else None
    if source is None or not source.tasks:
        source = load_source(wh)
    if not source.tasks:
        raise UserError(f"no tasks in the warehouse at {wh.root}; run 'compoworld run --warehouse {wh.root}' first "
                        "or pass --warehouse DIR")
    splits = assign_splits({tid: (rec.task.services, rec.env_services) for tid, rec in source.tasks.items()},
                           test_fraction, SPLIT_SALT)
    return [rec.task for tid, rec in source.tasks.items() if splits[tid] == split]


def evaluation_id(agent: Agent, provenance: Provenance, tasks: list[Task], options: EvalOptions) -> str:
    body = {"agent": agent.label, "model": agent.model, "checkpoint": provenance.job_id or provenance.checkpoint,
            "tasks": [t.id for t in tasks], "split": options.split, "discover_mode": options.discover_mode,
            "group_size": options.group_size, "seed": options.seed, "agent_settings": options.agent_kwargs}
    return "eval-" + content_hash(body, 16)


def evaluate(wh: Warehouse, agent_spec: str, options: EvalOptions = EvalOptions(), record: bool = True,
             log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Roll `agent_spec` out on the split's tasks, score them, and (with `record`) write the rows.
    Returns the `evaluations` row's fields with the figures parsed, the test fraction used, the task ids
    and the seconds the rollouts took (wall time stays out of the rows: a rerun writes the same rows)."""
    agent, provenance = agent_and_provenance(agent_spec, options.seed, **options.agent_kwargs)
    fraction = options.test_fraction if options.test_fraction is not None else (
        provenance.test_fraction if provenance.test_fraction is not None else BuildOptions().test_fraction)
    tasks = split_tasks(wh, options.split, fraction, provenance.data_run_id)[:options.n_tasks]
    if not tasks:
        raise UserError(f"the {options.split} split of the warehouse at {wh.root} has no task (test fraction {fraction:g}); "
                        "make more tasks or pass another --split")
    if log:
        log(f"evaluating {agent.label} on {len(tasks)} {options.split} task(s) x {options.group_size}, {options.discover_mode} mode")
    t0 = time.perf_counter()
    trajectories = collect(tasks, agent, group_size=options.group_size, seed=options.seed,
                           discover_mode=options.discover_mode, workers=options.workers)
    seconds = round(time.perf_counter() - t0, 2)
    by_id = {t.id: t for t in tasks}
    figs = figures(trajectories, by_id)
    row = {"evaluation_id": evaluation_id(agent, provenance, tasks, options), "agent": agent.label,
           "agent_kind": agent.kind, "model": agent.model or None, "checkpoint": provenance.checkpoint,
           "job_id": provenance.job_id, "dataset_id": provenance.dataset_id, "data_revision": provenance.data_revision,
           "data_run_id": provenance.data_run_id, "split": options.split, "discover_mode": options.discover_mode,
           "n_tasks": len(tasks), "group_size": options.group_size, "seed": options.seed,
           "success_rate": figs["success_rate"], "mean_partial_credit": figs["mean_partial_credit"], "figures_json": figs}
    if record:
        write_evaluation(wh, row, result_rows(trajectories, by_id))
    out = {k: v for k, v in row.items() if k != "figures_json"}
    out.update(test_fraction=fraction, task_ids=[t.id for t in tasks], seconds=seconds, figures=figs)
    return out
