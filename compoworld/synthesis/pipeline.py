"""`run_synth`: load specs -> compile every server -> verify every service (library ones too) ->
optionally let a coding model write richer services -> write the cache and return a report.

Input that gives nothing to compile (no spec there, nothing readable in it) is a `UserError` raised
before the cache is touched: the compiled set is replaced only by one that was built."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from compoworld.errors import UserError
from compoworld.synthesis.coder import CoderOutcome, improve_services
from compoworld.synthesis.fidelity import LEVELS
from compoworld.synthesis.loader import Duplicate, LoadResult, Rejection, ServerSpec, default_corpus_dir, load_specs
from compoworld.synthesis.naming import slugify, unique
from compoworld.synthesis.plan import ServicePlan
from compoworld.synthesis.verify import CheckResult, ServiceVerdict

NAME_DROP = {"mcp", "server", "servers", "the", "for", "and", "a", "an", "of", "integration", "tool", "tools", "api", "model",
             "context", "protocol"}


class ServiceSummary(BaseModel):
    name: str
    source_id: str = ""
    forks: list[str] = Field(default_factory=list)
    origin: str = "compiled"
    synthesis: str = "compiler"
    tools: int = 0
    deterministic: int = 0
    world_model: int = 0
    verified: bool = False
    checks_failed: int = 0
    checks_skipped: int = 0


class CompileFailure(BaseModel):
    server_id: str
    error: str


class SynthReport(BaseModel):
    files: list[str] = Field(default_factory=list)
    servers_in: int = 0
    servers_unique: int = 0
    servers_duplicate: int = 0
    servers_rejected: int = 0
    services_compiled: int = 0
    services_verified: int = 0
    tools_in: int = 0
    tools_unique: int = 0
    tools_rejected: int = 0
    tools_compiled: int = 0
    tools_deterministic: int = 0
    tools_world_model: int = 0
    ops: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0
    seconds_load: float = 0.0
    seconds_compile_verify: float = 0.0
    workers: int = 1
    cache_dir: str = ""
    rejections: list[Rejection] = Field(default_factory=list)
    duplicates: list[Duplicate] = Field(default_factory=list)
    compile_failures: list[CompileFailure] = Field(default_factory=list)
    services: list[ServiceSummary] = Field(default_factory=list)
    library: list[ServiceSummary] = Field(default_factory=list)
    checks: list[CheckResult] = Field(default_factory=list)
    fidelity: dict[str, int] = Field(default_factory=lambda: {level: 0 for level in LEVELS})  # compiled tools per level
    fidelity_checks: list[CheckResult] = Field(default_factory=list)  # results before failing tools were recompiled
    coder: list[CoderOutcome] = Field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The headline figures, the rejection records and the failed checks (the full per-check
        results stay on the report: `checks`)."""
        det = self.tools_deterministic / self.tools_compiled if self.tools_compiled else 0.0
        ver = self.services_verified / self.services_compiled if self.services_compiled else 0.0
        return {
            "servers_in": self.servers_in,
            "servers_unique": self.servers_unique,
            "servers_duplicate": self.servers_duplicate,
            "servers_rejected": self.servers_rejected,
            "services_compiled": self.services_compiled,
            "services_verified": self.services_verified,
            "verified_share": round(ver, 4),
            "tools_in": self.tools_in,
            "tools_unique": self.tools_unique,
            "tools_rejected": self.tools_rejected,
            "tools_compiled": self.tools_compiled,
            "tools_deterministic": self.tools_deterministic,
            "tools_world_model": self.tools_world_model,
            "deterministic_share": round(det, 4),
            "ops": self.ops,
            "library_services": len(self.library),
            "library_verified": sum(s.verified for s in self.library),
            "fidelity": dict(self.fidelity),
            "fidelity_share": {k: round(v / self.tools_compiled, 4) if self.tools_compiled else 0.0 for k, v in self.fidelity.items()},
            "fidelity_checks": _outcomes(self.fidelity_checks),
            "checks_run": len(self.checks),
            "checks_failed": sum(c.status == "fail" for c in self.checks),
            "coder_accepted": sum(c.accepted for c in self.coder),
            "coder_rejected": sum(not c.accepted for c in self.coder),
            "seconds": round(self.seconds, 2),
            "workers": self.workers,
            "cache_dir": self.cache_dir,
            "rejections": [r.model_dump() for r in self.rejections],
            "compile_failures": [f.model_dump() for f in self.compile_failures],
            "failed_checks": [c.model_dump() for c in self.checks if c.status == "fail"],
        }


