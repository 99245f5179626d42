"""SQL databases of compiled services: a service whose tools run SQL (SQLite's `read_query` and
`write_query`, Postgres' `query`, MSSQL's `execute_sql`, Hologres' `execute_select_sql`) holds one
database, and its tools run their statements against it with SQLite.

Before this, each of those tools compiled to a logged action answering "completed", or a lookup of a
generic record keyed by the statement's text: `SELECT count(*) FROM orders` answered a "Query 3" and
a table created by `write_query` was seen by nothing.

The database is tables of the task world (its customers, the products they buy, their orders), the
same for the same seed. A read tool runs one SELECT (or `SHOW TABLES`, `DESCRIBE t`) and answers its
columns and rows; a write tool runs one statement that changes data or the schema and answers how many
rows it changed; a tool that says neither runs either. `list_tables` and `describe_table` of the same
service read the same tables, so a table one tool creates is listed, described and queried by the
others. `information_schema.tables` and `.columns` are there for agents that ask a database the
Postgres way.

Each call runs on a fresh in-memory SQLite database built from the service's state, and the state is
replaced only when the statement succeeded, so a failed statement changes nothing. The clock
(`CURRENT_TIMESTAMP`, `date('now')`, `NOW()`) is the service's seeded clock and `random()` is seeded:
the same calls give the same answers. Statements cannot reach a file (ATTACH is refused) and one that
runs too long is stopped.
"""

from __future__ import annotations

import random
import re
import sqlite3
from datetime import datetime, timedelta
from typing import Any, Iterator, Literal

from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError, ToolError
from compoworld.synthesis.naming import snake, words
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan

SqlKind = Literal["read", "write", "execute", "tables", "describe"]
SQL_TABLES = "sql_tables"
SQL_SEMS = ("sql", "sql_write")  # what a statement parameter is: any statement (or a read), or a change
MAX_ROWS = 200  # rows one answer carries; `truncated` says when there were more
MAX_STEPS = 2_000_000  # SQLite virtual-machine steps one statement may take (a runaway recursive CTE is stopped)

STATEMENT_PARAMS = frozenset({"sql", "query", "sql_query", "sqlquery", "statement", "sql_statement", "query_string",
                              "querystring", "sql_string", "sql_text"})
TABLE_PARAMS = frozenset({"table", "table_name", "tablename", "name", "table_id"})
# Tools about SQL that do not run it: a query plan, a dry run, a statement written from a question.
NOT_RUN = frozenset({"plan", "explain", "dry", "validate", "validation", "format", "lint", "generate", "convert", "translate",
                     "natural", "analyze", "optimize", "history", "insight", "export", "count", "cancel", "status", "result",
                     "results", "diagnose", "estimate", "cost", "manage"})
READ_WORDS = frozenset({"read", "select"})
WRITE_WORDS = frozenset({"write", "dml", "ddl", "mutation", "insert", "update", "delete", "modify", "alter", "drop", "create"})
_SQL_WORD = re.compile(r"\bsql\b", re.I)
_SQL_VERB = re.compile(r"\b(SELECT|INSERT|CREATE TABLE)\b")  # "Execute a SELECT query": SQL, as its capitals say
# "Execute ClickHouse queries", "Run a BigQuery query": an engine whose queries are SQL says so by its name
_SQL_ENGINE = re.compile(r"\b(clickhouse|bigquery|postgres(?:ql)?|mysql|mariadb|sqlite|duckdb|snowflake|redshift|mssql|sql ?server|"
                         r"trino|presto|athena|databricks|cockroach(?:db)?|tidb|starrocks)\b", re.I)
_SELECT_ONLY = re.compile(r"\bselect\b", re.I)
_CHANGE_WORDS = re.compile(r"\b(insert|update|delete|dml|ddl|alter|drop|create)\b", re.I)
_READ_ONLY = re.compile(r"\bread[- ]?only\b", re.I)
# SQL over data of its own that no table of ours models: Logfire's traces, a log store's lines
_OWN_DATA = re.compile(r"\b(traces?|spans?|logs?|log ?stores?|logstores?|metrics?|telemetry|logfire)\b", re.I)

READ_STATEMENTS = frozenset({"select", "with", "values", "show", "describe", "desc"})
WRITE_STATEMENTS = frozenset({"insert", "update", "delete", "replace", "create", "drop", "alter"})


