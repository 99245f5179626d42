"""The task factory: sample a walk, explore, design, probe, submit. Pure and seeded."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any, Callable, Iterator

from pydantic import BaseModel, Field

from compoworld.services.environment import Environment, generated_state, state_hash
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.tasks.checks import score
from compoworld.tasks.design import Designer, DesignError
from compoworld.tasks.graph import build_graph
from compoworld.tasks.instruction import leaks, render
from compoworld.tasks.model import PhaseRecord, Task, WalkDraw
from compoworld.tasks.solution import execute, literal_strings
from compoworld.tasks.walk import WalkConfig, sample_walk, service_sets


class TaskConfig(BaseModel):
    n: int = 100
    seed: int = 0
    services_from: str = Field("library", pattern="^(library|compiled|all)$")
    walk: WalkConfig = WalkConfig()
    world_seeds: int = 32  # tasks share a few seeded worlds (cached); traps and plants make each one unique
    write_p: float = 0.5
    design_attempts: int = 12
    # Every walk revisits a service; with this set, a task is kept only if a revisit also makes a value
    # the agent read stale (about a quarter do by default; requiring it costs ~2.5x design time).
    require_stale: bool = False
    policy_p: float = 0.3  # share of writes whose literal value a policy document states instead of the request
    instruction_model: str | None = None  # a LiteLLM model to rephrase instructions (checked; offline: templates)


class Rejection(BaseModel):
    index: int
    phase: str
    reason: str
    walk: dict[str, Any] | None = None


def initial_state(task: Task, classes: dict[str, type[Service]]) -> dict[str, Any]:
    """The full initial state of the services the task changed: seeded state plus the task's records."""
    out: dict[str, Any] = {}
    for svc, colls in task.initial_state.items():
        base = generated_state(classes[svc], task.seed)
        merged = {c: dict(rows) for c, rows in base.items()}
        for coll, rows in colls.items():
            merged.setdefault(coll, {}).update(rows)
        out[svc] = merged
    return out


def build_env(task: Task, classes: dict[str, type[Service]]) -> Environment:
    return Environment([classes[s] for s in task.environment_services], seed=task.seed,
                       initial_state=initial_state(task, classes))


def probe(task: Task, classes: dict[str, type[Service]]) -> tuple[list[str], dict[str, Any]]:
    """Acceptance: the reference passes every criterion in a fresh environment, doing nothing fails,
    the stale-value solution fails, distractors stay untouched, and the instruction leaks nothing."""
    problems: list[str] = []
    env = build_env(task, classes)
    start = env.state()
    run = execute(task.plan, env)
    final = env.state()
    ref = score(task.rubric, start, final)
    if not all(ref):
        problems.append("reference fails " + ",".join(c.id for c, ok in zip(task.rubric, ref) if not ok))
    if not any(c.kind == "negative" for c in task.rubric):
        problems.append("no negative criterion")
    nothing = score(task.rubric, start, start)
    if all(nothing):
        problems.append("do-nothing passes")
    stale_ok = None
    if task.stale:
        env2 = build_env(task, classes)
        execute(task.plan, env2, overrides=task.stale)
        stale_ok = all(score(task.rubric, start, env2.state()))
        if stale_ok:
            problems.append("stale solution passes")
    if run.bindings != task.bindings:  # a lookup found another record than the design did: ambiguous
        problems.append("ambiguous lookup")
    if any(start.get(s) != final.get(s) for s in task.distractors):
        problems.append("distractor touched")
    leaked = leaks(task.instruction, hidden_values(task))
    if leaked:
        problems.append("instruction leaks a hidden value")
    detail = {"reference": ref, "do_nothing": nothing, "stale_passes": stale_ok, "steps": len(task.plan),
              "initial_state_hash": state_hash(start), "final_state_hash": state_hash(final),
              "failed_calls": sum(not o.ok for o in run.observations)}
    return problems, detail


def hidden_values(task: Task) -> list[Any]:
    return _hidden(task.plan, task.bindings)


