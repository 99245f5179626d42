"""Key-value stores of compiled services: a service whose tools are a key-value store's commands
(Redis' `set`, `get`, `hset`, `lpush`, `sadd`, `zadd`, `xadd`, `json_set`...) holds one keyspace, and
its tools run those commands on it as the store does.

Before this, Redis' 32 command tools compiled to records of unrelated archetypes, one collection per command:
`hget` answered an email, `lpop` a UI component, and a key written by `set` was read by no `get`.

The keyspace is keys of the task world (sessions, user hashes, a mail queue, a leaderboard of the
team, an order stream, the app's settings), the same for the same seed. Each key has a type (string,
hash, list, set, zset, stream or JSON) and a command of another type refuses it (WRONGTYPE), as the
store does. Expiry runs on the service's seeded clock. A command that fails changes nothing.
"""

from __future__ import annotations

import fnmatch
import json
import random
from datetime import datetime, timedelta
from typing import Any

from compoworld.canonical import format_timestamp
from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError, ToolError
from compoworld.synthesis.naming import snake
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan

KV_KEYS = "kv_keys"
KV_KEY_SEM = "kv_key"  # what a parameter naming one of the store's keys takes: samplers pass existing keys

# command -> (the type of value it works on, whether it only reads)
COMMANDS: dict[str, tuple[str, bool]] = {
    "set": ("string", False), "get": ("string", True), "delete": ("any", False), "del": ("any", False),
    "expire": ("any", False), "rename": ("any", False), "type": ("any", True), "exists": ("any", True), "ttl": ("any", True),
    "scan_keys": ("any", True), "scan_all_keys": ("any", True), "keys": ("any", True), "dbsize": ("any", True),
    "hset": ("hash", False), "hget": ("hash", True), "hdel": ("hash", False), "hgetall": ("hash", True), "hexists": ("hash", True),
    "lpush": ("list", False), "rpush": ("list", False), "lpop": ("list", False), "rpop": ("list", False),
    "lrange": ("list", True), "llen": ("list", True),
    "sadd": ("set", False), "srem": ("set", False), "smembers": ("set", True),
    "zadd": ("zset", False), "zrange": ("zset", True), "zrem": ("zset", False),
    "xadd": ("stream", False), "xrange": ("stream", True), "xdel": ("stream", False),
    "json_set": ("ReJSON-RL", False), "json_get": ("ReJSON-RL", True), "json_del": ("ReJSON-RL", False),
}
# commands only a key-value store has (a service with `get`, `set` and `delete` alone may be anything)
STRUCTURE_COMMANDS = frozenset(c for c, (kind, _) in COMMANDS.items() if kind not in ("string", "any"))
# The parameter naming the key a command works on: Redis' MCP server calls a hash, list, set or JSON
# key `name` (its `key` is a hash's field) and a string, sorted set or stream key `key`.
NAMED_BY_NAME = frozenset({"hash", "list", "set", "ReJSON-RL"})


def kv_command(tool_name: str) -> str | None:
    """The store command a tool runs (`hset`, `redis_get`, `json_set`), or None."""
    s = snake(tool_name)
    for prefix in ("redis_", "kv_", "valkey_"):
        s = s.removeprefix(prefix)
    return s if s in COMMANDS else None


def is_kv_store(tool_names: list[str]) -> bool:
    """Whether a service's tools are a key-value store's commands: four or more, two of them on a
    structure only such a store has (hashes, lists, sets, sorted sets, streams)."""
    cmds = {c for n in tool_names if (c := kv_command(n))}
    return len(cmds) >= 4 and len(cmds & STRUCTURE_COMMANDS) >= 2


def key_param(command: str, props: dict[str, Any]) -> str | None:
    """The parameter that names the key a command works on."""
    if command == "rename":
        return next((p for p in props if snake(p) in ("old_key", "key", "src", "source")), None)
    order = ("name", "key") if COMMANDS[command][0] in NAMED_BY_NAME else ("key", "name")
    return next((p for want in order for p in props if snake(p) == want), None)


def kv_entity() -> EntityPlan:
    """The keyspace: each key with its type, its value and when it expires (None: never)."""
    return EntityPlan(collection=KV_KEYS, entity="kv_key", prefix="key", size=0, topic="kv", fields=[
        FieldPlan(name="id", shape={"type": "string"}, role="id"),
        FieldPlan(name="key", shape={"type": "string"}, sem=KV_KEY_SEM, role="key"),
        FieldPlan(name="type", shape={"type": "string"}),
        FieldPlan(name="value", shape={}),
        FieldPlan(name="expires_at", shape={"type": ["string", "null"]}, sem="datetime"),
    ])


