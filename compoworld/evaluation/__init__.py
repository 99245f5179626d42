"""Held-out evaluation of an agent or a trained checkpoint: `evaluate` rolls the agent out on the tasks of
a split (by default `test`, whose service sets no training row shares), scores every criterion, and
records the figures in the warehouse's `evaluations` and `evaluation_results` tables."""

from compoworld.evaluation.evaluate import EvalOptions, evaluate
from compoworld.evaluation.provenance import Provenance, provenance_of

__all__ = ["EvalOptions", "Provenance", "evaluate", "provenance_of"]
