"""Datasets: SFT/RL rows from the warehouse, splits held out by service set, the card, the Hub layout,
and pushes (to a mock Hub on 127.0.0.1, to a local folder, and the error paths)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import datasets
import pytest
import yaml

from compoworld.config import PipelineConfig
from compoworld.datasets import BuildOptions, SFTFilters, build, build_datasets, push_to_folder, push_to_hub
from compoworld.datasets.catalog import tools_catalog
from compoworld.datasets.hub import PushError
from compoworld.datasets.layout import read_manifest
from compoworld.datasets.schema import features
from compoworld.datasets.splits import assign_splits
from compoworld.services.environment import state_hash
from compoworld.services.registry import get_service
from compoworld.stages.runner import run_pipeline
from compoworld.tasks.checks import score
from compoworld.tasks.factory import build_env
from compoworld.tasks.model import Criterion
from compoworld.warehouse import Warehouse

REPO = Path(__file__).resolve().parents[1]
TOKEN = "hf_compoworldTestSecret0123456789"


@pytest.fixture(scope="module")
def wh(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    root = tmp_path_factory.mktemp("wh")
    cfg = PipelineConfig(tasks=12, group_size=2, stages={"verify": False, "datasets": False},
                         datasets_dir=str(root / "unused"))
    run_pipeline(cfg, Warehouse(root), log=lambda m: None)
    return Warehouse(root)


@pytest.fixture(scope="module")
def run_id(wh: Warehouse) -> str:
    return wh.query("SELECT DISTINCT run_id FROM tasks")[0]["run_id"]


@pytest.fixture(scope="module")
def out(wh: Warehouse, run_id: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hub")
    result = build_datasets(wh, out, run_id)
    assert result["run_id"] == run_id
    return out


def _load(path: Path) -> datasets.DatasetDict:
    return datasets.load_dataset(str(path))


def _task_sets(wh: Warehouse) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    out = {}
    for r in wh.query("SELECT task_id, task_json FROM tasks"):
        t = json.loads(r["task_json"])
        out[r["task_id"]] = (frozenset(t["services"]), frozenset(t["services"]) | frozenset(t["distractors"]))
    return out


# -- SFT -----------------------------------------------------------------------------------------
def test_sft_layout_loads_in_trl_conversational_format(out: Path, wh: Warehouse) -> None:
    ds = _load(out / "sft")
    manifest = read_manifest(out / "sft")
    assert set(ds) == set(manifest["splits"]) == {"train", "test"}
    for split, d in ds.items():
        assert d.num_rows == manifest["splits"][split]["rows"] > 0
        assert d.features == features("sft")
    for row in ds["train"]:
        assert row["success"] and row["partial_credit"] == 1.0
        names = [t["function"]["name"] for t in row["tools"]]
        assert row["tools"] == tools_catalog(row["services"])  # the catalog the agent saw, rebuilt
        msgs = row["messages"]
        assert [m["role"] for m in msgs[:2]] == ["system", "user"] and msgs[-1]["role"] == "assistant"
        pending: dict[str, str] = {}
        for m in msgs[2:]:
            if m["role"] == "assistant":
                assert not pending, "an assistant turn before every call was answered"
                for call in m["tool_calls"] or []:
                    assert call["type"] == "function" and call["function"]["name"] in names
                    assert isinstance(call["function"]["arguments"], dict)  # an object, as chat templates expect
                    pending[call["id"]] = call["function"]["name"]
            else:
                assert m["role"] == "tool" and pending.pop(m["tool_call_id"]) == m["name"]
                json.loads(m["content"])
        assert not pending


def test_sft_keeps_one_row_per_distinct_conversation(out: Path, wh: Warehouse) -> None:
    rows = [r for d in _load(out / "sft").values() for r in d]
    keys = [(r["task_id"], json.dumps(r["messages"], sort_keys=True)) for r in rows]
    assert len(set(keys)) == len(keys) == len({r["id"] for r in rows})
    reference = [r for r in rows if r["agent"] == "reference"]
    n_tasks = wh.query("SELECT count(*) AS n FROM tasks")[0]["n"]
    # The reference teacher is deterministic: its group of 2 identical rollouts per task is one row.
    assert len(reference) == n_tasks and all(r["n_duplicates"] >= 1 for r in reference)
    successes = wh.query("SELECT count(*) AS n FROM trajectories WHERE success")[0]["n"]
    assert sum(1 + r["n_duplicates"] for r in rows) == successes


def test_sft_filters(wh: Warehouse, run_id: str, tmp_path: Path) -> None:
    opts = BuildOptions(SFTFilters(agents=("perturbed",), min_partial_credit=0.5))
    build(wh, tmp_path, ("sft",), run_id, opts)
    rows = [r for d in _load(tmp_path / "sft").values() for r in d]
    assert rows and all(r["agent"] == "perturbed" and r["partial_credit"] >= 0.5 for r in rows)
    assert any(not r["success"] for r in rows)  # near misses are in when asked for
    expected = wh.query("SELECT count(*) AS n FROM trajectories WHERE agent = 'perturbed' AND score >= 0.5")[0]["n"]
    assert sum(1 + r["n_duplicates"] for r in rows) == expected

    domains = sorted(next(iter(rows))["domains"])
    build(wh, tmp_path / "d", ("sft", "rl"), run_id, BuildOptions(SFTFilters(domains=tuple(domains))))
    sft = [r for d in _load(tmp_path / "d" / "sft").values() for r in d]
    rl = [r for d in _load(tmp_path / "d" / "rl").values() for r in d]
    assert sft and rl and all(set(r["domains"]) <= set(domains) for r in sft + rl)
    assert len(rl) < wh.query("SELECT count(*) AS n FROM tasks")[0]["n"]


# -- splits --------------------------------------------------------------------------------------
def test_splits_hold_out_service_sets(out: Path, wh: Warehouse) -> None:
    sets = _task_sets(wh)
    split_of: dict[str, str] = {}
    for kind in ("sft", "rl"):
        for split, d in _load(out / kind).items():
            for tid in d["task_id"]:
                assert split_of.setdefault(tid, split) == split  # SFT and RL agree task by task
    train = [sets[t] for t, s in split_of.items() if s == "train"]
    test = [sets[t] for t, s in split_of.items() if s == "test"]
    assert train and test
    for sel, env in test:
        assert all(sel != s and env != e for s, e in train)


def test_assign_splits_groups_tasks_sharing_either_set() -> None:
    tasks = {f"t{i}": ([f"a{i}", f"b{i}"], [f"a{i}", f"b{i}", "x"]) for i in range(40)}
    tasks["shares_env"] = (["q", "r"], ["a0", "b0", "x"])  # other connected services, same environment as t0
    tasks["shares_sel"] = (["a1", "b1"], ["a1", "b1", "y", "z"])  # same connected services as t1
    splits = assign_splits(tasks, 0.3)
    assert splits == assign_splits(dict(reversed(list(tasks.items()))), 0.3)  # order-independent
    assert splits["shares_env"] == splits["t0"] and splits["shares_sel"] == splits["t1"]
    assert {"train", "test"} == set(splits.values())
    assert set(assign_splits(tasks, 0.0).values()) == {"train"}
    assert set(assign_splits({"only": (["a"], ["a", "b"])}, 0.5).values()) == {"train"}
    with pytest.raises(ValueError):
        assign_splits(tasks, 1.0)


# -- RL ------------------------------------------------------------------------------------------
def test_rl_rows_rebuild_the_task_and_score_it(out: Path, wh: Warehouse) -> None:
    rl = [r for d in _load(out / "rl").values() for r in d]
    assert len(rl) == wh.query("SELECT count(*) AS n FROM tasks")[0]["n"]
    sft = {r["task_id"]: r for d in _load(out / "sft").values() for r in d if r["agent"] == "reference"}
    for row in rl:
        assert row["prompt"][1] == {"role": "user", "content": wh.query(
            "SELECT instruction FROM tasks WHERE task_id = ?", [row["task_id"]])[0]["instruction"]}
        assert [t["function"]["name"] for t in row["tools"]] == [t["function"]["name"] for t in tools_catalog(row["services"])]

        class Rebuilt:  # only what the row carries
            environment_services = row["services"]
            seed = row["seed"]
            initial_state = row["initial_state"]

        env = build_env(Rebuilt, {s: get_service(s) for s in row["services"]})  # type: ignore[arg-type]
        start = env.state()
        assert state_hash(start) == row["initial_state_hash"]
        rubric = [Criterion.model_validate(c) for c in row["rubric"]]
        assert len(rubric) == row["n_criteria"] and not all(score(rubric, start, start))
        messages = sft[row["task_id"]]["messages"]
        for m in messages:  # the reference conversation, replayed (a refusal the request prepares for included)
            for call in m["tool_calls"] or []:
                env.step(call)
        answer = next(m["content"] for m in reversed(messages) if m["role"] == "assistant")
        assert all(score(rubric, start, env.state(), answer))
        if any(c.check.kind == "answer_mentions" for c in rubric):  # the closing report is what report criteria read
            assert not all(score(rubric, start, env.state(), ""))
        assert env.state_hash() == row["reference_final_hash"]


# -- card, manifest, warehouse -------------------------------------------------------------------
def _front_matter(path: Path) -> tuple[dict[str, Any], str]:
    text = path.read_text()
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


@pytest.mark.parametrize("kind", ["sft", "rl"])
def test_card_header_and_body(out: Path, run_id: str, kind: str) -> None:
    meta, body = _front_matter(out / kind / "README.md")
    manifest = read_manifest(out / kind)
    files = meta["configs"][0]["data_files"]
    assert {f["split"] for f in files} == set(manifest["splits"])
    for f in files:
        assert list((out / kind).glob(f["path"])) == [out / kind / manifest["splits"][f["split"]]["file"]]
    assert meta["dataset_info"]["features"] == features(kind)._to_yaml_list()
    assert {s["name"]: s["num_examples"] for s in meta["dataset_info"]["splits"]} == \
        {k: v["rows"] for k, v in manifest["splits"].items()}
    assert meta["license"] == "apache-2.0" and "text-generation" in meta["task_categories"]
    for text in (run_id, manifest["code_version"], "## Splits", "## Fields", "Provenance and licences", "MIT",
                 *(f"| `{name}` |" for name in manifest["fields"])):
        assert text in body
    for split, s in manifest["splits"].items():
        assert f"| {split} | {s['rows']} | {s['tasks']} |" in body
    assert str(out) not in body and "datasets_dir" not in body  # no local paths in a published card


def test_build_is_reproducible_and_recorded(out: Path, wh: Warehouse, run_id: str, tmp_path: Path) -> None:
    build_datasets(wh, tmp_path, run_id)
    for kind in ("sft", "rl"):
        for f in ["README.md", "compoworld.json", *(s["file"] for s in read_manifest(out / kind)["splits"].values())]:
            assert (tmp_path / kind / f).read_bytes() == (out / kind / f).read_bytes(), f
    rows = wh.query("SELECT kind, split, n_rows, dataset_id, card_json FROM datasets WHERE run_id = ? ORDER BY kind, split", [run_id])
    expected = [(k, s, v["rows"], v["dataset_id"]) for k in ("rl", "sft")
                for s, v in sorted(read_manifest(out / k)["splits"].items())]
    assert [(r["kind"], r["split"], r["n_rows"], r["dataset_id"]) for r in rows] == expected
    assert all(json.loads(r["card_json"])["source"]["run_ids"] == [run_id] for r in rows)


def test_cli_build(wh: Warehouse, run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from compoworld.cli import main

    assert main(["datasets", "build", "--kind", "rl", "--out", str(tmp_path), "--warehouse", str(wh.root), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    n_tasks = wh.query("SELECT count(*) AS n FROM tasks")[0]["n"]  # one RL row per accepted task
    assert result["run_id"] == run_id and "sft" not in result and sum(result["rl"]["splits"].values()) == n_tasks > 0
    assert _load(tmp_path / "rl")["train"].num_rows == result["rl"]["splits"]["train"]
    assert main(["datasets", "build", "--warehouse", str(tmp_path / "missing")]) == 2
    assert "no warehouse at" in capsys.readouterr().err
    Warehouse(tmp_path / "empty").create()
    assert main(["datasets", "build", "--warehouse", str(tmp_path / "empty")]) == 2
    assert "no tasks in the warehouse" in capsys.readouterr().err
    (tmp_path / "sft").mkdir()
    (tmp_path / "sft" / "compoworld.json").write_text("{}")  # an older layout: not left to pass for this build
    assert main(["datasets", "build", "--kind", "sft", "--agent", "nobody", "--out", str(tmp_path),
                 "--warehouse", str(wh.root)]) == 2
    assert "sft: the sft dataset has no train rows" in capsys.readouterr().err
    assert not (tmp_path / "sft").exists()


# -- pushes --------------------------------------------------------------------------------------
class MockHub:
    """The Hub endpoints huggingface_hub's create_repo / list_repo_files / create_commit / create_tag /
    delete_tag call, on 127.0.0.1; it keeps the repository's files and tags and records every request."""

    def __init__(self, refuse_create: int | None = None) -> None:
        self.requests: list[dict[str, Any]] = []
        self.files: dict[str, bytes] = {}
        self.tags: dict[str, str] = {}
        self.commits: list[dict[str, Any]] = []
        self.refuse_create = refuse_create
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, code: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self, method: str) -> None:
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                hub.requests.append({"method": method, "path": url.path, "query": parse_qs(url.query),
                                     "auth": self.headers.get("Authorization"), "body": raw})
                code, body = hub.route(method, url.path, raw)
                self._reply(code, body)

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

            def do_DELETE(self) -> None:
                self._handle("DELETE")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def route(self, method: str, path: str, raw: bytes) -> tuple[int, Any]:
        if path == "/api/repos/create":
            if self.refuse_create:
                return self.refuse_create, {"error": "You don't have the rights to create a dataset under this namespace"}
            return 200, {"url": f"{self.endpoint}/datasets/org/name"}
        if path == "/api/validate-yaml":
            return 200, {"errors": [], "warnings": []}
        parts = path.split("/")  # /api/datasets/ORG/NAME/<verb>/<rev>[...]
        verb = parts[5] if len(parts) > 5 else ""
        if verb == "tree":
            return 200, [{"type": "file", "path": p, "size": len(b), "oid": "0" * 40} for p, b in sorted(self.files.items())]
        if verb == "preupload":
            files = json.loads(raw)["files"]
            return 200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]}
        if verb == "commit":
            lines = [json.loads(x) for x in raw.decode().splitlines() if x.strip()]
            header = next(x["value"] for x in lines if x["key"] == "header")
            for x in lines:
                if x["key"] == "file":
                    self.files[x["value"]["path"]] = base64.b64decode(x["value"]["content"])
                elif x["key"] == "deletedFile":
                    self.files.pop(x["value"]["path"])
            oid = f"{len(self.commits) + 1:040x}"
            self.commits.append({"oid": oid, "header": header, "ops": lines[1:]})
            return 200, {"commitUrl": f"{self.endpoint}/datasets/org/name/commit/{oid}", "commitOid": oid}
        if verb == "tag" and method == "POST":
            tag = json.loads(raw)["tag"]
            if tag in self.tags:
                return 409, {"error": "Tag already exists"}
            self.tags[tag] = parts[6]
            return 200, {}
        if verb == "tag" and method == "DELETE":
            self.tags.pop(parts[6], None)
            return 200, {}
        return 404, {"error": f"not mocked: {method} {path}"}

    def calls(self) -> list[str]:
        return [f"{r['method']} {r['path']}" for r in self.requests]

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def hub() -> Any:
    h = MockHub()
    yield h
    h.close()


