"""The warehouse: the one module that reads and writes storage.

Parquet parts are the record, DuckDB is the lens. Every stage writes immutable parts at
``<root>/data/<table>/run=<run_id>/<part>.parquet``; ``connect()`` gives a DuckDB connection with
one view per table over those parts plus the SQL views of ``warehouse/views.sql``.

Contracts this module keeps:

- **Atomic**: a part is written to a temp file in its own directory (suffix ``.tmp``, so it never
  matches the ``*.parquet`` glob), fsynced, then ``os.replace``d into place. A reader sees the
  old part or the new one, never half of one; a crash leaves at most an invisible temp file.
- **Idempotent**: the caller derives the part name from the run and item ids (see `part_name`),
  so a retried step rewrites its own part instead of adding a copy.
- **One copy per logical row**: each table declares a key; its view keeps one row per key even if
  two parts hold it (the part whose path sorts last wins), so a resumed step that batched its
  items differently still cannot double-count.
- **Typed**: each table's columns are declared here (`TABLES`); unknown columns, missing required
  columns and wrong types are a `SchemaError` at write time. Tables with no parts are still views
  with their declared columns and zero rows.

``warehouse/tables.sql`` documents the tables; it is generated from `TABLES` by `tables_sql()`
and a test keeps the two equal.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import math
import numbers
import os
import re
import shutil
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterable, Literal, Sequence

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

ENV_VAR = "COMPOWORLD_WAREHOUSE"
PART_SUFFIX = ".parquet"
TEMP_SUFFIX = ".tmp"
SQL_DIR = Path(__file__).resolve().parent.parent / "warehouse"

ColumnType = Literal["string", "int", "float", "bool", "timestamp", "json"]
OutputFormat = Literal["table", "json", "csv"]

_ARROW_TYPES: dict[str, pa.DataType] = {
    "string": pa.string(),
    "int": pa.int64(),
    "float": pa.float64(),
    "bool": pa.bool_(),
    "timestamp": pa.timestamp("us", tz="UTC"),
    "json": pa.string(),
}
_SQL_TYPES: dict[str, str] = {
    "string": "VARCHAR",
    "int": "BIGINT",
    "float": "DOUBLE",
    "bool": "BOOLEAN",
    "timestamp": "TIMESTAMPTZ",
    "json": "VARCHAR",
}
_IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
# Run ids and part names become path components: no separators, no leading dot (temp files
# start with one), nothing a shell or a glob would reinterpret.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._=+-]{0,199}$")


class WarehouseError(Exception):
    """Misuse of the warehouse (unknown table, bad run id or part name)."""


class SchemaError(WarehouseError, ValueError):
    """Rows that do not fit their table's declared columns."""


# -- table contracts -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType
    doc: str
    nullable: bool = True


@dataclass(frozen=True)
class TableSpec:
    name: str
    doc: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    by_name: dict[str, Column] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: duplicate column names")
        # `filename` is the provenance column read_parquet adds for de-duplication.
        bad = [n for n in [self.name, *names] if not _IDENT.match(n) or n == "filename"]
        if bad:
            raise ValueError(f"table {self.name}: bad identifiers {bad}")
        by_name = {c.name: c for c in self.columns}
        missing = [k for k in self.key if k not in by_name or by_name[k].nullable]
        if missing:
            raise ValueError(f"table {self.name}: key columns must be declared NOT NULL: {missing}")
        object.__setattr__(self, "by_name", by_name)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def arrow_schema(self) -> pa.Schema:
        return pa.schema([pa.field(c.name, _ARROW_TYPES[c.type], nullable=c.nullable) for c in self.columns])


def _table(name: str, doc: str, key: Sequence[str], *columns: Column) -> TableSpec:
    # Every row says which run wrote it and under which config: provenance for every record.
    common = (
        Column("run_id", "string", "the run that wrote this row (added by Warehouse.write)", nullable=False),
        Column("config_hash", "string", "content hash of the stage config that produced this row"),
    )
    return TableSpec(name, doc, tuple(columns) + common, tuple(key))


