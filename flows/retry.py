"""Retry failed: re-run only the items recorded in `failures`, then carry them downstream.

Each failed item is recomputed on its own and merged into its batch's parts (so the warehouse ends
as if it had never failed); its failure row is then marked resolved, or rewritten with the new
attempt count if it failed again. Tasks the designer or probe rejected are deterministic outcomes,
left alone unless `include_rejected`. Afterwards the pipeline runs again for each run touched:
every batch whose inputs did not change is a cache hit, so only the work that depends on the
recovered items is done (rollouts of a recovered task, the rewards of a recovered group).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from compoworld import pipeline as P
from compoworld.config import PipelineConfig
from compoworld.warehouse import Warehouse, resolve_warehouse_dir
from flows.common import ConfigArg, Ctx, resolve, retry_transient


def _with_attempts(out: P.BatchOutput, previous: dict[str, int]) -> P.BatchOutput:
    out.failures = [dataclasses.replace(f, attempts=previous.get(f.item_id, 0) + f.attempts) for f in out.failures]
    return out


@task(name="retry-items", cache_policy=NO_CACHE, retry_condition_fn=retry_transient)
def retry_items(warehouse: str, config: dict[str, Any], stage: str, items: list[str], previous: dict[str, int]) -> dict[str, Any]:
    cfg = PipelineConfig.model_validate(config)
    wh, run_id, ch = Warehouse(warehouse), cfg.run_id, cfg.digest()
    outs: list[tuple[str, P.BatchOutput, bool]] = []  # (part, output, merge into the part?)
    if stage == "instantiate":
        by_batch: dict[tuple[int, int], list[int]] = defaultdict(list)
        for item in items:
            by_batch[P.batch_of(P.item_index(item), cfg)].append(P.item_index(item))
        for (a, b), indexes in sorted(by_batch.items()):
            outs.append((P.batch_part("instantiate", a, b), P.instantiate(cfg, sorted(indexes)), True))
    elif stage in ("collect", "score"):
        wanted: dict[str, set[str]] = defaultdict(set)
        for item in items:
            agent, task_id = P.split_group_item(item)
            wanted[agent].add(task_id)
        all_ids = sorted(set().union(*wanted.values()))
        rows = wh.query("SELECT task_json FROM tasks WHERE run_id = ? AND list_contains(?, task_id)", [run_id, all_ids])
        tasks = P.tasks_from_rows(rows)
        for agent, ids in sorted(wanted.items()):
            by_batch_t: dict[tuple[int, int], list[Any]] = defaultdict(list)
            for t in tasks:
                if t.id in ids:
                    by_batch_t[P.batch_of(P.task_index(t), cfg)].append(t)
            for (a, b), ts in sorted(by_batch_t.items()):
                if stage == "collect":
                    outs.append((P.batch_part("collect", a, b, agent), P.collect(cfg, agent, ts), True))
                else:
                    trajs, results, ordinals = P.score_inputs(wh, run_id, cfg, agent, a, b)
                    keep = {t.id for t in ts}
                    out = P.score(agent, [r for r in trajs if r["task_id"] in keep], [r for r in results if r["task_id"] in keep], ordinals)
                    outs.append((P.batch_part("score", a, b, agent), out, True))
    elif stage == "verify":
        for name, out in P.verify(items, cfg).items():
            outs.append((P.verify_part(name), out, False))
    elif stage == "sample_walks":
        outs.append(("sample_walks", P.sample_walks(cfg), False))
    elif stage == "synthesize":
        outs.append(("synthesize", P.synthesize(cfg)[0], False))
    elif stage in ("datasets", "train"):
        # One item each, redone by the pipeline run that follows (which resolves the failure).
        return {"succeeded": 0, "failed": 0, "deferred": len(items)}
    else:
        raise ValueError(f"cannot retry stage {stage!r}")
    ok = failed = 0
    for part, out, merge in outs:
        out = _with_attempts(out, previous)
        (P.merge_into_part if merge else P.persist)(wh, run_id, part, out, ch)
        ok += len(out.succeeded)
        failed += len(out.failures)
    return {"succeeded": ok, "failed": failed}


def run_configs(wh: Warehouse, run_ids: list[str]) -> dict[str, PipelineConfig]:
    """The config each run was made with, from its `runs` row."""
    rows = wh.query("SELECT run_id, config_json FROM runs WHERE list_contains(?, run_id)", [run_ids])
    return {r["run_id"]: PipelineConfig.model_validate(json.loads(r["config_json"])) for r in rows}


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
    configs = run_configs(wh, sorted({f["run_id"] for f in failures}))
    if base is not None:
        configs.setdefault(base.run_id, base.cfg)
    report: dict[str, Any] = {"retried": 0, "resolved": 0, "still_failing": 0, "skipped_runs": []}
    for rid in sorted({f["run_id"] for f in failures}):
        cfg = configs.get(rid)
        if cfg is None:
            log.warning(f"retry-failed: run {rid} has no runs row with its config; pass --config to retry it")
            report["skipped_runs"].append(rid)
            continue
        ctx = Ctx(cfg, wh)
        mine = [f for f in failures if f["run_id"] == rid]
        for st in P.STAGES:
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
            pipeline_flow(config={**ctx.dump(), "warehouse": str(wh.root)}, warehouse=str(wh.root))
    # Failures of stages settled by the pipeline run (datasets, train) resolve there; count what is left.
    left, rejected = unresolved()
    report["unresolved_after"], report["rejected_not_retried"] = len(left), rejected
    return report
