"""Knobs of the balance lab: paths into a game's options and catalogue, each with a range or a
list of values, and the game options a setting of the knobs gives.

A path is a plain option name ("turn_limit"), or "catalogue." followed by keys into the game's
catalogue data, entering a list of dicts by an item's "id" and any other list by its index:
"catalogue.factions.mistveil.minions.fogling.health", "catalogue.rules.income.0". Short forms:
a key found exactly once in the catalogue ("gate_health"), and "units" for whichever of a
faction's "heroes" or "minions" holds the id that follows it.
"""

from __future__ import annotations

import copy
import difflib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.options import _short_repr
from ..core.registry import make_rules
from ..core.rules import AnyRules
from ..errors import InvalidOptions

CATALOGUE = "catalogue"
# Values an Optuna categorical parameter can hold (and a trials table can show).
PLAIN = (type(None), bool, int, float, str)

Step = str | int  # a dict key or a list index


@dataclass(frozen=True)
class Knob:
    """One knob: `name` as the designer wrote it, `where` its full path, `steps` the keys and
    indices into the catalogue data (empty for a plain option), and its range or values."""

    name: str
    where: str
    steps: tuple[Step, ...]
    shipped: Any
    low: float | None = None
    high: float | None = None
    step: float | None = None
    values: tuple[Any, ...] | None = None

    @property
    def option(self) -> str:
        """The game option the knob sets ("catalogue" for a catalogue knob)."""
        return CATALOGUE if self.steps else self.where

    @property
    def whole(self) -> bool:
        return isinstance(self.low, int) and isinstance(self.high, int)

    def ends(self) -> list[Any]:
        """What the game must accept before any game is played: both ends, or every value."""
        if self.values is not None:
            return list(self.values)
        return [self.low, self.high]

    def distance(self, value: Any) -> float:
        """How far `value` is from the shipped one: 0 or 1 for a list, else a fraction of the
        range's width."""
        if self.values is not None or not _is_number(self.shipped):
            return 0.0 if value == self.shipped else 1.0
        assert self.low is not None and self.high is not None
        return abs(float(value) - float(self.shipped)) / float(self.high - self.low)

    def describe(self) -> str:
        if self.values is not None:
            return f"{self.where} in {list(self.values)!r}"
        step = f" step {self.step:g}" if self.step is not None else ""
        return f"{self.where} in {self.low:g}..{self.high:g}{step}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _item_ids(node: list[Any]) -> list[Any] | None:
    """The ids of a list of dicts that all have one, else None (the list is entered by index)."""
    if node and all(isinstance(item, dict) and "id" in item for item in node):
        return [item["id"] for item in node]
    return None


def walk(node: Any, prefix: str = CATALOGUE) -> Iterator[tuple[str, tuple[Step, ...], Any]]:
    """Every value under `node`: (its full path, its steps, the value), leaves and branches."""
    yield from _walk(node, prefix, ())


def _walk(node: Any, prefix: str, steps: tuple[Step, ...]
          ) -> Iterator[tuple[str, tuple[Step, ...], Any]]:
    children: list[tuple[str, Step, Any]] = []
    if isinstance(node, dict):
        children = [(str(key), key, value) for key, value in node.items()]
    elif isinstance(node, list):
        ids = _item_ids(node)
        children = [(str(ids[i]) if ids else str(i), i, value) for i, value in enumerate(node)]
    for text, step, value in children:
        path = f"{prefix}.{text}"
        yield path, steps + (step,), value
        yield from _walk(value, path, steps + (step,))


def get_at(data: Any, steps: tuple[Step, ...]) -> Any:
    for step in steps:
        data = data[step]
    return data


def set_at(data: Any, steps: tuple[Step, ...], value: Any) -> None:
    get_at(data, steps[:-1])[steps[-1]] = value


