"""Committed notebooks open unmodified: JupyterLab rewrites a notebook's kernelspec to the
kernel's own when the two differ, which marks the notebook modified the moment it opens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_kernelspec_is_the_kernels_own(path):
    spec = KernelSpecManager().get_kernel_spec("python3")
    kernelspec = json.loads(path.read_text())["metadata"]["kernelspec"]
    assert kernelspec == {"name": "python3", "display_name": spec.display_name,
                          "language": spec.language}
