"""The factory's stages as pure batch functions, and the plain in-process chain of them.

Each stage turns a batch of items into warehouse rows (`BatchOutput`): the Prefect flows in
`flows/` submit these batches as retryable, cached tasks; `run_pipeline` below calls the very same
functions in one process (the baseline the orchestration overhead is measured against). Both
write the same parts, so both give the same warehouse, byte for byte.

Stages and their items:

- synthesize   compile services from MCP specs (one item: the corpus)
- verify       check each service (item: a service)
- sample_walks the services the walks are drawn from and their dependency graph (one item). The
               walk of a task is fixed when the task is designed (a walk the designer cannot realize
               is replaced by a fresh one), so walk rows are written with their tasks.
- instantiate  design + probe + submit (item: a task index `task-<seed>-<index>`)
- collect      a rollout group of one agent on one task (item: `<agent>|<task_id>`)
- score        rubric rewards and GRPO advantages of one group (item: `<agent>|<task_id>`)

Parts are named by stage, agent and index range, so a retried or resumed batch rewrites its own
parts. Rows are written sorted by their table key: a part's bytes depend only on its rows, not on
the order the work happened in (an item retried later is merged into its batch's part).

An error of one item is either transient (`is_transient`: a connection drop, a timeout, a rate
limit), raised so the orchestrator retries the batch with backoff, or permanent, recorded as an
`ItemFailure` while the rest of the batch goes on. A task the designer or the probe rejects is a
failure too (reason `rejected_design` / `rejected_probe`): deterministic, so it is not retried.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from compoworld.config import PipelineConfig
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.tasks.factory import Factory, Rejection, TaskConfig
from compoworld.tasks.graph import build_graph, edge_records
from compoworld.tasks.model import Task
from compoworld.tasks.records import criterion_key, task_rows
from compoworld.warehouse import Warehouse, canonical_json, dedupe, table_spec

Log = Callable[[str], None]

STAGES = ("synthesize", "verify", "sample_walks", "instantiate", "collect", "score", "datasets", "train")
STAGE_TABLES: dict[str, tuple[str, ...]] = {
    "synthesize": ("specs", "services", "tools"),
    "verify": ("service_checks",),
    "sample_walks": ("services", "tools", "graph_edges"),
    "instantiate": ("walks", "tasks", "rubric_criteria", "reference_steps"),
    "collect": ("trajectories", "trajectory_steps", "criterion_results"),
    "score": ("rewards",),
}
# The code each stage's rows depend on: a change there invalidates that stage's cached batches.
_STAGE_SOURCES: dict[str, tuple[str, ...]] = {
    "synthesize": ("synthesis", "services", "llm.py"),
    "verify": ("synthesis", "services"),
    "sample_walks": ("services", "tasks", "synthesis"),
    "instantiate": ("services", "tasks", "synthesis"),
    "collect": ("services", "tasks", "synthesis", "rollout", "llm.py"),
    "score": ("rewards.py", "rollout"),
    "datasets": ("datasets", "services", "warehouse.py"),
    "train": ("training", "rewards.py", "services", "tasks"),
}
_PACKAGE = Path(__file__).resolve().parent
_ALWAYS = ("pipeline.py", "config.py")


# -- errors --------------------------------------------------------------------------------------------
class TransientError(Exception):
    """An error worth retrying as is: the same call may succeed a moment later."""


class StageUnavailable(RuntimeError):
    """A stage whose implementation is not in this checkout (e.g. synthesis before it lands)."""


# Exception class names (anywhere in the MRO) that mean "try again": LiteLLM/OpenAI/httpx ones,
# matched by name so this module imports none of them.
_TRANSIENT_NAMES = {"APIConnectionError", "APITimeoutError", "RateLimitError", "ServiceUnavailableError",
                    "InternalServerError", "BadGatewayError", "Timeout", "ConnectError", "ReadTimeout",
                    "RemoteProtocolError"}


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, (TransientError, ConnectionError, TimeoutError)) or getattr(exc, "transient", False):
        return True
    return any(c.__name__ in _TRANSIENT_NAMES for c in type(exc).__mro__)


@dataclass(frozen=True)
class ItemFailure:
    item_id: str
    reason: str  # exception class, or rejected_design / rejected_probe
    error: str
    attempts: int = 1

    @property
    def retryable(self) -> bool:
        return not self.reason.startswith("rejected_")


def failure_of(item_id: str, exc: BaseException, attempts: int = 1) -> ItemFailure:
    return ItemFailure(item_id, type(exc).__name__, f"{type(exc).__name__}: {exc}", attempts)


@dataclass
class BatchOutput:
    """What one batch made: rows per output table (every table present, maybe empty), the items that
    failed, and the items that succeeded (whose earlier failures are now resolved)."""

    stage: str
    tables: dict[str, list[dict[str, Any]]]
    failures: list[ItemFailure] = field(default_factory=list)
    succeeded: list[str] = field(default_factory=list)

    @classmethod
    def empty(cls, stage: str) -> BatchOutput:
        return cls(stage, {t: [] for t in STAGE_TABLES.get(stage, ())})

    def info(self) -> dict[str, Any]:
        return {"stage": self.stage, "rows": {t: len(r) for t, r in self.tables.items()},
                "succeeded": len(self.succeeded), "failed": len(self.failures),
                "errors": sum(f.retryable for f in self.failures)}


# -- ids, batches, parts, versions -----------------------------------------------------------------------
def instantiate_item(seed: int, index: int) -> str:
    return f"task-{seed}-{index}"


def item_index(item_id: str) -> int:
    return int(item_id.rsplit("-", 1)[1])


def group_item(agent: str, task_id: str) -> str:
    return f"{agent}|{task_id}"


def split_group_item(item_id: str) -> tuple[str, str]:
    agent, task_id = item_id.rsplit("|", 1)
    return agent, task_id


def index_batches(cfg: PipelineConfig) -> list[tuple[int, int]]:
    return [(a, min(a + cfg.batch_size, cfg.tasks)) for a in range(0, cfg.tasks, cfg.batch_size)]


def batch_of(index: int, cfg: PipelineConfig) -> tuple[int, int]:
    a = index - index % cfg.batch_size
    return a, min(a + cfg.batch_size, cfg.tasks)


def agent_slug(agent: str) -> str:
    """A part-name-safe form of an agent spec; the hash keeps `a/b` and `a-b` apart."""
    slug = re.sub(r"[^A-Za-z0-9.+=-]+", "-", agent).strip("-.") or "agent"
    return f"{slug[:40]}-{hashlib.sha256(agent.encode()).hexdigest()[:6]}"


def batch_part(stage: str, start: int, end: int, agent: str | None = None) -> str:
    who = f"-{agent_slug(agent)}" if agent is not None else ""
    return f"{stage}{who}-{start:06d}-{end:06d}"


def verify_part(service: str) -> str:
    return f"verify-{re.sub(r'[^A-Za-z0-9.+=-]+', '-', service)}-{hashlib.sha256(service.encode()).hexdigest()[:6]}"


@cache
def code_version(stage: str) -> str:
    """Content hash of the source a stage's rows depend on (not of the whole repository: editing the
    CLI or the rollout code does not invalidate designed tasks)."""
    h = hashlib.sha256()
    # A stage without a declared source set (the whole pipeline) depends on the whole package.
    for name in sorted(set(_STAGE_SOURCES.get(stage, ("",))) | set(_ALWAYS)):
        root = _PACKAGE / name
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root] if root.is_file() else []
        for f in files:
            h.update(str(f.relative_to(_PACKAGE)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _hash(*parts: Any) -> str:
    return hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


# -- rows ---------------------------------------------------------------------------------------------
def sort_rows(table: str, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per key (the first seen wins), ordered by key: a part's content is independent of
    the order its items were made in."""
    key = [k for k in table_spec(table).key if k != "run_id"]
    return sorted(dedupe(table, list(rows)), key=lambda r: tuple(r.get(k) for k in key))


