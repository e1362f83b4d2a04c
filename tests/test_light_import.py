"""The boards need neither pandas nor bokeh (issue 23): the JupyterLite site installs aloftnb
without them, so `import aloftnb`, every game's board and its bots must not import them, and
playtesting without them says it needs the full install."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import aloftnb

HEAVY = ("pandas", "bokeh", "jupyter_bokeh", "jupyterlab", "numpy")


def test_boards_and_bots_of_every_game_import_neither_pandas_nor_bokeh():
    probe = textwrap.dedent(f"""
        import sys
        import aloftnb
        for game, players in [("alu", 2), ("balloons", 2), ("cloudspire", 2),
                              ("commodores", 3)]:
            match = aloftnb.new_match(game, players=players, seed=1)
            board = match.board(bots={{1: "greedy"}})
            match.play(match.legal_actions()[0])
            board.control.step()
            aloftnb.new_match(game, players=players, seed=2).board(viewer="designer")
        print(sorted(m for m in {HEAVY!r} if m in sys.modules))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[-2] == "[]"


def test_playtesting_without_pandas_says_it_needs_the_full_install(monkeypatch):
    for module in [m for m in sys.modules if m.startswith("aloftnb.playtest.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    with pytest.raises(ModuleNotFoundError, match="needs the full install") as refused:
        aloftnb.simulate("balloons", players=2, bots="random", games=2, seed=1)
    assert refused.value.name == "pandas"
    assert "`pip install aloftnb`" in str(refused.value)
