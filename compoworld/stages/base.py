"""What every stage is: a name, the tables it writes, the items it works on, how it splits a run
into batches, how it runs one batch, and how it retries failed items.

A stage computes rows; it never decides how it is orchestrated. The plain runner
(`compoworld.stages.runner`) and the Prefect flows (`flows/stage.py`) both call `Stage.plan` and
`Stage.execute`, so both write the same parts, byte for byte.

Errors of one item are either transient (`is_transient`: a connection drop, a timeout, a rate
limit), raised so the orchestrator retries the batch with backoff, or permanent, recorded as an
`ItemFailure` while the rest of the batch goes on. A task the designer or the probe rejects is a
failure too (reason `rejected_design` / `rejected_probe`): deterministic, so it is not retried.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from compoworld.config import RUNTIME_FIELDS, PipelineConfig
from compoworld.stages.code import code_version
from compoworld.stages.items import Item
from compoworld.warehouse import Warehouse, dedupe, failure_part, table_spec


class TransientError(Exception):
    """An error worth retrying as is: the same call may succeed a moment later."""


# Exception class names (anywhere in the MRO) that mean "try again": LiteLLM/OpenAI/httpx ones,
# matched by name so the stages import none of them.
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

    def info(self) -> dict[str, Any]:
        return {"stage": self.stage, "rows": sum(len(r) for r in self.tables.values()), "succeeded": len(self.succeeded),
                "failed": len(self.failures), "errors": sum(f.retryable for f in self.failures)}

    def guard(self, item: Item, exc: BaseException) -> None:
        """Record a permanent error of one item; a transient one escapes so the batch is retried."""
        if is_transient(exc):
            raise exc
        self.failures.append(failure_of(item.encode(), exc))


@dataclass(frozen=True)
class RunContext:
    cfg: PipelineConfig
    wh: Warehouse

    @property
    def run_id(self) -> str:
        return self.cfg.run_id

    @property
    def config_hash(self) -> str:
        return self.cfg.digest()

    @property
    def content_config(self) -> dict[str, Any]:
        """The config fields that decide rows: what a batch gets (and its cache key holds)."""
        return self.cfg.model_dump(mode="json", exclude=RUNTIME_FIELDS)


@dataclass(frozen=True)
class Batch:
    """One unit of work of a stage: the part it writes in each output table, the items it covers and
    the JSON-able parameters its stage needs besides the run config (with the config and the code
    version they are its whole input: the orchestrator's cache key). `stale` forces a recompute
    (an output outside the warehouse is gone)."""

    label: str
    part: str
    items: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    stale: bool = False

    def selected(self, only: set[str] | None) -> list[str]:
        """The batch's items a run computes: all of them, or those a retry asks for."""
        return [i for i in self.items if only is None or i in only]


def index_ranges(cfg: PipelineConfig) -> list[tuple[int, int]]:
    """Task indexes [start, end) in batches of `batch_size`: the unit of every per-task stage."""
    return [(a, min(a + cfg.batch_size, cfg.tasks)) for a in range(0, cfg.tasks, cfg.batch_size)]


class Stage(ABC):
    """One stage of the factory. Subclasses set the class attributes and implement `plan` and `run`."""

    name: ClassVar[str]
    tables: ClassVar[tuple[str, ...]]  # the tables it writes (one part per batch in each)
    item: ClassVar[type[Item]]  # the codec of its item ids
    # Whether `run(only=...)` recomputes just some items (their rows are merged into the batch's
    # parts on retry); otherwise a retry recomputes and rewrites the whole batch.
    partial: ClassVar[bool] = False

    def enabled(self, cfg: PipelineConfig) -> bool:
        return cfg.stage_enabled(self.name)

    @abstractmethod
    def plan(self, ctx: RunContext) -> list[Batch]:
        """The batches of this run, whether or not they are already done."""

    @abstractmethod
    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        """Compute a batch's rows (only the items in `only`, when given and the stage is partial)."""

    def outputs(self, batch: Batch) -> list[tuple[str, str]]:
        """The (table, part) pairs whose presence says the batch is done."""
        return [(t, batch.part) for t in self.tables]

    def done(self, ctx: RunContext, batch: Batch) -> bool:
        return not batch.stale and all(ctx.wh.has_part(t, ctx.run_id, p) for t, p in self.outputs(batch))

    def code_version(self) -> str:
        """Content hash of the source this stage's rows depend on: its module and everything it
        imports inside the package (found by reading the imports, not kept by hand)."""
        return code_version(type(self).__module__)

    def execute(self, ctx: RunContext, batch: Batch) -> dict[str, Any]:
        out = self.run(ctx, batch)
        persist(ctx, batch.part, out)
        return out.info()

    def retry(self, ctx: RunContext, items: Sequence[str], previous: dict[str, int]) -> dict[str, int]:
        """Recompute the failed items (each decoded by the stage's codec, so a malformed id is an
        error here, not a silent skip) and fold them into their batches' parts."""
        wanted = {self.item.decode(i).encode() for i in items}
        ok = failed = 0
        for batch in self.plan(ctx):
            mine = wanted & set(batch.items)
            if not mine:
                continue
            out = self.run(ctx, batch, only=mine if self.partial else None)
            out.failures = [dataclasses.replace(f, attempts=previous.get(f.item_id, 0) + f.attempts) for f in out.failures]
            (merge_into_part if self.partial else persist)(ctx, batch.part, out)
            ok += len(set(out.succeeded) & mine)
            failed += len({f.item_id for f in out.failures} & mine)
        return {"succeeded": ok, "failed": failed}


# -- writing a batch -------------------------------------------------------------------------------------
def sort_rows(table: str, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per key (the first seen wins), ordered by key: a part's content is independent of
    the order its items were made in."""
    key = [k for k in table_spec(table).key if k != "run_id"]
    return sorted(dedupe(table, list(rows)), key=lambda r: tuple(r.get(k) for k in key))


def persist(ctx: RunContext, part: str, out: BatchOutput) -> None:
    """Write a batch: each table's part (empty ones too: they mark the batch done), then its failure
    rows, then resolve earlier failures of the items that now succeeded."""
    for table, rows in out.tables.items():
        ctx.wh.write(table, sort_rows(table, rows), run_id=ctx.run_id, part=part, config_hash=ctx.config_hash)
    record_outcomes(ctx, out)


def merge_into_part(ctx: RunContext, part: str, out: BatchOutput) -> None:
    """Add the rows of retried items to an existing batch part (new rows win on equal keys)."""
    for table, rows in out.tables.items():
        old = ctx.wh.read_part(table, ctx.run_id, part) if ctx.wh.has_part(table, ctx.run_id, part) else []
        old = [{k: v for k, v in r.items() if k != "run_id"} for r in old]
        ctx.wh.write(table, sort_rows(table, [*rows, *old]), run_id=ctx.run_id, part=part, config_hash=ctx.config_hash)
    record_outcomes(ctx, out)


def record_outcomes(ctx: RunContext, out: BatchOutput) -> None:
    for f in out.failures:
        ctx.wh.record_failure(out.stage, f.item_id, f.error, f.attempts, ctx.run_id, reason=f.reason,
                              config_hash=ctx.config_hash)
    for item in out.succeeded:
        if ctx.wh.has_part("failures", ctx.run_id, failure_part(out.stage, item)):
            ctx.wh.resolve_failure(out.stage, item, ctx.run_id)
