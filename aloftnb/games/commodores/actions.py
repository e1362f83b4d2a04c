"""Sky commodores' actions: their types, their words (`str`), the fields each takes and the
cache of action objects the legal-action lists reuse."""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.options import _short_repr
from ...errors import IllegalAction

CHANCE_TYPES = ("set_aside", "goal", "goal_number", "ship_type", "hex", "number")
DECISION_TYPES = ("place", "free", "forage", "ship", "move", "explore", "terraform", "upgrade",
                  "build", "plunder", "take", "trade", "end_ship", "end_turn", "place_hex")
SHIP_ACTION_TYPES = ("move", "explore", "terraform", "upgrade", "build", "plunder", "trade",
                     "end_ship")
# Which of the text's six actions each action type is (explore and terraform are one action).
ACTION_OF = {"move": "move", "explore": "explore", "terraform": "explore", "upgrade": "upgrade",
             "build": "build", "plunder": "plunder", "trade": "trade"}
# The fields each action type takes (an explore under rulings 2 takes only pay).
FIELDS: dict[str, set[str]] = {
    "set_aside": {"leviathan"}, "goal": {"goal"}, "goal_number": {"number"},
    "ship_type": {"ship"}, "hex": {"kind"}, "number": {"number"}, "place": {"corner"},
    "free": {"resource"}, "forage": {"number"}, "ship": {"captain"}, "move": {"to"},
    "explore": {"space", "pay"}, "terraform": {"space", "pay"}, "upgrade": {"upgrade"},
    "build": {"ship", "at"}, "plunder": {"target"}, "take": {"resource"},
    "trade": {"give", "get"}, "end_ship": set(), "end_turn": set(),
    "place_hex": {"space"},
}


class CommodoresAction(Action):
    __slots__ = ()

    def __str__(self) -> str:
        p = self._params
        texts = {
            "set_aside": lambda: f"set aside leviathan {p.get('leviathan')}",
            "goal": lambda: f"goal {p.get('goal')} in play",
            "goal_number": lambda: f"goal number {p.get('number')}",
            "ship_type": lambda: f"ship type {p.get('ship')} in the shipyard",
            "hex": lambda: f"drew a {p.get('kind')} hex",
            "number": lambda: f"drew number {p.get('number')}",
            "place": lambda: f"place the starter at {p.get('corner')}",
            "free": lambda: f"take a free {p.get('resource')}",
            "forage": lambda: f"forage on {p.get('number')}",
            "ship": lambda: f"ship {p.get('captain')} acts",
            "move": lambda: f"move to {p.get('to')}",
            "explore": lambda: (f"explore {p.get('space')} paying {p.get('pay')}" if "space" in p
                                else f"explore paying {p.get('pay')}"),
            "place_hex": lambda: f"place the drawn hex at {p.get('space')}",
            "terraform": lambda: f"terraform {p.get('space')} paying {p.get('pay')}",
            "upgrade": lambda: f"upgrade: {p.get('upgrade')}",
            "build": lambda: f"build a {p.get('ship')} at {p.get('at')}",
            "plunder": lambda: f"plunder {p.get('target')}",
            "take": lambda: f"take {p.get('resource')}",
            "trade": lambda: f"trade 2 {p.get('give')} for 1 {p.get('get')}",
            "end_ship": lambda: "end this ship's actions",
            "end_turn": lambda: "end the turn",
        }
        text = texts.get(self.type)
        return text() if text else super().__str__()


def A(action_type: str, **params: Any) -> CommodoresAction:
    return CommodoresAction(action_type, **params)


_CACHE: dict[tuple[Any, ...], CommodoresAction] = {}


def cached(action_type: str, **params: Any) -> CommodoresAction:
    """The same action object every time (actions are immutable): legal_actions builds many."""
    key = (action_type, *params.items())
    action = _CACHE.get(key)
    if action is None:
        if len(_CACHE) > 100_000:
            _CACHE.clear()
        action = _CACHE[key] = CommodoresAction(action_type, **params)
    return action


def check_fields(action: Action, rulings: int) -> None:
    """Raise IllegalAction unless `action` has exactly its type's fields, of the right kinds,
    under these rulings."""
    fields = FIELDS[action.type]
    if rulings >= 2 and action.type == "explore":
        fields = {"pay"}
        if "space" in action.params:
            raise IllegalAction("an explore takes only pay: the top hex is drawn first, then "
                                "you place it with place_hex (the explore with a space is "
                                "the game's rulings=1)")
    if rulings < 2 and action.type == "place_hex":
        raise IllegalAction("place_hex belongs to rulings 2; under rulings 1 an explore "
                            "names its space before the draw")
    if set(action.params) != fields:
        want = ", ".join(sorted(fields)) or "no fields"
        raise IllegalAction(f"a {action.type} action takes {want}, not "
                            f"{_short_repr(action.to_dict())}")
    for key, value in action.params.items():
        if key in ("number", "captain"):
            if type(value) is not int:
                raise IllegalAction(f"{action.type}: {key} must be a whole number, not "
                                    f"{_short_repr(value)}")
        elif not isinstance(value, str) or len(value) > 40:
            raise IllegalAction(f"{action.type}: {key} must be a short text, not "
                                f"{_short_repr(value)}")
