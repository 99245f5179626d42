"""A directory listing over a compiled service's records: `list_directory(path)` answers what lies
directly in that directory, as a file system does, not the directory's own record.

A service's folders and files are records of its own tables that hold a `path` (folders of the
`folder` archetype, files of the `document` archetype), so what the service's writes made is listed
at once: a file written at `/docs/a.md` is an entry of `/docs`, a folder made at `/docs/new` too. A
directory no record names but some record lies under (`/docs` above `/docs/a.md`) exists, as it
would on disk; a path nothing lies at or under is no directory.
"""

from __future__ import annotations

from typing import Any, Iterable

from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError
from compoworld.synthesis.naming import words

DIR_WORDS = frozenset({"directory", "dir", "folder"})
FILE_TOPICS = frozenset({"document"})


def lists_a_directory(tool_name: str) -> bool:
    """Whether a tool's name says it lists one directory's entries (`list_directory`, `list_dir`,
    `ls_folder`), not several folders (`list_folders`) nor a scan of a directory (`scan_directory`)."""
    ws = set(words(tool_name))
    return bool(ws & {"list", "ls", "listing"}) and bool(ws & DIR_WORDS)


def normalized(path: str) -> str:
    """`docs/a.md`, `/docs/a.md/` -> `/docs/a.md`; an empty path is the root."""
    return "/" + path.strip().strip("/") if path.strip().strip("/") else "/"


def entries(target: str, folders: Iterable[Record], files: Iterable[Record]) -> list[dict[str, Any]]:
    """The entries directly in directory `target`: its folders and files (folders first, each by
    name), each with its name, path and type. Raises NotFoundError when nothing lies at or under it."""
    target = normalized(target)
    prefix = target.rstrip("/") + "/"
    found = target == "/"
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, rows in (("directory", folders), ("file", files)):
        for row in rows:
            path = row.get("path")
            if not isinstance(path, str) or not path.strip().strip("/"):
                continue
            path = normalized(path)
            if path == target:
                found = True
                continue
            if not path.startswith(prefix):
                continue
            found = True
            first = path[len(prefix):].split("/", 1)[0]
            child = prefix + first
            if child == path:
                entry: dict[str, Any] = {"id": row["id"], "name": first, "path": path, "type": kind}
                if kind == "file" and isinstance(row.get("content"), str):
                    entry["size"] = len(row["content"].encode())
                stamp = row.get("modified_at") or row.get("updated_at")
                if stamp is not None:
                    entry["modified_at"] = stamp
                out[(child, kind)] = entry
            else:  # a record deeper down: the directory it lies in is an entry here
                out.setdefault((child, "directory"), {"name": first, "path": child, "type": "directory"})
    if not found:
        raise NotFoundError(f"no directory '{target}'")
    return sorted(out.values(), key=lambda e: (e["type"] != "directory", e["name"]))


def parent_of(path: str) -> str:
    """The directory a path lies in (what a listing of it is asked for)."""
    return normalized(path).rsplit("/", 1)[0] or "/"
