"""The closed vocabulary of semantic types carried by tool parameters and output fields.

Semantic types are what the dependency graph joins on: a value a tool of service A produces is
usable by a tool of service B when both carry the same semantic type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

BASE_TYPES: frozenset[str] = frozenset(
    {
        "email",
        "person_name",
        "company_name",
        "date",
        "datetime",
        "money",
        "currency",
        "url",
        "phone",
        "file_path",
        "text",
        "title",
        "status",
        "category",
        "quantity",
        "percent",
        "duration",
        "address",
        "city",
        "country",
        "location",
        "query",
        "flag",
        "code",
        "json",
    }
)
ENTITY_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*_id$")
SEMANTIC_KEY = "x-semantic-type"

# Types that say nothing about where a value came from; they never create dependency edges.
NON_JOINING: frozenset[str] = frozenset({"text", "flag", "quantity", "status", "category", "json", "query"})


def is_semantic_type(name: str) -> bool:
    return name in BASE_TYPES or bool(ENTITY_ID.match(name))


@dataclass(frozen=True, slots=True)
class Sem:
    """`Annotated[str, Sem("email")]` marks a parameter or record field with a semantic type."""

    name: str

    def __post_init__(self) -> None:
        if not is_semantic_type(self.name):
            raise ValueError(f"unknown semantic type {self.name!r}")

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema = handler(core_schema)
        schema[SEMANTIC_KEY] = self.name
        fmt = {"email": "email", "date": "date", "datetime": "date-time", "url": "uri"}.get(self.name)
        if fmt and schema.get("type") == "string":
            schema.setdefault("format", fmt)
        return schema


def entity(service: str, entity_name: str) -> Sem:
    """Semantic type of an id of `entity_name` records in `service` (`crm.company_id`)."""
    return Sem(f"{service}.{entity_name}_id")


def semantic_fields(schema: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Map of dotted field path -> semantic type found in a JSON schema (resolving local $defs)."""
    defs = schema.get("$defs", {})
    out: dict[str, str] = {}

    def walk(node: Any, path: str, depth: int) -> None:
        if not isinstance(node, dict) or depth > 8:
            return
        if "$ref" in node and isinstance(node["$ref"], str) and node["$ref"].startswith("#/$defs/"):
            node = {**defs.get(node["$ref"].split("/")[-1], {}), **{k: v for k, v in node.items() if k != "$ref"}}
        if isinstance(node.get(SEMANTIC_KEY), str) and path:
            out[path] = node[SEMANTIC_KEY]
        for key, sub in (node.get("properties") or {}).items():
            walk(sub, f"{path}.{key}" if path else key, depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]", depth + 1)
        for combo in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(combo) or []:
                walk(sub, path, depth + 1)

    walk(schema, prefix, 0)
    return out
