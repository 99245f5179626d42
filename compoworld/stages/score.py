"""Score: rubric rewards (uniform and completion-focused) and GRPO advantages per rollout group."""

from __future__ import annotations

from typing import Any

from compoworld.rollout.runner import reward_rows
from compoworld.rollout.trajectory import CriterionResult, Trajectory
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.collect import agent_batches
from compoworld.stages.items import Group, range_part
from compoworld.warehouse import part_column


def groups_of(trajectories: list[dict[str, Any]], results: list[dict[str, Any]],
              ordinals: dict[str, int]) -> dict[str, list[Trajectory]]:
    """Each task's rollout group, with criterion results in rubric order (the group's matrix)."""
    by_traj: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_traj.setdefault(r["trajectory_id"], []).append(r)
    groups: dict[str, list[Trajectory]] = {}
    for t in trajectories:
        crit = sorted(by_traj.get(t["trajectory_id"], []), key=lambda r: ordinals.get(r["criterion_id"], 1 << 30))
        # Only what reward_rows reads: the rest of a trajectory is in its own tables already.
        traj = Trajectory.model_construct(
            id=t["trajectory_id"], task_id=t["task_id"], group_id=t["group_id"], group=0, rollout_index=t["rollout_index"],
            criteria=[CriterionResult(criterion_id=r["criterion_id"], kind=r["kind"] or "", passed=r["passed"]) for r in crit])
        groups.setdefault(t["task_id"], []).append(traj)
    return groups


class Score(Stage):
    name = "score"
    tables = ("rewards",)
    item = Group
    partial = True

    def plan(self, ctx: RunContext) -> list[Batch]:
        """One batch per collect part; its parameters hold the part's trajectory ids, content hashes
        of the rollouts and their criterion results: new rollouts, new rewards (a new cache key)."""
        out = []
        for collect in agent_batches("collect", ctx):
            p = collect.params
            part = range_part("collect", p["start"], p["end"], p["agent"])
            if not ctx.wh.has_part("trajectories", ctx.run_id, part):
                continue
            trajs = sorted(part_column(ctx.wh, "trajectories", ctx.run_id, part, "trajectory_id"))
            out.append(Batch(collect.label, range_part(self.name, p["start"], p["end"], p["agent"]), collect.items,
                             {**p, "trajectory_ids": trajs}))
        return out

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        p = batch.params
        part = range_part("collect", p["start"], p["end"], p["agent"])
        wanted = {Group.decode(i).task_id for i in batch.selected(only)}
        trajs = [r for r in ctx.wh.read_part("trajectories", ctx.run_id, part) if r["task_id"] in wanted]
        results = [r for r in ctx.wh.read_part("criterion_results", ctx.run_id, part) if r["task_id"] in wanted]
        rubric = ctx.wh.read_part("rubric_criteria", ctx.run_id, range_part("instantiate", p["start"], p["end"]))
        out = BatchOutput(self.name, {"rewards": []})
        groups = groups_of(trajs, results, {r["criterion_id"]: r["ordinal"] for r in rubric})
        for task_id, members in sorted(groups.items()):
            item = Group(agent=p["agent"], task_id=task_id)
            try:
                rows = reward_rows(members)
            except Exception as exc:
                out.guard(item, exc)
                continue
            out.tables["rewards"].extend({k: v for k, v in r.items() if k != "group"} for r in rows)
            out.succeeded.append(item.encode())
        return out


STAGE = Score()
