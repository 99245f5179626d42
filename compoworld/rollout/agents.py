"""Agents that roll out on tasks: the reference teacher, a seeded mistake-making policy, and any LLM.

An agent's `run(task, episode, seed, rollout_index)` appends to `episode.messages` (which starts
with the system and user messages) and acts on `episode.env` only through tool calls. It sees the
task's instruction; the teacher and the perturbed policy also follow the task's plan, but every
value they send is read from an earlier tool result, as an agent would have to.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Protocol

import orjson

from compoworld.rollout.trajectory import Episode
from compoworld.services.environment import SEP, DiscoverMode, Observation
from compoworld.services.gateway import Gateway
from compoworld.services.registry import get_service
from compoworld.tasks.model import PlanStep, Task
from compoworld.rollout.narration import reasoning, summary, var_fields
from compoworld.tasks.solution import applies, pick, resolve, taken

TurnKwargs = Callable[[int, list[dict[str, Any]]], dict[str, Any]]


class Agent(Protocol):
    kind: str  # reference | perturbed | litellm | local
    model: str

    @property
    def label(self) -> str:
        """Identifies the agent and its settings in group ids (same label + seed = same group)."""
        ...

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None: ...


def _read(content: str) -> Any:
    """What the agent sees is the tool message text, so values are read from it (not from `obs.data`)."""
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return None


@dataclass(frozen=True)
class Slip:
    """A discovery mistake at one plan step (gateway mode), after which the agent recovers.

    `wrong_service`: the tool is first called under `detail`, another mounted service, which has no
    tool of that name. `guess_argument`: the tool is called before it is described, with its argument
    `detail` under a guessed name (`guessed_name`); the agent then describes it and calls it right."""

    kind: Literal["wrong_service", "guess_argument"]
    detail: str


@dataclass(frozen=True)
class Mistakes:
    """A rollout's mistakes, decided up front from its seed: per plan step (skip, near_duplicate,
    extra_write), stale overrides, the step after which it gives up, and in gateway mode the
    discovery slips per plan step (None in direct mode, where there is nothing to discover)."""

    p: float = 0.0
    per_step: Mapping[int, str] = field(default_factory=dict)
    stale: Mapping[str, Any] = field(default_factory=dict)
    give_up_after: int | None = None
    slips: Mapping[int, Slip] | None = None

    def describe(self) -> dict[str, Any]:
        out = {"mistake_p": round(self.p, 4), "mistakes": [{"step": i, "kind": k} for i, k in sorted(self.per_step.items())],
               "stale": bool(self.stale), "give_up_after": self.give_up_after}
        if self.slips is not None:
            out["discovery_mistakes"] = [{"step": i, "kind": s.kind, "detail": s.detail} for i, s in sorted(self.slips.items())]
        return out


def guessed_name(argument: str, tool: str) -> str:
    """The name an agent that did not read the schema might send for `argument` of `tool`: camelCase
    for a snake_case name (`contact_id` -> `contactId`), else qualified by the tool's object
    (`email` of `create_contact` -> `contact_email`)."""
    head, *rest = argument.split("_")
    if rest:
        return head + "".join(w[:1].upper() + w[1:] for w in rest)
    noun = tool.rpartition(SEP)[2].rpartition("_")[2]
    noun = noun[:-3] + "y" if noun.endswith("ies") else noun.removesuffix("s")
    return f"{noun}_{argument}"


class DirectCalls:
    """Direct mode: every tool is in the agent's catalog, so a plan step is one call."""

    slipped = False  # nothing to discover, so no slip

    def __init__(self, episode: Episode) -> None:
        self.episode = episode

    def call(self, tool: str, arguments: dict[str, Any], reasoning: str, slip: Slip | None = None) -> Observation:
        return self.episode.call(tool, arguments, reasoning)


