"""Capability motifs: small pieces of work the designer adds to a walk so a task needs judgement.

A motif works on a *group*: 4-8 records of one collection of a walked service that share a key (a
value the walk discovered, else one the request states: the tickets of that requester, the tasks
assigned to an address). It plants the group (distinct amounts or dates), a lookup that lists it,
and then one kind of work (updates only through parameters with a fixed set of values: a status,
a stage, a priority, so every write is one a request can state):

- `top`: update only the record ranked first by a field (ranked-selection; by a date: temporal-
  reasoning; the cheapest among those due before a date: multi-objective-tradeoff), or, when its
  value is above a threshold, set one value and otherwise another (conditional-branching);
- `all`: update every record of the group (fan-out), skipping those already done (idempotency-check);
- `recover`: the same, where the service refuses the direct change and the request says which step
  to take first (error-recovery: the reference makes the refused call, then recovers);
- `except`: update all but those above a threshold (batch-with-exceptions), the threshold stated in
  a document of a walked service next to a superseded version (a rule in the services;
  cross-service-constraint when that service is another one);

and may ask for a sum over the group or the leader's share of it in percent in the closing report
(fan-in-aggregation, data-transformation). Each choice the reference makes is a guarded plan step
(`PlanStep.when`), so the branch follows from the values read; records the work must leave alone
get `record_unchanged` criteria, updated ones `field_equals` on the value written.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, AbstractSet, Any

from compoworld.services.cast import PERSON_ROLES, cast
from compoworld.services.world_check import past_field, person_pairs
from compoworld.tasks.checks import same
from compoworld.tasks.design_types import SPAN, Carry, DesignError, field_words, id_entity, joinable as _joinable
from compoworld.tasks.explore import Lookup
from compoworld.tasks.instruction import Phrase
from compoworld.tasks.model import Check, Cond, Extract, PlanStep, ReportItem, Where
from compoworld.tasks.solution import cond_variables, variables

if TYPE_CHECKING:
    from compoworld.tasks.design import Designer

RANK_SEMS = ("money", "quantity", "date", "datetime")
WORDS = {2: "two", 3: "three"}
DERIVED = ("amount_paid", "amount_credited", "balance")
GROUP_KEYS = ("email", "company_name", "category", "city", "country")  # what records are grouped by at work


class MotifError(Exception):
    """The motif does not fit here; the designer undoes it and tries another."""


@dataclass(frozen=True)
class Update:
    """How the work changes a member: `tool(target_param=id, param=value)` with a value from the
    parameter's enum, or, for a transition (`param` ""), `tool(target_param=id)`, which moves `field`
    to `moved_to` (cancel an order, reimburse a report)."""

    tool: str
    target_param: str
    param: str
    field: str
    moved_to: Any = None
    stamps: tuple[str, ...] = ()  # the other fields a transition sets
    verb: str = ""  # a transition's verb as a request says it (`Transition.verb`)

    def arguments(self, rid: Any, value: Any) -> dict[str, Any]:
        return {self.target_param: rid, self.param: value} if self.param else {self.target_param: rid}


@dataclass
class Site:
    service: str
    lookup: Lookup
    rank: str  # the field the group is ranked by
    rank_sem: str
    update: Update | None  # how the work changes a record of the group (None: the group is only reported on)
    second: str  # a date field for multi-objective choices ("" if none)


def sites(designer: Designer, carries: list[Carry]) -> list[tuple[Site, Carry]]:
    """Groups the walked services allow, keyed by a value the walk carried."""
    out: list[tuple[Site, Carry]] = []
    for service in designer.walk.services:
        for lk, sems, key_sem, ranks, updates in _group_lookups(designer, service):
            carry: Carry | None
            if key_sem.startswith(f"{service}."):  # another record's children, listed by its id
                # no value yet: `_parent` picks the record when the motif is made
                carry = Carry("", key_sem, None, lk.key_field, "", "", -1)
            else:
                carry = next((c for c in reversed(carries) if c.sem == key_sem and c.service != service
                              and designer.fits(c, service, lk.collection, lk.key_field)  # the group's key in its own role
                              and not designer.round_trip(c, service, lk.collection)
                              # a record the walk found by this key would no longer be the one with it
                              and not designer.named_by(service, lk.collection, lk.key_field, c.value)), None)
                if carry is None and _joinable(key_sem):  # else the request names the key itself
                    value = designer.unused(service, lk.collection, lk.key_field, key_sem, None)
                    role = designer.role(service, lk.collection, lk.key_field, key_sem)
                    carry = Carry("", key_sem, value, lk.key_field, "", "", -1, role) if value is not None else None
            if carry is None:
                continue
            for update in updates:  # not ranked by what the work itself sets
                usable = [r for r in ranks if (update is None or r not in update.stamps)
                          and not (r in SPAN and lk.key_field in SPAN)]  # the events of a day are not ranked by their start
                out += [(Site(service, lk, rank, sems[rank], update, _second(sems, usable, rank)), carry) for rank in usable]
    return out


# service class -> its lookups a group can be listed by, with what does not change while designing:
# (lookup, field types, key type, rank fields, the updates the work can make). See `_group_lookups`.
_GROUP_LOOKUPS: dict[type, list[tuple[Lookup, dict[str, str], str, list[str], list[Update | None]]]] = {}


def _group_lookups(designer: Designer, service: str) -> list[tuple[Lookup, dict[str, str], str, list[str], list[Update | None]]]:
    """The lookups of a service that list a group (keyed by a value a group shares, or by a parent
    record's id that a lookup finds by its name), each with its ranks and updates: found once per
    service class, not on every motif (`sites` adds the values the walk carried)."""
    cls = type(designer.d.env.services[service])
    found = _GROUP_LOOKUPS.get(cls)
    if found is None:
        prof = designer.profiles[service]
        found = []
        for lk in prof.lookups:
            sems = prof.field_sems.get(lk.collection, {})
            key_sem = sems.get(lk.key_field, "")
            parent = key_sem.startswith(f"{service}.")
            if not lk.path or not (parent or key_sem in GROUP_KEYS):
                continue
            if parent and not _parent_collection(designer, service, key_sem):
                continue
            ranks = _ranks(sems, lk.key_field)
            if ranks:
                found.append((lk, sems, key_sem, ranks, _updates(designer, service, lk, ranks)))
        _GROUP_LOOKUPS[cls] = found
    return found


def _ranks(sems: dict[str, str], key_field: str) -> list[str]:
    """The fields a group is ranked by: amounts, quantities and dates (of timestamps, only those that
    plan ahead: due and scheduled; the others record when a row was touched). Not amounts that follow
    from other records (paid, credited, balance): a planted draft invoice has no payments."""
    return [f for f, s in sems.items() if s in RANK_SEMS and f != key_field and not f.startswith(DERIVED)
            and (not f.endswith("_at") or "due" in f or f.startswith("scheduled"))]


def _second(sems: dict[str, str], ranks: list[str], rank: str) -> str:
    """A date field besides `rank`, for choices under two constraints ("" if none); not another end of
    the same span (an event's date and its end move together)."""
    return next((f for f in ranks if f != rank and sems[f] in ("date", "datetime") and not (f in SPAN and rank in SPAN)), "")


def _updates(designer: Designer, service: str, lk: Lookup, ranks: list[str]) -> list[Update | None]:
    """The ways the work can change a group that a request fully determines: each update that sets a
    value from its enum (a status, stage or priority), else each transition (reserve or cancel an
    order); else [None], a group only reported on. Records of people get no transition: no one
    terminates a manager's reports in bulk."""
    prof = designer.profiles[service]
    specs = designer.d.env.services[service].specs()
    settings: list[Update | None] = [
        Update(a.tool, a.target_param, p, f) for a in prof.actions if a.op == "changed" and a.collection == lk.collection and a.target_param
        for p, f in a.param_fields.items() if p != a.target_param and f not in ranks and f != lk.key_field
        and _choices(specs[a.tool.split("__", 1)[1]], p)
        and set(specs[a.tool.split("__", 1)[1]].input_schema.get("required", [])) <= {a.target_param, p}]
    sems = prof.field_sems.get(lk.collection, {})
    if settings or any(sems.get(k) == "person_name" for k in prof.key_fields.get(lk.collection, [])):
        return settings or [None]
    moves: list[Update | None] = [Update(t.tool, t.target_param, "", t.field, t.value, t.stamps, t.verb) for t in prof.transitions
                                  if t.collection == lk.collection and t.field not in ranks and t.field != lk.key_field
                                  and t.verb]  # a request must be able to say it
    return moves or [None]


def _parent_collection(designer: Designer, service: str, id_sem: str) -> str | None:
    """The collection whose records an id of this type names (`crm.company_id` -> companies), when a
    lookup finds them by a name (else the request could not name the parent: `_parent`)."""
    entity = id_entity(id_sem)
    prof = designer.profiles[service]
    coll = next((c for c in prof.field_sems if designer.table(service, c).entity == entity), None)
    named = any(lk.collection == coll and lk.key_field in prof.key_fields.get(coll, []) for lk in prof.lookups)
    return coll if named else None


def _parent(designer: Designer, site: Site, rng: random.Random, visit: int) -> Carry:
    """A group of one record's children (the deals of a company): the request names that record as a
    person would, by its name, and the agent looks its id up before listing the group."""
    sem = designer.profiles[site.service].field_sems[site.lookup.collection][site.lookup.key_field]
    coll = _parent_collection(designer, site.service, sem)
    table = designer.table(site.service, coll)  # type: ignore[arg-type]
    # A record of the seeded world the plan has not touched: not a planted rule or decoy, nothing the request had made.
    # Nor one whose id the plan already looked up: the request would ask for it twice.
    looked_up = {designer.d.bindings.get(e.var) for st in designer.d.plan for e in st.extract if e.field == "id"}
    ids = sorted(rid for rid, rec in designer.d.initial.get(site.service, {}).get(coll, {}).items()
                 if table.get(rid) == rec and rid not in looked_up)
    for rid in rng.sample(ids, min(len(ids), 4)):
        found = designer.resolve_id(visit, site.service, sem, rid)
        if found is not None:
            step, var, (entity, named) = found
            designer.run(step)
            return Carry(var, sem, rid, "id", entity, site.service, visit, via=f"of the {_h(entity)} with {named}")
    raise MotifError("no parent named uniquely")


_NONE = object()  # no value fits (None may be a value)


class Group:
    """One planted group and the reads that list it (ids, ranks), in the designer's scratch world."""

    def __init__(self, designer: Designer, site: Site, carry: Carry, rng: random.Random, visit: int) -> None:
        self.d, self.site, self.carry, self.rng, self.visit = designer, site, carry, rng, visit
        if carry.var and not carry.via:  # the request names the group by "that <field>": the lookup that found it stays a sentence
            designer.d.mentioned.add(carry.var)
        self.members: list[dict[str, Any]] = []
        self.ids: list[str] = []
        self.ranks: list[str] = []
        self.names: list[str] = []
        self.currents: list[str] = []
        self.step: PlanStep | None = None

    def plant(self, values: list[Any], seconds: list[Any] | None = None) -> None:
        """The group: the records that already have the key (kept as they are) and planted ones with
        the rest of `values` (distinct from theirs)."""
        d, s = self.d, self.site
        coll = s.lookup.collection
        seeded = [r for r in d.d.initial.get(s.service, {}).get(coll, {}).values() if _usable(r.get(s.rank), s.rank_sem)]
        if not seeded:
            raise MotifError("no template")
        if s.update is not None and not s.update.param:  # a transition needs members in the state it moves from
            self.rng.shuffle(seeded)
            template = next((r for r in seeded if self.moves(r)), None)
            if template is None:
                raise MotifError("no record the transition applies to")
        else:
            template = self.rng.choice(seeded)
        if any(s.lookup.key_field == ef for ef, _ in person_pairs(template)) and \
                str(self.carry.value).strip().lower() not in cast(d.seed).by_email():
            raise MotifError("the group's key is no one's own address")  # a shared mailbox has no salary
        existing = [r for r in d.table(s.service, coll) if same(r.get(s.lookup.key_field), self.carry.value)]
        if any(r["id"] not in d.d.initial.get(s.service, {}).get(coll, {}) for r in existing):
            raise MotifError("the plan wrote into the group")  # its ids would shift in a fresh world
        if len(existing) > len(values) - 2 or any(not _usable(r.get(s.rank), s.rank_sem) for r in existing) or (existing and seconds):
            raise MotifError("group key already used")
        if s.update is not None and existing and self.accepted(existing) is _NONE:  # before planting the rest
            raise MotifError("a member already in the group refuses the work")  # (a report already reimbursed)
        self.members = list(existing)
        taken = [r[s.rank] for r in existing]
        values[:] = taken + [v for v in values if v not in taken][: len(values) - len(taken)]
        if len(set(map(str, values))) != len(values):
            raise MotifError("ranks not distinct")
        values = values[len(existing):]
        names = [k for k in d.profiles[s.service].key_fields.get(coll, []) if k != s.lookup.key_field]
        people = self.newcomers(template, names, len(values))
        for k, value in enumerate(values):
            changes: dict[str, Any] = {s.lookup.key_field: self.carry.value, s.rank: value}
            if seconds:
                changes[s.second] = seconds[k]
            if people:  # a person's record: another person of the same role, name and email together
                changes.update(people[k])
            for name in names:
                if name in changes:
                    continue
                sem = d.profiles[s.service].field_sems.get(coll, {}).get(name, "")
                changes[name] = d.literal(name) if sem in ("title", "") else d.unused(s.service, coll, name, sem, template.get(name))
            self.members.append(d.plant(s.service, coll, template, changes))

    def newcomers(self, template: dict[str, Any], keys: list[str], n: int) -> list[dict[str, str]]:
        """For a collection of people (an employee's email and name are its keys): `n` people of the
        world in the record's role that the collection does not hold yet, as {email field: email, name
        field: name}. Empty for other records."""
        d, s = self.d, self.site
        coll = s.lookup.collection
        pairs = [(ef, nf) for ef, nf in person_pairs(template) if ef in keys and nf in keys]
        if not pairs:
            return []
        ef, nf = pairs[0]
        role = d.role(s.service, coll, ef, "email")
        if role not in PERSON_ROLES:
            raise MotifError("no role for the group's people")
        taken = {str(r.get(ef)).lower() for r in d.table(s.service, coll)}
        free = [p for p in cast(d.seed).people(role) if p.email.lower() not in taken]
        if len(free) < n:
            raise MotifError("not enough people")
        return [{ef: p.email, nf: p.name} for p in self.rng.sample(free, n)]

    def moves(self, rec: dict[str, Any]) -> bool:
        """Whether the group's transition applies to this record (tried in the scratch world, undone)."""
        u = self.site.update
        mark = self.d.mark()
        ok = self.d.d.env.step({"name": u.tool, "arguments": u.arguments(rec["id"], None)}).ok  # type: ignore[union-attr]
        self.d.restore(mark)
        return ok

    def mark_done(self, k: int, value: Any) -> None:
        """Member k already has the value the work sets (part of the work is done)."""
        table = self.d.table(self.site.service, self.site.lookup.collection)
        old = self.members[k]
        new = table.place({**old, self.site.update.field: value})  # type: ignore[union-attr]
        for p in self.d.d.planted:
            if p["record"] is old:
                p["record"] = new
        self.members[k] = new

    def read(self) -> None:
        """The lookup that lists the group, reading each member's id, rank and current value."""
        d, s, lk = self.d, self.site, self.site.lookup
        extract: list[Extract] = []
        for rec in self.members:
            ids, rank = d.var(), d.var()
            extract += [Extract(var=ids, field="id", path=lk.path, match={"id": rec["id"]}),
                        Extract(var=rank, field=s.rank, path=lk.path, match={"id": rec["id"]})]
            self.ids.append(ids)
            self.ranks.append(rank)
            if s.update is not None:
                cur = d.var()
                extract.append(Extract(var=cur, field=s.update.field, path=lk.path, match={"id": rec["id"]}))
                self.currents.append(cur)
        ent = d.entity(s.service, lk.collection)
        self.step = d.run_step(PlanStep(visit=self.visit, service=s.service, tool=lk.tool, arguments={**lk.fixed, lk.key_param: {"$var": self.carry.var} if self.carry.var else self.carry.value},
                       extract=extract, reasoning=f"I'll list every {_h(ent)} in {s.service} {_for(self.carry, s.lookup.key_field)} and compare their {field_words(s.rank)}."))
        data = d.d.env.step({"name": lk.tool, "arguments": {**lk.fixed, lk.key_param: self.carry.value}}).data
        listed = data.get(lk.path, []) if isinstance(data, dict) else []
        group = [it for it in listed if isinstance(it, dict) and same(it.get(lk.key_field), self.carry.value)]
        if len(group) != len(self.members):  # the listing must show exactly the group (no cap, no filter)
            raise MotifError("listing differs from the group")

    def update_value(self) -> Any:
        """A value for the update parameter that no member has yet and the service accepts."""
        value = self.accepted(self.members, draw=True)
        if value is _NONE:
            raise MotifError("no value the service accepts")
        return value

    def accepted(self, members: list[dict[str, Any]], draw: bool = False) -> Any:
        """A value for the update that none of `members` has yet and every one of them accepts (a
        status may only move forward), drawn at random with `draw`, else the first; `_NONE` if none."""
        d, s = self.d, self.site
        u = s.update
        assert u is not None
        if u.param:
            spec = d.d.env.services[s.service].specs()[u.tool.split("__", 1)[1]]
            options = [o for o in _choices(spec, u.param) if not any(same(m.get(u.field), o) for m in members)]
            if draw:
                self.rng.shuffle(options)
        else:  # a transition has one outcome
            options = [u.moved_to]
        for option in options:
            mark = d.mark()
            ok = all(d.d.env.step({"name": u.tool, "arguments": u.arguments(m["id"], option)}).ok for m in members)
            d.restore(mark)
            if ok:
                return option
        return _NONE

    def recovery(self) -> tuple[Any, Any]:
        """(target, step): a value the service refuses to set directly on every member (a status that
        may not be skipped to) but accepts after the intermediate `step`."""
        d, s = self.d, self.site
        u = s.update
        assert u is not None and u.param
        options = [o for o in _choices(d.d.env.services[s.service].specs()[u.tool.split("__", 1)[1]], u.param)
                   if not any(same(m.get(u.field), o) for m in self.members)]
        call = lambda m, o: d.d.env.step({"name": u.tool, "arguments": u.arguments(m["id"], o)})  # noqa: E731
        for target in options:
            for via in options:
                if via == target:
                    continue
                mark = d.mark()
                ok = all(call(m, target).error_kind == "business_rule" and call(m, via).ok and call(m, target).ok for m in self.members)
                d.restore(mark)
                if ok:
                    return target, via
        raise MotifError("no refusal to recover from")

    def update(self, k: int, value: Any, when: list[Cond], why: str, refused: bool = False) -> None:
        u = self.site.update
        assert u is not None
        self.d.run_guarded(PlanStep(visit=self.visit, service=self.site.service, tool=u.tool, purpose="update", when=when,
                                    arguments=u.arguments({"$var": self.ids[k]}, value), reasoning=why,
                                    expect_error=refused))

    def criteria(self, changed: dict[int, Any]) -> None:
        """`field_equals` for each updated member, `record_unchanged` for every other one."""
        s, d = self.site, self.d
        coll = s.lookup.collection
        ent = _h(d.entity(s.service, coll))
        for k, rec in enumerate(self.members):
            if k in changed:
                fld = s.update.field  # type: ignore[union-attr]
                d.criterion("goal", f"{s.service}: {ent} {rec['id']} has {fld} = {changed[k]!r}",
                            Check(kind="field_equals", service=s.service, collection=coll, record_id=rec["id"],
                                  where=[Where(field=fld, value=changed[k])]))
            else:
                d.criterion("negative", f"{s.service}: {ent} {rec['id']} is left as it was",
                            Check(kind="record_unchanged", service=s.service, collection=coll, record_id=rec["id"]))


def prune(designer: Designer, step: PlanStep) -> None:
    """Keep only the reads the work uses (a branch, a write, the report): nothing read dangles."""
    used = {v for it in designer.d.report for v in it.vars}
    for st in designer.d.plan:
        used |= variables(st.arguments) | {n for c in st.when for n in cond_variables(c)}
    for ex in step.extract:
        if ex.var not in used:
            designer.d.bindings.pop(ex.var, None)
    step.extract = [ex for ex in step.extract if ex.var in used]


def motif_kinds(site: Site) -> set[tuple[str, str]]:
    """What a motif is one of: the kind of record it works on or reports over, and the verb of its
    transition. A task has one motif of each: six fan-outs over tickets, each naming another company,
    read as one chore repeated six times; so did cancelling the orders, the events and the interviews."""
    verb = {("transition", site.update.verb)} if site.update is not None and not site.update.param else set()
    return {(site.service, site.lookup.collection)} | verb


def add_group_motif(designer: Designer, carries: list[Carry], rng: random.Random, visit: int,
                    taken: AbstractSet[tuple[str, str]] = frozenset()) -> set[tuple[str, str]]:
    """Add one motif on a group the walk leads to; returns its `motif_kinds`. A motif of a kind in
    `taken` is not added. Raises MotifError when none fits."""
    options = [o for o in sites(designer, carries) if not motif_kinds(o[0]) & taken]
    rng.shuffle(options)
    options.sort(key=lambda o: o[0].update is None)  # work on the group before reports on it
    for site, carry in options[:6]:
        for _ in range(2):  # a second try draws another template, kind and size, unless the site itself is unfit
            mark = designer.mark()
            try:
                read = _motif(designer, site, carry, rng, visit)
                prune(designer, read)
                if not designer.replays():  # a planted record changed what an earlier lookup finds
                    raise MotifError("plants make a lookup ambiguous")
                return motif_kinds(site)
            except (MotifError, DesignError) as exc:
                designer.restore(mark)
                designer.last_failure = getattr(exc, "reason", str(exc))
                if designer.last_failure in UNFIT_SITE and carry.value is not None:  # (a parent is drawn anew)
                    break
    raise MotifError("no group fits")


# Why a motif fails whatever the draw: the same site fails its second try the same way.
UNFIT_SITE = frozenset({"no template", "no record the transition applies to", "the group's key is no one's own address",
                        "the plan wrote into the group", "no role for the group's people",
                        "a member already in the group refuses the work"})


def _motif(designer: Designer, site: Site, carry: Carry, rng: random.Random, visit: int) -> PlanStep:
    """Plant a group, list it and add one kind of work on it; returns the listing step."""
    n = rng.randint(4, 8)
    values = _rank_values(designer, site, n, rng)
    kinds = ["report"] if site.update is None else ["top", "top", "all", "all", "except", "except"] + (["recover"] if site.update.param else [])
    kind = rng.choice(kinds)
    if carry.value is None:  # a group of another record's children: that record first
        carry = _parent(designer, site, rng, visit)
    g = Group(designer, site, carry, rng, visit)
    ent = _h(designer.entity(site.service, site.lookup.collection))
    plural = ent[:-1] + "ies" if ent.endswith("y") and ent[-2:-1] not in "aeiou" else ent + ("es" if ent.endswith("s") else "s")
    rank = field_words(site.rank)
    done: dict[int, Any] = {}
    seconds: list[Any] = []
    deadline = ""
    if kind == "top" and site.second and rng.random() < 0.6:  # the best by one field among those meeting a date
        dates = sorted(_rank_values(designer, Site(site.service, site.lookup, site.second, _sem(designer, site, site.second),
                                                   None, ""), n, rng))
        deadline = cut(dates, n // 2)  # the n // 2 earliest meet it
        best = min(range(n), key=lambda k: values[k])
        late, early = dates[n // 2:], dates[: n // 2]
        rng.shuffle(late)
        rng.shuffle(early)
        others = late[1:] + early
        rng.shuffle(others)
        seconds = [late[0] if k == best else others.pop() for k in range(n)]  # the overall best misses the date
    if kind == "all" and rng.random() < 0.5:  # some are already done: do not redo them
        g.plant(values)
        first = g.update_value()
        done = {k: first for k in rng.sample(range(n), rng.randint(1, 2))}
        for k in done:
            g.mark_done(k, first)
    else:
        g.plant(values, seconds or None)
    # The value the work sets, before the group is listed: a group no value fits fails without the listing.
    value = done[next(iter(done))] if done else (None if kind in ("report", "recover") else g.update_value())
    g.read()
    designer.d.capabilities.add("explore-then-act")
    by = "latest" if site.rank_sem in ("date", "datetime") else "largest"
    word = "after" if site.rank_sem in ("date", "datetime") else "above"
    if site.rank_sem in ("date", "datetime") and kind in ("top", "except", "report"):  # dates decide the work
        designer.d.capabilities.add("temporal-reasoning")
    if kind == "report":
        _report_total(designer, g, rng, plural, rank, site)
        return g.step
    u = site.update
    assert u is not None
    fld, verb = u.field, u.verb
    where = f"in {site.service} {_group_name(designer, carry, site.lookup.key_field)}"
    if kind == "top":
        among: list[Cond] = []
        pool = list(range(n))
        lead_desc = f"the one with the {by} {rank}"
        if seconds:  # the lowest among those that meet a date: two constraints at once
            pool = [k for k in range(n) if str(seconds[k]) <= deadline]
            sec_vars = [designer.var() for _ in range(n)]
            g.step.extract += [Extract(var=v, field=site.second, path=site.lookup.path, match={"id": m["id"]})
                                            for v, m in zip(sec_vars, g.members)]
            designer.d.bindings.update({v: s for v, s in zip(sec_vars, seconds)})
            among = [Cond(left={"$var": v}, op="le", right=deadline) for v in sec_vars]
            op = "is_min"
            low = "earliest" if site.rank_sem in ("date", "datetime") else "lowest"
            lead_desc = f"the one with the {low} {rank} among those whose {field_words(site.second)} is on or before {_day(deadline)}"
            designer.d.capabilities |= {"multi-objective-tradeoff", "ranked-selection"}
        else:
            op = "is_max"
            designer.d.capabilities.add("ranked-selection")
        lead = (min if op == "is_min" else max)(pool, key=lambda k: values[k])
        rank_list = [{"$var": v} for v in g.ranks]
        guard = lambda k: [Cond(left={"$var": g.ranks[k]}, op=op, right=rank_list, among=among)]  # noqa: E731
        if u.param and rng.random() < 0.5:  # the value to set depends on the leader's figure
            others = [o for o in (g.update_value() for _ in range(5)) if not same(o, value)]
            if not others:
                raise MotifError("no second value")
            other = others[0]
            threshold = cut(values, n - 1) if lead == max(range(n), key=lambda k: values[k]) and rng.random() < 0.5 else above(values[lead])
            chosen = value if values[lead] > threshold else other
            for k in range(n):
                g.update(k, value, guard(k) + [Cond(left={"$var": g.ranks[k]}, op="gt", right=threshold)],
                         f"This one leads on {rank}, and it is {word} {show(threshold)}, so it gets {value}.")
                g.update(k, other, guard(k) + [Cond(left={"$var": g.ranks[k]}, op="le", right=threshold)],
                         f"This one leads on {rank} but is not {word} {show(threshold)}, so it gets {other}.")
            designer.d.capabilities.add("conditional-branching")
            text = (f"Among the {plural} {where}, take {lead_desc}: if its {rank} is {word} "
                    f"{show(threshold)}, set its {_h(fld)} to {value}; otherwise set it to {other}. Leave the others alone.")
            g.criteria({lead: chosen})
        else:
            top = 1 if seconds else rng.choice([1, 2, 3])  # the top k, with at least three left alone
            top = min(top, n - 3)
            leads = sorted(pool, key=lambda k: values[k], reverse=op == "is_max")[:top]
            if top > 1:
                lead_desc = f"the {WORDS[top]} with the {by} {rank}"
            for k in range(n):
                g.update(k, value, [c.model_copy(update={"k": top}) for c in guard(k)],
                         f"Of the {plural}, this is {'one of ' if top > 1 else ''}{lead_desc}, so {'it is one' if top > 1 else 'this is the one'} to {verb if not u.param else 'change'}.")
            text = rng.choice([
                f"Of the {plural} {where}, only {lead_desc} should get {_h(fld)} {value}; the rest stay as they are.",
                f"Set the {_h(fld)} to {value} on just {WORDS[top] if top > 1 else 'one'} of the {plural} {where}: {lead_desc}. Don't touch the others.",
            ] if u.param else [
                f"Of the {plural} {where}, {verb} only {lead_desc}; the rest stay as they are.",
                f"Just {WORDS[top] if top > 1 else 'one'} of the {plural} {where} should be {value}: {lead_desc}. Please {verb} {'that one' if top == 1 else 'those'} and leave the others alone.",
            ])
            g.criteria({k: value for k in leads})
    elif kind == "recover":
        value, via = g.recovery()
        for k in range(n):
            g.update(k, value, [], f"I'll set this {ent}'s {_h(fld)} to {value}.", refused=True)
            g.update(k, via, [], f"That was refused, so as you said I'll move it to {via} first.")
            g.update(k, value, [], f"Now it is at {via}, {value} should go through.")
        designer.d.capabilities |= {"fan-out", "error-recovery"}
        text = rng.choice([
            f"Every {ent} {where} needs its {_h(fld)} set to {value}. If the system refuses to move one "
            f"straight there, set it to {via} first and then to {value}.",
            f"Please get all the {plural} {where} to {_h(fld)} {value}; where that is refused, go through "
            f"{via} first.",
        ])
        g.criteria({k: value for k in range(n)})
    elif kind == "all":
        for k in range(n):
            when = [Cond(left={"$var": g.currents[k]}, op="ne", right=value)]
            g.update(k, value, when, f"This {ent} is not at {value} yet, so I'll change it." if u.param
                     else f"This {ent} is not {value} yet, so I'll {verb} it.")
        if n - len(done) >= 3:
            designer.d.capabilities.add("fan-out")
        if done:
            designer.d.capabilities.add("idempotency-check")
            _touching_changes(designer, g, done, value)
        text = rng.choice([
            f"Every {ent} {where} needs its {_h(fld)} set to {value}" + (" (some already are; leave those as they are)." if done else "."),
            f"Bring all the {plural} {where} to {_h(fld)} {value}" + ("; any that are already there need nothing." if done else "."),
        ] if u.param else [
            f"Please {verb} every {ent} {where}" + (f" (some already are {value}; leave those as they are)." if done else "."),
            f"All the {plural} {where} should be {value}" + (f"; {verb} the ones that aren't yet." if done else f", so {verb} each of them."),
        ])
        g.criteria({k: value for k in range(n) if k not in done})
    else:
        threshold = cut(values, n // 2 + rng.randint(0, 1))
        rule = designer.rule_document(visit, site, threshold, values, rng) if rng.random() < 0.75 else None
        limit: Any = threshold
        if rule is not None:
            limit = {"$var": rule[0]}
            if rule[1] != site.service:
                designer.d.capabilities.add("cross-service-constraint")
        keep = _later(values, threshold)
        if not keep or len(keep) == n:
            raise MotifError("no exception")
        for k in range(n):
            g.update(k, value, [Cond(left={"$var": g.ranks[k]}, op="le", right=limit)],
                     f"Its {rank} is within the limit, so it gets {value}." if u.param else f"Its {rank} is within the limit, so I'll {verb} it.")
        designer.d.capabilities.add("batch-with-exceptions")
        if n - len(keep) >= 3:
            designer.d.capabilities.add("fan-out")
        limit_text = (f"the limit in '{rule[2]}' in {rule[1]}" if rule else show(threshold))
        text = rng.choice([
            f"Set the {_h(fld)} of the {plural} {where} to {value}, except any whose {rank} is {word} {limit_text}.",
            f"All the {plural} {where} should go to {_h(fld)} {value}, apart from those with {_a(rank)} {word} {limit_text}: those stay as they are.",
        ] if u.param else [
            f"Please {verb} the {plural} {where}, except any whose {rank} is {word} {limit_text}.",
            f"The {plural} {where} should all be {value}, apart from those with {_a(rank)} {word} {limit_text}: leave those as they are.",
        ])
        g.criteria({k: value for k in range(n) if k not in keep})
    designer.d.phrases.append(Phrase("text", service=site.service, key=text))
    if site.rank_sem in ("money", "quantity") and rng.random() < 0.5:
        _report_total(designer, g, rng, plural, rank, site, phrase=False)
    return g.step


def _report_total(designer: Designer, g: Group, rng: random.Random, plural: str, rank: str, site: Site, phrase: bool = True) -> None:
    """The sum over the group, or the leader's share of it in percent, for the closing report."""
    values = [designer.d.bindings[v] for v in g.ranks]
    if site.rank_sem in ("date", "datetime"):
        lead = max(range(len(values)), key=lambda k: str(values[k]))
        item = ReportItem(label=f"the latest {rank} among the {plural} {_group_name(designer, g.carry, site.lookup.key_field)}", vars=[g.ranks[lead]])
    elif rng.random() < 0.5:
        item = ReportItem(label=f"the combined {rank} of the {plural} {_group_name(designer, g.carry, site.lookup.key_field)}", op="sum", vars=list(g.ranks))
        designer.d.capabilities.add("fan-in-aggregation")
    else:
        lead = max(range(len(values)), key=lambda k: values[k])
        item = ReportItem(label=f"the largest {rank} as a percent of the combined {rank} of the {plural} {_group_name(designer, g.carry, site.lookup.key_field)}", op="share_pct",
                          vars=[g.ranks[lead]] + list(g.ranks))
        designer.d.capabilities |= {"fan-in-aggregation", "data-transformation"}
    from compoworld.tasks.solution import report_value

    designer.add_report(item, report_value(item, designer.d.bindings))
    designer.d.capabilities.add("explore-then-act")
    if phrase:
        where = _group_name(designer, g.carry, site.lookup.key_field)
        designer.d.phrases.append(Phrase("text", service=site.service, key=rng.choice([
            f"Have a look at the {plural} in {site.service} {where}; nothing there needs changing.",
            f"The {plural} in {site.service} {where} only need reading, for the summary below; don't edit them.",
            f"For the numbers at the end, go through the {plural} {where} in {site.service} (read only).",
        ])))


def _touching_changes(designer: Designer, g: Group, done: dict[int, Any], value: Any) -> None:
    """Redoing a done member must be visible (an update stamps the record), else the trap is moot."""
    mark = designer.mark()
    u = g.site.update
    assert u is not None
    k = next(iter(done))
    before = dict(designer.table(g.site.service, g.site.lookup.collection).rows[g.members[k]["id"]])
    designer.d.env.step({"name": u.tool, "arguments": u.arguments(g.members[k]["id"], value)})
    after = designer.table(g.site.service, g.site.lookup.collection).rows.get(g.members[k]["id"])
    designer.restore(mark)
    if after == before:
        designer.d.capabilities.discard("idempotency-check")


def _rank_values(designer: Designer, site: Site, n: int, rng: random.Random) -> list[Any]:
    """Distinct, plausible values of the rank field: amounts around the collection's own, dates ahead
    (behind for a field that records the past: a reimbursement is not dated next month)."""
    if site.rank_sem in ("date", "datetime"):
        today = date.fromisoformat(designer.d.env.ctx.clock.today())
        ahead = -1 if past_field(site.rank) else 1
        days = [(today + timedelta(days=ahead * d)).isoformat() for d in rng.sample(range(3, 90), n)]
        return days if site.rank_sem == "date" else [f"{d}T{rng.randint(9, 17):02d}:00:00Z" for d in days]
    rows = [r.get(site.rank) for r in designer.table(site.service, site.lookup.collection)]
    nums = sorted(v for v in rows if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0)
    base = nums[len(nums) // 2] if nums else 1000
    if site.rank_sem == "quantity" or isinstance(base, int):
        return [int(v) for v in rng.sample(range(max(2, int(base * 0.3)), max(int(base * 2), 12) + 1), n)]
    return [round(base * f, 2) for f in rng.sample([0.35, 0.5, 0.65, 0.8, 0.95, 1.1, 1.3, 1.5, 1.75, 2.0], n)]


def cut(values: list[Any], k: int) -> Any:
    """A threshold between the k-th smallest value and the one before it (exclusive at both ends):
    a round number, or for dates a day on which no value falls. Values up to it are the k smallest."""
    ordered = sorted(values)
    if not 0 < k < len(ordered):
        raise MotifError("no cut")
    low, high = ordered[k - 1], ordered[k]
    if isinstance(low, str):  # ISO dates or datetimes: a day strictly between their days
        a, b = date.fromisoformat(low[:10]), date.fromisoformat(high[:10])
        if (b - a).days < 2:
            raise MotifError("dates too close")
        return (a + timedelta(days=(b - a).days // 2)).isoformat()
    mid = low + (high - low) / 2
    step = 10 ** max(0, len(str(int(abs(mid)))) - 2)
    t = int(mid // step * step)
    return t if low <= t < high else round(mid, 2)


def above(value: Any) -> Any:
    """A threshold above `value`: a round number, or a few days later."""
    if isinstance(value, str):
        return (date.fromisoformat(value[:10]) + timedelta(days=3)).isoformat()
    step = 10 ** max(0, len(str(int(abs(value)))) - 1)
    return int((value // step + 1) * step)


def show(threshold: Any) -> str:
    """A threshold as the request writes it."""
    return _day(threshold) if isinstance(threshold, str) else f"{threshold:,}"


def _later(values: list[Any], threshold: Any) -> list[int]:
    return [k for k, v in enumerate(values) if (v > threshold)]


def _choices(spec: Any, param: str) -> list[Any]:
    """The values a parameter allows (its enum, also where an optional one may be null): a status,
    stage or priority a request can name."""
    schema = spec.input_schema.get("properties", {}).get(param, {})
    # not "superseded": the stale-rule trap's word; a request that says it gives the trap away
    return [v for s in [schema, *schema.get("anyOf", [])] for v in s.get("enum", []) if v is not None and v != "superseded"]


def _sem(designer: Designer, site: Site, fld: str) -> str:
    return designer.profiles[site.service].field_sems.get(site.lookup.collection, {}).get(fld, "")


def _usable(value: Any, sem: str) -> bool:
    if sem in ("date", "datetime"):
        return isinstance(value, str)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _day(text: str) -> str:
    d = date.fromisoformat(str(text)[:10])
    return f"{d:%B} {d.day}, {d.year}"


def _for(carry: Carry, key: str) -> str:
    """How the request names the group: by the field that holds the key, and the value found earlier
    (or the value itself), so two groups keyed by the same value in different fields stay apart."""
    if carry.via:
        return carry.via
    if carry.var:
        return f"whose {_h(key)} is that {_h(carry.field)}" if key != carry.field else f"with that {_h(key)}"
    return f"whose {_h(key)} is {carry.value}"


def _group_name(designer: Designer, carry: Carry, key: str) -> str:
    """How the request and its closing report name a group: as `_for`, or, when the task reads more
    than one value of the carried field ("that email" could be any of three), by whose value it is
    ("whose customer email is the email of the contact 'Lucas Okafor'")."""
    found = next(((st, e) for st in designer.d.plan for e in st.extract if e.var == carry.var), None) if carry.var and not carry.via else None
    if found is None or designer.times_read(found[1].field) <= 1:
        return _for(carry, key)
    st, e = found
    return f"whose {_h(key)} is the {_h(e.field)} of {designer.describe(e, designer.read_entity(st, e), depth=1)}"


def _h(name: str) -> str:
    return name.replace("_", " ")


def _a(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words
