"""`compoworld ...`: the command line over the library. Thin: parse, call, print.

Each area registers its subcommands from its own module, so commands grow without one long file.

`main` is the one place that turns errors into output. Bad input (a `UserError`, a usage error,
an invalid config, a missing file the user named) prints one line, ``error: <what is wrong>;
<what to do>``, and exits 2; Ctrl+C exits 130; anything else is a defect in CompoWorld: one line
and exit 1, with the traceback under ``--debug`` (or ``COMPOWORLD_DEBUG=1``).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

from compoworld.errors import UserError, one_line

AREAS = ["services", "synth", "tasks", "rollout", "pipeline", "warehouse", "datasets", "training", "eval"]
DEBUG_ENV = "COMPOWORLD_DEBUG"
EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 1
EXIT_INTERRUPTED = 130


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line (like every other error) and the same exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}; see '{self.prog} --help'", file=sys.stderr)
        sys.exit(EXIT_USER_ERROR)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="compoworld", description="CompoWorld: verified cross-service tasks, trajectories and rewards.")
    parser.add_argument("--debug", action="store_true", help=f"show tracebacks (also: {DEBUG_ENV}=1)")
    sub = parser.add_subparsers(dest="command", required=True)  # subparsers are `Parser`s too
    for area in AREAS:
        importlib.import_module(f"compoworld.cli.{area}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    debug = args.debug or os.environ.get(DEBUG_ENV) == "1"
    _show_library_warnings()
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _report("interrupted (Ctrl+C); what finished before it is kept, so run the command again to go on", debug)
        return EXIT_INTERRUPTED
    except Exception as exc:
        message = user_message(exc, args)
        if message is not None:
            _report(message, debug)
            return EXIT_USER_ERROR
        what = ": ".join(filter(None, [type(exc).__name__, one_line(str(exc))]))
        _report(f"internal error: {what} (run with --debug for the traceback)", debug)
        return EXIT_INTERNAL_ERROR


def _report(message: str, debug: bool) -> None:
    if debug:
        traceback.print_exc()
    print(f"error: {message}", file=sys.stderr)


_PATH_PROBLEMS: list[tuple[type[OSError], str]] = [
    (FileNotFoundError, "does not exist"),
    (NotADirectoryError, "has a file where a folder should be"),
    (IsADirectoryError, "is a folder, not a file"),
    (PermissionError, "is not accessible to you (permission denied)"),
]


def user_message(exc: Exception, args: argparse.Namespace) -> str | None:
    """The one line to print for an error the user can fix; None for a defect in CompoWorld."""
    import yaml
    from pydantic import ValidationError

    if isinstance(exc, UserError):
        return one_line(str(exc))
    if isinstance(exc, ValidationError):
        return _validation_message(exc, args)
    if isinstance(exc, yaml.YAMLError):
        where = getattr(args, "config", None) or "the config file"
        problem, mark = getattr(exc, "problem", None), getattr(exc, "problem_mark", None)
        detail = f"{problem} at line {mark.line + 1}, column {mark.column + 1}" if problem and mark else one_line(str(exc))
        return f"{where} is not valid YAML: {detail}; fix the file or pass another --config"
    if isinstance(exc, tuple(kind for kind, _ in _PATH_PROBLEMS)):
        return _path_message(exc, args)
    return None


def _validation_message(exc: Any, args: argparse.Namespace) -> str:
    """A pydantic error as one line: which field, what is wrong with it, where to fix it."""
    from compoworld.config import PipelineConfig

    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    config = exc.title == PipelineConfig.__name__
    source = f"config {getattr(args, 'config', None) or 'configs/default.yaml'}" if config else f"{exc.title} value"
    fix = "fix it in the config file or on the command line" if config else "fix the value you passed"
    if first["type"] == "extra_forbidden":
        return f"{source}: unknown key '{field}'{more}; check its spelling against configs/default.yaml"
    problem = first["msg"].removeprefix("Value error, ")  # pydantic's prefix for a validator's own message
    return f"{source}: {field} = {first.get('input')!r} is invalid: {problem}{more}; {fix}"


def _path_message(exc: OSError, args: argparse.Namespace) -> str | None:
    """A missing file or folder the user named (a path option, or a path under one) as one line."""
    if exc.filename is None:
        return None
    path = Path(os.fsdecode(exc.filename)).absolute()
    given = _given_path(path, args)
    if given is None:
        return None  # a path CompoWorld chose itself: a defect, not bad input
    option, value = given
    where = f"{option} {value}" if path == Path(value).absolute() else f"{path} (under {option} {value})"
    problem = next(text for kind, text in _PATH_PROBLEMS if isinstance(exc, kind))
    return f"{where} {problem}; check the path"


def _given_path(path: Path, args: argparse.Namespace) -> tuple[str, str] | None:
    """The option (and its value) whose path is ``path`` or a folder above it."""
    for name, value in vars(args).items():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v and (path == Path(v).absolute() or Path(v).absolute() in path.parents):
                return f"--{name.replace('_', '-')}", v
    return None


class _StderrHandler(logging.Handler):
    # Looks sys.stderr up at each message, so redirected or captured stderr gets it too.
    def emit(self, record: logging.LogRecord) -> None:
        print(f"{record.levelname.lower()}: {self.format(record)}", file=sys.stderr)


def _show_library_warnings() -> None:
    """Print the library's warnings (a damaged part, a held lock) as ``warning: ...`` lines."""
    logger = logging.getLogger("compoworld")
    if not any(isinstance(h, _StderrHandler) for h in logger.handlers):
        handler = _StderrHandler(logging.WARNING)
        logger.addHandler(handler)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)


if __name__ == "__main__":
    sys.exit(main())
