"""Agents that roll out on tasks: the reference teacher, a seeded mistake-making policy, and any LLM.

An agent's `run(task, episode, seed, rollout_index)` appends to `episode.messages` (which starts
with the system and user messages) and acts on `episode.env` only through tool calls. It sees the
task's instruction; the teacher and the perturbed policy also follow the task's plan, but every
value they send is read from an earlier tool result, as an agent would have to.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

import orjson

from compoworld.rollout.trajectory import Episode
from compoworld.tasks.model import PlanStep, Task
from compoworld.tasks.solution import pick, resolve

TurnKwargs = Callable[[int, list[dict[str, Any]]], dict[str, Any]]


class Agent(Protocol):
    kind: str  # reference | perturbed | litellm
    model: str

    @property
    def label(self) -> str:
        """Identifies the agent and its settings in group ids (same label + seed = same group)."""
        ...

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None: ...


def _reasoning(step: PlanStep) -> str:
    if step.reasoning:
        return step.reasoning
    service = step.tool.split("__", 1)[0]
    return f"Next I'll call {step.tool.split('__', 1)[-1].replace('_', ' ')} in {service}."


def _summary(done: list[PlanStep]) -> str:
    writes = [s for s in done if s.purpose != "lookup"]
    if not writes:
        return "I looked everything up, but there was nothing I could change."
    parts = [f"{s.tool.split('__', 1)[-1].replace('_', ' ')} in {s.service}" for s in writes]
    return "Done. Changes made: " + "; ".join(parts) + "."


def _read(content: str) -> Any:
    """What the agent sees is the tool message text, so values are read from it (not from `obs.data`)."""
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return None


@dataclass(frozen=True)
class Mistakes:
    """A rollout's mistakes, decided up front from its seed: per plan step (skip, near_duplicate,
    extra_write), stale overrides, and the step after which it gives up."""

    p: float = 0.0
    per_step: Mapping[int, str] = field(default_factory=dict)
    stale: Mapping[str, Any] = field(default_factory=dict)
    give_up_after: int | None = None

    def describe(self) -> dict[str, Any]:
        return {"mistake_p": round(self.p, 4), "mistakes": [{"step": i, "kind": k} for i, k in sorted(self.per_step.items())],
                "stale": bool(self.stale), "give_up_after": self.give_up_after}


def play(task: Task, episode: Episode, mistakes: Mistakes = Mistakes()) -> None:
    """Follow the plan like an agent: resolve each call from values read out of earlier tool results."""
    bindings: dict[str, Any] = {}
    done: list[PlanStep] = []
    for i, step in enumerate(task.plan):
        if mistakes.give_up_after is not None and i >= mistakes.give_up_after:
            episode.answer("I think that covers the request.")  # gives up, believing it is done
            return
        kind = mistakes.per_step.get(i)
        if kind == "skip":
            continue
        obs = episode.call(step.tool, resolve(step.arguments, bindings), _reasoning(step))
        data = _read(obs.content) if obs.ok else None
        for ex in step.extract:
            if ex.var in mistakes.stale:  # remembers the value from before it was updated
                bindings[ex.var] = mistakes.stale[ex.var]
            elif obs.ok:
                bindings[ex.var] = pick(data, ex, bindings, choose=1 if kind == "near_duplicate" else 0)
            else:
                bindings[ex.var] = None
        done.append(step)
        if kind == "extra_write":
            episode.call(step.tool, resolve(step.arguments, bindings), "Let me make sure that went through; I'll send it again.")
    episode.answer(_summary(done))


class ReferenceTeacher:
    """Solves a task by playing its plan, discovering every value through tool results."""

    kind = "reference"
    model = ""

    @property
    def label(self) -> str:
        return "reference"

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        play(task, episode)


class PerturbedPolicy:
    """The teacher with seeded mistakes of the kinds real agents make.

    Each rollout draws its own mistake probability p from `p_range` (a few are clean, some are
    sloppy), so a group has a spread of partial credit; then each plan step independently goes
    wrong with probability p (skip it, take the near-duplicate record, or repeat a write), the
    rollout uses the stale values with probability p (when the task has them), and gives up
    early with probability p / 2.
    """

    kind = "perturbed"
    model = ""

    def __init__(self, seed: int = 0, p_range: tuple[float, float] = (0.0, 0.4)) -> None:
        self.seed = seed
        self.p_range = p_range

    @property
    def label(self) -> str:
        return f"perturbed(seed={self.seed},p={self.p_range[0]:g}-{self.p_range[1]:g})"

    def mistakes(self, task: Task, seed: int, rollout_index: int) -> Mistakes:
        rng = random.Random(f"perturbed/{self.seed}/{task.id}/{seed}/{rollout_index}")
        p = rng.uniform(*self.p_range)
        per_step: dict[int, str] = {}
        for i, step in enumerate(task.plan):
            if rng.random() >= p:
                continue
            kinds = ["skip"]
            if step.extract:
                kinds.append("near_duplicate")
            if step.purpose != "lookup":
                kinds.append("extra_write")
            per_step[i] = rng.choice(kinds)
        stale = dict(task.stale) if task.stale and rng.random() < p else {}
        give_up = rng.randrange(1, len(task.plan)) if len(task.plan) > 1 and rng.random() < p / 2 else None
        return Mistakes(p, per_step, stale, give_up)

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        m = self.mistakes(task, seed, rollout_index)
        play(task, episode, m)
        episode.meta = m.describe()


def _clean_message(message: Mapping[str, Any], step0: int) -> dict[str, Any]:
    """The assistant message as an OpenAI-style dict: provider extras dropped, arguments as a JSON
    string (as sent: a malformed string stays malformed), and tool call ids renumbered `call_<step>`.
    Providers make random ids; canonical ones (used consistently in the tool messages) keep the
    trajectory id and the cache keys of later turns reproducible."""
    out: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("reasoning_content"):
        out["reasoning_content"] = message["reasoning_content"]
    calls = []
    for j, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function") or {}
        args = fn.get("arguments")
        if not isinstance(args, str):
            args = orjson.dumps(args if args is not None else {}).decode()
        calls.append({"id": f"call_{step0 + j}", "type": "function",
                      "function": {"name": fn.get("name") or "", "arguments": args}})
    if calls:
        out["tool_calls"] = calls
    return out


class LiteLLMAgent:
    """Any model LiteLLM can call, with native tool calling over the environment's OpenAI catalog.

    The episode ends when the model answers without tool calls, after `max_steps` tool calls, or
    once the episode has used `max_total_tokens`. All calls go through `compoworld.llm.chat`
    (cache, retries with backoff). `turn_kwargs(turn, messages)` adds LiteLLM arguments for one
    turn (e.g. `mock_tool_calls` in offline tests); `litellm_kwargs` apply to every turn.
    With temperature > 0 each rollout passes its own `seed`, so the rollouts of a group differ
    (and are cached separately) while a rerun reproduces them.
    """

    kind = "litellm"

    def __init__(self, model: str, api_base: str | None = None, max_steps: int = 30, max_tokens: int | None = 2048,
                 max_total_tokens: int | None = None, temperature: float = 0.0, cache: bool = True,
                 turn_kwargs: TurnKwargs | None = None, **litellm_kwargs: Any) -> None:
        self.model = model
        self.api_base = api_base
        self.max_steps = max_steps
        self.max_tokens = max_tokens
        self.max_total_tokens = max_total_tokens
        self.temperature = temperature
        self.cache = cache
        self.turn_kwargs = turn_kwargs
        self.litellm_kwargs = litellm_kwargs

    @property
    def label(self) -> str:
        return f"litellm:{self.model}(t={self.temperature:g})"

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        from compoworld.llm import chat

        tools = episode.env.tools_openai()
        turn = 0
        while True:
            if episode.steps >= self.max_steps:
                episode.stop_reason = "max_steps"
                return
            used = (episode.prompt_tokens or 0) + (episode.completion_tokens or 0)
            if self.max_total_tokens is not None and used >= self.max_total_tokens:
                episode.stop_reason = "max_tokens"
                return
            kwargs = dict(self.litellm_kwargs)
            if self.temperature > 0:
                kwargs.setdefault("seed", _rollout_seed(task.id, seed, rollout_index))
                kwargs.setdefault("drop_params", True)  # best effort: providers without `seed` just sample
            if self.turn_kwargs is not None:
                kwargs.update(self.turn_kwargs(turn, episode.messages))
            response = chat(self.model, list(episode.messages), tools=tools, temperature=self.temperature,
                            max_tokens=self.max_tokens, api_base=self.api_base, cache=self.cache, **kwargs)
            episode.add_usage(response.usage)
            message = _clean_message(response.message, episode.steps)
            episode.messages.append(message)
            turn += 1
            calls = message.get("tool_calls") or []
            if not calls:
                episode.stop_reason = "answered"
                return
            # Every call of the turn gets its tool message (the API requires one per call id), even past
            # the step limit; the limit is checked before the next model call.
            for call in calls:
                episode.run_tool_call(call["id"], call)


def _rollout_seed(task_id: str, seed: int, rollout_index: int) -> int:
    return random.Random(f"llm/{task_id}/{seed}/{rollout_index}").randrange(2**31)


def make_agent(spec: str, seed: int = 0, **kwargs: Any) -> Agent:
    """`reference`, `perturbed` or `litellm:MODEL` (kwargs go to the LiteLLM agent)."""
    if spec == "reference":
        return ReferenceTeacher()
    if spec == "perturbed":
        return PerturbedPolicy(seed=seed)
    if spec.startswith("litellm:") and len(spec) > len("litellm:"):
        return LiteLLMAgent(spec[len("litellm:"):], **kwargs)
    raise ValueError(f"unknown agent {spec!r}; expected reference, perturbed or litellm:MODEL")
