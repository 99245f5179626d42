"""Quality measures of the task factory (issue 11): report fields, mutation testing, world invariants.

The figures these measure are reported, not asserted: today's factory is far from the targets, and
the tests pin down what each measure means so that improvements move the numbers honestly.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from typing_extensions import TypedDict

import networkx as nx
import pytest

from compoworld.services.environment import Environment, generated_state
from compoworld.services.fake import OUR_DOMAIN
from compoworld.services.registry import all_services
from compoworld.services.service import Collection, Context, Service
from compoworld.services.tool import tool
from compoworld.services.world_check import is_slug, past_field, violation_kinds, world_violations
from compoworld.tasks.checks import same, score
from compoworld.tasks.factory import FactoryReport, TaskConfig, build_env, factory_report, generate, probe
from compoworld.tasks.model import CAPABILITIES, Check, Criterion, Extract, PlanStep, ReportItem, Task, Walk, Where
from compoworld.tasks.mutation import answer_of, derive_mutants, equivalent, seeded_pool, wrong_value
from compoworld.tasks.quality import dangling_lookups, environment_rule, graph_density, is_step_list, probe_detail
from compoworld.tasks.solution import execute, taken

CLASSES = all_services("library")


@pytest.fixture(scope="module")
def batch():
    return generate(TaskConfig(n=40, seed=5))


# -- report fields ---------------------------------------------------------------------------------

def test_report_carries_every_quality_field(batch) -> None:
    tasks, rejected, report = batch
    fields = set(FactoryReport.model_fields)
    for name in ("capabilities", "mean_reference_calls", "dangling_lookups", "repeated_lookups", "echo_lookups", "round_trips",
                 "report_only_lookup_share",
                 "goal_criteria_true_initially", "mutation_score",
                 "mutants_per_task", "closing_report_share", "environment_rule_share", "step_list_share", "world_violations",
                 "graph_density"):
        assert name in fields
    assert set(report.capabilities) == set(CAPABILITIES)
    for label, share in report.capabilities.items():
        assert share == round(sum(label in t.capabilities for t in tasks) / len(tasks), 4)
    assert all(set(t.capabilities) <= set(CAPABILITIES) for t in tasks)
    # Calls the reference makes: the branches its values lead to, not every step of the plan.
    assert report.mean_reference_calls == round(sum(len(taken(t.plan, t.bindings)) for t in tasks) / len(tasks), 2)
    assert report.goal_criteria_true_initially == sum(probe_detail(t)["goal_true_initially"]for t in tasks) == 0
    assert report.mutation_score == 1.0 and report.mutants_per_task > 0  # the gate is on by default
    assert report.closing_report_share == round(sum(bool(t.report) for t in tasks) / len(tasks), 4)
    assert report.environment_rule_share == round(sum(environment_rule(t) for t in tasks) / len(tasks), 4)
    assert 0.0 < report.graph_density <= 1.0
    assert report.world_violations == sum(report.world_violation_kinds.values())
    print("figures on 40 tasks:", report.model_dump(exclude={"rejected_by_reason"}))


def test_goal_criteria_true_initially_is_what_do_nothing_passes(batch) -> None:
    tasks, _, _ = batch
    for t in tasks[:10]:
        env = build_env(t, CLASSES)
        start = env.state()
        nothing = score(t.rubric, start, start)
        assert probe_detail(t)["goal_true_initially"] == sum(ok for c, ok in zip(t.rubric, nothing)
                                                             if c.kind == "goal" and c.check.kind != "answer_mentions")


def _task(plan: list[PlanStep], rubric: list[Criterion], bindings: dict) -> Task:
    walk = Walk(services=["crm", "email"], distractors=[], visits=["crm", "email"], edge_types=["email"])
    return Task(seed=0, walk=walk, services=["crm", "email"], distractors=[], initial_state={}, instruction="x",
                plan=plan, bindings=bindings, rubric=rubric, difficulty=2)


def test_dangling_lookups_follow_values_to_writes_checks_and_through_lookup_chains() -> None:
    look = lambda var, args, match=None: PlanStep(visit=0, service="crm", tool="crm__search_contacts", arguments=args,
                                                  extract=[Extract(var=var, field="email", match=match or {})])
    plan = [
        look("a", {"query": "Rosa"}),                      # feeds the write below: used
        look("b", {"query": "Wei"}),                       # feeds a lookup whose value feeds nothing: dangling
        look("c", {"sender": {"$var": "b"}}),              # feeds nothing: dangling
        look("d", {"query": "Omar"}),                      # a goal criterion checks its value: used
        look("e", {"query": "Ines"}),                      # feeds a lookup whose value is written: used
        look("f", {"sender": {"$var": "e"}}),              # written: used
        look("g", {"query": "Lee"}),                       # feeds nothing: dangling
        PlanStep(visit=1, service="email", tool="email__send", arguments={"to": {"$var": "a"}, "cc": {"$var": "f"}}, purpose="write"),
    ]
    rubric = [Criterion(id="c1", kind="goal", description="", check=Check(kind="record_exists", service="crm", collection="x",
                                                                         where=[Where(field="email", value="omar@x.io")]))]
    task = _task(plan, rubric, {"a": "a@x.io", "b": "b@x.io", "c": "c@x.io", "d": "omar@x.io", "e": "e@x.io", "f": "f@x.io", "g": "g@x.io"})
    assert dangling_lookups(task) == 3
    # A closing-report value is used by the variable the report names, not by a lookup whose value is
    # equal to it (a spreadsheet's owner who also sent the reported message): g still feeds nothing.
    report = Criterion(id="c2", kind="goal", description="", check=Check(kind="answer_mentions", where=[Where(field="the sender", value="g@x.io")]))
    reported = _task(plan + [look("h", {"query": "Quote"})], rubric + [report], {**task.bindings, "h": "g@x.io"})
    reported.report = [ReportItem(label="the sender", vars=["h"])]
    assert dangling_lookups(reported) == 3


@pytest.mark.parametrize("text", [
    "1. Find the vendor. 2. Update its email.",
    "Please do this: 1) find the vendor, 2) update it, 3) tell Rosa.",
    "- find the vendor\n- update it",
    "Step 1 find the vendor; step 2 update it.",
    "Hi! Look up the vendor in procurement. Then find its contact in crm. Finally, send them an email.",
    "Check crm for Rosa. Next, update her title. After that, post in chat. Thanks!",
])
def test_step_lists_are_detected(text: str) -> None:
    assert is_step_list(text)


@pytest.mark.parametrize("text", [
    "Rosa needs the Q3 quote sent to Jasper Foods' buyer before Friday; if the total is over 5,000, loop in Omar.",
    "Find the vendor and update its email. Thanks!",
    "Look up the vendor. Then update it.",  # two steps: not yet a list
    "The invoice total was 45. Then we credited 12. Please check it.",
    "Please make sure the onboarding policy in drive is followed. It changed last week.",
])
def test_goals_are_not_step_lists(text: str) -> None:
    assert not is_step_list(text)


def test_todays_instructions_are_step_lists(batch) -> None:
    tasks, _, report = batch
    assert report.step_list_share == round(sum(is_step_list(t.instruction) for t in tasks) / len(tasks), 4)
    print("step_list_share:", report.step_list_share)


def test_graph_density_counts_ordered_pairs() -> None:
    g = nx.DiGraph()
    g.add_nodes_from("abc")
    g.add_edges_from([("a", "b"), ("b", "a"), ("a", "c")])
    assert graph_density(g) == round(3 / 6, 4)


# -- mutation testing ------------------------------------------------------------------------------

def test_wrong_values_are_plausible_and_different() -> None:
    pool = {"email": ["rosa.khan@halcyon.io", "wei.petrov@halcyon.io"]}
    assert wrong_value(3, "", pool) == 4
    assert wrong_value(100.0, "money", pool) != 100.0
    assert wrong_value("rosa.khan@halcyon.io", "email", pool) == "wei.petrov@halcyon.io"
    assert wrong_value("2026-02-01", "date", pool) == "2026-02-02"
    assert wrong_value("2026-02-01T10:00:00Z", "datetime", pool) == "2026-02-02T10:00:00Z"
    assert wrong_value("Hiring debrief #114", "title", pool) != "Hiring debrief #114"
    assert wrong_value(True, "", pool) is None


def test_probe_records_mutation_counts_outside_the_content_id(batch) -> None:
    tasks, _, _ = batch
    kinds = set()
    for t in tasks:
        d = probe_detail(t)
        assert 0 <= d["killed"] <= d["mutants"]
        assert len(d["survivors"]) == d["mutants"] - d["killed"]
        assert sum(m for m, _ in d["mutants_by_kind"].values()) == d["mutants"]
        kinds |= set(d["mutants_by_kind"])
        assert t.id == t.content_id()
    assert {"skip", "wrong_value"} <= kinds
    # Mutation testing changes what the probe records, never what a task is.
    plain, _, _ = generate(TaskConfig(n=12, seed=5, mutation_test=False, require_all_mutants_killed=False))
    gated = {t.index: t.id for t in tasks if t.index < 12}
    assert gated and {i: t.id for t in plain if (i := t.index) in gated} == gated
    assert all("mutants" not in probe_detail(t) for t in plain)


def test_rewound_replays_match_fresh_environments(batch) -> None:
    """The probe replays mutants from snapshots of the reference run, taking the reference's recorded
    result for calls a mutant makes alike on a service it has not changed; a fresh environment per
    mutant, every call made, must give the same verdicts."""
    tasks, _, _ = batch
    for t in tasks:
        env = build_env(t, CLASSES)
        start = env.state()
        run = execute(t.plan, env)
        final = env.state()
        killed = equivalent_n = 0
        reference_answer = answer_of(t, run.bindings)
        for m in derive_mutants(t, CLASSES, run.bindings, seeded_pool(CLASSES, t.environment_services, t.seed)):
            fresh = build_env(t, CLASSES)
            mutant_run = execute(m.plan, fresh, overrides=m.overrides, idle=m.idle)
            after = fresh.state()
            answer = answer_of(t, mutant_run.bindings, m.report)
            if equivalent(after, final) and answer == reference_answer:
                equivalent_n += 1
                continue
            killed += not all(score(t.rubric, start, after, answer))
        d = probe_detail(t)
        assert (killed, equivalent_n) == (d["killed"], d["equivalent"]), t.id


def test_a_skipped_step_leaves_its_change_out_while_its_time_passes(batch) -> None:
    """`idle`: the skip mutant's agent spends that turn elsewhere, so its later calls happen when the
    reference's do; only the skipped change differs."""
    tasks, _, _ = batch
    t = next(t for t in tasks if any(s.purpose == "write" and not s.when for s in t.plan))
    k = next(i for i, s in enumerate(t.plan) if s.purpose == "write" and not s.when)
    ref_env, idle_env = build_env(t, CLASSES), build_env(t, CLASSES)
    execute(t.plan, ref_env)
    execute(t.plan, idle_env, idle=k)
    assert idle_env.ctx.clock.datetime() == ref_env.ctx.clock.datetime()
    service = t.plan[k].service
    assert idle_env.state()[service] != ref_env.state()[service]
    assert all(idle_env.state()[s] == ref_env.state()[s] for s in t.environment_services if s != service and
               not any(st.service == s and st.purpose != "lookup" for st in t.plan[k + 1:]))


