"""Item ids: what a stage's failures, retries and progress are about.

Each stage has one item type. An item is a small frozen model; `encode()` gives the id stored in
`failures.item_id` and `decode()` parses it back with one strict pattern, so a malformed id is an
error rather than a silently wrong split.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from compoworld.canonical import short_hash
from compoworld.errors import UserError


class Item(BaseModel):
    model_config = ConfigDict(frozen=True)

    pattern: ClassVar[re.Pattern[str]]
    form: ClassVar[str]  # how the id reads, for error messages

    def encode(self) -> str:
        raise NotImplementedError

    @classmethod
    def decode(cls, text: str) -> Item:
        m = cls.pattern.fullmatch(text)
        if m is None:
            raise UserError(f"{text!r} is not a {cls.__name__} id (expected {cls.form})")
        return cls.model_validate(m.groupdict())


class Named(Item):
    """A stage with one item per named thing: the corpus, the graph, a service, the datasets."""

    pattern = re.compile(r"(?P<name>[^\s|]+)")
    form = "a name without spaces"
    name: str

    def encode(self) -> str:
        return self.name


class TaskIndex(Item):
    """Task number `index` of the run with root seed `seed`: a walk draw, a design."""

    pattern = re.compile(r"task-(?P<seed>-?\d+)-(?P<index>\d+)")
    form = "task-<seed>-<index>"
    seed: int
    index: int

    def encode(self) -> str:
        return f"task-{self.seed}-{self.index}"


class Group(Item):
    """The rollout group of one agent on one task."""

    pattern = re.compile(r"(?P<agent>.+)\|(?P<task_id>task_[0-9a-f]{16})")
    form = "<agent>|task_<16 hex digits>"
    agent: str
    task_id: str

    def encode(self) -> str:
        return f"{self.agent}|{self.task_id}"


# -- part names ----------------------------------------------------------------------------------------
def _slug(text: str) -> str:
    """A part-name-safe form of a free string; the hash keeps `a/b` and `a-b` apart."""
    slug = re.sub(r"[^A-Za-z0-9.+=-]+", "-", text).strip("-.") or "x"
    return f"{slug[:40]}-{short_hash(text, 6)}"


def range_part(stage: str, start: int, end: int, agent: str | None = None) -> str:
    """The part of a batch of task indexes [start, end), for one agent where the stage has agents."""
    who = f"-{_slug(agent)}" if agent is not None else ""
    return f"{stage}{who}-{start:06d}-{end:06d}"


def named_part(stage: str, name: str) -> str:
    return f"{stage}-{_slug(name)}"
