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


def sample_walk(g: nx.DiGraph, rng: random.Random, cfg: WalkConfig = WalkConfig()) -> Walk | None:
    """A visit sequence of uniform length in [min, max] over exactly `n_services` services: every one
    covered, never the same service twice in a row, consecutive visits joined by a graph edge, and
    at least one revisit. Distractors are other services of the graph. None if the graph cannot."""
    length = rng.randint(cfg.min_length, cfg.max_length)
    starts = sorted(n for n in g.nodes if g.out_degree(n) > 0)
    if not starts or length <= cfg.n_services - 1:
        return None
    for _ in range(cfg.attempts):
        visits = [rng.choice(starts)]
        chosen = {visits[0]}
        while len(visits) < length:
            here = visits[-1]
            nxt = sorted(n for n in g.successors(here) if n != here)
            need = cfg.n_services - len(chosen)
            left = length - len(visits)
            if need >= left:  # only new services can still cover the set in time
                nxt = [n for n in nxt if n not in chosen]
            elif need == 0:
                nxt = [n for n in nxt if n in chosen]
            elif rng.random() < 0.5:
                fresh = [n for n in nxt if n not in chosen]
                nxt = fresh or nxt
            if not nxt:
                break
            step = rng.choice(nxt)
            visits.append(step)
            chosen.add(step)
        if len(visits) == length and len(chosen) == cfg.n_services:
            return _finish(g, rng, visits, cfg)
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