def test_a_rubric_without_goals_lets_mutants_survive(batch) -> None:
    tasks, _, _ = batch
    # Without its report criteria a task's rubric cannot tell a report with a value left out.
    t = next(t for t in tasks if t.report)
    weak = t.model_copy(update={"rubric": [c for c in t.rubric if c.check.kind != "answer_mentions"]})
    problems, detail = probe(weak, CLASSES)
    assert detail["killed"] < detail["mutants"]
    assert any(s.startswith("report_omit:") for s in detail["survivors"])
    problems, _ = probe(weak, CLASSES, require_all_mutants_killed=True)
    assert any(p.startswith("mutant survives: ") for p in problems)


def test_the_mutant_gate_rejects_tasks_with_survivors() -> None:
    tasks, rejected, report = generate(TaskConfig(n=30, seed=5))  # the gate is on by default
    assert all(not probe_detail(t)["survivors"] for t in tasks)
    assert all(probe_detail(t)["killed"] == probe_detail(t)["mutants"] >= 8 for t in tasks)
    assert report.mutation_score == 1.0
    assert len(tasks) >= 27, report.rejected_by_reason
    off, _, report_off = generate(TaskConfig(n=30, seed=5, require_all_mutants_killed=False))
    survivors = [t for t in off if probe_detail(t)["survivors"]]
    assert {t.index for t in off} - {t.index for t in tasks} == {t.index for t in survivors}
    print(f"gate on: {len(tasks)} of 30 accepted; reasons {report.rejected_by_reason}")


