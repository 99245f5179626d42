"""The closing report: the values a task asks the agent to state at the end, written as a person would.

Used by the reference teacher (its final message) and by the probe's mutants (a report with a value
left out or altered); the rubric checks it with `checks.mentions`, which accepts any common format.
"""

from __future__ import annotations

import random
import re
from datetime import date
from typing import Any

from compoworld.tasks.model import ReportItem

OPENINGS = ["Here is what you asked me to report:", "For your records:", "The figures you wanted:",
            "What I found, as requested:", "To answer your questions:"]
LINE = ["- {label}: {value}", "- {label}: {value}.", "- {label} is {value}"]


def format_value(value: Any, rng: random.Random) -> str:
    """A value as a colleague would write it: grouped numbers, dates spelled out or numeric."""
    if isinstance(value, float):
        return rng.choice([f"{value:,.2f}", f"{value:.2f}", f"{value:,}"])
    if isinstance(value, int) and not isinstance(value, bool):
        return rng.choice([f"{value:,}", str(value)])
    text = str(value)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        d = date.fromisoformat(text)
        return rng.choice([text, f"{d.day} {d:%B %Y}", f"{d:%b} {d.day}, {d.year}"])
    return text


def closing_text(items: list[ReportItem], values: list[Any], rng: random.Random) -> str:
    """The report lines for the values (a missing value is said to be unknown, never invented)."""
    lines = [rng.choice(LINE).format(label=it.label[:1].upper() + it.label[1:],
                                     value=format_value(v, rng) if v is not None else "I could not determine it")
             for it, v in zip(items, values)]
    return rng.choice(OPENINGS) + "\n" + "\n".join(lines)
