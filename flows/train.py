"""Train: launch a training job on a run's datasets (when the checkout has a launcher,
`compoworld.training.launch`; otherwise the stage is skipped with a log line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task

from compoworld import pipeline as P
from compoworld.warehouse import Warehouse
from flows.common import ConfigArg, recorded_run, resolve


@task(name="launch-training", retries=1, retry_delay_seconds=10)
def launch(warehouse: str, run_id: str, datasets_dir: str) -> Any:
    launcher = P.training_launcher()
    assert launcher is not None
    return launcher(Warehouse(warehouse), Path(datasets_dir), run_id=run_id)


@flow(name="train")
def train_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
               record_run: bool = True) -> dict[str, Any]:
    """Launch SFT/GRPO training on the run's datasets."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "train", record_run):
        if P.training_launcher() is None:
            get_run_logger().info("train: skipped (no compoworld.training.launch in this checkout)")
            return {"skipped": True}
        return {"job": launch(str(ctx.wh.root), ctx.run_id, str(Path(ctx.cfg.datasets_dir).expanduser().absolute()))}
