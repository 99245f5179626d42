"""Deployments: every flow, with its schedule from the config, served to a Prefect server.

`compoworld deploy` calls `serve_all`: the deployments are registered with the server at
$PREFECT_API_URL (`make ui` starts one on 127.0.0.1:4200) and this process then runs whatever the
server schedules or the UI starts, until it is stopped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect.deployments.runner import EntrypointType, RunnerDeployment

from compoworld.config import DEFAULT_CONFIG
from flows.collect import collect_flow
from flows.common import resolve
from flows.datasets import datasets_flow
from flows.instantiate import instantiate_flow
from flows.pipeline import pipeline_flow
from flows.retry import retry_failed_flow
from flows.sample_walks import sample_walks_flow
from flows.score import score_flow
from flows.synthesize import synthesize_flow
from flows.train import train_flow
from flows.verify import verify_flow

FLOWS = {"pipeline": pipeline_flow, "synthesize": synthesize_flow, "verify": verify_flow, "sample_walks": sample_walks_flow,
         "instantiate": instantiate_flow, "collect": collect_flow, "score": score_flow, "datasets": datasets_flow,
         "train": train_flow, "retry_failed": retry_failed_flow}


def deployment_name(flow: str) -> str:
    return f"compoworld-{flow.replace('_', '-')}"


def deployments(config: str | None = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                flows: list[str] | None = None, schedules: bool = True) -> list[RunnerDeployment]:
    """One deployment per flow; its default parameters pin the config file (absolute), the warehouse
    and the overrides, so a run started from the UI makes what `compoworld run` would."""
    ctx = resolve(config, warehouse, overrides)
    config_path = str(Path(config or DEFAULT_CONFIG).absolute())
    out = []
    for name in flows or list(FLOWS):
        fl = FLOWS[name]
        if name == "retry_failed":
            params: dict[str, Any] = {"warehouse": str(ctx.wh.root), "config": config_path}
        else:
            params = {"config": config_path, "warehouse": str(ctx.wh.root), "overrides": overrides or {}}
        cron = ctx.cfg.schedules.get(name) if schedules else None
        out.append(fl.to_deployment(
            name=deployment_name(name), cron=cron, parameters=params, tags=["compoworld"],
            description=(fl.description or "").strip().splitlines()[0] if fl.description else None,
            # Run by module path: the server's runs import `flows.*` wherever this package is installed.
            entrypoint_type=EntrypointType.MODULE_PATH))
    return out


def serve_all(config: str | None = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
              flows: list[str] | None = None, schedules: bool = True, limit: int | None = None) -> None:
    from prefect import serve

    serve(*deployments(config, warehouse, overrides, flows, schedules), limit=limit)
