"""The task factory: sample a walk, explore, design, probe, submit. Pure and seeded."""

from __future__ import annotations

import gc
import random
import time
from collections import Counter
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from pydantic import BaseModel, Field

from compoworld.services.environment import Environment, generated_state, state_hash
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.synthesis.naming import spoken_entity
from compoworld.tasks.checks import score
from compoworld.tasks.design import Designer, DesignError
from compoworld.tasks.graph import build_graph
from compoworld.tasks.instruction import Requester, leaks, render
from compoworld.tasks.model import CAPABILITIES, PhaseRecord, Task, WalkDraw
from compoworld.tasks.mutation import answer_of, mutation_test, record, seeded_pool
from compoworld.tasks.solution import execute, hidden_values
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
    policy_p: float = 0.8  # share of writes whose literal value a policy document states instead of the request
    motifs: int = Field(6, ge=0)  # capability motifs tried per task (each adds a group of 4-8 records and its work)
    instruction_model: str | None = None  # a LiteLLM model to rephrase instructions (checked; offline: templates)
    mutation_test: bool = True  # replay mutants of the reference in the probe and record the kill counts
    require_all_mutants_killed: bool = True  # reject a task when a mutant of its reference passes every criterion


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
        # Collections without plants stay the seeded dicts themselves (shared, never written: a table
        # copies before writing), which the environment loads and the probe hashes without copying.
        out[svc] = {**base, **{coll: {**base.get(coll, {}), **rows} for coll, rows in colls.items()}}
    return out


def build_env(task: Task, classes: dict[str, type[Service]]) -> Environment:
    return Environment([classes[s] for s in task.environment_services], seed=task.seed,
                       initial_state=initial_state(task, classes))


def probe(task: Task, classes: dict[str, type[Service]], mutation: bool = True,
          require_all_mutants_killed: bool = False) -> tuple[list[str], dict[str, Any]]:
    """Acceptance: the reference passes every criterion in a fresh environment, doing nothing fails,
    the stale-value solution fails, distractors stay untouched, and the instruction leaks nothing.
    Measured too (in the detail, outside the task's content id): goal criteria that already hold
    initially and, with `mutation`, the mutants of the reference the rubric kills (see
    `compoworld.tasks.mutation`); `require_all_mutants_killed` rejects a task with a survivor."""
    problems: list[str] = []
    env = build_env(task, classes)
    start = env.state()
    recording = record(task.plan, env)  # `execute`, keeping what the mutation test replays from
    run = recording.run
    final = env.state()
    ref = score(task.rubric, start, final, answer_of(task, run.bindings))
    if not all(ref):
        problems.append("reference fails " + ",".join(c.id for c, ok in zip(task.rubric, ref) if not ok))
    if not any(c.kind == "negative" for c in task.rubric):
        problems.append("no negative criterion")
    nothing = score(task.rubric, start, start)
    if all(nothing):
        problems.append("do-nothing passes")
    if any(ok for c, ok in zip(task.rubric, nothing) if c.kind == "goal" and c.check.kind != "answer_mentions"):
        problems.append("goal holds initially")
    stale_at = len(problems)  # where the stale-value verdict goes among the problems, found below
    if run.bindings != task.bindings:  # a lookup found another record than the design did: ambiguous
        problems.append("ambiguous lookup")
    if any(start.get(s) != final.get(s) for s in task.distractors):
        problems.append("distractor touched")
    leaked = leaks(task.instruction, hidden_values(task.plan, task.bindings))
    if leaked:
        problems.append("instruction leaks a hidden value")
    detail = {"reference": ref, "do_nothing": nothing, "stale_passes": None, "steps": len(task.plan), "calls": len(run.calls),
              "initial_state_hash": state_hash(start), "final_state_hash": state_hash(final),
              "failed_calls": sum(not o.ok for o in run.observations),
              "goal_true_initially": sum(ok for c, ok in zip(task.rubric, nothing) if c.kind == "goal" and c.check.kind != "answer_mentions")}
    result = None
    if mutation and not problems:
        try:  # a measurement: a defect here is recorded, never a rejection unless the gate is on
            pool = seeded_pool(classes, task.environment_services, task.seed)
            result = mutation_test(task, classes, env, start, final, run.bindings, pool, recording)
        except Exception as exc:
            detail["mutation_error"] = f"{type(exc).__name__}: {exc}"
            if require_all_mutants_killed:
                problems.append("mutation test failed")
    if task.stale:  # the stale mutant is the stale-value solution: replayed once, by the mutation test when it ran
        if result is None or result.stale_passes is None:
            env2 = build_env(task, classes)
            stale_run = execute(task.plan, env2, overrides=task.stale)
            detail["stale_passes"] = all(score(task.rubric, start, env2.state(), answer_of(task, stale_run.bindings)))
        else:
            detail["stale_passes"] = result.stale_passes
        if detail["stale_passes"]:
            problems.insert(stale_at, "stale solution passes")
    if result is not None:
        detail.update(result.detail())
        if require_all_mutants_killed and result.survivors:
            problems.append("mutant survives: " + result.survivors[0].split(":", 1)[0])
    return problems, detail


