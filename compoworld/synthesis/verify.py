"""Verification of services (first-party and compiled alike), through the same `Environment.step`
path agents use. Generated checks per service:

- schema: every input and output schema is valid JSON Schema; names fit the namespaced limit
- invalid_args: non-object, unknown, missing and wrongly-typed arguments give error observations
  and change nothing (state hash unchanged)
- smoke / output_schema / read_only / atomic: each tool called with generated valid arguments does
  not fail internally, its output matches its output schema, read-only tools change nothing, and a
  failed call changes nothing
- create_read, list_finds_created, filter, update_read, delete, transition: round trips over each
  entity that can be created (roles come from the plan for compiled services, from names,
  annotations and semantic types for others)
- determinism: the same calls on the same seed give the same observations and state hashes;
  state_roundtrip: a state snapshot reloads to the same hash; simulated_flag: world-model
  observations (and only they) are marked simulated

A service is verified when no check fails (a check that cannot be set up is recorded as skipped).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from compoworld.services.environment import SEP, Environment, Observation
from compoworld.services.json_schema import InvalidValue, fits, json_types, main_type, sample, validate_once
from compoworld.services.sampling import schema_arguments
from compoworld.services.service import Service
from compoworld.services.tool import ToolSpec
from compoworld.synthesis.filesystem import parent_of
from compoworld.synthesis.schema import meta_errors

Status = Literal["pass", "fail", "skip"]


class CheckResult(BaseModel):
    """One check's result (a row of the warehouse's `verification` table)."""

    service: str
    tool: str | None = None
    check: str
    passed: bool
    status: Status
    detail: str = ""


class ServiceVerdict(BaseModel):
    service: str
    origin: str
    verified: bool
    n_pass: int = 0
    n_fail: int = 0
    n_skip: int = 0
    seconds: float = 0.0
    checks: list[CheckResult] = Field(default_factory=list)

    def failures(self) -> list[CheckResult]:
        return [c for c in self.checks if c.status == "fail"]


@dataclass
class _Roles:
    """What verification believes an entity's tools are (from a plan or from names and semantics)."""

    collection: str
    entity: str
    create: str | None = None
    get: str | None = None
    lister: str | None = None
    update: list[str] = field(default_factory=list)
    delete: str | None = None
    transitions: list[tuple[str, str | None]] = field(default_factory=list)  # (tool, expected status)


class _Recorder:
    def __init__(self, service: str) -> None:
        self.service = service
        self.checks: list[CheckResult] = []

    def add(self, check: str, status: Status, detail: str = "", tool: str | None = None) -> None:
        self.checks.append(CheckResult(service=self.service, tool=tool, check=check, passed=status == "pass", status=status, detail=detail[:300]))


# -- invalid arguments --------------------------------------------------------------------------

def _wrong_type_value(sub: dict[str, Any]) -> Any:
    types = json_types(sub)
    if not types:
        return None
    for v in ({"nested": ["x"]}, 12345, "not-a-number", True, [1, 2]):
        if not fits(sub, v):
            return v
    return None


# -- roles ----------------------------------------------------------------------------------------

def _roles(cls: type[Service]) -> list[_Roles]:
    plan = getattr(cls, "plan", None)
    if plan is not None and getattr(cls, "synthesis", "compiler") == "compiler":
        return _plan_roles(plan)
    return _spec_roles(cls)


def _plan_roles(plan: Any) -> list[_Roles]:
    out: list[_Roles] = []
    for e in plan.entities:
        if e.world or e.collection in ("action_log", "simulations"):
            continue
        r = _Roles(e.collection, e.entity)
        creators = [t for t in plan.tools if t.collection == e.collection and t.op == "create"]
        written = {p.field for t in creators[:1] for p in t.params if p.role in ("field", "ref", "key")}
        for t in plan.tools:
            if t.collection != e.collection:
                continue
            keys = [p for p in t.params if p.role == "key"]
            required = set(t.input_schema.get("required") or [])
            # a tool that also needs a reference the created record does not carry cannot name it
            unnamed = [p for p in t.params if p.role == "ref" and p.name in required and p.field not in written]
            if unnamed and t.op != "create":
                continue
            by_id = bool(keys) and all(p.field == "id" for p in keys) and len(keys) == 1
            if t.op == "create" and r.create is None and not any(p.role == "key" and p.field == "id" for p in t.params):
                r.create = t.name
            elif t.op == "get" and by_id and not t.many and r.get is None:
                r.get = t.name
            elif t.op == "list" and r.lister is None:
                r.lister = t.name
            elif t.op == "update" and by_id:
                r.update.append(t.name)
            elif t.op == "delete" and by_id and not t.many and r.delete is None:
                r.delete = t.name
            elif t.op == "transition" and by_id:
                r.transitions.append((t.name, t.target_status))
        if r.create:
            out.append(r)
    return out


