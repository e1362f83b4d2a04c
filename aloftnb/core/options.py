"""Game options: a small declarative spec checked when a match is created."""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import InvalidOptions


class _NotSet:
    def __repr__(self) -> str:
        return "NOT_SET"


NOT_SET: Any = _NotSet()


@dataclass(frozen=True)
class Option:
    """One option of a game. `default=None` with `default_note`: "depends on other settings"."""

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    default_note: str | None = None
    # The value a save written before this option existed loads with (NOT_SET: the default).
    # An option that changes a rule names the old rule here: old saves replay as they were played.
    older_saves: Any = field(default_factory=lambda: NOT_SET)
    # The option may name a JSON file to read (a catalogue). Saves hold the data, never a path.
    from_file: bool = False
    # A variant the rules text does not have, which changes nothing at its default: simulation
    # rows leave it out while it is at its default, so rows recorded before it existed still match.
    quiet_default: bool = False

    def validate(self, value: Any) -> Any:
        # Same type and equal: True is not 1, and a list or an array never errors in the test.
        if self.choices is not None and not any(
                type(value) is type(choice) and value == choice for choice in self.choices):
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name}={_short_repr(value)} is not one of {allowed}")
        # None stands for "the default" only when the default itself is None.
        if self.check is not None and (value is not None or self.default is not None):
            problem = self.check(value)
            if problem:
                raise InvalidOptions(f"option {self.name}={_short_repr(value)}: {problem}")
        return value

    def describe(self) -> dict[str, Any]:
        info: dict[str, Any] = {"default": self.default, "description": self.description}
        if self.choices is not None:
            info["choices"] = list(self.choices)
        if self.default_note:
            info["default_note"] = self.default_note
        return info


def is_whole_number(value: Any) -> bool:
    """Whether `value` is a plain Python int: not a bool, a float such as 1.0, or a numpy integer.

    The one check for anything that names a seat, a count or a position (states, saves, options,
    intents), so that what is stored always serialises and compares as a plain int.
    """
    return type(value) is int


def whole_number_problem(value: Any, low: int | None = None, high: int | None = None) -> str | None:
    """What is wrong with `value` as a whole number in low..high, or None when it is fine."""
    if not is_whole_number(value):
        return f"must be a whole number, not {_short_repr(value)}"
    if (low is not None and value < low) or (high is not None and value > high):
        shown = _short_repr(value)
        if high is None:
            return f"must be at least {low}, not {shown}"
        if low is None:
            return f"must be at most {high}, not {shown}"
        return f"must be between {low} and {high}, not {shown}"
    return None


# A seed is any whole number a 64-bit generator takes: saves, adapters and simulations all keep it.
SEED_LIMIT = 2**64


def seed_problem(seed: Any) -> str | None:
    """What is wrong with `seed` as a match's seed (a whole number 0 <= seed < 2**64), or None."""
    if is_whole_number(seed) and seed >= SEED_LIMIT:
        return f"must be below 2**64, not {_short_repr(seed)}"
    return whole_number_problem(seed, 0)


def number_problem(value: Any, low: float, high: float, *, low_open: bool = False) -> str | None:
    """What is wrong with `value` as a finite number in low..high (or (low, high]), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"must be a number, not {_short_repr(value)}"
    if not math.isfinite(value):  # NaN or infinity
        return f"must be a finite number, not {value}"
    if value < low or (low_open and value == low) or value > high:
        return f"must be {'more than' if low_open else 'at least'} {low:g} and at most {high:g}, " \
               f"not {value:g}"
    return None


def _short_repr(value: Any, limit: int = 60) -> str:
    """A repr that stays short and never recurses without end (what error messages echo)."""
    shortener = reprlib.Repr()  # keyword arguments need Python 3.12
    shortener.maxlevel, shortener.maxstring, shortener.maxother = 3, limit, limit
    try:
        text = shortener.repr(value)
    except (ValueError, RecursionError):  # an int too long to print, a structure too deep
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def int_between(low: int, high: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        problem = whole_number_problem(value, low, high)
        return problem and problem.rsplit(", not ", 1)[0]  # the option's value is already quoted

    return check


def resolve_options(game: str, spec: dict[str, Option], given: dict[str, Any]) -> dict[str, Any]:
    """Fill in defaults and validate; unknown names are an error that lists the known ones."""
    unknown = sorted(set(given) - set(spec))
    if unknown:
        known = ", ".join(sorted(spec)) or "none"
        raise InvalidOptions(f"{game} has no option {unknown[0]!r} (its options: {known})")
    resolved = {}
    for name, option in spec.items():
        resolved[name] = option.validate(given.get(name, option.default))
    return resolved


def recorded_options(spec: dict[str, Option], options: dict[str, Any]) -> dict[str, Any]:
    """The options as a simulation row records them: every option but a quiet one at its
    default (see Option.quiet_default); leaving one out reads back as its default."""
    return {name: value for name, value in options.items()
            if not (name in spec and spec[name].quiet_default
                    and type(value) is type(spec[name].default) and value == spec[name].default)}


def packaged_json(package: str, name: str) -> Any:
    """A JSON file shipped inside `package` (a game's data), read afresh on every call."""
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def json_data_option(name: str, source: Any, package: str, default_file: str) -> Any:
    """The plain JSON data of an option a designer gives as data (a game's catalogue): None for
    the file shipped in `package`, a dict (copied: only JSON data gets through) or the path of a
    JSON file. InvalidOptions says what is wrong with anything else."""
    if source is None:
        return packaged_json(package, default_file)
    if isinstance(source, dict):
        try:
            return json.loads(json.dumps(source))
        except RecursionError:
            raise InvalidOptions(f"{name} is nested too deeply to be a game's data") from None
        except (TypeError, ValueError) as exc:
            raise InvalidOptions(f"{name} must be plain JSON data ({exc})") from None
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            found = path.is_file()
        except (OSError, ValueError):  # a name too long for the system, a NUL character
            found = False
        if not found:
            raise InvalidOptions(f"{name}: no file {str(path)!r:.200}")
        try:
            return json.loads(path.read_text("utf-8"))
        except RecursionError:
            raise InvalidOptions(f"{name}: {str(path)!r:.200} is nested too deeply to be a "
                                 "game's data") from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise InvalidOptions(f"{name}: {str(path)!r:.200} is not a JSON file ({exc})"
                                 ) from None
    raise InvalidOptions(f"{name} must be a dict or a file path, not {_short_repr(source)}")


class DataReader:
    """The shared part of a reader for data a designer edits (a game's catalogue): every
    refusal names the option, then the entry and field, e.g. "catalogue: shipyard.cutter.move
    must be a whole number 0..12, not 'fast'"."""

    option = "catalogue"

    def fail(self, where: str, problem: str) -> InvalidOptions:
        return InvalidOptions(f"{self.option}: {where} {problem}")

    def whole(self, value: Any, where: str, low: int, high: int) -> int:
        if not is_whole_number(value) or not low <= value <= high:
            raise self.fail(where, f"must be a whole number {low}..{high}, not "
                                   f"{_short_repr(value)}")
        whole: int = value
        return whole
