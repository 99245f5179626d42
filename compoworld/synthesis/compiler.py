"""Compiling a server spec into a `Service` subclass: infer a plan, then build the class from it.

Building from a plan is cheap (no validator is compiled until a tool is first called, and the
pydantic state model is built on first use), which is what lets the cache load hundreds of
services in a fraction of a second."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, create_model
from typing_extensions import Required, TypedDict

from compoworld.synthesis.loader import ServerSpec
from compoworld.synthesis.plan import EntityPlan, ServicePlan
from compoworld.synthesis.runtime import CompiledService, make_method, tool_spec
from compoworld.synthesis.schema import json_types


def _py_type(shape: dict[str, Any]) -> Any:
    types = [t for t in json_types(shape) if t != "null"]
    if len(types) != 1:
        return Any
    return {"string": str, "integer": int, "number": int | float, "boolean": bool, "array": list, "object": dict}.get(types[0], Any)


def record_type(e: EntityPlan, service: str) -> Any:
    fields: dict[str, Any] = {}
    for f in e.fields:
        fields[f.name] = Required[str] if f.role == "id" else (_py_type(f.shape) | None if _py_type(f.shape) is not Any else Any)
    return TypedDict(f"{_camel(service)}{_camel(e.entity)}", fields, total=False)  # type: ignore[operator]


def state_model(plan: ServicePlan) -> type[BaseModel]:
    fields = {e.collection: (dict[str, record_type(e, plan.name)], {}) for e in plan.entities}  # type: ignore[valid-type]
    return create_model(f"{_camel(plan.name)}State", __config__=ConfigDict(protected_namespaces=()), **fields)  # type: ignore[call-overload]


class _LazyState:
    """`cls.State`, built on first access (most environments never validate a given state)."""

    def __get__(self, obj: Any, owner: type[CompiledService]) -> type[BaseModel]:
        model = owner.__dict__.get("_state_model")
        if model is None:
            model = state_model(owner.plan)
            type.__setattr__(owner, "_state_model", model)
        return model


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p) or "Service"


def build_service(plan: ServicePlan, *, verified: bool | None = None, synthesis: str = "compiler") -> type[CompiledService]:
    """A `Service` subclass that runs `plan`."""
    ns: dict[str, Any] = {
        "__module__": "compoworld.synthesis.compiled",
        "__doc__": plan.description,
        "name": plan.name,
        "version": plan.version,
        "domain": plan.domain,
        "description": plan.description,
        "tables": {e.collection: (e.entity, e.prefix) for e in plan.entities},
        "plan": plan,
        "_tools": {t.name: t for t in plan.tools},
        "_ents": {e.collection: e for e in plan.entities},
        "verified": verified,
        "synthesis": synthesis,
    }
    for t in plan.tools:
        ns[f"tool_{t.name}"] = make_method(t.name)
    cls = type(_camel(plan.name), (CompiledService,), ns)
    type.__setattr__(cls, "State", _LazyState())  # after creation: Service.__init_subclass__ reads every attribute
    cls._specs = {t.name: tool_spec(t) for t in plan.tools}
    return cls  # type: ignore[return-value]


def compile_server(server: ServerSpec, name: str) -> tuple[ServicePlan, type[CompiledService]]:
    from compoworld.synthesis.infer import infer_plan

    plan = infer_plan(server, name)
    return plan, build_service(plan)