def _spec_roles(cls: type[Service]) -> list[_Roles]:
    """Roles of a hand-written or generated service, from tool names, annotations and semantic types."""
    from compoworld.synthesis.infer import VERB_CLASS, verb_lemma
    from compoworld.synthesis.naming import words

    specs = cls.tool_specs()
    out: list[_Roles] = []
    for coll, c in cls.tables.items():
        entity = c.entity
        sem = f"{cls.name}.{entity}_id"
        r = _Roles(coll, entity)
        for name, s in specs.items():
            verbs = [verb_lemma(w) for w in words(name)]
            vclass = next((VERB_CLASS[v] for v in verbs if v), "")
            id_params = [p for p, t in s.param_semantics.items() if t == sem and "." not in p and "[" not in p]
            returns_rec = s.output_semantics.get("id") == sem
            returns_page = s.output_semantics.get("items[].id") == sem
            required = set(s.input_schema.get("required") or [])
            if returns_rec and not s.read_only and vclass in ("create",) and not (set(id_params) & required) and r.create is None:
                r.create = name
            elif returns_rec and s.read_only and len(id_params) == 1 and id_params[0] in required and r.get is None:
                r.get = name
            elif returns_page and s.read_only and r.lister is None:
                r.lister = name
            elif s.destructive and vclass == "delete" and len(id_params) == 1 and entity in name and r.delete is None:
                r.delete = name
            elif returns_rec and not s.read_only and vclass == "update" and len(id_params) == 1:
                r.update.append(name)
        if r.create:
            out.append(r)
    return out


# -- the checks -----------------------------------------------------------------------------------

def _call(env: Environment, svc: str, tool: str, args: Any) -> Observation:
    return env.step({"name": f"{svc}{SEP}{tool}", "arguments": args})


def _check_schemas(cls: type[Service], rec: _Recorder) -> None:
    for name, spec in cls.tool_specs().items():
        problems = []
        for label, sch in (("input", spec.input_schema), ("output", spec.output_schema)):
            err = meta_errors(sch)
            if err:
                problems.append(f"{label} schema: {err}")
        if spec.input_schema.get("type") != "object":
            problems.append("input schema is not an object schema")
        if len(f"{cls.name}{SEP}{name}") > 64:
            problems.append("namespaced name longer than 64 characters")
        if not spec.description:
            problems.append("no description")
        rec.add("schema", "fail" if problems else "pass", "; ".join(problems), tool=name)


def _check_invalid_args(cls: type[Service], env: Environment, rec: _Recorder) -> None:
    svc = cls.name
    for name, spec in cls.tool_specs().items():
        schema = spec.input_schema
        props = schema.get("properties") or {}
        cases: list[tuple[str, Any]] = [("non-object arguments", ["not", "an", "object"])]
        if schema.get("additionalProperties") is False:
            cases.append(("unknown parameter", {"zz_not_a_parameter": 1}))
        required = [r for r in schema.get("required") or [] if r in props]
        if required:
            cases.append((f"missing required {required[0]}", {}))
        for p, sub in props.items():
            bad = _wrong_type_value(sub if isinstance(sub, dict) else {})
            if bad is not None:
                base = schema_arguments(spec, env, svc, random.Random(1)) or {}
                cases.append((f"wrong type for {p}", {**base, p: bad}))
                break
        problems = []
        for label, args in cases:
            before = env.state()
            obs = _call(env, svc, name, args)
            if obs.ok or obs.error_kind != "invalid_arguments":
                problems.append(f"{label}: expected an invalid_arguments error, got {'ok' if obs.ok else obs.error_kind}")
            if env.state() != before:
                problems.append(f"{label}: the state changed")
        rec.add("invalid_args", "fail" if problems else "pass", "; ".join(problems) or f"{len(cases)} cases", tool=name)


def _check_output(spec: ToolSpec, obs: Observation, rec: _Recorder, name: str) -> None:
    try:
        validate_once(spec.output_schema, obs.data)
        rec.add("output_schema", "pass", tool=name)
    except InvalidValue as exc:
        rec.add("output_schema", "fail", f"{exc}", tool=name)


