"""The synthesis cache: compiled service plans (and accepted coder-written modules) written by a synth
run, loaded back as `Service` classes without recompiling anything.

Layout under `cache_dir()` (`$COMPOWORLD_CACHE_DIR/synth`, default `.cache/synth` at the repo root):
  services.json   every compiled service: its plan, whether it verified, how it was synthesized
  coded/<name>.py services whose coder-written module passed verification (replace the plan)
  report.json     the last run's full report (rejections, per-check results) for the warehouse
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from compoworld.services.service import Service
from compoworld.synthesis.plan import ServicePlan

FORMAT = 1


class CacheEntry(BaseModel):
    plan: ServicePlan
    verified: bool
    synthesis: str = "compiler"
    code_file: str | None = None  # relative to the cache dir


class CacheFile(BaseModel):
    format: int = FORMAT
    services: list[CacheEntry] = Field(default_factory=list)


def cache_dir() -> Path:
    from compoworld.llm import cache_root

    return cache_root() / "synth"


def save(entries: list[CacheEntry], report_json: bytes | None = None, directory: Path | None = None) -> Path:
    """Write the cache atomically (temp file, then rename): readers never see a half-written file."""
    d = directory or cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / "services.json"
    tmp = d / f".services.json.{os.getpid()}.tmp"
    tmp.write_text(CacheFile(services=entries).model_dump_json(), encoding="utf-8")
    os.replace(tmp, path)
    if report_json is not None:
        rtmp = d / f".report.json.{os.getpid()}.tmp"
        rtmp.write_bytes(report_json)
        os.replace(rtmp, d / "report.json")
    _memo.clear()
    return path


_memo: dict[tuple[str, int, int, bool], dict[str, type[Service]]] = {}


def load_compiled(verified_only: bool = False, directory: Path | None = None) -> dict[str, type[Service]]:
    """Compiled services from the cache, by name (empty when no synth run has written one)."""
    d = directory or cache_dir()
    path = d / "services.json"
    try:
        st = path.stat()
    except OSError:
        return {}
    key = (str(path), st.st_mtime_ns, st.st_size, verified_only)
    hit = _memo.get(key)
    if hit is not None:
        return dict(hit)
    from compoworld.synthesis.compiler import build_service

    try:
        data = CacheFile.model_validate_json(path.read_bytes())
    except ValueError:
        return {}  # an unreadable or older-format cache is as good as none: `compoworld synth` rebuilds it
    if data.format != FORMAT:
        return {}
    out: dict[str, type[Service]] = {}
    for entry in data.services:
        if verified_only and not entry.verified:
            continue
        cls: type[Service] | None = None
        if entry.code_file:
            cls = _load_module_service(d / entry.code_file, entry.plan.name)
        if cls is None:
            cls = build_service(entry.plan, verified=entry.verified)
        out[entry.plan.name] = cls
    _memo.clear()
    _memo[key] = out
    return dict(out)


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
