"""Key-value stores of compiled services (kv.py): Redis' tools run their commands on one keyspace."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from compoworld.services.environment import Environment
from compoworld.services.sampling import schema_arguments
from compoworld.synthesis import infer
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.kv import KV_KEYS, is_kv_store
from compoworld.synthesis.loader import ServerSpec, ToolIn

S, I = {"type": "string"}, {"type": "integer"}
_NAMES = itertools.count()


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ()) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)})


def redis_server() -> ServerSpec:
    """Tools of Redis' MCP server as its spec declares them (a hash, list, set or JSON key is `name`, a
    hash's field is `key`), under a fresh name each time (seeded states are memoized by name)."""
    name = f"redis{next(_NAMES)}"
    return ServerSpec(id=name, source="test", name=name, tools=[
        tool("set", "Set a Redis string value with an optional expiration time.", {"key": S, "value": {}, "expiration": I}, ("key", "value")),
        tool("get", "Get a Redis string value.", {"key": S}, ("key",)),
        tool("delete", "Delete a Redis key.", {"key": S}, ("key",)),
        tool("type", "Returns the string representation of the type of the value stored at key", {"key": S}, ("key",)),
        tool("expire", "Set an expiration time for a Redis key.", {"name": S, "expire_seconds": I}, ("name", "expire_seconds")),
        tool("rename", "Renames a Redis key from old_key to new_key.", {"old_key": S, "new_key": S}, ("old_key", "new_key")),
        tool("scan_all_keys", "Scan and return ALL keys matching a pattern.", {"pattern": S}),
        tool("dbsize", "Get the number of keys stored in the Redis database", {}),
        tool("hset", "Set a field in a hash stored at key.", {"name": S, "key": S, "value": {}}, ("name", "key", "value")),
        tool("hget", "Get the value of a field in a Redis hash.", {"name": S, "key": S}, ("name", "key")),
        tool("hgetall", "Get all fields and values from a Redis hash.", {"name": S}, ("name",)),
        tool("lpush", "Push a value onto the left of a Redis list.", {"name": S, "value": {}}, ("name", "value")),
        tool("lrange", "Get elements from a Redis list within a specific range.", {"name": S, "start": I, "stop": I}, ("name", "start", "stop")),
        tool("lpop", "Remove and return the first element from a Redis list.", {"name": S}, ("name",)),
        tool("sadd", "Add a value to a Redis set.", {"name": S, "value": S}, ("name", "value")),
        tool("smembers", "Get all members of a Redis set.", {"name": S}, ("name",)),
        tool("zadd", "Add a member to a Redis sorted set.", {"key": S, "score": {"type": "number"}, "member": S}, ("key", "score", "member")),
        tool("zrange", "Retrieve a range of members from a Redis sorted set.", {"key": S, "start": I, "end": I, "with_scores": {"type": "boolean"}},
             ("key", "start", "end")),
        tool("xadd", "Add an entry to a Redis stream.", {"key": S, "fields": {"type": "object"}}, ("key", "fields")),
        tool("xrange", "Read entries from a Redis stream.", {"key": S, "count": I}, ("key",)),
        tool("json_set", "Set a JSON value in Redis at a given path.", {"name": S, "path": S, "value": {}}, ("name", "path", "value")),
        tool("json_get", "Retrieve a JSON value from Redis at a given path.", {"name": S, "path": S}, ("name",)),
    ])


def env_of(srv: ServerSpec, seed: int = 5) -> tuple[Environment, str]:
    return Environment([build_service(infer_plan(srv, srv.name))], seed=seed), srv.name


def call(env: Environment, svc: str, tool_name: str, **args: Any) -> Any:
    return env.step({"name": f"{svc}__{tool_name}", "arguments": args})


def test_a_key_value_store_is_told_from_its_commands() -> None:
    assert is_kv_store([t.name for t in redis_server().tools])
    assert not is_kv_store(["get", "set", "delete", "list"])  # a settings service with get and set is no store
    plan = infer_plan(redis_server(), "r")
    assert {t.op for t in plan.tools} == {"kv"}
    ro = {t.original: t.read_only for t in plan.tools}
    assert ro["get"] and ro["hgetall"] and ro["zrange"] and not ro["set"] and not ro["lpop"] and not ro["rename"]


