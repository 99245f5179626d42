"""Git repositories of compiled services (compoworld/synthesis/git.py): a git client's tools read and
change one repository as git does, and the fidelity check `git` catches a commit that records nothing."""

from __future__ import annotations

from typing import Any

from compoworld.services.environment import Environment
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.git import REPO_PATH
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn

S = {"type": "string"}
REPO = {"repo_path": S}


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ("repo_path",)) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": {**REPO, **props}, "required": list(req)})


# mcp-server-git's tools, as its specification declares them
GIT = ServerSpec(id="git", source="test", name="Git", description="A Model Context Protocol server for Git repository interaction.", tools=[
    tool("git_status", "Shows the working tree status", {}),
    tool("git_diff_unstaged", "Shows changes in the working directory that are not yet staged", {}),
    tool("git_diff_staged", "Shows changes that are staged for commit", {}),
    tool("git_diff", "Shows differences between branches or commits", {"target": S}, ("repo_path", "target")),
    tool("git_commit", "Records changes to the repository", {"message": S}, ("repo_path", "message")),
    tool("git_add", "Adds file contents to the staging area", {"files": {"type": "array", "items": S}}, ("repo_path", "files")),
    tool("git_reset", "Unstages all staged changes", {}),
    tool("git_log", "Shows the commit logs", {"max_count": {"type": "integer", "default": 10}}),
    tool("git_create_branch", "Creates a new branch from an optional base branch", {"branch_name": S, "base_branch": S},
         ("repo_path", "branch_name")),
    tool("git_checkout", "Switches branches", {"branch_name": S}, ("repo_path", "branch_name")),
    tool("git_show", "Shows the contents of a commit", {"revision": S}, ("repo_path", "revision")),
])


def _env(seed: int = 4) -> tuple[Environment, Any]:
    plan = infer_plan(GIT, "git")
    return Environment([build_service(plan)], seed=seed), plan


def step(env: Environment, name: str, **args: Any) -> Any:
    return env.step({"name": f"git__{name}", "arguments": {"repo_path": REPO_PATH, **args}})


def test_a_git_clients_tools_stage_commit_and_read_one_repository() -> None:
    from compoworld.synthesis.verify import verify_service

    env, plan = _env()
    assert verify_service(build_service(plan)).verified
    kinds = {t.original: (t.op, t.read_only) for t in plan.tools}
    assert kinds["git_status"] == ("git", True) and kinds["git_commit"] == ("git", False) and kinds["git_add"] == ("git", False)
    status = step(env, "git_status").data
    assert status["branch"] == "main" and status["untracked"] and status["unstaged"] and status["staged"]
    changed = status["unstaged"][0]["path"]
    assert changed in step(env, "git_diff_unstaged").data["files"]
    added = step(env, "git_add", files=[changed, status["untracked"][0]])
    assert added.ok and {changed, status["untracked"][0]} <= {s["path"] for s in added.data["staged"]}
    staged = step(env, "git_diff_staged").data
    assert changed in staged["files"] and staged["diff"].startswith("--- ")
    before = step(env, "git_log").data["commits"]
    done = step(env, "git_commit", message="Raise the timeout to 15 seconds")
    assert done.ok and changed in done.data["files"]
    log = step(env, "git_log", max_count=2).data["commits"]
    assert [c["message"] for c in log] == ["Raise the timeout to 15 seconds", before[0]["message"]]
    shown = step(env, "git_show", revision=log[0]["hash"][:8]).data
    assert shown["message"] == log[0]["message"] and f"b/{changed}" in shown["diff"]
    assert step(env, "git_status").data["clean"]


def test_branches_switch_and_refusals_change_nothing() -> None:
    env, _ = _env()
    before = env.state()
    for refused in (step(env, "git_checkout", branch_name="no-such-branch"), step(env, "git_add", files=["missing.txt"]),
                    step(env, "git_show", revision="zzzzzzzz"), step(env, "git_create_branch", branch_name="main"),
                    env.step({"name": "git__git_status", "arguments": {"repo_path": "/tmp/elsewhere"}})):
        assert not refused.ok and refused.error
    assert env.state() == before
    # local changes to files the other branch has as HEAD has them go along, as git carries them
    carried = step(env, "git_checkout", branch_name="feature/retry-orders")
    status = step(env, "git_status").data
    assert carried.ok and status["branch"] == "feature/retry-orders" and status["staged"] and status["unstaged"]
    assert step(env, "git_log").data["commits"][0]["message"] == "Retry failed order syncs"
    assert "src/retry.py" in step(env, "git_diff", target="main").data["files"]
    assert step(env, "git_checkout", branch_name="main").ok
    assert step(env, "git_reset").ok and not step(env, "git_status").data["staged"]
    step(env, "git_add", files=["."])
    step(env, "git_commit", message="Work in progress")
    assert step(env, "git_create_branch", branch_name="fix/timeout", base_branch="main").ok
    assert step(env, "git_checkout", branch_name="fix/timeout").ok
    assert step(env, "git_log", max_count=1).data["commits"][0]["message"] == "Work in progress"


def test_the_repository_is_the_same_for_the_same_seed() -> None:
    assert _env(5)[0].state() == _env(5)[0].state()


def test_the_git_check_passes_a_repository_and_catches_a_commit_that_records_nothing() -> None:
    plan = infer_plan(GIT, "git")
    results = [c for c in check_fidelity(build_service(plan), GIT) if c.check == "fidelity_git"]
    assert results and all(c.status == "pass" for c in results), results
    broken = plan.model_copy(deep=True)
    broken.version = "1.broken-git"
    next(t for t in broken.tools if t.original == "git_commit").git = "status"  # a commit that records nothing
    failed = {c.tool: c.status for c in check_fidelity(build_service(broken), GIT) if c.check == "fidelity_git"}
    assert failed and set(failed.values()) == {"fail"}


def test_a_files_default_of_the_spec_stages_every_change() -> None:
    """git-repo-browser's `git_track(repo_path, files=["."])` refused without files: the spec's default
    stages every change."""
    spec = ServerSpec(id="grb", source="test", name="Git Repo Browser", description="Browse and manage git repositories.", tools=[
        tool("git_local_changes", "Get local changes (status)", {}),
        tool("git_track", "Track (stage) specific files or all files.", {"files": {"type": "array", "items": S, "default": ["."]}}),
        tool("git_commit", "Commit staged changes", {"message": S}, ("repo_path", "message")),
        tool("git_commit_history", "Get commit history", {"max_count": {"type": "integer"}})])
    env = Environment([build_service(infer_plan(spec, "grb"))], seed=1)
    tracked = env.step({"name": "grb__git_track", "arguments": {"repo_path": REPO_PATH}})
    assert tracked.ok and not tracked.data["unstaged"] and not tracked.data["untracked"], tracked.content
