"""Evaluation of the check language: one boolean per criterion, from the initial and final states."""

from __future__ import annotations

import re
from functools import lru_cache
from datetime import date, datetime
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


_NUMBER = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?")
_DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y",
                 "%b %d %Y", "%d.%m.%Y")
_DATE_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{4}|\d{1,2} [A-Za-z]{3,9}\.? \d{4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}")


@lru_cache(maxsize=4096)  # like `_dates`: the same closing message is read for every number it must state
def _numbers(text: str) -> tuple[float, ...]:
    return tuple(float(m.replace(",", "")) for m in _NUMBER.findall(text))


@lru_cache(maxsize=4096)  # the probe scores the same closing message against many mutants
def _dates(text: str) -> frozenset[date]:
    return frozenset(d for m in _DATE_TEXT.findall(text) for d in _date_readings(m))


@lru_cache(maxsize=4096)  # messages that differ (mutants' reports) still state the same dates
def _date_readings(m: str) -> frozenset[date]:
    """Every date one date-like piece of text reads as, in any of the formats."""
    out: set[date] = set()
    m = m.replace(".", "") if m[:1].isalpha() else m
    for fmt in _DATE_FORMATS:
        try:
            out.add(datetime.strptime(m.strip(), fmt).date())
        except ValueError:
            continue
    return frozenset(out)


def mentions(text: str, value: Any) -> bool:
    """Does a message state `value`, as a person may write it? Numbers in any grouping or currency
    ("1,250.5", "$1250.50"; to a cent, or to 0.05 for percentages written with one decimal), dates in
    common formats ("2026-03-05", "5 March 2026", "Mar 5, 2026", "03/05/2026"), a moment as its day
    and "HH:MM", other text case- and space-insensitively (emails, names)."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float)):
        tol = 0.05 if isinstance(value, float) and round(value, 1) == value and abs(value) < 100 else 0.01
        return any(abs(n - float(value)) <= tol for n in _numbers(text))
    want = " ".join(str(value).split()).lower()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", want):
        return date.fromisoformat(want) in _dates(text)
    stamp = re.fullmatch(r"(\d{4}-\d{2}-\d{2})t(\d{2}:\d{2})(?::\d{2})?z?", want)
    if stamp:  # a moment: its day in any format and its time of day
        return date.fromisoformat(stamp.group(1)) in _dates(text) and stamp.group(2) in text
    return want in " ".join(text.split()).lower()


def evaluate(check: Check, initial: State, final: State, answer: str = "") -> bool:
    """Does the check hold on the final state (and, for `answer_mentions`, in the agent's final
    message)? Tolerant by design: it tests what the goal requires (a record with these fields
    exists, the report states these values), never equality with one reference state or text."""
    if check.kind == "answer_mentions":
        return all(mentions(answer, w.value) for w in check.where)
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


def score(rubric: list[Criterion], initial: State, final: State, answer: str = "") -> list[bool]:
    """One boolean per criterion; `answer` is the agent's final message (for report criteria)."""
    return [evaluate(c.check, initial, final, answer) for c in rubric]
