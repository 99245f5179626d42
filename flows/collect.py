"""Collect trajectories: a rollout group of every agent on every accepted task."""

from __future__ import annotations

from typing import Any

from prefect import flow, get_run_logger, task

from compoworld import pipeline as P
from compoworld.config import PipelineConfig
from compoworld.warehouse import Warehouse
from flows.common import (
    BATCH_TASK,
    Batch,
    ConfigArg,
    Ctx,
    recorded_run,
    resolve,
    run_batches,
    task_ids_by_batch,
)


@task(name="collect-batch", **BATCH_TASK)
def collect_batch(warehouse: str, config: dict[str, Any], agent: str, start: int, end: int, task_ids: list[str],
                  code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    wh = Warehouse(warehouse)
    wanted = set(task_ids)
    rows = wh.read_part("tasks", cfg.run_id, P.batch_part("instantiate", start, end))
    tasks = [t for t in P.tasks_from_rows(rows) if t.id in wanted]
    out = P.collect(cfg, agent, tasks)
    P.persist(wh, cfg.run_id, P.batch_part("collect", start, end, agent), out, cfg.digest())
    return out.info()


def batches(ctx: Ctx) -> list[Batch]:
    code = P.code_version("collect")
    by_batch = task_ids_by_batch(ctx)
    out = []
    for agent in ctx.cfg.agents:
        for a, b in P.index_batches(ctx.cfg):
            if not ctx.wh.has_part("tasks", ctx.run_id, P.batch_part("instantiate", a, b)):
                continue  # its tasks were never written (the instantiate batch failed): nothing to roll out
            ids = by_batch.get((a, b), [])
            part = P.batch_part("collect", a, b, agent)
            out.append(Batch(f"{agent} on tasks {a}-{b}", collect_batch,
                             {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "agent": agent, "start": a,
                              "end": b, "task_ids": ids, "code": code},
                             [(t, part) for t in P.STAGE_TABLES["collect"]], [P.group_item(agent, i) for i in ids]))
    return out


@flow(name="collect")
def collect_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                 record_run: bool = True) -> dict[str, Any]:
    """`group_size` rollouts of each configured agent on each accepted task, scored per criterion."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "collect", record_run):
        todo = batches(ctx)
        if not todo:
            get_run_logger().warning("collect: no tasks in the warehouse for this run; run instantiate first")
        return run_batches(ctx, "collect", todo)
