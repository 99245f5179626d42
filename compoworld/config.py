"""Run configuration: `configs/*.yaml`, validated here.

Two kinds of fields: those that decide *what* a run makes (seed, sizes, agents, batching) and
those that decide only *how* it is run (task runner, workers, retries, schedules, where outputs
go). Only the first kind enters `digest()`, and so the run id: the same config run on threads, on
a process pool or on a Dask cluster writes the same rows under the same run id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from compoworld.canonical import content_hash
from compoworld.errors import UserError
from compoworld.services.environment import DiscoverMode
from compoworld.stages.registry import DEFAULT_SCHEDULES, EXTRA_FLOWS, OPTIONAL, STAGE_NAMES

DEFAULT_CONFIG = Path(__file__).resolve().parents[1] / "configs" / "default.yaml"

# Every flow a deployment can serve: the stages (in order) and the extra flows.
FLOW_NAMES = (*EXTRA_FLOWS, *STAGE_NAMES)


# Fields that only decide how a run is executed: they never change a row, so not the run id.
RUNTIME_FIELDS = {"warehouse", "stages", "datasets_dir", "task_runner", "workers", "dask_address", "retries",
                  "retry_backoff_s", "cache", "schedules"}


class PipelineConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # -- what the run makes (enters the digest) --
    seed: int = 0
    tasks: int = Field(1000, ge=1)
    services_from: str = Field("library", pattern="^(library|compiled|all)$")
    # the lowest fidelity level of compiled tools tasks may use: faithful | structural | simulated
    tool_fidelity: Literal["faithful", "structural", "simulated"] = "faithful"
    group_size: int = Field(8, ge=1)
    agents: list[str] = ["reference", "perturbed"]
    batch_size: int = Field(50, ge=1)  # task indexes per batch: one Prefect task and one part per table
    synth_specs: list[str] | None = None  # MCP spec files for synthesis (None: the shipped corpus)
    synth_coder: str | None = None  # LiteLLM model that writes richer service code (optional)
    discover_mode: DiscoverMode = "direct"  # agents get every tool (direct) or four meta-tools (gateway)

    # -- how it is run (left out of the digest) --
    warehouse: str = "warehouse"
    # The optional stages switched on or off (the registry says which are optional, and their defaults).
    stages: dict[str, bool] = Field(default_factory=lambda: dict(OPTIONAL))
    datasets_dir: str = "out/datasets"
    task_runner: Literal["thread", "process", "dask"] = "thread"
    workers: int = Field(1, ge=1)  # thread/process pool size, or local Dask cluster workers
    dask_address: str | None = None  # scheduler of an existing Dask cluster (tcp://host:8786)
    retries: int = Field(2, ge=0)  # Prefect retries of a batch after a transient error
    retry_backoff_s: float = Field(2.0, ge=0)  # exponential backoff: b, 2b, 4b, ... seconds
    cache: bool = True  # reuse a batch whose inputs and code did not change
    schedules: dict[str, str | None] = Field(default_factory=lambda: dict(DEFAULT_SCHEDULES))  # cron per deployment

    @field_validator("schedules")
    @classmethod
    def _known_flows(cls, value: dict[str, str | None]) -> dict[str, str | None]:
        unknown = sorted(set(value) - set(FLOW_NAMES))
        if unknown:
            raise ValueError(f"schedules for unknown flows {unknown}; flows: {', '.join(FLOW_NAMES)}")
        return value

    @field_validator("agents")
    @classmethod
    def _known_agents(cls, value: list[str]) -> list[str]:
        bad = [a for a in value if a not in ("reference", "perturbed")
               and not any(a.startswith(p) and len(a) > len(p) for p in ("litellm:", "local:"))]
        if bad:
            raise ValueError(f"unknown agents {bad}; agents are reference, perturbed, litellm:MODEL or local:MODEL")
        return value

    @field_validator("stages")
    @classmethod
    def _optional_stages(cls, value: dict[str, bool]) -> dict[str, bool]:
        unknown = sorted(set(value) - set(OPTIONAL))
        if unknown:
            raise ValueError(f"stages {unknown} cannot be switched; optional stages: {', '.join(OPTIONAL)}")
        return {**OPTIONAL, **value}

    def stage_enabled(self, name: str) -> bool:
        return self.stages.get(name, True)

    def digest(self) -> str:
        # Runs made before gateway mode existed were direct: the default stays out, so their ids hold.
        unchanged = {"discover_mode"} if self.discover_mode == "direct" else set()
        return content_hash(self.model_dump(mode="json", exclude=RUNTIME_FIELDS | unchanged), 12)

    @property
    def run_id(self) -> str:
        return f"run-{self.digest()}"


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> PipelineConfig:
    source = Path(path or DEFAULT_CONFIG)
    with open(source) as fh:
        body = yaml.safe_load(fh) or {}
    if not isinstance(body, dict):
        raise UserError(f"config {source} must be a mapping of settings (key: value), not a {type(body).__name__}; "
                        f"see {DEFAULT_CONFIG.name} for the keys")
    return PipelineConfig.model_validate({**body, **(overrides or {})})
