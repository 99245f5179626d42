"""Rollouts: an agent on a fresh environment per task, scored per rubric criterion, in groups of N."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from compoworld.canonical import canonical_json
from compoworld.rewards import GroupReward
from compoworld.rollout.agents import Agent, make_agent
from compoworld.rollout.trajectory import SYSTEM_PROMPT, CriterionResult, Episode, Trajectory, catalog_hash, group_id
from compoworld.services.environment import DiscoverMode, Environment
from compoworld.services.gateway import Gateway, surface
from compoworld.services.registry import get_service
from compoworld.services.service import Service
from compoworld.tasks.checks import score
from compoworld.tasks.factory import build_env
from compoworld.tasks.model import Task

Classes = dict[str, type[Service]]


def classes_for(tasks: Iterable[Task]) -> Classes:
    """The service classes the tasks' environments need (library or compiled)."""
    return {name: get_service(name) for t in tasks for name in t.environment_services}


_CATALOGS: dict[tuple[type[Service], ...], str] = {}
_GATEWAY_DIGEST = catalog_hash(Gateway.tools_openai())


def _catalog_digest(offered: Environment | Gateway) -> str:
    """The direct catalog depends only on which service classes the environment composes; the
    gateway's is the same four meta-tools whatever the services."""
    if isinstance(offered, Gateway):
        return _GATEWAY_DIGEST
    key = tuple(sorted(offered.service_classes.values(), key=lambda c: c.name))
    digest = _CATALOGS.get(key)
    if digest is None:
        digest = _CATALOGS[key] = catalog_hash(offered.tools_openai())
    return digest


def final_message(messages: Sequence[dict[str, Any]]) -> str:
    """The agent's closing text: the last assistant message's content (what report criteria read)."""
    for m in reversed(messages):
        if m.get("role") == "assistant":
            return m.get("content") or ""
    return ""


def rollout(task: Task, agent: Agent, classes: Classes | None = None, seed: int = 0, rollout_index: int = 0,
            group: int = 0, discover_mode: DiscoverMode = "direct") -> Trajectory:
    """One episode on a fresh environment in the task's initial state, scored against that state.
    The agent acts on the environment's tools (`direct`) or on the gateway in front of it (`gateway`);
    either way the score reads the environment's state."""
    classes = classes if classes is not None else classes_for([task])
    env = build_env(task, classes)
    start = env.state()
    offered = surface(env, discover_mode)
    episode = Episode(offered, [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task.instruction}])
    t0 = time.perf_counter()
    agent.run(task, episode, seed, rollout_index)
    elapsed = time.perf_counter() - t0
    passed = score(task.rubric, start, env.state(), final_message(episode.messages))
    criteria = [CriterionResult(criterion_id=c.id, kind=c.kind, service=c.check.service, passed=ok)
                for c, ok in zip(task.rubric, passed)]
    traj = Trajectory(
        task_id=task.id, group_id=group_id(task.id, agent.label, agent.model, seed, discover_mode), group=group,
        rollout_index=rollout_index, agent=agent.kind, model=agent.model, seed=seed,
        messages=episode.messages, tools=offered.tools_openai(), tools_hash=_catalog_digest(offered), final_state_hash=env.state_hash(),
        criteria=criteria, success=all(passed), partial_credit=sum(passed) / len(passed) if passed else 0.0,
        steps=episode.steps, failed_calls=sum(not o.ok for o in episode.observations),
        simulated_calls=sum(o.simulated for o in episode.observations),
        call_errors=[None if o.ok else (o.error_kind or "error") for o in episode.observations],
        stop_reason=episode.stop_reason, prompt_tokens=episode.prompt_tokens,
        completion_tokens=episode.completion_tokens, meta=episode.meta, discover_mode=discover_mode,
        elapsed_s=round(elapsed, 6),
    )
    traj.id = traj.content_id()
    return traj


def collect(tasks: Sequence[Task], agent: Agent, group_size: int = 8, seed: int = 0, workers: int = 1,
            progress: Callable[[int], None] | None = None, classes: Classes | None = None,
            discover_mode: DiscoverMode = "direct") -> list[Trajectory]:
    """`group_size` rollouts per task, in task order then rollout order, whatever `workers` is.

    Rollouts run on a thread pool of `workers` (each has its own environment): worth it when the
    agent waits on a model server, where `workers` bounds the concurrent requests."""
    classes = classes if classes is not None else classes_for(tasks)
    jobs = [(g, task, i) for g, task in enumerate(tasks) for i in range(group_size)]

    def one(job: tuple[int, Task, int]) -> Trajectory:
        g, task, i = job
        traj = rollout(task, agent, classes, seed=seed, rollout_index=i, group=g, discover_mode=discover_mode)
        if progress:
            progress(1)
        return traj

    if workers <= 1:
        return [one(j) for j in jobs]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))


