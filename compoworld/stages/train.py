"""Train: launch SFT/GRPO training jobs on the run's datasets (one item: the jobs)."""

from __future__ import annotations

from pathlib import Path

from compoworld.errors import UserError
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.training import launch
from compoworld.warehouse import datasets_fingerprint


class Train(Stage):
    name = "train"
    tables = ()  # jobs are not warehouse records yet: the orchestrator's cache alone says "done"
    item = Named

    def plan(self, ctx: RunContext) -> list[Batch]:
        datasets = datasets_fingerprint(ctx.wh, ctx.run_id)
        return [Batch("sft + grpo jobs", "train", ["jobs"],
                      {"datasets_dir": str(Path(ctx.cfg.datasets_dir).expanduser().absolute()), "datasets": datasets})]

    def done(self, ctx: RunContext, batch: Batch) -> bool:
        return False

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        if not batch.params["datasets"]:
            raise UserError("no datasets for this run: switch on the datasets stage (stages.datasets: true) first")
        launch(ctx.wh, Path(batch.params["datasets_dir"]), run_id=ctx.run_id)
        return BatchOutput(self.name, {}, succeeded=["jobs"])


STAGE = Train()
