"""Starting a training job from its spec.

- `local` (default): the spec's command as a subprocess on this machine (`python -m
  compoworld.training.run job.json`, or `accelerate launch ... -m compoworld.training.run job.json`
  when the spec asks for GPUs), output in the job folder's `train.log`.
- `prefect`: a flow run of a Prefect deployment that serves a GPU work pool, with the spec as its
  parameter (`run_deployment(name, parameters={"spec": ...}, idempotency_key=job_id)`). The
  deployment's flow calls `run_spec_here(spec)` on the worker, which re-roots the job folder on that
  machine and runs the same command there. Such a job should read its data from the Hub
  (`DataRef(path="ORG/NAME", revision=<run tag>)`): the worker cannot see this machine's folders.

Prefect is imported only on that path: the library itself does not depend on an API server.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from compoworld.training.spec import LOG_FILE, RESULT_FILE, JobSpec, launch_command, write_spec

DEPLOYMENT_ENV = "COMPOWORLD_TRAIN_DEPLOYMENT"


class LaunchError(Exception):
    pass


def launch(spec: JobSpec, wait: bool = True, timeout: float | None = None) -> dict[str, Any]:
    """Write the spec, then start the job with its launcher."""
    write_spec(spec)
    if spec.launch.launcher == "prefect":
        return launch_prefect(spec, timeout=0 if not wait else timeout)
    return launch_local(spec, wait=wait)


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
    return out


def launch_prefect(spec: JobSpec, timeout: float | None = 0) -> dict[str, Any]:
    """A flow run of the configured deployment; returns at once by default (`timeout=0`)."""
    name = spec.launch.deployment or os.environ.get(DEPLOYMENT_ENV)
    if not name:
        raise LaunchError(f"launcher 'prefect' needs a deployment: --deployment FLOW/DEPLOYMENT or ${DEPLOYMENT_ENV}")
    from prefect.deployments import run_deployment

    run = run_deployment(name=name, parameters={"spec": spec.model_dump(mode="json")}, timeout=timeout,
                         tags=["compoworld", f"train-{spec.kind}"], idempotency_key=spec.job_id, as_subflow=False)
    warnings = []
    if Path(spec.data.path).is_dir():
        warnings.append(f"the data is a local folder ({spec.data.path}): the worker must see the same path; "
                        "push the dataset and pass --data ORG/NAME --revision <run tag> for remote workers")
    return {"job_id": spec.job_id, "launcher": "prefect", "deployment": name, "work_pool": spec.launch.work_pool,
            "flow_run_id": str(run.id), "state": run.state.name if getattr(run, "state", None) else None,
            "warnings": warnings}


def run_spec_here(spec: dict[str, Any] | JobSpec, jobs_dir: str | Path | None = None) -> dict[str, Any]:
    """What a deployment's flow runs on the worker: the job in a folder of this machine, via its command."""
    spec = spec if isinstance(spec, JobSpec) else JobSpec.model_validate(spec)
    if jobs_dir is not None:
        spec = spec.model_copy(deep=True)
        spec.output_dir = str((Path(jobs_dir) / spec.job_id).absolute())
        spec.launch.command = launch_command(spec, spec.spec_path)
    out = launch_local(spec, wait=True)
    if out.get("returncode") != 0:
        raise LaunchError(f"training job {spec.job_id} failed (exit {out.get('returncode')}); see {out['log']}")
    return out
