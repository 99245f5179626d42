"""SFT and RL datasets assembled from the warehouse, their cards, and Hub pushes.

`build_datasets(wh, out_dir, run_id)` is the pipeline's "assemble datasets" stage; `push_to_hub`
and `push_to_folder` publish a built layout. Heavy imports (datasets, huggingface_hub) happen
inside the functions that need them.
"""

from compoworld.datasets.build import BuildOptions, build, build_datasets, build_rl, build_sft
from compoworld.datasets.hub import PushError, push_to_folder, push_to_hub
from compoworld.datasets.rows import SFTFilters

__all__ = ["BuildOptions", "PushError", "SFTFilters", "build", "build_datasets", "build_rl", "build_sft",
           "push_to_folder", "push_to_hub"]