# What the fidelity check `database` sends a service's SQL tools (fidelity.py): SQL's own answer to a
# computation, a table and a row a write makes, and a change a read must refuse.
PROBES = {"answer": "SELECT 6 * 7 AS answer", "create": "CREATE TABLE zq_check (id INTEGER PRIMARY KEY, label TEXT)",
          "insert": "INSERT INTO zq_check (label) VALUES ('zq-1')", "select": "SELECT label FROM zq_check",
          "delete": "DELETE FROM zq_check", "count": "SELECT count(*) AS n FROM zq_check"}


def statement_param(tool_name: str, description: str, props: dict[str, Any]) -> str | None:
    """The parameter that takes a SQL statement: named like one (`sql`, `query`, `statement`) where the
    parameter or the tool says it is SQL, or names a statement of it in capitals (a `query` of a Cypher
    or Mongo tool is none)."""
    for p, sub in props.items():
        s = snake(p)
        if s not in STATEMENT_PARAMS:
            continue
        said = str(sub.get("description") or "") if isinstance(sub, dict) else ""
        text = f"{said} {tool_name.replace('_', ' ')} {description}"
        if "sql" in s or _SQL_WORD.search(text) or _SQL_VERB.search(text) or _SQL_ENGINE.search(text):
            return p
    return None


def sql_kind(tool_name: str, description: str, props: dict[str, Any]) -> SqlKind | None:
    """What a tool that takes a SQL statement does with it: reads (only SELECT), writes (only changes)
    or runs either; None for a tool about SQL that runs nothing (a query plan, a dry run)."""
    if statement_param(tool_name, description, props) is None:
        return None
    ws = set(words(tool_name))
    if ws & NOT_RUN or _OWN_DATA.search(description):
        return None
    if ws & READ_WORDS or _READ_ONLY.search(description):
        return "read"
    if ws & WRITE_WORDS:
        return "write"
    first = description.split(".")[0]  # "Execute a SELECT query" says so in its first sentence
    if _SELECT_ONLY.search(first) and not _CHANGE_WORDS.search(description):
        return "read"
    if _CHANGE_WORDS.search(first) and not _SELECT_ONLY.search(first):
        return "write"
    if "query" in ws and not _CHANGE_WORDS.search(description):
        return "read"  # `query(sql)`, `run_query(query)`: a query reads, unless the spec says it may change data
    return "execute"


def catalog_kind(tool_name: str, props: dict[str, Any]) -> SqlKind | None:
    """`list_tables()` and `describe_table(table_name)` of a service that runs SQL read its tables."""
    ws = set(words(tool_name))
    if not ws & {"table", "tables"} or ws - {"list", "show", "get", "all", "table", "tables", "describe", "schema", "info",
                                              "columns", "sql", "db", "database"}:
        return None
    if ws & {"describe", "schema", "info", "columns"} or ("get" in ws and "table" in ws):
        return "describe" if table_param(props) else None
    return "tables" if ws & {"list", "show", "get"} else None


def table_param(props: dict[str, Any]) -> str | None:
    return next((p for p in props if snake(p) in TABLE_PARAMS), None)


def sql_entity() -> EntityPlan:
    """The database's tables: each its name, its CREATE statement, its columns and its rows (in order)."""
    return EntityPlan(collection=SQL_TABLES, entity="sql_table", prefix="tbl", size=0, topic="table", fields=[
        FieldPlan(name="id", shape={"type": "string"}, role="id"),
        FieldPlan(name="name", shape={"type": "string"}, sem="title", role="key"),
        FieldPlan(name="ddl", shape={"type": "string"}, sem="code"),
        FieldPlan(name="columns", shape={"type": "array"}),
        FieldPlan(name="rows", shape={"type": "array"}),
    ])


_STR, _INT = {"type": "string"}, {"type": "integer"}
_COLUMNS = {"type": "array", "items": {"type": "object", "properties": {"name": _STR, "type": _STR}}}


def sql_output(t: ToolPlan) -> dict[str, Any]:
    if t.sql == "tables":
        props: dict[str, Any] = {"tables": {"type": "array", "items": _STR}}
    elif t.sql == "describe":
        props = {"table": _STR, "columns": _COLUMNS, "row_count": _INT}
    elif t.sql == "write":
        props = {"statement": _STR, "rows_affected": _INT}
    else:  # a read answers rows; a tool that runs either answers rows or the rows a change affected
        props = {"statement": _STR, "columns": {"type": "array", "items": _STR}, "rows": {"type": "array", "items": {"type": "object"}},
                 "row_count": _INT, "truncated": {"type": "boolean"}}
        if t.sql == "execute":
            props["rows_affected"] = _INT
        return {"type": "object", "properties": props, "required": ["statement"]}
    return {"type": "object", "properties": props, "required": list(props)}


