"""The plain runner: the stages of the registry, in order, in this process.

No orchestration (no retries, no cache); the Prefect flows in `flows/` run the very same `plan` and
`execute`, so both write the same parts, byte for byte. It is the baseline the orchestration
overhead is measured against, and the one way tasks are made outside the pipeline (`make_tasks`,
used by `compoworld tasks generate` and `compoworld rollout`).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from typing import Any

from compoworld.canonical import short_hash
from compoworld.config import PipelineConfig
from compoworld.stages.base import RunContext, Stage
from compoworld.stages.registry import stages
from compoworld.tasks.model import Task
from compoworld.tasks.records import tasks_from_rows
from compoworld.warehouse import Warehouse, run_summary, run_task_rows

Log = Callable[[str], None]
TASK_STAGES = ("graph", "walks", "instantiate")  # what makes tasks, wherever they are made


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def pipeline_code_version() -> str:
    return short_hash("".join(s.code_version() for s in stages()))


def run_row(cfg: PipelineConfig, flow: str, status: str, started_at: dt.datetime,
            finished_at: dt.datetime | None = None) -> dict[str, Any]:
    # The one table with wall-clock times: it records when, every other table records what. The
    # warehouse path is left out of the config: the row is in it, wherever it was moved to.
    return {"run_id": cfg.run_id, "flow": flow, "status": status, "code_version": pipeline_code_version(),
            "seed": cfg.seed, "config_json": cfg.model_dump(mode="json", exclude={"warehouse"}), "started_at": started_at,
            "finished_at": finished_at}


def write_run_row(ctx: RunContext, flow: str, status: str, started: dt.datetime, finished: dt.datetime | None = None) -> None:
    ctx.wh.write("runs", [run_row(ctx.cfg, flow, status, started, finished)], run_id=ctx.run_id, part="run")


def produced_nothing(stage: Stage, totals: dict[str, Any]) -> str | None:
    """A warning line when a stage ran but made nothing (no batch, or no rows and no success)."""
    if totals["batches"] == 0:
        return f"{stage.name}: nothing to do (no input for this stage in the warehouse)"
    if stage.tables and totals["rows"] == 0 and totals["succeeded"] == 0 and totals["cached"] < totals["batches"]:
        return f"{stage.name}: produced no rows ({totals['failed']} item(s) failed; see `compoworld sql \"FROM failures\"`)"
    return None


def run_stage(stage: Stage, ctx: RunContext, log: Log = print, resume: bool = False) -> dict[str, Any]:
    """Every batch of one stage (with `resume`, only those whose parts are not complete)."""
    t0 = time.perf_counter()
    totals: dict[str, Any] = {"batches": 0, "cached": 0, "rows": 0, "succeeded": 0, "failed": 0}
    batches = stage.plan(ctx)
    totals["batches"] = len(batches)
    for i, batch in enumerate(batches, 1):
        if resume and stage.done(ctx, batch):
            totals["cached"] += 1
            continue
        info = stage.execute(ctx, batch)
        for k in ("rows", "succeeded", "failed"):
            totals[k] += info[k]
        if len(batches) > 1 and (i % 10 == 0 or i == len(batches)):
            log(f"{stage.name}: {i}/{len(batches)} batches, {totals['succeeded']} ok, {totals['failed']} failed")
    warning = produced_nothing(stage, totals)
    if warning:
        log(f"warning: {warning}")
    log(f"{stage.name}: {totals['succeeded']} ok, {totals['failed']} failed, {totals['rows']:,} rows "
        f"({time.perf_counter() - t0:.1f} s)")
    return totals


def run_pipeline(cfg: PipelineConfig, wh: Warehouse, log: Log = print, names: Sequence[str] | None = None,
                 flow: str = "plain", resume: bool = False) -> dict[str, Any]:
    """The enabled stages (or those named), in registry order, with a `runs` row around them."""
    ctx = RunContext(cfg, wh)
    t0 = time.perf_counter()
    started = now_utc()
    write_run_row(ctx, flow, "running", started)
    try:
        for stage in stages():
            if (names is None and stage.enabled(cfg)) or (names is not None and stage.name in names):
                run_stage(stage, ctx, log, resume)
    except BaseException:
        write_run_row(ctx, flow, "failed", started, now_utc())
        raise
    write_run_row(ctx, flow, "completed", started, now_utc())
    return {**run_summary(wh, cfg.run_id), "seconds": round(time.perf_counter() - t0, 1)}


def make_tasks(cfg: PipelineConfig, wh: Warehouse, log: Log = print) -> tuple[list[Task], dict[str, Any]]:
    """Make a config's tasks the one way: the graph, walks and instantiate stages into the
    warehouse, with draws, tasks and every rejection or failure recorded as the pipeline records them
    (a rerun rewrites the same parts: fast, and never stale after a code change). Returns the run's
    tasks and the run summary."""
    summary = run_pipeline(cfg, wh, log, names=TASK_STAGES, flow="tasks")
    return tasks_from_rows(run_task_rows(wh, cfg.run_id)), summary