class GatewayCalls:
    """Gateway mode, as a careful agent works: list the services once, list a service's tools before
    using the first of them, describe a tool before its first call, then run it through call_tool.
    A slip first makes the failed call of its kind; the agent reads the error and recovers."""

    def __init__(self, episode: Episode) -> None:
        assert isinstance(episode.env, Gateway), "GatewayCalls plays an episode on a gateway"
        self.episode = episode
        self.gateway = episode.env
        self.services_listed = False
        self.listed: set[str] = set()  # services whose tools were listed
        self.described: set[str] = set()  # tools whose schema was read
        self.slipped = False  # whether the last call's slip was made (a failed call the agent recovered from)

    def call(self, tool: str, arguments: dict[str, Any], reasoning: str, slip: Slip | None = None) -> Observation:
        service, _, bare = tool.partition(SEP)
        readable = bare.replace("_", " ")
        shown = self.gateway.shown[tool]  # the name list_tools gives it
        self.slipped = False
        if not self.services_listed:
            self.episode.call("list_services", {}, "Let me see which services are available.")
            self.services_listed = True
        if slip is not None and slip.kind == "wrong_service":
            self.episode.call("call_tool", {"tool_name": f"{slip.detail}{SEP}{bare}", "arguments": arguments}, reasoning)
            self.slipped = True
            reasoning = f"{slip.detail} has no {readable}; it is a tool of {service}. {reasoning}"
        if service not in self.listed:
            self.episode.call("list_tools", {"service": service}, f"Let me see what {service} offers.")
            self.listed.add(service)
        if slip is not None and slip.kind == "guess_argument" and tool not in self.described:
            guessed = {guessed_name(k, tool) if k == slip.detail else k: v for k, v in arguments.items()}
            obs = self.run(shown, guessed, reasoning)
            if obs.ok:  # the guess happened to be a real parameter: the call is done
                return obs
            self.slipped = True
            reasoning = f"I guessed an argument name wrong; now that I have its schema, I'll call {readable} again."
        if tool not in self.described:
            self.episode.call("describe_tool", {"tool": shown}, f"Let me check the arguments of {readable} before I call it.")
            self.described.add(tool)
        return self.run(shown, arguments, reasoning)

    def run(self, tool: str, arguments: dict[str, Any], reasoning: str) -> Observation:
        return self.episode.call("call_tool", {"tool_name": tool, "arguments": arguments}, reasoning)