def kv_output(t: ToolPlan) -> dict[str, Any]:
    return {"type": "object", "properties": {"key": {"type": "string"}}}


# -- the seeded keyspace -----------------------------------------------------------------------

def seed_keys(world: Any, rng: random.Random, now: datetime) -> list[Record]:
    """Keys of the task world, the same for the same seed: two sessions, three users as hashes, a mail
    queue, a set of featured tags, the sales team's leaderboard, a stream of order events, the app's
    settings as JSON and a page-view counter."""
    people = list(world.contacts)[:3]
    team = list(world.employees)[:4]
    rows: list[tuple[str, str, Any]] = []
    for i, p in enumerate(people[:2]):
        rows.append((f"session:{rng.randrange(16**8):08x}", "string", json.dumps({"user": p.email, "started_at": format_timestamp(now - timedelta(minutes=5 + 40 * i))})))
    for i, p in enumerate(people):
        rows.append((f"user:{1001 + i}", "hash", {"name": p.name, "email": p.email, "company": p.company,
                                                  "plan": rng.choice(["free", "pro", "enterprise"])}))
    rows.append(("queue:emails", "list", [json.dumps({"to": p.email, "template": "welcome"}) for p in people]))
    rows.append(("tags:featured", "set", ["clearance", "new", "summer"]))
    rows.append(("leaderboard:sales", "zset", sorted(([p.name, float(rng.randint(12, 90) * 1000)] for p in team), key=lambda m: (m[1], m[0]))))
    start = int((now - timedelta(hours=2)).timestamp() * 1000)
    rows.append(("events:orders", "stream", [{"id": f"{start + 60_000 * i}-0", "fields": {"order_id": str(1001 + i), "status": s}}
                                             for i, s in enumerate(["created", "paid", "shipped"])]))
    rows.append(("settings:app", "ReJSON-RL", {"theme": "dark", "locale": "en-US", "limits": {"daily_exports": 100, "seats": 25}}))
    rows.append(("counter:page_views", "string", str(rng.randint(1_000, 9_000))))
    return [{"id": f"key_{i + 1:04d}", "key": k, "type": kind, "value": v, "expires_at": None} for i, (k, kind, v) in enumerate(rows)]


def examples(rows: list[Record], rng: random.Random) -> list[str]:
    """Keys the store holds: what samplers pass a parameter naming a key."""
    return sorted(r["key"] for r in rows)


# -- running a command ---------------------------------------------------------------------------

