"""Any stage as a Prefect flow: its batches submitted as cached, retried Prefect tasks.

The rules a batch follows (see `run_batches`):

- its Prefect cache key is its inputs (the stage, the content part of the config, the batch, the
  warehouse) plus the version of the code its rows depend on (`Stage.code_version`, read from the
  stage's imports): a batch whose inputs and code did not change is not recomputed;
- the warehouse is the record: if a batch's parts are missing or damaged (deleted, or a crash came
  between the cache record and the write), it is recomputed whatever the cache says;
- a transient error is retried by Prefect with exponential backoff; any other error of one item is
  a `failures` row written by the batch itself, and the rest of the batch goes on; a batch that
  still fails after its retries becomes one failure row per item, and the rest of the stage goes on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import INPUTS, TASK_SOURCE
from prefect.futures import as_completed
from prefect.tasks import exponential_backoff

from compoworld.config import PipelineConfig, load_config
from compoworld.stages.base import Batch, RunContext, Stage, is_transient
from compoworld.stages.registry import get_stage
from compoworld.stages.runner import now_utc, produced_nothing, write_run_row
from compoworld.warehouse import Warehouse, resolve_warehouse_dir

ConfigArg = dict[str, Any] | str | None


def resolve(config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None) -> RunContext:
    """`config` is a YAML path, a config dict (as the pipeline hands it to a stage) or None (the
    default config); `warehouse` > $COMPOWORLD_WAREHOUSE > the config's."""
    if isinstance(config, dict):
        cfg = PipelineConfig.model_validate({**config, **(overrides or {})})
    else:
        cfg = load_config(config, overrides)
    return RunContext(cfg, Warehouse(resolve_warehouse_dir(warehouse, cfg.warehouse)))


def dump(ctx: RunContext) -> dict[str, Any]:
    """The whole config, as a subflow gets it (the warehouse resolved to a path)."""
    return {**ctx.cfg.model_dump(mode="json"), "warehouse": str(ctx.wh.root)}


def cache_dir(wh: Warehouse) -> Path:
    """Prefect's cached batch results live with the warehouse they describe: a new or deleted
    warehouse starts cold (under data/, so git ignores it and `make clean` removes it)."""
    return wh.data_dir / ".prefect" / "results"


def make_runner(cfg: PipelineConfig) -> Any:
    """The task runner the config asks for: threads (default), processes, or Dask (a local
    cluster of `workers` processes, or the scheduler at `dask_address`)."""
    if cfg.task_runner == "dask":
        from prefect_dask import DaskTaskRunner

        if cfg.dask_address:
            return DaskTaskRunner(address=cfg.dask_address)
        return DaskTaskRunner(cluster_kwargs=local_cluster_kwargs(cfg))
    if cfg.task_runner == "process":
        from prefect.task_runners import ProcessPoolTaskRunner

        return ProcessPoolTaskRunner(max_workers=cfg.workers)
    from prefect.task_runners import ThreadPoolTaskRunner

    return ThreadPoolTaskRunner(max_workers=cfg.workers)


def local_cluster_kwargs(cfg: PipelineConfig) -> dict[str, Any]:
    """A local Dask cluster of `workers` single-threaded processes whose tasks report to this
    process's Prefect API (without it each worker would start an ephemeral API of its own)."""
    import logging

    logging.getLogger("distributed").setLevel(logging.WARNING)
    return {"n_workers": cfg.workers, "threads_per_worker": 1, "processes": True, "dashboard_address": None,
            "env": {"PREFECT_API_URL": current_api_url()}}


def current_api_url() -> str:
    """The API this process talks to (the ephemeral one included)."""
    from prefect.client.orchestration import get_client

    return str(get_client(sync_client=True).api_url).rstrip("/")


@contextlib.contextmanager
def workers_share_api(cfg: PipelineConfig) -> Iterator[None]:
    """Process-pool workers inherit the environment: point them at this process's API while the
    pool lives, rather than letting each start an ephemeral API of its own."""
    if cfg.task_runner != "process" or os.environ.get("PREFECT_API_URL"):
        yield
        return
    os.environ["PREFECT_API_URL"] = current_api_url()
    try:
        yield
    finally:
        os.environ.pop("PREFECT_API_URL", None)


def retry_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect's retry condition: only errors that may go away by themselves are retried."""
    exc = state.result(raise_on_failure=False)
    return isinstance(exc, BaseException) and is_transient(exc)


@task(name="stage-batch", task_run_name="{stage}: {label}", persist_result=True, cache_policy=INPUTS + TASK_SOURCE,
      retry_condition_fn=retry_transient)
