"""Errors a person can act on.

A `UserError` is bad input or a state of the world the user can fix (a malformed query, an unknown
task id, a missing warehouse, a bad config value). Its message is one line that says what is wrong
and what to do; the CLI prints it as `error: <message>` and exits 2, with no traceback unless
`--debug`. Anything else that escapes is a defect in CompoWorld and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a fixable situation: one line saying what is wrong and what to do."""


def one_line(text: str | BaseException) -> str:
    """The first paragraph of a message, on one line (DuckDB, for one, appends the query after a blank line)."""
    first = str(text).strip().split("\n\n")[0]
    return " ".join(line.strip() for line in first.splitlines() if line.strip())
