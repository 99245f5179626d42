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
- `role_conflict`: an email that plays two person roles (`compoworld.services.cast`): an employee in
  one field and a vendor's contact, a customer contact or a candidate in another (a vendor's contact
  email that is a chat user, an expense report filed by a customer). One line per email.
- `role_domain`: an address whose domain belongs to another role: an employee field (assignee,
  owner, approver, ...) holding an address outside our domain or at a vendor's domain, an external
  contact's field holding one of ours (a helpdesk assignee at a vendor, a vendor contact at ours).
  Vendors' domains are those of the vendor-contact fields of the same state. One line per field.

Services know nothing of tasks: the checker reads field names and values, and the roles the library
services give their fields.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterator, Mapping

from compoworld.services.cast import EXTERNAL, record_role, role_of
from compoworld.services.fake import OUR_DOMAIN

PAST_EXACT = {"at"}
FUTURE_FIELDS = {"scheduled_at", "due_at", "starts_at", "ends_at", "expires_at", "start_at", "end_at", "remind_at",
                 "opens_at", "closes_at", "valid_until", "due_on", "start_on", "end_on", "effective_on"}
_SLUG = re.compile(r"^(#\S*|[a-z0-9]+(?:[-_][a-z0-9]+)+)$")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")
# (email field, name field) pairs beyond the `<role>_email` / `<role>_name` convention
EXTRA_PAIRS = (("address", "owner_name"), ("billing_email", "contact_name"))


def person_pairs(record: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
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


@lru_cache(maxsize=4096)  # asked for every field of every record: a pure function of the name
def past_field(name: str) -> bool:
    """Does this field record something that already happened?"""
    if name in FUTURE_FIELDS or "due" in name or name.startswith(("effective", "scheduled", "next_")):
        return False
    return name in PAST_EXACT or name.endswith("_at") or name.endswith("_on")


def is_slug(name: str) -> bool:
    return bool(_SLUG.match(name.strip()))


@lru_cache(maxsize=256)
def _email_roles(service: str, collection: str) -> dict[str, str]:
    """Email field -> person role, for a collection of a library service (none for other services:
    the checker reads roles where the service's fields are known)."""
    from compoworld.services.registry import library_services
    from compoworld.services.sampling import field_semantics

    cls = library_services().get(service)
    sems = field_semantics(cls) if cls is not None else {}
    spec = cls.tables.get(collection) if cls is not None else None
    fields = list(getattr(spec.record, "__annotations__", {})) if spec is not None else []
    out = {}
    for f in fields:
        if sems.get(f, "email" if f.endswith("email") else "") == "email":
            role = role_of(cls, collection, f, "email")
            if role:
                out[f] = role
    return out


def role_violations(state_by_service: Mapping[str, Any]) -> list[str]:
    """`role_conflict` and `role_domain` violations (see the module docstring)."""
    seen: list[tuple[str, str, str]] = []  # (email, role, where)
    for svc in sorted(state_by_service):
        for coll, rows in sorted(state_by_service[svc].items()):
            if not isinstance(rows, Mapping):
                continue
            roles = _email_roles(svc, coll)
            if not roles:
                continue
            for rid, rec in rows.items():
                if not isinstance(rec, Mapping):
                    continue
                for f, role in roles.items():
                    email = rec.get(f)
                    if isinstance(email, str) and "@" in email:
                        seen.append((email.strip().lower(), record_role(role, rec), f"{svc}.{coll}.{rid}.{f}"))
    vendor_domains = {e.rsplit("@", 1)[1] for e, r, _ in seen if r == "vendor_contact"} - {OUR_DOMAIN}
    out: list[str] = []
    by_email: dict[str, dict[str, str]] = {}
    for email, role, where in seen:
        domain = email.rsplit("@", 1)[1]
        if role in ("employee", *EXTERNAL):
            by_email.setdefault(email, {}).setdefault(role, where)
        if role == "employee" and domain != OUR_DOMAIN:
            out.append(f"role_domain: {where}: employee field holds {email}"
                       + (" (a vendor's address)" if domain in vendor_domains else " (not our domain)"))
        elif role in EXTERNAL and domain == OUR_DOMAIN:
            out.append(f"role_domain: {where}: {role} field holds our address {email}")
        elif role in ("customer_contact", "candidate") and domain in vendor_domains:
            out.append(f"role_domain: {where}: {role} field holds a vendor's address {email}")
    for email, roles in sorted(by_email.items()):
        if len(roles) > 1:
            out.append(f"role_conflict: {email}: " + "; ".join(f"{r} in {w}" for r, w in sorted(roles.items())))
    return out


def world_violations(state_by_service: Mapping[str, Any], today: str) -> list[str]:
    """Every violation of the cross-service invariants in a world's state (see the module docstring)."""
    return world_summary(state_by_service, today)[0]


def world_summary(state_by_service: Mapping[str, Any], today: str) -> tuple[list[str], dict[str, set[str]]]:
    """`world_violations` and `email_names` of a state, from one pass over its records."""
    out: list[str] = role_violations(state_by_service)
    names: dict[str, dict[str, list[str]]] = {}  # email -> name (lowercased) -> where
    shown: dict[str, str] = {}
    for svc in sorted(state_by_service):
        for coll, rows in sorted(state_by_service[svc].items()):
            if not isinstance(rows, Mapping):
                continue
            for rid, rec in _records(rows):
                where = f"{svc}.{coll}.{rid}"
                for ef, nf in person_pairs(rec):
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
    return out, {email: set(by_name) for email, by_name in names.items()}


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
                for ef, nf in person_pairs(rec):
                    email, name = rec.get(ef), rec.get(nf)
                    if isinstance(email, str) and "@" in email and isinstance(name, str) and name.strip():
                        out.setdefault(email.strip().lower(), set()).add(name.strip().lower())
    return out


def added_violations(added: Mapping[str, Any], today: str, world_names: Mapping[str, set[str]]) -> list[str]:
    """Violations that records added to a world bring in (a task's planted records): their own
    (`future_timestamp`, `name_path`, `slug_name`, disagreements among them) plus `email_name` where an
    added record gives an email another name than the world does (`world_names`: `email_names(world)`)."""
    out, added_names = world_summary(added, today)
    for email, names in sorted(added_names.items()):
        known = world_names.get(email, set())
        if known and names - known:
            out.append(f"email_name: {email}: {sorted(names - known)} added where the world says {sorted(known)}")
    return out
