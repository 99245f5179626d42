"""Train: launch SFT/GRPO training jobs on the run's datasets (one item: the jobs)."""

from __future__ import annotations

from pathlib import Path

from compoworld.errors import UserError
from compoworld.stages.base import Batch, BatchOutput, ItemFailure, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.training import launch
from compoworld.warehouse import datasets_fingerprint


class Train(Stage):
    """Each job is a `training_jobs` row under its own run id (the job's content id, as `compoworld train`
    writes it), not a part of the pipeline run: the same job launched again rewrites its row. So the
    stage declares no part tables, and the orchestrator's cache alone says "done"."""

    name = "train"
    tables = ()
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
        out = launch(ctx.wh, Path(batch.params["datasets_dir"]), run_id=ctx.run_id)
        failed = [f"{rec['job_id']} failed (exit {rec['returncode']}): {rec.get('error') or 'no cause in its log'}; "
                  f"log: {rec.get('log')}" for kind, rec in out.items()
                  if isinstance(rec, dict) and rec.get("returncode") not in (None, 0)]
        if failed:
            error = "training job " + "; ".join(failed)
            return BatchOutput(self.name, {}, failures=[ItemFailure("jobs", "TrainingFailed", error, 1)])
        return BatchOutput(self.name, {}, succeeded=["jobs"])


STAGE = Train()
