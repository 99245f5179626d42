"""Design phase: turn a walk into initial states, a plan (the reference solution) and a rubric.

The designer works in a scratch environment and simulates every step as it adds it, so each plan
step is known to succeed on the state it will meet. Values flow along the walk: each visit finds a
record by the value the previous visit produced (planting one where needed) and hands one of its
fields to the next visit; the last visit, and some in between, write with the value they receive.
A revisit updates a record read earlier, so the value read then is stale afterwards.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import date, datetime, timedelta
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from compoworld.services.cast import EXTERNAL, PERSON_ROLES, cast, fits, role_of
from compoworld.services.fake import OUR_DOMAIN
from compoworld.services.world_check import person_pairs, role_violations
from compoworld.services.environment import Environment
from compoworld.services.sampling import END_WORDS, ValuePool, is_fallback_value, sample_arguments, service_values
from compoworld.services.service import Service
from compoworld.synthesis.naming import is_numbered_name, spoken_entity
from compoworld.tasks.capabilities import chained
from compoworld.tasks.checks import evaluate, matching, same
from compoworld.tasks.design_types import (Carry, DesignError, field_words, id_entity, joinable as _joinable, moved_span, revision_keys,
                                          rule_topic)
from compoworld.tasks.explore import Action, Lookup, ServiceProfile, profile
from compoworld.tasks.instruction import Phrase, leaks, write_verb
from compoworld.tasks.model import Check, Cond, Criterion, Extract, PlanStep, ReportItem, Walk, Where
from compoworld.tasks.quality import chain_keys, translated_from
from compoworld.tasks.solution import applies, execute, hidden_values, literal_strings, pick, resolve, variables

TEXT_SEMS = {"title", "text"}
TYPE_WEIGHT = {"email": 8.0, "person_name": 4.0, "company_name": 4.0, "title": 2.0, "date": 1.5}
# (service classes, last visit) -> (roles each type is taken in, the joinable types): see `consumable`; read only
_CONSUMABLE: dict[tuple[tuple[type, ...], bool], tuple[dict[str, set[str]], list[str]]] = {}


@dataclass
class Design:
    env: Environment
    initial: dict[str, Any]
    plan: list[PlanStep] = field(default_factory=list)
    criteria: list[Criterion] = field(default_factory=list)
    bindings: dict[str, Any] = field(default_factory=dict)
    stale: dict[str, Any] = field(default_factory=dict)
    phrases: list[Phrase] = field(default_factory=list)
    planted: list[dict[str, Any]] = field(default_factory=list)
    edge_types: list[str] = field(default_factory=list)
    read_records: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # service -> (collection, id, plan step)
    instruction_verdict: str = "template"  # or the LLM rewrite's verdict
    report: list[ReportItem] = field(default_factory=list)
    capabilities: set[str] = field(default_factory=set)
    mentioned: set[str] = field(default_factory=set)  # values the request's text calls "that <field>": their lookup stays a sentence


@dataclass
class _Visit:
    """A visit of the walk being designed, for going back to it: the designer's mark before it, the
    value it started from, the moves not yet tried there (popped from the end), how many values each
    earlier step read then, and the fields revisits had updated."""

    mark: tuple[Any, ...]
    carry: Carry | None
    moves: list[tuple[bool, str]]
    reads: list[int]
    updated: set[tuple[str, str, str]]


class Designer:
    def __init__(self, walk: Walk, classes: dict[str, type[Service]], seed: int, write_p: float = 0.5,
                 require_stale: bool = False, policy_p: float = 0.3, motifs: int = 6) -> None:
        self.walk = walk
        self.seed = seed
        self.rng = random.Random(f"design/{seed}")
        self.write_p = write_p
        self.profiles: dict[str, ServiceProfile] = {s: profile(classes[s]) for s in walk.services}
        env = Environment([classes[s] for s in sorted(set(walk.services) | set(walk.distractors))], seed=seed)
        self.d = Design(env=env, initial=env.state())
        self.pool = _pool(env, tuple(env.services), seed)  # values of each type in the world, for arguments
        self._candidates: dict[tuple[str, str, str], list[list[tuple[str, str]]]] = {}
        self._seeded_rows: dict[tuple[str, str], list[dict[str, Any]]] = {}  # see `template`
        self._n = 0
        self.visits: list[str] = []
        self.next_roles: dict[str, set[str]] = {}  # set by `consumable` for the visit being designed
        self.last_failure = ""
        self.require_stale = require_stale
        self.policy_p = policy_p
        self.literals: set[str] = set()
        self.updated: set[tuple[str, str, str]] = set()  # (service, record, field) a revisit has updated
        self.carries: list[Carry] = []  # every value handed along the walk, for motifs keyed by one
        self._fresh: Environment | None = None  # for replaying the plan from the start
        # What the last successful replay covered: the plan's steps (with how many values each read)
        # and the planted records. Only services where either changed since need replaying again.
        self._replayed: tuple[list[tuple[PlanStep, int]], list[Any]] | None = None
        self._world_names: dict[str, str] | None = None
        self.motifs = motifs
        self.done_p = 0.15  # share of adding writes whose record already exists (the part already done)

    # -- helpers ---------------------------------------------------------------------------------
    def var(self) -> str:
        self._n += 1
        return f"v{self._n}"

    def table(self, service: str, coll: str):
        return self.d.env.services[service].db[coll]

    def entity(self, service: str, coll: str) -> str:
        return spoken_entity(self.table(service, coll).entity)

    def run(self, step: PlanStep) -> Any:
        """Simulate a step; on success keep it in the plan and bind its extractions."""
        obs = self.d.env.step({"name": step.tool, "arguments": resolve(step.arguments, self.d.bindings)})
        if step.expect_error:  # a refusal the request prepares the agent for
            if obs.ok or obs.error_kind != "business_rule":
                raise DesignError(f"step not refused:{step.tool.split('__')[1]}")
            self.d.plan.append(step)
            return obs.data
        if not obs.ok:
            raise DesignError(f"step failed:{step.tool.split('__')[1]}:{obs.error_kind}")
        for ex in step.extract:
            value = pick(obs.data, ex, self.d.bindings)
            if value is None:
                raise DesignError("extract:no match")
            self.d.bindings[ex.var] = value
        self.d.plan.append(step)
        return obs.data

    def planted_start(self) -> dict[str, Any]:
        """The state the task starts in: the seeded world with the plants so far (only the
        collections that have plants are copied)."""
        start = {svc: dict(colls) for svc, colls in self.d.initial.items()}
        copied: set[tuple[str, str]] = set()
        for p in self.d.planted:
            svc, coll = p["service"], p["collection"]
            if (svc, coll) not in copied:
                copied.add((svc, coll))
                start[svc][coll] = dict(start[svc][coll])
            start[svc][coll][p["record"]["id"]] = p["record"]
        return start

    def replays(self) -> bool:
        """Does the plan, run in a fresh world with the plants so far, discover what the design did?

        A tool reads and writes only its own service's tables, so a service whose plants and steps are
        those an earlier replay confirmed gives the same values again: only the others are run (the
        confirmed steps pass their time and hand on the values the design read)."""
        start = self.planted_start()
        if self._fresh is None:
            self._fresh = Environment([type(svc) for svc in self.d.env.services.values()], seed=self.seed)
        env = self._fresh  # rewound to the start, as a fresh environment would be (ids follow from the rows)
        env.ctx.journal.entries.clear()
        env.ctx.clock._now = env.ctx.clock.start
        rerun = self._changed_services()
        for name, svc in env.services.items():
            if name in rerun:
                svc.load(start[name])
        bindings: dict[str, Any] = {}
        for step in self.d.plan:
            if not applies(step, bindings):
                continue
            if step.service not in rerun:
                env.ctx.clock.tick()
                bindings.update({ex.var: self.d.bindings.get(ex.var) for ex in step.extract})
                continue
            obs = env.step({"name": step.tool, "arguments": resolve(step.arguments, bindings)})
            for ex in step.extract:
                bindings[ex.var] = pick(obs.data, ex, bindings) if obs.ok else None
        if bindings != self.d.bindings:
            return False
        self._replayed = ([(st, len(st.extract)) for st in self.d.plan], [p["record"] for p in self.d.planted])
        return True

    def _changed_services(self) -> set[str]:
        """Services with a step or a plant that the last successful replay did not confirm (all of them
        before the first)."""
        if self._replayed is None:
            return set(self.d.env.services)
        steps, records = self._replayed
        changed = {p["service"] for k, p in enumerate(self.d.planted) if k >= len(records) or p["record"] is not records[k]}
        changed |= {st.service for k, st in enumerate(self.d.plan)
                    if k >= len(steps) or steps[k][0] is not st or steps[k][1] != len(st.extract)}
        if len(self.d.planted) < len(records) or len(self.d.plan) < len(steps):
            return set(self.d.env.services)
        return changed

    def run_step(self, step: PlanStep) -> PlanStep:
        self.run(step)
        return step

    def run_guarded(self, step: PlanStep) -> None:
        """A step behind a branch: simulated when its conditions hold on the values found so far,
        else kept unrun (the reference decides against it)."""
        if applies(step, self.d.bindings):
            self.run(step)
        else:
            self.d.plan.append(step)

    def criterion(self, kind: str, description: str, check: Check) -> None:
        self.d.criteria.append(Criterion(id=f"c{len(self.d.criteria) + 1}", kind=kind, description=description, check=check))  # type: ignore[arg-type]

    def plant(self, service: str, coll: str, template: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
        """Add a record to the initial state (outside any step: it is part of the world, not an action)."""
        table = self.table(service, coll)
        rid = table.new_id()
        while rid in table.rows:
            table.seq += 1
            rid = table.new_id()
        changes = self.same_person(template, changes)
        changes = {**changes, **moved_span(template, changes)}
        if isinstance(changes.get("path"), str) and "name" in template and "name" not in changes:
            changes["name"] = changes["path"].rstrip("/").rsplit("/", 1)[-1]  # a file's name is the end of its path
        elif isinstance(changes.get("name"), str) and isinstance(template.get("path"), str) and "path" not in changes:
            changes["path"] = template["path"].rstrip("/").rsplit("/", 1)[0] + "/" + changes["name"]
        rec = {**template, **changes, "id": rid}
        try:  # the task's initial state is validated when an environment loads it: a plant must pass now
            type(self.d.env.services[service]).validate_record(coll, rec)
        except ValidationError as exc:
            raise DesignError(f"planted record fails the state model: {service}.{coll}") from exc
        rec = table.place(rec)
        self.d.planted.append({"service": service, "collection": coll, "record": rec})
        return rec

    def same_person(self, template: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
        """A plant that sets a person's email also gets that person's name in the paired field (and
        the reverse): a cloned record must not pair one person's email with another's name."""
        people, names = cast(self.seed).by_email(), cast(self.seed).by_name()
        out = dict(changes)
        for ef, nf in person_pairs({**template, **changes}):
            person = None
            if ef in changes and isinstance(changes[ef], str):  # the address says whose record it is
                person = people.get(changes[ef].strip().lower())
                if person is not None:
                    out[nf] = person.name
                elif changes[ef].strip().lower() in self.world_names():  # a former address, a team mailbox
                    out[nf] = self.world_names()[changes[ef].strip().lower()]
            elif nf in changes and ef not in changes and isinstance(changes[nf], str):
                person = names.get(changes[nf].strip().lower())
                if person is not None:
                    out[ef] = person.email
                else:  # the clone keeps its address: not under another name ('Sales Team' on omar.alvarez@'s record)
                    kept = str(template.get(ef) or "").strip().lower()
                    known = people[kept].name if kept in people else self.world_names().get(kept)
                    if known and known.strip().lower() != changes[nf].strip().lower():
                        raise DesignError("a person's record under a name that is not theirs")
            was = people.get(str(template.get(ef) or "").strip().lower())
            if person is not None and was is not None and was != person:
                self.restate(template, out, was, person)
        return out

    def world_names(self) -> dict[str, str]:
        """email (lowercased) -> the name the seeded world pairs it with, for addresses that are no
        person of the cast (a former employee's old address, a team mailbox); computed once."""
        if self._world_names is None:
            self._world_names = {}
            for colls in self.d.initial.values():
                for rows in colls.values():
                    for rec in rows.values():
                        for ef, nf in person_pairs(rec):
                            e, n = rec.get(ef), rec.get(nf)
                            if isinstance(e, str) and isinstance(n, str) and n.strip():
                                self._world_names.setdefault(e.strip().lower(), n)
        return self._world_names

    @staticmethod
    def restate(template: dict[str, Any], out: dict[str, Any], was: Any, person: Any) -> None:
        """A cloned record that now belongs to `person` says so everywhere: its company field and the
        text that named the template's person (a ticket signed by someone else, at another company)."""
        tail = ", ".join(x for x in (person.title, person.company) if x)  # someone with no employer signs with a title
        swaps = [(f"{was.title}, {was.company}", tail), (was.name, person.name)]
        for f, v in template.items():
            if f in out or not isinstance(v, str):
                continue
            if f == "company" and v == was.company:
                if person.company:  # else the record keeps its company (a required field)
                    out[f] = person.company
            elif was.name in v:
                for old, new in swaps:
                    v = v.replace(old, new)
                out[f] = v

    def same_person_args(self, act: Action, args: dict[str, Any], param: str, carry: Carry) -> None:
        """A write that takes a person's carried email states that person's name in the paired name
        argument, and the reverse (a salary for lena.novak@ is Lena Novak's, not a random colleague's).
        An email that is no one's own (a shared mailbox on a contact) goes with the name of the record
        it was read from."""
        people = cast(self.seed).by_email()
        value = str(carry.value).strip().lower()
        if carry.sem == "email":
            person = people.get(value)
            name, email = (person.name if person else self.name_beside(carry)), None
        elif carry.sem == "person_name":  # only a name that is one person's (namesakes are traps)
            named = [p for p in people.values() if p.name.lower() == value]
            name, email = None, (named[0].email if len(named) == 1 else None)
        else:
            return
        param_of = {f: p for p, f in act.param_fields.items()}
        for ef, nf in person_pairs({f: None for f in param_of}):
            if name and param_of.get(ef) == param and isinstance(args.get(param_of.get(nf, "")), str):
                args[param_of[nf]] = name
            elif email and param_of.get(nf) == param and isinstance(args.get(param_of.get(ef, "")), str):
                args[param_of[ef]] = email
            elif param_of.get(nf) == param and isinstance(args.get(param_of.get(ef, "")), str):
                # A name that is no one's, or a namesake's: the address stated beside it must not be
                # someone else's ('Granite Travel Inc' as the contact at omar.young@...).
                owner = people.get(args[param_of[ef]].strip().lower())
                if owner is not None and owner.name.lower() != value:
                    raise DesignError("a person's email under a name that is not theirs")

    def name_beside(self, carry: Carry) -> str | None:
        """The person name paired with the email in the record the carried email was read from."""
        for table in self.d.env.services[carry.service].db.values():
            for rec in table:
                if rec.get(carry.field) == carry.value:
                    names = [rec[n] for e, n in person_pairs(rec) if e == carry.field and isinstance(rec.get(n), str)]
                    return names[0] if names else None
        return None

    def moved_address(self, service: str, coll: str, rid: str, fld: str) -> str | None:
        """A new address for the person whose email a record keeps (their name beside it), at the same
        domain: Hannah Wilson's new email is hannah.wilson@..., not another person's address."""
        rec = self.table(service, coll).require(rid)
        old = rec.get(fld)
        names = [rec[n] for e, n in person_pairs(rec) if e == fld and isinstance(rec.get(n), str)]
        if not names or not isinstance(old, str) or "@" not in old:
            return None
        parts = [w for w in re.sub(r"[^a-z ]", "", names[0].lower()).split() if w]
        if len(parts) < 2:
            return None
        domain = old.partition("@")[2]
        taken = {str(r.get(fld)).lower() for r in self.table(service, coll)}
        for local in (f"{parts[0]}.{parts[-1]}", f"{parts[0][0]}{parts[-1]}", f"{parts[0]}.{parts[-1]}2"):
            address = f"{local}@{domain}"
            if address not in taken:
                return address
        return None

    def template(self, service: str, coll: str) -> dict[str, Any] | None:
        """A record of the seeded world to clone for a plant (never one the plan itself created)."""
        key = (service, coll)
        rows = self._seeded_rows.get(key)
        if rows is None:  # the seeded world never changes: listed once per collection, not once per plant
            rows = self._seeded_rows[key] = list(self.d.initial.get(service, {}).get(coll, {}).values())
        return self.rng.choice(rows) if rows else None

    def fresh_value(self, service: str, coll: str, fld: str, avoid: set[Any]) -> Any:
        """A realistic value for a field, unused in the collection: borrowed from elsewhere in the world."""
        table = self.table(service, coll)
        sem = self.profiles[service].field_sems.get(coll, {}).get(fld)
        if sem in ("date", "datetime"):  # ahead of the clock, so actions that refuse the past accept it
            when = self.d.env.ctx.clock.datetime() + timedelta(days=self.rng.randint(5, 60))
            return when.strftime("%Y-%m-%d") if sem == "date" else when.replace(hour=self.rng.randint(9, 15), minute=0, second=0).strftime("%Y-%m-%dT%H:%M:%SZ")
        used = {r.get(fld) for r in table} | avoid
        role = self.role(service, coll, fld, sem or "")  # an assignee's email is one of ours
        if sem == "person_name" and role in PERSON_ROLES:  # a person of that role (plant pairs their email)
            names = [p.name for p in cast(self.seed).people(role) if p.name not in used]
            return self.rng.choice(names) if names else None
        kind = type(next(iter(table)).get(fld))
        for values in ((self.pool.get(f"{sem}@{role}") or []) if role else [], self.pool.get(f"{sem}#{fld}", []), self.pool.get(sem or "", [])):
            pool = [v for v in values if v not in used and isinstance(v, kind)]
            if pool:
                return self.rng.choice(pool)
        return None

    # -- visits ----------------------------------------------------------------------------------
    def first_lookup(self, i: int, service: str, out_sems: list[str]) -> Carry:
        prof = self.profiles[service]
        named = [lk for lk in prof.lookups if lk.key_field in prof.key_fields.get(lk.collection, [])]
        by_value = [lk for lk in prof.lookups if lk not in named and _joinable(prof.field_sems.get(lk.collection, {}).get(lk.key_field, ""))]
        self.rng.shuffle(named)
        self.rng.shuffle(by_value)
        options = named + by_value
        if self.rng.random() < 0.7:  # records that can be updated later make a stale revisit possible
            options.sort(key=lambda lk: not self.updatable(service, lk.collection))
        ent_of = {lk.collection: self.entity(service, lk.collection) for lk in options}
        # An unrelated lookup of a kind the request already made ("the email of the candidate 'Elif Smith'
        # ... the email of the candidate 'Omar Smith'") reads as the same errand again: one of each kind,
        # except in a service that offers a single kind of lookup (many compiled services do).
        made = {(ph.entity, ph.key_field) for ph in self.d.phrases if ph.kind == "find" and ph.service == service}
        if len({(ent_of[lk.collection], lk.key_field) for lk in options}) > 1:
            options = [lk for lk in options if (ent_of[lk.collection], lk.key_field) not in made]
        for lk in options:
            fields = self.out_fields(service, lk.collection, out_sems, exclude={lk.key_field})
            if not fields:  # nothing it reads could be handed on
                continue
            # Named records come from the world as it starts, never from what the plan itself created.
            seeded = self.d.initial.get(service, {}).get(lk.collection, {})
            rows = [r for r in self.table(service, lk.collection) if isinstance(r.get(lk.key_field), str) and r["id"] in seeded]
            self.rng.shuffle(rows)
            per_key = Counter(r[lk.key_field].lower() for r in rows)  # records per key: a key must name one
            ent = self.entity(service, lk.collection)
            asked = {ph.key.lower() for ph in self.d.phrases if ph.kind == "find" and ph.service == service and ph.entity == ent}
            for rec in rows[:12]:
                key = rec[lk.key_field]
                if per_key[key.lower()] != 1 or key.lower() in asked:  # a record the request already asked about is not asked for again
                    continue
                if is_numbered_name(key, self.table(service, lk.collection).entity):  # "the biorxiv titled 'Biorxiv 12'"
                    continue
                # a field holding the key itself tells nothing ("the file '/a/b.pdf'; I need its path")
                usable = [f for f in fields if self.usable(service, lk.collection, f, rec.get(f)) and not same(rec.get(f), key)]
                if not usable:
                    continue
                out = self.choose_out(service, lk.collection, usable)
                if self.read_already(lk.tool, lk.key_param, key, out):
                    continue
                v = self.var()
                step = PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: key},
                                extract=[Extract(var=v, field=out, path=lk.path, match={lk.key_field: key})], purpose="lookup",
                                reasoning=f"I'll look up the {self.entity(service, lk.collection)} {_h(lk.key_field)} '{key}' in {service} to get its {_h(out)}.")
                try:
                    self.run(step)
                except DesignError:
                    self.d.plan = self.d.plan[:-1] if self.d.plan and self.d.plan[-1] is step else self.d.plan
                    continue
                self.d.read_records[service] = (lk.collection, rec["id"], len(self.d.plan) - 1)
                self.d.phrases.append(Phrase("find", service=service, entity=ent, key_field=lk.key_field, key=key, field=out, var=v))
                sem = prof.field_sems[lk.collection][out]
                return Carry(v, sem, self.d.bindings[v], out, ent, service, i, self.role(service, lk.collection, out, sem))
        raise DesignError("no first lookup")

    def round_trip(self, carry: Carry, service: str, coll: str) -> bool:
        """Whether a lookup of `coll` keyed by the carried value goes back to the kind of record the value
        before it was read from, through another service's record used only to translate it (the
        employee's manager email -> the chat user with that email -> the employee with that user's name):
        a round trip a colleague would not ask for, where the record itself holds the way on."""
        origin = translated_from(self.d.plan, carry.var, service)
        return origin is not None and self.profiles[service].collection_of(origin.tool) == coll

    def written_by_plan(self, service: str, coll: str, rec: dict[str, Any], fld: str) -> bool:
        """Whether the plan made this record or set this field of it (not the world it starts in)."""
        before = next((p["record"] for p in reversed(self.d.planted) if p["service"] == service and p["collection"] == coll
                       and p["record"]["id"] == rec["id"]), None) or self.d.initial.get(service, {}).get(coll, {}).get(rec["id"])
        return before is None or not same(before.get(fld), rec.get(fld))

    def echoes(self, step: PlanStep, value: Any) -> bool:
        """Whether `value`, read by `step`, is one the chain of lookups the step stands on was keyed by."""
        return isinstance(value, str) and value.lower() in chain_keys(self.d.plan + [step], len(self.d.plan), self.d.bindings)

    def named_by(self, service: str, coll: str, key_field: str, key: Any) -> bool:
        """Whether the plan already read a record of this collection as the one whose `key_field` is `key`
        ("the purchase request with that approver email")."""
        prof = self.profiles[service]
        return any(st.service == service and prof.collection_of(st.tool) == coll and
                   any(key_field in ex.match and same(resolve(ex.match[key_field], self.d.bindings), key) for ex in st.extract)
                   for st in self.d.plan)

    def read_already(self, tool: str, key_param: str, key: Any, fld: str) -> bool:
        """Whether the plan already read `fld` through `tool` with this key (given or found)."""
        return any(st.tool == tool and any(e.field == fld for e in st.extract)
                   and same(resolve(st.arguments.get(key_param), self.d.bindings), key) for st in self.d.plan)

    def choose_out(self, service: str, coll: str, fields: list[str]) -> str:
        """Which field to hand on: types many services take in keep the walk open, so they weigh more."""
        sems = self.profiles[service].field_sems.get(coll, {})
        weights = [TYPE_WEIGHT.get(sems.get(f, ""), 1.0) for f in fields]
        return self.rng.choices(fields, weights=weights)[0]

    def usable(self, service: str, coll: str, fld: str, value: Any) -> bool:
        """A value worth carrying: a plain scalar, and for dates one still ahead of the clock."""
        if not _scalar(value):
            return False
        if self.profiles[service].field_sems.get(coll, {}).get(fld) in ("date", "datetime"):
            return str(value) >= self.d.env.ctx.clock.today()
        return True

    def out_fields(self, service: str, coll: str, sems: list[str], exclude: set[str]) -> list[str]:
        """Fields worth handing on: of a type the next visit takes in, in a role it takes it in."""
        fs = self.profiles[service].field_sems.get(coll, {})
        return [f for f, s in fs.items() if s in sems and f not in exclude
                and any(fits(self.role(service, coll, f, s), r, s) for r in self.next_roles.get(s, {""}))]

    def keyable(self, service: str, carry: Carry, out_sems: list[str]) -> bool:
        """Whether the service has a lookup `keyed_lookup` could try: keyed by the carried type in a role
        that fits, with a field to hand on (what the state holds is not looked at)."""
        prof = self.profiles[service]
        return any(prof.field_sems.get(lk.collection, {}).get(lk.key_field) == carry.sem
                   and self.fits(carry, service, lk.collection, lk.key_field)
                   and self.out_fields(service, lk.collection, out_sems, exclude={lk.key_field}) for lk in prof.lookups)

    def keyed_lookup(self, i: int, service: str, carry: Carry, out_sems: list[str]) -> Carry:
        prof = self.profiles[service]
        options = [lk for lk in prof.lookups if prof.field_sems.get(lk.collection, {}).get(lk.key_field) == carry.sem
                   and self.fits(carry, service, lk.collection, lk.key_field)]
        self.rng.shuffle(options)
        for lk in options:
            fields = self.out_fields(service, lk.collection, out_sems, exclude={lk.key_field})
            if not fields:
                continue
            table = self.table(service, lk.collection)
            existing = [r for r in table if same(r.get(lk.key_field), carry.value)]
            out = self.choose_out(service, lk.collection, fields)
            if existing and any(same(r.get(out), carry.value) for r in existing):
                continue  # the field repeats the value the lookup started from: reading it finds nothing new
            if self.read_already(lk.tool, lk.key_param, carry.value, out):
                continue  # a chain come back to a record it read (email -> name -> email): nothing new
            if self.round_trip(carry, service, lk.collection):
                continue
            keyed = PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: {"$var": carry.var}})
            if len(existing) == 1 and self.usable(service, lk.collection, out, existing[0].get(out)):
                rec = existing[0]
                if self.echoes(keyed, rec.get(out)):
                    continue  # back to a value the chain started from (email -> name -> the same email)
                if self.written_by_plan(service, lk.collection, rec, out):
                    continue  # reading back what the request just had the agent write tells nothing
            elif not existing:
                template = self.template(service, lk.collection)
                if template is None or not _scalar(template.get(out)):
                    continue
                value = self.fresh_value(service, lk.collection, out, avoid=set())
                before_plant = self.mark()
                rec = self.plant(service, lk.collection, template, {lk.key_field: carry.value, **({out: value} if value is not None else {})})
                # a candidate's private address as an employee's; or a person's name the chain started from
                if role_violations({service: {lk.collection: {rec["id"]: rec}}}) or self.echoes(keyed, rec.get(out)):
                    self.restore(before_plant)
                    continue
            else:
                continue
            self.decoy_for_stale(service, lk, carry, out, rec)
            v = self.var()
            step = PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: {"$var": carry.var}},
                            extract=[Extract(var=v, field=out, path=lk.path, match={lk.key_field: {"$var": carry.var}})],
                            reasoning=f"Now I'll find the {self.entity(service, lk.collection)} in {service} whose {_h(lk.key_field)} is the {_h(carry.field)} I found, and read its {_h(out)}.")
            try:
                self.run(step)
            except DesignError:
                continue
            self.d.read_records.setdefault(service, (lk.collection, rec["id"], len(self.d.plan) - 1))
            ent = self.entity(service, lk.collection)
            self.d.phrases.append(Phrase("follow", service=service, entity=ent, key_field=lk.key_field, field=out, prev=carry.field,
                                         var=v, src=carry.var))
            sem = prof.field_sems[lk.collection][out]
            return Carry(v, sem, self.d.bindings[v], out, ent, service, i, self.role(service, lk.collection, out, sem))
        raise DesignError(f"no lookup keyed by {carry.sem}")

    def decoy_for_stale(self, service: str, lk: Lookup, carry: Carry, out: str, rec: dict[str, Any]) -> None:
        """If the incoming value replaced a stale one, plant a record keyed by the stale value, so an agent
        that kept the old value follows the wrong trail."""
        stale = self.d.stale.get(carry.var)
        if stale is None or any(same(r.get(lk.key_field), stale) for r in self.table(service, lk.collection)) or \
                not self.in_role(stale, carry.sem, self.role(service, lk.collection, lk.key_field, carry.sem)):
            return
        if any(nf == lk.key_field for _, nf in person_pairs(rec)) and \
                str(stale).strip().lower() not in cast(self.seed).by_name():
            return  # a person's record keyed by what is no one's name
        value = self.fresh_value(service, lk.collection, out, avoid={rec.get(out)})
        if value is not None:
            self.plant(service, lk.collection, rec, {lk.key_field: stale, out: value})

    def action(self, i: int, service: str, carry: Carry, op: str = "added") -> Action:
        """Write with the carried value; the effect becomes a goal criterion (and 'exactly one' a negative)."""
        prof = self.profiles[service]
        def takes(a: Action, p: str) -> bool:  # a parameter of the carried type, landing in a field of a fitting role
            return p in a.param_fields and p != a.target_param and a.param_sems.get(p) == carry.sem and \
                self.fits(carry, service, a.collection, a.param_fields[p])

        options = [a for a in prof.actions if any(takes(a, p) for p in a.param_sems)]
        self.rng.shuffle(options)
        options.sort(key=lambda a: a.op != op)  # preferred kind first, the other as a fallback
        for act in options:
            param = next(p for p in act.param_sems if takes(act, p))
            for attempt in range(4):
                if attempt == 2:
                    self.support(service, carry)
                mark = self.mark()
                try:
                    self._try_action(i, service, act, param, carry)
                    return act
                except DesignError as exc:
                    self.restore(mark)
                    self.last_failure = exc.reason
        raise DesignError(f"no action consuming {carry.sem}")

    def role(self, service: str, coll: str, fld: str, sem: str) -> str:
        return role_of(type(self.d.env.services[service]), coll, fld, sem)

    @staticmethod
    def in_role(value: Any, sem: str, role: str) -> bool:
        """An email's domain agrees with the role of the field it goes to: ours only for an employee,
        never for an outside person (other values and generic fields: always)."""
        if sem != "email" or not isinstance(value, str) or "@" not in value:
            return True
        ours = value.strip().lower().endswith("@" + OUR_DOMAIN)
        return ours if role == "employee" else not ours if role in EXTERNAL else True

    def fits(self, carry: Carry, service: str, coll: str, fld: str) -> bool:
        """May the carried value land in this field: an employee's email in an assignee field, not a
        customer's (the roles of `compoworld.services.cast`). An email read where nothing gave it a role
        still has a domain: ours only in an employee's field, never in an outside person's."""
        dst = self.role(service, coll, fld, carry.sem)
        return self.in_role(carry.value, carry.sem, dst) and fits(carry.role, dst, carry.sem)

    def mark(self) -> tuple[Any, ...]:
        d = self.d
        return (len(d.plan), len(d.criteria), len(d.phrases), len(d.planted), dict(d.bindings), dict(d.stale),
                dict(d.read_records), d.env.state(), d.env.ctx.clock._now, set(d.capabilities), len(d.report), set(d.mentioned),
                d.env.ctx.journal.changes)

    def restore(self, mark: tuple[Any, ...]) -> None:
        """Undo a failed attempt: plan, rubric, phrases, plants, bindings and the simulated state."""
        n_plan, n_crit, n_phr, n_plant, bindings, stale, reads, state, now, caps, n_report, mentioned, changes = mark
        self.d.capabilities = caps
        self.d.mentioned = mentioned
        del self.d.report[n_report:]
        self.d.env.ctx.clock._now = now  # a tried call moved the clock; what follows must not see it
        del self.d.plan[n_plan:]
        del self.d.criteria[n_crit:]
        del self.d.phrases[n_phr:]
        del self.d.planted[n_plant:]
        self.d.bindings, self.d.stale, self.d.read_records = bindings, stale, reads
        if self.d.env.ctx.journal.changes == changes:  # no table was written since the mark (the attempt only read)
            return
        for name, svc in self.d.env.services.items():
            if any(t.rows is not state[name][c] and t.rows != state[name][c] for c, t in svc.db.items()):
                svc.load(state[name])

    def _try_action(self, i: int, service: str, act: Action, param: str, carry: Carry) -> None:
        spec = self.d.env.services[service].specs()[act.tool.split("__", 1)[1]]
        args = sample_arguments(spec, self.d.env, self.rng, self.pool, optional_p=0.0, service=service)
        args = {k: v for k, v in args.items() if k in spec.input_schema.get("required", [])}
        literals: dict[str, Any] = {}
        for p, f in act.param_fields.items():
            if p != param and act.param_sems.get(p) in TEXT_SEMS:
                literals[p] = self.literal(p)
        args.update(literals)
        table = self.table(service, act.collection)
        names = self.profiles[service].key_fields.get(act.collection, [])
        for p, f in act.param_fields.items():  # a new record must not collide with an existing one's name
            if p != param and p in args and f in names and any(same(r.get(f), args[p]) for r in table):
                args[p] = self.unused(service, act.collection, f, act.param_sems.get(p, ""), args[p])
        if carry.sem in ("date", "datetime"):
            for p in args:
                if p != param and spec.param_semantics.get(p) in ("date", "datetime") and any(w in p.lower() for w in END_WORDS):
                    args[p] = _after(carry.value, spec.param_semantics[p])
        unsayable = next((p for p, v in args.items() if p != param and is_fallback_value(p, v)), None)
        if unsayable is not None:  # "with x label 'X label 303'": the request would state a value that says nothing
            raise DesignError(f"no plausible value for {unsayable}")
        hidden = {str(v).lower() for v in self.d.bindings.values() if isinstance(v, str)}
        for p, v in list(args.items()):  # a literal must never give away a value the agent has to discover
            if isinstance(v, str) and v.lower() in hidden and p != param:
                raise DesignError("literal collides with a discovered value")
        args[param] = {"$var": carry.var}
        self.plausible(service, act, args, param)
        self.same_person_args(act, args, param, carry)
        # Same-service ids the agent must resolve first: find them by a name a person would use.
        pre: list[PlanStep] = []
        refs: list[tuple[str, str, str]] = []
        for p, v in list(args.items()):
            sem = spec.param_semantics.get(p, "")
            if p != param and sem.startswith(f"{service}.") and isinstance(v, str):
                found = self.resolve_id(i, service, sem, v)
                if found is None:
                    raise DesignError(f"no named lookup for {sem}")
                step, var, desc = found
                pre.append(step)
                args[p] = {"$var": var}
                refs.append((p, desc[0], desc[1]))
        # A rule document for a stated value comes last: planting and reading it is the costly part of
        # a write, and the checks above turn down most writes that fail.
        policies: list[tuple[str, str, str, str]] = []
        policy_steps: list[PlanStep] = []
        superseded: dict[str, str] = {}
        if literals and self.rng.random() < self.policy_p:
            lp = self.rng.choice(sorted(literals))
            made = self.policy(i, lp, literals[lp], self.entity(service, act.collection))
            if made is not None:
                step, var, (entity, doc_service, key), old = made
                policy_steps.append(step)
                args[lp] = {"$var": var}
                policies.append((lp, entity, doc_service, key))
                superseded[lp] = old
        for step in policy_steps + pre:
            self.run(step)
        if refs:  # the write points at a record the agent resolved by its name elsewhere in the service
            self.d.capabilities.add("referential-integrity")
        if any(doc_service != service for _, _, doc_service, _ in policies):
            self.d.capabilities.add("cross-service-constraint")
        before = self.d.env.state()
        undo = self.mark()
        verb = write_verb(act.tool, self.entity(service, act.collection), act.op)
        write = PlanStep(visit=i, service=service, tool=act.tool, arguments=args, purpose="write",
                         reasoning=self.rng.choice(WRITE_WHY).format(verb=verb, service=service, param=_h(param), field=_h(carry.field)))
        self.run(write)
        after = self.d.env.state()
        coll = act.collection
        ent = self.entity(service, coll)
        n = len(self.d.criteria)
        if act.op == "added":
            new = [r for k, r in after[service][coll].items() if k not in before[service][coll]]
            if not new:
                raise DesignError("action added nothing")
            rec = new[0]
            where = [Where(field=act.param_fields[param], value=carry.value)] + self.determined(act, args, param, rec)
            if not policies and carry.var not in self.d.stale and self.rng.random() < self.done_p and self.already_done(i, service, act, write, rec, where, undo, carry):
                self.d.phrases.append(Phrase("write", service=service, tool=act.tool, verb=verb, param=param, prev=carry.field, src=carry.var,
                                             literals={p: v for p, v in literals.items() if p not in superseded},
                                             other={p: v for p, v in args.items() if p in act.param_fields and p != param
                                                    and not isinstance(v, dict) and p not in literals and p not in {r[0] for r in refs}},
                                             refs=refs, policies=policies))
                self.d.phrases.append(Phrase("text", service=service, key=self.rng.choice(ALREADY).format(entity=_h(ent), service=service)))
                return
            self.d.criteria.append(Criterion(id=f"c{n + 1}", kind="goal", check=Check(kind="record_exists", service=service, collection=coll, where=where),
                                             description=f"{service}: a {ent} exists with " + ", ".join(f"{w.field} = {w.value!r}" for w in where)))
            # Some actions add more than one record (a sent mail and its inbox copy): count what the design saw.
            count = len(matching(after, Check(kind="count_equals", service=service, collection=coll, where=where)))
            self.d.criteria.append(Criterion(id=f"c{n + 2}", kind="negative", check=Check(kind="count_equals", service=service, collection=coll, where=where, count=count),
                                             description=f"{service}: no duplicate {ent} (exactly {count} such record{'s' if count > 1 else ''})"))
        else:
            changed = [k for k, r in after[service][coll].items() if before[service][coll].get(k) != r]
            if len(changed) != 1:
                raise DesignError("action changed no single record")
            rid = changed[0]
            where = [Where(field=act.param_fields[param], value=carry.value)]
            where += self.determined(act, args, param, after[service][coll][rid])
            self.d.criteria.append(Criterion(id=f"c{n + 1}", kind="goal", check=Check(kind="field_equals", service=service, collection=coll, record_id=rid, where=where),
                                             description=f"{service}: {ent} {rid} has " + ", ".join(f"{w.field} = {w.value!r}" for w in where)))
        for p, old in superseded.items():  # following the superseded policy is the trap
            self.d.criteria.append(Criterion(id=f"c{len(self.d.criteria) + 1}", kind="negative",
                                             check=Check(kind="count_equals", service=service, collection=coll,
                                                         where=[Where(field=act.param_fields[p], value=old)]),
                                             description=f"{service}: no {ent} follows the superseded policy for {_h(p)}"))
        stale = self.d.stale.get(carry.var)
        if stale is not None:  # counted at the end of the design: records that already had the old value stay
            bad = [Where(field=act.param_fields[param], value=stale)]
            self.d.criteria.append(Criterion(id=f"c{len(self.d.criteria) + 1}", kind="negative", check=Check(kind="count_equals", service=service, collection=coll, where=bad),
                                             description=f"{service}: no {ent} uses the outdated {_h(carry.field)}"))
        lit = {p: v for p, v in literals.items() if p not in superseded}
        other = {p: v for p, v in args.items() if p not in lit and p != param and not isinstance(v, dict) and p not in {r[0] for r in refs}}
        self.d.phrases.append(Phrase("write", service=service, tool=act.tool, verb=verb, param=param, prev=carry.field, literals=lit, other=other,
                                     refs=refs, policies=policies, src=carry.var))

    def already_done(self, i: int, service: str, act: Action, write: PlanStep, rec: dict[str, Any], where: list[Where],
                     undo: tuple[Any, ...], carry: Carry) -> bool:
        """Make the write part of the work that is already done: the record it would add exists (as
        if someone did it last week). The reference looks it up by a name the request gives or a
        value it found, sees it there and does not add it again; adding it twice fails a check."""
        prof = self.profiles[service]
        keys = {w.field: w.value for w in where if isinstance(w.value, str)}
        options = [lk for lk in prof.lookups if lk.collection == act.collection and lk.key_field in keys]
        if not options:
            return False
        lk = options[0]
        self.restore(undo)
        stamp = (self.d.env.ctx.clock.start - timedelta(days=self.rng.randint(2, 20))).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.plant(service, act.collection, rec, {f: stamp for f, v in rec.items() if f.endswith("_at") and v})
        found = self.var()
        value = keys[lk.key_field]
        # The key as the write states it: a value the agent found stays a reference to it.
        key_arg = next((a for a in write.arguments.values() if isinstance(a, dict) and same(resolve(a, self.d.bindings), value)), value)
        self.run(PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: key_arg}, extract=[
            Extract(var=found, field="id", path=lk.path, match={lk.key_field: key_arg})],
            reasoning=f"Before adding anything I'll check whether {service} already has it."))
        if self.d.bindings.get(found) is None:
            return False
        self.d.plan.append(write.model_copy(update={"when": [Cond(left={"$var": found}, op="eq", right=None)],
                                                    "reasoning": "It is not there yet, so I'll add it."}))
        count = len(matching(self.d.env.state(), Check(kind="count_equals", service=service, collection=act.collection, where=where)))
        self.criterion("negative", f"{service}: the {_h(self.entity(service, act.collection))} that was already there is not added again "
                                   f"(exactly {count})",
                       Check(kind="count_equals", service=service, collection=act.collection, where=where, count=count))
        self.d.capabilities.add("idempotency-check")
        return True

    def plausible(self, service: str, act: Action, args: dict[str, Any], carried: str) -> None:
        """No write a careful employee would question: a salary is in the world's range for salaries
        and moves an employee's current one by at most 30% (a stated value is drawn so; a carried
        value that breaks this makes the design try another way)."""
        for p, f in act.param_fields.items():
            if "salary" not in f or p not in args:
                continue
            value = resolve(args[p], self.d.bindings)
            person = resolve(next((args[q] for q in args if "email" in q), None), self.d.bindings)
            current = [r.get(f) for r in self.table(service, act.collection) if person and same(r.get("employee_email"), person)]
            current = [c for c in current if isinstance(c, (int, float))]
            if p != carried:
                base = current[-1] if current else cast(self.seed).amount(self.rng, "salary")
                args[p] = value = float(round(base * self.rng.uniform(1.02, 1.08), -2)) if current else base
            if not isinstance(value, (int, float)) or not 30_000 <= value <= 400_000:
                raise DesignError("implausible salary")
            if current and abs(value / current[-1] - 1) > 0.3:
                raise DesignError("salary change over 30% without a reason")

    def determined(self, act: Action, args: dict[str, Any], skip: str, rec: dict[str, Any]) -> list[Where]:
        """Every other field the write sets from what the request states or the agent found: the
        rubric checks each of them, not only the carried one (a record with the right key but a wrong
        amount is wrong work)."""
        out: list[Where] = []
        for p, f in act.param_fields.items():
            if p == skip or p == act.target_param or p not in args:
                continue
            value = resolve(args[p], self.d.bindings)
            if _scalar(value) and same(rec.get(f), value):
                out.append(Where(field=f, value=value))
        return out

    def policy(self, i: int, param: str, value: str, entity: str) -> tuple[PlanStep, str, tuple[str, str, str], str] | None:
        """Put the value a write must use into a rule document of a walked service (next to the
        revision it replaced) and read it back: the agent has to find and follow the rule in force."""
        old = self.literal(param)
        topic = f"{_h(entity).capitalize()} {_h(param)} {self.rng.choice(RULE_NAMES)}"
        made = self.plant_rule(
            topic, lambda rev, when: f"Effective {when}, replacing rev. {rev - 1}: every new record of this kind uses '{value}' as its {_h(param)}.",
            lambda rev, when: f"Rev. {rev}, {when}: every new record of this kind uses '{old}' as its {_h(param)}.",
            self.rng.sample(self.walk.services, len(self.walk.services)))
        if made is None:
            return None
        service, lk, key, text_field, entity, mention = made
        v = self.var()
        step = PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: key},
                        extract=[Extract(var=v, field=text_field, path=lk.path, match={lk.key_field: key}, pattern=r"uses '([^']+)'")],
                        reasoning=f"The {_h(param)} comes from the rule '{rule_topic(key)}' in {service}; two revisions exist, and the later one ({key.rsplit(', ', 1)[-1]}) is in force.")
        return step, v, (entity, service, mention), old

    def plant_rule(self, topic: str, current: Any, older: Any,
                   services: list[str]) -> tuple[str, Lookup, str, str, str, str] | None:
        """Plant a rule as two revisions of a document in a walked service that keeps documents (a
        keyed collection with a text field): the revision in force and the one it replaced. Nothing
        but the revision number and date says which is in force. `current(rev, date)` and
        `older(rev, date)` write each text. Returns (service, lookup, key of the revision in force,
        its text field, the document's entity, how the request points to it): the topic alone when searching for
        it finds both revisions, so the agent has to pick the later one, else the full key."""
        today = date.fromisoformat(self.d.env.ctx.clock.today())
        for service in services:
            for lk, text in self.profiles[service].document_lookups:
                template = self.template(service, lk.collection)
                if template is None or not isinstance(template.get(lk.key_field), str):
                    continue
                rev = self.rng.randint(2, 5)
                prefix = template[lk.key_field][:1] if lk.key_field in ("path",) else ""
                key, old_key = (prefix + k for k in revision_keys(topic, rev))
                if any(str(r.get(lk.key_field, "")).lower().startswith((prefix + topic).lower()) for r in self.table(service, lk.collection)):
                    continue  # one rule per topic: a search by the topic must find this rule's revisions only
                then = (today - timedelta(days=self.rng.randint(120, 400))).isoformat()
                now = (today - timedelta(days=self.rng.randint(3, 60))).isoformat()
                self.plant(service, lk.collection, template, {lk.key_field: old_key, text: older(rev - 1, then)})
                self.plant(service, lk.collection, template, {lk.key_field: key, text: current(rev, now)})
                mention = key
                if not prefix:  # does a search by the topic alone show both revisions? then say only the topic
                    clock = self.d.env.ctx.clock._now
                    obs = self.d.env.step({"name": lk.tool, "arguments": {**lk.fixed, lk.key_param: topic}})
                    self.d.env.ctx.clock._now = clock  # a look the plan does not make must not move the clock
                    if obs.ok and all(pick(obs.data, Extract(var="_", field=text, path=lk.path, match={lk.key_field: k}), {}) is not None
                                      for k in (key, old_key)):
                        mention = topic
                return service, lk, key, text, self.entity(service, lk.collection), mention
        return None

    def literal(self, param: str) -> str:
        """A value the request states (a title, a subject), never used twice in one task."""
        while True:
            value = _literal(self.rng, param)
            if value not in self.literals:
                self.literals.add(value)
                return value

    def support(self, service: str, carry: Carry) -> None:
        """Make the carried value known to this service where a business rule needs it (the person also
        has a chat account, the company is also an invoicing customer): plant a record that names it."""
        prof = self.profiles[service]
        for coll, fields in prof.field_sems.items():
            keys = [f for f, sem in fields.items() if sem == carry.sem and f in prof.key_fields.get(coll, [])
                    and self.fits(carry, service, coll, f)]
            table = self.table(service, coll)
            if not keys or not table.rows or any(same(r.get(keys[0]), carry.value) for r in table):
                continue
            template = self.template(service, coll)
            if template is not None:
                self.plant(service, coll, template, {keys[0]: carry.value})

    def unused(self, service: str, coll: str, fld: str, sem: str, current: Any) -> Any:
        """A value of the same type that no record of the collection has in this field."""
        taken = {str(r.get(fld)).lower() for r in self.table(service, coll)}
        role = self.role(service, coll, fld, sem)  # an assignee's email is one of ours, a customer's a customer's
        for values in self.candidates(sem, role, fld):
            pool = [v for v, low in values if low not in taken]
            if pool:
                return self.rng.choice(pool)
        if isinstance(current, str) and "@" in current:  # still an address: another mailbox of the same domain
            local, _, domain = current.partition("@")
            return f"{local}.{self.rng.randint(2, 99)}@{domain}"
        return f"{current} {self.rng.randint(2, 99)}" if isinstance(current, str) else current

    def candidates(self, sem: str, role: str, fld: str) -> list[list[tuple[str, str]]]:
        """The texts of the world a field of this type and role may take, (value, lowercased), from the
        most to the least specific source: the type in this role, the type in fields of this name, the
        type. Computed once per designer (`unused` asks for the same few dozen many times)."""
        key = (sem, role, fld)
        found = self._candidates.get(key)
        if found is None:
            parts = list(zip(self.d.env.services, self.pool.parts))
            found = self._candidates[key] = [
                [c for name, part in parts for c in _part_candidates(name, part, self.seed, source, sem, role)] if source else []
                for source in (f"{sem}@{role}" if role else "", f"{sem}#{fld}", sem)]
        return found

    def resolve_id(self, i: int, service: str, sem: str, rid: str) -> tuple[PlanStep, str, tuple[str, str]] | None:
        """The lookup that finds record `rid` (an id of type `sem`) by a name a person would use, unique
        in its table: (step, the id's variable, (entity, "name 'X'")); None when it has no such name."""
        entity = id_entity(sem)
        prof = self.profiles[service]
        for lk in prof.lookups:
            table = self.table(service, lk.collection)
            if table.entity != entity or lk.key_field not in prof.key_fields.get(lk.collection, []):
                continue
            rec = table.get(rid)
            if rec is None or not isinstance(rec.get(lk.key_field), str):
                continue
            key = rec[lk.key_field]
            if sum(1 for r in table if str(r.get(lk.key_field)).lower() == key.lower()) != 1:
                continue
            v = self.var()
            step = PlanStep(visit=i, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: key},
                            extract=[Extract(var=v, field="id", path=lk.path, match={lk.key_field: key})],
                            reasoning=f"First I need the id of the {entity} '{key}'.")
            return step, v, (entity, f"{_h(lk.key_field)} '{key}'")
        return None

    def updatable(self, service: str, coll: str) -> list[tuple[Action, str, str]]:
        """(action, parameter, field) for updates of a record of `coll` that set a joinable field."""
        prof = self.profiles[service]
        return [(a, p, f) for a in prof.actions if a.op == "changed" and a.collection == coll and a.target_param
                for p, f in a.param_fields.items()
                if p != a.target_param and f != "id" and _joinable(prof.field_sems.get(coll, {}).get(f, ""))]

    def revisit_update(self, i: int, service: str, carry: Carry, out_sems: list[str]) -> Carry | None:
        """Back at a service read earlier: update the record read then (with the carried value when the
        types match, else with a new value the request states) and hand on the updated field. The value
        seen at the first visit is now stale: a solution that reuses it fails."""
        read = self.d.read_records.get(service)
        if read is None:
            return None
        coll, rid, step_index = read
        prof = self.profiles[service]
        options = self.updatable(service, coll)
        self.rng.shuffle(options)
        options.sort(key=lambda o: prof.field_sems[coll][o[2]] != carry.sem)  # the carried value first
        for act, p, f in options:
            sem = prof.field_sems[coll][f]
            if sem not in out_sems or (service, rid, f) in self.updated:
                continue
            old = self.table(service, coll).require(rid).get(f)
            flows = sem == carry.sem
            if flows and not self.fits(carry, service, coll, f):
                continue
            new = carry.value if flows else (self.moved_address(service, coll, rid, f) if sem == "email" else None) or \
                self.fresh_value(service, coll, f, avoid={old})
            if old is None or new is None or same(old, new):
                continue
            mark = self.mark()
            try:
                if not flows:  # the incoming value is still used here, by a write when one takes it
                    self.try_action(i, service, carry)
                id_var = self.var()
                self.d.bindings[id_var] = rid
                v = self.var()
                value = {"$var": carry.var} if flows else new
                self.run(PlanStep(visit=i, service=service, tool=act.tool, arguments={act.target_param: {"$var": id_var}, p: value},
                                  purpose="update", extract=[Extract(var=v, field=f, path="")],
                                  reasoning=f"The {_h(f)} I saw earlier in {service} is out of date; I'll update it first."))
            except DesignError as exc:
                self.restore(mark)
                self.last_failure = exc.reason
                continue
            # The agent gets the record's id where it first read the record, as a person would.
            earlier = self.d.plan[step_index]
            earlier.extract.append(Extract(var=id_var, field="id", path=earlier.extract[0].path, match=dict(earlier.extract[0].match)))
            self.d.stale[v] = old
            self.updated.add((service, rid, f))
            ent = self.entity(service, coll)
            n = len(self.d.criteria)
            self.d.criteria.append(Criterion(id=f"c{n + 1}", kind="goal", description=f"{service}: {ent} {rid} has {f} = {new!r}",
                                             check=Check(kind="field_equals", service=service, collection=coll, record_id=rid,
                                                         where=[Where(field=f, value=new)])))
            self.d.phrases.append(Phrase("update", service=service, entity=ent, field=f, prev=carry.field if flows else "",
                                         literals={} if flows else {f: new}, var=v, src=carry.var if flows else ""))
            return Carry(v, sem, new, f, ent, service, i, self.role(service, coll, f, sem))
        return None

    # -- the whole walk --------------------------------------------------------------------------
    def design(self) -> Design:
        """Realize the walk: its services and length are fixed; the visit order is chosen step by step
        among the moves the graph allows (a different service each time, every service covered, and
        at least one revisit that makes an earlier value stale), keeping only moves that simulate."""
        w = self.walk
        length = len(w.visits)
        selected = list(w.services)
        visits: list[str] = []
        # One `_Visit` per visit made so far. A visit with no move left goes back to the one before and
        # tries its next move (at most MAX_BACKTRACKS times a design): most dead ends are one visit deep,
        # and starting the whole walk over costs a dozen visits.
        stack: list[_Visit] = []
        backtracks = 0
        while len(visits) < length:
            i = len(visits)
            if len(stack) == i:
                carry = self.carries[-1] if self.carries else None
                options = self.allowed(visits, selected, length)
                self.rng.shuffle(options)
                if not self.d.stale and i >= 2:  # a revisit that can go stale first, while none has
                    options.sort(key=lambda s: s not in visits)
                elif self.rng.random() < 0.6:
                    options.sort(key=lambda s: s in visits)
                # First a visit that goes on from the value in hand; a fresh, unrelated lookup only where no
                # service allowed next can take it (each one leaves a value that only the closing report uses).
                passes = (True, False) if carry is not None else (False,)
                stack.append(_Visit(self.mark(), carry, [(only, s) for only in passes for s in options][::-1],
                                    [len(st.extract) for st in self.d.plan], set(self.updated)))
            at = stack[i]
            moved = None
            while at.moves and moved is None:
                only, service = at.moves.pop()
                moved = self.next_visit(i, service, visits, selected, at.carry, only)
            if moved is not None:
                continue
            if i == 0 or backtracks == MAX_BACKTRACKS:
                raise DesignError(f"stuck at visit {i}" if i else "no first lookup")
            backtracks += 1
            stack.pop()
            self.undo(stack[i - 1])  # visit i - 1 goes; its next move is tried
            visits.pop()
            self.carries.pop()
            if i - 1 < length - 1:
                self.d.edge_types.pop()
        if not self.d.stale and self.require_stale:
            raise DesignError("no stale revisit")
        self.visits = visits
        self.add_motifs(length)
        final = self.d.env.state()
        used = {v for step in self.d.plan for v in variables(step.arguments)}
        self.d.stale = {v: old for v, old in self.d.stale.items() if v in used}  # a trap only if the value is used
        # A later write may supersede an earlier one (the same field updated twice): keep what holds.
        self.d.criteria = [c for c in self.d.criteria if c.check.kind != "field_equals" or evaluate(c.check, self.d.initial, final)]
        if not any(c.kind == "goal" for c in self.d.criteria):
            raise DesignError("no goal left")
        for c in self.d.criteria:  # a later visit may add to what an earlier count saw: count at the end
            if c.check.kind == "count_equals":
                c.check.count = len(matching(final, c.check))
                if "no duplicate" in c.description:
                    c.description = f"{c.check.service}: no duplicate {self.entity(c.check.service, c.check.collection)} (exactly {c.check.count} such)"
        if chained(self.d.plan):
            self.d.capabilities.add("sequential-dependency")
        self.report_dangling()
        self.reject_ambiguous_reports()
        self.reject_goals_holding_initially()
        n = len(self.d.criteria)
        self.d.criteria.append(Criterion(id=f"c{n + 1}", kind="negative", description="the distractor services are left untouched",
                                         check=Check(kind="services_unchanged", services=sorted(w.distractors))))
        for k, c in enumerate(self.d.criteria):  # ids in rubric order, unique after pruning
            c.id = f"c{k + 1}"
        return self.d

    def add_motifs(self, visit: int) -> None:
        """Capability motifs on groups the walk leads to (see `compoworld.tasks.motifs`); a task gets
        up to `motifs` of them, each on a different value the walk carried."""
        from compoworld.tasks.motifs import MotifError, add_group_motif

        taken: set[tuple[str, str]] = set()
        for _ in range(self.motifs):
            try:
                taken |= add_group_motif(self, self.carries, self.rng, visit, taken)
            except MotifError:
                return

    def rule_document(self, visit: int, site: Any, threshold: Any, values: list[Any], rng: random.Random) -> tuple[str, str, str] | None:
        """State the batch's limit in a rule document of a walked service, next to the revision it
        replaced, whose limit would pick other records; read the one in force. Returns (var,
        service, how the request points to the rule), or None when no walked service keeps documents."""
        from compoworld.tasks.motifs import MotifError, cut

        below = sum(v <= threshold for v in values)
        try:  # the older limit lets one more record through: one the limit in force keeps unchanged
            old = cut(values, below + 1)
        except MotifError:
            return None
        word = "after" if isinstance(threshold, str) else "above"
        ent = _h(self.entity(site.service, site.lookup.collection))
        topic = f"{ent.capitalize()} {rng.choice(['limits', 'bulk update rules', 'exceptions policy'])}"
        made = self.plant_rule(
            topic, lambda rev, when: f"Effective {when}, replacing rev. {rev - 1}: a {ent} whose {field_words(site.rank)} is {word} {threshold} is handled separately and must not be changed in bulk.",
            lambda rev, when: f"Rev. {rev}, {when}: a {ent} whose {field_words(site.rank)} is {word} {old} is handled separately.",
            rng.sample(self.walk.services, len(self.walk.services)))
        if made is None:
            return None
        service, lk, key, text_field, _, mention = made
        v = self.var()
        self.run(PlanStep(visit=visit, service=service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: key},
                          extract=[Extract(var=v, field=text_field, path=lk.path, match={lk.key_field: key}, pattern=r"(?:above|after) (\d[\d.-]*\d|\d)")],
                          reasoning=f"The limit for this batch is in '{rule_topic(key)}' in {service}; of its two revisions the later one ({key.rsplit(', ', 1)[-1]}) is in force."))
        return v, service, mention

    def undo(self, at: _Visit) -> None:
        """Back to the state before a visit: `restore`, plus what a visit changes outside the mark (the id
        read a revisit adds to an earlier step, the fields it noted as updated)."""
        self.restore(at.mark)
        at.mark = self.mark()  # restore hands the mark's own dicts to the design: the next undo needs a fresh one
        self.updated = set(at.updated)
        for st, n in zip(self.d.plan, at.reads):
            del st.extract[n:]

    def check_reports(self) -> None:
        """Raise the DesignError `report_dangling` would, changing nothing: a walk whose loose ends cannot
        be reported fails at its last visit, where another move can be tried, not after its motifs (the
        motifs rarely change which values are loose ends)."""
        mark = self.mark()
        try:
            self.report_dangling()
        finally:
            self.restore(mark)

    def report_dangling(self) -> None:
        """Every value the agent had to discover must be used: the last link of each chain of reads
        that feeds no write, condition or check goes into the closing report (which makes the links
        before it used), so reading them is part of the work."""
        from compoworld.tasks.quality import dangling_vars, step_refs, written_values

        refs = [step_refs(step) for step in self.d.plan]  # the plan stays as it is: only the report grows
        while True:
            goal_values = written_values(self.d.criteria)
            reported = {v for it in self.d.report for v in it.vars}
            dangling = dangling_vars(self.d.plan, reported, goal_values, self.d.bindings, refs)
            if not dangling:
                return
            var = dangling[-1]
            step, ex = next((st, e) for st in self.d.plan for e in st.extract if e.var == var)
            value = self.d.bindings.get(var)
            if not _scalar(value) or ex.field in ("id", "updated_at"):  # no ids, no stamps the agent's own writes move
                raise DesignError(f"unreportable lookup:{ex.field}:{type(value).__name__}")
            if ex.field.endswith("_at") and not self.seeded(step.service, ex.field, value):
                # a stamp of a record the agent itself made: it reads back its own write, and moves with its clock
                raise DesignError(f"unreportable lookup:{ex.field}:own write")
            ent = self.read_entity(step, ex)
            self.add_report(ReportItem(label=f"the {field_words(ex.field)} of {self.describe(ex, ent)}", vars=[var]), value)

    def read_entity(self, step: PlanStep, ex: Extract) -> str:
        """What kind of record a lookup step read (the entity of the collection its tool looks up),
        so the report names it as the request did: a campaign, not an audience that has the field too."""
        prof = self.profiles[step.service]
        key = next(iter(ex.match), None)
        coll = next((lk.collection for lk in prof.lookups if lk.tool == step.tool and lk.key_field == key), "") or \
            next((lk.collection for lk in prof.lookups if lk.tool == step.tool), "") or \
            next((c for c in self.d.env.services[step.service].db if ex.field in prof.field_sems.get(c, {})), "")
        return _h(self.entity(step.service, coll)) if coll else "record"

    def seeded(self, service: str, field_name: str, value: Any) -> bool:
        """Whether `value` is in `field_name` of a record the task starts with (seeded or planted)."""
        rows = [r for coll in self.d.initial.get(service, {}).values() for r in coll.values()]
        rows += [p["record"] for p in self.d.planted if p["service"] == service]
        return any(r.get(field_name) == value for r in rows)

    def describe(self, ex: Extract, entity: str, depth: int = 0) -> str:
        """How a report request names the record a value was read from: by the key the request gave,
        or by the value found earlier that led to it: "that organizer email", or, when the task read
        more than one organizer email, whose it is ("the organizer email of the event 'Q3 sync'").
        `depth`: how many records the name already goes through; one more is the most a colleague
        would write ("the user whose email is the manager email of the employee 'Yuki Alvarez'"), so a
        value only a longer chain tells apart is not asked for (a DesignError)."""
        if not ex.match:
            return f"that {entity}"
        key, want = next(iter(ex.match.items()))
        if isinstance(want, dict) and "$var" in want:
            found = next(((st, e) for st in self.d.plan for e in st.extract if e.var == want["$var"]), None)
            if found is not None and self.times_read(found[1].field) > 1:
                if depth >= MAX_DESCRIBE_DEPTH:
                    raise DesignError("report item named through too many records")
                st, e = found
                return f"the {entity} whose {_h(key)} is the {field_words(e.field)} of {self.describe(e, self.read_entity(st, e), depth + 1)}"
            self.d.mentioned.add(want["$var"])
            return f"the {entity} with that {_h(found[1].field)}" if found else f"that {entity}"
        return f"the {entity} '{want}'" if key in ("name", "title", "subject", "full_name") else f"the {entity} with {_h(key)} {want}"

    def add_report(self, item: ReportItem, value: Any) -> None:
        """A value the closing message must state, and the criterion that checks it there. Values that
        read as one another in a message (12 inside 2026-12-01), or a value inside another item's label
        ("the name of the employee 'Lena Okafor'" next to "the start of the event whose organizer email is
        the manager email of the employee 'Lena Okafor'"), would let a report that drops one pass."""
        from compoworld.tasks.checks import mentions

        for c in self.d.criteria:  # the closing report says each item's label too: no value may hide in another's
            if c.check.kind == "answer_mentions" and any(mentions(str(w.value), value) or mentions(str(value), w.value)
                                                         or mentions(w.field, value) or mentions(item.label, w.value) for w in c.check.where):
                raise DesignError("report values overlap")
        self.d.report.append(item)
        self.d.criteria.append(Criterion(id=f"c{len(self.d.criteria) + 1}", kind="goal",
                                         description=f"the closing report states {item.label} ({value})",
                                         check=Check(kind="answer_mentions", where=[Where(field=item.label, value=value)])))

    def times_read(self, field_name: str) -> int:
        """How many values of this field (by its name as the request says it) the plan reads."""
        return sum(_h(e.field) == _h(field_name) for st in self.d.plan for e in st.extract)

    def reject_ambiguous_reports(self) -> None:
        """A report item that says "that <field>" must mean the one value of that field the task reads:
        one written before a later read of the same field would name two values the same way."""
        for it in self.d.report:
            if any(self.times_read(f) > 1 for f in re.findall(r"(?:with|is) that ([a-z ]+?)(?=,| and |$)", it.label)):
                raise DesignError("ambiguous report label")

    def reject_goals_holding_initially(self) -> None:
        """A goal that holds before the agent acts teaches nothing: try another walk instead."""
        start = self.planted_start()
        if any(evaluate(c.check, start, start) for c in self.d.criteria if c.kind == "goal" and c.check.kind != "answer_mentions"):
            raise DesignError("goal holds initially")

    def gives_away(self) -> bool:
        """Does a value the request states contain one the agent must discover (the same person's email
        given for a write, a company inside a record's title)? Checked after each visit, where another
        move can still be tried, rather than on the rendered request, where the whole design is lost."""
        stated = "\n".join(s for step in self.d.plan for s in literal_strings(step.arguments))
        return bool(leaks(stated, hidden_values(self.d.plan, self.d.bindings)))

    def next_visit(self, i: int, service: str, visits: list[str], selected: list[str], carry: Carry | None,
                   chained_only: bool) -> Carry | None:
        """Visit `service` if its step simulates (recording it in `visits`); None, and nothing changed, if not."""
        length = len(self.walk.visits)
        # Hand on only what a service allowed next can take in.
        nxt = self.allowed(visits + [service], selected, length) if i < length - 1 else []
        out_sems = self.consumable(nxt, last=i + 1 == length - 1)
        mark = self.mark()
        try:
            moved = self.visit(i, service, carry, out_sems, last=i == length - 1, revisit=service in visits,
                               chained_only=chained_only)
            if self.gives_away():
                raise DesignError("literal gives away a discovered value")
            if i == length - 1:
                self.check_reports()
        except DesignError as exc:
            self.restore(mark)
            self.last_failure = exc.reason
            return None
        visits.append(service)
        self.carries.append(moved)
        if i < length - 1:
            self.d.edge_types.append(moved.sem)
        return moved

    def visit(self, i: int, service: str, carry: Carry | None, out_sems: list[str], last: bool, revisit: bool,
              chained_only: bool = False) -> Carry:
        if carry is None:
            return self.first_lookup(i, service, out_sems)
        if last:
            self.action(i, service, carry)
            return carry
        if revisit:
            updated = self.revisit_update(i, service, carry, out_sems)
            if updated is not None:
                return updated
        return self.middle(i, service, carry, out_sems, chained_only)

    @staticmethod
    def allowed(visits: list[str], selected: list[str], length: int) -> list[str]:
        """Services the next visit may go to: not the current one, and new ones only while needed."""
        options = [s for s in selected if not visits or s != visits[-1]]
        uncovered = [s for s in selected if s not in visits]
        if len(uncovered) >= length - len(visits):
            options = [s for s in options if s in uncovered]
        return options

    def consumable(self, services: list[str], last: bool) -> list[str]:
        """Types one of these services can take in: as an action's input, or mid-walk also as a lookup
        key. Also sets `next_roles`, the roles each type is taken in, so the value handed on is one
        the next visit can use in its role (see `out_fields`)."""
        key = (tuple(type(self.d.env.services[s]) for s in services), last)
        if key not in _CONSUMABLE:  # the same services take in the same types: computed once per run
            _CONSUMABLE[key] = self._consumable(services, last)
        self.next_roles, types = _CONSUMABLE[key]
        return list(types)

    def _consumable(self, services: list[str], last: bool) -> tuple[dict[str, set[str]], list[str]]:
        roles: dict[str, set[str]] = {}
        for s in services:
            prof = self.profiles[s]
            for a in prof.actions:
                for p, t in a.param_sems.items():
                    if p in a.param_fields and p != a.target_param:
                        roles.setdefault(t, set()).add(self.role(s, a.collection, a.param_fields[p], t))
            if not last:
                for lk in prof.lookups:
                    t = prof.field_sems.get(lk.collection, {}).get(lk.key_field, "")
                    roles.setdefault(t, set()).add(self.role(s, lk.collection, lk.key_field, t))
        return roles, sorted(t for t in roles if _joinable(t))

    def middle(self, i: int, service: str, carry: Carry, out_sems: list[str], chained_only: bool = False) -> Carry:
        """A visit mid-walk uses the carried value and hands on the next one. Preferred: a lookup keyed on
        it (after writing with it, sometimes). Else it writes with the value, or (unless the value has
        just replaced a stale one, which must be used) only reads, handing on a named record's field;
        with `chained_only` it must go on from the carried value, and fails rather than only read."""
        if chained_only and not self.keyable(service, carry, out_sems):  # fail before writing, not after
            raise DesignError(f"no lookup keyed by {carry.sem}")
        if carry.var in self.d.stale:  # the updated value must reach a checked write, or staleness is moot
            self.action(i, service, carry)
        elif self.rng.random() < self.write_p:
            self.try_action(i, service, carry)
        try:
            return self.keyed_lookup(i, service, carry, out_sems)
        except DesignError:
            if chained_only:
                raise
        return self.first_lookup(i, service, out_sems)

    def try_action(self, i: int, service: str, carry: Carry) -> bool:
        mark = self.mark()
        try:
            self.action(i, service, carry)
            return True
        except DesignError:
            self.restore(mark)
            return False


