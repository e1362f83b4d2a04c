"""Observations written as their non-zero entries, for the games' encodings and the adapters.

An encoding's `observation_entries(rules, view, seat)` returns (ones, positions, values): the
positions that hold 1.0, then other positions and their numbers (written after the ones). The
flat observation is `dense(size, ...)` of them; the adapters fill a zeroed numpy array from the
same entries instead of converting a long list of mostly zeros.

An encoding may also give `observation_entries_from_state(rules, state, seat)`: the same
observation as a list of blocks of entries, read from the state without building the view.
`Blocks` keeps a block's entries from one step to the next while the state part it reads is
unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

Entries = tuple[list[int], list[int], list[float]]


def dense(size: int, entries: Entries) -> list[float]:
    """The flat observation of `size` numbers that `entries` describe (0.0 elsewhere)."""
    ones, positions, values = entries
    out = [0.0] * size
    for at in ones:
        out[at] = 1.0
    for at, value in zip(positions, values):
        out[at] = value
    return out


class Blocks(dict[str, tuple[Any, ...]]):
    """Entries of an observation's blocks by name, each kept with the part of the state it was
    read from, as (part, entries), and reused while a later state holds that same object.
    States are immutable and an action leaves the parts it does not change shared with the
    state before it, so from one step to the next most blocks are found here. A block's
    entries must depend only on its part (and the rules, which fix the layout), and no two
    blocks of an observation may write the same place (the PettingZoo adapter rewrites only
    the blocks that changed since the seat's last observation). Kept entries are handed out
    again: read them, never change them. Checked inline, as the adapters ask at every step:

        sky = blocks.get("sky")
        if sky is None or sky[0] is not s.hexes:
            sky = blocks["sky"] = (s.hexes, sky_entries(s.hexes))
        ... sky[1] ...
    """


def per_rules(cache: dict[int, tuple[Any, Any]], rules: Any, build: Callable[[Any], T]) -> T:
    """`build(rules)`, worked out once per rules object and kept in `cache` (by identity: a
    lookup that asks the rules nothing, for what an encoding reads at every step)."""
    found = cache.get(id(rules))
    if found is None or found[0] is not rules:
        if len(cache) >= 32:
            cache.clear()
        found = cache[id(rules)] = (rules, build(rules))
    value: T = found[1]
    return value


def dense_blocks(size: int, blocks: list[Entries]) -> list[float]:
    """The flat observation of `size` numbers that a list of blocks of entries describes (an
    encoding's `observation_entries_from_state`): each block's ones, then its other numbers."""
    out = [0.0] * size
    for ones, positions, values in blocks:
        for at in ones:
            out[at] = 1.0
        for at, value in zip(positions, values):
            out[at] = value
    return out
