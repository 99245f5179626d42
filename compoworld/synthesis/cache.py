"""The synthesis cache: compiled service plans (and accepted coder-written modules) written by a synth
run, loaded back as `Service` classes without recompiling anything.

Layout under `cache_dir()` (`$COMPOWORLD_CACHE_DIR/synth`, default `.cache/synth` at the repo root):
  index.json      every compiled service: name, version, sizes, whether it verified, where its plan is
  plans-*.jsonl   the plans, one a line (read by offset, only when a service is first used)
  coded/<name>.py services whose coder-written module passed verification (replace the plan)
  report.json     the last run's full report (rejections, per-check results) for the warehouse
  fidelity.json   each compiled service's fidelity check results (the verify stage's `fidelity:*` rows)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel

from compoworld.atomic import atomic_write_bytes
from compoworld.canonical import short_hash
from compoworld.services.service import Service
from compoworld.synthesis.plan import ServicePlan

FORMAT = 3  # 3: each tool's fidelity level in the index


class CacheEntry(BaseModel):
    plan: ServicePlan
    verified: bool
    synthesis: str = "compiler"
    code_file: str | None = None  # relative to the cache dir


def cache_dir() -> Path:
    from compoworld.llm import cache_root

    return cache_root() / "synth"


def save(entries: list[CacheEntry], report_json: bytes | None = None, directory: Path | None = None,
         fidelity: dict[str, list[dict[str, Any]]] | None = None) -> Path:
    """Write the cache: every plan into one blob, then a small index of where each plan is.

    Each file is written to a temporary name and renamed, and the index names the blob it
    belongs to, so a reader never pairs an index with another run's plans."""
    d = directory or cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    chunks: list[bytes] = []
    index: list[dict[str, Any]] = []
    offset = 0
    for e in entries:
        blob = e.plan.model_dump_json().encode()
        index.append({"name": e.plan.name, "version": e.plan.version, "domain": e.plan.domain, "description": e.plan.description,
                      "title": e.plan.title, "source_id": e.plan.source_id, "forks": e.plan.forks, "n_tools": len(e.plan.tools),
                      "n_world_model": sum(t.op == "world_model" for t in e.plan.tools), "verified": e.verified,
                      "fidelity": {t.name: t.fidelity for t in e.plan.tools},
                      "synthesis": e.synthesis, "code_file": e.code_file, "offset": offset, "length": len(blob)})
        chunks.append(blob + b"\n")
        offset += len(blob) + 1
    data = b"".join(chunks)
    plans_name = f"plans-{short_hash(data, 12)}.jsonl"
    atomic_write_bytes(d / plans_name, data)
    atomic_write_bytes(d / "index.json", orjson.dumps({"format": FORMAT, "plans": plans_name, "services": index}))
    for old in d.glob("plans-*.jsonl"):
        if old.name != plans_name:
            old.unlink(missing_ok=True)
    if report_json is not None:
        atomic_write_bytes(d / "report.json", report_json)
    versions = {e.plan.name: e.plan.version for e in entries}
    atomic_write_bytes(d / "fidelity.json", orjson.dumps({name: {"version": versions[name], "checks": checks}
                                                          for name, checks in (fidelity or {}).items() if name in versions}))
    _memo.clear()
    _fidelity_memo.clear()
    return d / "index.json"


_memo: dict[tuple[str, int, int, bool], dict[str, type[Service]]] = {}


def load_compiled(verified_only: bool = False, directory: Path | None = None) -> dict[str, type[Service]]:
    """Compiled services from the cache, by name (empty when no synth run has written one).

    Reads only the index; each class parses its own plan the first time an environment uses it."""
    d = directory or cache_dir()
    path = d / "index.json"
    try:
        st = path.stat()
    except OSError:
        return {}
    key = (str(path), st.st_mtime_ns, st.st_size, verified_only)
    hit = _memo.get(key)
    if hit is not None:
        return dict(hit)
    from compoworld.synthesis.compiler import lazy_service

    try:
        index = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}  # an unreadable cache is as good as none: `compoworld synth` rebuilds it
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        return {}
    blob = d / str(index.get("plans"))
    out: dict[str, type[Service]] = {}
    for meta in index.get("services", []):
        if verified_only and not meta.get("verified"):
            continue
        cls: type[Service] | None = None
        if meta.get("code_file"):
            cls = _load_module_service(d / meta["code_file"], meta["name"])
        if cls is None:
            cls = lazy_service({**meta, "cache_dir": str(d)}, _plan_reader(blob, int(meta["offset"]), int(meta["length"])))
        out[meta["name"]] = cls
    _memo.clear()
    _memo[key] = out
    return dict(out)


