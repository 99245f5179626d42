"""One coherent world per seed, and a graph of plausible hand-offs (issue 11, items 1 and 9).

    python bench/world.py [--seeds 32] [--walks 1000] [--seed 0] [--compiled-every 5] [--json]

Prints the cross-service invariant violations over the seeded library worlds a default task run
draws (`world_violations`, by kind), the dependency graph's density with roles and on semantic types
alone (share of ordered service pairs joined), the hand-offs (type:source role>target role) its
edges carry, and the roles the transitions of `--walks` walks use (drawn as the task factory draws
them: service set k, then a walk over it). With `--compiled-every K` (0: skip), the seeded records of
every K-th service of the shipped corpus, by family (`compoworld.synthesis.world.entity_family`), and
the share that carries business filler: two or more words of the business vocabulary
(`fake.WORDS`: "quarterly renewal onboarding ...") in one string field, and the invariant
violations of their seeded worlds (each service alone; `world_check`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from typing import Any

from compoworld.services.environment import generated_state
from compoworld.services.fake import WORDS
from compoworld.services.registry import library_services
from compoworld.services.service import Context
from compoworld.services.world_check import violation_kinds, world_violations
from compoworld.tasks.graph import build_graph, edge_records, roles_used
from compoworld.tasks.quality import graph_density
from compoworld.tasks.walk import WalkConfig, sample_walk, service_sets


def compiled_records(every: int) -> dict[str, Any]:
    """Records of every `every`-th compiled corpus service: how many, by family, and with filler."""
    from compoworld.synthesis.compiler import build_service
    from compoworld.synthesis.infer import infer_plan
    from compoworld.synthesis.loader import load_specs
    from compoworld.synthesis.pipeline import service_names
    from compoworld.synthesis.world import entity_family

    vocab = set(WORDS)
    loaded = load_specs()
    records = filler = 0
    families: Counter[str] = Counter()
    violations: list[str] = []
    for server, name in list(zip(loaded.servers, service_names(loaded.servers, set())))[::every]:
        plan = infer_plan(server, name)
        state = generated_state(build_service(plan), 0)
        violations += world_violations({name: state}, Context(0).clock.today())
        for e in plan.entities:
            rows = list(state.get(e.collection, {}).values())
            families[entity_family(e.entity, e.collection, e.topic) or "(none)"] += len(rows)
            for r in rows:
                records += 1
                filler += any(isinstance(v, str) and len(set(re.findall(r"[a-z]+", v.lower())) & vocab) >= 2 for v in r.values())
    return {"compiled_records": records, "compiled_records_by_family": dict(families.most_common()),
            "compiled_records_with_business_filler": filler, "business_filler_share": round(filler / max(records, 1), 4),
            "compiled_world_violations": len(violations), "compiled_world_violation_kinds": violation_kinds(violations)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, default=32, help="world seeds 0..N-1 (a default task run draws 32)")
    ap.add_argument("--walks", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--compiled-every", type=int, default=5, help="sample every K-th corpus service (0: skip)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    classes = library_services()
    violations: list[str] = []
    for seed in range(args.seeds):
        state = {name: generated_state(cls, seed) for name, cls in sorted(classes.items())}
        violations += world_violations(state, Context(seed).clock.today())
    g = build_graph(classes.values())
    untyped = build_graph(classes.values(), roles=False)
    handoffs = Counter(f"{e['semantic_type']}:{e['source_role'] or '*'}>{e['target_role'] or '*'}" for e in edge_records(g))
    cfg = WalkConfig()
    sets = service_sets(g, cfg, args.seed) or []
    used: Counter[str] = Counter()
    walks = 0
    for i in range(args.walks):
        rng = random.Random(f"task/{args.seed}/{i}")
        walk = sample_walk(g, rng, cfg, sets[i % len(sets)] if sets else None)
        if walk is None:
            continue
        walks += 1
        used.update(f"{t}:{r}" for t, r in zip(walk.edge_types, roles_used(g, walk.visits, walk.edge_types)))
    n = g.number_of_nodes()
    out = {
        "world_seeds": args.seeds,
        "world_violations": len(violations),
        "world_violation_kinds": violation_kinds(violations),
        "services": n,
        "graph_density": graph_density(g),
        "graph_density_without_roles": graph_density(untyped),
        "connected_pairs": g.number_of_edges(),
        "connected_pairs_without_roles": untyped.number_of_edges(),
        "typed_edges": len(edge_records(g)),
        "edge_handoffs": dict(handoffs.most_common()),
        "walks": walks,
        "walk_transitions_by_role": {k: round(v / max(sum(used.values()), 1), 4) for k, v in used.most_common()},
    }
    if args.compiled_every > 0:
        out.update(compiled_records(args.compiled_every))
    if args.json:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