def test_superseded_policy_and_stale_mutants_are_derived(batch) -> None:
    tasks, _, _ = batch
    with_policy = [t for t in tasks if environment_rule(t)]
    with_stale = [t for t in tasks if t.stale]
    assert with_policy and with_stale
    for t in with_policy:
        assert "superseded" in probe_detail(t)["mutants_by_kind"], t.id
    for t in with_stale:
        d = probe_detail(t)
        assert "stale" in d["mutants_by_kind"] or d["equivalent"], t.id


# -- world invariants ------------------------------------------------------------------------------

def _world() -> dict:
    return {
        "chat": {"users": {"u_1": {"id": "u_1", "email": "rosa.khan@halcyon.io", "name": "Rosa Khan", "created_at": "2025-12-01T09:00:00Z"}}},
        "hr": {"employees": {"e_1": {"id": "e_1", "email": "rosa.khan@halcyon.io", "name": "Rosa Khan", "start_date": "2027-01-01"}}},
        "email": {"mailboxes": {"m_1": {"id": "m_1", "address": "rosa.khan@halcyon.io", "owner_name": "Rosa Khan"}}},
        "drive": {"files": {"f_1": {"id": "f_1", "name": "Travel Policy", "path": "/Policies/Travel Policy"}}},
        "calendar": {"events": {"ev_1": {"id": "ev_1", "scheduled_at": "2027-01-01T09:00:00Z", "due_date": "2027-01-01",
                                         "attendees": [{"email": "rosa.khan@halcyon.io", "name": "Rosa Khan"}]}}},
    }


def test_a_coherent_world_has_no_violations() -> None:
    assert world_violations(_world(), "2026-01-05") == []


def test_the_checker_finds_a_planted_violation_of_each_kind() -> None:
    w = _world()
    w["helpdesk"] = {"agents": {"agt_1": {"id": "agt_1", "email": "rosa.khan@halcyon.io", "name": "Rosa Kahn"}}}
    found = world_violations(w, "2026-01-05")
    assert violation_kinds(found) == {"email_name": 1}
    assert "rosa.khan@halcyon.io" in found[0] and "Rosa Kahn" in found[0]

    w = _world()
    w["calendar"]["events"]["ev_1"]["attendees"][0]["name"] = "Rosa K."  # a list item disagrees
    assert violation_kinds(world_violations(w, "2026-01-05")) == {"email_name": 1}

    w = _world()
    w["chat"]["users"]["u_1"] = {**w["chat"]["users"]["u_1"], "created_at": "2026-02-01T09:00:00Z"}
    w["email"]["messages"] = {"msg_1": {"id": "msg_1", "sent_at": "2026-01-06T08:00:00Z", "paid_on": "2026-01-09"}}
    assert violation_kinds(world_violations(w, "2026-01-05")) == {"future_timestamp": 3}

    w = _world()
    w["drive"]["files"]["f_1"]["path"] = "/Policies/Expense Policy"
    assert violation_kinds(world_violations(w, "2026-01-05")) == {"name_path": 1}

    w = _world()
    w["chat"]["users"]["u_2"] = {"id": "u_2", "email": "sales@halcyon.io", "name": "#sales-team"}
    w["hr"]["employees"]["e_2"] = {"id": "e_2", "email": "ops@halcyon.io", "name": "ops-lead"}
    assert violation_kinds(world_violations(w, "2026-01-05")) == {"slug_name": 2}


def test_field_and_name_rules() -> None:
    assert past_field("created_at") and past_field("sent_at") and past_field("paid_on") and past_field("at")
    assert not past_field("scheduled_at") and not past_field("resolution_due_at") and not past_field("due_date")
    assert not past_field("start_date") and not past_field("effective_date")
    assert is_slug("#general") and is_slug("rosa-khan") and is_slug("customers_software")
    assert not is_slug("Rosa Khan") and not is_slug("Jean-Luc Picard") and not is_slug("rosa")


def test_seeded_worlds_violations_are_reported_as_a_figure() -> None:
    """A figure, not a target: the count over a few seeded library worlds (issue 11 wants 0)."""
    total: dict[str, int] = {}
    for seed in range(4):
        state = {name: generated_state(cls, seed) for name, cls in CLASSES.items()}
        for kind, n in violation_kinds(world_violations(state, Context(seed).clock.today())).items():
            total[kind] = total.get(kind, 0) + n
    env = Environment(list(CLASSES.values()), seed=0)
    assert env.ctx.clock.today() == Context(0).clock.today()
    print("world violations over seeds 0-3:", total)


def test_factory_report_counts_world_violations_of_the_worlds_used(batch) -> None:
    tasks, rejected, report = batch
    again = factory_report(tasks, rejected, 1.0, classes=CLASSES)
    assert again.world_violations == report.world_violations
    seeds = {t.seed for t in tasks}
    expected = 0
    for seed in seeds:
        state = {name: generated_state(cls, seed) for name, cls in CLASSES.items()}
        expected += len(world_violations(state, Context(seed).clock.today()))
    assert report.world_violations == expected


def test_planted_records_are_checked_against_their_world() -> None:
    from compoworld.services.world_check import added_violations, email_names

    world = _world()
    names = email_names(world)
    ok = {"helpdesk": {"agents": {"agt_9": {"id": "agt_9", "email": "rosa.khan@halcyon.io", "name": "Rosa Khan"}}}}
    assert added_violations(ok, "2026-01-05", names) == []
    bad = {"helpdesk": {"agents": {"agt_9": {"id": "agt_9", "email": "rosa.khan@halcyon.io", "name": "ext-delta-media",
                                             "updated_at": "2026-03-01T00:00:00Z"}}}}
    assert violation_kinds(added_violations(bad, "2026-01-05", names)) == {"slug_name": 1, "future_timestamp": 1, "email_name": 1}


def test_factory_report_counts_planted_violations(batch) -> None:
    tasks, _, report = batch
    assert report.planted_violations == sum(report.planted_violation_kinds.values())
    print("planted violations on 40 tasks:", report.planted_violation_kinds)


