"""The pipeline: every stage, in order, from one config (each stage a subflow)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from prefect import flow, get_run_logger

from compoworld import pipeline as P
from flows.collect import collect_flow
from flows.common import ConfigArg, Ctx, local_cluster_kwargs, recorded_run, resolve
from flows.datasets import datasets_flow
from flows.instantiate import instantiate_flow
from flows.sample_walks import sample_walks_flow
from flows.score import score_flow
from flows.synthesize import synthesize_flow
from flows.train import train_flow
from flows.verify import verify_flow


@contextlib.contextmanager
def shared_cluster(ctx: Ctx) -> Iterator[Ctx]:
    """With `task_runner: dask` and no scheduler address, one local cluster serves every stage
    (rather than one cluster started and stopped per stage)."""
    if ctx.cfg.task_runner != "dask" or ctx.cfg.dask_address:
        yield ctx
        return
    from distributed import LocalCluster

    with LocalCluster(**local_cluster_kwargs(ctx.cfg)) as cluster:
        get_run_logger().info(f"dask: local cluster of {ctx.cfg.workers} worker(s) at {cluster.scheduler_address}")
        yield Ctx(ctx.cfg.model_copy(update={"dask_address": cluster.scheduler_address}), ctx.wh)


@flow(name="pipeline")
def pipeline_flow(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
                  record_run: bool = True) -> dict[str, Any]:
    """Synthesize, verify, sample walks, instantiate tasks, collect trajectories, score and reward,
    assemble datasets, train: the optional stages as the config's `stages` says."""
    ctx = resolve(config, warehouse, overrides)
    log = get_run_logger()
    log.info(f"run {ctx.run_id}: {ctx.cfg.tasks} tasks, agents {ctx.cfg.agents} x {ctx.cfg.group_size}, "
             f"{ctx.cfg.task_runner} runner, warehouse {ctx.wh.root}")
    stages = ctx.cfg.stages
    results: dict[str, Any] = {}
    with recorded_run(ctx, "pipeline", record_run), shared_cluster(ctx) as run:
        args = {"config": run.dump(), "warehouse": str(run.wh.root), "record_run": False}
        if stages.synthesize:
            results["synthesize"] = synthesize_flow(**args)
        if stages.verify:
            results["verify"] = verify_flow(**args)
        results["sample_walks"] = sample_walks_flow(**args)
        results["instantiate"] = instantiate_flow(**args)
        results["collect"] = collect_flow(**args)
        results["score"] = score_flow(**args)
        if stages.datasets:
            results["datasets"] = datasets_flow(**args)
        else:
            log.info("datasets: off in the config (stages.datasets)")
        if stages.train:
            results["train"] = train_flow(**args)
    summary = P.run_summary(ctx.wh, ctx.run_id)
    return {**summary, "stages": results}
