"""Capabilities, branches, closing reports and the mutation gate (issue 11, items 2-8).

Each capability label a task carries must be backed by executable structure (`capabilities.evidence`)
and by the rubric: breaking the work the label names (taking the other branch, touching a record
the work must leave alone, reporting a wrong figure) fails at least one criterion.
"""

from __future__ import annotations

from collections import Counter

import pytest

from compoworld.rollout import PerturbedPolicy, ReferenceTeacher, collect
from compoworld.rollout.runner import final_message
from compoworld.services.registry import all_services
from compoworld.tasks.capabilities import evidence
from compoworld.tasks.checks import mentions, score
from compoworld.tasks.factory import TaskConfig, build_env, generate, probe
from compoworld.tasks.model import CAPABILITIES, Cond, ReportItem
from compoworld.tasks.mutation import answer_of, equivalent
from compoworld.tasks.quality import dangling_lookups, is_step_list, probe_detail
from compoworld.tasks.solution import applies, execute, holds, report_value

CLASSES = all_services("library")


@pytest.fixture(scope="module")
def batch():
    return generate(TaskConfig(n=60, seed=1))


# -- the answer check -------------------------------------------------------------------------------

@pytest.mark.parametrize("text,value", [
    ("The total is $12,345.50.", 12345.5),
    ("total: 12345.5", 12345.5),
    ("It comes to 12 345.50 EUR? no: 12345.50", 12345.5),
    ("share: 23.4%", 23.4),
    ("about 23.40 percent", 23.4),
    ("due 5 March 2026", "2026-03-05"),
    ("due Mar 5, 2026", "2026-03-05"),
    ("due 2026-03-05", "2026-03-05"),
    ("due 03/05/2026", "2026-03-05"),
    ("created Feb 5, 2026 at 09:03", "2026-02-05T09:03:00Z"),
    ("write to Ana.Silva@Example.COM today", "ana.silva@example.com"),
    ("the owner is  Rosa   Khan", "Rosa Khan"),
    ("7 tickets", 7),
])
def test_answers_are_read_tolerantly(text: str, value: object) -> None:
    assert mentions(text, value)


@pytest.mark.parametrize("text,value", [
    ("The total is 12,354.50", 12345.5),
    ("The total is 1234.55", 12345.5),
    ("share: 24.4%", 23.4),
    ("due 6 March 2026", "2026-03-05"),
    ("created Feb 5, 2026 at 09:04", "2026-02-05T09:03:00Z"),
    ("write to ana.silvia@example.com", "ana.silva@example.com"),
    ("17 tickets", 7),
    ("", "Rosa Khan"),
])
def test_a_wrong_or_missing_value_is_not_accepted(text: str, value: object) -> None:
    assert not mentions(text, value)


def test_report_values_are_computed_from_what_was_read() -> None:
    b = {"a": 100.0, "b": "250.5", "c": 149.5}
    assert report_value(ReportItem(label="x", op="sum", vars=["a", "b", "c"]), b) == 500.0
    assert report_value(ReportItem(label="x", op="mean", vars=["a", "c"]), b) == 124.75
    assert report_value(ReportItem(label="x", op="count", vars=["a", "b", "c"]), b) == 3
    assert report_value(ReportItem(label="x", op="share_pct", vars=["b", "a", "b", "c"]), b) == 50.1
    assert report_value(ReportItem(label="x", op="sum", vars=["a", "missing"]), b) is None


def test_conditions_decide_branches_from_values() -> None:
    b = {"x": 5, "y": 9, "z": 7, "d1": "2026-03-01", "d2": "2026-02-01", "ok": "2026-01-15", "late": "2026-04-01"}
    rank = [{"$var": v} for v in ("x", "y", "z")]
    assert holds(Cond(left={"$var": "y"}, op="is_max", right=rank), b)
    assert not holds(Cond(left={"$var": "z"}, op="is_max", right=rank), b)
    assert holds(Cond(left={"$var": "x"}, op="is_min", right=rank), b)
    # Among those whose date is on or before Feb 15 only z qualifies... and x does not: is_min picks among them.
    among = [Cond(left={"$var": d}, op="le", right="2026-02-15") for d in ("late", "late", "ok")]
    assert holds(Cond(left={"$var": "z"}, op="is_min", right=rank, among=among), b)
    assert not holds(Cond(left={"$var": "x"}, op="is_min", right=rank, among=among), b)
    assert holds(Cond(left={"$var": "d1"}, op="gt", right="2026-02-15"), b)
    assert holds(Cond(left={"$var": "d2"}, op="le", right="2026-02-15"), b)
    assert holds(Cond(left="1,500", op="gt", right=999), b)  # a limit read out of a document, as text
    assert not holds(Cond(left={"$var": "missing"}, op="gt", right=1), b)
    # One of the k largest: y (9) and z (7) are the two largest of 5, 9, 7; x is not.
    assert holds(Cond(left={"$var": "z"}, op="is_max", right=rank, k=2), b)
    assert not holds(Cond(left={"$var": "x"}, op="is_max", right=rank, k=2), b)
    assert holds(Cond(left={"$var": "z"}, op="is_min", right=rank, k=2), b)
    assert not holds(Cond(left={"$var": "y"}, op="is_min", right=rank, k=2), b)


