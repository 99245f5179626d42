"""Graph: the run's services and tools, and the typed dependency graph walks are drawn from."""

from __future__ import annotations

from compoworld.config import PipelineConfig
from compoworld.errors import UserError
from compoworld.services.records import service_rows
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named
from compoworld.tasks.graph import build_graph
from compoworld.tasks.records import graph_rows


ORDER = ("faithful", "structural", "simulated")


def task_services(cfg: PipelineConfig) -> dict[str, type[Service]]:
    """The services tasks are made from: those of `services_from`, compiled ones with only their tools
    at `tool_fidelity` or better (a service left with none is not offered)."""
    from compoworld.synthesis.cache import at_fidelity

    allowed = set(ORDER[: ORDER.index(cfg.tool_fidelity) + 1])
    return at_fidelity(all_services(cfg.services_from), allowed)


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
        rows = service_rows(classes)  # every tool, with its fidelity level; the graph only over those tasks may use
        return BatchOutput(self.name, {**rows, "graph_edges": graph_rows(build_graph(task_services(ctx.cfg).values()))}, succeeded=["graph"])


STAGE = Graph()
