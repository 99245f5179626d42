"""An LLM in the designer's seat for the instruction: it may rephrase, the checks decide.

The rewrite is kept only if it still mentions everything the agent needs to be told (the names,
titles and values given literally, and every service of the walk) and leaks nothing the agent must
discover. Otherwise the template instruction stays. Offline, nothing here runs.
"""

from __future__ import annotations

from typing import Any

from compoworld.llm import chat
from compoworld.tasks.instruction import leaks
from compoworld.tasks.solution import literal_strings

PROMPT = (
    "Rewrite this request from a colleague so it reads naturally, as one short message. Keep every quoted "
    "name, title and value exactly as written, mention every system it mentions, keep the order of the steps, "
    "and add no facts. Reply with the rewritten request only.\n\nRequest:\n{text}"
)


def required_mentions(plan: list[Any], services: list[str]) -> list[str]:
    """Literal strings the agent is given in the plan's arguments, plus the services of the walk."""
    out: list[str] = list(services)
    for step in plan:
        out.extend(s for s in literal_strings(step.arguments) if s)
    return list(dict.fromkeys(out))


def rewrite_instruction(text: str, required: list[str], hidden: list[Any], model: str, **llm_kwargs: Any) -> tuple[str, str]:
    """(instruction, verdict): the rewrite and "accepted", or the original and why it was refused."""
    reply = chat(model, [{"role": "user", "content": PROMPT.format(text=text)}], **llm_kwargs).content.strip()
    if not reply:
        return text, "rejected: empty"
    missing = [m for m in required if m.lower() not in reply.lower()]
    if missing:
        return text, f"rejected: drops {missing[0]!r}"
    if leaks(reply, hidden):
        return text, "rejected: leaks a hidden value"
    return reply, "accepted"
