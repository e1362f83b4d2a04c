"""Root-parallel search (`MCTSBot(workers=N)`): N whole searches from the same position, one per
worker process, each with its own seed; their root statistics are added up and the most visited
move is played. With an iteration budget the same seed and worker count give the same move.

The workers are kept between decisions (a pool per worker count), so a search pays for starting
processes once. Each worker builds the game's rules once from the rules' name, players and
options. `stop` does not reach the workers: a board's cancel waits for the searches under way
(their budget bounds them).
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import copy
import pickle
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import AloftnbError
from .processes import process_context, registered_here
from .search import Node

if TYPE_CHECKING:
    from .bots import MCTSBot
    from .rules import AnyRules

# (workers, start method) -> the pool; made on first use, shut down when Python exits.
_POOLS: dict[tuple[int, str], cf.ProcessPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()
# In a worker: the rules built for each (name, players, options) seen, so each is built once.
_WORKER_RULES: dict[bytes, AnyRules] = {}

Statistics = list[tuple[Any, int, float, int]]  # (action, visits, reward, available) per child


def search_on_workers(bot: MCTSBot, rules: AnyRules, state: Any, seat: int, seeds: list[int],
                      stop: Callable[[], bool] | None) -> Node:
    """One search per seed, each on a worker process, added up into one root."""
    alone = copy.copy(bot)
    alone.workers = 1
    defined_here = (registered_here(rules.name) or type(bot).__module__ == "__main__"
                    or type(rules).__module__ == "__main__")
    recipe = (rules.name, rules.players, dict(rules.options))
    # What only this process has (a game registered here, a class from a notebook cell) reaches
    # workers forked now, so those get a pool of their own for this search.
    pool = (cf.ProcessPoolExecutor(len(seeds), mp_context=process_context(True))
            if defined_here else _pool(len(seeds)))
    try:
        futures = [pool.submit(_search_task, recipe, state, seat, seed, alone) for seed in seeds]
        answers = [future.result() for future in futures]
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise AloftnbError(f"a root-parallel search could not send the position to its "
                           f"workers ({exc}); use workers=1") from exc
    finally:
        if defined_here:
            pool.shutdown(wait=False)
    return _added_up(answers)


def _added_up(answers: list[tuple[int, Statistics]]) -> Node:
    root = Node()
    for visits, children in answers:
        root.visits += visits
        for action, child_visits, reward, available in children:
            child = root.children.get(action)
            if child is None:
                child = root.children[action] = Node()
            child.visits += child_visits
            child.reward += reward
            child.available += available
    return root


def _search_task(recipe: tuple[str, int, dict[str, Any]], state: Any, seat: int, seed: int,
                 bot: MCTSBot) -> tuple[int, Statistics]:
    """In a worker: one search with its own generator; the root's statistics as plain values."""
    from .registry import make_rules

    key = pickle.dumps(recipe)
    rules = _WORKER_RULES.get(key)
    if rules is None:
        name, players, options = recipe
        rules = _WORKER_RULES[key] = make_rules(name, players, **options)
    root = bot.search_here(rules, state, seat, random.Random(seed))
    return root.visits, [(action, child.visits, child.reward, child.available)
                         for action, child in root.children.items()]


def _pool(workers: int) -> cf.ProcessPoolExecutor:
    context = process_context()
    key = (workers, context.get_start_method())
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context)
        return pool


def shut_down_pools() -> None:
    """Stop every root-parallel search's worker processes (they start again when needed)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)


atexit.register(shut_down_pools)