# -- the seeded database ------------------------------------------------------------------------

def seed_tables(world: Any, rng: random.Random, now: str) -> list[Record]:
    """The database of the task world: its customers (the world's contacts), the products they buy
    and their orders. Ids `tbl_0001`..; the same for the same seed."""
    contacts = list(world.contacts)[:10]
    city = {c.name: (c.city, c.country) for c in world.companies}
    customers = [[i + 1, p.name, p.email, p.company, *city.get(p.company, ("", "")), _day(now, rng, 30, 700)]
                 for i, p in enumerate(contacts)]
    products = [[i + 1, name, float(price), "service" if "Day" in name or "Audit" in name or "Package" in name else "subscription"
                 if "Plan" in name or "Add-on" in name else "product"] for i, (name, price) in enumerate(world.products)]
    orders = []
    for i in range(16):
        cust, prod = rng.randrange(len(customers)), rng.randrange(len(products))
        qty = rng.choice([1, 1, 1, 2, 3, 5])
        orders.append([1001 + i, cust + 1, prod + 1, qty, round(products[prod][2] * qty, 2),
                       rng.choice(["paid", "paid", "shipped", "pending", "refunded"]), _day(now, rng, 1, 120)])
    specs = [
        ("customers", "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, company TEXT, "
                      "city TEXT, country TEXT, created_at TEXT)", customers),
        ("products", "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, unit_price REAL NOT NULL, category TEXT)",
         products),
        ("orders", "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), "
                   "product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, amount REAL NOT NULL, "
                   "status TEXT NOT NULL, ordered_at TEXT NOT NULL)", sorted(orders, key=lambda r: r[6])),
    ]
    with _database([]) as db:  # the columns as SQLite declares them
        for _, ddl, _ in specs:
            db.execute(ddl)
        return [{"id": f"tbl_{i + 1:04d}", "name": name, "ddl": ddl, "columns": _columns(db, name), "rows": rows}
                for i, (name, ddl, rows) in enumerate(specs)]


def _day(now: str, rng: random.Random, lo: int, hi: int) -> str:
    when = datetime.fromisoformat(now.replace("Z", "+00:00")) - timedelta(days=rng.randint(lo, hi), hours=rng.randint(0, 9))
    return when.strftime("%Y-%m-%d %H:%M:%S")


# -- running a statement ------------------------------------------------------------------------