_fidelity_memo: dict[tuple[str, int, int], dict[str, Any]] = {}


def fidelity_checks(cls: type[Service]) -> list[dict[str, Any]]:
    """The fidelity check results (`CheckResult` dicts) the synth run recorded for a cached compiled
    service, as they were before failing tools were recompiled; empty for any other service, or when
    the cache holds another version of it."""
    meta = cls.__dict__.get("_meta") or {}
    if not meta.get("cache_dir"):
        return []
    path = Path(meta["cache_dir"]) / "fidelity.json"
    try:
        st = path.stat()
    except OSError:
        return []
    key = (str(path), st.st_mtime_ns, st.st_size)
    data = _fidelity_memo.get(key)
    if data is None:
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            data = {}
        _fidelity_memo.clear()
        _fidelity_memo[key] = data if isinstance(data, dict) else {}
    entry = (data or {}).get(cls.name) or {}
    return list(entry.get("checks") or []) if entry.get("version") == cls.version else []


def at_fidelity(classes: dict[str, type[Service]], levels: set[str]) -> dict[str, type[Service]]:
    """The services of `classes` with only their tools at one of `levels` (compiled services; others
    pass unchanged). A compiled service left with no tool is dropped; a cached one still parses its
    plan only when first used."""
    from compoworld.synthesis.compiler import build_service, lazy_service

    out: dict[str, type[Service]] = {}
    for name, cls in classes.items():
        meta = cls.__dict__.get("_meta")
        if getattr(cls, "origin", "") != "compiled" or getattr(cls, "synthesis", "") != "compiler":
            out[name] = cls
            continue
        levels_by_tool = meta.get("fidelity") if meta is not None else {t.name: t.fidelity for t in cls.plan.tools}
        keep = {t for t, level in (levels_by_tool or {}).items() if level in levels}
        if not keep:
            continue
        if len(keep) == len(levels_by_tool or {}):
            out[name] = cls
        elif meta is not None:
            loader = cls.__dict__["_plan_loader"]
            kept = {t: levels_by_tool[t] for t in keep}
            out[name] = lazy_service({**meta, "n_tools": len(keep), "fidelity": kept,
                                      "n_world_model": sum(level == "simulated" for level in kept.values())}, _kept(loader, keep))
        else:
            out[name] = build_service(_keep_tools(cls.plan, keep), verified=cls.verified)
    return out


def _keep_tools(plan: ServicePlan, keep: set[str]) -> ServicePlan:
    return plan.model_copy(update={"tools": [t for t in plan.tools if t.name in keep]})


def _kept(loader: Any, keep: set[str]) -> Any:
    def read() -> ServicePlan:
        return _keep_tools(loader(), keep)

    return read


def _plan_reader(blob: Path, offset: int, length: int) -> Any:
    def read() -> ServicePlan:
        with open(blob, "rb") as fh:
            fh.seek(offset)
            return ServicePlan.model_validate_json(fh.read(length))

    return read


def _load_module_service(path: Path, name: str) -> type[Service] | None:
    """The `Service` subclass named `name` defined by an accepted coder-written module."""
    if not path.exists():
        return None
    mod_name = f"compoworld_coded_{name}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
    except Exception:
        sys.modules.pop(mod_name, None)
        return None
    for obj in vars(module).values():
        if isinstance(obj, type) and issubclass(obj, Service) and getattr(obj, "name", None) == name:
            obj.origin = "compiled"
            obj.synthesis = "coder"  # type: ignore[attr-defined]
            obj.verified = True  # type: ignore[attr-defined]
            return obj
    return None


def info_extra(cls: type[Any]) -> dict[str, Any]:
    """What `services list` can show beyond `Service.info()` for a compiled service."""
    plan = getattr(cls, "plan", None)
    return {
        "verified": getattr(cls, "verified", None),
        "synthesis": getattr(cls, "synthesis", None),
        "source_id": plan.source_id if plan is not None else None,
        "forks": list(plan.forks) if plan is not None else [],
    }
