"""TRL training on the datasets: SFT (SFTTrainer) and GRPO in the product environment (GRPOTrainer with
`environment_factory` and the Completion-Focused Rubric Reward), as jobs described by a spec.

`launch(wh, datasets_dir, run_id)` is the pipeline's "train" stage: it writes one job spec per kind
for the run's datasets (`datasets_dir/sft`, `datasets_dir/rl`) and starts them with the configured
launcher. Heavy imports (torch, transformers, trl) happen inside the functions that need them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Sequence


def launch(wh: Any, datasets_dir: Path, run_id: str | None = None, kinds: Sequence[Literal["sft", "grpo"]] = ("sft", "grpo"),
           model: str = "tiny", launcher: str | None = None, deployment: str | None = None,
           jobs_dir: Path | None = None, hyperparameters: dict[str, dict[str, Any]] | None = None,
           wait: bool | None = None) -> dict[str, Any]:
    """Write a spec per kind (SFT on `datasets_dir/sft`, GRPO on `datasets_dir/rl`) under `jobs_dir`
    (default: `jobs` next to `datasets_dir`) and launch it. `wh` is the run's warehouse (unused for
    now: jobs are not warehouse records yet).

    The launcher is `launcher`, else `$COMPOWORLD_TRAIN_LAUNCHER`, else `local` (a subprocess on this
    machine); `prefect` (registered by `flows.train_launcher`, imported when asked for) starts a run
    of `deployment` (or `$COMPOWORLD_TRAIN_DEPLOYMENT`) on its work pool. `wait` defaults to waiting
    for a local job (a subprocess of this one) and to returning once any other launcher has started
    the job (Prefect tracks its own runs). Returns, per kind, the launch record (job id, folder,
    command; the result when waited for).
    """
    from compoworld.datasets.layout import read_manifest
    from compoworld.training.launcher import chosen_launcher, get_launcher
    from compoworld.training.launcher import launch as start
    from compoworld.training.spec import DataRef, make_spec

    chosen = chosen_launcher(launcher)
    get_launcher(chosen)  # an unknown launcher fails here, before any job folder is written
    jobs = Path(jobs_dir) if jobs_dir else Path(datasets_dir).absolute().parent / "jobs"  # out/datasets -> out/jobs
    out: dict[str, Any] = {"run_id": run_id}
    for kind in kinds:
        folder = Path(datasets_dir) / ("sft" if kind == "sft" else "rl")
        manifest = read_manifest(folder)
        if run_id and manifest.get("run_id") != run_id:
            raise ValueError(f"{folder} was built from run {manifest.get('run_id')}, not {run_id}; rebuild the datasets")
        data = DataRef(path=str(folder.absolute()), dataset_id=manifest["splits"]["train"]["dataset_id"], run_id=manifest.get("run_id"))
        spec = make_spec(kind, data, jobs, model=model, hyperparameters=(hyperparameters or {}).get(kind),
                         launcher=chosen, deployment=deployment)
        out[kind] = start(spec, wait=(chosen == "local") if wait is None else wait)
    return out


__all__ = ["launch"]