def test_planted_records_mostly_keep_the_world_coherent(batch) -> None:
    # Plants take values in their field's role (an assignee is an employee, with our domain), a cloned
    # record gets the name of the person whose email it now holds (a former address or a team mailbox:
    # the name the world gives it), a group of people's records holds people of the world, dates of
    # past events lie before today, and a planted file's name is the end of its path. A few plants in
    # a thousand tasks still break one (0.04 per task, `bench/tasks.py`): 8.6 per task before roles,
    # 1.7 before these rules.
    tasks, _, report = batch
    assert report.planted_violations / len(tasks) < 0.25, report.planted_violation_kinds
    assert report.planted_violation_kinds.get("name_path", 0) <= len(tasks) // 10


def test_a_group_of_peoples_records_holds_people_of_the_world(batch) -> None:
    """Planted employees, leave requests or tickets of a group carry a real person's email and name, and
    the text that names its person (a signature) names the same one; their past dates lie before today."""
    from compoworld.services.cast import cast
    from compoworld.services.world_check import person_pairs

    tasks, _, _ = batch
    checked = 0
    for t in tasks:
        people, today = cast(t.seed).by_email(), Context(t.seed).clock.today()
        for colls in t.initial_state.values():
            for rec in (r for rows in colls.values() for r in rows.values()):
                for ef, nf in person_pairs(rec):
                    person = people.get(str(rec.get(ef)).lower())
                    if person is not None and isinstance(rec.get(nf), str):
                        checked += 1
                        assert rec[nf] == person.name, (t.id, rec)
                        text = str(rec.get("description") or "")
                        if ef == "requester_email" and "\n\n" in text:  # a ticket signed "Name, Title, Company"
                            assert text.rsplit("\n\n", 1)[1].startswith(person.name), (t.id, rec)
                assert all(str(v)[:10] <= today for f, v in rec.items() if past_field(f) and isinstance(v, str)
                           and v[:4].isdigit()), (t.id, rec)
    assert checked > 100


def test_a_record_cloned_for_another_person_says_so_in_its_text() -> None:
    from compoworld.services.fake import Person
    from compoworld.tasks.design import Designer

    was = Person("Wei", "Moore", "wmoore@vertexmotors.com", "", "Vertex Motors", "Procurement Lead")
    now = Person("Olga", "Johnson", "ojohnson@northstar.com", "", "Northstar Networks", "IT Manager")
    template = {"requester_email": was.email, "requester_name": was.name, "company": "Vertex Motors",
                "description": "Please refund.\n\nWei Moore, Procurement Lead, Vertex Motors", "subject": "Refund"}
    out = {"requester_email": now.email, "requester_name": now.name}
    Designer.restate(template, out, was, now)
    assert out["company"] == "Northstar Networks" and "subject" not in out
    assert out["description"] == "Please refund.\n\nOlga Johnson, IT Manager, Northstar Networks"
    assert Designer.in_role("ann.lee@" + OUR_DOMAIN, "email", "employee") and not Designer.in_role("ann@acme.com", "email", "employee")
    assert not Designer.in_role("ann.lee@" + OUR_DOMAIN, "email", "vendor_contact") and Designer.in_role("x", "name", "employee")


def test_requests_come_from_a_named_colleague(batch) -> None:
    from compoworld.services.cast import cast

    tasks, _, _ = batch
    for t in tasks:
        staff = cast(t.seed).world.employees
        opening = t.instruction.split(".", 1)[0]
        assert any(p.first in opening for p in staff), t.instruction[:120]
        assert "(current)" not in t.instruction and "superseded" not in t.instruction.lower()


def test_some_lookups_leave_the_service_for_the_agent_to_find() -> None:
    # "find the candidate named X" without "in recruiting" when only one mounted service keeps
    # candidates: the agent finds where the record lives. Never when two services keep them.
    import random

    from compoworld.tasks.instruction import Phrase, Requester, render

    phrase = Phrase("find", service="recruiting", entity="candidate", key_field="name", key="Ada Park", field="email")
    who = Requester("Wei Wilson", "Sales Manager", "Sales")
    alone = [render([phrase], random.Random(k), None, who, {"candidate": 1}) for k in range(40)]
    shared = [render([phrase], random.Random(k), None, who, {"candidate": 2}) for k in range(40)]
    assert 8 <= sum("recruiting" not in r for r in alone) <= 32
    assert all("recruiting" in r for r in shared)
    assert all("'Ada Park'" in r and "Wei" in r for r in alone + shared)


def test_leads_that_want_a_verb_come_only_before_one(batch) -> None:
    # "Please also please add ..." and "Make sure to I'd ..." were seams: a lead like "Please also"
    # or "Make sure to" takes a bare verb, so a sentence that starts "please" or "I'd" gets "Also,".
    import re

    tasks, _, _ = batch
    seams = re.compile(r"(please also|need you to|make sure to) (please|i'd|i need)\b", re.IGNORECASE)
    texts = [t.instruction for t in tasks]
    assert not [s.group(0) for t in texts for s in [seams.search(t)] if s]
    assert any(re.search(r"\b(Please also|Make sure to|I also need you to) \w+", t) for t in texts)


def test_report_labels_say_which_record_each_value_comes_from(batch) -> None:
    # Two "the candidate email of the interview with that organizer email" in one report named two
    # different records the same way: "that <field>" in a report must mean the one value of that field read.
    from compoworld.tasks.instruction import _h

    tasks, _, _ = batch
    spelled = 0
    for t in tasks:
        labels = [it.label for it in t.report]
        assert len(labels) == len(set(labels)), labels
        # no "the name of the user whose email is the manager email of the employee whose name is the
        # name of the user whose email is ...": a label goes through one other record at most
        assert all(lb.count(" whose ") <= 2 for lb in labels), labels
        for label in labels:
            for fld in re.findall(r"(?:with|is) that ([a-z ]+?)(?=,| and |$)", label):
                read = {e.var for st in t.plan for e in st.extract if _h(e.field) == fld}
                assert len(read) <= 1, (label, sorted(read))
        spelled += sum(" whose " in lb and " is the " in lb for lb in labels)
    assert spelled  # some labels had to say whose value they mean


def test_a_value_named_like_its_parameter_is_not_said_twice(batch) -> None:
    tasks, _, _ = batch
    # the same words on both sides, and nothing more ("setting owner to the owner email" is no seam)
    end = r"(?=[,.;]| with | and |$)"
    seam = re.compile(rf"setting ([a-z ]+) to the \1{end}|using that ([a-z ]+) as the \2{end}|with the ([a-z ]+) as \3{end}|that ([a-z ]+) \(\4\)")
    assert not [m.group(0) for t in tasks for m in [seam.search(t.instruction)] if m]


