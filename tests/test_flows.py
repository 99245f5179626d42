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

from compoworld.config import PipelineConfig, load_config
from compoworld.stages.base import RunContext, TransientError, is_transient, merge_into_part, persist
from compoworld.stages.items import range_part
from compoworld.stages.registry import get_stage
from compoworld.stages.runner import run_pipeline, run_stage
from compoworld.tasks.factory import Factory
from compoworld.warehouse import TABLES, Warehouse, content_hashes

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
    return (content_hashes(a, run_id, CONTENT) == content_hashes(b, run_id, CONTENT)
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

    assert is_transient(TransientError("x")) and is_transient(ConnectionResetError()) and is_transient(TimeoutError())
    assert is_transient(RateLimitError())
    assert not is_transient(ValueError("bad input")) and not is_transient(KeyError("k"))


def _walked(tmp: Path, name: str) -> RunContext:
    """A warehouse holding the small config's walk draws (what the instantiate stage reads)."""
    ctx = RunContext(load_config(None, {**SMALL, "batch_size": 4}), Warehouse(tmp / name))
    run_stage(get_stage("walks"), ctx, log=lambda m: None)
    return ctx


def test_a_retried_item_merged_later_gives_the_same_part_bytes(tmp_path: Path) -> None:
    stage = get_stage("instantiate")
    whole, pieces = _walked(tmp_path, "a"), _walked(tmp_path, "b")
    batch = stage.plan(whole)[0]
    items = batch.items
    persist(whole, batch.part, stage.run(whole, batch))
    persist(pieces, batch.part, stage.run(pieces, batch, only={items[0], items[3]}))
    merge_into_part(pieces, batch.part, stage.run(pieces, batch, only={items[2], items[1]}))
    for table in stage.tables:
        a, b = whole.wh.part_path(table, whole.run_id, batch.part), pieces.wh.part_path(table, pieces.run_id, batch.part)
        assert a.read_bytes() == b.read_bytes(), table


def _break_index(monkeypatch: pytest.MonkeyPatch, index: int, exc: BaseException, times: int | None = None) -> list[int]:
    """Make the factory raise `exc` when it designs task `index` (`times` times, or always); returns
    the indexes it was asked to design."""
    real, calls = Factory.make, []

    def make(self: Factory, i: int, draws: Any = None) -> Any:
        calls.append(i)
        if i == index and (times is None or calls.count(i) <= times):
            raise exc
        return real(self, i, draws)

    monkeypatch.setattr(Factory, "make", make)
    return calls


def test_an_error_in_one_design_does_not_stop_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _walked(tmp_path, "wh")
    stage = get_stage("instantiate")
    batch = stage.plan(ctx)[0]
    clean = stage.run(ctx, batch)
    _break_index(monkeypatch, 1, ValueError("boom"))
    out = stage.run(ctx, batch)
    assert [(f.item_id, f.reason) for f in out.failures if f.retryable] == [("task-0-1", "ValueError")]
    index_of = {r["task_id"]: r["task_index"] for r in clean.tables["tasks"]}
    assert {r["task_id"] for r in out.tables["tasks"]} == {t for t, i in index_of.items() if i != 1}
    assert {i for i in index_of.values()} & {2, 3}


def test_transient_errors_escape_the_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _walked(tmp_path, "wh")
    stage = get_stage("instantiate")
    _break_index(monkeypatch, 0, TransientError("connection dropped"))
    with pytest.raises(TransientError):
        stage.run(ctx, stage.plan(ctx)[0])


def test_instantiate_reads_the_stored_walks(tmp_path: Path) -> None:
    """Tasks are designed from the walk draws on record: each task names the draw it instantiates,
    and without the walks part the items fail as retryable (not as rejections)."""
    ctx = _walked(tmp_path, "wh")
    stage = get_stage("instantiate")
    batch = stage.plan(ctx)[0]
    out = stage.run(ctx, batch)
    walks = {r["walk_id"]: r for r in ctx.wh.read_part("walks", ctx.run_id, range_part("walks", 0, 4))}
    for row in out.tables["tasks"]:
        assert walks[row["walk_id"]]["task_index"] == row["task_index"]
    bare = RunContext(ctx.cfg, Warehouse(tmp_path / "bare"))
    missing = stage.run(bare, batch)
    assert missing.tables["tasks"] == [] and {f.reason for f in missing.failures} == {"missing_walks"}
    assert all(f.retryable for f in missing.failures)


# -- flows in this process ----------------------------------------------------------------------------
def test_flows_write_what_the_plain_chain_writes_and_rerun_from_cache(reference: tuple[Warehouse, PipelineConfig],
                                                                     tmp_path: Path, prefect_home: None) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    plain = Warehouse(tmp_path / "plain")
    run_pipeline(cfg.model_copy(update={"datasets_dir": str(tmp_path / "ds")}), plain, log=lambda m: None)
    assert content_hashes(plain, cfg.run_id, CONTENT) == content_hashes(ref_wh, cfg.run_id, CONTENT)
    assert content_hashes(ref_wh, cfg.run_id, ["rewards"]) != content_hashes(Warehouse(tmp_path / "empty"), cfg.run_id, ["rewards"])

    before = content_hashes(ref_wh, cfg.run_id)
    parts = {p: p.stat().st_mtime_ns for p in ref_wh.data_dir.glob("*/*/*.parquet") if not p.parts[-3] in ("runs", "datasets")}
    again = pipeline_flow(warehouse=str(ref_wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    for stage in ("graph", "walks", "instantiate", "collect", "score"):
        s = again["stages"][stage]
        assert s["cached"] == s["batches"] > 0, (stage, s)
    assert content_hashes(ref_wh, cfg.run_id) == before
    # A cached batch writes nothing.
    assert {p: p.stat().st_mtime_ns for p in parts} == parts


def test_a_deleted_part_is_recomputed_despite_the_cache(reference: tuple[Warehouse, PipelineConfig], prefect_home: None) -> None:
    from flows.stage import stage_flow

    wh, cfg = reference
    before = content_hashes(wh, cfg.run_id, ["trajectories", "criterion_results"])
    victim = wh.part_path("trajectories", cfg.run_id, range_part("collect", 2, 4, "perturbed"))
    victim.unlink()
    totals = stage_flow(stage="collect", warehouse=str(wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    assert totals["cached"] == totals["batches"] - 1
    assert victim.is_file()
    assert content_hashes(wh, cfg.run_id, ["trajectories", "criterion_results"]) == before


def test_a_truncated_part_is_reported_then_recomputed_by_a_rerun(reference: tuple[Warehouse, PipelineConfig],
                                                                 prefect_home: None) -> None:
    """A part cut short (a disk filled up, a copy interrupted) is named by `check`, reads skip it, and
    the next run recomputes it whatever the cache says: the same content as a clean run."""
    from flows.pipeline import pipeline_flow

    wh, cfg = reference
    before = content_hashes(wh, cfg.run_id, CONTENT)
    victim = wh.part_path("tasks", cfg.run_id, range_part("instantiate", 2, 4))
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    assert [d.path for d in wh.check()] == [victim]
    assert not wh.has_part("tasks", cfg.run_id, range_part("instantiate", 2, 4))
    pipeline_flow(warehouse=str(wh.root), overrides=small(Path(cfg.datasets_dir).parent))
    assert wh.check() == []
    assert content_hashes(wh, cfg.run_id, CONTENT) == before


def test_a_transient_failure_is_retried_and_succeeds(reference: tuple[Warehouse, PipelineConfig], tmp_path: Path,
                                                     prefect_home: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.pipeline import pipeline_flow

    ref_wh, cfg = reference
    calls = _break_index(monkeypatch, 3, ConnectionResetError("connection reset by peer"), times=1)
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
    ref_tasks = {r["task_id"] for r in ref_wh.query("SELECT task_id FROM tasks")}
    _break_index(monkeypatch, 3, ValueError("the designer cannot read this world"))
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
    assert content_hashes(killed, cfg.run_id, ["failures"]) == content_hashes(whole, cfg.run_id, ["failures"])
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
