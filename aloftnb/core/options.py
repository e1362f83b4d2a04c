"""Game options: a small declarative spec checked when a match is created."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import InvalidOptions


@dataclass(frozen=True)
class Option:
    """One option of a game. `default=None` with `default_note` means "depends on other settings"."""

    name: str
    default: Any
    description: str
    choices: tuple | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    default_note: str | None = None

    def validate(self, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name}={value!r} is not one of {allowed}")
        # None stands for "the default" only when the default itself is None.
        if self.check is not None and (value is not None or self.default is not None):
            problem = self.check(value)
            if problem:
                raise InvalidOptions(f"option {self.name}={value!r}: {problem}")
        return value

    def describe(self) -> dict[str, Any]:
        info: dict[str, Any] = {"default": self.default, "description": self.description}
        if self.choices is not None:
            info["choices"] = list(self.choices)
        if self.default_note:
            info["default_note"] = self.default_note
        return info


def whole_number_problem(value: Any, low: int, high: int) -> str | None:
    """What is wrong with `value` as a whole number in low..high, or None (for state readers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number, not {value!r}"
    if not low <= value <= high:
        return f"must be between {low} and {high}, not {value}"
    return None


def int_between(low: int, high: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a whole number"
        if not low <= value <= high:
            return f"must be between {low} and {high}"
        return None

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
