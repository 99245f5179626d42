"""Rollouts: agents (reference teacher, perturbed policy, LiteLLM), trajectories, scoring, groups."""

from compoworld.rollout.agents import LiteLLMAgent, PerturbedPolicy, ReferenceTeacher, make_agent
from compoworld.rollout.runner import collect, reward_rows, rollout, run_rollouts, summarize
from compoworld.rollout.trajectory import Trajectory

__all__ = ["LiteLLMAgent", "PerturbedPolicy", "ReferenceTeacher", "Trajectory", "collect", "make_agent",
           "reward_rows", "rollout", "run_rollouts", "summarize"]
