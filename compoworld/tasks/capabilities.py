"""What each capability label means in a task's plan and rubric: the evidence a labelled task carries.

The designer labels a task when it builds the work a capability names (`compoworld.tasks.motifs`,
`design.Designer`); `evidence` reads the same facts back from the task alone, so a test can check
that no label is claimed without the executable structure behind it.
"""

from __future__ import annotations

from typing import Callable

from compoworld.tasks.model import PlanStep, Task
from compoworld.tasks.solution import applies, cond_variables, variables

DATE_PREFIX = 4  # an ISO date or datetime starts with a four-digit year


def _taken_updates(task: Task) -> list[int]:
    return [k for k, s in enumerate(task.plan) if s.purpose == "update" and applies(s, task.bindings)]


def _is_date(value: object) -> bool:
    return isinstance(value, str) and len(value) >= 10 and value[:DATE_PREFIX].isdigit() and value[4] == "-"


def _ranked(task: Task) -> bool:
    return any(c.op in ("is_max", "is_min") for s in task.plan for c in s.when)


def _fan_out(task: Task) -> bool:
    by_tool: dict[str, set[str]] = {}
    for k in _taken_updates(task):
        step = task.plan[k]
        for a in step.arguments.values():
            if isinstance(a, dict) and "$var" in a:
                by_tool.setdefault(step.tool, set()).add(str(task.bindings.get(a["$var"])))
    checked = {c.check.record_id for c in task.rubric if c.check.kind == "field_equals"}
    return any(len(ids & checked) >= 3 for ids in by_tool.values())


def _exceptions(task: Task) -> bool:
    """Guarded updates some of which the values rule out, their targets kept unchanged by the rubric."""
    kept = {c.check.record_id for c in task.rubric if c.check.kind == "record_unchanged"}
    skipped = [s for s in task.plan if s.purpose == "update" and s.when and not applies(s, task.bindings)
               and any(c.op in ("le", "gt") for c in s.when)]
    return bool(skipped) and any(str(task.bindings.get(a["$var"])) in kept for s in skipped
                                 for a in s.arguments.values() if isinstance(a, dict) and "$var" in a)


def _conditional(task: Task) -> bool:
    """Two updates of the same record behind opposite conditions on a discovered value."""
    guarded = [s for s in task.plan if any(c.op in ("gt", "le") for c in s.when)]
    return any(a is not b and a.arguments != b.arguments and a.tool == b.tool
               and {c.op for c in a.when} ^ {c.op for c in b.when} == {"gt", "le"} for a in guarded for b in guarded)


def _idempotent(task: Task) -> bool:
    """A write the values show is already done (a record found, a value already set), left unmade."""
    return any(c.op in ("ne", "eq") for s in task.plan for c in s.when if s.purpose != "lookup" and not applies(s, task.bindings))


def _aggregate(task: Task) -> bool:
    return any(it.op in ("sum", "count", "mean", "share_pct") and len(it.vars) >= 3 for it in task.report)


def _transform(task: Task) -> bool:
    """A reported figure converted from the values read (a share of a total, in percent)."""
    return any(it.op == "share_pct" for it in task.report)


def _temporal(task: Task) -> bool:
    values = [task.bindings.get(c.left["$var"]) for s in task.plan for c in s.when
              if isinstance(c.left, dict) and "$var" in c.left and c.op in ("is_max", "is_min", "gt", "le")]
    return any(_is_date(v) for v in values) or any("latest" in it.label for it in task.report)


def _explore(task: Task) -> bool:
    """A listing whose records the request never names: the work picks them out by what they hold."""
    return any(s.extract and all("id" in e.match for e in s.extract) for s in task.plan if s.purpose == "lookup")


def _cross_service(task: Task) -> bool:
    """A value stated in a document (read by a pattern) decides a write or a branch in another service."""
    rules = {e.var: s.service for s in task.plan for e in s.extract if e.pattern}
    for s in task.plan:
        if s.purpose == "lookup":
            continue
        used = variables(s.arguments) | {n for c in s.when for n in cond_variables(c)}
        if any(rules.get(v, s.service) != s.service for v in used):
            return True
    return False


def _referential(task: Task) -> bool:
    """A write argument (not its target) is a record id read from a lookup."""
    ids = {e.var for s in task.plan for e in s.extract if e.field == "id"}
    for s in task.plan:
        if s.purpose != "write":
            continue
        if any(isinstance(a, dict) and a.get("$var") in ids for a in s.arguments.values()):
            return True
    return False


def _sequential(task: Task) -> bool:
    return chained(task.plan)


def chained(plan: list[PlanStep]) -> bool:
    """A step in one service needs a value read in another, itself found with a value from a third
    (two hand-offs in a row)."""
    origin: dict[str, str] = {}
    depth: dict[str, int] = {}
    for step in plan:
        used = variables(step.arguments)
        level = max((depth[v] + (origin[v] != step.service) for v in used if v in origin), default=0)
        if level >= 2:
            return True
        for ex in step.extract:
            origin[ex.var], depth[ex.var] = step.service, level
    return False


def _recovery(task: Task) -> bool:
    return any(s.expect_error for s in task.plan) and any(
        not s.expect_error and s.tool == e.tool and s.arguments == e.arguments for e in task.plan if e.expect_error for s in task.plan)


def _tradeoff(task: Task) -> bool:
    return any(c.op in ("is_max", "is_min") and c.among for s in task.plan for c in s.when)


EVIDENCE: dict[str, Callable[[Task], bool]] = {
    "sequential-dependency": _sequential,
    "cross-service-constraint": _cross_service,
    "conditional-branching": _conditional,
    "ranked-selection": _ranked,
    "data-transformation": _transform,
    "temporal-reasoning": _temporal,
    "fan-out": _fan_out,
    "fan-in-aggregation": _aggregate,
    "idempotency-check": _idempotent,
    "batch-with-exceptions": _exceptions,
    "referential-integrity": _referential,
    "explore-then-act": _explore,
    "error-recovery": _recovery,
    "multi-objective-tradeoff": _tradeoff,
}


def evidence(task: Task) -> dict[str, bool]:
    """For each label the task carries: does its plan and rubric hold the structure the label names?"""
    return {label: EVIDENCE[label](task) for label in task.capabilities}
