"""First run: opening a notebook does not mark it modified (closing it asks nothing)."""

from __future__ import annotations

import pytest

NOTEBOOKS = ["notebooks/00-start-here.ipynb", "notebooks/balloons.ipynb", "notebooks/alu.ipynb",
             "notebooks/playtesting.ipynb"]

DIRTY_JS = """(path) => {
  for (const w of window.jupyterapp.shell.widgets('main')) {
    if (w.context && w.context.path === path) return w.context.model.dirty;
  }
  return null;
}"""


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_opening_a_notebook_leaves_it_unmodified(lab, path):
    lab.open(path)
    lab.page.wait_for_timeout(2500)  # widget managers and trust checks run after the kernel is up
    assert lab.page.evaluate(DIRTY_JS, path) is False
