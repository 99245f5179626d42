"""The paper's reward figure in miniature: uniform vs Completion-Focused rubric reward under GRPO.

A simulated policy solves T tasks, each with K rubric criteria. On task t, criterion k passes
independently with probability sigmoid(z[t, k]), where the logits are

    shared:      z[t, k] = b[t, k] + u[t, k] . theta    (theta in R^dim, one vector for all tasks)
    independent: z[t, k] = b[t, k] + theta[t, k]        (one free logit per criterion: the control)

b gives each task a few hard criteria (low base logit) among easy ones. In the shared model each
criterion's direction u[t, k] mixes a component common to all criteria (`transfer`: improving one
improves all), its own random direction (unrelated criteria interfere through the overlap of random
directions, about 1/sqrt(dim)), and, for a hard criterion, a tilt against the easy criteria of its
own task (`conflict`: getting the hard step right costs reliability on the easy ones).

Training is REINFORCE with GRPO advantages: each step samples B tasks and G rollouts per task,
scores every group's criterion matrix with `compoworld.rewards.GroupReward` (uniform or
completion-focused), and ascends mean_i A_i * grad log pi(C_i), optionally with an L2 pull back to
the start (`kl`, the stand-in for GRPO's KL penalty; TRL's default beta is 0). Both rewards get
the same worlds, initial policy, learning rate, task batches and random numbers (common uniforms,
thresholded against each run's own probabilities). The plotted figure is the exact full-completion
rate mean_t prod_k sigmoid(z[t, k]), so there is no evaluation noise, averaged over seeds.

The defaults were fixed before comparing the rewards: lr is set so that the *uniform* run goes from
about 0.30 to about 0.7 by step 140 (the range of the paper's figure); `--sweep` shows how the
comparison moves with the structure.

    python bench/reward_sim.py            # table every 10 steps + summary (+ sweep with --sweep)
    python bench/reward_sim.py --json     # one JSON object with both curves and final figures
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

import numpy as np

from compoworld.rewards import GroupReward, RewardKind

Coupling = Literal["shared", "independent"]
KINDS: tuple[RewardKind, RewardKind] = ("uniform", "completion_focused")


@dataclass(frozen=True)
class SimConfig:
    tasks: int = 64
    criteria: int = 6
    hard_per_task: int = 1
    easy_logit: float = 3.0  # sigmoid(3.0) ~ 0.95
    hard_logit: float = -0.5  # sigmoid(-0.5) ~ 0.38
    logit_sd: float = 0.5
    coupling: Coupling = "shared"
    dim: int = 1024  # more parameters than criteria (384), as in a language model
    transfer: float = 0.05
    conflict: float = 0.5
    steps: int = 150
    batch_tasks: int = 8
    group: int = 8
    lr: float = 4.0
    kl: float = 0.0
    floor: float = 0.1
    seeds: int = 16
    every: int = 10


@dataclass(frozen=True)
class World:
    bias: np.ndarray  # (T, K)
    directions: np.ndarray | None  # (T, K, dim) in the shared model, None for independent logits


def make_world(cfg: SimConfig, rng: np.random.Generator) -> World:
    t, k = cfg.tasks, cfg.criteria
    bias = rng.normal(cfg.easy_logit, cfg.logit_sd, size=(t, k))
    hard = np.zeros((t, k), dtype=bool)
    for row in range(t):
        hard[row, rng.choice(k, size=cfg.hard_per_task, replace=False)] = True
    bias[hard] = rng.normal(cfg.hard_logit, cfg.logit_sd, size=int(hard.sum()))
    own = rng.normal(0.0, 1.0 / np.sqrt(cfg.dim), size=(t, k, cfg.dim))
    if cfg.coupling == "independent":
        return World(bias, None)
    if cfg.conflict > 0.0 and cfg.hard_per_task < k:
        for row in range(t):
            easy_dir = own[row, ~hard[row]].mean(axis=0)
            easy_dir /= np.linalg.norm(easy_dir)
            tilted = np.sqrt(1.0 - cfg.conflict**2) * own[row, hard[row]] - cfg.conflict * easy_dir
            own[row, hard[row]] = tilted / np.linalg.norm(tilted, axis=1, keepdims=True)
    general = np.zeros(cfg.dim)
    general[0] = 1.0
    return World(bias, cfg.transfer * general + np.sqrt(1.0 - cfg.transfer**2) * own)


def probabilities(world: World, theta: np.ndarray) -> np.ndarray:
    z = world.bias + (theta if world.directions is None else world.directions @ theta)
    return 1.0 / (1.0 + np.exp(-z))


def train(cfg: SimConfig, world: World, kind: RewardKind, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One policy-gradient run; returns the full-completion and partial-credit curves (steps + 1)."""
    rng = np.random.default_rng(seed)  # same seed for both kinds: same task batches and uniforms
    theta = np.zeros(world.bias.shape if world.directions is None else cfg.dim)
    full, partial = np.empty(cfg.steps + 1), np.empty(cfg.steps + 1)
    for step in range(cfg.steps + 1):
        p_all = probabilities(world, theta)
        full[step], partial[step] = np.prod(p_all, axis=1).mean(), p_all.mean()
        if step == cfg.steps:
            break
        batch = rng.choice(cfg.tasks, size=cfg.batch_tasks, replace=False)
        uniforms = rng.random((cfg.batch_tasks, cfg.group, cfg.criteria))
        grad = np.zeros_like(theta)
        for j, task in enumerate(batch):
            p = p_all[task]
            c = (uniforms[j] < p).astype(np.float64)  # (G, K) criterion matrix of this group
            adv = GroupReward.from_matrix(c, kind=kind, floor=cfg.floor).advantages
            dz = adv @ (c - p)  # d log pi(c) / d z_k = c_k - p_k for independent Bernoulli criteria
            if world.directions is None:
                grad[task] += dz
            else:
                grad += dz @ world.directions[task]
        theta = theta + cfg.lr * (grad / (cfg.batch_tasks * cfg.group) - cfg.kl * theta)
    return full, partial


