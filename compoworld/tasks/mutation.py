"""Mutation testing of a task's rubric: wrong variants of the reference solution must fail it.

From the reference plan we derive *mutants*, each a plausible mistake an agent could make, replay
each in a fresh environment and score it with the task's rubric. A mutant is *killed* when at least
one criterion fails. A mutant whose final state equals the reference's final state is *equivalent*
(e.g. an idempotent update written twice, a duplicate the service refuses): it is not wrong work,
so it is neither killed nor a survivor and does not count.

Mutant kinds (each carries a label `kind:step:detail` in the survivors list):

- `skip`: a write or update step is left out (the agent spends that turn on something else: its
  later calls happen when the reference's do, so only the skipped change tells the runs apart).
- `wrong_value`: one scalar argument of a write/update is replaced by a wrong value: a different
  number; for strings, another value of the same semantic type from the seeded state (else the
  string with a suffix); a date or datetime moved by a day. Id references (`service.entity_id`)
  and booleans are left alone.
- `stale`: every stale variable keeps the value read before the revisit updated it.
- `duplicate`: a creating write ("write" purpose) is called twice in a row.
- `superseded`: a policy read (an extract with a pattern) takes the superseded version's value.

- `decoy`: an update is applied to a record the rubric says must stay unchanged (a decoy, a
  near-duplicate, a record outside the selection or already done) instead of its target.
- `branch`: a step behind a condition the reference's values rule out is run anyway (up to three).
- `report_omit` / `report_alter`: the closing report leaves out one requested value, or states a
  wrong one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Mapping

from compoworld.services.environment import Environment
from compoworld.services.sampling import ValuePool
from compoworld.services.service import Service
from compoworld.tasks.checks import evaluate, same
from compoworld.tasks.design_types import older_revision
from compoworld.tasks.model import PlanStep, Task
from compoworld.tasks.report import closing_text
from compoworld.tasks.solution import Run, applies, cond_variables, pick, report_value, resolve, variables

WRITES = ("write", "update")


@dataclass
class Mutant:
    kind: str
    label: str
    plan: list[PlanStep]
    overrides: dict[str, Any] = field(default_factory=dict)
    report: dict[int, Any] = field(default_factory=dict)  # report item -> stated value (None: left out)
    idle: int | None = None  # a step of `plan` whose call is left out while its time passes (`execute`'s `idle`)


@dataclass
class MutationResult:
    mutants: int = 0  # non-equivalent mutants
    killed: int = 0
    equivalent: int = 0
    survivors: list[str] = field(default_factory=list)
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> [mutants, killed]
    stale_passes: bool | None = None  # the stale mutant (the probe's stale-value solution) passes every criterion

    def detail(self) -> dict[str, Any]:
        return {"mutants": self.mutants, "killed": self.killed, "equivalent": self.equivalent,
                "survivors": self.survivors, "mutants_by_kind": self.by_kind}


def wrong_value(value: Any, sem: str, pool: Mapping[str, list[Any]]) -> Any:
    """A plausible wrong value for an argument: None when there is no sensible one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value + 1 if value >= 0 else value - 1
    if isinstance(value, float):
        return round(value * 1.1 + 1.0, 2)
    if not isinstance(value, str):
        return None
    if sem in ("date", "datetime") or re.match(r"^\d{4}-\d{2}-\d{2}", value):
        try:
            if "T" in value:
                when = datetime.strptime(value[:19], "%Y-%m-%dT%H:%M:%S") + timedelta(days=1)
                return when.strftime("%Y-%m-%dT%H:%M:%SZ")
            return (date.fromisoformat(value[:10]) + timedelta(days=1)).isoformat()
        except ValueError:
            pass
    for other in pool.get(sem, []) if sem else []:
        if isinstance(other, str) and other and not same(other, value):
            return other
    return f"{value} (copy)" if value else "n/a"


def _replace(step: PlanStep, param: str, value: Any) -> PlanStep:
    return step.model_copy(update={"arguments": {**step.arguments, param: value}})


