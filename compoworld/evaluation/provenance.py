"""What a checkpoint was trained on, read from the job that made it.

A training job's folder holds its spec (`job.json`) and, once trained, its checkpoint (`model/`); the
tiny model's untrained start is `base/`. So a checkpoint folder `<job>/model` (or the job folder
itself) links to its job, whose spec names the dataset split, its content id, revision and source
run, and the split rule the dataset was built with (from the local layout's manifest).
Anything else (a Hub id, `smollm2`, a job's untrained `base/`) was trained on no data of ours."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from compoworld.training.spec import SPEC_FILE, read_spec

MODEL_SUBDIR = "model"


class Provenance(BaseModel):
    """The checkpoint an agent runs, and the training job and data behind it (None where unknown)."""

    model_config = ConfigDict(extra="forbid")
    checkpoint: str | None = None  # the folder the weights are loaded from
    job_id: str | None = None
    dataset_id: str | None = None
    data_revision: str | None = None
    data_run_id: str | None = None
    test_fraction: float | None = None  # the split rule of the training data, when its manifest is readable


def _job_folder(checkpoint: Path) -> Path | None:
    """The job folder whose trained checkpoint `checkpoint` is (the job folder or its `model/`)."""
    if (checkpoint / SPEC_FILE).is_file():
        return checkpoint
    if checkpoint.name == MODEL_SUBDIR and (checkpoint.parent / SPEC_FILE).is_file():
        return checkpoint.parent
    return None


def _test_fraction(data_path: str) -> float | None:
    from compoworld.datasets.layout import read_manifest

    folder = Path(data_path)
    if not folder.is_dir():
        return None
    try:
        rule = read_manifest(folder).get("split_rule") or {}
    except (OSError, ValueError):
        return None
    value = rule.get("test_fraction")
    return float(value) if isinstance(value, (int, float)) else None


def provenance_of(model: str) -> Provenance:
    """The provenance of a local agent's model spec: a checkpoint folder and, when it is a job's, that job."""
    path = Path(model).expanduser()
    if not path.is_dir():
        return Provenance()
    path = path.absolute()
    job = _job_folder(path)
    if job is None:
        return Provenance(checkpoint=str(path))
    spec = read_spec(job / SPEC_FILE)
    return Provenance(checkpoint=str(job / MODEL_SUBDIR), job_id=spec.job_id, dataset_id=spec.data.dataset_id,
                      data_revision=spec.data.revision, data_run_id=spec.data.run_id,
                      test_fraction=_test_fraction(spec.data.path))
