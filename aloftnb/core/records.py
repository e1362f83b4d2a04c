"""State records: how every game writes its state.

A game's state is a record: a `typing.NamedTuple` of plain values, decorated with `@record`, whose
parts (a ship, a unit, a spire) are records too. A record is immutable; `_replace` gives a copy
with some fields changed (`@record` installs one about twice as fast as the named tuple's own,
since every step of an engine makes states so). When a record's first field is `rules`, the
state knows its game: `state.to_dict()` gives its dict form and a notebook draws it
(`_repr_svg_`). An action that changes many fields of a large state works on a `Draft` and
settles it with `freeze()`.

The dict form comes for free: a game that sets `state_class` on its rules gets
`Rules.state_to_dict` and `Rules.state_from_dict` with no code. The reader checks every field's
type strictly (a seat is a whole number, never 1.0 or True) and names the field that is wrong;
the game adds its own invariants in `Rules.check_state`. Field types understood: int, float,
bool, str, `X | None` of those, `tuple[X, ...]` of those (a list in the dict form), and other
records (a dict in the dict form). A `rules` field is not part of the dict form. (Frozen
dataclasses are read and written the same way, for games written before records were named
tuples.)

A game whose documented dict form names things (balloons, ALU, sky commodores) writes it by hand
and starts its reader from `StateReader`: the checks every such reader makes first (a dict, only
known keys, the required ones, the options it was written under) and its whole-number fields.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import types
import typing
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeVar

from ..errors import InvalidState
from .options import _short_repr, whole_number_problem

_BIGGEST = 10**12  # a bound on whole numbers read from a dict, far above any game's counts

R = TypeVar("R")


def record(cls: type[R]) -> type[R]:
    """Make a NamedTuple class a state record (see the module's docstring)."""
    names: tuple[str, ...] | None = getattr(cls, "_fields", None)
    if not (isinstance(cls, type) and issubclass(cls, tuple) and names is not None):
        raise TypeError(f"@record takes a typing.NamedTuple class, not {cls!r:.80}")
    index = {name: i for i, name in enumerate(names)}
    make = tuple.__new__

    def _replace(self: Any, **changes: Any) -> Any:
        values = list(self)
        try:
            for name, value in changes.items():
                values[index[name]] = value
        except KeyError as missing:
            raise ValueError(f"{cls.__name__} has no field {missing.args[0]!r} "
                             f"(fields: {', '.join(names)})") from None
        return make(cls, values)

    _replace.__doc__ = "A copy with the named fields changed."
    target: Any = cls
    target._replace = _replace  # typing.NamedTuple forbids defining it in the class body
    if names[:1] == ("rules",):
        if "to_dict" not in cls.__dict__:
            target.to_dict = _state_to_dict
        if "_repr_svg_" not in cls.__dict__:
            target._repr_svg_ = _state_svg
    return cls


def _state_to_dict(state: Any) -> dict[str, Any]:
    """The state's documented dict form (its rules' `state_to_dict`)."""
    result: dict[str, Any] = state.rules.state_to_dict(state)
    return result


def _state_svg(state: Any) -> str:
    """The state drawn as the spectator sees it, for a notebook's display."""
    svg: str = state.rules.render_svg(state.rules.view(state, None))
    return svg


class Draft:
    """A record being changed by one action: its fields as plain attributes, the fields named
    in `LISTS` as lists; `freeze()` settles it into a new record. A subclass names its record
    in `RECORD` and adds the helpers its rules use to change the draft."""

    RECORD: ClassVar[type]
    LISTS: ClassVar[tuple[str, ...]] = ()
    _names: ClassVar[tuple[str, ...]]
    _values: ClassVar[Any]  # a draft's fields -> the record's values, in order
    _lists: ClassVar[tuple[int, ...]]  # where the LISTS are among them

    if TYPE_CHECKING:  # the record's fields, whatever the record, read and changed
        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "RECORD" in cls.__dict__:
            names: tuple[str, ...] = cls.RECORD._fields  # type: ignore[attr-defined]
            unknown = [name for name in cls.LISTS if name not in names]
            if unknown:
                raise TypeError(f"{cls.__name__}.LISTS names {unknown[0]!r}, which "
                                f"{cls.RECORD.__name__} does not have")
            cls._names = names
            pick = operator.itemgetter(*names)  # one C call gathers every field on freeze()
            cls._values = staticmethod(pick if len(names) > 1 else lambda fields: (pick(fields),))
            cls._lists = tuple(names.index(name) for name in cls.LISTS)

    def __init__(self, state: Any) -> None:
        fields = self.__dict__
        fields.update(zip(self._names, state))
        for name in self.LISTS:
            fields[name] = list(fields[name])

    def freeze(self) -> Any:
        values = list(self._values(self.__dict__))
        for i in self._lists:
            values[i] = tuple(values[i])
        return tuple.__new__(self.RECORD, values)


def _record_fields(value: Any) -> tuple[str, ...] | None:
    """The field names of a record (a NamedTuple or a dataclass, class or instance), else
    None."""
    cls = value if isinstance(value, type) else type(value)
    if issubclass(cls, tuple):
        names = getattr(cls, "_fields", None)
        return names if isinstance(names, tuple) else None
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    return None


def record_to_dict(state: Any) -> dict[str, Any]:
    """The dict form of a record: tuples become lists, records dicts; a `rules` field is left
    out."""
    names = _record_fields(state)
    if names is None:
        raise TypeError(f"{type(state).__name__} is not a record")
    return {name: _plain(getattr(state, name)) for name in names if name != "rules"}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return record_to_dict(value)
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return record_to_dict(value)
    return value


def record_from_dict(cls: type, data: Any, where: str = "", rules: Any = None) -> Any:
    """A `cls` instance from its dict form, or InvalidState naming the wrong field. A record
    whose first field is `rules` gets `rules`."""
    if not isinstance(data, dict):
        what = f"{where} must be a dict" if where else "a state must be a dict"
        raise InvalidState(f"{what}, not {type(data).__name__}")
    prefix = f"{where}." if where else ""
    hints = _field_types(cls)
    names = [name for name in _record_fields(cls) or () if name != "rules"]
    unknown = sorted((k for k in data if k not in names), key=str)
    if unknown:
        inside = f"in {where}" if where else "in the state"
        raise InvalidState(f"unknown key {unknown[0]!r} {inside} (keys: {', '.join(names)})")
    missing = [name for name in names if name not in data]
    if missing:
        raise InvalidState(f"{where or 'the state'} has no {missing[0]!r}")
    values = {name: _read(hints[name], data[name], prefix + name) for name in names}
    if (_record_fields(cls) or ())[:1] == ("rules",):
        values["rules"] = rules
    return cls(**values)


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    """The types of a record's fields. A `rules` field's type is left unresolved: a state names
    its rules class in an import made only for type checkers (the rules module imports the
    state's)."""
    rules = getattr(cls, "__annotations__", {}).get("rules")
    if isinstance(rules, typing.ForwardRef):  # how typing.NamedTuple keeps an annotation
        rules = rules.__forward_arg__
    stand_in = {rules: Any} if isinstance(rules, str) and rules.isidentifier() else None
    return typing.get_type_hints(cls, localns=stand_in)


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
    if isinstance(kind, type) and _record_fields(kind) is not None:
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
                   list_keys: bool = False, in_order: bool = False) -> None:
        """The data is a dict (`what` names it: "a balloons state") with only `keys` (named in
        the message when `list_keys`) and every one of `required`. Messages name keys in
        alphabetical order, or in the order given when `in_order`."""
        data, keys = self.data, list(keys)
        known = set(keys)
        if not isinstance(data, dict):
            self.fail(f"{what} must be a dict, not {type(data).__name__}")
        unknown = sorted((k for k in data if not isinstance(k, str) or k not in known), key=str)
        if unknown:
            shown = keys if in_order else sorted(known)
            listed = f" (keys: {', '.join(shown)})" if list_keys else ""
            self.fail(f"unknown key {_short_repr(unknown[0])} in the state{listed}")
        missing = ([k for k in required if k not in data] if in_order
                   else sorted(set(required) - set(data)))
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