def _superseded_values(task: Task) -> dict[str, str]:
    """rule var -> the value the revision it replaced states (from the planted older revision)."""
    out: dict[str, str] = {}
    for step in task.plan:
        for ex in step.extract:
            if not ex.pattern or not ex.match:
                continue
            key_field, key = next(iter(ex.match.items()))
            old_key = older_revision(key) if isinstance(key, str) else None
            if old_key is None:
                continue
            for rows in task.initial_state.get(step.service, {}).values():
                for rec in rows.values():
                    if isinstance(rec, dict) and same(rec.get(key_field), old_key):
                        found = re.search(ex.pattern, str(rec.get(ex.field, "")))
                        if found:
                            out[ex.var] = found.group(1)
    return out


def derive_mutants(task: Task, classes: dict[str, type[Service]], bindings: dict[str, Any],
                   pool: Mapping[str, list[Any]]) -> list[Mutant]:
    """The mutants of a task's reference plan (`bindings`: what the reference run discovered)."""
    plan = task.plan
    out: list[Mutant] = []
    specs = {f"{s}__{t}": spec for s in task.services for t, spec in classes[s].tool_specs().items()}
    for k, step in enumerate(plan):
        if step.purpose not in WRITES:
            continue
        tool = step.tool.split("__", 1)[-1]
        out.append(Mutant("skip", f"skip:{k}:{tool}", plan, idle=k))
        spec = specs.get(step.tool)
        sems = spec.param_semantics if spec is not None else {}
        for param, arg in step.arguments.items():
            sem = sems.get(param, "")
            if sem.endswith("_id") and "." in sem:
                continue
            value = resolve(arg, bindings)
            wrong = wrong_value(value, sem, pool)
            if wrong is None or same(wrong, value):
                continue
            out.append(Mutant("wrong_value", f"wrong_value:{k}:{param}", plan[:k] + [_replace(step, param, wrong)] + plan[k + 1:]))
        if step.purpose == "write":
            out.append(Mutant("duplicate", f"duplicate:{k}:{tool}", plan[:k + 1] + [step] + plan[k + 1:]))
    out += _decoy_mutants(task, bindings)
    untaken = [k for k, step in enumerate(plan) if step.when and not applies(step, bindings)]
    for k in untaken[:3]:  # the branch the values rule out, taken anyway
        forced = plan[k].model_copy(update={"when": []})
        out.append(Mutant("branch", f"branch:{k}:{plan[k].tool.split('__', 1)[-1]}", plan[:k] + [forced] + plan[k + 1:]))
    for i, item in enumerate(task.report):
        value = report_value(item, bindings)
        out.append(Mutant("report_omit", f"report_omit:{i}", plan, report={i: None}))
        wrong = _wrong_report(value, bindings, pool)
        if wrong is not None:
            out.append(Mutant("report_alter", f"report_alter:{i}", plan, report={i: wrong}))
    if task.stale:
        out.append(Mutant("stale", "stale", plan, dict(task.stale)))
    for var, old in _superseded_values(task).items():
        out.append(Mutant("superseded", f"superseded:{var}", plan, {var: old}))
    return out


def _wrong_report(value: Any, bindings: dict[str, Any], pool: Mapping[str, list[Any]]) -> Any:
    """A wrong value to report in place of `value`: another number, or a text of the same kind that
    does not contain it (another email, another value the agent saw), so a report with it is wrong."""
    if not isinstance(value, str):
        return wrong_value(value, "", pool)
    low = value.lower()
    kind = "email" if "@" in value else ("date" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else "")
    if kind == "date":
        return wrong_value(value, "date", pool)
    seen = [v for v in (pool.get(kind, []) if kind else []) + list(bindings.values()) if isinstance(v, str)]
    for other in seen:
        if other and low not in other.lower() and not (kind and "@" not in other):
            return other
    return None


