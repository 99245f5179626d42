"""Gateway mode through the factory: the run config and its id, the collect stage, SFT and RL rows,
and the command-line flags."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import datasets
import pytest

from compoworld.canonical import content_hash
from compoworld.cli import main
from compoworld.config import RUNTIME_FIELDS, PipelineConfig, load_config
from compoworld.datasets import BuildOptions, build
from compoworld.datasets.catalog import tools_catalog
from compoworld.datasets.layout import read_manifest
from compoworld.datasets.schema import features
from compoworld.services.gateway import META_TOOLS, Gateway
from compoworld.stages.runner import run_pipeline
from compoworld.warehouse import Warehouse

CONFIG = {"tasks": 8, "group_size": 2, "stages": {"verify": False, "datasets": False}}


def test_direct_keeps_the_run_id_and_gateway_changes_it(tmp_path: Path) -> None:
    direct = PipelineConfig(**CONFIG)
    # The id a config had before discover_mode existed.
    before = content_hash(direct.model_dump(mode="json", exclude=RUNTIME_FIELDS | {"discover_mode"}), 12)
    assert direct.digest() == before
    gateway = PipelineConfig(**CONFIG, discover_mode="gateway")
    assert gateway.run_id != direct.run_id
    path = tmp_path / "c.yaml"
    path.write_text("discover_mode: gateway\n")
    assert load_config(path).discover_mode == "gateway" and load_config(path, {"discover_mode": "direct"}).discover_mode == "direct"
    with pytest.raises(ValueError):
        PipelineConfig(discover_mode="both")


@pytest.fixture(scope="module")
def gateway_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, str]:
    root = tmp_path_factory.mktemp("wh")
    cfg = PipelineConfig(**CONFIG, discover_mode="gateway", datasets_dir=str(root / "unused"))
    run_pipeline(cfg, Warehouse(root), log=lambda m: None)
    return Warehouse(root), cfg.run_id


def _rows(path: Path) -> list[dict[str, Any]]:
    return [r for d in datasets.load_dataset(str(path)).values() for r in d]


def test_the_collect_stage_rolls_out_through_the_gateway(gateway_run: tuple[Warehouse, str]) -> None:
    wh, run_id = gateway_run
    rows = wh.query("SELECT agent, success, messages_json FROM trajectories WHERE run_id = ?", [run_id])
    assert rows and all(r["success"] for r in rows if r["agent"] == "reference")
    for r in rows:
        messages = json.loads(r["messages_json"]) if isinstance(r["messages_json"], str) else r["messages_json"]
        names = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
        # every call goes through the meta-tools, discovery first; only a perturbed rollout that gives up
        # before its first step makes no call at all
        assert names <= set(META_TOOLS) and ("list_services" in names or (not names and r["agent"] == "perturbed")), r["agent"]
    (run,) = wh.query("SELECT config_json FROM runs WHERE run_id = ?", [run_id])
    config = json.loads(run["config_json"]) if isinstance(run["config_json"], str) else run["config_json"]
    assert config["discover_mode"] == "gateway"  # the mode a trajectory was collected in is its run's


def test_gateway_sft_and_rl_rows_carry_only_the_meta_tools(gateway_run: tuple[Warehouse, str], tmp_path: Path) -> None:
    wh, run_id = gateway_run
    result = build(wh, tmp_path, ("sft", "rl"), run_id)
    assert result["sft"]["discover_modes"] == result["rl"]["discover_modes"] == ["gateway"]
    sft, rl = _rows(tmp_path / "sft"), _rows(tmp_path / "rl")
    assert sft and rl
    for row in sft + rl:
        assert row["discover_mode"] == "gateway" and row["tools"] == Gateway.tools_openai()
    for row in sft:
        calls = [c["function"] for m in row["messages"] for c in m["tool_calls"] or []]
        assert {c["name"] for c in calls} <= set(META_TOOLS) and calls[0]["name"] == "list_services"
        assert all(isinstance(c["arguments"]["arguments"], dict) for c in calls if c["name"] == "call_tool")
    assert datasets.load_dataset(str(tmp_path / "sft"))["train"].features == features("sft")
    for kind in ("sft", "rl"):
        assert read_manifest(tmp_path / kind)["discover_modes"] == ["gateway"]
        assert "`gateway` rows offer four meta-tools" in (tmp_path / kind / "README.md").read_text()


def test_a_build_in_the_other_mode(gateway_run: tuple[Warehouse, str], tmp_path: Path) -> None:
    """`discover_mode` keeps only the SFT trajectories collected in it, and offers RL tasks in it."""
    wh, run_id = gateway_run
    result = build(wh, tmp_path, ("sft", "rl"), run_id, BuildOptions(discover_mode="direct"))
    assert "no train rows" in result["sft"]["skipped"] and "other mode" in result["sft"]["skipped"]
    rl = _rows(tmp_path / "rl")
    assert rl and all(r["discover_mode"] == "direct" and r["tools"] == tools_catalog(r["services"]) for r in rl)


def test_command_line_flags(gateway_run: tuple[Warehouse, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from compoworld.cli.pipeline import _resolve

    args = argparse.Namespace(config=None, warehouse=str(tmp_path / "wh"), tasks=3, discover_mode="gateway")
    cfg, _, overrides = _resolve(args)
    assert cfg.discover_mode == "gateway" and overrides == {"tasks": 3, "discover_mode": "gateway"}

    assert main(["rollout", "--agent", "reference", "--discover-mode", "gateway", "--tasks", "3", "--group-size", "1",
                 "--warehouse", str(tmp_path / "wh"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["discover_mode"] == "gateway" and out["success_rate"] == 1.0 and 0 < out["discovery_share"] < 1
    assert out["discovery_calls"] > 0

    wh, run_id = gateway_run
    assert main(["datasets", "build", "--kind", "rl", "--warehouse", str(wh.root), "--run-id", run_id,
                 "--out", str(tmp_path / "ds"), "--discover-mode", "direct", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rl"]["discover_modes"] == ["direct"]