def persist(wh: Warehouse, run_id: str, part: str, out: BatchOutput, config_hash: str) -> None:
    """Write a batch: each table's part (empty ones too: they mark the batch done), then its failure
    rows, then resolve earlier failures of the items that now succeeded."""
    for table, rows in out.tables.items():
        wh.write(table, sort_rows(table, rows), run_id=run_id, part=part, config_hash=config_hash)
    record_outcomes(wh, run_id, out, config_hash)


def record_outcomes(wh: Warehouse, run_id: str, out: BatchOutput, config_hash: str) -> None:
    from compoworld.warehouse import failure_part

    for f in out.failures:
        wh.record_failure(out.stage, f.item_id, f.error, f.attempts, run_id, reason=f.reason, config_hash=config_hash)
    for item in out.succeeded:
        if wh.has_part("failures", run_id, failure_part(out.stage, item)):
            wh.resolve_failure(out.stage, item, run_id)


def merge_into_part(wh: Warehouse, run_id: str, part: str, out: BatchOutput, config_hash: str) -> None:
    """Add the rows of retried items to an existing batch part (new rows win on equal keys)."""
    for table, rows in out.tables.items():
        old = wh.read_part(table, run_id, part) if wh.has_part(table, run_id, part) else []
        old = [{k: v for k, v in r.items() if k != "run_id"} for r in old]
        wh.write(table, sort_rows(table, [*rows, *old]), run_id=run_id, part=part, config_hash=config_hash)
    record_outcomes(wh, run_id, out, config_hash)


