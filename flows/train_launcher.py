"""The `prefect` training launcher, and the flow its deployment runs on the worker.

Importing this module registers the launcher as `prefect` in `compoworld.training.launcher` (which
imports it by name, through `LAUNCHER_MODULES`, the first time `prefect` is asked for). It starts a
flow run of a Prefect deployment that serves a GPU work pool, with the job spec as its parameter
(`run_deployment(name, parameters={"spec": ...}, idempotency_key=job_id)`). That deployment serves
`train_job_flow`, which runs `run_spec_here(spec)` on the worker: the job folder is re-rooted on that
machine and the same command runs there. Such a job should read its data from the Hub
(`DataRef(path="ORG/NAME", revision=<run tag>)`): the worker cannot see this machine's folders.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from prefect import deployments, flow

from compoworld.training.launcher import LaunchError, register_launcher, run_spec_here
from compoworld.training.spec import JobSpec

DEPLOYMENT_ENV = "COMPOWORLD_TRAIN_DEPLOYMENT"


def launch_prefect(spec: JobSpec, wait: bool = False) -> dict[str, Any]:
    """A flow run of the spec's deployment (or `$COMPOWORLD_TRAIN_DEPLOYMENT`); returns once the run is
    created unless `wait`, then when it ends."""
    name = spec.launch.deployment or os.environ.get(DEPLOYMENT_ENV)
    if not name:
        raise LaunchError(f"launcher 'prefect' needs a deployment: --deployment FLOW/DEPLOYMENT or ${DEPLOYMENT_ENV}")
    # Looked up on the module at call time (not imported by name), so a test can stand in for the server.
    run = deployments.run_deployment(name=name, parameters={"spec": spec.model_dump(mode="json")},
                                     timeout=None if wait else 0, tags=["compoworld", f"train-{spec.kind}"],
                                     idempotency_key=spec.job_id, as_subflow=False)
    warnings = []
    if Path(spec.data.path).is_dir():
        warnings.append(f"the data is a local folder ({spec.data.path}): the worker must see the same path; "
                        "push the dataset and pass --data ORG/NAME --revision <run tag> for remote workers")
    return {"job_id": spec.job_id, "launcher": "prefect", "deployment": name, "work_pool": spec.launch.work_pool,
            "flow_run_id": str(run.id), "state": run.state.name if getattr(run, "state", None) else None,
            "warnings": warnings}


@flow(name="train-job")
def train_job_flow(spec: dict[str, Any], jobs_dir: str | None = None) -> dict[str, Any]:
    """What a training deployment serves on its (GPU) work pool: the job, run on the worker."""
    return run_spec_here(spec, jobs_dir)


register_launcher("prefect", launch_prefect)
