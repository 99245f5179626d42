"""Bad input on the command line: one line on stderr that says what is wrong and what to do, exit 2.

Each `Case` is one row of the README's "Bad input" table. The commands run in-process
(`compoworld.cli.main`) in a scratch folder holding the files the rows name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from compoworld.cli import main
from compoworld.warehouse import Warehouse


@dataclass(frozen=True)
class Case:
    command: str  # the command, as the README table names it
    bad_input: str  # what is wrong, in words
    argv: tuple[str, ...]  # relative paths name the files `scratch` makes
    phrase: str  # the error line must hold it


SQL = "sql"
CASES = [
    Case("compoworld", "no command", (), "the following arguments are required: command"),
    Case("compoworld", "unknown command", ("nope",), "invalid choice: 'nope'"),
    # sql
    Case(SQL, "malformed SQL", (SQL, "SELEC 1", "--warehouse", "wh"), "cannot parse the query"),
    Case(SQL, "unknown table", (SQL, "SELECT * FROM nope", "--warehouse", "wh"), "Table with name nope does not exist"),
    Case(SQL, "unknown column", (SQL, "SELECT nope FROM tasks", "--warehouse", "wh"), 'Referenced column "nope" not found'),
    Case(SQL, "no statement", (SQL, " ; ", "--warehouse", "wh"), "the query has no statement"),
    Case(SQL, "two statements", (SQL, "SELECT 1; SELECT 2", "--warehouse", "wh"), "the query has 2 statements"),
    Case(SQL, "a write: COPY TO a file", (SQL, "COPY tasks TO 'out.csv'", "--warehouse", "wh"), "refused: COPY is not a read statement"),
    Case(SQL, "a write hidden in WITH", (SQL, "WITH x AS (COPY tasks TO 'out.csv') SELECT 1", "--warehouse", "wh"),
         "refused: the query holds a COPY"),
    Case(SQL, "a write: INSERT", (SQL, "INSERT INTO tasks (task_id) VALUES ('x')", "--warehouse", "wh"), "refused: INSERT"),
    Case(SQL, "a write: CREATE", (SQL, "CREATE TABLE x AS SELECT 1", "--warehouse", "wh"), "refused: CREATE"),
    Case(SQL, "ATTACH a database", (SQL, "ATTACH 'other.duckdb' AS other", "--warehouse", "wh"), "refused: ATTACH"),
    Case(SQL, "INSTALL an extension", (SQL, "INSTALL httpfs", "--warehouse", "wh"), "refused: INSTALL/LOAD"),
    Case(SQL, "SET a setting", (SQL, "SET enable_external_access = true", "--warehouse", "wh"), "refused: SET"),
    Case(SQL, "PRAGMA", (SQL, "PRAGMA enable_profiling", "--warehouse", "wh"), "refused: PRAGMA"),
    Case(SQL, "EXPLAIN ANALYZE of a write", (SQL, "EXPLAIN ANALYZE COPY tasks TO 'out.csv'", "--warehouse", "wh"), "refused: COPY"),
    Case(SQL, "read a file outside the warehouse", (SQL, "SELECT * FROM read_csv('/etc/passwd')", "--warehouse", "wh"),
         'Cannot access file "/etc/passwd"'),
    Case(SQL, "missing warehouse", (SQL, "SELECT 1", "--warehouse", "nope"), "(it does not exist)"),
    Case(SQL, "warehouse path is a file", (SQL, "SELECT 1", "--warehouse", "notes.txt"), "is a file, not a folder"),
    # warehouse
    Case("warehouse stats", "missing warehouse", ("warehouse", "stats", "--warehouse", "nope"), "(it does not exist)"),
    Case("warehouse stats", "warehouse path is a file", ("warehouse", "stats", "--warehouse", "notes.txt"), "is a file, not a folder"),
    Case("warehouse check", "missing warehouse", ("warehouse", "check", "--warehouse", "nope"), "(it does not exist)"),
    Case("warehouse", "unknown subcommand", ("warehouse", "nope"), "invalid choice: 'nope'"),
    # services
    Case("services show", "unknown service", ("services", "show", "nope"), "unknown service 'nope'"),
    Case("services list", "bad --origin", ("services", "list", "--origin", "nope"), "argument --origin: invalid choice"),
    Case("serve-mcp", "unknown service", ("serve-mcp", "--services", "crm,nope"), "unknown service 'nope'"),
    Case("serve-mcp", "no service", ("serve-mcp", "--services", ","), "--services names no service"),
    # synth
    Case("synth", "missing --specs file", ("synth", "--specs", "nope.json"), "no spec file at nope.json"),
    Case("synth", "--specs file that is no spec", ("synth", "--specs", "notes.txt"), "no MCP server spec could be read"),
    # datasets
    Case("datasets build", "missing warehouse", ("datasets", "build", "--warehouse", "nope"), "(it does not exist)"),
    Case("datasets build", "warehouse without tasks", ("datasets", "build", "--warehouse", "wh"), "no tasks in the warehouse"),
    Case("datasets build", "bad --kind", ("datasets", "build", "--kind", "nope"), "argument --kind: invalid choice"),
    Case("datasets push", "nothing built", ("datasets", "push", "--kind", "sft", "--repo", "org/name", "--out", "nope"),
         "no sft dataset at"),
    # train
    Case("train sft", "missing --data", ("train", "sft", "--data", "nope", "--dry-run"), "no sft dataset at nope"),
    Case("train grpo", "bad --max-steps", ("train", "grpo", "--max-steps", "many"), "argument --max-steps: invalid int value"),
    # eval
    Case("eval", "unknown agent", ("eval", "--agent", "nonsense"), "unknown agent 'nonsense'"),
    Case("eval", "no agent", ("eval", "--warehouse", "wh"), "no agent to evaluate"),
    Case("eval", "missing warehouse", ("eval", "--agent", "reference", "--warehouse", "nope"), "(it does not exist)"),
    Case("eval", "warehouse without tasks", ("eval", "--agent", "reference", "--warehouse", "wh"), "no tasks in the warehouse"),
    Case("eval", "missing --checkpoint", ("eval", "--checkpoint", "nope"), "no checkpoint at nope"),
    Case("eval", "bad --test-fraction", ("eval", "--agent", "reference", "--test-fraction", "1", "--warehouse", "wh"),
         "test_fraction = 1.0 is invalid"),
    # the lead's commands
    Case("tasks show", "unknown task id", ("tasks", "show", "nope", "--warehouse", "wh"), "no task 'nope'"),
    Case("tasks show", "missing warehouse", ("tasks", "show", "t1", "--warehouse", "nope"), "(it does not exist)"),
    Case("tasks show", "warehouse path is a file", ("tasks", "show", "t1", "--warehouse", "notes.txt"), "is a file, not a folder"),
    Case("tasks generate", "warehouse path is a file", ("tasks", "generate", "--n", "1", "--warehouse", "notes.txt"),
         "notes.txt"),
    Case("tasks generate", "bad --services-from", ("tasks", "generate", "--services-from", "nope"),
         "argument --services-from: invalid choice"),
    Case("rollout", "unknown agent", ("rollout", "--agent", "nonsense"), "unknown agent 'nonsense'"),
    Case("rollout", "unknown task id", ("rollout", "--task-ids", "nope", "--warehouse", "wh"), "no task nope"),
    Case("run", "missing --config file", ("run", "--config", "nope.yaml"), "--config nope.yaml does not exist"),
    Case("run", "--config is a folder", ("run", "--config", "."), "is a folder, not a file"),
    Case("run", "config: unknown key", ("run", "--config", "bad-key.yaml"), "unknown key 'taskz'"),
    Case("run", "config: bad value", ("run", "--config", "bad-value.yaml"), "tasks = 0 is invalid"),
    Case("run", "config: not YAML", ("run", "--config", "bad-yaml.yaml"), "is not valid YAML"),
    Case("run", "config: not a mapping", ("run", "--config", "list.yaml"), "must be a mapping"),
    Case("run", "config: unknown agent", ("run", "--config", "bad-agent.yaml"), "unknown agents ['nonsense']"),
    Case("run", "bad --tasks", ("run", "--tasks", "0"), "tasks = 0 is invalid"),
    Case("run", "warehouse path is a file", ("run", "--warehouse", "notes.txt"), "notes.txt"),
    Case("retry-failed", "missing warehouse", ("retry-failed", "--warehouse", "nope"), "(it does not exist)"),
    Case("retry-failed", "unknown stage", ("retry-failed", "--stage", "nope", "--warehouse", "wh"), "'nope'"),
    Case("retry-failed", "missing --config file", ("retry-failed", "--config", "nope.yaml", "--warehouse", "wh"),
         "--config nope.yaml does not exist"),
    Case("deploy", "missing --config file", ("deploy", "--config", "nope.yaml"), "--config nope.yaml does not exist"),
    Case("deploy", "unknown flow", ("deploy", "--flows", "nope"), "unknown flow"),
]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a small warehouse (`wh`), a plain file and broken configs."""
    monkeypatch.chdir(tmp_path)
    Warehouse(tmp_path / "wh").write("runs", [{"flow": "pipeline", "status": "completed"}], run_id="run-1", part="run")
    (tmp_path / "notes.txt").write_text("not a warehouse, not a spec\n")
    (tmp_path / "bad-key.yaml").write_text("taskz: 3\n")
    (tmp_path / "bad-value.yaml").write_text("tasks: 0\n")
    (tmp_path / "bad-yaml.yaml").write_text("tasks: [1\n")
    (tmp_path / "list.yaml").write_text("- tasks\n- 3\n")
    (tmp_path / "bad-agent.yaml").write_text("agents: [reference, nonsense]\n")
    # Bad input must be refused before a run starts: reaching Prefect fails fast instead of running.
    def no_run(*_: Any, **__: Any) -> None:
        raise RuntimeError("reached the run: the bad input was not refused first")

    monkeypatch.setattr("compoworld.cli.pipeline._prefect_env", no_run)
    monkeypatch.setattr("compoworld.cli.pipeline._flows", no_run, raising=False)
    for name in ("PREFECT_API_URL", "PREFECT_HOME"):  # `deploy` sets these for the whole process
        monkeypatch.setenv(name, "unset")
        monkeypatch.delenv(name)
    return tmp_path


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse exits itself
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.command}: {c.bad_input}")
def test_bad_input_is_one_line_and_exit_2(case: Case, scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(list(case.argv), capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert case.phrase in lines[0], err


def test_bad_input_changes_nothing(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*"))
    for case in CASES:
        if case.command == SQL:
            run_cli(list(case.argv), capsys)
    assert sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*")) == before


# -- the other exits ---------------------------------------------------------------------------------
def _fail_with(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    def boom(args: Any) -> int:
        raise exc

    monkeypatch.setattr("compoworld.cli.services.cmd_list", boom)


def test_a_defect_is_one_line_exit_1_with_the_traceback_only_under_debug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COMPOWORLD_DEBUG", raising=False)
    _fail_with(monkeypatch, RuntimeError("the flux capacitor\nis off"))
    code, _, err = run_cli(["services", "list"], capsys)
    assert code == 1 and "Traceback" not in err
    assert err.strip() == "error: internal error: RuntimeError: the flux capacitor is off (run with --debug for the traceback)"

    code, _, err = run_cli(["--debug", "services", "list"], capsys)
    assert code == 1 and "Traceback" in err and err.strip().splitlines()[-1].startswith("error: internal error")

    monkeypatch.setenv("COMPOWORLD_DEBUG", "1")
    code, _, err = run_cli(["services", "list"], capsys)
    assert code == 1 and "Traceback" in err


def test_debug_shows_the_traceback_of_a_user_error_too(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["--debug", SQL, "SELEC 1", "--warehouse", "wh"], capsys)
    assert code == 2 and "Traceback" in err and "UserError" in err
    assert err.strip().splitlines()[-1].startswith("error: cannot parse the query")


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fail_with(monkeypatch, KeyboardInterrupt())
    code, _, err = run_cli(["services", "list"], capsys)
    assert code == 130 and err.startswith("error: interrupted") and "Traceback" not in err


def test_a_missing_file_compoworld_chose_is_a_defect_not_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, FileNotFoundError(2, "No such file or directory", os.path.join(os.sep, "opt", "missing.json")))
    code, _, err = run_cli(["services", "list"], capsys)
    assert code == 1 and err.startswith("error: internal error: FileNotFoundError")


def test_every_command_prints_its_help() -> None:
    # argparse formats help strings with %: a literal "{% generation %}" once crashed `train sft -h`.
    import argparse

    from compoworld.cli import build_parser

    def walk(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return [parser] + [p for s in subs for child in s.choices.values() for p in walk(child)]

    parsers = walk(build_parser())
    assert len(parsers) > 20
    for p in parsers:
        assert p.format_help().startswith("usage:"), p.prog