def run_row(cfg: PipelineConfig, flow: str, status: str, started_at: dt.datetime,
            finished_at: dt.datetime | None = None) -> dict[str, Any]:
    # The one table with wall-clock times: it records when, every other table records what. The
    # warehouse path is left out of the config: the row is in it, wherever it was moved to.
    return {"run_id": cfg.run_id, "flow": flow, "status": status, "code_version": code_version("pipeline"),
            "seed": cfg.seed, "config_json": cfg.model_dump(mode="json", exclude={"warehouse"}), "started_at": started_at,
            "finished_at": finished_at}


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# -- services and graph (sample_walks) ------------------------------------------------------------------
def service_classes(cfg: PipelineConfig) -> dict[str, type[Service]]:
    return all_services(cfg.services_from)


def service_rows(classes: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    services, tools = [], []
    for name, cls in sorted(classes.items()):
        info = cls.info()
        sid = f"{name}@{cls.version}"
        services.append({"service_id": sid, "name": name, "version": cls.version, "origin": info["origin"], "domain": info["domain"],
                         "description": info["description"], "n_tools": info["n_tools"], "n_world_model_tools": info["n_world_model"],
                         "spec_id": info.get("spec_id"), "definition_json": info})
        for spec in cls.tool_specs().values():
            tools.append({"tool_id": f"{name}__{spec.name}", "service_id": sid, "service": name, "name": spec.name,
                          "description": spec.description, "kind": spec.kind, "read_only": spec.read_only,
                          "destructive": spec.destructive, "idempotent": spec.idempotent,
                          "input_schema_json": spec.input_schema, "output_schema_json": spec.output_schema,
                          "semantic_types_json": {"params": spec.param_semantics, "outputs": spec.output_semantics}})
    return {"services": services, "tools": tools}


def graph_rows(classes: dict[str, type[Service]]) -> list[dict[str, Any]]:
    edges = [{"edge_id": f"{e['source_tool']}>{e['target_tool']}:{e['semantic_type']}", "src_service": e["source_service"],
              "src_tool": e["source_tool"], "dst_service": e["target_service"], "dst_tool": e["target_tool"],
              "semantic_type": e["semantic_type"]} for e in edge_records(build_graph(classes.values()))]
    edges = sort_rows("graph_edges", edges)
    graph_id = "graph_" + _hash([e["edge_id"] for e in edges])
    return [{**e, "graph_id": graph_id} for e in edges]


def sample_walks(cfg: PipelineConfig) -> BatchOutput:
    classes = service_classes(cfg)
    if not classes:
        raise StageUnavailable(f"no services for services_from={cfg.services_from!r} (compiled services need the synthesize stage)")
    rows = service_rows(classes)
    return BatchOutput("sample_walks", {"services": rows["services"], "tools": rows["tools"], "graph_edges": graph_rows(classes)},
                       succeeded=["graph"])


# -- synthesize and verify -----------------------------------------------------------------------------
def synthesis_available() -> bool:
    return callable(getattr(importlib.import_module("compoworld.synthesis"), "run_synth", None))


def synthesize(cfg: PipelineConfig) -> tuple[BatchOutput, dict[str, Any]]:
    """Compile services from MCP specs (`compoworld.synthesis.run_synth`): spec rows, and service and
    tool rows for every compiled service it leaves in the registry."""
    if not synthesis_available():
        raise StageUnavailable("compoworld.synthesis.run_synth is not available in this checkout")
    from compoworld.services.registry import compiled_services
    from compoworld.synthesis import run_synth
    from compoworld.synthesis.loader import load_specs

    paths = [Path(p) for p in cfg.synth_specs] if cfg.synth_specs else None
    report = run_synth(paths, coder=cfg.synth_coder, verify_library_services=False)  # verify is its own stage
    summary = report.summary() if hasattr(report, "summary") else {}
    specs = []
    for s in load_specs(paths).servers:
        body = s.model_dump(mode="json")
        specs.append({"spec_id": "spec_" + _hash(body), "name": s.name, "source": s.source or s.file,
                      "n_tools": len(s.tools), "spec_json": body})
    rows = service_rows(compiled_services())
    return BatchOutput("synthesize", {"specs": specs, **rows}, succeeded=["corpus"]), summary


def verify_available() -> bool:
    try:
        importlib.import_module("compoworld.synthesis.verify")
    except ImportError:
        return False
    return True


def verify_rows(cls: type[Service]) -> list[dict[str, Any]]:
    from compoworld.synthesis.verify import verify_service

    verdict = verify_service(cls)
    sid = f"{cls.name}@{cls.version}"
    rows = []
    for i, c in enumerate(verdict.checks):
        detail = f"{c.tool}: {c.detail}" if c.tool else c.detail
        rows.append({"check_id": "chk_" + _hash(sid, i, c.tool, c.check), "service_id": sid, "service": cls.name,
                     "check_name": c.check, "passed": c.status == "pass",
                     "detail": (f"[{c.status}] {detail}" if c.status != "pass" else detail) or None})
    return rows


def verify(services: Sequence[str], cfg: PipelineConfig) -> dict[str, BatchOutput]:
    """One output per service (its own part): a service that cannot be verified is a failure of
    that service only."""
    classes = service_classes(cfg)
    outs: dict[str, BatchOutput] = {}
    for name in services:
        out = BatchOutput.empty("verify")
        try:
            out.tables["service_checks"] = verify_rows(classes[name])
            out.succeeded.append(name)
        except Exception as exc:
            if is_transient(exc):
                raise
            out.failures.append(failure_of(name, exc))
        outs[name] = out
    return outs


# -- instantiate ---------------------------------------------------------------------------------------
def task_config(cfg: PipelineConfig) -> TaskConfig:
    return TaskConfig(n=cfg.tasks, seed=cfg.seed, services_from=cfg.services_from)


_local = threading.local()  # one factory per thread and config: the graph is built once, not per task


def design_one(cfg: PipelineConfig, index: int) -> Task | Rejection:
    """Design, probe and submit task `index` of the config (the unit an instantiate item retries)."""
    key = (cfg.seed, cfg.tasks, cfg.services_from)
    factories = _local.__dict__.setdefault("factories", {})
    if key not in factories:
        factories[key] = Factory(task_config(cfg), service_classes(cfg))
    return factories[key].make(index)


def instantiate(cfg: PipelineConfig, indexes: Iterable[int]) -> BatchOutput:
    out = BatchOutput.empty("instantiate")
    for index in indexes:
        item = instantiate_item(cfg.seed, index)
        try:
            result = design_one(cfg, index)
        except Exception as exc:
            if is_transient(exc):
                raise
            out.failures.append(failure_of(item, exc))
            continue
        if isinstance(result, Rejection):
            out.failures.append(ItemFailure(item, f"rejected_{result.phase}", f"{result.phase}: {result.reason}"))
            continue
        for table, rows in task_rows(result).items():
            out.tables[table].extend(rows)
        out.succeeded.append(item)
    return out


def task_index(task: Task) -> int:
    return int(next(p.detail["index"] for p in task.phases if p.phase == "submit"))


def tasks_from_rows(rows: Iterable[dict[str, Any]]) -> list[Task]:
    """Tasks back from `tasks` rows, in index order."""
    tasks = [Task.model_validate_json(r["task_json"]) for r in rows]
    return sorted(tasks, key=task_index)


# -- collect -------------------------------------------------------------------------------------------
def make_rollout_agent(spec: str, cfg: PipelineConfig) -> Any:
    from compoworld.rollout.agents import make_agent

    kwargs: dict[str, Any] = {}
    if spec.startswith("litellm:") and cfg.group_size > 1:
        kwargs["temperature"] = 1.0  # a group of identical greedy rollouts has no spread
    return make_agent(spec, seed=cfg.seed, **kwargs)


def rollout_group(task: Task, agent: Any, cfg: PipelineConfig, classes: dict[str, type[Service]]) -> list[Any]:
    """`group_size` rollouts of one agent on one task. The group number is the task's design index:
    stable when other tasks fail or are retried (a position in a list of accepted tasks is not)."""
    from compoworld.rollout.runner import rollout

    return [rollout(task, agent, classes, seed=cfg.seed, rollout_index=i, group=task_index(task)) for i in range(cfg.group_size)]


def trajectory_rows(trajs: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    return {
        "trajectories": [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "rollout_index": t.rollout_index,
            "agent": t.agent, "model": t.model or None, "n_steps": t.steps, "final_state_hash": t.final_state_hash,
            "success": t.success, "score": t.partial_credit, "messages_json": t.messages} for t in trajs],
        "trajectory_steps": [{"trajectory_id": t.id, "task_id": t.task_id, **s} for t in trajs for s in t.tool_steps()],
        "criterion_results": [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "criterion_id": criterion_key(t.task_id, c.criterion_id),
            "kind": c.kind, "service": c.service or None, "passed": c.passed, "score": 1.0 if c.passed else 0.0}
            for t in trajs for c in t.criteria],
    }