def _decoy_mutants(task: Task, bindings: dict[str, Any]) -> list[Mutant]:
    """For each record the rubric keeps unchanged, the first update whose target (a record a
    `field_equals` criterion checks) is in the same collection, aimed at it instead, run whatever
    its branch conditions say."""
    checked = {(c.check.service, c.check.record_id): c.check.collection for c in task.rubric if c.check.kind == "field_equals"}
    out: list[Mutant] = []
    for c in task.rubric:
        if c.check.kind != "record_unchanged":
            continue
        for k, step in enumerate(task.plan):
            if step.purpose != "update" or step.service != c.check.service:
                continue
            targets = [p for p, a in step.arguments.items() if isinstance(a, dict) and set(a) == {"$var"}
                       and checked.get((step.service, str(bindings.get(a["$var"])))) == c.check.collection]
            if targets:
                moved = step.model_copy(update={"arguments": {**step.arguments, targets[0]: c.check.record_id}, "when": []})
                out.append(Mutant("decoy", f"decoy:{k}:{c.check.record_id}", task.plan[:k] + [moved] + task.plan[k + 1:]))
                break
    return out


def answer_of(task: Task, bindings: dict[str, Any], stated: dict[int, Any] | None = None) -> str:
    """The closing report a run with these bindings writes (`stated` overrides or drops items)."""
    return _closing(task, _said(task, bindings, stated))


def _said(task: Task, bindings: dict[str, Any], stated: dict[int, Any] | None) -> list[tuple[int, Any]]:
    """(report item, its value) for each item the closing report states."""
    stated = stated or {}
    return [(i, stated.get(i, report_value(it, bindings))) for i, it in enumerate(task.report)
            if not (i in stated and stated[i] is None)]


def _closing(task: Task, said: list[tuple[int, Any]]) -> str:
    if not task.report:
        return ""
    return closing_text([task.report[i] for i, _ in said], [v for _, v in said], random.Random(0))


def _untimed(rec: Any) -> Any:
    return {f: v for f, v in rec.items() if not f.endswith("_at")} if isinstance(rec, dict) else rec


def differing(a: dict[str, Any], b: dict[str, Any]) -> tuple[set[tuple[str, str]], bool]:
    """The (service, collection) pairs whose rows differ between two states, and whether they differ
    only in timestamps (`*_at` fields): a mutant that did the same work later is equivalent."""
    out: set[tuple[str, str]] = set()
    timed_only = True
    for svc in a.keys() | b.keys():
        mine, other = a.get(svc, {}), b.get(svc, {})
        if mine == other:  # most services hold the very same rows dicts: compared without a loop here
            continue
        for coll in mine.keys() | other.keys():
            rows, theirs = mine.get(coll, {}), other.get(coll, {})
            if rows is theirs or rows == theirs:
                continue
            out.add((svc, coll))
            if timed_only and (rows.keys() != theirs.keys() or any(
                    r is not theirs[k] and r != theirs[k] and _untimed(r) != _untimed(theirs[k]) for k, r in rows.items())):
                timed_only = False
    return out, timed_only


def equivalent(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same final state up to timestamps."""
    return differing(a, b)[1]


def _touches(check: Any, changed: set[tuple[str, str]]) -> bool:
    if check.kind == "services_unchanged":
        return any(s in check.services for s, _ in changed)
    return (check.service, check.collection) in changed


@dataclass
class _Snapshot:
    state: dict[str, Any]
    now: Any
    bindings: dict[str, Any]


def rewind(env: Environment, snap: _Snapshot) -> None:
    """Put `env` back where a snapshot was taken: the state, the clock and a clear journal (ids follow
    from the rows). Equivalent to a fresh environment replaying the plan up to there, only cheaper."""
    env.ctx.journal.entries.clear()
    env.ctx.clock._now = snap.now
    for name, svc in env.services.items():
        state = snap.state[name]
        # A table still holding the snapshot's own rows was not written since (a write copies them first);
        # most mutants leave most services so.
        if any(t.rows is not state.get(c) for c, t in svc.db.items()):
            svc.load(state)


def _replay(plan: list[PlanStep], env: Environment, bindings: dict[str, Any], overrides: dict[str, Any]) -> None:
    """`solution.execute` from a mid-plan snapshot: the same calls, the same extractions."""
    for step in plan:
        if not applies(step, bindings):
            continue
        obs = env.step({"name": step.tool, "arguments": resolve(step.arguments, bindings)})
        for ex in step.extract:
            bindings[ex.var] = overrides[ex.var] if ex.var in overrides else (pick(obs.data, ex, bindings) if obs.ok else None)


@dataclass
class _Call:
    """What the reference run did at one plan step: the call it made (None when the step's conditions
    ruled it out), what it saw and found, and the state of the step's service after it."""

    arguments: dict[str, Any] | None
    obs: Any = None
    found: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] | None = None