def reward_rows(trajectories: Sequence[Trajectory]) -> list[dict[str, Any]]:
    """Rows for the warehouse `rewards` table: per trajectory, one row per reward kind (uniform and
    completion-focused), each with the reward, its GRPO advantage within the group, and the group's
    criterion weights."""
    rows: list[dict[str, Any]] = []
    for members in _groups(trajectories).values():
        matrix = np.array([t.criterion_vector() for t in members])
        for kind in ("uniform", "completion_focused"):
            gr = GroupReward.from_matrix(matrix, kind=kind)
            weights = canonical_json([round(float(w), 6) for w in gr.weights])
            for t, r, a in zip(members, gr.rewards, gr.advantages):
                rows.append({"trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "group": t.group,
                             "rollout_index": t.rollout_index, "reward_kind": kind, "reward": float(r),
                             "advantage": float(a), "weights_json": weights})
    return rows


def _groups(trajectories: Sequence[Trajectory]) -> dict[str, list[Trajectory]]:
    groups: dict[str, list[Trajectory]] = {}
    for t in trajectories:
        groups.setdefault(t.group_id, []).append(t)
    for members in groups.values():
        members.sort(key=lambda t: t.rollout_index)
    return groups


def summarize(trajectories: Sequence[Trajectory], seconds: float | None = None) -> dict[str, Any]:
    """Headline figures of a collection, plus its reward rows. `seconds` is the wall time of the
    collection; without it, throughput is over the summed rollout times (one worker's view)."""
    n = len(trajectories)
    groups = _groups(trajectories)
    steps = sum(t.steps for t in trajectories)
    discovery = sum(t.discovery_calls for t in trajectories)
    busy = seconds if seconds is not None else sum(t.elapsed_s for t in trajectories)
    spread = [len({t.partial_credit for t in g}) > 1 for g in groups.values()]
    tokens = [t for t in trajectories if t.prompt_tokens is not None]
    return {
        "trajectories": n,
        "groups": len(groups),
        "success_rate": round(sum(t.success for t in trajectories) / n, 4) if n else 0.0,
        "mean_partial_credit": round(sum(t.partial_credit for t in trajectories) / n, 4) if n else 0.0,
        "groups_with_spread": round(sum(spread) / len(spread), 4) if spread else 0.0,
        "steps": steps,
        "mean_steps": round(steps / n, 2) if n else 0.0,
        "discovery_calls": discovery,  # gateway calls that only discover tools (0 in direct mode)
        "discovery_share": round(discovery / steps, 4) if steps else 0.0,
        "failed_calls": sum(t.failed_calls for t in trajectories),
        "simulated_calls": sum(t.simulated_calls for t in trajectories),
        "prompt_tokens": sum(t.prompt_tokens or 0 for t in tokens) if tokens else None,
        "completion_tokens": sum(t.completion_tokens or 0 for t in tokens) if tokens else None,
        "seconds": round(busy, 4),
        "steps_per_second": round(steps / busy, 1) if busy > 0 else 0.0,
        "rewards": reward_rows(trajectories),
    }


def run_rollouts(agent_spec: str, tasks: list[Task], n_tasks: int | None = None, task_ids: list[str] | None = None,
                 group_size: int = 8, seed: int = 0, workers: int = 1, details: bool = False,
                 discover_mode: DiscoverMode = "direct", **agent_kwargs: Any) -> dict[str, Any]:
    """The `compoworld rollout` entry point: `group_size` rollouts on each of `tasks` (made the one
    way, `compoworld.stages.runner.make_tasks`, or read from the warehouse), and the summary.
    `n_tasks` keeps the first ones; `task_ids` keeps only the tasks with those ids, in the order
    given (an id not found is an error). `details` adds the per-trajectory reward rows.
    `discover_mode` is what the agent is given: every tool (`direct`) or the gateway's four."""
    if n_tasks is not None and task_ids is None:
        tasks = tasks[:n_tasks]
    if task_ids:
        by_id = {t.id: t for t in tasks}
        missing = [i for i in task_ids if i not in by_id]
        if missing:
            raise KeyError(f"tasks not found: {', '.join(missing)}")
        tasks = [by_id[i] for i in task_ids]
    if agent_spec.startswith(("litellm:", "local:")) and group_size > 1:
        agent_kwargs.setdefault("temperature", 1.0)  # a group of identical greedy rollouts has no spread
    agent = make_agent(agent_spec, seed=seed, **agent_kwargs)
    t0 = time.perf_counter()
    trajectories = collect(tasks, agent, group_size=group_size, seed=seed, workers=workers, discover_mode=discover_mode)
    out = summarize(trajectories, seconds=time.perf_counter() - t0)
    rows = out.pop("rewards")
    for kind in ("uniform", "completion_focused"):
        rs = [r["reward"] for r in rows if r["reward_kind"] == kind]
        out[f"mean_{kind}_reward"] = round(sum(rs) / len(rs), 4) if rs else 0.0
    if details:
        out["rewards"] = rows
    out.update(agent=agent.label, tasks=len(tasks), group_size=group_size, seed=seed, discover_mode=discover_mode)
    return out
