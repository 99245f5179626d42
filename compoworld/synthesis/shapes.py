"""Output schemas of compiled tools: records of an entity, pages of records, batches, computation
results, action log entries and simulated (world-model) outputs."""

from __future__ import annotations

from typing import Any

from compoworld.services.semantics import SEMANTIC_KEY, is_semantic_type
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan
from compoworld.synthesis.schema import nullable

ACTION_FIELDS = [
    FieldPlan(name="id", shape={"type": "string"}, role="id"),
    FieldPlan(name="tool", shape={"type": "string"}),
    FieldPlan(name="arguments", shape={"type": "object"}, sem="json"),
    FieldPlan(name="status", shape={"type": "string"}, sem="status", role="status"),
    FieldPlan(name="result", shape={"type": "string"}, sem="text"),
    FieldPlan(name="created_at", shape={"type": "string"}, sem="datetime", role="created"),
]
SIMULATION_FIELDS = [
    FieldPlan(name="id", shape={"type": "string"}, role="id"),
    FieldPlan(name="tool", shape={"type": "string"}),
    FieldPlan(name="input_key", shape={"type": "string"}),
    FieldPlan(name="arguments", shape={"type": "object"}, sem="json"),
    FieldPlan(name="output", shape={"type": "object"}, sem="json"),
    FieldPlan(name="source", shape={"type": "string"}),
    FieldPlan(name="created_at", shape={"type": "string"}, sem="datetime", role="created"),
]


def field_schema(f: FieldPlan) -> dict[str, Any]:
    s = {"type": "string"} if f.role == "id" else nullable(dict(f.shape))
    if f.sem and is_semantic_type(f.sem) and (f.role == "id" or s.get("type") in ("string", "number", "integer", ["string", "null"], ["number", "null"], ["integer", "null"], ["boolean", "null"]) or not s):
        s = {**s, SEMANTIC_KEY: f.sem}
    return s


def record_schema(e: EntityPlan) -> dict[str, Any]:
    return {"type": "object", "properties": {f.name: field_schema(f) for f in e.fields}, "required": ["id"]}


def output_schema(t: ToolPlan, e: EntityPlan | None, service: str) -> dict[str, Any]:
    from compoworld.synthesis.compute import COMPUTATIONS
    from compoworld.synthesis.world_model import output_shape

    if t.op == "compute" and t.compute:
        return COMPUTATIONS[t.compute].output
    if t.op == "world_model":
        return output_shape(t)
    if t.op == "browser":
        from compoworld.synthesis.browser import browser_output

        return browser_output(t)
    if t.op == "sql":
        from compoworld.synthesis.sql import sql_output

        return sql_output(t)
    if t.op == "home":
        from compoworld.synthesis.home import home_output

        return home_output(t)
    if t.op == "kv":
        from compoworld.synthesis.kv import kv_output

        return kv_output(t)
    if t.op == "git":
        from compoworld.synthesis.git import git_output

        return git_output(t)
    if t.op == "tensor":
        from compoworld.synthesis.tensor import tensor_output

        return tensor_output(t)
    if e is None:
        return {"type": "object"}
    if t.op == "count":
        return {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}, "required": ["count"]}
    rec = record_schema(e)
    if t.op == "list":
        out = {"type": "object", "properties": {"items": {"type": "array", "items": rec}, "total": {"type": "integer"},
                                                "next_offset": {"type": ["integer", "null"]}}, "required": ["items", "total", "next_offset"]}
        if any(p.role == "cursor" for p in t.params):
            out["properties"]["next_cursor"] = {"type": ["string", "null"]}
            out["required"].append("next_cursor")
        return out
    if t.many and t.op == "create":
        items = t.by_role("items")[0].name
        return {"type": "object", "properties": {items: {"type": "array", "items": rec}}, "required": [items]}
    if t.many and t.op in ("get", "lookup", "delete"):
        key = "deleted" if t.op == "delete" else "items"
        return {"type": "object", "properties": {key: {"type": "array", "items": rec}, "not_found": {"type": "array"}},
                "required": [key, "not_found"]}
    if t.many and t.op == "transition":  # the records moved, the ids already in the state, the ids no record has
        return {"type": "object", "properties": {"items": {"type": "array", "items": rec}, "unchanged": {"type": "array", "items": {"type": "string"}},
                                                 "not_found": {"type": "array"}}, "required": ["items", "unchanged", "not_found"]}
    return rec
