"""Trajectory records: one rollout of an agent on a task, as OpenAI-style messages plus its scores."""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import BaseModel, Field

from compoworld.canonical import content_hash
from compoworld.services.environment import DiscoverMode, Environment, Observation
from compoworld.services.gateway import DISCOVERY_TOOLS, Gateway

SYSTEM_PROMPT = (
    "You are an operations assistant with tool access to several business services. "
    "Complete the user's request by calling tools: look records up before you change anything, "
    "use the values the tools return (never guess ids, emails or dates), change only what the "
    "request asks for, and do each change exactly once. When the work is done, reply with a short "
    "summary and no tool call."
)

# Fields left out of the content hash: they vary between identical runs (timing) or are the hash.
_UNHASHED = {"id", "elapsed_s"}


class CriterionResult(BaseModel):
    criterion_id: str
    kind: str
    service: str = ""
    passed: bool


class Trajectory(BaseModel):
    id: str = ""
    task_id: str
    group_id: str  # the GRPO group: same task, agent, model and seed
    group: int  # position of the task in the collection
    rollout_index: int
    agent: str
    model: str = ""
    seed: int
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    tools_hash: str = ""  # digest of `tools`
    final_state_hash: str
    criteria: list[CriterionResult]
    success: bool
    partial_credit: float
    steps: int  # tool calls made
    failed_calls: int
    simulated_calls: int  # observations produced by world_model tools
    call_errors: list[str | None] = Field(default_factory=list)  # error kind of each tool call, None when it succeeded
    stop_reason: str = "answered"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    meta: dict[str, Any] = Field(default_factory=dict)  # agent-specific notes (e.g. the mistakes it made)
    discover_mode: DiscoverMode = "direct"  # the tools the agent was given: every tool, or the gateway's four
    elapsed_s: float = 0.0

    def content_id(self) -> str:
        # The catalog, by far the largest field, enters through its digest (same catalog, same digest).
        # Every trajectory was direct before gateway mode existed: the mode enters only when it is not,
        # so their ids stay what they were.
        unhashed = _UNHASHED | {"tools"} | ({"discover_mode"} if self.discover_mode == "direct" else set())
        body = self.model_dump(mode="json", exclude=unhashed)
        body["tools_hash"] = self.tools_hash or catalog_hash(self.tools)
        return "traj_" + content_hash(body)

    @property
    def discovery_calls(self) -> int:
        """Gateway calls that only discover tools (list_services, list_tools, describe_tool)."""
        if self.discover_mode != "gateway":
            return 0
        return sum(step["tool"] in DISCOVERY_TOOLS for step in self.tool_steps())

    def criterion_vector(self) -> list[float]:
        return [1.0 if c.passed else 0.0 for c in self.criteria]

    def tool_steps(self) -> list[dict[str, Any]]:
        """One row per tool call (tool, arguments as sent, observation text, error flag), in order."""
        results = {m.get("tool_call_id"): m.get("content", "") for m in self.messages if m.get("role") == "tool"}
        rows: list[dict[str, Any]] = []
        for m in self.messages:
            for call in m.get("tool_calls") or []:
                fn = call.get("function", {})
                n = len(rows)
                rows.append({"step": n, "tool": fn.get("name"), "arguments_json": fn.get("arguments"),
                             "observation_json": results.get(call.get("id"), ""),
                             "is_error": n < len(self.call_errors) and self.call_errors[n] is not None})
        return rows


def catalog_hash(tools: list[dict[str, Any]]) -> str:
    return content_hash(tools)


def group_id(task_id: str, agent: str, model: str, seed: int, discover_mode: DiscoverMode = "direct") -> str:
    # Rollouts in different modes are not one GRPO group; direct groups keep the ids they always had.
    mode = [discover_mode] if discover_mode != "direct" else []
    return "grp_" + content_hash([task_id, agent, model, seed, *mode])


def dumps_arguments(arguments: Any) -> str:
    # Not canonical on purpose: the arguments as the agent sent them, keys in its order.
    return orjson.dumps(arguments).decode()


def loads_arguments(raw: Any) -> Any:
    """Arguments as a JSON object; a string that is not valid JSON stays a string (as the model sent it)."""
    if isinstance(raw, str):
        try:
            return json.loads(raw) if raw.strip() else {}
        except ValueError:
            return raw
    return raw if raw is not None else {}


@dataclass
class Episode:
    """The conversation an agent builds against a live environment (or the gateway in front of it);
    the runner turns it into a Trajectory."""

    env: Environment | Gateway
    messages: list[dict[str, Any]]
    observations: list[Observation] = field(default_factory=list)
    stop_reason: str = "answered"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # agent-specific notes (e.g. the mistakes it made)

    @property
    def steps(self) -> int:
        return len(self.observations)

    @property
    def discover_mode(self) -> DiscoverMode:
        return self.env.discover_mode

    def call(self, name: str, arguments: Any, reasoning: str = "") -> Observation:
        """One assistant turn with a single tool call, run on the environment, and its tool message."""
        call_id = f"call_{self.steps}"
        self.messages.append({"role": "assistant", "content": reasoning,
                              "tool_calls": [{"id": call_id, "type": "function",
                                              "function": {"name": name, "arguments": dumps_arguments(arguments)}}]})
        return self.run_tool_call(call_id, {"name": name, "arguments": arguments})

    def run_tool_call(self, call_id: str, call: Any) -> Observation:
        """Run a call the assistant already made (in the last message) and append its tool message."""
        obs = self.env.step(call)
        self.observations.append(obs)
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": obs.content})
        return obs

    def answer(self, text: str, stop_reason: str = "answered") -> None:
        self.messages.append({"role": "assistant", "content": text})
        self.stop_reason = stop_reason

    def add_usage(self, usage: Any) -> None:
        if not usage:
            return
        get = usage.get if isinstance(usage, dict) else (lambda k: getattr(usage, k, None))
        for attr, key in (("prompt_tokens", "prompt_tokens"), ("completion_tokens", "completion_tokens")):
            value = get(key)
            if isinstance(value, int):
                setattr(self, attr, (getattr(self, attr) or 0) + value)
