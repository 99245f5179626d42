"""Instantiate tasks: design, probe and submit, in batches of task indexes."""

from __future__ import annotations

from typing import Any

from prefect import flow, task

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
)


@task(name="instantiate-batch", **BATCH_TASK)
def instantiate_batch(warehouse: str, config: dict[str, Any], start: int, end: int, code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    out = P.instantiate(cfg, range(start, end))
    P.persist(Warehouse(warehouse), cfg.run_id, P.batch_part("instantiate", start, end), out, cfg.digest())
    return out.info()


def batches(ctx: Ctx) -> list[Batch]:
    code = P.code_version("instantiate")
    out = []
    for a, b in P.index_batches(ctx.cfg):
        part = P.batch_part("instantiate", a, b)
        out.append(Batch(f"tasks {a}-{b}", instantiate_batch,
                         {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "start": a, "end": b, "code": code},
                         [(t, part) for t in P.STAGE_TABLES["instantiate"]],
                         [P.instantiate_item(ctx.cfg.seed, i) for i in range(a, b)]))
    return out


@flow(name="instantiate")
def instantiate_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                     record_run: bool = True) -> dict[str, Any]:
    """Design, probe and submit `tasks` tasks; rejected and failed indexes land in `failures`."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "instantiate", record_run):
        return run_batches(ctx, "instantiate", batches(ctx))