def _outcomes(checks: list[CheckResult]) -> dict[str, dict[str, int]]:
    """check name -> {pass, fail, skip} counts."""
    out: dict[str, dict[str, int]] = {}
    for c in checks:
        row = out.setdefault(c.check, {"pass": 0, "fail": 0, "skip": 0})
        row[c.status] += 1
    return dict(sorted(out.items()))


def service_names(servers: list[ServerSpec], reserved: set[str]) -> list[str]:
    """Short unique service names (<= 24 chars) from server names, never shadowing a library service."""
    taken = set(reserved)
    out = []
    for s in servers:
        base = slugify(s.name or s.slug, 24, drop=NAME_DROP)
        if base in reserved:
            base = slugify(f"{base}_mcp", 24)
        out.append(unique(base, taken, 24))
    return out


def _where(specs: list[Path] | None) -> str:
    return ", ".join(str(p) for p in specs) if specs else str(default_corpus_dir())


def _nothing_to_compile(loaded: LoadResult, specs: list[Path] | None) -> str:
    why = loaded.rejections[0] if loaded.rejections else None
    detail = " ".join(f" ({why.file}: {why.reason}: {why.detail})".split()) if why else ""
    return (f"no MCP server spec could be read from {_where(specs)}{detail}; name files holding MCP tool specifications "
            "(a tools/list result, a server, or a collection of servers: see corpus/README.md)")


def _work(batch: list[tuple[dict[str, Any], str]], seed: int) -> list[tuple[str, dict[str, Any] | None, dict[str, Any] | None, list[dict[str, Any]], str | None]]:
    """Compile, verify and fidelity-check a batch of servers (runs in a worker process). A tool that
    fails a fidelity check is recompiled as a world-model tool and the service verified again."""
    from compoworld.synthesis.compiler import as_world_model, build_service
    from compoworld.synthesis.fidelity import check_fidelity, failing_tools, generic_tools, level_of, pretending_searches
    from compoworld.synthesis.infer import infer_plan
    from compoworld.synthesis.verify import verify_service

    out = []
    for raw, name in batch:
        server = ServerSpec.model_validate(raw)
        try:
            plan = infer_plan(server, name)
            cls = build_service(plan)
        except Exception as exc:  # a compiler defect on one server is recorded, the run goes on
            out.append((server.id, None, None, [], f"{type(exc).__name__}: {exc}"))
            continue
        verdict = verify_service(cls, seed=seed)
        checks = check_fidelity(cls, server, seed=seed)
        failed = failing_tools(checks) | pretending_searches(plan, checks)
        if failed:
            plan = as_world_model(plan, failed)
            verdict = verify_service(build_service(plan), seed=seed)
        generic = generic_tools(checks)
        for t in plan.tools:
            t.fidelity = level_of(t.kind, t.op, generic=t.name in generic)
        out.append((server.id, plan.model_dump(mode="json"), verdict.model_dump(mode="json"), [c.model_dump(mode="json") for c in checks], None))
    return out


