"""The warehouse tour notebook runs clean, top to bottom, on a warehouse it builds itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "warehouse_tour.ipynb"


@pytest.mark.integration
def test_warehouse_tour_runs_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.delenv("COMPOWORLD_WAREHOUSE", raising=False)  # the notebook builds its own small warehouse
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")  # stored without outputs
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    assert len(images) == 4  # pass rates by kind, difficulty vs success, the graph, the group's weights
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "services" in text and "typed edges in the warehouse" in text
    assert not list(Path(os.getcwd()).glob("compoworld-tour-*"))  # nothing written into the checkout
