"""Rubric rewards: Completion-Focused weights, GRPO advantages and the TRL reward function."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from compoworld.rewards import (
    GroupReward,
    completion_focused_reward,
    completion_weights,
    grpo_advantages,
    make_trl_reward_func,
    uniform_reward,
)

floors = st.floats(min_value=1e-3, max_value=10.0, allow_nan=False)


@st.composite
def binary_groups(draw: st.DrawFn, min_criteria: int = 1) -> np.ndarray:
    g = draw(st.integers(1, 16))
    k = draw(st.integers(min_criteria, 12))
    return draw(arrays(np.float64, (g, k), elements=st.sampled_from([0.0, 1.0])))


@st.composite
def scored_groups(draw: st.DrawFn) -> np.ndarray:
    g = draw(st.integers(1, 16))
    k = draw(st.integers(1, 12))
    return draw(arrays(np.float64, (g, k), elements=st.floats(0.0, 1.0, allow_nan=False)))


any_groups = st.one_of(binary_groups(), scored_groups())


@given(any_groups, floors)
def test_weights_are_positive_and_sum_to_one(C: np.ndarray, floor: float) -> None:
    w = completion_weights(C, floor=floor)
    assert w.shape == (C.shape[1],)
    assert np.all(w > 0.0)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)


@given(binary_groups(), floors, st.data())
def test_criterion_every_rollout_passes_gets_the_floor_weight(C: np.ndarray, floor: float, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, C.shape[1] - 1))
    C = C.copy()
    C[:, k] = 1.0
    w = completion_weights(C, floor=floor)
    gaps = 1.0 - C.mean(axis=0)
    assert w[k] == pytest.approx(floor / (gaps.sum() + C.shape[1] * floor), rel=1e-12)
    assert w[k] == pytest.approx(w.min(), rel=1e-12)


@given(binary_groups(min_criteria=2), floors)
def test_rarest_passed_criterion_gets_the_largest_weight(C: np.ndarray, floor: float) -> None:
    rates = C.mean(axis=0)
    w = completion_weights(C, floor=floor)
    rarest = rates == rates.min()
    assert np.all(w[rarest] == w.max())
    # Strictly more than every criterion passed more often.
    assert np.all(w[~rarest] < w.max())


@given(binary_groups(), floors)
def test_weights_order_reverses_pass_rates(C: np.ndarray, floor: float) -> None:
    rates = C.mean(axis=0)
    w = completion_weights(C, floor=floor)
    for a in range(C.shape[1]):
        for b in range(C.shape[1]):
            if rates[a] < rates[b]:
                assert w[a] > w[b]


def test_weights_by_hand() -> None:
    # Pass rates 1.0, 0.5, 0.0 -> gaps 0, 0.5, 1 -> raw 0.1, 0.6, 1.1 over 1.8.
    C = np.array([[1, 1, 0], [1, 0, 0]])
    np.testing.assert_allclose(completion_weights(C, floor=0.1), [0.1 / 1.8, 0.6 / 1.8, 1.1 / 1.8])
    np.testing.assert_allclose(completion_focused_reward(C, floor=0.1), [0.7 / 1.8, 0.1 / 1.8])
    np.testing.assert_allclose(uniform_reward(C), [2 / 3, 1 / 3])


@given(any_groups)
def test_equal_pass_rates_give_uniform_weights(C: np.ndarray) -> None:
    C = np.tile(C[:, :1], (1, 4))  # every criterion has the same pass rate
    np.testing.assert_allclose(completion_weights(C), np.full(4, 0.25))
    np.testing.assert_allclose(completion_focused_reward(C), uniform_reward(C), atol=1e-12)


@given(any_groups)
def test_large_floor_tends_to_the_uniform_reward(C: np.ndarray) -> None:
    np.testing.assert_allclose(completion_focused_reward(C, floor=1e9), uniform_reward(C), atol=1e-8)


@given(any_groups, floors)
def test_rewards_stay_in_unit_interval_and_full_completion_scores_one(C: np.ndarray, floor: float) -> None:
    r = completion_focused_reward(C, floor=floor)
    assert np.all(r >= -1e-12) and np.all(r <= 1.0 + 1e-12)
    full = np.all(C == 1.0, axis=1)
    np.testing.assert_allclose(r[full], 1.0)


@given(
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.integers(1, 64),
    st.floats(1e-12, 1.0),
)
def test_all_equal_rewards_give_exactly_zero_advantages(value: float, n: int, eps: float) -> None:
    adv = grpo_advantages(np.full(n, value), eps=eps)
    assert adv.shape == (n,)
    assert np.all(adv == 0.0)


@given(arrays(np.float64, st.integers(2, 32), elements=st.floats(0.0, 1.0, allow_nan=False)))
def test_advantages_are_centred_and_scaled(r: np.ndarray) -> None:
    adv = grpo_advantages(r)
    if np.all(r == r[0]):
        assert np.all(adv == 0.0)
        return
    assert adv.mean() == pytest.approx(0.0, abs=1e-9)
    assert adv.std() <= 1.0 + 1e-12
    # Order-preserving: a higher reward never gets a lower advantage.
    order = np.argsort(r, kind="stable")
    assert np.all(np.diff(adv[order]) >= -1e-12)


def test_advantages_by_hand() -> None:
    np.testing.assert_allclose(grpo_advantages([0.0, 1.0], eps=0.0 + 1e-12), [-1.0, 1.0])
    np.testing.assert_allclose(grpo_advantages([1.0, 2.0, 3.0]), np.array([-1.0, 0.0, 1.0]) / (np.sqrt(2 / 3) + 1e-6))


@settings(max_examples=50)
@given(binary_groups(), floors)
def test_group_reward_bundles_consistent_parts(C: np.ndarray, floor: float) -> None:
    g = GroupReward.from_matrix(C, floor=floor)
    np.testing.assert_allclose(g.weights, completion_weights(C, floor=floor))
    np.testing.assert_allclose(g.rewards, completion_focused_reward(C, floor=floor))
    np.testing.assert_allclose(g.advantages, grpo_advantages(g.rewards))
    u = GroupReward.from_matrix(C, kind="uniform")
    np.testing.assert_allclose(u.rewards, uniform_reward(C))


def test_completion_focused_separates_what_uniform_ties() -> None:
    # Rollout 0 passes the hard criterion only; rollout 1 passes one easy criterion only. Uniform
    # scores them equal; completion-focused prefers the rollout that closes the rarer gap.
    C = np.array([[1, 0, 0]] + [[0, 1, 0]] * 7)
    uni = GroupReward.from_matrix(C, kind="uniform")
    cf = GroupReward.from_matrix(C)
    assert uni.rewards[0] == uni.rewards[1]
    assert cf.rewards[0] > cf.rewards[1]
    assert cf.advantages[0] > cf.advantages[1]


@pytest.mark.parametrize(
    "bad",
    [np.zeros((0, 3)), np.zeros((3, 0)), np.zeros(3), np.array([[0.5, 1.5]]), np.array([[np.nan, 1.0]])],
)
def test_invalid_matrices_are_rejected(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        completion_weights(bad)


def test_non_positive_floor_is_rejected() -> None:
    with pytest.raises(ValueError):
        completion_weights(np.ones((2, 2)), floor=0.0)


def _criteria_from_text(prompt: str, completion: str, **row: object) -> list[bool]:
    # Criterion k passes when the completion mentions the k-th required word of this row.
    return [word in completion for word in row["required"]]  # type: ignore[union-attr]


def test_trl_reward_func_groups_by_prompt_and_weights_within_each_group() -> None:
    fn = make_trl_reward_func(_criteria_from_text)
    prompts = ["task A"] * 4 + ["task B"] * 4
    completions = ["x y", "x", "x", "x", "p q r", "p q", "p", "p q r"]
    required = [["x", "y"]] * 4 + [["p", "q", "r"]] * 4
    rewards = fn(
        prompts=prompts,
        completions=completions,
        completion_ids=[[1]] * 8,
        required=required,
        trainer_state=object(),
        log_metric=lambda *a, **k: None,
    )
    assert fn.__name__ == "completion_focused_rubric_reward"
    assert len(rewards) == 8 and all(isinstance(r, float) for r in rewards)
    a = np.array([[1, 1], [1, 0], [1, 0], [1, 0]])
    b = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 0], [1, 1, 1]])
    np.testing.assert_allclose(rewards[:4], completion_focused_reward(a))
    np.testing.assert_allclose(rewards[4:], completion_focused_reward(b))
    # Each group's weights come from its own rollouts: a group scored alone gives the same rewards.
    np.testing.assert_allclose(fn(prompts=prompts[4:], completions=completions[4:], required=required[4:]), rewards[4:])


def test_trl_reward_func_handles_conversational_prompts_and_the_uniform_kind() -> None:
    seen: list[dict[str, object]] = []

    def score(prompt: list[dict[str, str]], completion: list[dict[str, str]], **row: object) -> list[bool]:
        seen.append(row)
        text = completion[0]["content"]
        return ["done" in text, "sent" in text]

    conv_a = [{"role": "user", "content": "do A"}]
    conv_b = [{"role": "user", "content": "do B"}]
    prompts = [conv_a, conv_a, conv_b, conv_b]
    completions = [[{"role": "assistant", "content": c}] for c in ["done sent", "done", "sent", "nothing"]]
    fn = make_trl_reward_func(score, kind="uniform")
    rewards = fn(prompts=prompts, completions=completions, task_id=["a", "a", "b", "b"], environments=[1, 2, 3, 4])
    assert rewards == [1.0, 0.5, 0.5, 0.0]
    assert seen[0] == {"task_id": "a", "environment": 1}
    assert fn.__name__ == "uniform_rubric_reward"


def test_trl_reward_func_rejects_ragged_criteria_within_a_group() -> None:
    results = iter([[True, False], [True]])
    fn = make_trl_reward_func(lambda p, c, **row: next(results))
    with pytest.raises(ValueError, match="criterion counts"):
        fn(prompts=["t", "t"], completions=["a", "b"])


def test_trl_signature_matches_grpo_trainer_call() -> None:
    # GRPOTrainer calls reward_func(prompts=..., completions=..., completion_ids=..., **reward_kwargs).
    import inspect

    trl_grpo = pytest.importorskip("trl.trainer.grpo_trainer")
    source = inspect.getsource(trl_grpo.GRPOTrainer._calculate_rewards)
    assert "prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs" in source
