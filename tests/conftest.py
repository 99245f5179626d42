import os
import shutil
import tempfile

# Offline, quiet, deterministic defaults for every test (set before any library import reads them).
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
# Caches (LLM responses, compiled services) go to a fresh folder, never into the checkout, and the
# folder goes when the session ends (about 500 MB of compiled corpus each: runs had filled the disk).
_OWN_CACHE = None
if "COMPOWORLD_CACHE_DIR" not in os.environ:
    _OWN_CACHE = os.environ["COMPOWORLD_CACHE_DIR"] = tempfile.mkdtemp(prefix="compoworld-test-cache-")


import pytest  # noqa: E402  (after the environment above is set)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _OWN_CACHE is not None:  # a folder the caller gave is the caller's to keep
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def tasks() -> list:
    """40 designs over the library services (seed 0): the accepted tasks rollout tests play."""
    from compoworld.tasks.factory import TaskConfig, generate

    accepted, _, _ = generate(TaskConfig(n=40, seed=0))
    assert len(accepted) >= 30
    return accepted


@pytest.fixture(scope="session")
def classes(tasks: list) -> dict:
    from compoworld.rollout.runner import classes_for

    return classes_for(tasks)


def build_hub(root, tasks: int):
    """A small pipeline run (no verify, no datasets stage) in `root` and its datasets in Hub layout
    under `root/hub`: (warehouse, hub folder, run id)."""
    from compoworld.config import PipelineConfig
    from compoworld.datasets import build_datasets
    from compoworld.stages.runner import run_pipeline
    from compoworld.warehouse import Warehouse

    cfg = PipelineConfig(tasks=tasks, group_size=2, stages={"verify": False, "datasets": False},
                         datasets_dir=str(root / "unused"))
    wh = Warehouse(root)
    run_pipeline(cfg, wh, log=lambda m: None)
    build_datasets(wh, root / "hub", cfg.run_id)
    return wh, root / "hub", cfg.run_id