# -- capabilities -----------------------------------------------------------------------------------

def test_every_label_is_documented_and_backed_by_structure(batch) -> None:
    tasks, _, _ = batch
    for t in tasks:
        assert set(t.capabilities) <= set(CAPABILITIES)
        missing = [label for label, ok in evidence(t).items() if not ok]
        assert not missing, (t.id, missing)


def test_a_default_batch_covers_most_capabilities(batch) -> None:
    tasks, _, report = batch
    counts = Counter(c for t in tasks for c in t.capabilities)
    covered = [c for c in CAPABILITIES if counts[c] / len(tasks) >= 0.04]
    print("capability shares:", report.capabilities)
    assert len(covered) >= 11, counts
    assert sum(len(t.capabilities) >= 2 for t in tasks) / len(tasks) >= 0.9


def _untaken(task):
    return [k for k, s in enumerate(task.plan) if s.when and not applies(s, task.bindings)]


@pytest.mark.parametrize("label", ["ranked-selection", "batch-with-exceptions", "conditional-branching", "idempotency-check"])
def test_taking_the_branch_the_values_rule_out_fails_the_rubric(batch, label: str) -> None:
    tasks, _, _ = batch
    labelled = [t for t in tasks if label in t.capabilities]
    if not labelled:
        pytest.skip(f"no {label} task in this batch")
    forced_n = 0
    for t in labelled:
        reference = build_env(t, CLASSES)
        execute(t.plan, reference)
        for k in _untaken(t):
            forced = t.plan[:k] + [t.plan[k].model_copy(update={"when": []})] + t.plan[k + 1:]
            env = build_env(t, CLASSES)
            start = env.state()
            run = execute(forced, env)
            if equivalent(env.state(), reference.state()):
                continue  # the service refused the call: no different work was done
            forced_n += 1
            assert not all(score(t.rubric, start, env.state(), answer_of(t, run.bindings))), (t.id, k)
    assert forced_n


def test_fan_out_checks_every_record_it_changes(batch) -> None:
    tasks, _, _ = batch
    for t in [t for t in tasks if "fan-out" in t.capabilities][:8]:
        updates = [k for k, s in enumerate(t.plan) if s.purpose == "update" and applies(s, t.bindings) and not s.expect_error]
        for k in updates:  # leaving out any one of them fails
            env = build_env(t, CLASSES)
            start = env.state()
            run = execute(t.plan[:k] + t.plan[k + 1:], env)
            assert not all(score(t.rubric, start, env.state(), answer_of(t, run.bindings))), (t.id, k)


def test_top_k_selection_changes_exactly_the_k_leaders(batch) -> None:
    # "issue only the three invoices with the largest total": the k records that lead on the field are
    # changed and checked, the rest are left alone and checked too.
    tasks, _, _ = batch
    picks = [(t, s) for t in tasks for s in t.plan if any(c.op in ("is_max", "is_min") and c.k > 1 for c in s.when)]
    assert picks
    for t, step in picks[:6]:
        cond = next(c for c in step.when if c.k > 1)
        group = [s for s in t.plan if s.tool == step.tool and any(c.right == cond.right for c in s.when)]
        taken = [s for s in group if applies(s, t.bindings)]
        assert len(taken) == cond.k < len(group)
        ranks = sorted((holds(c.model_copy(update={"k": 1}), t.bindings) for s in taken for c in s.when if c.k > 1))
        assert ranks.count(True) == 1  # one of them is the leader itself, the others the runners-up