def test_value_pools_survive_the_bounded_cache_being_emptied() -> None:
    """The per-service value pools are cached with a bound: computing a new one may empty the cache.
    A pool read before that must still be used (a lost one was a KeyError that dropped two tasks of
    a default `make run`)."""
    from compoworld.tasks import design

    names = sorted(CLASSES)[:3]
    whole = seeded_pool(CLASSES, names, 11)
    keys = {k: whole.get(k) for k in ("email", "person_name")}
    saved = dict(design._POOLS)
    try:
        design._POOLS.pop(((names[2],), 11), None)
        for i in range(4100):  # the next new pool empties the cache
            design._POOLS[((f"filler-{i}",), 11)] = {}
        again = seeded_pool(CLASSES, names, 11)
        assert {k: again.get(k) for k in keys} == keys and len(again.parts) == 3
    finally:
        design._POOLS.clear()
        design._POOLS.update(saved)


# -- wording of compiled services' records and writes ------------------------------------------------

@pytest.mark.parametrize(("tool", "entity", "op", "said"), [
    ("acme__notes_create", "note", "added", "create a note"),  # the verb after the noun ("notes a create" before)
    ("acme__acme_create_blog_post", "post", "added", "create a blog post"),  # the service's own name is no verb
    ("acme__calendar_add", "event", "added", "add an event"),  # the record kind, where the name gives none
    ("acme__create_new_project", "project", "added", "create a project"),
    ("acme__canvas", "canvas", "added", "create a canvas"),  # no verb at all: the op says it
    ("acme__ticket_status", "ticket", "changed", "update a ticket"),
    ("acme__addComment", "comment", "added", "add a comment"),
    ("acme__send_email", "email", "added", "send an email"),
    ("playwright__playwright_navigate", "browser_page", "added", "open a page"),  # it said "create a browser page"
])
def test_a_write_is_said_with_its_verb_and_the_record_it_makes(tool: str, entity: str, op: str, said: str) -> None:
    from compoworld.tasks.instruction import write_verb

    assert write_verb(tool, entity, op) == said


def test_entity_names_that_are_no_nouns_are_recognized() -> None:
    from compoworld.synthesis.naming import reads_as_noun

    assert [w for w in ("optimized", "visible", "analyze", "searchable", "around", "search_result_lite", "think")
            if reads_as_noun(w)] == []
    assert all(reads_as_noun(w) for w in ("feed", "table", "variable", "news", "blog_post", "bank", "analysis", "series"))


class _Named(TypedDict):
    id: str
    name: str


class _Vault(Service):
    """Records no request could name (numbered names, a collection named by an adjective) beside real ones."""

    name = "vaultsvc"
    description = "Banks, optimized items and branches."
    tables = {"banks": Collection(_Named, "bank", "bk"), "optimizeds": Collection(_Named, "optimized", "op"),
              "results": Collection(_Named, "result", "rs"), "branches": Collection(_Named, "branch", "br")}

    def generate(self, gen: Any) -> dict[str, Any]:
        return {"banks": [{"name": f"Bank {k}"} for k in range(1, 7)],
                "optimizeds": [{"name": f"Item {c}"} for c in "ABCDEF"],
                "results": [{"name": f"Finding {c}"} for c in "ABCDEF"],
                "branches": [{"name": n} for n in ("Harbor Road", "Mill Lane", "Quay Street", "Elm Park", "Old Town", "Riverside")]}

    def _get(self, coll: str, name: str) -> _Named:
        return next(r for r in self.db[coll].rows.values() if r["name"] == name)

    @tool(read_only=True)
    def get_bank(self, name: str) -> _Named:
        """Get a bank by its name.

        Args:
            name: The bank's name.
        """
        return self._get("banks", name)

    @tool(read_only=True)
    def get_optimized(self, name: str) -> _Named:
        """Get an optimized item by its name.

        Args:
            name: The item's name.
        """
        return self._get("optimizeds", name)

    @tool(read_only=True)
    def get_result(self, name: str) -> _Named:
        """Get a result by its name.

        Args:
            name: The result's name.
        """
        return self._get("results", name)

    @tool(read_only=True)
    def get_branch(self, name: str) -> _Named:
        """Get a branch by its name.

        Args:
            name: The branch's name.
        """
        return self._get("branches", name)


def test_lookups_leave_out_records_no_request_could_name() -> None:
    # A collection named by an adjective ("the optimized with url ..."), one named by no noun at all
    # (inference's "result") and names that only number their records ("the bank named 'Bank 1'") are
    # nothing a colleague asks about; a real name is.
    from compoworld.tasks.explore import profile

    prof = profile(_Vault)
    assert prof.error == ""
    assert {(lk.collection, lk.key_field) for lk in prof.lookups} == {("branches", "name")}
    assert "name" not in prof.key_fields["banks"] and "name" in prof.key_fields["branches"]


def test_a_request_asks_for_each_record_once_and_never_for_the_key_it_gives(batch) -> None:
    # 22 of 40 tasks over all services asked for the same record twice ("find the bank named 'Bank 1';
    # I need its location" ... "find the bank named 'Bank 1'; I need its location"), and some for a field
    # holding the key itself ("the file '/a/b.pdf'; I need its path"). The measures see both ...
    from compoworld.tasks.quality import echo_lookups, repeated_lookups

    tasks, _, report = batch
    t = next(t for t in tasks if any(st.purpose == "lookup" and st.extract for st in t.plan))
    k, step = next((k, st) for k, st in enumerate(t.plan) if st.purpose == "lookup" and st.extract)
    assert repeated_lookups(t.model_copy(update={"plan": t.plan + [step]})) == repeated_lookups(t) + 1
    echo = step.model_copy(update={"arguments": {**step.arguments, "extra": str(t.bindings[step.extract[0].var])}})
    assert echo_lookups(t.model_copy(update={"plan": t.plan[:k] + [echo] + t.plan[k + 1:]})) == echo_lookups(t) + 1
    # A chain that comes back to the value it started from echoes it too (email -> name -> that email) ...
    user = PlanStep(visit=0, service="chat", tool="chat__list_users", arguments={"query": "Sofia.Park@halcyon.io"},
                    extract=[Extract(var="w1", field="name", match={})])
    employee = PlanStep(visit=1, service="hr", tool="hr__search_employees", arguments={"query": {"$var": "w1"}},
                        extract=[Extract(var="w2", field="email", match={})])
    chain = t.model_copy(update={"plan": [user, employee], "bindings": {"w1": "Sofia Park", "w2": "sofia.park@halcyon.io"}})
    assert echo_lookups(chain) == 1
    other = PlanStep(visit=1, service="hr", tool="hr__search_employees", arguments={"query": "Sofia Park"},
                     extract=[Extract(var="w2", field="email", match={})])
    assert echo_lookups(chain.model_copy(update={"plan": [user, other]})) == 0  # the same person, reached another way
    # ... and the designer makes neither
    assert report.repeated_lookups == sum(repeated_lookups(t) for t in tasks) == 0
    assert report.echo_lookups == sum(echo_lookups(t) for t in tasks) == 0


