"""Score and reward: rubric rewards (uniform and completion-focused) and GRPO advantages per group."""

from __future__ import annotations

from typing import Any

from prefect import flow, task

from compoworld import pipeline as P
from compoworld.config import PipelineConfig
from compoworld.rollout.trajectory import group_id
from compoworld.warehouse import Warehouse
from flows.common import (
    BATCH_TASK,
    Batch,
    ConfigArg,
    Ctx,
    recorded_run,
    resolve,
    run_batches,
    task_ids_by_batch,
)


@task(name="score-batch", **BATCH_TASK)
def score_batch(warehouse: str, config: dict[str, Any], agent: str, start: int, end: int, trajectory_ids: list[str],
                code: str) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    wh = Warehouse(warehouse)
    out = P.score_part(wh, cfg.run_id, cfg, agent, start, end)
    P.persist(wh, cfg.run_id, P.batch_part("score", start, end, agent), out, cfg.digest())
    return out.info()


def batches(ctx: Ctx) -> list[Batch]:
    """One batch per collect part; its cache key holds the part's trajectory ids, which are content
    hashes of the trajectories and their criterion results: new rollouts, new rewards."""
    code = P.code_version("score")
    by_batch = task_ids_by_batch(ctx)
    by_group: dict[str, list[str]] = {}
    for r in ctx.wh.query("SELECT group_id, trajectory_id FROM trajectories WHERE run_id = ?", [ctx.run_id]):
        by_group.setdefault(r["group_id"], []).append(r["trajectory_id"])
    out = []
    for agent_spec in ctx.cfg.agents:
        agent = P.make_rollout_agent(agent_spec, ctx.cfg)
        for a, b in P.index_batches(ctx.cfg):
            if not ctx.wh.has_part("trajectories", ctx.run_id, P.batch_part("collect", a, b, agent_spec)):
                continue
            ids = by_batch.get((a, b), [])
            trajs = sorted(t for i in ids for t in by_group.get(group_id(i, agent.label, agent.model, ctx.cfg.seed), []))
            out.append(Batch(f"{agent_spec} on tasks {a}-{b}", score_batch,
                             {"warehouse": str(ctx.wh.root), "config": ctx.content_config, "agent": agent_spec, "start": a,
                              "end": b, "trajectory_ids": trajs, "code": code},
                             [("rewards", P.batch_part("score", a, b, agent_spec))], [P.group_item(agent_spec, i) for i in ids]))
    return out


@flow(name="score")
def score_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
               record_run: bool = True) -> dict[str, Any]:
    """Rewards and advantages of every collected rollout group."""
    ctx = resolve(config, warehouse, overrides)
    with recorded_run(ctx, "score", record_run):
        return run_batches(ctx, "score", batches(ctx))
