"""Sky commodores in words: actions and chance draws as the log, the chance menu and the board
say them (naming the catalogue's ship types, upgrades, resources and leviathans), and the
clicks that choose an action on the board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.words import with_article
from .actions import ACTIONS, CHANCE_TYPES, SHIP_ACTION_TYPES
from .catalogue import MERCHANT
from .state import CommodoresState

if TYPE_CHECKING:
    from .rules import CommodoresRules


def describe_action(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    if action.type in CHANCE_TYPES:
        return describe_chance(rules, s, action)
    if s.active >= 0 and (action.type in SHIP_ACTION_TYPES or action.type == "place_hex"):
        ship = s.ships[s.active]
        return (f"ship {ship.captain} ({rules.types[ship.kind].name}): "
                f"{action_text(rules, s, action)}")
    return action_text(rules, s, action)


def action_text(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    """An action in words, naming ship types, upgrades, resources and leviathans by the
    catalogue's names (str(action) knows only their ids)."""
    p, kind, cat = action.params, action.type, rules.catalogue

    def res(resource: Any) -> str:
        return cat.resource_name(resource) if resource in rules.res_index else str(resource)

    if kind == "place":
        return f"place the starter {cat.starter.name} at {p['corner']}"
    if kind in ("free", "take"):
        return f"take {'a free' if kind == 'free' else '1'} {res(p['resource'])}"
    if kind in ("explore", "terraform") and "space" in p:
        return f"{kind} {p['space']} paying 1 {res(p['pay'])}"
    if kind == "explore":
        return f"explore paying 1 {res(p['pay'])}: draw the top hex, then place it"
    if kind == "place_hex":
        drawn = hex_text(rules, s.drawn).rstrip(",") if s.drawn else "the drawn hex"
        return f"place {drawn} at {p['space']}"
    if kind == "upgrade":
        card = rules.types[s.ships[s.active].kind] if s.active >= 0 else None
        upgrade = card.upgrade(p["upgrade"]) if card is not None else None
        return f"upgrade: {upgrade.name if upgrade else p['upgrade']}"
    if kind == "build" and p["ship"] in rules.types:
        return f"build {with_article(rules.types[p['ship']].name)} at {p['at']}"
    if kind == "plunder" and ":" not in p["target"]:
        space = rules.geometry.space_index.get(p["target"], -1)
        h = s.hexes[space] if space >= 0 else None
        if h is not None and h.kind in rules.tables.leviathans:
            return f"plunder {cat.leviathan(h.kind).name} at {p['target']}"
    if kind == "plunder" and ":" in p["target"]:
        seat, captain = p["target"].split(":", 1)
        return f"plunder seat {seat}'s ship {captain}"
    if kind == "trade":
        return f"trade 2 {res(p['give'])} for 1 {res(p['get'])}"
    return str(action)


def describe_chance(rules: CommodoresRules, s: CommodoresState, outcome: Action
                    ) -> str:
    return ACTIONS.done(outcome, **_chance_words(rules, s, outcome))


def chance_choice_label(rules: CommodoresRules, s: CommodoresState, outcome: Action
                        ) -> str:
    return ACTIONS.choice(outcome, **_chance_words(rules, s, outcome))


def _chance_words(rules: CommodoresRules, s: CommodoresState, outcome: Action
                  ) -> dict[str, Any]:
    """The words the chance outcomes' sentences use (actions.py), each worked out only when
    used."""
    return {"goal_text": lambda: rules.catalogue.goal(outcome.goal).text(),
            "ship_name": lambda: rules.types[outcome.ship].name,
            "drawn": lambda: drawn_text(rules, s, outcome)}


def drawn_text(rules: CommodoresRules, s: CommodoresState, outcome: Action) -> str:
    """What a hex or number-token draw puts on the map, for the log and the chance menu."""
    if outcome.type != "hex":
        return f"number {outcome.number} for {rules.geometry.space_name(s.target)}"
    if rules.rulings >= 2:  # revealed first; the explorer places it next (place_hex)
        ship = s.ships[s.active] if s.active >= 0 else None
        where = f"for seat {s.player} to place" + (
            f" next to ship {ship.captain}" if ship is not None else "")
    else:
        where = f"at {rules.geometry.space_name(s.target)}"
    return f"{hex_text(rules, outcome.kind)} {where}"


def hex_text(rules: CommodoresRules, kind: str) -> str:
    """A hex kind in words: "a wood hex", "a merchant hex", "a leviathan, Cindermaw,"."""
    if kind in rules.leviathan_ids:
        return f"a leviathan, {rules.catalogue.leviathan(kind).name},"
    if kind == MERCHANT:
        return "a merchant hex"
    return f"{with_article(rules.catalogue.resource_name(kind))} hex"


def action_path(rules: CommodoresRules, s: CommodoresState, action: Action) -> list[str]:
    """What a person clicks: ships, corners and spaces on the map; the rest are buttons
    whose keys read as what they do."""
    p = action.params
    kind = action.type
    if kind == "place":
        return [f"corner:{p['corner']}"]
    if kind == "ship":
        return [f"ship:{s.player}:{p['captain']}"]
    if kind == "move":
        return [f"corner:{p['to']}"]
    if kind in ("explore", "terraform") and "space" in p:
        return [f"space:{p['space']}", f"pay {p['pay']}"]
    if kind == "explore":  # rulings 2: a button, then the hex drawn is placed by a click
        return ["explore", f"pay {p['pay']}"]
    if kind == "place_hex":
        return [f"space:{p['space']}"]
    if kind == "plunder":
        where = "ship" if ":" in p["target"] else "space"
        return [f"{where}:{p['target']}"]
    if kind == "build":
        return [f"build {with_article(rules.types[p['ship']].name)}", f"corner:{p['at']}"]
    if kind == "trade":
        return [f"trade 2 {p['give']}", f"for 1 {p['get']}"]
    if kind == "upgrade":
        return [f"upgrade {p['upgrade']}"]
    if kind in ("free", "take"):
        return [f"{kind} {p['resource']}"]
    if kind == "forage":
        return [f"forage on {p['number']}"]
    return [kind.replace("_", " ")]

