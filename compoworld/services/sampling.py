"""Arguments for a tool, drawn from its input schema and the current state: many valid calls
without hand-writing them. Two policies over the same state, for two purposes:

- `sample_arguments` (task design, exploration, benchmarks): plausible calls. Ids come from the table
  whose entity the parameter's semantic type names, emails and names from existing records of the
  parameter's role (`owner_email` an employee's; `compoworld.services.cast`) and the tool's own
  service first, dates lie ahead of the clock and an end follows its start; optional parameters are
  passed at random.
- `schema_arguments` (verification): arguments the input schema accepts exactly. Ids and field
  values of the state first, each checked against its subschema, then conforming samples.

What each policy draws is pinned by what was made with it (task ids, verification results), so
neither is rewritten in terms of the other.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from functools import lru_cache
from itertools import islice
from typing import Any, Iterator, Mapping

from compoworld.canonical import format_date, format_timestamp
from compoworld.services.cast import PERSON_SEMS, record_role, role_of
from compoworld.services.environment import Environment
from compoworld.services.json_schema import fits, main_type, sample
from compoworld.services.service import Service
from compoworld.services.tool import ToolSpec

# Types whose values are drawn by role too: whose person, which company (a vendor, a customer).
ROLE_SEMS = PERSON_SEMS | {"company_name"}
# Types whose values must be fresh to be useful (a new title), not copied from existing records.
FRESH = {"title", "text", "query", "json"}
# Plain words for free-text arguments whose name says what they hold (matched as a substring).
# A time zone is an IANA name: `convert_time(sourceTimezone="woakvh")` converts nothing
TIME_ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles", "Asia/Shanghai",
              "Australia/Sydney", "Asia/Kolkata"]
PLAIN_WORDS = {
    "department": ["Sales", "Marketing", "Finance", "Engineering", "Support", "Operations", "People", "Legal"],
    "team": ["Sales", "Platform", "Finance", "Customer Success", "Operations", "Growth"],
    "location": ["Berlin", "London", "Austin", "Toronto", "Lisbon", "Remote"],
    "city": ["Berlin", "London", "Austin", "Toronto", "Lisbon", "Singapore"],
    "category": ["Travel", "Software", "Hardware", "Office supplies", "Training", "Meals"],
    "reason": ["Customer request", "Quarterly review", "Budget change", "Contract renewal", "Data correction"],
    "timezone": TIME_ZONES,
    "time_zone": TIME_ZONES,
}
END_WORDS = ("end", "until", "to_date", "finish", "due", "check_out", "return")


def values_by_semantics(env: Environment) -> dict[str, list[Any]]:
    """Semantic type -> values present in the state (ids by entity, fields by type); also keyed
    `service:type` for values of one service."""
    pool: dict[str, list[Any]] = {}
    for svc in env.services.values():
        for key, values in service_values(svc).items():
            pool.setdefault(key, []).extend(values)
    return pool


def service_values(svc: Service) -> dict[str, list[Any]]:
    """Values of one service's state by semantic type (`email`, `crm:email`) and by type and field name
    (`title#subject`); people's and companies' values also by role (`email@employee`, `crm:email@customer_contact`, `company_name@vendor`), so a
    parameter gets a person or company of its role."""
    field_sems = field_semantics(type(svc))
    pool: dict[str, list[Any]] = {}
    for coll, table in svc.db.items():
        pool.setdefault(f"{svc.name}.{table.entity}_id", []).extend(list(table.rows)[:50])
        for row in list(table.rows.values())[:50]:
            for key, value in row.items():
                sem = field_sems.get(key)
                if sem and isinstance(value, (str, int, float)) and not isinstance(value, bool):
                    pool.setdefault(sem, []).append(value)
                    pool.setdefault(f"{sem}#{key}", []).append(value)  # by field too: a subject is another record's subject, not a job title
                    pool.setdefault(f"{svc.name}:{sem}", []).append(value)
                    role = record_role(role_of(type(svc), coll, key, sem), row) if sem in ROLE_SEMS else ""
                    if role:
                        pool.setdefault(f"{sem}@{role}", []).append(value)
                        pool.setdefault(f"{svc.name}:{sem}@{role}", []).append(value)
    return pool


class ValuePool(Mapping[str, list[Any]]):
    """Several services' `service_values` read as one pool: a key's values are each service's in
    turn (what merging them would give), joined when first asked for: a task designer reads a few
    dozen of the hundreds of keys, so merging every list up front would copy thousands of values."""

    def __init__(self, parts: list[dict[str, list[Any]]]) -> None:
        self._parts = parts
        self._joined: dict[str, list[Any]] = {}

    @property
    def parts(self) -> list[dict[str, list[Any]]]:
        """Each service's pool, in the order given."""
        return self._parts

    def get(self, key: str, default: Any = None) -> Any:  # the usual lookup: a missing key raises nothing
        values = self._joined.get(key)
        if values is None:
            found = [part[key] for part in self._parts if key in part]
            if not found:
                return default
            values = self._joined[key] = [v for vs in found for v in vs]
        return values

    def __getitem__(self, key: str) -> list[Any]:
        values = self.get(key)
        if values is None:
            raise KeyError(key)
        return values

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(k for part in self._parts for k in part))

    def __len__(self) -> int:
        return sum(1 for _ in self)


