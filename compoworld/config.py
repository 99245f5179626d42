"""Run configuration: `configs/*.yaml`, validated here."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import yaml
from pydantic import BaseModel, ConfigDict, Field

DEFAULT_CONFIG = Path(__file__).resolve().parents[1] / "configs" / "default.yaml"


class PipelineConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: int = 0
    tasks: int = Field(1000, ge=1)
    services_from: str = Field("library", pattern="^(library|compiled|all)$")
    group_size: int = Field(8, ge=1)
    agents: list[str] = ["reference", "perturbed"]
    warehouse: str = "warehouse"

    def digest(self) -> str:
        body = self.model_dump(mode="json", exclude={"warehouse"})
        return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]


def load_config(path: str | Path | None = None) -> PipelineConfig:
    with open(path or DEFAULT_CONFIG) as fh:
        return PipelineConfig.model_validate(yaml.safe_load(fh) or {})
