"""Starting a training job from its spec, with the launcher the spec names.

Launchers are a table, name -> function (`register_launcher`):

- `local` (here, the default): the spec's command as a subprocess on this machine (`python -m
  compoworld.training.run job.json`, or `accelerate launch ... -m compoworld.training.run job.json`
  when the spec asks for GPUs), output in the job folder's `train.log`.
- `prefect`: a flow run of a Prefect deployment that serves a GPU work pool. It lives in
  `flows.train_launcher` (Prefect is imported only under `flows/`), which registers it on import.
  The deployment's flow calls `run_spec_here(spec)` on the worker.

The library never imports `flows` statically: a launcher that lives outside it is found through
`LAUNCHER_MODULES`, a table of module *names* imported (by `importlib`) the first time that launcher
is asked for. So `COMPOWORLD_TRAIN_LAUNCHER=prefect` works from every entry point (CLI, pipeline
stage) while the import graph keeps pointing from `flows` to `compoworld` only.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Callable

from compoworld.training.spec import LOG_FILE, RESULT_FILE, JobSpec, launch_command, write_spec

LAUNCHER_ENV = "COMPOWORLD_TRAIN_LAUNCHER"
DEFAULT_LAUNCHER = "local"
# Launchers outside the library: the module that registers each one when imported.
LAUNCHER_MODULES: dict[str, str] = {"prefect": "flows.train_launcher"}

# (spec, wait) -> the launch record (job id, launcher, where to follow it; the result when waited for).
Launcher = Callable[[JobSpec, bool], dict[str, Any]]


class LaunchError(Exception):
    pass


def chosen_launcher(name: str | None = None) -> str:
    """The launcher to use: `name`, else `$COMPOWORLD_TRAIN_LAUNCHER`, else `local`."""
    return name or os.environ.get(LAUNCHER_ENV) or DEFAULT_LAUNCHER


def register_launcher(name: str, fn: Launcher) -> None:
    """Make `fn` the launcher called `name` (registering a name again replaces it)."""
    _LAUNCHERS[name] = fn


def get_launcher(name: str) -> Launcher:
    """The launcher called `name`, importing the module that provides it when it is not registered yet."""
    module = LAUNCHER_MODULES.get(name)
    if name not in _LAUNCHERS and module is not None:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise LaunchError(f"launcher {name!r} comes from {module}, which cannot be imported here: {exc}") from None
    found = _LAUNCHERS.get(name)
    if found is None:
        elsewhere = "".join(f"; the {n} launcher comes from {m}" for n, m in sorted(LAUNCHER_MODULES.items()))
        raise LaunchError(f"unknown launcher {name!r}; registered: {', '.join(sorted(_LAUNCHERS))}{elsewhere}")
    return found


def launch(spec: JobSpec, wait: bool = True) -> dict[str, Any]:
    """Write the spec, then start the job with the launcher it names."""
    start = get_launcher(spec.launch.launcher)  # before writing anything: an unknown launcher leaves no job folder
    write_spec(spec)
    return start(spec, wait)


def launch_local(spec: JobSpec, wait: bool = True) -> dict[str, Any]:
    write_spec(spec)
    log_path = spec.job_dir / LOG_FILE
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(log_path, "w") as log:
        try:
            proc = subprocess.Popen(spec.launch.command, stdout=log, stderr=subprocess.STDOUT, env=env)
        except FileNotFoundError as exc:
            raise LaunchError(f"cannot start {spec.launch.command[0]!r}: {exc}") from None
        out: dict[str, Any] = {"job_id": spec.job_id, "launcher": "local", "pid": proc.pid, "log": str(log_path),
                               "job_dir": str(spec.job_dir), "command": spec.launch.command}
        if not wait:
            return out
        out["returncode"] = proc.wait()
    result_path = spec.job_dir / RESULT_FILE
    if out["returncode"] == 0 and result_path.is_file():
        out["result"] = json.loads(result_path.read_text())
    elif out["returncode"] != 0:
        out["error"] = failure_cause(log_path)
    return out


_ERROR_LINE = re.compile(r"^(error: |[A-Za-z_.]*(Error|Exception|Interrupt)\b:?)")


def failure_cause(log_path: Path) -> str | None:
    """The cause of a failed job: the last error line of its log (`error: ...` or an exception's line),
    else its last line."""
    try:
        lines = [ln.strip() for ln in Path(log_path).read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return None
    for line in reversed(lines):
        if _ERROR_LINE.match(line):
            return line.removeprefix("error: ")
    return lines[-1] if lines else None


def run_spec_here(spec: dict[str, Any] | JobSpec, jobs_dir: str | Path | None = None) -> dict[str, Any]:
    """What a deployment's flow runs on the worker: the job in a folder of this machine, via its command."""
    spec = spec if isinstance(spec, JobSpec) else JobSpec.model_validate(spec)
    if jobs_dir is not None:
        spec = spec.model_copy(deep=True)
        spec.output_dir = str((Path(jobs_dir) / spec.job_id).absolute())
        spec.launch.command = launch_command(spec, spec.spec_path)
    out = launch_local(spec, wait=True)
    if out.get("returncode") != 0:
        cause = f": {out['error']}" if out.get("error") else ""
        raise LaunchError(f"training job {spec.job_id} failed (exit {out.get('returncode')}){cause}; log: {out['log']}")
    return out


# The launcher table: `local` is here; others register themselves (see `LAUNCHER_MODULES`).
_LAUNCHERS: dict[str, Launcher] = {DEFAULT_LAUNCHER: launch_local}


def job_row(spec: JobSpec, out: dict[str, Any]) -> dict[str, Any]:
    """The `training_jobs` row of a launched job, from its spec and its launch record: `completed` or
    `failed` once waited for (with losses or rewards per step, times and the checkpoint), else `started`."""
    result = out.get("result") or {}
    if "returncode" not in out:
        status = "started"
    else:
        status = "completed" if out["returncode"] == 0 and result else "failed"
    if spec.kind == "sft":
        curve = result.get("losses") or []
    else:  # GRPO logs the group reward of each step
        curve = [{"step": s.get("step"), "reward": s.get("reward"), "reward_std": s.get("reward_std")}
                 for s in result.get("steps") or []]
    params = spec.params()
    return {"job_id": spec.job_id, "kind": spec.kind, "model": spec.model, "status": status,
            "dataset_id": spec.data.dataset_id, "data_path": spec.data.path, "data_revision": spec.data.revision,
            "data_run_id": spec.data.run_id, "data_split": spec.data.split, "learning_rate": params.learning_rate,
            "max_steps": params.max_steps, "losses_json": curve, "loss_first": result.get("loss_first"),
            "loss_last": result.get("loss_last"), "seconds": result.get("seconds"),
            "step_seconds_json": result.get("step_seconds") or [],
            "model_dir": result.get("model_dir") if status == "completed" else None,
            "error": out.get("error") if status == "failed" else None,
            "spec_json": spec.model_dump(mode="json")}
