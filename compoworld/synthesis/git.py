"""Git repositories of compiled services: a service whose tools are git's commands (mcp-server-git's
`git_status`, `git_add`, `git_commit`, `git_log`, `git_diff_staged`, `git_checkout`...) holds one
repository, and its tools read and change it as git does.

Before this, `git_status`, `git_log` and `git_show` were world-model tools that said nothing offline,
`git_add` created a file record of no file, and `git_commit` and `git_reset` were logged actions: a
staged file never showed in a status, a commit never in the log.

The repository is the same for the same seed: a small Python service whose `main` has four commits, a
`feature/retry-orders` branch one commit ahead, and a working tree with one staged change, one
unstaged change and one untracked file. Its state is three tables: files (each path's content at
HEAD, in the index and in the working tree), commits (hash, parent, message, author, date and the tree
they record) and branches (their head commit; one is checked out). A refused command changes nothing.
"""

from __future__ import annotations

import difflib
import random
from datetime import datetime, timedelta
from typing import Any

from compoworld.canonical import format_timestamp, short_hash
from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError, ToolError
from compoworld.synthesis.naming import snake
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan

GIT_FILES, GIT_COMMITS, GIT_BRANCHES = "git_files", "git_commits", "git_branches"
GIT_REPO_SEM = "git_repo_path"  # what a parameter naming the repository takes: samplers pass its path
REPO_PATH = "/workspace/halcyon-app"

# command -> whether it only reads
COMMANDS: dict[str, bool] = {"status": True, "add": False, "reset": False, "commit": False, "log": True, "diff_unstaged": True,
                             "diff_staged": True, "diff": True, "create_branch": False, "checkout": False, "show": True,
                             "list_branches": True, "delete_branch": False}
# other servers' names for the same commands (git-repo-browser's `git_track`, `git_commit_history`)
ALIASES = {"track": "add", "stage": "add", "local_changes": "status", "commit_history": "log", "checkout_branch": "checkout",
           "branches": "list_branches", "branch_list": "list_branches", "unstage": "reset"}

# path -> content at `main`'s last commit
FILES = {
    "README.md": "# halcyon-app\n\nThe order service of Halcyon Works.\n",
    "pyproject.toml": '[project]\nname = "halcyon-app"\nversion = "0.3.0"\n',
    "src/app.py": "from src.config import settings\n\n\ndef create_app():\n    return {\"name\": settings.name}\n",
    "src/config.py": "class Settings:\n    name = \"halcyon-app\"\n    timeout_seconds = 10\n\n\nsettings = Settings()\n",
    "tests/test_app.py": "from src.app import create_app\n\n\ndef test_create_app():\n    assert create_app()[\"name\"] == \"halcyon-app\"\n",
}
# `main`'s history, oldest first: (message, the paths it sets to their content at the end, edits before that)
HISTORY = [("Initial commit", ["README.md", "pyproject.toml"]), ("Add the app factory", ["src/app.py", "src/config.py"]),
           ("Add a test for create_app", ["tests/test_app.py"]), ("Raise the request timeout to 10 seconds", [])]
FEATURE = ("feature/retry-orders", "Retry failed order syncs", "src/retry.py",
           "def retry(call, attempts=3):\n    for _ in range(attempts - 1):\n        try:\n            return call()\n"
           "        except ConnectionError:\n            continue\n    return call()\n")
STAGED = ("README.md", FILES["README.md"] + "\n## Running\n\n    python -m src.app\n")
UNSTAGED = ("src/config.py", FILES["src/config.py"].replace("timeout_seconds = 10", "timeout_seconds = 15"))
UNTRACKED = ("notes/todo.md", "- retry order syncs\n- document the timeout\n")


