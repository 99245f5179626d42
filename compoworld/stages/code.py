"""The code a stage's rows depend on, found by reading imports.

A stage's cached batches are valid while the source they were computed from is unchanged. That
source is the stage's module and every `compoworld` module it imports, directly or through others,
at module level or inside a function (lazy imports count: they run). Reading the import statements
with `ast` keeps the list true as the code changes, where a hand-kept list goes stale.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from compoworld.canonical import short_hash

PACKAGE = "compoworld"
ROOT = Path(__file__).resolve().parents[1]  # the compoworld package folder


def module_file(module: str) -> Path | None:
    """The source file of a `compoworld...` module (a package's __init__.py), or None."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(module: str) -> set[str]:
    """The `compoworld` modules one module's source imports (any depth of the syntax tree)."""
    path = module_file(module)
    if path is None:
        return set()
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node.module, node.level, is_package)
            found.add(base)
            # `from pkg import sub` imports the submodule when there is one
            found.update(f"{base}.{a.name}" for a in node.names if module_file(f"{base}.{a.name}") is not None)
    return {m for m in found if m.split(".")[0] == PACKAGE and module_file(m) is not None}


def _absolute(module: str, target: str | None, level: int, is_package: bool) -> str:
    if level == 0:
        return target or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def closure(module: str) -> set[str]:
    """The module and everything it imports inside the package, transitively (parents included:
    importing `a.b.c` runs `a/__init__` and `a/b/__init__`)."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        parts = m.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) not in seen)
        todo.extend(imported_modules(m) - seen)
    return {m for m in seen if module_file(m) is not None}


@cache
def code_version(module: str) -> str:
    chunks = []
    for m in sorted(closure(module)):
        path = module_file(m)
        assert path is not None
        chunks.append(m.encode() + b"\0" + path.read_bytes() + b"\0")
    return short_hash(b"".join(chunks))
