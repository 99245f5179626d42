"""`compoworld synth`: compile and verify services from MCP tool specifications."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from compoworld.cli._common import print_json
from compoworld.errors import UserError


def _check_specs(specs: list[Path]) -> None:
    """Refuse spec files that give no server before anything runs: a run over them would replace
    the compiled-services cache with an empty one."""
    from compoworld.synthesis.loader import load_specs

    missing = [str(p) for p in specs if not p.exists()]
    if missing:
        raise UserError(f"no spec file at {', '.join(missing)}; pass MCP spec files (.json, .jsonl, .gz) or folders "
                        "that exist, or leave out --specs for the shipped corpus")
    loaded = load_specs(specs)
    if not loaded.servers:
        why = loaded.rejections[0] if loaded.rejections else None
        detail = f" ({why.file}: {why.reason}: {why.detail})" if why else ""
        raise UserError(f"no MCP server spec could be read from {', '.join(map(str, specs))}{detail}; "
                        "pass files holding MCP tools/list specs")


def _check_outcomes(checks: list[Any]) -> dict[str, int]:
    # A skipped check (it could not be set up) is neither a pass nor a failure: counted on its own.
    return {f"checks_{label}": sum(c.status == status for c in checks)
            for status, label in (("pass", "passed"), ("fail", "failed"), ("skip", "skipped"))}


def cmd_synth(args: argparse.Namespace) -> int:
    from compoworld.synthesis import run_synth

    specs = [Path(p) for p in args.specs] if args.specs else None
    if specs:
        _check_specs(specs)
    report = run_synth(specs, coder=args.coder)
    summary = {**report.summary(), **_check_outcomes(report.checks)}
    if args.json:
        print_json(summary)
    else:
        for key, value in summary.items():
            if not isinstance(value, (list, dict)):
                print(f"{key:>22}: {value}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    synth = sub.add_parser("synth", help="compile and verify services from MCP tool specifications")
    synth.add_argument("--specs", nargs="*", help="spec files or folders (default: the shipped corpus)")
    synth.add_argument("--coder", help="LiteLLM model that writes richer service code (optional)")
    synth.add_argument("--json", action="store_true")
    synth.set_defaults(func=cmd_synth)