def git_command(tool_name: str) -> str | None:
    """The command a tool of a git server runs (`git_diff_staged` -> diff_staged, `git_track` -> add), or
    None: a tool named without git's prefix (`search_code`) is none of git's."""
    s = snake(tool_name)
    if not s.startswith("git_"):
        return None
    s = ALIASES.get(s.removeprefix("git_"), s.removeprefix("git_"))
    return s if s in COMMANDS else None


def is_git(server_words: set[str], tool_names: list[str]) -> bool:
    """Whether a service is a git client: it says git, and it commits and stages or reads the status or log."""
    cmds = {c for n in tool_names if (c := git_command(n))}
    return "git" in server_words and len(cmds) >= 4 and "commit" in cmds and bool(cmds & {"status", "log"})


_REPO_PARAMS = ("repo_path", "repository", "repo", "repository_path", "repo_url", "cwd", "path", "directory")


def repo_param(cmd: str, props: dict[str, Any]) -> str | None:
    """The parameter naming the repository (`repo_path`)."""
    return next((p for p in props if snake(p) in _REPO_PARAMS and (props[p] or {}).get("type") in ("string", None)), None)


def git_entities() -> list[EntityPlan]:
    S = {"type": "string"}
    return [
        EntityPlan(collection=GIT_FILES, entity="git_file", prefix="gitf", size=0, topic="git", fields=[
            FieldPlan(name="id", shape=S, role="id"), FieldPlan(name="path", shape=S, role="key"),
            FieldPlan(name="head", shape={"type": ["string", "null"]}), FieldPlan(name="index", shape={"type": ["string", "null"]}),
            FieldPlan(name="worktree", shape={"type": ["string", "null"]})]),
        EntityPlan(collection=GIT_COMMITS, entity="git_commit", prefix="gitc", size=0, topic="git", fields=[
            FieldPlan(name="id", shape=S, role="id"), FieldPlan(name="hash", shape=S, role="key"),
            FieldPlan(name="parent", shape={"type": ["string", "null"]}), FieldPlan(name="message", shape=S),
            FieldPlan(name="author", shape=S), FieldPlan(name="date", shape=S, sem="datetime"),
            FieldPlan(name="files", shape={"type": "array"}), FieldPlan(name="tree", shape={"type": "object"})]),
        EntityPlan(collection=GIT_BRANCHES, entity="git_branch", prefix="gitb", size=0, topic="git", fields=[
            FieldPlan(name="id", shape=S, role="id"), FieldPlan(name="name", shape=S, role="key"),
            FieldPlan(name="head", shape=S), FieldPlan(name="current", shape={"type": "boolean"})]),
    ]


def git_output(t: ToolPlan) -> dict[str, Any]:
    return {"type": "object"}


# -- the seeded repository ----------------------------------------------------------------------

def _hash(parent: str | None, message: str, tree: dict[str, str]) -> str:
    return short_hash(f"{parent}\x1f{message}\x1f{sorted(tree.items())}", 40)


def seed_repository(rng: random.Random, now: datetime, authors: list[str]) -> dict[str, list[Record]]:
    """The repository, the same for the same seed: its commits, branches and working tree."""
    people = authors or ["Build Bot"]
    commits: list[Record] = []
    tree: dict[str, str] = {}
    parent: str | None = None
    when = now - timedelta(days=30)
    for i, (message, paths) in enumerate(HISTORY):
        changed = list(paths)
        for p in paths:
            tree[p] = FILES[p].replace("timeout_seconds = 10", "timeout_seconds = 5")
        if not paths:  # the timeout change
            tree["src/config.py"] = FILES["src/config.py"]
            changed = ["src/config.py"]
        when += timedelta(days=rng.randint(2, 6), hours=rng.randint(0, 8))
        h = _hash(parent, message, tree)
        commits.append({"id": f"gitc_{i + 1:04d}", "hash": h, "parent": parent, "message": message, "author": people[i % len(people)],
                        "date": format_timestamp(when), "files": changed, "tree": dict(tree)})
        parent = h
    branch, message, path, content = FEATURE
    feature_tree = {**tree, path: content}
    fh = _hash(parent, message, feature_tree)
    commits.append({"id": f"gitc_{len(commits) + 1:04d}", "hash": fh, "parent": parent, "message": message,
                    "author": people[len(commits) % len(people)], "date": format_timestamp(when + timedelta(days=1)), "files": [path],
                    "tree": feature_tree})
    branches = [{"id": "gitb_0001", "name": "main", "head": parent, "current": True},
                {"id": "gitb_0002", "name": branch, "head": fh, "current": False}]
    files: list[Record] = []
    for i, (p, text) in enumerate(sorted(tree.items())):
        index = STAGED[1] if p == STAGED[0] else text
        worktree = UNSTAGED[1] if p == UNSTAGED[0] else index
        files.append({"id": f"gitf_{i + 1:04d}", "path": p, "head": text, "index": index, "worktree": worktree})
    files.append({"id": f"gitf_{len(files) + 1:04d}", "path": UNTRACKED[0], "head": None, "index": None, "worktree": UNTRACKED[1]})
    return {GIT_COMMITS: commits, GIT_BRANCHES: branches, GIT_FILES: files}


