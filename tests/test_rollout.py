"""Rollouts: the reference teacher, the perturbed policy, the LiteLLM agent (offline mocks), scoring, rewards."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from compoworld.rollout import LiteLLMAgent, PerturbedPolicy, ReferenceTeacher, collect, rollout, run_rollouts, summarize
from compoworld.rollout.agents import Mistakes, play, step_budget
from compoworld.rollout.runner import reward_rows
from compoworld.rollout.trajectory import SYSTEM_PROMPT, Episode, catalog_hash
from compoworld.tasks.checks import score
from compoworld.tasks.factory import build_env
from compoworld.tasks.model import Task
from compoworld.tasks.mutation import answer_of
from compoworld.tasks.solution import pick, resolve, taken


def taken_steps(task: Task) -> list[Any]:
    return taken(task.plan, task.bindings)


# `tasks` and `classes`: the shared library tasks of conftest.py


def _has_var(value: Any) -> bool:
    if isinstance(value, dict):
        return "$var" in value or any(_has_var(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_var(v) for v in value)
    return False


def _calls(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]


def _check_conversation(messages: list[dict[str, Any]]) -> None:
    """OpenAI shape: system, user, then assistant turns each followed by one tool message per call id."""
    assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert messages[1]["role"] == "user"
    i = 2
    while i < len(messages):
        m = messages[i]
        assert m["role"] == "assistant"
        ids = [c["id"] for c in m.get("tool_calls") or []]
        answered = [t["tool_call_id"] for t in messages[i + 1: i + 1 + len(ids)]]
        assert answered == ids and len(set(ids)) == len(ids)
        for c in m.get("tool_calls") or []:
            assert c["type"] == "function" and isinstance(c["function"]["arguments"], str)
        i += 1 + len(ids)
    assert not messages[-1].get("tool_calls")  # the episode ends with an answer


# -- the reference teacher --------------------------------------------------------------------------------
def test_teacher_solves_every_accepted_task(tasks: list[Task], classes: dict[str, Any]) -> None:
    trajs = collect(tasks, ReferenceTeacher(), group_size=1, classes=classes)
    assert [t.success for t in trajs] == [True] * len(tasks)
    # The only failed calls are those the request prepares for (a refusal, then the recovery it names).
    assert all(t.partial_credit == 1.0 and t.failed_calls == sum(s.expect_error for s in taken_steps(task))
               for task, t in zip(tasks, trajs))
    for task, t in zip(tasks, trajs):
        _check_conversation(t.messages)
        calls = _calls(t.messages)
        assert len(calls) == t.steps == len(taken_steps(task))
        assert all(not _has_var(json.loads(c["function"]["arguments"])) for c in calls)
        assert all("$var" not in c["function"]["arguments"] for c in calls)
        # Short reasoning before every call.
        assert all(m["content"] for m in t.messages if m["role"] == "assistant")
        assert {c["function"]["name"] for c in calls} <= {tool["function"]["name"] for tool in t.tools}
        assert [c.criterion_id for c in t.criteria] == [c.id for c in task.rubric]


def test_teacher_says_why_with_the_values_it_found(tasks: list[Task], classes: dict[str, Any]) -> None:
    """Before a call that uses a discovered value the teacher names it (the value itself, read from a
    tool result); at a branch it says the comparison; it closes with the changes in the past tense,
    their values, the rule revisions it followed and the report. Phrasings vary across tasks."""
    trajs = collect(tasks, ReferenceTeacher(), group_size=1, classes=classes)
    openings = set()
    for task, traj in zip(tasks, trajs):
        said = [m for m in traj.messages if m["role"] == "assistant" and m.get("tool_calls")]
        for m in said:
            args = json.loads(m["tool_calls"][0]["function"]["arguments"])
            step = next(s for s in taken_steps(task) if s.tool == m["tool_calls"][0]["function"]["name"]
                        and resolve(s.arguments, task.bindings) == args)
            found = [v for p, v in step.arguments.items() if isinstance(v, dict) and "$var" in v]
            shown = [task.bindings.get(v["$var"]) for v in found]
            shown = [v for v in shown if isinstance(v, str) and "_" not in v and len(v) <= 80]
            if shown:  # a value it discovered (ids aside) appears in what it says before using it
                assert any(v in m["content"] for v in shown), (m["content"], shown)
            if step.when:
                assert m["content"].startswith("Its "), m["content"]
        final = traj.messages[-1]["content"]
        openings.add(final.split("\n", 1)[0])
        if any(s.purpose != "lookup" for s in taken_steps(task)):
            assert any(w in final for w in ("created", "updated", "sent", "set", "added", "scheduled", "posted")), final
        if any(e.pattern for s in taken_steps(task) for e in s.extract):
            assert "rev. " in final, final
    assert len(openings) >= 3


def test_teacher_discovers_values_instead_of_copying_bindings(tasks: list[Task], classes: dict[str, Any]) -> None:
    """With the task's recorded bindings replaced by junk, the teacher still succeeds: it reads the values
    from tool results. The same junk fed in as discovered values breaks the tasks (so they matter)."""
    teacher = ReferenceTeacher()
    for task in tasks[:10]:
        junk = task.model_copy(update={"bindings": {k: "WRONG" for k in task.bindings}})
        assert rollout(junk, teacher, classes).success
        if task.bindings:
            env = build_env(task, classes)
            ep = Episode(env, [])
            play(task, ep, Mistakes(stale={k: "WRONG" for k in task.bindings}))
            start = build_env(task, classes).state()
            assert not all(score(task.rubric, start, env.state()))


# -- the perturbed policy ---------------------------------------------------------------------------------
def test_perturbed_groups_have_spread(tasks: list[Task], classes: dict[str, Any]) -> None:
    trajs = collect(tasks[:20], PerturbedPolicy(seed=0), group_size=8, classes=classes)
    by_group: dict[str, list[float]] = {}
    for t in trajs:
        by_group.setdefault(t.group_id, []).append(t.partial_credit)
    assert len(by_group) == 20 and all(len(v) == 8 for v in by_group.values())
    spread = [len(set(v)) > 1 for v in by_group.values()]
    assert sum(spread) >= 16, spread  # most groups: not all equal
    successes = [t.success for t in trajs]
    assert 0.1 < sum(successes) / len(successes) < 0.9
    assert not all(min(v) == 1.0 for v in by_group.values()) and any(max(v) == 1.0 for v in by_group.values())
    kinds = {m["kind"] for t in trajs for m in t.meta["mistakes"]}
    assert kinds == {"skip", "near_duplicate", "extra_write"}
    assert any(t.meta["give_up_after"] is not None for t in trajs)
    # A rollout that drew no mistake at all is the teacher's rollout, and succeeds.
    clean = [t for t in trajs if not t.meta["mistakes"] and not t.meta["stale"] and t.meta["give_up_after"] is None]
    assert clean and all(t.success for t in clean)


def test_duplicated_write_is_caught_by_the_no_duplicate_criterion(tasks: list[Task], classes: dict[str, Any]) -> None:
    caught = 0
    for task in tasks:
        # Repeating an idempotent update changes nothing; a repeated create is the mistake to catch.
        writes = [i for i, s in enumerate(task.plan) if s.purpose == "write" and s in taken_steps(task)
                  and not classes[s.service].tool_specs()[s.tool.split("__", 1)[1]].idempotent]
        counts = [c for c in task.rubric if c.check.kind == "count_equals"]
        if not writes or not counts:
            continue
        env = build_env(task, classes)
        start = env.state()
        ep = Episode(env, [])
        play(task, ep, Mistakes(per_step={writes[-1]: "extra_write"}))
        results = dict(zip((c.id for c in task.rubric), score(task.rubric, start, env.state())))
        assert ep.steps == len(taken_steps(task)) + 1
        repeat = len(taken(task.plan[:writes[-1] + 1], task.bindings))  # the call right after the write
        if ep.observations[repeat].ok:  # the repeated write went through: exactly-one no longer holds
            assert not all(results[c.id] for c in counts)
            caught += 1
    assert caught >= 5


def test_give_up_and_skip_lose_credit(tasks: list[Task], classes: dict[str, Any]) -> None:
    for task in tasks[:10]:
        start = build_env(task, classes).state()
        gave_up = Episode(build_env(task, classes), [])
        play(task, gave_up, Mistakes(give_up_after=1))
        assert gave_up.steps == 1 and not gave_up.messages[-1].get("tool_calls")
        assert not all(score(task.rubric, start, gave_up.env.state()))
        taken = taken_steps(task)
        last_write = max(i for i, s in enumerate(task.plan) if s.purpose != "lookup" and s in taken)
        skipped = Episode(build_env(task, classes), [])
        play(task, skipped, Mistakes(per_step={last_write: "skip"}))
        assert skipped.steps == len(taken) - 1
        assert not all(score(task.rubric, start, skipped.env.state()))


def test_near_duplicate_pick_reads_another_record(tasks: list[Task]) -> None:
    """The near-duplicate mistake (choose=1) reads the field of another record in the same result."""
    ex = next(e for t in tasks for s in t.plan for e in s.extract
              if e.path == "items" and e.match and not any(isinstance(v, dict) for v in e.match.values()))
    data = {"items": [{**ex.match, ex.field: "right"}, {**{k: "other" for k in ex.match}, ex.field: "wrong"}]}
    assert pick(data, ex, {}) == "right"
    assert pick(data, ex, {}, choose=1) == "wrong"


# -- determinism, groups and rewards ----------------------------------------------------------------------
def test_same_seed_same_trajectories(tasks: list[Task], classes: dict[str, Any]) -> None:
    batch = tasks[:6]
    a = collect(batch, PerturbedPolicy(seed=3), group_size=4, seed=7, classes=classes)
    b = collect(batch, PerturbedPolicy(seed=3), group_size=4, seed=7, classes=classes, workers=4)
    c = collect(batch, PerturbedPolicy(seed=3), group_size=4, seed=8, classes=classes)
    assert [t.id for t in a] == [t.id for t in b]
    assert len({t.id for t in a}) == len(a)
    assert [t.id for t in a] != [t.id for t in c]
    assert [t.final_state_hash for t in a] == [t.final_state_hash for t in b]
    assert all(t.id == t.content_id() and t.tools_hash == catalog_hash(t.tools) for t in a)


def test_reward_rows_per_group(tasks: list[Task], classes: dict[str, Any]) -> None:
    trajs = collect(tasks[:8], PerturbedPolicy(seed=1), group_size=8, classes=classes)
    rows = reward_rows(trajs)
    assert len(rows) == 2 * len(trajs)
    assert {r["trajectory_id"] for r in rows} == {t.id for t in trajs}
    by_id = {t.id: t for t in trajs}
    for kind in ("uniform", "completion_focused"):
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["reward_kind"] == kind:
                groups.setdefault(r["group_id"], []).append(r)
        assert len(groups) == 8
        for members in groups.values():
            adv = np.array([r["advantage"] for r in members])
            rew = np.array([r["reward"] for r in members])
            weights = json.loads(members[0]["weights_json"])
            assert abs(sum(weights) - 1.0) < 1e-4 and min(weights) > 0
            assert abs(adv.sum()) < 1e-6
            if np.ptp(rew) == 0:
                assert np.all(adv == 0)
            else:
                assert np.argmax(adv) == np.argmax(rew)
        if kind == "uniform":
            assert all(abs(r["reward"] - by_id[r["trajectory_id"]].partial_credit) < 1e-9 for r in groups[next(iter(groups))])
    summary = summarize(trajs)
    for key in ("trajectories", "groups", "success_rate", "mean_partial_credit", "steps_per_second"):
        assert key in summary
    assert summary["trajectories"] == 64 and summary["groups"] == 8 and summary["steps_per_second"] > 0


def test_run_rollouts_entry_point(tasks: list[Task]) -> None:
    out = run_rollouts("reference", n_tasks=None, task_ids=[tasks[2].id, tasks[0].id], group_size=2, seed=0, tasks=tasks)
    assert out["trajectories"] == 4 and out["groups"] == 2 and out["success_rate"] == 1.0
    assert out["mean_completion_focused_reward"] == 1.0 and "rewards" not in out
    out = run_rollouts("perturbed", n_tasks=3, task_ids=None, group_size=2, seed=0, tasks=tasks, details=True)
    assert out["tasks"] == 3 and len(out["rewards"]) == 12
    with pytest.raises(ValueError):
        run_rollouts("nonsense", n_tasks=1, task_ids=None, group_size=1, seed=0, tasks=tasks)
    with pytest.raises(KeyError):
        run_rollouts("reference", n_tasks=None, task_ids=["task_missing"], group_size=1, seed=0, tasks=tasks)


# -- the LiteLLM agent, offline -----------------------------------------------------------------------------
class ScriptedModel:
    """Plays a task through LiteLLM's mocks: each turn returns `mock_tool_calls` / `mock_response` that
    a model would have produced, reading values from the tool messages it has been sent. Turn 0 makes
    two bad calls (malformed JSON arguments, an unknown tool) in one turn."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.bindings: dict[str, Any] = {}
        self.turns: list[int] = []
        self.plan = taken_steps(task)  # the branches the task's values lead to

    def __call__(self, turn: int, messages: list[dict[str, Any]]) -> dict[str, Any]:
        self.turns.append(turn)
        plan = self.plan
        if turn == 0:
            return {"mock_response": "Let me start.", "mock_tool_calls": [
                {"id": "x1", "type": "function", "function": {"name": plan[0].tool, "arguments": '{"oops": '}},
                {"id": "x2", "type": "function", "function": {"name": "nowhere__do_it", "arguments": "{}"}}]}
        i = turn - 1
        if i > 0:  # read what the previous step's call returned
            data = json.loads(messages[-1]["content"])
            for ex in plan[i - 1].extract:
                self.bindings[ex.var] = pick(data, ex, self.bindings)
        if i == len(plan):
            return {"mock_response": "All done.\n" + answer_of(self.task, self.bindings)}
        step = plan[i]
        args = json.dumps(resolve(step.arguments, self.bindings))
        return {"mock_response": step.reasoning, "mock_tool_calls": [
            {"type": "function", "function": {"name": step.tool, "arguments": args}}]}  # no id: litellm makes a random one


