"""The task factory: graph, walk constraints, acceptance conditions, checks and determinism."""

from __future__ import annotations

import random

import pytest

from compoworld.services.registry import all_services
from compoworld.tasks.checks import evaluate, score
from compoworld.tasks.design_types import older_revision, rule_topic
from compoworld.tasks.factory import TaskConfig, build_env, generate, probe
from compoworld.tasks.graph import build_graph, edge_records
from compoworld.tasks.instruction import leaks
from compoworld.tasks.model import Check, Where
from compoworld.tasks.mutation import answer_of
from compoworld.tasks.solution import applies, execute, hidden_values
from compoworld.tasks.walk import WalkConfig, check_walk, sample_walk

CLASSES = all_services("library")


@pytest.fixture(scope="module")
def graph():
    return build_graph(CLASSES.values())


@pytest.fixture(scope="module")
def batch():
    return generate(TaskConfig(n=60, seed=3))


def test_graph_edges_carry_semantic_types_between_different_services(graph) -> None:
    rows = edge_records(graph)
    assert len(rows) > 50
    for r in rows:
        assert r["source_service"] != r["target_service"]
        assert r["source_tool"].startswith(r["source_service"] + "__")
        assert r["target_tool"].startswith(r["target_service"] + "__")
    # The CRM reveals emails that the email service consumes: the canonical cross-service edge.
    assert any(r["source_service"] == "crm" and r["target_service"] == "email" and r["semantic_type"] == "email" for r in rows)


def test_walk_constraints_hold_over_thousands_of_walks(graph) -> None:
    cfg = WalkConfig()
    lengths = set()
    for seed in range(3000):
        walk = sample_walk(graph, random.Random(seed), cfg)
        assert walk is not None
        assert check_walk(walk, cfg) == [], (seed, walk)
        for a, b in zip(walk.visits, walk.visits[1:]):
            assert graph.has_edge(a, b)
        lengths.add(walk.length)
    assert lengths == set(range(cfg.min_length, cfg.max_length + 1))


def test_walk_config_is_honoured(graph) -> None:
    cfg = WalkConfig(n_services=3, n_distractors=2, min_length=4, max_length=5)
    for seed in range(200):
        walk = sample_walk(graph, random.Random(seed), cfg)
        assert walk is not None and check_walk(walk, cfg) == []
        assert len(walk.distractors) == 2


def test_most_designed_tasks_are_accepted(batch) -> None:
    tasks, rejected, report = batch
    # Every walk is accounted for; a few find no design (1% of 1,000 library walks), most designs pass.
    assert report.designed + report.design_failed == 60 and report.design_failed <= 3, report.rejected_by_reason
    assert report.accepted >= 0.9 * report.designed, report.rejected_by_reason
    assert report.duplicate_instructions == 0


def test_every_accepted_task_meets_the_acceptance_conditions(batch) -> None:
    tasks, _, _ = batch
    for task in tasks:
        assert check_walk(task.walk) == [], task.walk
        assert any(c.kind == "negative" for c in task.rubric)
        assert len({c.id for c in task.rubric}) == len(task.rubric)
        env = build_env(task, CLASSES)
        start = env.state()
        run = execute(task.plan, env)
        final = env.state()
        assert all(score(task.rubric, start, final, answer_of(task, run.bindings))), task.id
        assert not any(score([c for c in task.rubric if c.kind == "goal" and c.check.kind != "answer_mentions"], start, start))
        assert not all(score(task.rubric, start, start)), "doing nothing must fail"
        assert all(start[s] == final[s] for s in task.distractors)
        assert not leaks(task.instruction, hidden_values(task.plan, task.bindings))
        assert run.bindings == task.bindings
        if task.stale:
            env2 = build_env(task, CLASSES)
            execute(task.plan, env2, overrides=task.stale)
            assert not all(score(task.rubric, start, env2.state()))


def test_a_stale_value_or_a_wrong_record_breaks_the_task(batch) -> None:
    """Changing any discovered value the final write depends on makes the rubric fail."""
    tasks, _, _ = batch
    broken = 0
    for task in tasks[:20]:
        last_var = next(a["$var"] for s in reversed(task.plan) if s.purpose == "write"
                        for a in s.arguments.values() if isinstance(a, dict) and "$var" in a)
        env = build_env(task, CLASSES)
        start = env.state()
        execute(task.plan, env, overrides={last_var: "someone.else@example.com"})
        broken += not all(score(task.rubric, start, env.state()))
    assert broken == 20


def test_generation_is_deterministic_and_seeded() -> None:
    a, _, _ = generate(TaskConfig(n=8, seed=11))
    b, _, _ = generate(TaskConfig(n=8, seed=11))
    c, _, _ = generate(TaskConfig(n=8, seed=12))
    assert [t.id for t in a] == [t.id for t in b]
    assert [t.model_dump() for t in a] == [t.model_dump() for t in b]
    assert {t.id for t in a}.isdisjoint({t.id for t in c})


def test_probe_rejects_a_task_whose_reference_is_broken(batch) -> None:
    tasks, _, _ = batch
    task = tasks[0].model_copy(deep=True)
    last = max(k for k, s in enumerate(task.plan) if s.purpose != "lookup" and applies(s, task.bindings))
    task.plan = task.plan[:last] + task.plan[last + 1:]  # drop the last write the reference makes
    problems, _ = probe(task, CLASSES)
    assert any(p.startswith("reference fails") for p in problems)


