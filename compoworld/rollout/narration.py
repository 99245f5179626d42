"""What the reference teacher says: the reason before each call and the closing report.

SFT teaches this text, so it reads like a careful colleague thinking aloud: before a call, the value
or rule that leads there (with the value itself, read from an earlier result) and, at a branch, the
comparison that decided it; at the end, what was changed with which values, which rule revision was
followed, what was deliberately left alone and the values the request asked for. Phrasings are drawn
from a stream seeded by the task and the step, so a rollout is reproducible.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from compoworld.tasks.design_types import rule_topic
from compoworld.synthesis.infer import VERB_CLASS, verb_lemma
from compoworld.synthesis.naming import singular, words
from compoworld.tasks.instruction import WRITE_VERBS, article, write_verb
from compoworld.tasks.model import Cond, PlanStep, Task
from compoworld.tasks.report import closing_text, format_value
from compoworld.tasks.solution import report_value, resolve

FACT = ["The {field} I found is {value}.", "So the {field} is {value}.", "That gives me the {field}: {value}.",
        "From that result, the {field} is {value}.", "Noted: the {field} is {value}."]
RULE = ["The revision in force says to use {value}, so that is what goes in.", "The current revision of the rule gives {value}; I'll use it.",
        "Following the later revision, the value is {value}."]
RELATION = {"gt": "after", "ge": "on or after", "lt": "before", "le": "on or before", "eq": "equal to", "ne": "not",
            "is_max": "the highest of the group", "is_min": "the lowest of the group"}
NUMERIC_RELATION = {"gt": "above", "ge": "at least", "lt": "below", "le": "at most"}
DONE = ["Done. Here is what I changed:", "All finished. Changes I made:", "That's everything. What I did:",
        "Wrapped up. The changes:"]
PAST = {"create": "created", "add": "added", "update": "updated", "send": "sent", "set": "set", "post": "posted",
        "schedule": "scheduled", "delete": "deleted", "submit": "submitted", "book": "booked", "log": "logged",
        "assign": "assigned", "approve": "approved", "close": "closed", "move": "moved", "mark": "marked",
        "record": "recorded", "issue": "issued", "pay": "paid", "reply": "replied to", "invite": "invited",
        "cancel": "cancelled", "file": "filed", "open": "opened", "hire": "hired", "upload": "uploaded", "put": "put",
        "write": "wrote", "make": "made", "pin": "pinned", "star": "starred", "plan": "planned", "tag": "tagged",
        "label": "labelled", "ship": "shipped", "receive": "received",
        "reimburse": "reimbursed", "respond": "responded", "restock": "restocked", "unschedule": "unscheduled", "new": "created", "forward": "forwarded", "draft": "drafted", "comment": "commented on"}


def _h(name: str) -> str:
    return name.replace("_", " ")


def var_fields(task: Task) -> dict[str, str]:
    """Each plan variable -> the field it was read from (how the teacher names a value)."""
    return {ex.var: ex.field for step in task.plan for ex in step.extract}


def _say(value: Any) -> str:
    return format_value(value, random.Random(0)) if not isinstance(value, str) else value


def reasoning(task: Task, k: int, step: PlanStep, bindings: Mapping[str, Any], fields: Mapping[str, str]) -> str:
    """The sentence(s) before plan step `k`: the values it uses and why, then what it does."""
    rng = random.Random(f"narrate/{task.id}/{k}")
    said: list[str] = []
    for cond in step.when:  # a branch: say which comparison decided it
        said.append(_decision(cond, bindings, fields))
    for param, arg in step.arguments.items():
        if not (isinstance(arg, dict) and set(arg) == {"$var"}):
            continue
        var = arg["$var"]
        value = bindings.get(var)
        name = fields.get(var, param)
        if value is None or len(str(value)) > 80 or name == "id" or name.endswith("_id"):
            continue  # ids are plumbing, not facts worth saying
        if any(ex.var == var and ex.pattern for s in task.plan for ex in s.extract):
            said.append(rng.choice(RULE).format(value=_say(value)))
        else:
            said.append(rng.choice(FACT).format(field=_h(name), value=_say(value)))
        if len(said) >= 2:
            break
    why = step.reasoning or f"Next I'll call {_h(step.tool.split('__', 1)[-1])} in {step.service}."
    return " ".join(said + [why])


def _decision(cond: Cond, bindings: Mapping[str, Any], fields: Mapping[str, str]) -> str:
    left = resolve(cond.left, bindings)
    right = resolve(cond.right, bindings)
    name = _h(fields.get(cond.left.get("$var", ""), "value")) if isinstance(cond.left, dict) else "value"
    numeric = isinstance(left, (int, float)) and not isinstance(left, bool)
    relation = (NUMERIC_RELATION if numeric else RELATION).get(cond.op, RELATION.get(cond.op, cond.op))
    if cond.op in ("is_max", "is_min"):
        if cond.k > 1:
            return f"Its {name} ({_say(left)}) is among the {cond.k} {'highest' if cond.op == 'is_max' else 'lowest'} of the group."
        return f"Its {name} ({_say(left)}) is {relation}."
    if isinstance(right, list):
        return f"Its {name} is {_say(left)}."
    return f"Its {name} is {_say(left)}, {relation} {_say(right)}."


def past_tense(step: PlanStep) -> str:
    """`crm__create_deal` -> "created a deal in crm", `email__reply_to_message` -> "replied to a message
    in email". A compiled tool's name may start with its server's name or hold no verb: its verb is
    found where the request found it (`monday_com__monday_create_doc` -> "created a doc in monday_com",
    not "mondayed a create doc")."""
    service, _, local = step.tool.partition("__")
    own = [w for w in words(local) if w not in set(words(service))]
    if not own or not (own[0] in PAST or own[0] in WRITE_VERBS or VERB_CLASS.get(verb_lemma(own[0]) or "")):
        verb, _, noun = write_verb(step.tool, "", "added" if step.purpose == "write" else "changed").partition(" ")
        return f"{_past(verb)} {noun} in {step.service}"
    # `email__send_email`: sent an email; `notes__notes_create`: created a note
    verb, rest = _past(own[0]), own[1:] or [singular(w) for w in words(local) if w != own[0]]
    if rest[:1] and rest[0] in ("to", "on", "for", "from", "with") and len(rest) > 1:
        verb = verb if verb.endswith(f" {rest[0]}") else f"{verb} {rest[0]}"  # responded to an event
        rest = rest[1:]
    noun = " ".join(rest)
    return f"{verb} {article(noun)} in {step.service}" if noun else f"{verb} in {step.service}"


def _past(verb: str) -> str:
    if verb in PAST:
        return PAST[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"  # copy -> copied
    return verb + "ed"


def _values(step: PlanStep, bindings: Mapping[str, Any]) -> str:
    """The values a write sent, as a person lists them (record ids and short scalars)."""
    args = resolve(step.arguments, bindings)
    return ", ".join(f"{_h(k)} {_say(v)}" for k, v in args.items()
                     if isinstance(v, (str, int, float)) and not isinstance(v, bool) and len(str(v)) <= 60)


def summary(task: Task, done: list[PlanStep], left: list[PlanStep], bindings: Mapping[str, Any]) -> str:
    """The closing message: what was changed and with which values, the rule revisions followed,
    what was deliberately left alone (records whose branch the values ruled out) and the values the
    request asked to be reported, read from what the agent itself found."""
    rng = random.Random(f"summary/{task.id}")
    writes = [s for s in done if s.purpose != "lookup" and not s.expect_error]
    if not writes:
        text = "I looked everything up, but there was nothing I could change."
    else:
        lines = [f"- {past_tense(s)}" + (f" ({_values(s, bindings)})" if _values(s, bindings) else "") for s in writes]
        text = rng.choice(DONE) + "\n" + "\n".join(lines)
    rules = sorted({f"'{rule_topic(str(v))}' ({str(v).rsplit(', ', 1)[-1]})" for s in done for ex in s.extract if ex.pattern
                    for v in list(ex.match.values())[:1]})
    if rules:
        text += "\n" + rng.choice(["I followed the revision in force of ", "Rules applied, latest revision each: "]) + ", ".join(rules) + "."
    untouched = sorted({str(v) for s in left for v in resolve(s.arguments, bindings).values()
                        if isinstance(v, str) and "_" in v and v not in str([resolve(w.arguments, bindings) for w in writes])})
    if untouched:
        names = ", ".join(untouched)
        text += "\n" + rng.choice([f"I deliberately left {names} as they were: the conditions you gave rule them out.",
                                   f"{names} did not meet the conditions, so I did not touch them."])
    if task.report:
        text += "\n\n" + closing_text(task.report, [report_value(it, bindings) for it in task.report], rng)
    return text