def run(cfg: SimConfig) -> dict[str, Any]:
    curves: dict[str, dict[str, Any]] = {}
    per_seed: dict[str, np.ndarray] = {}
    for kind in KINDS:
        runs = [train(cfg, make_world(cfg, np.random.default_rng(10_000 + s)), kind, seed=s) for s in range(cfg.seeds)]
        fa, pa = np.array([f for f, _ in runs]), np.array([p for _, p in runs])
        per_seed[kind] = fa
        curves[kind] = {
            "full_completion": fa.mean(axis=0).round(4).tolist(),
            "full_completion_sem": (fa.std(axis=0, ddof=1) / np.sqrt(cfg.seeds)).round(4).tolist(),
            "partial_credit": pa.mean(axis=0).round(4).tolist(),
        }
    # Paired by seed (same world, batches and uniforms), so the difference is far less noisy than either curve.
    diff = per_seed["completion_focused"] - per_seed["uniform"]
    curves["difference"] = {
        "mean": diff.mean(axis=0).round(4).tolist(),
        "sem": (diff.std(axis=0, ddof=1) / np.sqrt(cfg.seeds)).round(4).tolist(),
    }
    uni, cf = curves["uniform"]["full_completion"], curves["completion_focused"]["full_completion"]
    at = min(140, cfg.steps)
    ahead_from = next((i for i in range(1, len(uni)) if all(c > u for c, u in zip(cf[i:], uni[i:]))), None)
    return {
        "config": asdict(cfg),
        "curves": curves,
        "summary": {
            "start": {"uniform": uni[0], "completion_focused": cf[0]},
            "step_50": {"uniform": uni[min(50, cfg.steps)], "completion_focused": cf[min(50, cfg.steps)]},
            f"step_{at}": {"uniform": uni[at], "completion_focused": cf[at]},
            "final_partial_credit": {
                "uniform": curves["uniform"]["partial_credit"][-1],
                "completion_focused": curves["completion_focused"]["partial_credit"][-1],
            },
            f"difference_step_{at}": {"mean": curves["difference"]["mean"][at], "sem": curves["difference"]["sem"][at]},
            "seeds_completion_focused_ahead_at_end": int((diff[:, -1] > 0).sum()),
            "seeds": cfg.seeds,
            "completion_focused_ahead_from_step": ahead_from,
        },
    }