def _hidden(plan: list[Any], bindings: dict[str, Any]) -> list[Any]:
    """Values the agent must discover: bound from an observation before any argument states them."""
    given: set[str] = set()
    hidden: list[Any] = []
    for step in plan:
        given.update(s.lower() for s in literal_strings(step.arguments))
        for ex in step.extract:
            value = bindings.get(ex.var)
            if not (isinstance(value, str) and value.lower() in given):
                hidden.append(value)
    return hidden


def draw_walks(index: int, cfg: TaskConfig, graph: Any, sets: list[list[str]] | None = None) -> list[WalkDraw]:
    """The walks task `index` may be designed from, in the order the designer tries them: up to
    `design_attempts` draws from the task's own seeded stream, each with the world it is set in."""
    rng = random.Random(f"task/{cfg.seed}/{index}")
    draws: list[WalkDraw] = []
    for attempt in range(cfg.design_attempts):
        chosen = sets[(index + attempt * 7919) % len(sets)] if sets else None
        walk = sample_walk(graph, rng, cfg.walk, chosen)
        if walk is None:
            continue
        draw = WalkDraw(index=index, attempt=attempt, walk=walk, world=rng.randrange(cfg.world_seeds))
        draws.append(draw.model_copy(update={"id": draw.content_id()}))
    return draws


def design_task(index: int, draws: list[WalkDraw], cfg: TaskConfig, classes: dict[str, type[Service]]) -> Task:
    """Design one task from its walk draws: the first draw the designer can instantiate wins; when
    none can, the last reason is raised."""
    reason = "no walk"
    for draw in draws:
        walk, world, attempt = draw.walk, draw.world, draw.attempt
        designer = Designer(walk, classes, seed=world, write_p=cfg.write_p, require_stale=cfg.require_stale,
                            policy_p=cfg.policy_p)
        designer.rng = random.Random(f"design/{cfg.seed}/{index}/{attempt}")
        try:
            d = designer.design()
        except DesignError as exc:
            reason = exc.reason
            continue
        instruction = render(d.phrases, designer.rng)
        hidden = _hidden(d.plan, d.bindings)
        if leaks(instruction, hidden):
            reason = "instruction leak"
            continue
        verdict = "template"
        if cfg.instruction_model:
            from compoworld.tasks.rewrite import required_mentions, rewrite_instruction

            instruction, verdict = rewrite_instruction(instruction, required_mentions(d.plan, designer.visits), hidden,
                                                       cfg.instruction_model)
        d.instruction_verdict = verdict
        # The designer may reorder visits to realize the walk: the task records the walk as realized.
        walk = walk.model_copy(update={"visits": designer.visits, "services": list(dict.fromkeys(designer.visits)),
                                       "revisits": [i for i, v in enumerate(designer.visits) if v in designer.visits[:i]]})
        task = _submit(walk, world, designer, d, attempt, instruction)
        return task.model_copy(update={"index": index, "walk_id": draw.id})
    raise DesignError(reason)


def _submit(walk: Any, world: int, designer: Designer, d: Any, attempt: int, instruction: str) -> Task:
    explore = {s: designer.profiles[s].summary() for s in walk.services}
    walk = walk.model_copy(update={"edge_types": d.edge_types})
    overlay: dict[str, Any] = {}
    for p in d.planted:
        overlay.setdefault(p["service"], {}).setdefault(p["collection"], {})[p["record"]["id"]] = p["record"]
    task = Task(
        seed=world, walk=walk, services=walk.services, distractors=walk.distractors, initial_state=overlay,
        instruction=instruction, plan=d.plan, bindings=d.bindings, stale=d.stale,
        rubric=d.criteria, difficulty=walk.length,
        phases=[PhaseRecord(phase="explore", detail=explore),
                PhaseRecord(phase="design", detail={"planted": len(d.planted), "steps": len(d.plan), "criteria": len(d.criteria),
                                                    "edge_types": d.edge_types, "walks_tried": attempt + 1,
                                                    "instruction": d.instruction_verdict})],
    )
    return task


