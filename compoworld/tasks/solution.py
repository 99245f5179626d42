"""Running a plan: tool calls whose arguments refer to values discovered in earlier observations."""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from compoworld.services.environment import Environment, Observation
from compoworld.tasks.checks import same
from compoworld.tasks.model import Cond, Extract, PlanStep, ReportItem


def is_var(value: dict[str, Any]) -> bool:
    """Is a dict a reference `{"$var": name}`? (What `set(value) == {"$var"}` says, without building a set.)"""
    return len(value) == 1 and "$var" in value


def resolve(value: Any, bindings: Mapping[str, Any]) -> Any:
    """`{"$var": name}` -> the bound value; containers are resolved element-wise."""
    if isinstance(value, dict):
        if len(value) == 1 and "$var" in value:  # `is_var`, inlined: this runs for every argument of every call
            return bindings.get(value["$var"])
        return {k: resolve(v, bindings) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, bindings) for v in value]
    return value


def literal_strings(value: Any) -> list[str]:
    """The strings an argument states outright (not `{"$var": ...}` references), in order."""
    if isinstance(value, dict):
        return [] if is_var(value) else [s for v in value.values() for s in literal_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in literal_strings(v)]
    return [value] if isinstance(value, str) else []


def hidden_values(plan: list[Any], bindings: dict[str, Any]) -> list[Any]:
    """Values the agent must discover: bound from an observation before any argument states them."""
    given: set[str] = set()
    hidden: list[Any] = []
    for step in plan:
        given.update(s.lower() for s in literal_strings(step.arguments))
        for ex in step.extract:
            value = bindings.get(ex.var)
            if not (isinstance(value, str) and value.lower() in given):
                hidden.append(value)
    return hidden


def variables(value: Any) -> set[str]:
    """The variables an argument refers to."""
    if isinstance(value, dict):
        return {value["$var"]} if is_var(value) else {n for v in value.values() for n in variables(v)}
    if isinstance(value, list):
        return {n for v in value for n in variables(v)}
    return set()


def cond_variables(cond: Cond) -> set[str]:
    """The variables a condition refers to: `variables(cond.model_dump())`, without serializing it."""
    return variables(cond.left) | variables(cond.right) | {n for c in cond.among for n in cond_variables(c)}


def pick(data: Any, ex: Extract, bindings: Mapping[str, Any], choose: int = 0) -> Any:
    """The value of `ex.field` in the matching item of an observation (None if nothing matches).
    `choose` > 0 takes a later match or, failing that, a near miss: how agents grab the wrong record."""
    items = data.get(ex.path) if ex.path and isinstance(data, dict) else [data]
    if not isinstance(items, list):
        return None
    want = [(k, resolve(v, bindings)) for k, v in ex.match.items()]
    if choose:
        hits = [it for it in items if isinstance(it, dict) and all(same(it.get(k), v) for k, v in want)]
        others = hits[1:] + [it for it in items if isinstance(it, dict) and it not in hits]
        hits = others or hits
        hit = hits[0] if hits else None
    # Else the first match is all a careful reader takes: stop there (observations list many records).
    elif len(want) == 1 and isinstance(want[0][1], str):  # the usual lookup, by one text: `same`, the text normalized once
        key, text = want[0][0], want[0][1].strip().lower()
        hit = None
        for it in items:
            if isinstance(it, dict) and isinstance(v := it.get(key), str) and v.strip().lower() == text:
                hit = it
                break
    else:
        hit = next((it for it in items if isinstance(it, dict) and all(same(it.get(k), v) for k, v in want)), None)
    if hit is None:
        return None
    value = hit.get(ex.field)
    if ex.pattern:
        found = re.search(ex.pattern, value) if isinstance(value, str) else None
        return found.group(1) if found else None
    return value


