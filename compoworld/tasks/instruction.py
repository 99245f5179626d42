"""Instructions from a plan: a template grammar that reads like a colleague's request.

Phrases name what to achieve and where, and the literal keys a person would give (a name, a title
to use); they never contain the values the agent must discover along the way.
"""

from __future__ import annotations

import random
import re
import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.synthesis.naming import reads_as_noun, singular, words


@dataclass
class Phrase:
    kind: Literal["find", "follow", "write", "update", "text"]  # text: a sentence a motif wrote (in `key`)
    service: str
    entity: str = ""
    key_field: str = ""
    key: str = ""
    field: str = ""
    prev: str = ""
    tool: str = ""
    param: str = ""
    literals: dict[str, Any] = dataclasses.field(default_factory=dict)
    other: dict[str, Any] = dataclasses.field(default_factory=dict)
    refs: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)
    policies: list[tuple[str, str, str, str]] = dataclasses.field(default_factory=list)  # (param, entity, service, key)
    verb: str = ""  # a write's verb phrase (`write_verb`)
    var: str = ""  # the value a lookup (or an update) produces
    src: str = ""  # the value a follow-up lookup, write or update consumes


OPENERS = ["", "Hi! ", "Hey, quick one: ", "Could you help me with something? ", "Morning! ", "When you get a chance: ",
           "I need a hand with this. ", "Small favour: ", "Hello, ", "Urgent-ish: "]
CLOSERS = ["", " Thanks!", " Please don't change anything else.", " Leave everything unrelated as it is.", " Appreciate it.",
           " Thanks a lot.", " Only do what's needed, nothing extra.", " Cheers."]
THEN = ["Then", "Next,", "After that,", "Once you have it,", "With that,", "Then,", "Now"]
LAST = ["Finally,", "To wrap up,", "Last step:", "And finally,", "To finish,"]
ALSO = ["", "Also,", "On top of that,", "Separately,", "Please also", "I also need you to", "Make sure to", "Besides that,"]
# Bare verbs: the leads that want a verb next ("Please also", "Make sure to") go only before these, never
# before "please ..." or "I'd ..." ("Please also please add" was a seam).
IMPERATIVES = {"look", "find", "pull", "check", "open", "use", "search", "go", "track", "dig", "create", "send", "add", "update",
               "set", "change", "bring", "move", "post", "schedule", "record", "book", "log", "file", "assign"}
ALSO_CLAUSE = ["", "Also,", "On top of that,", "Separately,", "Besides that,"]
APART = {"Separately,", "Besides that,", "On top of that,"}  # leads that say the sentence stands on its own
ORDERED_SHARE = 0.25

FIND = [
    "look up the {entity} {key_desc} in {service} and get its {field}",
    "in {service}, find the {entity} {key_desc} and note its {field}",
    "pull up the {entity} {key_desc} in {service}; I need its {field}",
    "check {service} for the {entity} {key_desc} and grab the {field}",
    "open {service}, find the {entity} {key_desc} and take its {field}",
]
# The same lookups without the service: used when only one mounted service keeps that kind of record,
# so the agent finds where it lives (a colleague says "candidate", not "the recruiting service").
FIND_ANY = [
    "look up the {entity} {key_desc} and get its {field}",
    "find the {entity} {key_desc}; I need its {field}",
    "I need the {field} of the {entity} {key_desc}",
    "dig out the {field} of the {entity} {key_desc}",
]
FOLLOW_ANY = [
    "find the {entity} whose {key_field} is that {prev} and note its {field}",
    "use that {prev} to find the matching {entity}; I need its {field}",
    "track down the {entity} with that {prev} and get its {field}",
]
UNNAMED_SERVICE_SHARE = 0.6
# Kinds of record that are people: a request asks for "their email", not "its email".
PEOPLE = frozenset("author user person contact member customer employee speaker candidate attendee subscriber student "
                   "instructor player participant applicant seller developer maintainer recipient sender owner manager "
                   "artist actor patient driver traveler guest coauthor executive lead teacher tutor friend follower "
                   "reviewer assignee requester reporter organizer".split())

# Who is asking: an employee of the world, who opens and signs the request.
VOICE = ["Hi, it's {first} ({title}, {department}). ", "{first} from {department} here. ", "Hello, this is {name}, {title}. ",
         "Hi! {first} here, from {department}. ", "Hey, {first} ({department}) here. ", "Good morning, {name} from {department}. "]
SIGN = [" Thanks, {first}", " - {first}", " Cheers, {first}", " Thanks in advance, {first}", " Best, {first}", ""]

