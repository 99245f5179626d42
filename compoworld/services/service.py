"""The service runtime: typed state held in journaled tables, tools, and seeded initial data."""

from __future__ import annotations

import random
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Iterator, Mapping, NamedTuple

from pydantic import BaseModel, ConfigDict, TypeAdapter, create_model

from compoworld.canonical import format_timestamp
from compoworld.services.clock import Clock
from compoworld.services.tool import NotFoundError, ToolError, ToolSpec, spec_from_function, tool_meta

if TYPE_CHECKING:
    from compoworld.services.fake import DataGen

Record = dict[str, Any]
_MISSING = object()


class Journal:
    """Undo log of one step: every table write appends here so a failed call can be rolled back."""

    __slots__ = ("entries", "changes")

    def __init__(self) -> None:
        self.entries: list[tuple[Table, str, Any, int]] = []
        self.changes = 0  # bumped whenever a table of the environment may change: its state snapshot is stale

    def rollback(self) -> None:
        for table, key, old, seq in reversed(self.entries):
            rows = table.owned()
            if old is _MISSING:
                rows.pop(key, None)
            else:
                rows[key] = old
            table.seq = seq
            table.version += 1
            table._index.clear()
        self.entries.clear()


class Table:
    """One collection of records keyed by `id`. Records are never mutated in place (copy on write),
    so an undo is a pointer swap. The `rows` dict itself is copied on write too: a snapshot shares it
    (`snapshot`), and the first write after that works on a copy, so a snapshot is free and stays as taken."""

    __slots__ = ("name", "entity", "prefix", "rows", "_shared", "pristine", "_seq", "journal", "version", "_orders", "_index")

    def __init__(self, name: str, entity: str, prefix: str, rows: dict[str, Record], journal: Journal,
                 shared: bool = False) -> None:
        self.name = name
        self.entity = entity
        self.prefix = prefix
        self.rows = rows
        self._shared = shared  # `rows` is also held elsewhere (a snapshot, a loaded state): copy before writing
        self.pristine = True  # nothing changed since it was made: only caches of `rows` were added
        self.journal = journal
        self._seq = 0  # 0 = not yet known: found from the ids on first use (most tables are only read)
        self.version = 0  # bumped on every write and undo: invalidates cached orderings
        self._orders: dict[tuple[tuple[str, ...], bool], tuple[int, list[Record]]] = {}
        self._index: dict[str, dict[Any, dict[str, Record]]] = {}  # field -> value -> records, in table order

    @property
    def seq(self) -> int:
        """The next id number this table will hand out."""
        if not self._seq:
            find = lambda: _next_seq(self.prefix, self.rows)  # noqa: E731
            self._seq = derived(self.rows, ("seq", self.prefix), find) if self._shared else find()
        return self._seq

    @seq.setter
    def seq(self, value: int) -> None:
        self._seq = value
        self.pristine = False

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.rows.values())

    def get(self, key: str) -> Record | None:
        return self.rows.get(key)

    def require(self, key: str) -> Record:
        row = self.rows.get(key)
        if row is None:
            raise NotFoundError(f"no {self.entity} with id '{key}'")
        return row

    def find(self, **equals: Any) -> list[Record]:
        """Records whose fields equal these values, in table order. The first field is answered
        from a hash index kept up to date by writes, so lookups by email or foreign key stay O(1)."""
        (k, v), *rest = equals.items()
        hits = self._index_of(k).get(v)
        if not hits:
            return []
        if not rest:
            return list(hits.values())
        return [r for r in hits.values() if all(r.get(f) == x for f, x in rest)]

    def first(self, **equals: Any) -> Record | None:
        found = self.find(**equals)
        return found[0] if found else None

    def _index_of(self, field: str) -> dict[Any, dict[str, Record]]:
        idx = self._index.get(field)
        if idx is None:
            idx = {}
            for key, row in self.rows.items():
                value = row.get(field)
                try:
                    idx.setdefault(value, {})[key] = row
                except TypeError:  # unhashable values (lists) are not indexable: fall back to a scan
                    idx = None
                    break
            if idx is None:
                return _ScanIndex(self, field)
            self._index[field] = idx
        return idx

    def where(self, pred: Callable[[Record], bool]) -> list[Record]:
        return [r for r in self.rows.values() if pred(r)]

    def ordered(self, fields: tuple[str, ...], reverse: bool = False) -> list[Record]:
        """All records sorted by these fields (stable), cached until the table changes: list tools
        filter this instead of sorting their matches on every call. Do not mutate the list."""
        key = (fields, reverse)
        hit = self._orders.get(key)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        sort = lambda: sorted(self.rows.values(), key=itemgetter(*fields), reverse=reverse)  # noqa: E731
        # Rows no one writes: the environments of one world sort them once (see `derived`).
        rows = derived(self.rows, ("ordered", key), sort) if self._shared else sort()
        self._orders[key] = (self.version, rows)
        return rows

    def new_id(self) -> str:
        return f"{self.prefix}_{self.seq:04d}"

    def snapshot(self) -> dict[str, Record]:
        """The rows as they are now, shared with this table: its next write copies them first."""
        self._shared = True
        return self.rows

    def owned(self) -> dict[str, Record]:
        """The rows, safe to change in place: copied first while a snapshot shares them."""
        if self._shared:
            self.rows = dict(self.rows)
            self._shared = False
        self.pristine = False
        self.journal.changes += 1
        return self.rows

    def _write(self, key: str, value: Any) -> None:
        old = self.rows.get(key, _MISSING)
        # An update keeps the ids, so the next id number, when not known yet (0), may stay so: it
        # follows from the same ids whenever it is needed (finding it scans every id of the table).
        # Found before `owned` copies the rows: shared rows know it already (see `seq`).
        seq = self._seq if old is not _MISSING and value is not _MISSING else self.seq
        rows = self.owned()
        self.journal.entries.append((self, key, old, seq))
        self.version += 1
        if value is _MISSING:
            del rows[key]
        else:
            rows[key] = value
        if self._index:
            self._reindex(key, old, value)

    def _reindex(self, key: str, old: Any, new: Any) -> None:
        """Keep indexes in table order: inserts append, deletes remove, an update in place stays in its
        bucket; an update that moves a record to another bucket drops that index (rebuilt on demand)."""
        for field, idx in list(self._index.items()):
            before = old.get(field) if old is not _MISSING else _MISSING
            after = new.get(field) if new is not _MISSING else _MISSING
            if old is not _MISSING and new is not _MISSING and before != after:
                del self._index[field]
            elif new is _MISSING:
                idx.get(before, {}).pop(key, None)
            else:
                idx.setdefault(after, {})[key] = new

    def insert(self, record: Record) -> Record:
        """Insert a record, assigning the next id from this table's sequence unless one is given."""
        key = record.get("id") or self.new_id()
        if key in self.rows:
            raise ToolError(f"{self.entity} '{key}' already exists")
        row = {"id": key, **{k: v for k, v in record.items() if k != "id"}}
        self._write(key, row)
        self.seq = max(self.seq + 1, _seq_of(self.prefix, key) + 1)
        return row

    def place(self, record: Record) -> Record:
        """Put a record into the world outside any tool call (a task designer's plant): not journaled,
        but caches are invalidated like for any write."""
        seq = self.seq  # before `owned` copies the rows: shared rows know it already (see `seq`)
        self.owned()[record["id"]] = record
        self.seq = max(seq, _seq_of(self.prefix, record["id"]) + 1)
        self.version += 1
        self._index.clear()
        return record

    def update(self, key: str, **changes: Any) -> Record:
        row = {**self.require(key), **changes}
        self._write(key, row)
        return row

    def delete(self, key: str) -> Record:
        row = self.require(key)
        self._write(key, _MISSING)
        return row


