"""The package's one atomic file writer.

A file is written to a temp file in its own folder (named ``.<name>.<random>.tmp``, so no glob for
``*.parquet`` or ``*.json`` ever matches it), fsynced, then renamed into place and the folder
fsynced. A reader sees the old file or the new one, never half of one; a crash leaves at most an
invisible temp file (the warehouse's `clean_temp_files` removes old ones).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

TEMP_SUFFIX = ".tmp"
FILE_MODE = 0o644  # mkstemp makes files private; what we write is meant to be read by others too


def atomic_write(path: Path, write: Callable[[BinaryIO], object], *, mode: int = FILE_MODE) -> None:
    """Write ``path`` atomically: ``write`` gets the open temp file (binary) and fills it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = FILE_MODE) -> None:
    atomic_write(path, lambda f: f.write(data), mode=mode)


def atomic_write_text(path: Path, text: str, *, mode: int = FILE_MODE) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (the directory entry); a no-op where the platform refuses."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
