"""The adapters' per-step bookkeeping that runs in loops: legal actions by index and the action
mask's bytes. Compiled in the compiled build (compiled/build.py), as both run at every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Actions whose index an adapter keeps by identity before it starts again: a game that builds
# new action objects at every step would otherwise grow the table without end.
KNOWN_LIMIT = 50_000


def moves_by_index(actions: list[Any], known: dict[int, tuple[Any, int]],
                   index_of: Callable[[Any, Any], int], owner: Any, first: bool,
                   limit: int = KNOWN_LIMIT) -> dict[int, Any]:
    """{index: action} of `actions`; with several actions of one index, the first (`first`) or
    the last. `known` keeps each action's index by the object's identity (id -> (the action,
    its index)): the games hand out the same action objects from step to step, and an identity
    lookup costs less than hashing an action's fields. Other objects ask `index_of(owner,
    action)` (a function and its first argument, so no bound method is made per step); `known`
    starts again when it holds `limit` actions."""
    moves: dict[int, Any] = {}
    for move in actions:
        entry = known.get(id(move))
        if entry is None or entry[0] is not move:
            if len(known) >= limit:
                known.clear()
            entry = (move, index_of(owner, move))
            known[id(move)] = entry  # (holding the action keeps its id from being reused)
        index: int = entry[1]
        if not first or index not in moves:
            moves[index] = move
    return moves


def mask_bytes(count: int, indices: Any) -> bytearray:
    """`count` bytes, 1 at each of `indices` (all in 0..count-1) and 0 elsewhere: the action
    mask's numbers, for numpy.frombuffer."""
    mask = bytearray(count)
    for index in indices:
        mask[index] = 1
    return mask
