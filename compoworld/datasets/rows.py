"""Dataset rows: SFT (successful trajectories in TRL's conversational format) and RL (one row per task).

Pure functions of warehouse records; no I/O here.

Conventions (what TRL's trainers and the Hub's chat templates expect):
- `messages` / `prompt`: a list of {role, content, ...}. An assistant turn carries `tool_calls`, each
  `{id, type: "function", function: {name, arguments}}` with `arguments` a JSON *object* (templates
  render it with `tojson`); a tool result is a `tool` message with `tool_call_id` and the tool `name`.
- `tools`: what the agent was given, a list of OpenAI function schemas: the environment's catalog
  (`discover_mode` direct), or the four gateway meta-tools (`discover_mode` gateway).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from compoworld.canonical import content_hash
from compoworld.datasets.source import TaskRecord, TrajectoryRecord
from compoworld.rollout.trajectory import SYSTEM_PROMPT, loads_arguments
from compoworld.services.environment import DiscoverMode

Catalog = Callable[[Sequence[str], DiscoverMode], list[dict[str, Any]]]


def trl_messages(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI-style messages (as the warehouse stores them) in TRL's conversational form."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for m in messages:
        msg: dict[str, Any] = {"role": m["role"], "content": m.get("content") or ""}
        if m.get("reasoning_content"):
            msg["reasoning_content"] = m["reasoning_content"]
        calls = []
        for c in m.get("tool_calls") or []:
            fn = c.get("function") or {}
            names[c.get("id", "")] = fn.get("name", "")
            calls.append({"id": c.get("id", ""), "type": "function",
                          "function": {"name": fn.get("name", ""), "arguments": loads_arguments(fn.get("arguments"))}})
        if calls:
            msg["tool_calls"] = calls
        if m["role"] == "tool":
            msg["tool_call_id"] = m.get("tool_call_id", "")
            msg["name"] = m.get("name") or names.get(m.get("tool_call_id", ""), "")
        out.append(msg)
    return out


# -- SFT -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SFTFilters:
    """Which trajectories become SFT rows. The default keeps successful ones (every criterion passed)."""

    agents: tuple[str, ...] = ()  # agent kinds to keep (reference, perturbed, litellm); empty = all
    min_partial_credit: float = 1.0  # 1.0 = successful trajectories only
    domains: tuple[str, ...] = ()  # keep tasks whose connected services all lie in these domains; empty = all

    def describe(self) -> dict[str, Any]:
        return {"agents": list(self.agents) or "all", "min_partial_credit": self.min_partial_credit,
                "domains": list(self.domains) or "all"}


def in_domains(task: TaskRecord, domains: Sequence[str]) -> bool:
    return not domains or set(task.domains) <= set(domains)


@dataclass
class SFTBuild:
    rows: list[dict[str, Any]]
    stats: dict[str, int] = field(default_factory=dict)


def sft_rows(trajectories: Sequence[TrajectoryRecord], tasks: dict[str, TaskRecord], filters: SFTFilters,
             catalog: Catalog, discover_mode: DiscoverMode | None = None) -> SFTBuild:
    """One row per distinct conversation: identical rollouts (a deterministic agent's group, or two
    agents that acted alike) collapse into the first one seen, counted in `n_duplicates`. Each row
    offers the tools of its trajectory's own discovery mode; with `discover_mode`, only
    trajectories in that mode are kept."""
    stats = {"missing_task": 0, "other_domain": 0, "other_mode": 0, "duplicates": 0}
    rows: dict[str, dict[str, Any]] = {}
    for t in trajectories:
        task = tasks.get(t.task_id)
        if task is None:
            stats["missing_task"] += 1
            continue
        if not in_domains(task, filters.domains):
            stats["other_domain"] += 1
            continue
        mode: DiscoverMode = "gateway" if t.discover_mode == "gateway" else "direct"
        if discover_mode is not None and mode != discover_mode:
            stats["other_mode"] += 1
            continue
        messages = trl_messages(t.messages)
        key = "sft_" + content_hash([t.task_id, messages])
        if key in rows:
            rows[key]["n_duplicates"] += 1
            stats["duplicates"] += 1
            continue
        rows[key] = {
            "id": key, "messages": messages, "tools": catalog(task.env_services, mode), "discover_mode": mode,
            "task_id": t.task_id, "trajectory_id": t.trajectory_id, "agent": t.agent, "model": t.model or "",
            "services": task.env_services, "task_services": list(task.task.services), "domains": list(task.domains),
            "difficulty": task.task.difficulty, "partial_credit": t.partial_credit, "success": t.success,
            "n_steps": t.n_steps, "n_duplicates": 0, "source_run_id": t.run_id,
        }
    return SFTBuild(list(rows.values()), stats)


# -- RL ------------------------------------------------------------------------------------------
def prompt_messages(instruction: str) -> list[dict[str, str]]:
    """What the agent is given at the start of an episode (the rollout's system prompt and the task)."""
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": instruction}]


def rl_row(rec: TaskRecord, catalog: Catalog, discover_mode: DiscoverMode) -> dict[str, Any]:
    """Everything a trainer needs to roll out on the task and score it: the prompt and tools (in
    `discover_mode`), the environment (services, seed and the task's records over the seeded state)
    and the rubric."""
    task = rec.task
    return {
        "task_id": task.id, "prompt": prompt_messages(task.instruction), "tools": catalog(rec.env_services, discover_mode),
        "discover_mode": discover_mode,
        "services": rec.env_services, "task_services": list(task.services), "distractors": list(task.distractors),
        "domains": list(rec.domains), "difficulty": task.difficulty, "seed": task.seed,
        "initial_state": task.initial_state, "initial_state_hash": rec.initial_state_hash or "",
        "rubric": [{"id": c.id, "description": c.description, "kind": c.kind, "weight": float(c.weight),
                    "check": c.check.model_dump(mode="json")} for c in task.rubric],
        "n_criteria": len(task.rubric), "n_reference_steps": len(task.plan),
        "reference_final_hash": rec.reference_final_hash or "", "source_run_id": rec.run_id,
    }
