"""Evaluation of the check language: one boolean per criterion, from the initial and final states."""

from __future__ import annotations

from typing import Any, Mapping

from compoworld.tasks.model import Check, Criterion, Where

State = Mapping[str, Mapping[str, Mapping[str, Mapping[str, Any]]]]


def same(a: Any, b: Any) -> bool:
    """Equality as a person reads it: case and surrounding space do not matter, 500 == 500.0."""
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(float(a) - float(b)) < 1e-6
    return a == b


def _holds(record: Mapping[str, Any], cond: Where) -> bool:
    actual = record.get(cond.field)
    if cond.op == "eq":
        return same(actual, cond.value)
    if cond.op == "ne":
        return not same(actual, cond.value)
    if cond.op == "contains":
        return isinstance(actual, str) and str(cond.value).lower() in actual.lower()
    if cond.op == "includes":
        return isinstance(actual, list) and any(same(a, cond.value) for a in actual)
    return False


def matching(state: State, check: Check) -> list[Mapping[str, Any]]:
    rows = state.get(check.service, {}).get(check.collection, {}).values()
    where = check.where
    if where and where[0].op == "eq" and isinstance(where[0].value, str):
        # Fast path, same meaning as `_holds`: narrow by the first string equality before the rest.
        name, want = where[0].field, where[0].value.strip().lower()
        rows = [r for r in rows if isinstance(r.get(name), str) and r[name].strip().lower() == want]
        where = where[1:]
    return [r for r in rows if all(_holds(r, w) for w in where)]


def evaluate(check: Check, initial: State, final: State) -> bool:
    """Does the check hold on the final state? Tolerant by design: it tests what the goal requires
    (a record with these fields exists), never equality with one reference state."""
    if check.kind == "record_exists":
        return len(matching(final, check)) >= max(check.count, 1)
    if check.kind == "record_absent":
        return not matching(final, check)
    if check.kind == "count_equals":
        return len(matching(final, check)) == check.count
    if check.kind == "field_equals":
        row = final.get(check.service, {}).get(check.collection, {}).get(check.record_id)
        return row is not None and all(_holds(row, w) for w in check.where)
    if check.kind == "record_unchanged":
        before = initial.get(check.service, {}).get(check.collection, {}).get(check.record_id)
        after = final.get(check.service, {}).get(check.collection, {}).get(check.record_id)
        return before == after
    if check.kind == "services_unchanged":
        return all(initial.get(s) == final.get(s) for s in check.services)
    raise ValueError(f"unknown check kind {check.kind}")


def score(rubric: list[Criterion], initial: State, final: State) -> list[bool]:
    return [evaluate(c.check, initial, final) for c in rubric]
