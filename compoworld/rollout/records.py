"""Trajectories as warehouse rows (trajectories, trajectory_steps, criterion_results). Pure: no storage here."""

from __future__ import annotations

from typing import Any, Sequence

from compoworld.rollout.trajectory import Trajectory
from compoworld.tasks.records import criterion_key


def trajectory_rows(trajs: Sequence[Trajectory]) -> dict[str, list[dict[str, Any]]]:
    return {
        "trajectories": [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "rollout_index": t.rollout_index,
            "agent": t.agent, "model": t.model or None,
            "discover_mode": t.discover_mode, "n_steps": t.steps, "final_state_hash": t.final_state_hash,
            "success": t.success, "score": t.partial_credit, "messages_json": t.messages} for t in trajs],
        "trajectory_steps": [{"trajectory_id": t.id, "task_id": t.task_id, **s} for t in trajs for s in t.tool_steps()],
        "criterion_results": [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id,
            "criterion_id": criterion_key(t.task_id, c.criterion_id), "kind": c.kind, "service": c.service or None,
            "passed": c.passed, "score": 1.0 if c.passed else 0.0} for t in trajs for c in t.criteria],
    }