def test_no_lookup_goes_back_through_another_service_to_the_kind_of_record_it_came_from(batch) -> None:
    # 27% of library tasks asked "the employee whose name is the name of the chat user whose email is
    # the manager email of the employee named 'Yuki Alvarez'": chat only translated an email into a name
    # to get back to hr's employees. The measure sees that shape ...
    from compoworld.tasks.explore import profile
    from compoworld.tasks.quality import round_trips

    def look(service: str, tool: str, key: str, arg: Any, field: str, var: str) -> PlanStep:
        return PlanStep(visit=0, service=service, tool=f"{service}__{tool}", arguments={key: arg}, purpose="lookup",
                        extract=[Extract(var=var, field=field, match={})])

    def collection_of(step: PlanStep) -> str | None:
        return profile(CLASSES[step.service]).collection_of(step.tool)

    tasks, _, report = batch
    yuki = look("hr", "search_employees", "query", "Yuki Alvarez", "manager_email", "v1")
    user = look("chat", "list_users", "query", {"$var": "v1"}, "name", "v2")
    back = look("hr", "search_employees", "query", {"$var": "v2"}, "manager_email", "v3")
    leave = look("hr", "search_leave_requests", "employee_email", {"$var": "v2"}, "end_date", "v3")
    assert collection_of(yuki) == collection_of(back) == "employees" != collection_of(leave)
    t = tasks[0]
    assert round_trips(t.model_copy(update={"plan": [yuki, user, back]}), collection_of) == 1
    assert round_trips(t.model_copy(update={"plan": [yuki, user, leave]}), collection_of) == 0  # on to other records
    manager = look("hr", "search_employees", "query", {"$var": "v1"}, "manager_email", "v3")
    assert round_trips(t.model_copy(update={"plan": [yuki, manager]}), collection_of) == 0  # hr's own chain of managers
    # ... and the designer makes none
    assert report.round_trips == sum(round_trips(t, collection_of) for t in tasks) == 0


def test_no_lookup_reads_back_a_record_the_request_had_the_agent_make(batch) -> None:
    # "Create a folder in drive named that title. Use that title to find the matching folder; I need its
    # owner email": 45 lookups in 40 of 294 library tasks read a record the plan itself had just made.
    from compoworld.tasks.solution import resolve

    tasks, _, _ = batch
    looked = 0
    for t in tasks:
        env = build_env(t, CLASSES)
        start_ids = {(s, c, rid) for s, colls in env.state().items() for c, rows in colls.items() for rid in rows}
        made: set[str] = set()
        for st in t.plan:
            before = env.state()
            obs = env.step({"name": st.tool, "arguments": resolve(st.arguments, t.bindings)})
            after = env.state()
            made |= {rid for s, colls in after.items() for c, rows in colls.items() for rid in rows
                     if (s, c, rid) not in start_ids and rid not in before.get(s, {}).get(c, {})}
            if st.purpose != "lookup" or not obs.ok or not st.extract or not st.extract[0].match:
                continue
            items = obs.data.get("items", [obs.data]) if isinstance(obs.data, dict) else obs.data
            match = resolve(st.extract[0].match, t.bindings)
            hits = [r for r in items if isinstance(r, dict) and all(str(r.get(f)).lower() == str(v).lower() for f, v in match.items())]
            looked += 1
            assert not (len(hits) == 1 and hits[0].get("id") in made), (t.id, st.tool, st.arguments)
    assert looked > 100


def test_report_only_lookups_are_the_values_nothing_but_the_report_uses(batch) -> None:
    # A walk that restarts with an unrelated lookup leaves the value in hand to the closing report:
    # the measure counts such values among all the values lookups read.
    from compoworld.tasks.model import ReportItem
    from compoworld.tasks.quality import report_only_lookups

    tasks, _, report = batch
    t = next(t for t in tasks if any(st.purpose == "lookup" and st.extract for st in t.plan))
    only, total = report_only_lookups(t)
    step = next(st for st in t.plan if st.purpose == "lookup" and st.extract)
    extra = step.model_copy(update={"extract": [step.extract[0].model_copy(update={"var": "v_extra"})]})
    reported = t.model_copy(update={"plan": t.plan + [extra], "report": t.report + [ReportItem(label="x", vars=["v_extra"])]})
    assert report_only_lookups(reported) == (only + 1, total + 1)
    unreported = t.model_copy(update={"plan": t.plan + [extra]})
    assert report_only_lookups(unreported) == (only, total + 1)
    assert 0 < report.report_only_lookup_share < 1


def test_a_value_only_the_report_asks_for_is_asked_for_there_alone() -> None:
    import random

    from compoworld.tasks.instruction import Phrase, Requester, render

    who = Requester("Wei Wilson", "Sales Manager", "Sales")
    phrases = [Phrase("find", service="crm", entity="contact", key_field="name", key="Ada Park", field="email", var="v1"),
               Phrase("find", service="kb", entity="article", key_field="title", key="Refunds", field="author", var="v2"),
               Phrase("write", service="kb", tool="kb__create_article", verb="create an article", param="author", prev="author", src="v2")]
    for k in range(30):
        text = render(phrases, random.Random(k), ["the email of the contact 'Ada Park'"], who, {}, set(), {"v1"})
        assert text.count("Ada Park") == 1, text  # in the report only, not also as a step
        assert "Refunds" in text  # a value a write uses is still looked up in the body
        assert "their author" not in text  # an article is no person
    people = [render([Phrase("find", service="crm", entity="contact", key_field="name", key="Ada Park", field="email", var="v1")],
                     random.Random(k), None, who, {}, set(), set()) for k in range(30)]
    assert any("their email" in t for t in people) and not any("its email" in t for t in people)


