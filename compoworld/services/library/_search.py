"""Fast list/search helpers for the library services: ordered pages without full sorts, memoized search text."""

from __future__ import annotations

import heapq
from typing import Any, Callable

Record = dict[str, Any]


def page_by(rows: list[Record], key: Callable[[Record], Any], limit: int, offset: int, reverse: bool = False) -> dict[str, Any]:
    """`page` in key order. Only the first offset+limit rows get ordered (heap selection, same result as a
    stable sort), so an unfiltered list of hundreds of records stays cheap."""
    n = offset + limit
    top = heapq.nlargest(n, rows, key=key) if reverse else heapq.nsmallest(n, rows, key=key)
    return {"items": top[offset:], "total": len(rows), "next_offset": n if n < len(rows) else None}


class Haystack:
    """Lower-cased search text of some fields of a record, memoized per record object.

    Records are immutable (a write replaces the dict), so a record object's text never changes; the
    cache keeps the record itself next to its text, so an id() is never mistaken for a recycled one.
    """

    __slots__ = ("fields", "cache")
    MAX = 200_000

    def __init__(self, *fields: str) -> None:
        self.fields = fields
        self.cache: dict[int, tuple[Record, str]] = {}

    def __call__(self, rec: Record) -> str:
        hit = self.cache.get(id(rec))
        if hit is not None and hit[0] is rec:
            return hit[1]
        text = "\n".join(str(rec.get(f) or "") for f in self.fields).lower()
        if len(self.cache) >= self.MAX:
            self.cache.clear()
        self.cache[id(rec)] = (rec, text)
        return text

    def filter(self, rows: list[Record], query: str | None) -> list[Record]:
        """The rows whose fields contain `query` (case-insensitive); all rows for an empty query."""
        if not query:
            return rows
        q = query.lower()
        return [r for r in rows if q in self(r)]
