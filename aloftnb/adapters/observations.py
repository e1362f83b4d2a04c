"""Observations as numpy arrays for the adapters, filled from an encoding's non-zero entries
(aloftnb.kit.observations) when the game declares them, else from `rules.observation`.

An encoding may also declare `observation_entries_from_state(rules, state, seat)`: the same
observation as blocks of entries, read from the state without building the view (a view is a
whole dict, and costs more than a step of the game). The adapters use it when the rules object
builds its views as the encoding's game does. A PettingZoo observation is its seat's last one
with only the blocks that changed rewritten (blocks the encoding kept hold the same lists).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.compiled import is_compiled
from ..core.rules import Rules
from ..kit.observations import Entries

# What a state-based encoder reproduces: a rules class that changes any of these (a subclass
# with its own view) gets the view-based entries instead.
_VIEW_METHODS = ("view", "state_to_dict", "derived")

def put_entries(flat: Any, ones: Any, positions: Any, values: Any) -> None:
    """Write 1.0 at `ones`, then `values` at `positions`, into the flat float32 array."""
    if BY_NUMBER:
        view: Any = memoryview(flat)
        for at in ones:
            view[at] = 1.0
        for at, value in zip(positions, values):
            view[at] = value
    else:
        flat.put(ones, 1.0)
        flat.put(positions, values)


# Compiled, a loop writing each number through a memoryview costs less than numpy converting
# the entries' lists for `put`; interpreted, `put` costs less. Either writes the same float32s.
BY_NUMBER = is_compiled(put_entries)


def put_zeros(flat: Any, places: Any) -> None:
    """Write 0.0 at `places` of the flat float32 array (compiled: number by number)."""
    view: Any = memoryview(flat)
    for at in places:
        view[at] = 0.0


def blocks_function(rules: Rules) -> Callable[[Rules, Any, int], list[Entries]] | None:
    """A function (rules, state, seat) -> that seat's observation as a list of blocks of
    entries, if the game builds its observation from `observation_entries` (and does not
    override `Rules.observation`); else None."""
    if type(rules).observation is not Rules.observation:
        return None
    from_view: Callable[..., Any] | None = rules._encoding_function("observation_entries", "")
    if from_view is None:
        return None
    from_state: Callable[..., Any] | None = rules._encoding_function(
        "observation_entries_from_state", "")
    if from_state is not None and _views_as_declared(rules):
        return from_state

    def blocks(rules: Rules, state: Any, seat: int) -> list[Entries]:
        return [from_view(rules, rules.view(state, seat), seat)]

    return blocks


def _views_as_declared(rules: Rules) -> bool:
    """Whether `rules` builds views with the methods of the class that declared its encoding."""
    cls = type(rules)
    owner = next((c for c in cls.__mro__ if "encoding" in c.__dict__), None)
    return owner is not None and all(
        getattr(cls, name, None) is getattr(owner, name, None) for name in _VIEW_METHODS)


class Observations:
    """Seats' observations of states for one rules object, as flat float32 arrays: the same
    numbers as `rules.observation`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.blocks_of = blocks_function(rules)
        self.size = int(np.prod(rules.observation_shape()))
        # seat -> (an array, the blocks written in it): `array` rewrites only what changed
        self._last: dict[int, tuple[np.ndarray, list[Entries]]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as its rules (compiled, a class whose __init__ takes
        arguments is not copied by default); the arrays it keeps are made again when asked."""
        return Observations, (self.rules,)

    def read(self, state: Any, seat: int) -> Any:
        """What `write` needs for the seat's observation of `state`: its blocks of entries, or
        without them `rules.observation` (a list of numbers)."""
        if self.blocks_of is None:
            return self.rules.observation(state, seat)
        return self.blocks_of(self.rules, state, seat)

    def write(self, flat: np.ndarray, read: Any, zeroed: bool = False) -> np.ndarray:
        """Write an observation (from `read`) into the flat float32 array `flat` (`zeroed`:
        it holds only zeros already)."""
        if self.blocks_of is None:
            flat[:] = read
            return flat
        if not zeroed:
            flat.fill(0.0)
        for ones, positions, values in read:
            put_entries(flat, ones, positions, values)
        return flat

    def fill(self, flat: np.ndarray, state: Any, seat: int) -> np.ndarray:
        """Write `seat`'s observation of `state` into `flat`."""
        return self.write(flat, self.read(state, seat))

    def array(self, seat: int, read: Any) -> np.ndarray:
        """A new flat array of the seat's observation (from `read`). It is copied from the
        seat's last one, with only the blocks that are not made of the same lists as there
        rewritten: their old places cleared, then the new entries written (blocks write
        distinct places, as `kit.observations.Blocks` asks)."""
        if self.blocks_of is None or len(read) < 2:  # nothing to keep: a new array is cheaper
            return self.write(np.zeros(self.size, np.float32), read, zeroed=True)
        last = self._last.get(seat)
        if last is None or len(last[1]) != len(read):
            flat = self.write(np.zeros(self.size, np.float32), read, zeroed=True)
        else:
            flat, written = last
            # A kept block holds the same lists (compiled code may rebuild the tuple).
            changed = [(old, new) for old, new in zip(written, read)
                       if new[0] is not old[0] or new[2] is not old[2] or new[1] is not old[1]]
            if BY_NUMBER:
                for old, new in changed:
                    put_zeros(flat, old[0])
                    if old[1] != new[1]:  # (numbers at the same places are overwritten)
                        put_zeros(flat, old[1])
                for _, new in changed:
                    put_entries(flat, new[0], new[1], new[2])
            else:  # two numpy calls
                clear: list[int] = []
                places: list[int] = []
                values: list[float] = []
                for old, new in changed:
                    clear += old[0]
                    if old[1] != new[1]:
                        clear += old[1]
                    places += new[0]
                    values += [1.0] * len(new[0])
                    places += new[1]
                    values += new[2]
                if clear:
                    flat.put(clear, 0.0)
                if places:
                    flat.put(places, values)
        self._last[seat] = (flat, read)  # (a new list each read; never changed)
        return flat.copy()
