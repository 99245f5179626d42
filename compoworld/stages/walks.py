"""Walks: draw, for every task index, the walks the designer may try (item: a task index).

The draws are stored; the instantiate stage reads them back and designs each task from the first
draw it can realize, so which walks a task could have come from is on record, not recomputed.
"""

from __future__ import annotations

import threading

from compoworld.config import PipelineConfig
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage, index_ranges
from compoworld.stages.graph import task_services
from compoworld.stages.items import TaskIndex, range_part
from compoworld.tasks.factory import Factory, TaskConfig
from compoworld.tasks.records import graph_id, graph_rows, walk_rows

_local = threading.local()  # a Factory builds the graph and service sets once; one per thread (not shared)


def factory(cfg: PipelineConfig) -> Factory:
    key = (cfg.seed, cfg.tasks, cfg.services_from, cfg.tool_fidelity)
    built: dict[tuple[int, int, str, str], Factory] = _local.__dict__.setdefault("factories", {})
    if key not in built:
        built[key] = Factory(TaskConfig(n=cfg.tasks, seed=cfg.seed, services_from=cfg.services_from), task_services(cfg))
    return built[key]


def index_batches(stage: str, ctx: RunContext) -> list[Batch]:
    """Batches of `batch_size` task indexes: the unit of the walks and instantiate stages."""
    seed = ctx.cfg.seed
    return [Batch(f"tasks {a}-{b}", range_part(stage, a, b), [TaskIndex(seed=seed, index=i).encode() for i in range(a, b)],
                  {"start": a, "end": b}) for a, b in index_ranges(ctx.cfg)]


class Walks(Stage):
    name = "walks"
    tables = ("walks",)
    item = TaskIndex
    partial = True

    def plan(self, ctx: RunContext) -> list[Batch]:
        return index_batches(self.name, ctx)

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        f = factory(ctx.cfg)
        gid = graph_id(graph_rows(f.graph))
        out = BatchOutput(self.name, {"walks": []})
        for item_id in batch.selected(only):
            item = TaskIndex.decode(item_id)
            try:
                out.tables["walks"].extend(walk_rows(f.draw(item.index), ctx.cfg.seed, gid))
                out.succeeded.append(item_id)
            except Exception as exc:
                out.guard(item, exc)
        return out


STAGE = Walks()
