"""Service synthesis over the shipped MCP corpus: load, compile and verify every server (2 workers by
default, as on the 2-core reference machine), and print the issue's figures with wall seconds (and,
with --workers 1, the CPU seconds of that one process: the one-core figure on a busy machine).

The cache goes to a temporary directory, so running the benchmark leaves `compoworld synth`'s
cache alone; `--write-cache` writes the real one instead. Also times loading the cache back.

    python bench/synth.py [--json] [--workers N] [--specs PATH ...] [--write-cache]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--specs", nargs="*", help="spec files or folders (default: the shipped corpus)")
    ap.add_argument("--write-cache", action="store_true", help="write the real synth cache instead of a temporary one")
    args = ap.parse_args()

    from compoworld.synthesis import run_synth
    from compoworld.synthesis.cache import cache_dir, load_compiled

    with tempfile.TemporaryDirectory(prefix="synth-bench-") as tmp:
        target = cache_dir() if args.write_cache else Path(tmp) / "synth"
        t0, c0 = time.perf_counter(), time.process_time()
        report = run_synth([Path(p) for p in args.specs] if args.specs else None, workers=args.workers, cache_directory=target)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        t1 = time.perf_counter()
        loaded = load_compiled(directory=target)
        load_s = time.perf_counter() - t1
    s = report.summary()
    figures = {
        "servers_in": s["servers_in"], "servers_unique": s["servers_unique"], "servers_duplicate": s["servers_duplicate"],
        "servers_rejected": s["servers_rejected"], "services_compiled": s["services_compiled"],
        "services_verified": s["services_verified"], "verified_share": s["verified_share"],
        "tools_in": s["tools_in"], "tools_unique": s["tools_unique"], "tools_rejected": s["tools_rejected"],
        "tools_compiled": s["tools_compiled"], "tools_deterministic": s["tools_deterministic"],
        "tools_world_model": s["tools_world_model"], "deterministic_share": s["deterministic_share"], "ops": s["ops"],
        "library_services": s["library_services"], "library_verified": s["library_verified"],
        "fidelity": s["fidelity"], "fidelity_share": s["fidelity_share"], "fidelity_checks": s["fidelity_checks"],
        "checks_run": s["checks_run"], "checks_failed": s["checks_failed"], "workers": s["workers"],
        "cpus": os.cpu_count(), "seconds_load_specs": round(report.seconds_load, 2),
        "seconds_compile_verify": round(report.seconds_compile_verify, 2), "seconds": round(wall, 2),
        "cpu_seconds_main_process": round(cpu, 2),
        "cache_services_loaded": len(loaded), "seconds_cache_load": round(load_s, 3),
        "rejection_reasons": _count(r["reason"] for r in s["rejections"]),
    }
    if args.json:
        print(json.dumps(figures))
        return
    for k, v in figures.items():
        print(f"{k:>24}: {v}")


def _count(items: object) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:  # type: ignore[attr-defined]
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


if __name__ == "__main__":
    main()
