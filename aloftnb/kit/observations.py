"""Observations written as their non-zero entries, for the games' encodings and the adapters.

An encoding's `observation_entries(rules, view, seat)` returns (ones, positions, values): the
positions that hold 1.0, then other positions and their numbers (written after the ones). The
flat observation is `dense(size, ...)` of them; the adapters fill a zeroed numpy array from the
same entries instead of converting a long list of mostly zeros.
"""

from __future__ import annotations

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
