"""The service plan: what the compiler inferred from one MCP server, in a form that is cached as JSON
and turned into a `Service` class without recompiling anything."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Op = Literal["create", "get", "list", "count", "update", "delete", "transition", "compute", "lookup", "action", "world_model", "browser", "sql", "kv", "home", "git", "tensor"]
# the operations that write records of an entity (the others read them, compute or log)
WRITE_OPS: tuple[Op, ...] = ("create", "update", "delete", "transition")
Fidelity = Literal["faithful", "structural", "simulated"]
ParamRole = Literal[
    "key",  # locates the target record (with the other keys)
    "ref",  # names a record of another collection (checked to exist when that collection is owned)
    "field",  # a value written to the record
    "filter",  # equality filter on a list
    "min", "max",  # range filter bounds on a list
    "query",  # free-text search
    "directory",  # the directory whose entries a listing shows (`list_directory(path)`; filesystem.py)
    "limit", "offset", "page", "cursor", "sort", "order",
    "items",  # a batch create's list of records, one per item (`create_entities(entities=[...])`)
    "add", "remove",  # values an update adds to (takes out of) the record's list field (Gmail's `addLabelIds`)
    "arg",  # an input of a computation, lookup or action
    "option",  # changes presentation only; ignored
]
FieldRole = Literal["id", "key", "seq", "ref", "status", "created", "updated", "title", "data"]


class FieldPlan(BaseModel):
    name: str
    shape: dict[str, Any] = Field(default_factory=dict)  # loosened JSON schema of the stored value
    sem: str | None = None
    role: FieldRole = "data"
    ref: str | None = None  # referenced collection for role=ref
    strict: dict[str, Any] | None = None  # the declaring parameter's full schema, for generating valid key values



class EntityPlan(BaseModel):
    collection: str
    entity: str
    prefix: str
    fields: list[FieldPlan]
    world: bool = False  # nothing creates it: a seeded outside-world table; lookups of unknown keys are derived
    statuses: list[str] = Field(default_factory=list)
    size: int = 8
    topic: str = ""  # template that shaped the fields (weather, price, paper...)

    def field(self, name: str) -> FieldPlan | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def status_field(self) -> str | None:
        return next((f.name for f in self.fields if f.role == "status"), None)


# The object inside a batch item that holds the record's fields (`inputs=[{properties: {...}, associations: [...]}]`
# of HubSpot's batch creates, Airtable's `fields`), read as the item's own fields.
ITEM_ENVELOPES = ("properties", "fields", "attributes", "values")


class ParamPlan(BaseModel):
    name: str  # as in the input schema
    role: ParamRole
    field: str | None = None
    collection: str | None = None
    within: str | None = None  # given inside this object argument (an envelope such as `params`), not at the top


class ToolPlan(BaseModel):
    name: str  # exposed name (identifier, fits the 64-char namespaced limit)
    original: str  # as declared by the server
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    op: Op
    collection: str | None = None
    params: list[ParamPlan] = Field(default_factory=list)
    target_status: str | None = None
    compute: str | None = None
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    verb: str = ""
    many: bool = False  # create from a list of items / get a batch
    browser: str | None = None  # what a page tool does to the browser session (op "browser"; browser.py)
    sql: str | None = None  # what a tool of a SQL database does with it (op "sql"; sql.py)
    kv: str | None = None  # the command a tool of a key-value store runs (op "kv"; kv.py)
    home: str | None = None  # the command a tool of a home automation service runs (op "home"; home.py)
    git: str | None = None  # the command a tool of a git client runs on its repository (op "git"; git.py)
    tensor: str | None = None  # the command a tool of a tensor store runs (op "tensor"; tensor.py)
    fidelity: Fidelity | None = None  # set after the fidelity checks (fidelity.py); None: not checked

    @property
    def kind(self) -> str:
        return "world_model" if self.op == "world_model" else "deterministic"

    def by_role(self, *roles: str) -> list[ParamPlan]:
        return [p for p in self.params if p.role in roles]


class ServicePlan(BaseModel):
    name: str
    title: str
    description: str
    domain: str
    source_id: str
    forks: list[str] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    version: str = "1.0"
    entities: list[EntityPlan] = Field(default_factory=list)
    tools: list[ToolPlan] = Field(default_factory=list)

    def entity(self, collection: str | None) -> EntityPlan | None:
        return next((e for e in self.entities if e.collection == collection), None) if collection else None
