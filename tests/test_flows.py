"""The factory as Prefect flows: same rows as the plain chain, cached, retried, resumable.

Every flow here runs on a small config (6 tasks, groups of 2, batches of 2 indexes). In-process
flow runs share one ephemeral Prefect API whose home is a temp dir; the CLI runs in subprocesses
keep Prefect's state under their warehouse (the default).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from compoworld import pipeline as P
from compoworld.config import PipelineConfig, load_config
from compoworld.tasks.model import Task
from compoworld.warehouse import TABLES, Warehouse

ROOT = Path(__file__).resolve().parents[1]
SMALL: dict[str, Any] = {"services_from": "library", "tasks": 6, "group_size": 2, "batch_size": 2, "agents": ["reference", "perturbed"],
                         "stages": {"verify": False, "datasets": True}, "retries": 2, "retry_backoff_s": 0.0}
# Tables whose content the pipeline decides; `runs` holds wall-clock times, `failures` what went wrong.
CONTENT = [t for t in TABLES if t not in ("runs", "failures", "datasets")]
CLI = [sys.executable, "-c", "import sys; from compoworld.cli import main; sys.exit(main())"]


def same_content(a: Warehouse, b: Warehouse, run_id: str) -> bool:
    """Equal rows in every content table; datasets compared by their content ids (their cards also
    quote the code version, which moves when the tree is edited between two runs)."""
    sql = "SELECT kind, split, n_rows, dataset_id FROM datasets WHERE run_id = ? ORDER BY ALL"
    return (P.content_hashes(a, run_id, CONTENT) == P.content_hashes(b, run_id, CONTENT)
            and a.query(sql, [run_id]) == b.query(sql, [run_id]))


def small(tmp: Path, **extra: Any) -> dict[str, Any]:
    return {**SMALL, "datasets_dir": str(tmp / "datasets"), **extra}


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1", **extra)
    return env


def write_config(path: Path, body: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(body))
    return path


def raw_and_view_counts(wh: Warehouse) -> dict[str, tuple[int, int]]:
    """Rows in the parquet files themselves vs. rows the views show: equal means no duplicates."""
    out = {}
    views = wh.stats()
    for t in TABLES:
        files = sorted((wh.data_dir / t).glob("*/*.parquet"))
        raw = duckdb.sql(f"SELECT count(*) FROM read_parquet({[str(f) for f in files]})").fetchall()[0][0] if files else 0
        out[t] = (raw, views[t])
    return out


@pytest.fixture(scope="module")
def prefect_home(tmp_path_factory: pytest.TempPathFactory):
    from prefect.settings import (
        PREFECT_HOME,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        temporary_settings,
    )

    with temporary_settings({PREFECT_HOME: str(tmp_path_factory.mktemp("prefect-home")),
                             PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS: 120, "flows.heartbeat_frequency": None}):
        yield
    from prefect.server.api.server import SubprocessASGIServer

    SubprocessASGIServer().stop()  # now, while pytest still captures its log line (not at exit)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, prefect_home: None) -> tuple[Warehouse, PipelineConfig]:
    """A clean, uninterrupted flow run of the small config: what every other run must equal."""
    from flows.pipeline import pipeline_flow

    tmp = tmp_path_factory.mktemp("reference")
    wh = Warehouse(tmp / "wh")
    result = pipeline_flow(warehouse=str(wh.root), overrides=small(tmp))
    assert result["tasks"] > 0 and result["stats"]["rewards"] > 0
    return wh, load_config(None, small(tmp))


# -- pure pieces --------------------------------------------------------------------------------------
def test_run_id_depends_on_what_is_made_not_how() -> None:
    base = load_config(None, SMALL)
    assert load_config(None, {**SMALL, "task_runner": "dask", "workers": 4, "retries": 0}).run_id == base.run_id
    assert load_config(None, {**SMALL, "tasks": 7}).run_id != base.run_id
    assert load_config(None, {**SMALL, "seed": 1}).run_id != base.run_id


def test_transient_errors_are_told_apart() -> None:
    class RateLimitError(Exception):  # LiteLLM's, matched by name
        pass

    assert P.is_transient(P.TransientError("x")) and P.is_transient(ConnectionResetError()) and P.is_transient(TimeoutError())
    assert P.is_transient(RateLimitError())
    assert not P.is_transient(ValueError("bad input")) and not P.is_transient(KeyError("k"))


def test_a_retried_item_merged_later_gives_the_same_part_bytes(tmp_path: Path) -> None:
    cfg = load_config(None, SMALL)
    part = P.batch_part("instantiate", 0, 4)
    whole, pieces = Warehouse(tmp_path / "a"), Warehouse(tmp_path / "b")
    P.persist(whole, cfg.run_id, part, P.instantiate(cfg, range(4)), cfg.digest())
    P.persist(pieces, cfg.run_id, part, P.instantiate(cfg, [0, 3]), cfg.digest())
    P.merge_into_part(pieces, cfg.run_id, part, P.instantiate(cfg, [2, 1]), cfg.digest())
    for table in P.STAGE_TABLES["instantiate"]:
        a, b = whole.part_path(table, cfg.run_id, part), pieces.part_path(table, cfg.run_id, part)
        assert a.read_bytes() == b.read_bytes(), table


def test_an_error_in_one_design_does_not_stop_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = load_config(None, SMALL)
    clean = P.instantiate(cfg, range(4))
    real = P.design_one

    def broken(c: PipelineConfig, index: int) -> Any:
        if index == 1:
            raise ValueError("boom")
        return real(c, index)

    monkeypatch.setattr(P, "design_one", broken)
    out = P.instantiate(cfg, range(4))
    assert [(f.item_id, f.reason) for f in out.failures if f.retryable] == [("task-0-1", "ValueError")]
    # The designer's generator died with the error; the indexes after it still get their tasks.
    index_of = {r["task_id"]: P.task_index(Task.model_validate(r["task_json"])) for r in clean.tables["tasks"]}
    assert {r["task_id"] for r in out.tables["tasks"]} == {t for t, i in index_of.items() if i != 1}
    assert {i for i in index_of.values()} & {2, 3}


def test_transient_errors_escape_the_batch() -> None:
    cfg = load_config(None, SMALL)

    def flaky(c: PipelineConfig, index: int) -> Any:
        raise P.TransientError("connection dropped")

    import unittest.mock

    with unittest.mock.patch.object(P, "design_one", flaky), pytest.raises(P.TransientError):
        P.instantiate(cfg, range(2))


# -- flows in this process ----------------------------------------------------------------------------
def test_flows_write_what_the_plain_chain_writes_and_rerun_from_cache(reference: tuple[Warehouse, PipelineConfig],
                                                                     tmp_path: Path, prefect_home: None) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    plain = Warehouse(tmp_path / "plain")
    P.run_pipeline(cfg.model_copy(update={"datasets_dir": str(tmp_path / "ds")}), plain, log=lambda m: None)
    assert P.content_hashes(plain, cfg.run_id, CONTENT) == P.content_hashes(ref_wh, cfg.run_id, CONTENT)
    assert P.content_hashes(ref_wh, cfg.run_id, ["rewards"]) != P.content_hashes(Warehouse(tmp_path / "empty"), cfg.run_id, ["rewards"])

    before = P.content_hashes(ref_wh, cfg.run_id)
    parts = {p: p.stat().st_mtime_ns for p in ref_wh.data_dir.glob("*/*/*.parquet") if not p.parts[-3] in ("runs", "datasets")}
    again = pipeline_flow(warehouse=str(ref_wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    for stage in ("sample_walks", "instantiate", "collect", "score"):
        s = again["stages"][stage]
        assert s["cached"] == s["batches"] > 0, (stage, s)
    assert P.content_hashes(ref_wh, cfg.run_id) == before
    # A cached batch writes nothing.
    assert {p: p.stat().st_mtime_ns for p in parts} == parts


def test_a_deleted_part_is_recomputed_despite_the_cache(reference: tuple[Warehouse, PipelineConfig], prefect_home: None) -> None:
    from flows.collect import collect_flow

    wh, cfg = reference
    before = P.content_hashes(wh, cfg.run_id, ["trajectories", "criterion_results"])
    victim = wh.part_path("trajectories", cfg.run_id, P.batch_part("collect", 2, 4, "perturbed"))
    victim.unlink()
    totals = collect_flow(warehouse=str(wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    assert totals["cached"] == totals["batches"] - 1
    assert victim.is_file()
    assert P.content_hashes(wh, cfg.run_id, ["trajectories", "criterion_results"]) == before


def test_a_transient_failure_is_retried_and_succeeds(reference: tuple[Warehouse, PipelineConfig], tmp_path: Path,
                                                     prefect_home: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    real, calls = P.design_one, []

    def flaky(c: PipelineConfig, index: int) -> Any:
        calls.append(index)
        if index == 3 and calls.count(3) == 1:
            raise ConnectionResetError("connection reset by peer")
        return real(c, index)

    monkeypatch.setattr(P, "design_one", flaky)
    wh = Warehouse(tmp_path / "wh")
    result = pipeline_flow(warehouse=str(wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    assert calls.count(3) == 2 and calls.count(2) == 2 and calls.count(0) == 1  # the batch of index 3 ran twice
    assert result["stages"]["instantiate"]["batch_errors"] == 0
    assert [f for f in wh.failures() if f["reason"] != "rejected_probe"] == []
    assert same_content(wh, ref_wh, cfg.run_id)


def test_a_permanent_failure_is_recorded_then_retry_failed_fixes_it(reference: tuple[Warehouse, PipelineConfig], tmp_path: Path,
                                                                    prefect_home: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    real = P.design_one
    ref_tasks = {r["task_id"] for r in ref_wh.query("SELECT task_id FROM tasks")}

    def broken(c: PipelineConfig, index: int) -> Any:
        if index == 3:
            raise ValueError("the designer cannot read this world")
        return real(c, index)

    monkeypatch.setattr(P, "design_one", broken)
    wh = Warehouse(tmp_path / "wh")
    result = pipeline_flow(warehouse=str(wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    failed = [f for f in wh.failures() if f["reason"] == "ValueError"]
    assert [(f["stage"], f["item_id"], f["attempts"], f["resolved"]) for f in failed] == [("instantiate", "task-0-3", 1, False)]
    assert result["stages"]["instantiate"]["batch_errors"] == 0  # one item failed, its batch did not
    got = {r["task_id"] for r in wh.query("SELECT task_id FROM tasks")}
    assert got < ref_tasks and len(ref_tasks - got) == 1  # the rest went on
    assert wh.query("SELECT count(DISTINCT task_id) AS n FROM trajectories")[0]["n"] == len(got)

    # The cause is gone in a fresh process: retry only what failed, and carry it downstream.
    proc = subprocess.run([*CLI, "retry-failed", "--warehouse", str(wh.root), "--json"], check=False,
                          capture_output=True, text=True, env=cli_env(), cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["retried"] == 1 and report["resolved"] == 1 and report["still_failing"] == 0
    row = wh.query("SELECT * FROM failures WHERE item_id = 'task-0-3'")[0]
    assert row["resolved"] and row["reason"] == "ValueError"
    assert same_content(wh, ref_wh, cfg.run_id)
    assert all(raw == view for raw, view in raw_and_view_counts(wh).values())


# -- whole processes ----------------------------------------------------------------------------------
@pytest.mark.integration
def test_killed_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    """SIGKILL the `compoworld run` process group mid-run, run again: same rows, same hashes, no duplicates."""
    body = {**SMALL, "tasks": 24, "batch_size": 3, "group_size": 4, "datasets_dir": str(tmp_path / "datasets"),
            "stages": {"verify": True, "datasets": True}}
    config = write_config(tmp_path / "cfg.yaml", body)
    cfg = load_config(config)
    run = [*CLI, "run", "--config", str(config), "--warehouse"]

    whole = Warehouse(tmp_path / "whole")
    subprocess.run([*run, str(whole.root)], check=True, capture_output=True, env=cli_env(), cwd=ROOT, timeout=600)

    killed = Warehouse(tmp_path / "killed")
    proc = subprocess.Popen([*run, str(killed.root)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=cli_env(), cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 300
    try:
        # Kill once some rollouts are written and the run is mid-stage.
        while time.monotonic() < deadline and len(list((killed.data_dir / "trajectories").glob("*/*.parquet"))) < 3:
            assert proc.poll() is None, "the run finished before it could be killed"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: the run and its local Prefect API
        proc.wait()
    partial = killed.stats()
    assert 0 < partial["trajectories"] < whole.stats()["trajectories"]

    subprocess.run([*run, str(killed.root)], check=True, capture_output=True, env=cli_env(), cwd=ROOT, timeout=600)
    assert killed.stats() == whole.stats()
    assert same_content(killed, whole, cfg.run_id)
    assert P.content_hashes(killed, cfg.run_id, ["failures"]) == P.content_hashes(whole, cfg.run_id, ["failures"])
    assert all(raw == view for raw, view in raw_and_view_counts(killed).values()), raw_and_view_counts(killed)


@pytest.mark.integration
def test_the_same_pipeline_on_a_local_dask_cluster(reference: tuple[Warehouse, PipelineConfig], tmp_path: Path,
                                                   prefect_home: None) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    wh = Warehouse(tmp_path / "wh")
    result = pipeline_flow(warehouse=str(wh.root),
                           overrides=small(Path(cfg.datasets_dir).parent, task_runner="dask", workers=2))
    assert result["run_id"] == cfg.run_id
    assert same_content(wh, ref_wh, cfg.run_id)
    assert wh.stats() == ref_wh.stats()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the Prefect server exited"
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"no Prefect server at {url}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.integration
def test_deployments_served_to_a_real_server_run_from_the_api(tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/api"
    env = cli_env(PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_API_URL=url,
                  PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="120")
    config = write_config(tmp_path / "cfg.yaml", small(tmp_path))
    wh = Warehouse(tmp_path / "wh")
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - outlives the Popen calls, closed in finally
    server = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path, start_new_session=True)
    served = None
    try:
        _wait_healthy(url, server)
        served = subprocess.Popen([*CLI, "deploy", "--config", str(config),
                                   "--warehouse", str(wh.root)], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
                                  start_new_session=True)
        from prefect.client.orchestration import get_client
        from prefect.deployments import run_deployment
        from prefect.settings import PREFECT_API_URL, temporary_settings

        with temporary_settings({PREFECT_API_URL: url}):
            with get_client(sync_client=True) as client:
                deadline = time.monotonic() + 120
                names: set[str] = set()
                while time.monotonic() < deadline and len(names) < 10:
                    assert served.poll() is None, (tmp_path / "server.log").read_text()[-3000:]
                    names = {d.name for d in client.read_deployments()}
                    time.sleep(0.5)
                assert {"compoworld-pipeline", "compoworld-retry-failed", "compoworld-instantiate"} <= names
                pipeline = client.read_deployment_by_name("pipeline/compoworld-pipeline")
                assert pipeline.schedules and pipeline.schedules[0].schedule.cron == "0 2 * * *"
            flow_run = run_deployment("pipeline/compoworld-pipeline", timeout=600, poll_interval=2)
        assert flow_run.state is not None and flow_run.state.is_completed(), (flow_run.state, (tmp_path / "server.log").read_text()[-3000:])
        stats = wh.stats()
        assert stats["tasks"] > 0 and stats["rewards"] > 0 and stats["runs"] == 1
    finally:
        if served is not None:
            _stop(served)
        _stop(server)
        log.close()
    assert server.poll() is not None