def test_transitions_move_a_group_and_are_checked_on_the_state_they_set(batch) -> None:
    # Write tools that take only the record (reserve, cancel, issue, reimburse) work on groups too: the
    # explorer learns the state each one moves a record to, and the rubric checks that state.
    from compoworld.tasks.explore import profile

    moves = {(t.tool, t.field, t.value) for t in profile(CLASSES["invoicing"]).transitions}
    assert {("invoicing__issue_invoice", "status", "issued"), ("invoicing__void_invoice", "status", "void")} <= moves
    assert not profile(CLASSES["hr"]).transitions or all(t.tool != "hr__update_employee" for t in profile(CLASSES["hr"]).transitions)
    tasks, _, _ = batch
    found = 0
    for t in tasks:
        specs = {s.tool for s in t.plan if s.purpose == "update" and len(s.arguments) == 1}
        for tool in specs:
            service = tool.split("__", 1)[0]
            move = next(m for m in profile(CLASSES[service]).transitions if m.tool == tool)
            verb = tool.split("__", 1)[1].split("_")[0]  # "cancel ..." or "... should be cancelled"
            assert verb in t.instruction.lower() or f"be {move.value}" in t.instruction, (t.id, tool)
            assert any(c.check.kind == "field_equals" and c.check.where[0].value == move.value for c in t.rubric)
            found += 1
        for k, s in enumerate(t.plan):
            if s.tool in specs and applies(s, t.bindings):  # skipping any one fails a criterion
                env = build_env(t, CLASSES)
                start = env.state()
                run = execute(t.plan[:k] + t.plan[k + 1:], env)
                assert not all(score(t.rubric, start, env.state(), answer_of(t, run.bindings))), (t.id, k)
                break
    assert found >= 5


@pytest.mark.parametrize("tool,outcome,verb", [
    ("inventory__reserve_order", "reserved", "reserve"), ("gmail__send_draft", "sent", "send"),
    ("hubspot__notes_archive", "archived", "archive"),  # the compiled name puts the object first
    ("monday_com__monday_archive_item", "archived", "archive"),  # and a vendor prefix
    ("scanner__cancelScan", "cancelled", "cancel"), ("invoicing__void_invoice", "void", "void"),
    ("docker__start_container", "running", ""),  # no word of the name gives the outcome: not used
])
def test_a_transition_is_said_with_the_verb_its_outcome_comes_from(tool: str, outcome: str, verb: str) -> None:
    from compoworld.tasks.explore import transition_verb

    assert transition_verb(tool, outcome) == verb


def test_error_recovery_tasks_refuse_the_direct_call_and_the_teacher_recovers(batch) -> None:
    tasks, _, _ = batch
    labelled = [t for t in tasks if "error-recovery" in t.capabilities]
    if not labelled:
        pytest.skip("no error-recovery task in this batch")
    trajs = collect(labelled, ReferenceTeacher(), group_size=1, classes=CLASSES)
    for t, traj in zip(labelled, trajs):
        refused = sum(s.expect_error for s in t.plan if applies(s, t.bindings))
        assert traj.success and traj.failed_calls == refused > 0
        assert set(traj.call_errors) == {None, "business_rule"}


def test_rules_live_in_documents_next_to_a_superseded_version(batch) -> None:
    tasks, _, _ = batch
    ruled = [t for t in tasks if any(e.pattern for s in t.plan for e in s.extract)]
    assert len(ruled) / len(tasks) >= 0.5
    for t in ruled[:10]:
        kinds = probe_detail(t)["mutants_by_kind"]
        assert kinds.get("superseded", [0, 0])[0] == kinds.get("superseded", [0, 0])[1] >= 1, t.id
    # A rule is a document found by its title or path: never a record keyed by an email (a payroll
    # adjustment whose employee email is "Adjustment reason policy, rev. 3").
    from compoworld.tasks.explore import profile

    for t in ruled:
        for s in t.plan:
            for e in s.extract:
                if e.pattern:
                    prof = profile(CLASSES[s.service])
                    coll = prof.collection_of(s.tool)
                    key = next(iter(e.match))
                    assert prof.field_sems[coll][key] in ("title", "file_path"), (t.id, s.tool, key)


# -- reports and the teacher ------------------------------------------------------------------------

def test_closing_reports_are_asked_for_checked_and_given(batch) -> None:
    tasks, _, report = batch
    assert report.closing_report_share >= 0.5
    assert all(dangling_lookups(t) == 0 for t in tasks)
    with_report = [t for t in tasks if t.report][:10]
    trajs = collect(with_report, ReferenceTeacher(), group_size=1, classes=CLASSES)
    for t, traj in zip(with_report, trajs):
        assert traj.success
        text = final_message(traj.messages)
        env = build_env(t, CLASSES)
        start = env.state()
        run = execute(t.plan, env)
        for item in t.report:
            assert mentions(text, report_value(item, run.bindings))
        wrong = text.replace(str(report_value(t.report[0], run.bindings)), "n/a")
        if wrong != text:  # the same final state with a report that lost a value fails
            assert not all(score(t.rubric, start, env.state(), wrong))