def _seq_of(prefix: str, key: str) -> int:
    head, _, tail = key.rpartition("_")
    return int(tail) if head == prefix and tail.isdigit() else 0


def _next_seq(prefix: str, rows: dict[str, Record]) -> int:
    """One more than the largest `_seq_of` the ids give (inlined: it runs over every id of a table)."""
    head = prefix + "_"
    n = len(head)
    return max((int(k[n:]) for k in rows if k.startswith(head) and k[n:].isdigit()), default=0) + 1


_DERIVED: dict[tuple[Any, ...], tuple[Mapping[str, Record], Any]] = {}


def derived(rows: Mapping[str, Record], what: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """`make()`, a value that follows from rows a snapshot shares (the seeded world every environment of
    a task loads; a state's collections), kept by the rows' identity: such a dict never changes (a
    table copies it before writing), so the next id, a sorted order or a digest is found once for all
    the environments and states that hold it. `what` names the value. The entry holds the dict, so its
    id is not reused while it is cached."""
    key = (id(rows), *what)
    hit = _DERIVED.get(key)
    if hit is not None and hit[0] is rows:
        return hit[1]
    value = make()
    if len(_DERIVED) > 8192:
        _DERIVED.clear()
    _DERIVED[key] = (rows, value)
    return value


class _ScanIndex(dict):
    """Stands in for an index on a field with unhashable values: answers by scanning."""

    def __init__(self, table: Table, field: str) -> None:
        super().__init__()
        self.table, self.field = table, field

    def get(self, value: Any, default: Any = None) -> Any:
        hits = {k: r for k, r in self.table.rows.items() if r.get(self.field) == value}
        return hits or default


_timestamp = lru_cache(maxsize=4096)(format_timestamp)  # the text of a clock instant (see `Service.now`)


class Context:
    """What a service sees of its environment: the seeded clock and the current step's journal."""

    __slots__ = ("clock", "journal", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.clock = Clock(seed)
        self.journal = Journal()


class Collection(NamedTuple):
    """The one declaration of a collection of a service's state: the type of its records (a
    TypedDict), the entity a record is (in messages and semantic types: `crm.company_id`) and the
    prefix of the ids its table hands out (`co_0001`)."""

    record: Any
    entity: str
    prefix: str


class _StateModel:
    """`cls.State`: the pydantic model of a service's state (`{collection: {id: record}}`), built from
    `tables` on first use and kept on the class: most environments never validate a given state."""

    def __get__(self, obj: Any, owner: type[Service]) -> type[BaseModel]:
        model = owner.__dict__.get("_state_model")
        if model is None:
            fields: dict[str, Any] = {coll: (dict[str, c.record], {}) for coll, c in owner.tables.items()}
            # collection names of compiled services may start with `model_`: no namespace is reserved
            model = create_model(f"{owner.__name__}State", __config__=ConfigDict(protected_namespaces=()), **fields)
            setattr(owner, "_state_model", model)
        return model


class Service:
    """A service: collections of typed records, tools, and a data generator.

    Subclasses set `name`, `domain`, `description` and `tables` (collection -> `Collection`), declare
    tools with `@tool`, and implement `generate` for seeded initial data. The pydantic `State` model
    is derived from `tables`.
    """

    name: ClassVar[str]
    version: ClassVar[str] = "1.0"
    domain: ClassVar[str] = "operations"
    description: ClassVar[str] = ""
    origin: ClassVar[str] = "library"
    tables: ClassVar[dict[str, Collection]] = {}
    State: ClassVar[_StateModel] = _StateModel()
    _specs: ClassVar[dict[str, ToolSpec]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # attributes as stored, not through descriptors: finding tools must not build `State` or load a plan
        namespace: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            namespace.update(vars(klass))
        specs: dict[str, ToolSpec] = {}
        for attr, fn in sorted(namespace.items()):
            meta = tool_meta(fn) if callable(fn) else None
            if meta is not None:
                specs[attr] = spec_from_function(fn, meta)
        cls._specs = specs

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.db: dict[str, Table] = {}

    # -- what a service is ----------------------------------------------------------------------
    @classmethod
    def tool_specs(cls) -> dict[str, ToolSpec]:
        return cls._specs

    def specs(self) -> dict[str, ToolSpec]:
        """The tools of this instance (compiled services may vary per instance)."""
        return self._specs

    @classmethod
    def info(cls) -> dict[str, Any]:
        specs = cls.tool_specs()
        return {
            "name": cls.name,
            "version": cls.version,
            "origin": cls.origin,
            "domain": cls.domain,
            "description": cls.description,
            "n_tools": len(specs),
            "n_world_model": sum(s.kind == "world_model" for s in specs.values()),
        }

    # -- state ----------------------------------------------------------------------------------
    def load(self, data: dict[str, dict[str, Record]]) -> None:
        """Install a state (collection -> id -> record). Records are shared, never copied: they are
        immutable; so are the collections' dicts, until a write copies them (see `Table`). A table
        made from the very dict given and unchanged since is kept, with its indexes: it is the table
        loading that dict again would make (rewinding to a snapshot mostly finds such tables)."""
        old, self.db = self.db, {}
        self.ctx.journal.changes += 1
        for coll, c in self.tables.items():
            rows = data.get(coll)
            table = old.get(coll)
            if table is None or table.rows is not rows or not table.pristine:
                shared = type(rows) is dict
                table = Table(coll, c.entity, c.prefix, rows if shared else dict(rows or {}), self.ctx.journal, shared)
            self.db[coll] = table

    def dump(self) -> dict[str, dict[str, Record]]:
        """The state (collection -> id -> record): snapshots that later writes leave as they are."""
        return {coll: t.snapshot() for coll, t in self.db.items()}

    @classmethod
    def validate_state(cls, data: dict[str, Any]) -> dict[str, dict[str, Record]]:
        """Check a state against the pydantic state model; returns plain records keyed by id."""
        model = cls.State.model_validate(data)
        dumped = model.model_dump(mode="json")
        return {coll: {str(k): v for k, v in dumped.get(coll, {}).items()} for coll in cls.tables}

    @classmethod
    def validate_record(cls, coll: str, record: Record) -> None:
        """Check one record of a collection against the state model (raises pydantic's ValidationError):
        what `validate_state` would say of it, without validating the rest of the state."""
        _collection_adapter(cls, coll).validate_python({str(record.get("id")): record})

    def generate(self, gen: DataGen) -> dict[str, Iterable[Record]]:
        """Seeded initial records per collection; ids may be omitted (the table assigns them)."""
        return {}

    def examples(self, sem: str, rng: random.Random) -> list[Any]:
        """Valid values of one of the service's own semantic types that records do not hold (a SQL
        statement over its tables): what argument samplers pass. None by default."""
        return []

    def table(self, name: str) -> Table:
        return self.db[name]

    def now(self) -> str:
        """`ctx.clock.now()`, formatted once per instant: replays of a plan stamp the same instants again."""
        return _timestamp(self.ctx.clock.datetime())

    def today(self) -> str:
        return self.ctx.clock.today()


@lru_cache(maxsize=None)
def _collection_adapter(cls: type[Service], coll: str) -> TypeAdapter[Any]:
    """The validator of one collection of a service's state model (id -> record)."""
    return TypeAdapter(cls.State.model_fields[coll].annotation)