@lru_cache(maxsize=4096)
def field_semantics(cls: type[Service]) -> dict[str, str]:
    """Record field name -> semantic type, from the service's tool output schemas."""
    field_sems: dict[str, str] = {}
    for spec in cls.tool_specs().values():
        for path, sem in spec.output_semantics.items():
            key = path.rsplit(".", 1)[-1]
            if key != "id":  # an id's type depends on its collection: taken from the table
                field_sems.setdefault(key, sem)
    return field_sems


class _Sampler:
    def __init__(self, env: Environment, rng: random.Random, pool: Mapping[str, list[Any]], service: str | None) -> None:
        self.env, self.rng, self.pool, self.service = env, rng, pool, service
        self.last_time: Any = None

    def when(self, sem: str, name: str) -> str:
        """Dates ahead of the seeded clock; an end-like parameter follows the start it comes after."""
        if self.last_time is not None and any(w in name.lower() for w in END_WORDS):
            when = self.last_time + (timedelta(hours=1) if sem == "datetime" else timedelta(days=2))
        else:
            when = self.env.ctx.clock.datetime() + timedelta(days=self.rng.randint(3, 40))
            when = when.replace(hour=self.rng.randint(9, 15), minute=0, second=0)
        self.last_time = when
        return format_date(when) if sem == "date" else format_timestamp(when)

    def value(self, name: str, schema: Any, sem: str | None) -> Any:
        if not isinstance(schema, dict):  # boolean schemas and other oddities of real specs
            schema = {}
        sem = sem or schema.get("x-semantic-type")
        if schema.get("enum"):
            return self.rng.choice(schema["enum"])
        if "const" in schema:
            return schema["const"]
        for combo in ("anyOf", "oneOf"):
            if schema.get(combo):
                options = [s for s in schema[combo] if isinstance(s, dict) and s.get("type") != "null"] or schema[combo]
                return self.value(name, options[0], sem)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        if sem in ("date", "datetime") and kind in (None, "string"):
            return self.when(sem, name)
        own = self.env.services[self.service].examples(sem, self.rng) if sem and self.service in self.env.services else []
        if own and kind in (None, "string"):
            return self.rng.choice(own)
        if sem and sem not in FRESH and kind not in ("array", "object"):
            role = role_of(None, "", name, sem) if sem in ROLE_SEMS else ""
            values = None
            if role and role != "correspondent":  # an assignee is an employee, a customer's email a customer's
                values = self.pool.get(f"{self.service}:{sem}@{role}") or self.pool.get(f"{sem}@{role}")
            values = values or self.pool.get(f"{self.service}:{sem}") or self.pool.get(sem)
            if values:
                return self.rng.choice(values)
        span = _COORDINATE_SPANS.get(_coordinate(name)) if kind in ("number", "integer") else None
        if span is not None:  # a latitude of 213.0 places nothing on Earth
            lo, hi = max(span[0], schema.get("minimum", span[0])), min(span[1], schema.get("maximum", span[1]))
            return round(self.rng.uniform(lo, hi), 4) if kind == "number" else self.rng.randint(int(lo), int(hi))
        if kind == "integer":
            lo = int(schema.get("minimum", 1))
            return self.rng.randint(lo, int(min(schema.get("maximum", lo + 20), lo + 20)))
        if kind == "number":
            lo = float(schema.get("minimum", 1))
            return float(self.rng.randint(int(lo) + 1, int(min(schema.get("maximum", lo + 500), lo + 500))))
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            item = schema.get("items", {"type": "string"})
            return [self.value(name, item, None) for _ in range(max(1, schema.get("minItems", 1)))]
        if kind == "object":
            props = schema.get("properties", {})
            return {k: self.value(k, v, None) for k, v in props.items() if k in schema.get("required", [])}
        fmt = schema.get("format")
        if fmt == "email":
            return f"user{self.rng.randint(1, 999)}@example.com"
        if fmt == "uri":
            return f"https://example.com/{self.rng.randint(1, 999)}"
        words = next((w for k, w in PLAIN_WORDS.items() if k in name.lower()), None)
        if words:  # a department is "Finance", not "Department 783"
            return self.rng.choice(words)
        return f"{_spoken(name)} {self.rng.randint(100, 999)}"


