"""The generic runtime of compiled services: every tool is an operation of its plan (create, get,
list/search, update, delete, transition, lookup, computation, action, world model) over the
service's journaled tables. Same seed and same calls give the same results."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import lru_cache
from typing import Any, Callable, ClassVar, Iterable

from compoworld.canonical import canonical_bytes, format_timestamp
from compoworld.services.json_schema import InvalidValue, compile_validator, fits, json_types, main_type, sample, type_in_words
from compoworld.services.service import Record, Service, Table
from compoworld.services.tool import ArgumentError, NotFoundError, ToolError, ToolSpec
from compoworld.synthesis.browser import run_browser
from compoworld.synthesis import git, home, kv, tensor
from compoworld.synthesis.sql import SQL_SEMS, SQL_TABLES, examples, run_sql, seed_tables
from compoworld.synthesis.compute import COMPUTATIONS, Call
from compoworld.synthesis.filesystem import FILE_TOPICS, entries
from compoworld.synthesis.naming import snake, words
from compoworld.synthesis.plan import ITEM_ENVELOPES, EntityPlan, FieldPlan, ServicePlan, ToolPlan
from compoworld.synthesis.schema import nullable, said_default
from compoworld.synthesis.world import (EXT_MIME, EXTS, WEB_RESULT, ValueContext, INTERVALS, not_in_world, coherent_candles, coherent_page, coherent_record, coherent_repo, coherent_series, rng_for, slugify,
                                        value_for, web_hits)

MAX_PAGE = 100
ACTION_LOG = "action_log"
INTERVAL_ARGS = frozenset({"interval", "timeframe", "time_frame", "resolution", "granularity", "bar"})
NAMED_INTERVALS = frozenset({"daily", "weekly", "monthly"})  # the words of a tool's name that say its interval
SIMULATIONS = "simulations"
DEFAULT_PAGE = 20
PLACE_KEYS = frozenset({"city", "location", "region", "region_name", "place", "town", "area", "city_name", "location_name"})
WORLD_HITS = 3  # records of the outside world a filtered listing derives when the seeded ones hold none
UPSERT_VERBS = {"write", "save", "put", "upsert", "set", "store", "upload", "ensure"}
UPSERT_KEYS = {"path", "file_path", "filepath", "filename", "file_name", "key", "url", "uri"}
# "Create a new directory or ensure a directory exists": a second call returns the one there
# "Create or update a single file", `add_or_update_note`: a tool that says it updates what is there
OR_UPDATE = re.compile(r"(?<![a-z])(?:create|add|insert|new)[ _-]?or[ _-]?(?:update|replace|overwrite)", re.I)
ENSURES = re.compile(r"\bensures?\b.{0,40}\bexists?\b|\balready exists\b.{0,40}\bsucceed", re.I)


class CompiledService(Service):
    """Base of services built from a plan; subclasses are made by `compiler.build_service`."""

    origin: ClassVar[str] = "compiled"
    synthesis: ClassVar[str] = "compiler"
    verified: ClassVar[bool | None] = None
    plan: ClassVar[ServicePlan]
    _tools: ClassVar[dict[str, ToolPlan]] = {}
    _ents: ClassVar[dict[str, EntityPlan]] = {}

    @classmethod
    def info(cls) -> dict[str, Any]:
        meta = cls.__dict__.get("_meta")
        if meta is not None:  # a cached class answers from its index entry without parsing its plan
            out = {"name": cls.name, "version": cls.version, "origin": cls.origin, "domain": cls.domain,
                   "description": cls.description, "n_tools": meta.get("n_tools", 0), "n_world_model": meta.get("n_world_model", 0)}
        else:
            out = super().info()
        plan = cls.__dict__.get("plan")
        out.update(verified=cls.verified, synthesis=cls.synthesis,
                   source_id=meta.get("source_id") if meta is not None else getattr(plan, "source_id", None))
        return out

    # -- seeded data ----------------------------------------------------------------------------
    def generate(self, gen: Any) -> dict[str, Iterable[Record]]:
        out: dict[str, list[Record]] = {}
        for e in _parents_first(list(self._ents.values())):
            if e.collection == SQL_TABLES:  # a database: the world's customers, products and orders
                out[e.collection] = seed_tables(gen.world, gen.rng, format_timestamp(gen.now))
                continue
            if e.collection == kv.KV_KEYS:  # a keyspace: the world's sessions, users, queues and settings
                out[e.collection] = kv.seed_keys(gen.world, gen.rng, gen.now)
                continue
            if e.collection == tensor.TENSORS:  # a tensor store: worked-example matrices and vectors
                out[e.collection] = tensor.seed_tensors()
                continue
            if e.collection == home.HOME_ENTITIES:  # a home: its lights, switches, sensors, lock and automations
                out[e.collection] = home.seed_entities(gen.rng, gen.now)
                continue
            if e.collection in (git.GIT_FILES, git.GIT_COMMITS, git.GIT_BRANCHES):  # a repository: its history and working tree
                if git.GIT_FILES not in out:
                    out.update(git.seed_repository(gen.rng, gen.now, [p.name for p in gen.world.employees[:3]]))
                continue
            ctx = ValueContext.of(gen.world, gen.now, e.entity, e.collection, e.topic, f"{self.name} {self.description}")
            n = gen.n(e.size) if e.size else 0
            ctx.ids = tuple(f"{e.prefix}_{i + 1:04d}" for i in range(n))
            rows = []
            seen_keys: dict[str, set[Any]] = {}
            own_ids = self._own_ids(e)
            for i in range(n):
                rid = f"{e.prefix}_{i + 1:04d}"
                for attempt in range(5):  # a key taken: draw the whole record again (two Emma Patels are two people)
                    row = self._seed_row(e, gen.rng, ctx, i, i + attempt * n, out)
                    if not any(row[f.name] is not None and canonical_bytes(row[f.name]) in seen_keys.get(f.name, ()) for f in e.fields if f.role == "key"):
                        break
                row["id"] = rid
                for f in e.fields:  # a DAG's own `dag_id` is its id when its tools take `dag_id` as the id
                    if f.name in own_ids and _may_hold(f.shape, rid):
                        row[f.name] = rid
                for f in e.fields:  # still taken after the redraws: numbered, as a last resort
                    if f.role == "key" and row[f.name] is not None:
                        keys = seen_keys.setdefault(f.name, set())
                        if canonical_bytes(row[f.name]) in keys and isinstance(row[f.name], str) and _may_hold(f.shape, f"{row[f.name]}-{i + 1}"):
                            row[f.name] = f"{row[f.name]}-{i + 1}"
                        keys.add(canonical_bytes(row[f.name]))
                rows.append(row)
            out[e.collection] = rows
        self._count_entries(out)
        return out

    def examples(self, sem: str, rng: Any) -> list[Any]:
        """Statements over the service's database for a parameter that takes SQL, keys of its keyspace for
        one that names a key: what samplers pass."""
        if sem == kv.KV_KEY_SEM and kv.KV_KEYS in self.db:
            return kv.examples(list(self.db[kv.KV_KEYS]), rng)
        if sem == home.HOME_ENTITY_SEM and home.HOME_ENTITIES in self.db:
            return home.examples(list(self.db[home.HOME_ENTITIES]), rng)
        if sem == tensor.TENSOR_NAME_SEM and tensor.TENSORS in self.db:
            return tensor.examples(list(self.db[tensor.TENSORS]), rng)
        if sem == git.GIT_REPO_SEM and git.GIT_FILES in self.db:
            return git.examples(rng)
        if sem not in SQL_SEMS or SQL_TABLES not in self.db:
            return []
        return list(examples(list(self.db[SQL_TABLES]), sem == "sql_write", rng))

    def _count_entries(self, out: dict[str, list[Record]]) -> None:
        """A seeded folder holds as many items as lie in it (a listing of it shows them all)."""
        files = [r for c in self._file_collections() for r in out.get(c, [])]
        for c, e in self._ents.items():
            if e.topic != "folder" or e.field("item_count") is None or e.field("path") is None:
                continue
            for row in out.get(c, []):
                if isinstance(row.get("path"), str):
                    row["item_count"] = len(entries(row["path"], out[c], files))

    def _file_collections(self) -> list[str]:
        """The collections whose records are files with a path (what a directory listing shows beside folders)."""
        return [c for c, e in self._ents.items() if e.topic in FILE_TOPICS and e.field("path")]

    def _own_ids(self, e: EntityPlan) -> set[str]:
        """The entity's data fields named for its own id (`dag_id` of a DAG) that its tools' keys bind
        to the record id: they hold that id, or an agent passing the value it read would not find it."""
        keyed = {snake(p.name) for t in self._tools.values() if t.collection == e.collection
                 for p in t.params if p.role == "key" and p.field == "id"}
        return {f.name for f in e.fields if f.role in ("data", "key") and snake(f.name) == f"{e.entity}_id" and snake(f.name) in keyed}

    def _seed_row(self, e: EntityPlan, rng: Any, ctx: ValueContext, i: int, slot: int, done: dict[str, list[Record]]) -> Record:
        """Record `i`'s fields; `slot` says whose person and shared values it takes (`i` unless redrawn)."""
        row: Record = {"id": ""}
        for f in e.fields:
            if f.role != "id":
                row[f.name] = i + 1 if f.role == "seq" else self._seed_value(e, f, rng, ctx, slot, done)
        # a slug is its record's name made URL-safe ("Inscription 1" -> "inscription-1"), not a label
        base = next((row[k] for k in ("name", "title") if isinstance(row.get(k), str) and row[k]), None)
        slug = slugify(base) if base is not None else None
        for f in e.fields:
            if slug is not None and f.role != "id" and (f.name == "slug" or f.name.endswith("_slug")) and _may_hold(f.shape, slug):
                row[f.name] = slug
        _in_order(e, row)
        coherent_record(row, rng, ctx, e.entity, i)
        coherent_repo(row)
        # a file of a known kind has that kind's extension (a Unity `Material` is `.mat`, not `.docx`)
        kind = next((str(row[k]).lower() for k in KIND_FIELDS if isinstance(row.get(k), str)), None)
        ext = EXTENSION_OF_KIND.get(kind or "")
        for f in e.fields:
            v = row.get(f.name)
            if ext and f.role != "id" and isinstance(v, str) and _FILE_NAME.search(v) and _may_hold(f.shape, _FILE_NAME.sub(f".{ext}", v)):
                row[f.name] = _FILE_NAME.sub(f".{ext}", v)
        return row

    def _seed_value(self, e: EntityPlan, f: FieldPlan, rng: Any, ctx: ValueContext, i: int, done: dict[str, list[Record]]) -> Any:
        if f.role == "seq":
            return i + 1
        if f.role == "status":
            if not e.statuses:
                return "active"
            return e.statuses[0] if rng.random() < 0.5 else e.statuses[rng.randrange(len(e.statuses))]
        if f.role == "created":
            return format_timestamp(ctx.now - timedelta(days=rng.randint(30, 400)))
        if f.role == "updated":
            return format_timestamp(ctx.now - timedelta(days=rng.randint(0, 29)))
        if f.role == "ref" and f.ref:
            parent = next((p for p in self._ents.values() if p.entity == f.ref), None)
            rows = done.get(parent.collection, []) if parent else []
            if rows:
                # one referenced record per record: its `author_id` and `author_name` are one author's
                target = ctx.shared(i, f"ref:{f.ref}", lambda: rows[rng.randrange(len(rows))])
                v = target.get(ref_field(parent, f.name), target["id"]) if parent else target["id"]
                if _may_hold(f.shape, v):
                    return v
                if not isinstance(v, list) and _may_hold(f.shape, [v]):
                    return [v]  # `contact_ids`: the records it lists are the service's own, not made-up ids
        enum = _enum_of(f.shape)
        if enum:  # a field a filter enumerates holds the filter's values (a `tags` enum, a status list)
            pick = enum[rng.randrange(len(enum))]
            return [pick] if "array" in json_types(f.shape) else pick
        v = value_for(f.name, f.sem, f.shape, rng, ctx, i, unique=f.role == "key")
        if f.strict and not fits(f.strict, v):
            # a key its spec constrains (Local API's `groupId` "must be a numeric string"): seeded as the
            # spec says, or no call could ever name a seeded record ("shipment" failed `^\d+$`); each
            # record's own number first, so that keys stay unique
            v = next((c for c in (str(1000 + i + 1), i + 1) if fits(f.strict, c)), None) or sample(f.strict, rng)
        return v if _may_hold(f.shape, v) else None

    # -- dispatch -------------------------------------------------------------------------------
    def run_tool(self, name: str, args: dict[str, Any]) -> Any:
        t = self._tools[name]
        e = self._ents.get(t.collection or "")
        op = t.op
        if op == "compute":
            props = t.input_schema.get("properties") or {}
            call = Call(args=args, order=list(props), types={k: main_type(v) for k, v in props.items()}, svc=self, tool=t.original)
            return COMPUTATIONS[t.compute or "echo"].run(call)
        if op == "world_model":
            from compoworld.synthesis.world_model import simulate

            return simulate(self, t, args)
        if op == "action":
            return self._action(t, args)
        if op == "browser":
            return run_browser(self, t, args, _world(self.ctx.seed))
        if op == "sql":
            return run_sql(self, t, args)
        if op == "kv":
            return kv.run_kv(self, t, args)
        if op == "home":
            return home.run_home(self, t, args)
        if op == "git":
            return git.run_git(self, t, args)
        if op == "tensor":
            return tensor.run_tensor(self, t, args)
        assert e is not None, f"tool {name} has no collection"
        args = _unwrapped(t, args)
        if op == "create":
            return self._create_many(t, e, args) if t.many else self._create(t, e, args)
        if op == "list":
            return self._at_interval(t, e, args, self._list(t, e, args))
        if op == "count":  # how many records the same listing would show: all its pages, unless a window is given
            total = self._list(t, e, args)["total"]
            if any(p.role in ("limit", "offset") and args.get(p.name) is not None for p in t.params):
                limit, offset = self._window(t, args)
                total = max(0, min(total - offset, limit))
            return {"count": total}
        if op in ("get", "lookup"):
            if t.many:
                return self._batch(t, e, args, delete=False)
            return self._at_interval(t, e, args, self._locate(t, e, args, derive=True))
        if op == "update":
            return self._update_items(t, e, args) if t.by_role("items") else self._update(t, e, args)
        if op == "delete":
            if t.by_role("items"):
                return self._delete_items(t, e, args)
            if t.many:
                return self._batch(t, e, args, delete=True)
            row = self._locate(t, e, args, derive=False)
            return self.db[e.collection].delete(row["id"])
        if op == "transition":
            return self._transition_many(t, e, args) if t.many else self._transition(t, e, args)
        raise ToolError(f"unsupported operation {op}")

    # -- locating records -----------------------------------------------------------------------
    def _conditions(self, t: ToolPlan, args: dict[str, Any], roles: tuple[str, ...] = ("key", "ref")) -> list[tuple[str, str, Any]]:
        return [(p.name, p.field, args[p.name]) for p in t.params if p.role in roles and p.field and p.name in args and args[p.name] is not None]

    def _locate(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any], derive: bool) -> Record:
        table = self.db[e.collection]
        conds = self._conditions(t, args)
        keys = [c for c in conds if any(p.name == c[0] and p.role == "key" for p in t.params)]
        if not keys:
            declared = [p.name for p in t.params if p.role == "key"]
            if declared and not derive:
                # an optional key left out of a write: refuse rather than guess which record to change
                raise ToolError(f"give {' or '.join(declared)} to say which {e.entity.replace('_', ' ')}")
            row = self._singleton(table, conds)
            if row is not None:
                return row
            if e.world and derive:
                return self._derive_or_refuse(e, {f: v for _, f, v in conds})
            if conds and len(table):  # records there are, none of them the one asked for
                what = ", ".join(f"{p} {v!r}" for p, _, v in conds)
                raise NotFoundError(f"no {e.entity.replace('_', ' ')} with {what}")
            raise NotFoundError(f"there is no {e.entity.replace('_', ' ')} yet")
        row = _find(table, conds)
        if row is not None:
            return row
        if e.world and derive and not any(f == "id" for _, f, _ in keys):
            return self._derive_or_refuse(e, {f: v for _, f, v in conds})
        what = ", ".join(f"{p} {v!r}" for p, _, v in keys)
        under = [f"{p} {v!r}" for p, _, v in conds if (p, _, v) not in keys]
        if under and _find(table, keys) is not None:  # it exists, under another parent
            raise NotFoundError(f"no {e.entity.replace('_', ' ')} with {what} under {', '.join(under)}")
        raise NotFoundError(f"no {e.entity.replace('_', ' ')} with {what}")

    def _singleton(self, table: Table, conds: list[tuple[str, str, Any]]) -> Record | None:
        rows = [r for r in table if all(_equal(r.get(f), v) for _, f, v in conds)] if conds else list(table)
        return rows[-1] if rows else None

    def _derive(self, e: EntityPlan, known: dict[str, Any], n: int = 0) -> Record:
        """A record of the outside world that the seeded table does not hold: a pure function of its key
        (and of `n`, the record's place among several derived for one listing)."""
        rng = rng_for(self.ctx.seed, self.name, e.collection, canonical_bytes(known).decode() + (f"#{n}" if n else ""))
        ctx = ValueContext.of(_world(self.ctx.seed), self.ctx.clock.start, e.entity, e.collection, e.topic, f"{self.name} {self.description}")
        row: Record = {"id": f"{e.prefix}_x{rng.getrandbits(32):08x}"}
        for f in e.fields:
            if f.role == "id":
                continue
            if f.name in known:
                row[f.name] = known[f.name]
            elif f.role == "seq":
                # a number of its own, past the seeded records' 1..n: one of Dota's recent matches had `match_id: null`
                v = 1_000 + rng.randrange(9_000_000)
                row[f.name] = v if _may_hold(f.shape, v) else str(v) if _may_hold(f.shape, str(v)) else None
            elif f.role == "status":
                row[f.name] = e.statuses[0] if e.statuses else "active"
            elif f.role in ("created", "updated"):
                row[f.name] = format_timestamp(self.ctx.clock.start)
            else:
                v = value_for(f.name, f.sem, f.shape, rng, ctx, n)
                row[f.name] = v if _may_hold(f.shape, v) else None
        # `weather(city)`: the fields made to agree with a city (the record's name) agree with the city asked for
        for what, made in ctx.shared_values(n).items():
            if what in known and isinstance(made, str) and made != known[what]:
                row.update({k: known[what] for k, v in row.items() if v == made and k not in known})
        # `get_author_info(author_name)`: the record's own name is the name it was looked up by
        # and `get_weather(region_name)` names the place it was asked about ("Toronto" for Reykjavik)
        for k, v in known.items():
            if isinstance(v, str) and (k in (f"{e.entity}_name", f"{e.entity}_title") or k in PLACE_KEYS) \
                    and "name" in row and e.field("name") is not None:
                row["name"] = v
        coherent_record(row, rng, ctx, e.entity, n, frozenset(known))  # a quote looked up by its ticker is that ticker's, a city's weather lies at the city
        coherent_page(row, known.get("url"), ctx.shared_values(n), ctx.world)
        _in_order(e, row)  # a derived match, too, ends after it starts
        return row

    def _at_interval(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any], answer: Record) -> Record:
        """A price history or an indicator asked for at an interval (`interval="weekly"`, `timeframe="1h"`)
        answers bars or points at that interval: the store computes them from the same record, which
        stays as it is (another call without an interval reads it as stored). A tool named for its
        interval (`time_series_weekly_adjusted(symbol)`) answers at that one: it had answered daily bars."""
        given = next((v for k, v in args.items() if snake(k) in INTERVAL_ARGS and isinstance(v, str) and v in INTERVALS), None)
        named = None if given is not None else next((w for w in words(t.original) if w in NAMED_INTERVALS), None)
        given = given or named
        if given is None or e.topic not in ("price_history", "series"):
            return answer
        def shown(row: Record) -> Record:
            row = dict(row)
            for k in row:  # the record says the interval it is shown at (`timeframe`), not the one it was stored at
                if snake(k) in INTERVAL_ARGS and (k != "interval" or named) and isinstance(row[k], str):
                    row[k] = given
            rng = rng_for(self.ctx.seed, self.name, e.collection, f"{row.get('id')}@{given}")
            coherent_candles(row, rng, self.ctx.clock.start, given)
            coherent_series(row, rng, self.ctx.clock.start, e.entity, given)
            return row
        if isinstance(answer.get("items"), list):
            return dict(answer, items=[shown(r) for r in answer["items"]])
        return shown(answer)

    # -- operations -----------------------------------------------------------------------------
    def _check_refs(self, t: ToolPlan, args: dict[str, Any]) -> None:
        for p in t.params:
            if p.role not in ("ref", "add") or p.name not in args or args[p.name] is None or not p.collection:
                continue
            parent = self._ents.get(p.collection)
            if parent is None or parent.world:
                continue
            table = self.db[p.collection]
            vals = args[p.name] if isinstance(args[p.name], list) else [args[p.name]]
            for v in vals:
                fld = ref_field(parent, p.field or "")
                if _find(table, [(p.name, fld, v)]) is None:
                    raise NotFoundError(f"no {parent.entity.replace('_', ' ')} with {p.name} {v!r}")

    def _create_many(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> dict[str, Any]:
        """One record per item; an item whose name (or title) a record already has is skipped, as the
        knowledge-graph servers do, and so is a repeat within the call. A bad item fails the whole call
        (`Environment.step` undoes the records made before it)."""
        param = t.by_role("items")[0]
        table = self.db[e.collection]
        natural = next((f.name for f in e.fields if f.name in ("name", "title")), None)
        made: list[Record] = []
        for item in args.get(param.name) or []:
            values = _item_values(item)
            if natural and values.get(natural) is not None and _find(table, [(natural, natural, values[natural])]) is not None:
                continue
            row: Record = {f.name: values.get(f.name) for f in e.fields if f.role != "id"}
            made.append(table.insert(self._defaults(t, e, table, row, invent_keys=False)))
        return {param.name: made}

    def _delete_items(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> dict[str, Any]:
        """`delete_relations(relations=[{from, to, relationType}])`: each item removes the record with all
        its values; an item no record matches is reported, not an error, unless none matched."""
        param = t.by_role("items")[0]
        table = self.db[e.collection]
        deleted: list[Record] = []
        missing: list[Any] = []
        for item in args.get(param.name) or []:
            values = _item_values(item)
            conds = [(k, k, v) for k, v in values.items() if e.field(k) is not None]
            row = _find(table, conds) if conds else None  # an item naming no field names no record
            if row is None:
                missing.append(item)
            else:
                deleted.append(table.delete(row["id"]))
        if not deleted:
            raise NotFoundError(f"none of the given {param.name} exist")
        return {"deleted": deleted, "not_found": missing}

    def _defaults(self, t: ToolPlan, e: EntityPlan, table: Table, row: Record, invent_keys: bool = True) -> Record:
        """A new record's values the caller did not give: sequence numbers, status, timestamps, and
        (unless the records come as a batch's items, which say all they are) keys."""
        for f in e.fields:
            if row.get(f.name) is not None or f.role == "id":
                continue
            if f.role == "seq":
                row[f.name] = table.seq
            elif f.role == "status":
                row[f.name] = t.target_status or (e.statuses[0] if e.statuses else "active")
            elif f.role in ("created", "updated"):
                row[f.name] = self.now()
            elif f.role == "key" and invent_keys and (f.strict or f.shape):
                rng = rng_for(self.ctx.seed, self.name, e.collection, table.seq)
                v = sample(f.strict or f.shape, rng)
                row[f.name] = v if _may_hold(f.shape, v) else None
        sf = e.status_field
        if t.target_status and sf:
            row[sf] = t.target_status
        return _derived(e, table, row, self.now())

    def _create(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> Record:
        table = self.db[e.collection]
        self._check_refs(t, args)
        existing = self._same_key(t, table, args)
        if existing is not None:
            # `write_file(path, content)` twice: one file holding the second content, not two files
            changes = {p.field: args[p.name] for p in t.params if p.role in ("field", "ref") and p.field and p.name in args and p.field != "id"}
            if e.field("updated_at") is not None:
                changes["updated_at"] = self.now()
            return table.update(existing["id"], **changes)
        row: Record = {f.name: None for f in e.fields if f.role != "id"}
        # An argument left out takes its declared default (a new vector index's `dim` is 1536, not null), or
        # the one its description states (Heroku's new app is in region "us": "Default: us").
        # References keep to what was passed: a default name need not exist. A default that its own schema
        # or the stored field's shape refuses (a generator's "unset" sentinel, false for a string) is none.
        props = t.input_schema.get("properties") or {}
        args = dict(args)
        for p in t.params:
            declared = props.get(p.name)
            default = said_default(declared)
            f = e.field(p.field) if p.field else None
            if (p.role in ("field", "key") and f is not None and f.role != "id" and p.name not in args
                    and default is not None and fits(declared, default) and fits(f.shape, default)):
                args[p.name] = default
        for p in t.params:
            if p.role in ("field", "ref", "key") and p.field and p.name in args:
                row[p.field] = args[p.name]
        for p in t.params:
            if p.role == "key" and p.field and p.name in args and args[p.name] is not None:
                if p.field == "id":
                    if not isinstance(args[p.name], str) or table.get(args[p.name]) is not None:
                        raise ToolError(f"{e.entity.replace('_', ' ')} {args[p.name]!r} already exists")
                    continue
                f = e.field(p.field)
                if f is not None and f.role == "key" and _find(table, [(p.name, p.field, args[p.name])]) is not None:
                    raise ToolError(f"a {e.entity.replace('_', ' ')} with {p.name} {args[p.name]!r} already exists")
        rid = row.pop("id", None)
        row = self._defaults(t, e, table, row)
        if rid is not None:
            row = {"id": str(rid), **row}
        return table.insert(row)

    def _same_key(self, t: ToolPlan, table: Table, args: dict[str, Any]) -> Record | None:
        """The record a create-or-replace tool (`write`, `save`, `put`, `upsert`...) names by its
        required path, key or url; None for other tools or a new key."""
        if t.verb not in UPSERT_VERBS and not ENSURES.search(t.description) and not OR_UPDATE.search(f"{t.original} {t.description}"):
            return None
        required = set(t.input_schema.get("required") or [])
        for p in t.params:
            if p.role == "key" and p.field == "id" and isinstance(args.get(p.name), str):
                return table.get(args[p.name])  # `save_context(id, content)` on an existing id saves over it
            if p.role in ("field", "key") and p.field in UPSERT_KEYS and p.name in required and args.get(p.name) is not None:
                return next((r for r in table if _equal(r.get(p.field), args[p.name])), None)
        return None

    def _list(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> dict[str, Any]:
        path = next((args[p.name] for p in t.by_role("directory") if isinstance(args.get(p.name), str)), None)
        if path is not None:  # `list_directory(path)`: what lies in that directory, files included
            files = [r for c in self._file_collections() for r in self.db[c]]
            return self._page(t, args, entries(path, self.db[e.collection], files))
        rows = list(self.db[e.collection])
        for p in t.params:
            if p.name not in args or args[p.name] is None:
                continue
            v = args[p.name]
            # a reference or a key names one record: "database-1" is not "database-12", and `searchCUSIP(cusip)`
            # lists the securities of that CUSIP, not every one
            if p.role in ("ref", "key") and p.field:
                rows = [r for r in rows if matches(r.get(p.field), v, exact=True)]
            elif p.role == "filter" and p.field:
                rows = [r for r in rows if matches(r.get(p.field), v, exact=_names_one(p.field))]
        rows = [r for r in rows if _in_bounds(t, args, r)]
        if e.world and not rows:
            rows = self._derived_hits(t, e, args)
        query = next((args[p.name] for p in t.params if p.role == "query" and isinstance(args.get(p.name), str)), None)
        if query and query.strip():
            rows = search(rows, query)
            if e.world and e.topic == WEB_RESULT and len(rows) < WEB_HITS:  # the web holds a page on anything
                given = {p.field: args[p.name] for p in t.params if p.role == "filter" and p.field and args.get(p.name) is not None}
                rows += [{**hit, **given} for hit in web_hits(query, [f.name for f in e.fields], e.prefix, _world(self.ctx.seed),
                                                              WEB_HITS - len(rows))]
        sort_by = next((args[p.name] for p in t.params if p.role == "sort" and isinstance(args.get(p.name), str)), None)
        if sort_by:
            fld = re.sub(r"[^a-z0-9_]", "_", sort_by.lower().lstrip("-+"))
            if e.field(fld) is not None:
                desc = sort_by.startswith("-") or _descending(t, args)
                present = [r for r in rows if r.get(fld) is not None]
                absent = [r for r in rows if r.get(fld) is None]
                try:
                    present.sort(key=lambda r: _sort_key(r.get(fld)), reverse=desc)
                except TypeError:
                    pass
                rows = present + absent
        elif _descending(t, args):
            rows = rows[::-1]
        return self._page(t, args, rows)

    def _derived_hits(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> list[Record]:
        """The outside world holds records about anything asked for (news of any ticker, listings in any
        city): a few, a pure function of what was asked, as a lookup derives one. What a key names it
        names alone (an unknown CUSIP lists no security)."""
        if any(p.role == "key" and args.get(p.name) is not None for p in t.params):
            return []
        named = {p.field: args[p.name] for p in t.params if p.role in ("ref", "filter") and p.field
                 and isinstance(args.get(p.name), (str, int, list)) and not isinstance(args.get(p.name), bool)}
        if not named or not_in_world(e.topic, named):
            return []
        # what the outside world holds lies within the bounds asked for too (no run started in October for
        # runs started after March)
        return [row for row in (self._derive(e, named, i) for i in range(WORLD_HITS)) if _in_bounds(t, args, row)]

    def _derive_or_refuse(self, e: EntityPlan, known: dict[str, Any]) -> Record:
        why = not_in_world(e.topic, known)
        if why is not None:
            raise NotFoundError(why)
        return self._derive(e, known)

    def _page(self, t: ToolPlan, args: dict[str, Any], rows: list[Any]) -> dict[str, Any]:
        limit, offset = self._window(t, args)
        chunk = rows[offset: offset + limit]
        nxt = offset + limit if offset + limit < len(rows) else None
        out: dict[str, Any] = {"items": chunk, "total": len(rows), "next_offset": nxt}
        if any(p.role == "cursor" for p in t.params):
            out["next_cursor"] = str(nxt) if nxt is not None else None
        return out

    def _window(self, t: ToolPlan, args: dict[str, Any]) -> tuple[int, int]:
        props = t.input_schema.get("properties") or {}
        limit = None
        for p in t.params:
            if p.role == "limit":
                v = args.get(p.name, (props.get(p.name) or {}).get("default"))
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    limit = int(v)
        if limit is None or limit <= 0:
            limit = DEFAULT_PAGE
        limit = min(limit, MAX_PAGE)
        offset = 0
        for p in t.params:
            v = args.get(p.name)
            if v is None or isinstance(v, bool):
                continue
            if p.role == "offset" and isinstance(v, (int, float)):
                offset = max(0, int(v))
            elif p.role == "page" and isinstance(v, (int, float)):
                offset = max(0, int(v) - 1) * limit
            elif p.role == "cursor" and isinstance(v, str) and v:
                if not v.isdigit():
                    raise ToolError(f"invalid cursor {v!r}: pass the next_cursor of an earlier page")
                offset = int(v)
        return limit, offset

    def _update(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> Record:
        table = self.db[e.collection]
        self._check_refs(t, args)
        changes = {p.field: args[p.name] for p in t.params if p.role in ("field", "ref") and p.field and p.name in args}
        edits = [p for p in t.params if p.role in ("add", "remove") and p.field and args.get(p.name) is not None]
        keyed = any(p.role == "key" for p in t.params)
        fields = [p.name for p in t.params if p.role in ("field", "ref", "add", "remove")]
        if not fields and keyed:
            return self._select(t, e, args)
        if not changes and not edits:
            raise ToolError(f"nothing to update: give at least one of {', '.join(fields)}")
        if not keyed and len(table) == 0:
            return self._create(t, e, args)
        if not keyed and _sets_current(t):
            # `set_current_location(address)`, `switch_repository(repo_path)`: what is given is the new current
            # value, never a condition that finds the record to change (the current one, the latest)
            row = list(table)[-1]
        else:
            row = self._locate(t, e, args, derive=False)
        if "id" in changes:
            changes.pop("id")
        for p in edits:  # `addLabelIds` / `removeLabelIds`: the record's list with those values in or out
            given = args[p.name] if isinstance(args[p.name], list) else [args[p.name]]
            current = list(changes.get(p.field, row.get(p.field)) or [])
            changes[p.field] = current + [v for v in given if v not in current] if p.role == "add" else [v for v in current if v not in given]
        for p in t.params:  # a move or rename gives the record a key no other record holds
            if p.role == "key" and p.field in changes and changes[p.field] != row.get(p.field) and \
                    _find(table, [(p.name, p.field, changes[p.field])]) is not None:
                raise ToolError(f"a {e.entity.replace('_', ' ')} with {p.field} {changes[p.field]!r} already exists")
        if e.field("updated_at") is not None:
            changes["updated_at"] = self.now()
        return table.update(row["id"], **changes)

    def _select(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> Record:
        """`switch_dicom_node(node_name)`, `use_database(database)`, `browser_tab_select(index)`: the record
        named becomes the current one (`current: true`), the one that was stops being it; an unknown name is
        not found and changes nothing."""
        table = self.db[e.collection]
        row = self._locate(t, e, args, derive=False)
        for other in list(table):
            if other.get(CURRENT) and other["id"] != row["id"]:
                table.update(other["id"], **{CURRENT: False})
        changes: dict[str, Any] = {CURRENT: True}
        if e.field("updated_at") is not None:
            changes["updated_at"] = self.now()
        return table.update(row["id"], **changes)

    def _update_items(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> dict[str, Any]:
        """`calls_batch_update(inputs=[{id, properties: {...}}])`: each item names its record by its id and
        changes the fields it gives; an unknown id fails the whole call (nothing is half-applied)."""
        param = t.by_role("items")[0]
        table = self.db[e.collection]
        updated: list[Record] = []
        for item in args.get(param.name) or []:
            values = _item_values(item)
            row = table.get(str(values.get("id"))) if values.get("id") is not None else None
            if row is None:
                raise NotFoundError(f"no {e.entity.replace('_', ' ')} with id {values.get('id')!r}")
            changes = {k: v for k, v in values.items() if k != "id" and e.field(k) is not None}
            if e.field("updated_at") is not None:
                changes["updated_at"] = self.now()
            updated.append(table.update(row["id"], **changes))
        return {param.name: updated}

    def _transition(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> Record:
        table = self.db[e.collection]
        self._check_refs(t, args)
        row = self._locate(t, e, args, derive=False)
        changes = {p.field: args[p.name] for p in t.params if p.role in ("field",) and p.field and p.name in args}
        target = t.target_status or "done"
        sf = e.status_field or "status"
        if row.get(sf) == target and not any(row.get(k) != v for k, v in changes.items()):
            raise ToolError(f"{e.entity.replace('_', ' ')} {row['id']} is already {target}")
        changes[sf] = target
        changes.update(state_flags(e, target))
        if e.field("updated_at") is not None:
            changes["updated_at"] = self.now()
        return table.update(row["id"], **changes)

    def _transition_many(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any]) -> dict[str, Any]:
        """`calls_batch_archive(callIds)`: each record named moves to the state; those already in it stay
        as they are, and an id no record has is reported, not guessed."""
        key = next(p for p in t.params if p.role == "key")
        vals = args.get(key.name) or []
        moved, unchanged, missing = [], [], []
        for v in vals if isinstance(vals, list) else [vals]:
            row = _find(self.db[e.collection], [(key.name, key.field or "id", v)])
            if row is None:
                missing.append(v)
            elif row.get(e.status_field or "status") == (t.target_status or "done"):
                unchanged.append(row["id"])
            else:
                moved.append(self._transition(t, e, {**args, key.name: row[key.field or "id"]}))
        if not moved and not unchanged:
            raise NotFoundError(f"none of the given {key.name} exist")
        return {"items": moved, "unchanged": unchanged, "not_found": missing}

    def _batch(self, t: ToolPlan, e: EntityPlan, args: dict[str, Any], delete: bool) -> dict[str, Any]:
        key = next(p for p in t.params if p.role == "key")
        vals = args.get(key.name) or []
        found, missing = [], []
        table = self.db[e.collection]
        for v in vals if isinstance(vals, list) else [vals]:
            row = _find(table, [(key.name, key.field or "id", v)])
            if row is None:
                if e.world and not delete and key.field != "id":
                    found.append(self._derive(e, {key.field: v}))
                else:
                    missing.append(v)
                continue
            found.append(table.delete(row["id"]) if delete else row)
        if delete and not found:
            raise NotFoundError(f"none of the given {key.name} exist")
        return {("deleted" if delete else "items"): found, "not_found": missing}

    def _action(self, t: ToolPlan, args: dict[str, Any]) -> Record:
        shown = ", ".join(f"{k}={_short(v)}" for k, v in list(args.items())[:4])
        return self.db[ACTION_LOG].insert({"tool": t.original, "arguments": args, "status": "completed",
                                          "result": f"{t.original}({shown}) completed", "created_at": self.now()})


# -- helpers ----------------------------------------------------------------------------------

WEB_HITS = 5  # hits a web search answers at least

# The flags a state turns off: unpausing a DAG makes it active, so its `is_paused` is false.
FLAG_OPPOSITES: dict[str, frozenset[str]] = {
    "active": frozenset({"paused", "archived", "blocked", "suspended", "banned", "muted", "hidden", "disabled", "locked", "inactive"}),
    "paused": frozenset({"active", "running", "enabled"}), "running": frozenset({"paused", "stopped"}),
    "stopped": frozenset({"running", "active"}), "enabled": frozenset({"disabled"}), "disabled": frozenset({"enabled", "active"}),
    "locked": frozenset({"unlocked"}), "unlocked": frozenset({"locked"}), "published": frozenset({"draft", "unpublished"}),
    "draft": frozenset({"published", "live", "public"}), "open": frozenset({"closed"}), "closed": frozenset({"open"}),
    "archived": frozenset({"active"}), "unpinned": frozenset({"pinned"}), "unstarred": frozenset({"starred"}),
    "hidden": frozenset({"visible"}), "private": frozenset({"public", "shared"}), "shared": frozenset({"private"}),
}


def _in_order(e: EntityPlan, row: Record) -> None:
    """A session, a booking or a run ends after it starts: two dates drawn apart are put in order."""
    for start, end in time_pairs(tuple(f.name for f in e.fields)):
        a, b = row.get(start), row.get(end)
        if isinstance(a, str) and isinstance(b, str) and _ISO_DAY.match(a) and _ISO_DAY.match(b) and len(a) == len(b) and b < a:
            row[start], row[end] = b, a


def state_flags(e: EntityPlan, state: str) -> dict[str, bool]:
    """The boolean fields a record's new state decides: a flag named for the state (`paused`,
    `is_archived`) becomes true, one named for a state it ends (`is_paused` once active) false. A
    flag with other words (`only_active`, a filter kept on the record) says something else."""
    out: dict[str, bool] = {}
    for f in e.fields:
        if f.role != "data" or main_type(f.shape) != "boolean":
            continue
        named = [w for w in snake(f.name).split("_") if w and w not in ("is", "has", "currently")]
        if len(named) != 1:
            continue
        if named[0] == state:
            out[f.name] = True
        elif named[0] in FLAG_OPPOSITES.get(state, ()):
            out[f.name] = False
    return out

_START = frozenset({"start", "starts", "started", "begin", "begins", "began", "from", "since", "opened", "opens"})
_END = frozenset({"end", "ends", "ended", "finish", "finished", "stop", "stopped", "until", "to", "completed", "closed", "closes"})
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


@lru_cache(maxsize=4096)
def time_pairs(fields: tuple[str, ...]) -> list[tuple[str, str]]:
    """(start, end) field pairs that name the two ends of one span: `starts_at`/`ends_at`,
    `start_date`/`end_date`, `started_at`/`finished_at` (the same words but the start and end one)."""
    def split(name: str) -> tuple[frozenset[str], tuple[str, ...]]:
        ws = snake(name).split("_")
        return frozenset(ws), tuple(w for w in ws if w not in _START and w not in _END)

    out = []
    for a in fields:
        sa = split(a)
        if not sa[0] & _START:
            continue
        b = next((b for b in fields if b != a and split(b)[0] & _END and split(b)[1] == sa[1]), None)
        if b is not None:
            out.append((a, b))
    return out


KIND_FIELDS = ("asset_type", "file_type", "resource_type", "type", "kind")
# The extensions of the kinds of files the corpus's engines and editors name (Unity, Godot, Blender...).
EXTENSION_OF_KIND = {"material": "mat", "prefab": "prefab", "scene": "unity", "script": "cs", "texture": "png", "texture2d": "png",
                     "sprite": "png", "shader": "shader", "animation": "anim", "animationclip": "anim", "animatorcontroller": "controller",
                     "audioclip": "wav", "audio": "wav", "model": "fbx", "mesh": "fbx", "font": "ttf", "physicmaterial": "physicMaterial"}
_FILE_NAME = re.compile(r"\.(?:%s)$" % "|".join(sorted(set(EXTS) | set(EXT_MIME), key=len, reverse=True)))  # the extensions `world` draws for files of no known kind


def _in_bounds(t: ToolPlan, args: dict[str, Any], row: Record) -> bool:
    """Whether a record lies within the range bounds a listing was given (`created_after`, `start_date_gte`)."""
    return all(_in_range(row.get(p.field), args[p.name], p.role) for p in t.params
               if p.role in ("min", "max") and p.field and args.get(p.name) is not None)


# a tool that sets what is current (`set_current_location`, `switch_repository`, `set_active_project`)
_SETS_CURRENT = frozenset({"current", "active"})
CURRENT = "current"  # the field that marks the record a selecting call made the current one


def _sets_current(t: ToolPlan) -> bool:
    ws = snake(t.original).split("_")
    return ws[0] in ("set", "switch", "change", "select") and (ws[0] == "switch" or bool(_SETS_CURRENT & set(ws)))


def _unwrapped(t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments with an envelope's fields lifted to the top (`params={name, type}` gives `name`
    and `type`), as the plan names them; an argument given at the top wins."""
    inner = [p for p in t.params if p.within is not None]
    if not inner:
        return args
    out = {k: v for k, v in args.items() if k not in {p.within for p in inner}}
    for p in inner:
        box = args.get(p.within)  # type: ignore[arg-type]
        if isinstance(box, dict) and p.name in box and p.name not in out:
            out[p.name] = box[p.name]
    return out


def _item_values(item: Any) -> dict[str, Any]:
    """A batch item's values by field name (`entityType` -> `entity_type`), those an envelope inside it
    holds (`{properties: {hs_call_title: ...}}`) included."""
    if not isinstance(item, dict):
        return {}
    out = {snake(k): v for k, v in item.items() if not (k in ITEM_ENVELOPES and isinstance(v, dict))}
    for box in ITEM_ENVELOPES:
        if isinstance(item.get(box), dict):
            out = {**{snake(k): v for k, v in item[box].items()}, **out}
    return out


def _world(seed: int) -> Any:
    from compoworld.services.fake import world

    return world(seed, 1.0)


def _short(v: Any) -> str:
    s = v if isinstance(v, str) else canonical_bytes(v).decode()
    return s if len(s) <= 40 else s[:37] + "..."


def _enum_of(shape: dict[str, Any]) -> list[Any]:
    items = shape.get("items") if isinstance(shape.get("items"), dict) else {}
    enum = shape.get("enum") or items.get("enum") or []
    return [v for v in enum if v is not None] if isinstance(enum, list) else []


def _may_hold(shape: dict[str, Any], v: Any) -> bool:
    """Whether a record field of this shape may hold `v` (every field may also be empty)."""
    return fits(nullable(shape), v)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a == b or a.casefold() == b.casefold()
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, str) or isinstance(a, str) and isinstance(b, (int, float)):
        return str(a) == str(b)
    return a == b


# What a new record's own values say of the fields no argument gave: a folder made at `/docs/new` is
# called `new` and holds nothing yet, and it was modified when it was made. The archetype's `name`
# of a record no tool names otherwise is its key, its title or its kind and number ("Track 3").
_PATH_FIELDS = ("path", "file_path", "filepath", "filename", "file_name", "url", "uri")
_TITLE_FIELDS = ("title", "name", "label", "subject", "display_name")
_MODIFIED_FIELDS = frozenset({"modified_at", "modified", "last_modified", "last_modified_at", "modified_time", "mtime", "created_at",
                              "updated_at", "last_updated", "last_updated_at"})


def _derived(e: EntityPlan, table: Table, row: Record, now: str) -> Record:
    for f in e.fields:
        if row.get(f.name) is not None or f.role in ("id", "key", "ref", "status"):
            continue
        if f.name in ("name", "title") and (f.role == "title" or f.sem == "title"):
            name = _natural_name(e, table, row, f.name)
            row[f.name] = name if _may_hold(f.shape, name) else None  # Notion's `title` is rich text, not a string
        elif main_type(f.shape) == "integer" and (f.name.endswith("_count") or f.name.startswith(("num_", "number_of_"))):
            row[f.name] = 0
        elif f.name in _MODIFIED_FIELDS and f.sem in ("datetime", None) and main_type(f.shape) in ("string", None):
            row[f.name] = now
    return row


def _natural_name(e: EntityPlan, table: Table, row: Record, own: str) -> str:
    for name in _PATH_FIELDS:
        v = row.get(name)
        if isinstance(v, str) and v.strip("/ "):
            return v.rstrip("/").rsplit("/", 1)[-1]
    for name in _TITLE_FIELDS:
        v = row.get(name)
        if name != own and isinstance(v, str) and v.strip():
            return v
    key = next((row[f.name] for f in e.fields if f.role == "key" and isinstance(row.get(f.name), str) and row[f.name].strip()), None)
    if key is not None:
        return key
    return f"{e.entity.replace('_', ' ').capitalize()} {table.seq}"


def _find(table: Table, conds: list[tuple[str, str, Any]]) -> Record | None:
    for _, f, v in conds:
        if f == "id":
            row = table.get(str(v))
            if row is None:
                return None
            return row if all(_equal(row.get(ff), vv) for _, ff, vv in conds) else None
    for row in table:
        if all(_equal(row.get(f), v) for _, f, v in conds):
            return row
    return None


# fields whose value names one thing: a filter on them is equality (ESG ratings of "V" are Visa's, not NVDA's)
CODE_FIELDS = frozenset({"symbol", "ticker", "isin", "cusip", "currency", "currency_code"})


def _names_one(field: str) -> bool:
    return field in CODE_FIELDS or field.endswith("_id")


def matches(value: Any, wanted: Any, exact: bool = False) -> bool:
    """List filter semantics: text contains (case-insensitive; equals with `exact`), numbers/booleans
    equal, lists overlap."""
    if value is None:
        return False
    if isinstance(wanted, list):
        if isinstance(value, list):
            return any(any(matches(v, w, exact) for v in value) for w in wanted)
        return any(matches(value, w, exact) for w in wanted)
    if isinstance(value, list):
        return any(matches(v, wanted, exact) for v in value)
    if isinstance(value, str) and isinstance(wanted, str) and not exact:
        return wanted.casefold() in value.casefold()
    return _equal(value, wanted)


def _in_range(value: Any, bound: Any, role: str) -> bool:
    if value is None or isinstance(value, bool) or isinstance(bound, bool):
        return False
    try:
        if isinstance(value, (int, float)) and isinstance(bound, (int, float)):
            return value >= bound if role == "min" else value <= bound
        if isinstance(value, str) and isinstance(bound, str):
            return value >= bound if role == "min" else value[: len(bound)] <= bound
    except TypeError:
        return False
    return False


_WORD = re.compile(r"[a-z0-9]+")


def text_of(row: Record) -> str:
    parts = []
    for k, v in row.items():
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, list):
            parts.extend(x for x in v if isinstance(x, str))
    return " ".join(parts).casefold()


def search(rows: list[Record], query: str) -> list[Record]:
    """The records a free-text search finds, as mail and issue trackers search: those holding the whole
    query when some do ("Quote for Quarry Capital" is not "Quote for Quarry Pharma"), else those holding
    every word of it, else those holding any word, the most words first."""
    q = " ".join(query.casefold().split())
    texts = [(text_of(r), r) for r in rows]  # each record's text once, for all three tries
    phrase = [r for t, r in texts if q in " ".join(t.split())]
    if phrase:
        return phrase
    terms = list(dict.fromkeys(_WORD.findall(q))) or [q]
    every = [r for t, r in texts if all(term in t for term in terms)]
    if every:
        return every
    words_of_query = list(dict.fromkeys(_WORD.findall(query.casefold()) or [query.casefold()]))
    scored = [(sum(1 for term in words_of_query if term in t), r) for t, r in texts]
    return [r for s, r in sorted(scored, key=lambda x: -x[0]) if s > 0]


def _sort_key(v: Any) -> Any:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v, "")
    return (1, 0, canonical_bytes(v).decode() if not isinstance(v, str) else v)


def _descending(t: ToolPlan, args: dict[str, Any]) -> bool:
    for p in t.params:
        if p.role == "order" and p.name in args:
            v = args[p.name]
            if isinstance(v, str):
                return v.lower().startswith("desc")
            if isinstance(v, bool):
                return v if p.name.lower().startswith("desc") else not v
    return False


_NAMING_WORDS = ("name", "title", "username", "login", "handle", "email", "slug")


def ref_field(parent: EntityPlan, name: str) -> str:
    """The field of the referenced record that a reference named `name` holds: its own (`customer_email`
    when the customer has one), the one its last word names (`author_name` is the author's `name`, not
    an id), else the record's id."""
    own = parent.field(name)
    if own is not None and own.role != "ref":
        return name
    last = name.rsplit("_", 1)[-1]
    if last in _NAMING_WORDS and name != last and parent.field(last) is not None:
        return last
    return "id"


def _parents_first(ents: list[EntityPlan]) -> list[EntityPlan]:
    by_entity = {e.entity: e for e in ents}
    out: list[EntityPlan] = []
    state: dict[str, int] = {}

    def visit(e: EntityPlan) -> None:
        if state.get(e.entity) == 2 or state.get(e.entity) == 1:
            return
        state[e.entity] = 1
        for f in e.fields:
            if f.role == "ref" and f.ref in by_entity:
                visit(by_entity[f.ref])
        state[e.entity] = 2
        out.append(e)

    for e in ents:
        visit(e)
    return out


def make_method(name: str) -> Callable[..., Any]:
    def method(*pos: Any, **kwargs: Any) -> Any:  # `self` arrives positionally so a parameter may be named anything
        return pos[0].run_tool(name, kwargs)

    method.__name__ = f"tool_{name}"
    return method


def make_validator(schema: dict[str, Any]) -> Callable[[Any], dict[str, Any]]:
    cell: list[Callable[[Any], Any]] = []

    def validate(arguments: Any) -> dict[str, Any]:
        if not isinstance(arguments, dict):
            raise ArgumentError(f"the arguments must be a JSON object of named arguments (got {type_in_words(arguments)})")
        if not cell:
            cell.append(compile_validator(schema))  # compiled on first use: loading a cached service compiles nothing
        try:
            cell[0](arguments)
        except InvalidValue as exc:
            raise ArgumentError(exc.message("argument")) from None
        return arguments

    return validate


def make_output_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    cell: list[Callable[[Any], Any]] = []

    def validate(value: Any) -> Any:
        if not cell:
            cell.append(compile_validator(schema))
        try:
            cell[0](value)
        except InvalidValue as exc:
            raise ToolError(f"the tool's output does not match its output schema: {exc.message('field')}") from None
        return value

    return validate


def tool_spec(t: ToolPlan) -> ToolSpec:
    return ToolSpec(
        name=t.name, description=t.description, input_schema=t.input_schema, output_schema=t.output_schema,
        read_only=t.read_only, destructive=t.destructive, idempotent=t.idempotent, kind=t.kind,  # type: ignore[arg-type]
        validate=make_validator(t.input_schema), method=f"tool_{t.name}", output_validate=make_output_validator(t.output_schema),
    )

