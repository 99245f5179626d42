"""What the designer and its motifs share: the carried value, the design failure, joinable types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compoworld.services.semantics import NON_JOINING


class DesignError(Exception):
    """The walk could not be instantiated; `reason` is recorded with the rejection."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Carry:
    var: str
    sem: str
    value: Any
    field: str  # the field it was read from, for the instruction
    entity: str
    service: str
    visit: int


def joinable(sem: str) -> bool:
    """A type that can carry a value from one service to another (not free text, not an id)."""
    return bool(sem) and sem not in NON_JOINING and "." not in sem
