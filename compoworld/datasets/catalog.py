"""The tools catalog of a task's environment, rebuilt from its service list and discovery mode.

The warehouse stores each trajectory's messages but not the catalog the agent saw (it is the same
large list for every rollout of an environment). It is a pure function of the composed service
classes, so it is rebuilt here exactly as the rollout built it: `Environment` over the task's
environment services in sorted order (what `build_env` does), then `tools_openai()`. In gateway
mode the agent saw the gateway's four meta-tools, whatever the services.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from compoworld.services.environment import DiscoverMode, Environment
from compoworld.services.gateway import Gateway
from compoworld.services.registry import get_service


@lru_cache(maxsize=256)
def _catalog(services: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    env = Environment([get_service(s) for s in services], seed=0)
    return tuple(env.tools_openai())


def tools_catalog(services: Sequence[str], discover_mode: DiscoverMode = "direct") -> list[dict[str, Any]]:
    """OpenAI-style function schemas of what the agent was given: the environment's tools (namespaced
    `service__tool`), or in gateway mode the four meta-tools."""
    if discover_mode == "gateway":
        return list(Gateway.tools_openai())
    return list(_catalog(tuple(sorted(set(services)))))
