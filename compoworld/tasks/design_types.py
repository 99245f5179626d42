"""What the designer and its motifs share: the carried value, the design failure, joinable types."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from compoworld.services.semantics import NON_JOINING


class DesignError(Exception):
    """The walk could not be instantiated; `reason` is recorded with the rejection."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Carry:
    var: str
    sem: str
    value: Any
    field: str  # the field it was read from, for the instruction
    entity: str
    service: str
    visit: int
    role: str = ""  # whose value it is (an employee's email, a vendor's name): see `compoworld.services.cast`
    via: str = ""  # how the request names a record this id belongs to ("of the company with name 'Horizon Foods'")


def field_words(name: str) -> str:
    """A field as a request names it: `scheduled_at` -> "scheduled time"."""
    return (name.removesuffix("_at") + "_time" if name.endswith("_at") else name).replace("_", " ")


def id_entity(sem: str) -> str:
    """The kind of record an id type names: `crm.company_id` -> company."""
    return sem.split(".", 1)[1].removesuffix("_id")


def joinable(sem: str) -> bool:
    """A type that can carry a value from one service to another (not free text, not an id)."""
    return bool(sem) and sem not in NON_JOINING and "." not in sem


# Rules live in documents with revisions: the one in force and the one before it, which a careless
# agent would follow. Nothing in a key says which is current: the revision number does.
_REVISION = re.compile(r"^(?P<prefix>.*), rev\. (?P<rev>\d+)$")


def revision_keys(topic: str, rev: int) -> tuple[str, str]:
    """The keys of a rule's current revision and of the one it replaced."""
    return f"{topic}, rev. {rev}", f"{topic}, rev. {rev - 1}"


def older_revision(key: str) -> str | None:
    """The key of the revision `key` replaced (None for a key that is not a revision)."""
    found = _REVISION.match(key)
    return f"{found['prefix']}, rev. {int(found['rev']) - 1}" if found else None


def rule_topic(key: str) -> str:
    """A revision's key without its number: how a person points to the rule."""
    found = _REVISION.match(key)
    return found["prefix"] if found else key


SPAN = ("date", "start", "end", "start_date", "end_date")  # the ends of one span of time: planted together


def moved_span(template: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A planted record whose date, start or end was set keeps its span whole: the template's other
    ends move by as many days (an event that ends before it starts, or on another day than its date,
    is no event; nor is a leave that ends before it begins)."""
    moved = next((f for f in SPAN if f in changes and isinstance(changes[f], str) and isinstance(template.get(f), str)), None)
    if moved is None:
        return {}
    new, old = _instant(changes[moved]), _instant(template[moved])
    if new is None or old is None:
        return {}
    delta = new - old if len(changes[moved]) > 10 and len(template[moved]) > 10 else timedelta(days=(new.date() - old.date()).days)
    out: dict[str, Any] = {}
    for f in SPAN:
        was = template.get(f)
        at = _instant(was) if isinstance(was, str) else None
        if f == moved or f in changes or at is None:
            continue
        shifted = at + delta  # the same duration, the same order of its ends
        out[f] = shifted.date().isoformat() if len(was) == 10 else shifted.strftime("%Y-%m-%dT%H:%M:%S") + was[19:]
    start = out.get("start", changes.get("start"))
    if isinstance(template.get("date"), str) and "date" not in changes and isinstance(start, str) and len(start) > 10:
        out["date"] = start[:10]  # an event's day is the day it starts, even when the shift crosses midnight
    return out


def _instant(text: str) -> datetime | None:
    """An ISO date or date-time (its first 19 characters) as a naive datetime; None when it is neither."""
    try:
        return datetime.fromisoformat(text[:19]) if len(text) >= 19 else datetime.fromisoformat(text[:10])
    except ValueError:
        return None
