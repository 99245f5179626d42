"""The layout's rules, read from the source with `ast`: who may import whom, where Prefect and
SQL may appear, and no import cycles. A rule broken here is a boundary leaking somewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "compoworld"
FLOWS = ROOT / "flows"
# SQL as it is written in queries: upper-case statements with their clause (prose says "select").
SQL = re.compile(r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|CREATE\s+(OR\s+REPLACE\s+)?"
                 r"(TABLE|VIEW)|COPY\s*\(|ATTACH\s+'|WITH\s+\w+\s+AS\s*\()")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(*roots: Path) -> list[Path]:
    return sorted(p for r in roots for p in r.rglob("*.py"))


def imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (lazy imports inside functions count: they run)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in runtime_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
    return found


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node, except those under `if TYPE_CHECKING:` (imports for annotations never run)."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def first_party_graph() -> nx.DiGraph:
    files = {module_name(p): p for p in sources(PACKAGE, FLOWS)}
    g = nx.DiGraph()
    g.add_nodes_from(files)
    for name, path in files.items():
        for target in imports(path):
            if target in files and target != name:
                g.add_edge(name, target)
    return g


def test_no_import_cycles() -> None:
    g = first_party_graph()
    # A package's __init__ importing its own submodules is how packages expose names, not a cycle
    # between two units of code; every other cycle is.
    def is_reexport(a: str, b: str) -> bool:
        return b.startswith(a + ".") or a.startswith(b + ".")

    h = nx.DiGraph([(a, b) for a, b in g.edges if not is_reexport(a, b)])
    cycles = list(nx.simple_cycles(h))
    assert cycles == [], f"import cycles: {cycles[:5]}"


@pytest.mark.parametrize("path", sources(PACKAGE), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_library_never_imports_flows_or_prefect(path: Path) -> None:
    bad = {m for m in imports(path) if m.split(".")[0] in ("flows", "prefect", "prefect_dask")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: Prefect and flows/ live only under flows/"


@pytest.mark.parametrize("path", sources(PACKAGE / "services"), ids=lambda p: str(p.relative_to(ROOT)))
def test_services_know_nothing_of_synthesis_or_tasks(path: Path) -> None:
    bad = {m for m in imports(path) if m.startswith(("compoworld.synthesis", "compoworld.tasks", "compoworld.rollout"))}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def sql_strings(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            out.append((node.lineno, node.value.strip().splitlines()[0][:80]))
    return out


# The SQL database of compiled services (synthesis/sql.py) runs the statements agents send a SQL tool;
# its statements (the seeded tables, the fidelity check's probes) are its subject, not warehouse queries.
SQL_HOMES = (PACKAGE / "warehouse.py", PACKAGE / "synthesis" / "sql.py")


@pytest.mark.parametrize("path", [p for p in sources(PACKAGE, FLOWS) if p not in SQL_HOMES],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_sql_lives_only_in_the_warehouse(path: Path) -> None:
    found = sql_strings(path)
    assert not found, f"SQL in {path.relative_to(ROOT)}: {found} (move it to compoworld/warehouse.py or warehouse/*.sql)"


def test_the_rules_can_fail(tmp_path: Path) -> None:
    """The checks above see what they look for: a lazy import, a relative import, SQL in a string."""
    f = tmp_path / "compoworld" / "x.py"
    f.parent.mkdir()
    f.write_text("def g():\n    from prefect import flow\n    return 'SELECT a FROM b'\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert "prefect" in imports(f) and sql_strings(f)
    finally:
        ROOT = saved