class Factory:
    """What designing needs once per service library: the classes, their graph and the service sets.
    `draw(index)` draws a task's walks (the walk stage); `make(index, draws)` designs, probes and
    submits it (the instantiate stage). Both are pure and seeded: the unit a batch or a retry runs."""

    def __init__(self, cfg: TaskConfig, classes: dict[str, type[Service]] | None = None) -> None:
        self.cfg = cfg
        self.classes = classes or all_services(cfg.services_from)
        self.graph = build_graph(self.classes.values())
        self.sets = service_sets(self.graph, cfg.walk, cfg.seed)

    def draw(self, index: int) -> list[WalkDraw]:
        return draw_walks(index, self.cfg, self.graph, self.sets)

    def make(self, index: int, draws: list[WalkDraw] | None = None) -> Task | Rejection:
        draws = self.draw(index) if draws is None else draws
        try:
            task = design_task(index, draws, self.cfg, self.classes)
        except DesignError as exc:
            return Rejection(index=index, phase="design", reason=exc.reason)
        try:
            problems, detail = probe(task, self.classes)
        except Exception as exc:  # e.g. a planted record the state model refuses: recorded, never a crash
            return Rejection(index=index, phase="probe", reason=f"error: {type(exc).__name__}", walk=task.walk.model_dump())
        if problems:
            return Rejection(index=index, phase="probe", reason=problems[0], walk=task.walk.model_dump())
        task.phases.append(PhaseRecord(phase="probe", detail=detail))
        task.id = task.content_id()
        task.phases.append(PhaseRecord(phase="submit", detail={"id": task.id, "index": index}))
        return task


def iter_tasks(cfg: TaskConfig, classes: dict[str, type[Service]] | None = None,
               indexes: Iterator[int] | None = None) -> Iterator[Task | Rejection]:
    """Design and probe tasks one by one in memory (benchmarks, tests): an accepted Task, or a
    Rejection with its reason. The stages run the same `Factory` and store every step."""
    factory = Factory(cfg, classes)
    for index in indexes if indexes is not None else range(cfg.n):
        yield factory.make(index)


class FactoryReport(BaseModel):
    designed: int
    accepted: int
    design_failed: int
    rejected_by_reason: dict[str, int]
    mean_walk_length: float
    distinct_service_sets: int
    duplicate_instructions: int
    tasks_per_second: float
    seconds: float


def factory_report(tasks: list[Task], rejected: list[Rejection], seconds: float) -> FactoryReport:
    """Headline figures of a batch of designs (what `tasks generate` and `bench/tasks.py` print)."""
    reasons = Counter(f"{r.phase}: {r.reason}" for r in rejected)
    instructions = Counter(t.instruction for t in tasks)
    return FactoryReport(
        designed=len(tasks) + sum(r.phase == "probe" for r in rejected),
        accepted=len(tasks),
        design_failed=sum(r.phase == "design" for r in rejected),
        rejected_by_reason=dict(sorted(reasons.items())),
        mean_walk_length=round(sum(t.difficulty for t in tasks) / max(len(tasks), 1), 2),
        distinct_service_sets=len({tuple(sorted(t.services)) for t in tasks}),
        duplicate_instructions=sum(n - 1 for n in instructions.values() if n > 1),
        tasks_per_second=round(len(tasks) / seconds, 1) if seconds else 0.0,
        seconds=round(seconds, 2),
    )


def generate(cfg: TaskConfig, progress: Callable[[int], None] | None = None) -> tuple[list[Task], list[Rejection], FactoryReport]:
    """Design `cfg.n` tasks in memory (benchmarks and tests; the CLI and the pipeline run the walk
    and instantiate stages, which store every draw, task and rejection)."""
    t0 = time.perf_counter()
    tasks: list[Task] = []
    rejected: list[Rejection] = []
    for item in iter_tasks(cfg):
        (tasks if isinstance(item, Task) else rejected).append(item)  # type: ignore[arg-type]
        if progress:
            progress(1)
    return tasks, rejected, factory_report(tasks, rejected, time.perf_counter() - t0)
