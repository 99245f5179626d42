"""The product environment: several services composed with namespaced tools and a joint state.

`step` is the one path every agent, test and benchmark uses: parse -> look up -> validate ->
dispatch -> serialize. It never raises, and a failed call is rolled back through the step journal,
so the state is exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Literal, Mapping, Sequence

import orjson

from compoworld.canonical import canonical_bytes, content_hash
from compoworld.services.fake import DataGen
from compoworld.services.service import Context, Record, Service, derived
from compoworld.services.tool import ArgumentError, ToolError, ToolSpec

SEP = "__"
State = dict[str, dict[str, dict[str, Record]]]
# What an agent is given: every namespaced tool (`direct`), or four meta-tools that discover and
# call them (`gateway`, see `compoworld.services.gateway`).
DiscoverMode = Literal["direct", "gateway"]
DISCOVER_MODES: tuple[DiscoverMode, ...] = ("direct", "gateway")


@dataclass(slots=True)
class Observation:
    """What the agent sees after a call. `content` is the JSON text put in the tool message."""

    tool: str
    ok: bool
    content: str
    data: Any = None
    error: str | None = None
    error_kind: str | None = None
    simulated: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "ok": self.ok,
            "content": self.content,
            "error": self.error,
            "error_kind": self.error_kind,
            "simulated": self.simulated,
        }


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    id: str = ""

    def as_openai(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": orjson.dumps(self.arguments).decode()},
        }


class CallFormatError(Exception):
    pass


def parse_call(call: Any) -> tuple[str, Any]:
    """Accept a ToolCall, `{"name", "arguments"}` or an OpenAI `{"function": {...}}` tool call."""
    if isinstance(call, ToolCall):
        return call.name, call.arguments
    # `type(...) is dict` first: the common case, without the slower Mapping ABC check
    if type(call) is not dict and not isinstance(call, Mapping):
        raise CallFormatError("a tool call must be an object with 'name' and 'arguments'")
    fn = call.get("function", call)
    if type(fn) is not dict and not isinstance(fn, Mapping):
        raise CallFormatError("'function' must be an object with 'name' and 'arguments'")
    name = fn.get("name")
    if not isinstance(name, str) or not name:
        raise CallFormatError("the tool call has no tool name")
    args = fn.get("arguments", {})
    if args is None or args == "":
        args = {}
    if isinstance(args, (str, bytes)):
        try:
            args = orjson.loads(args)
        except orjson.JSONDecodeError as exc:
            raise CallFormatError(f"arguments of {name} are not valid JSON: {exc}") from None
    return name, args


_INITIAL_CACHE: dict[tuple[str, str, int, float], dict[str, dict[str, Record]]] = {}


def generated_state(cls: type[Service], seed: int, scale: float = 1.0) -> dict[str, dict[str, Record]]:
    """The seeded initial state of one service (memoized: records are immutable, so it is shared)."""
    key = (cls.name, cls.version, seed, scale)
    cached = _INITIAL_CACHE.get(key)
    if cached is None:
        ctx = Context(seed)
        svc = cls(ctx)
        svc.load({})
        gen = DataGen(seed, cls.name, ctx.clock.datetime(), scale)
        for coll, rows in svc.generate(gen).items():
            table = svc.db[coll]
            for row in rows:
                table.insert(row)
        ctx.journal.entries.clear()
        cached = svc.dump()
        if len(_INITIAL_CACHE) > 4096:
            _INITIAL_CACHE.clear()
        _INITIAL_CACHE[key] = cached
    return cached


# Kept importable for callers outside services/ until they import `compoworld.canonical` directly.
canonical_json = canonical_bytes


def state_hash(state: State) -> str:
    """A SHA-256 of a snapshot (`Environment.state`): of the canonical JSON of service -> collection ->
    the SHA-256 of that collection's canonical JSON. Equal states, equal hashes; and hashing a state
    costs only the collections not hashed before (the probe hashes two states per task, and most of
    their collections are the seeded world's). The state's collections must not change afterwards."""
    return content_hash({svc: {coll: derived(rows, ("digest",), lambda rows=rows: content_hash(rows, 64)) for coll, rows in colls.items()}
                         for svc, colls in state.items()}, 64)


def diff_states(before: State, after: State) -> list[dict[str, Any]]:
    """Structural diff: one entry per added, removed or changed record, with the changed fields."""
    changes: list[dict[str, Any]] = []
    for svc in sorted(set(before) | set(after)):
        b_svc, a_svc = before.get(svc, {}), after.get(svc, {})
        for coll in sorted(set(b_svc) | set(a_svc)):
            b, a = b_svc.get(coll, {}), a_svc.get(coll, {})
            if b is a:
                continue
            for key in sorted(set(b) | set(a)):
                old, new = b.get(key), a.get(key)
                if old is new or old == new:
                    continue
                entry: dict[str, Any] = {"service": svc, "collection": coll, "id": key}
                if old is None:
                    entry.update(op="added", record=new)
                elif new is None:
                    entry.update(op="removed", record=old)
                else:
                    fields = {f: [old.get(f), new.get(f)] for f in sorted(set(old) | set(new)) if old.get(f) != new.get(f)}
                    entry.update(op="changed", fields=fields)
                changes.append(entry)
    return changes


class Environment:
    """Compose services into one environment with namespaced tools (`crm__find_companies`)."""

    discover_mode: ClassVar[DiscoverMode] = "direct"  # every tool is offered; `Gateway` wraps it for "gateway"

    def __init__(self, services: Sequence[type[Service]], seed: int = 0, scale: float = 1.0,
                 initial_state: Mapping[str, Any] | None = None) -> None:
        names = [s.name for s in services]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate services in {names}")
        self.service_classes = {s.name: s for s in services}
        self.scale = scale
        self.seed = seed
        self.ctx = Context(seed)
        self.services: dict[str, Service] = {}
        self._tools: dict[str, tuple[Service, ToolSpec, Any]] = {}
        self._catalog_openai: list[dict[str, Any]] | None = None
        self.reset(seed, initial_state)

    # -- lifecycle ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, initial_state: Mapping[str, Any] | None = None) -> None:
        """Start over: seeded data for every service, or the given state for the services it names."""
        self.seed = self.seed if seed is None else seed
        self.ctx = Context(self.seed)
        self._state: tuple[int, State] | None = None  # (journal.changes when taken, the snapshot): see `state`
        self.services = {}
        self._tools = {}
        given = dict(initial_state or {})
        unknown = set(given) - set(self.service_classes)
        if unknown:
            raise ValueError(f"initial state names services not in this environment: {sorted(unknown)}")
        for name, cls in self.service_classes.items():
            svc = cls(self.ctx)
            if name in given:
                svc.load(_validated(cls, _keyed(given[name]), generated_state(cls, self.seed, self.scale)))
            else:
                svc.load(generated_state(cls, self.seed, self.scale))
            self.services[name] = svc
            for tname, spec in svc.specs().items():
                self._tools[f"{name}{SEP}{tname}"] = (svc, spec, getattr(svc, spec.method))

    def step(self, call: Any) -> Observation:
        """Run one tool call. Never raises; a failed call changes nothing. The clock ticks once per call
        that reaches a tool: a call naming no tool or with arguments its schema refuses never ran, so no
        time passes (a gateway agent's discovery slips leave the times its later writes stamp as they were)."""
        try:
            name, args = parse_call(call)
        except CallFormatError as exc:
            return error_observation("?", str(exc), "malformed_call")
        entry = self._tools.get(name)
        if entry is None:
            return error_observation(name, self.unknown_tool_message(name), "unknown_tool")
        svc, spec, fn = entry
        journal = self.ctx.journal
        try:
            kwargs = spec.validate(require_object(args))
        except ToolError as exc:
            return error_observation(name, str(exc), exc.kind)
        except Exception as exc:  # a defect in a compiled schema's validator must not crash the episode
            return error_observation(name, f"the tool failed internally and changed nothing ({exc})", "internal_error")
        self.ctx.clock.tick()
        try:
            result = fn(**kwargs)
            content = orjson.dumps(result).decode()
        except ToolError as exc:
            journal.rollback()
            return error_observation(name, str(exc), exc.kind)
        except Exception as exc:  # a defect in a service must not crash the episode or leak a partial write
            journal.rollback()
            return error_observation(name, f"the tool failed internally and changed nothing ({exc})", "internal_error")
        journal.entries.clear()
        return Observation(name, True, content, result, simulated=spec.kind == "world_model")

    def unknown_tool_message(self, name: str) -> str:
        """Why `name` is not a tool here, with the names an agent probably meant."""
        svc, _, tool_name = name.partition(SEP)
        if svc in self.services:
            near = sorted(t for t in self.services[svc].specs() if tool_name and (tool_name in t or t in tool_name))
            hint = f" Tools of {svc} like it: {', '.join(near[:5])}." if near else f" {svc} has: {', '.join(sorted(self.services[svc].specs())[:12])}."
            return f"unknown tool '{name}'.{hint}"
        return f"unknown tool '{name}'. Tools are named service{SEP}tool; services here: {', '.join(self.services)}."

    # -- state -------------------------------------------------------------------------------
    def state(self) -> State:
        """A snapshot of the joint state (free: the tables share their rows until their next write
        copies them; records are immutable). Taken again only after a table may have changed (task
        designers snapshot before every attempt, and most attempts only read); each call returns its
        own outer dict, so a caller may add to it."""
        changes = self.ctx.journal.changes
        if self._state is None or self._state[0] != changes:
            self._state = (changes, {name: svc.dump() for name, svc in self.services.items()})
        return dict(self._state[1])

    def state_hash(self) -> str:
        return state_hash(self.state())

    @staticmethod
    def diff(before: State, after: State) -> list[dict[str, Any]]:
        return diff_states(before, after)

    # -- catalogs ----------------------------------------------------------------------------
    def tool_specs(self) -> dict[str, ToolSpec]:
        return {name: spec for name, (_, spec, _) in self._tools.items()}

    def tools_openai(self) -> list[dict[str, Any]]:
        if self._catalog_openai is None:
            self._catalog_openai = [spec.openai(name) for name, spec in self.tool_specs().items()]
        return self._catalog_openai

    def tools_mcp(self) -> dict[str, Any]:
        return {"tools": [spec.mcp(name) for name, spec in self.tool_specs().items()]}


def _validated(cls: type[Service], data: dict[str, Any], seeded: Mapping[str, Mapping[str, Record]]) -> dict[str, dict[str, Record]]:
    """`cls.validate_state(data)`, validating only the records that are not the seeded ones themselves:
    a task's state is the seeded world plus a few planted records, and seeded records are valid as
    generated (`validate_state` gives them back unchanged; a test checks it for every service)."""
    if not all(isinstance(rows, Mapping) for rows in data.values()):
        return cls.validate_state(data)  # let the state model say what is wrong
    fresh = {coll: {k: r for k, r in rows.items() if seeded.get(coll, {}).get(k) is not r} for coll, rows in data.items()}
    checked = cls.validate_state(fresh)
    out: dict[str, dict[str, Record]] = {}
    for coll in cls.tables:
        rows = data.get(coll, {})
        if type(rows) is dict and not fresh.get(coll):  # seeded records only (keyed by their ids): shared, not rebuilt
            out[coll] = rows
        else:
            out[coll] = {str(k): checked[coll].get(str(k), r) for k, r in rows.items()}
    return out


def _keyed(data: Mapping[str, Any]) -> dict[str, Any]:
    """Accept collections as {id: record} or as [record, ...]."""
    out: dict[str, Any] = {}
    for coll, rows in data.items():
        if isinstance(rows, list):
            out[coll] = {str(r.get("id")): r for r in rows if isinstance(r, Mapping)}
        else:
            out[coll] = rows
    return out


def json_type(value: Any) -> str:
    """What a value is called in JSON (an agent reads JSON, not Python class names)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, (list, tuple)) else "an object"


def require_object(args: Any) -> dict[str, Any]:
    """The arguments of a call, which must be a JSON object."""
    if not isinstance(args, dict):
        raise ArgumentError(f"arguments must be a JSON object, got {json_type(args)}")
    return args


def error_observation(tool: str, message: str, kind: str) -> Observation:
    """A failed call as the agent reads it: `{"error", "kind"}` text, with the kind for the record."""
    return Observation(tool, False, orjson.dumps({"error": message, "kind": kind}).decode(), None, message, kind)


def compose(names: Iterable[str], seed: int = 0, scale: float = 1.0) -> Environment:
    """An environment of the named services (library or compiled)."""
    from compoworld.services.registry import get_service

    return Environment([get_service(n) for n in names], seed=seed, scale=scale)
