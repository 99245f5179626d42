"""`make run`'s wall time, peak memory, and how much of it is orchestration.

Runs, each in a fresh subprocess on a fresh warehouse (so nothing is cached):

1. `compoworld run` - what `make run` runs: the Prefect pipeline flow, ephemeral local API included;
2. `compoworld run --no-prefect` - the very same stage functions called in one process, no Prefect;
3. `compoworld run` again on the warehouse of 1 - every batch a cache hit: the cost of a resume
   that has nothing left to do.

Orchestration overhead = wall(1) - wall(2). Peak memory is the largest resident set of any process
of the run (`ru_maxrss` of RUSAGE_CHILDREN, read by a wrapper process per run so runs do not mix).

    python bench/make_run.py [--tasks N] [--config PATH] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from compoworld.config import load_config
from compoworld.warehouse import Warehouse

ROOT = Path(__file__).resolve().parents[1]
# Runs `argv` and reports its wall time and the peak RSS of its process tree (Linux: KiB).
_MEASURE = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(json.dumps({"rc": rc, "wall_s": time.perf_counter() - t0,
                  "peak_rss_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def measure(argv: list[str]) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k not in ("PREFECT_HOME", "PREFECT_API_URL")}
    env.update(PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1", LITELLM_LOCAL_MODEL_COST_MAP="True",
               HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    out = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if result["rc"] != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {result['rc']}")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, help="tasks (default: the config's, 1,000 for configs/default.yaml)")
    ap.add_argument("--config", help="YAML config (default: configs/default.yaml)")
    ap.add_argument("--keep", help="write the warehouses under this folder and keep them")
    args = ap.parse_args()

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cw-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-c", "import sys; from compoworld.cli import main; sys.exit(main())", "run"]
    opts = ["--tasks", str(args.tasks)] if args.tasks else []
    rows = {}
    for name, extra in (("flow", []), ("plain", ["--no-prefect"]), ("resume", [])):
        wh = base / ("flow" if name == "resume" else name)
        cfg = base / f"{wh.name}.yaml"
        if not cfg.exists():  # the config, with the datasets next to the warehouse rather than in ./out
            body = load_config(args.config).model_dump(mode="json")
            cfg.write_text(yaml.safe_dump({**body, "datasets_dir": str(base / f"{wh.name}-datasets")}))
        rows[name] = measure([*cli, "--config", str(cfg), *opts, "--warehouse", str(wh), *extra])
    flow, plain, resume = rows["flow"], rows["plain"], rows["resume"]
    stats = Warehouse(base / "flow").stats()
    same = stats == Warehouse(base / "plain").stats()
    overhead = flow["wall_s"] - plain["wall_s"]
    print(f"compoworld run ({stats['tasks']:,} tasks, {stats['trajectories']:,} trajectories, {sum(stats.values()):,} rows)")
    print(f"  make run (Prefect pipeline flow): {flow['wall_s']:7.1f} s wall, peak RSS {flow['peak_rss_mib']:7.0f} MiB")
    print(f"  same stages, no Prefect:          {plain['wall_s']:7.1f} s wall, peak RSS {plain['peak_rss_mib']:7.0f} MiB")
    print(f"  orchestration overhead:           {overhead:7.1f} s ({overhead / flow['wall_s']:.1%} of make run)")
    print(f"  rerun, everything cached:         {resume['wall_s']:7.1f} s wall")
    print(f"  same row counts with and without Prefect: {same}")
    if not args.keep:
        import shutil

        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
