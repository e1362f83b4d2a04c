"""MCTS's search loop and tree (`search`, `Node`, `most_visited`), used by bots.MCTSBot, and the
fallback reward of a finished game it reads (`rank_rewards`, GameHooks.rewards's fallback).

A module of its own so the compiled build compiles it (compiled/build.py's MODULES) while the bot
classes, which notebooks subclass, stay Python; the pure build runs the same code.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import inf, log, sqrt
from typing import Any

from .chance import CHANCE


class Node:
    """A move in the shared tree: its children by action and the statistics of the move."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0  # how often this move was legal when its parent was visited
        self.reward = 0.0  # summed reward of the seat that played the move into this node


def _as_list(actions: Any) -> list[Any]:
    return actions if isinstance(actions, list) else list(actions)


def search(rules: Any, state: Any, seat: int, rng: random.Random,
           stop: Callable[[], bool] | None, iterations: int | None, seconds: float | None,
           c: float, rewards_of: Callable[[Any, Any], Any], estimate: Callable[[Any, Any], Any],
           cutoff: int | None) -> Node:
    """Search `iterations` times (None: unbounded) or until `seconds` pass or `stop()` answers
    True (asked every 16 iterations); returns the root with its statistics. `cutoff`: playouts
    stop after that many decisions and take `estimate` as their reward (None: to the end).
    The algorithm is MCTSBot's (see its docstring)."""
    root = Node()
    deadline = -1.0 if seconds is None else time.perf_counter() + seconds
    # A step asks only the seat to move: None exactly when the game is over (the protocol's
    # rule, which the conformance suite checks at every step), so is_over is not called too.
    legal, apply, player_of = rules.legal_actions, rules.apply, rules.current_player
    legal = getattr(legal, "uncached", legal)  # without a simulation runner's one-state cache
    sample_chance, determinize, draw = rules.sample_chance, rules.determinize, rng.random
    done = 0
    while iterations is None or done < iterations:
        if done % 16 == 0 and ((deadline >= 0 and time.perf_counter() >= deadline)
                               or (stop is not None and stop())):
            break
        world = determinize(state, seat, rng)
        node = root
        path: list[Node] = []
        movers: list[int] = []  # the seat that played into each node of `path`
        # Selection and expansion.
        mover = player_of(world)
        while mover is not None:
            if mover == CHANCE:
                world = apply(world, sample_chance(world, rng))
                mover = player_of(world)
                continue
            moves = _as_list(legal(world))
            children = node.children
            # One lookup per move: the untried moves in order, and the children of the tried
            # ones, counted as available.
            untried: list[Any] = []
            tried: list[Node] = []
            for a in moves:
                found = children.get(a)
                if found is None:
                    untried.append(a)
                else:
                    found.available += 1
                    tried.append(found)
            if untried:
                action = untried[int(draw() * len(untried))]
                child = Node()
                children[action] = child
                child.available = 1
                world = apply(world, action)
                path.append(child)
                movers.append(mover)
                mover = player_of(world)
                break
            best_child = root
            best_value, best_action = -inf, moves[0]
            for i, ch in enumerate(tried):
                value = ch.reward / ch.visits + c * sqrt(log(ch.available) / ch.visits)
                if value > best_value:
                    best_child, best_value, best_action = ch, value, moves[i]
            world = apply(world, best_action)
            node = best_child
            path.append(node)
            movers.append(mover)
            mover = player_of(world)
        # Random playout to the end, or to the game's cut-off.
        decisions = 0
        while mover is not None and (cutoff is None or decisions < cutoff):
            if mover == CHANCE:
                world = apply(world, sample_chance(world, rng))
            else:
                moves = _as_list(legal(world))
                world = apply(world, moves[int(draw() * len(moves))])
                decisions += 1
            mover = player_of(world)
        rewards = rewards_of(rules, world) if mover is None else estimate(rules, world)
        for k, child in enumerate(path):
            child.visits += 1
            child.reward += float(rewards[movers[k]])
        root.visits += 1
        done += 1
    return root


def most_visited(root: Any, actions: list[Any]) -> Any:
    """The action whose child in `root` (a Node, or what an overridden `MCTSBot.search` gives)
    was visited most; ties go to the first in `actions`."""
    best, best_visits = actions[0], -2
    children = root.children
    for a in actions:
        child = children.get(a)
        visits = -1 if child is None else child.visits
        if visits > best_visits:
            best, best_visits = a, visits
    return best


def rank_rewards(rules: Any, state: Any) -> dict[int, float]:
    """Fallback reward in 0..1 per seat, from the outcome.

    Win/loss games and cooperative games: 1 to each winner, 0 to the others. Scored games: the
    share of rivals each seat beat, ties counting half."""
    if rules.traits.utility == "win_loss" or rules.traits.cooperative:
        result = rules.outcome(state)
        winners = result.winners if result is not None else ()
        return {seat: 1.0 if seat in winners else 0.0 for seat in range(rules.players)}
    scores = rules.scores(state)
    sign = 1.0 if rules.higher_score_wins else -1.0
    seats = list(scores)
    if len(seats) == 1:
        return {seats[0]: 0.5}
    rewards = {}
    for seat in seats:
        mine = sign * scores[seat]
        beaten = sum(1.0 if mine > sign * scores[o] else 0.5 if mine == sign * scores[o] else 0.0
                     for o in seats if o != seat)
        rewards[seat] = beaten / (len(seats) - 1)
    return rewards
