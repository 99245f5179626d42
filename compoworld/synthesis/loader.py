"""Loading MCP server specifications: the shipped corpus (gzip JSON Lines, one server a line), any
file in that shape, or a plain MCP `tools/list` JSON response.

Everything read is accounted for: each server is kept, merged into an identical earlier one (a fork
or duplicate: same tool names and input schemas), or rejected with a reason; each tool of a kept
server is kept or rejected with a reason. Bad input never stops the run.
"""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path
from typing import Any, Iterator

import orjson
from pydantic import BaseModel, Field

from compoworld.canonical import canonical_bytes
from compoworld.synthesis.naming import tool_identifier
from compoworld.synthesis.schema import SchemaProblem, meta_errors, normalize_input_schema

MAX_NAME = 128  # MCP clients accept 1-128 characters; longer names are rejected, 64+ are shortened on compile
REPO_ROOT = Path(__file__).resolve().parents[2]


def default_corpus_dir() -> Path:
    env = os.environ.get("COMPOWORLD_CORPUS_DIR")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "corpus" / "mcp"


class ToolIn(BaseModel):
    """One usable tool as declared by its server (schemas normalized, refs inlined)."""

    name: str  # as declared
    ident: str  # identifier-safe form of the name
    description: str = ""
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] = Field(default_factory=dict)


class ServerSpec(BaseModel):
    id: str
    source: str
    name: str
    slug: str = ""
    description: str = ""
    categories: list[str] = Field(default_factory=list)
    license: str = ""
    repository: str = ""
    file: str = ""
    tools: list[ToolIn]
    forks: list[str] = Field(default_factory=list)  # ids of identical servers merged into this one
    tools_declared: int = 0


class Rejection(BaseModel):
    """Why a server (tool=None) or one tool of a server was not used."""

    server_id: str
    server: str = ""
    tool: str | None = None
    reason: str
    detail: str = ""
    file: str = ""


class Duplicate(BaseModel):
    server_id: str
    duplicate_of: str
    tools: int


class LoadResult(BaseModel):
    files: list[str]
    servers_in: int = 0
    tools_in: int = 0
    servers: list[ServerSpec] = Field(default_factory=list)
    duplicates: list[Duplicate] = Field(default_factory=list)
    rejections: list[Rejection] = Field(default_factory=list)

    @property
    def servers_unique(self) -> int:
        return self.servers_in - len(self.duplicates)

    @property
    def tools_unique(self) -> int:
        return self.tools_in - sum(d.tools for d in self.duplicates)

    @property
    def servers_rejected(self) -> int:
        return sum(1 for r in self.rejections if r.tool is None)


# -- reading files ----------------------------------------------------------------------------

def spec_files(paths: list[Path] | None) -> list[Path]:
    roots = [default_corpus_dir()] if not paths else [Path(p) for p in paths]
    out: list[Path] = []
    for root in roots:
        if root.is_dir():
            out.extend(sorted(p for p in root.iterdir() if p.is_file() and p.name.endswith((".jsonl.gz", ".jsonl", ".json", ".json.gz"))))
        else:
            out.append(root)
    return out