def iter_walks(index: int, cfg: TaskConfig, graph: Any, sets: list[list[str]] | None = None) -> Iterator[WalkDraw]:
    """The walks task `index` may be designed from, in the order the designer tries them: up to
    `design_attempts` draws from the task's own seeded stream, each with the world it is set in.
    Lazy: the designer stops at the first walk it can instantiate, and the later draws do not
    change the earlier ones."""
    rng = random.Random(f"task/{cfg.seed}/{index}")
    for attempt in range(cfg.design_attempts):
        chosen = sets[(index + attempt * 7919) % len(sets)] if sets else None
        walk = sample_walk(graph, rng, cfg.walk, chosen)
        if walk is None:
            continue
        draw = WalkDraw(index=index, attempt=attempt, walk=walk, world=rng.randrange(cfg.world_seeds))
        yield draw.model_copy(update={"id": draw.content_id()})


def draw_walks(index: int, cfg: TaskConfig, graph: Any, sets: list[list[str]] | None = None) -> list[WalkDraw]:
    """Every walk of `iter_walks` (what the walk stage stores)."""
    return list(iter_walks(index, cfg, graph, sets))


def design_task(index: int, draws: Iterable[WalkDraw], cfg: TaskConfig, classes: dict[str, type[Service]]) -> Task:
    """Design one task from its walk draws: the first draw the designer can instantiate wins; when
    none can, the last reason is raised."""
    reason = "no walk"
    for draw in draws:
        walk, world, attempt = draw.walk, draw.world, draw.attempt
        designer = Designer(walk, classes, seed=world, write_p=cfg.write_p, require_stale=cfg.require_stale,
                            policy_p=cfg.policy_p, motifs=cfg.motifs)
        designer.rng = random.Random(f"design/{cfg.seed}/{index}/{attempt}")
        try:
            d = designer.design()
        except DesignError as exc:
            reason = exc.reason
            continue
        hidden = hidden_values(d.plan, d.bindings)
        instruction = render(d.phrases, designer.rng, [it.label for it in d.report], requester(world, designer.rng, hidden),
                             record_homes(d.env), d.mentioned, {v for it in d.report if it.op == "value" for v in it.vars})
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


def requester(world: int, rng: random.Random, hidden: list[Any]) -> Requester:
    """The employee who asks: one of the world's staff whose name and email the agent is not meant
    to discover (so signing the request gives nothing away)."""
    from compoworld.services.cast import cast

    secret = {str(v).lower() for v in hidden}
    staff = [p for p in cast(world).world.employees if p.name.lower() not in secret and p.email.lower() not in secret]
    p = staff[rng.randrange(len(staff))]
    return Requester(p.name, p.title, p.department)


def _ratio(pairs: list[tuple[int, int]]) -> float:
    total = sum(b for _, b in pairs)
    return round(sum(a for a, _ in pairs) / total, 4) if total else 0.0


def record_homes(env: Any) -> dict[str, int]:
    """How many mounted services keep each kind of record (by entity name)."""
    return dict(Counter(spoken_entity(t.entity) for svc in env.services.values() for t in svc.db.values()))


