"""One canonical JSON, one short hash and one timestamp format for the whole package.

Equal values give equal text, equal text gives equal ids: every content hash in the warehouse
(task, trajectory, criterion, check, spec, dataset ids), every cache key and every part name that
derives from a value goes through here, so two modules can never disagree on what "the same" is.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime
from typing import Any

import orjson

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # the one textual form of a datetime in records (UTC, seconds)
DATE_FORMAT = "%Y-%m-%d"


def canonical_bytes(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def canonical_json(value: Any) -> str:
    return canonical_bytes(value).decode()


def short_hash(data: bytes | str, n: int = 16) -> str:
    """The first `n` hex digits of the SHA-256 of raw text or bytes."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:n]


def content_hash(value: Any, n: int = 16) -> str:
    """`short_hash` of a value's canonical JSON: the id of anything identified by its content."""
    return short_hash(canonical_bytes(value), n)


def format_timestamp(when: datetime) -> str:
    return when.strftime(TIMESTAMP_FORMAT)


def format_date(when: date | datetime) -> str:
    return when.strftime(DATE_FORMAT)


def parse_timestamp(text: str) -> datetime:
    """A record timestamp (or a bare date, at midnight) back to an aware UTC datetime."""
    if len(text) == 10:
        return datetime.strptime(text, DATE_FORMAT).replace(tzinfo=UTC)
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
