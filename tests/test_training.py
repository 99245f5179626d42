"""Training: the tiny model's tokenizer and chat template, the TRL environment adapter, the reward,
job specs and launchers (fast); SFT and GRPO runs with TRL on CPU (integration)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pytest
from conftest import build_hub

from compoworld.config import PipelineConfig
from compoworld.rewards import GroupReward, make_trl_reward_func
from compoworld.stages.runner import run_pipeline
from compoworld.warehouse import Warehouse


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, Path, str]:
    return build_hub(tmp_path_factory.mktemp("wh"), tasks=12)


@pytest.fixture(scope="module")
def sft_rows(built: tuple[Warehouse, Path, str]) -> datasets.Dataset:
    return datasets.load_dataset(str(built[1] / "sft"), split="train")


@pytest.fixture(scope="module")
def rl_rows(built: tuple[Warehouse, Path, str]) -> datasets.Dataset:
    return datasets.load_dataset(str(built[1] / "rl"), split="train")


@pytest.fixture(scope="module")
def tokenizer(sft_rows: datasets.Dataset) -> Any:
    from compoworld.training.tiny import texts_from_rows, train_tokenizer

    return train_tokenizer(texts_from_rows(sft_rows), vocab_size=2048)


def _reference(sft_rows: datasets.Dataset, task_id: str) -> list[dict[str, Any]]:
    return next(r["messages"] for r in sft_rows if r["task_id"] == task_id and r["agent"] == "reference")


# -- tiny model: tokenizer and chat template --------------------------------------------------------
def test_tiny_chat_template_meets_trl_requirements(tokenizer: Any, sft_rows: datasets.Dataset) -> None:
    from trl.chat_template_utils import (has_generation_markers, is_chat_template_prefix_preserving,
                                         is_chat_template_stop_token_trained, parse_response, supports_tool_calling)

    assert supports_tool_calling(tokenizer) and is_chat_template_prefix_preserving(tokenizer)
    assert is_chat_template_stop_token_trained(tokenizer) and has_generation_markers(tokenizer.chat_template)
    row = sft_rows[0]
    out = tokenizer.apply_chat_template(row["messages"], tools=row["tools"], tokenize=True, return_dict=True,
                                        return_assistant_tokens_mask=True)
    ids, mask = out["input_ids"], out["assistant_masks"]
    text = tokenizer.decode(ids)
    assert all(f"\n{t['function']['name']}(" in text for t in row["tools"])  # every tool is listed
    trained = tokenizer.decode([i for i, m in zip(ids, mask) if m])
    assistant = [m for m in row["messages"] if m["role"] == "assistant"]
    assert trained.count("<|im_end|>") == len(assistant)  # each turn learns to stop
    assert "<tool_response>" not in trained and row["messages"][1]["content"] not in trained  # only the assistant
    # A rendered tool call parses back (TRL's Qwen3 parser) into the same call.
    call = next(m for m in assistant if m["tool_calls"])
    prefix = tokenizer.apply_chat_template(row["messages"][:2], tools=row["tools"], add_generation_prompt=True,
                                           tokenize=True, return_dict=True)["input_ids"]
    rendered = tokenizer.apply_chat_template(row["messages"][:2] + [call], tools=row["tools"], tokenize=True,
                                             return_dict=True)["input_ids"]
    assert rendered[:len(prefix)] == prefix
    parsed = parse_response(tokenizer, rendered[len(prefix):], prefix=prefix)
    fn = call["tool_calls"][0]["function"]
    assert parsed["tool_calls"][0]["function"] == {"name": fn["name"], "arguments": fn["arguments"]}


# -- the environment adapter -------------------------------------------------------------------------
def test_environment_adapter_rebuilds_runs_and_scores_tasks(rl_rows: datasets.Dataset, sft_rows: datasets.Dataset) -> None:
    from transformers.utils import get_json_schema

    from compoworld.training.environment import TaskEnvironment

    for row in list(rl_rows)[:4]:
        cls = TaskEnvironment.for_services(row["services"])
        assert TaskEnvironment.for_services(list(reversed(row["services"]))) is cls
        catalog = {t["function"]["name"]: t["function"] for t in row["tools"]}
        env = cls()
        methods = {n: getattr(env, n) for n in catalog if n not in cls.skipped_tools}
        assert not cls.skipped_tools and len(methods) == len(catalog)
        for name, m in methods.items():  # the schema TRL renders from the method matches the catalog's
            schema = get_json_schema(m)["function"]
            assert schema["name"] == name and schema["description"] == " ".join(catalog[name]["description"].split())
            assert set(schema["parameters"]["properties"]) == set(catalog[name]["parameters"]["properties"])
            assert set(schema["parameters"].get("required", [])) == set(catalog[name]["parameters"].get("required", []))
        env.reset(**row)
        assert not all(env.criteria)  # doing nothing fails the task
        for m in _reference(sft_rows, row["task_id"]):
            for call in m["tool_calls"] or []:
                result = json.loads(methods[call["function"]["name"]](**call["function"]["arguments"]))
                assert "error" not in result or result.get("kind") == "business_rule"  # a refusal the request names
        env.answer = _reference(sft_rows, row["task_id"])[-1]["content"]  # the closing report
        assert all(env.criteria) and len(env.criteria) == row["n_criteria"]
        env.reset(**row)  # a reset starts over
        assert not all(env.criteria) and env.calls == []
    row = rl_rows[0]
    env = TaskEnvironment.for_services(row["services"])()
    with pytest.raises(ValueError, match="does not match its hash"):
        env.reset(**{**row, "initial_state_hash": "0" * 64})
    other = next(r for r in rl_rows if r["services"] != row["services"])
    with pytest.raises(ValueError, match="row needs services"):
        env.reset(**other)


def test_trl_tool_call_path_reaches_the_environment(tokenizer: Any, rl_rows: datasets.Dataset, sft_rows: datasets.Dataset) -> None:
    """What GRPOTrainer does with a generated turn: render the prompt with the environment's methods as
    tools, parse the completion's tool call, call the method named by it with the parsed arguments."""
    from trl.chat_template_utils import parse_response

    from compoworld.training.environment import environment_factories, env_key

    row = rl_rows[0]
    factories = environment_factories([row["services"]])
    env = factories[env_key(row["services"])]()
    env.reset(**row)
    import inspect

    tools = [getattr(env, n) for n, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)
             if n not in ("reset", "get_reward") and not n.startswith("_")]  # as GRPOTrainer collects them
    assert sorted(t.__name__ for t in tools) == sorted(t["function"]["name"] for t in row["tools"])
    prefix = tokenizer.apply_chat_template(row["prompt"], tools=tools, add_generation_prompt=True, tokenize=True,
                                           return_dict=True)["input_ids"]
    call = next(m for m in _reference(sft_rows, row["task_id"]) if m["tool_calls"])["tool_calls"][0]["function"]
    completion = f'<tool_call>\n{{"name": "{call["name"]}", "arguments": {json.dumps(call["arguments"])}}}\n</tool_call><|im_end|>'
    parsed = parse_response(tokenizer, tokenizer(completion, add_special_tokens=False)["input_ids"], prefix=prefix, tools=tools)
    (tc,) = parsed["tool_calls"]
    result = {t.__name__: t for t in tools}[tc["function"]["name"]](**tc["function"]["arguments"])
    assert json.loads(result) and env.calls == [{"tool": call["name"], "arguments": call["arguments"], "ok": True}]


