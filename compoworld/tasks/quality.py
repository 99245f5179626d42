"""Measures of task quality that the factory report prints (issue 11's "Done means" figures).

Each is a pure function of a task (or of the graph) so that tests can pin down its definition.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import networkx as nx

from compoworld.tasks.checks import same
from compoworld.tasks.model import PlanStep, Task
from compoworld.tasks.solution import cond_variables, resolve, variables

WRITES = ("write", "update")


def dangling_lookups(task: Task) -> int:
    """Discovered values that feed nothing: plan `extract` variables that reach no later write or
    update argument or branch condition, no goal criterion's checked value and no closing-report
    item. Feeding counts transitively: a value used only as the key of a later lookup
    (or to match a record in it) feeds something only if a value that lookup extracts does; so a
    chain of lookups that ends nowhere counts every link as dangling."""
    return len(dangling_vars(task.plan, {v for item in task.report for v in item.vars}, written_values(task.rubric), task.bindings))


def written_values(rubric: list[Any]) -> list[Any]:
    """The values goal criteria check in the state (what the agent's writes must hold). Not the closing
    report's values: those are used by the variables the report names, and a lookup whose value only
    happens to equal one (a spreadsheet's owner who also sent a reported message) feeds nothing."""
    return [w.value for c in rubric if c.kind == "goal" and c.check.kind != "answer_mentions" for w in c.check.where]


def dangling_vars(plan: list[PlanStep], reported: set[str], goal_values: list[Any], bindings: dict[str, Any],
                  refs: list[set[str]] | None = None) -> list[str]:
    """The variables `dangling_lookups` counts, in plan order. `refs`: each step's `step_refs`, when
    the caller asks again of the same plan."""
    feeds: dict[str, bool] = {}
    if refs is None:
        refs = [step_refs(step) for step in plan]  # once per step, not once per (variable, later step)
    for k in range(len(plan) - 1, -1, -1):  # later steps first: a var's use is always after its binding
        step = plan[k]
        for ex in step.extract:
            var = ex.var
            if var in feeds:
                continue
            used = var in reported
            for j in range(k + 1, len(plan)):
                if used:
                    break
                later = plan[j]
                if var not in refs[j]:
                    continue
                if later.purpose in WRITES or any(feeds.get(e.var, False) for e in later.extract):
                    used = True
                    break
            if not used:
                value = bindings.get(var)
                used = value is not None and any(same(value, g) for g in goal_values)
            feeds[var] = used
    order = [ex.var for step in plan for ex in step.extract]
    return [v for v in order if not feeds.get(v, True)]


def repeated_lookups(task: Task) -> int:
    """Lookups that ask again for what an earlier one read: the same tool, arguments (as the values
    found resolve them) and fields ("find the bank named 'Bank 1'; I need its location" twice in one
    request, or a chain that comes back to a record: email -> name -> email -> the same name)."""
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    repeats = 0
    for step in task.plan:
        if step.purpose != "lookup" or not step.extract:
            continue
        args = resolve(step.arguments, task.bindings)
        key = (step.tool, repr(sorted(args.items())), tuple(e.field for e in step.extract))
        repeats += key in seen
        seen.add(key)
    return repeats


def echo_lookups(task: Task) -> int:
    """Lookups whose value the chain they stand on started from: one the step was given ("the file
    '/a/b.pdf'; I need its path") or one a lookup it follows from was keyed by (the chat user with
    email X -> their name -> the email of the employee with that name: X again)."""
    n = 0
    for k, step in enumerate(task.plan):
        if step.purpose == "lookup" and step.extract:
            keys = chain_keys(task.plan, k, task.bindings)
            n += any(str(task.bindings.get(e.var)).lower() in keys for e in step.extract)
    return n


def chain_keys(plan: list[PlanStep], k: int, bindings: dict[str, Any]) -> set[str]:
    """The text values step `k` and the lookups its arguments follow from were keyed by (lowercased)."""
    made = {e.var: j for j, st in enumerate(plan[:k]) for e in st.extract}
    keys: set[str] = set()
    todo, seen = [k], set()
    while todo:
        j = todo.pop()
        if j in seen:
            continue
        seen.add(j)
        keys |= {v.lower() for v in resolve(plan[j].arguments, bindings).values() if isinstance(v, str)}
        todo += [made[v] for v in variables(plan[j].arguments) if v in made]
    return keys


def translated_from(plan: list[PlanStep], var: str, service: str) -> PlanStep | None:
    """The lookup in `service` whose value was carried to another service only to come back as `var`:
    `var` was read there by a lookup keyed by that value (the employee's manager email -> the chat user
    with that email -> that user's name, `var`). None when `var` came some other way."""
    src = next((st for st in plan if any(e.var == var for e in st.extract)), None)
    if src is None or src.purpose != "lookup" or src.service == service:
        return None
    before = variables(src.arguments)
    origin = next((st for st in plan if st.purpose == "lookup" and any(e.var in before for e in st.extract)), None)
    return origin if origin is not None and origin.service == service else None


def round_trips(task: Task, collection_of: Callable[[PlanStep], str | None]) -> int:
    """Lookups that go back to the kind of record a value came from, keyed by what another service
    translated it into ("the employee whose name is the name of the chat user whose email is the
    manager email of the employee ..."): a round trip a colleague would not ask for."""
    n = 0
    for k, step in enumerate(task.plan):
        if step.purpose != "lookup":
            continue
        for var in variables(step.arguments):
            origin = translated_from(task.plan[:k], var, step.service)
            n += origin is not None and collection_of(origin) == collection_of(step)
    return n


def report_only_lookups(task: Task) -> tuple[int, int]:
    """(lookup values that only the closing report uses, all lookup values): a walk that restarts
    with an unrelated lookup leaves the value in hand to the report, so a high share reads as a list
    of errands rather than work that builds on what it found."""
    reported = {v for item in task.report for v in item.vars}
    refs = [step_refs(step) for step in task.plan]
    only = total = 0
    for k, step in enumerate(task.plan):
        if step.purpose != "lookup":
            continue
        for ex in step.extract:
            total += 1
            only += ex.var in reported and not any(ex.var in refs[j] for j in range(k + 1, len(task.plan)))
    return only, total


def step_refs(step: PlanStep) -> set[str]:
    """The variables a step refers to: in its arguments, its extractions' matches and its conditions."""
    refs = variables(step.arguments) | {n for e in step.extract for n in variables(e.match)}
    return refs | {n for c in step.when for n in cond_variables(c)}


def environment_rule(task: Task) -> bool:
    """The task depends on a rule stated in the services: a plan step reads a policy document (an
    extraction that takes the value out of a text by a pattern)."""
    return any(ex.pattern for step in task.plan for ex in step.extract)


def closing_report(task: Task) -> bool:
    """The task asks the agent to report values at the end: a criterion checks the final message."""
    return any(c.check.kind == "answer_mentions" for c in task.rubric)


_NUMBERED = re.compile(r"(?:(?:^|\n|[.:;!?,]\s+)(?:\(?\d{1,2}[.)]\s|step\s+\d+\b)|(?:^|\n)\s*[•*-]\s)", re.IGNORECASE)
SEQUENCERS = ("then", "next", "after that", "afterwards", "once you have it", "once that's done", "with that", "now",
              "finally", "to wrap up", "last step", "and finally", "to finish", "lastly", "first", "second", "third",
              "first of all", "start by", "begin by")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def is_step_list(instruction: str) -> bool:
    """Is the request a recipe of steps rather than a goal?

    Precisely: (a) it enumerates at least two items: numbers ("1. ", "2) ", "(3) ", "step 4") at the
    start of the text, a line, a sentence or a clause (after . : ; ! ? or ,), or bullets ("- ",
    "* ", "• ") at the start of a line; or (b) it is a sequence
    of at least three sentences of which at least two open with a sequencing connective (`SEQUENCERS`:
    "Then", "Next,", "After that,", "Finally,", "Last step:", ...), i.e. at least three steps chained
    in order. Conditions ("if ..., otherwise ...") do not change the verdict."""
    if len(_NUMBERED.findall(instruction)) >= 2:
        return True
    sentences = [s.strip() for s in _SENTENCE.split(instruction.strip()) if s.strip()]
    if len(sentences) < 3:
        return False
    opened = 0
    for s in sentences:
        low = s.lower()
        if any(low.startswith(w) and (len(low) == len(w) or not low[len(w)].isalnum()) for w in SEQUENCERS):
            opened += 1
    return opened >= 2


def graph_density(g: nx.DiGraph) -> float:
    """Share of ordered pairs of distinct services joined by an edge of the dependency graph."""
    n = g.number_of_nodes()
    return round(g.number_of_edges() / (n * (n - 1)), 4) if n > 1 else 0.0


def probe_detail(task: Task) -> dict[str, Any]:
    for ph in task.phases:
        if ph.phase == "probe":
            return ph.detail
    return {}