SCENARIOS: dict[str, dict[str, Any]] = {
    "default": {},
    "independent logits": {"coupling": "independent"},
    "no conflict": {"conflict": 0.0},
    "strong transfer 0.3": {"transfer": 0.3},
    "rare hard (p~0.18)": {"hard_logit": -1.5},
    "paper-like start": {"easy_logit": 3.5, "hard_logit": 1.5},
    "2 hard per task": {"hard_per_task": 2},
    "kl 0.002": {"kl": 0.002},
    "floor 0.01": {"floor": 0.01},
    "floor 1.0": {"floor": 1.0},
}


def sweep(base: SimConfig, seeds: int = 8) -> list[dict[str, Any]]:
    rows = []
    for name, overrides in SCENARIOS.items():
        s = run(replace(base, seeds=seeds, **overrides))["summary"]
        at = f"step_{min(140, base.steps)}"
        rows.append({"scenario": name, "start": s["start"]["uniform"], "step_50": s["step_50"], "at": at, "final": s[at],
                     "seeds_ahead": s["seeds_completion_focused_ahead_at_end"], "seeds": seeds})
    return rows


def print_report(result: dict[str, Any], every: int) -> None:
    uni, cf = result["curves"]["uniform"], result["curves"]["completion_focused"]
    print("full-completion rate (mean over seeds); diff = completion-focused - uniform, paired by seed, ± its sem;")
    print("partial credit = mean criterion pass rate")
    print(f"{'step':>5}  {'uniform':>8}  {'compl-foc':>9}  {'diff':>7}  {'±sem':>6}   {'partial uni':>11}  {'partial cf':>10}")
    d = result["curves"]["difference"]
    n = len(uni["full_completion"])
    for i in sorted(set(range(0, n, every)) | {n - 1}):
        u, c = uni["full_completion"][i], cf["full_completion"][i]
        print(f"{i:>5}  {u:>8.4f}  {c:>9.4f}  {d['mean'][i]:>+7.4f}  {d['sem'][i]:>6.4f}   "
              f"{uni['partial_credit'][i]:>11.4f}  {cf['partial_credit'][i]:>10.4f}")
    print(json.dumps(result["summary"]))
    if "sweep" in result:
        at = result["sweep"][0]["at"].removeprefix("step_")
        print(f"\n{'scenario':<22} {'start':>6}  {'uni@50':>7} {'cf@50':>7}  {'uni@' + at:>7} {'cf@' + at:>7}  cf ahead at end")
        for row in result["sweep"]:
            print(f"{row['scenario']:<22} {row['start']:>6.3f}  {row['step_50']['uniform']:>7.4f} "
                  f"{row['step_50']['completion_focused']:>7.4f}  {row['final']['uniform']:>7.4f} "
                  f"{row['final']['completion_focused']:>7.4f}  {row['seeds_ahead']}/{row['seeds']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--sweep", action="store_true", help="also compare the rewards across scenarios (8 seeds each)")
    defaults = SimConfig()
    for name in ("steps", "seeds", "group", "batch_tasks", "tasks", "dim"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name))
    for name in ("lr", "floor", "kl", "transfer", "conflict", "easy_logit", "hard_logit"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=float, default=getattr(defaults, name))
    ap.add_argument("--coupling", choices=["shared", "independent"], default=defaults.coupling)
    args = ap.parse_args(argv)
    overrides = {k: v for k, v in vars(args).items() if k not in ("json", "sweep")}
    cfg = replace(defaults, **overrides)
    t0 = time.perf_counter()
    result = run(cfg)
    if args.sweep:
        result["sweep"] = sweep(cfg)
    result["seconds"] = round(time.perf_counter() - t0, 2)
    if args.json:
        print(json.dumps(result))
    else:
        print_report(result, cfg.every)
        print(f"seconds: {result['seconds']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