def test_reward_is_completion_focused_within_each_group(rl_rows: datasets.Dataset, sft_rows: datasets.Dataset) -> None:
    from compoworld.training.environment import TaskEnvironment, score_rollout

    rows = list(rl_rows)[:2]
    prompts, envs, matrix, completions = [], [], {}, []
    for row in rows:
        for solve in (True, False, False):
            env = TaskEnvironment.for_services(row["services"])()
            env.reset(**row)
            if solve:
                for m in _reference(sft_rows, row["task_id"]):
                    for c in m["tool_calls"] or []:
                        getattr(env, c["function"]["name"])(**c["function"]["arguments"])
            closing = _reference(sft_rows, row["task_id"])[-1]["content"] if solve else ""
            env.answer = closing
            prompts.append(row["prompt"])
            envs.append(env)
            completions.append([{"role": "assistant", "content": closing}])
            matrix.setdefault(row["task_id"], []).append(env.criteria)
    reward = make_trl_reward_func(score_rollout)
    got = reward(prompts=prompts, completions=completions, environments=envs,
                 task_id=[r["task_id"] for r in rows for _ in range(3)])
    expected = [float(x) for row in rows for x in GroupReward.from_matrix(np.array(matrix[row["task_id"]], dtype=float)).rewards]
    assert got == pytest.approx(expected)
    assert got[0] == pytest.approx(1.0) and got[1] < 1.0


