"""State records: a frozen dataclass as a game's state, with its dict form for free.

A small game (one written in a notebook) declares its state as a frozen dataclass whose fields
are plain values and sets `state_class` on its rules; `Rules.state_to_dict` and
`Rules.state_from_dict` then need no code: the reader checks every field's type strictly (a seat
is a whole number, never 1.0 or True) and names the field that is wrong. The game adds its own
invariants in `Rules.check_state`.

Field types understood: int, float, bool, str, `X | None` of those, `tuple[X, ...]` of those
(a list in the dict form), and other frozen dataclasses of such fields (a dict in the dict form),
so a state can nest records (a unit, a spire) and lists of them.

A game that reads its state dict by hand (a named tuple and a reader, as balloons and ALU do)
starts its reader from `StateReader`: the checks every such reader makes first (a dict, only
known keys, the required ones, the options it was written under) and its whole-number fields.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable
from typing import Any, NoReturn

from ..errors import InvalidState
from .options import _short_repr, whole_number_problem

_BIGGEST = 10**12  # a bound on whole numbers read from a dict, far above any game's counts


def record_to_dict(state: Any) -> dict[str, Any]:
    """The dict form of a dataclass state: tuples become lists."""
    return {f.name: _plain(getattr(state, f.name)) for f in dataclasses.fields(state)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return record_to_dict(value)
    return value


def record_from_dict(cls: type, data: Any, where: str = "") -> Any:
    """A `cls` instance from its dict form, or InvalidState naming the wrong field."""
    if not isinstance(data, dict):
        what = f"{where} must be a dict" if where else "a state must be a dict"
        raise InvalidState(f"{what}, not {type(data).__name__}")
    prefix = f"{where}." if where else ""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted((k for k in data if k not in names), key=str)
    if unknown:
        inside = f"in {where}" if where else "in the state"
        raise InvalidState(f"unknown key {unknown[0]!r} {inside} (keys: {', '.join(names)})")
    missing = [name for name in names if name not in data]
    if missing:
        raise InvalidState(f"{where or 'the state'} has no {missing[0]!r}")
    values = {name: _read(hints[name], data[name], prefix + name) for name in names}
    return cls(**values)


def _read(kind: Any, value: Any, name: str) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        real = [k for k in options if k is not type(None)]
        if len(real) == 1:
            return _read(real[0], value, name)
        raise InvalidState(f"{name}: unions of several types are not supported in records")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, (list, tuple)):
            raise InvalidState(f"{name} must be a list, not {value!r:.60}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], v, f"{name}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise InvalidState(f"{name} must hold {len(args)} values, not {len(value)}")
        return tuple(_read(a, v, f"{name}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return record_from_dict(kind, value, name)
    if kind is bool:
        if not isinstance(value, bool):
            raise InvalidState(f"{name} must be true or false, not {value!r:.60}")
        return value
    if kind is int:
        problem = whole_number_problem(value, -_BIGGEST, _BIGGEST)
        if problem:
            raise InvalidState(f"{name} {problem}")
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
                value):
            raise InvalidState(f"{name} must be a finite number, not {value!r:.60}")
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise InvalidState(f"{name} must be text, not {value!r:.60}")
        return value
    raise InvalidState(f"{name}: the record field type {kind!r} is not supported")


class StateReader:
    """Base of a hand-written reader of a state dict: each check raises InvalidState saying
    exactly what is wrong."""

    def __init__(self, rules: Any, data: Any) -> None:
        self.rules, self.data = rules, data

    def fail(self, message: str) -> NoReturn:
        raise InvalidState(message)

    def whole(self, value: Any, name: str, low: int = 0, high: int = 10**9) -> int:
        """`value` as a whole number in low..high; `name` is how the message names it."""
        problem = whole_number_problem(value, low, high)
        if problem:
            self.fail(f"{name} {problem}")
        return int(value)

    def check_keys(self, what: str, keys: Iterable[str], required: Iterable[str],
                   list_keys: bool = False) -> None:
        """The data is a dict (`what` names it: "a balloons state") with only `keys` (named in
        the message when `list_keys`) and every one of `required`."""
        data, known = self.data, set(keys)
        if not isinstance(data, dict):
            self.fail(f"{what} must be a dict, not {type(data).__name__}")
        unknown = sorted((k for k in data if not isinstance(k, str) or k not in known), key=str)
        if unknown:
            listed = f" (keys: {', '.join(sorted(known))})" if list_keys else ""
            self.fail(f"unknown key {_short_repr(unknown[0])} in the state{listed}")
        missing = sorted(set(required) - set(data))
        if missing:
            self.fail(f"the state has no {missing[0]!r}")

    def check_same(self, expected: Iterable[tuple[str, Any]]) -> None:
        """The keys the state repeats from its match ("game", options) say what the match has:
        the same value of the same type, when present."""
        data = self.data
        for key, value in expected:
            if key in data and not (type(data[key]) is type(value) and data[key] == value):
                self.fail(f"this match has {key} {value!r}; the state says "
                          f"{_short_repr(data[key])} (start a new match to change it)")
