"""Service runtime: services, tools, seeded state, and the composed product environment."""

from compoworld.services.environment import Environment, Observation, ToolCall, compose, diff_states, state_hash
from compoworld.services.semantics import Sem, entity
from compoworld.services.service import Collection, Context, Service, Table
from compoworld.services.tool import ArgumentError, NotFoundError, ToolError, ToolSpec, tool

__all__ = [
    "ArgumentError",
    "Collection",
    "Context",
    "Environment",
    "NotFoundError",
    "Observation",
    "Sem",
    "Service",
    "Table",
    "ToolCall",
    "ToolError",
    "ToolSpec",
    "compose",
    "diff_states",
    "entity",
    "state_hash",
    "tool",
]