def _smoke(cls: type[Service], seed: int, rec: _Recorder) -> list[dict[str, Any]]:
    """Call every tool once with generated arguments; returns the calls made (for determinism)."""
    svc = cls.name
    env = Environment([cls], seed=seed)
    calls: list[dict[str, Any]] = []
    rng = random.Random(seed)
    # reads before writes, deletes last: every tool sees seeded records
    order = sorted(cls.tool_specs().items(), key=lambda kv: (kv[1].destructive, not kv[1].read_only, kv[0]))
    for name, spec in order:
        args = schema_arguments(spec, env, svc, rng)
        if args is None:
            rec.add("smoke", "skip", "could not generate arguments that satisfy the input schema", tool=name)
            continue
        before = env.state()  # a snapshot shares the rows (free); comparing it is cheaper than hashing the state
        obs = _call(env, svc, name, args)
        calls.append({"name": f"{svc}{SEP}{name}", "arguments": args})
        after = env.state()
        if obs.ok:
            rec.add("smoke", "pass", tool=name)
            _check_output(spec, obs, rec, name)
            if spec.read_only:
                rec.add("read_only", "pass" if after == before else "fail", "" if after == before else "a read-only tool changed the state", tool=name)
            rec.add("simulated_flag", "pass" if obs.simulated == (spec.kind == "world_model") else "fail",
                    f"simulated={obs.simulated} for a {spec.kind} tool", tool=name)
        else:
            if obs.error_kind == "internal_error":
                rec.add("smoke", "fail", obs.error or "", tool=name)
            elif obs.error_kind == "invalid_arguments":
                # the arguments satisfy the published schema, yet the tool rejects them
                rec.add("smoke", "fail", f"schema-valid arguments rejected: {obs.error}", tool=name)
            else:
                rec.add("smoke", "pass", f"domain error: {obs.error_kind}", tool=name)
            rec.add("atomic", "pass" if after == before else "fail", "" if after == before else "a failed call changed the state", tool=name)
    return calls


def _check_determinism(cls: type[Service], seed: int, calls: list[dict[str, Any]], rec: _Recorder) -> None:
    runs = []
    for _ in range(2):
        env = Environment([cls], seed=seed)
        trace = [env.state_hash()]
        for c in calls:
            trace.append(env.step(c).content)
        trace.append(env.state_hash())
        runs.append(trace)
    same = runs[0] == runs[1]
    rec.add("determinism", "pass" if same else "fail", "" if same else "two runs of the same calls on the same seed differ")
    env = Environment([cls], seed=seed)
    h = env.state_hash()
    try:
        env.reset(seed, {cls.name: env.state()[cls.name]})
        back = env.state_hash()
        rec.add("state_roundtrip", "pass" if back == h else "fail", "" if back == h else "reloading a snapshot changed the state")
    except Exception as exc:  # the state model rejects the service's own records
        rec.add("state_roundtrip", "fail", f"{type(exc).__name__}: {exc}")


def _get_record(env: Environment, cls: type[Service], tool: str | None, rid: str, rec_data: dict[str, Any], entity: str) -> Observation | None:
    if tool is None:
        return None
    spec = cls.tool_specs()[tool]
    args = _given_args(spec, env, cls.name, random.Random(3), _given_for(cls, tool, rid, rec_data, entity))
    if args is None:
        return None
    return _call(env, cls.name, tool, args)


