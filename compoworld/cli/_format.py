"""How the CLI prints query results: ``table`` (aligned text), ``json`` and ``csv``.

Storage lives in `compoworld.warehouse`; this module only turns rows into text.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import numbers
import uuid
from decimal import Decimal
from typing import Any, Iterable, Literal, Sequence

from compoworld.warehouse import QueryResult

OutputFormat = Literal["table", "json", "csv"]


def to_jsonable(value: Any) -> Any:
    """A JSON-safe form of a DuckDB value: ISO dates, numbers for decimals, null for NaN/inf."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.is_finite() else to_jsonable(float(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return to_jsonable(float(value))
    return str(value)


def _columns_of(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None) -> list[str]:
    if columns is not None:
        return list(columns)
    out: dict[str, None] = {}
    for r in rows:
        out.update(dict.fromkeys(r))
    return list(out)


def format_json(rows: Sequence[dict[str, Any]]) -> str:
    """One JSON array of row objects."""
    return json.dumps([{str(k): to_jsonable(v) for k, v in r.items()} for r in rows], ensure_ascii=False, allow_nan=False)


def _csv_cell(value: Any) -> str:
    v = to_jsonable(value)
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def format_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """CSV with a header row; NULL is an empty cell, nested values are JSON text."""
    cols = _columns_of(rows, columns)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_csv_cell(r.get(c)) for c in cols])
    return buf.getvalue()


def _table_cell(value: Any, max_width: int) -> str:
    if value is None:
        text = "NULL"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = format(value, ".6g")
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(to_jsonable(value), ensure_ascii=False)
    else:
        text = str(to_jsonable(value))
    text = text.replace("\n", "\\n").replace("\t", " ")
    return text if len(text) <= max_width else text[: max_width - 1] + "…"


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, *, max_width: int = 60) -> str:
    """A plain aligned text table (numbers right-aligned, long cells cut), with a row count."""
    cols = _columns_of(rows, columns)
    n = len(rows)
    footer = f"({n} row{'' if n == 1 else 's'})"
    if not cols:
        return footer
    cells = [[_table_cell(r.get(c), max_width) for c in cols] for r in rows]
    def is_number(v: Any) -> bool:
        return isinstance(v, numbers.Number) and not isinstance(v, bool)

    # A column is right-aligned when every non-NULL value in it is a number (and there is one).
    numeric = [any(is_number(r.get(c)) for r in rows) and all(is_number(r.get(c)) or r.get(c) is None for r in rows) for c in cols]
    widths = [max([len(c), *(len(row[j]) for row in cells)]) for j, c in enumerate(cols)]

    def line(values: Iterable[str]) -> str:
        parts = [v.rjust(widths[j]) if numeric[j] else v.ljust(widths[j]) for j, v in enumerate(values)]
        return "  ".join(parts).rstrip()

    out = [line(cols), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells)
    out.append(footer)
    return "\n".join(out)


def render(result: QueryResult, fmt: OutputFormat = "table") -> str:
    """Render a query result as the CLI prints it: ``table`` (default), ``json`` or ``csv``."""
    if fmt == "json":
        return format_json(result.rows)
    if fmt == "csv":
        return format_csv(result.rows, result.columns)
    if fmt == "table":
        return format_table(result.rows, result.columns)
    raise ValueError(f"unknown output format {fmt!r}; use table, json or csv")
