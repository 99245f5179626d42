"""The warehouse: the one module that reads and writes storage.

Parquet parts are the record, DuckDB is the lens. Every stage writes immutable parts at
``<root>/data/<table>/run=<run_id>/<part>.parquet``; ``connect()`` gives a DuckDB connection with
one view per table over those parts plus the SQL views of ``warehouse/views.sql``.

Contracts this module keeps:

- **Atomic**: a part is written through `compoworld.atomic` (temp file in its own directory,
  suffix ``.tmp`` so it never matches the ``*.parquet`` glob, fsync, rename). A reader sees the
  old part or the new one, never half of one; a crash leaves at most an invisible temp file.
- **Complete**: a part records its row count in its Parquet footer (key-value metadata
  ``compoworld.num_rows``). A part is done (`has_part`) only when its footer reads and the count
  matches; a damaged part (truncated, garbage, wrong count) counts as missing, so the next run
  rewrites it, and reads skip it with a warning that names it (`check()` lists them all).
- **Safe to query**: `read_query` runs a user's SQL as one read statement on a connection that can
  read only the warehouse's own files and whose configuration is locked.
- **One writer at a time**: runs hold `lock()` (an exclusive ``flock`` on ``data/.lock``).
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

import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import logging
import numbers
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal, Sequence

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from compoworld.atomic import TEMP_SUFFIX, atomic_write
from compoworld.errors import UserError, one_line

ENV_VAR = "COMPOWORLD_WAREHOUSE"
PART_SUFFIX = ".parquet"
SQL_DIR = Path(__file__).resolve().parent.parent / "warehouse"
ROW_COUNT_KEY = b"compoworld.num_rows"  # Parquet footer key: the rows the writer wrote
LOCK_FILE = ".lock"  # under data/: held (flock) by the run writing the warehouse, holds its pid
SKIPPED_CHECK_PREFIX = "[skip]"  # service_checks.detail of a check that could not be set up

log = logging.getLogger(__name__)

ColumnType = Literal["string", "int", "float", "bool", "timestamp", "json"]

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
            _c("service_id", "string", "name@version of the service", required=True),
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
            _c("tool_id", "string", "namespaced tool name (service__tool)", required=True),
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
            _c("fidelity", "string", "faithful | structural | simulated: does the tool do what its spec says (fidelity checks)"),
        ),
        _table(
            "service_checks", "results of verifying a service (one row per check)", ["run_id", "check_id"],
            _c("check_id", "string", "chk_ + content hash of (service_id, position, tool, check_name)", required=True),
            _c("service_id", "string", "services.service_id"),
            _c("service", "string", "service name", required=True),
            _c("check_name", "string", "which check (schema, determinism, rollback, ...)", required=True),
            _c("passed", "bool", "whether the check passed", required=True),
            _c("detail", "string", "what failed, or a short summary; starts with '[skip]' when the check was skipped (passed is false)"),
        ),
        _table(
            "graph_edges", "service dependency graph: A -> B when A produces a value B consumes", ["run_id", "edge_id"],
            _c("edge_id", "string", "src_tool>dst_tool:semantic_type", required=True),
            _c("graph_id", "string", "graph_ + content hash of the graph's edge ids"),
            _c("src_service", "string", "producing service", required=True),
            _c("src_tool", "string", "producing tool"),
            _c("dst_service", "string", "consuming service", required=True),
            _c("dst_tool", "string", "consuming tool"),
            _c("semantic_type", "string", "semantic type of the value that flows", required=True),
            _c("src_role", "string", "role of the value where it is produced (employee, customer_contact, deal_amount, ...; '' generic)"),
            _c("dst_role", "string", "role of the field that consumes it; the edge exists because the roles fit a hand-off"),
        ),
        _table(
            "walks", "walks drawn over the dependency graph: each task's candidates, in the order they are tried",
            ["run_id", "walk_id"],
            _c("walk_id", "string", "content hash of the draw (task index, attempt, walk, world)", required=True),
            _c("task_index", "int", "the task (index in its run) the walk was drawn for", required=True),
            _c("attempt", "int", "position among the task's draws; the designer tries them in order", required=True),
            _c("graph_id", "string", "graph_edges.graph_id walked"),
            _c("seed", "int", "root seed of the run"),
            _c("world", "int", "seed of the world the task is designed in"),
            _c("length", "int", "length of the visit sequence"),
            _c("services_json", "json", "selected services (list)"),
            _c("distractors_json", "json", "distractor services (list)"),
            _c("sequence_json", "json", "visit sequence of services (list)"),
            _c("walk_json", "json", "the whole walk (services, distractors, visits, edge types, revisits)"),
        ),
        _table(
            "tasks", "accepted cross-service tasks", ["run_id", "task_id"],
            _c("task_id", "string", "content hash of the task", required=True),
            _c("task_index", "int", "index of the task in its run (its instantiate item)", required=True),
            _c("walk_id", "string", "walks.walk_id of the draw it instantiates"),
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
            _c("capabilities_json", "json", "capability labels the task realizes (list, from the documented set of 14)"),
            _c("n_reference_calls", "int", "tool calls the reference solution makes (branches not taken excluded)"),
            _c("n_report_items", "int", "values the closing report must state"),
            _c("mutants", "int", "non-equivalent mutants of the reference replayed in the probe"),
            _c("mutation_score", "float", "share of those mutants the rubric kills (1.0 under the default gate)"),
            _c("task_json", "json", "the whole task record (plan, rubric, phases)"),
        ),
        _table(
            "rubric_criteria", "the rubric of each task: one row per criterion", ["run_id", "task_id", "criterion_id"],
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("criterion_id", "string", "task_id:cN (the task, then the criterion's id within its rubric)", required=True),
            _c("ordinal", "int", "position in the rubric"),
            _c("kind", "string", "goal | negative (a goal the agent must reach, or a thing it must not do)"),
            _c("service", "string", "service the criterion is about; NULL when cross-service"),
            _c("description", "string", "what the criterion requires, in words"),
            _c("weight", "float", "static weight, if any"),
            _c("check_json", "json", "the executable check"),
            _c("reads_answer", "bool", "the check reads the agent's closing message (a report criterion)"),
        ),
        _table(
            "reference_steps", "the reference solution of each task: one row per tool call", ["run_id", "task_id", "step"],
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("step", "int", "0-based position", required=True),
            _c("tool", "string", "namespaced tool name (service__tool)"),
            _c("arguments_json", "json", "call arguments ({'$var': name} where the value is discovered)"),
            _c("purpose", "string", "lookup | write | update"),
        ),
        _table(
            "trajectories", "agent rollouts on tasks", ["run_id", "trajectory_id"],
            _c("trajectory_id", "string", "content hash of the rollout", required=True),
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("group_id", "string", "rollout group (GRPO group) it belongs to"),
            _c("rollout_index", "int", "index within its group"),
            _c("agent", "string", "agent kind (reference, perturbed, litellm, ...)"),
            _c("model", "string", "model string, if any"),
            _c("discover_mode", "string", "direct | gateway: every namespaced tool, or four meta-tools that discover them"),
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
            _c("kind", "string", "goal | negative (copied from the rubric)"),
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
            "evaluations", "held-out evaluations of an agent or checkpoint (run_id = evaluation_id)", ["run_id", "evaluation_id"],
            _c("evaluation_id", "string", "eval- + content hash of what was evaluated, on which tasks and how", required=True),
            _c("agent", "string", "agent label (kind, model and settings)"),
            _c("agent_kind", "string", "reference | perturbed | litellm | local"),
            _c("model", "string", "model string or spec, if any"),
            _c("checkpoint", "string", "checkpoint folder evaluated; NULL when the agent is no checkpoint"),
            _c("job_id", "string", "training_jobs.job_id that made the checkpoint; NULL if none"),
            _c("dataset_id", "string", "content id of the dataset split the checkpoint was trained on"),
            _c("data_revision", "string", "Hub revision of that dataset, or local- + a local folder's content fingerprint"),
            _c("data_run_id", "string", "the warehouse run that dataset was built from"),
            _c("split", "string", "the task split evaluated (test: service sets held out of training)"),
            _c("discover_mode", "string", "direct | gateway"),
            _c("n_tasks", "int", "tasks evaluated"),
            _c("group_size", "int", "rollouts per task"),
            _c("seed", "int", "rollout seed"),
            _c("success_rate", "float", "share of rollouts that passed every criterion"),
            _c("mean_partial_credit", "float", "mean share of criteria passed"),
            _c("figures_json", "json", "every figure: rewards, per capability, per criterion kind, per service"),
        ),
        _table(
            "evaluation_results", "one row per rollout of an evaluation", ["run_id", "evaluation_id", "task_id", "rollout_index"],
            _c("evaluation_id", "string", "evaluations.evaluation_id", required=True),
            _c("task_id", "string", "tasks.task_id", required=True),
            _c("rollout_index", "int", "index within the task's group", required=True),
            _c("success", "bool", "every criterion passed"),
            _c("partial_credit", "float", "share of criteria passed"),
            _c("n_steps", "int", "tool calls made"),
            _c("failed_calls", "int", "tool calls that returned an error"),
            _c("stop_reason", "string", "why the episode ended (answered, max_steps, context_full, ...)"),
            _c("last_message", "string", "the agent's last message (its closing answer, or what did not parse), to read"),
            _c("capabilities_json", "json", "the task's capability labels (list; empty when unlabelled)"),
            _c("criteria_json", "json", "per criterion: id, kind, service, passed"),
        ),
        _table(
            "training_jobs", "training jobs started by compoworld train or the train stage (run_id = job_id)", ["run_id", "job_id"],
            _c("job_id", "string", "content id of the job spec (kind + hash)", required=True),
            _c("kind", "string", "sft | grpo"),
            _c("model", "string", "the model it started from"),
            _c("status", "string", "completed | failed | started (not waited for)"),
            _c("dataset_id", "string", "content id of the dataset split it trained on"),
            _c("data_path", "string", "dataset folder or Hub repo"),
            _c("data_revision", "string", "Hub revision of the dataset, or local- + a local folder's content fingerprint"),
            _c("data_run_id", "string", "the warehouse run the dataset was built from"),
            _c("data_split", "string", "the dataset split trained on"),
            _c("learning_rate", "float", "learning rate"),
            _c("max_steps", "int", "optimizer steps asked for"),
            _c("losses_json", "json", "SFT: loss per step; GRPO: reward (and its std) per step"),
            _c("loss_first", "float", "SFT loss at the first step"),
            _c("loss_last", "float", "SFT loss at the last step"),
            _c("seconds", "float", "wall time of the job"),
            _c("step_seconds_json", "json", "wall time of each step"),
            _c("model_dir", "string", "the trained checkpoint folder"),
            _c("error", "string", "the cause of a failure"),
            _c("spec_json", "json", "the whole job spec"),
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


# -- complete parts ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DamagedPart:
    """A part file that is not a complete part: reads skip it and `has_part` calls it missing."""

    table: str
    run_id: str
    path: Path
    reason: str


@dataclass
class _PartCheck:
    version: tuple[int, int, int]  # (size, mtime_ns, inode) of the file the check read
    problem: str | None
    warned: bool = False


# One check per part file version, per process: a rewrite renames a new file into place (a new
# version), so it is checked again, while an unchanged part's footer is read once. This keeps
# `connect()` cheap on warehouses with thousands of parts.
_part_checks: dict[str, _PartCheck] = {}


def _footer_problem(path: Path) -> str | None:
    """Why the Parquet file at ``path`` is not a complete part, or None when it is."""
    try:
        meta = pq.read_metadata(path)
    except (OSError, ValueError, pa.ArrowException) as exc:  # truncated, garbage, unreadable
        return f"unreadable Parquet footer: {one_line(str(exc))}"
    recorded = (meta.metadata or {}).get(ROW_COUNT_KEY)
    if recorded is None:
        return None  # written before row counts were recorded: a readable footer means the write ended
    if recorded != str(meta.num_rows).encode():
        return f"the footer holds {meta.num_rows} rows but {recorded.decode(errors='replace')} were written"
    return None


def _check_part(path: Path, fresh: bool = False) -> _PartCheck | None:
    """The (cached) check of the part file at ``path``; None when there is no such file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    version = (st.st_size, st.st_mtime_ns, st.st_ino)
    check = _part_checks.get(str(path))
    if fresh or check is None or check.version != version:
        check = _PartCheck(version, _footer_problem(path))
        _part_checks[str(path)] = check
    return check


