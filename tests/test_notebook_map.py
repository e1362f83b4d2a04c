"""The notebooks lead on: start-here ends with a map of every notebook in a suggested order, and
each notebook ends by pointing to the next one in that order (the last back to start-here).

The map in start-here's last cell is the one source of the order; a notebook added to notebooks/
fails here until the map lists it and the one before it points to it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "notebooks"
START = "00-start-here"
LINK = re.compile(r"\]\(([\w.-]+)\.ipynb\)")


def _last_markdown(name: str) -> str:
    cells = json.loads((FOLDER / f"{name}.ipynb").read_text())["cells"]
    assert cells[-1]["cell_type"] == "markdown", f"{name}.ipynb does not end with a text cell"
    return "".join(cells[-1]["source"])


def _map() -> list[str]:
    text = _last_markdown(START)
    items = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    return [LINK.search(line).group(1) for line in items if LINK.search(line)]


def test_start_here_ends_with_a_map_of_every_notebook():
    order = _map()
    everything = sorted(path.stem for path in FOLDER.glob("*.ipynb") if path.stem != START)
    assert len(order) == len(set(order)), f"a notebook is listed twice: {order}"
    assert sorted(order) == everything, (
        f"the map lists {sorted(order)}, notebooks/ holds {everything}")
    lines = _last_markdown(START).splitlines()
    for name in order:  # each entry says what the notebook is for, not just its name
        line = next(line for line in lines if f"({name}.ipynb)" in line)
        assert len(line.split(":", 1)[-1].split()) >= 6, f"the map's line for {name} is bare"


@pytest.mark.parametrize("position", range(len(_map())), ids=lambda i: _map()[i])
def test_each_notebook_ends_by_pointing_to_the_next(position):
    order = _map()
    name = order[position]
    following = order[position + 1] if position + 1 < len(order) else START
    text = _last_markdown(name)
    heading = text.splitlines()[0]
    assert heading.startswith("## Next"), f"{name}.ipynb's last cell is no 'Next' cell: {heading}"
    assert LINK.search(heading).group(1) == following, (
        f"{name}.ipynb points to {LINK.search(heading).group(1)}, the map's next is {following}")