def test_requests_are_mostly_goals_not_step_lists(batch) -> None:
    tasks, _, report = batch
    assert report.step_list_share <= 0.4
    assert report.step_list_share == round(sum(is_step_list(t.instruction) for t in tasks) / len(tasks), 4)
    assert not any("[{" in t.instruction or "{'" in t.instruction for t in tasks)  # no Python reprs


def test_perturbed_policy_fails_more_often_but_spreads_credit(batch) -> None:
    tasks, _, _ = batch
    trajs = collect(tasks[:15], PerturbedPolicy(seed=0), group_size=8, classes=CLASSES)
    success = sum(t.success for t in trajs) / len(trajs)
    groups: dict[str, set[float]] = {}
    for t in trajs:
        groups.setdefault(t.group_id, set()).add(t.partial_credit)
    print(f"perturbed success {success:.3f}")
    assert 0.05 < success < 0.8
    assert sum(len(v) > 1 for v in groups.values()) >= 12


# -- the mutation gate ------------------------------------------------------------------------------

def test_the_gate_accepts_only_tasks_whose_rubric_kills_every_mutant(batch) -> None:
    tasks, _, report = batch
    assert report.mutation_score == 1.0 and report.mutants_per_task >= 8
    kinds = Counter()
    for t in tasks:
        d = probe_detail(t)
        assert d["killed"] == d["mutants"] and not d["survivors"]
        kinds.update(k for k, (m, _) in d["mutants_by_kind"].items() if m)
    assert {"skip", "wrong_value", "decoy", "branch", "report_omit", "report_alter", "superseded"} <= set(kinds)


def test_a_rubric_without_its_unchanged_checks_is_rejected(batch) -> None:
    """Dropping the record_unchanged criteria of tasks with decoys lets a mutant through in most of them,
    and the gate rejects those tasks. (Where the work's own goal criteria already catch every mutant,
    for instance one that moves a write to a decoy and so leaves the target unchanged, it does not.)"""
    tasks, _, _ = batch
    with_decoys = [t for t in tasks if any(c.check.kind == "record_unchanged" for c in t.rubric)
                   and probe_detail(t)["mutants_by_kind"].get("decoy")]
    rejected = 0
    for t in with_decoys:
        weak = t.model_copy(update={"rubric": [c for c in t.rubric if c.check.kind != "record_unchanged"]})
        problems, detail = probe(weak, CLASSES, require_all_mutants_killed=True)
        rejected += any(p.startswith("mutant survives: ") for p in problems)
    assert len(with_decoys) >= 10 and rejected >= len(with_decoys) // 2, (rejected, len(with_decoys))


def test_no_goal_holds_before_the_agent_acts(batch) -> None:
    tasks, _, report = batch
    assert report.goal_criteria_true_initially == 0
    for t in tasks[:15]:
        start = build_env(t, CLASSES).state()
        goals = [c for c in t.rubric if c.kind == "goal"]
        assert not any(score(goals, start, start, "")), t.id


def test_a_group_whose_member_refuses_the_work_fails_before_the_rest_is_planted() -> None:
    """A fan-out over an employee's expense reports, one of which is already reimbursed: the work
    ("reimburse every report") cannot be done on it, so no value fits. That is known from the member
    already in the group, before the others are planted and listed (it used to fail only after)."""
    import random

    from compoworld.services.registry import all_services
    from compoworld.tasks.design import Designer
    from compoworld.tasks.design_types import Carry
    from compoworld.tasks.model import Walk
    from compoworld.tasks.motifs import Group, MotifError, sites

    walk = Walk(services=["expenses", "hr"], distractors=[], visits=["expenses", "hr"], edge_types=["email"])
    d = Designer(walk, all_services("library"), seed=0)
    reports = d.d.initial["expenses"]["reports"].values()
    done = next(r for r in reports if r["status"] == "reimbursed")
    carry = Carry("v1", "email", done["employee_email"], "email", "employee", "hr", 0, role="employee")
    site = next(s for s, _ in sites(d, [carry]) if s.update is not None and s.update.tool == "expenses__reimburse_report")
    group = Group(d, site, carry, random.Random(0), 1)
    with pytest.raises(MotifError, match="refuses the work"):
        group.plant([100.0 * k for k in range(1, 7)])
    assert not d.d.planted  # nothing planted
    assert group.accepted([r for r in reports if r["status"] == "approved"]) == "reimbursed"  # approved ones move on
