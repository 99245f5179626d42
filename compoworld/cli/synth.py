"""`compoworld synth`: compile and verify services from MCP tool specifications."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from compoworld.cli._common import print_summary


def _check_outcomes(checks: list[Any]) -> dict[str, int]:
    # A skipped check (it could not be set up) is neither a pass nor a failure: counted on its own.
    return {f"checks_{label}": sum(c.status == status for c in checks)
            for status, label in (("pass", "passed"), ("fail", "failed"), ("skip", "skipped"))}


def cmd_synth(args: argparse.Namespace) -> int:
    from compoworld.synthesis import run_synth

    # A missing or unreadable spec path, or one holding no spec, is a UserError (exit 2) raised
    # before anything is compiled; the compiled set is then left as it was.
    report = run_synth([Path(p) for p in args.specs] if args.specs else None, coder=args.coder)
    summary = {**report.summary(), **_check_outcomes(report.checks)}
    print_summary(summary, args.json)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    synth = sub.add_parser("synth", help="compile and verify services from MCP tool specifications")
    synth.add_argument("--specs", nargs="*", help="spec files or folders (default: the shipped corpus)")
    synth.add_argument("--coder", help="LiteLLM model that writes richer service code (optional)")
    synth.add_argument("--json", action="store_true")
    synth.set_defaults(func=cmd_synth)
