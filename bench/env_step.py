"""Environment step throughput on one core: a composed environment of 10 services at realistic sizes.

Every call goes through `Environment.step` (parse, validation, dispatch, journaling, JSON observation),
the same path agents use. Prints read/write calls per second, reset time and state-hash time.

    python bench/env_step.py [--json] [--services N] [--scale S] [--seconds T]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from compoworld.services import compose, service
from compoworld.services.registry import library_services
from compoworld.services.sampling import valid_sequence


def rate(env, calls: list[dict], seconds: float) -> tuple[float, float]:
    """Calls per second over a time budget (resets between passes are not timed), and the success fraction."""
    n = ok = 0
    busy = 0.0
    step = env.step
    while busy < seconds:
        env.reset(0)
        t0 = time.perf_counter()
        for call in calls:
            ok += step(call).ok
        busy += time.perf_counter() - t0
        n += len(calls)
    return n / busy, ok / max(n, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--services", type=int, default=10)
    ap.add_argument("--scale", type=float, default=10.0, help="collection size factor (10 = hundreds of records)")
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, as the target says

    names = sorted(library_services())[: args.services]
    env = compose(names, seed=0, scale=args.scale)
    records = sum(len(t) for svc in env.services.values() for t in svc.db.values())
    rng = random.Random(0)
    reads = valid_sequence(env, rng, read_only=True)
    env.reset(0)
    writes = valid_sequence(env, rng, read_only=False)
    read_rate, read_ok = rate(env, reads, args.seconds)
    write_rate, write_ok = rate(env, writes, args.seconds)

    reset_ms = []
    for _ in range(50):
        t = time.perf_counter()
        env.reset(0)
        reset_ms.append((time.perf_counter() - t) * 1000)
    # A state hash keeps each collection's digest by the rows' identity (`service.derived`): `hash_ms` is a state none of
    # whose collections was hashed before (the cache emptied), `hash_after_write_ms` the usual case,
    # one write since the last hash (the written collection is hashed again, the rest are known).
    hash_ms, rehash_ms = [], []
    for k in range(50):
        service._DERIVED.clear()
        t = time.perf_counter()
        env.state_hash()
        hash_ms.append((time.perf_counter() - t) * 1000)
        env.step(writes[k % len(writes)])
        t = time.perf_counter()
        env.state_hash()
        rehash_ms.append((time.perf_counter() - t) * 1000)
    out = {
        "read_calls_per_s": round(read_rate),
        "write_calls_per_s": round(write_rate),
        "reset_ms": round(statistics.median(reset_ms), 3),
        "hash_ms": round(statistics.median(hash_ms), 3),
        "hash_after_write_ms": round(statistics.median(rehash_ms), 3),
        "services": len(names),
        "records": records,
        "read_tools": len({c["name"] for c in reads}),
        "write_tools": len({c["name"] for c in writes}),
        "read_ok_fraction": round(read_ok, 3),
        "write_ok_fraction": round(write_ok, 3),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{len(names)} services, {records} records, {out['read_tools']} read tools, {out['write_tools']} write tools, {len(reads)}+{len(writes)} calls per pass")
        print(f"reads/s  {out['read_calls_per_s']:>9,}  (ok {read_ok:.0%})   target >= 60,000")
        print(f"writes/s {out['write_calls_per_s']:>9,}  (ok {write_ok:.0%})   target >= 40,000")
        print(f"reset    {out['reset_ms']:>9} ms   target < 10 ms")
        print(f"hash     {out['hash_ms']:>9} ms   target < 10 ms (every collection; {out['hash_after_write_ms']} ms after one write)")


if __name__ == "__main__":
    main()