FOLLOW = [
    "use that {prev} to find the matching {entity} in {service} and get its {field}",
    "find the {entity} in {service} whose {key_field} is that {prev}, and note its {field}",
    "look in {service} for the {entity} with that {prev} as its {key_field} and take the {field}",
    "search {service} for the {entity} matching that {prev}; I need its {field}",
]
WRITE = [
    "in {service}, {verb} using that {prev} as the {param}{extras}",
    "{verb} in {service} with the {prev} as {param}{extras}",
    "go to {service} and {verb}, setting {param} to the {prev}{extras}",
    "please {verb} in {service} for that {prev} ({param}){extras}",
]
# When the value found is named like the parameter it fills ("email" into email, a company into its
# company name): "setting email to the email" reads as a seam, so the parameter goes unsaid.
WRITE_SAME = [
    "in {service}, {verb} with that {prev}{extras}",
    "{verb} in {service} for that {prev}{extras}",
    "go to {service} and {verb} with the {prev} you found{extras}",
]
UPDATE = [
    "the {field} on file for that {entity} in {service} is out of date: update it to the {prev} you just found, and use the new one from then on",
    "go back to {service} and change that {entity}'s {field} to the {prev} you found; anything after this uses the updated value",
    "update the {entity} in {service} so its {field} is that {prev} (the old one is stale), then carry on with the new value",
]


POLICY = [
    "the {param} that '{key}' in {service} prescribes",
    "whatever {param} '{key}' ({service}) says to use",
    "the {param} set out in '{key}' in {service}",
    "the {param} our '{key}' calls for (it's in {service})",
]
UPDATE_TO = [
    "the {entity} you looked at in {service} has a new {field}: update it to '{value}', and use the new {field} from then on",
    "go back to {service} and change that {entity}'s {field} to '{value}' (the old one is out of date); anything after this uses the new value",
    "in {service}, set that {entity}'s {field} to '{value}' first; what you read there before is stale",
]


def _h(name: str) -> str:
    return name.replace("_", " ")


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


# Verbs a write tool's name may lead with (or carry after a prefix: `notes_create`, `monday_create_doc`).
WRITE_VERBS = frozenset(
    "create add update set write delete remove send post book schedule upload save insert put patch edit modify register "
    "submit assign archive move rename copy publish store log record make generate start open close cancel approve reply "
    "comment tag label invite enroll append attach link import mark reserve upsert change configure replace clone fork "
    "duplicate compose capture track define declare bookmark pin star flag share subscribe follow like pay refund sign "
    "resolve complete finish deploy merge release reopen unassign remember draft plan place new".split())
_FILLER = frozenset("a an the new my our your one single given custom".split())
_PREPOSITIONS = frozenset("to on for in into from with".split())


def write_verb(tool: str, entity: str, op: str) -> str:
    """How a request says what a write does: its verb and the kind of record ("create a blog post",
    "add a subscriber"). Compiled tools put the verb anywhere (`notes_create`, `monday_create_doc`) or
    nowhere (`canvas`), where the op says it (an insert creates, a change updates)."""
    service, _, local = tool.partition("__")
    ws = [w for w in words(local) if w not in set(words(service))] or words(local)
    if set(ws) & {"navigate", "goto"}:
        return "open a page"  # a browser's navigation opens the page of its URL; no one "creates a browser page"
    at = next((i for i, w in enumerate(ws) if w in WRITE_VERBS), None)
    verb = ("create" if ws[at] == "new" else ws[at]) if at is not None else ("create" if op == "added" else "update")
    rest = [w for w in (ws[at + 1:] or ws[:at]) if w not in _FILLER] if at is not None else [w for w in ws if w not in _FILLER]
    while rest[:1] and rest[0] in _PREPOSITIONS and len(rest) > 1:
        rest = rest[1:]  # `reply_to_email`: reply to an email, not "a to email"
    ent = entity.replace("_", " ")
    if rest and singular(rest[-1]) == ent.rsplit(" ", 1)[-1]:
        noun = " ".join(rest[:-1] + [ent.rsplit(" ", 1)[-1]])  # the tool's words say which kind: a *blog* post
    elif ent and reads_as_noun(entity) and entity not in WRITE_VERBS:
        noun = ent
    else:
        noun = " ".join(rest[:-1] + [singular(rest[-1])]) if rest else "record"
    return f"{verb} {article(noun)}"


REPORT = ["When you're done, tell me {items}.", "In your reply, include {items}.", "Please finish with a short note giving {items}.",
          "I'll also need {items} from you at the end.", "Let me know {items} once it's all done.",
          "Close with {items}, so I can pass them on."]


