"""The Hub repository layout, written locally: README.md (the card), data/<split>-00000-of-00001.parquet,
and compoworld.json (the build manifest: counts, content ids, filters, runs, code version).

`datasets.load_dataset(DIR)` loads it through the card's `configs` header; `push` uploads it as is.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from compoworld.atomic import atomic_write_text
from compoworld.canonical import content_hash
from compoworld.datasets.card import render_card

MANIFEST = "compoworld.json"
CARD = "README.md"
DATA_DIR = "data"


def data_file(split: str) -> str:
    return f"{DATA_DIR}/{split}-00000-of-00001.parquet"


class EmptyDataset(ValueError):
    """Nothing to write: `load_dataset` cannot load a dataset without rows."""


def write_layout(out_dir: Path, kind: str, splits: dict[str, list[dict[str, Any]]], manifest: dict[str, Any]) -> dict[str, Any]:
    """Write the layout for `splits` (split name -> rows) and return the completed manifest.

    Data files of splits no longer present are removed; a split with no rows is left out (`load_dataset`
    cannot load an empty split), and a dataset without train rows is an `EmptyDataset` error.
    """
    import datasets

    from compoworld.datasets.schema import features, field_docs

    if not splits.get("train"):
        stats = ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in manifest.get("stats", {}).items())
        raise EmptyDataset(f"the {kind} dataset has no train rows ({stats or 'no source rows'})")

    datasets.disable_progress_bars()
    feats = features(kind)
    out_dir.mkdir(parents=True, exist_ok=True)
    data = out_dir / DATA_DIR
    if data.is_dir():
        shutil.rmtree(data)
    data.mkdir()
    info: dict[str, Any] = {}
    for name, rows in splits.items():
        if not rows:
            continue
        path = out_dir / data_file(name)
        ds = datasets.Dataset.from_list(rows, features=feats)
        ds.to_parquet(str(path))
        info[name] = {"rows": len(rows), "tasks": len({r["task_id"] for r in rows}), "file": data_file(name),
                      "bytes": path.stat().st_size, "dataset_id": "ds_" + content_hash([kind, name, rows])}
    manifest = {**manifest, "kind": kind, "splits": info, "fields": list(field_docs(kind))}
    atomic_write_text(out_dir / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    atomic_write_text(out_dir / CARD, render_card(manifest, feats._to_yaml_list(), field_docs(kind)))
    licence = licence_file(manifest["services"])
    if licence:
        atomic_write_text(out_dir / "LICENSE.md", licence)
    elif (out_dir / "LICENSE.md").exists():
        (out_dir / "LICENSE.md").unlink()
    return manifest


def licence_file(services: list[dict[str, Any]]) -> str | None:
    """Per-server licences, for datasets that include services compiled from MCP specifications."""
    compiled = [s for s in services if s.get("origin") == "compiled"]
    if not compiled:
        return None
    lines = ["# Licences", "", "CompoWorld first-party services and the generated data: Apache-2.0.", "",
             "Services compiled from public MCP server specifications keep the server's licence:", ""]
    lines += [f"- `{s['name']}` from `{s.get('spec_id', '')}` ({s.get('server', '')}, {s.get('repository', '') or 'no repository'}): "
              f"{s.get('license', 'unspecified')}" for s in compiled]
    return "\n".join(lines) + "\n"


def read_manifest(out_dir: Path) -> dict[str, Any]:
    path = Path(out_dir) / MANIFEST
    if not path.is_file():
        raise FileNotFoundError(f"no dataset layout at {out_dir} (missing {MANIFEST}); build it first")
    return json.loads(path.read_text())


def layout_files(out_dir: Path) -> list[str]:
    """Repo-relative paths of the files a push uploads (manifest, card, licence, data files)."""
    out_dir = Path(out_dir)
    manifest = read_manifest(out_dir)
    files = [CARD, MANIFEST] + [s["file"] for s in manifest["splits"].values()]
    if (out_dir / "LICENSE.md").is_file():
        files.append("LICENSE.md")
    return files
