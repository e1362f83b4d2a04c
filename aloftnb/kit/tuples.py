"""Small operations on the tuples of whole numbers that immutable states are made of (compiled
in the compiled build, where a call from a compiled engine costs little)."""

from __future__ import annotations

from typing import Any, Final, NamedTuple, TypeVar

R = TypeVar("R", bound=NamedTuple)
_NEW: Final = tuple.__new__  # (held, so a compiled call does not look it up on `tuple`)


def with_item(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """A copy of `values` with item `i` replaced."""
    changed = list(values)  # one copy: faster than joining two slices around the new item
    changed[i] = value
    return tuple(changed)


def new_record(cls: type[R], *fields: Any) -> R:
    """`cls(*fields)` for a named tuple `cls`, without its Python `__new__` (an interpreted call
    per state: most of the cost of making one from a compiled engine). The fields must be all of
    them, in order."""
    assert len(fields) == len(cls._fields), (cls.__name__, len(fields))
    record: R = _NEW(cls, fields)
    return record
