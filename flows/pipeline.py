"""The pipeline: every enabled stage of the registry, in order, from one config (each a subflow)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from prefect import flow, get_run_logger

from compoworld.stages.base import RunContext
from compoworld.stages.registry import STAGE_NAMES
from compoworld.warehouse import run_summary
from flows.stage import ConfigArg, dump, local_cluster_kwargs, recorded_run, resolve, stage_flow


@contextlib.contextmanager
def shared_cluster(ctx: RunContext) -> Iterator[RunContext]:
    """With `task_runner: dask` and no scheduler address, one local cluster serves every stage
    (rather than one cluster started and stopped per stage)."""
    if ctx.cfg.task_runner != "dask" or ctx.cfg.dask_address:
        yield ctx
        return
    from distributed import LocalCluster

    with LocalCluster(**local_cluster_kwargs(ctx.cfg)) as cluster:
        get_run_logger().info(f"dask: local cluster of {ctx.cfg.workers} worker(s) at {cluster.scheduler_address}")
        yield RunContext(ctx.cfg.model_copy(update={"dask_address": cluster.scheduler_address}), ctx.wh)


@flow(name="pipeline")
def pipeline_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                  record_run: bool = True) -> dict[str, Any]:
    """Synthesize, verify, graph, walks, instantiate, collect, score, datasets, train: the stages of
    the registry, the optional ones as the config's `stages` says."""
    ctx = resolve(config, warehouse, overrides)
    log = get_run_logger()
    log.info(f"run {ctx.run_id}: {ctx.cfg.tasks} tasks, agents {ctx.cfg.agents} x {ctx.cfg.group_size}, "
             f"{ctx.cfg.task_runner} runner, warehouse {ctx.wh.root}")
    results: dict[str, Any] = {}
    with recorded_run(ctx, "pipeline", record_run), shared_cluster(ctx) as run:
        for name in STAGE_NAMES:
            if not run.cfg.stage_enabled(name):
                log.info(f"{name}: off in the config (stages.{name})")
                continue
            results[name] = stage_flow(stage=name, config=dump(run), warehouse=str(run.wh.root), record_run=False)
    return {**run_summary(ctx.wh, ctx.run_id), "stages": results}