_UNBOUND = object()


@dataclass
class _Reference:
    """The reference run, call by call, for replaying mutants that keep its steps (`_replay_aligned`).
    `reads[j]`: the variables step j depends on (arguments, conditions, what its extractions match);
    `values`: every variable's value at the end (`single`: each is bound by one step only, so that is
    its value at any point after that step)."""

    plan: list[PlanStep]
    calls: list[_Call]
    values: dict[str, Any]
    reads: list[frozenset[str]]
    single: bool
    final: dict[str, Any]  # the state the reference ends in


def _reads(step: PlanStep) -> frozenset[str]:
    names = variables(step.arguments) | {n for c in step.when for n in cond_variables(c)}
    for ex in step.extract:
        names |= variables(ex.match)
    return frozenset(names)


def _replay_aligned(ref: _Reference, m: Mutant, k: int, env: Environment, snap: _Snapshot,
                    bindings: dict[str, Any]) -> dict[str, Any]:
    """`execute(m.plan)` from the snapshot before step k, for a mutant whose plan is the reference's
    step for step (a value changed, a target moved, a branch forced, a variable forced, a step idle);
    returns the final state. A step the mutant shares with the reference, whose variables hold the
    reference's values, decides, calls and finds what the reference's did; when its service is as the
    reference left it and the clocks agree, the call's result is the reference's too, so it is taken
    from the record instead of being made again. Tools touch only their own service: a service the
    mutant has changed (`dirty`) runs its calls for real, and so does every call once the mutant has
    made more or fewer calls than the reference (`drift`: the clocks differ). A service whose state
    is the reference's again (a refused call, a wrong value set right later) is no longer dirty; once
    nothing differs and no later step does, the rest of the run is the reference's."""
    plan, overrides = m.plan, m.overrides
    dirty: set[str] = set()
    behind: dict[str, dict[str, Any]] = {}  # service -> the reference's state of it, not yet loaded into env
    now = dict(snap.state)  # service -> the reference's state of it at this point of its run
    changed: set[str] = set()  # variables whose value differs from the reference's
    drift = 0
    tail = max([j for j in range(k, len(plan)) if plan[j] is not ref.plan[j] or j == m.idle
                or any(ex.var in overrides for ex in plan[j].extract)], default=k - 1)
    for j in range(k, len(plan)):
        if j > tail and not dirty and not changed and drift == 0:  # the reference's run from here on
            bindings.update(ref.values)
            return ref.final
        step, call = plan[j], ref.calls[j]
        if call.arguments is not None:
            now[ref.plan[j].service] = call.after  # type: ignore[assignment]
        same = ref.single and step is ref.plan[j] and not (ref.reads[j] & changed)
        if same:
            if call.arguments is None:
                continue
            arguments = call.arguments
        else:
            if not applies(step, bindings):
                if call.arguments is not None:  # a call of the reference's the mutant does not make
                    drift -= 1
                    dirty.add(ref.plan[j].service)
                continue
            arguments = resolve(step.arguments, bindings)
        service = step.service
        if j == m.idle:  # left out; its time passes
            env.ctx.clock.tick()
            dirty.add(service)
            drift += (call.arguments is None)
            changed.update(ex.var for ex in step.extract)  # nothing found: unbound, as in `execute`
            continue
        if drift == 0 and call.arguments is not None and service not in dirty and \
                (same or (step.tool == ref.plan[j].tool and arguments == call.arguments)):
            env.ctx.clock.tick()
            behind[service] = call.after  # type: ignore[assignment]
            if same and not any(ex.var in overrides for ex in step.extract):
                bindings.update(call.found)
                continue
            obs = call.obs
        else:
            if service in behind:
                env.services[service].load(behind.pop(service))
            obs = env.step({"name": step.tool, "arguments": arguments})
            drift += (call.arguments is None)
            if drift == 0 and _same_state(env.services[service].db, now[service]):
                dirty.discard(service)
            else:
                dirty.add(service)
        for ex in step.extract:
            value = bindings[ex.var] = overrides[ex.var] if ex.var in overrides else (pick(obs.data, ex, bindings) if obs.ok else None)
            if _identical(value, ref.values.get(ex.var, _UNBOUND)):
                changed.discard(ex.var)
            else:
                changed.add(ex.var)
    final = env.state()
    final.update(behind)
    return final


