"""The product environment behind TRL's environment interface (`GRPOTrainer(environment_factory=...)`).

TRL exposes an environment's public methods as the model's tools (schema from each method's type
hints and Google-style docstring, dispatch by method name) and calls `reset(**row)` with the
dataset row before each rollout. Our environments differ per task (each composes its own services),
so `TaskEnvironment.for_services(services)` builds one subclass per service set whose methods are
that environment's namespaced tools (`crm__find_companies(...)`); the RL dataset's rows name their
set, and `environment_factories(rows)` gives TRL the `{name: class}` mapping it routes by.

`reset(**row)` rebuilds the task's initial state from the row (services, seed, the task's records)
and checks it against the row's `initial_state_hash`; each tool call goes through
`Environment.step` (never raises, a failed call changes nothing) and returns the observation text;
`criteria` scores the rubric on the state reached, which the reward function turns into the
Completion-Focused Rubric Reward of the rollout group.

In gateway mode (`for_services(services, "gateway")`, for rows whose `discover_mode` is gateway) the
methods are the four meta-tools of `compoworld.services.gateway` and each call goes through
`Gateway.step`; the rubric still reads the environment's state.
"""

from __future__ import annotations

import inspect
import keyword
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from compoworld.services.environment import DiscoverMode, Environment, state_hash
from compoworld.services.gateway import Gateway, surface
from compoworld.services.registry import get_service
from compoworld.tasks.checks import score
from compoworld.tasks.factory import build_env
from compoworld.tasks.model import Criterion

_JSON_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


def env_key(services: Iterable[str], discover_mode: DiscoverMode = "direct") -> str:
    """The name of a service set's environment in a mode (TRL routes each row to it by the
    `environment` column): `crm+email`, or `gateway:crm+email`."""
    key = "+".join(sorted(set(services)))
    return key if discover_mode == "direct" else f"{discover_mode}:{key}"


def _hint(schema: dict[str, Any]) -> Any:
    """A Python type for a JSON schema, as precise as transformers' schema generator can render."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        inner = [o for o in options if o.get("type") != "null"]
        base = _hint(inner[0]) if len(inner) == 1 else Any
        return base | None if base is not Any and len(inner) < len(options) else base
    t = schema.get("type")
    if isinstance(t, list):
        non_null = [x for x in t if x != "null"]
        base = _hint({**schema, "type": non_null[0]}) if len(non_null) == 1 else Any
        return base | None if base is not Any and "null" in t else base
    if t == "array":
        items = schema.get("items") or {}
        inner = _hint(items) if isinstance(items, dict) and items.get("type") in _JSON_TYPES else None
        return list[inner] if inner is not None else list
    return _JSON_TYPES.get(t, Any)


def _one_line(text: str) -> str:
    return " ".join(str(text).split()).replace("(choices:", "(options:")


def _docstring(description: str, params: dict[str, dict[str, Any]]) -> str:
    lines = [_one_line(description) or "A tool.", "", "Args:"]
    for name, schema in params.items():
        doc = _one_line(schema.get("description") or f"The {name.replace('_', ' ')}.")
        options = [o for o in (schema.get("anyOf") or schema.get("oneOf") or []) if isinstance(o, dict)]
        enum = schema.get("enum") or next((o["enum"] for o in options if o.get("enum")), None)
        if enum and all(isinstance(v, (str, int, float)) for v in enum):
            import json

            doc += f" (choices: {json.dumps(enum)})"
        lines.append(f"    {name}: {doc}")
    return "\n".join(lines)


def tool_method(name: str, description: str, parameters: dict[str, Any]) -> Any:
    """A method `name(self, *, param: type, ...)` that runs the tool `name` in the episode's environment.

    Returns None when a parameter name cannot be a Python argument (a keyword, say): such a tool
    cannot be offered through TRL's function-based tool interface."""
    props: dict[str, dict[str, Any]] = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    if not name.isidentifier() or keyword.iskeyword(name):
        return None
    sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for pname, pschema in props.items():
        if not pname.isidentifier() or keyword.iskeyword(pname) or pname == "self":
            return None
        hint = _hint(pschema if isinstance(pschema, dict) else {})
        annotations[pname] = hint
        default = inspect.Parameter.empty if pname in required else None
        sig_params.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
    annotations["return"] = str

    def method(self: TaskEnvironment, **arguments: Any) -> str:
        return self._call(name, arguments)

    method.__name__ = name
    method.__qualname__ = f"TaskEnvironment.{name}"
    method.__doc__ = _docstring(description, props)
    method.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    return method


@dataclass(frozen=True)
class _TaskState:
    """What `build_env` needs of a task: its environment services, seed and record overlay."""

    environment_services: list[str]
    seed: int
    initial_state: dict[str, Any]