def test_environment_adapter_in_gateway_mode(built: tuple[Warehouse, Path, str], sft_rows: datasets.Dataset,
                                            tokenizer: Any, tmp_path: Path) -> None:
    """The same tasks offered through the gateway: the four meta-tools as methods, each call through
    `Gateway.step`, the same rubric results; TRL's tool-call path reaches call_tool."""
    import inspect

    from transformers.utils import get_json_schema
    from trl.chat_template_utils import parse_response

    from compoworld.datasets import BuildOptions, build
    from compoworld.services.gateway import META_TOOLS
    from compoworld.training.environment import TaskEnvironment, env_key, environment_factories

    wh, _, run_id = built
    build(wh, tmp_path, ("rl",), run_id, BuildOptions(discover_mode="gateway"))  # the run's tasks, in gateway mode
    rows = list(datasets.load_dataset(str(tmp_path / "rl"), split="train"))
    for row in rows[:3]:
        assert row["discover_mode"] == "gateway" and [t["function"]["name"] for t in row["tools"]] == list(META_TOOLS)
        cls = TaskEnvironment.for_services(row["services"], "gateway")
        assert cls is not TaskEnvironment.for_services(row["services"]) and cls.discover_mode == "gateway"
        assert env_key(row["services"], "gateway") == "gateway:" + env_key(row["services"])
        env = cls()
        methods = sorted(n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
                         if n not in ("reset", "get_reward") and not n.startswith("_"))  # as GRPOTrainer collects them
        assert methods == sorted(META_TOOLS) and not cls.skipped_tools
        for tool in row["tools"]:
            schema = get_json_schema(getattr(env, tool["function"]["name"]))["function"]
            assert set(schema["parameters"]["properties"]) == set(tool["function"]["parameters"]["properties"])
        env.reset(**row)
        assert [s["name"] for s in json.loads(env.list_services())["services"]] == row["services"]
        assert not all(env.criteria)
        for m in _reference(sft_rows, row["task_id"]):  # the direct reference calls, made through call_tool
            for call in m["tool_calls"] or []:
                fn = call["function"]
                result = json.loads(env.call_tool(tool_name=fn["name"], arguments=fn["arguments"]))
                assert "error" not in result or result.get("kind") == "business_rule"  # a refusal the request names
        env.answer = _reference(sft_rows, row["task_id"])[-1]["content"]  # the closing report
        assert all(env.criteria) and {c["tool"] for c in env.calls} == {"list_services", "call_tool"}
        with pytest.raises(ValueError, match="row is for gateway mode"):
            TaskEnvironment.for_services(row["services"])().reset(**row)
    row = rows[0]
    env = environment_factories([row["services"]], "gateway")[env_key(row["services"], "gateway")]()
    env.reset(**row)
    tools = [env.list_services, env.list_tools, env.describe_tool, env.call_tool]
    prefix = tokenizer.apply_chat_template(row["prompt"], tools=tools, add_generation_prompt=True, tokenize=True,
                                           return_dict=True)["input_ids"]
    completion = '<tool_call>\n{"name": "call_tool", "arguments": {"tool_name": "nowhere__x", "arguments": {}}}\n</tool_call><|im_end|>'
    parsed = parse_response(tokenizer, tokenizer(completion, add_special_tokens=False)["input_ids"], prefix=prefix, tools=tools)
    (tc,) = parsed["tool_calls"]
    result = json.loads(getattr(env, tc["function"]["name"])(**tc["function"]["arguments"]))
    assert result["kind"] == "unknown_tool"
    assert env.calls == [{"tool": "call_tool", "arguments": {"tool_name": "nowhere__x", "arguments": {}}, "ok": False}]