def _is_complete(path: Path) -> bool:
    """Whether ``path`` holds a complete part; the first time a damaged one is seen, a warning names it."""
    check = _check_part(path)
    if check is None:
        return False
    if check.problem is not None and not check.warned:
        check.warned = True
        log.warning("damaged part %s (%s): reads skip it and the next run rewrites it; "
                    "'compoworld warehouse check' lists every damaged part", path, check.problem)
    return check.problem is None


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _view_sql(spec: TableSpec, parts: Sequence[Path]) -> str:
    """A typed view over a table's parts, one row per key; zero rows with the same columns if no parts."""
    cols = [(f'"{c.name}"', _SQL_TYPES[c.type]) for c in spec.columns]
    empty = ", ".join(f"CAST(NULL AS {t}) AS {n}" for n, t in cols) + ", CAST(NULL AS VARCHAR) AS filename"
    source = f"SELECT * FROM (SELECT {empty}) WHERE false"
    if parts:
        # An explicit file list, not a glob: damaged parts are left out. union_by_name: parts written
        # before a column was added still read, with NULLs there.
        files = ", ".join(_sql_str(str(p)) for p in parts)
        source += (
            f"\n  UNION ALL BY NAME SELECT * FROM read_parquet([{files}], "
            "union_by_name = true, hive_partitioning = false, filename = true)"
        )
    select = ", ".join(f"CAST({n} AS {t}) AS {n}" for n, t in cols)
    key = ", ".join(f'"{k}"' for k in spec.key)
    return (
        f'CREATE OR REPLACE VIEW "{spec.name}" AS\nSELECT {select}\nFROM ({source})\n'
        f"QUALIFY row_number() OVER (PARTITION BY {key} ORDER BY filename DESC) = 1"
    )