def _same_state(db: Mapping[str, Any], state: Mapping[str, dict[str, Any]]) -> bool:
    """Do a service's tables hold `state`? (Records are shared, so equal rows are mostly the same objects.)"""
    return all(t.rows is state.get(c) or t.rows == state.get(c) for c, t in db.items())


def _identical(a: Any, b: Any) -> bool:
    """The same value, written the same way (1 and 1.0 are different arguments)."""
    return type(a) is type(b) and a == b


def _first_change(reference: list[PlanStep], mutant: Mutant) -> int:
    """The first step where the mutant's run can differ from the reference's."""
    k = 0
    while k < min(len(reference), len(mutant.plan)) and reference[k] is mutant.plan[k] and k != mutant.idle and \
            not (mutant.overrides and any(ex.var in mutant.overrides for ex in reference[k].extract)):
        k += 1
    return k


def _rejoin(reference: list[PlanStep], plan: list[PlanStep], k: int, bindings: dict[str, Any]) -> int | None:
    """The reference step from which a run of `plan` from its step k (with these values found) makes
    the reference's calls, or None. A step the values rule out changes nothing (no call, no value
    found), so a mutant whose changes are all in such steps runs as the reference does from the
    next step either takes on."""
    i = j = k
    while i < len(reference) and not applies(reference[i], bindings):
        i += 1
    while j < len(plan) and not applies(plan[j], bindings):
        j += 1
    if len(reference) - i == len(plan) - j and all(a is b for a, b in zip(reference[i:], plan[j:])):
        return i
    return None


@dataclass
class Recording:
    """The reference run, call by call: what `solution.execute` returns (`run`), each step's `_Call`,
    and a snapshot before each step and after the last (where a mutant may part from it)."""

    run: Run
    calls: list[_Call]
    snaps: list[_Snapshot]


def record(plan: list[PlanStep], env: Environment) -> Recording:
    """Play the plan on `env` as `execute` does, recording each call and a snapshot before each step
    (snapshots share the tables' rows: taking one is a few dict lookups unless the step before wrote)."""
    run = Run()
    calls: list[_Call] = []
    snaps: list[_Snapshot] = []
    for step in plan:
        snaps.append(_Snapshot(env.state(), env.ctx.clock.datetime(), dict(run.bindings)))
        if not applies(step, run.bindings):
            calls.append(_Call(None))
            continue
        arguments = resolve(step.arguments, run.bindings)
        obs = env.step({"name": step.tool, "arguments": arguments})
        run.calls.append({"name": step.tool, "arguments": arguments})
        run.observations.append(obs)
        found: dict[str, Any] = {}
        for ex in step.extract:  # in order: an extraction may match on the one before
            run.bindings[ex.var] = found[ex.var] = pick(obs.data, ex, run.bindings) if obs.ok else None
        calls.append(_Call(arguments, obs, found, env.services[step.service].dump()))
    snaps.append(_Snapshot(env.state(), env.ctx.clock.datetime(), dict(run.bindings)))
    return Recording(run, calls, snaps)