@pytest.fixture()
def llm_env(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """An empty LLM cache, no real sleeping, and a count of the completions LiteLLM was asked for."""
    import litellm

    from compoworld import llm

    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path))
    sleeps: list[float] = []
    monkeypatch.setattr(llm.time, "sleep", sleeps.append)
    calls: list[dict[str, Any]] = []
    real = litellm.completion

    def counting(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(litellm, "completion", counting)
    return {"sleeps": sleeps, "calls": calls, "real": real}


def test_litellm_agent_end_to_end_with_mocks(tasks: list[Task], classes: dict[str, Any], llm_env: dict[str, Any],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import litellm

    task = tasks[0]
    calls, real = llm_env["calls"], llm_env["real"]

    def rate_limited_once(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) == 3:  # the third request (turn 2) is refused once by the provider
            return real(**{**kwargs, "mock_response": "litellm.RateLimitError"})
        return real(**kwargs)

    monkeypatch.setattr(litellm, "completion", rate_limited_once)
    agent = LiteLLMAgent("openai/mock-model", turn_kwargs=ScriptedModel(task))
    t = rollout(task, agent, classes)
    n_turns = len(taken_steps(task)) + 2
    assert len(calls) == n_turns + 1 and llm_env["sleeps"] == [0.5]  # one retry, with backoff
    assert t.success and t.stop_reason == "answered"
    assert t.agent == "litellm" and t.model == "openai/mock-model"
    refused = [s.expect_error for s in taken_steps(task)]  # refusals the request prepares for (error recovery)
    assert t.steps == len(taken_steps(task)) + 2 and t.failed_calls == 2 + sum(refused)
    assert t.call_errors[:2] == ["malformed_call", "unknown_tool"]
    assert [e is not None for e in t.call_errors[2:]] == refused
    assert "not valid JSON" in t.messages[3]["content"] and "unknown tool" in t.messages[4]["content"]
    assert t.prompt_tokens and t.completion_tokens
    assert t.tools == build_env(task, classes).tools_openai() and calls[0]["tools"] == t.tools
    _check_conversation(t.messages)
    assert [c["id"] for c in _calls(t.messages)][:3] == ["call_0", "call_1", "call_2"]

    # A rerun is served from the cache: no request reaches LiteLLM, and the trajectory is the same.
    before = len(calls)
    again = rollout(task, LiteLLMAgent("openai/mock-model", turn_kwargs=ScriptedModel(task)), classes)
    assert len(calls) == before and again.id == t.id


def test_litellm_agent_step_limit_and_plain_answer(tasks: list[Task], classes: dict[str, Any], llm_env: dict[str, Any]) -> None:
    task = tasks[1]
    looping = {"mock_response": "checking", "mock_tool_calls": [
        {"id": "a", "type": "function", "function": {"name": task.plan[0].tool, "arguments": json.dumps(task.plan[0].arguments)}}]}
    t = rollout(task, LiteLLMAgent("openai/mock-model", max_steps=3, cache=False, turn_kwargs=lambda turn, m: looping), classes)
    assert t.stop_reason == "max_steps" and t.steps == 3 and len(llm_env["calls"]) == 3 and not t.success
    assert t.messages[-1]["role"] == "tool"

    # Without a limit, an agent may make twice the reference solution's calls (its discovery included in gateway mode).
    budget = step_budget(task, "direct")
    assert budget == 2 * len(taken(task.plan, task.bindings)) < step_budget(task, "gateway")
    t = rollout(task, LiteLLMAgent("openai/mock-model", cache=False, turn_kwargs=lambda turn, m: looping), classes)
    assert t.stop_reason == "max_steps" and t.steps == budget

    silent = rollout(task, LiteLLMAgent("openai/mock-model", cache=False, mock_response="I can't help with that."), classes)
    assert silent.steps == 0 and silent.stop_reason == "answered" and not silent.success
    assert silent.messages[-1] == {"role": "assistant", "content": "I can't help with that."}


def test_litellm_agent_rollouts_differ_within_a_group_when_sampling(tasks: list[Task], classes: dict[str, Any],
                                                                   llm_env: dict[str, Any]) -> None:
    agent = LiteLLMAgent("openai/mock-model", temperature=1.0, mock_response="done")
    trajs = collect(tasks[:1], agent, group_size=3, classes=classes, workers=3)
    seeds = [c["seed"] for c in llm_env["calls"]]
    assert len(set(seeds)) == 3  # each rollout samples with its own seed (and its own cache entry)
    assert len({t.group_id for t in trajs}) == 1


@pytest.mark.parametrize("tool, purpose, said", [
    ("crm__create_deal", "write", "created a deal in crm"),
    ("email__reply_to_message", "update", "replied to a message in email"),
    ("calendar__respond_to_event", "update", "responded to an event in calendar"),
    ("email__send_email", "write", "sent an email in email"),
    # compiled tools: the server's name leads, the verb comes later or not at all
    ("monday_com__monday_create_doc", "write", "created a doc in monday_com"),
    ("notes__notes_create", "write", "created a note in notes"),
    ("hubspot__crm_create_company", "write", "created a company in hubspot"),
])
def test_the_closing_summary_says_each_write_as_a_person_would(tool: str, purpose: str, said: str) -> None:
    """The reference's closing message had said "mondayed a create doc in monday_com" and "replied to a
    to message": SFT rows teach the summary, so it names the verb and the record."""
    from compoworld.rollout.narration import past_tense
    from compoworld.tasks.model import PlanStep

    assert past_tense(PlanStep(visit=0, service=tool.split("__")[0], tool=tool, arguments={}, purpose=purpose)) == said