def _read_bytes(path: Path) -> tuple[bytes, str | None]:
    """File contents (decompressed), and a problem note when the file itself is damaged."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return b"", f"unreadable file: {exc}"
    if not (path.name.endswith(".gz") or raw[:2] == b"\x1f\x8b"):
        return raw, None
    try:
        return gzip.decompress(raw), None
    except (EOFError, OSError, zlib.error) as exc:
        # A truncated archive: keep every complete line that did decompress.
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            part = d.decompress(raw)
        except zlib.error:
            part = b""
        return part, f"damaged gzip ({type(exc).__name__}: {exc}); read {len(part)} bytes before the damage"


def _records(path: Path) -> Iterator[tuple[str, Any, Rejection | None]]:
    """(record key, parsed record or None, rejection or None) for every record in a file."""
    data, problem = _read_bytes(path)
    fname = path.name
    stem = fname.split(".")[0]
    if problem and not data:
        yield f"{stem}", None, Rejection(server_id=stem, reason="unreadable_file", detail=problem, file=fname)
        return
    text_whole = data.strip()
    is_lines = fname.endswith((".jsonl", ".jsonl.gz")) or (text_whole.count(b"\n") > 0 and text_whole[:1] == b"{" and _looks_like_lines(text_whole))
    if not is_lines:
        rec, rej = _parse(text_whole, stem, fname)
        if rej is not None:
            yield stem, None, rej
            return
        for i, item in enumerate(_expand_document(rec, stem)):
            yield f"{stem}/{i}", item, None
        return
    lines = data.split(b"\n")
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        key = f"{stem}:{i + 1}"
        rec, rej = _parse(line, key, fname)
        if rej is not None and problem and i == last:
            rej.detail += f" ({problem})"
        if rej is not None:
            yield key, None, rej
        else:
            for j, item in enumerate(_expand_document(rec, key)):
                yield key if j == 0 else f"{key}/{j}", item, None


def _looks_like_lines(text: bytes) -> bool:
    first = text.split(b"\n", 1)[0]
    try:
        orjson.loads(first)
        return True
    except orjson.JSONDecodeError:
        return False


def _parse(blob: bytes, key: str, fname: str) -> tuple[Any, Rejection | None]:
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, Rejection(server_id=key, reason="non_utf8", detail=f"invalid UTF-8 at byte {exc.start}: {blob[exc.start:exc.start + 8]!r}", file=fname)
    try:
        return orjson.loads(text), None
    except orjson.JSONDecodeError as exc:
        pos = getattr(exc, "pos", 0) or 0
        truncated = pos >= len(text.rstrip()) - 1 or "end of data" in str(exc) or "unexpected end" in str(exc).lower()
        return None, Rejection(server_id=key, reason="truncated_json" if truncated else "invalid_json", detail=str(exc)[:200], file=fname)


def _expand_document(rec: Any, key: str) -> list[Any]:
    """A parsed document -> server records: a server, a list of servers, or a `tools/list` response."""
    if isinstance(rec, list):
        return rec
    if isinstance(rec, dict) and isinstance(rec.get("servers"), list) and "tools" not in rec:
        return rec["servers"]  # a registry dump: {"servers": [...]}
    if isinstance(rec, dict) and isinstance(rec.get("result"), dict) and "tools" in rec["result"]:
        rec = {**rec["result"], "name": rec.get("name") or key}  # JSON-RPC envelope of tools/list
    if isinstance(rec, dict) and "tools" in rec and "name" not in rec and "id" not in rec:
        return [{**rec, "name": key.split("/")[-1].split(":")[0], "id": key}]
    return [rec]


# -- normalizing ------------------------------------------------------------------------------

def _str(v: Any) -> str:
    return v.strip() if isinstance(v, str) else ""


def _annotations(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    for k in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
        if isinstance(raw.get(k), bool):
            out[k] = raw[k]
    if isinstance(raw.get("title"), str):
        out["title"] = raw["title"]
    return out


def _tools_key(tools: list[Any]) -> bytes:
    """Identity of a server for deduplication: its set of (name, input schema)."""
    items = sorted(canonical_bytes([t.get("name"), t.get("inputSchema", t.get("input_schema"))]) if isinstance(t, dict) else canonical_bytes(t) for t in tools)
    return b"\n".join(items)


def _normalize_tool(raw: Any, idx: int) -> tuple[ToolIn | None, tuple[str, str, str] | None]:
    """A usable tool, or (tool label, reason, detail)."""
    if not isinstance(raw, dict):
        return None, (f"#{idx}", "invalid_tool", f"a tool must be an object, got {type(raw).__name__}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        return None, (f"#{idx}", "missing_name", "the tool has no name")
    name = name.strip()
    label = name if len(name) <= 80 else name[:60] + f"...({len(name)} chars)"
    if len(name) > MAX_NAME:
        return None, (label, "overlong_name", f"name has {len(name)} characters (limit {MAX_NAME})")
    if not any(ch.isalnum() for ch in name) or not name.isprintable():
        return None, (label, "invalid_name", "the name has no letters or digits, or has control characters")
    raw_schema = raw.get("inputSchema", raw.get("input_schema", raw.get("parameters")))
    try:
        schema = normalize_input_schema(raw_schema)
    except SchemaProblem as exc:
        return None, (label, exc.code, exc.detail)
    except RecursionError:
        return None, (label, "schema_too_large", "schema nesting is too deep")
    out_schema = raw.get("outputSchema")
    if isinstance(out_schema, dict) and meta_errors(out_schema) is None:
        try:
            from compoworld.synthesis.schema import inline_refs

            out_schema = inline_refs(out_schema)
        except (SchemaProblem, RecursionError):
            out_schema = None
    else:
        out_schema = None
    desc = raw.get("description")
    return ToolIn(name=name, ident=tool_identifier(name), description=desc.strip() if isinstance(desc, str) else "",
                  input_schema=schema, output_schema=out_schema, annotations=_annotations(raw.get("annotations"))), None


def _server(rec: Any, key: str, fname: str) -> tuple[ServerSpec | None, list[Rejection]]:
    if not isinstance(rec, dict):
        return None, [Rejection(server_id=key, reason="invalid_server", detail=f"a server must be an object, got {type(rec).__name__}", file=fname)]
    sid = _str(rec.get("id")) or key
    name = _str(rec.get("name")) or _str(rec.get("slug")) or sid
    tools = rec.get("tools")
    if not isinstance(tools, list):
        return None, [Rejection(server_id=sid, server=name, reason="no_tools" if tools is None else "invalid_tools",
                                detail="the server lists no tools" if tools is None else "tools is not a list", file=fname)]
    if not tools:
        return None, [Rejection(server_id=sid, server=name, reason="no_tools", detail="the server lists no tools", file=fname)]
    rejections: list[Rejection] = []
    kept: list[ToolIn] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(tools):
        tool, bad = _normalize_tool(raw, i)
        if bad is not None:
            rejections.append(Rejection(server_id=sid, server=name, tool=bad[0], reason=bad[1], detail=bad[2], file=fname))
            continue
        assert tool is not None
        clash = tool.ident.lower()
        if clash in seen:
            rejections.append(Rejection(server_id=sid, server=name, tool=tool.name, reason="name_collision",
                                        detail=f"another tool of this server is already named {seen[clash]!r}", file=fname))
            continue
        seen[clash] = tool.name
        kept.append(tool)
    cats = rec.get("categories")
    spec = ServerSpec(
        id=sid, source=_str(rec.get("source")) or fname.split(".")[0], name=name, slug=_str(rec.get("slug")),
        description=_str(rec.get("description")), categories=[c for c in cats if isinstance(c, str)] if isinstance(cats, list) else [],
        license=_str(rec.get("license")), repository=_str(rec.get("repository")), file=fname, tools=kept, tools_declared=len(tools),
    )
    if not kept:
        rejections.append(Rejection(server_id=sid, server=name, reason="no_valid_tools",
                                    detail=f"all {len(tools)} tools were rejected", file=fname))
        return None, rejections
    return spec, rejections


def load_specs(paths: list[Path] | None = None) -> LoadResult:
    """Read, normalize and deduplicate server specifications (None: the shipped corpus)."""
    files = spec_files(paths)
    result = LoadResult(files=[str(f) for f in files])
    first_by_key: dict[bytes, ServerSpec | str] = {}
    for path in files:
        for key, rec, rej in _records(path):
            result.servers_in += 1
            if rej is not None:
                result.rejections.append(rej)
                continue
            tools = rec.get("tools") if isinstance(rec, dict) else None
            n_tools = len(tools) if isinstance(tools, list) else 0
            result.tools_in += n_tools
            if isinstance(tools, list) and tools:
                dkey = _tools_key(tools)
                first = first_by_key.get(dkey)
                if first is not None:
                    sid = _str(rec.get("id")) or key
                    first_id = first if isinstance(first, str) else first.id
                    result.duplicates.append(Duplicate(server_id=sid, duplicate_of=first_id, tools=n_tools))
                    if isinstance(first, ServerSpec):
                        first.forks.append(sid)
                    continue
            spec, rejections = _server(rec, key, path.name)
            result.rejections.extend(rejections)
            if isinstance(tools, list) and tools:
                first_by_key[_tools_key(tools)] = spec if spec is not None else (_str(rec.get("id")) or key)
            if spec is not None:
                result.servers.append(spec)
    return result