def mutation_test(task: Task, classes: dict[str, type[Service]], env: Environment, start: dict[str, Any],
                  reference_final: dict[str, Any], bindings: dict[str, Any], pool: Mapping[str, list[Any]],
                  recording: Recording | None = None) -> MutationResult:
    """Replay every mutant and score it against the rubric. `env` is an environment of the task (any
    state: it is rewound); each mutant starts from a snapshot of the reference run taken just before
    its first changed step, which is what a fresh environment replaying the mutant would reach. The
    reference run is recorded call by call (`recording`, when the caller already made it from
    `start`): a mutant that keeps the reference's steps takes its recorded results wherever what the
    mutant changed cannot reach (`_replay_aligned`)."""
    result = MutationResult()
    mutants = derive_mutants(task, classes, bindings, pool)
    if not mutants:
        return result
    starts = [_first_change(task.plan, m) for m in mutants]
    if recording is None:
        rewind(env, _Snapshot(start, env.ctx.clock.start, {}))
        recording = record(task.plan, env)
    calls, snaps, run = recording.calls, recording.snaps, recording.run.bindings
    bound = [ex.var for step in task.plan for ex in step.extract]
    ref = _Reference(task.plan, calls, run, [_reads(step) for step in task.plan], len(bound) == len(set(bound)), reference_final)
    reference_answer = answer_of(task, bindings)
    reported = [v for item in task.report for v in item.vars]
    answers: dict[tuple[Any, ...], str] = {}  # closing reports by what they state (mutants mostly state the same)
    # The reference's run from a step on (its final state and values), for mutants that rejoin it there:
    # replayed once for all of them (their snapshots, between steps that change nothing, are the same).
    resumed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    for m, k in zip(mutants, starts):
        snap = snaps[k]
        run = dict(snap.bindings)
        if k >= len(m.plan) and not m.overrides and m.idle is None:  # a report mutant: the same work, another closing message
            final = reference_final
        elif not m.overrides and m.idle is None and (back := _rejoin(task.plan, m.plan, k, snap.bindings)) is not None:
            if back not in resumed:
                rewind(env, snap)
                _replay(task.plan[back:], env, run, {})
                resumed[back] = env.state(), run
            final, run = resumed[back]
        elif len(m.plan) == len(task.plan):
            rewind(env, snap)
            final = _replay_aligned(ref, m, k, env, snap, run)
        else:
            rewind(env, snap)
            _replay(m.plan[k:], env, run, m.overrides)
            final = env.state()
        if not m.report and all(_identical(run.get(v, _UNBOUND), bindings.get(v, _UNBOUND)) for v in reported):
            answer = reference_answer  # the values the report states are the reference's: so is the report
        else:
            said = _said(task, run, m.report)
            key = tuple((i, type(v), repr(v)) for i, v in said)  # how a value is written follows from these (1 vs 1.0)
            answer = answers.get(key)
            if answer is None:
                answer = answers[key] = _closing(task, said)
        if m.kind == "stale":  # the probe's stale-value solution: scored on every criterion, equivalent or not
            result.stale_passes = all(evaluate(c.check, start, final, answer) for c in task.rubric)
        changed, same_work = differing(final, reference_final)
        if same_work and answer == reference_answer:
            result.equivalent += 1
            continue
        # The reference passes every criterion: one over collections the mutant left as the reference did
        # passes too, and so does a report criterion when the mutant writes the reference's report.
        other_report = answer != reference_answer
        killed = not all(evaluate(c.check, start, final, answer) for c in task.rubric
                         if (other_report if c.check.kind == "answer_mentions" else _touches(c.check, changed)))
        result.mutants += 1
        result.killed += killed
        counts = result.by_kind.setdefault(m.kind, [0, 0])
        counts[0] += 1
        counts[1] += killed
        if not killed:
            result.survivors.append(m.label)
    return result


def seeded_pool(classes: dict[str, type[Service]], names: list[str], seed: int) -> ValuePool:
    """Values of each semantic type in the seeded world (shared with the designer's cache), for wrong values."""
    from compoworld.tasks.design import _POOLS, _pool

    parts = {n: _POOLS[((n,), seed)] for n in names if ((n,), seed) in _POOLS}  # held here: computing the rest may empty the cache
    missing = [n for n in names if n not in parts]
    if missing:
        env = Environment([classes[n] for n in missing], seed=seed)
        parts.update(zip(env.services, _pool(env, tuple(env.services), seed).parts))
    return ValuePool([parts[n] for n in names])
