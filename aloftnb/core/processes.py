"""Worker processes for simulations and root-parallel search: which start method is safe here,
and whether a game exists only in this process."""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import sys


def registered_here(game: str) -> bool:
    """Whether `game` was registered at run time in this process (not one aloftnb ships as it
    ships it): a worker that does not copy this process would not know it."""
    from .registry import _GAMES, BUILT_IN_GAMES

    return _GAMES.get(game) != BUILT_IN_GAMES.get(game)


def process_context(defined_here: bool = False) -> multiprocessing.context.BaseContext:
    """forkserver where the parent may have threads (Jupyter, `python -m`): forking a threaded
    process can deadlock. A script run by path uses fork, since forkserver and spawn would re-run
    an unguarded script in every worker. Fork too when the workers need what only this process
    has (a bot class defined in a notebook cell): forkserver workers could not load it."""
    methods = multiprocessing.get_all_start_methods()
    main = sys.modules.get("__main__")
    by_path = (getattr(main, "__file__", None) is not None
               and getattr(main, "__spec__", None) is None)
    if defined_here and "fork" in methods:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods and not by_path:
        return multiprocessing.get_context("forkserver")
    if "fork" in methods:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()  # spawn: scripts need `if __name__ == "__main__":`
