"""Task records: the walk, the plan (reference solution), the rubric and its executable checks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from compoworld.canonical import content_hash

# A value in a plan or a check is a literal, or `{"$var": name}`: something the agent discovers.
Value = Any


class Walk(BaseModel):
    services: list[str]  # the selected services, in first-visit order
    distractors: list[str]
    visits: list[str]  # the visit sequence
    edge_types: list[str]  # semantic type carried on each transition (len(visits) - 1)
    revisits: list[int] = Field(default_factory=list)  # visit indexes that return to an earlier service

    @property
    def length(self) -> int:
        return len(self.visits)


class Extract(BaseModel):
    """Bind `var` to `field` of the item in an observation that matches `match` (values may be vars)."""

    var: str
    field: str
    path: str = ""  # "" = the observation is the record; "items" = pick from a list under that key
    match: dict[str, Value] = Field(default_factory=dict)
    pattern: str = ""  # a regex whose first group is the value, for values stated in a text (a policy)


class Cond(BaseModel):
    """A condition on discovered values that decides whether a plan step runs (a branch of the work).

    `gt`..`ne` compare `left` with `right`; `is_max`/`is_min`: `left` is the largest/smallest (one
    of the `k` largest/smallest) of the values in `right` whose paired condition in `among` holds (all
    of them when `among` is empty)."""

    left: Value
    op: Literal["gt", "ge", "lt", "le", "eq", "ne", "is_max", "is_min"]
    right: Value = None
    among: list["Cond"] = Field(default_factory=list)
    k: int = Field(1, ge=1)


class PlanStep(BaseModel):
    visit: int  # which walk visit this step serves
    service: str
    tool: str  # namespaced tool name
    arguments: dict[str, Value]
    extract: list[Extract] = Field(default_factory=list)
    purpose: Literal["lookup", "write", "update"] = "lookup"
    reasoning: str = ""
    when: list[Cond] = Field(default_factory=list)  # run only if all hold (the reference decides at a branch)
    expect_error: bool = False  # the call is refused by a business rule; the request says what to do then


class Where(BaseModel):
    field: str
    op: Literal["eq", "ne", "contains", "includes"] = "eq"
    value: Value


CheckKind = Literal["record_exists", "record_absent", "count_equals", "record_unchanged", "services_unchanged", "field_equals",
                    "answer_mentions"]


class Check(BaseModel):
    """A declarative predicate over the final state (and the initial one, for 'unchanged')."""

    kind: CheckKind
    service: str = ""
    services: list[str] = Field(default_factory=list)  # for services_unchanged
    collection: str = ""
    record_id: str = ""
    where: list[Where] = Field(default_factory=list)  # answer_mentions: each value must be in the final message
    count: int = 0


class Criterion(BaseModel):
    id: str
    description: str
    kind: Literal["goal", "negative"]
    check: Check
    weight: float = 1.0


class ReportItem(BaseModel):
    """A value the closing report must state: one discovered value, or one computed from several."""

    label: str  # how the request and the report name it ("the total balance due")
    op: Literal["value", "sum", "count", "mean", "share_pct"] = "value"
    vars: list[str]  # share_pct: [part, whole...] -> part as a percent of the sum of the rest


CAPABILITIES = ("sequential-dependency", "cross-service-constraint", "conditional-branching", "ranked-selection",
                "data-transformation", "temporal-reasoning", "fan-out", "fan-in-aggregation", "idempotency-check",
                "batch-with-exceptions", "referential-integrity", "explore-then-act", "error-recovery",
                "multi-objective-tradeoff")


class PhaseRecord(BaseModel):
    phase: Literal["explore", "design", "probe", "submit"]
    detail: dict[str, Any]


class WalkDraw(BaseModel):
    """One walk the walk stage drew for task `index`: the designer tries a task's draws in order
    (`attempt`) until one can be instantiated. `world` is the seeded world it is designed in."""

    id: str = ""
    index: int
    attempt: int
    walk: Walk
    world: int

    def content_id(self) -> str:
        return "walk_" + content_hash(self.model_dump(mode="json", exclude={"id"}))


class Task(BaseModel):
    id: str = ""
    index: int = 0  # the task's position in its run (its item); provenance, not content
    walk_id: str = ""  # the WalkDraw it instantiates; provenance, not content
    seed: int
    walk: Walk
    services: list[str]
    distractors: list[str]
    initial_state: dict[str, dict[str, dict[str, dict[str, Any]]]]  # only the services the design changed
    instruction: str
    plan: list[PlanStep]
    bindings: dict[str, Value]  # the values the plan discovers, for the probe and the audit trail
    stale: dict[str, Value] = Field(default_factory=dict)  # var -> the earlier value it replaces
    rubric: list[Criterion]
    report: list[ReportItem] = Field(default_factory=list)  # what the closing message must state
    capabilities: list[str] = Field(default_factory=list)  # labels from CAPABILITIES, each realized by checks
    difficulty: int  # walk length
    phases: list[PhaseRecord] = Field(default_factory=list)

    @property
    def environment_services(self) -> list[str]:
        return sorted(set(self.services) | set(self.distractors))

    def content_id(self) -> str:
        # Where a task came from (its index, its walk draw, the phase log) is not what it is.
        return "task_" + content_hash(self.model_dump(mode="json", exclude={"id", "index", "walk_id", "phases"}))
