"""`compoworld ...`: the command line over the library. Thin: parse, call, print.

Each area registers its subcommands from its own module, so commands grow without one long file.
"""

from __future__ import annotations

import argparse
import importlib
import sys

AREAS = ["services", "synth", "tasks", "rollout", "pipeline", "warehouse", "datasets", "training"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="compoworld", description="CompoWorld: verified cross-service tasks, trajectories and rewards.")
    sub = parser.add_subparsers(dest="command", required=True)
    for area in AREAS:
        importlib.import_module(f"compoworld.cli.{area}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
