"""Helpers shared by the command modules: output and the warehouse location."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=None, default=str))


def print_rows(rows: list[dict[str, Any]], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) if rows else len(c) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in columns))


def warehouse(args: argparse.Namespace, config_value: str | None = None):
    from compoworld.warehouse import Warehouse, resolve_warehouse_dir

    return Warehouse(resolve_warehouse_dir(getattr(args, "warehouse", None), config_value))


def progress(total: int, desc: str):
    """A progress bar on a terminal; silent otherwise (logs and CI stay clean)."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, disable=not sys.stderr.isatty(), unit="item")


def error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