def test_commands_act_on_one_keyspace_of_typed_keys() -> None:
    env, svc = env_of(redis_server())
    keys = call(env, svc, "scan_all_keys", pattern="user:*").data["keys"]
    assert keys == ["user:1001", "user:1002", "user:1003"]  # the world's users, seeded as hashes
    user = call(env, svc, "hgetall", name="user:1001").data["fields"]
    assert call(env, svc, "hget", name="user:1001", key="email").data["value"] == user["email"] and "@" in user["email"]
    assert call(env, svc, "set", key="greeting", value="hello").ok
    assert call(env, svc, "get", key="greeting").data["value"] == "hello"
    assert call(env, svc, "type", key="greeting").data["type"] == "string"
    wrong = call(env, svc, "get", key="user:1001")  # a hash is no string
    assert not wrong.ok and "WRONGTYPE" in wrong.error
    assert call(env, svc, "lpush", name="jobs", value="a").data["length"] == 1
    assert call(env, svc, "lpush", name="jobs", value="b").data["length"] == 2
    assert call(env, svc, "lrange", name="jobs", start=0, stop=-1).data["values"] == ["b", "a"]
    assert call(env, svc, "lpop", name="jobs").data["value"] == "b"
    assert call(env, svc, "sadd", name="tags", value="x").data["added"] and not call(env, svc, "sadd", name="tags", value="x").data["added"]
    assert call(env, svc, "smembers", name="tags").data["members"] == ["x"]
    call(env, svc, "zadd", key="board", score=5, member="ann")
    call(env, svc, "zadd", key="board", score=2, member="bo")
    assert call(env, svc, "zrange", key="board", start=0, end=-1).data["members"] == ["bo", "ann"]
    entry = call(env, svc, "xadd", key="log", fields={"event": "paid"}).data["id"]
    assert call(env, svc, "xrange", key="log").data["entries"] == [{"id": entry, "fields": {"event": "paid"}}]
    assert call(env, svc, "json_set", name="cfg", path="$", value={"limits": {"seats": 5}}).ok
    assert call(env, svc, "json_set", name="cfg", path="$.limits.seats", value=9).ok
    assert call(env, svc, "json_get", name="cfg", path="$.limits").data["value"] == {"seats": 9}
    assert call(env, svc, "rename", old_key="greeting", new_key="hi").ok
    assert call(env, svc, "get", key="hi").data["value"] == "hello" and call(env, svc, "get", key="greeting").error_kind == "not_found"
    size = call(env, svc, "dbsize").data["dbsize"]
    assert call(env, svc, "delete", key="hi").ok and call(env, svc, "dbsize").data["dbsize"] == size - 1


def test_a_key_expires_on_the_seeded_clock_and_a_failed_command_changes_nothing() -> None:
    env, svc = env_of(redis_server())
    call(env, svc, "set", key="otp", value="4711")
    assert call(env, svc, "expire", name="otp", expire_seconds=60).ok
    assert call(env, svc, "get", key="otp").ok
    for _ in range(3):  # each call moves the seeded clock on
        call(env, svc, "dbsize")
    assert call(env, svc, "get", key="otp").error_kind == "not_found"
    before = env.services[svc].dump()
    assert not call(env, svc, "lpush", name="user:1002", value="x").ok  # a hash takes no list push
    assert not call(env, svc, "zadd", key="board", score="high", member="ann").ok
    assert env.services[svc].dump() == before


def test_samplers_pass_keys_the_store_holds() -> None:
    env, svc = env_of(redis_server())
    held = {r["key"] for r in env.services[svc].db[KV_KEYS]}
    spec = env.services[svc].tool_specs()["hgetall"]
    args = schema_arguments(spec, env, svc, random.Random(3))
    assert args is not None and args["name"] in held


def test_the_keyspace_check_fails_a_store_compiled_as_records(monkeypatch: pytest.MonkeyPatch) -> None:
    srv = redis_server()
    checks = [c for c in check_fidelity(build_service(infer_plan(srv, srv.name)), srv) if c.check == "fidelity_keyspace"]
    assert checks and all(c.status == "pass" for c in checks), [c for c in checks if c.status != "pass"]
    monkeypatch.setattr(infer, "_kv_store", lambda infos: None)  # the tools as they compiled before kv.py
    old = build_service(infer_plan(srv, srv.name + "_old"))
    failed = {c.tool for c in check_fidelity(old, srv) if c.check == "fidelity_keyspace" and c.status == "fail"}
    assert {"get", "hset", "lrange", "smembers", "zrange", "json_set"} <= failed, failed