def collect(cfg: PipelineConfig, agent_spec: str, tasks: Sequence[Task]) -> BatchOutput:
    from compoworld.rollout.runner import classes_for

    out = BatchOutput.empty("collect")
    if not tasks:
        return out
    agent = make_rollout_agent(agent_spec, cfg)
    classes = classes_for(tasks)
    for task in tasks:
        item = group_item(agent_spec, task.id)
        try:
            trajs = rollout_group(task, agent, cfg, classes)
        except Exception as exc:
            if is_transient(exc):
                raise
            out.failures.append(failure_of(item, exc))
            continue
        for table, rows in trajectory_rows(trajs).items():
            out.tables[table].extend(rows)
        out.succeeded.append(item)
    return out


# -- score ---------------------------------------------------------------------------------------------
def score(agent_spec: str, trajectories: Sequence[dict[str, Any]], results: Sequence[dict[str, Any]],
          ordinals: dict[str, int]) -> BatchOutput:
    """Rewards of every complete group in the rows of one collect part: criterion results in rubric
    order make the group's matrix; `rollout.runner.reward_rows` turns it into rewards and advantages."""
    from compoworld.rollout.runner import reward_rows
    from compoworld.rollout.trajectory import CriterionResult, Trajectory

    by_traj: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_traj.setdefault(r["trajectory_id"], []).append(r)
    groups: dict[str, list[Any]] = {}
    for t in trajectories:
        crit = sorted(by_traj.get(t["trajectory_id"], []), key=lambda r: ordinals.get(r["criterion_id"], 1 << 30))
        # Only what reward_rows reads: the rest of a trajectory is in its own tables already.
        traj = Trajectory.model_construct(
            id=t["trajectory_id"], task_id=t["task_id"], group_id=t["group_id"], group=0, rollout_index=t["rollout_index"],
            criteria=[CriterionResult(criterion_id=r["criterion_id"], kind=r["kind"] or "", passed=r["passed"]) for r in crit])
        groups.setdefault(t["task_id"], []).append(traj)
    out = BatchOutput.empty("score")
    for task_id in sorted(groups):
        item = group_item(agent_spec, task_id)
        try:
            rows = reward_rows(groups[task_id])
        except Exception as exc:
            if is_transient(exc):
                raise
            out.failures.append(failure_of(item, exc))
            continue
        out.tables["rewards"].extend({k: v for k, v in r.items() if k != "group"} for r in rows)
        out.succeeded.append(item)
    return out


