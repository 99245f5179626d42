"""Datasets: SFT and RL layouts (Hub layout: README.md + data/*.parquet) from a run's tasks,
trajectories and rewards, recorded in `datasets` (one item)."""

from __future__ import annotations

from pathlib import Path

from compoworld.datasets.build import build_datasets
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.warehouse import run_inputs_fingerprint

KINDS = ("sft", "rl")


class Datasets(Stage):
    name = "datasets"
    tables = ("datasets",)
    item = Named

    def plan(self, ctx: RunContext) -> list[Batch]:
        out_dir = Path(ctx.cfg.datasets_dir).expanduser().absolute()
        # The datasets depend on the run's tasks, trajectories and rewards: their fingerprint is an input.
        return [Batch("sft + rl", "build", ["datasets"], {"out_dir": str(out_dir), "inputs": run_inputs_fingerprint(ctx.wh, ctx.run_id)},
                      stale=not all((out_dir / k).is_dir() for k in KINDS))]  # files gone: rebuild even if rows remain

    def outputs(self, batch: Batch) -> list[tuple[str, str]]:
        return [("datasets", f"build-{k}") for k in KINDS]

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        # build_datasets writes its own `datasets` rows (one part per kind, also used by `datasets build`).
        build_datasets(ctx.wh, Path(batch.params["out_dir"]), run_id=ctx.run_id)
        return BatchOutput(self.name, {}, succeeded=["datasets"])


STAGE = Datasets()
