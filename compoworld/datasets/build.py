"""Assemble the SFT and RL datasets from the warehouse into Hub layouts, and record them.

`build_datasets(wh, out_dir, run_id)` is the pipeline's "assemble datasets" stage: it reads the
run's tasks and trajectories (every run when `run_id` is None), writes `out_dir/sft` and
`out_dir/rl`, and writes one `datasets` row per (kind, split) under the run.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from compoworld.canonical import canonical_json, content_hash, short_hash
from compoworld.config import RUNTIME_FIELDS
from compoworld.datasets.catalog import tools_catalog
from compoworld.datasets.layout import MANIFEST, EmptyDataset, write_layout
from compoworld.datasets.provenance import code_version, service_provenance
from compoworld.datasets.rows import SFTFilters, in_domains, rl_row, sft_rows
from compoworld.datasets.source import Source, load_source, load_trajectories
from compoworld.datasets.splits import assign_splits
from compoworld.services.environment import DiscoverMode
from compoworld.warehouse import Warehouse

Kind = Literal["sft", "rl"]
SPLIT_SALT = "compoworld-splits-v1"
DATASET_NAMES = {"sft": "compoworld-sft", "rl": "compoworld-rl"}


@dataclass(frozen=True)
class BuildOptions:
    filters: SFTFilters = field(default_factory=SFTFilters)  # agents and partial credit apply to SFT; domains to both
    test_fraction: float = 0.1
    # SFT keeps the trajectories collected in this mode and RL offers its tasks in it; None: every
    # row in the mode of the run it comes from.
    discover_mode: DiscoverMode | None = None

    def config(self) -> dict[str, Any]:
        return {"filters": self.filters.describe(), "test_fraction": self.test_fraction, "discover_mode": self.discover_mode}


def record_run_id(run_id: str | None, source: Source) -> str:
    """The run the `datasets` rows (and a push's tag) go under: the given run, else the one source run,
    else an id derived from the source runs."""
    if run_id:
        return run_id
    if len(source.run_ids) == 1:
        return source.run_ids[0]
    return "datasets-" + short_hash("\x00".join(source.run_ids), 12)


def _runs(source: Source) -> list[dict[str, Any]]:
    """The source runs' configs, without the fields that only say how a run was executed (paths,
    workers, schedules): they change no row, and local paths do not belong in a published card."""
    out = []
    for r in source.runs:
        config = r.config
        if isinstance(config, dict):
            config = {k: v for k, v in config.items() if k not in RUNTIME_FIELDS}
        out.append({"run_id": r.run_id, "flow": r.flow, "code_version": r.code_version, "config": config})
    return out


def _split_of(source: Source, test_fraction: float) -> dict[str, str]:
    """Splits over every task of the source, so SFT and RL agree task by task."""
    return assign_splits({tid: (rec.task.services, rec.env_services) for tid, rec in source.tasks.items()},
                         test_fraction, SPLIT_SALT)


def _manifest(source: Source, run_id: str | None, options: BuildOptions, rows: list[dict[str, Any]], stats: dict[str, int],
              kind: Kind) -> dict[str, Any]:
    filters = options.filters.describe() if kind == "sft" else ({"domains": list(options.filters.domains)} if options.filters.domains else {})
    services = sorted({s for r in rows for s in r["services"]})
    return {
        "name": DATASET_NAMES[kind],
        "run_id": record_run_id(run_id, source),
        "code_version": code_version(),
        "source": {"run_ids": source.run_ids, "runs": _runs(source)},
        "filters": filters,
        "split_rule": {"held_out_by": "service set", "test_fraction": options.test_fraction, "salt": SPLIT_SALT},
        "stats": stats,
        "discover_modes": sorted({r["discover_mode"] for r in rows}),
        "services": service_provenance(services, source.domains),
    }


def _by_split(rows: list[dict[str, Any]], split_of: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {"train": [], "test": []}
    for r in rows:
        out[split_of.get(r["task_id"], "train")].append(r)
    return out


def build_sft(wh: Warehouse, out_dir: Path, run_id: str | None = None, options: BuildOptions = BuildOptions(),
              source: Source | None = None) -> dict[str, Any]:
    source = source or load_source(wh, run_id)
    f = options.filters
    trajectories, stats = load_trajectories(wh, run_id, f.min_partial_credit, f.agents or None)
    built = sft_rows(trajectories, source.tasks, f, tools_catalog, options.discover_mode)
    stats = {**stats, **built.stats, "rows": len(built.rows)}
    manifest = _manifest(source, run_id, options, built.rows, stats, "sft")
    return write_layout(Path(out_dir), "sft", _by_split(built.rows, _split_of(source, options.test_fraction)), manifest)


def build_rl(wh: Warehouse, out_dir: Path, run_id: str | None = None, options: BuildOptions = BuildOptions(),
             source: Source | None = None) -> dict[str, Any]:
    source = source or load_source(wh, run_id)
    kept = [rec for rec in source.tasks.values() if in_domains(rec, options.filters.domains)]
    rows = [rl_row(rec, tools_catalog, options.discover_mode or source.modes.get(rec.run_id, "direct")) for rec in kept]
    stats = {"tasks_read": len(source.tasks), "other_domain": len(source.tasks) - len(kept), "rows": len(rows)}
    manifest = _manifest(source, run_id, options, rows, stats, "rl")
    return write_layout(Path(out_dir), "rl", _by_split(rows, _split_of(source, options.test_fraction)), manifest)


def dataset_rows(manifest: dict[str, Any], location: Path, pushed_to: str | None = None,
                 hub: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """`datasets` table rows of a built (or pushed) layout: one per split."""
    card = {k: manifest[k] for k in ("name", "kind", "run_id", "code_version", "source", "filters", "split_rule", "stats")}
    card["discover_modes"] = manifest.get("discover_modes", ["direct"])  # layouts built before gateway mode were direct
    if hub:
        card["hub"] = hub
    return [{"dataset_id": s["dataset_id"], "name": manifest["name"], "kind": manifest["kind"], "split": split,
             "n_rows": s["rows"], "location": str(location), "pushed_to": pushed_to,
             "card_json": canonical_json({**card, "split": split, "file": s["file"], "bytes": s["bytes"]})}
            for split, s in manifest["splits"].items()]


def build(wh: Warehouse, out_dir: Path, kinds: tuple[Kind, ...] = ("sft", "rl"), run_id: str | None = None,
          options: BuildOptions = BuildOptions()) -> dict[str, Any]:
    """Build the given kinds under `out_dir/<kind>` and record them in the warehouse. A kind with no
    rows (filters that keep nothing, a run without a success) is skipped, with the reason in the result."""
    out_dir = Path(out_dir)
    source = load_source(wh, run_id)
    record_as = record_run_id(run_id, source)
    result: dict[str, Any] = {"run_id": record_as, "source_run_ids": source.run_ids}
    for kind in kinds:
        location = out_dir / kind
        builder = build_sft if kind == "sft" else build_rl
        try:
            manifest = builder(wh, location, run_id, options, source)
        except EmptyDataset as exc:
            if (location / MANIFEST).is_file():  # an older build's layout would pass for this run's
                shutil.rmtree(location)
            result[kind] = {"path": str(location), "skipped": str(exc)}
            continue
        wh.write("datasets", dataset_rows(manifest, location.absolute()), run_id=manifest["run_id"], part=f"build-{kind}",
                 config_hash=content_hash(options.config()))
        result[kind] = {"path": str(location), "splits": {k: v["rows"] for k, v in manifest["splits"].items()},
                        "dataset_ids": {k: v["dataset_id"] for k, v in manifest["splits"].items()}, "stats": manifest["stats"],
                        "discover_modes": manifest["discover_modes"]}
    return result


def build_datasets(wh: Warehouse, out_dir: Path, run_id: str | None = None) -> dict[str, Any]:
    """The pipeline's "assemble datasets" stage: SFT and RL layouts under `out_dir`, recorded in `datasets`."""
    return build(wh, Path(out_dir), ("sft", "rl"), run_id)
