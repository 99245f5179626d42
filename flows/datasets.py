"""Assemble datasets: SFT and RL layouts from a run's tasks and trajectories (when the checkout
has `compoworld.datasets.build_datasets`; otherwise the stage is skipped with a log line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task

from compoworld import pipeline as P
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

KINDS = ("sft", "rl")


@task(name="build-datasets", **BATCH_TASK)
def datasets_batch(warehouse: str, run_id: str, out_dir: str, inputs: str, code: str) -> dict[str, Any]:
    wh = Warehouse(warehouse)
    result = P.build_datasets(wh, Path(out_dir), run_id)
    P.record_outcomes(wh, run_id, P.BatchOutput("datasets", {}, succeeded=["datasets"]), "")
    splits = {k: v.get("splits") for k, v in result.items() if isinstance(v, dict) and "splits" in v}
    get_run_logger().info(f"datasets: {splits} under {out_dir}")
    return {"succeeded": 1, "failed": 0, "splits": splits}


def inputs_fingerprint(ctx: Ctx) -> str:
    """The datasets depend on the run's tasks, trajectories and rewards; ids are content hashes, so
    the ids (and the reward values) fingerprint them without reading the rows."""
    row = ctx.wh.query("""
        SELECT (SELECT md5(coalesce(string_agg(task_id, ',' ORDER BY task_id), '')) FROM tasks WHERE run_id = $1) AS t,
               (SELECT md5(coalesce(string_agg(trajectory_id, ',' ORDER BY trajectory_id), '')) FROM trajectories WHERE run_id = $1) AS j,
               (SELECT md5(coalesce(string_agg(trajectory_id || reward_kind || CAST(reward AS VARCHAR), ',' ORDER BY trajectory_id, reward_kind), ''))
                FROM rewards WHERE run_id = $1) AS r""", [ctx.run_id])[0]
    return f"{row['t']}:{row['j']}:{row['r']}"


@flow(name="datasets")
def datasets_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                  record_run: bool = True) -> dict[str, Any]:
    """SFT data from verified successes and RL data from tasks + rubrics, under `datasets_dir`."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "datasets", record_run):
        if not P.datasets_available():
            get_run_logger().info("datasets: skipped (compoworld.datasets.build_datasets is not in this checkout)")
            return {"skipped": True}
        out_dir = Path(ctx.cfg.datasets_dir).expanduser().absolute()
        batch = Batch("sft + rl", datasets_batch,
                      {"warehouse": str(ctx.wh.root), "run_id": ctx.run_id, "out_dir": str(out_dir),
                       "inputs": inputs_fingerprint(ctx), "code": P.code_version("datasets")},
                      [("datasets", f"build-{k}") for k in KINDS], ["datasets"],
                      stale=not all((out_dir / k).is_dir() for k in KINDS))  # files gone: rebuild even if rows remain
        return run_batches(ctx, "datasets", [batch])