def run_kv(svc: Any, t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """One command on the service's keyspace (its `kv_keys` table). Nothing changes unless it succeeds."""
    table, now = svc.db[KV_KEYS], svc.now()
    live = {r["key"]: r for r in table if r["expires_at"] is None or r["expires_at"] > now}
    cmd = t.kv or ""
    props = t.input_schema.get("properties") or {}
    kind = COMMANDS[cmd][0]

    def arg(*names: str, default: Any = None) -> Any:
        return next((args[p] for p in props if snake(p) in names and args.get(p) is not None), default)

    if cmd == "dbsize":
        return {"dbsize": len(live)}
    if cmd in ("scan_keys", "scan_all_keys", "keys"):
        pattern = arg("pattern", "match", default="*")
        keys = sorted(k for k in live if fnmatch.fnmatchcase(k, str(pattern)))
        if cmd != "scan_keys":
            return {"pattern": pattern, "keys": keys}
        start, count = int(arg("cursor", default=0) or 0), max(1, int(arg("count", default=10) or 10))
        page = keys[start:start + count]
        return {"cursor": start + count if start + count < len(keys) else 0, "keys": page}

    kp = key_param(cmd, props)
    key = args.get(kp) if kp else None
    if not isinstance(key, str) or not key:
        raise ToolError(f"give the key in '{kp or 'key'}'")
    rec = live.get(key)
    if rec is not None and kind not in ("any", rec["type"]) and not (cmd == "set"):
        raise ToolError(f"WRONGTYPE: '{key}' holds a {rec['type']}, not a {kind}; TYPE tells a key's type")

    def need() -> Record:
        if rec is None:
            raise NotFoundError(f"no key '{key}'" + (f" (keys like it: {', '.join(_near(key, live))})" if _near(key, live) else ""))
        return rec

    def put(value: Any, typ: str = kind, ttl: Any = None) -> None:
        expires = format_timestamp(_parse(now) + timedelta(seconds=int(ttl))) if isinstance(ttl, (int, float)) and ttl > 0 else None
        if rec is None:
            stale = next((r for r in table if r["key"] == key), None)  # an expired key's record is replaced
            if stale is not None:
                table.delete(stale["id"])
            table.insert({"key": key, "type": typ, "value": value, "expires_at": expires})
        else:
            table.update(rec["id"], type=typ, value=value, expires_at=expires if ttl is not None else rec["expires_at"])

    def keep(value: Any) -> None:
        """What is left under the key: an emptied hash, list, set or sorted set is no key, as in the store."""
        if value:
            put(value)
        else:
            table.delete(need()["id"])

    ttl = arg("expiration", "expire_seconds", "expire", "ex", "ttl")
    if cmd == "type":
        return {"key": key, "type": rec["type"] if rec else "none"}
    if cmd == "exists":
        return {"key": key, "exists": rec is not None}
    if cmd == "ttl":
        r = need()
        return {"key": key, "ttl": -1 if r["expires_at"] is None else int((_parse(r["expires_at"]) - _parse(now)).total_seconds())}
    if cmd in ("delete", "del"):
        table.delete(need()["id"])
        return {"key": key, "deleted": True}
    if cmd == "expire":
        seconds = arg("expire_seconds", "seconds", "expiration", "ttl")
        if not isinstance(seconds, int) or seconds <= 0:
            raise ToolError("give the seconds until the key expires, a positive whole number")
        r = need()
        put(r["value"], r["type"], seconds)
        return {"key": key, "ttl": seconds}
    if cmd == "rename":
        new = arg("new_key", "newkey", "dst", "destination")
        if not isinstance(new, str) or not new:
            raise ToolError("give the new name in 'new_key'")
        r = need()
        if new in live and new != key:
            table.delete(live[new]["id"])  # RENAME overwrites the destination
        table.delete(r["id"])
        table.insert({"key": new, "type": r["type"], "value": r["value"], "expires_at": r["expires_at"]})
        return {"old_key": key, "new_key": new}
    if cmd == "set":
        value = args.get(next((p for p in props if snake(p) == "value"), "value"))
        put(value if isinstance(value, str) else json.dumps(value), "string", ttl if ttl is not None else 0)
        return {"key": key, "value": value if isinstance(value, str) else json.dumps(value), "ttl": ttl if ttl else -1}
    if cmd == "get":
        return {"key": key, "value": need()["value"]}

    if kind == "hash":
        fields = dict(rec["value"]) if rec else {}
        field = arg("key", "field") if kp != "key" else arg("field")
        if cmd == "hgetall":
            return {"name": key, "fields": need()["value"]}
        if not isinstance(field, str):
            raise ToolError("give the hash's field in 'key'")
        if cmd == "hset":
            value = arg("value")
            added = field not in fields
            fields[field] = value if isinstance(value, str) else json.dumps(value)
            put(fields, ttl=ttl)
            return {"name": key, "field": field, "added": added}
        if cmd == "hexists":
            return {"name": key, "field": field, "exists": field in fields}
        if field not in need()["value"]:
            raise NotFoundError(f"hash '{key}' has no field '{field}'; its fields: {', '.join(sorted(fields))}")
        if cmd == "hget":
            return {"name": key, "field": field, "value": fields[field]}
        del fields[field]
        keep(fields)
        return {"name": key, "field": field, "deleted": True}

    if kind == "list":
        items = list(rec["value"]) if rec else []
        if cmd in ("lpush", "rpush"):
            value = arg("value")
            value = value if isinstance(value, str) else json.dumps(value)
            items = [value] + items if cmd == "lpush" else items + [value]
            put(items, ttl=ttl)
            return {"name": key, "length": len(items)}
        if cmd == "llen":
            return {"name": key, "length": len(items)}
        if cmd == "lrange":
            start, stop = int(arg("start", default=0)), int(arg("stop", "end", default=-1))
            return {"name": key, "values": _span(items, start, stop)}
        need()
        value = items.pop(0 if cmd == "lpop" else -1)
        keep(items)
        return {"name": key, "value": value}

    if kind == "set":
        members = set(rec["value"]) if rec else set()
        if cmd == "smembers":
            return {"name": key, "members": sorted(members)}
        value = arg("value", "member")
        if not isinstance(value, str):
            raise ToolError("give the member in 'value'")
        if cmd == "sadd":
            added = value not in members
            put(sorted(members | {value}), ttl=ttl)
            return {"name": key, "added": added}
        removed = value in members
        if removed:
            keep(sorted(members - {value}))
        return {"name": key, "removed": removed}

    if kind == "zset":
        scored = {m: s for m, s in (rec["value"] if rec else [])}
        if cmd == "zrange":
            ordered = sorted(scored.items(), key=lambda ms: (ms[1], ms[0]))
            span = _span(ordered, int(arg("start", default=0)), int(arg("end", "stop", default=-1)))
            shown = [{"member": m, "score": s} for m, s in span] if arg("with_scores", "withscores") else [m for m, _ in span]
            return {"key": key, "members": shown}
        member = arg("member", "value")
        if not isinstance(member, str):
            raise ToolError("give the member in 'member'")
        if cmd == "zadd":
            score = arg("score")
            if not isinstance(score, (int, float)) or isinstance(score, bool):
                raise ToolError("give the member's score in 'score', a number")
            added = member not in scored
            scored[member] = float(score)
            put(sorted(([m, s] for m, s in scored.items()), key=lambda ms: (ms[1], ms[0])), ttl=ttl)
            return {"key": key, "member": member, "added": added}
        removed = scored.pop(member, None) is not None
        if removed:
            keep(sorted(([m, s] for m, s in scored.items()), key=lambda ms: (ms[1], ms[0])))
        return {"key": key, "member": member, "removed": removed}

    if kind == "stream":
        entries = list(rec["value"]) if rec else []
        if cmd == "xrange":
            count = arg("count")
            shown = entries[:int(count)] if isinstance(count, int) and count > 0 else entries
            return {"key": key, "entries": shown}
        if cmd == "xadd":
            fields = arg("fields")
            if not isinstance(fields, dict) or not fields:
                raise ToolError("give the entry's fields in 'fields', an object of names and values")
            ms = int(_parse(now).timestamp() * 1000)
            last = max((int(e["id"].split("-")[0]), int(e["id"].split("-")[1])) for e in entries) if entries else (0, 0)
            entry_id = f"{ms}-0" if ms > last[0] else f"{last[0]}-{last[1] + 1}"
            put(entries + [{"id": entry_id, "fields": {str(k): str(v) for k, v in fields.items()}}], ttl=ttl)
            return {"key": key, "id": entry_id}
        entry_id = arg("entry_id", "id")
        kept = [e for e in need()["value"] if e["id"] != entry_id]
        if len(kept) == len(entries):
            raise NotFoundError(f"stream '{key}' has no entry '{entry_id}'")
        put(kept)
        return {"key": key, "id": entry_id, "deleted": True}

    # JSON documents: a path is `$` (the whole) or `$.a.b` / `.a.b` / `a.b`
    path = [p for p in str(arg("path", default="$")).lstrip("$").split(".") if p]
    if cmd == "json_get":
        return {"name": key, "path": "$" + "".join(f".{p}" for p in path), "value": _at(need()["value"], path, key)}
    if cmd == "json_set":
        value = arg("value")
        if isinstance(value, str):
            try:
                value = json.loads(value)  # the MCP server takes JSON text too
            except ValueError:
                pass
        if not path:
            put(value, ttl=ttl)
        else:
            if rec is None:
                raise NotFoundError(f"no JSON document '{key}': set its root ('$') first")
            doc = json.loads(json.dumps(rec["value"]))
            parent = _at(doc, path[:-1], key)
            if not isinstance(parent, dict):
                raise ToolError(f"'{'.'.join(path[:-1]) or '$'}' of '{key}' is no object")
            parent[path[-1]] = value
            put(doc, ttl=ttl)
        return {"name": key, "path": "$" + "".join(f".{p}" for p in path), "value": value}
    doc = json.loads(json.dumps(need()["value"]))
    if not path:
        table.delete(need()["id"])
        return {"name": key, "deleted": 1}
    parent = _at(doc, path[:-1], key)
    if not isinstance(parent, dict) or path[-1] not in parent:
        return {"name": key, "deleted": 0}
    del parent[path[-1]]
    put(doc)
    return {"name": key, "deleted": 1}


def _at(doc: Any, path: list[str], key: str) -> Any:
    for part in path:
        if not isinstance(doc, dict) or part not in doc:
            raise NotFoundError(f"no path '$.{'.'.join(path)}' in '{key}'")
        doc = doc[part]
    return doc


def _span(items: list[Any], start: int, stop: int) -> list[Any]:
    """Redis' ranges: both ends inclusive, negative indices count from the end."""
    n = len(items)
    start, stop = (start + n if start < 0 else start), (stop + n if stop < 0 else stop)
    return items[max(start, 0):stop + 1] if start <= stop else []


def _near(key: str, live: dict[str, Record]) -> list[str]:
    prefix = key.split(":", 1)[0]
    return sorted(k for k in live if k.split(":", 1)[0] == prefix)[:5]


def _parse(ts: str) -> datetime:
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))