def run_synth(specs: list[Path] | None = None, coder: str | None = None, workers: int = 2, *, seed: int = 7,
              write_cache: bool = True, cache_directory: Path | None = None, verify_library_services: bool = True) -> SynthReport:
    """Compile and verify every server of `specs` (None: the shipped corpus); write the cache."""
    from compoworld.services.registry import library_services
    from compoworld.synthesis import cache
    from compoworld.synthesis.verify import verify_service

    t0 = time.perf_counter()
    loaded: LoadResult = load_specs(specs)
    if not loaded.servers:
        raise UserError(_nothing_to_compile(loaded, specs))
    t_load = time.perf_counter() - t0
    lib = library_services()
    names = service_names(loaded.servers, set(lib))
    jobs = [(s.model_dump(mode="json"), n) for s, n in zip(loaded.servers, names)]
    results: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None, list[dict[str, Any]], str | None]] = []
    workers = max(1, min(workers, os.cpu_count() or 1, len(jobs) or 1))
    t1 = time.perf_counter()
    if workers == 1 or len(jobs) < 8:
        results = _work(jobs, seed)
    else:
        size = max(4, len(jobs) // (workers * 8))
        batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_work, batches, [seed] * len(batches)):
                results.extend(part)
    report = SynthReport(files=loaded.files, servers_in=loaded.servers_in, servers_unique=loaded.servers_unique,
                         servers_duplicate=len(loaded.duplicates), tools_in=loaded.tools_in, tools_unique=loaded.tools_unique,
                         rejections=loaded.rejections, duplicates=loaded.duplicates, workers=workers)
    entries: list[cache.CacheEntry] = []
    plans: dict[str, ServicePlan] = {}
    for sid, plan_json, verdict_json, fid_json, err in results:
        if err is not None or plan_json is None or verdict_json is None:
            report.compile_failures.append(CompileFailure(server_id=sid, error=err or "unknown"))
            continue
        plan = ServicePlan.model_validate(plan_json)
        verdict = ServiceVerdict.model_validate(verdict_json)
        plans[plan.name] = plan
        entries.append(cache.CacheEntry(plan=plan, verified=verdict.verified))
        report.checks.extend(verdict.checks)
        report.fidelity_checks.extend(CheckResult.model_validate(c) for c in fid_json)
        wm = sum(t.op == "world_model" for t in plan.tools)
        report.services.append(ServiceSummary(name=plan.name, source_id=plan.source_id, forks=plan.forks, tools=len(plan.tools),
                                              deterministic=len(plan.tools) - wm, world_model=wm, verified=verdict.verified,
                                              checks_failed=verdict.n_fail, checks_skipped=verdict.n_skip))
        for t in plan.tools:
            report.ops[t.op] = report.ops.get(t.op, 0) + 1
            if t.fidelity is not None:
                report.fidelity[t.fidelity] += 1
    report.seconds_compile_verify = time.perf_counter() - t1
    if not entries:  # a run that built nothing leaves the last compiled set in place
        first = report.compile_failures[0]
        raise UserError(f"no service could be compiled from {_where(specs)} ({len(report.compile_failures)} compile failures, "
                        f"the first: {first.server_id}: {first.error}); the compiled services were left as they were")
    if coder:
        outcomes, accepted = improve_services(list(plans.values()), coder, cache_directory or cache.cache_dir(), seed=seed)
        report.coder = outcomes
        for e in entries:
            if e.plan.name in accepted:
                e.code_file, e.synthesis, e.verified = accepted[e.plan.name], "coder", True
                summ = next(s for s in report.services if s.name == e.plan.name)
                summ.synthesis, summ.verified = "coder", True
    if verify_library_services:
        for cls in lib.values():
            v = verify_service(cls, seed=seed)
            report.checks.extend(v.checks)
            n = len(cls.tool_specs())
            wm = sum(s.kind == "world_model" for s in cls.tool_specs().values())
            report.library.append(ServiceSummary(name=cls.name, origin="library", synthesis="hand-written", tools=n,
                                                 deterministic=n - wm, world_model=wm, verified=v.verified,
                                                 checks_failed=v.n_fail, checks_skipped=v.n_skip))
    report.servers_rejected = loaded.servers_rejected
    report.tools_rejected = sum(1 for r in loaded.rejections if r.tool is not None)
    report.services_compiled = len(report.services)
    report.services_verified = sum(s.verified for s in report.services)
    report.tools_compiled = sum(s.tools for s in report.services)
    report.tools_world_model = sum(s.world_model for s in report.services)
    report.tools_deterministic = report.tools_compiled - report.tools_world_model
    report.seconds_load = t_load
    report.seconds = time.perf_counter() - t0
    if write_cache:
        d = cache_directory or cache.cache_dir()
        report.cache_dir = str(d)
        by_service: dict[str, list[dict[str, Any]]] = {}
        for c in report.fidelity_checks:
            by_service.setdefault(c.service, []).append(c.model_dump(mode="json"))
        cache.save(entries, report.model_dump_json().encode(), d, fidelity=by_service)
    return report