def _given_for(cls: type[Service], tool: str, rid: str, record: dict[str, Any], entity: str) -> dict[str, Any]:
    """Arguments that name `record`: its id for id parameters, its field values for key/ref parameters."""
    spec = cls.tool_specs()[tool]
    plan_tool = getattr(cls, "_tools", {}).get(tool) if getattr(cls, "synthesis", "") == "compiler" else None
    out: dict[str, Any] = {}
    if plan_tool is not None:
        required = set(spec.input_schema.get("required") or [])
        for p in plan_tool.params:
            if p.role in ("key", "ref") and p.field:
                out[p.name] = rid if p.field == "id" else record.get(p.field)
            elif p.role in ("filter", "min", "max") and p.field:
                out[p.name] = record.get(p.field)
            elif p.role == "directory" and isinstance(record.get("path"), str):
                out[p.name] = parent_of(record["path"])  # a directory listing names a record by where it lies
            elif p.role == "query" and p.name in required:
                text = [w for v in record.values() if isinstance(v, str) for w in v.split() if len(w) > 3]
                out[p.name] = max(text, key=len) if text else None
        return _enveloped(plan_tool, {k: v for k, v in out.items() if v is not None})
    own = f"{cls.name}.{entity}_id"
    for p, t in spec.param_semantics.items():
        if "." in p or "[" in p:
            continue
        if p in record:  # `parent_id` names another record of the same kind: use the record's own value
            if record[p] is not None and t.endswith("_id"):
                out[p] = record[p]
        elif t == own:
            out[p] = rid
    if spec.read_only and any(spec.output_semantics.get(k) == own for k in ("items[].id",)):
        # a listing: narrow it with the record's own values (`status`, `category`) so that defaults do not hide it
        for p in spec.input_schema.get("properties") or {}:
            v = record.get(p)
            if p not in out and v is not None and not isinstance(v, (list, dict)):
                out[p] = v
    return out


def _given_args(spec: ToolSpec, env: Environment, svc: str, rng: random.Random, given: dict[str, Any]) -> dict[str, Any] | None:
    """`schema_arguments` with `given`, keeping what `given` puts inside an envelope beside the
    envelope's other required fields (drawn to fit, they would replace the whole object)."""
    args = schema_arguments(spec, env, svc, rng, given=given)
    if args is None:
        return None
    for k, v in given.items():
        if isinstance(v, dict) and isinstance(args.get(k), dict):
            args[k] = {**args[k], **v}
    return args


def _enveloped(plan_tool: Any, args: dict[str, Any]) -> dict[str, Any]:
    """`args` named as the plan names them, with those an envelope holds put inside it
    (`change_id` of `approve_change(params={change_id})` goes in `params`), as a caller gives them."""
    out: dict[str, Any] = {}
    for k, v in args.items():
        out = _with(plan_tool, out, k, v)
    return out


def _box(plan_tool: Any, name: str) -> str | None:
    """The envelope argument `name` is given in (None: at the top)."""
    return next((p.within for p in plan_tool.params if p.name == name and p.within), None) if plan_tool is not None else None


def _field_map(cls: type[Service], tool: str, roles: tuple[str, ...] = ("field", "ref")) -> dict[str, str]:
    """Parameter -> record field written by a create/update tool."""
    plan_tool = getattr(cls, "_tools", {}).get(tool) if getattr(cls, "synthesis", "") == "compiler" else None
    if plan_tool is not None:
        return {p.name: p.field for p in plan_tool.params if p.role in roles and p.field}
    props = cls.tool_specs()[tool].input_schema.get("properties") or {}
    return {p: p for p in props}


def _listing_contains(env: Environment, cls: type[Service], tool: str, rid: str, extra: dict[str, Any] | None = None) -> tuple[bool | None, str]:
    """Page through a list tool; True when `rid` shows up. None when the tool cannot be called."""
    spec = cls.tool_specs()[tool]
    props = spec.input_schema.get("properties") or {}
    plan_tool = getattr(cls, "_tools", {}).get(tool) if getattr(cls, "synthesis", "") == "compiler" else None
    limit_p = next((p.name for p in plan_tool.params if p.role == "limit"), None) if plan_tool else ("limit" if "limit" in props else None)
    offset_p = next((p.name for p in plan_tool.params if p.role == "offset"), None) if plan_tool else ("offset" if "offset" in props else None)
    given = dict(extra or {})
    if limit_p and fits(_param_schema(props, plan_tool, limit_p), 100):
        given = _with(plan_tool, given, limit_p, 100)
    page_p = next((p.name for p in plan_tool.params if p.role == "page"), None) if plan_tool else ("page" if "page" in props else None)
    for pname, first in ((page_p, 1), (offset_p, 0)):
        if pname and fits(_param_schema(props, plan_tool, pname), first):
            given = _with(plan_tool, given, pname, first)
    args = _given_args(spec, env, cls.name, random.Random(5), given)
    if args is None:
        return None, "could not build arguments"
    for _ in range(50):
        obs = _call(env, cls.name, tool, args)
        if not obs.ok or not isinstance(obs.data, dict):
            return None, f"listing failed: {obs.error}"
        items = obs.data.get("items") or []
        if any(isinstance(i, dict) and i.get("id") == rid for i in items):
            return True, ""
        nxt = obs.data.get("next_offset")
        if nxt is None or offset_p is None:
            return False, f"{rid} not among {obs.data.get('total')} results"
        args = _with(plan_tool, args, offset_p, nxt)
    return False, "too many pages"


