"""Instantiate: design, probe and submit each task from its stored walk draws (item: a task index)."""

from __future__ import annotations

from compoworld.stages.base import Batch, BatchOutput, ItemFailure, RunContext, Stage
from compoworld.stages.items import TaskIndex, range_part
from compoworld.stages.walks import factory, index_batches
from compoworld.tasks.factory import Rejection, fewer_collections
from compoworld.tasks.records import task_rows, walks_from_rows


class Instantiate(Stage):
    name = "instantiate"
    tables = ("tasks", "rubric_criteria", "reference_steps")
    item = TaskIndex
    partial = True

    def plan(self, ctx: RunContext) -> list[Batch]:
        return index_batches(self.name, ctx)

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        start, end = batch.params["start"], batch.params["end"]
        walks_part = range_part("walks", start, end)
        out = BatchOutput(self.name, {t: [] for t in self.tables})
        todo = batch.selected(only)
        if not ctx.wh.has_part("walks", ctx.run_id, walks_part):
            # Not a rejection: the walks batch failed. Retryable once the walks stage has run.
            out.failures = [ItemFailure(i, "missing_walks", f"no walk draws for tasks {start}-{end}: the walks stage "
                                        "did not complete; run `compoworld retry-failed`") for i in todo]
            return out
        draws = walks_from_rows(ctx.wh.read_part("walks", ctx.run_id, walks_part))
        with fewer_collections():
            for item_id in todo:
                item = TaskIndex.decode(item_id)
                try:
                    result = factory(ctx.cfg).make(item.index, draws.get(item.index, []))
                except Exception as exc:
                    out.guard(item, exc)
                    continue
                if isinstance(result, Rejection):
                    out.failures.append(ItemFailure(item_id, f"rejected_{result.phase}", f"{result.phase}: {result.reason}"))
                    continue
                for table, rows in task_rows(result).items():
                    out.tables[table].extend(rows)
                out.succeeded.append(item_id)
        return out


STAGE = Instantiate()
