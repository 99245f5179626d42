"""Verify services: generated checks per service into `service_checks` (one task per service)."""

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


@task(name="verify-service", **BATCH_TASK)
def verify_batch(warehouse: str, config: dict[str, Any], service: str, code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    out = P.verify([service], cfg)[service]
    P.persist(Warehouse(warehouse), cfg.run_id, P.verify_part(service), out, cfg.digest())
    return out.info()


@flow(name="verify")
def verify_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                record_run: bool = True) -> dict[str, Any]:
    """Schema, invalid-argument, round-trip, determinism and rollback checks of every service."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "verify", record_run):
        if not P.verify_available():
            get_run_logger().info("verify: skipped (compoworld.synthesis.verify is not in this checkout)")
            return {"skipped": True}
        code = P.code_version("verify")
        todo = [Batch(f"service {name}", verify_batch,
                      {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "service": name, "code": code},
                      [("service_checks", P.verify_part(name))], [name])
                for name in sorted(P.service_classes(ctx.cfg))]
        return run_batches(ctx, "verify", todo)
