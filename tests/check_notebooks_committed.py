"""Fail unless every notebook in notebooks/ was committed run, with its outputs.

nbval compares outputs only for cells that were run in the committed notebook: a cell saved with
no execution count is executed but never compared, so a notebook committed without outputs would
pass nbval while checking nothing. `make test` runs this beside nbval.

    python tests/check_notebooks_committed.py [notebook ...]   (default: notebooks/*.ipynb)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]


def problems(path: Path) -> list[str]:
    try:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
    except Exception as exc:  # any unreadable notebook is a problem to report, not a crash
        return [f"{path}: not a valid notebook: {exc}"]
    unrun = [
        str(number)
        for number, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and cell.source.strip() and cell.execution_count is None
    ]
    if unrun:
        return [
            f"{path}: code cell(s) {', '.join(unrun)} (0-based) have no execution count, so nbval "
            "would not compare their outputs: restart the kernel, run all, save, commit"
        ]
    return []


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or sorted((REPO / "notebooks").glob("*.ipynb"))
    if not paths:
        print("check_notebooks_committed: no notebooks in notebooks/", file=sys.stderr)
        return 1
    found = [problem for path in paths for problem in problems(path)]
    for problem in found:
        print(f"check_notebooks_committed: {problem}", file=sys.stderr)
    if not found:
        print(f"==> notebooks committed with outputs: {', '.join(p.name for p in paths)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