# -- user queries --------------------------------------------------------------------------------------
READ_STATEMENTS = "SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN"
# The parser's names for INSTALL and LOAD, and for PIVOT (which DuckDB runs as several statements).
_STATEMENT_NAMES = {duckdb.StatementType.LOAD: "INSTALL/LOAD", duckdb.StatementType.MULTI: "PIVOT"}
_EXPLAIN = re.compile(r"^\s*EXPLAIN\s+(?:\([^)]*\)\s*)?(?:ANALY[SZ]E\s+)?", re.IGNORECASE)
# Query nodes that only read. A SELECT statement may still hold others: DuckDB accepts COPY, INSERT,
# UPDATE and DELETE as bodies of a WITH clause (`WITH x AS (COPY t TO 'f') SELECT 1` writes f).
_READ_NODES = frozenset({"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"})


def read_statement(sql: str) -> duckdb.Statement:
    """The single read statement in ``sql``, as DuckDB's own parser sees it; a `UserError` otherwise.

    Two checks, both DuckDB's: the statement's type (SELECT covers WITH, FROM, DESCRIBE, SHOW and
    SUMMARIZE; an EXPLAIN is judged by what it explains, since EXPLAIN ANALYZE runs it), then every
    query node of its serialized parse tree, so a write hidden in a WITH clause is refused too.
    """
    statements = _parse(sql)
    if len(statements) != 1:
        found = "no statement" if not statements else f"{len(statements)} statements"
        raise UserError(f"the query has {found}; pass exactly one read statement ({READ_STATEMENTS})")
    statement = query = statements[0]
    if _kind(statement) == duckdb.StatementType.EXPLAIN:
        inner = _parse(_EXPLAIN.sub("", statement.query, count=1))
        query = inner[0] if len(inner) == 1 else None
    kind = _kind(query) if query is not None else None
    if kind != duckdb.StatementType.SELECT:
        shown = "this statement" if kind is None else _STATEMENT_NAMES.get(kind, kind.name)
        raise _refused(f"{shown} is not a read statement")
    writer = _non_read_node(query.query)
    if writer is not None:
        raise _refused(f"the query holds {writer}")
    return statement