def test_a_sentence_that_continues_the_last_one_is_not_led_as_standing_apart() -> None:
    # "Dig out the name of the airbnb X. Separately, track down the web with that name": a sentence
    # that says "that name" depends on the one before it.
    import random

    from compoworld.tasks.instruction import APART, Phrase, render

    phrases = [Phrase("find", service="crm", entity="company", key_field="name", key="Acme", field="domain", var="v1"),
               Phrase("follow", service="web", entity="site", key_field="domain", field="owner email", prev="domain", var="v2", src="v1"),
               Phrase("write", service="kb", tool="kb__create_article", verb="create an article", param="author", prev="owner email", src="v2")]
    texts = [render(phrases, random.Random(k)) for k in range(200)]
    sentences = [s for t in texts for s in re.split(r"(?<=\.) ", t) if "that domain" in s or "that owner email" in s]
    assert sentences and not [s for s in sentences if s.startswith(tuple(APART))]


def test_records_are_named_in_the_singular() -> None:
    # "Look up the videos with creator 'Yuki Novak' and get its title": inference keeps `videos`
    # whole (as it must `status`), so a request says one record by `spoken_entity`.
    from compoworld.synthesis.naming import spoken_entity

    assert [spoken_entity(w) for w in ("videos", "schemas", "web_workflows", "emojis", "rows")] == \
        ["video", "schema", "web_workflow", "emoji", "row"]
    assert [spoken_entity(w) for w in ("news", "canvas", "status", "analysis", "alias", "bus")] == \
        ["news", "canvas", "status", "analysis", "alias", "bus"]


# -- motifs: one per kind of record; groups of one record's children -------------------------------

def _group_listings(task: Task) -> list[PlanStep]:
    """The steps that list a motif's group: one lookup reading fields of 4 or more records, each matched by its id."""
    return [s for s in task.plan if s.purpose == "lookup" and len({str(ex.match["id"]) for ex in s.extract if "id" in ex.match}) >= 4]


def test_a_group_is_not_keyed_by_what_named_one_record_earlier(batch) -> None:
    """"The needed by of the purchase request with that approver email", then four more purchase requests
    planted with that approver email for a group: the first item no longer names one record. A group
    listing never goes under a key an earlier step read one record by."""
    from compoworld.tasks.explore import profile
    from compoworld.tasks.solution import resolve

    tasks, _, _ = batch
    listed = 0
    for t in tasks:
        for step in _group_listings(t):
            prof = profile(CLASSES[step.service])
            lk = next((lk for lk in prof.lookups if lk.tool == step.tool and lk.key_param in step.arguments), None)
            if lk is None:
                continue
            listed += 1
            key = resolve(step.arguments[lk.key_param], t.bindings)
            for earlier in t.plan[:t.plan.index(step)]:
                if earlier.service == step.service and prof.collection_of(earlier.tool) == lk.collection:
                    assert not any(same(resolve(ex.match.get(lk.key_field), t.bindings), key) for ex in earlier.extract
                                   if lk.key_field in ex.match), (t.id, earlier.tool, lk.key_field, key)
    assert listed


def test_a_task_has_one_motif_per_kind_of_record(batch) -> None:
    """Six fan-outs over helpdesk tickets, each naming another company, read as one chore repeated:
    130 of 294 library tasks had five repeats before this rule. A task now works on (or reports over)
    each kind of record once, and most tasks still have more than one motif."""
    tasks, _, _ = batch
    kinds = [[(s.service, s.tool) for s in _group_listings(t)] for t in tasks]
    assert all(len(k) == len(set(k)) for k in kinds), [k for k in kinds if len(k) != len(set(k))][:3]
    assert sum(len(k) >= 2 for k in kinds) >= len(tasks) // 2
    # Nor one verb over several kinds: cancel the orders, the events and the interviews. A transition
    # is a write that takes only the record; its verb is its tool's first word.
    transitions = [{s.tool for s in t.plan if s.purpose == "update" and len(s.arguments) == 1} for t in tasks]
    verbs = [{tool.split("__")[1].split("_")[0] for tool in tools} for tools in transitions]
    assert all(len(v) == len(tools) for v, tools in zip(verbs, transitions)), [ts for v, ts in zip(verbs, transitions) if len(v) != len(ts)][:3]
    assert sum(bool(tools) for tools in transitions) >= len(tasks) // 4  # transitions do take part


def test_a_group_of_one_records_children_is_found_through_that_record_by_its_name(batch) -> None:
    """'Every deal in crm of the company with name X': the request names the company; the agent looks
    up its id, then lists the deals with it. The company is one of the seeded world's records that the
    task neither planted nor changed (a planted rule document is no company), and its id is never said."""
    tasks, _, _ = batch
    seen = 0
    for t in tasks:
        for k, step in enumerate(t.plan):
            if step not in _group_listings(t):
                continue
            key = next(v["$var"] for v in step.arguments.values() if isinstance(v, dict) and "$var" in v) \
                if any(isinstance(v, dict) and "$var" in v for v in step.arguments.values()) else None
            parent = next((s for s in t.plan[:k] for ex in s.extract if ex.var == key and ex.field == "id"), None)
            if parent is None:
                continue
            seen += 1
            assert parent.service == step.service
            named = next(v for v in parent.arguments.values() if isinstance(v, str))
            assert f"with {next(iter(parent.extract[0].match))} '{named}'".replace("_", " ") in t.instruction, (t.id, named)
            assert str(t.bindings[key]) not in t.instruction
            planted = {rid for colls in t.initial_state.get(parent.service, {}).values() for rid in colls}
            assert t.bindings[key] not in planted, (t.id, t.bindings[key])
    assert seen >= 3


def test_a_request_makes_each_kind_of_unrelated_lookup_once(batch) -> None:
    """Where no step goes on from the value in hand, the walk looks up a record the request names. Two
    of one kind ("the email of the candidate 'Elif Smith' ... the email of the candidate 'Omar Smith'")
    read as one errand repeated: 192 such repeats in 114 of 293 library tasks before this rule. A
    service that offers one kind of lookup (chat's users by email) may be asked twice."""
    from compoworld.tasks.explore import profile

    tasks, _, _ = batch
    kinds = {name: {(lk.collection, lk.key_field) for lk in profile(cls).lookups} for name, cls in CLASSES.items()}
    for t in tasks:
        # the lookups of a record the request names (not a group listing, a rule document or an id)
        named = [(s.service, s.tool, tuple(sorted(s.arguments))) for s in t.plan
                 if s.purpose == "lookup" and s.reasoning.startswith("I'll look up the ") and len(kinds[s.service]) > 1
                 and not any(isinstance(v, dict) for v in s.arguments.values())]
        assert len(named) == len(set(named)), (t.id, named)