# -- datasets and training (optional stages) ----------------------------------------------------------
def datasets_available() -> bool:
    try:
        mod = importlib.import_module("compoworld.datasets")
    except ImportError:
        return False
    return callable(getattr(mod, "build_datasets", None))


def build_datasets(wh: Warehouse, out_dir: Path, run_id: str) -> dict[str, Any]:
    if not datasets_available():
        raise StageUnavailable("compoworld.datasets.build_datasets is not available in this checkout")
    from compoworld.datasets import build_datasets as build  # type: ignore[attr-defined]

    return build(wh, out_dir, run_id=run_id)


def training_launcher() -> Callable[..., Any] | None:
    """The training job launcher, if this checkout has one (`compoworld.training.launch`)."""
    try:
        mod = importlib.import_module("compoworld.training")
    except ImportError:
        return None
    fn = getattr(mod, "launch", None)
    return fn if callable(fn) else None


# -- reading the warehouse back ------------------------------------------------------------------------
def content_hashes(wh: Warehouse, run_id: str, tables: Iterable[str] | None = None) -> dict[str, str]:
    """A digest of each table's rows in a run (every column, rows in key order): two warehouses with
    equal digests hold the same data. `runs` (wall-clock times) is left out by default."""
    from compoworld.warehouse import TABLES

    out = {}
    con = wh.connect()
    try:
        for t in tables or [t for t in TABLES if t != "runs"]:
            key = ", ".join(f'"{k}"' for k in TABLES[t].key)
            cur = con.execute(f'SELECT * FROM "{t}" WHERE run_id = ? ORDER BY {key}', [run_id])
            cols = [d[0] for d in cur.description]
            h = hashlib.sha256()
            for row in cur.fetchall():
                h.update(canonical_json({c: _plain(v) for c, v in zip(cols, row)}).encode() + b"\n")
            out[t] = h.hexdigest()[:16]
    finally:
        con.close()
    return out


