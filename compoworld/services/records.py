"""Services and tools as warehouse rows. Pure: no storage here."""

from __future__ import annotations

from typing import Any

from compoworld.services.service import Service


def service_id(cls: type[Service]) -> str:
    return f"{cls.name}@{cls.version}"


def service_rows(classes: dict[str, type[Service]]) -> dict[str, list[dict[str, Any]]]:
    """One `services` row per class and one `tools` row per tool, in name order."""
    services, tools = [], []
    for name, cls in sorted(classes.items()):
        info = cls.info()
        sid = service_id(cls)
        services.append({"service_id": sid, "name": name, "version": cls.version, "origin": info["origin"],
                         "domain": info["domain"], "description": info["description"], "n_tools": info["n_tools"],
                         "n_world_model_tools": info["n_world_model"], "spec_id": info.get("spec_id"),
                         "definition_json": info})
        compiled = info["origin"] == "compiled"
        plan_tools = getattr(cls, "_tools", {}) if compiled else {}
        for spec in cls.tool_specs().values():
            tools.append({"tool_id": f"{name}__{spec.name}", "service_id": sid, "service": name, "name": spec.name,
                          "description": spec.description, "kind": spec.kind, "read_only": spec.read_only,
                          "destructive": spec.destructive, "idempotent": spec.idempotent,
                          "input_schema_json": spec.input_schema, "output_schema_json": spec.output_schema,
                          "semantic_types_json": {"params": spec.param_semantics, "outputs": spec.output_semantics},
                          "fidelity": _fidelity(spec.kind, compiled, plan_tools.get(spec.name))})
    return {"services": services, "tools": tools}


def _fidelity(kind: str, compiled: bool, plan_tool: Any) -> str | None:
    """A compiled tool's level comes from its fidelity checks (None: never checked, as for a service a
    coding model wrote); a first-party tool is faithful unless the world model serves it."""
    if compiled:
        return getattr(plan_tool, "fidelity", None)
    return "simulated" if kind == "world_model" else "faithful"
