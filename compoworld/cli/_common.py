"""Helpers shared by the command modules: output and the warehouse location."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from compoworld.warehouse import Warehouse


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=None, default=str))


def print_summary(summary: dict[str, Any], as_json: bool) -> None:
    """A command's summary: one JSON line, or `key: value` lines (scalars and small mappings)."""
    if as_json:
        print_json(summary)
        return
    for key, value in summary.items():
        if not isinstance(value, list):
            print(f"{key:>22}: {value}")


def print_rows(rows: list[dict[str, Any]], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) if rows else len(c) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in columns))


def warehouse(args: argparse.Namespace, config_value: str | None = None) -> Warehouse:
    """The warehouse a command writes (its folders are made when it is first written)."""
    from compoworld.warehouse import Warehouse, resolve_warehouse_dir

    return Warehouse(resolve_warehouse_dir(getattr(args, "warehouse", None), config_value))


def existing_warehouse(args: argparse.Namespace, config_value: str | None = None) -> Warehouse:
    """The warehouse a command reads: a `UserError` that says what to do when there is none."""
    return warehouse(args, config_value).require_existing()


def error(message: str) -> int:
    """Print a one-line error and return the exit code for bad input (raising `UserError` does the same)."""
    print(f"error: {message}", file=sys.stderr)
    return 2