def _parse(sql: str) -> list[duckdb.Statement]:
    try:
        return duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise UserError(f"cannot parse the query: {one_line(exc)}; fix the SQL") from None


def _kind(statement: duckdb.Statement) -> duckdb.StatementType | None:
    try:
        return statement.type
    except ValueError:  # a statement type the Python module has no name for (UPDATE EXTENSIONS): not a read
        return None


def _non_read_node(query: str) -> str | None:
    """What in ``query`` is not a read (``a COPY``), by DuckDB's serialized parse tree; None when all of it reads."""
    with duckdb.connect() as con:
        [text] = con.execute("SELECT json_serialize_sql(?)", [query]).fetchone()
    tree = json.loads(text)
    if tree.get("error"):  # DuckDB serializes every plain query; it cannot serialize PIVOT, for one
        return f"a part DuckDB cannot show to be read-only ({tree.get('error_message')})"
    found = sorted(n for n in _query_node_types(tree) if n not in _READ_NODES)
    return f"a {found[0].removesuffix('_NODE').removesuffix('_QUERY')}" if found else None


def _query_node_types(tree: Any) -> set[str]:
    """Every ``*_NODE`` type in a serialized parse tree: the query nodes, however deeply nested."""
    if isinstance(tree, dict):
        own = {tree["type"]} if isinstance(tree.get("type"), str) and tree["type"].endswith("_NODE") else set()
        return own.union(*(_query_node_types(v) for v in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_query_node_types(v) for v in tree))
    return set()


def _refused(why: str) -> UserError:
    return UserError(f"refused: {why}; compoworld sql runs read-only queries ({READ_STATEMENTS}) over the "
                     "warehouse's own tables, which change only through 'compoworld run'")


