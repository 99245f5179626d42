"""The environment's seeded clock: the only source of time a service may read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from compoworld.canonical import format_date, format_timestamp

EPOCH = datetime(2026, 1, 5, 9, 0, 0, tzinfo=UTC)
TICK = timedelta(seconds=30)


class Clock:
    """Starts at a seed-derived business morning and advances a fixed tick per environment step."""

    __slots__ = ("start", "_now")

    def __init__(self, seed: int) -> None:
        self.start = EPOCH + timedelta(days=seed % 364)
        self._now = self.start

    def tick(self) -> None:
        self._now += TICK

    def now(self) -> str:
        return format_timestamp(self._now)

    def today(self) -> str:
        return format_date(self._now)

    def datetime(self) -> datetime:
        return self._now
