"""The service runtime: typed state held in journaled tables, tools, and seeded initial data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Iterator

from pydantic import BaseModel

from compoworld.services.clock import Clock
from compoworld.services.tool import NotFoundError, ToolError, ToolSpec, spec_from_function, tool_meta

if TYPE_CHECKING:
    from compoworld.services.fake import DataGen

Record = dict[str, Any]
_MISSING = object()


class Journal:
    """Undo log of one step: every table write appends here so a failed call can be rolled back."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[tuple[Table, str, Any, int]] = []

    def rollback(self) -> None:
        for table, key, old, seq in reversed(self.entries):
            if old is _MISSING:
                table.rows.pop(key, None)
            else:
                table.rows[key] = old
            table.seq = seq
        self.entries.clear()


class Table:
    """One collection of records keyed by `id`. Records are never mutated in place (copy on write),
    so a snapshot is a shallow copy and an undo is a pointer swap."""

    __slots__ = ("name", "entity", "prefix", "rows", "seq", "journal")

    def __init__(self, name: str, entity: str, prefix: str, rows: dict[str, Record], journal: Journal) -> None:
        self.name = name
        self.entity = entity
        self.prefix = prefix
        self.rows = rows
        self.journal = journal
        self.seq = _next_seq(prefix, rows)

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
        if len(equals) == 1:  # the common case, kept free of per-row generator overhead
            (k, v), = equals.items()
            return [r for r in self.rows.values() if r.get(k) == v]
        items = equals.items()
        return [r for r in self.rows.values() if all(r.get(k) == v for k, v in items)]

    def first(self, **equals: Any) -> Record | None:
        if len(equals) == 1:
            (k, v), = equals.items()
            for r in self.rows.values():
                if r.get(k) == v:
                    return r
            return None
        items = equals.items()
        return next((r for r in self.rows.values() if all(r.get(k) == v for k, v in items)), None)

    def where(self, pred: Callable[[Record], bool]) -> list[Record]:
        return [r for r in self.rows.values() if pred(r)]

    def new_id(self) -> str:
        return f"{self.prefix}_{self.seq:04d}"

    def _write(self, key: str, value: Any) -> None:
        self.journal.entries.append((self, key, self.rows.get(key, _MISSING), self.seq))
        if value is _MISSING:
            del self.rows[key]
        else:
            self.rows[key] = value

    def insert(self, record: Record) -> Record:
        """Insert a record, assigning the next id from this table's sequence unless one is given."""
        key = record.get("id") or self.new_id()
        if key in self.rows:
            raise ToolError(f"{self.entity} '{key}' already exists")
        row = {"id": key, **{k: v for k, v in record.items() if k != "id"}}
        self._write(key, row)
        self.seq = max(self.seq + 1, _seq_of(self.prefix, key) + 1)
        return row

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
    return max((_seq_of(prefix, k) for k in rows), default=0) + 1


class Context:
    """What a service sees of its environment: the seeded clock and the current step's journal."""

    __slots__ = ("clock", "journal", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.clock = Clock(seed)
        self.journal = Journal()


class Service:
    """A service: a pydantic state model (collections of typed records), tools, and a data generator.

    Subclasses set `name`, `domain`, `description`, `State` and `tables` (collection -> (entity, id
    prefix)), declare tools with `@tool`, and implement `generate` for seeded initial data.
    """

    name: ClassVar[str]
    version: ClassVar[str] = "1.0"
    domain: ClassVar[str] = "operations"
    description: ClassVar[str] = ""
    origin: ClassVar[str] = "library"
    State: ClassVar[type[BaseModel]]
    tables: ClassVar[dict[str, tuple[str, str]]] = {}
    _specs: ClassVar[dict[str, ToolSpec]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs: dict[str, ToolSpec] = {}
        for attr in dir(cls):
            fn = getattr(cls, attr, None)
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
        """Install a state (collection -> id -> record). Records are shared, never copied: they are immutable."""
        self.db = {
            coll: Table(coll, entity, prefix, dict(data.get(coll, {})), self.ctx.journal)
            for coll, (entity, prefix) in self.tables.items()
        }

    def dump(self) -> dict[str, dict[str, Record]]:
        return {coll: dict(t.rows) for coll, t in self.db.items()}

    @classmethod
    def validate_state(cls, data: dict[str, Any]) -> dict[str, dict[str, Record]]:
        """Check a state against the pydantic state model; returns plain records keyed by id."""
        model = cls.State.model_validate(data)
        dumped = model.model_dump(mode="json")
        return {coll: {str(k): v for k, v in dumped.get(coll, {}).items()} for coll in cls.tables}

    def generate(self, gen: DataGen) -> dict[str, Iterable[Record]]:
        """Seeded initial records per collection; ids may be omitted (the table assigns them)."""
        return {}

    def table(self, name: str) -> Table:
        return self.db[name]

    def now(self) -> str:
        return self.ctx.clock.now()

    def today(self) -> str:
        return self.ctx.clock.today()