def _lock_down(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """Let ``con`` open files only under ``data_dir`` (the parts its views read), load no extension
    and scan no Python object, then lock its configuration so a query cannot undo any of it."""
    con.execute(f"SET allowed_directories = [{_sql_str(str(data_dir) + os.sep)}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET python_enable_replacements = false")
    con.execute("SET lock_configuration = true")


def _query_error(exc: duckdb.Error) -> str:
    """A failed user query as one line: DuckDB's message and what to do about it."""
    if isinstance(exc, duckdb.CatalogException):
        hint = "list the tables and views with: compoworld sql 'SHOW TABLES'"
    elif isinstance(exc, duckdb.BinderException):
        hint = "list a table's columns with: compoworld sql 'DESCRIBE <table>'"
    elif isinstance(exc, duckdb.PermissionException):
        hint = "compoworld sql reads only the warehouse's own tables and views"
    else:
        hint = "fix the query"
    return f"query failed: {one_line(exc)}; {hint}"


def _result(cur: duckdb.DuckDBPyConnection) -> QueryResult:
    if cur.description is None:
        return QueryResult([], [])
    columns = _unique_names([d[0] for d in cur.description])
    return QueryResult(columns, [dict(zip(columns, r)) for r in cur.fetchall()])


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

    def part_paths(self, table: str) -> list[Path]:
        """Every part file of ``table``, complete or not, in path order."""
        return sorted((self.data_dir / table_spec(table).name).glob(f"*/*{PART_SUFFIX}"))

    # the warehouse as a whole
    def require_existing(self) -> Warehouse:
        """This warehouse, when there is one to read; a `UserError` that says what to do otherwise."""
        if not self.root.exists():
            raise UserError(f"no warehouse at {self.root} (it does not exist); "
                            f"run 'compoworld run --warehouse {self.root}' first or pass --warehouse DIR")
        for path in (self.root, self.data_dir):
            if path.exists() and not path.is_dir():
                raise UserError(f"no warehouse at {self.root} ({path} is a file, not a folder); "
                                "pass --warehouse DIR, the folder a run wrote")
        return self

    def create(self) -> Warehouse:
        """This warehouse, its folders made if missing: writers call it before doing any work."""
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError, PermissionError) as exc:
            raise UserError(f"cannot make a warehouse at {self.root} ({exc.strerror}: {exc.filename}); "
                            "pass --warehouse DIR, a folder you can write") from None
        return self

    @contextlib.contextmanager
    def lock(self, wait: bool = True, timeout_s: float | None = None) -> Iterator[None]:
        """Hold the warehouse for one run: an exclusive ``flock`` on ``data/.lock``, which holds our pid.

        A second run is refused at once (``wait=False``), after ``timeout_s`` seconds, or waits as
        long as it takes (``wait=True``, no timeout); refusals are a `UserError` naming the holder.
        The kernel releases the lock when its holder exits, even by a crash. Not re-entrant: one
        holder per process.
        """
        path = self.create().data_dir / LOCK_FILE
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd, path, wait, timeout_s)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            try:
                yield
            finally:
                os.ftruncate(fd, 0)  # no stale pid once released
        finally:
            os.close(fd)  # closing the file releases the lock

    def _acquire(self, fd: int, path: Path, wait: bool, timeout_s: float | None) -> None:
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            holder = f"another run holds the warehouse at {self.root} (pid {_lock_holder(path)})"
            if not wait:
                raise UserError(f"{holder}; wait for it or use another --warehouse")
            if deadline is not None and time.monotonic() >= deadline:
                raise UserError(f"{holder} and did not let go within {timeout_s:g} s; wait for it or use another --warehouse")
            if not told:
                told = True
                log.warning("%s; waiting for it", holder)
            if deadline is None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # block until it is ours (Ctrl+C still interrupts)
                return
            time.sleep(0.05)

    def check(self) -> list[DamagedPart]:
        """Every damaged part (its footer read afresh), in table and path order."""
        damaged = []
        for table in TABLES:
            for path in self.part_paths(table):
                check = _check_part(path, fresh=True)
                if check is not None and check.problem is not None:
                    damaged.append(DamagedPart(table, path.parent.name.removeprefix("run="), path, check.problem))
        return damaged

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
        data = to_arrow(table, rows, run_id=run_id, config_hash=config_hash)
        # The row count goes into the footer, the last thing written: `has_part` compares the two.
        data = data.replace_schema_metadata({ROW_COUNT_KEY: str(data.num_rows).encode()})
        atomic_write(path, lambda f: pq.write_table(data, f, compression="zstd"))
        return path

    def has_part(self, table: str, run_id: str, part: str) -> bool:
        """Whether the step that writes this part is done: the part exists and is complete.

        A damaged part (truncated, garbage, wrong row count) counts as missing, with a warning
        naming it, so the step runs again and rewrites it.
        """
        return _is_complete(self.part_path(table, run_id, part))

    def read_part(self, table: str, run_id: str, part: str) -> list[dict[str, Any]]:
        path = self.part_path(table, run_id, part)
        check = _check_part(path)
        if check is None:
            raise WarehouseError(f"no part {part!r} of table {table!r} in run {run_id!r}")
        if check.problem is not None:
            raise WarehouseError(f"part {path} is damaged ({check.problem}); rerun the step that writes it")
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

        The set of parts a view reads is fixed when the connection is made: open a new one to see
        parts written after it. Damaged parts are left out, with a warning naming each.
        """
        con = duckdb.connect(":memory:")
        try:
            con.execute("SET TimeZone = 'UTC'")
            for spec in TABLES.values():
                con.execute(_view_sql(spec, [p for p in self.part_paths(spec.name) if _is_complete(p)]))
            con.execute(views_sql())
        except BaseException:
            con.close()
            raise
        return con

    def fetch(self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None) -> QueryResult:
        """Run one query; its column names (even with zero rows) and rows as dicts."""
        con = self.connect()
        try:
            return _result(con.execute(sql, params) if params is not None else con.execute(sql))
        finally:
            con.close()

    def read_query(self, sql: str) -> QueryResult:
        """Run a person's query (`compoworld sql`): one read statement that reads only this warehouse.

        DuckDB's parser classifies the statement and every query node in it (`read_statement`), so
        COPY, ATTACH, INSTALL, SET, PRAGMA, CREATE, INSERT, ... are refused before anything runs,
        even inside a WITH clause; the query then runs on a connection that can open files only
        under ``data/`` and cannot change its own settings. A refused or failing query is a
        `UserError`; the warehouse is never changed.
        """
        statement = read_statement(sql)
        con = self.connect()
        try:
            _lock_down(con, self.data_dir)
            try:
                return _result(con.execute(statement))
            except duckdb.InterruptException:
                raise KeyboardInterrupt from None
            except (duckdb.InternalException, duckdb.FatalException):
                raise  # DuckDB's own defects are not the query's fault
            except duckdb.Error as exc:
                raise UserError(_query_error(exc)) from None
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

    def service_check_outcomes(self, run_id: str | None = None) -> dict[str, int]:
        """Service checks that passed, failed and were skipped (a skip is not a failure), in one run or all."""
        where = "WHERE run_id = ?" if run_id is not None else ""
        [row] = self.query(f"""
            SELECT count(*) FILTER (WHERE passed) AS passed,
                   count(*) FILTER (WHERE NOT passed AND NOT starts_with(coalesce(detail, ''), ?)) AS failed,
                   count(*) FILTER (WHERE NOT passed AND starts_with(coalesce(detail, ''), ?)) AS skipped
            FROM service_checks {where}""", [SKIPPED_CHECK_PREFIX, SKIPPED_CHECK_PREFIX, *([run_id] if run_id is not None else [])])
        return {k: int(v) for k, v in row.items()}

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
                if not _is_complete(path):
                    continue  # a damaged failure record is rewritten when the item fails or succeeds again
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


def _lock_holder(path: Path) -> str:
    try:
        return path.read_text().strip() or "unknown"
    except OSError:
        return "unknown"


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


# -- typed readers: the pipeline's read-back ---------------------------------------------------------------
# Every query the stages, flows and CLI run lives here, behind a function that says what it returns.
def part_column(wh: Warehouse, table: str, run_id: str, part: str, column: str) -> list[Any]:
    """One column of one part (cheap: Parquet reads only that column)."""
    return pq.read_table(wh.part_path(table, run_id, part), columns=[column]).column(column).to_pylist()


def run_task_rows(wh: Warehouse, run_id: str, task_ids: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """`tasks` rows of a run (all, or those ids), in task index order."""
    if task_ids is None:
        return wh.query("SELECT * FROM tasks WHERE run_id = ? ORDER BY task_index", [run_id])
    return wh.query("SELECT * FROM tasks WHERE run_id = ? AND list_contains(?, task_id) ORDER BY task_index",
                    [run_id, list(task_ids)])


def task_row(wh: Warehouse, task_id: str) -> dict[str, Any] | None:
    """A task by id, from whichever run holds it (the newest run id wins on a tie)."""
    rows = wh.query("SELECT * FROM tasks WHERE task_id = ? ORDER BY run_id DESC LIMIT 1", [task_id])
    return rows[0] if rows else None


def run_configs(wh: Warehouse, run_ids: Sequence[str]) -> dict[str, str]:
    """The config (JSON text) each run was made with, from its `runs` row."""
    rows = wh.query("SELECT run_id, config_json FROM runs WHERE list_contains(?, run_id)", [list(run_ids)])
    return {r["run_id"]: r["config_json"] for r in rows}


def run_inputs_fingerprint(wh: Warehouse, run_id: str) -> str:
    """A fingerprint of a run's tasks, trajectories and rewards. Ids are content hashes, so the ids
    (and the reward values) fingerprint the rows without reading them."""
    row = wh.query("""
        SELECT (SELECT md5(coalesce(string_agg(task_id, ',' ORDER BY task_id), '')) FROM tasks WHERE run_id = $1) AS t,
               (SELECT md5(coalesce(string_agg(trajectory_id, ',' ORDER BY trajectory_id), '')) FROM trajectories WHERE run_id = $1) AS j,
               (SELECT md5(coalesce(string_agg(trajectory_id || reward_kind || CAST(reward AS VARCHAR), ','
                                               ORDER BY trajectory_id, reward_kind), ''))
                FROM rewards WHERE run_id = $1) AS r""", [run_id])[0]
    return f"{row['t']}:{row['j']}:{row['r']}"


def datasets_fingerprint(wh: Warehouse, run_id: str) -> str:
    """A fingerprint of a run's dataset ids ('' when the run has none)."""
    return wh.query("SELECT coalesce(md5(string_agg(dataset_id, ',' ORDER BY dataset_id)), '') AS d "
                    "FROM datasets WHERE run_id = ?", [run_id])[0]["d"]


