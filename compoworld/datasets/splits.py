"""Train/test splits held out by service set.

A test task must not share its service set with any train task, under either reading of "service
set": the services the task connects, or the whole environment (distractors included). Tasks that
share either set are joined (union-find), and each joined group goes wholly to one split.

A group's split is a pure function of its key (the smallest set key in it), the salt and the test
fraction, so a service set keeps its split as the warehouse grows, and the SFT and RL datasets
(built from the same tasks) agree.
"""

from __future__ import annotations

from typing import Iterable, Literal

from compoworld.canonical import short_hash

Split = Literal["train", "test"]


def set_key(prefix: str, services: Iterable[str]) -> str:
    return prefix + ":" + "+".join(sorted(set(services)))


def _unit(salt: str, key: str) -> float:
    # The first 16 hex digits are the digest's first 8 bytes: a uniform 64-bit draw in [0, 1).
    return int(short_hash(f"{salt}\x00{key}", 16), 16) / 2**64


def assign_splits(tasks: dict[str, tuple[Iterable[str], Iterable[str]]], test_fraction: float = 0.1,
                  salt: str = "compoworld-splits-v1") -> dict[str, Split]:
    """Map task id -> split. `tasks` maps a task id to (its connected services, its environment services).

    A group goes to test when its key hashes below `test_fraction`; if that leaves test empty while
    there are at least two groups, the group that hashes lowest goes to test, so a small build still
    has a held-out split; and the train split is never left empty.
    """
    if not 0.0 <= test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in [0, 1); got {test_fraction}")
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)  # the root is the group's smallest key

    keys: dict[str, tuple[str, str]] = {}
    for task_id, (selected, env) in tasks.items():
        k1, k2 = set_key("sel", selected), set_key("env", env)
        union(k1, k2)
        keys[task_id] = (k1, k2)
    groups = sorted({find(k1) for k1, _ in keys.values()})
    if not groups:
        return {}
    test = {g for g in groups if _unit(salt, g) < test_fraction}
    if not test and len(groups) >= 2 and test_fraction > 0.0:
        test = {min(groups, key=lambda g: _unit(salt, g))}
    if test and len(test) == len(groups):  # train is never empty: the highest-hashing group stays in it
        test.discard(max(groups, key=lambda g: _unit(salt, g)))
    return {task_id: ("test" if find(k1) in test else "train") for task_id, (k1, _) in keys.items()}
