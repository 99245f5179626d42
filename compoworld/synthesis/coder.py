"""The coding-agent path (`--coder MODEL`): an LLM writes a richer hand-style service for a spec.

The model sees the runtime's rules, the exemplar CRM service and the MCP spec with the compiled
plan; its module runs in a subprocess with no network (no proxy settings, an audit hook that
refuses sockets and child processes) and a time limit, and goes through the same verification as
every other service. It is accepted only if it defines the service under the same name with every
tool of the spec and no check fails; otherwise the compiled service stays.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from compoworld.synthesis.plan import ServicePlan
from compoworld.synthesis.verify import CheckResult

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120


class CoderOutcome(BaseModel):
    """What the coder made of one service: accepted (its module replaces the compiled service) or not, and why."""

    service: str
    accepted: bool
    detail: str = ""
    failed_checks: list[CheckResult] = Field(default_factory=list)


RULES = """You write one Python module defining a CompoWorld service: a subclass of
`compoworld.services.Service` with class attributes `name`, `domain`, `description`,
`tables = {collection: Collection(RecordTypedDict, entity, id_prefix)}` (the state model is derived from it),
a `generate(self, gen)` method returning seeded initial records per collection (use only `gen.rng`, `gen.pick`,
`gen.world`, `gen.date`, `gen.datetime`...), and one method per tool decorated with
`@tool(read_only=..., destructive=..., idempotent=...)`, with typed parameters (Annotated types from
`compoworld.services.library._types`) and a Google-style docstring (summary + Args:).
Records are immutable dicts: change them only through `self.db[collection].insert/update/delete`; raise
`ToolError("message")` for business-rule violations and use `self.db[c].require(id)` for lookups.
Time only from `self.now()` / `self.today()`, ids only from tables; no randomness, no network, no files.
Reply with the module in one ```python fenced block."""


def _exemplar() -> str:
    path = REPO_ROOT / "compoworld" / "services" / "library" / "crm.py"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def prompt(plan: ServicePlan) -> list[dict[str, Any]]:
    tools = [{"name": t.name, "original_name": t.original, "description": t.description, "input_schema": t.input_schema,
              "inferred_operation": t.op, "collection": t.collection} for t in plan.tools]
    entities = [{"collection": e.collection, "entity": e.entity, "fields": [f.name for f in e.fields], "statuses": e.statuses}
                for e in plan.entities]
    body = {"service_name": plan.name, "description": plan.description, "domain": plan.domain, "tools": tools,
            "entities_inferred_by_the_compiler": entities,
            "requirements": ["set name = " + json.dumps(plan.name), "define every tool above under exactly its `name`",
                             "keep each tool's parameters (names and types) as in its input_schema"]}
    return [
        {"role": "system", "content": RULES + "\n\nHere is an exemplar service:\n```python\n" + _exemplar() + "\n```"},
        {"role": "user", "content": json.dumps(body, indent=1, sort_keys=True)},
    ]


def extract_code(text: str) -> str:
    blocks = re.findall(r"```(?:python|py)?\s*\n(.*?)```", text, re.S)
    return max(blocks, key=len) if blocks else text


_RUNNER = r'''
import json, sys
sys.path.insert(0, {root!r})
BLOCKED = ("socket.connect", "socket.bind", "socket.getaddrinfo", "socket.gethostbyname", "socket.sendto", "socket.sendmsg",
           "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn")
def guard(event, args):
    if event in BLOCKED:
        raise RuntimeError(f"blocked in the coder sandbox: {{event}}")
from compoworld.services.service import Service
from compoworld.synthesis.verify import verify_service
import importlib.util
sys.addaudithook(guard)
out = {{"ok": False}}
try:
    spec = importlib.util.spec_from_file_location("coded_service", {path!r})
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = [o for o in vars(module).values() if isinstance(o, type) and issubclass(o, Service) and o is not Service
             and getattr(o, "name", None) == {name!r}]
    if not found:
        out["error"] = "the module defines no Service subclass named {name}"
    else:
        cls = found[0]
        verdict = verify_service(cls, seed={seed})
        out = {{"ok": True, "verified": verdict.verified, "tools": sorted(cls.tool_specs()),
               "checks": [c.model_dump() for c in verdict.checks]}}
except BaseException as exc:
    out["error"] = f"{{type(exc).__name__}}: {{exc}}"
print("@@RESULT@@" + json.dumps(out))
'''


def _sandbox_env(home: str) -> dict[str, str]:
    keep = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "PYTHONHASHSEED": "0", "LANG": "C.UTF-8",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_HUB_OFFLINE": "1", "NO_PROXY": "*"}
    return keep  # no proxy variables, no credentials: the child starts from nothing


def run_sandboxed(code: str, name: str, *, seed: int = 7, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """Verify the service `name` defined by `code` in a separate, network-less process."""
    with tempfile.TemporaryDirectory(prefix="coder-") as tmp:
        path = Path(tmp) / f"{name}.py"
        path.write_text(code, encoding="utf-8")
        runner = _RUNNER.format(root=str(REPO_ROOT), path=str(path), name=name, seed=seed)
        try:
            proc = subprocess.run([sys.executable, "-I", "-c", runner], capture_output=True, text=True, timeout=timeout,
                                  env=_sandbox_env(tmp), cwd=tmp)
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timed out after {timeout:.0f}s"}
        marker = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@RESULT@@")]
        if not marker:
            return {"ok": False, "error": f"the verification process failed (exit {proc.returncode}): {proc.stderr[-500:]}"}
        return json.loads(marker[-1][len("@@RESULT@@"):])


def code_service(plan: ServicePlan, model: str, *, seed: int = 7, timeout: float = TIMEOUT_S,
                 **llm_kwargs: Any) -> tuple[CoderOutcome, str | None]:
    """Ask `model` for a service module for `plan`; (outcome, accepted code or None)."""
    from compoworld import llm

    try:
        resp = llm.chat(model, prompt(plan), temperature=0.0, **llm_kwargs)
    except Exception as exc:
        return CoderOutcome(service=plan.name, accepted=False, detail=f"model call failed: {type(exc).__name__}: {exc}"), None
    code = extract_code(resp.content)
    result = run_sandboxed(code, plan.name, seed=seed, timeout=timeout)
    if not result.get("ok"):
        return CoderOutcome(service=plan.name, accepted=False, detail=result.get("error", "failed")), None
    checks = [CheckResult.model_validate(c) for c in result.get("checks", [])]
    failed = [c for c in checks if c.status == "fail"]
    missing = sorted({t.name for t in plan.tools} - set(result.get("tools", [])))
    if missing:
        failed.append(CheckResult(service=plan.name, check="coverage", passed=False, status="fail",
                                  detail=f"tools of the spec not implemented: {missing[:10]}"))
    if failed:
        return CoderOutcome(service=plan.name, accepted=False, detail=f"{len(failed)} checks failed", failed_checks=failed), None
    return CoderOutcome(service=plan.name, accepted=True, detail=f"{len(checks)} checks passed"), code


def improve_services(plans: list[ServicePlan], model: str, cache_directory: Path, *, seed: int = 7, threads: int = 4,
                     **llm_kwargs: Any) -> tuple[list[CoderOutcome], dict[str, str]]:
    """Run the coder on every plan; accepted modules are written under `cache_directory/coded/`.
    Returns the outcomes and {service name: module path relative to the cache directory}."""
    coded = cache_directory / "coded"
    accepted: dict[str, str] = {}

    def one(plan: ServicePlan) -> tuple[CoderOutcome, str | None]:
        return code_service(plan, model, seed=seed, **llm_kwargs)

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        results = list(pool.map(one, plans))
    outcomes = []
    for plan, (outcome, code) in zip(plans, results):
        outcomes.append(outcome)
        if code is not None:
            coded.mkdir(parents=True, exist_ok=True)
            (coded / f"{plan.name}.py").write_text(code, encoding="utf-8")
            accepted[plan.name] = f"coded/{plan.name}.py"
    return outcomes, accepted
