"""The tools catalog of a task's environment, rebuilt from its service list.

The warehouse stores each trajectory's messages but not the catalog the agent saw (it is the same
large list for every rollout of an environment). It is a pure function of the composed service
classes, so it is rebuilt here exactly as the rollout built it: `Environment` over the task's
environment services in sorted order (what `build_env` does), then `tools_openai()`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from compoworld.services.environment import Environment
from compoworld.services.registry import get_service


@lru_cache(maxsize=256)
def _catalog(services: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    env = Environment([get_service(s) for s in services], seed=0)
    return tuple(env.tools_openai())


def tools_catalog(services: Sequence[str]) -> list[dict[str, Any]]:
    """OpenAI-style function schemas of the environment's tools (namespaced `service__tool`)."""
    return list(_catalog(tuple(sorted(set(services)))))
