"""Loading MCP server specifications: the corpus shipped in the repository (`corpus/mcp`, gzip JSON
Lines, one server a line) or any file holding a common shape of MCP tool collections (`SHAPES`).

Everything read is accounted for: each server is kept, merged into an identical earlier one (a fork
or duplicate: same tool names and input schemas), or rejected with a reason; each tool of a kept
server is kept or rejected with a reason. Bad records never stop the run; input that is not there
at all (a missing path, an unreadable file, a document of no known shape) is a `UserError`.
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
from compoworld.errors import UserError
from compoworld.synthesis.naming import tool_identifier
from compoworld.synthesis.schema import SchemaProblem, documented_params, inline_refs, meta_errors, normalize_input_schema, upgrade_draft

MAX_NAME = 128  # MCP clients accept 1-128 characters; longer names are rejected, 64+ are shortened on compile
# The corpus ships in the repository, beside the package: found from this file, so a clone and an
# editable install read the same folder whatever the working directory.
SHIPPED_CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "mcp"
CORPUS_ENV = "COMPOWORLD_CORPUS_DIR"
SPEC_SUFFIXES = (".jsonl.gz", ".jsonl", ".json", ".json.gz")
SHAPES = ("a list of servers (one a line in .jsonl); an object mapping server names to servers; servers nested in groups "
          "({\"groups\": [{\"name\": ..., \"servers\": [...]}]} or {category: {server name: server}}); a tools/list result "
          "({\"tools\": [...]}) or its JSON-RPC reply ({\"jsonrpc\": \"2.0\", \"result\": {\"tools\": [...]}}); a single server "
          "({\"name\": ..., \"tools\": [...]})")


def default_corpus_dir() -> Path:
    env = os.environ.get(CORPUS_ENV)
    return Path(env) if env else SHIPPED_CORPUS


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
    """The spec files to read: those named and those in the folders named (None: the corpus).

    A path that is not there, a folder that cannot be listed or that holds no spec file is a
    `UserError`: compiling nothing would silently leave a run without its compiled services."""
    roots = [Path(p) for p in paths] if paths else [default_corpus_dir()]
    missing = [r for r in roots if not r.exists()]
    if missing:
        raise UserError(_missing_message(missing, named=bool(paths)))
    out: list[Path] = []
    for root in roots:
        if not root.is_dir():
            out.append(root)
            continue
        try:
            found = sorted(p for p in root.iterdir() if p.is_file() and p.name.endswith(SPEC_SUFFIXES))
        except OSError as exc:
            raise UserError(f"cannot list the spec folder {root} ({exc.strerror or exc}); make it readable or name another") from None
        if not found:
            raise UserError(f"{root} holds no MCP spec file ({', '.join(SPEC_SUFFIXES)}); add spec files to it or name another folder")
        out.extend(found)
    return out


def _missing_message(missing: list[Path], named: bool) -> str:
    where = ", ".join(str(p) for p in missing)
    if named:
        return (f"no spec file at {where}; name MCP spec files (.json, .jsonl, .gz) or folders that exist, "
                "or none to compile the shipped corpus")
    if os.environ.get(CORPUS_ENV):
        return (f"{CORPUS_ENV} names {where}, which does not exist; point it at a folder of MCP spec files, "
                "or unset it to compile the corpus shipped in the repository")
    return (f"the MCP spec corpus is missing: no folder at {where}; restore the repository's corpus/ folder "
            f"(git checkout -- corpus) or point {CORPUS_ENV} at a folder of spec files")


def _read_bytes(path: Path) -> tuple[bytes, str | None]:
    """File contents (decompressed), and a problem note when the file itself is damaged."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the spec file {path} ({exc.strerror or exc}); make it readable or leave it out") from None
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
    """(record key, server record or None, rejection or None) for every server a file holds.

    JSON Lines hold one document a line (a server, or any shape below); any other file is one
    document, which must have one of the `SHAPES` (else a `UserError`)."""
    data, problem = _read_bytes(path)
    fname = path.name
    stem = fname.split(".")[0]
    if problem and not data:
        yield f"{stem}", None, Rejection(server_id=stem, reason="damaged_file", detail=problem, file=fname)
        return
    text_whole = data.strip()
    is_lines = fname.endswith((".jsonl", ".jsonl.gz")) or (text_whole.count(b"\n") > 0 and text_whole[:1] == b"{" and _looks_like_lines(text_whole))
    if not is_lines:
        rec, rej = _parse(text_whole, stem, fname)
        if rej is not None:
            yield stem, None, rej
            return
        found = _servers_in(rec, stem, stem, ())
        if found is None:
            raise UserError(f"{path} is not a collection of MCP tool specifications in any shape this reads; accepted: {SHAPES}")
        for key, server in found:
            yield key, server, None
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
            continue
        # A line of no known shape is taken as a server: the loader rejects it with its reason.
        for k, server in _servers_in(rec, key, stem, ()) or [(key, rec)]:
            yield k, server, None


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


