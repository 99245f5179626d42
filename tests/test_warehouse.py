"""The warehouse: typed atomic idempotent complete parts, views over them, failures, safe queries, the lock, CLI output."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from compoworld.cli import main
from compoworld.cli._format import format_csv, format_json, format_table, render
from compoworld.errors import UserError
from compoworld.warehouse import (
    ENV_VAR,
    LOCK_FILE,
    ROW_COUNT_KEY,
    SQL_DIR,
    TABLES,
    TEMP_SUFFIX,
    QueryResult,
    SchemaError,
    Warehouse,
    WarehouseError,
    part_name,
    read_statement,
    resolve_warehouse_dir,
    tables_sql,
    to_arrow,
)

RUN = "run-1"
USER_VIEWS = ["task_rubric", "tasks_with_rubric", "pass_rate_by_kind", "pass_rate_by_service", "reward_spread", "failures_by_stage"]


@pytest.fixture
def wh(tmp_path: Path) -> Warehouse:
    return Warehouse(tmp_path / "wh")


def _tasks(*ids: str) -> list[dict]:
    return [{"task_id": t, "task_index": i, "instruction": f"do {t}", "n_criteria": 2, "services_json": ["crm", "invoicing"]}
            for i, t in enumerate(ids)]


def _count(wh: Warehouse, table: str) -> int:
    return wh.query(f"SELECT count(*) AS n FROM {table}")[0]["n"]


# -- writing -------------------------------------------------------------------------------------------
def test_write_adds_run_id_and_round_trips_types(wh: Warehouse) -> None:
    started = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    path = wh.write(
        "runs",
        [{"flow": "pipeline", "seed": np.int64(7), "config_json": {"b": 1, "a": [1, 2]}, "started_at": started}],
        run_id=RUN,
        part="run",
        config_hash="cfg1",
    )
    assert path == wh.root / "data" / "runs" / f"run={RUN}" / "run.parquet"
    [row] = wh.query("SELECT * FROM runs")
    assert row["run_id"] == RUN and row["config_hash"] == "cfg1" and row["seed"] == 7
    assert row["config_json"] == '{"a":[1,2],"b":1}'  # canonical JSON: equal values, equal text
    assert row["started_at"] == started
    assert row["finished_at"] is None


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"task_id": "t1", "task_index": 0, "bogus": 1}], "unknown column(s) ['bogus']"),
        ([{"task_id": "t1", "task_index": 0, "n_criteria": "two"}], "column 'n_criteria': expected int, got str"),
        ([{"task_id": "t1", "task_index": 0, "n_criteria": True}], "column 'n_criteria': expected int, got bool"),
        ([{"task_id": "t1", "task_index": 0, "instruction": 5}], "column 'instruction': expected string"),
        ([{"instruction": "no id"}], "required column 'task_id'"),
        ([{"task_id": "t1", "task_index": 0, "checks_json": "{not json"}], "not valid JSON text"),
        ([{"task_id": "t1", "task_index": 0, "run_id": "other"}], "differs from the write's"),
        ([{"task_id": "t1", "task_index": 0}, {"task_id": "t1", "task_index": 1}], "duplicate key"),
    ],
)
def test_rows_that_do_not_fit_the_schema_are_a_clear_error(wh: Warehouse, rows: list[dict], message: str) -> None:
    with pytest.raises(SchemaError) as exc:
        wh.write("tasks", rows, run_id=RUN, part="p")
    assert message in str(exc.value)
    assert not wh.has_part("tasks", RUN, "p")


def test_naive_timestamps_are_rejected(wh: Warehouse) -> None:
    with pytest.raises(SchemaError, match="timezone-aware"):
        wh.write("runs", [{"started_at": dt.datetime(2025, 1, 1)}], run_id=RUN, part="run")


@pytest.mark.parametrize(
    ("table", "run_id", "part"), [("nope", RUN, "p"), ("tasks", "../x", "p"), ("tasks", RUN, "a/b"), ("tasks", RUN, ".hidden")]
)
def test_unknown_tables_and_unsafe_names_are_refused(wh: Warehouse, table: str, run_id: str, part: str) -> None:
    with pytest.raises(WarehouseError):
        wh.write(table, _tasks("t1"), run_id=run_id, part=part)
    assert not (wh.root / "data").exists() or not any((wh.root / "data").rglob("*.parquet"))


def test_part_name_is_stable_and_safe() -> None:
    a = part_name("t1", "t2", prefix="instantiate batch")
    assert a == part_name("t1", "t2", prefix="instantiate batch")
    assert a != part_name("t2", "t1", prefix="instantiate batch")
    assert a.startswith("instantiate-batch-") and "/" not in a


# -- idempotence and de-duplication --------------------------------------------------------------------
def test_rewriting_a_part_replaces_it_never_duplicates(wh: Warehouse) -> None:
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="batch-0")
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="batch-0")
    assert _count(wh, "tasks") == 2
    # A retry that produced different content replaces the old part's rows entirely.
    wh.write("tasks", _tasks("t3"), run_id=RUN, part="batch-0")
    assert [r["task_id"] for r in wh.query("SELECT task_id FROM tasks")] == ["t3"]
    assert len(list((wh.root / "data" / "tasks").rglob("*.parquet"))) == 1


def test_a_key_held_by_two_parts_is_seen_once(wh: Warehouse) -> None:
    # A resumed step that batched differently writes t2 into a second part.
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="a")
    wh.write("tasks", [{**_tasks("t2")[0], "instruction": "newer"}, *_tasks("t3")], run_id=RUN, part="b")
    rows = wh.query("SELECT task_id, instruction FROM tasks ORDER BY task_id")
    assert [r["task_id"] for r in rows] == ["t1", "t2", "t3"]
    assert rows[1]["instruction"] == "newer"  # the part that sorts last wins, deterministically
    # The same task in another run is another row: keys include run_id.
    wh.write("tasks", _tasks("t1"), run_id="run-2", part="a")
    assert _count(wh, "tasks") == 4


def test_has_part_and_delete_run(wh: Warehouse) -> None:
    assert not wh.has_part("tasks", RUN, "a")
    wh.write("tasks", [], run_id=RUN, part="a")  # an empty part still marks the step done
    assert wh.has_part("tasks", RUN, "a")
    wh.write("rewards", [{"trajectory_id": "x", "reward_kind": "uniform", "reward": 1.0}], run_id=RUN, part="a")
    wh.write("tasks", _tasks("t9"), run_id="keep", part="a")
    assert wh.delete_run(RUN) == 2
    assert not wh.has_part("tasks", RUN, "a")
    assert wh.stats()["rewards"] == 0
    assert [r["run_id"] for r in wh.query("SELECT run_id FROM tasks")] == ["keep"]


# -- atomicity -----------------------------------------------------------------------------------------
_CRASH = """
import os, sys
import compoworld.warehouse as w
# Die the way SIGKILL would: after the temp file is fully written, before the rename; no cleanup runs.
w.os.replace = lambda *a, **k: os._exit(9)
w.Warehouse(sys.argv[1]).write("tasks", [{"task_id": f"new{i}", "task_index": i} for i in range(1000)], run_id="run-1", part="batch-0")
"""


def test_a_crash_mid_write_leaves_no_visible_partial_part(wh: Warehouse) -> None:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CRASH), str(wh.root)], capture_output=True, text=True)
    assert proc.returncode == 9, proc.stderr
    run_dir = wh.root / "data" / "tasks" / f"run={RUN}"
    leftovers = list(run_dir.iterdir())
    assert len(leftovers) == 1 and leftovers[0].name.endswith(TEMP_SUFFIX) and leftovers[0].stat().st_size > 0
    assert not wh.has_part("tasks", RUN, "batch-0")
    assert _count(wh, "tasks") == 0

    # A crash while rewriting an existing part keeps the old part whole.
    wh.write("tasks", _tasks("old"), run_id=RUN, part="batch-0")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CRASH), str(wh.root)], capture_output=True, text=True)
    assert proc.returncode == 9, proc.stderr
    assert [r["task_id"] for r in wh.query("SELECT task_id FROM tasks")] == ["old"]

    assert wh.clean_temp_files(older_than_s=0) == 2
    assert [p.name for p in run_dir.iterdir()] == ["batch-0.parquet"]


def test_a_failed_write_cleans_its_temp_file(wh: Warehouse, monkeypatch: pytest.MonkeyPatch) -> None:
    import compoworld.warehouse as w

    def half_then_fail(table: object, f: io.BufferedWriter, **_: object) -> None:
        f.write(b"PAR1 half a parquet file")
        raise OSError("disk full")

    monkeypatch.setattr(w.pq, "write_table", half_then_fail)
    with pytest.raises(OSError, match="disk full"):
        wh.write("tasks", _tasks("t1"), run_id=RUN, part="p")
    assert list((wh.root / "data" / "tasks" / f"run={RUN}").iterdir()) == []


def test_temp_files_do_not_match_the_part_glob(wh: Warehouse) -> None:
    wh.write("tasks", _tasks("t1"), run_id=RUN, part="p")
    (wh.root / "data" / "tasks" / f"run={RUN}" / f".p.parquet.abc{TEMP_SUFFIX}").write_bytes(b"garbage, not parquet")
    assert _count(wh, "tasks") == 1


# -- stats and views -----------------------------------------------------------------------------------
def test_empty_warehouse_has_every_table_and_view_with_declared_columns(wh: Warehouse) -> None:
    assert wh.stats() == {t: 0 for t in TABLES}
    for name, spec in TABLES.items():
        result = wh.fetch(f"SELECT * FROM {name}")
        assert result.rows == [] and result.columns == spec.column_names
    for view in USER_VIEWS:
        result = wh.fetch(f"SELECT * FROM {view}")
        assert result.rows == [] and result.columns


def test_view_column_types_match_tables_sql(wh: Warehouse) -> None:
    ddl = duckdb.connect()
    ddl.execute((SQL_DIR / "tables.sql").read_text())
    con = wh.connect()
    for name in TABLES:
        declared = [(r[0], r[1]) for r in ddl.execute(f"DESCRIBE {name}").fetchall()]
        viewed = [(r[0], r[1]) for r in con.execute(f"DESCRIBE {name}").fetchall()]
        assert viewed == declared, name


def test_tables_sql_is_generated_from_the_code() -> None:
    assert (SQL_DIR / "tables.sql").read_text() == tables_sql()


def test_stats_counts_rows_per_table(wh: Warehouse) -> None:
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="a")
    wh.write("tasks", _tasks("t3"), run_id=RUN, part="b")
    wh.write("walks", [{"walk_id": "w1", "task_index": 0, "attempt": 0}], run_id=RUN, part="a")
    stats = wh.stats()
    assert stats["tasks"] == 3 and stats["walks"] == 1
    assert sum(stats.values()) == 4


def _scored_run(wh: Warehouse) -> np.ndarray:
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="tasks")
    wh.write(
        "rubric_criteria",
        [
            {"task_id": "t1", "criterion_id": "c2", "ordinal": 1, "kind": "goal", "service": "invoicing"},
            {"task_id": "t1", "criterion_id": "c1", "ordinal": 0, "kind": "goal", "service": "crm"},
        ],
        run_id=RUN,
        part="rubric",
    )
    agents = ["reference", "perturbed", "perturbed", "perturbed"]
    trajectories = [{"trajectory_id": f"r{i}", "task_id": "t1", "group_id": "g1", "agent": a} for i, a in enumerate(agents)]
    wh.write("trajectories", trajectories, run_id=RUN, part="traj")
    # rows: rollouts r0..r3; columns: criteria c1 (crm), c2 (invoicing)
    matrix = [[True, True], [True, False], [False, False], [True, False]]
    passed = {(f"r{i}", f"c{k + 1}"): p for i, row in enumerate(matrix) for k, p in enumerate(row)}
    wh.write(
        "criterion_results",
        [
            {
                "trajectory_id": t, "task_id": "t1", "group_id": "g1", "criterion_id": c, "kind": "goal",
                "service": "crm" if c == "c1" else "invoicing", "passed": p, "score": float(p),
            }
            for (t, c), p in passed.items()
        ],
        run_id=RUN,
        part="results",
    )
    rewards = np.array([1.0, 0.5, 0.0, 0.5])
    adv = (rewards - rewards.mean()) / rewards.std()
    wh.write(
        "rewards",
        [
            {"trajectory_id": f"r{i}", "group_id": "g1", "task_id": "t1", "reward_kind": "uniform", "reward": r, "advantage": a}
            for i, (r, a) in enumerate(zip(rewards, adv))
        ],
        run_id=RUN,
        part="rewards",
    )
    return rewards


def test_views_answer_rubric_pass_rate_and_reward_spread(wh: Warehouse) -> None:
    rewards = _scored_run(wh)

    rubric = wh.query("SELECT task_id, criterion_id FROM task_rubric ORDER BY task_id, ordinal")
    assert [(r["task_id"], r["criterion_id"]) for r in rubric] == [("t1", "c1"), ("t1", "c2")]
    per_task = {r["task_id"]: r for r in wh.query("SELECT * FROM tasks_with_rubric")}
    assert per_task["t1"]["n_criteria"] == 2 and [c["criterion_id"] for c in per_task["t1"]["rubric"]] == ["c1", "c2"]
    assert per_task["t2"]["n_criteria"] == 0 and per_task["t2"]["rubric"] == []

    by_service = {(r["agent"], r["service"]): r for r in wh.query("SELECT * FROM pass_rate_by_service")}
    assert by_service[("perturbed", "crm")]["pass_rate"] == pytest.approx(2 / 3)
    assert by_service[("perturbed", "invoicing")]["n_passed"] == 0
    assert by_service[("reference", "invoicing")]["pass_rate"] == 1.0
    [kind] = wh.query("SELECT * FROM pass_rate_by_kind WHERE agent = 'perturbed'")
    assert kind["kind"] == "goal" and kind["n_results"] == 6 and kind["pass_rate"] == pytest.approx(2 / 6)

    [spread] = wh.query("SELECT * FROM reward_spread")
    assert (spread["n_rollouts"], spread["reward_min"], spread["reward_max"]) == (4, 0.0, 1.0)
    assert spread["reward_std"] == pytest.approx(rewards.std())
    assert spread["advantage_std"] == pytest.approx(1.0)


# -- failures ------------------------------------------------------------------------------------------
def test_failures_lifecycle(wh: Warehouse) -> None:
    wh.record_failure("instantiate", "walk-1", TimeoutError("probe timed out"), attempts=1, run_id=RUN)
    wh.record_failure("instantiate", "walk-1", TimeoutError("probe timed out again"), attempts=3, run_id=RUN)
    wh.record_failure("instantiate", "walk/2 odd id", "no check fails on the initial state", attempts=1, run_id=RUN, reason="trivial_task")
    wh.record_failure("verify", "svc-a", ValueError("bad schema"), attempts=2, run_id=RUN)

    open_ = wh.failures()
    assert [(f["stage"], f["item_id"], f["attempts"]) for f in open_] == [
        ("instantiate", "walk-1", 3),  # re-recording the same item replaces its row
        ("instantiate", "walk/2 odd id", 1),
        ("verify", "svc-a", 2),
    ]
    assert open_[0]["reason"] == "TimeoutError" and open_[0]["error"] == "probe timed out again"
    assert [f["item_id"] for f in wh.failures(stage="verify")] == ["svc-a"]

    # The item fails in a second run too; a later success resolves it everywhere.
    wh.record_failure("instantiate", "walk-1", TimeoutError("still"), attempts=3, run_id="run-2")
    assert wh.resolve_failure("instantiate", "walk-1") == 2
    assert wh.resolve_failure("instantiate", "walk-1") == 0
    assert wh.resolve_failure("instantiate", "never-failed") == 0
    assert [f["item_id"] for f in wh.failures(stage="instantiate")] == ["walk/2 odd id"]
    history = wh.failures(stage="instantiate", unresolved_only=False)
    assert sorted((f["item_id"], f["run_id"], f["resolved"]) for f in history) == [
        ("walk-1", RUN, True),
        ("walk-1", "run-2", True),
        ("walk/2 odd id", RUN, False),
    ]

    by_stage = {(r["stage"], r["reason"]): r for r in wh.query("SELECT * FROM failures_by_stage")}
    timeouts = by_stage[("instantiate", "TimeoutError")]
    assert (timeouts["n_unresolved"], timeouts["n_resolved"]) == (0, 2)
    assert by_stage[("instantiate", "trivial_task")]["example_error"] == "no check fails on the initial state"
    assert by_stage[("verify", "ValueError")]["n_unresolved"] == 1


def test_resolve_failure_in_one_run_leaves_other_runs(wh: Warehouse) -> None:
    wh.record_failure("score", "t1", "boom", attempts=1, run_id="a")
    wh.record_failure("score", "t1", "boom", attempts=1, run_id="b")
    assert wh.resolve_failure("score", "t1", run_id="a") == 1
    assert [f["run_id"] for f in wh.failures()] == ["b"]


# -- output --------------------------------------------------------------------------------------------
ODD_ROWS = [
    {
        "name": "a", "n": 1, "x": Decimal("1.50"), "when": dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc),
        "day": dt.date(2025, 1, 2), "nested": {"k": [1, 2]}, "nan": float("nan"), "none": None,
    },
    {"name": "bb,\"q\"", "n": 22, "x": Decimal("3"), "when": None, "day": None, "nested": [], "nan": 0.25, "none": None},
]


def test_json_output_is_one_array_of_json_safe_rows() -> None:
    out = json.loads(format_json(ODD_ROWS))
    assert out[0] == {
        "name": "a", "n": 1, "x": 1.5, "when": "2025-01-02T03:04:05+00:00", "day": "2025-01-02",
        "nested": {"k": [1, 2]}, "nan": None, "none": None,
    }
    assert out[1]["x"] == 3 and out[1]["nan"] == 0.25


def test_csv_output_round_trips_through_a_csv_reader() -> None:
    parsed = list(csv.DictReader(io.StringIO(format_csv(ODD_ROWS))))
    assert parsed[0] == {
        "name": "a", "n": "1", "x": "1.5", "when": "2025-01-02T03:04:05+00:00", "day": "2025-01-02",
        "nested": '{"k": [1, 2]}', "nan": "", "none": "",
    }
    assert parsed[1]["name"] == 'bb,"q"'
    assert format_csv([], ["a", "b"]) == "a,b\n"


def test_table_output_is_aligned() -> None:
    text = format_table([{"name": "a", "n": 1, "v": None}, {"name": "long name", "n": 100, "v": True}])
    lines = text.splitlines()
    assert lines[0] == "name         n  v"
    assert lines[2] == "a            1  NULL"
    assert lines[3] == "long name  100  true"
    assert lines[-1] == "(2 rows)"
    assert format_table([], ["a", "bcd"]).splitlines() == ["a  bcd", "-  ---", "(0 rows)"]


def test_render_query_results_from_the_warehouse(wh: Warehouse) -> None:
    wh.write("tasks", _tasks("t1"), run_id=RUN, part="a")
    result = wh.fetch("SELECT task_id, n_criteria FROM tasks WHERE task_id = ?", ["t1"])
    assert result == QueryResult(["task_id", "n_criteria"], [{"task_id": "t1", "n_criteria": 2}])
    assert json.loads(render(result, "json")) == [{"task_id": "t1", "n_criteria": 2}]
    assert render(result, "csv") == "task_id,n_criteria\nt1,2\n"
    assert render(result).splitlines()[0].split() == ["task_id", "n_criteria"]
    # Same-named columns stay apart in row dicts.
    assert wh.fetch("SELECT 1 AS x, 2 AS x").rows == [{"x": 1, "x_2": 2}]


# -- location ------------------------------------------------------------------------------------------
def test_warehouse_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert resolve_warehouse_dir(None, None) == tmp_path / "warehouse"
    assert resolve_warehouse_dir(None, "from-config") == tmp_path / "from-config"
    monkeypatch.setenv(ENV_VAR, "/env/wh")
    assert resolve_warehouse_dir(None, "from-config") == Path("/env/wh")
    assert resolve_warehouse_dir("/cli/wh", "from-config") == Path("/cli/wh")


# -- complete parts ------------------------------------------------------------------------------------
def test_a_part_records_its_row_count_in_its_footer(wh: Warehouse) -> None:
    path = wh.write("tasks", _tasks("t1", "t2", "t3"), run_id=RUN, part="a")
    meta = pq.read_metadata(path)
    assert meta.metadata[ROW_COUNT_KEY] == b"3" and meta.num_rows == 3
    assert pq.read_metadata(wh.write("tasks", [], run_id=RUN, part="empty")).metadata[ROW_COUNT_KEY] == b"0"
    assert wh.has_part("tasks", RUN, "a") and wh.has_part("tasks", RUN, "empty")


def test_a_part_written_before_row_counts_is_still_complete(wh: Warehouse) -> None:
    path = wh.part_path("tasks", RUN, "old")
    path.parent.mkdir(parents=True)
    pq.write_table(to_arrow("tasks", _tasks("t1"), run_id=RUN), path)  # no count in the footer
    assert wh.has_part("tasks", RUN, "old") and wh.check() == [] and _count(wh, "tasks") == 1


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _wrong_count(path: Path) -> None:
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({ROW_COUNT_KEY: b"5"}), path)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_truncate, "unreadable Parquet footer"),
        (lambda p: p.write_bytes(b"PAR1 this is not parquet at all"), "unreadable Parquet footer"),
        (_wrong_count, "the footer holds 1 rows but 5 were written"),
    ],
)
def test_a_damaged_part_is_named_skipped_by_reads_and_treated_as_missing(
    wh: Warehouse, damage: Any, reason: str, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="good")
    bad = wh.write("tasks", [{"task_id": "t3", "task_index": 2}], run_id=RUN, part="bad")
    damage(bad)

    # Reads still work, without the damaged part, and say which part they left out.
    assert main(["sql", "SELECT task_id FROM tasks ORDER BY task_id", "--warehouse", str(wh.root), "--csv"]) == 0
    out, err = capsys.readouterr()
    assert out.split() == ["task_id", "t1", "t2"]
    assert f"warning: damaged part {bad} ({reason}" in err

    assert not wh.has_part("tasks", RUN, "bad")  # so the step that writes it runs again
    assert wh.has_part("tasks", RUN, "good")
    assert wh.stats()["tasks"] == 2
    [damaged] = wh.check()
    assert (damaged.table, damaged.run_id, damaged.path) == ("tasks", RUN, bad) and reason in damaged.reason
    with pytest.raises(WarehouseError, match="is damaged"):
        wh.read_part("tasks", RUN, "bad")

    assert main(["warehouse", "check", "--warehouse", str(wh.root)]) == 1
    out, _ = capsys.readouterr()
    assert f"damaged: tasks run={RUN} {bad}: {reason}" in out and "1 of 2 parts damaged" in out
    assert main(["warehouse", "check", "--warehouse", str(wh.root), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["parts"] == 2 and [d["path"] for d in report["damaged"]] == [str(bad)]

    # The retry rewrites the part: complete again, and the check is clean.
    wh.write("tasks", [{"task_id": "t3", "task_index": 2}], run_id=RUN, part="bad")
    assert wh.has_part("tasks", RUN, "bad") and wh.check() == [] and wh.stats()["tasks"] == 3
    assert main(["warehouse", "check", "--warehouse", str(wh.root)]) == 0
    assert capsys.readouterr().out.strip() == "2 parts checked, none damaged"


def test_reads_check_each_part_version_once(wh: Warehouse, monkeypatch: pytest.MonkeyPatch) -> None:
    import compoworld.warehouse as w

    for i in range(3):
        wh.write("tasks", _tasks(f"t{i}"), run_id=RUN, part=f"p{i}")
    reads: list[str] = []
    real = w.pq.read_metadata
    monkeypatch.setattr(w.pq, "read_metadata", lambda path, *a, **k: reads.append(str(path)) or real(path, *a, **k))
    wh.connect().close()
    first = len(reads)
    wh.connect().close()
    assert len(reads) == first  # unchanged parts: footers not read again
    wh.write("tasks", _tasks("t9"), run_id=RUN, part="p1")  # a rewrite is a new version
    assert _count(wh, "tasks") == 3 and reads[first:] == [str(wh.part_path("tasks", RUN, "p1"))]


def test_parts_are_readable_by_others(wh: Warehouse) -> None:
    path = wh.write("tasks", _tasks("t1"), run_id=RUN, part="a")
    assert path.stat().st_mode & 0o777 == 0o644


# -- read-only queries ---------------------------------------------------------------------------------
def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "query",
    [
        "COPY tasks TO '{part}'",
        "COPY (SELECT 1 AS x) TO '{outside}'",
        "EXPLAIN ANALYZE COPY tasks TO '{part}'",
        "SELECT 1; COPY tasks TO '{part}'",
        "WITH x AS (COPY tasks TO '{part}') SELECT 1",
        "WITH x AS (COPY (SELECT 1 AS x) TO '{outside}') SELECT * FROM tasks",
        "EXPLAIN ANALYZE WITH x AS (COPY tasks TO '{part}') SELECT 1",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_parquet('{outside_parquet}')",
        "SELECT * FROM read_text('{data}/../../hidden.txt')",
        "ATTACH '{outside_db}' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "PRAGMA enable_profiling",
        "CREATE TABLE x AS SELECT 1",
        "CREATE OR REPLACE VIEW tasks AS SELECT 1",
        "INSERT INTO tasks (task_id) VALUES ('x')",
        "DELETE FROM tasks",
        "EXPORT DATABASE '{outside_dir}'",
        "CALL pragma_version()",
    ],
)
def test_sql_refuses_anything_but_reading_the_warehouse(
    wh: Warehouse, tmp_path: Path, query: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wh.write("tasks", _tasks("t1"), run_id=RUN, part="a")
    outside = tmp_path / "outside"
    outside.mkdir()
    pq.write_table(to_arrow("tasks", _tasks("classified"), run_id=RUN), outside / "hidden.parquet")
    (tmp_path / "hidden.txt").write_text("classified")
    sql = query.format(part=wh.part_path("tasks", RUN, "evil"), data=wh.data_dir, outside=outside / "out.csv",
                       outside_parquet=outside / "hidden.parquet", outside_db=outside / "other.duckdb",
                       outside_dir=outside / "export")
    before, before_outside = _snapshot(wh.root), _snapshot(outside)

    assert main(["sql", sql, "--warehouse", str(wh.root)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "classified" not in err
    assert _snapshot(wh.root) == before and _snapshot(outside) == before_outside


@pytest.mark.parametrize(
    "query",
    [
        "SELECT count(*) AS n FROM tasks",
        "select count(*) as n from tasks;",
        "WITH t AS (SELECT * FROM tasks) SELECT count(*) AS n FROM t",
        "FROM tasks SELECT count(*) AS n",
        "  -- how many?\nSELECT count(*) AS n FROM tasks ;  ",
        "SELECT count(*) AS n FROM read_parquet('{data}/tasks/*/*.parquet')",
    ],
)
def test_sql_runs_read_statements(wh: Warehouse, query: str) -> None:
    wh.write("tasks", _tasks("t1", "t2"), run_id=RUN, part="a")
    assert wh.read_query(query.format(data=wh.data_dir)).rows == [{"n": 2}]


@pytest.mark.parametrize("query", ["DESCRIBE tasks", "SHOW TABLES", "SUMMARIZE tasks", "EXPLAIN SELECT * FROM tasks",
                                   "EXPLAIN ANALYZE SELECT count(*) FROM tasks"])
def test_sql_runs_inspection_statements(wh: Warehouse, query: str) -> None:
    wh.write("tasks", _tasks("t1"), run_id=RUN, part="a")
    assert wh.read_query(query).rows


def test_read_statement_uses_duckdbs_parser() -> None:
    with pytest.raises(UserError, match="refused: COPY"):
        read_statement("/* select */ COPY (SELECT 1) TO 'x.csv'")
    with pytest.raises(UserError, match="cannot parse the query"):
        read_statement("SELECT (")
    with pytest.raises(UserError, match="refused: the query holds a COPY"):
        read_statement("WITH x AS (COPY (SELECT 1) TO 'x.csv') SELECT 1")  # a SELECT statement that writes
    with pytest.raises(UserError, match="refused: the query holds a DELETE"):
        read_statement("WITH x AS (DELETE FROM tasks RETURNING *) SELECT 1")
    assert read_statement("SELECT 'COPY x TO y'").type.name == "SELECT"
    assert read_statement("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r")


# -- the warehouse must be there to be read ------------------------------------------------------------
READERS = [
    ["sql", "SELECT 1"],
    ["warehouse", "stats"],
    ["warehouse", "check"],
    ["tasks", "show", "t1"],
    ["datasets", "build"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize(("where", "problem"), [("missing", "(it does not exist)"), ("file", "is a file, not a folder")])
def test_reading_commands_need_a_warehouse(
    tmp_path: Path, command: list[str], where: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / where
    if where == "file":
        root.write_text("not a warehouse")
    assert main([*command, "--warehouse", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: no warehouse at {root}") and problem in err and len(err.strip().splitlines()) == 1
    assert where == "file" or not root.exists()  # reading never creates it


def test_require_existing_and_create(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="it does not exist"):
        Warehouse(tmp_path / "nope").require_existing()
    wh = Warehouse(tmp_path / "wh").create()
    assert wh.require_existing() is wh and wh.data_dir.is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="cannot make a warehouse at"):
        Warehouse(tmp_path / "file").create()


# -- one run at a time ---------------------------------------------------------------------------------
_HOLD = """
import sys
from compoworld.warehouse import Warehouse
with Warehouse(sys.argv[1]).lock(wait=False):
    print("held", flush=True)
    sys.stdin.readline()  # hold until the test closes our stdin