def _cli(args: list[str], env: dict[str, str], home: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    base.update({"HF_HOME": str(home), "TOKENIZERS_PARALLELISM": "false", **env})
    code = "import sys; from compoworld.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=base,
                          cwd=REPO, timeout=120)


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file())


def test_push_to_hub_one_commit_and_a_tag(out: Path, wh: Warehouse, run_id: str, hub: MockHub, tmp_path: Path) -> None:
    proc = _cli(["datasets", "push", "--kind", "sft", "--repo", "org/compoworld-sft", "--out", str(out),
                 "--warehouse", str(wh.root)],
                {"HF_TOKEN": TOKEN, "HF_ENDPOINT": hub.endpoint, "HF_HUB_OFFLINE": "0"}, tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    assert hub.calls() == [
        "POST /api/repos/create", "GET /api/datasets/org/compoworld-sft/tree/main", "POST /api/validate-yaml",
        "POST /api/datasets/org/compoworld-sft/preupload/main", "POST /api/datasets/org/compoworld-sft/commit/main",
        f"POST /api/datasets/org/compoworld-sft/tag/{hub.commits[0]['oid']}"]
    assert all(r["auth"] == f"Bearer {TOKEN}" for r in hub.requests)
    assert json.loads(hub.requests[0]["body"]) == {"name": "compoworld-sft", "organization": "org", "type": "dataset"}
    (commit,) = hub.commits
    assert run_id in commit["header"]["summary"] and commit["header"]["summary"].startswith("CompoWorld SFT dataset")
    manifest = read_manifest(out / "sft")
    expected = ["README.md", "compoworld.json", *(s["file"] for s in manifest["splits"].values())]
    assert sorted(hub.files) == sorted(expected)
    assert all(hub.files[f] == (out / "sft" / f).read_bytes() for f in expected)
    assert hub.tags == {run_id: commit["oid"]}
    # recorded in the warehouse; the token is nowhere: not in the output, the warehouse, the layout
    rows = wh.query("SELECT split, pushed_to, card_json FROM datasets WHERE run_id = ? AND kind = 'sft'", [run_id])
    assert {r["split"] for r in rows} == set(manifest["splits"]) and all(r["pushed_to"] == "org/compoworld-sft" for r in rows)
    assert all(json.loads(r["card_json"])["hub"]["commit"] == commit["oid"] for r in rows)
    assert TOKEN not in proc.stdout + proc.stderr
    assert TOKEN.encode() not in _all_bytes(wh.root) and TOKEN.encode() not in _all_bytes(out)
    assert commit["oid"] in proc.stdout and "Traceback" not in proc.stderr


def test_push_again_replaces_stale_files_and_moves_the_tag(wh: Warehouse, run_id: str, hub: MockHub,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    build(wh, tmp_path / "a", ("rl",), run_id)
    first = push_to_hub(tmp_path / "a" / "rl", "org/rl", token=TOKEN, endpoint=hub.endpoint, wh=wh)
    assert "data/test-00000-of-00001.parquet" in hub.files
    build(wh, tmp_path / "b", ("rl",), run_id, BuildOptions(test_fraction=0.0))  # now train only
    second = push_to_hub(tmp_path / "b" / "rl", "org/rl", token=TOKEN, endpoint=hub.endpoint, wh=wh)
    deletions = [op["value"]["path"] for op in hub.commits[1]["ops"] if op["key"] == "deletedFile"]
    assert deletions == ["data/test-00000-of-00001.parquet"] and "data/test-00000-of-00001.parquet" not in hub.files
    assert first["commit"] != second["commit"] and hub.tags == {run_id: second["commit"]}
    assert hub.calls()[-3:] == [f"POST /api/datasets/org/rl/tag/{second['commit']}",
                                f"DELETE /api/datasets/org/rl/tag/{run_id}", f"POST /api/datasets/org/rl/tag/{second['commit']}"]


def test_push_errors_are_clear(out: Path, wh: Warehouse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proc = _cli(["datasets", "push", "--kind", "sft", "--repo", "org/x", "--out", str(out), "--warehouse", str(wh.root)],
                {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": "http://127.0.0.1:9"}, tmp_path / "home")
    assert proc.returncode == 2 and proc.stderr.startswith("error: no Hugging Face token") and "Traceback" not in proc.stderr
    proc = _cli(["datasets", "push", "--kind", "sft", "--repo", "org/x", "--out", str(out), "--warehouse", str(wh.root)],
                {"HF_HUB_OFFLINE": "1", "HF_TOKEN": TOKEN}, tmp_path / "home")
    assert proc.returncode == 2 and "HF_HUB_OFFLINE" in proc.stderr and TOKEN not in proc.stderr

    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    refusing = MockHub(refuse_create=403)
    try:
        with pytest.raises(PushError, match=r"refused to create the repository on org/x \(HTTP 403\).*write access") as e:
            push_to_hub(out / "sft", "org/x", token=TOKEN, endpoint=refusing.endpoint)
        assert TOKEN not in str(e.value)
    finally:
        refusing.close()
    with pytest.raises(PushError, match="could not"):
        push_to_hub(out / "sft", "org/x", token=TOKEN, endpoint="http://127.0.0.1:9")
    with pytest.raises(PushError, match="ORG/NAME"):
        push_to_hub(out / "sft", "not a repo", token=TOKEN, endpoint="http://127.0.0.1:9")


def test_push_to_local_folder(out: Path, wh: Warehouse, run_id: str, tmp_path: Path) -> None:
    res = push_to_folder(out / "rl", "org/rl", tmp_path, wh=wh)
    target = tmp_path / "datasets" / "org" / "rl"
    assert _load(target)["train"].num_rows == read_manifest(out / "rl")["splits"]["train"]["rows"]
    assert json.loads((target / ".hub" / "tags.json").read_text()) == {run_id: res["commit"]}
    (target / "data" / "stale-00000-of-00001.parquet").write_bytes(b"x")
    push_to_folder(out / "rl", "org/rl", tmp_path, wh=wh)
    assert not (target / "data" / "stale-00000-of-00001.parquet").exists()
    assert len((target / ".hub" / "commits.jsonl").read_text().splitlines()) == 2
    part = wh.read_part("datasets", run_id, f"push-rl-{hashlib.sha256(str(target.absolute()).encode()).hexdigest()[:12]}")
    assert {r["split"] for r in part} == set(read_manifest(out / "rl")["splits"])
    assert all(r["pushed_to"] == str(target.absolute()) and json.loads(r["card_json"])["hub"]["commit"] for r in part)


def test_provenance_of_compiled_services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A service compiled from an MCP spec is listed with its collection, repository and per-server licence."""
    from compoworld.datasets import provenance
    from compoworld.datasets.card import body, licence_meta
    from compoworld.datasets.layout import licence_file
    from compoworld.services import registry
    from compoworld.synthesis.compiler import compile_server
    from compoworld.synthesis.loader import load_specs

    spec = {"id": "toucan/9999", "source": "toucan", "name": "Weather Test", "license": "Apache-2.0",
            "repository": "https://example.org/weather-mcp",
            "tools": [{"name": "get_forecast", "description": "Get the forecast for a city.",
                       "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City"}},
                                       "required": ["city"]}}]}
    (tmp_path / "test.jsonl").write_text(json.dumps(spec) + "\n")
    (server,) = load_specs([tmp_path / "test.jsonl"]).servers
    _, cls = compile_server(server, "weather_test")
    real = registry.get_service
    monkeypatch.setattr(registry, "get_service", lambda name: cls if name == "weather_test" else real(name))
    monkeypatch.setenv("COMPOWORLD_CORPUS_DIR", str(tmp_path))
    provenance._corpus_index.cache_clear()
    try:
        crm, weather = provenance.service_provenance(["weather_test", "crm"], {"crm": "sales"})
    finally:
        provenance._corpus_index.cache_clear()
    assert crm == {"name": "crm", "domain": "sales", "origin": "library", "license": "apache-2.0"}
    assert weather["origin"] == "compiled" and weather["spec_id"] == "toucan/9999" and weather["collection"] == "toucan"
    assert weather["license"] == "Apache-2.0" and weather["repository"] == "https://example.org/weather-mcp"
    assert licence_meta([crm, weather])["license"] == "other" and licence_meta([crm]) == {"license": "apache-2.0"}
    assert "`weather_test` from `toucan/9999` (Weather Test, https://example.org/weather-mcp): Apache-2.0" in licence_file([crm, weather])
    manifest = {"kind": "rl", "splits": {"train": {"rows": 1, "tasks": 1, "dataset_id": "ds_x"}}, "stats": {},
                "split_rule": {"salt": "s", "test_fraction": 0.1}, "source": {"run_ids": ["run-x"], "runs": []},
                "services": [crm, weather], "code_version": "0", "filters": {}}
    text = body(manifest, {"task_id": "the task"})
    assert "| `weather_test` |" in text and "TheAgentArk/Toucan" in text and "pathintegral-institute/mcpm.sh" in text
