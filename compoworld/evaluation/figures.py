"""The figures of an evaluation, from its scored trajectories: pure functions, no I/O.

Pass rates are broken down three ways: per capability (the task's labels, `unlabelled` when it has
none; a rollout counts once under each of its task's labels), per criterion kind (goal, negative) and
per service (the service a criterion checks; `cross-service` when it names none)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from compoworld.rollout.runner import summarize
from compoworld.rollout.trajectory import Trajectory
from compoworld.tasks.model import Task

UNLABELLED = "unlabelled"
CROSS_SERVICE = "cross-service"
HEADLINE = ("trajectories", "success_rate", "mean_partial_credit", "mean_steps", "discovery_share", "failed_calls",
            "prompt_tokens", "completion_tokens")


def capabilities(task: Task) -> list[str]:
    """A task's capability labels (tasks made before labelling have none)."""
    return sorted(getattr(task, "capabilities", None) or [])


def _rate(passed: int, n: int) -> float:
    return round(passed / n, 4) if n else 0.0


def by_capability(trajectories: Sequence[Trajectory], tasks: dict[str, Task]) -> dict[str, dict[str, Any]]:
    rollouts: Counter[str] = Counter()
    successes: Counter[str] = Counter()
    credit: dict[str, float] = {}
    for t in trajectories:
        for label in capabilities(tasks[t.task_id]) or [UNLABELLED]:
            rollouts[label] += 1
            successes[label] += t.success
            credit[label] = credit.get(label, 0.0) + t.partial_credit
    return {label: {"rollouts": n, "success_rate": _rate(successes[label], n),
                    "mean_partial_credit": round(credit[label] / n, 4)} for label, n in sorted(rollouts.items())}


def _criterion_rates(trajectories: Sequence[Trajectory], key: str) -> dict[str, dict[str, Any]]:
    seen: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    for t in trajectories:
        for c in t.criteria:
            name = (c.kind if key == "kind" else c.service) or CROSS_SERVICE
            seen[name] += 1
            passed[name] += c.passed
    return {name: {"criteria": n, "pass_rate": _rate(passed[name], n)} for name, n in sorted(seen.items())}


def figures(trajectories: Sequence[Trajectory], tasks: dict[str, Task]) -> dict[str, Any]:
    """Headline figures (as `compoworld rollout` reports them), mean rewards and the three breakdowns."""
    summary = summarize(trajectories)
    out: dict[str, Any] = {k: summary[k] for k in HEADLINE}
    for kind in ("uniform", "completion_focused"):
        rewards = [r["reward"] for r in summary["rewards"] if r["reward_kind"] == kind]
        out[f"mean_{kind}_reward"] = round(sum(rewards) / len(rewards), 4) if rewards else 0.0
    out["tasks"] = len({t.task_id for t in trajectories})
    out["stop_reasons"] = dict(sorted(Counter(t.stop_reason for t in trajectories).items()))
    out["by_capability"] = by_capability(trajectories, tasks)
    out["by_criterion_kind"] = _criterion_rates(trajectories, "kind")
    out["by_service"] = _criterion_rates(trajectories, "service")
    return out


def _last_message(t: Trajectory) -> str | None:
    last = next((m for m in reversed(t.messages) if m.get("role") == "assistant"), None)
    return None if last is None else str(last.get("content") or "")


def result_rows(trajectories: Sequence[Trajectory], tasks: dict[str, Task]) -> list[dict[str, Any]]:
    """One `evaluation_results` row per rollout (the evaluation id is added when written)."""
    return [{"task_id": t.task_id, "rollout_index": t.rollout_index, "success": t.success,
             "partial_credit": t.partial_credit, "n_steps": t.steps, "failed_calls": t.failed_calls,
             "stop_reason": t.stop_reason, "last_message": _last_message(t),
             "capabilities_json": capabilities(tasks[t.task_id]),
             "criteria_json": [c.model_dump() for c in t.criteria]} for t in trajectories]
