"""Sample walks: the services a run's walks are drawn from, and their dependency graph."""

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
    recorded_run,
    resolve,
    run_batches,
)

PART = "sample_walks"


@task(name="sample-walks", **BATCH_TASK)
def sample_walks_batch(warehouse: str, config: dict[str, Any], code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    out = P.sample_walks(cfg)
    P.persist(Warehouse(warehouse), cfg.run_id, PART, out, cfg.digest())
    return out.info()


@flow(name="sample_walks")
def sample_walks_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                      record_run: bool = True) -> dict[str, Any]:
    """Services and tools of the run, and the typed dependency graph walks are sampled from (each
    task's walk is written with the task: it is fixed when the designer realizes it)."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "sample_walks", record_run):
        batch = Batch("services and graph", sample_walks_batch,
                      {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "code": P.code_version("sample_walks")},
                      [(t, PART) for t in P.STAGE_TABLES["sample_walks"]], ["graph"])
        return run_batches(ctx, "sample_walks", [batch])
