"""The MCP spec corpus ships with the project: a fresh clone compiles it with nothing beside the
repository, nothing reads a folder outside it, and a corpus or spec path that is not there is an
error (one line, exit 2) that leaves the compiled services as they were."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld.cli import main
from compoworld.synthesis.loader import CORPUS_ENV, default_corpus_dir

REPO = Path(__file__).resolve().parents[1]
CORPUS_FILES = ("mcpm.jsonl.gz", "toucan.jsonl.gz")


def test_the_default_corpus_is_inside_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CORPUS_ENV, raising=False)
    corpus = default_corpus_dir()
    assert corpus.is_relative_to(REPO) and corpus == REPO / "corpus" / "mcp"
    readme = (REPO / "corpus" / "README.md").read_text()
    for name in CORPUS_FILES:
        assert (corpus / name).stat().st_size > 100_000
        assert f"mcp/{name}" in readme  # each file's provenance is stated
    assert "## Licences" in readme
    monkeypatch.setenv(CORPUS_ENV, "/elsewhere")
    assert default_corpus_dir() == Path("/elsewhere")


@pytest.mark.integration
def test_a_fresh_checkout_compiles_the_shipped_corpus(tmp_path: Path) -> None:
    """`compoworld synth` as a new user runs it: no corpus variable, a home and a working folder of
    its own, an empty cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOWORLD_")}
    env.update(HOME=str(tmp_path / "home"), COMPOWORLD_CACHE_DIR=str(tmp_path / "cache"))
    (tmp_path / "home").mkdir()
    exe = Path(sys.executable).parent / "compoworld"
    out = subprocess.run([str(exe), "synth", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads(out.stdout)
    assert summary["services_compiled"] >= 950 and summary["tools_compiled"] >= 7000
    assert summary["servers_unique"] == 999
    assert (tmp_path / "cache" / "synth" / "index.json").exists()


# -- nothing reads outside the repository -----------------------------------------------------------

# "shared" as a folder in a path: `/shared`, `shared/`, `/ "shared"` or `"shared" /` (pathlib), or an
# argument of Path(...) / os.path.join(...) / joinpath(...). A word "shared" in prose or as a value is not.
SHARED_PATH = re.compile(r"""[/\\]shared\b|\bshared[/\\]|/\s*["']shared["']|["']shared["']\s*/|"""
                         r"""(?:Path|join|joinpath)\([^)\n]*["']shared["']""")
SCANNED = ("compoworld", "flows", "tests", "bench")


def _text_files() -> list[Path]:
    files = [REPO / "Makefile"]
    for top in SCANNED:
        files += [p for p in (REPO / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return [p for p in files if p.resolve() != Path(__file__).resolve()]


def test_no_path_leads_to_a_shared_folder_outside_the_repository() -> None:
    hits = []
    for path in _text_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue  # binary data (a Parquet fixture, an archive) names no path
        hits += [f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in SHARED_PATH.finditer(text)]
    assert not hits, hits


def test_the_shared_path_rule_can_fail() -> None:
    for line in ('REPO_ROOT.parent / "shared" / "corpus"', "open('../shared/corpus/mcp')", "/work/shared/DESIGN.md",
                 'Path("shared")', 'os.path.join(root, "shared", "x")'):
        assert SHARED_PATH.search(line), line
    for line in ('kind: Literal["personal", "shared"]', '"kind": "shared"', "# the shared world", "shared_with: list[Share]"):
        assert not SHARED_PATH.search(line), line


# -- missing or unreadable input is an error, and the compiled set stays ---------------------------------

def _compiled_set(cache: Path) -> bytes:
    return (cache / "synth" / "index.json").read_bytes()


@pytest.fixture
def compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache holding a compiled set made from a one-server spec."""
    from compoworld.synthesis import run_synth

    spec = tmp_path / "weather.json"
    spec.write_text(json.dumps({"name": "Weather", "tools": [{"name": "get_forecast", "description": "Get the forecast for a city.",
                                                              "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                                                                              "required": ["city"]}}]}))
    cache = tmp_path / "cache"
    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(cache))
    run_synth([spec], workers=1, verify_library_services=False)
    monkeypatch.chdir(tmp_path)
    return cache


def _synth_fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["synth", *argv]) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_a_missing_spec_path_or_corpus_is_an_error_and_keeps_the_compiled_set(
        compiled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    before = _compiled_set(compiled)
    assert "no spec file at nope.json" in _synth_fails(["--specs", "nope.json"], capsys)
    monkeypatch.setenv(CORPUS_ENV, str(tmp_path / "gone"))
    line = _synth_fails([], capsys)
    assert CORPUS_ENV in line and "does not exist" in line
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv(CORPUS_ENV, str(tmp_path / "empty"))
    assert "holds no MCP spec file" in _synth_fails([], capsys)
    (tmp_path / "empty" / "broken.json").write_text("{not json")
    assert "no MCP server spec could be read" in _synth_fails([], capsys)
    assert _compiled_set(compiled) == before


def test_a_missing_shipped_corpus_says_how_to_restore_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from compoworld.errors import UserError
    from compoworld.synthesis import loader

    monkeypatch.delenv(CORPUS_ENV, raising=False)
    monkeypatch.setattr(loader, "SHIPPED_CORPUS", tmp_path / "corpus" / "mcp")
    with pytest.raises(UserError, match=r"corpus is missing.*git checkout -- corpus.*COMPOWORLD_CORPUS_DIR"):
        loader.load_specs()


def test_the_synthesize_stage_stops_on_a_missing_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from compoworld.config import PipelineConfig
    from compoworld.errors import UserError
    from compoworld.stages.base import RunContext
    from compoworld.stages.synthesize import STAGE
    from compoworld.warehouse import Warehouse

    monkeypatch.setenv(CORPUS_ENV, str(tmp_path / "gone"))
    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path / "cache"))
    ctx = RunContext(PipelineConfig.model_validate({"warehouse": str(tmp_path / "wh")}), Warehouse(tmp_path / "wh"))
    (batch,) = STAGE.plan(ctx)
    with pytest.raises(UserError, match="does not exist"):
        STAGE.run(ctx, batch)
    assert not (tmp_path / "cache" / "synth").exists()