def _param_schema(props: dict[str, Any], plan_tool: Any, name: str) -> dict[str, Any]:
    """The schema of argument `name`, inside its envelope when the plan puts it in one."""
    box = _box(plan_tool, name)
    if box is None:
        return props.get(name, {})
    return ((props.get(box) or {}).get("properties") or {}).get(name, {})


def _check_entity(cls: type[Service], seed: int, r: _Roles, rec: _Recorder) -> None:
    svc = cls.name
    env = Environment([cls], seed=seed)
    specs = cls.tool_specs()
    cspec = specs[r.create]  # type: ignore[index]
    rng = random.Random(11)
    args = schema_arguments(cspec, env, svc, rng, all_optional=True) or schema_arguments(cspec, env, svc, rng)
    if args is None:
        rec.add("create_read", "skip", "could not generate create arguments", tool=r.create)
        return
    obs = _call(env, svc, r.create, args)  # type: ignore[arg-type]
    if not obs.ok and obs.error_kind == "business_rule":
        # values copied from existing records can collide with uniqueness rules: try fresh values
        retry = schema_arguments(cspec, env, svc, random.Random(13), all_optional=True, fresh=True)
        if retry is not None:
            args, obs = retry, _call(env, svc, r.create, retry)  # type: ignore[arg-type]
    if not obs.ok:
        if obs.error_kind == "internal_error":
            rec.add("create_read", "fail", f"create failed internally: {obs.error}", tool=r.create)
        else:
            rec.add("create_read", "skip", f"create refused generated arguments ({obs.error_kind}): {obs.error}", tool=r.create)
        return
    created = obs.data if isinstance(obs.data, dict) else {}
    made = next((v for v in created.values() if isinstance(v, list)), None) if "id" not in created and len(created) == 1 else None
    if made is not None:  # a batch create (`calls_batch_create(inputs=[...])`) answers the records it made
        if not made or not isinstance(made[0], dict):
            rec.add("create_read", "skip", "the batch create made no record of the generated items", tool=r.create)
            return
        created = made[0]
    rid = created.get("id")
    if not isinstance(rid, str):
        rec.add("create_read", "fail", "create returned no id", tool=r.create)
        return
    fmap = _field_map(cls, r.create)  # type: ignore[arg-type]
    # hand-written services may derive a stored value from an argument; only plans promise to store it as given
    wrong = [f"{p}->{f}" for p, f in fmap.items() if p in args and f in created and created[f] != args[p]] if hasattr(cls, "_tools") else []
    if r.get:
        got = _get_record(env, cls, r.get, rid, created, r.entity)
        if got is None:
            rec.add("create_read", "skip", "could not build get arguments", tool=r.get)
        elif not got.ok or not isinstance(got.data, dict) or got.data.get("id") != rid:
            rec.add("create_read", "fail", f"get after create: {got.error or 'another record came back'}", tool=r.get)
        else:
            mism = [k for k, v in created.items() if got.data.get(k) != v]
            status: Status = "fail" if wrong or mism else "pass"
            rec.add("create_read", status, f"fields not stored: {wrong}; differ on read: {mism}" if status == "fail" else "", tool=r.get)
    else:
        rec.add("create_read", "fail" if wrong else "pass", f"fields not stored: {wrong}" if wrong else "no get tool; checked the create result", tool=r.create)
    if r.lister:
        given = _given_for(cls, r.lister, rid, created, r.entity)
        lspec = specs[r.lister]
        plan_tool = getattr(cls, "_tools", {}).get(r.lister) if getattr(cls, "synthesis", "") == "compiler" else None
        narrowing = {p.name for p in plan_tool.params if p.role in ("filter", "min", "max", "key", "ref")} if plan_tool else set()
        unfilled = [p for p in lspec.input_schema.get("required") or [] if p in narrowing and p not in given]
        if unfilled:
            rec.add("list_finds_created", "skip", f"required {unfilled} has no value on the created record", tool=r.lister)
        else:
            found, why = _listing_contains(env, cls, r.lister, rid, given)
            rec.add("list_finds_created", "skip" if found is None else ("pass" if found else "fail"), why, tool=r.lister)
        _check_filters(cls, env, r, rec)
    for upd in r.update[:2]:
        _check_update(cls, env, upd, r, rid, created, rec)
    for tr, target in r.transitions[:2]:
        _check_transition(cls, env, tr, target, r, rid, created, rec)
    if r.delete:
        _check_delete(cls, env, r, rid, created, rec)


