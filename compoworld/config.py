"""Run configuration: `configs/*.yaml`, validated here.

Two kinds of fields: those that decide *what* a run makes (seed, sizes, agents, batching) and
those that decide only *how* it is run (task runner, workers, retries, schedules, where outputs
go). Only the first kind enters `digest()`, and so the run id: the same config run on threads, on
a process pool or on a Dask cluster writes the same rows under the same run id.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Literal

import orjson
import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_CONFIG = Path(__file__).resolve().parents[1] / "configs" / "default.yaml"

FLOW_NAMES = ("pipeline", "synthesize", "verify", "sample_walks", "instantiate", "collect", "score",
              "datasets", "train", "retry_failed")


# Fields that only decide how a run is executed: they never change a row, so not the run id.
RUNTIME_FIELDS = {"warehouse", "stages", "datasets_dir", "task_runner", "workers", "dask_address", "retries",
                  "retry_backoff_s", "cache", "schedules"}


class StagesConfig(BaseModel):
    """Which optional stages the pipeline runs (walks, tasks, rollouts and rewards always run)."""

    model_config = ConfigDict(extra="forbid")

    synthesize: bool = False  # compile services from MCP specs first (compoworld.synthesis.run_synth)
    verify: bool = True  # verify every service of the run into service_checks
    datasets: bool = True  # assemble SFT/RL datasets (compoworld.datasets.build_datasets), when available
    train: bool = False  # launch a training job (compoworld.training), when available


class PipelineConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # -- what the run makes (enters the digest) --
    seed: int = 0
    tasks: int = Field(1000, ge=1)
    services_from: str = Field("library", pattern="^(library|compiled|all)$")
    group_size: int = Field(8, ge=1)
    agents: list[str] = ["reference", "perturbed"]
    batch_size: int = Field(50, ge=1)  # task indexes per batch: one Prefect task and one part per table
    synth_specs: list[str] | None = None  # MCP spec files for synthesis (None: the shipped corpus)
    synth_coder: str | None = None  # LiteLLM model that writes richer service code (optional)

    # -- how it is run (left out of the digest) --
    warehouse: str = "warehouse"
    stages: StagesConfig = StagesConfig()
    datasets_dir: str = "out/datasets"
    task_runner: Literal["thread", "process", "dask"] = "thread"
    workers: int = Field(1, ge=1)  # thread/process pool size, or local Dask cluster workers
    dask_address: str | None = None  # scheduler of an existing Dask cluster (tcp://host:8786)
    retries: int = Field(2, ge=0)  # Prefect retries of a batch after a transient error
    retry_backoff_s: float = Field(2.0, ge=0)  # exponential backoff: b, 2b, 4b, ... seconds
    cache: bool = True  # reuse a batch whose inputs and code did not change
    schedules: dict[str, str | None] = Field(default_factory=lambda: {
        "pipeline": "0 2 * * *", "retry_failed": "0 * * * *", "synthesize": "0 1 * * 0", "verify": "30 1 * * *",
        "sample_walks": "0 3 * * 0", "instantiate": "15 3 * * 0", "collect": "30 3 * * 0", "score": "45 3 * * 0",
        "datasets": "0 4 * * 0", "train": None,
    })  # cron per deployment (None: deployed without a schedule)

    @field_validator("schedules")
    @classmethod
    def _known_flows(cls, value: dict[str, str | None]) -> dict[str, str | None]:
        unknown = sorted(set(value) - set(FLOW_NAMES))
        if unknown:
            raise ValueError(f"schedules for unknown flows {unknown}; flows: {', '.join(FLOW_NAMES)}")
        return value

    def digest(self) -> str:
        body = self.model_dump(mode="json", exclude=RUNTIME_FIELDS)
        return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]

    @property
    def run_id(self) -> str:
        return f"run-{self.digest()}"


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> PipelineConfig:
    with open(path or DEFAULT_CONFIG) as fh:
        body = yaml.safe_load(fh) or {}
    return PipelineConfig.model_validate({**body, **(overrides or {})})
