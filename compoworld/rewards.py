"""Rubric rewards for a rollout group: uniform, Completion-Focused, and GRPO advantages.

A group is the G rollouts of one task; its criterion matrix ``C`` has shape (G, K) with
``C[i, k]`` the result of rubric criterion k on rollout i (0/1, or a partial score in [0, 1]).
Everything here is pure numpy math on that matrix: no I/O, no randomness.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Literal, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

RewardKind = Literal["uniform", "completion_focused"]
FloatArray = NDArray[np.float64]

DEFAULT_FLOOR = 0.1
DEFAULT_EPS = 1e-6

# Keyword arguments GRPOTrainer adds for its own bookkeeping; they are not dataset columns.
_TRL_BOOKKEEPING = frozenset({"completion_ids", "trainer_state", "log_extra", "log_metric"})


def _criterion_matrix(C: ArrayLike) -> FloatArray:
    m = np.asarray(C, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] == 0 or m.shape[1] == 0:
        raise ValueError(f"criterion matrix must be 2-D (rollouts x criteria), non-empty; got shape {m.shape}")
    if not np.all(np.isfinite(m)) or m.min() < 0.0 or m.max() > 1.0:
        raise ValueError("criterion results must be finite and within [0, 1]")
    return m


def pass_rates(C: ArrayLike) -> FloatArray:
    """Per-criterion pass rate over the group (column mean), shape (K,)."""
    return _criterion_matrix(C).mean(axis=0)


def uniform_reward(C: ArrayLike) -> FloatArray:
    """Uniform rubric reward: the fraction of criteria each rollout passes (row mean), shape (G,)."""
    return _criterion_matrix(C).mean(axis=1)


def completion_weights(C: ArrayLike, floor: float = DEFAULT_FLOOR) -> FloatArray:
    """Criterion weights from the group's completion gaps: ``(1 - pass_rate_k + floor)``, normalized.

    A criterion few rollouts satisfy has a large gap and dominates the reward, so the learning signal
    goes to what still stands between the group and full completion instead of to criteria it
    already meets.

    Why a floor: the gap is estimated from only G rollouts, and a criterion that (nearly) every
    rollout passed has a gap near zero. Without a floor, a rollout that breaks such a criterion
    would lose almost no reward, so on parameters shared between criteria an update could trade
    completed criteria away for the hard ones and undo work the next groups must relearn. The
    floor keeps every weight at least ``floor / sum(gap + floor)`` (exactly the weight of a
    criterion every rollout passes, the minimum weight), so breaking any criterion always costs
    reward; and it keeps the normalization defined when every gap is zero, where the weights
    become uniform. As ``floor`` grows the weights tend to uniform (the uniform reward). Within one
    group a criterion every rollout passes adds the same amount to every reward, so its weight
    changes the reward's level, not that group's GRPO advantages.

    Args:
        C: criterion matrix (rollouts x criteria), entries in [0, 1].
        floor: positive weight every criterion keeps before normalization.

    Returns:
        Weights of shape (K,), every one positive, summing to 1.
    """
    if not (np.isfinite(floor) and floor > 0.0):
        raise ValueError(f"floor must be a positive finite number; got {floor}")
    raw = (1.0 - pass_rates(C)) + floor
    return raw / raw.sum()


def completion_focused_reward(C: ArrayLike, floor: float = DEFAULT_FLOOR) -> FloatArray:
    """Completion-Focused Rubric Reward: each rollout's criterion results weighted by `completion_weights`."""
    m = _criterion_matrix(C)
    return m @ completion_weights(m, floor=floor)


def grpo_advantages(rewards: ArrayLike, eps: float = DEFAULT_EPS) -> FloatArray:
    """Group-relative advantages ``(r - mean) / (std + eps)``, population std, within one group.

    A group whose rewards are all equal carries no preference between its rollouts; it returns
    exact zeros (floating-point ``r - mean`` would otherwise leave noise amplified by ``1/eps``).
    """
    r = np.asarray(rewards, dtype=np.float64)
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)):
        raise ValueError("rewards must be a non-empty 1-D array of finite numbers")
    if not eps > 0.0:
        raise ValueError(f"eps must be positive; got {eps}")
    if np.all(r == r[0]):
        return np.zeros_like(r)
    return (r - r.mean()) / (r.std() + eps)


