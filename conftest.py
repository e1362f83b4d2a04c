"""Settings for every pytest run of the repository: tests/ and the notebooks nbval checks.

`make test` runs pytest on two processes (pytest-xdist, `--dist loadgroup`). A notebook's cells
share one kernel and run in order, so each notebook is one group: all its cells go to the same
process, one after another.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        path = Path(str(item.fspath))
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.xdist_group(f"notebook {path.name}"))