def test_a_group_keyed_by_one_of_several_values_of_a_field_says_whose_value_it_is(batch) -> None:
    """'Every file in drive with that owner email' where the request had read two owner emails (a
    project's and a folder's) left a careful agent to guess; the group named the earlier one. A group
    keyed by a value the task reads more than one of is named by whose value it is ("whose owner email
    is the owner email of the project with client company Keystone Health")."""
    tasks, _, _ = batch
    checked = 0
    for t in tasks:
        reads = Counter(e.field for s in t.plan for e in s.extract)
        for step in _group_listings(t):
            key = next((v["$var"] for v in step.arguments.values() if isinstance(v, dict) and "$var" in v), None)
            found = next((e for s in t.plan for e in s.extract if e.var == key), None)
            if found is None or found.field == "id" or reads[found.field] <= 1:
                continue
            checked += 1
            said = found.field.replace("_", " ")
            # "the tickets in helpdesk whose company is the customer company of ..." or, in a report,
            # "the projects whose client company is the customer company of the order ... in projects"
            named = rf" in {step.service} whose [a-z ]+ is the {said} of |whose [a-z ]+ is the {said} of (?:(?!\. ).)*? in {step.service}\b"
            assert re.search(named, t.instruction), (t.id, step.service, said)
    assert checked


def test_a_plant_the_state_model_refuses_is_a_design_failure_not_a_probe_error() -> None:
    """A planted vendor whose contact email was another service's record id ('forwa_0008') passed the
    scratch world (tables take any dict) and failed only when the probe loaded the task's initial state:
    6 of 1,000 `make run` tasks were lost as "probe: error: ValidationError". A plant is now checked
    against the state model when it is made, so the designer tries another way (all 6 then passed)."""
    from compoworld.tasks.design import Designer
    from compoworld.tasks.design_types import DesignError
    from compoworld.tasks.model import Walk

    walk = Walk(services=["procurement", "crm"], distractors=[], visits=["procurement", "crm"], edge_types=["email"])
    d = Designer(walk, all_services("library"), seed=0)
    vendor = next(iter(d.d.initial["procurement"]["vendors"].values()))
    before = dict(d.table("procurement", "vendors").rows)
    with pytest.raises(DesignError, match="state model"):
        d.plant("procurement", "vendors", vendor, {"contact_email": "forwa_0008"})
    assert d.table("procurement", "vendors").rows == before and not d.d.planted  # nothing half-planted
    ok = d.plant("procurement", "vendors", vendor, {"contact_email": "pat.lee@northwind.example"})
    assert d.d.planted[-1]["record"] is ok


def test_a_planted_person_record_keeps_its_address_only_under_its_own_name() -> None:
    """An employee cloned with the name 'Sales Team' (read from a team mailbox's messages) kept the
    template's address, omar.alvarez@: one email, two names across the world. A plant that renames a
    person's record without giving it another address is refused; a real person's name brings their
    own address."""
    from compoworld.services.cast import cast
    from compoworld.tasks.design import Designer
    from compoworld.tasks.design_types import DesignError
    from compoworld.tasks.model import Walk

    walk = Walk(services=["hr", "crm"], distractors=[], visits=["hr", "crm"], edge_types=["email"])
    d = Designer(walk, all_services("library"), seed=0)
    employee = next(iter(d.d.initial["hr"]["employees"].values()))
    with pytest.raises(DesignError, match="not theirs"):
        d.plant("hr", "employees", employee, {"name": "Sales Team"})
    assert not d.d.planted
    other = next(p for p in cast(0).world.employees if p.email.lower() != employee["email"].lower())
    rec = d.plant("hr", "employees", employee, {"name": other.name})
    assert rec["email"] == cast(0).by_name()[other.name.lower()].email != employee["email"]  # (of namesakes, the one the name finds)


def test_planted_spans_of_time_stay_whole(batch) -> None:
    """A group ranked by an event's end got planted ends with the template's start and date: events
    that ended before they started, or on another day than their date; leave requests likewise. The
    other ends of a span now move with the one the motif sets."""
    tasks, _, _ = batch
    spans = 0
    for t in tasks:
        for colls in t.initial_state.values():
            for rows in colls.values():
                for rec in rows.values():
                    for a, b in (("start", "end"), ("start_date", "end_date")):
                        if isinstance(rec.get(a), str) and isinstance(rec.get(b), str):
                            spans += 1
                            assert rec[a] <= rec[b], (t.id, rec["id"], rec[a], rec[b])
                    if isinstance(rec.get("date"), str) and isinstance(rec.get("start"), str):
                        assert rec["start"][:10] == rec["date"], (t.id, rec["id"], rec["date"], rec["start"])
    assert spans


def test_a_write_does_not_pair_a_carried_name_with_someone_elses_address() -> None:
    """A ticket's requester name 'Granite Travel Inc' (a company writing from noreply@) was carried into
    a new crm contact with the stated address omar.young@halcyon.io, a person of the world: one email
    under two names. A carried name that is no one's (or another person's) refuses a stated address
    that belongs to someone else, so the designer tries another way; a person's own name gets their address."""
    from compoworld.services.cast import cast
    from compoworld.tasks.design import Designer
    from compoworld.tasks.design_types import Carry, DesignError
    from compoworld.tasks.model import Walk

    walk = Walk(services=["helpdesk", "crm"], distractors=[], visits=["helpdesk", "crm"], edge_types=["person_name"])
    d = Designer(walk, all_services("library"), seed=0)
    act = next(a for a in d.profiles["crm"].actions if a.tool == "crm__create_contact")
    someone = next(iter(cast(0).by_email().values()))
    company = Carry("v1", "person_name", "Granite Travel Inc", "requester_name", "ticket", "helpdesk", 0)
    with pytest.raises(DesignError, match="not theirs"):
        d.same_person_args(act, {"company_id": "co_0001", "name": {"$var": "v1"}, "email": someone.email}, "name", company)
    named = [p for p in cast(0).by_email().values() if p.name == someone.name]
    args = {"company_id": "co_0001", "name": {"$var": "v1"}, "email": "x.y@example.org"}
    d.same_person_args(act, args, "name", Carry("v1", "person_name", someone.name, "requester_name", "ticket", "helpdesk", 0))
    assert args["email"] == (someone.email if len(named) == 1 else "x.y@example.org")
