"""CompoWorld: a factory of verified cross-service tasks, trajectories and rewards for tool-using agents."""

__version__ = "0.1.0"