def _nearest(wanted: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(wanted, candidates, n=1, cutoff=0.0)
    return f"; the nearest valid path is {close[0]!r}" if close else ""


def _enter(node: Any, part: str, following: str | None) -> tuple[Step, str] | None:
    """The step into `node` that `part` names, with its text in the full path; None if none."""
    if isinstance(node, dict):
        if part in node:
            return part, part
        if part == "units" and following is not None:  # a faction's heroes or minions
            for key in ("heroes", "minions"):
                ids = _item_ids(node[key]) if isinstance(node.get(key), list) else None
                if ids and following in ids:
                    return key, key
        return None
    if isinstance(node, list):
        ids = _item_ids(node)
        if ids is not None:
            return (ids.index(part), part) if part in ids else None
        if part.isdigit() and int(part) < len(node):
            return int(part), part
    return None


def locate(path: str, options: Mapping[str, Any], catalogue: Any, game: str
           ) -> tuple[str, tuple[Step, ...], Any]:
    """(full path, steps into the catalogue, current value) of a knob path; InvalidOptions
    naming the nearest valid path when there is no such place."""
    leaves = [p for p, _, v in walk(catalogue) if not isinstance(v, (dict, list))] \
        if catalogue is not None else []
    names = [name for name in options if name != CATALOGUE]
    if not isinstance(path, str) or not path:
        raise InvalidOptions(f"a knob's path must be a text such as 'catalogue.rules.x' or an "
                             f"option's name, not {_short_repr(path)}")
    if path in names:
        return path, (), options[path]
    parts = path.split(".")
    if parts[0] != CATALOGUE:
        if len(parts) == 1 and catalogue is not None:  # a key found once in the catalogue
            found = [(p, s, v) for p, s, v in walk(catalogue) if s and s[-1] == path]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise InvalidOptions(
                    f"knob {path!r}: {game}'s catalogue has {len(found)} keys so named ("
                    + ", ".join(p for p, _, _ in found[:4]) + (", ..." if len(found) > 4 else "")
                    + "); give the full path")
        raise InvalidOptions(f"knob {path!r}: {game} has no option or catalogue key so named"
                             + _nearest(path, names + leaves))
    if catalogue is None:
        raise InvalidOptions(f"knob {path!r}: {game} has no catalogue; its options are "
                             + (", ".join(sorted(names)) or "none"))
    node: Any = catalogue
    steps: tuple[Step, ...] = ()
    shown = [CATALOGUE]
    for i, part in enumerate(parts[1:], start=1):
        entered = _enter(node, part, parts[i + 1] if i + 1 < len(parts) else None)
        if entered is None:
            where = ".".join(shown)
            raise InvalidOptions(f"knob {path!r}: {where} has no {part!r}"
                                 + _nearest(path, leaves))
        step, text = entered
        node, steps = node[step], steps + (step,)
        shown.append(text)
    return ".".join(shown), steps, node


def _range(name: str, spec: tuple[Any, ...]) -> tuple[float, float, float | None]:
    if len(spec) not in (2, 3) or not all(_is_number(v) for v in spec):
        raise InvalidOptions(f"knob {name!r}: a range is (low, high) or (low, high, step) in "
                             f"numbers, not {_short_repr(spec)}")
    if not all(math.isfinite(v) for v in spec):
        raise InvalidOptions(f"knob {name!r}: a range needs finite numbers, not {spec!r}")
    low, high = spec[0], spec[1]
    step = spec[2] if len(spec) == 3 else None
    if not low < high:
        raise InvalidOptions(f"knob {name!r}: the range's low end must be below its high end, "
                             f"not {low!r}..{high!r}")
    if step is not None:
        if step <= 0:
            raise InvalidOptions(f"knob {name!r}: the step must be more than 0, not {step!r}")
        steps = (high - low) / step
        if abs(steps - round(steps)) > 1e-9:
            raise InvalidOptions(f"knob {name!r}: the high end must be the low end plus a "
                                 f"whole number of steps ({low!r} + n x {step!r}), not {high!r}")
        if isinstance(low, int) and isinstance(high, int) and not isinstance(step, int):
            raise InvalidOptions(f"knob {name!r}: a range of whole numbers takes a whole step, "
                                 f"not {step!r}")
    return low, high, step


def make_knob(name: str, spec: Any, options: Mapping[str, Any], catalogue: Any, game: str
              ) -> Knob:
    """A knob from its path and its range (a tuple) or values (a list)."""
    where, steps, current = locate(name, options, catalogue, game)
    if isinstance(spec, list):
        if not spec:
            raise InvalidOptions(f"knob {name!r}: its list of values is empty")
        bad = [v for v in spec if not isinstance(v, PLAIN)]
        if bad:
            raise InvalidOptions(f"knob {name!r}: listed values must be numbers, texts, "
                                 f"true/false or None, not {_short_repr(bad[0])}")
        if len(set(map(repr, spec))) != len(spec):
            raise InvalidOptions(f"knob {name!r}: its values repeat: {_short_repr(spec)}")
        return Knob(name, where, steps, copy.deepcopy(current), values=tuple(spec))
    if isinstance(spec, tuple):
        if isinstance(current, (dict, list)):
            raise InvalidOptions(f"knob {name!r}: {where} holds {type(current).__name__} data, "
                                 "not a number: a range needs a number there")
        low, high, step = _range(name, spec)
        return Knob(name, where, steps, current, low, high, step)
    raise InvalidOptions(f"knob {name!r}: give a range as a tuple (low, high) or (low, high, "
                         f"step), or a list of values, not {_short_repr(spec)}")


@dataclass(frozen=True)
class KnobSet:
    """A game's knobs and what they start from: the options given (`base`), the options as the
    game resolved them, and the catalogue data they change (None: the game has none)."""

    game: str
    players: int
    knobs: tuple[Knob, ...]
    base: dict[str, Any]
    resolved: dict[str, Any]
    catalogue: dict[str, Any] | None

    def shipped(self) -> dict[str, Any]:
        return {knob.name: knob.shipped for knob in self.knobs}

    def options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The game options for these knob values (knobs not named keep their shipped value):
        the catalogue, when a knob changes it, as a changed deep copy."""
        options = dict(self.base)
        changed = None
        for knob in self.knobs:
            value = values.get(knob.name, knob.shipped)
            if knob.steps:
                if changed is None:
                    changed = copy.deepcopy(self.catalogue)
                set_at(changed, knob.steps, copy.deepcopy(value))
            else:
                options[knob.where] = value
        if changed is not None:
            options[CATALOGUE] = changed
        return options

    def catalogue_for(self, values: Mapping[str, Any]) -> dict[str, Any] | None:
        """The whole catalogue data for these knob values (None for a game without one)."""
        if self.catalogue is None:
            return None
        data = copy.deepcopy(self.catalogue)
        for knob in self.knobs:
            if knob.steps:
                set_at(data, knob.steps, copy.deepcopy(values.get(knob.name, knob.shipped)))
        return data

    def rules(self, values: Mapping[str, Any]) -> AnyRules:
        """The game's rules for these values, checked exactly as the game checks them."""
        return make_rules(self.game, self.players, **self.options(values))

    def check_ends(self) -> None:
        """Build the rules at both ends of each range and at each listed value (the other knobs
        at their shipped values): InvalidOptions, naming the knob, before any game is played."""
        for knob in self.knobs:
            for value in knob.ends():
                try:
                    self.rules({knob.name: value})
                except InvalidOptions as exc:
                    raise InvalidOptions(f"knob {knob.name!r} at {_short_repr(value)}: the game "
                                         f"refuses it ({exc})") from None


def knob_set(game: str, players: int, knobs: Mapping[str, Any], options: Mapping[str, Any]
             ) -> KnobSet:
    """Resolve the knobs of `game` against the rules built with `options`; check every end."""
    if not isinstance(knobs, Mapping) or not knobs:
        raise InvalidOptions("knobs must be a dict {path: (low, high) or [values]} with at least "
                             f"one knob, not {_short_repr(knobs)}")
    rules = make_rules(game, players, **options)
    data = getattr(rules, "catalogue_data", None)
    catalogue = copy.deepcopy(data) if isinstance(data, dict) else None
    resolved = dict(rules.options)
    made = tuple(make_knob(name, spec, resolved, catalogue, game) for name, spec in knobs.items())
    seen: dict[str, str] = {}
    for knob in made:
        if knob.where in seen:
            raise InvalidOptions(f"knobs {seen[knob.where]!r} and {knob.name!r} both set "
                                 f"{knob.where}")
        seen[knob.where] = knob.name
    result = KnobSet(game, players, made, dict(options), resolved, catalogue)
    result.check_ends()
    return result


@dataclass(frozen=True)
class Change:
    """One changed place: its path, the shipped value and the tuned one."""

    path: str
    old: Any
    new: Any

    def __str__(self) -> str:
        return f"{self.path}: {self.old!r} -> {self.new!r}"


def diff_data(old: Any, new: Any, prefix: str = CATALOGUE) -> list[Change]:
    """Every place where two catalogues (or any JSON data) differ, lists of dicts by id."""
    if isinstance(old, dict) and isinstance(new, dict):
        changes: list[Change] = []
        for key in list(old) + [k for k in new if k not in old]:
            if key not in new or key not in old:
                changes.append(Change(f"{prefix}.{key}", old.get(key), new.get(key)))
            else:
                changes.extend(diff_data(old[key], new[key], f"{prefix}.{key}"))
        return changes
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        ids = _item_ids(old)
        if ids is not None and ids != _item_ids(new):
            return [Change(prefix, old, new)]
        changes = []
        for i, (a, b) in enumerate(zip(old, new)):
            changes.extend(diff_data(a, b, f"{prefix}.{ids[i] if ids else i}"))
        return changes
    if type(old) is not type(new) or old != new:
        return [Change(prefix, old, new)]
    return []