def run_sql(svc: Any, t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """One call of a SQL tool against the service's database (its `sql_tables` table)."""
    table = svc.db[SQL_TABLES]
    tables = sorted(table, key=lambda r: r["id"])
    if t.sql == "tables":
        return {"tables": [r["name"] for r in tables]}
    if t.sql == "describe":
        return _describe(tables, args.get(table_param(t.input_schema.get("properties") or {}) or ""))
    param = statement_param(t.original, t.description, t.input_schema.get("properties") or {})
    text = args.get(param or "")
    if not isinstance(text, str) or not text.strip():
        raise ToolError(f"give one SQL statement in '{param}'")
    stmt = text.strip().rstrip(";").strip()
    verb = (stmt.split(None, 1)[0] if stmt else "").lower()
    if t.sql == "read" and verb in WRITE_STATEMENTS:
        raise ToolError(f"this tool only reads: give one SELECT statement ({verb.upper()} changes data; "
                        "use the service's tool that writes)")
    if t.sql == "write" and verb in READ_STATEMENTS:
        raise ToolError("this tool only changes data or tables (INSERT, UPDATE, DELETE, CREATE, ALTER, DROP); "
                        "read with the service's SELECT tool")
    if verb == "show" and re.fullmatch(r"show\s+tables", stmt, re.I):
        names = [r["name"] for r in tables]
        return _rows_answer("SHOW TABLES", ["table_name"], [[n] for n in names])
    if verb in ("describe", "desc"):
        m = re.fullmatch(r"desc(?:ribe)?\s+[`\"\[]?(\w+)[`\"\]]?", stmt, re.I)
        if not m:
            raise ToolError("DESCRIBE takes one table name")
        d = _describe(tables, m.group(1))
        return _rows_answer("DESCRIBE", ["column_name", "data_type"], [[c["name"], c["type"]] for c in d["columns"]])
    stmt, clock = _seeded_clock(stmt, svc.now())
    with _database(tables, svc.now(), svc.ctx.seed, read_only=t.sql == "read") as db:
        base = db.total_changes
        try:
            cur = db.execute(stmt)
            cols = [clock.get(d[0], d[0]) for d in cur.description or ()]  # `SELECT CURRENT_TIMESTAMP` names its column so
            got = [list(r) for r in cur.fetchall()] if cols else []  # all of them: a change with RETURNING runs to its end
            changed = verb in WRITE_STATEMENTS or db.total_changes != base  # `WITH ... INSERT` changes data too
            answer = _rows_answer(verb.upper(), cols, got) if cols else {"statement": verb.upper(), "rows_affected": max(cur.rowcount, 0)}
            if cols and changed:
                answer["rows_affected"] = len(got)  # `INSERT ... RETURNING id`: the rows it made, and how many
            if changed:
                db.commit()
        except sqlite3.Error as exc:
            raise ToolError(f"SQL error: {_said(exc)}") from None
        after = _dump(db) if changed else None
    if after is not None:
        _store(table, tables, after)
    return answer


def _said(exc: sqlite3.Error) -> str:
    msg = str(exc)
    if msg == "interrupted":
        return "the statement ran too long and was stopped"
    if "not authorized" in msg:
        return ("the statement is not allowed here: ATTACH, PRAGMA and changes to information_schema never are, "
                "and a tool that only reads changes nothing")
    return msg


def _rows_answer(statement: str, cols: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    shown = rows[:MAX_ROWS]
    return {"statement": statement, "columns": cols, "rows": [dict(zip(cols, map(_json, r))) for r in shown],
            "row_count": len(shown), "truncated": len(rows) > MAX_ROWS}


def _json(v: Any) -> Any:
    return v.hex() if isinstance(v, bytes) else v


def _describe(tables: list[Record], name: Any) -> dict[str, Any]:
    row = next((r for r in tables if isinstance(name, str) and r["name"].lower() == name.strip().strip('`"[]').lower()), None)
    if row is None:
        raise NotFoundError(f"no table '{name}'; tables: {', '.join(r['name'] for r in tables) or 'none'}")
    return {"table": row["name"], "columns": row["columns"], "row_count": len(row["rows"])}


_CLOCK_WORDS = re.compile(r"\b(CURRENT_TIMESTAMP|CURRENT_DATE|CURRENT_TIME)\b|'now'|\"now\"", re.I)
_QUOTED = re.compile(r"('(?:[^']|'')*')")


def _seeded_clock(stmt: str, now: str) -> tuple[str, dict[str, str]]:
    """`CURRENT_TIMESTAMP` and `date('now')` read the service's clock, not the machine's (outside quoted
    text), and the column a clock word names keeps that word's name: the statement, and its columns."""
    ts = now.replace("T", " ").replace("Z", "")
    literal = {"current_timestamp": f"'{ts}'", "current_date": f"'{ts[:10]}'", "current_time": f"'{ts[11:]}'"}
    named: dict[str, str] = {}

    def sub(m: re.Match[str]) -> str:
        word = m.group(0)
        value = literal.get(word.lower(), f"'{ts}'")
        if word.lower() in literal:
            named[value] = word
        return value

    parts = _QUOTED.split(stmt)
    out = "".join(p if i % 2 and p.lower() != "'now'" else _CLOCK_WORDS.sub(sub, p) for i, p in enumerate(parts))
    return out, named


class _database:
    """A fresh in-memory SQLite database holding `tables`, closed on exit (a context manager)."""

    def __init__(self, tables: list[Record], now: str = "2026-01-01T00:00:00Z", seed: int = 0, read_only: bool = False) -> None:
        self.tables, self.now, self.seed, self.read_only = tables, now.replace("T", " ").replace("Z", ""), seed, read_only

    def __enter__(self) -> sqlite3.Connection:
        db = self.db = sqlite3.connect(":memory:", isolation_level="DEFERRED")
        db.execute("ATTACH DATABASE ':memory:' AS information_schema")
        db.execute("CREATE TABLE information_schema.tables (table_schema TEXT, table_name TEXT, table_type TEXT)")
        db.execute("CREATE TABLE information_schema.columns (table_schema TEXT, table_name TEXT, column_name TEXT, "
                   "ordinal_position INTEGER, data_type TEXT)")
        for r in self.tables:
            db.execute(r["ddl"])
            if r["rows"]:
                marks = ",".join("?" * len(r["columns"]))
                db.executemany(f'INSERT INTO "{r["name"]}" VALUES ({marks})', r["rows"])
            db.execute("INSERT INTO information_schema.tables VALUES ('public', ?, 'BASE TABLE')", (r["name"],))
            db.executemany("INSERT INTO information_schema.columns VALUES ('public', ?, ?, ?, ?)",
                           [(r["name"], c["name"], i + 1, c["type"]) for i, c in enumerate(r["columns"])])
        db.commit()
        rng = random.Random(f"sql/{self.seed}/{self.now}")
        db.create_function("random", 0, lambda: rng.randint(-(2 ** 63), 2 ** 63 - 1))
        for fn, value in (("now", self.now), ("datetime", self.now), ("date", self.now[:10]), ("time", self.now[11:])):
            db.create_function(fn, 0, lambda v=value: v)
        steps = iter(range(MAX_STEPS // 1000))
        db.set_progress_handler(lambda: next(steps, None) is None, 1000)
        db.set_authorizer(_reader if self.read_only else _authorize)
        return db

    def __exit__(self, *exc: Any) -> None:
        self.db.close()


_CHANGES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE, sqlite3.SQLITE_CREATE_TABLE,
                      sqlite3.SQLITE_DROP_TABLE, sqlite3.SQLITE_ALTER_TABLE, sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_DROP_INDEX,
                      sqlite3.SQLITE_CREATE_VIEW, sqlite3.SQLITE_DROP_VIEW, sqlite3.SQLITE_CREATE_TRIGGER, sqlite3.SQLITE_DROP_TRIGGER})


def _authorize(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_PRAGMA):
        return sqlite3.SQLITE_DENY
    if dbname == "information_schema" and action in _CHANGES:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _reader(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
    """A read tool's statement changes nothing (`WITH gone AS (...) DELETE ...` is refused too)."""
    return sqlite3.SQLITE_DENY if action in _CHANGES else _authorize(action, arg1, arg2, dbname, source)


def _columns(db: sqlite3.Connection, name: str) -> list[dict[str, str]]:
    db.set_authorizer(None)
    return [{"name": c[1], "type": c[2] or ""} for c in db.execute(f'PRAGMA main.table_info("{name}")')]


def _dump(db: sqlite3.Connection) -> list[tuple[str, str, list[dict[str, str]], list[list[Any]]]]:
    """The main database's tables after a change: name, CREATE statement, columns, rows in rowid order."""
    db.set_authorizer(None)
    out = []
    for name, ddl in db.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                "ORDER BY rowid"):
        cols = _columns(db, name)
        rows = [list(map(_json, r)) for r in db.execute(f'SELECT * FROM main."{name}"')]
        out.append((name, ddl, cols, rows))
    return out


def _store(table: Any, before: list[Record], after: list[tuple[str, str, list[dict[str, str]], list[list[Any]]]]) -> None:
    """The service's tables become the database's: changed ones updated, new ones added, dropped ones removed."""
    old = {r["name"]: r for r in before}
    for name, ddl, cols, rows in after:
        r = old.pop(name, None)
        if r is None:
            table.insert({"name": name, "ddl": ddl, "columns": cols, "rows": rows})
        elif (r["ddl"], r["columns"], r["rows"]) != (ddl, cols, rows):
            table.update(r["id"], ddl=ddl, columns=cols, rows=rows)
    for r in old.values():
        table.delete(r["id"])


def examples(tables: list[Record], write: bool, rng: random.Random) -> Iterator[str]:
    """Statements a careful agent might run on these tables: a filtered SELECT, or an UPDATE of one row."""
    for r in sorted(tables, key=lambda r: r["id"]):
        if not r["rows"] or not r["columns"]:
            continue
        cols = [c["name"] for c in r["columns"]]
        row = r["rows"][rng.randrange(len(r["rows"]))]
        text_col = next((i for i, v in enumerate(row) if isinstance(v, str) and i > 0), None)
        if write:
            if text_col is not None:
                yield (f"UPDATE {r['name']} SET {cols[text_col]} = {_literal(row[text_col])} "
                       f"WHERE {cols[0]} = {_literal(row[0])}")
        elif text_col is not None:
            yield f"SELECT {', '.join(cols[:4])} FROM {r['name']} WHERE {cols[text_col]} = {_literal(row[text_col])}"
        else:
            yield f"SELECT * FROM {r['name']} LIMIT 5"


def _literal(v: Any) -> str:
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return "NULL" if v is None else str(v)
