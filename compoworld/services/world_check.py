"""Cross-service invariants of a seeded world (read-only): is it one coherent world?

`world_violations(state_by_service, today)` walks the full state of an environment
(`{service: {collection: {id: record}}}`) and returns one line per violation, each starting with its
kind (`kind: where: what`):

- `email_name`: an email that maps to more than one person name, across every service and record
  that carries both (a record's `email`/`name`, `<role>_email`/`<role>_name`, a mailbox's
  `address`/`owner_name`, a customer's `billing_email`/`contact_name`, and list items such as a
  calendar attendee `{email, name}`). Names compare case-insensitively. One line per email.
- `future_timestamp`: a field that records the past (`created_at`, `sent_at`, `posted_at`,
  `updated_at`, `decided_at`, `paid_on`, ...: names ending in `_at` or `_on`, or `at`) holds a date
  after the environment's today. Fields about the future (`scheduled_at`, `due_at`, `*_due_at`,
  `starts_at`, `ends_at`, `expires_at`, `*_by`, `due_date`, `start_date`, `effective_*`) are not
  checked. One line per record field.
- `name_path`: a record with both `name` and `path` whose path does not end in its name.
- `slug_name`: a person name that looks like a slug: starts with `#`, or is lowercase words joined
  by `-` or `_` (`rosa-khan`, `#general`). Person names are the `*_name` fields of email/name pairs
  above and the `name` of records that also carry an `email`.

Services know nothing of tasks: the checker reads field names and values only.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterator, Mapping

PAST_EXACT = {"at"}
FUTURE_FIELDS = {"scheduled_at", "due_at", "starts_at", "ends_at", "expires_at", "start_at", "end_at", "remind_at",
                 "opens_at", "closes_at", "valid_until", "due_on", "start_on", "end_on", "effective_on"}
_SLUG = re.compile(r"^(#\S*|[a-z0-9]+(?:[-_][a-z0-9]+)+)$")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")
# (email field, name field) pairs beyond the `<role>_email` / `<role>_name` convention
EXTRA_PAIRS = (("address", "owner_name"), ("billing_email", "contact_name"))


def _pairs(record: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(email field, person-name field) pairs of one record."""
    for f in record:
        if f == "email" and "name" in record:
            yield f, "name"
        elif f.endswith("_email") and f"{f[:-len('_email')]}_name" in record:
            yield f, f"{f[:-len('_email')]}_name"
    for e, n in EXTRA_PAIRS:
        if e in record and n in record:
            yield e, n


def _records(rows: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The records of a collection and the dict items of their list fields (attendees, members)."""
    for rid, rec in rows.items():
        if not isinstance(rec, Mapping):
            continue
        yield str(rid), rec
        for f, v in rec.items():
            if isinstance(v, list):
                for i, item in enumerate(v):
                    if isinstance(item, Mapping):
                        yield f"{rid}.{f}[{i}]", item


def past_field(name: str) -> bool:
    """Does this field record something that already happened?"""
    if name in FUTURE_FIELDS or "due" in name or name.startswith(("effective", "scheduled", "next_")):
        return False
    return name in PAST_EXACT or name.endswith("_at") or name.endswith("_on")


def is_slug(name: str) -> bool:
    return bool(_SLUG.match(name.strip()))


def world_violations(state_by_service: Mapping[str, Any], today: str) -> list[str]:
    """Every violation of the cross-service invariants in a world's state (see the module docstring)."""
    out: list[str] = []
    names: dict[str, dict[str, list[str]]] = {}  # email -> name (lowercased) -> where
    shown: dict[str, str] = {}
    for svc in sorted(state_by_service):
        for coll, rows in sorted(state_by_service[svc].items()):
            if not isinstance(rows, Mapping):
                continue
            for rid, rec in _records(rows):
                where = f"{svc}.{coll}.{rid}"
                for ef, nf in _pairs(rec):
                    email, name = rec.get(ef), rec.get(nf)
                    if not (isinstance(email, str) and "@" in email and isinstance(name, str) and name.strip()):
                        continue
                    key = name.strip().lower()
                    names.setdefault(email.strip().lower(), {}).setdefault(key, []).append(f"{where}.{nf}")
                    shown.setdefault(key, name.strip())
                    if is_slug(name):
                        out.append(f"slug_name: {where}.{nf}: {name!r}")
                for f, v in rec.items():
                    if isinstance(v, str) and past_field(f):
                        m = _DATE.match(v)
                        if m and m.group(1) > today:
                            out.append(f"future_timestamp: {where}.{f}: {v} > {today}")
                path, name = rec.get("path"), rec.get("name")
                if isinstance(path, str) and isinstance(name, str) and path and name:
                    if path.rstrip("/").rsplit("/", 1)[-1].strip().lower() != name.strip().lower():
                        out.append(f"name_path: {where}: name {name!r} vs path {path!r}")
    for email, by_name in sorted(names.items()):
        if len(by_name) > 1:
            seen = "; ".join(f"{shown[n]!r} in {places[0]}" + (f" (+{len(places) - 1})" if len(places) > 1 else "")
                             for n, places in sorted(by_name.items()))
            out.append(f"email_name: {email}: {seen}")
    return out


def violation_kinds(violations: list[str]) -> dict[str, int]:
    """Violations counted by kind (the text before the first colon)."""
    return dict(Counter(v.split(":", 1)[0] for v in violations).most_common())


def email_names(state_by_service: Mapping[str, Any]) -> dict[str, set[str]]:
    """email (lowercased) -> the person names (lowercased) the state gives it."""
    out: dict[str, set[str]] = {}
    for svc in state_by_service:
        for rows in state_by_service[svc].values():
            if not isinstance(rows, Mapping):
                continue
            for _, rec in _records(rows):
                for ef, nf in _pairs(rec):
                    email, name = rec.get(ef), rec.get(nf)
                    if isinstance(email, str) and "@" in email and isinstance(name, str) and name.strip():
                        out.setdefault(email.strip().lower(), set()).add(name.strip().lower())
    return out


def added_violations(added: Mapping[str, Any], today: str, world_names: Mapping[str, set[str]]) -> list[str]:
    """Violations that records added to a world bring in (a task's planted records): their own
    (`future_timestamp`, `name_path`, `slug_name`, disagreements among them) plus `email_name` where an
    added record gives an email another name than the world does (`world_names`: `email_names(world)`)."""
    out = world_violations(added, today)
    for email, names in sorted(email_names(added).items()):
        known = world_names.get(email, set())
        if known and names - known:
            out.append(f"email_name: {email}: {sorted(names - known)} added where the world says {sorted(known)}")
    return out