_POOLS: dict[tuple[tuple[str, ...], int], dict[str, list[Any]]] = {}


def _pool(env: Environment, names: tuple[str, ...], seed: int) -> ValuePool:
    """The value pool of a freshly seeded environment: per-service pools, which depend only on the
    service and the seed (so they are computed once), read as one."""
    parts: list[dict[str, list[Any]]] = []
    for name in names:
        key = ((name,), seed)
        if key not in _POOLS:
            if len(_POOLS) > 4096:
                _POOLS.clear()
            _POOLS[key] = service_values(env.services[name])
        parts.append(_POOLS[key])
    return ValuePool(parts)


_CANDIDATES: dict[tuple[str, int, str, str, str], list[tuple[str, str]]] = {}


def _part_candidates(name: str, part: dict[str, list[Any]], seed: int, key: str, sem: str, role: str) -> list[tuple[str, str]]:
    """One service's texts under a pool key that a field of this type and role may take, (value,
    lowercased): they depend only on the service, the seed and the role, so designers share them.
    `part` is that service's pool, held by the caller: the shared cache of pools may have been emptied
    since it was read (it is bounded), and a lost pool was a KeyError that dropped the task."""
    ck = (name, seed, key, sem, role)
    found = _CANDIDATES.get(ck)
    if found is None:
        if len(_CANDIDATES) > 65536:
            _CANDIDATES.clear()
        emails = sem == "email"  # `in_role` holds for every other type
        found = _CANDIDATES[ck] = [(v, v.lower()) for v in part.get(key, [])
                                   if isinstance(v, str) and (not emails or Designer.in_role(v, sem, role))]
    return found


