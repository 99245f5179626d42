"""Collect: a rollout group of every configured agent on every accepted task (item: agent + task)."""

from __future__ import annotations

from typing import Any

from compoworld.config import PipelineConfig
from compoworld.rollout.agents import Agent, make_agent
from compoworld.rollout.records import trajectory_rows
from compoworld.rollout.runner import classes_for, rollout
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage, index_ranges
from compoworld.stages.items import Group, range_part
from compoworld.tasks.records import tasks_from_rows
from compoworld.warehouse import part_column


def make_rollout_agent(spec: str, cfg: PipelineConfig) -> Agent:
    kwargs: dict[str, Any] = {}
    if spec.startswith(("litellm:", "local:")) and cfg.group_size > 1:
        kwargs["temperature"] = 1.0  # a group of identical greedy rollouts has no spread
    return make_agent(spec, seed=cfg.seed, **kwargs)


def agent_batches(stage: str, ctx: RunContext) -> list[Batch]:
    """Per agent, one batch per instantiate part that exists, over the tasks it holds."""
    out = []
    for agent in ctx.cfg.agents:
        for a, b in index_ranges(ctx.cfg):
            tasks_part = range_part("instantiate", a, b)
            if not ctx.wh.has_part("tasks", ctx.run_id, tasks_part):
                continue  # its tasks were never written (the instantiate batch failed): nothing to roll out
            ids = sorted(part_column(ctx.wh, "tasks", ctx.run_id, tasks_part, "task_id"))
            out.append(Batch(f"{agent} on tasks {a}-{b}", range_part(stage, a, b, agent),
                             [Group(agent=agent, task_id=i).encode() for i in ids],
                             {"agent": agent, "start": a, "end": b, "task_ids": ids}))
    return out


class Collect(Stage):
    name = "collect"
    tables = ("trajectories", "trajectory_steps", "criterion_results")
    item = Group
    partial = True

    def plan(self, ctx: RunContext) -> list[Batch]:
        return agent_batches(self.name, ctx)

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        p = batch.params
        out = BatchOutput(self.name, {t: [] for t in self.tables})
        wanted = {Group.decode(i).task_id for i in batch.selected(only)}
        rows = ctx.wh.read_part("tasks", ctx.run_id, range_part("instantiate", p["start"], p["end"]))
        tasks = [t for t in tasks_from_rows(rows) if t.id in wanted]
        if not tasks:
            return out
        agent = make_rollout_agent(p["agent"], ctx.cfg)
        classes = classes_for(tasks)
        for task in tasks:
            item = Group(agent=p["agent"], task_id=task.id)
            try:
                # The group number is the task's index: stable when other tasks fail or are retried.
                trajs = [rollout(task, agent, classes, seed=ctx.cfg.seed, rollout_index=i, group=task.index,
                                 discover_mode=ctx.cfg.discover_mode) for i in range(ctx.cfg.group_size)]
            except Exception as exc:
                out.guard(item, exc)
                continue
            for table, table_rows in trajectory_rows(trajs).items():
                out.tables[table].extend(table_rows)
            out.succeeded.append(item.encode())
        return out


STAGE = Collect()
