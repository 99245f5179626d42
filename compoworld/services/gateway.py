"""Gateway mode: an environment seen through four meta-tools instead of its whole catalog.

An agent in direct mode is given every namespaced tool schema up front (100+ for a task's ten
services). Through the gateway it is given four tools and discovers the rest, as in the paper's
released trajectories: `list_services()` names the mounted services, `list_tools(service)` gives
their tools' names and one-line descriptions (no schema), `describe_tool(tool)` gives one tool's full
schema, and `call_tool(tool_name, arguments)` runs it.

Tools are listed, described and called by their own names (`search_posts`, not
`discourse__search_posts`), as in the paper's trajectories; a name two mounted services share is
qualified with its service (`crm__list_notes`), and the qualified name of any tool is accepted too.

`Gateway.step` keeps `Environment.step`'s contract: it never raises and a failed call changes
nothing. Discovery only reads the catalog, so it neither changes the state nor ticks the clock;
`call_tool` is exactly one `Environment.step` of the named tool (same state change, same
observation, errors included), so the state a gateway episode reaches, and its score, are those of
the same service calls made directly.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Any, ClassVar

import orjson
from typing_extensions import TypedDict  # pydantic needs it for TypedDicts on Python < 3.12

from compoworld.services.environment import (
    DISCOVER_MODES,
    SEP,
    CallFormatError,
    DiscoverMode,
    Environment,
    Observation,
    error_observation,
    parse_call,
    require_object,
)
from compoworld.services.tool import NotFoundError, ToolError, ToolSpec, spec_from_function, tool, tool_meta

__all__ = ["DISCOVERY_TOOLS", "DISCOVER_MODES", "META_TOOLS", "DiscoverMode", "Gateway", "surface"]

META_TOOLS = ("list_services", "list_tools", "describe_tool", "call_tool")
# The meta-tools that only discover; call_tool is the one that runs a service tool.
DISCOVERY_TOOLS = frozenset({"list_services", "list_tools", "describe_tool"})


class UnknownToolError(ToolError):
    kind = "unknown_tool"  # what a direct call of a tool that does not exist reports


class ServiceEntry(TypedDict):
    name: str
    description: str


class ServiceList(TypedDict):
    services: list[ServiceEntry]


class ToolList(TypedDict):
    service: str
    tools: dict[str, str]  # tool name as the gateway shows it -> one-line description


class ToolDescription(TypedDict):
    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool


ONE_LINE_CHARS = 80
_SENTENCE_END = re.compile(r"[.!?](?= [A-Z])")
_PARAGRAPH = re.compile(r"\n\s*\n")
_DOC_SECTION = re.compile(r"\b(?:Args|Arguments|Parameters|Params|Returns|Raises|Examples?|Usage):")


def one_line(text: str, limit: int = ONE_LINE_CHARS) -> str:
    """The first sentence of `text` on one line, cut at a word within `limit` characters: listings name
    what each entry is for (many compiled descriptions run to a paragraph of setup notes, or to a
    docstring's `Args:` section), and describe_tool gives the whole text."""
    summary = _PARAGRAPH.split(text.strip(), 1)[0]
    flat = " ".join(_DOC_SECTION.split(summary, 1)[0].split()) or " ".join(text.split())
    end = _SENTENCE_END.search(flat)  # a stop before a capital: "e.g. by name" goes on
    first = flat[:end.start() + 1] if end else flat
    if len(first) <= limit:
        return first
    return first[:limit - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."


class Gateway:
    """`env` behind the four meta-tools. Agents, the MCP server and the TRL adapter use it where they
    would use the environment: `step`, `tool_specs`, `tools_openai`, `tools_mcp`."""

    discover_mode: ClassVar[DiscoverMode] = "gateway"

    def __init__(self, env: Environment) -> None:
        self.env = env
        own = Counter(name.partition(SEP)[2] for name in env.tool_specs())
        # The name each tool is shown by: its own, unless another mounted service has a tool of that name.
        self.shown: dict[str, str] = {name: bare if own[bare] == 1 and SEP not in bare else name
                                      for name in env.tool_specs() for bare in [name.partition(SEP)[2]]}
        self._namespaced = {shown: name for name, shown in self.shown.items()} | {name: name for name in self.shown}

    def namespaced(self, tool: str) -> str | None:
        """The environment's name of a tool named as the gateway shows it (or already namespaced)."""
        return self._namespaced.get(tool)

    def unknown_tool_message(self, tool: str) -> str:
        """Why `tool` names no tool here, with the names an agent probably meant."""
        if SEP in tool:  # a qualified name: what a direct call of it answers
            return self.env.unknown_tool_message(tool)
        names = list(self.shown.values())
        near = sorted({n for n in names if tool in n or n.rpartition(SEP)[2] in tool}
                      | set(difflib.get_close_matches(tool, names, 5, 0.8))) if tool else []
        hint = f" Tools like it: {', '.join(near[:5])}." if near else ""
        return f"unknown tool '{tool}'.{hint} list_tools(service) names a service's tools; services here: {', '.join(self.env.services)}."

    # -- the meta-tools (their docstrings and signatures are what the agent is shown) -------------
    @tool(read_only=True)
    def list_services(self) -> ServiceList:
        """List the services mounted in this environment, each with a one-line description. Start here."""
        return {"services": [{"name": name, "description": one_line(type(svc).description)}
                             for name, svc in self.env.services.items()]}

    @tool(read_only=True)
    def list_tools(self, service: str) -> ToolList:
        """List a service's tools: each tool's name with a one-line description, without its schema.

        Args:
            service: a service name from list_services
        """
        if service not in self.env.services:
            raise NotFoundError(f"no service '{service}'; services here: {', '.join(self.env.services)}")
        prefix = f"{service}{SEP}"
        return {"service": service, "tools": {self.shown[name]: one_line(spec.description)
                                              for name, spec in self.env.tool_specs().items() if name.startswith(prefix)}}

    @tool(read_only=True)
    def describe_tool(self, tool: str) -> ToolDescription:
        """Describe one tool: its description, the JSON schema of its arguments, and whether it only reads.

        Args:
            tool: a tool name from list_tools
        """
        name = self.namespaced(tool)
        if name is None:
            raise UnknownToolError(self.unknown_tool_message(tool))
        spec = self.env.tool_specs()[name]
        return {"name": self.shown[name], "description": spec.description, "input_schema": spec.input_schema,
                "read_only": spec.read_only}

    @tool(destructive=True)
    def call_tool(self, tool_name: str, arguments: dict[str, Any]) -> Any:
        """Run one tool of a service with its arguments; returns that tool's result.

        Args:
            tool_name: a tool name from list_tools
            arguments: the tool's arguments as a JSON object, as describe_tool's input_schema says ({} for none)
        """
        name = self.namespaced(tool_name)
        if name is None:  # what a direct call of an unknown tool answers (nothing ran, no time passed)
            return error_observation(tool_name, self.unknown_tool_message(tool_name), "unknown_tool")
        # The observation of the service tool itself: errors, state change and text are a direct call's.
        return self.env.step({"name": name, "arguments": arguments})

    # -- the one path every call takes ------------------------------------------------------------
    def step(self, call: Any) -> Observation:
        """Run one meta-tool call. Never raises; discovery changes nothing, a failed call changes nothing."""
        try:
            name, args = parse_call(call)
        except CallFormatError as exc:
            return error_observation("?", str(exc), "malformed_call")
        spec = META_SPECS.get(name)
        if spec is None:
            return error_observation(name, self._not_a_meta_tool(name), "unknown_tool")
        try:
            kwargs = spec.validate(require_object(args))
            if name == "call_tool":
                obs: Observation = self.call_tool(**kwargs)
                return obs
            result = getattr(self, spec.method)(**kwargs)
            content = orjson.dumps(result).decode()
        except ToolError as exc:
            return error_observation(name, str(exc), exc.kind)
        except Exception as exc:  # a defect here must not crash the episode (discovery writes nothing to undo)
            return error_observation(name, f"the tool failed internally and changed nothing ({exc})", "internal_error")
        return Observation(name, True, content, result)

    def _not_a_meta_tool(self, name: str) -> str:
        tool = self.namespaced(name)
        if tool is not None:
            return (f"'{name}' is not called directly here: run it with call_tool(tool_name='{self.shown[tool]}', arguments={{...}}) "
                    "after describe_tool shows its arguments.")
        return f"unknown tool '{name}'. The tools here are {', '.join(META_TOOLS)}; start with list_services."

    # -- catalogs: the four meta-tools, whatever the services --------------------------------------
    @staticmethod
    def tool_specs() -> dict[str, ToolSpec]:
        return META_SPECS

    @staticmethod
    def tools_openai() -> list[dict[str, Any]]:
        return META_OPENAI

    @staticmethod
    def tools_mcp() -> dict[str, Any]:
        return {"tools": [spec.mcp() for spec in META_SPECS.values()]}


def _meta_spec(name: str) -> ToolSpec:
    fn = getattr(Gateway, name)
    meta = tool_meta(fn)
    assert meta is not None, name
    return spec_from_function(fn, meta)


META_SPECS: dict[str, ToolSpec] = {name: _meta_spec(name) for name in META_TOOLS}
META_OPENAI: list[dict[str, Any]] = [spec.openai() for spec in META_SPECS.values()]


def surface(env: Environment, discover_mode: DiscoverMode) -> Environment | Gateway:
    """What an agent acts on in this mode: the environment itself, or the gateway in front of it."""
    return Gateway(env) if discover_mode == "gateway" else env
