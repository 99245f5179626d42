"""Running a plan: tool calls whose arguments refer to values discovered in earlier observations."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from compoworld.services.environment import Environment, Observation
from compoworld.tasks.checks import same
from compoworld.tasks.model import Extract, PlanStep


def resolve(value: Any, bindings: Mapping[str, Any]) -> Any:
    """`{"$var": name}` -> the bound value; containers are resolved element-wise."""
    if isinstance(value, dict):
        if set(value) == {"$var"}:
            return bindings.get(value["$var"])
        return {k: resolve(v, bindings) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, bindings) for v in value]
    return value


def literal_strings(value: Any) -> list[str]:
    """The strings an argument states outright (not `{"$var": ...}` references), in order."""
    if isinstance(value, dict):
        return [] if set(value) == {"$var"} else [s for v in value.values() for s in literal_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in literal_strings(v)]
    return [value] if isinstance(value, str) else []


def variables(value: Any) -> set[str]:
    """The variables an argument refers to."""
    if isinstance(value, dict):
        return {value["$var"]} if set(value) == {"$var"} else {n for v in value.values() for n in variables(v)}
    if isinstance(value, list):
        return {n for v in value for n in variables(v)}
    return set()


def pick(data: Any, ex: Extract, bindings: Mapping[str, Any], choose: int = 0) -> Any:
    """The value of `ex.field` in the matching item of an observation (None if nothing matches).
    `choose` > 0 takes a later match or, failing that, a near miss: how agents grab the wrong record."""
    items = data.get(ex.path) if ex.path and isinstance(data, dict) else [data]
    if not isinstance(items, list):
        return None
    want = {k: resolve(v, bindings) for k, v in ex.match.items()}
    hits = [it for it in items if isinstance(it, dict) and all(same(it.get(k), v) for k, v in want.items())]
    if choose:
        others = hits[1:] + [it for it in items if isinstance(it, dict) and it not in hits]
        hits = others or hits
    if not hits:
        return None
    value = hits[0].get(ex.field)
    if ex.pattern:
        found = re.search(ex.pattern, value) if isinstance(value, str) else None
        return found.group(1) if found else None
    return value


@dataclass
class Run:
    calls: list[dict[str, Any]] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    bindings: dict[str, Any] = field(default_factory=dict)


def execute(plan: list[PlanStep], env: Environment, overrides: Mapping[str, Any] | None = None) -> Run:
    """Play the plan on `env` as it stands. `overrides` force a variable (e.g. to its stale value)."""
    run = Run()
    overrides = overrides or {}
    for step in plan:
        call = {"name": step.tool, "arguments": resolve(step.arguments, run.bindings)}
        obs = env.step(call)
        run.calls.append(call)
        run.observations.append(obs)
        for ex in step.extract:
            run.bindings[ex.var] = overrides[ex.var] if ex.var in overrides else (pick(obs.data, ex, run.bindings) if obs.ok else None)
    return run