def _c(name: str, type_: ColumnType, doc: str, *, required: bool = False) -> Column:
    return Column(name, type_, doc, nullable=not required)


TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in (
        _table(
            "runs", "one row per pipeline or stage run; rewritten as the run progresses", ["run_id"],
            _c("flow", "string", "the flow that started the run (pipeline, synthesize, ...)"),
            _c("status", "string", "running | completed | failed"),
            _c("code_version", "string", "package version or git revision of the code"),
            _c("seed", "int", "root seed of the run"),
            _c("config_json", "json", "the full validated run config"),
            _c("started_at", "timestamp", "when the run started (UTC)"),
            _c("finished_at", "timestamp", "when the run finished (UTC); NULL while running"),
        ),
        _table(
            "specs", "MCP tool specifications that compiled services come from", ["run_id", "spec_id"],
            _c("spec_id", "string", "content hash of the normalized spec", required=True),
            _c("name", "string", "server/service name in the spec"),
            _c("source", "string", "where the spec came from (path or URL)"),
            _c("n_tools", "int", "tools in the spec"),
            _c("spec_json", "json", "the normalized spec"),
        ),
        _table(
            "services", "services available to compose: first-party library and compiled", ["run_id", "service_id"],
            _c("service_id", "string", "content hash of the service definition", required=True),
            _c("name", "string", "service name (tool namespace)", required=True),
            _c("version", "string", "service version"),
            _c("origin", "string", "library | compiled"),
            _c("domain", "string", "business domain"),
            _c("description", "string", "one-line description"),
            _c("spec_id", "string", "specs.spec_id it was compiled from; NULL for library services"),
            _c("n_tools", "int", "number of tools"),
            _c("n_world_model_tools", "int", "tools implemented by the cached LLM world model"),
            _c("definition_json", "json", "compiled definition or library metadata"),
        ),
        _table(
            "tools", "one row per tool of a service", ["run_id", "tool_id"],
            _c("tool_id", "string", "content hash of the tool spec", required=True),
            _c("service_id", "string", "services.service_id"),
            _c("service", "string", "service name", required=True),
            _c("name", "string", "tool name without the service namespace", required=True),
            _c("description", "string", "tool description"),
            _c("kind", "string", "deterministic | world_model"),
            _c("read_only", "bool", "MCP readOnlyHint"),
            _c("destructive", "bool", "MCP destructiveHint"),
            _c("idempotent", "bool", "MCP idempotentHint"),
            _c("input_schema_json", "json", "JSON schema of the arguments"),
            _c("output_schema_json", "json", "JSON schema of the result"),
            _c("semantic_types_json", "json", "semantic type of each parameter and output field"),
        ),
        _table(
            "service_checks", "results of verifying a service (one row per check)", ["run_id", "check_id"],
            _c("check_id", "string", "content hash of (service_id, check_name)", required=True),
            _c("service_id", "string", "services.service_id"),
            _c("service", "string", "service name", required=True),
            _c("check_name", "string", "which check (schema, determinism, rollback, ...)", required=True),
            _c("passed", "bool", "whether the check passed", required=True),
            _c("detail", "string", "what failed, or a short summary"),
        ),
        _table(
            "graph_edges", "service dependency graph: A -> B when A produces a value B consumes", ["run_id", "edge_id"],
            _c("edge_id", "string", "content hash of the edge", required=True),
            _c("graph_id", "string", "content hash of the whole graph"),
            _c("src_service", "string", "producing service", required=True),
            _c("src_tool", "string", "producing tool"),
            _c("dst_service", "string", "consuming service", required=True),
            _c("dst_tool", "string", "consuming tool"),
            _c("semantic_type", "string", "semantic type of the value that flows", required=True),
        ),
        _table(
            "walks", "random walks over the dependency graph", ["run_id", "walk_id"],
            _c("walk_id", "string", "content hash of the walk", required=True),
            _c("graph_id", "string", "graph_edges.graph_id walked"),
            _c("seed", "int", "seed of the walk"),
            _c("length", "int", "length of the visit sequence"),
            _c("services_json", "json", "selected services (list)"),
            _c("distractors_json", "json", "distractor services (list)"),
            _c("sequence_json", "json", "visit sequence of services (list)"),
        ),
        _table(
            "tasks", "accepted cross-service tasks", ["run_id", "task_id"],
            _c("task_id", "string", "content hash of the task", required=True),
            _c("walk_id", "string", "walks.walk_id it instantiates"),
            _c("seed", "int", "environment seed"),
            _c("instruction", "string", "the instruction given to the agent"),
            _c("services_json", "json", "services in the environment (list, distractors included)"),
            _c("initial_state_json", "json", "initial state per service"),
            _c("initial_state_hash", "string", "canonical hash of the initial state"),
            _c("reference_final_hash", "string", "state hash the reference solution reaches"),
            _c("n_reference_steps", "int", "tool calls in the reference solution"),
            _c("n_criteria", "int", "rubric criteria"),
            _c("checks_json", "json", "final-state and no-collateral-damage checks"),
            _c("difficulty", "int", "walk length"),
            _c("task_json", "json", "the whole task record (plan, rubric, phases)"),
        ),
        _table(
            "rubric_criteria", "the rubric of each task: one row per criterion", ["run_id", "task_id", "criterion_id"],
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("criterion_id", "string", "content hash of the criterion", required=True),
            _c("ordinal", "int", "position in the rubric"),
            _c("kind", "string", "criterion kind (final_state, trajectory, no_collateral, ...)"),
            _c("service", "string", "service the criterion is about; NULL when cross-service"),
            _c("description", "string", "what the criterion requires, in words"),
            _c("weight", "float", "static weight, if any"),
            _c("check_json", "json", "the executable check"),
        ),
        _table(
            "reference_steps", "the reference solution of each task: one row per tool call", ["run_id", "task_id", "step"],
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("step", "int", "0-based position", required=True),
            _c("tool", "string", "namespaced tool name (service__tool)"),
            _c("arguments_json", "json", "call arguments"),
            _c("result_json", "json", "observation returned"),
            _c("is_error", "bool", "whether the observation was an error"),
        ),
        _table(
            "trajectories", "agent rollouts on tasks", ["run_id", "trajectory_id"],
            _c("trajectory_id", "string", "content hash of the rollout", required=True),
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("group_id", "string", "rollout group (GRPO group) it belongs to"),
            _c("rollout_index", "int", "index within its group"),
            _c("agent", "string", "agent kind (reference, perturbed, litellm, ...)"),
            _c("model", "string", "model string, if any"),
            _c("n_steps", "int", "tool calls made"),
            _c("final_state_hash", "string", "canonical hash of the final state"),
            _c("success", "bool", "every criterion passed"),
            _c("score", "float", "fraction of criteria passed"),
            _c("messages_json", "json", "OpenAI-style messages with tool calls and results"),
        ),
        _table(
            "trajectory_steps", "one row per tool call of a trajectory", ["run_id", "trajectory_id", "step"],
            _c("trajectory_id", "string", "trajectories.trajectory_id", required=True),
            _c("task_id", "string", "tasks.task_id"),
            _c("step", "int", "0-based position", required=True),
            _c("tool", "string", "namespaced tool name"),
            _c("arguments_json", "json", "call arguments"),
            _c("observation_json", "json", "observation returned"),
            _c("is_error", "bool", "whether the observation was an error"),
        ),
        _table(
            "criterion_results", "rubric criterion outcomes per trajectory", ["run_id", "trajectory_id", "criterion_id"],
            _c("trajectory_id", "string", "trajectories.trajectory_id", required=True),
            _c("task_id", "string", "tasks.task_id"),
            _c("group_id", "string", "rollout group"),
            _c("criterion_id", "string", "rubric_criteria.criterion_id", required=True),
            _c("kind", "string", "criterion kind (copied from the rubric)"),
            _c("service", "string", "service the criterion is about (copied from the rubric)"),
            _c("passed", "bool", "whether it passed", required=True),
            _c("score", "float", "partial score in [0, 1]"),
        ),
        _table(
            "rewards", "rubric rewards and GRPO advantages per trajectory", ["run_id", "trajectory_id", "reward_kind"],
            _c("trajectory_id", "string", "trajectories.trajectory_id", required=True),
            _c("task_id", "string", "tasks.task_id"),
            _c("group_id", "string", "rollout group the advantage is normalized in"),
            _c("rollout_index", "int", "index within its group"),
            _c("reward_kind", "string", "uniform | completion_focused", required=True),
            _c("reward", "float", "rubric reward", required=True),
            _c("advantage", "float", "GRPO-normalized advantage within the group"),
            _c("weights_json", "json", "criterion weights used for this group"),
        ),
        _table(
            "datasets", "assembled SFT/RL datasets", ["run_id", "dataset_id"],
            _c("dataset_id", "string", "content hash of the dataset rows", required=True),
            _c("name", "string", "dataset name"),
            _c("kind", "string", "sft | rl"),
            _c("split", "string", "split name"),
            _c("n_rows", "int", "rows in the dataset"),
            _c("location", "string", "local folder it was written to"),
            _c("pushed_to", "string", "Hub repo id or local Hub-layout folder; NULL if not pushed"),
            _c("card_json", "json", "dataset card metadata"),
        ),
        _table(
            "failures", "items a stage could not process; resolved once a retry succeeds", ["run_id", "stage", "item_id"],
            _c("stage", "string", "stage name", required=True),
            _c("item_id", "string", "id of the item that failed", required=True),
            _c("reason", "string", "failure class (exception type or a short code)", required=True),
            _c("error", "string", "error message"),
            _c("attempts", "int", "attempts made before giving up", required=True),
            _c("resolved", "bool", "a later attempt succeeded", required=True),
        ),
        _table(
            "llm_cache", "cached LLM completions (shared across runs)", ["cache_key"],
            _c("cache_key", "string", "content hash of the request", required=True),
            _c("model", "string", "model string"),
            _c("request_json", "json", "the request (messages, tools, params)"),
            _c("response_json", "json", "the response"),
            _c("prompt_tokens", "int", "prompt tokens"),
            _c("completion_tokens", "int", "completion tokens"),
        ),
    )
}


