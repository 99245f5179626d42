"""Gateway mode: the four meta-tools (every error included), the teacher discovering its tools, the
perturbed policy's discovery mistakes, and an LLM agent that is given only the meta-tools."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from typing_extensions import TypedDict

from compoworld.rollout import LiteLLMAgent, PerturbedPolicy, ReferenceTeacher, collect, rollout, summarize
from compoworld.rollout.agents import guessed_name
from compoworld.rollout.trajectory import Trajectory
from compoworld.services import Collection, Environment, Service, ToolError, compose, tool
from compoworld.services.registry import get_service
from compoworld.services.gateway import DISCOVERY_TOOLS, META_SPECS, META_TOOLS, ONE_LINE_CHARS, Gateway, one_line
from compoworld.tasks.factory import build_env
from compoworld.tasks.model import Task
from compoworld.tasks.mutation import answer_of
from compoworld.tasks.solution import pick, resolve, taken

SERVICES = ["calendar", "crm", "email"]


def _gateway() -> Gateway:
    return Gateway(compose(SERVICES, seed=5))


def _call(g: Gateway | Environment, name: str, arguments: Any = None) -> Any:
    return g.step({"name": name, "arguments": {} if arguments is None else arguments})


def _data(obs: Any) -> Any:
    assert obs.ok, obs.content
    return json.loads(obs.content)


# -- the meta-tools ------------------------------------------------------------------------------------
def test_the_catalog_is_the_four_meta_tools() -> None:
    g = _gateway()
    assert [t["function"]["name"] for t in g.tools_openai()] == list(META_TOOLS)
    assert [t["name"] for t in g.tools_mcp()["tools"]] == list(META_TOOLS)
    params = {t["function"]["name"]: t["function"]["parameters"] for t in g.tools_openai()}
    assert params["list_services"]["properties"] == {}
    assert params["list_tools"]["required"] == ["service"] and params["describe_tool"]["required"] == ["tool"]
    assert params["call_tool"]["required"] == ["tool_name", "arguments"]
    assert params["call_tool"]["properties"]["arguments"]["type"] == "object"
    assert all(META_SPECS[n].read_only for n in DISCOVERY_TOOLS) and not META_SPECS["call_tool"].read_only


def test_list_services_and_list_tools_name_without_schemas() -> None:
    g = _gateway()
    listed = _data(_call(g, "list_services"))["services"]
    assert [s["name"] for s in listed] == SERVICES
    assert all(s["description"] and "\n" not in s["description"] for s in listed)
    specs = g.env.tool_specs()
    for service in SERVICES:
        tools = _data(_call(g, "list_tools", {"service": service}))
        expected = [g.shown[n] for n in specs if n.startswith(f"{service}__")]
        assert tools["service"] == service and list(tools["tools"]) == expected
        for name, line in tools["tools"].items():  # a one-line description, no schema
            spec = specs[g.namespaced(name)]  # type: ignore[index]
            assert isinstance(line, str) and line == one_line(spec.description) and len(line) <= ONE_LINE_CHARS


def test_tools_are_shown_by_their_own_names_unless_two_services_share_one() -> None:
    """As in the paper's trajectories: `search_companies`, not `crm__search_companies`; a name two
    mounted services share (`list_comments` of helpdesk and of projects) keeps its service. Either
    name of a tool reaches the same tool, and no two tools are shown alike."""
    g = Gateway(Environment([get_service(s) for s in ("helpdesk", "projects", "crm")], seed=0))
    assert g.shown["crm__search_companies"] == "search_companies"
    assert g.shown["helpdesk__list_comments"] == "helpdesk__list_comments" and g.shown["projects__list_comments"] == "projects__list_comments"
    assert len(set(g.shown.values())) == len(g.shown)
    for name, shown in g.shown.items():
        assert g.namespaced(shown) == g.namespaced(name) == name
        assert _data(_call(g, "describe_tool", {"tool": name}))["name"] == shown
    listed = _data(_call(g, "list_tools", {"service": "projects"}))["tools"]
    assert "projects__list_comments" in listed and "list_tasks" in listed
    by_own = _call(g, "call_tool", {"tool_name": "search_companies", "arguments": {"limit": 2}})
    by_full = _call(g, "call_tool", {"tool_name": "crm__search_companies", "arguments": {"limit": 2}})
    assert by_own.ok and by_own.content == by_full.content
    unknown = _call(g, "call_tool", {"tool_name": "search_company", "arguments": {}})
    assert unknown.error_kind == "unknown_tool" and "search_companies" in unknown.content and "list_tools" in unknown.content
    ambiguous = _call(g, "describe_tool", {"tool": "list_comments"})  # shared: its service must be said
    assert ambiguous.error_kind == "unknown_tool" and "helpdesk__list_comments" in ambiguous.content


def test_one_line_keeps_the_first_sentence_within_the_limit() -> None:
    assert one_line("Get one product by SKU.  Fails when\nit is archived.") == "Get one product by SKU."
    assert one_line("Search files, e.g. by name. Then page.") == "Search files, e.g. by name."  # no stop at e.g.
    long = "Access and manage your CRM data seamlessly with 100+ tools in our HubSpot implementation of contacts"
    assert one_line(long) == "Access and manage your CRM data seamlessly with 100+ tools in our HubSpot..."
    assert len(one_line(long)) <= ONE_LINE_CHARS and one_line("") == ""
    # a docstring's sections are no part of the summary, with or without a blank line before them
    assert one_line("Search news by keyword\n\n    Args:\n        keyword: the word") == "Search news by keyword"
    assert one_line("키워드로 뉴스 검색하기 Args: keyword: 검색할 키워드 Returns: 목록") == "키워드로 뉴스 검색하기"
    assert one_line("Args: path: a file") == "Args: path: a file"  # nothing before the section: the text itself


def test_describe_tool_gives_the_full_schema() -> None:
    g = _gateway()
    for name, spec in g.env.tool_specs().items():
        described = _data(_call(g, "describe_tool", {"tool": name}))
        assert described == {"name": g.shown[name], "description": spec.description, "input_schema": spec.input_schema,
                             "read_only": spec.read_only}


def test_call_tool_is_exactly_a_direct_call() -> None:
    """Same observation (text, error kind, simulated flag) and same state after every call, failures included."""
    g, direct = _gateway(), compose(SERVICES, seed=5)
    company = _data(_call(direct, "crm__search_companies", {"limit": 1}))["items"][0]["id"]
    _call(g, "call_tool", {"tool_name": "crm__search_companies", "arguments": {"limit": 1}})
    calls = [
        ("crm__create_contact", {"company_id": company, "name": "Zelda Quintero", "email": "zq@example.org"}),
        ("crm__create_contact", {"company_id": company, "name": "Zelda Again", "email": "zq@example.org"}),  # business rule
        ("crm__create_contact", {"company_id": company, "nickname": "Z"}),  # bad arguments
        ("crm__get_contact", {"contact_id": "ct_9999"}),  # not found
        ("crm__no_such_tool", {}),  # unknown tool
        ("nowhere__do_it", {}),  # unknown service
        ("email__search_messages", {"query": "renewal"}),
    ]
    kinds = []
    for name, args in calls:
        want = _call(direct, name, args)
        got = _call(g, "call_tool", {"tool_name": name, "arguments": args})
        assert (got.ok, got.content, got.error_kind, got.simulated) == (want.ok, want.content, want.error_kind, want.simulated)
        assert g.env.state_hash() == direct.state_hash() and g.env.ctx.clock.now() == direct.ctx.clock.now()
        kinds.append(got.error_kind)
    assert kinds == [None, "business_rule", "invalid_arguments", "not_found", "unknown_tool", "unknown_tool", None]


ERRORS = [
    # (call, error kind, text in the message)
    ({"name": "list_tools", "arguments": {"service": "nowhere"}}, "not_found", "services here: calendar, crm, email"),
    ({"name": "list_tools", "arguments": {}}, "invalid_arguments", "service: is required"),
    ({"name": "list_tools", "arguments": {"service": "crm", "page": 2}}, "invalid_arguments", "page: is not a parameter"),
    ({"name": "describe_tool", "arguments": {"tool": "crm__no_such_tool"}}, "unknown_tool", "crm has:"),
    ({"name": "describe_tool", "arguments": {"tool": "nowhere__do_it"}}, "unknown_tool", "unknown tool 'nowhere__do_it'"),
    ({"name": "call_tool", "arguments": {"tool_name": "crm__search_companies"}}, "invalid_arguments", "arguments: is required"),
    ({"name": "call_tool", "arguments": {"tool_name": "crm__search_companies", "arguments": [1]}}, "invalid_arguments",
     "arguments: Input should be a valid dictionary"),
    ({"name": "call_tool", "arguments": [1]}, "invalid_arguments", "arguments must be a JSON object"),
    ({"name": "call_tool", "arguments": '{"tool_name": '}, "malformed_call", "not valid JSON"),
    ({"arguments": {}}, "malformed_call", "no tool name"),
    ({"name": "find_tools", "arguments": {}}, "unknown_tool", "list_services, list_tools, describe_tool, call_tool"),
    ({"name": "crm__search_companies", "arguments": {}}, "unknown_tool", "run it with call_tool"),
]


@pytest.mark.parametrize("call,kind,text", ERRORS, ids=[f"{c.get('name', '?')}:{k}" for c, k, _ in ERRORS])
def test_meta_tool_errors_are_observations_that_change_nothing(call: dict[str, Any], kind: str, text: str) -> None:
    g = _gateway()
    state, now = g.env.state_hash(), g.env.ctx.clock.now()
    obs = g.step(call)
    assert not obs.ok and obs.error_kind == kind and text in (obs.error or ""), obs.content
    assert orjson.loads(obs.content) == {"error": obs.error, "kind": kind}  # the shape of a direct call's error
    assert g.env.state_hash() == state and g.env.ctx.clock.now() == now


def test_discovery_changes_nothing_and_a_call_ticks_once() -> None:
    g, direct = _gateway(), compose(SERVICES, seed=5)
    state, now = g.env.state_hash(), g.env.ctx.clock.now()
    for name, args in [("list_services", {}), ("list_tools", {"service": "crm"}), ("describe_tool", {"tool": "crm__create_company"})]:
        assert _call(g, name, args).ok
    assert g.env.state_hash() == state and g.env.ctx.clock.now() == now  # not the state, not the clock
    _call(g, "call_tool", {"tool_name": "crm__create_company", "arguments": {"name": "Tessellate Labs", "domain": "t.dev"}})
    _call(direct, "crm__create_company", {"name": "Tessellate Labs", "domain": "t.dev"})
    assert g.env.state_hash() == direct.state_hash() != state and g.env.ctx.clock.now() == direct.ctx.clock.now()


class Memo(TypedDict):
    id: str
    text: str


class Memos(Service):
    name = "gwmemos"
    description = "Memos."
    tables = {"memos": Collection(Memo, "memo", "mm")}

    @tool
    def refuse(self, text: str) -> Memo:
        """Writes a memo, then refuses (the write must roll back).

        Args:
            text: The memo.
        """
        self.db["memos"].insert({"text": text})
        raise ToolError("refused on purpose")


def test_a_failed_call_through_the_gateway_never_half_applies() -> None:
    g = Gateway(Environment([Memos], seed=1))
    before = g.env.state()
    obs = _call(g, "call_tool", {"tool_name": "gwmemos__refuse", "arguments": {"text": "never"}})
    assert not obs.ok and obs.error_kind == "business_rule" and "refused on purpose" in obs.content
    assert g.env.state() == before


# -- the reference teacher in gateway mode ------------------------------------------------------------------
# `tasks` and `classes`: the shared library tasks of conftest.py


def _calls(t: Trajectory) -> list[tuple[str, dict[str, Any]]]:
    return [(c["function"]["name"], json.loads(c["function"]["arguments"]))
            for m in t.messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]


def test_gateway_teacher_discovers_then_passes_every_criterion(tasks: list[Task], classes: dict[str, Any]) -> None:
    direct = collect(tasks, ReferenceTeacher(), group_size=1, classes=classes)
    gateway = collect(tasks, ReferenceTeacher(), group_size=1, classes=classes, discover_mode="gateway")
    assert len(gateway) >= 20
    for d, t in zip(direct, gateway):
        # The only failed calls are the refusals the request prepares for, as in direct mode.
        assert t.success and t.partial_credit == 1.0 and all(c.passed for c in t.criteria) and t.failed_calls == d.failed_calls
        assert t.discover_mode == "gateway" and t.tools == Gateway.tools_openai()
        # The service calls are the direct ones, made through call_tool: same final state, same score.
        gw = Gateway(build_env(next(x for x in tasks if x.id == t.task_id), classes))
        assert [(gw.namespaced(a["tool_name"]), a["arguments"]) for n, a in _calls(t) if n == "call_tool"] == _calls(d)
        assert t.final_state_hash == d.final_state_hash
        assert t.id != d.id and t.group_id != d.group_id and t.id == t.content_id()
        # Discovery as a careful agent does it: services listed once, first; a service's tools listed
        # before its first tool is used; each tool described once, before its first call.
        calls = _calls(t)
        assert calls[0] == ("list_services", {}) and sum(n == "list_services" for n, _ in calls) == 1
        listed: set[str] = set()
        described: set[str] = set()
        for name, args in calls:
            if name == "list_tools":
                assert args["service"] not in listed
                listed.add(args["service"])
            elif name == "describe_tool":
                assert args["tool"] not in described and gw.namespaced(args["tool"]).split("__")[0] in listed  # type: ignore[union-attr]
                described.add(args["tool"])
            elif name == "call_tool":
                assert args["tool_name"] in described
        assert t.discovery_calls == 1 + len(listed) + len(described) == t.steps - d.steps
        assert all(m["content"] for m in t.messages if m["role"] == "assistant")  # a reason before every call


def test_discovery_share_is_in_the_summary(tasks: list[Task], classes: dict[str, Any]) -> None:
    gateway = collect(tasks[:10], ReferenceTeacher(), group_size=2, classes=classes, discover_mode="gateway")
    summary = summarize(gateway)
    assert summary["discovery_calls"] == sum(t.discovery_calls for t in gateway) > 0
    assert summary["discovery_share"] == round(summary["discovery_calls"] / summary["steps"], 4)
    assert 0.3 < summary["discovery_share"] < 0.7 and summary["success_rate"] == 1.0
    direct = summarize(collect(tasks[:2], ReferenceTeacher(), group_size=1, classes=classes))
    assert direct["discovery_calls"] == 0 and direct["discovery_share"] == 0.0


# -- the perturbed policy's discovery mistakes ---------------------------------------------------------------
def test_perturbed_makes_seeded_discovery_mistakes_and_recovers(tasks: list[Task], classes: dict[str, Any]) -> None:
    policy = PerturbedPolicy(seed=0)
    direct = collect(tasks[:20], policy, group_size=8, classes=classes)
    gateway = collect(tasks[:20], policy, group_size=8, classes=classes, discover_mode="gateway")
    assert [t.id for t in gateway] == [t.id for t in collect(tasks[:20], policy, group_size=8, classes=classes,
                                                                 discover_mode="gateway")]
    assert all("discovery_mistakes" not in t.meta for t in direct)  # direct rollouts are as they were
    kinds: set[str] = set()
    for d, t in zip(direct, gateway):
        slips = t.meta["discovery_mistakes"]
        assert {k: v for k, v in t.meta.items() if k != "discovery_mistakes"} == d.meta  # the same plan mistakes
        # Each slip is one failed call the agent then recovers from: the credit is the direct rollout's.
        assert t.failed_calls == d.failed_calls + len(slips), (t.task_id, slips, t.call_errors, _calls(t))
        assert t.partial_credit == d.partial_credit and t.success == d.success
        calls = _calls(t)
        errors = [(calls[i], kind) for i, kind in enumerate(t.call_errors) if kind is not None]
        for slip in slips:
            kinds.add(slip["kind"])
            if slip["kind"] == "wrong_service":
                assert any(n == "call_tool" and a["tool_name"].split("__")[0] == slip["detail"] and k == "unknown_tool"
                           for (n, a), k in errors)
            else:
                assert any(n == "call_tool" and k == "invalid_arguments" and slip["detail"] not in a["arguments"]
                           for (n, a), k in errors)
    assert kinds == {"wrong_service", "guess_argument"}
    groups: dict[str, set[float]] = {}
    for t in gateway:
        groups.setdefault(t.group_id, set()).add(t.partial_credit)
    assert sum(len(v) > 1 for v in groups.values()) >= 16  # partial credit still spreads within groups


def test_a_guessed_argument_is_called_before_its_tool_is_described(tasks: list[Task], classes: dict[str, Any]) -> None:
    t = next(t for t in collect(tasks[:20], PerturbedPolicy(seed=0), group_size=8, classes=classes, discover_mode="gateway")
             if any(s["kind"] == "guess_argument" for s in t.meta["discovery_mistakes"]))
    calls = _calls(t)
    # the guess's failed call (a plan mistake, such as an argument a skipped lookup left empty, may fail before it)
    slip = next(s for s in t.meta["discovery_mistakes"] if s["kind"] == "guess_argument")
    i = next(i for i, (n, a) in enumerate(calls) if n == "call_tool" and t.call_errors[i] == "invalid_arguments"
             and guessed_name(slip["detail"], a["tool_name"]) in a["arguments"])
    name, args = calls[i]
    tool = args["tool_name"]
    assert name == "call_tool" and ("describe_tool", {"tool": tool}) not in calls[:i]
    assert calls[i + 1] == ("describe_tool", {"tool": tool}) and calls[i + 2][1]["tool_name"] == tool
    assert guessed_name("contact_id", "crm__get_contact") == "contactId"
    assert guessed_name("email", "crm__create_contact") == "contact_email"
    assert guessed_name("query", "crm__search_companies") == "company_query"


# -- an LLM agent is given only the meta-tools ---------------------------------------------------------------
class GatewayScript:
    """A model that lists the services, then plays the plan through call_tool (LiteLLM mocks, offline)."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.bindings: dict[str, Any] = {}
        self.plan = taken(task.plan, task.bindings)  # the branches the task's values lead to

    def __call__(self, turn: int, messages: list[dict[str, Any]]) -> dict[str, Any]:
        if turn == 0:
            return {"mock_response": "What is here?", "mock_tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "list_services", "arguments": "{}"}}]}
        i = turn - 1
        if i > 0:
            data = json.loads(messages[-1]["content"])
            for ex in self.plan[i - 1].extract:
                self.bindings[ex.var] = pick(data, ex, self.bindings)
        if i == len(self.plan):
            return {"mock_response": "All done.\n" + answer_of(self.task, self.bindings)}
        step = self.plan[i]
        args = json.dumps({"tool_name": step.tool, "arguments": resolve(step.arguments, self.bindings)})
        return {"mock_response": step.reasoning, "mock_tool_calls": [
            {"id": "b", "type": "function", "function": {"name": "call_tool", "arguments": args}}]}


def test_litellm_agent_in_gateway_mode_is_given_only_the_meta_tools(tasks: list[Task], classes: dict[str, Any],
                                                                    tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import litellm

    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path))
    sent: list[dict[str, Any]] = []
    real = litellm.completion

    def recording(**kwargs: Any) -> Any:
        sent.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(litellm, "completion", recording)
    task = tasks[0]
    t = rollout(task, LiteLLMAgent("openai/mock-model", turn_kwargs=GatewayScript(task)), classes, discover_mode="gateway")
    assert all([tool["function"]["name"] for tool in s["tools"]] == list(META_TOOLS) for s in sent)
    refused = sum(s.expect_error for s in taken(task.plan, task.bindings))  # refusals the request prepares for
    assert t.success and t.discover_mode == "gateway" and t.discovery_calls == 1 and t.failed_calls == refused