def stage_batch(stage: str, label: str, warehouse: str, config: dict[str, Any], batch: dict[str, Any], code: str) -> dict[str, Any]:
    """One batch of one stage; its arguments (with `code`, the stage's code version) are its cache key."""
    ctx = RunContext(PipelineConfig.model_validate(config), Warehouse(warehouse))
    return get_stage(stage).execute(ctx, Batch(**batch))


def batch_options(ctx: RunContext, fresh: bool) -> dict[str, Any]:
    backoff = ctx.cfg.retry_backoff_s
    return {"retries": ctx.cfg.retries,
            "retry_delay_seconds": exponential_backoff(backoff_factor=backoff) if backoff > 0 else 0,
            "result_storage": cache_dir(ctx.wh), "refresh_cache": fresh or not ctx.cfg.cache}


def run_batches(ctx: RunContext, stage: Stage, batches: list[Batch]) -> dict[str, Any]:
    """Submit every batch on the config's task runner; log progress as they finish; record a batch
    that failed for good as failures of its items. Returns totals over the batches."""
    log = get_run_logger()
    totals: dict[str, Any] = {"batches": len(batches), "cached": 0, "rows": 0, "succeeded": 0, "failed": 0, "batch_errors": 0}
    if not batches:
        return totals
    code = stage.code_version()
    with workers_share_api(ctx.cfg), make_runner(ctx.cfg) as runner:
        futures = {}
        for b in batches:
            fresh = not stage.done(ctx, b)
            t = stage_batch.with_options(**batch_options(ctx, fresh))
            params = {"stage": stage.name, "label": b.label, "warehouse": str(ctx.wh.root), "config": ctx.content_config,
                      "batch": {**dataclasses.asdict(b), "stale": False}, "code": code}
            futures[runner.submit(t, parameters=params)] = b
        done = 0
        for fut in as_completed(list(futures)):
            b = futures[fut]
            done += 1
            fut.wait()  # as_completed yields on completion; wait() pins the final state on the future
            state = fut.state
            if state.is_completed():
                info = fut.result()
                for k in ("rows", "succeeded", "failed"):
                    totals[k] += info.get(k, 0)
                cached = state.name == "Cached"
                totals["cached"] += int(cached)
                note = " (cached: inputs and code unchanged)" if cached else ""
                log.info(f"{stage.name}: {done}/{len(batches)} batches; {b.label}: {info.get('succeeded', 0)} ok, "
                         f"{info.get('failed', 0)} failed{note}")
                continue
            exc = state.result(raise_on_failure=False)
            attempts = ctx.cfg.retries + 1 if isinstance(exc, BaseException) and is_transient(exc) else 1
            for item in b.items:
                ctx.wh.record_failure(stage.name, item, exc if isinstance(exc, BaseException) else str(exc), attempts,
                                      ctx.run_id, config_hash=ctx.config_hash)
            totals["batch_errors"] += 1
            totals["failed"] += len(b.items)
            log.warning(f"{stage.name}: {done}/{len(batches)} batches; {b.label} failed after {attempts} attempt(s): "
                        f"{exc!r}; its {len(b.items)} items are recorded in failures")
    return totals


@contextlib.contextmanager
def recorded_run(ctx: RunContext, flow_name: str, enabled: bool = True) -> Iterator[None]:
    """The `runs` row of a top-level flow run: running, then completed or failed."""
    if not enabled:
        yield
        return
    started = now_utc()
    write_run_row(ctx, flow_name, "running", started)
    try:
        yield
    except BaseException:
        write_run_row(ctx, flow_name, "failed", started, now_utc())
        raise
    write_run_row(ctx, flow_name, "completed", started, now_utc())


@flow(name="stage", flow_run_name="{stage}")
def stage_flow(stage: str, config: ConfigArg = None, warehouse: str | None = None, overrides: dict[str, Any] | None = None,
               record_run: bool = True) -> dict[str, Any]:
    """Run one stage of the factory (any name in the stage registry) over the config's run."""
    ctx = resolve(config, warehouse, overrides)
    st = get_stage(stage)
    with recorded_run(ctx, stage, record_run):
        totals = run_batches(ctx, st, st.plan(ctx))
    warning = produced_nothing(st, totals)
    if warning:
        get_run_logger().warning(warning)
    return totals


@contextlib.contextmanager
def local_run_settings() -> Iterator[None]:
    """Settings for a run on the ephemeral API (no PREFECT_API_URL). Flow heartbeats exist so a
    server can tell a crashed run from a live one; an ephemeral API dies with this process, so
    nothing reads them, and each flow would wait up to a second for its heartbeat thread to end."""
    if os.environ.get("PREFECT_API_URL"):
        yield
        return
    from prefect.settings import temporary_settings

    with temporary_settings(updates={"flows.heartbeat_frequency": None}):
        yield
