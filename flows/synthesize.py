"""Synthesize services: MCP tool specifications compiled into executable services."""

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
    recorded_run,
    resolve,
    run_batches,
)

PART = "synthesize"


@task(name="synthesize", **BATCH_TASK)
def synthesize_batch(warehouse: str, config: dict[str, Any], code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    out, summary = P.synthesize(cfg)
    P.persist(Warehouse(warehouse), cfg.run_id, PART, out, cfg.digest())
    get_run_logger().info(f"synthesize: {summary}")
    return out.info()


@flow(name="synthesize")
def synthesize_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                    record_run: bool = True) -> dict[str, Any]:
    """Compile (and verify) services from the spec corpus; specs, services and tools rows."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "synthesize", record_run):
        if not P.synthesis_available():
            get_run_logger().info("synthesize: skipped (compoworld.synthesis.run_synth is not in this checkout)")
            return {"skipped": True}
        batch = Batch("spec corpus", synthesize_batch,
                      {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "code": P.code_version("synthesize")},
                      [(t, PART) for t in P.STAGE_TABLES["synthesize"]], ["corpus"])
        return run_batches(ctx, "synthesize", [batch])
