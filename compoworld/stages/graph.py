"""Graph: the run's services and tools, and the typed dependency graph walks are drawn from."""

from __future__ import annotations

from compoworld.errors import UserError
from compoworld.services.records import service_rows
from compoworld.services.registry import all_services
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.tasks.graph import build_graph
from compoworld.tasks.records import graph_rows


class Graph(Stage):
    name = "graph"
    tables = ("services", "tools", "graph_edges")
    item = Named

    def plan(self, ctx: RunContext) -> list[Batch]:
        return [Batch("services and graph", "graph", ["graph"])]

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        classes = all_services(ctx.cfg.services_from)
        if not classes:
            raise UserError(f"no services for services_from={ctx.cfg.services_from!r}: compiled services come from the "
                            "synthesize stage (switch it on in the config, or run `compoworld synth` first)")
        rows = service_rows(classes)
        return BatchOutput(self.name, {**rows, "graph_edges": graph_rows(build_graph(classes.values()))}, succeeded=["graph"])


STAGE = Graph()
