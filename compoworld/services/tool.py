"""Tool declarations: the `@tool` decorator and the MCP-shaped `ToolSpec` derived from a signature."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, create_model

from compoworld.services.semantics import semantic_fields

ImplKind = Literal["deterministic", "world_model"]
_TOOL_MARK = "__compoworld_tool__"
_NAME = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]{0,63}$")


class ToolError(Exception):
    """A business-rule violation or a bad request the agent can fix; becomes an error observation."""

    kind = "business_rule"


class NotFoundError(ToolError):
    kind = "not_found"


class ArgumentError(ToolError):
    kind = "invalid_arguments"


@dataclass(frozen=True, slots=True)
class ToolMeta:
    read_only: bool
    destructive: bool
    idempotent: bool
    kind: ImplKind


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool | None = None,
    kind: ImplKind = "deterministic",
) -> Any:
    """Mark a service method as a tool. Reads are idempotent unless told otherwise."""

    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        setattr(f, _TOOL_MARK, ToolMeta(read_only, destructive, read_only if idempotent is None else idempotent, kind))
        return f

    return mark(fn) if fn is not None else mark


def tool_meta(fn: Any) -> ToolMeta | None:
    return getattr(fn, _TOOL_MARK, None)


Validator = Callable[[Any], dict[str, Any]]


@dataclass(slots=True)
class ToolSpec:
    """Everything known about one tool: its MCP definition and how to validate and run a call."""

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    read_only: bool
    destructive: bool
    idempotent: bool
    kind: ImplKind
    validate: Validator = field(repr=False)
    method: str = ""  # attribute name on the service instance that implements the tool
    output_validate: Validator | None = field(default=None, repr=False)
    param_semantics: dict[str, str] = field(default_factory=dict)
    output_semantics: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"invalid tool name {self.name!r}")
        self.param_semantics = self.param_semantics or semantic_fields(self.input_schema)
        self.output_semantics = self.output_semantics or semantic_fields(self.output_schema)

    @property
    def annotations(self) -> dict[str, bool]:
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
        }

    def mcp(self, name: str | None = None) -> dict[str, Any]:
        """This tool as an entry of an MCP `tools/list` response."""
        return {
            "name": name or self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": self.annotations,
            "_meta": {
                "compoworld/implementation": self.kind,
                "compoworld/param_semantics": self.param_semantics,
                "compoworld/output_semantics": self.output_semantics,
            },
        }

    def openai(self, name: str | None = None) -> dict[str, Any]:
        """This tool in OpenAI function-calling format."""
        return {
            "type": "function",
            "function": {"name": name or self.name, "description": self.description, "parameters": self.input_schema},
        }


def _doc_parts(doc: str | None) -> tuple[str, dict[str, str]]:
    """Summary and per-argument descriptions from a Google-style docstring."""
    if not doc:
        return "", {}
    text = inspect.cleandoc(doc)
    summary_lines: list[str] = []
    params: dict[str, str] = {}
    section = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in ("Args:", "Arguments:", "Parameters:"):
            section = "args"
            continue
        if stripped in ("Returns:", "Raises:"):
            section = "other"
            continue
        if section is None:
            summary_lines.append(stripped)
        elif section == "args":
            m = re.match(r"^(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", stripped)
            if m:
                params[m.group(1)] = m.group(2)
            elif params and stripped:
                last = next(reversed(params))
                params[last] += " " + stripped
    return " ".join(s for s in summary_lines if s).strip(), params


def _inline_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline local $defs so every client (OpenAI, MCP, LiteLLM) sees a self-contained schema."""
    defs = schema.pop("$defs", {})

    def resolve(node: Any, depth: int = 0) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 16:
                target = dict(defs[ref.split("/")[-1]])
                target.update({k: v for k, v in node.items() if k != "$ref"})
                return resolve(target, depth + 1)
            return {k: resolve(v, depth) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v, depth) for v in node]
        return node

    out = resolve(schema)
    out.pop("title", None)
    return out


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


_STRICT = ConfigDict(extra="forbid", strict=True)


def spec_from_function(fn: Callable[..., Any], meta: ToolMeta) -> ToolSpec:
    """Build a ToolSpec from a typed method: schema from the signature, text from the docstring."""
    sig = inspect.signature(fn)
    hints = get_type_hints(fn, include_extras=True)
    summary, arg_docs = _doc_parts(fn.__doc__)
    if not summary:
        raise ValueError(f"tool {fn.__name__} needs a docstring")
    fields: dict[str, Any] = {}
    for pname, param in sig.parameters.items():
        if pname == "self":
            continue
        if pname not in hints:
            raise TypeError(f"tool {fn.__name__}: parameter {pname} has no type annotation")
        from pydantic import Field

        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hints[pname], Field(default, description=arg_docs.get(pname)))
    args_model: type[BaseModel] = create_model(f"{fn.__name__}_args", __config__=_STRICT, **fields)
    input_schema = _strip_titles(_inline_defs(args_model.model_json_schema()))
    input_schema.setdefault("properties", {})
    input_schema["additionalProperties"] = False
    ret = hints.get("return", dict)
    out_adapter = TypeAdapter(ret)
    output_schema = _strip_titles(_inline_defs(out_adapter.json_schema()))
    fast = args_model.model_validate

    def validate(arguments: Any) -> dict[str, Any]:
        try:
            return fast(arguments).__dict__
        except ValidationError as exc:
            raise ArgumentError(_explain(exc)) from None

    def validate_output(value: Any) -> dict[str, Any]:
        try:
            out_adapter.validate_python(value, strict=False)
        except ValidationError as exc:
            raise ToolError(f"output does not match schema: {_explain(exc)}") from None
        return value

    return ToolSpec(
        name=fn.__name__,
        description=summary,
        input_schema=input_schema,
        output_schema=output_schema,
        read_only=meta.read_only,
        destructive=meta.destructive,
        idempotent=meta.idempotent,
        kind=meta.kind,
        validate=validate,
        method=fn.__name__,
        output_validate=validate_output,
    )


def _explain(exc: ValidationError) -> str:
    """A short, agent-readable account of what was wrong with the arguments."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err["loc"]) or "arguments"
        msg = err["msg"]
        if err["type"] == "missing":
            msg = "is required"
        elif err["type"] == "extra_forbidden":
            msg = "is not a parameter of this tool"
        parts.append(f"{loc}: {msg}")
    more = len(exc.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
