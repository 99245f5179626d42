"""Seeded random walks over the dependency graph, with the paper's constraints."""

from __future__ import annotations

import random

import networkx as nx
from pydantic import BaseModel

from compoworld.tasks.model import Walk


class WalkConfig(BaseModel):
    n_services: int = 5
    n_distractors: int = 5
    min_length: int = 7
    max_length: int = 12
    attempts: int = 200


def sample_walk(g: nx.DiGraph, rng: random.Random, cfg: WalkConfig = WalkConfig(), services: list[str] | None = None) -> Walk | None:
    """A visit sequence of uniform length in [min, max] over exactly `n_services` services: every one
    covered, never the same service twice in a row, consecutive visits joined by a graph edge, and
    at least one revisit. The service set is drawn uniformly among those the graph connects, so task
    sets stay diverse; distractors are other services of the graph. None if the graph cannot."""
    length = rng.randint(cfg.min_length, cfg.max_length)
    nodes = _walkable(g)
    if len(nodes) < cfg.n_services or length <= cfg.n_services:
        return None
    for _ in range(cfg.attempts):
        chosen = sorted(services) if services else sorted(rng.sample(nodes, cfg.n_services))
        if not services and not _can_write(g, chosen):
            continue
        sub = g.subgraph(chosen)
        if not nx.is_strongly_connected(sub):
            continue
        visits = _cover(sub, rng, chosen, length)
        if visits:
            return _finish(g, rng, visits, cfg)
    return None


def service_sets(g: nx.DiGraph, cfg: WalkConfig, seed: int, limit: int = 200_000) -> list[list[str]] | None:
    """Every service set a walk can cover, in a seeded order, when there are few enough to list: task k
    then takes set k, so a small library still gives distinct sets. None for large libraries, where
    uniform draws rarely repeat."""
    from itertools import combinations
    from math import comb

    nodes = _walkable(g)
    if comb(len(nodes), cfg.n_services) > limit:
        return None
    succ = {n: set(g.successors(n)) for n in nodes}
    pred = {n: set(g.predecessors(n)) for n in nodes}
    sets = [list(c) for c in combinations(nodes, cfg.n_services)
            if _strongly_connected(set(c), succ, pred) and _can_write(g, list(c))]
    random.Random(f"sets/{seed}").shuffle(sets)
    return sets


def _walkable(g: nx.DiGraph) -> list[str]:
    """Services a walk can pass through: joined both ways, and able to hand a value on (a lookup)."""
    return sorted(n for n, data in g.nodes(data=True) if g.out_degree(n) > 0 and g.in_degree(n) > 0
                  and (data.get("profile") is None or data["profile"].lookups))


def _can_write(g: nx.DiGraph, chosen: list[str], at_least: int = 2) -> bool:
    """Enough of the chosen services can write (a task ends with a write, and most write on the way)."""
    profiles = [g.nodes[n].get("profile") for n in chosen]
    return sum(p is None or bool(p.actions) for p in profiles) >= at_least


def _strongly_connected(members: set[str], succ: dict[str, set[str]], pred: dict[str, set[str]]) -> bool:
    """Every member reaches every other inside the set: reachable from one member both ways."""
    start = next(iter(members))
    for nbrs in (succ, pred):
        seen, todo = {start}, [start]
        while todo:
            for n in nbrs[todo.pop()] & members:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        if seen != members:
            return False
    return True


def _cover(sub: nx.DiGraph, rng: random.Random, chosen: list[str], length: int) -> list[str] | None:
    """A random walk in the chosen subgraph that covers it in exactly `length` visits (a few tries)."""
    for _ in range(20):
        visits = [rng.choice(chosen)]
        while len(visits) < length:
            here = visits[-1]
            nxt = sorted(n for n in sub.successors(here) if n != here)
            need = [n for n in chosen if n not in visits]
            if len(need) >= length - len(visits):
                nxt = [n for n in nxt if n in need]
            elif need and rng.random() < 0.5:
                nxt = [n for n in nxt if n in need] or nxt
            if not nxt:
                break
            visits.append(rng.choice(nxt))
        if len(visits) == length and set(visits) == set(chosen):
            return visits
    return None


def _finish(g: nx.DiGraph, rng: random.Random, visits: list[str], cfg: WalkConfig) -> Walk:
    order = list(dict.fromkeys(visits))
    others = sorted(set(g.nodes) - set(order))
    distractors = sorted(rng.sample(others, min(cfg.n_distractors, len(others))))
    types = [rng.choice(sorted(g[a][b]["types"])) for a, b in zip(visits, visits[1:])]
    revisits = [i for i, s in enumerate(visits) if s in visits[:i]]
    return Walk(services=order, distractors=distractors, visits=visits, edge_types=types, revisits=revisits)


def check_walk(w: Walk, cfg: WalkConfig = WalkConfig()) -> list[str]:
    """The constraints a walk must satisfy; an empty list means it does."""
    problems = []
    if not cfg.min_length <= len(w.visits) <= cfg.max_length:
        problems.append("length")
    if set(w.visits) != set(w.services) or len(w.services) != cfg.n_services:
        problems.append("coverage")
    if any(a == b for a, b in zip(w.visits, w.visits[1:])):
        problems.append("immediate repeat")
    if not w.revisits:
        problems.append("no revisit")
    if set(w.distractors) & set(w.services):
        problems.append("distractor overlaps")
    if len(w.edge_types) != len(w.visits) - 1:
        problems.append("edge types")
    return problems