"""


def test_a_second_process_refuses_or_waits_for_the_lock(wh: Warehouse) -> None:
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(wh.root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert (wh.data_dir / LOCK_FILE).read_text().strip() == str(holder.pid)
        held = rf"another run holds the warehouse at {re.escape(str(wh.root))} \(pid {holder.pid}\)"
        with pytest.raises(UserError, match=rf"{held}; wait for it or use another --warehouse"):
            with wh.lock(wait=False):
                pass
        t0 = time.monotonic()
        with pytest.raises(UserError, match=rf"{held} and did not let go within 0.3 s"):
            with wh.lock(timeout_s=0.3):
                pass
        assert time.monotonic() - t0 >= 0.3

        assert holder.stdin is not None
        threading.Timer(0.5, holder.stdin.close).start()  # the holder lets go in half a second
        t0 = time.monotonic()
        with wh.lock(wait=True):
            waited = time.monotonic() - t0
            assert (wh.data_dir / LOCK_FILE).read_text().strip() == str(os.getpid())
        assert waited >= 0.3
        assert holder.wait(timeout=10) == 0
    finally:
        holder.kill()
        holder.wait()
    assert (wh.data_dir / LOCK_FILE).read_text() == ""  # released: no stale pid left behind
    with wh.lock(wait=False):  # and free for the next run
        pass


# -- service checks ------------------------------------------------------------------------------------
def test_skipped_service_checks_are_counted_apart(wh: Warehouse, capsys: pytest.CaptureFixture[str]) -> None:
    checks = [("a", True, "ok"), ("b", False, "get_x: returned another record"), ("c", False, "[skip] create: no arguments"),
              ("d", False, "[skip] filter: no usable field"), ("e", True, None)]
    wh.write("service_checks", [{"check_id": i, "service": "crm", "check_name": "smoke", "passed": p, "detail": d}
                                for i, p, d in checks], run_id=RUN, part="crm")
    assert wh.service_check_outcomes() == {"passed": 2, "failed": 1, "skipped": 2}
    assert wh.service_check_outcomes("other-run") == {"passed": 0, "failed": 0, "skipped": 0}

    assert main(["warehouse", "stats", "--warehouse", str(wh.root)]) == 0
    assert "service_checks: 5 (2 passed, 1 failed, 2 skipped)" in capsys.readouterr().out
    assert main(["warehouse", "stats", "--warehouse", str(wh.root), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["service_checks"] == 5
    assert (stats["service_checks_passed"], stats["service_checks_failed"], stats["service_checks_skipped"]) == (2, 1, 2)


def test_no_table_is_declared_that_nothing_writes() -> None:
    assert "llm_cache" not in TABLES and "llm_cache" not in (SQL_DIR / "views.sql").read_text()