def _series(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class Requester:
    """The colleague who writes the request (an employee of the task's world)."""

    name: str
    title: str
    department: str

    @property
    def first(self) -> str:
        return self.name.split()[0]


# Goal style: a lookup whose value feeds one later step is folded into that step as a noun phrase
# ("the owner email of the spreadsheet titled 'Budget 2026'"), so the request states outcomes and
# what they depend on instead of one sentence per read. At most two levels are nested.
GOAL_SHARE = 0.75
MAX_NESTING = 2
GOAL_FOLLOW = [
    "find the {entity}{where} whose {key_field} is {ref}; I need its {field}",
    "look up the {entity}{where} whose {key_field} is {ref} and note its {field}",
    "I need the {field} of the {entity}{where} whose {key_field} is {ref}",
]
GOAL_WRITE = [
    "{verb} in {service} with {param} set to {ref}{extras}",
    "please {verb} in {service}: its {param} should be {ref}{extras}",
    "{verb} in {service} for {ref} (as the {param}){extras}",
    "I'd like you to {verb} in {service}, {param} being {ref}{extras}",
]
GOAL_UPDATE = [
    "the {field} on file for that {entity} in {service} is out of date: change it to {ref}, and use the new one from then on",
    "in {service}, that {entity}'s {field} should now be {ref} (the old one is stale); carry on with the new value",
]


def folded_lookups(phrases: list[Phrase], mentioned: set[str], reported: set[str]) -> dict[str, int]:
    """Lookups the goal style folds into the step that uses their value: var -> nesting depth. A
    lookup stays a sentence when the text calls its value "that <field>" (`mentioned`), when a later
    update points back to its record, when several steps use its value, or when nesting would go
    deeper than `MAX_NESTING`. A lookup whose value is only reported is folded into the report."""
    consumers: dict[str, list[Phrase]] = {}
    for ph in phrases:
        if ph.src:
            consumers.setdefault(ph.src, []).append(ph)
    updated = {(ph.service, ph.entity) for ph in phrases if ph.kind == "update"}
    depth: dict[str, int] = {}
    for ph in phrases:
        v = ph.var
        if ph.kind not in ("find", "follow") or not v or v in mentioned or (ph.service, ph.entity) in updated:
            continue
        users = consumers.get(v, [])
        if len(users) > 1 or (not users and v not in reported):
            continue
        level = 1 + (depth[ph.src] if ph.kind == "follow" and ph.src in depth else 0)
        if level <= MAX_NESTING:
            depth[v] = level
    return depth


def render(phrases: list[Phrase], rng: random.Random, report: list[str] | None = None,
           requester: Requester | None = None, homes: dict[str, int] | None = None,
           mentioned: set[str] | None = None, reported: set[str] | None = None) -> str:
    """The request: the phrases joined as goals (or, for some requests, as ordered steps), the
    closing report asked for, in `requester`'s voice. `homes`: how many mounted services keep each
    kind of record; a lookup of a kind only one service keeps may leave the service unnamed. In the
    goal style, lookups are folded into the steps that use their values (`folded_lookups`;
    `mentioned`: values the text calls "that <field>"; `reported`: values the closing report asks for)."""
    parts: list[str] = []
    ordered = rng.random() < ORDERED_SHARE  # a numbered-step feel for some requests, goals for the rest
    homes = homes or {}
    folded = folded_lookups(phrases, mentioned or set(), reported or set()) if not ordered and rng.random() < GOAL_SHARE else {}
    producers = {ph.var: ph for ph in phrases if ph.var in folded}

    def unnamed(ph: Phrase) -> bool:
        return homes.get(ph.entity) == 1 and rng.random() < UNNAMED_SERVICE_SHARE

    def ref(var: str) -> str:
        ph = producers[var]
        where = "" if unnamed(ph) else f" in {ph.service}"
        if ph.kind == "find":
            return f"the {_h(ph.field)} of the {_h(ph.entity)} {_key_desc(ph.key_field, ph.key)}{where}"
        inner = ref(ph.src) if ph.src in folded else f"that {_h(ph.prev)}"
        return f"the {_h(ph.field)} of the {_h(ph.entity)}{where} whose {_h(ph.key_field)} is {inner}"

    # A lookup whose value only the closing report asks for is stated there in full ("the email of the
    # author 'Mia Taylor'"): a sentence for it in the body too would ask for the same value twice.
    used = {ph.src for ph in phrases if ph.src}
    report_only = {ph.var for ph in phrases if ph.kind in ("find", "follow") and ph.var and ph.var in (reported or set())
                   and ph.var not in (mentioned or set()) and ph.var not in used}
    shown = [ph for ph in phrases if not ((ph.var in folded or ph.var in report_only) and ph.kind in ("find", "follow"))]
    for i, ph in enumerate(shown):
        if ph.kind == "text":
            parts.append(ph.key)
            continue
        via = ref(ph.src) if ph.src in folded else ""
        if ph.kind == "find":
            text = rng.choice(FIND_ANY if unnamed(ph) else FIND).format(entity=_h(ph.entity), key_desc=_key_desc(ph.key_field, ph.key),
                                                                      service=ph.service, field=_h(ph.field))
        elif ph.kind == "follow" and via:
            where = "" if unnamed(ph) else f" in {ph.service}"
            text = rng.choice(GOAL_FOLLOW).format(entity=_h(ph.entity), where=where, key_field=_h(ph.key_field), ref=via, field=_h(ph.field))
        elif ph.kind == "follow":
            text = rng.choice(FOLLOW_ANY if unnamed(ph) else FOLLOW).format(entity=_h(ph.entity), service=ph.service, key_field=_h(ph.key_field),
                                                                          prev=_h(ph.prev), field=_h(ph.field))
        elif ph.kind == "update" and ph.literals:
            text = rng.choice(UPDATE_TO).format(entity=_h(ph.entity), service=ph.service, field=_h(ph.field),
                                                value=next(iter(ph.literals.values())))
        elif ph.kind == "update":
            text = rng.choice(GOAL_UPDATE if via else UPDATE).format(entity=_h(ph.entity), service=ph.service, field=_h(ph.field),
                                                                     prev=_h(ph.prev), ref=via)
        else:
            extras = [f"{_h(p)} '{v}'" for p, v in ph.literals.items()]
            extras += [f"{_h(p)} {_say(v)}" for p, v in ph.other.items()]
            extras += [f"{_h(p)} set to the {_h(ent)} with {desc}" for p, ent, desc in ph.refs]
            extras += [rng.choice(POLICY).format(param=_h(p), entity=_h(ent), service=svc, key=key) for p, ent, svc, key in ph.policies]
            extra = (", with " + ", ".join(extras)) if extras else ""
            same = _h(ph.param) == _h(ph.prev) or _h(ph.param).startswith(_h(ph.prev) + " ")  # company -> company name
            template = rng.choice(GOAL_WRITE if via else WRITE_SAME if same else WRITE)
            text = template.format(service=ph.service, verb=ph.verb, prev=_h(ph.prev), param=_h(ph.param), extras=extra, ref=via)
        if ph.kind in ("find", "follow") and _h(ph.entity).rsplit(" ", 1)[-1] in PEOPLE:
            text = re.sub(r"\bits\b", "their", text)  # "find the author named X; I need their email"
        if i == 0:
            parts.append(text[0].upper() + text[1:] + ".")
        elif ordered:
            lead = rng.choice(LAST) if i == len(shown) - 1 else rng.choice(THEN)
            parts.append(f"{lead} {text}.")
        else:
            leads = ALSO if text.split(" ", 1)[0].lower() in IMPERATIVES else ALSO_CLAUSE  # "make sure to" wants a verb next
            if ph.src and not via:  # "that title" continues the sentence before: no "Separately, ... with that title"
                leads = [lead for lead in leads if lead not in APART]
            lead = rng.choice(leads)
            parts.append(f"{lead} {text}." if lead else text[0].upper() + text[1:] + ".")
    if report:
        parts.append(rng.choice(REPORT).format(items=_series(report)))
    if requester is None:
        return rng.choice(OPENERS) + " ".join(parts) + rng.choice(CLOSERS)
    who = {"first": requester.first, "name": requester.name, "title": requester.title, "department": requester.department}
    sign = rng.choice(SIGN)
    closers = [c for c in CLOSERS if not any(w in c for w in ("Thank", "Cheers", "Appreciate"))] if sign else CLOSERS  # one sign-off
    return rng.choice(VOICE).format(**who) + " ".join(parts) + rng.choice(closers) + sign.format(**who)


def _say(value: Any) -> str:
    """A value as a person writes it in a request: quoted text, plain numbers, lists in words."""
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, dict):
        return ", ".join(f"{_h(str(k))} {_say(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_say(v) for v in value) or "none"
    return str(value)


def _key_desc(key_field: str, key: str) -> str:
    if key_field in ("name", "full_name", "display_name"):
        return f"named '{key}'"
    if key_field in ("title", "subject"):
        return f"titled '{key}'"
    return f"with {_h(key_field)} '{key}'"


_ENUM_WORD = re.compile(r"[a-z]+(?:_[a-z]+)*")


def leaks(text: str, hidden: list[Any]) -> list[Any]:
    """Hidden values that appear in the instruction. Short or numeric values are ignored (too common),
    and so are enum words such as `resolved` or `in_progress`: a status the request sets is not the
    status the agent discovers, and naming a state gives nothing away."""
    low = text.lower()
    return [v for v in hidden if isinstance(v, str) and len(v) >= 5 and not _ENUM_WORD.fullmatch(v) and v.lower() in low]
