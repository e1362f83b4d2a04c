"""Actions: small immutable values with a dict form, like python-chess's Move."""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from .options import _short_repr

_SCALARS = (str, int, float, bool, type(None))


class Action:
    """One move in a game: a `type` plus a few named JSON-scalar parameters.

    Actions compare and hash by value, so they can be looked up in a list of legal actions.
    Games subclass it to give `str()` a readable sentence.
    """

    __slots__ = ("type", "_params", "_key")

    def __init__(self, type: str, **params: Any) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "_params", params)
        # Sorted, so {"balloon": ..., "truck": ...} and {"truck": ..., "balloon": ...} are equal.
        object.__setattr__(self, "_key", (type, tuple(sorted(params.items()))))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._params[name]
        except KeyError:
            raise AttributeError(f"{self.type!r} action has no {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self._params}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({self.type!r}{', ' if inner else ''}{inner})"

    def __str__(self) -> str:
        inner = " ".join(f"{k}={v}" for k, v in self._params.items())
        return f"{self.type} {inner}".strip()

    def __reduce__(self) -> tuple[Any, ...]:  # lets actions cross processes in simulations
        return (_rebuild, (type(self), self.type, self._params))


def _rebuild(cls: type[Action], type_: str, params: dict[str, Any]) -> Action:
    return cls(type_, **params)


def parse_action_dict(data: Any) -> tuple[str, dict[str, Any]]:
    """Check the generic shape of an action dict: {"type": str, name: scalar, ...}."""
    if isinstance(data, Action):  # built in Python: its fields get the same checks as a dict's
        data = data.to_dict()
    if not isinstance(data, dict):
        raise IllegalAction(
            f"an action must be an Action or a dict like {{'type': ...}}, not {type(data).__name__}"
        )
    if "type" not in data:
        raise IllegalAction(f"action dict {_short_repr(data)} has no 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise IllegalAction(f"action 'type' must be a string, not {_short_repr(kind)}")
    params = {}
    for key, value in data.items():
        if key == "type":
            continue
        if not isinstance(key, str):
            raise IllegalAction(f"action keys must be strings, not {_short_repr(key)}")
        if type(value) not in _SCALARS:  # exact types: no numpy numbers, no str subclasses
            raise IllegalAction(f"action field {_short_repr(key)} must be a plain value, not "
                                f"{_short_repr(value)}")
        params[key] = value
    return kind, params
