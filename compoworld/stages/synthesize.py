"""Synthesize: compile services from the MCP spec corpus (one item: the corpus)."""

from __future__ import annotations

from pathlib import Path

from compoworld.canonical import content_hash
from compoworld.services.records import service_rows
from compoworld.services.registry import compiled_services
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.synthesis import run_synth
from compoworld.synthesis.loader import load_specs


class Synthesize(Stage):
    name = "synthesize"
    tables = ("specs", "services", "tools")
    item = Named

    def plan(self, ctx: RunContext) -> list[Batch]:
        return [Batch("spec corpus", "synthesize", ["corpus"])]

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        paths = [Path(p) for p in ctx.cfg.synth_specs] if ctx.cfg.synth_specs else None
        # Library services are verified by the verify stage, with every compiled one.
        run_synth(paths, coder=ctx.cfg.synth_coder, verify_library_services=False)
        specs = []
        for s in load_specs(paths).servers:
            body = s.model_dump(mode="json")
            specs.append({"spec_id": "spec_" + content_hash(body), "name": s.name, "source": s.source or s.file,
                          "n_tools": len(s.tools), "spec_json": body})
        return BatchOutput(self.name, {"specs": specs, **service_rows(compiled_services())}, succeeded=["corpus"])


STAGE = Synthesize()
