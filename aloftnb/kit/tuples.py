"""Small operations on the tuples of whole numbers that immutable states are made of (compiled
in the compiled build, where a call from a compiled engine costs little)."""

from __future__ import annotations


def with_item(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """A copy of `values` with item `i` replaced."""
    changed = list(values)  # one copy: faster than joining two slices around the new item
    changed[i] = value
    return tuple(changed)