# -- shapes of tool collections ---------------------------------------------------------------

MAX_NESTING = 5  # a registry's folders of groups of servers; deeper than this is not a collection of servers
# Keys that wrap a collection rather than name a group of it (`{"groups": [...]}`, `{"data": {...}}`).
WRAPPER_KEYS = frozenset({"servers", "groups", "categories", "collections", "items", "data", "results", "registry"})


def _servers_in(node: Any, key: str, name: str, groups: tuple[str, ...], depth: int = 0) -> list[tuple[str, Any]] | None:
    """The server records a JSON value holds, with their record keys; None when it has no known shape.

    `name` names a server that does not name itself (the file, or its key in a mapping by name);
    `groups` are the names of the groups it is nested in, which become its categories."""
    if depth > MAX_NESTING:
        return None
    if isinstance(node, list):
        if node and all(_is_tool(t) for t in node):  # a bare `tools/list` array
            return [(key, _server_record({"tools": node}, name, groups))]
        per_item = [_servers_in(item, f"{key}/{i}", name, groups, depth + 1) for i, item in enumerate(node)]
        if node and all(f is None for f in per_item):
            return None
        out: list[tuple[str, Any]] = []
        for i, f in enumerate(per_item):
            # A list that holds servers: an item of no known shape is a server the loader rejects with its reason.
            out.extend(f if f is not None else [(f"{key}/{i}", node[i])])
        return out
    if not isinstance(node, dict):
        return None
    if "tools" in node:
        return [(key, _server_record(node, name, groups))]
    result = node.get("result")
    if isinstance(result, dict) and ("jsonrpc" in node or "tools" in result):  # the JSON-RPC reply to tools/list
        return _servers_in(result, key, name, groups, depth + 1)
    if isinstance(node.get("servers"), (list, dict)):  # a registry, or one group of it
        label = next((node[k] for k in ("name", "category", "title") if isinstance(node.get(k), str) and node[k].strip()), None)
        return _servers_in(node["servers"], key, name, (*groups, label.strip()) if label else groups, depth + 1)
    if any(isinstance(v, dict) and "tools" in v for v in node.values()):
        # Servers keyed by name: every object in the mapping is a server (one without tools is rejected
        # with that reason); other values are the collection's own metadata.
        return [(f"{key}/{k}", _server_record(v, k, groups)) for k, v in node.items() if isinstance(v, dict)]
    found: list[tuple[str, Any]] | None = None
    for k, v in node.items():  # groups keyed by name: {"category": {"server": {...}}}
        if not isinstance(v, (dict, list)):
            continue
        sub = _servers_in(v, f"{key}/{k}", name, groups if k in WRAPPER_KEYS else (*groups, k), depth + 1)
        if sub is not None:
            found = (found or []) + sub
    return found


def _is_tool(item: Any) -> bool:
    return isinstance(item, dict) and "tools" not in item and isinstance(item.get("name"), str) and \
        any(k in item for k in ("inputSchema", "input_schema", "parameters"))


def _server_record(rec: dict[str, Any], name: str, groups: tuple[str, ...]) -> dict[str, Any]:
    """A server record with what its place in the collection says about it: a name when it has none,
    its groups as categories when it has none, and tools keyed by name as a list."""
    out = rec
    if not _str(rec.get("name")) and not _str(rec.get("slug")):
        out = {**out, "name": name}
    if groups and not rec.get("categories"):
        out = {**out, "categories": list(groups)}
    tools = rec.get("tools")
    if isinstance(tools, dict):
        out = {**out, "tools": [{"name": n, **t} if isinstance(t, dict) else t for n, t in tools.items()]}
    return out


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
    out_schema = upgrade_draft(raw.get("outputSchema"))
    if isinstance(out_schema, dict) and meta_errors(out_schema) is None:
        try:
            out_schema = inline_refs(out_schema)
        except (SchemaProblem, RecursionError):
            out_schema = None
    else:
        out_schema = None
    desc = raw.get("description")
    desc = desc.strip() if isinstance(desc, str) else ""
    return ToolIn(name=name, ident=tool_identifier(name), description=desc, input_schema=documented_params(schema, desc),
                  output_schema=out_schema, annotations=_annotations(raw.get("annotations"))), None


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