def content_hashes(wh: Warehouse, run_id: str, tables: Iterable[str] | None = None) -> dict[str, str]:
    """A digest of each table's rows in a run (every column, rows in key order): two warehouses with
    equal digests hold the same data. `runs` (wall-clock times) is left out by default."""
    from compoworld.canonical import short_hash

    out = {}
    con = wh.connect()
    try:
        for t in tables or [t for t in TABLES if t != "runs"]:
            key = ", ".join(f'"{k}"' for k in TABLES[t].key)
            cur = con.execute(f'SELECT * FROM "{t}" WHERE run_id = ? ORDER BY {key}', [run_id])
            cols = [d[0] for d in cur.description]
            lines = [canonical_json({c: (v.isoformat() if isinstance(v, (dt.datetime, dt.date)) else v) for c, v in zip(cols, row)})
                     for row in cur.fetchall()]
            out[t] = short_hash("".join(line + "\n" for line in lines))
    finally:
        con.close()
    return out


def run_summary(wh: Warehouse, run_id: str) -> dict[str, Any]:
    """Headline figures of a run, read from the warehouse (so they agree with `compoworld sql`)."""
    agents = wh.query("""
        SELECT t.agent, count(*) AS trajectories, avg(CAST(t.success AS DOUBLE)) AS success_rate,
               avg(t.score) AS mean_partial_credit,
               avg(r.reward) FILTER (WHERE r.reward_kind = 'completion_focused') AS mean_cf_reward
        FROM trajectories t
        LEFT JOIN rewards r ON r.run_id = t.run_id AND r.trajectory_id = t.trajectory_id AND r.reward_kind = 'completion_focused'
        WHERE t.run_id = ? GROUP BY t.agent ORDER BY t.agent""", [run_id])
    fails = wh.query("""SELECT stage, reason, count(*) AS n FROM failures WHERE run_id = ? AND NOT resolved
                        GROUP BY stage, reason ORDER BY stage, reason""", [run_id])
    counts = wh.query("""
        SELECT (SELECT count(*) FROM services WHERE run_id = $1) AS services,
               (SELECT count(*) FROM tools WHERE run_id = $1) AS tools,
               (SELECT count(*) FROM walks WHERE run_id = $1) AS walks,
               (SELECT count(*) FROM tasks WHERE run_id = $1) AS tasks,
               (SELECT count(*) FROM service_checks WHERE run_id = $1) AS service_checks,
               (SELECT count(*) FILTER (WHERE passed) FROM service_checks WHERE run_id = $1) AS service_checks_passed,
               (SELECT count(*) FILTER (WHERE NOT passed AND starts_with(coalesce(detail, ''), '[skip]'))
                FROM service_checks WHERE run_id = $1) AS service_checks_skipped""", [run_id])[0]
    counts["service_checks_failed"] = counts["service_checks"] - counts["service_checks_passed"] - counts["service_checks_skipped"]
    return {"run_id": run_id, "warehouse": str(wh.root), **counts,
            "agents": [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in a.items()} for a in agents],
            "unresolved_failures": fails, "stats": wh.stats()}


