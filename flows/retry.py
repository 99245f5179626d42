"""Retry failed: re-run only the items recorded in `failures`, then carry them downstream.

Each failed item is recomputed on its own (its stage decodes the item id with its codec) and
merged into its batch's parts, so the warehouse ends as if it had never failed; its failure row is
then marked resolved, or rewritten with the new attempt count if it failed again. Tasks the
designer or probe rejected are deterministic outcomes, left alone unless `include_rejected`.
Afterwards the pipeline runs again for each run touched: every batch whose inputs did not change is
a cache hit, so only the work that depends on the recovered items is done.
"""

from __future__ import annotations

from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from compoworld.config import PipelineConfig
from compoworld.stages.base import RunContext
from compoworld.stages.registry import STAGE_NAMES, get_stage
from compoworld.warehouse import Warehouse, resolve_warehouse_dir, run_configs
from flows.stage import ConfigArg, dump, resolve, retry_transient


@task(name="retry-items", task_run_name="retry {stage}", cache_policy=NO_CACHE, retry_condition_fn=retry_transient)
def retry_items(warehouse: str, config: dict[str, Any], stage: str, items: list[str], previous: dict[str, int]) -> dict[str, int]:
    ctx = RunContext(PipelineConfig.model_validate(config), Warehouse(warehouse))
    return get_stage(stage).retry(ctx, items, previous)


@flow(name="retry_failed")
def retry_failed_flow(warehouse: str | None = None, stage: str | None = None, run_id: str | None = None,
                      config: ConfigArg = None, include_rejected: bool = False, resume: bool = True) -> dict[str, Any]:
    """Re-run the unresolved failed items (of one stage, or all), then the pipeline to carry the
    recovered items through the later stages."""
    from flows.pipeline import pipeline_flow

    log = get_run_logger()
    base = resolve(config, warehouse) if config is not None else None
    wh = base.wh if base else Warehouse(resolve_warehouse_dir(warehouse, None))

    def unresolved() -> tuple[list[dict[str, Any]], int]:
        rows = [f for f in wh.failures(stage) if run_id is None or f["run_id"] == run_id]
        todo = [f for f in rows if include_rejected or not f["reason"].startswith("rejected_")]
        return todo, len(rows) - len(todo)

    failures, rejected = unresolved()
    if not failures:
        log.info("retry-failed: no unresolved failures to retry")
        return {"retried": 0, "resolved": 0, "still_failing": 0, "unresolved_after": 0, "rejected_not_retried": rejected}
    run_ids = sorted({f["run_id"] for f in failures})
    configs = {rid: PipelineConfig.model_validate_json(c) for rid, c in run_configs(wh, run_ids).items()}
    if base is not None:
        configs.setdefault(base.run_id, base.cfg)
    report: dict[str, Any] = {"retried": 0, "resolved": 0, "still_failing": 0, "skipped_runs": []}
    for rid in run_ids:
        cfg = configs.get(rid)
        if cfg is None:
            log.warning(f"retry-failed: run {rid} has no runs row with its config; pass --config to retry it")
            report["skipped_runs"].append(rid)
            continue
        ctx = RunContext(cfg, wh)
        mine = [f for f in failures if f["run_id"] == rid]
        for st in STAGE_NAMES:  # in stage order: a recovered walk is there before its task is retried
            items = sorted(f["item_id"] for f in mine if f["stage"] == st)
            if not items:
                continue
            previous = {f["item_id"]: int(f["attempts"]) for f in mine if f["stage"] == st}
            log.info(f"retry-failed: run {rid}, stage {st}: {len(items)} item(s)")
            t = retry_items.with_options(retries=cfg.retries, retry_delay_seconds=cfg.retry_backoff_s)
            info = t(str(wh.root), ctx.content_config, st, items, previous)
            report["retried"] += len(items)
            report["resolved"] += info["succeeded"]
            report["still_failing"] += info["failed"]
            log.info(f"retry-failed: stage {st}: {info['succeeded']} resolved, {info['failed']} still failing")
        if resume:
            pipeline_flow(config=dump(ctx), warehouse=str(wh.root))
    left, rejected = unresolved()
    report["unresolved_after"], report["rejected_not_retried"] = len(left), rejected
    return report