def number(value: Any) -> float | None:
    """A value as a number: numbers as they are, numeric text ("1,500", "$20.5") parsed, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return _text_number(value)
    return None


@lru_cache(maxsize=65536)  # branch conditions compare the same values in every replay of a plan
def _text_number(value: str) -> float | None:
    text = value.replace(",", "").replace("$", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def _cmp(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Comparable forms of two values: numbers when both read as numbers, else strings (ISO dates
    compare as text), None when either is missing."""
    if a is None or b is None:
        return None
    na, nb = number(a), number(b)
    if na is not None and nb is not None:
        return na, nb
    return str(a), str(b)


_ORDER = {"gt": operator.gt, "ge": operator.ge, "lt": operator.lt, "le": operator.le}


def holds(cond: Cond, bindings: Mapping[str, Any]) -> bool:
    left = resolve(cond.left, bindings)
    if cond.op in ("is_max", "is_min"):
        pool = resolve(cond.right, bindings) or []
        if cond.among:
            pool = [v for v, c in zip(pool, cond.among) if holds(c, bindings)]
        if left is None or left not in pool or any(v is None for v in pool):  # `_cmp` with a missing value
            return False
        na = number(left)  # `_cmp(left, v)` for each v, with the left side read once
        pairs = [(na, nb) if na is not None and (nb := number(v)) is not None else (str(left), str(v)) for v in pool]
        beaten = sum(b > a for a, b in pairs) if cond.op == "is_max" else sum(b < a for a, b in pairs)  # type: ignore[operator]
        return beaten < cond.k
    if cond.op in ("eq", "ne"):
        return same(left, resolve(cond.right, bindings)) == (cond.op == "eq")
    pair = _cmp(left, resolve(cond.right, bindings))
    if pair is None:
        return False
    return _ORDER[cond.op](*pair)


def applies(step: PlanStep, bindings: Mapping[str, Any]) -> bool:
    """Does the step run, given what has been discovered? (Steps without conditions always do.)"""
    return not step.when or all(holds(c, bindings) for c in step.when)


def taken(plan: list[PlanStep], bindings: Mapping[str, Any]) -> list[PlanStep]:
    """The steps a run with these discovered values makes (the branches they lead to)."""
    return [step for step in plan if applies(step, bindings)]


def report_value(item: ReportItem, bindings: Mapping[str, Any]) -> Any:
    """The value a report item states, computed from discovered values (None if one is missing)."""
    values = [bindings.get(v) for v in item.vars]
    if item.op == "value":
        return values[0] if values else None
    if item.op == "count":
        return len(values)
    nums = [number(v) for v in values]
    if not nums or any(n is None for n in nums):
        return None
    if item.op == "sum":
        return round(sum(nums), 2)  # type: ignore[arg-type]
    if item.op == "mean":
        return round(sum(nums) / len(nums), 2)  # type: ignore[arg-type]
    whole = sum(nums[1:])  # type: ignore[arg-type]
    return round(100.0 * nums[0] / whole, 1) if whole else None  # type: ignore[operator]


@dataclass
class Run:
    calls: list[dict[str, Any]] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    bindings: dict[str, Any] = field(default_factory=dict)


def execute(plan: list[PlanStep], env: Environment, overrides: Mapping[str, Any] | None = None,
            idle: int | None = None) -> Run:
    """Play the plan on `env` as it stands. `overrides` force a variable (e.g. to its stale value);
    `idle` is a step whose call is left out while its time passes (an agent that spent that turn on
    something else: the later calls happen when the plan's do)."""
    run = Run()
    overrides = overrides or {}
    for k, step in enumerate(plan):
        if not applies(step, run.bindings):
            continue
        if k == idle:
            env.ctx.clock.tick()
            continue
        call = {"name": step.tool, "arguments": resolve(step.arguments, run.bindings)}
        obs = env.step(call)
        run.calls.append(call)
        run.observations.append(obs)
        for ex in step.extract:
            run.bindings[ex.var] = overrides[ex.var] if ex.var in overrides else (pick(obs.data, ex, run.bindings) if obs.ok else None)
    return run