def dedupe(table: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per key (the first seen): two tasks sharing a walk write one walk row."""
    key = [k for k in table_spec(table).key if k != "run_id"]
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        seen.setdefault(tuple(r.get(k) for k in key), r)
    return list(seen.values())


def table_spec(table: str) -> TableSpec:
    try:
        return TABLES[table]
    except KeyError:
        raise WarehouseError(f"unknown table {table!r}; tables: {', '.join(TABLES)}") from None


# -- row validation ------------------------------------------------------------------------------------
def canonical_json(value: Any) -> str:
    """Compact, key-sorted JSON: equal values give equal text (and equal content hashes)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _type_error(spec: TableSpec, i: int, col: Column, value: Any) -> SchemaError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return SchemaError(
        f"table {spec.name!r} row {i} column {col.name!r}: expected {col.type}, got {type(value).__name__} {shown}"
    )


def _coerce(spec: TableSpec, i: int, col: Column, value: Any) -> Any:
    if value is None:
        if not col.nullable:
            raise SchemaError(f"table {spec.name!r} row {i}: required column {col.name!r} is missing or null")
        return None
    is_bool = isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's bool is not a bool
    t = col.type
    if t == "string" and isinstance(value, str):
        return value
    if t == "int" and isinstance(value, numbers.Integral) and not is_bool:
        return int(value)
    if t == "float" and isinstance(value, numbers.Real) and not is_bool:
        return float(value)
    if t == "bool" and is_bool:
        return bool(value)
    if t == "timestamp" and isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise SchemaError(f"table {spec.name!r} row {i} column {col.name!r}: timestamps must be timezone-aware")
        return value.astimezone(dt.timezone.utc)
    if t == "json":
        # A str is taken as JSON text already serialized (it must parse); anything else is serialized.
        if isinstance(value, str):
            try:
                json.loads(value)
            except ValueError as exc:
                raise SchemaError(f"table {spec.name!r} row {i} column {col.name!r}: not valid JSON text: {exc}") from None
            return value
        try:
            return canonical_json(value)
        except (TypeError, ValueError) as exc:
            raise SchemaError(f"table {spec.name!r} row {i} column {col.name!r}: not JSON-serializable: {exc}") from None
    raise _type_error(spec, i, col, value)


def to_arrow(table: str, rows: Sequence[dict[str, Any]], *, run_id: str, config_hash: str | None = None) -> pa.Table:
    """Validate ``rows`` against the table's declared columns and build the Arrow table to write."""
    spec = table_spec(table)
    declared = spec.by_name
    columns: dict[str, list[Any]] = {c.name: [] for c in spec.columns}
    seen_keys: set[tuple[Any, ...]] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise SchemaError(f"table {table!r} row {i}: expected a dict, got {type(row).__name__}")
        unknown = [k for k in row if k not in declared]
        if unknown:
            raise SchemaError(f"table {table!r} row {i}: unknown column(s) {unknown}; declared: {spec.column_names}")
        if row.get("run_id", run_id) != run_id:
            raise SchemaError(f"table {table!r} row {i}: run_id {row['run_id']!r} differs from the write's {run_id!r}")
        filled = {**row, "run_id": run_id}
        if filled.get("config_hash") is None:
            filled["config_hash"] = config_hash
        values = {c.name: _coerce(spec, i, c, filled.get(c.name)) for c in spec.columns}
        key = tuple(values[k] for k in spec.key)
        if key in seen_keys:
            raise SchemaError(f"table {table!r} row {i}: duplicate key {dict(zip(spec.key, key))} in one write")
        seen_keys.add(key)
        for name, v in values.items():
            columns[name].append(v)
    schema = spec.arrow_schema()
    return pa.Table.from_arrays([pa.array(columns[f.name], type=f.type) for f in schema], schema=schema)


# -- names and locations -------------------------------------------------------------------------------
def _check_name(what: str, value: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise WarehouseError(
            f"bad {what} {value!r}: use 1-200 characters from [A-Za-z0-9._=+-], not starting with '.', '_', '=', '+' or '-'"
        )
    return value


def part_name(*keys: str, prefix: str = "part") -> str:
    """A stable part name for what one step writes: the same keys always give the same name.

    Pass the run-independent ids of the items in the batch (sorted, if their order is incidental),
    so a retried or resumed step rewrites its own part instead of adding a duplicate.
    """
    digest = hashlib.sha256("\x00".join(keys).encode()).hexdigest()[:24]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", prefix).strip("-._") or "part"
    return f"{slug[:60]}-{digest}"


def failure_part(stage: str, item_id: str) -> str:
    """The part holding the failure row of one (stage, item): one part per item, rewritten in place."""
    return part_name(stage, item_id, prefix=f"{stage}")


def resolve_warehouse_dir(cli_value: str | None, config_value: str | None) -> Path:
    """Where the warehouse lives: ``--warehouse`` > ``$COMPOWORLD_WAREHOUSE`` > config > ``./warehouse``."""
    for value in (cli_value, os.environ.get(ENV_VAR), config_value):
        if value:
            return Path(value).expanduser().absolute()
    return Path.cwd() / "warehouse"


def _fsync_dir(path: Path) -> None:
    # The rename is durable only once the directory entry is; not every platform allows this.
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _atomic_write_parquet(data: pa.Table, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            pq.write_table(data, f, compression="zstd")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(path.parent)


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _view_sql(spec: TableSpec, glob: str | None) -> str:
    """A typed view over a table's parts, one row per key; zero rows with the same columns if no parts."""
    cols = [(f'"{c.name}"', _SQL_TYPES[c.type]) for c in spec.columns]
    empty = ", ".join(f"CAST(NULL AS {t}) AS {n}" for n, t in cols) + ", CAST(NULL AS VARCHAR) AS filename"
    source = f"SELECT * FROM (SELECT {empty}) WHERE false"
    if glob is not None:
        # union_by_name: parts written before a column was added still read, with NULLs there.
        source += (
            f"\n  UNION ALL BY NAME SELECT * FROM read_parquet({_sql_str(glob)}, "
            "union_by_name = true, hive_partitioning = false, filename = true)"
        )
    select = ", ".join(f"CAST({n} AS {t}) AS {n}" for n, t in cols)
    key = ", ".join(f'"{k}"' for k in spec.key)
    return (
        f'CREATE OR REPLACE VIEW "{spec.name}" AS\nSELECT {select}\nFROM ({source})\n'
        f"QUALIFY row_number() OVER (PARTITION BY {key} ORDER BY filename DESC) = 1"
    )


def views_sql() -> str:
    path = SQL_DIR / "views.sql"
    if not path.is_file():
        raise WarehouseError(f"missing {path}: the warehouse SQL views ship with the repository")
    return path.read_text()


def tables_sql() -> str:
    """The text of ``warehouse/tables.sql``: every table's columns, types and meaning, as DDL."""
    out = [
        "-- CompoWorld warehouse: table contracts.",
        "-- GENERATED from compoworld/warehouse.py (TABLES) by tables_sql(); tests keep the two equal.",
        "--",
        "-- Each table is a DuckDB view over <warehouse>/data/<table>/run=<run_id>/<part>.parquet,",
        "-- with one row per key (the part whose path sorts last wins). JSON columns hold JSON text",
        "-- (query them with ->> or json_extract). Every row carries run_id and config_hash.",
        "",
    ]
    for spec in TABLES.values():
        out.append(f"-- {spec.name}: {spec.doc}")
        out.append(f"-- key: {', '.join(spec.key)}")
        out.append(f"CREATE TABLE {spec.name} (")
        width = max(len(c.name) for c in spec.columns)
        lines = []
        for j, c in enumerate(spec.columns):
            decl = f"{_SQL_TYPES[c.type]}{'' if c.nullable else ' NOT NULL'}"
            comma = "," if j < len(spec.columns) - 1 else ""
            kind = " [json]" if c.type == "json" else ""
            lines.append(f"    {c.name.ljust(width)} {(decl + comma).ljust(18)} -- {c.doc}{kind}")
        out.extend(lines)
        out.append(");")
        out.append("")
    return "\n".join(out)


# -- the warehouse -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[dict[str, Any]]


class Warehouse:
    """A warehouse rooted at ``root``; parts live under ``root/data``."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.data_dir = self.root / "data"

    def __repr__(self) -> str:
        return f"Warehouse({str(self.root)!r})"

    # paths
    def part_path(self, table: str, run_id: str, part: str) -> Path:
        table_spec(table)
        return self.data_dir / table / f"run={_check_name('run_id', run_id)}" / f"{_check_name('part', part)}{PART_SUFFIX}"

    def _glob(self, table: str) -> str:
        return str(self.data_dir / table / "*" / f"*{PART_SUFFIX}")

    def _has_any_part(self, table: str) -> bool:
        return next((self.data_dir / table).glob(f"*/*{PART_SUFFIX}"), None) is not None

    # writes
    def write(
        self,
        table: str,
        rows: Sequence[dict[str, Any]],
        *,
        run_id: str,
        part: str,
        config_hash: str | None = None,
    ) -> Path:
        """Write ``rows`` as part ``part`` of ``table`` for ``run_id``, replacing that part if it exists.

        ``run_id`` is added to every row (and ``config_hash`` where a row has none). An empty
        ``rows`` writes an empty part, which still marks the step as done for `has_part`.
        """
        path = self.part_path(table, run_id, part)
        _atomic_write_parquet(to_arrow(table, rows, run_id=run_id, config_hash=config_hash), path)
        return path

    def has_part(self, table: str, run_id: str, part: str) -> bool:
        return self.part_path(table, run_id, part).is_file()

    def read_part(self, table: str, run_id: str, part: str) -> list[dict[str, Any]]:
        path = self.part_path(table, run_id, part)
        if not path.is_file():
            raise WarehouseError(f"no part {part!r} of table {table!r} in run {run_id!r}")
        return pq.read_table(path).to_pylist()

    def delete_run(self, run_id: str) -> int:
        """Remove every part a run wrote, in every table; returns how many parts were removed."""
        _check_name("run_id", run_id)
        removed = 0
        for table in TABLES:
            run_dir = self.data_dir / table / f"run={run_id}"
            if run_dir.is_dir():
                removed += sum(1 for _ in run_dir.glob(f"*{PART_SUFFIX}"))
                shutil.rmtree(run_dir)
        return removed

    def clean_temp_files(self, older_than_s: float = 3600.0) -> int:
        """Remove temp files left by writers that crashed (old enough not to belong to a live writer)."""
        cutoff = time.time() - older_than_s
        removed = 0
        for tmp in self.data_dir.glob(f"*/*/.*{TEMP_SUFFIX}"):
            try:
                if tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
                    removed += 1
            except FileNotFoundError:
                pass
        return removed

    # reads
    def connect(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with one view per table and the views of ``views.sql``.

        The set of runs a view reads is fixed when the connection is made: open a new one to see
        parts written by runs that started writing after it.
        """
        con = duckdb.connect(":memory:")
        try:
            con.execute("SET TimeZone = 'UTC'")
            for spec in TABLES.values():
                glob = self._glob(spec.name) if self._has_any_part(spec.name) else None
                con.execute(_view_sql(spec, glob))
            con.execute(views_sql())
        except BaseException:
            con.close()
            raise
        return con

    def fetch(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> QueryResult:
        """Run one query; its column names (even with zero rows) and rows as dicts."""
        con = self.connect()
        try:
            cur = con.execute(sql, params) if params is not None else con.execute(sql)
            if cur.description is None:
                return QueryResult([], [])
            columns = _unique_names([d[0] for d in cur.description])
            return QueryResult(columns, [dict(zip(columns, r)) for r in cur.fetchall()])
        finally:
            con.close()

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return self.fetch(sql, params).rows

    def stats(self) -> dict[str, int]:
        """Rows per table (after de-duplication), for every declared table."""
        con = self.connect()
        try:
            return {t: int(con.execute(f'SELECT count(*) FROM "{t}"').fetchall()[0][0]) for t in TABLES}
        finally:
            con.close()

    # failures
    def record_failure(
        self,
        stage: str,
        item_id: str,
        error: BaseException | str,
        attempts: int,
        run_id: str,
        *,
        reason: str | None = None,
        config_hash: str | None = None,
    ) -> Path:
        """Record that ``item_id`` failed in ``stage`` after ``attempts`` tries (replaces an earlier record)."""
        if isinstance(error, BaseException):
            reason = reason or type(error).__name__
            message = str(error) or repr(error)
        else:
            reason = reason or "error"
            message = str(error)
        row = {"stage": stage, "item_id": item_id, "reason": reason, "error": message, "attempts": attempts, "resolved": False}
        return self.write("failures", [row], run_id=run_id, part=failure_part(stage, item_id), config_hash=config_hash)

    def resolve_failure(self, stage: str, item_id: str, run_id: str | None = None) -> int:
        """Mark the failure of (stage, item) resolved in ``run_id`` (or every run); returns how many.

        The row is kept with ``resolved = true`` rather than deleted, so the warehouse still tells
        which items needed a retry.
        """
        part = failure_part(stage, item_id)
        runs = [f"run={_check_name('run_id', run_id)}"] if run_id is not None else ["*"]
        resolved = 0
        for pattern in runs:
            for path in sorted((self.data_dir / "failures").glob(f"{pattern}/{part}{PART_SUFFIX}")):
                rows = pq.read_table(path).to_pylist()
                if all(r["resolved"] for r in rows):
                    continue
                part_run = path.parent.name.removeprefix("run=")
                self.write("failures", [{**r, "resolved": True} for r in rows], run_id=part_run, part=part)
                resolved += 1
        return resolved

    def failures(self, stage: str | None = None, unresolved_only: bool = True) -> list[dict[str, Any]]:
        where, params = [], []
        if stage is not None:
            where.append("stage = ?")
            params.append(stage)
        if unresolved_only:
            where.append("NOT resolved")
        sql = "SELECT * FROM failures" + (f" WHERE {' AND '.join(where)}" if where else "")
        return self.query(sql + " ORDER BY stage, item_id, run_id", params)


def _unique_names(names: list[str]) -> list[str]:
    # Rows are dicts: two result columns with one name (SELECT a.x, b.x) must not collapse into one.
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if n in seen:
            seen[n] += 1
            candidate = f"{n}_{seen[n]}"
            while candidate in seen:
                seen[n] += 1
                candidate = f"{n}_{seen[n]}"
            seen[candidate] = 1
            out.append(candidate)
        else:
            seen[n] = 1
            out.append(n)
    return out


# -- output for the CLI --------------------------------------------------------------------------------
def to_jsonable(value: Any) -> Any:
    """A JSON-safe form of a DuckDB value: ISO dates, numbers for decimals, null for NaN/inf."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.is_finite() else to_jsonable(float(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return to_jsonable(float(value))
    return str(value)


def _columns_of(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None) -> list[str]:
    if columns is not None:
        return list(columns)
    out: dict[str, None] = {}
    for r in rows:
        out.update(dict.fromkeys(r))
    return list(out)


def format_json(rows: Sequence[dict[str, Any]]) -> str:
    """One JSON array of row objects."""
    return json.dumps([{str(k): to_jsonable(v) for k, v in r.items()} for r in rows], ensure_ascii=False, allow_nan=False)


def _csv_cell(value: Any) -> str:
    v = to_jsonable(value)
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def format_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """CSV with a header row; NULL is an empty cell, nested values are JSON text."""
    cols = _columns_of(rows, columns)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_csv_cell(r.get(c)) for c in cols])
    return buf.getvalue()


def _table_cell(value: Any, max_width: int) -> str:
    if value is None:
        text = "NULL"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = format(value, ".6g")
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(to_jsonable(value), ensure_ascii=False)
    else:
        text = str(to_jsonable(value))
    text = text.replace("\n", "\\n").replace("\t", " ")
    return text if len(text) <= max_width else text[: max_width - 1] + "…"


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, *, max_width: int = 60) -> str:
    """A plain aligned text table (numbers right-aligned, long cells cut), with a row count."""
    cols = _columns_of(rows, columns)
    n = len(rows)
    footer = f"({n} row{'' if n == 1 else 's'})"
    if not cols:
        return footer
    cells = [[_table_cell(r.get(c), max_width) for c in cols] for r in rows]
    def is_number(v: Any) -> bool:
        return isinstance(v, numbers.Number) and not isinstance(v, bool)

    # A column is right-aligned when every non-NULL value in it is a number (and there is one).
    numeric = [any(is_number(r.get(c)) for r in rows) and all(is_number(r.get(c)) or r.get(c) is None for r in rows) for c in cols]
    widths = [max([len(c), *(len(row[j]) for row in cells)]) for j, c in enumerate(cols)]

    def line(values: Iterable[str]) -> str:
        parts = [v.rjust(widths[j]) if numeric[j] else v.ljust(widths[j]) for j, v in enumerate(values)]
        return "  ".join(parts).rstrip()

    out = [line(cols), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells)
    out.append(footer)
    return "\n".join(out)


def render(result: QueryResult, fmt: OutputFormat = "table") -> str:
    """Render a query result as the CLI prints it: ``table`` (default), ``json`` or ``csv``."""
    if fmt == "json":
        return format_json(result.rows)
    if fmt == "csv":
        return format_csv(result.rows, result.columns)
    if fmt == "table":
        return format_table(result.rows, result.columns)
    raise ValueError(f"unknown output format {fmt!r}; use table, json or csv")