def _after(value: Any, sem: str) -> Any:
    """A moment after a carried date or datetime: an end that follows its start."""
    text = str(value)
    try:
        if "T" in text:
            start = datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")
        else:
            start = datetime.combine(date.fromisoformat(text[:10]), datetime.min.time()).replace(hour=9)
    except ValueError:
        return value
    end = start + (timedelta(hours=1) if sem == "datetime" and "T" in text else timedelta(days=2))
    return end.strftime("%Y-%m-%dT%H:%M:%SZ") if sem == "datetime" else end.strftime("%Y-%m-%d")


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != ""


def _h(name: str) -> str:
    return name.replace("_", " ")


WRITE_WHY = ["That is the {field} this change needs, so I'll {verb} in {service} with it as the {param}.",
             "Everything for this change is known now; I'll {verb} in {service}, {param} = the {field}.",
             "The request wants this recorded in {service}: I'll {verb} with the {field} as {param}.",
             "Next, the change itself: {verb} in {service}, using the {field} for {param}."]
RULE_NAMES = ["convention", "guideline", "policy", "standard"]

ALREADY = ["If that {entity} is already in {service}, don't add it a second time.",
           "It may already have been done in {service}; if so, leave it as it is.",
           "Someone may have added that {entity} already; check {service} first and don't duplicate it."]

MAX_BACKTRACKS = 3  # visits a design may go back before it gives up on the walk
MAX_DESCRIBE_DEPTH = 1  # records a report item's name may go through before its own (see `Designer.describe`)

_LITERAL_WORDS = ["Q3 renewal", "Escalation follow-up", "Vendor review", "Onboarding kickoff", "Budget check-in",
                  "Contract question", "Audit prep", "Pricing update", "Partner sync", "Launch retro", "Security review",
                  "Invoice query", "Hiring debrief", "Quarterly planning", "Customer feedback"]


def _literal(rng: random.Random, param: str) -> str:
    return f"{rng.choice(_LITERAL_WORDS)} #{rng.randint(100, 999)}"
