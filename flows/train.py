"""Train: launch training jobs on a run's datasets (when the checkout has a launcher,
`compoworld.training.launch`; otherwise the stage is skipped with a log line)."""

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
    recorded_run,
    resolve,
    run_batches,
)


@task(name="launch-training", **BATCH_TASK)
def train_batch(warehouse: str, run_id: str, datasets_dir: str, datasets: str, code: str) -> dict[str, Any]:
    launcher = P.training_launcher()
    if launcher is None:
        raise P.StageUnavailable("compoworld.training.launch is not available in this checkout")
    wh = Warehouse(warehouse)
    result = launcher(wh, Path(datasets_dir), run_id=run_id)
    get_run_logger().info(f"train: {result}")
    P.record_outcomes(wh, run_id, P.BatchOutput("train", {}, succeeded=["jobs"]), "")
    return {"succeeded": 1, "failed": 0, "jobs": result}


@flow(name="train")
def train_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
               record_run: bool = True) -> dict[str, Any]:
    """Launch SFT/GRPO training on the run's datasets (once per set of datasets and training code)."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "train", record_run):
        if P.training_launcher() is None:
            get_run_logger().info("train: skipped (no compoworld.training.launch in this checkout)")
            return {"skipped": True}
        datasets = ctx.wh.query("SELECT coalesce(md5(string_agg(dataset_id, ',' ORDER BY dataset_id)), '') AS d "
                                "FROM datasets WHERE run_id = ?", [ctx.run_id])[0]["d"]
        if not datasets:
            get_run_logger().warning("train: no datasets for this run; run the datasets stage first")
            return {"skipped": True}
        batch = Batch("sft + grpo jobs", train_batch,
                      {"warehouse": str(ctx.wh.root), "run_id": ctx.run_id,
                       "datasets_dir": str(Path(ctx.cfg.datasets_dir).expanduser().absolute()),
                       "datasets": datasets, "code": P.code_version("train")},
                      [], ["jobs"])  # jobs are not warehouse records: the Prefect cache alone says "done"
        return run_batches(ctx, "train", [batch])