def play(task: Task, episode: Episode, mistakes: Mistakes = Mistakes()) -> set[int]:
    """Follow the plan like an agent: resolve each call from values read out of earlier tool results.
    Returns the plan steps whose discovery slip was made: not one on a branch this run's values ruled
    out, nor a guessed argument for a tool an earlier call of this run had already described."""
    calls = GatewayCalls(episode) if episode.discover_mode == "gateway" else DirectCalls(episode)
    slips = mistakes.slips or {}
    bindings: dict[str, Any] = {}
    done: list[PlanStep] = []
    left: list[PlanStep] = []
    slipped: set[int] = set()
    fields = var_fields(task)
    for i, step in enumerate(task.plan):
        if mistakes.give_up_after is not None and i >= mistakes.give_up_after:
            episode.answer("I think that covers the request.")  # gives up, believing it is done
            return slipped
        kind = mistakes.per_step.get(i)
        if kind == "skip":
            continue
        if not applies(step, bindings):  # a branch the values found so far rule out
            left.append(step)
            continue
        obs = calls.call(step.tool, resolve(step.arguments, bindings), reasoning(task, i, step, bindings, fields), slips.get(i))
        if i in slips and calls.slipped:
            slipped.add(i)
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
            calls.call(step.tool, resolve(step.arguments, bindings), "Let me make sure that went through; I'll send it again.")
    episode.answer(summary(task, done, left, bindings))
    return slipped


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
    early with probability p / 2. In gateway mode each step it takes also slips in discovery with
    probability p (`Slip`), drawn from a stream of its own so direct rollouts stay as they were.
    """

    kind = "perturbed"
    model = ""

    def __init__(self, seed: int = 0, p_range: tuple[float, float] = (0.0, 0.4)) -> None:
        self.seed = seed
        self.p_range = p_range

    @property
    def label(self) -> str:
        return f"perturbed(seed={self.seed},p={self.p_range[0]:g}-{self.p_range[1]:g})"

    def mistakes(self, task: Task, seed: int, rollout_index: int, discover_mode: DiscoverMode = "direct") -> Mistakes:
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
        slips = None
        if discover_mode == "gateway":
            slip_rng = random.Random(f"perturbed-gateway/{self.seed}/{task.id}/{seed}/{rollout_index}")
            slips = self._slips(task, p, per_step, give_up, slip_rng)
        return Mistakes(p, per_step, stale, give_up, slips)

    @staticmethod
    def _slips(task: Task, p: float, per_step: Mapping[int, str], give_up: int | None,
               rng: random.Random) -> dict[int, Slip]:
        """With probability p per step taken: a wrong service (one of the environment's services
        without a tool of that name, so the call fails) or, at a tool's first use, a guessed argument."""
        slips: dict[int, Slip] = {}
        used: set[str] = set()
        for i, step in enumerate(task.plan):
            if give_up is not None and i >= give_up:
                break
            if per_step.get(i) == "skip" or not applies(step, task.bindings):  # a branch not taken makes no call
                continue
            first_use = step.tool not in used
            used.add(step.tool)
            if rng.random() >= p:
                continue
            bare = step.tool.partition(SEP)[2]
            wrong = [s for s in task.environment_services if s != step.service and bare not in get_service(s).tool_specs()]
            kinds = (["wrong_service"] if wrong else []) + (["guess_argument"] if first_use and step.arguments else [])
            if not kinds:
                continue
            if rng.choice(kinds) == "wrong_service":
                slips[i] = Slip("wrong_service", rng.choice(wrong))
            else:
                slips[i] = Slip("guess_argument", rng.choice(sorted(step.arguments)))
        return slips

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        m = self.mistakes(task, seed, rollout_index, episode.discover_mode)
        slipped = play(task, episode, m)
        if m.slips:  # only the slips this run made (see `play`)
            m = Mistakes(m.p, m.per_step, m.stale, m.give_up_after, {i: sl for i, sl in m.slips.items() if i in slipped})
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


def step_budget(task: Task, discover_mode: DiscoverMode) -> int:
    """The tool calls an agent may make on a task: twice the reference solution's, its discovery calls
    included in gateway mode (one service listing, one tool listing per service, one description per
    tool). A fixed cap cuts a careful agent off on long tasks (library tasks take 29 calls on average)."""
    steps = taken(task.plan, task.bindings)
    calls = len(steps)
    if discover_mode == "gateway":
        calls += 1 + len({st.service for st in steps}) + len({st.tool for st in steps})
    return 2 * calls