# -- job specs and launchers ---------------------------------------------------------------------------
def test_job_spec_command_and_roundtrip(built: tuple[Warehouse, Path, str], tmp_path: Path) -> None:
    import sys

    from compoworld.training.spec import DataRef, Hardware, make_spec, read_spec, write_spec

    data = DataRef(path=str(built[1] / "sft"))
    spec = make_spec("sft", data, tmp_path, hyperparameters={"max_steps": 5})
    assert spec.job_id == make_spec("sft", data, tmp_path / "other", hyperparameters={"max_steps": 5}).job_id
    assert spec.job_id != make_spec("sft", data, tmp_path, hyperparameters={"max_steps": 6}).job_id
    assert spec.launch.command == [sys.executable, "-m", "compoworld.training.run", str(tmp_path / spec.job_id / "job.json")]
    assert spec.params().max_steps == 5 and spec.params().learning_rate == 3e-3
    assert read_spec(write_spec(spec)) == spec
    gpu = make_spec("grpo", DataRef(path="org/rl", revision="run-1"), tmp_path, model="Qwen/Qwen3-0.6B",
                    hardware=Hardware(accelerator="cuda", num_processes=8, gpu_type="H100", mixed_precision="bf16"))
    assert gpu.launch.command[:4] == ["accelerate", "launch", "--num_processes", "8"]
    assert gpu.launch.command[-3:] == ["-m", "compoworld.training.run", str(gpu.spec_path)] and "bf16" in gpu.launch.command
    with pytest.raises(ValueError):
        make_spec("grpo", data, tmp_path, hyperparameters={"num_generations": 1})
    with pytest.raises(ValueError):
        make_spec("sft", data, tmp_path, hyperparameters={"no_such_param": 1})


