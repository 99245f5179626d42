"""SQL databases of compiled services (compoworld/synthesis/sql.py): tools that take a SQL statement
run it on one seeded database, and the fidelity check `database` catches a service that does not."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from compoworld.services.environment import Environment
from compoworld.services.sampling import schema_arguments
from compoworld.synthesis import infer
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn
from compoworld.synthesis.sql import SQL_TABLES, sql_kind

S = {"type": "string"}
_NAMES = itertools.count()


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ()) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)})


def sqlite_server() -> ServerSpec:
    """The tools of the reference SQLite MCP server, as its spec declares them (a fresh name each time:
    seeded states are memoized by service name and plan version)."""
    q = {"type": "string", "description": "SELECT SQL query to execute"}
    name = f"sqlite{next(_NAMES)}"
    return ServerSpec(id=name, source="test", name=name, tools=[
        tool("read_query", "Execute a SELECT query on the SQLite database", {"query": q}, ("query",)),
        tool("write_query", "Execute an INSERT, UPDATE, or DELETE query on the SQLite database",
             {"query": {"type": "string", "description": "SQL query to execute"}}, ("query",)),
        tool("create_table", "Create a new table in the SQLite database",
             {"query": {"type": "string", "description": "CREATE TABLE SQL statement"}}, ("query",)),
        tool("list_tables", "List all tables in the SQLite database", {}),
        tool("describe_table", "Get the schema information for a specific table", {"table_name": S}, ("table_name",)),
    ])


def env_of(srv: ServerSpec, seed: int = 5) -> tuple[Environment, str]:
    return Environment([build_service(infer_plan(srv, srv.name))], seed=seed), srv.name


def call(env: Environment, svc: str, tool_name: str, **args: Any) -> Any:
    return env.step({"name": f"{svc}__{tool_name}", "arguments": args})


@pytest.mark.parametrize(("name", "desc", "props", "kind"), [
    ("read_query", "Execute a SELECT query", {"query": S}, "read"),
    ("write_query", "Execute an INSERT, UPDATE, or DELETE query", {"query": {"type": "string", "description": "SQL query"}}, "write"),
    ("execute_sql", "Execute an SQL query on the GreptimeDB server", {"query": S}, "execute"),
    ("query", "Run a read-only SQL query", {"sql": S}, "read"),
    ("execute_select_sql", "Execute SELECT SQL to query data from a Hologres database.", {"query": S}, "read"),
    # an engine whose queries are SQL says so by its name
    ("execute_query", "Execute ClickHouse queries", {"query": S}, "read"),
    ("run_query", "Run a BigQuery query against a dataset", {"query": S}, "read"),
    ("run_cypher", "Run a Cypher query on the graph", {"query": S}, None),  # no SQL: a graph's query
    ("execute_query", "Execute a Cypher query on Neo4j database", {"query": S}, None),
    ("search", "Search documents", {"query": S}, None),
    ("get_query_plan", "Get the query plan of a SQL statement", {"query": S}, None),  # about SQL, runs nothing
    ("arbitrary_query", "Run a SQL query on the traces and spans of your project.", {"query": S}, None),  # data we do not model
])
def test_a_tool_that_takes_sql_is_told_from_its_spec(name: str, desc: str, props: dict[str, Any], kind: str | None) -> None:
    assert sql_kind(name, desc, props) == kind


def test_sql_tools_run_statements_on_one_database() -> None:
    env, svc = env_of(sqlite_server())
    assert call(env, svc, "list_tables").data == {"tables": ["customers", "products", "orders"]}
    cols = call(env, svc, "describe_table", table_name="orders").data["columns"]
    assert [c["name"] for c in cols][:3] == ["id", "customer_id", "product_id"]
    # a join answers what the seeded rows hold, computed by SQL
    db = {r["name"]: r for r in env.services[svc].db[SQL_TABLES]}
    paid = sum(r[4] for r in db["orders"]["rows"] if r[5] == "paid")
    obs = call(env, svc, "read_query", query="SELECT round(sum(amount), 2) AS total FROM orders WHERE status = 'paid'")
    assert obs.ok and obs.data["rows"] == [{"total": round(paid, 2)}]
    # what the writes make, every other tool sees
    assert call(env, svc, "create_table", query="CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)").ok
    obs = call(env, svc, "write_query", query="INSERT INTO notes (body) VALUES ('renewal call'), ('send invoice')")
    assert obs.ok and obs.data == {"statement": "INSERT", "rows_affected": 2}
    assert call(env, svc, "read_query", query="SELECT body FROM notes ORDER BY id DESC LIMIT 1").data["rows"] == [{"body": "send invoice"}]
    made = call(env, svc, "write_query", query="INSERT INTO notes (body) VALUES ('chase payment') RETURNING id")
    assert made.ok and made.data["rows"] == [{"id": 3}] and made.data["rows_affected"] == 1
    assert "notes" in call(env, svc, "list_tables").data["tables"]
    assert [c["name"] for c in call(env, svc, "describe_table", table_name="notes").data["columns"]] == ["id", "body"]
    assert call(env, svc, "read_query", query="SELECT table_name FROM information_schema.tables WHERE table_name = 'notes'").data["rows"]


def test_a_refused_or_failed_statement_changes_nothing() -> None:
    env, svc = env_of(sqlite_server())
    before = env.services[svc].dump()
    refused = call(env, svc, "read_query", query="DELETE FROM orders")  # a read tool never changes data
    assert not refused.ok and "only reads" in refused.error
    sneaky = call(env, svc, "read_query", query="WITH gone AS (SELECT 1) DELETE FROM orders")
    assert not sneaky.ok
    assert not call(env, svc, "write_query", query="SELECT * FROM orders").ok  # and a write tool never reads
    bad = call(env, svc, "write_query", query="INSERT INTO customers (id, name) VALUES (1, 'Someone')")  # id 1 is taken
    assert not bad.ok and "UNIQUE constraint failed" in bad.error
    assert not call(env, svc, "write_query", query="UPDATE nowhere SET x = 1").ok
    outside = call(env, svc, "write_query", query="ATTACH DATABASE '/tmp/elsewhere.db' AS elsewhere")
    assert not outside.ok and "not allowed" in outside.error
    runaway = call(env, svc, "read_query", query="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
    assert not runaway.ok and "too long" in runaway.error
    assert env.services[svc].dump() == before


def test_the_database_and_its_clock_are_the_seeds() -> None:
    srv = sqlite_server()
    answers = []
    for _ in range(2):
        env, svc = env_of(srv, seed=9)
        obs = call(env, svc, "read_query", query="SELECT CURRENT_TIMESTAMP, date('now') AS today, random() AS r, count(*) AS n FROM customers")
        answers.append(obs.data)
    assert answers[0] == answers[1]
    row = answers[0]["rows"][0]
    now = env.services[svc].now().replace("T", " ").replace("Z", "")
    assert row["CURRENT_TIMESTAMP"] == now and row["today"] == now[:10]  # the seeded clock, not the machine's
    assert row["n"] == len(env_of(srv, seed=9)[0].services[svc].db[SQL_TABLES].first(name="customers")["rows"])


def test_samplers_write_statements_the_tools_accept() -> None:
    env, svc = env_of(sqlite_server())
    import random

    for name in ("read_query", "write_query"):
        spec = env.services[svc].tool_specs()[name]
        args = schema_arguments(spec, env, svc, random.Random(3))
        assert args is not None
        assert env.step({"name": f"{svc}__{name}", "arguments": args}).ok, args


def test_the_database_check_fails_a_service_whose_sql_tools_run_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    srv = sqlite_server()
    statuses = {c.tool: c.status for c in check_fidelity(build_service(infer_plan(srv, srv.name)), srv) if c.check == "fidelity_database"}
    assert set(statuses) == {"read_query", "write_query", "create_table", "list_tables", "describe_table"}
    assert set(statuses.values()) == {"pass"}
    # as these tools compiled before: a lookup of a record keyed by the statement, a create of one
    monkeypatch.setattr(infer, "_sql_database", lambda infos: None)
    srv = sqlite_server()
    old = build_service(infer_plan(srv, srv.name))
    failed = {c.tool for c in check_fidelity(old, srv) if c.check == "fidelity_database" and c.status == "fail"}
    assert failed == {"read_query", "write_query", "create_table", "list_tables", "describe_table"}