def _plain(v: Any) -> Any:
    return v.isoformat() if isinstance(v, (dt.datetime, dt.date)) else v


def run_summary(wh: Warehouse, run_id: str) -> dict[str, Any]:
    """Headline figures of a run, read from the warehouse (so they agree with `compoworld sql`)."""
    q = wh.query
    agents = q("""
        SELECT t.agent, count(*) AS trajectories, avg(CAST(t.success AS DOUBLE)) AS success_rate,
               avg(t.score) AS mean_partial_credit,
               avg(r.reward) FILTER (WHERE r.reward_kind = 'completion_focused') AS mean_cf_reward
        FROM trajectories t
        LEFT JOIN rewards r ON r.run_id = t.run_id AND r.trajectory_id = t.trajectory_id AND r.reward_kind = 'completion_focused'
        WHERE t.run_id = ? GROUP BY t.agent ORDER BY t.agent""", [run_id])
    fails = q("""SELECT stage, reason, count(*) AS n FROM failures WHERE run_id = ? AND NOT resolved
                 GROUP BY stage, reason ORDER BY stage, reason""", [run_id])
    counts = q("""SELECT (SELECT count(*) FROM services WHERE run_id = $1) AS services,
                         (SELECT count(*) FROM tools WHERE run_id = $1) AS tools,
                         (SELECT count(*) FROM tasks WHERE run_id = $1) AS tasks,
                         (SELECT count(*) FROM service_checks WHERE run_id = $1) AS service_checks,
                         (SELECT count(*) FILTER (WHERE passed) FROM service_checks WHERE run_id = $1) AS service_checks_passed""",
               [run_id])[0]
    return {"run_id": run_id, "warehouse": str(wh.root), **counts,
            "agents": [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in a.items()} for a in agents],
            "unresolved_failures": fails, "stats": wh.stats()}


