"""The one list of stages: their order, whether they can be switched off, and their schedules.

Everything that needs to know the stages reads this list: the config (which stages a run may
switch on or off, the deployments' schedules), the plain runner, the pipeline flow, `retry-failed`,
the deployments and the CLI. A stage's code lives in the module named here (loaded on first use,
so this list imports nothing and the config can read it).

Adding a stage: write `compoworld/stages/<name>.py` with a `Stage` subclass and `STAGE = ...`, and
add one `Registration` below at the place in the order where its inputs exist.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compoworld.errors import UserError

if TYPE_CHECKING:
    from compoworld.stages.base import Stage


@dataclass(frozen=True)
class Registration:
    name: str
    module: str  # holds `STAGE`, the stage object
    schedule: str | None  # default cron of its deployment (None: started by hand or by the pipeline)
    switch: bool | None = None  # None: always runs; True/False: optional, on/off by default
    doc: str = ""


REGISTRY: tuple[Registration, ...] = (
    Registration("synthesize", "compoworld.stages.synthesize", "0 1 * * 0", False,
                 "compile services from the MCP spec corpus (specs, services, tools)"),
    Registration("verify", "compoworld.stages.verify", "30 1 * * *", True, "check every service (service_checks)"),
    Registration("graph", "compoworld.stages.graph", "0 3 * * 0", None,
                 "the run's services and tools, and their dependency graph (graph_edges)"),
    Registration("walks", "compoworld.stages.walks", "5 3 * * 0", None, "draw the walks each task may be designed from"),
    Registration("instantiate", "compoworld.stages.instantiate", "15 3 * * 0", None,
                 "design, probe and submit a task from its walks (tasks, rubric_criteria, reference_steps)"),
    Registration("collect", "compoworld.stages.collect", "30 3 * * 0", None,
                 "rollout groups of every agent on every task (trajectories, steps, criterion results)"),
    Registration("score", "compoworld.stages.score", "45 3 * * 0", None, "rubric rewards and GRPO advantages"),
    Registration("datasets", "compoworld.stages.datasets", "0 4 * * 0", True, "SFT and RL datasets in the Hub layout"),
    Registration("train", "compoworld.stages.train", None, False, "launch SFT/GRPO training jobs on the datasets"),
)
STAGE_NAMES: tuple[str, ...] = tuple(r.name for r in REGISTRY)
OPTIONAL: dict[str, bool] = {r.name: r.switch for r in REGISTRY if r.switch is not None}
# Flows besides the stages: the whole chain, and re-running failed items.
EXTRA_FLOWS: dict[str, str | None] = {"pipeline": "0 2 * * *", "retry_failed": "0 * * * *"}
DEFAULT_SCHEDULES: dict[str, str | None] = {**EXTRA_FLOWS, **{r.name: r.schedule for r in REGISTRY}}


def registration(name: str) -> Registration:
    for r in REGISTRY:
        if r.name == name:
            return r
    raise UserError(f"unknown stage {name!r}; stages: {', '.join(STAGE_NAMES)}")


def get_stage(name: str) -> Stage:
    return importlib.import_module(registration(name).module).STAGE  # type: ignore[no-any-return]


def stages() -> list[Stage]:
    return [get_stage(n) for n in STAGE_NAMES]
