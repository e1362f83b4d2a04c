"""Why an action is refused: `why_illegal` and its helpers, one sentence naming what is wrong
(the board and the match show it), for each kind of mistake at each step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.words import with_article
from .actions import ACTION_OF, CHANCE_TYPES, SHIP_ACTION_TYPES
from .catalogue import MERCHANT
from .changes import affords, fleet
from .explore import strands
from .state import FORAGE, FREE, PLACE, PLACE_HEX, TAKE, CommodoresState, ship_name
from .texts import action_text, hex_text

if TYPE_CHECKING:
    from .rules import CommodoresRules


def why_illegal(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    """Why `action` is refused in `s`: the first problem found, in words."""
    problem = rules.phase_problem(s, action)
    if problem:
        return problem
    kind = action.type
    if kind in CHANCE_TYPES:
        return f"{action} is drawn by chance, not chosen: force it at a chance step"
    if s.step in (PLACE, FREE) and kind not in ("place", "free"):
        return "set-up is not finished: place the starters and take the free resources"
    if kind in ("place", "free", "forage"):
        return _setup_problem(rules, s, action)
    if s.step == TAKE and kind != "take":
        return (f"finish plundering first: take {s.left} more resource"
                f"{'s' if s.left != 1 else ''} from seat {s.target}")
    if s.step == PLACE_HEX or kind == "place_hex":
        return _placing_problem(rules, s, action)
    if kind == "take":
        if s.step != TAKE:
            return ("take is part of plundering a rival's ship: there is nothing to take "
                    "now")
        return _take_problem(rules, s, action)
    if kind == "end_turn" and s.active >= 0:
        return "a ship is acting: end its actions first (end_ship), then the turn"
    if kind == "ship" and s.active < 0:
        return _pick_problem(rules, s, action)
    if kind in SHIP_ACTION_TYPES and s.active < 0:
        return "pick one of your ships first; each ship acts in turn"
    if kind == "ship" and s.active >= 0:
        return "this ship is still acting: end its actions before picking another"
    if s.active >= 0 and kind in ACTION_OF:
        name = ACTION_OF[kind]
        if name in s.done and not (name == "explore" and s.done[-1] == "explore"):
            return (f"this ship has already done its {name} this turn" if name != "explore"
                    else "exploring must come in one run: this ship has done something "
                         "else since it explored")
        if kind == "upgrade" and not s.built_any:
            return "nobody may upgrade until someone has built a ship this game"
        if kind == "upgrade":
            return _upgrade_problem(rules, s, action)
        if kind == "move":
            return f"the ship cannot reach {action.params.get('to')} this turn (or it is "\
                   "taken)"
        problem = _ship_action_problem(rules, s, action)
        if problem:
            return problem
    return f"{action_text(rules, s, action)} is not a legal action now"


def _setup_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    """Why a starter, a free resource or a forage number is refused."""
    kind, p, cat = action.type, action.params, rules.catalogue
    if kind == "forage":
        if s.step != FORAGE:
            return "the forage number is called once, at the start of the turn"
        return f"the forage number is one of 1 to 6, not {p['number']}"
    if kind == "place":
        if s.step != PLACE:
            return "every starter ship is placed already: each seat now takes a free resource"
        corner = rules.geometry.corner_index.get(p["corner"], -1)
        if corner not in rules.geometry.space_corners[0]:
            return (f"{p['corner']} is not a corner of the centre merchant: starter ships "
                    "go on its corners")
        owner = next(ship.owner for ship in s.ships if ship.corner == corner)
        return (f"{p['corner']} is taken by seat {owner}'s starter: no two ships share a "
                "corner")
    if s.step != FREE:  # a free resource
        return "the starter ships are placed first, then each seat takes a free resource"
    names = ", ".join(cat.resource_name(r) for r in cat.free_resources)
    if p["resource"] in cat.free_resources:  # catch_up: a seat taking several filled a tracker
        return (f"seat {s.player}'s tracker holds {cat.pool_cap} "
                f"{_resource_words(rules, p['resource'])} already: take another resource")
    return f"the free resource is one of {names}, not {_resource_words(rules, p['resource'])}"


def _resource_words(rules: CommodoresRules, resource: Any) -> str:
    if resource in rules.res_index:
        return rules.catalogue.resource_name(resource)
    return f"{resource!r} (not a resource of this game)"


def _take_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    resource = action.params["resource"]
    return (f"seat {s.target} holds no {_resource_words(rules, resource)}: take one of what "
            "they hold")


def _pick_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    captain = action.params["captain"]
    index = next((i for i, ship in enumerate(s.ships)
                  if ship.owner == s.player and ship.captain == captain), -1)
    if index < 0:
        return f"you have no ship {captain}"
    if index in s.acted:
        return f"ship {captain} has already acted this turn"
    if s.ships[index].new:
        return f"ship {captain} was built this turn: it acts from your next turn"
    return f"ship {captain} cannot act now"


def _upgrade_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    ship = s.ships[s.active]
    card = rules.types[ship.kind]
    upgrade_id = action.params["upgrade"]
    upgrade = card.upgrade(upgrade_id)
    if upgrade is None:
        return f"{upgrade_id} is not an upgrade on the {card.name}'s card"
    if upgrade_id in ship.upgrades:
        return f"this ship has {upgrade.name} already: never the same upgrade twice"
    if s.cubes <= 0:
        return "every upgrade cube is in use: no upgrade is left in the supply"
    if not affords(rules, s.pools[s.player], upgrade.cost):
        cost = ", ".join(f"{n} {rules.catalogue.resource_name(r)}" for r, n in upgrade.cost)
        return f"{upgrade.name} costs {cost}, more than you have"
    return f"{upgrade.name} cannot be fitted now"


def _placing_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:
    """Why a place_hex (or anything else while a drawn hex waits) is refused."""
    if s.step != PLACE_HEX:
        return ("there is no drawn hex to place: exploring (or terraforming) draws the top "
                "hex first, then you place it")
    captain = s.ships[s.active].captain
    drawn = hex_text(rules, s.drawn).rstrip(",")
    if action.type != "place_hex":
        return (f"place the hex just drawn ({drawn}) first: choose an empty space next to "
                f"ship {captain}")
    name = action.params["space"]
    space = rules.geometry.space_index.get(name, -1)
    if space < 0 or space not in rules.geometry.corner_spaces[s.ships[s.active].corner]:
        return f"{name} is not a space next to ship {captain}: the drawn hex goes next to it"
    if s.hexes[space] is not None:
        return f"{name} holds a hex already: the drawn hex goes into an empty space"
    stranded = strands(rules, s, s.target, space) if s.target >= 0 else ""
    if stranded:
        return (f"placing the new hex at {name} leaves the terraformed space empty, and "
                f"then {stranded}; the freed space {rules.geometry.space_name(s.target)} "
                "is always allowed")
    return f"{name} is not a space the drawn hex can go to"


def _ship_action_problem(rules: CommodoresRules, s: CommodoresState, action: Action) -> str:  # noqa: C901
    """What is wrong with the acting ship's explore, build, plunder or trade ("" if it is
    something rarer): the common mistakes get a specific refusal."""
    geo, cat, p = rules.geometry, rules.catalogue, action.params
    ship = s.ships[s.active]
    touching = geo.corner_spaces[ship.corner]
    pool = s.pools[s.player]
    kind = action.type
    if kind == "explore" and "space" not in p:  # rulings 2: the space is chosen later
        if p["pay"] not in rules.res_index or not pool[rules.res_index[p["pay"]]]:
            pay = cat.resource_name(p["pay"]) if p["pay"] in rules.res_index else p["pay"]
            return f"exploring costs 1 resource and you have no {pay}"
        if all(s.hexes[sp] is not None for sp in touching):
            return ("this ship touches no empty space: there is nowhere to place a new hex "
                    "(terraform replaces one)")
        if not sum(s.stack):
            return "the hex stack is empty: nothing is left to explore"
    if kind in ("explore", "terraform") and "space" in p:
        space = geo.space_index.get(p["space"], -1)
        h = s.hexes[space] if space >= 0 else None
        if space not in touching:
            return f"{p['space']} is not a space next to this ship"
        if p["pay"] not in rules.res_index or not pool[rules.res_index[p["pay"]]]:
            pay = cat.resource_name(p["pay"]) if p["pay"] in rules.res_index else p["pay"]
            return f"{kind[:-1]}ing costs 1 resource and you have no {pay}"
        if kind == "explore" and h is not None:
            return f"{p['space']} holds a hex already (terraform replaces one)"
        if kind == "terraform" and h is None:
            return f"{p['space']} is empty: explore it instead"
        if kind == "terraform" and h.kind == MERCHANT:  # type: ignore[union-attr]
            return "a merchant hex cannot be terraformed"
        if kind == "terraform" and h.health > 0:  # type: ignore[union-attr]
            return "a leviathan can be terraformed only once it is at 0 health"
        if kind == "terraform" and space in s.fresh:
            return f"{p['space']} was explored or terraformed this turn already"
        if not sum(s.stack) and kind == "terraform" and rules.rulings >= 2 and \
                h.kind in rules.tables.leviathans:  # type: ignore[union-attr]
            return ("the hex stack is empty: terraforming a felled leviathan would only draw "
                    "it back, and it must be replaced by a new hex")
        if not sum(s.stack):
            return "the hex stack is empty: nothing is left to explore"
    if kind == "build":
        card = rules.types.get(p["ship"])
        if not rules.stats(ship)[3]:
            return "this ship cannot build"
        if len(fleet(s, s.player)) >= cat.ships_per_player:
            return f"a fleet holds at most {cat.ships_per_player} ships"
        if card is not None and card.deck == "basic" and s.basic_built[s.player]:
            return "you have built your basic ship already (one per game)"
        if card is None or (card.deck != "basic" and card.id not in s.ship_types):
            return f"{card.name if card else p['ship']} is not a ship type in the shipyard"
        if card.deck != "basic" and not s.yard[s.ship_types.index(card.id)]:
            return f"no {card.name} cards are left in the shipyard"
        if not affords(rules, pool, card.cost):
            return f"{with_article(card.name)} costs more than you have"
        free = [c for c in rules.edges(s, ship.corner) if c not in rules.occupied(s)]
        if not free:
            return "every corner next to this ship is taken: it cannot build"
        return f"{p['at']} is not a free corner next to this ship"
    if kind == "plunder":
        if rules.stats(ship)[2] <= 0:
            return "this ship has no plunder value"
        target = p["target"]
        if ":" in target:
            rival = next((o for o in s.ships if ship_name(o) == target), None)
            if rival is None or rival.owner == s.player:
                return f"{target} is not a rival's ship"
            if rival.corner not in rules.edges(s, ship.corner):
                return f"{target} is not next to this ship (one edge away)"
            if not sum(s.pools[rival.owner]):
                return f"seat {rival.owner} has nothing to plunder"
        else:
            space = geo.space_index.get(target, -1)
            h = s.hexes[space] if space >= 0 else None
            if h is None or h.kind not in rules.leviathan_ids or space not in touching:
                return f"there is no leviathan next to this ship at {target}"
            if h.health == 0:
                return "a leviathan at 0 health cannot be plundered"
    if kind == "trade":
        if not any(s.hexes[sp] is not None and s.hexes[sp].kind == MERCHANT  # type: ignore
                   for sp in touching):
            return "this ship is not next to a merchant hex"
        if p["give"] not in rules.res_index or pool[rules.res_index[p["give"]]] < 2:
            return f"a trade takes 2 {_resource_words(rules, p['give'])} and you have fewer"
        if p["get"] not in rules.res_index:
            return f"a trade gets 1 resource: {_resource_words(rules, p['get'])} is none"
        if p["get"] == p["give"]:
            return "a trade gets a different resource from the one it gives"
    return ""
