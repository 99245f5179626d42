"""Compiling a server spec into a `Service` subclass: infer a plan, then build the class from it.

Building from a plan is cheap: no validator is compiled until a tool is first called, and (as for
every service) the pydantic state model is built on first use. A class loaded from the cache is
cheaper still: it knows its name, version and sizes from the cache index, and parses its plan only
when an environment first uses it - which is what lets `load_compiled` return a thousand services at once.
"""

from __future__ import annotations

from typing import Any, Callable

from typing_extensions import Required, TypedDict

from compoworld.services.json_schema import json_types
from compoworld.services.service import Collection
from compoworld.synthesis.loader import ServerSpec
from compoworld.synthesis.naming import sha1_tag
from compoworld.synthesis.plan import EntityPlan, ParamPlan, ServicePlan, ToolPlan
from compoworld.synthesis.runtime import CompiledService, make_method, tool_spec
from compoworld.synthesis.shapes import SIMULATION_FIELDS
from compoworld.synthesis.world_model import output_shape

_PLAN_ATTRS = ("plan", "_tools", "_ents", "tables", "_specs")


def _py_type(shape: dict[str, Any]) -> Any:
    types = [t for t in json_types(shape) if t != "null"]
    if len(types) != 1:
        return Any
    return {"string": str, "integer": int, "number": int | float, "boolean": bool, "array": list, "object": dict}.get(types[0], Any)


def record_type(e: EntityPlan, service: str) -> Any:
    fields: dict[str, Any] = {}
    for f in e.fields:
        t = _py_type(f.shape)
        fields[f.name] = Required[str] if f.role == "id" else (t | None if t is not Any else Any)
    return TypedDict(f"{_camel(service)}{_camel(e.entity)}", fields, total=False)  # type: ignore[operator]


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p) or "Service"


class _LazyPlan:
    """A plan attribute of a cached class: parses the plan on first access, then steps aside."""

    def __init__(self, attr: str) -> None:
        self.attr = attr

    def __get__(self, obj: Any, owner: type[CompiledService]) -> Any:
        loader: Callable[[], ServicePlan] = owner.__dict__["_plan_loader"]
        _install(owner, loader())
        return owner.__dict__[self.attr]


def _install(cls: type[CompiledService], plan: ServicePlan) -> None:
    """Give a class everything its plan defines (after creation: `Service.__init_subclass__` sets
    `_specs` from the class's own `@tool` methods, and a compiled class has none)."""
    for attr, value in (
        ("plan", plan),
        ("_tools", {t.name: t for t in plan.tools}),
        ("_ents", {e.collection: e for e in plan.entities}),
        ("tables", {e.collection: Collection(record_type(e, plan.name), e.entity, e.prefix) for e in plan.entities}),
        ("_specs", {t.name: tool_spec(t) for t in plan.tools}),
    ):
        type.__setattr__(cls, attr, value)
    for t in plan.tools:
        type.__setattr__(cls, f"tool_{t.name}", make_method(t.name))


def _new_class(name: str, ns: dict[str, Any]) -> type[CompiledService]:
    base = {"__module__": "compoworld.synthesis.compiled", "name": name}
    return type(_camel(name), (CompiledService,), {**base, **ns})  # type: ignore[return-value]


def build_service(plan: ServicePlan, *, verified: bool | None = None, synthesis: str = "compiler") -> type[CompiledService]:
    """A `Service` subclass that runs `plan`."""
    cls = _new_class(plan.name, {"__doc__": plan.description, "version": plan.version, "domain": plan.domain,
                                 "description": plan.description, "verified": verified, "synthesis": synthesis})
    _install(cls, plan)
    return cls


def lazy_service(meta: dict[str, Any], loader: Callable[[], ServicePlan]) -> type[CompiledService]:
    """A class that knows `meta` (name, version, domain, description, n_tools, n_world_model,
    verified) now and loads its plan through `loader` when first used."""
    cls = _new_class(meta["name"], {"__doc__": meta.get("description", ""), "version": meta["version"],
                                    "domain": meta.get("domain", "operations"), "description": meta.get("description", ""),
                                    "verified": meta.get("verified"), "synthesis": meta.get("synthesis", "compiler"),
                                    "_meta": dict(meta)})
    type.__setattr__(cls, "_plan_loader", loader)
    for attr in _PLAN_ATTRS:
        type.__setattr__(cls, attr, _LazyPlan(attr))
    return cls


def as_world_model(plan: ServicePlan, tools: set[str]) -> ServicePlan:
    """`plan` with `tools` served by the world model: what a tool that failed its fidelity checks
    becomes, rather than a deterministic tool that pretends."""
    out = plan.model_copy(deep=True)
    demoted = [t for t in out.tools if t.name in tools and t.op != "world_model"]
    _drop_orphan_fields(out, demoted)
    for t in demoted:
        t.op, t.collection, t.compute, t.target_status, t.many = "world_model", None, None, None, False
        t.params = [ParamPlan(name=p.name, role="arg") for p in t.params]
        t.read_only, t.destructive, t.idempotent = False, False, True
        t.output_schema = output_shape(t)
    if not any(e.collection == "simulations" for e in out.entities):
        out.entities.append(EntityPlan(collection="simulations", entity="simulation", prefix="sim", fields=list(SIMULATION_FIELDS), size=0))
    out.version = "1." + sha1_tag(out.model_copy(update={"version": "1.0"}).model_dump_json(), 10)
    return out


def _drop_orphan_fields(plan: ServicePlan, demoted: list[ToolPlan]) -> None:
    """Record fields that only the demoted tools' arguments gave (`edit_file`'s `edits` on a file):
    once those tools are simulated no tool sets them, so the records stop carrying them."""
    from compoworld.synthesis.shapes import output_schema

    kept = [t for t in plan.tools if all(t is not d for d in demoted)]
    used = {(t.collection, p.field) for t in kept for p in t.params if p.field}
    for d in demoted:
        e = plan.entity(d.collection)
        if e is None:
            continue
        orphans = {p.field for p in d.params if p.role == "field" and p.field and (d.collection, p.field) not in used
                   and (f := e.field(p.field)) is not None and f.role == "data" and p.field not in ("name", "title")}  # a record keeps its name
        if orphans:
            e.fields = [f for f in e.fields if f.name not in orphans]
            for t in kept:
                if t.collection == e.collection:
                    t.output_schema = output_schema(t, e, plan.name)


def compile_server(server: ServerSpec, name: str) -> tuple[ServicePlan, type[CompiledService]]:
    from compoworld.synthesis.infer import infer_plan

    plan = infer_plan(server, name)
    return plan, build_service(plan)