class LiteLLMAgent:
    """Any model LiteLLM can call, with native tool calling over the environment's OpenAI catalog.

    The episode ends when the model answers without tool calls, after `max_steps` tool calls (by
    default the task's `step_budget`), or
    once the episode has used `max_total_tokens`. All calls go through `compoworld.llm.chat`
    (cache, retries with backoff). `turn_kwargs(turn, messages)` adds LiteLLM arguments for one
    turn (e.g. `mock_tool_calls` in offline tests); `litellm_kwargs` apply to every turn.
    With temperature > 0 each rollout passes its own `seed`, so the rollouts of a group differ
    (and are cached separately) while a rerun reproduces them.
    """

    kind = "litellm"

    def __init__(self, model: str, api_base: str | None = None, max_steps: int | None = None, max_tokens: int | None = 2048,
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
        max_steps = self.max_steps or step_budget(task, episode.discover_mode)
        while True:
            if episode.steps >= max_steps:
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


GATHER_S = 0.05  # how long a batch waits for the other live rollouts' turns (their tool calls take ms)


@dataclass
class _Turn:
    """One rollout's prompt waiting for the model, and what came back."""

    ids: list[int]
    seed: int
    text: str | None = None
    completion_tokens: int = 0
    error: BaseException | None = None


class LocalAgent:
    """A model run in this process with transformers (CPU, or the GPU when there is one): `local:smollm2`,
    `local:tiny`, `local:/path/to/checkpoint` or `local:file.gguf` (resolved by
    `compoworld.training.models`). The conversation is rendered with the model's chat template (for
    SmolLM2 the tool-aware template SFT trains with) and tool calls are read back with the same parser
    (`compoworld.training.chat.parse_tool_calls`), so what the model learns is what it is asked to do.

    Greedy at temperature 0; sampled otherwise, seeded per rollout (same task, seed and rollout index:
    same text). The episode ends when the model answers without a call (`answered`), writes a call that
    does not parse (`malformed_tool_call`), after `max_steps` tool calls (by default the task's
    `step_budget`), or when the next prompt would
    not leave `max_new_tokens` in the model's context (`context_full`). The model loads on first use.

    Rollouts run concurrently (`collect(workers=N)`) share the model through one batched `generate`:
    one model call a turn per rollout costs a GPU mostly launch overhead, so the turns waiting together
    (up to `workers`) are left-padded into one batch. Greedy turns only: a sampled turn is seeded per
    rollout, which one batch cannot honour, so sampling runs one turn at a time. A batch's padding can
    move a near-tie of the argmax, so batched text is not byte-identical to one-at-a-time text."""

    kind = "local"

    def __init__(self, model: str, max_steps: int | None = None, max_new_tokens: int = 256, temperature: float = 0.0,
                 device: str | None = None, chat_template: str | None = None) -> None:
        self.model = model
        self.max_steps = max_steps
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.device = device
        self.chat_template = chat_template
        self._loaded: tuple[Any, Any] | None = None
        self._load_lock = threading.Lock()
        self._turns = threading.Condition()  # guards the queue of waiting turns and who is generating
        self._waiting: list[_Turn] = []
        self._generating = False
        self._active = 0  # rollouts inside run(): a batch waits (briefly) for each of them to ask

    @property
    def label(self) -> str:
        return f"local:{self.model}(t={self.temperature:g})"

    def load(self) -> tuple[Any, Any]:
        """(model, tokenizer), loaded once (a GGUF checkpoint is converted to safetensors the first time)."""
        with self._load_lock:
            if self._loaded is None:
                import torch
                from transformers import AutoModelForCausalLM

                from compoworld.training.models import model_dir
                from compoworld.training.tiny import load_tokenizer

                path = model_dir(self.model)
                tokenizer = load_tokenizer(path)
                if self.chat_template:
                    tokenizer.chat_template = self.chat_template
                device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
                model = AutoModelForCausalLM.from_pretrained(path).to(device).eval()
                self._loaded = (model, tokenizer)
            return self._loaded

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], seed: int) -> tuple[str, int, int] | None:
        """The model's next turn as text, with prompt and completion token counts; None when the prompt
        leaves no room for `max_new_tokens` in the model's context. Concurrent greedy turns are batched."""
        model, tokenizer = self.load()
        ids = tokenizer.apply_chat_template(messages, tools=tools or None, add_generation_prompt=True, tokenize=True,
                                            return_dict=False)
        limit = getattr(model.config, "max_position_embeddings", None)
        if limit is not None and len(ids) + self.max_new_tokens > limit:
            return None
        turn = _Turn(list(ids), seed)
        with self._turns:
            self._waiting.append(turn)
            self._turns.notify_all()
            while turn.text is None and turn.error is None:
                if self._generating:
                    self._turns.wait()
                    continue
                # This thread generates for every turn waiting, once the other live rollouts have asked
                # (or a moment has passed: one may be busy in its tools). It claims the model first, so
                # no other thread starts a batch while it gathers.
                self._generating = True
                deadline = time.monotonic() + GATHER_S
                while len(self._waiting) < self._active and (left := deadline - time.monotonic()) > 0:
                    self._turns.wait(left)
                batch = self._waiting if self.temperature == 0 else self._waiting[:1]
                self._waiting = self._waiting[len(batch):]
                self._turns.release()
                try:
                    self._generate_batch(batch)
                except Exception as exc:  # every turn of the failed batch gets the error, not only this one
                    for t in batch:
                        t.error = exc
                finally:
                    self._turns.acquire()
                    self._generating = False
                    self._turns.notify_all()
        if turn.error is not None:
            raise turn.error
        assert turn.text is not None
        return turn.text, len(turn.ids), turn.completion_tokens

    def _generate_batch(self, batch: list[_Turn]) -> None:
        """One `generate` over `batch`, left-padded; fills each turn's text and completion token count."""
        import torch

        model, tokenizer = self.load()
        width = max(len(t.ids) for t in batch)
        pad = tokenizer.pad_token_id
        input_ids = torch.tensor([[pad] * (width - len(t.ids)) + t.ids for t in batch], device=model.device)
        mask = torch.tensor([[0] * (width - len(t.ids)) + [1] * len(t.ids) for t in batch], device=model.device)
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "pad_token_id": pad}
        if self.temperature > 0:
            kwargs.update(do_sample=True, temperature=self.temperature, top_p=1.0, top_k=0)
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.no_grad():
            torch.manual_seed(batch[0].seed)
            out = model.generate(input_ids, attention_mask=mask, **kwargs)
        for t, row in zip(batch, out[:, width:].tolist()):
            if tokenizer.eos_token_id is not None and tokenizer.eos_token_id in row:
                row = row[:row.index(tokenizer.eos_token_id) + 1]
            text = tokenizer.decode(row, skip_special_tokens=False)
            for token in {tokenizer.eos_token, tokenizer.pad_token} - {None}:
                text = text.split(token, 1)[0] if token == tokenizer.eos_token else text.replace(token, "")
            t.text, t.completion_tokens = text, len(row)

    def run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        with self._turns:
            self._active += 1
        try:
            self._run(task, episode, seed, rollout_index)
        finally:
            with self._turns:
                self._active -= 1
                self._turns.notify_all()

    def _run(self, task: Task, episode: Episode, seed: int, rollout_index: int) -> None:
        from compoworld.training.chat import split_response

        tools = episode.env.tools_openai()
        base_seed = _rollout_seed(task.id, seed, rollout_index)
        turn = 0
        max_steps = self.max_steps or step_budget(task, episode.discover_mode)
        while True:
            if episode.steps >= max_steps:
                episode.stop_reason = "max_steps"
                return
            got = self.generate(list(episode.messages), tools, base_seed + turn)
            if got is None:
                episode.stop_reason = "context_full"
                return
            text, prompt_tokens, completion_tokens = got
            episode.add_usage({"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens})
            turn += 1
            content, calls, bad = split_response(text)
            if not calls:
                episode.answer(text.strip() if bad else content, "malformed_tool_call" if bad else "answered")
                return
            step0 = episode.steps
            message = _clean_message({"content": content, "tool_calls": [{"function": c} for c in calls]}, step0)
            episode.messages.append(message)
            for call, raw in zip(message["tool_calls"], calls):
                episode.run_tool_call(call["id"], raw)


def make_agent(spec: str, seed: int = 0, **kwargs: Any) -> Agent:
    """`reference`, `perturbed`, `litellm:MODEL` or `local:MODEL` (kwargs go to the LiteLLM or local agent)."""
    if spec == "reference":
        return ReferenceTeacher()
    if spec == "perturbed":
        return PerturbedPolicy(seed=seed)
    if spec.startswith("litellm:") and len(spec) > len("litellm:"):
        return LiteLLMAgent(spec[len("litellm:"):], **kwargs)
    if spec.startswith("local:") and len(spec) > len("local:"):
        return LocalAgent(spec[len("local:"):], **kwargs)
    raise ValueError(f"unknown agent {spec!r}; expected reference, perturbed, litellm:MODEL or local:MODEL")
