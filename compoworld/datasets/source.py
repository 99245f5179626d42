"""What the datasets are made of, read from the warehouse: tasks, trajectories, service domains, runs.

The queries are typed readers in `compoworld.warehouse`; this module turns their rows into tasks
and the build's `Source`. Every record carries the run it came from. When no run is named, every
run in the warehouse is read and a task stored by several runs counts once (the last run id in sort
order wins, as the warehouse views do for duplicate parts).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Sequence

from compoworld.services.environment import DISCOVER_MODES, DiscoverMode
from compoworld.tasks.model import Task
from compoworld.warehouse import (
    RunRecord,
    TrajectoryRecord,
    Warehouse,
    read_run_records,
    read_service_domains,
    read_sft_trajectories,
    read_stored_tasks,
)

__all__ = ["Source", "TaskRecord", "TrajectoryRecord", "load_source", "load_trajectories", "run_modes"]


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


@dataclass
class Source:
    """The slice of the warehouse a build reads: which runs, their tasks, and provenance."""

    run_ids: list[str]
    tasks: dict[str, TaskRecord]
    domains: dict[str, str]  # service name -> domain
    runs: list[RunRecord] = field(default_factory=list)  # rows of the runs table, if the pipeline wrote any
    modes: dict[str, DiscoverMode] = field(default_factory=dict)  # run id -> the tools its agents were given


def run_modes(runs: Sequence[RunRecord]) -> dict[str, DiscoverMode]:
    """The discovery mode of each run, from its config. Runs made before gateway mode existed have no
    `discover_mode` and were direct (a run's mode is in its config, hence its run id)."""
    modes: dict[str, DiscoverMode] = {}
    for r in runs:
        mode = r.config.get("discover_mode") if isinstance(r.config, dict) else None
        modes[r.run_id] = mode if mode in DISCOVER_MODES else "direct"
    return modes


def _domain_of(name: str, known: dict[str, str]) -> str:
    """A service's domain: from the warehouse's `services` rows, else from its service class."""
    if name in known:
        return known[name]
    try:
        from compoworld.services.registry import get_service

        return get_service(name).domain or "unknown"
    except KeyError:
        return "unknown"


def load_source(wh: Warehouse, run_id: str | None = None) -> Source:
    known = read_service_domains(wh)
    tasks: dict[str, TaskRecord] = {}
    for r in read_stored_tasks(wh, run_id):  # ordered by run id within a task: the last run wins
        task = Task.model_validate(r.task)
        domains = tuple(sorted({_domain_of(s, known) for s in task.services}))
        tasks[r.task_id] = TaskRecord(task, r.run_id, r.initial_state_hash, r.reference_final_hash, domains)
        known.update({s: _domain_of(s, known) for s in task.environment_services})
    run_ids = sorted({t.run_id for t in tasks.values()} | ({run_id} if run_id else set()))
    runs = read_run_records(wh, run_id)
    return Source(run_ids=run_ids, tasks=tasks, domains=known, runs=runs, modes=run_modes(runs))


def load_trajectories(wh: Warehouse, run_id: str | None, min_partial_credit: float,
                      agents: Sequence[str] | None) -> tuple[list[TrajectoryRecord], dict[str, int]]:
    """Trajectories that pass the agent and partial-credit filters, and how many each filter dropped
    (see `read_sft_trajectories` for the order)."""
    records, counts = read_sft_trajectories(wh, run_id, min_partial_credit, agents)
    return records, asdict(counts)
