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
    (default: `jobs` next to `datasets_dir`) and launch it. Each job becomes a `training_jobs` row of
    `wh` (when given) as `compoworld train` records it: under the job's own run id (its content id), so
    relaunching the same job rewrites its row (`started` -> `completed`), never adds a copy.

    The launcher is `launcher`, else `$COMPOWORLD_TRAIN_LAUNCHER`, else `local` (a subprocess on this
    machine); `prefect` (registered by `flows.train_launcher`, imported when asked for) starts a run
    of `deployment` (or `$COMPOWORLD_TRAIN_DEPLOYMENT`) on its work pool. `wait` defaults to waiting
    for a local job (a subprocess of this one) and to returning once any other launcher has started
    the job (Prefect tracks its own runs). Returns, per kind, the launch record (job id, folder,
    command; the result when waited for). SFT rows longer than `max_length` are cut to their first
    `max_length` tokens unless `hyperparameters["sft"]` says otherwise (gateway rows of composed tasks
    run to 8-25k tokens, past the tiny model's and SmolLM2's 8192-token context).
    """
    from compoworld.datasets.layout import read_manifest
    from compoworld.training.launcher import chosen_launcher, get_launcher, job_row
    from compoworld.training.launcher import launch as start
    from compoworld.training.spec import local_data_ref, make_spec
    from compoworld.warehouse import write_training_job

    chosen = chosen_launcher(launcher)
    get_launcher(chosen)  # an unknown launcher fails here, before any job folder is written
    jobs = Path(jobs_dir) if jobs_dir else Path(datasets_dir).absolute().parent / "jobs"  # out/datasets -> out/jobs
    out: dict[str, Any] = {"run_id": run_id}
    for kind in kinds:
        folder = Path(datasets_dir) / ("sft" if kind == "sft" else "rl")
        manifest = read_manifest(folder)
        if run_id and manifest.get("run_id") != run_id:
            raise ValueError(f"{folder} was built from run {manifest.get('run_id')}, not {run_id}; rebuild the datasets")
        data = local_data_ref(folder, "train")
        given = dict((hyperparameters or {}).get(kind) or {})
        if kind == "sft" and not given.get("drop_long_rows"):
            given.setdefault("truncate_long_rows", True)  # composed rows run past the models' 8192-token context
        spec = make_spec(kind, data, jobs, model=model, hyperparameters=given, launcher=chosen, deployment=deployment)
        out[kind] = start(spec, wait=(chosen == "local") if wait is None else wait)
        if wh is not None:
            write_training_job(wh, job_row(spec, out[kind]))
    return out


__all__ = ["launch"]