# -- the plain in-process chain ------------------------------------------------------------------------
def run_pipeline(cfg: PipelineConfig, wh: Warehouse, log: Log = print) -> dict[str, Any]:
    """Every stage in this process, no orchestration: no retries, no caching, no resume. The flows
    run the same functions and write the same parts; this is their baseline."""
    run_id, ch = cfg.run_id, cfg.digest()
    t0 = time.perf_counter()
    started = now_utc()
    wh.write("runs", [run_row(cfg, "plain", "running", started)], run_id=run_id, part="run")
    if cfg.stages.synthesize and synthesis_available():
        out, _ = synthesize(cfg)
        persist(wh, run_id, "synthesize", out, ch)
    if cfg.stages.verify and verify_available():
        for name, out in verify(sorted(service_classes(cfg)), cfg).items():
            persist(wh, run_id, verify_part(name), out, ch)
    persist(wh, run_id, "sample_walks", sample_walks(cfg), ch)
    log(f"services and graph: {time.perf_counter() - t0:.1f} s")
    for a, b in index_batches(cfg):
        persist(wh, run_id, batch_part("instantiate", a, b), instantiate(cfg, range(a, b)), ch)
    log(f"instantiate: {time.perf_counter() - t0:.1f} s")
    for agent in cfg.agents:
        for a, b in index_batches(cfg):
            part = batch_part("collect", a, b, agent)
            tasks = tasks_from_rows(wh.read_part("tasks", run_id, batch_part("instantiate", a, b)))
            persist(wh, run_id, part, collect(cfg, agent, tasks), ch)
            persist(wh, run_id, batch_part("score", a, b, agent), score_part(wh, run_id, cfg, agent, a, b), ch)
        log(f"collect + score ({agent}): {time.perf_counter() - t0:.1f} s")
    if cfg.stages.datasets and datasets_available():
        build_datasets(wh, Path(cfg.datasets_dir), run_id)
    wh.write("runs", [run_row(cfg, "plain", "completed", started, now_utc())], run_id=run_id, part="run")
    return {**run_summary(wh, run_id), "seconds": round(time.perf_counter() - t0, 1)}


def score_inputs(wh: Warehouse, run_id: str, cfg: PipelineConfig, agent: str, a: int, b: int
                 ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, int]]:
    """The rows one score batch reads: its collect part's trajectories and criterion results, and the
    rubric order of its tasks' criteria."""
    part = batch_part("collect", a, b, agent)
    trajs = wh.read_part("trajectories", run_id, part)
    results = wh.read_part("criterion_results", run_id, part)
    rubric = wh.read_part("rubric_criteria", run_id, batch_part("instantiate", a, b))
    return trajs, results, {r["criterion_id"]: r["ordinal"] for r in rubric}


def score_part(wh: Warehouse, run_id: str, cfg: PipelineConfig, agent: str, a: int, b: int) -> BatchOutput:
    return score(agent, *score_inputs(wh, run_id, cfg, agent, a, b))
