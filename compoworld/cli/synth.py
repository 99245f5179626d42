"""`compoworld synth`: compile and verify services from MCP tool specifications."""

from __future__ import annotations

import argparse
from pathlib import Path

from compoworld.cli._common import print_json


def cmd_synth(args: argparse.Namespace) -> int:
    from compoworld.synthesis import run_synth

    report = run_synth([Path(p) for p in args.specs] if args.specs else None, coder=args.coder)
    summary = report.summary()
    if args.json:
        print_json(summary)
    else:
        for key, value in summary.items():
            if not isinstance(value, (list, dict)):
                print(f"{key:>22}: {value}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    synth = sub.add_parser("synth", help="compile and verify services from MCP tool specifications")
    synth.add_argument("--specs", nargs="*", help="spec files (default: the shipped corpus)")
    synth.add_argument("--coder", help="LiteLLM model that writes richer service code (optional)")
    synth.add_argument("--json", action="store_true")
    synth.set_defaults(func=cmd_synth)