def examples(rng: random.Random) -> list[str]:
    return [REPO_PATH]


# -- running a command ---------------------------------------------------------------------------

def run_git(svc: Any, t: ToolPlan, args: dict[str, Any]) -> Any:
    """One command on the service's repository. Nothing changes unless it succeeds."""
    files, commits, branches = svc.db[GIT_FILES], svc.db[GIT_COMMITS], svc.db[GIT_BRANCHES]
    props = t.input_schema.get("properties") or {}

    def arg(*names: str, default: Any = None) -> Any:
        return next((args[p] for p in props if snake(p) in names and args.get(p) is not None), default)

    repo = arg(*_REPO_PARAMS)
    if isinstance(repo, str) and repo.rstrip("/").removesuffix(".git").rsplit("/", 1)[-1] not in (REPO_PATH.rsplit("/", 1)[1], "."):
        raise NotFoundError(f"{repo!r} is not a git repository; the repository here is {REPO_PATH}")
    current = next(b for b in branches if b["current"])

    def commit_of(rev: Any) -> Record:
        rev = str(rev or "HEAD").strip()
        if rev in ("HEAD", "@"):
            rev = current["head"]
        named = next((b for b in branches if b["name"] == rev), None)
        if named is not None:
            rev = named["head"]
        found = [c for c in commits if len(rev) >= 4 and c["hash"].startswith(rev)]
        if not found:
            raise NotFoundError(f"unknown revision {rev!r}; branches here: {', '.join(b['name'] for b in branches)}")
        return found[0]

    cmd = t.git or ""
    if cmd == "status":
        return _status(files, current["name"])
    if cmd == "add":
        names = ("files", "paths", "file_paths", "pathspec", "file", "file_path")
        default = next((props[p].get("default") for p in props if snake(p) in names and isinstance(props[p], dict)), None)
        return _add(files, arg(*names, default=default), current["name"])  # git-repo-browser's `files` defaults to ["."]
    if cmd == "reset":
        mode = str(arg("mode", "type", default="mixed")).lower().lstrip("-")
        if mode == "soft":  # to HEAD: the index and the working tree stay as they are
            return _status(files, current["name"])
        hard = mode == "hard"
        targets = _paths_of(arg("files", "paths", "file_paths", "pathspec"))
        for row in [r for r in files if not targets or r["path"] in targets]:
            files.update(row["id"], index=row["head"], **({"worktree": row["head"]} if hard and row["head"] is not None else {}))
        return _status(files, current["name"])
    if cmd == "commit":
        message = str(arg("message", "commit_message", "msg", default="")).strip()
        if not message:
            raise ToolError("give a commit message")
        staged = [r for r in files if r["index"] != r["head"]]
        if not staged:
            raise ToolError("nothing to commit: stage changes with add first")
        tree = {r["path"]: r["index"] for r in sorted(files, key=lambda r: r["path"]) if r["index"] is not None}
        h = _hash(current["head"], message, tree)
        owner = next(iter(commits))["author"]  # the repository's configured user
        commits.insert({"hash": h, "parent": current["head"], "message": message, "author": arg("author", default=owner),
                        "date": svc.now(), "files": sorted(r["path"] for r in staged), "tree": tree})
        for r in staged:
            if r["index"] is None and r["worktree"] is None:
                files.delete(r["id"])
            else:
                files.update(r["id"], head=r["index"])
        branches.update(current["id"], head=h)
        return {"hash": h, "branch": current["name"], "message": message, "files": sorted(r["path"] for r in staged)}
    if cmd == "log":
        limit = arg("max_count", "limit", "count", "n", "max_commits", default=10)
        branch = next((b for b in branches if b["name"] == arg("branch", "branch_name")), current)
        author, grep = str(arg("author", default="")).lower(), str(arg("grep", "query", default="")).lower()
        out, at = [], branch["head"]
        while at is not None and (not isinstance(limit, (int, float)) or len(out) < int(limit)):
            c = commit_of(at)
            if author in c["author"].lower() and grep in c["message"].lower():
                out.append({"hash": c["hash"], "author": c["author"], "date": c["date"], "message": c["message"]})
            at = c["parent"]
        return {"branch": branch["name"], "commits": out}
    if cmd in ("diff_unstaged", "diff_staged", "diff"):
        if cmd == "diff_staged":
            pairs = [(r["path"], r["head"], r["index"]) for r in files if r["index"] != r["head"]]
        elif cmd == "diff_unstaged":
            pairs = [(r["path"], r["index"], r["worktree"]) for r in files if (r["index"] is not None or r["head"] is not None)
                     and r["worktree"] != r["index"]]
        else:
            base = commit_of(arg("target", "branch", "ref", "base", "revision", "commit", default="HEAD"))["tree"]
            paths = sorted(set(base) | {r["path"] for r in files if r["head"] is not None or r["index"] is not None})
            now = {r["path"]: r["worktree"] for r in files}
            pairs = [(p, base.get(p), now.get(p)) for p in paths if base.get(p) != now.get(p)]
        return {"files": [p for p, _, _ in pairs], "diff": "".join(_unified(p, a, b) for p, a, b in pairs)}
    if cmd == "show":
        c = commit_of(arg("revision", "commit", "commit_hash", "hash", "sha", "ref", default="HEAD"))
        before = commit_of(c["parent"])["tree"] if c["parent"] else {}
        return {"hash": c["hash"], "author": c["author"], "date": c["date"], "message": c["message"], "files": c["files"],
                "diff": "".join(_unified(p, before.get(p), c["tree"].get(p)) for p in c["files"])}
    if cmd == "list_branches":
        return {"branches": [{"name": b["name"], "head": b["head"], "current": b["current"]} for b in branches]}
    if cmd == "create_branch":
        name = str(arg("branch_name", "name", "branch", "new_branch", default="")).strip()
        if not name:
            raise ToolError("give the new branch's name")
        if any(b["name"] == name for b in branches):
            raise ToolError(f"a branch named {name!r} already exists")
        base = commit_of(arg("base_branch", "start_point", "from_branch", "base", "source_branch", default=None) or "HEAD")
        branches.insert({"name": name, "head": base["hash"], "current": False})
        return {"branch": name, "head": base["hash"]}
    if cmd == "checkout":
        if arg("create", "new_branch", "b", default=False) is True:  # `checkout -b`: make the branch, then switch to it
            run_git(svc, t.model_copy(update={"git": "create_branch"}), args)
            branches = svc.db[GIT_BRANCHES]
        return _checkout(files, branches, commit_of, current, str(arg("branch_name", "branch", "target", "ref", "name", default="")).strip())
    if cmd == "delete_branch":
        name = str(arg("branch_name", "branch", "name", default="")).strip()
        row = next((b for b in branches if b["name"] == name), None)
        if row is None:
            raise NotFoundError(f"no branch {name!r}; branches here: {', '.join(b['name'] for b in branches)}")
        if row["current"]:
            raise ToolError(f"cannot delete {name!r}: it is checked out")
        branches.delete(row["id"])
        return {"deleted": name, "head": row["head"]}
    raise ToolError(f"unsupported git command {cmd}")


