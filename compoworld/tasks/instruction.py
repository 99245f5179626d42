"""Instructions from a plan: a template grammar that reads like a colleague's request.

Phrases name what to achieve and where, and the literal keys a person would give (a name, a title
to use); they never contain the values the agent must discover along the way.
"""

from __future__ import annotations

import random
import dataclasses
from dataclasses import dataclass
from typing import Any, Literal


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


OPENERS = ["", "Hi! ", "Hey, quick one: ", "Could you help me with something? ", "Morning! ", "When you get a chance: ",
           "I need a hand with this. ", "Small favour: ", "Hello, ", "Urgent-ish: "]
CLOSERS = ["", " Thanks!", " Please don't change anything else.", " Leave everything unrelated as it is.", " Appreciate it.",
           " Thanks a lot.", " Only do what's needed, nothing extra.", " Cheers."]
THEN = ["Then", "Next,", "After that,", "Once you have it,", "With that,", "Then,", "Now"]
LAST = ["Finally,", "To wrap up,", "Last step:", "And finally,", "To finish,"]
ALSO = ["", "Also,", "On top of that,", "Separately,", "Please also", "I also need you to", "Make sure to", "Besides that,"]
ORDERED_SHARE = 0.3

FIND = [
    "look up the {entity} {key_desc} in {service} and get its {field}",
    "in {service}, find the {entity} {key_desc} and note its {field}",
    "pull up the {entity} {key_desc} in {service}; I need its {field}",
    "check {service} for the {entity} {key_desc} and grab the {field}",
    "open {service}, find the {entity} {key_desc} and take its {field}",
]
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
UPDATE = [
    "the {field} on file for that {entity} in {service} is out of date: update it to the {prev} you just found, and use the new one from then on",
    "go back to {service} and change that {entity}'s {field} to the {prev} you found; anything after this uses the updated value",
    "update the {entity} in {service} so its {field} is that {prev} (the old one is stale), then carry on with the new value",
]


POLICY = [
    "the {param} that the {entity} '{key}' in {service} prescribes",
    "whatever {param} the current {entity} '{key}' in {service} says to use",
    "the {param} set out in '{key}' ({service})",
]
UPDATE_TO = [
    "the {entity} you looked at in {service} has a new {field}: update it to '{value}', and use the new {field} from then on",
    "go back to {service} and change that {entity}'s {field} to '{value}' (the old one is out of date); anything after this uses the new value",
    "in {service}, set that {entity}'s {field} to '{value}' first; what you read there before is stale",
]


def _h(name: str) -> str:
    return name.replace("_", " ")


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _verb(tool: str) -> str:
    words = tool.split("__", 1)[-1].split("_")
    if len(words) >= 2:
        return f"{words[0]} {_article(' '.join(words[1:]))}"
    return words[0]


REPORT = ["When you're done, tell me {items}.", "In your reply, include {items}.", "Please finish with a short note giving {items}.",
          "I'll also need {items} from you at the end.", "Let me know {items} once it's all done.",
          "Close with {items}, so I can pass them on."]


def _series(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def render(phrases: list[Phrase], rng: random.Random, report: list[str] | None = None) -> str:
    parts: list[str] = []
    ordered = rng.random() < ORDERED_SHARE  # a numbered-step feel for some requests, goals for the rest
    for i, ph in enumerate(phrases):
        if ph.kind == "text":
            parts.append(ph.key)
            continue
        if ph.kind == "find":
            text = rng.choice(FIND).format(entity=_h(ph.entity), key_desc=_key_desc(ph.key_field, ph.key), service=ph.service, field=_h(ph.field))
        elif ph.kind == "follow":
            text = rng.choice(FOLLOW).format(entity=_h(ph.entity), service=ph.service, key_field=_h(ph.key_field), prev=_h(ph.prev), field=_h(ph.field))
        elif ph.kind == "update" and ph.literals:
            text = rng.choice(UPDATE_TO).format(entity=_h(ph.entity), service=ph.service, field=_h(ph.field),
                                                value=next(iter(ph.literals.values())))
        elif ph.kind == "update":
            text = rng.choice(UPDATE).format(entity=_h(ph.entity), service=ph.service, field=_h(ph.field), prev=_h(ph.prev))
        else:
            extras = [f"{_h(p)} '{v}'" for p, v in ph.literals.items()]
            extras += [f"{_h(p)} {_say(v)}" for p, v in ph.other.items()]
            extras += [f"{_h(p)} set to the {_h(ent)} with {desc}" for p, ent, desc in ph.refs]
            extras += [rng.choice(POLICY).format(param=_h(p), entity=_h(ent), service=svc, key=key) for p, ent, svc, key in ph.policies]
            extra = (", with " + ", ".join(extras)) if extras else ""
            text = rng.choice(WRITE).format(service=ph.service, verb=_verb(ph.tool), prev=_h(ph.prev), param=_h(ph.param), extras=extra)
        if i == 0:
            parts.append(text[0].upper() + text[1:] + ".")
        elif ordered:
            lead = rng.choice(LAST) if i == len(phrases) - 1 else rng.choice(THEN)
            parts.append(f"{lead} {text}.")
        else:
            lead = rng.choice(ALSO)
            parts.append(f"{lead} {text}." if lead else text[0].upper() + text[1:] + ".")
    if report:
        parts.append(rng.choice(REPORT).format(items=_series(report)))
    return rng.choice(OPENERS) + " ".join(parts) + rng.choice(CLOSERS)


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


def leaks(text: str, hidden: list[Any]) -> list[Any]:
    """Hidden values that appear in the instruction (short or numeric values are ignored: too common)."""
    low = text.lower()
    return [v for v in hidden if isinstance(v, str) and len(v) >= 5 and v.lower() in low]
