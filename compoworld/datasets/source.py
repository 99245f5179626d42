"""What the datasets are made of, read from the warehouse: tasks, trajectories, service domains, runs.

Pure reads through `Warehouse.query`; every record carries the run it came from. When no run is
named, every run in the warehouse is read and a task or trajectory stored by several runs counts
once (the last run id in sort order wins, as the warehouse views do for duplicate parts).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from compoworld.tasks.model import Task
from compoworld.warehouse import Warehouse


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class TaskRecord:
    task: Task
    run_id: str
    initial_state_hash: str | None
    reference_final_hash: str | None
    domains: tuple[str, ...]  # domains of the services the task connects (distractors excluded)

    @property
    def id(self) -> str:
        return self.task.id

    @property
    def env_services(self) -> list[str]:
        return self.task.environment_services


@dataclass(frozen=True)
class TrajectoryRecord:
    trajectory_id: str
    task_id: str
    run_id: str
    agent: str
    model: str | None
    rollout_index: int
    success: bool
    partial_credit: float
    n_steps: int
    messages: list[dict[str, Any]]


@dataclass
class Source:
    """The slice of the warehouse a build reads: which runs, their tasks, and provenance."""

    run_ids: list[str]
    tasks: dict[str, TaskRecord]
    domains: dict[str, str]  # service name -> domain
    runs: list[dict[str, Any]] = field(default_factory=list)  # rows of the runs table, if the pipeline wrote any


def run_filter(run_id: str | None) -> tuple[str, list[Any]]:
    return ("WHERE run_id = ?", [run_id]) if run_id else ("", [])


def service_domains(wh: Warehouse) -> dict[str, str]:
    """Service -> domain, from the warehouse's `services` table, else from the service class."""
    out: dict[str, str] = {}
    for row in wh.query("SELECT name, domain FROM services ORDER BY run_id"):
        if row["domain"]:
            out[row["name"]] = row["domain"]
    return out


def _domain_of(name: str, known: dict[str, str]) -> str:
    if name in known:
        return known[name]
    try:
        from compoworld.services.registry import get_service

        return get_service(name).domain or "unknown"
    except KeyError:
        return "unknown"


def load_source(wh: Warehouse, run_id: str | None = None) -> Source:
    where, params = run_filter(run_id)
    rows = wh.query(
        f"SELECT run_id, task_id, initial_state_hash, reference_final_hash, task_json FROM tasks {where} "
        "ORDER BY task_id, run_id", params)
    known = service_domains(wh)
    tasks: dict[str, TaskRecord] = {}
    for r in rows:  # ordered by run id within a task: the last run wins
        task = Task.model_validate(_json(r["task_json"]))
        domains = tuple(sorted({_domain_of(s, known) for s in task.services}))
        tasks[r["task_id"]] = TaskRecord(task, r["run_id"], r["initial_state_hash"], r["reference_final_hash"], domains)
        known.update({s: _domain_of(s, known) for s in task.environment_services})
    run_ids = sorted({t.run_id for t in tasks.values()} | ({run_id} if run_id else set()))
    runs = wh.query(f"SELECT run_id, flow, status, code_version, seed, config_json FROM runs {where} ORDER BY run_id", params)
    return Source(run_ids=run_ids, tasks=tasks, domains=known, runs=runs)


def load_trajectories(wh: Warehouse, run_id: str | None, min_partial_credit: float,
                      agents: Sequence[str] | None) -> tuple[list[TrajectoryRecord], dict[str, int]]:
    """Trajectories that pass the agent and partial-credit filters (in SQL, so a large warehouse is
    not read whole), and how many each filter dropped. Ordered by task, the reference teacher first
    (a conversation identical to the teacher's is kept as the teacher's), then agent and rollout."""
    credit = "coalesce(score, 0) >= ?"
    agent = f"agent IN ({', '.join('?' for _ in agents)})" if agents else "true"
    run = "run_id = ?" if run_id else "true"
    agent_params = list(agents or [])
    run_params = [run_id] if run_id else []
    stats = wh.query(
        f"SELECT count(*) AS read, count(*) FILTER (WHERE NOT {credit}) AS below_partial_credit, "
        f"count(*) FILTER (WHERE {credit} AND NOT coalesce({agent}, false)) AS other_agent "
        f"FROM trajectories WHERE {run}",
        [min_partial_credit, min_partial_credit, *agent_params, *run_params])[0]
    rows = wh.query(
        "SELECT run_id, trajectory_id, task_id, agent, model, rollout_index, n_steps, success, score, messages_json "
        f"FROM trajectories WHERE {credit} AND {agent} AND {run} "
        "ORDER BY task_id, agent <> 'reference', agent, rollout_index, trajectory_id, run_id",
        [min_partial_credit, *agent_params, *run_params])
    out = [TrajectoryRecord(
        trajectory_id=r["trajectory_id"], task_id=r["task_id"], run_id=r["run_id"], agent=r["agent"] or "",
        model=r["model"], rollout_index=r["rollout_index"] or 0, success=bool(r["success"]),
        partial_credit=float(r["score"] or 0.0), n_steps=r["n_steps"] or 0, messages=_json(r["messages_json"]) or [],
    ) for r in rows]
    return out, {k: int(v) for k, v in stats.items()}
