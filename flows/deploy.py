"""Deployments: the pipeline, `retry_failed` and every stage of the registry, with the config's
schedules, served to a Prefect server.

`compoworld deploy` calls `serve_all`: the deployments are registered with the server at
$PREFECT_API_URL (`make ui` starts one on 127.0.0.1:4200) and this process then runs whatever the
server schedules or the UI starts, until it is stopped. A stage's deployment is the generic stage
flow with the stage's name as a parameter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect.deployments.runner import EntrypointType, RunnerDeployment

from compoworld.config import DEFAULT_CONFIG, FLOW_NAMES
from compoworld.stages.registry import STAGE_NAMES, registration
from flows.pipeline import pipeline_flow
from flows.retry import retry_failed_flow
from flows.stage import resolve, stage_flow


def deployment_name(flow: str) -> str:
    return f"compoworld-{flow.replace('_', '-')}"


def deployments(config: str | None = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                flows: list[str] | None = None, schedules: bool = True) -> list[RunnerDeployment]:
    """One deployment per flow; its default parameters pin the config file (absolute), the warehouse
    and the overrides, so a run started from the UI makes what `compoworld run` would."""
    ctx = resolve(config, warehouse, overrides)
    config_path = str(Path(config or DEFAULT_CONFIG).absolute())
    out = []
    for name in flows or list(FLOW_NAMES):
        params: dict[str, Any] = {"config": config_path, "warehouse": str(ctx.wh.root)}
        if name == "retry_failed":
            fl, description = retry_failed_flow, "re-run the failed items, then the pipeline"
        elif name == "pipeline":
            fl, description = pipeline_flow, "every stage in order"
            params["overrides"] = overrides or {}
        else:
            fl, description = stage_flow, registration(name).doc
            params.update(stage=name, overrides=overrides or {})
        out.append(fl.to_deployment(
            name=deployment_name(name), cron=ctx.cfg.schedules.get(name) if schedules else None, parameters=params,
            tags=["compoworld", *(["stage"] if name in STAGE_NAMES else [])], description=description,
            # Run by module path: the server's runs import `flows.*` wherever this package is installed.
            entrypoint_type=EntrypointType.MODULE_PATH))
    return out


def serve_all(config: str | None = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
              flows: list[str] | None = None, schedules: bool = True, limit: int | None = None) -> None:
    from prefect import serve

    serve(*deployments(config, warehouse, overrides, flows, schedules), limit=limit)