def _paths_of(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def _status(files: Any, branch: str) -> dict[str, Any]:
    staged, unstaged, untracked = [], [], []
    for r in sorted(files, key=lambda r: r["path"]):
        if r["head"] is None and r["index"] is None:
            untracked.append(r["path"])
            continue
        if r["index"] != r["head"]:
            staged.append({"path": r["path"], "change": "added" if r["head"] is None else "deleted" if r["index"] is None else "modified"})
        if r["worktree"] != r["index"]:
            unstaged.append({"path": r["path"], "change": "deleted" if r["worktree"] is None else "modified"})
    return {"branch": branch, "staged": staged, "unstaged": unstaged, "untracked": untracked,
            "clean": not (staged or unstaged or untracked)}


def _add(files: Any, given: Any, branch: str) -> dict[str, Any]:
    paths = _paths_of(given)
    if not paths:
        raise ToolError("give the files to stage (\".\" stages every change)")
    rows = {r["path"]: r for r in files}
    everything = any(p in (".", "-A", "--all", "*") for p in paths)
    targets = [r for r in rows.values() if r["worktree"] != r["index"]] if everything else []
    for p in [] if everything else paths:
        row = rows.get(p.removeprefix("./"))
        if row is None:
            raise NotFoundError(f"pathspec {p!r} did not match any files")
        targets.append(row)
    for row in targets:
        files.update(row["id"], index=row["worktree"])
    return {**_status(files, branch), "added": sorted(r["path"] for r in targets)}


def _checkout(files: Any, branches: Any, commit_of: Any, current: Record, name: str) -> dict[str, Any]:
    row = next((b for b in branches if b["name"] == name), None)
    if row is None:
        raise NotFoundError(f"no branch {name!r}; branches here: {', '.join(b['name'] for b in branches)} (create_branch makes one)")
    if row["current"]:
        return {"branch": name, "head": row["head"], "switched": False}
    target = commit_of(row["head"])["tree"]
    tracked = [r for r in files if r["head"] is not None or r["index"] is not None]
    if any((r["index"] != r["head"] or r["worktree"] != r["index"]) and target.get(r["path"]) != r["head"] for r in tracked):
        raise ToolError(f"your local changes would be overwritten by checking out {name!r}: commit or reset them first")
    if any(r["head"] is None and r["index"] is None and target.get(r["path"]) is not None for r in files):
        raise ToolError(f"untracked files would be overwritten by checking out {name!r}: move or add them first")
    by_path = {r["path"]: r for r in files}
    for path in sorted(set(target) | {r["path"] for r in tracked}):
        r, content = by_path.get(path), target.get(path)
        if r is None:
            files.insert({"path": path, "head": content, "index": content, "worktree": content})
        elif content is None:
            files.delete(r["id"])
        elif r["index"] == r["head"] and r["worktree"] == r["index"]:  # clean: it takes the branch's content
            files.update(r["id"], head=content, index=content, worktree=content)
    branches.update(current["id"], current=False)
    branches.update(row["id"], current=True)
    return {"branch": name, "head": row["head"], "switched": True}


def _unified(path: str, before: str | None, after: str | None) -> str:
    return "".join(difflib.unified_diff((before or "").splitlines(keepends=True), (after or "").splitlines(keepends=True),
                                        fromfile=f"a/{path}" if before is not None else "/dev/null",
                                        tofile=f"b/{path}" if after is not None else "/dev/null"))