def example_queries() -> list[str]:
    """The queries `warehouse/examples.sql` suggests to try after a run."""
    lines = (SQL_DIR / "examples.sql").read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("--")]


# -- typed readers: datasets, training, rollout ----------------------------------------------------------
# What `compoworld.datasets` reads to assemble the SFT and RL datasets. With no run named, every run
# is read; rows come ordered by run id within an item, so a caller that keeps the last copy keeps the
# copy of the last run in sort order (as the views do for duplicate parts).
@dataclass(frozen=True)
class StoredTask:
    """A `tasks` row as a dataset build needs it: the task itself and the hashes a rebuild is checked against."""

    run_id: str
    task_id: str
    task: dict[str, Any]  # `task_json`, parsed: what `Task.model_validate` reads
    initial_state_hash: str | None
    reference_final_hash: str | None


@dataclass(frozen=True)
class RunRecord:
    """A `runs` row, for a dataset's provenance."""

    run_id: str
    flow: str | None
    status: str | None
    code_version: str | None
    seed: int | None
    config: Any  # `config_json`, parsed


@dataclass(frozen=True)
class TrajectoryRecord:
    """A `trajectories` row as SFT rows are made from it."""

    trajectory_id: str
    task_id: str
    run_id: str
    agent: str
    model: str | None
    rollout_index: int
    success: bool
    partial_credit: float
    n_steps: int
    messages: list[dict[str, Any]]
    discover_mode: str = "direct"


@dataclass(frozen=True)
class TrajectoryCounts:
    """How many trajectories were read and how many each filter dropped (fields in report order)."""

    read: int
    below_partial_credit: int
    other_agent: int


def _in_run(run_id: str | None) -> tuple[str, list[Any]]:
    """A condition (and its parameters) that keeps one run's rows, or every row when no run is named."""
    return ("run_id = ?", [run_id]) if run_id else ("true", [])


def _parsed(value: Any) -> Any:
    """A `json` column's value: stored as text, handed out parsed."""
    return json.loads(value) if isinstance(value, str) else value


def read_service_domains(wh: Warehouse) -> dict[str, str]:
    """Service name -> business domain over every run's `services` rows (a later run id wins; no domain, no entry)."""
    rows = wh.query("SELECT name, domain FROM services WHERE coalesce(domain, '') <> '' ORDER BY run_id")
    return {r["name"]: r["domain"] for r in rows}


