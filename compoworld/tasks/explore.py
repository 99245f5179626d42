"""Explore phase: learn, by running tools in a scratch environment, what each service can do.

Nothing here reads hand-written task templates: a lookup is a read tool that, given a value of some
record field, returns that record; an action is a write tool whose effect (from the state diff) puts
parameter values into record fields. The same probing works for library and compiled services.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from compoworld.services.environment import Environment, diff_states
from compoworld.services.sampling import sample_arguments, values_by_semantics
from compoworld.services.semantics import NON_JOINING
from compoworld.services.service import Service
from compoworld.synthesis.infer import ACTION_LOG
from compoworld.synthesis.naming import is_numbered_name, reads_as_noun

SEARCH_PARAMS = {"query", "q", "search", "keyword", "keywords", "term", "text", "name", "title", "subject"}
KEY_FIELD_NAMES = ("name", "title", "subject", "full_name", "display_name", "label", "filename", "sku", "code")
KEY_SEMS = {"person_name", "company_name", "title", "email", "file_path", "code"}
_PATTERNS = [
    ("email", re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")),
    ("datetime", re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")),
    ("date", re.compile(r"^\d{4}-\d{2}-\d{2}$")),
    ("url", re.compile(r"^https?://")),
    ("phone", re.compile(r"^\+?\(?\d[\d\-\s().]{8,}$")),
]


# Entity names that say nothing of what a record is: inference's `result` stands for a lookup whose
# tool names no noun, and "the name of the result with target ..." asks for nothing a person knows.
VAGUE_ENTITIES = frozenset({"result", "object", "data", "record", "entity", "output", "response", "info"})


def _nameable(entity: str) -> bool:
    """Whether a request can name a record of this kind ("the invoice named ...")."""
    return entity not in VAGUE_ENTITIES and reads_as_noun(entity)


@dataclass(frozen=True)
class Lookup:
    """`tool(**{param: record[field]})` returns the record (at `path` in the result, "" = itself)."""

    tool: str
    collection: str
    key_param: str
    key_field: str
    path: str
    fixed: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Action:
    """A write tool and where its parameters land: op 'added' inserts, 'changed' updates `target_param`."""

    tool: str
    op: str
    collection: str
    param_fields: dict[str, str] = field(hash=False, compare=False)
    param_sems: dict[str, str] = field(hash=False, compare=False)
    template: dict[str, Any] = field(hash=False, compare=False)
    target_param: str = ""


@dataclass(frozen=True)
class Transition:
    """A write tool that takes only the record (`tool(**{target_param: id})`) and moves its `field`
    to `value`: issue an invoice (status -> issued), reimburse a report, archive a project."""

    tool: str
    collection: str
    target_param: str
    field: str
    value: str
    stamps: tuple[str, ...] = ()  # the other fields the move sets (issue date, reimbursed on)
    verb: str = ""  # how a request says the move (`transition_verb`); "" when its name has no such word


@dataclass
class ServiceProfile:
    service: str
    field_sems: dict[str, dict[str, str]]  # collection -> field -> semantic type
    key_fields: dict[str, list[str]]  # collection -> fields that identify a record to a person
    lookups: list[Lookup]
    actions: list[Action]
    error: str = ""  # why exploring failed, if it did
    transitions: list[Transition] = field(default_factory=list)

    @cached_property
    def document_lookups(self) -> list[tuple[Lookup, str]]:
        """The lookups that find a document a rule can be written in, each with the text field it goes
        in: keyed by the document's title or path (not by an email: a rule is no payroll adjustment)."""
        out = []
        for lk in self.lookups:
            sems = self.field_sems.get(lk.collection, {})
            texts = [f for f, s in sems.items() if s == "text" and f != lk.key_field]
            if lk.key_field in self.key_fields.get(lk.collection, []) and texts and sems.get(lk.key_field) in ("title", "file_path"):
                out.append((lk, texts[0]))
        return out

    def collection_of(self, tool: str) -> str | None:
        """The collection a lookup tool reads (None for a tool that is no lookup)."""
        return next((lk.collection for lk in self.lookups if lk.tool == tool), None)

    def produces(self) -> set[str]:
        """Joinable types a lookup can reveal."""
        colls = {lk.collection for lk in self.lookups}
        return {t for c in colls for t in self.field_sems.get(c, {}).values() if t not in NON_JOINING and "." not in t}

    def consumes(self) -> set[str]:
        """Joinable types an action writes or a lookup is keyed by."""
        out = {t for a in self.actions for p, t in a.param_sems.items() if p in a.param_fields and t not in NON_JOINING and "." not in t}
        out |= {self.field_sems.get(lk.collection, {}).get(lk.key_field, "") for lk in self.lookups}
        return {t for t in out if t and t not in NON_JOINING and "." not in t}

    def summary(self) -> dict[str, Any]:
        return {
            "service": self.service,
            "lookups": [f"{lk.tool}({lk.key_param}={lk.collection}.{lk.key_field})" for lk in self.lookups],
            "actions": [f"{a.tool}:{a.op} {a.collection}" for a in self.actions],
            "produces": sorted(self.produces()),
            "consumes": sorted(self.consumes()),
        }


