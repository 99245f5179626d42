"""Where a dataset's services come from, under which licence, and which code built it."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import compoworld

REPO_ROOT = Path(__file__).resolve().parents[2]
PROJECT_LICENSE = "apache-2.0"

# The shipped MCP corpus, as its README describes it.
CORPUS = {
    "toucan": {"name": "TheAgentArk/Toucan", "url": "https://github.com/TheAgentArk/Toucan", "revision": "a1976dea",
               "path": "mcp_servers/", "license": "MIT"},
    "mcpm": {"name": "pathintegral-institute/mcpm.sh", "url": "https://github.com/pathintegral-institute/mcpm.sh",
             "revision": "bdd5ed98", "path": "mcp-registry/servers/", "license": "MIT"},
}


def code_version() -> str:
    """Package version plus the git revision of the checkout (`+dirty` when it has local changes)."""
    version = compoworld.__version__
    try:
        rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return version
    return f"{version}+g{rev}{'.dirty' if dirty else ''}" if rev else version


@lru_cache(maxsize=1)
def _corpus_index() -> dict[str, dict[str, Any]]:
    """Server id -> where it came from, over the spec files synthesis reads (the shipped corpus, or
    `$COMPOWORLD_CORPUS_DIR`); a fork merged into a kept server resolves to that server's entry."""
    from compoworld.synthesis.loader import load_specs

    out: dict[str, dict[str, Any]] = {}
    for server in load_specs().servers:
        entry = {"server": server.name, "source": server.source, "license": server.license or "unspecified",
                 "repository": server.repository}
        for sid in [server.id, *server.forks]:
            out.setdefault(sid, entry)
    return out


def service_provenance(names: Iterable[str], domains: dict[str, str]) -> list[dict[str, Any]]:
    """One entry per service: origin (library | compiled) and, for compiled services, the MCP server
    spec they were compiled from with its collection, repository and per-server licence."""
    from compoworld.services.registry import get_service

    out = []
    for name in sorted(set(names)):
        entry: dict[str, Any] = {"name": name, "domain": domains.get(name, ""), "origin": "unknown"}
        try:
            cls = get_service(name)
        except KeyError:
            out.append(entry)
            continue
        entry["origin"] = getattr(cls, "origin", "library")
        plan = getattr(cls, "plan", None)
        source_id = getattr(plan, "source_id", None)
        if source_id:
            entry["origin"] = "compiled"
            spec = _corpus_index().get(source_id, {})
            entry.update(spec_id=source_id, server=spec.get("server", ""), collection=spec.get("source", source_id.split("/")[0]),
                         license=spec.get("license", "unspecified"), repository=spec.get("repository", ""))
        else:
            entry["license"] = PROJECT_LICENSE
        out.append(entry)
    return out