def read_stored_tasks(wh: Warehouse, run_id: str | None = None) -> list[StoredTask]:
    """The `tasks` rows of one run (or every run), by task id, then run id."""
    where, params = _in_run(run_id)
    rows = wh.query("SELECT run_id, task_id, initial_state_hash, reference_final_hash, task_json FROM tasks "
                    f"WHERE {where} ORDER BY task_id, run_id", params)
    return [StoredTask(run_id=r["run_id"], task_id=r["task_id"], task=_parsed(r["task_json"]),
                       initial_state_hash=r["initial_state_hash"], reference_final_hash=r["reference_final_hash"])
            for r in rows]


def read_run_records(wh: Warehouse, run_id: str | None = None) -> list[RunRecord]:
    """The `runs` rows of one run (or every run), by run id."""
    where, params = _in_run(run_id)
    rows = wh.query(f"SELECT run_id, flow, status, code_version, seed, config_json FROM runs WHERE {where} ORDER BY run_id",
                    params)
    return [RunRecord(run_id=r["run_id"], flow=r["flow"], status=r["status"], code_version=r["code_version"],
                      seed=r["seed"], config=_parsed(r["config_json"])) for r in rows]


def read_sft_trajectories(wh: Warehouse, run_id: str | None, min_partial_credit: float,
                          agents: Sequence[str] | None) -> tuple[list[TrajectoryRecord], TrajectoryCounts]:
    """Trajectories of one run (or every run) with at least `min_partial_credit` by one of `agents`
    (any agent when empty), filtered here so a large warehouse is not read whole, and how many each
    filter dropped. Ordered by task, the reference teacher first (a conversation identical to the
    teacher's is then kept as the teacher's), then agent, rollout, trajectory and run."""
    credit = "coalesce(score, 0) >= ?"
    agent = f"agent IN ({', '.join('?' for _ in agents)})" if agents else "true"
    run, run_params = _in_run(run_id)
    agent_params = list(agents or [])
    counts = wh.query(
        f"SELECT count(*) AS read, count(*) FILTER (WHERE NOT {credit}) AS below_partial_credit, "
        f"count(*) FILTER (WHERE {credit} AND NOT coalesce({agent}, false)) AS other_agent "
        f"FROM trajectories WHERE {run}",
        [min_partial_credit, min_partial_credit, *agent_params, *run_params])[0]
    rows = wh.query(
        "SELECT run_id, trajectory_id, task_id, agent, model, rollout_index, n_steps, success, score, messages_json, "
        "discover_mode "
        f"FROM trajectories WHERE {credit} AND {agent} AND {run} "
        "ORDER BY task_id, agent <> 'reference', agent, rollout_index, trajectory_id, run_id",
        [min_partial_credit, *agent_params, *run_params])
    records = [TrajectoryRecord(
        trajectory_id=r["trajectory_id"], task_id=r["task_id"], run_id=r["run_id"], agent=r["agent"] or "",
        model=r["model"], rollout_index=r["rollout_index"] or 0, success=bool(r["success"]),
        partial_credit=float(r["score"] or 0.0), n_steps=r["n_steps"] or 0, messages=_parsed(r["messages_json"]) or [],
        discover_mode=r["discover_mode"] or "direct",
    ) for r in rows]
    return records, TrajectoryCounts(**{k: int(v) for k, v in counts.items()})


# -- typed readers and writers: training jobs and evaluations ----------------------------------------------
# A job and an evaluation are each their own run (run_id = its content id) written as one part: a rerun
# rewrites that part, so the rows are never duplicated.
def write_training_job(wh: Warehouse, row: dict[str, Any]) -> Path:
    """The `training_jobs` row of one job (replacing the job's earlier row, e.g. `started` -> `completed`)."""
    return wh.create().write("training_jobs", [row], run_id=row["job_id"], part="job")


def read_training_job(wh: Warehouse, job_id: str) -> dict[str, Any] | None:
    """A job's `training_jobs` row, its JSON columns parsed; None when the job was never recorded."""
    rows = wh.query("SELECT * FROM training_jobs WHERE job_id = ?", [job_id])
    if not rows:
        return None
    return {k: (_parsed(v) if k.endswith("_json") else v) for k, v in rows[0].items()}


def write_evaluation(wh: Warehouse, row: dict[str, Any], results: Sequence[dict[str, Any]]) -> None:
    """An evaluation's row and its per-rollout rows, under the evaluation's own run id."""
    wh.create()
    run_id = row["evaluation_id"]
    wh.write("evaluation_results", [{**r, "evaluation_id": run_id} for r in results], run_id=run_id, part="results")
    wh.write("evaluations", [row], run_id=run_id, part="evaluation")  # last: an evaluation row means its results are there


def read_evaluations(wh: Warehouse, job_id: str | None = None) -> list[dict[str, Any]]:
    """`evaluations` rows (of one training job, or all), JSON columns parsed, by evaluation id."""
    where, params = ("job_id = ?", [job_id]) if job_id else ("true", [])
    rows = wh.query(f"SELECT * FROM evaluations WHERE {where} ORDER BY evaluation_id", params)
    return [{k: (_parsed(v) if k.endswith("_json") else v) for k, v in r.items()} for r in rows]