def _submit(walk: Any, world: int, designer: Designer, d: Any, attempt: int, instruction: str) -> Task:
    explore = {s: designer.profiles[s].summary() for s in walk.services}
    walk = walk.model_copy(update={"edge_types": d.edge_types})
    overlay: dict[str, Any] = {}
    for p in d.planted:
        overlay.setdefault(p["service"], {}).setdefault(p["collection"], {})[p["record"]["id"]] = p["record"]
    task = Task(
        seed=world, walk=walk, services=walk.services, distractors=walk.distractors, initial_state=overlay,
        instruction=instruction, plan=d.plan, bindings=d.bindings, stale=d.stale,
        rubric=d.criteria, report=d.report, capabilities=sorted(d.capabilities), difficulty=walk.length,
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

    def make(self, index: int, draws: Iterable[WalkDraw] | None = None) -> Task | Rejection:
        if draws is None:  # drawn lazily: only as many as the designer tries
            draws = iter_walks(index, self.cfg, self.graph, self.sets)
        try:
            task = design_task(index, draws, self.cfg, self.classes)
        except DesignError as exc:
            return Rejection(index=index, phase="design", reason=exc.reason)
        try:
            problems, detail = probe(task, self.classes, mutation=self.cfg.mutation_test or self.cfg.require_all_mutants_killed,
                                     require_all_mutants_killed=self.cfg.require_all_mutants_killed)
        except Exception as exc:  # e.g. a planted record the state model refuses: recorded, never a crash
            return Rejection(index=index, phase="probe", reason=f"error: {type(exc).__name__}", walk=task.walk.model_dump())
        if problems:
            return Rejection(index=index, phase="probe", reason=problems[0], walk=task.walk.model_dump())
        task.phases.append(PhaseRecord(phase="probe", detail=detail))
        task.id = task.content_id()
        task.phases.append(PhaseRecord(phase="submit", detail={"id": task.id, "index": index}))
        return task


@contextmanager
def fewer_collections(young: int = 10_000) -> Iterator[None]:
    """Designing allocates millions of short-lived objects (snapshots, plan steps, observations) and
    few cycles: with Python's default collector (a young-generation pass every 700 allocations) about
    an eighth of the factory's time went to passes that found almost nothing. The young threshold is
    raised while designing and put back after."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


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
    # Quality measures (issue 11): figures of the accepted tasks, see `compoworld.tasks.quality`.
    capabilities: dict[str, float] = Field(default_factory=dict)  # label -> share of accepted tasks carrying it
    mean_reference_calls: float = 0.0
    dangling_lookups: int = 0
    repeated_lookups: int = 0  # lookups asking again for what the same request already read
    echo_lookups: int = 0  # lookups whose value the request itself gave
    round_trips: int = 0  # lookups back to a value's kind of record through another service's translation
    report_only_lookup_share: float = 0.0  # of the values lookups read, those only the closing report uses
    goal_criteria_true_initially: int = 0
    mutation_score: float | None = None  # mean killed/mutants over tasks with mutants; None when not measured
    mutants_per_task: float = 0.0
    mutation_survivors_by_kind: dict[str, int] = Field(default_factory=dict)
    mutants_by_kind: dict[str, list[int]] = Field(default_factory=dict)  # kind -> [mutants, killed], over all tasks
    closing_report_share: float = 0.0
    environment_rule_share: float = 0.0
    step_list_share: float = 0.0
    world_violations: int = 0  # cross-service invariant failures in the seeded worlds the tasks use
    world_violation_kinds: dict[str, int] = Field(default_factory=dict)
    planted_violations: int = 0  # the same invariants broken by the records tasks plant into their world
    planted_violation_kinds: dict[str, int] = Field(default_factory=dict)
    graph_density: float = 0.0


def _share(tasks: list[Task], pred: Callable[[Task], bool]) -> float:
    return round(sum(bool(pred(t)) for t in tasks) / len(tasks), 4) if tasks else 0.0


def library_of(tasks: list[Task]) -> dict[str, type[Service]]:
    """The service library the tasks were drawn from: the first-party library when it holds them all."""
    from compoworld.services.registry import library_services

    lib = library_services()
    if all(s in lib for t in tasks for s in t.environment_services):
        return dict(lib)
    return all_services("all")


def world_reports(tasks: list[Task], classes: dict[str, type[Service]]) -> tuple[list[str], list[str]]:
    """Invariant violations of the seeded worlds the tasks are set in (each distinct world seed with
    every service of the library: the plants a task adds are not part of the world), and those the
    tasks' planted records bring into their world. Each world is read once, for both."""
    from compoworld.services.service import Context
    from compoworld.services.world_check import added_violations, world_summary

    worlds: dict[int, tuple[list[str], dict[str, set[str]]]] = {}
    for seed in sorted({t.seed for t in tasks}):
        state = {name: generated_state(cls, seed) for name, cls in sorted(classes.items())}
        worlds[seed] = world_summary(state, Context(seed).clock.today())
    found = [f"world {seed}: {v}" for seed, (violations, _) in worlds.items() for v in violations]
    planted = [f"{t.id}: {v}" for t in tasks if t.initial_state
               for v in added_violations(t.initial_state, Context(t.seed).clock.today(), worlds[t.seed][1])]
    return found, planted


def factory_report(tasks: list[Task], rejected: list[Rejection], seconds: float,
                   classes: dict[str, type[Service]] | None = None) -> FactoryReport:
    """Headline figures of a batch of designs (what `tasks generate` and `bench/tasks.py` print).
    `classes`: the service library (default: the one the tasks come from) for the graph density and
    the world invariants."""
    from compoworld.services.world_check import violation_kinds
    from compoworld.tasks.explore import profile
    from compoworld.tasks.quality import (closing_report, dangling_lookups, echo_lookups, environment_rule, graph_density,
                                          is_step_list, probe_detail, repeated_lookups, report_only_lookups, round_trips)

    reasons = Counter(f"{r.phase}: {r.reason}" for r in rejected)
    instructions = Counter(t.instruction for t in tasks)
    n = max(len(tasks), 1)
    details = [probe_detail(t) for t in tasks]
    scored = [d for d in details if d.get("mutants")]
    survivors = Counter(s.split(":", 1)[0] for d in details for s in d.get("survivors", []))
    by_kind: dict[str, list[int]] = {}
    for d in details:
        for kind, (m, k) in d.get("mutants_by_kind", {}).items():
            acc = by_kind.setdefault(kind, [0, 0])
            acc[0] += m
            acc[1] += k
    classes = classes if classes is not None else library_of(tasks)
    worlds, planted = world_reports(tasks, classes)

    def collection_of(step: Any) -> str | None:
        return profile(classes[step.service]).collection_of(step.tool)

    return FactoryReport(
        designed=len(tasks) + sum(r.phase == "probe" for r in rejected),
        accepted=len(tasks),
        design_failed=sum(r.phase == "design" for r in rejected),
        rejected_by_reason=dict(sorted(reasons.items())),
        mean_walk_length=round(sum(t.difficulty for t in tasks) / n, 2),
        distinct_service_sets=len({tuple(sorted(t.services)) for t in tasks}),
        duplicate_instructions=sum(k - 1 for k in instructions.values() if k > 1),
        tasks_per_second=round(len(tasks) / seconds, 1) if seconds else 0.0,
        seconds=round(seconds, 2),
        capabilities={c: _share(tasks, lambda t, c=c: c in t.capabilities) for c in CAPABILITIES} if tasks else {},
        mean_reference_calls=round(sum(d.get("calls", len(t.plan)) for t, d in zip(tasks, details)) / n, 2),
        dangling_lookups=sum(dangling_lookups(t) for t in tasks),
        repeated_lookups=sum(repeated_lookups(t) for t in tasks),
        echo_lookups=sum(echo_lookups(t) for t in tasks),
        round_trips=sum(round_trips(t, collection_of) for t in tasks),
        report_only_lookup_share=_ratio([report_only_lookups(t) for t in tasks]),
        goal_criteria_true_initially=sum(d.get("goal_true_initially", 0) for d in details),
        mutation_score=round(sum(d["killed"] / d["mutants"] for d in scored) / len(scored), 4) if scored else None,
        mutants_per_task=round(sum(d.get("mutants", 0) for d in details) / n, 2),
        mutation_survivors_by_kind=dict(survivors.most_common()),
        mutants_by_kind=dict(sorted(by_kind.items())),
        closing_report_share=_share(tasks, closing_report),
        environment_rule_share=_share(tasks, environment_rule),
        step_list_share=_share(tasks, lambda t: is_step_list(t.instruction)),
        world_violations=len(worlds),
        world_violation_kinds=violation_kinds([w.split(": ", 1)[1] for w in worlds]),
        planted_violations=len(planted),
        planted_violation_kinds=violation_kinds([w.split(": ", 1)[1] for w in planted]),
        graph_density=graph_density(build_graph(classes.values())) if tasks else 0.0,
    )


def generate(cfg: TaskConfig, progress: Callable[[int], None] | None = None) -> tuple[list[Task], list[Rejection], FactoryReport]:
    """Design `cfg.n` tasks in memory (benchmarks and tests; the CLI and the pipeline run the walk
    and instantiate stages, which store every draw, task and rejection)."""
    t0 = time.perf_counter()
    tasks: list[Task] = []
    rejected: list[Rejection] = []
    with fewer_collections():
        for item in iter_tasks(cfg):
            (tasks if isinstance(item, Task) else rejected).append(item)  # type: ignore[arg-type]
            if progress:
                progress(1)
    return tasks, rejected, factory_report(tasks, rejected, time.perf_counter() - t0)
