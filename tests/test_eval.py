"""Evaluation: held-out tasks, figures, the `evaluations` / `evaluation_results` rows, the `training_jobs`
row of a training job and its link to the evaluation of its checkpoint."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_hub

from compoworld.cli import main
from compoworld.datasets.build import SPLIT_SALT
from compoworld.datasets.source import load_source
from compoworld.datasets.splits import set_key
from compoworld.evaluation import EvalOptions, evaluate
from compoworld.evaluation.evaluate import split_tasks
from compoworld.evaluation.figures import UNLABELLED, figures
from compoworld.rollout.agents import make_agent
from compoworld.rollout.runner import collect
from compoworld.training.launcher import job_row
from compoworld.training.spec import DataRef, make_spec
from compoworld.warehouse import Warehouse, read_evaluations, read_training_job, write_training_job


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, Path, str]:
    return build_hub(tmp_path_factory.mktemp("wh"), tasks=24)


def _eval_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["eval", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_test_split_holds_out_service_sets(built: tuple[Warehouse, Path, str]) -> None:
    wh, hub, run_id = built
    test = split_tasks(wh, "test", 0.1, run_id)
    train = split_tasks(wh, "train", 0.1, run_id)
    assert test and train and len(test) + len(train) == len(load_source(wh, run_id).tasks)
    keys = lambda ts: {set_key("sel", t.services) for t in ts} | {set_key("env", t.environment_services) for t in ts}  # noqa: E731
    assert not keys(test) & keys(train)
    # The same tasks the datasets put in their test split (built with the same rule and salt).
    manifest = json.loads((hub / "rl" / "compoworld.json").read_text())
    assert manifest["split_rule"]["salt"] == SPLIT_SALT and manifest["splits"]["test"]["tasks"] == len(test)


def test_reference_eval_rows_and_rerun(built: tuple[Warehouse, Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    wh, _, _ = built
    out = _eval_cli(["--agent", "reference", "--warehouse", str(wh.root)], capsys)
    figs = out["figures"]
    assert out["success_rate"] == 1.0 and out["mean_partial_credit"] == 1.0
    assert all(v["pass_rate"] == 1.0 for v in figs["by_criterion_kind"].values())
    again = _eval_cli(["--agent", "reference", "--warehouse", str(wh.root)], capsys)
    assert again["evaluation_id"] == out["evaluation_id"]
    rows = wh.query("SELECT * FROM evaluations WHERE agent = 'reference'")
    assert len(rows) == 1 and rows[0]["success_rate"] == 1.0 and rows[0]["split"] == "test"
    results = wh.query("SELECT * FROM evaluation_results WHERE evaluation_id = ?", [out["evaluation_id"]])
    assert len(results) == out["n_tasks"] and all(r["success"] and r["last_message"] for r in results)
    labels = [json.loads(r["capabilities_json"]) or [UNLABELLED] for r in results]  # a rollout counts under each label
    assert figs["by_capability"] == {label: {"rollouts": sum(label in ls for ls in labels), "success_rate": 1.0,
                                             "mean_partial_credit": 1.0} for label in sorted({x for ls in labels for x in ls})}


def test_perturbed_figures_match_the_rows(built: tuple[Warehouse, Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    wh, _, _ = built
    out = _eval_cli(["--agent", "perturbed", "--group-size", "4", "--discover-mode", "gateway",
                     "--warehouse", str(wh.root)], capsys)
    results = wh.query("SELECT * FROM evaluation_results WHERE evaluation_id = ?", [out["evaluation_id"]])
    assert len(results) == 4 * out["n_tasks"]
    success = sum(r["success"] for r in results) / len(results)
    # The perturbed policy does not pass everything, and its rollouts differ (seeded): on the one or two
    # held-out tasks of this small run it may fail every rollout, but not all in the same way.
    credits = [r["partial_credit"] for r in results]
    assert success < 1.0 and len(set(credits)) > 1 and 0.0 < sum(credits) / len(credits) < 1.0
    assert out["success_rate"] == round(success, 4)
    assert out["mean_partial_credit"] == round(sum(r["partial_credit"] for r in results) / len(results), 4)
    criteria = [c for r in results for c in json.loads(r["criteria_json"])]
    for kind, v in out["figures"]["by_criterion_kind"].items():
        of_kind = [c["passed"] for c in criteria if c["kind"] == kind]
        assert v == {"criteria": len(of_kind), "pass_rate": round(sum(of_kind) / len(of_kind), 4)}
    assert sum(v["criteria"] for v in out["figures"]["by_service"].values()) == len(criteria)
    # Gateway: each rollout discovered its tools; its service calls are the direct twin's plus one failed
    # call per discovery slip, so what is left of its steps is the discovery share.
    direct = _eval_cli(["--agent", "perturbed", "--group-size", "4", "--warehouse", str(wh.root)], capsys)
    twins = {(r["task_id"], r["rollout_index"]): r for r in
             wh.query("SELECT * FROM evaluation_results WHERE evaluation_id = ?", [direct["evaluation_id"]])}
    assert all(r["n_steps"] > twins[(r["task_id"], r["rollout_index"])]["n_steps"] for r in results)
    steps = sum(r["n_steps"] for r in results)
    discovery = steps - sum(t["n_steps"] for t in twins.values()) - (out["figures"]["failed_calls"] - direct["figures"]["failed_calls"])
    assert discovery > 0 and out["figures"]["discovery_share"] == round(discovery / steps, 4)
    stored = read_evaluations(wh)
    assert {e["evaluation_id"] for e in stored} >= {out["evaluation_id"]}
    assert next(e for e in stored if e["evaluation_id"] == out["evaluation_id"])["figures_json"] == out["figures"]


def test_pass_rates_per_capability(built: tuple[Warehouse, Path, str]) -> None:
    wh, _, run_id = built
    tasks = split_tasks(wh, "train", 0.1, run_id)[:3]
    labelled = [t.model_copy(update={"capabilities": labels}) for t, labels in zip(tasks, [["lookup", "stale_value"], ["lookup"], []])]
    trajectories = collect(labelled, make_agent("reference"), group_size=1)
    trajectories[1] = trajectories[1].model_copy(update={"success": False, "partial_credit": 0.5})
    got = figures(trajectories, {t.id: t for t in labelled})["by_capability"]
    assert got == {"lookup": {"rollouts": 2, "success_rate": 0.5, "mean_partial_credit": 0.75},
                   "stale_value": {"rollouts": 1, "success_rate": 1.0, "mean_partial_credit": 1.0},
                   UNLABELLED: {"rollouts": 1, "success_rate": 1.0, "mean_partial_credit": 1.0}}


def test_evaluation_id_depends_on_what_is_evaluated(built: tuple[Warehouse, Path, str]) -> None:
    wh, _, _ = built
    a = evaluate(wh, "reference", EvalOptions(n_tasks=1), record=False)
    assert a["evaluation_id"] == evaluate(wh, "reference", EvalOptions(n_tasks=1), record=False)["evaluation_id"]
    assert a["evaluation_id"] != evaluate(wh, "reference", EvalOptions(n_tasks=1, seed=1), record=False)["evaluation_id"]
    assert a["evaluation_id"] != evaluate(wh, "perturbed", EvalOptions(n_tasks=1), record=False)["evaluation_id"]


def test_job_row_of_each_outcome(built: tuple[Warehouse, Path, str], tmp_path: Path) -> None:
    wh, hub, run_id = built
    data = DataRef(path=str(hub / "sft"), dataset_id="ds_x", run_id=run_id)
    spec = make_spec("sft", data, tmp_path, hyperparameters={"max_steps": 2})
    started = job_row(spec, {"job_id": spec.job_id, "pid": 1})
    assert started["status"] == "started" and started["losses_json"] == [] and started["dataset_id"] == "ds_x"
    failed = job_row(spec, {"returncode": 2, "error": "rows do not fit"})
    assert failed["status"] == "failed" and failed["error"] == "rows do not fit" and failed["model_dir"] is None
    result = {"losses": [{"step": 1, "loss": 3.0}, {"step": 2, "loss": 2.0}], "loss_first": 3.0, "loss_last": 2.0,
              "seconds": 4.5, "step_seconds": [2.0, 2.1], "model_dir": str(spec.job_dir / "model")}
    done = job_row(spec, {"returncode": 0, "result": result})
    assert done["status"] == "completed" and done["loss_last"] == 2.0 and done["learning_rate"] == 3e-3
    write_training_job(wh, started)
    write_training_job(wh, done)  # the same job again: its row is replaced, not added
    rows = wh.query("SELECT status FROM training_jobs WHERE job_id = ?", [spec.job_id])
    assert rows == [{"status": "completed"}]
    stored = read_training_job(wh, spec.job_id)
    assert stored is not None and stored["losses_json"] == result["losses"] and stored["spec_json"]["job_id"] == spec.job_id


@pytest.mark.integration
def test_training_job_row_and_checkpoint_eval_link(built: tuple[Warehouse, Path, str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny-model SFT job through `compoworld train` writes its row; evaluating its checkpoint links to it."""
    wh, hub, run_id = built
    assert main(["train", "sft", "--model", "tiny", "--data", str(hub / "sft"), "--max-steps", "2", "--batch-size", "1",
                 "--max-length", "8192", "--drop-long-rows", "--jobs", str(tmp_path), "--warehouse", str(wh.root),
                 "--json"]) == 0
    launched = json.loads(capsys.readouterr().out)
    job = read_training_job(wh, launched["job_id"])
    assert job is not None and job["status"] == "completed" and job["data_run_id"] == run_id
    assert len(job["losses_json"]) == 2 and job["seconds"] > 0 and Path(job["model_dir"]).is_dir()
    manifest = json.loads((hub / "sft" / "compoworld.json").read_text())
    assert job["dataset_id"] == manifest["splits"]["train"]["dataset_id"]
    assert job["data_revision"].startswith("local-") and job["spec_json"]["data"]["revision"] == job["data_revision"]

    argv = ["--checkpoint", str(tmp_path / launched["job_id"]), "--discover-mode", "gateway", "--tasks", "2",
            "--max-steps", "2", "--max-new-tokens", "16", "--warehouse", str(wh.root)]
    out = _eval_cli(argv, capsys)
    assert out["job_id"] == launched["job_id"] and out["dataset_id"] == job["dataset_id"]
    assert out["data_revision"] == job["data_revision"] and out["data_run_id"] == run_id
    held_out = split_tasks(wh, "test", out["test_fraction"], run_id)  # how many the small run holds out depends on its tasks
    assert out["checkpoint"] == job["model_dir"] and out["n_tasks"] == min(2, len(held_out)) >= 1
    assert out["task_ids"] == [t.id for t in held_out][:2]
    assert [e["evaluation_id"] for e in read_evaluations(wh, job_id=launched["job_id"])] == [out["evaluation_id"]]
    linked = wh.query("SELECT e.evaluation_id, e.data_revision FROM training_jobs j JOIN evaluations e USING (job_id) "
                      "WHERE j.job_id = ?", [launched["job_id"]])
    assert linked == [{"evaluation_id": out["evaluation_id"], "data_revision": job["data_revision"]}]
    assert main(["eval", *argv]) == 0  # the text form names the job, its data and what the agent did
    text = capsys.readouterr().out
    assert f"trained by job {launched['job_id']} on dataset {job['dataset_id']} (revision {job['data_revision']}" in text
    assert "tool calls per episode " in text and "stop reasons: " in text