def test_the_stale_value_verdict_is_the_same_with_and_without_the_mutation_test(batch) -> None:
    """With mutation testing on, the stale-value solution is the `stale` mutant, replayed once from a
    snapshot; without it, the probe replays it in a fresh environment. Both say the same: it fails a
    real task, and passes (a rejection) once the stale values are the discovered ones."""
    tasks, _, _ = batch
    stale = [t for t in tasks if t.stale][:6]
    assert stale
    for task in stale:
        for mutation in (True, False):
            problems, detail = probe(task, CLASSES, mutation=mutation, require_all_mutants_killed=mutation)
            assert problems == [] and detail["stale_passes"] is False, (task.id, mutation, problems)
        moot = task.model_copy(update={"stale": {v: task.bindings[v] for v in task.stale}})  # "stale" = current
        for mutation in (True, False):
            problems, detail = probe(moot, CLASSES, mutation=mutation)
            assert detail["stale_passes"] is True and problems[0] == "stale solution passes", (task.id, mutation, problems)


def test_check_language() -> None:
    initial = {"crm": {"contacts": {"c1": {"id": "c1", "email": "a@x.com", "tags": ["vip"], "note": "Hello World"}}}, "email": {"m": {}}}
    final = {"crm": {"contacts": {**initial["crm"]["contacts"], "c2": {"id": "c2", "email": "B@x.com ", "tags": [], "note": ""}}}, "email": {"m": {}}}
    exists = Check(kind="record_exists", service="crm", collection="contacts", where=[Where(field="email", value="b@x.com")])
    assert evaluate(exists, initial, final) and not evaluate(exists, initial, initial)
    absent = Check(kind="record_absent", service="crm", collection="contacts", where=[Where(field="email", value="b@x.com")])
    assert not evaluate(absent, initial, final) and evaluate(absent, initial, initial)
    count = Check(kind="count_equals", service="crm", collection="contacts", where=[], count=2)
    assert evaluate(count, initial, final) and not evaluate(count, initial, initial)
    contains = Check(kind="record_exists", service="crm", collection="contacts", where=[Where(field="note", op="contains", value="world")])
    assert evaluate(contains, initial, final)
    includes = Check(kind="record_exists", service="crm", collection="contacts", where=[Where(field="tags", op="includes", value="vip")])
    assert evaluate(includes, initial, final)
    field_eq = Check(kind="field_equals", service="crm", collection="contacts", record_id="c2", where=[Where(field="email", value="b@x.com")])
    assert evaluate(field_eq, initial, final) and not evaluate(field_eq, initial, initial)
    unchanged = Check(kind="record_unchanged", service="crm", collection="contacts", record_id="c1")
    assert evaluate(unchanged, initial, final)
    services = Check(kind="services_unchanged", services=["email"])
    assert evaluate(services, initial, final)
    assert not evaluate(Check(kind="services_unchanged", services=["crm"]), initial, final)


def test_llm_instruction_rewrite_is_kept_only_when_it_keeps_mentions_and_leaks_nothing(batch) -> None:
    from compoworld.tasks.rewrite import required_mentions, rewrite_instruction

    task = batch[0][0]
    required = required_mentions(task.plan, task.walk.visits)
    hidden = hidden_values(task.plan, task.bindings)
    good = "Quick request. " + " ".join(f"'{m}'" for m in required)
    text, verdict = rewrite_instruction(task.instruction, required, hidden, "openai/gpt-4o-mini", mock_response=good, cache=False)
    assert verdict == "accepted" and text == good
    dropped = good.replace(f"'{required[-1]}'", "")
    text, verdict = rewrite_instruction(task.instruction, required, hidden, "openai/gpt-4o-mini", mock_response=dropped, cache=False)
    assert verdict.startswith("rejected: drops") and text == task.instruction
    leaked = good + f" (it is {next(h for h in hidden if isinstance(h, str) and len(h) >= 5)})"
    text, verdict = rewrite_instruction(task.instruction, required, hidden, "openai/gpt-4o-mini", mock_response=leaked, cache=False)
    assert verdict == "rejected: leaks a hidden value" and text == task.instruction


def test_factory_uses_the_instruction_model_when_configured() -> None:
    cfg = TaskConfig(n=2, seed=5, instruction_model="openai/gpt-4o-mini")
    import litellm

    original = litellm.completion

    def fake(*args, **kwargs):
        kwargs["mock_response"] = "Please just do it."  # drops every required mention: must be refused
        return original(*args, **kwargs)

    litellm.completion = fake
    try:
        tasks, _, _ = generate(cfg)
    finally:
        litellm.completion = original
    assert tasks
    for t in tasks:
        design = next(p.detail for p in t.phases if p.phase == "design")
        assert design["instruction"].startswith("rejected: drops")
        assert t.instruction != "Please just do it."


def test_some_tasks_carry_a_policy_document_and_its_superseded_version(batch) -> None:
    tasks, _, _ = batch
    with_policy = [t for t in tasks if any(e.pattern for s in t.plan for e in s.extract)]
    assert with_policy, "the designer should put some write values into policy documents"
    for task in with_policy:
        step = next(s for s in task.plan if any(e.pattern for e in s.extract))
        key_field, key = next(iter(step.extract[0].match.items()))
        # The request points to the rule (by its topic, or the full key when a search by topic would
        # not show both revisions) and never says which revision is in force.
        assert rule_topic(key) in task.instruction
        assert "(current)" not in task.instruction and "superseded" not in task.instruction.lower()
        older = older_revision(key)
        assert any(r.get(key_field) == older for rows in task.initial_state[step.service].values() for r in rows.values())
        value = task.bindings[step.extract[0].var]
        assert value not in task.instruction
        # Following the superseded version writes the old value, or changes a record the current
        # limit leaves alone: a negative criterion catches either.
        assert any("superseded policy" in c.description for c in task.rubric) or \
            any(c.kind == "negative" and c.check.kind == "record_unchanged" for c in task.rubric)