class TaskEnvironment:
    """One rollout's environment. Use `TaskEnvironment.for_services(services)` for a class with tools."""

    services: tuple[str, ...] = ()
    discover_mode: DiscoverMode = "direct"
    skipped_tools: tuple[str, ...] = ()
    check_initial_hash: bool = True

    def __init__(self) -> None:
        self.env: Environment | None = None
        self.offered: Environment | Gateway | None = None  # what the tools call: the environment or its gateway
        self.task_id: str = ""
        self.rubric: list[Criterion] = []
        self._start: dict[str, Any] = {}
        self.calls: list[dict[str, Any]] = []
        self.answer = ""  # the rollout's closing message: report criteria read it

    def reset(self, **row: Any) -> None:
        """Rebuild the task's initial state from an RL dataset row. Returns None: the prompt is already in
        the row (TRL would append a returned string to the last user message)."""
        services = sorted(row["services"])
        if tuple(services) != self.services:
            raise ValueError(f"row needs services {services}, this environment has {list(self.services)}")
        mode = row.get("discover_mode") or "direct"  # rows built before gateway mode have no such column
        if mode != self.discover_mode:
            raise ValueError(f"row is for {mode} mode, this environment offers {self.discover_mode} tools")
        classes = {s: get_service(s) for s in services}
        self.env = build_env(_TaskState(services, int(row["seed"]), row.get("initial_state") or {}), classes)  # type: ignore[arg-type]
        self.offered = surface(self.env, self.discover_mode)
        self._start = self.env.state()
        expected = row.get("initial_state_hash")
        if self.check_initial_hash and expected and state_hash(self._start) != expected:
            raise ValueError(f"task {row.get('task_id')}: rebuilt initial state does not match its hash "
                             "(the services changed since the dataset was built)")
        self.task_id = row.get("task_id", "")
        self.rubric = [Criterion.model_validate(c) for c in row["rubric"]]
        self.calls = []
        self.answer = ""

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.offered is None:
            raise RuntimeError("call reset() before using the tools")
        obs = self.offered.step({"name": name, "arguments": arguments})
        self.calls.append({"tool": name, "arguments": arguments, "ok": obs.ok})
        return obs.content

    @property
    def criteria(self) -> list[bool]:
        """Per-criterion results of the rubric on the state reached so far (a property, so TRL does not
        offer it as a tool)."""
        if self.env is None:
            raise RuntimeError("call reset() before scoring")
        return score(self.rubric, self._start, self.env.state(), self.answer)

    @classmethod
    def for_services(cls, services: Sequence[str], discover_mode: DiscoverMode = "direct") -> type[TaskEnvironment]:
        key = env_key(services, discover_mode)
        found = _CLASSES.get(key)
        if found is None:
            names = sorted(set(services))
            catalog = surface(Environment([get_service(s) for s in names], seed=0), discover_mode).tools_openai()
            ns: dict[str, Any] = {"services": tuple(names), "discover_mode": discover_mode,
                                  "__doc__": f"CompoWorld environment ({discover_mode}): {', '.join(names)}."}
            skipped = []
            for tool in catalog:
                fn = tool["function"]
                method = tool_method(fn["name"], fn.get("description", ""), fn.get("parameters") or {})
                if method is None:
                    skipped.append(fn["name"])
                else:
                    ns[fn["name"]] = method
            ns["skipped_tools"] = tuple(skipped)
            found = _CLASSES[key] = type(f"TaskEnvironment_{len(_CLASSES)}", (cls,), ns)
        return found


_CLASSES: dict[str, type[TaskEnvironment]] = {}


def environment_factories(service_sets: Iterable[Sequence[str]],
                          discover_mode: DiscoverMode = "direct") -> dict[str, type[TaskEnvironment]]:
    """TRL's `environment_factory` mapping for these service sets in one mode (name -> class; TRL calls it)."""
    out: dict[str, type[TaskEnvironment]] = {}
    for services in service_sets:
        key = env_key(services, discover_mode)
        if key not in out:
            out[key] = TaskEnvironment.for_services(services, discover_mode)
    return out


def score_rollout(prompt: Any, completion: Any, environment: TaskEnvironment | None = None, **row: Any) -> list[bool]:
    """The rubric results of one rollout, from the environment it ran in (for `make_trl_reward_func`)."""
    if environment is None:
        raise ValueError("score_rollout needs the rollout's environment (GRPOTrainer with environment_factory)")
    environment.answer = _final_text(completion)
    return environment.criteria


def _final_text(completion: Any) -> str:
    """The closing text of a completion: a string, or the last assistant message's content."""
    if isinstance(completion, str):
        return completion
    for m in reversed(list(completion or [])):
        if isinstance(m, dict) and m.get("role") == "assistant" and m.get("content"):
            return str(m["content"])
    return ""