def test_prefect_launcher_runs_the_deployment(built: tuple[Warehouse, Path, str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import prefect.deployments

    from compoworld.training import launch
    from compoworld.training.launcher import LaunchError, run_spec_here
    from compoworld.training.spec import JobSpec

    wh, hub, run_id = built
    calls: list[dict[str, Any]] = []

    class FakeRun:
        id = "00000000-0000-0000-0000-000000000001"
        state = None

    def fake_run_deployment(**kwargs: Any) -> FakeRun:
        calls.append(kwargs)
        return FakeRun()

    monkeypatch.setattr(prefect.deployments, "run_deployment", fake_run_deployment, raising=False)
    out = launch(wh, hub, run_id, launcher="prefect", deployment="train/gpu", jobs_dir=tmp_path)
    assert [c["name"] for c in calls] == ["train/gpu", "train/gpu"] and all(c["timeout"] == 0 for c in calls)
    for kind, call in zip(("sft", "grpo"), calls):
        spec = JobSpec.model_validate(call["parameters"]["spec"])
        assert spec.kind == kind and call["idempotency_key"] == spec.job_id == out[kind]["job_id"]
        assert spec.data.run_id == run_id and Path(spec.data.path) == (hub / ("sft" if kind == "sft" else "rl")).absolute()
        assert (tmp_path / spec.job_id / "job.json").is_file() and "local folder" in out[kind]["warnings"][0]
    monkeypatch.delenv("COMPOWORLD_TRAIN_DEPLOYMENT", raising=False)
    with pytest.raises(LaunchError, match="needs a deployment"):
        launch(wh, hub, run_id, kinds=("sft",), launcher="prefect", jobs_dir=tmp_path)
    with pytest.raises(ValueError, match="built from run"):
        launch(wh, hub, "run-other", kinds=("sft",), launcher="prefect", deployment="d", jobs_dir=tmp_path)
    # On the worker: the job folder is re-rooted there and the command rebuilt for that folder.
    spec = JobSpec.model_validate(calls[0]["parameters"]["spec"])
    spec.launch.command = ["false"]  # the worker's command fails: a clear error, not a silent success
    with pytest.raises(LaunchError, match="failed"):
        run_spec_here(spec)


def test_launchers_are_a_table(built: tuple[Warehouse, Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`$COMPOWORLD_TRAIN_LAUNCHER` picks a registered launcher; `prefect` is registered by
    `flows.train_launcher`, imported by name when asked for; an unknown name is one clear line."""
    from compoworld.training import launch, launcher
    from compoworld.training.launcher import LAUNCHER_ENV, LaunchError, get_launcher, register_launcher
    from compoworld.training.spec import JobSpec

    import subprocess
    import sys

    import flows.train_launcher

    # In a fresh process, asking for `prefect` imports the module that registers it (by name only).
    probe = ("import sys; from compoworld.training.launcher import get_launcher; "
             "assert 'flows.train_launcher' not in sys.modules; print(get_launcher('prefect').__module__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "flows.train_launcher", done.stderr[-2000:]
    wh, hub, run_id = built
    assert launcher.LAUNCHER_MODULES == {"prefect": "flows.train_launcher"}
    assert get_launcher("prefect") is flows.train_launcher.launch_prefect
    monkeypatch.setattr(launcher, "_LAUNCHERS", dict(launcher._LAUNCHERS))  # registrations stay in this test
    started: list[JobSpec] = []

    def fake(spec: JobSpec, wait: bool) -> dict[str, Any]:
        started.append(spec)
        return {"job_id": spec.job_id, "launcher": "fake", "waited": wait}

    register_launcher("fake", fake)
    monkeypatch.setenv(LAUNCHER_ENV, "fake")
    out = launch(wh, hub, run_id, kinds=("sft",), jobs_dir=tmp_path)
    assert out["sft"] == {"job_id": started[0].job_id, "launcher": "fake", "waited": False}
    assert started[0].launch.launcher == "fake" and (tmp_path / started[0].job_id / "job.json").is_file()

    monkeypatch.setenv(LAUNCHER_ENV, "nope")
    with pytest.raises(LaunchError) as err:
        launch(wh, hub, run_id, kinds=("sft",), jobs_dir=tmp_path / "nope")
    assert str(err.value) == ("unknown launcher 'nope'; registered: fake, local, prefect; "
                              "the prefect launcher comes from flows.train_launcher")
    assert not (tmp_path / "nope").exists()  # nothing written for a launcher that does not exist


def test_cli_train_dry_run(built: tuple[Warehouse, Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from compoworld.cli import main
    from compoworld.training.spec import read_spec

    wh, hub, run_id = built
    assert main(["train", "grpo", "--data", str(hub / "rl"), "--jobs", str(tmp_path),
                 "--max-steps", "3", "--dry-run", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    spec = read_spec(Path(out["spec"]))
    assert spec.kind == "grpo" and spec.params().max_steps == 3 and spec.data.run_id == run_id
    assert main(["train", "sft", "--data", str(hub / "rl"), "--jobs", str(tmp_path), "--dry-run"]) == 2
    assert "holds a rl dataset" in capsys.readouterr().err


def test_train_stage_records_its_jobs(built: tuple[Warehouse, Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline's train stage writes a `training_jobs` row per job as `compoworld train` does (spec, dataset
    id and revision, losses, seconds, status); a rerun rewrites the rows, never adds copies; a failed job is
    a failure of the stage with its cause, resolved when a rerun succeeds."""
    from compoworld.training import launcher
    from compoworld.training.launcher import LAUNCHER_ENV, register_launcher
    from compoworld.training.spec import JobSpec
    from compoworld.warehouse import read_training_job

    wh, hub, run_id = built
    cfg = PipelineConfig(tasks=12, group_size=2, stages={"verify": False, "datasets": False, "train": True},
                         datasets_dir=str(hub))
    assert cfg.run_id == run_id  # the datasets were built from this run
    monkeypatch.setattr(launcher, "_LAUNCHERS", dict(launcher._LAUNCHERS))
    outcome = {"returncode": 1}

    def fake(spec: JobSpec, wait: bool) -> dict[str, Any]:
        rec: dict[str, Any] = {"job_id": spec.job_id, "launcher": "fake", "log": str(spec.job_dir / "train.log"),
                               "returncode": outcome["returncode"]}
        if rec["returncode"]:
            rec["error"] = "rows do not fit"
        elif spec.kind == "sft":
            rec["result"] = {"losses": [{"step": 1, "loss": 2.0}, {"step": 2, "loss": 1.5}], "loss_first": 2.0,
                             "loss_last": 1.5, "seconds": 3.5, "step_seconds": [1.0, 1.1], "model_dir": str(spec.job_dir / "model")}
        else:
            rec["result"] = {"steps": [{"step": 1, "reward": 0.5, "reward_std": 0.1}], "seconds": 4.0, "step_seconds": [2.0],
                             "model_dir": str(spec.job_dir / "model")}
        return rec

    register_launcher("fake", fake)
    monkeypatch.setenv(LAUNCHER_ENV, "fake")
    quiet = lambda m: None  # noqa: E731
    run_pipeline(cfg, wh, log=quiet, names=["train"])
    jobs = wh.query("SELECT job_id, kind, status, error FROM training_jobs ORDER BY kind DESC")
    assert [(j["kind"], j["status"], j["error"]) for j in jobs] == [("sft", "failed", "rows do not fit"),
                                                                   ("grpo", "failed", "rows do not fit")]
    failures = wh.query("SELECT item_id, error FROM failures WHERE run_id = ? AND stage = 'train' AND NOT resolved", [run_id])
    assert len(failures) == 1 and failures[0]["item_id"] == "jobs" and "rows do not fit" in failures[0]["error"]

    outcome["returncode"] = 0
    for _ in range(2):  # the same jobs again: their rows are rewritten, not added
        run_pipeline(cfg, wh, log=quiet, names=["train"])
    jobs = wh.query("SELECT job_id, kind, status FROM training_jobs ORDER BY kind DESC")
    assert [(j["kind"], j["status"]) for j in jobs] == [("sft", "completed"), ("grpo", "completed")]
    assert not wh.query("SELECT 1 FROM failures WHERE run_id = ? AND stage = 'train' AND NOT resolved", [run_id])
    manifest = json.loads((hub / "sft" / "compoworld.json").read_text())
    sft = read_training_job(wh, jobs[0]["job_id"])
    assert sft is not None and sft["dataset_id"] == manifest["splits"]["train"]["dataset_id"] and sft["data_run_id"] == run_id
    assert sft["data_revision"].startswith("local-") and sft["spec_json"]["data"]["revision"] == sft["data_revision"]
    assert sft["losses_json"] == [{"step": 1, "loss": 2.0}, {"step": 2, "loss": 1.5}] and sft["loss_last"] == 1.5
    assert sft["seconds"] == 3.5 and sft["model_dir"].endswith("/model") and sft["spec_json"]["job_id"] == sft["job_id"]
    grpo = read_training_job(wh, jobs[1]["job_id"])
    assert grpo is not None and grpo["losses_json"] == [{"step": 1, "reward": 0.5, "reward_std": 0.1}]


# -- the trainers (integration) ------------------------------------------------------------------------
@pytest.mark.integration
def test_sft_loss_falls_over_30_steps(built: tuple[Warehouse, Path, str], tmp_path: Path) -> None:
    """TRL's SFTTrainer on the SFT dataset as built, started by the local launcher (a subprocess)."""
    from compoworld.training.launcher import launch
    from compoworld.training.spec import DataRef, make_spec

    spec = make_spec("sft", DataRef(path=str(built[1] / "sft")), tmp_path,
                     hyperparameters={"max_steps": 30, "per_device_train_batch_size": 1, "max_length": 8192,
                                      "drop_long_rows": True})  # the tiny model's context: train on the rows that fit
    out = launch(spec)
    assert out["returncode"] == 0, Path(out["log"]).read_text()[-3000:]
    losses = [x["loss"] for x in out["result"]["losses"]]
    print(f"SFT loss: step 1 {losses[0]:.4f}, step 30 {losses[-1]:.4f}; step seconds {out['result']['step_seconds']}")
    assert len(losses) == 30 and np.isfinite(losses).all()
    assert losses[-1] < losses[0] - 1.0 and np.mean(losses[-5:]) < np.mean(losses[:5]) - 1.0
    assert (tmp_path / spec.job_id / "model" / "config.json").is_file()


@pytest.mark.integration
def test_grpo_two_steps_in_the_environment(built: tuple[Warehouse, Path, str], tmp_path: Path) -> None:
    """TRL's GRPOTrainer: rollouts in TaskEnvironments (one per task's service set), Completion-Focused reward."""
    from compoworld.training.run import run_job
    from compoworld.training.spec import DataRef, make_spec

    spec = make_spec("grpo", DataRef(path=str(built[1] / "rl")), tmp_path,
                     hyperparameters={"max_steps": 2, "per_device_train_batch_size": 4, "num_generations": 2,
                                      "max_completion_length": 32})
    result = run_job(spec)
    steps, rollouts = result["steps"], result["rollouts"]
    print(f"GRPO step seconds {result['step_seconds']}; rewards {[round(s['reward'], 4) for s in steps]}")
    assert [s["step"] for s in steps] == [1, 2] and len(result["step_seconds"]) == 2
    assert len(rollouts) == 2 * 4
    n_criteria = {r["task_id"]: r["n_criteria"] for r in datasets.load_dataset(str(built[1] / "rl"), split="train")}
    groups: dict[tuple[int, str], list[list[bool]]] = {}
    for i, r in enumerate(rollouts):
        assert len(r["criteria"]) == n_criteria[r["task_id"]]  # each rollout ran in its own task's environment
        groups.setdefault((i // 4, r["task_id"]), []).append(r["criteria"])
    for step in (0, 1):  # the logged reward is the Completion-Focused reward of each group's rollouts
        rewards = [x for (s, _), g in groups.items() if s == step
                   for x in GroupReward.from_matrix(np.array(g, dtype=float)).rewards]
        assert steps[step]["reward"] == pytest.approx(float(np.mean(rewards)), rel=1e-5)
    assert "tools/call_frequency" in steps[0] and (tmp_path / spec.job_id / "model" / "config.json").is_file()


@pytest.mark.integration
def test_grpo_on_gateway_rows(built: tuple[Warehouse, Path, str], tmp_path: Path) -> None:
    """GRPO on RL rows offered in gateway mode: each row reaches its gateway environment (the row's mode
    is kept for the environment's check), and a job run in-process leaves its spec next to its checkpoint."""
    from compoworld.datasets import BuildOptions, build
    from compoworld.training.run import run_job
    from compoworld.training.spec import DataRef, make_spec, read_spec

    wh, _, run_id = built
    build(wh, tmp_path / "hub", ("rl",), run_id, BuildOptions(discover_mode="gateway"))
    spec = make_spec("grpo", DataRef(path=str(tmp_path / "hub" / "rl")), tmp_path / "jobs",
                     hyperparameters={"max_steps": 1, "per_device_train_batch_size": 2, "num_generations": 2,
                                      "max_completion_length": 32})
    result = run_job(spec)
    assert result["environments"] >= 1 and len(result["rollouts"]) == 2
    assert read_spec(spec.spec_path) == spec and (spec.job_dir / "model" / "config.json").is_file()


@pytest.mark.integration
def test_grpo_with_the_tool_aware_template(built: tuple[Warehouse, Path, str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """SmolLM2's jobs train with the tool-aware template, which TRL cannot read tool calls back from on its
    own (on an H200, GRPO from SmolLM2 stopped at "Unrecognized chat template"): a job sets its response
    template, and rollouts run. The tiny model's tokenizer brings a parser of its own, so it is loaded
    here without one, as SmolLM2's is."""
    from compoworld.training import tiny
    from compoworld.training.chat import TOOL_CHAT_TEMPLATE
    from compoworld.training.run import run_job
    from compoworld.training.spec import DataRef, make_spec

    load = tiny.load_tokenizer

    def without_parser(path: str) -> Any:
        tokenizer = load(path)
        tokenizer.response_template = None
        return tokenizer

    monkeypatch.setattr(tiny, "load_tokenizer", without_parser)

    spec = make_spec("grpo", DataRef(path=str(built[1] / "rl")), tmp_path, chat_template=TOOL_CHAT_TEMPLATE,
                     hyperparameters={"max_steps": 1, "per_device_train_batch_size": 2, "num_generations": 2,
                                      "max_completion_length": 16})
    result = run_job(spec)
    assert len(result["rollouts"]) == 2 and [s["step"] for s in result["steps"]] == [1]
