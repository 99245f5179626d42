"""Training job specs: what a job trains (model, data and its revision), how (hyperparameters), on
what (hardware) and how it is started (launch command). One `job.json` per job, written before the
job starts, so a job can be rerun or moved to another machine from its spec alone.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from compoworld.atomic import atomic_write_text
from compoworld.canonical import content_hash
from compoworld.training.tiny import TinyConfig

SPEC_FILE = "job.json"
RESULT_FILE = "result.json"
LOG_FILE = "train.log"


class DataRef(BaseModel):
    """A dataset: a local Hub-layout folder or a Hub repo id, at a revision."""

    model_config = ConfigDict(extra="forbid")
    path: str  # local layout folder, or ORG/NAME on the Hub
    revision: str | None = None  # Hub: tag (a run id) or commit; local: the folder's content fingerprint (`local_data_ref`)
    split: str = "train"
    dataset_id: str | None = None  # content id of the split (from the layout's manifest), when known
    run_id: str | None = None  # the warehouse run the dataset was built from, when known


class SFTParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_steps: int = Field(30, ge=1)
    learning_rate: float = 3e-3
    per_device_train_batch_size: int = Field(2, ge=1)
    gradient_accumulation_steps: int = Field(1, ge=1)
    max_length: int | None = 8192  # tokens per example; the tiny model's and SmolLM2's context is 8192
    drop_long_rows: bool = False  # train on the rows that fit max_length instead of failing when some do not
    truncate_long_rows: bool = False  # train on the first max_length tokens of every row (TRL keeps the start)
    lr_scheduler_type: str = "constant"
    warmup_steps: int = 0
    seed: int = 0

    @model_validator(mode="after")
    def _one_way_for_long_rows(self) -> "SFTParams":
        if self.drop_long_rows and self.truncate_long_rows:
            raise ValueError("drop_long_rows and truncate_long_rows exclude each other: drop the long rows or cut them")
        return self


class GRPOParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_steps: int = Field(2, ge=1)
    learning_rate: float = 1e-5
    per_device_train_batch_size: int = Field(4, ge=1)  # rollouts per step: num_generations per task
    gradient_accumulation_steps: int = Field(1, ge=1)
    num_generations: int = Field(2, ge=2)  # rollouts per task: the group the reward and advantages are computed in
    max_completion_length: int = Field(64, ge=1)  # tokens per rollout, tool results included
    max_tool_calling_iterations: int = Field(4, ge=0)
    temperature: float = 1.0
    beta: float = 0.0  # KL coefficient; 0 needs no reference model
    reward_kind: Literal["completion_focused", "uniform"] = "completion_focused"
    reward_floor: float = 0.1
    seed: int = 0


class Hardware(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accelerator: Literal["cpu", "cuda"] = "cpu"
    num_processes: int = Field(1, ge=1)  # GPUs (or CPU processes) accelerate launches
    gpu_type: str | None = None  # e.g. "H100"; informs the work pool, not the code
    mixed_precision: Literal["no", "bf16", "fp16"] = "no"


class Launch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    launcher: str = "local"  # a name in `compoworld.training.launcher`'s table (local, prefect, ...)
    command: list[str] = Field(default_factory=list)
    deployment: str | None = None  # Prefect deployment "flow-name/deployment-name" (launcher = prefect)
    work_pool: str | None = None  # the GPU work pool that deployment runs on (informational; set at deploy time)


class JobSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    job_id: str = ""
    kind: Literal["sft", "grpo"]
    model: str = "tiny"  # "tiny" (built locally), "smollm2", a .gguf file, a Hub model id or a checkpoint folder
    tiny: TinyConfig | None = None
    chat_template: str | None = None  # a template given for the model (`--chat-template FILE`), replacing its own
    notes: dict[str, str] = Field(default_factory=dict)  # why defaults were chosen (e.g. the learning rate per model)
    data: DataRef
    hyperparameters: dict[str, Any]
    hardware: Hardware = Field(default_factory=Hardware)
    launch: Launch = Field(default_factory=Launch)
    output_dir: str = ""

    def params(self) -> SFTParams | GRPOParams:
        return (SFTParams if self.kind == "sft" else GRPOParams).model_validate(self.hyperparameters)

    def content_id(self) -> str:
        """Same model, data, hyperparameters and hardware: same job id (a rerun reuses its folder)."""
        include = {"kind", "model", "tiny", "data", "hyperparameters", "hardware"} | ({"chat_template"} if self.chat_template else set())
        body = self.model_dump(mode="json", include=include)
        return f"{self.kind}-" + content_hash(body, 12)

    @property
    def job_dir(self) -> Path:
        return Path(self.output_dir)

    @property
    def spec_path(self) -> Path:
        return self.job_dir / SPEC_FILE


def local_data_ref(folder: str | Path, split: str = "train") -> DataRef:
    """A split of a local dataset layout: its content id and source run from the manifest, and as its
    revision the folder's content fingerprint (`local-` + a hash of every split's content id), so a
    rebuilt folder with other rows is another revision. A `ValueError` when the split is missing."""
    from compoworld.datasets.layout import read_manifest

    manifest = read_manifest(Path(folder))
    splits = manifest.get("splits") or {}
    if split not in splits:
        raise ValueError(f"{folder} has no split {split!r} (has {', '.join(splits) or 'none'})")
    revision = "local-" + content_hash({name: s.get("dataset_id") for name, s in sorted(splits.items())}, 12)
    return DataRef(path=str(Path(folder).absolute()), revision=revision, split=split,
                   dataset_id=splits[split]["dataset_id"], run_id=manifest.get("run_id"))


def launch_command(spec: JobSpec, spec_path: Path) -> list[str]:
    """The command that runs the job: `accelerate launch` for GPUs or several processes, else Python."""
    hw = spec.hardware
    if hw.accelerator == "cuda" or hw.num_processes > 1:
        cmd = ["accelerate", "launch", "--num_processes", str(hw.num_processes), "--num_machines", "1",
               "--mixed_precision", hw.mixed_precision, "--dynamo_backend", "no"]
        if hw.accelerator == "cpu":
            cmd.append("--cpu")
        return cmd + ["-m", "compoworld.training.run", str(spec_path)]
    return [sys.executable, "-m", "compoworld.training.run", str(spec_path)]


def make_spec(kind: Literal["sft", "grpo"], data: DataRef, jobs_dir: Path, *, model: str = "tiny",
              hyperparameters: dict[str, Any] | None = None, hardware: Hardware | None = None,
              launcher: str = "local", deployment: str | None = None,
              work_pool: str | None = None, tiny: TinyConfig | None = None, chat_template: str | None = None) -> JobSpec:
    """A validated spec with its id, folder (`jobs_dir/<job_id>`) and launch command.

    SFT hyperparameters not given take the model's defaults (`compoworld.training.models.profile`): a
    pretrained model gets a fine-tuning learning rate, the random tiny model a high one; `notes` says which."""
    from compoworld.training.models import profile

    given = dict(hyperparameters or {})
    notes: dict[str, str] = {}
    if kind == "sft":
        prof = profile(model)
        if "learning_rate" in given:
            notes["learning_rate"] = f"{given['learning_rate']:g}: given"
        else:
            given["learning_rate"] = prof.learning_rate
            notes["learning_rate"] = f"{prof.learning_rate:g}: {prof.why}"
    params = (SFTParams if kind == "sft" else GRPOParams).model_validate(given)
    spec = JobSpec(kind=kind, model=model, tiny=(tiny or TinyConfig()) if model == "tiny" else None, data=data,
                   chat_template=chat_template, notes=notes,
                   hyperparameters=params.model_dump(mode="json"), hardware=hardware or Hardware(),
                   launch=Launch(launcher=launcher, deployment=deployment, work_pool=work_pool))
    spec.job_id = spec.content_id()
    spec.output_dir = str((Path(jobs_dir) / spec.job_id).absolute())
    spec.launch.command = launch_command(spec, spec.spec_path)
    return spec


def write_spec(spec: JobSpec) -> Path:
    # Atomic: a worker or a rerun reading job.json never sees half of one.
    atomic_write_text(spec.spec_path, spec.model_dump_json(indent=1) + "\n")
    return spec.spec_path


def read_spec(path: Path) -> JobSpec:
    return JobSpec.model_validate_json(Path(path).read_text())


def shell_command(spec: JobSpec) -> str:
    return shlex.join(spec.launch.command)
