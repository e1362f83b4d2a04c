"""The searches' loops and tree: `search` (plain UCT, bots.UCTBot's), `guided_search`
(bots.MCTSBot's: move statistics, progressive widening, a prior at the root), `Node`,
`most_visited`, and the fallback reward of a finished game they read (`rank_rewards`,
GameHooks.rewards's fallback).

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

    __slots__ = ("available", "children", "reward", "secrets", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0  # how often this move was legal when its parent was visited
        self.reward = 0.0  # summed reward of the seat that played the move into this node
        # guided_search only: at a rival's move, one node per secret a world deals that rival,
        # whose children and statistics are kept apart.
        self.secrets: dict[Any, Node] | None = None


def _as_list(actions: Any) -> list[Any]:
    return actions if isinstance(actions, list) else list(actions)


def search(rules: Any, state: Any, seat: int, rng: random.Random,
           stop: Callable[[], bool] | None, iterations: int | None, seconds: float | None,
           c: float, rewards_of: Callable[[Any, Any], Any], estimate: Callable[[Any, Any], Any],
           cutoff: int | None) -> Node:
    """Search `iterations` times (None: unbounded) or until `seconds` pass or `stop()` answers
    True (asked every 16 iterations); returns the root with its statistics. `cutoff`: playouts
    stop after that many decisions and take `estimate` as their reward (None: to the end).
    The algorithm is UCTBot's (see its docstring); MCTSBot's is `guided_search`."""
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


# A MAST entry: [summed reward, count] of one action for one seat, over every iteration so far.
MastTable = dict[Any, list[float]]
UNSEEN = 0.5  # a playout's value of an action MAST has no statistics for yet


def guided_search(rules: Any, state: Any, seat: int, rng: random.Random,
                  stop: Callable[[], bool] | None, iterations: int | None, seconds: float | None,
                  c: float, rewards_of: Callable[[Any, Any], Any],
                  estimate: Callable[[Any, Any], Any], cutoff: int | None, epsilon: float,
                  tournament: int, widening: float | None, root_rank: dict[Any, int] | None,
                  evaluate: Callable[[Any, Any, int], float] | None,
                  secret: Callable[[Any, Any, int], Any] | None = None) -> Node:
    """MCTSBot's search: `search`'s loop (determinized worlds, open-loop chance, UCB on
    availability), guided by what it learns and what the game knows:

    - playouts by move statistics (MAST): each seat's mean reward of every action it played in
      any iteration so far; a playout move is the best of `tournament` legal actions drawn at
      random, or with probability `epsilon` a random one (epsilon 1: random playouts). With
      `evaluate` (the game's evaluation), candidates are judged by the position each leads to.
    - progressive widening: with `widening` W, a node passed through n times gets a new child
      only while it has fewer than 1 + W * sqrt(n); new children come in `root_rank` order at
      the root (a prior: lower first), else best MAST value first (unseen actions first, ties
      in a random order).
    - `cutoff`: playouts stop after that many decisions and take `estimate` as their reward.
    - `secret` (the game's hook, or None): a rival's statistics, in the tree and in MAST, are
      kept apart for each secret the world deals it, so it plays as one who knows its cards.
    """
    root = Node()
    deadline = -1.0 if seconds is None else time.perf_counter() + seconds
    legal, apply, player_of = rules.legal_actions, rules.apply, rules.current_player
    legal = getattr(legal, "uncached", legal)  # without a simulation runner's one-state cache
    sample_chance, determinize, draw = rules.sample_chance, rules.determinize, rng.random
    seats = range(rules.players)
    tables: dict[Any, MastTable] = {}  # MAST tables by (seat, secret)
    mast: list[MastTable] = [tables.setdefault((p, None), {}) for p in seats]
    greedy_playouts = evaluate is not None
    done = 0
    while iterations is None or done < iterations:
        if done % 16 == 0 and ((deadline >= 0 and time.perf_counter() >= deadline)
                               or (stop is not None and stop())):
            break
        world = determinize(state, seat, rng)
        if secret is not None:
            mast = [tables.setdefault((p, None if p == seat else secret(rules, world, p)), {})
                    for p in seats]
        node = root
        path: list[Node] = []
        movers: list[int] = []  # the seat that played each action of `played`
        played: list[Any] = []  # the tree's actions, then the playout's
        mover = player_of(world)
        while mover is not None:
            if mover == CHANCE:
                world = apply(world, sample_chance(world, rng))
                mover = player_of(world)
                continue
            moves = _as_list(legal(world))
            if secret is not None and mover != seat:
                # A rival chooses knowing its own secret: go through the node of the secret
                # this world deals it.
                tag = secret(rules, world, mover)
                by_secret = node.secrets
                if by_secret is None:
                    by_secret = node.secrets = {}
                inner = by_secret.get(tag)
                if inner is None:
                    inner = by_secret[tag] = Node()
                inner.visits += 1
                node = inner
            children = node.children
            untried: list[Any] = []
            tried: list[Node] = []
            tried_moves: list[Any] = []
            for a in moves:
                found = children.get(a)
                if found is None:
                    untried.append(a)
                else:
                    found.available += 1
                    tried.append(found)
                    tried_moves.append(a)
            wide = (widening is None or not tried
                    or len(children) < 1.0 + widening * sqrt(node.visits))
            if untried and wide:
                if node is root and root_rank is not None:
                    action = _first_ranked(untried, root_rank)
                else:
                    action = _best_by_mast(untried, mast[mover], 1.0, draw)
                child = Node()
                children[action] = child
                child.available = 1
                world = apply(world, action)
                path.append(child)
                movers.append(mover)
                played.append(action)
                mover = player_of(world)
                break
            best_child = tried[0]
            best_value, best_action = -inf, tried_moves[0]
            for i, ch in enumerate(tried):
                value = ch.reward / ch.visits + c * sqrt(log(ch.available) / ch.visits)
                if value > best_value:
                    best_child, best_value, best_action = ch, value, tried_moves[i]
            world = apply(world, best_action)
            node = best_child
            path.append(node)
            movers.append(mover)
            played.append(best_action)
            mover = player_of(world)
        decisions = 0
        while mover is not None and (cutoff is None or decisions < cutoff):
            if mover == CHANCE:
                world = apply(world, sample_chance(world, rng))
                mover = player_of(world)
                continue
            moves = _as_list(legal(world))
            count = len(moves)
            if count == 1 or draw() < epsilon:
                action = moves[int(draw() * count)]
            elif greedy_playouts:
                assert evaluate is not None
                action = _best_by_evaluation(rules, world, moves, mover, tournament, evaluate,
                                             draw)
            else:
                action = _tournament(moves, mast[mover], tournament, draw)
            world = apply(world, action)
            movers.append(mover)
            played.append(action)
            decisions += 1
            mover = player_of(world)
        rewards = rewards_of(rules, world) if mover is None else estimate(rules, world)
        for k, child in enumerate(path):
            child.visits += 1
            child.reward += float(rewards[movers[k]])
        for k, action in enumerate(played):
            who = movers[k]
            reward = float(rewards[who])
            entry = mast[who].get(action)
            if entry is None:
                mast[who][action] = [reward, 1.0]
            else:
                entry[0] += reward
                entry[1] += 1.0
        root.visits += 1
        done += 1
    return root


def _first_ranked(actions: list[Any], rank: dict[Any, int]) -> Any:
    """The action ranked first (lowest) in `rank`; unranked ones after every ranked one."""
    best, best_rank = actions[0], 1 << 62
    for action in actions:
        place = rank.get(action, 1 << 61)
        if place < best_rank:
            best, best_rank = action, place
    return best


def _best_by_mast(actions: list[Any], table: MastTable, unseen: float,
                  draw: Callable[[], float]) -> Any:
    """The action with the best mean reward in `table` (`unseen` for one never played), ties
    going to the first from a random starting place."""
    count = len(actions)
    start = int(draw() * count)
    best, best_value = actions[start], -inf
    for k in range(count):
        action = actions[(start + k) % count]
        entry = table.get(action)
        value = unseen if entry is None else entry[0] / entry[1]
        if value > best_value:
            best, best_value = action, value
    return best


def _tournament(actions: list[Any], table: MastTable, size: int,
                draw: Callable[[], float]) -> Any:
    """The best by MAST of `size` actions drawn at random (with replacement)."""
    count = len(actions)
    best, best_value = actions[0], -inf
    for _ in range(size):
        action = actions[int(draw() * count)]
        entry = table.get(action)
        value = UNSEEN if entry is None else entry[0] / entry[1]
        if value > best_value:
            best, best_value = action, value
    return best


def _best_by_evaluation(rules: Any, world: Any, actions: list[Any], mover: int, size: int,
                        evaluate: Callable[[Any, Any, int], float],
                        draw: Callable[[], float]) -> Any:
    """The best for `mover` by the game's evaluation of `size` actions drawn at random."""
    count = len(actions)
    best, best_value = actions[0], -inf
    apply = rules.apply
    for _ in range(size):
        action = actions[int(draw() * count)]
        value = evaluate(rules, apply(world, action), mover)
        if value > best_value:
            best, best_value = action, value
    return best


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