def _check_filters(cls: type[Service], env: Environment, r: _Roles, rec: _Recorder) -> None:
    from compoworld.synthesis.runtime import matches

    tool = r.lister
    assert tool is not None
    plan_tool = getattr(cls, "_tools", {}).get(tool) if getattr(cls, "synthesis", "") == "compiler" else None
    if plan_tool is not None:
        filters = [(p.name, p.field) for p in plan_tool.params if p.role == "filter" and p.field]
    else:
        props = cls.tool_specs()[tool].input_schema.get("properties") or {}
        fields = set()
        for row in env.services[cls.name].db[r.collection]:
            fields |= set(row)
        filters = [(p, p) for p in props if p in fields and p not in ("limit", "offset", "query")]
    rows = list(env.services[cls.name].db[r.collection])
    spec = cls.tool_specs()[tool]
    props = spec.input_schema.get("properties") or {}
    for pname, fname in filters[:3]:
        sample_row = next((row for row in rows if row.get(fname) is not None and fits(props.get(pname, {}), row.get(fname))), None)
        if sample_row is None:
            rec.add("filter", "skip", f"no record has a usable {fname}", tool=tool)
            continue
        value = sample_row[fname]
        given = _given_for(cls, tool, sample_row["id"], sample_row, r.entity)
        given = _with(plan_tool, given, pname, value)
        found, why = _listing_contains(env, cls, tool, sample_row["id"], given)
        args = _given_args(spec, env, cls.name, random.Random(9), given)
        obs = _call(env, cls.name, tool, args) if args is not None else None
        if found is None or obs is None or not obs.ok:
            rec.add("filter", "skip", f"{pname}: {why or 'listing failed'}", tool=tool)
            continue
        items = obs.data.get("items", [])
        if items and not all(isinstance(i, dict) and fname in i for i in items):
            rec.add("filter", "skip", f"{pname}: results do not show {fname}", tool=tool)
            continue
        bad = [i.get("id") for i in items if not matches(i.get(fname), value)]
        ok = found and not bad
        rec.add("filter", "pass" if ok else "fail", "" if ok else f"{pname}={value!r}: found={found}, non-matching={bad[:3]}", tool=tool)


