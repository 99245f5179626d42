"""Publishing a built layout: to the Hugging Face Hub, or to a local Hub-layout folder.

Hub calls, in order (huggingface_hub 2.4.0, one `HfApi(endpoint=$HF_ENDPOINT, token=$HF_TOKEN)`):

1. `create_repo(repo_id, repo_type="dataset", private=..., exist_ok=True)`  POST /api/repos/create
2. `list_repo_files(repo_id, repo_type="dataset")`  GET /api/datasets/{repo}/tree/main?recursive=True
   (to delete, in the same commit, data files of splits and a LICENSE.md the new build no longer has)
3. `create_commit(...)`: one commit with every file of the layout (message names the run):
   POST /api/validate-yaml (the card's header), POST /api/datasets/{repo}/preupload/main,
   the upload of files the Hub marks "lfs" (the Parquet files, on the real Hub) through Xet
   (hf_xet: GET /api/datasets/{repo}/xet-write-token/main, then the Xet storage service; the LFS
   batch API when hf_xet is absent), then POST /api/datasets/{repo}/commit/main
   (when no file changed, create_commit makes no commit and reads the head instead:
   GET /api/datasets/{repo}/revision/main)
4. `create_tag(repo_id, tag=<run id>, revision=<commit oid>, repo_type="dataset")`
   POST /api/datasets/{repo}/tag/{oid}; if the tag exists (the run was pushed before, 409),
   `delete_tag` (DELETE /api/datasets/{repo}/tag/{tag}) and `create_tag` again, so the run's tag
   points at its latest push.

The token is read from the `token` argument, `$HF_TOKEN`, or huggingface_hub's stored login, and is
only ever handed to `HfApi`: it is not logged, not written to the warehouse or the card, and is
scrubbed from any error message shown.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from compoworld.atomic import atomic_write_text
from compoworld.canonical import short_hash
from compoworld.datasets.layout import DATA_DIR, layout_files, read_manifest
from compoworld.warehouse import Warehouse


class PushError(Exception):
    """A push that cannot proceed or was refused; the message says what to do (and holds no token)."""


def tag_name(run_id: str) -> str:
    tag = re.sub(r"[^A-Za-z0-9._-]+", "-", run_id).strip(".-") or "run"
    return tag.replace("..", ".")


def commit_message(manifest: dict[str, Any]) -> str:
    ordered = sorted(manifest["splits"].items(), key=lambda kv: (kv[0] != "train", kv[0]))
    splits = ", ".join(f"{k} {v['rows']:,}" for k, v in ordered)
    return f"CompoWorld {manifest['kind'].upper()} dataset from run {manifest['run_id']} ({splits} rows)"


def resolve_token(token: str | None = None) -> str:
    if not token:
        token = os.environ.get("HF_TOKEN") or None
    if not token:
        from huggingface_hub import get_token

        token = get_token()
    if not token:
        raise PushError("no Hugging Face token: set HF_TOKEN to a token with write access "
                        "(or run `hf auth login`), or push to a local folder with --local-dir")
    return token


def _managed(path: str) -> bool:
    """Files a push owns in the repository: a stale one (a split or licence the new build has not) is deleted."""
    return path.startswith(f"{DATA_DIR}/") or path == "LICENSE.md"


def _scrub(text: str, token: str | None) -> str:
    return text.replace(token, "***") if token else text


def _record(wh: Warehouse | None, manifest: dict[str, Any], layout_dir: Path, pushed_to: str, hub: dict[str, Any]) -> None:
    if wh is None:
        return
    from compoworld.datasets.build import dataset_rows

    part = f"push-{manifest['kind']}-" + short_hash(pushed_to, 12)
    wh.write("datasets", dataset_rows(manifest, Path(layout_dir).absolute(), pushed_to=pushed_to, hub=hub),
             run_id=manifest["run_id"], part=part)


def push_to_hub(layout_dir: Path, repo_id: str, *, token: str | None = None, endpoint: str | None = None,
                private: bool | None = None, wh: Warehouse | None = None) -> dict[str, Any]:
    """Upload the layout as one commit on `main`, tag it with the run id, and record the push."""
    layout_dir = Path(layout_dir)
    manifest = read_manifest(layout_dir)
    files = layout_files(layout_dir)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*", repo_id):
        raise PushError(f"repo id {repo_id!r} is not of the form ORG/NAME")
    token = resolve_token(token)
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, constants
    from huggingface_hub.errors import HfHubHTTPError, HTTPError, OfflineModeIsEnabled

    if constants.is_offline_mode():
        raise PushError("HF_HUB_OFFLINE is set: set HF_HUB_OFFLINE=0 to push to the Hub, or push to a local folder with --local-dir")
    endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip("/")
    api = HfApi(endpoint=endpoint, token=token, library_name="compoworld")
    message = commit_message(manifest)
    tag = tag_name(manifest["run_id"])
    step = "create the repository"
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        step = "list the repository's files"
        remote = set(api.list_repo_files(repo_id, repo_type="dataset"))
        ops: list[Any] = [CommitOperationAdd(path_in_repo=f, path_or_fileobj=str(layout_dir / f)) for f in files]
        ops += [CommitOperationDelete(path_in_repo=p) for p in sorted(remote) if _managed(p) and p not in files]
        step = "commit"
        info = api.create_commit(repo_id, ops, commit_message=message, repo_type="dataset",
                                 commit_description=f"Built by compoworld {manifest['code_version']} from "
                                                    f"run(s) {', '.join(manifest['source']['run_ids'])}.")
        step = f"tag the commit {tag!r}"
        try:
            api.create_tag(repo_id, tag=tag, revision=info.oid, repo_type="dataset", tag_message=message)
        except HfHubHTTPError as exc:
            if exc.response is None or exc.response.status_code != 409:
                raise
            api.delete_tag(repo_id, tag=tag, repo_type="dataset")
            api.create_tag(repo_id, tag=tag, revision=info.oid, repo_type="dataset", tag_message=message)
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        hint = " (check that the token has write access to the namespace)" if status in (401, 403) else ""
        raise PushError(_scrub(f"the Hub refused to {step} on {repo_id} (HTTP {status}){hint}: {exc}", token)) from None
    except ValueError as exc:  # create_commit's check of the card header (POST /api/validate-yaml)
        raise PushError(_scrub(f"the Hub rejected the dataset card of {layout_dir}: {exc}", token)) from None
    except OfflineModeIsEnabled:
        raise PushError("HF_HUB_OFFLINE is set: set HF_HUB_OFFLINE=0 to push") from None
    except (OSError, ConnectionError, HTTPError) as exc:  # transport failures (refused, timeout, DNS)
        raise PushError(_scrub(f"could not {step} on {endpoint}: {type(exc).__name__}: {exc}", token)) from None
    hub = {"target": "hub", "repo_id": repo_id, "endpoint": endpoint, "commit": info.oid, "commit_url": info.commit_url,
           "tag": tag, "message": message, "files": files}
    _record(wh, manifest, layout_dir, repo_id, hub)
    return {**hub, "kind": manifest["kind"], "run_id": manifest["run_id"],
            "splits": {k: v["rows"] for k, v in manifest["splits"].items()}}


def push_to_folder(layout_dir: Path, repo_id: str, root: Path, wh: Warehouse | None = None) -> dict[str, Any]:
    """The offline push target: `root/datasets/ORG/NAME` becomes the layout (stale data files removed),
    with the commit and the run's tag recorded under `.hub/` (commits.jsonl, tags.json)."""
    layout_dir = Path(layout_dir)
    manifest = read_manifest(layout_dir)
    files = layout_files(layout_dir)
    target = Path(root) / "datasets" / repo_id
    if (target / DATA_DIR).is_dir():
        shutil.rmtree(target / DATA_DIR)
    if (target / "LICENSE.md").is_file() and "LICENSE.md" not in files:
        (target / "LICENSE.md").unlink()
    digest = hashlib.sha1()
    for f in files:
        dest = target / f
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(layout_dir / f, dest)
        digest.update(f.encode() + b"\x00" + hashlib.sha256((layout_dir / f).read_bytes()).digest())
    message = commit_message(manifest)
    digest.update(message.encode())
    oid = digest.hexdigest()
    meta = target / ".hub"
    meta.mkdir(exist_ok=True)
    with open(meta / "commits.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"oid": oid, "message": message, "files": files}) + "\n")
    tags_path = meta / "tags.json"
    tags = json.loads(tags_path.read_text()) if tags_path.is_file() else {}
    tag = tag_name(manifest["run_id"])
    tags[tag] = oid
    atomic_write_text(tags_path, json.dumps(tags, indent=1, sort_keys=True) + "\n")
    hub = {"target": "local", "repo_id": repo_id, "path": str(target.absolute()), "commit": oid, "tag": tag,
           "message": message, "files": files}
    _record(wh, manifest, layout_dir, str(target.absolute()), hub)
    return {**hub, "kind": manifest["kind"], "run_id": manifest["run_id"],
            "splits": {k: v["rows"] for k, v in manifest["splits"].items()}}