def rubric_reward(C: ArrayLike, kind: RewardKind = "completion_focused", floor: float = DEFAULT_FLOOR) -> FloatArray:
    """The reward of each rollout in a group under the chosen rubric reward."""
    if kind == "uniform":
        return uniform_reward(C)
    if kind == "completion_focused":
        return completion_focused_reward(C, floor=floor)
    raise ValueError(f"unknown reward kind {kind!r}; expected 'uniform' or 'completion_focused'")


@dataclass(frozen=True, slots=True)
class GroupReward:
    """One group's criterion weights, per-rollout rewards and GRPO advantages."""

    kind: RewardKind
    pass_rates: FloatArray
    weights: FloatArray
    rewards: FloatArray
    advantages: FloatArray

    @classmethod
    def from_matrix(
        cls,
        C: ArrayLike,
        kind: RewardKind = "completion_focused",
        floor: float = DEFAULT_FLOOR,
        eps: float = DEFAULT_EPS,
    ) -> GroupReward:
        m = _criterion_matrix(C)
        if kind == "uniform":
            weights = np.full(m.shape[1], 1.0 / m.shape[1])
        elif kind == "completion_focused":
            weights = completion_weights(m, floor=floor)
        else:
            raise ValueError(f"unknown reward kind {kind!r}; expected 'uniform' or 'completion_focused'")
        rewards = m @ weights
        return cls(kind, m.mean(axis=0), weights, rewards, grpo_advantages(rewards, eps=eps))


ScoreFn = Callable[..., Sequence[bool | float]]
TrlRewardFunc = Callable[..., list[float]]


def _prompt_key(prompt: Any) -> str:
    # Conversational prompts are lists of message dicts (unhashable); a canonical JSON form groups them.
    return json.dumps(prompt, sort_keys=True, default=repr)


def make_trl_reward_func(
    score_fn: ScoreFn,
    kind: RewardKind = "completion_focused",
    floor: float = DEFAULT_FLOOR,
) -> TrlRewardFunc:
    """A reward function for TRL's ``GRPOTrainer(reward_funcs=...)`` built on a rubric scorer.

    TRL calls ``reward_func(prompts=..., completions=..., completion_ids=..., **columns)`` where each
    dataset column arrives as a list aligned with ``completions``, and the ``num_generations``
    completions of a prompt are adjacent. For every rollout this calls
    ``score_fn(prompt, completion, **row)`` (``row`` holds that rollout's value of each column, and
    ``environment`` its environment instance when the trainer has an ``environment_factory``) to get
    the per-criterion results, groups rollouts by identical prompt, and returns each rollout's
    rubric reward computed within its group. TRL then forms the GRPO advantages itself.

    Weights are computed from the rollouts this call sees: when a group is split across processes
    (possible with several GPUs) each part is weighted from its own rollouts.

    Args:
        score_fn: ``(prompt, completion, **row) -> per-criterion results`` (bools or scores in [0, 1]).
        kind: ``"completion_focused"`` or ``"uniform"``.
        floor: the completion-weight floor (ignored for ``"uniform"``).
    """
    if kind not in ("uniform", "completion_focused"):
        raise ValueError(f"unknown reward kind {kind!r}; expected 'uniform' or 'completion_focused'")

    def reward_func(prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float]:
        n = len(completions)
        if len(prompts) != n:
            raise ValueError(f"{len(prompts)} prompts for {n} completions")
        columns: dict[str, Sequence[Any]] = {}
        for key, value in kwargs.items():
            if key in _TRL_BOOKKEEPING or not isinstance(value, (list, tuple)) or len(value) != n:
                continue
            columns["environment" if key == "environments" else key] = value

        groups: dict[str, list[int]] = {}
        for i, prompt in enumerate(prompts):
            groups.setdefault(_prompt_key(prompt), []).append(i)

        rewards = [0.0] * n
        for members in groups.values():
            rows = []
            for i in members:
                row = {key: col[i] for key, col in columns.items()}
                rows.append([float(x) for x in score_fn(prompts[i], completions[i], **row)])
            widths = {len(r) for r in rows}
            if len(widths) != 1:
                raise ValueError(f"rollouts of one prompt returned different criterion counts: {sorted(widths)}")
            for i, r in zip(members, rubric_reward(np.array(rows), kind=kind, floor=floor)):
                rewards[i] = float(r)
        return rewards

    reward_func.__name__ = f"{kind}_rubric_reward"
    reward_func.__qualname__ = reward_func.__name__
    return reward_func