# Where people and places are: latitudes of inhabited land, any longitude.
_COORDINATE_SPANS = {"latitude": (-55.0, 70.0), "longitude": (-180.0, 180.0)}
_COORDINATE_WORD = re.compile(r"(?:^|_)(lat|latitude|lon|lng|long|longitude)$")


def _coordinate(name: str) -> str:
    """'latitude' or 'longitude' for a parameter named as one (`lat`, `centerLng`, `origin_latitude`), else ''."""
    m = _COORDINATE_WORD.search(re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower())
    return "" if m is None else "latitude" if m.group(1).startswith("lat") else "longitude"


def _spoken(name: str) -> str:
    return name.replace("_", " ").capitalize()


def is_fallback_value(name: str, value: Any) -> bool:
    """Whether `value` is, or holds, what sampling falls back to for a parameter nothing else says how
    to fill ("Source 522" for `source`, ["To 642"] for `to`): valid, but a value no colleague would ask
    an agent to type."""
    if isinstance(value, list):
        return any(is_fallback_value(name, v) for v in value)
    if isinstance(value, dict):
        return any(is_fallback_value(k, v) for k, v in value.items())
    return isinstance(value, str) and re.fullmatch(re.escape(_spoken(name)) + r" [1-9]\d\d", value) is not None


def sample_arguments(spec: ToolSpec, env: Environment, rng: random.Random, pool: Mapping[str, list[Any]] | None = None,
                     optional_p: float = 0.3, service: str | None = None) -> dict[str, Any]:
    """Required parameters always, optional ones with probability `optional_p`. Values of a semantic
    type come from the tool's own service first (a chat DM goes to a chat user), then the world."""
    sampler = _Sampler(env, rng, values_by_semantics(env) if pool is None else pool, service)
    props = spec.input_schema.get("properties", {})
    required = set(spec.input_schema.get("required", []))
    args: dict[str, Any] = {}
    for name, schema in props.items():
        if name in required or rng.random() < optional_p:
            args[name] = sampler.value(name, schema, spec.param_semantics.get(name))
    return args