def _bench() -> Any:
    """bench/train_effect.py as a module (benchmarks are scripts, not a package)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bench" / "train_effect.py"
    spec = importlib.util.spec_from_file_location("train_effect", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.mark.integration
def test_train_effect_few_service_data_and_spread(tmp_path: Path) -> None:
    """The pieces of bench/train_effect.py (its whole smoke run takes minutes): the few-service arm's data
    goes through the pipeline's collect, score and dataset stages, two services per task, in gateway mode."""
    bench = _bench()
    budget = bench.Budget(**{**vars(bench.BUDGETS["smoke"]), "few_service_tasks": 6})
    wh, run_id, folder = bench.few_service_data(tmp_path, budget)
    tasks = load_source(wh, run_id).tasks
    assert tasks and all(len(rec.task.services) == 2 for rec in tasks.values())
    rows = wh.query("SELECT agent, discover_mode, success FROM trajectories WHERE run_id = ?", [run_id])
    assert len(rows) == len(tasks) * 2 * budget.group_size and {r["discover_mode"] for r in rows} == {"gateway"}
    assert all(r["success"] for r in rows if r["agent"] == "reference")
    manifest = json.loads((folder / "sft" / "compoworld.json").read_text())
    assert manifest["discover_modes"] == ["gateway"] and manifest["splits"]["train"]["rows"] > 0
    got = bench.spread([{"success_rate": 0.0, "mean_partial_credit": 0.5, "tool_calls": 3, "stop_reasons": {"answered": 2}},
                        {"success_rate": 0.5, "mean_partial_credit": 0.7, "tool_calls": 0, "stop_reasons": {"answered": 2}}])
    assert got["success_rate"] == {"mean": 0.25, "std": 0.25, "min": 0.0, "max": 0.5}
    assert got["mean_partial_credit"]["mean"] == 0.6 and got["tool_calls"] == 3 and got["stop_reasons"] == {"answered": 4}
    assert bench.plan(bench.BUDGETS["full"], "no GPU")["would_run"]["model"] == "smollm2"


def test_train_effect_reuses_prepared_data_and_refuses_other_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--prepare` on a CPU machine, training on a GPU machine: a run finds the data stage's marker and builds
    nothing; data made for other settings is refused rather than trained on as if it were this budget's."""
    bench = _bench()
    budget = bench.BUDGETS["lease"]
    settings = {"composed_tasks": budget.composed_tasks, "few_service_tasks": budget.few_service_tasks,
                "group_size": budget.group_size}
    done = {"settings": settings, "composed_run_id": "run-x", "composed_rows": 3, "few_service_rows": 4, "seconds": 1.0}
    (tmp_path / bench.DATA_MARKER).write_text(json.dumps(done))

    def must_not_build(*args: Any) -> None:
        raise AssertionError("prepared data was built again")

    monkeypatch.setattr(bench, "composed_data", must_not_build)
    logged: list[str] = []
    assert bench.prepare(tmp_path, budget, logged.append) == done
    assert logged and "reusing" in logged[0]
    with pytest.raises(SystemExit, match="holds data made for"):
        bench.prepare(tmp_path, bench.BUDGETS["smoke"], logged.append)
