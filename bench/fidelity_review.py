"""Material for a blind-ish review of compiled tools: draws tools of the shipped corpus with a
published seed, calls each a few times (the tool's own service, seeded state): the first calls
with arguments that name what the state holds (`schema_arguments`: ids, paths and names taken from
its records, as an agent would after a listing), the last with the task sampler's arguments
(`sample_arguments`, often naming nothing that exists), and prints each call and its result, for a person to judge
sensible / partly / wrong (bench/fidelity_review.md holds the review).

The tools come from the compiled cache (`compoworld synth` writes it); every compiled tool may be
drawn, whatever its fidelity level, and the level is printed beside it.

    python bench/fidelity_review.py [--seed 12] [--n 25] [--calls 3] [--width 600]
"""

from __future__ import annotations

import argparse
import json
import os
import random

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=12, help="the draw's seed (published in the review)")
    ap.add_argument("--n", type=int, default=25)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--width", type=int, default=600, help="characters of each result shown")
    args = ap.parse_args()

    from compoworld.services.environment import SEP, Environment
    from compoworld.services.sampling import sample_arguments, schema_arguments
    from compoworld.synthesis.cache import load_compiled

    services = load_compiled()
    if not services:
        raise SystemExit("no compiled services: run `compoworld synth` first")
    every = sorted((name, tool) for name, cls in services.items() for tool in cls.tool_specs())
    drawn = random.Random(args.seed).sample(every, args.n)
    levels: dict[str, int] = {}
    for i, (name, tool) in enumerate(drawn, 1):
        cls = services[name]
        spec = cls.tool_specs()[tool]
        level = cls._tools[tool].fidelity  # type: ignore[attr-defined]
        levels[str(level)] = levels.get(str(level), 0) + 1
        print(f"\n=== {i}. {name}{SEP}{tool}  [{level}, {spec.kind}, {'read-only' if spec.read_only else 'writes'}]")
        print(f"    description: {spec.description[:300]!r}")
        print(f"    parameters: {json.dumps(spec.input_schema.get('properties') or {})[:400]}")
        env = Environment([cls], seed=args.seed)
        rng = random.Random(f"{args.seed}:{name}:{tool}")
        for k in range(args.calls):
            # the first calls name what the state holds (ids, paths, names taken from its records, as
            # an agent would after a listing); the last one uses the task sampler's arguments
            state_call = schema_arguments(spec, env, name, rng) if k < args.calls - 1 else None
            call = state_call if state_call is not None else sample_arguments(spec, env, rng, optional_p=0.4, service=name)
            obs = env.step({"name": f"{name}{SEP}{tool}", "arguments": call})
            shown = obs.content if obs.ok else f"ERROR {obs.error_kind}: {obs.error}"
            print(f"  > {json.dumps(call)[:300]}")
            print(f"  < {shown[: args.width]}")
    print(f"\nseed {args.seed}: {args.n} tools drawn from {len(every)} compiled tools of {len(services)} services; levels {levels}")


if __name__ == "__main__":
    main()