def _with(plan_tool: Any, given: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """`given` with one more argument, inside its envelope when the plan puts it in one."""
    box = _box(plan_tool, name)
    if box is None:
        return {**given, name: value}
    return {**given, box: {**(given.get(box) or {}), name: value}}


def _check_update(cls: type[Service], env: Environment, tool: str, r: _Roles, rid: str, created: dict[str, Any], rec: _Recorder) -> None:
    spec = cls.tool_specs()[tool]
    fmap = _field_map(cls, tool, roles=("field",))  # references would need another existing record
    given = _given_for(cls, tool, rid, created, r.entity)
    props = spec.input_schema.get("properties") or {}
    cands = [p for p in fmap if p not in given and p in props and fmap[p] in created]
    cands.sort(key=lambda p: main_type(props[p]) not in ("string", "integer", "number", "boolean"))
    target = cands[0] if cands else None
    if target is None:
        rec.add("update_read", "skip", "no field to update", tool=tool)
        return
    rng = random.Random(21)
    new = None
    for _ in range(6):
        cand = sample(props[target], rng)
        if cand != created.get(fmap[target]) and fits(props[target], cand):
            new = cand
            break
    if new is None:
        rec.add("update_read", "skip", f"no other valid value for {target}", tool=tool)
        return
    args = schema_arguments(spec, env, cls.name, rng, given={**given, target: new})
    if args is None:
        rec.add("update_read", "skip", "could not build update arguments", tool=tool)
        return
    obs = _call(env, cls.name, tool, args)
    if not obs.ok:
        rec.add("update_read", "fail" if obs.error_kind in ("internal_error", "not_found", "invalid_arguments") else "skip",
                f"update refused: {obs.error_kind}: {obs.error}", tool=tool)
        return
    got = _get_record(env, cls, r.get, rid, created, r.entity) if r.get else obs
    data = got.data if got is not None and got.ok and isinstance(got.data, dict) else {}
    ok = data.get(fmap[target]) == new
    rec.add("update_read", "pass" if ok else "fail", "" if ok else f"{target} reads back as {data.get(fmap[target])!r}, wrote {new!r}", tool=tool)


def _check_transition(cls: type[Service], env: Environment, tool: str, target: str | None, r: _Roles, rid: str, created: dict[str, Any], rec: _Recorder) -> None:
    spec = cls.tool_specs()[tool]
    args = _given_args(spec, env, cls.name, random.Random(23), _given_for(cls, tool, rid, created, r.entity))
    if args is None:
        rec.add("transition", "skip", "could not build arguments", tool=tool)
        return
    before = env.state_hash()
    obs = _call(env, cls.name, tool, args)
    if not obs.ok:
        rec.add("transition", "fail" if obs.error_kind in ("internal_error", "not_found") else "skip", f"{obs.error_kind}: {obs.error}", tool=tool)
        return
    problems = []
    if env.state_hash() == before:
        problems.append("the state did not change")
    if target is not None:
        got = _get_record(env, cls, r.get, rid, created, r.entity) if r.get else obs
        ent = next((e for e in cls.plan.entities if e.collection == r.collection), None) if hasattr(cls, "plan") else None
        sf = (ent.status_field if ent is not None else None) or "status"
        status = got.data.get(sf) if got is not None and got.ok and isinstance(got.data, dict) else None
        if status != target:
            problems.append(f"status is {status!r}, expected {target!r}")
        again_before = env.state_hash()
        again = _call(env, cls.name, tool, args)
        if not again.ok and env.state_hash() != again_before:
            problems.append("a refused repeat changed the state")
    rec.add("transition", "fail" if problems else "pass", "; ".join(problems), tool=tool)


def _check_delete(cls: type[Service], env: Environment, r: _Roles, rid: str, created: dict[str, Any], rec: _Recorder) -> None:
    tool = r.delete
    assert tool is not None
    spec = cls.tool_specs()[tool]
    args = _given_args(spec, env, cls.name, random.Random(29), _given_for(cls, tool, rid, created, r.entity))
    if args is None:
        rec.add("delete", "skip", "could not build arguments", tool=tool)
        return
    obs = _call(env, cls.name, tool, args)
    if not obs.ok:
        rec.add("delete", "fail", f"delete of a created record failed: {obs.error_kind}: {obs.error}", tool=tool)
        return
    problems = []
    if rid in env.services[cls.name].db[r.collection].rows:
        problems.append("the record is still in the state")
    if r.get:
        got = _get_record(env, cls, r.get, rid, created, r.entity)
        if got is not None and got.ok:
            problems.append("get still finds the deleted record")
    if r.lister:
        found, _ = _listing_contains(env, cls, r.lister, rid, _given_for(cls, r.lister, rid, created, r.entity))
        if found:
            problems.append("the listing still shows the deleted record")
    before = env.state_hash()
    again = _call(env, cls.name, tool, args)
    if again.ok:
        problems.append("deleting twice succeeded")
    elif env.state_hash() != before:
        problems.append("a refused delete changed the state")
    rec.add("delete", "fail" if problems else "pass", "; ".join(problems), tool=tool)


def verify_service(cls: type[Service], seed: int = 7) -> ServiceVerdict:
    """Run every check on one service class."""
    t0 = time.perf_counter()
    rec = _Recorder(cls.name)
    try:
        _check_schemas(cls, rec)
        env = Environment([cls], seed=seed)
        _check_invalid_args(cls, env, rec)
        calls = _smoke(cls, seed, rec)
        _check_determinism(cls, seed, calls, rec)
        for r in _roles(cls):
            _check_entity(cls, seed, r, rec)
    except Exception as exc:  # a service that cannot even be set up fails verification; the run goes on
        rec.add("setup", "fail", f"{type(exc).__name__}: {exc}")
    n_fail = sum(c.status == "fail" for c in rec.checks)
    return ServiceVerdict(
        service=cls.name, origin=getattr(cls, "origin", "library"), verified=n_fail == 0,
        n_pass=sum(c.status == "pass" for c in rec.checks), n_fail=n_fail, n_skip=sum(c.status == "skip" for c in rec.checks),
        seconds=round(time.perf_counter() - t0, 4), checks=rec.checks,
    )


def verify_library() -> list[ServiceVerdict]:
    """Verify every first-party service that exists right now."""
    from compoworld.services.registry import library_services

    return [verify_service(cls) for cls in library_services().values()]