def _sem_from_value(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    for sem, pat in _PATTERNS:
        if pat.match(value):
            return sem
    return None


def _field_sems(env: Environment, svc: Service) -> dict[str, dict[str, str]]:
    """Semantic types of each collection's fields: from tool output schemas, else from the values."""
    by_entity: dict[str, dict[str, str]] = {}
    for spec in svc.specs().values():
        sems = spec.output_semantics
        for path, sem in sems.items():
            if path.endswith("id") and sem.startswith(f"{svc.name}.") and sem.endswith("_id"):
                prefix = path[: -len("id")]
                ent = sem[len(svc.name) + 1 : -3]
                fields = by_entity.setdefault(ent, {})
                for p2, s2 in sems.items():
                    if p2.startswith(prefix) and "." not in p2[len(prefix):] and "[" not in p2[len(prefix):]:
                        fields.setdefault(p2[len(prefix):], s2)
    out: dict[str, dict[str, str]] = {}
    for coll, table in svc.db.items():
        fields = dict(by_entity.get(table.entity, {}))
        for row in list(table.rows.values())[:5]:
            for k, v in row.items():
                if k not in fields and k != "id":
                    sem = _sem_from_value(v)
                    if sem:
                        fields[k] = sem
        fields.pop("id", None)
        out[coll] = fields
    return out


def _key_fields(svc: Service, field_sems: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """Fields whose values are unique strings a person would use to name a record."""
    out: dict[str, list[str]] = {}
    for coll, table in svc.db.items():
        rows = list(table.rows.values())
        if not rows:
            continue
        cands = [f for f in rows[0] if f != "id" and isinstance(rows[0].get(f), str)
                 and (f in KEY_FIELD_NAMES or field_sems.get(coll, {}).get(f) in KEY_SEMS)]
        good = []
        for f in cands:
            values = [r.get(f) for r in rows if isinstance(r.get(f), str) and r.get(f)]
            if not values or len(set(v.lower() for v in values)) < 0.8 * len(values):
                continue
            if sum(is_numbered_name(v, table.entity) for v in values) * 2 > len(values):
                continue  # "Bank 1", "Bank 2": a name that says only which one, not something a person calls it
            good.append(f)
        out[coll] = good
    return out


def _find_record(data: Any, rid: str) -> str | None:
    """Where in a tool result a record with this id sits: "" (the result itself) or a list key."""
    if isinstance(data, dict):
        if data.get("id") == rid:
            return ""
        for k, v in data.items():
            if isinstance(v, list) and any(isinstance(x, dict) and x.get("id") == rid for x in v):
                return k
    return None


def _probe_lookups(env: Environment, svc: Service, field_sems: dict[str, dict[str, str]],
                   key_fields: dict[str, list[str]], rng: random.Random) -> list[Lookup]:
    out: list[Lookup] = []
    pool = values_by_semantics(env)
    for tname, spec in svc.specs().items():
        if not spec.read_only or spec.kind != "deterministic":
            continue
        props = spec.input_schema.get("properties", {})
        required = set(spec.input_schema.get("required", []))
        for coll, table in svc.db.items():
            rows = list(table.rows.values())
            if not rows or not _nameable(table.entity):  # no request asks for "the optimized with url ..."
                continue
            record = rows[len(rows) // 2]
            sems = field_sems.get(coll, {})
            for param in props:
                psem = spec.param_semantics.get(param)
                candidates = [f for f, s in sems.items() if psem and s == psem and psem not in NON_JOINING]
                if param in SEARCH_PARAMS or psem in ("query", "text", "title", "person_name", "company_name"):
                    candidates += [f for f in key_fields.get(coll, []) if f not in candidates]
                for fld in candidates:
                    value = record.get(fld)
                    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                        continue
                    fixed = {p: v for p, v in sample_arguments(spec, env, rng, pool, optional_p=0.0, service=svc.name).items()
                             if p in required and p != param}
                    obs = env.step({"name": f"{svc.name}__{tname}", "arguments": {**fixed, param: value}})
                    path = _find_record(obs.data, record["id"]) if obs.ok else None
                    if path is not None:
                        out.append(Lookup(f"{svc.name}__{tname}", coll, param, fld, path, fixed))
                        break
    return out


def _changes(env: Environment, svc: Service, tname: str, args: dict[str, Any]) -> list[dict[str, Any]] | None:
    """What calling the tool changes in its service (then undone); None when the call is refused."""
    before = env.state()
    if not env.step({"name": f"{svc.name}__{tname}", "arguments": args}).ok:
        return None
    changes = [c for c in diff_states(before, env.state()) if c["service"] == svc.name]
    env.reset(env.seed, {svc.name: before[svc.name]})
    return changes


def _probe_actions(env: Environment, svc: Service, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    pool = values_by_semantics(env)
    for tname, spec in svc.specs().items():
        if spec.read_only or spec.kind != "deterministic" or spec.destructive:
            continue
        for attempt in range(24):
            args = sample_arguments(spec, env, rng, pool, optional_p=(0.0, 0.5, 1.0)[attempt % 3], service=svc.name)
            changes = _changes(env, svc, tname, args)
            if changes is None:
                continue
            if not changes:
                break
            main = changes[0]
            if main["collection"] == ACTION_LOG or not _nameable(svc.db[main["collection"]].entity):
                break  # a line in an action log ("completed") is no outcome a check can tell right from wrong
            if main["op"] == "added":
                rec = main["record"]
                fields = {p: f for p, v in args.items() for f, rv in rec.items()
                          if f != "id" and isinstance(v, (str, int, float)) and not isinstance(v, bool) and rv == v}
                if fields:
                    out.append(Action(f"{svc.name}__{tname}", "added", main["collection"], fields, dict(spec.param_semantics), args))
            elif main["op"] == "changed":
                target = next((p for p, v in args.items() if v == main["id"]), "")
                fields = {p: f for p, v in args.items() for f, (_, new) in main["fields"].items()
                          if isinstance(v, (str, int, float)) and not isinstance(v, bool) and new == v}
                if target and fields:
                    out.append(Action(f"{svc.name}__{tname}", "changed", main["collection"], fields,
                                      dict(spec.param_semantics), args, target))
            break
    return out


def _probe_transitions(env: Environment, svc: Service, rng: random.Random) -> list[Transition]:
    """Write tools that need only the record and move its state (see `Transition`). Cancelling is
    marked destructive but keeps the record, so unlike `_probe_actions` this probes those too."""
    out: list[Transition] = []
    pool = values_by_semantics(env)
    for tname, spec in svc.specs().items():
        required = spec.input_schema.get("required") or []
        if spec.read_only or spec.kind != "deterministic" or len(required) != 1:
            continue
        sem = spec.param_semantics.get(required[0], "")
        ids = sorted(rid for t in svc.db.values() if sem == f"{svc.name}.{t.entity}_id" for rid in t.rows)
        # every record of the kind the move takes (few may be in the state it starts from), else samples
        for args in ([{required[0]: rid} for rid in ids] or
                     [sample_arguments(spec, env, rng, pool, optional_p=0.0, service=svc.name) for _ in range(24)]):
            changes = _changes(env, svc, tname, args)
            if changes is None:
                continue
            main = changes[0] if changes else {}
            move = _state_field(main["fields"]) if main.get("op") == "changed" and main["id"] == args.get(required[0]) else None
            if move and main["collection"] != ACTION_LOG and _nameable(svc.db[main["collection"]].entity):
                out.append(Transition(f"{svc.name}__{tname}", main["collection"], required[0], *move,
                                      stamps=tuple(sorted(set(main["fields"]) - {move[0]})),
                                      verb=transition_verb(f"{svc.name}__{tname}", move[1])))
            break
    return out


def transition_verb(tool: str, outcome: str) -> str:
    """The word of a tool's name that its outcome comes from: `inventory__reserve_order` moving to
    "reserved" -> "reserve", `hubspot__notes_archive` to "archived" -> "archive" (not "notes", and
    not "monday" of `monday_archive_item`); "" when no word is (`start_container` -> "running")."""
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", tool.split("__", 1)[-1]).lower())
    return next((w for w in words if len(w) >= 3 and outcome.lower().startswith(w[:max(3, len(w) - 1)])), "")


def _state_field(fields: dict[str, tuple[Any, Any]]) -> tuple[str, str] | None:
    """(field, new value) of the state a transition moves: a word-valued status (`draft` -> `issued`),
    not a timestamp the move also stamps. None when no single such field changed."""
    words = [(f, new) for f, (old, new) in fields.items() if isinstance(old, str) and isinstance(new, str)
             and re.fullmatch(r"[a-z][a-z_]{1,30}", new) and re.fullmatch(r"[a-z][a-z_]{1,30}", old)]
    return words[0] if len(words) == 1 else None


@lru_cache(maxsize=4096)
def profile(cls: type[Service]) -> ServiceProfile:
    """What one service offers a task designer (cached per service class: exploring is deterministic)."""
    env = Environment([cls], seed=0)
    svc = env.services[cls.name]
    rng = random.Random(f"explore/{cls.name}")
    try:
        field_sems = _field_sems(env, svc)
        key_fields = _key_fields(svc, field_sems)
        lookups = _probe_lookups(env, svc, field_sems, key_fields, rng)
        env.reset(0)
        actions = _probe_actions(env, svc, rng)
        env.reset(0)
        transitions = _probe_transitions(env, svc, rng)
    except Exception as exc:  # a service the explorer cannot drive takes no part in tasks; say why
        return ServiceProfile(cls.name, {}, {}, [], [], error=f"{type(exc).__name__}: {exc}")
    return ServiceProfile(cls.name, field_sems, key_fields, lookups, actions, transitions=transitions)