def valid_sequence(env: Environment, rng: random.Random, read_only: bool, per_tool: int = 20, tries: int = 8) -> list[dict[str, Any]]:
    """Calls of the wanted kind that succeed, in order, from the environment's current state.

    Replaying the list after resetting to the same state succeeds call for call (the environment is
    deterministic), which is what a throughput benchmark needs. The environment is left modified.
    """
    pool = values_by_semantics(env)
    out: list[dict[str, Any]] = []
    specs = [(n, s) for n, s in env.tool_specs().items() if s.read_only == read_only and s.kind == "deterministic"]
    for _ in range(per_tool):
        for name, spec in specs:
            for attempt in range(tries):
                args = sample_arguments(spec, env, rng, pool, optional_p=0.0 if attempt < tries // 2 else 0.5, service=name.split("__")[0])
                call = {"name": name, "arguments": args}
                if env.step(call).ok:
                    out.append(call)
                    break
    return out


# -- arguments the schema accepts (verification) -----------------------------------------------

def _entity_ids(env: Environment, service: str) -> dict[str, list[str]]:
    """Existing ids by semantic type (`svc.entity_id`), from the environment's state."""
    svc = env.services[service]
    out: dict[str, list[str]] = {}
    for coll, c in svc.tables.items():
        out[f"{service}.{c.entity}_id"] = list(islice(svc.db[coll].rows, 20))
    return out


class _FieldValues:
    """Existing field values by field name (lower case), from the first records of each table:
    realistic arguments for keys, filters and refs. A field's values are gathered when first asked
    for: a tool asks for a few of the hundreds of fields a state holds."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        self._rows = rows
        self._found: dict[str, list[Any]] = {}

    def values(self, key: str) -> list[Any]:
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = [v for rows in self._rows for row in rows for k, v in row.items()
                                        if v is not None and k.lower() == key and not isinstance(v, (dict, list))]
        return found

    def __contains__(self, key: str) -> bool:
        return bool(self.values(key))

    def get(self, key: str) -> list[Any] | None:
        return self.values(key) or None

    def __getitem__(self, key: str) -> list[Any]:
        return self.values(key)


def _value_pool(env: Environment, service: str) -> _FieldValues:
    return _FieldValues([list(islice(table, 10)) for table in env.services[service].db.values()])


_POOL_MEMO: dict[tuple[Any, ...], tuple[dict[str, list[str]], _FieldValues, list[Any]]] = {}


def _pools(env: Environment, service: str) -> tuple[dict[str, list[str]], _FieldValues]:
    """Ids and field values of the current state, recomputed only when a table has changed."""
    svc = env.services[service]
    # Keyed by the tables' rows, not the environment: a new environment or a reset on the same seeded
    # state (new tables over the same shared rows) finds its pools again. The memo holds the rows, so
    # their ids stay theirs.
    rows = [t.rows for t in svc.db.values()]
    key = (service, tuple((id(r), len(r), t.version) for r, t in zip(rows, svc.db.values())))
    memo = _POOL_MEMO.get(key)
    if memo is None:
        if len(_POOL_MEMO) >= 64:
            _POOL_MEMO.clear()
        memo = _POOL_MEMO[key] = (_entity_ids(env, service), _value_pool(env, service), rows)
    return memo[0], memo[1]


_CAMEL = re.compile(r"([a-z0-9])([A-Z])")


@lru_cache(maxsize=65536)  # a pure function of the name, asked for every parameter of every drawn call
def field_key(param: str) -> str:
    """The record field a parameter names: `assetType` -> `asset_type`."""
    return _CAMEL.sub(r"\1_\2", param).lower()


def _anchor(env: Environment, service: str, params: list[str], sems: dict[str, str], rng: random.Random,
            given: dict[str, Any] | None) -> tuple[dict[str, Any], str] | None:
    """One record whose fields the parameters name (a worklog with its issue and project), so the
    arguments drawn from it belong together; a record holding a given value is preferred."""
    svc = env.services[service]
    best: tuple[int, str] | None = None
    for coll, c in svc.tables.items():
        rows = svc.db[coll].rows
        if not rows:
            continue
        fields = set(next(iter(rows.values())))
        score = sum(field_key(p) in fields or field_key(p)[:-1] in fields for p in params) + \
            2 * sum(_names_own_id(p, sems.get(p), service, c.entity) for p in params)
        if score >= min(2, len(params)) and (best is None or score > best[0]):
            best = (score, coll)
    if best is None:
        return None
    rows = list(islice(svc.db[best[1]].rows.values(), 20))
    wanted = [(field_key(p), v) for p, v in (given or {}).items()]
    holding = [r for r in rows if any(r.get(f) == v for f, v in wanted)]
    pool = holding or rows
    return pool[rng.randrange(len(pool))], svc.tables[best[1]].entity


def _names_own_id(p: str, sem: str | None, service: str, entity: str) -> bool:
    """`worklog_id` (or `id`) of a worklog: the parameter is the record's own id, not one it refers to."""
    return sem == f"{service}.{entity}_id" and field_key(p) in ("id", f"{entity}_id")


def _from_anchor(anchor: tuple[dict[str, Any], str], service: str, p: str, sem: str | None, sub: dict[str, Any]) -> Any:
    """The value of parameter `p` that the anchor record holds (its id, a field it names), else None."""
    record, entity = anchor
    if _names_own_id(p, sem, service, entity):
        return record["id"]
    key = field_key(p)
    if key in record:
        return record[key]
    if key.endswith("s") and key[:-1] in record and main_type(sub) == "array":  # `paths` from a file's `path`
        return [record[key[:-1]]]
    return None


def schema_arguments(spec: ToolSpec, env: Environment, service: str, rng: random.Random, *, all_optional: bool = False,
                     given: dict[str, Any] | None = None, fresh: bool = False) -> dict[str, Any] | None:
    """Arguments that satisfy the tool's input schema, preferring ids and values present in the state,
    taken from one record where the parameters name its fields (so they belong together).

    Required parameters (every parameter with `all_optional`), plus the `given` ones, coerced to fit;
    `fresh` draws new values rather than copying other records' fields (ids excepted). None when no
    valid combination was found."""
    schema = spec.input_schema
    props = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in props]
    ids, pool = _pools(env, service)
    sems = spec.param_semantics
    for attempt in range(4):
        args: dict[str, Any] = {}
        names = list(props) if all_optional else list(required) + [p for p in props if p not in required and given and p in given]
        anchor = _anchor(env, service, names, sems, rng, given) if attempt < 2 and not fresh else None
        for p in names:
            sub = props.get(p) or {}
            if given and p in given:
                v = coerce(sub, given[p])
                if v is not None:
                    args[p] = v
                    continue
                if p not in required:
                    continue  # a value we meant to pass does not fit: leave the optional parameter out
            cands: list[Any] = []
            sem = sems.get(p)
            held = _from_anchor(anchor, service, p, sem, props.get(p) or {}) if anchor is not None else None
            if held is not None:
                cands.append(held)
            if sem:
                cands += env.services[service].examples(sem, rng)
            if sem == "query" and attempt < 2 and not fresh and pool.get("name"):  # a search for something that is there
                cands.append(pool["name"][rng.randrange(len(pool["name"]))])
            if sem and sem in ids and ids[sem]:
                cands.append(ids[sem][rng.randrange(len(ids[sem]))])
            key = field_key(p)
            if key in pool and attempt < 2 and not (fresh and not (sem and sem.endswith("_id"))):
                cands.append(pool[key][rng.randrange(len(pool[key]))])
            if sem and sem.endswith("_id") and sem in ids and ids[sem] and main_type(sub) == "array":
                cands.append([ids[sem][0]])
            if "timezone" in key or "time_zone" in key:
                cands.append(TIME_ZONES[rng.randrange(len(TIME_ZONES))])
            val = next((c for c in cands if fits(sub, c)), None)
            if val is None:
                val = sample(sub, rng, required_only=attempt > 1)
            args[p] = val
        if fits(schema, args):
            return args
    return None


def coerce(sub: dict[str, Any], v: Any) -> Any:
    """`v` or an equivalent that fits `sub` (a list as comma-separated text, a number as text...), else None."""
    if fits(sub, v):
        return v
    t = main_type(sub)
    cands: list[Any] = []
    if isinstance(v, list) and t == "string":
        cands.append(",".join(str(x) for x in v))
        cands += [x for x in v[:1]]
    if isinstance(v, (int, float)) and not isinstance(v, bool) and t == "string":
        cands.append(str(v))
    if isinstance(v, str) and t in ("integer", "number"):
        try:
            cands.append(int(v) if t == "integer" else float(v))
        except ValueError:
            pass
    if not isinstance(v, list) and t == "array":
        cands.append([v])
    return next((c for c in cands if fits(sub, c)), None)
