"""Balloons' action types, each declared once: its fields, its sentence, the values each field
takes (in the order the adapters number them: docs/rules/balloons.md, "Encodings") and the
refusals of a field's value in the game's words. Parsing, str() and the numbering follow.
The wind actions are numbered in both editions; only the choice edition plays them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action, ActionTypes, action_type
from ...core.compiled import python_class
from ...core.options import _short_repr, whole_number_problem

if TYPE_CHECKING:
    from .rules import BalloonsRules

WIND_TRUCKS = ("launch", "safety")


@python_class
class BalloonAction(Action):
    __slots__ = ()


def _no_balloon(rules: BalloonsRules, value: Any) -> str | None:
    if value in rules.index:
        return None
    return (f"there is no balloon {_short_repr(value)} in this game "
            f"(balloons: {', '.join(rules.ids)})")


def _no_launch_truck(rules: BalloonsRules, value: Any) -> str | None:
    if value == "safety":
        return "balloons may not be placed on the safety truck"
    if whole_number_problem(value, 0, rules.truck_count - 1):
        return (f"'truck' must be a launch-zone truck 0..{rules.truck_count - 1}, "
                f"not {_short_repr(value)}")
    return None


def _no_wind_truck(rules: BalloonsRules, value: Any) -> str | None:
    if value in WIND_TRUCKS:
        return None
    return f"a wind action moves truck 'launch' or 'safety', not {_short_repr(value)}"


def _wind_text(params: dict[str, Any]) -> str:
    if params["truck"] == "safety":
        return "wind: move the safety truck"
    return "wind: move a launch-zone truck"


BALLOON = (str, lambda rules: rules.ids, _no_balloon)

ACTIONS = ActionTypes(
    BalloonAction,
    action_type("unpack", "unpack {balloon} onto truck {truck}", balloon=BALLOON,
                truck=(int, lambda rules, balloon: range(rules.truck_count), _no_launch_truck)),
    action_type("inflate", "inflate {balloon}", balloon=BALLOON),
    action_type("launch", "launch {balloon}", balloon=BALLOON),
    action_type("ascend", "ascend {balloon}", balloon=BALLOON),
    action_type("pass", "pass: no balloon can advance"),
    action_type("wind", _wind_text, truck=(str, lambda rules: WIND_TRUCKS, _no_wind_truck)),
)
