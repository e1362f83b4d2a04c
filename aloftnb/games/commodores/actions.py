"""Sky commodores' actions, each type declared once (ACTIONS): its fields, its words (str())
and the values each field takes, from which parsing and the adapters' numbering follow; the
cache of action objects the legal-action lists reuse (docs/rules/commodores.md, "Encodings").

The numbering: decisions block after block (C corners and S spaces of the sky in the geometry's
numbering, R resources, U upgrades and B buildable types in catalogue order, P seats, K
captaining cards): place C, free R, forage 6, ship K, move C, explore S*R, terraform S*R,
upgrade U, build B*C, plunder a ship P*K then a leviathan S, take R, trade R*R, end the ship,
end the turn. Under rulings 2 (the default) an exploration names no space: the explore block is
R (the resource paid) instead of S*R, and a last block, place the drawn hex S, follows end the
turn. Chance outcomes: set aside a leviathan, a goal, the Beacon number, a ship type, a hex
kind, a number token.
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action, ActionTypes, action_type, interned
from ...core.compiled import python_class

SHIP_ACTION_TYPES = ("move", "explore", "terraform", "upgrade", "build", "plunder", "trade",
                     "end_ship")
# Which of the text's six actions each action type is (explore and terraform are one action).
ACTION_OF = {"move": "move", "explore": "explore", "terraform": "explore", "upgrade": "upgrade",
             "build": "build", "plunder": "plunder", "trade": "trade"}
LONGEST_TEXT = 40  # a text field longer than this is refused


@python_class
class CommodoresAction(Action):
    __slots__ = ()


def A(action_type: str, **params: Any) -> CommodoresAction:
    return CommodoresAction(action_type, **params)


_CACHE: dict[tuple[Any, ...], CommodoresAction] = {}


def cached(action_type: str, **params: Any) -> CommodoresAction:
    """The same action object every time (actions are immutable): legal_actions builds many."""
    return interned(_CACHE, CommodoresAction, action_type, params)


def _corners(rules: Any, **_: Any) -> list[str]:
    geo = rules.geometry
    return [geo.corner_name(c) for c in range(len(geo.corners))]


def _spaces(rules: Any, **_: Any) -> list[str]:
    geo = rules.geometry
    return [geo.space_name(s) for s in range(len(geo.spaces))]


def _resources(rules: Any, **_: Any) -> list[str]:
    return list(rules.catalogue.resources)


def _plunder_targets(rules: Any) -> list[str]:
    """A ship ("seat:captain") first, then a leviathan (its space)."""
    ships = range(1, rules.catalogue.ships_per_player + 1)
    return [f"{p}:{k}" for p in range(rules.players) for k in ships] + _spaces(rules)


def _explore(p: dict[str, Any]) -> str:
    return (f"explore {p['space']} paying {p['pay']}" if "space" in p
            else f"explore paying {p['pay']}")


def _first_draw(rules: Any) -> bool:  # rulings 2: explore draws first, place_hex then places
    return bool(rules.rulings >= 2)


def _six(rules: Any) -> range:
    return range(1, 7)


# Chance types first, then the decisions in the order the numbering takes them.
ACTIONS = ActionTypes(
    CommodoresAction,
    # Chance outcomes: `done` is the log's sentence, `choose` the label of a hand-chosen outcome;
    # their words ({goal_text}, {ship_name}, {drawn}) come from texts.py. Nobody reads which
    # leviathan was set aside.
    action_type("set_aside", "set aside leviathan {leviathan}", chance=True,
                leviathan=(str, lambda rules: [lv.id for lv in rules.catalogue.leviathans]),
                done="a leviathan was set aside face down",
                choose="set a leviathan aside face down"),
    action_type("goal", "goal {goal} in play", chance=True,
                goal=(str, lambda rules: [g.id for g in rules.catalogue.goals]),
                done="goal in play: {goal_text}", choose="put a goal in play: {goal_text}"),
    action_type("goal_number", "goal number {number}", chance=True, number=(int, _six),
                done="the Beacon number is {number}", choose="make {number} the Beacon number"),
    action_type("ship_type", "ship type {ship} in the shipyard", chance=True,
                ship=(str, lambda rules: [t.id for t in rules.catalogue.shipyard]),
                done="in the shipyard: {ship_name}", choose="put {ship_name} in the shipyard"),
    action_type("hex", "drew a {kind} hex", chance=True,
                kind=(str, lambda rules: rules.catalogue.hex_kinds),
                done="drew {drawn}", choose="draw {drawn}"),
    action_type("number", "drew number {number}", chance=True, number=(int, _six),
                done="drew {drawn}", choose="draw {drawn}"),
    action_type("place", "place the starter at {corner}", corner=(str, _corners)),
    action_type("free", "take a free {resource}", resource=(str, _resources)),
    action_type("forage", "forage on {number}", number=(int, _six)),
    action_type("ship", "ship {captain} acts",
                captain=(int, lambda rules: range(1, rules.catalogue.ships_per_player + 1))),
    action_type("move", "move to {to}", to=(str, _corners)),
    action_type("explore", _explore, when=_first_draw, pay=(str, _resources)),
    action_type("explore", _explore, when=lambda rules: not _first_draw(rules),
                space=(str, _spaces), pay=(str, _resources)),
    action_type("terraform", "terraform {space} paying {pay}", space=(str, _spaces),
                pay=(str, _resources)),
    action_type("upgrade", "upgrade: {upgrade}",
                upgrade=(str, lambda rules: [u.id for t in rules.catalogue.ship_types
                                             for u in t.upgrades])),
    action_type("build", "build a {ship} at {at}",
                ship=(str, lambda rules: [t.id for t in (rules.catalogue.basic,
                                                         *rules.catalogue.shipyard)]),
                at=(str, _corners)),
    action_type("plunder", "plunder {target}", target=(str, _plunder_targets)),
    action_type("take", "take {resource}", resource=(str, _resources)),
    action_type("trade", "trade 2 {give} for 1 {get}", give=(str, _resources),
                get=(str, _resources)),
    action_type("end_ship", "end this ship's actions"),
    action_type("end_turn", "end the turn"),
    action_type("place_hex", "place the drawn hex at {space}", when=_first_draw,
                space=(str, _spaces)),
    make=cached, longest_text=LONGEST_TEXT,
)
CHANCE_TYPES = ACTIONS.chance_names


def rulings_problem(rulings: int, data: Any) -> str | None:
    """Why a refused action belongs to the other rulings (None: it does not)."""
    kind: Any
    if isinstance(data, Action):
        kind, fields = data.type, data.params
    elif isinstance(data, dict):
        kind, fields = data.get("type"), data
    else:
        return None
    if rulings >= 2 and kind == "explore" and "space" in fields:
        return ("an explore takes only pay: the top hex is drawn first, then you place it "
                "with place_hex (the explore with a space is the game's rulings=1)")
    if rulings < 2 and kind == "place_hex":
        return ("place_hex belongs to rulings 2 and later; under rulings 1 an explore names its "
                "space before the draw")
    return None
