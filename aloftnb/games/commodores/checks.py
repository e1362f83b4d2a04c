"""The invariants of a sky commodores state (`check_state`): what a state read from a dict
must keep, each broken one named by InvalidState."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import InvalidState
from .changes import fleet
from .explore import placements
from .state import (
    DRAW_HEX,
    DRAW_NUMBER,
    GOAL,
    GOAL_NUMBER,
    OVER,
    PLACE,
    PLACE_HEX,
    SET_ASIDE,
    SETUP_STEPS,
    SHIP_TYPE,
    SHIPS,
    TAKE,
    TURN_STEPS,
    CommodoresState,
    ship_name,
)

if TYPE_CHECKING:
    from .rules import CommodoresRules


def check_state(rules: CommodoresRules, s: CommodoresState) -> None:  # noqa: C901 (one list)
    """The invariants a state read from a dict must keep (InvalidState names the first
    broken one)."""
    cat, geo, n = rules.catalogue, rules.geometry, rules.players
    # Every hex is in one place: on the map, in the stack, set aside or out of the game.
    on_map: dict[str, int] = {}
    for h in s.hexes:
        if h is not None:
            on_map[h.kind] = on_map.get(h.kind, 0) + 1
    if s.drawn:  # drawn and not yet placed: it counts as on the map
        on_map[s.drawn] = on_map.get(s.drawn, 0) + 1
    totals = dict.fromkeys(rules.kinds, 0)
    for kind, count in cat.hexes:
        totals[kind] += count
    for lv in rules.leviathan_ids:
        totals[lv] += 1
    for kind, in_stack in zip(rules.kinds, s.stack):
        where = on_map.get(kind, 0) + in_stack + s.set_aside.count(kind)
        if kind in rules.leviathan_ids and where != 1:
            raise InvalidState(f"leviathan {kind} must be in exactly one place (map, stack "
                               f"or set aside), not {where}")
        if where > totals[kind]:
            raise InvalidState(f"there are only {totals[kind]} {kind} hexes, not {where}")
    # While a hex is drawn for a space (after a terraform too) that space counts as filled.
    filling = s.target if s.step == DRAW_HEX or s.step == PLACE_HEX else -1

    def filled(space: int) -> bool:
        return s.hexes[space] is not None or space == filling

    # The centre may touch nothing only under the rulings that let a terraform cut it off.
    lone_centre_allowed = rules.rulings < 3
    for space, h in enumerate(s.hexes):
        if h is None or (space == 0 and lone_centre_allowed):
            continue
        if not any(filled(o) for o in geo.space_neighbours[space]):
            what = "the centre hex" if space == 0 else "the hex"
            raise InvalidState(f"{what} at {geo.space_name(space)} touches no other hex")
        if h.kind in rules.res_index and h.number == 0 and any(s.tokens) and \
                not (s.step == DRAW_NUMBER and s.target == space):
            raise InvalidState(f"the resource hex at {geo.space_name(space)} has no number")
    for i, count in enumerate(s.tokens):
        placed = sum(1 for h in s.hexes if h is not None and h.number == i + 1)
        if count + placed + (s.goal_number == i + 1) > cat.number_tokens[i]:
            raise InvalidState(f"there are only {cat.number_tokens[i]} number tokens "
                               f"{i + 1}")
    if not set(s.set_aside) <= set(rules.leviathan_ids) or set(s.set_aside) & set(s.seen):
        raise InvalidState("a leviathan set aside cannot have been seen")
    if bool(s.drawn) != (s.step == PLACE_HEX):
        raise InvalidState("drawn names the hex waiting to be placed, at the place_hex step "
                           "only")
    if rules.rulings < 2 and s.step == PLACE_HEX:
        raise InvalidState("the place_hex step belongs to rulings 2 and later (under "
                           "rulings 1 the explorer names the space before the draw)")
    for lv in rules.leviathan_ids:
        if on_map.get(lv) and lv not in s.seen:
            raise InvalidState(f"leviathan {lv} is on the map, so it must be in seen")
    setup = s.step in SETUP_STEPS
    if not setup:
        if len(s.set_aside) != cat.leviathans_set_aside or len(s.goals) != \
                cat.goals_in_play or len(s.ship_types) != cat.ship_types_in_play:
            raise InvalidState("after set-up the leviathans set aside, the goals and the "
                               "ship types in play are all chosen")
    if any(rules.goal_cards[g].kind == "ships_by_number" for g in s.goals) != bool(
            s.goal_number) and s.step not in (SET_ASIDE, GOAL, GOAL_NUMBER) and any(
            cat.number_tokens):
        raise InvalidState("goal_number is drawn exactly when the ships-by-number goal is in"
                           " play")
    # Ships: one per corner, on the map, numbered per owner, within the supply.
    corners = [ship.corner for ship in s.ships]
    if len(set(corners)) != len(corners):
        raise InvalidState("two ships are on one corner")
    for ship in s.ships:
        name = ship_name(ship)
        if not any(filled(sp) for sp in geo.corner_spaces[ship.corner]):
            raise InvalidState(f"ship {name} is at {geo.corner_name(ship.corner)}, which "
                               "touches no hex")
        if ship.kind not in ("starter", "basic") and ship.kind not in s.ship_types:
            raise InvalidState(f"ship {name} is a {ship.kind}, which is not in play")
        if ship.new and (setup or ship.owner != s.player):
            raise InvalidState(f"ship {name} is marked new, but only the seat whose turn it"
                               " is builds")
    for seat in range(n):
        seat_fleet = fleet(s, seat)
        captains = [ship.captain for ship in seat_fleet]
        if len(set(captains)) != len(captains):
            raise InvalidState(f"seat {seat} has two ships with one captain number")
        starters = sum(ship.kind == "starter" for ship in seat_fleet)
        placing = s.step in (SET_ASIDE, GOAL, GOAL_NUMBER, SHIP_TYPE) or (
            s.step == PLACE and seat >= s.player)
        if starters > 1 or (not starters and not placing) or (starters and placing):
            raise InvalidState(f"seat {seat} must have exactly one starter ship")
        basics = sum(ship.kind == "basic" for ship in seat_fleet)
        if basics > 1 or (basics == 1 and not s.basic_built[seat]):
            raise InvalidState(f"seat {seat}'s basic ship and basic_built disagree")
    for type_id, left in zip(s.ship_types, s.yard):
        out = sum(ship.kind == type_id for ship in s.ships)
        if out + left > cat.copies_per_type:
            raise InvalidState(f"there are only {cat.copies_per_type} {type_id} cards")
    upgrades = sum(len(ship.upgrades) for ship in s.ships)
    if upgrades + s.cubes > cat.upgrade_cubes:
        raise InvalidState(f"there are only {cat.upgrade_cubes} upgrade cubes")
    if upgrades and not s.built_any:
        raise InvalidState("ships carry upgrades, so someone must have built a ship")
    if any(len(c) >= cat.goals_to_win for c in s.completed) != (s.end == "goals"):
        raise InvalidState("a seat with the goals to win ends the game, and only then")
    if (s.step == OVER) != bool(s.end):
        raise InvalidState("end says why the game is over, exactly when it is")
    # The turn in progress.
    if s.step in TURN_STEPS:
        if s.active >= 0 and s.ships[s.active].owner != s.player:
            raise InvalidState("the acting ship must belong to the seat whose turn it is")
        if s.step != SHIPS and s.active < 0:
            raise InvalidState(f"the {s.step} step needs an acting ship")
        if s.active >= 0 and (s.active in s.acted or s.ships[s.active].new):
            raise InvalidState("the acting ship has already acted, or was built this turn")
        if s.step == TAKE and (s.target == s.player or s.left < 1 or not sum(
                s.pools[s.target])):
            raise InvalidState("plundering takes from a rival who still has resources")
        if s.step in (DRAW_HEX, PLACE_HEX) and s.target >= 0 and \
                s.hexes[s.target] is not None:
            raise InvalidState("the space being explored must be empty")
        if s.step == DRAW_HEX and s.target < 0 and rules.rulings < 2:
            raise InvalidState("under rulings 1 the space being explored is chosen first")
        if s.step == PLACE_HEX and not placements(rules, s):
            raise InvalidState("the acting ship touches no space where the drawn hex may go")
        if s.step == DRAW_HEX and not sum(s.stack):
            raise InvalidState("nothing is left in the stack to draw")
        if s.step == DRAW_NUMBER:
            h = s.hexes[s.target]
            if h is None or h.kind not in rules.res_index or h.number or not any(s.tokens):
                raise InvalidState("a number is drawn for a resource hex just placed")
    elif s.active >= 0 or s.done or s.acted or s.fresh:
        raise InvalidState(f"no ship acts at the {s.step} step")
    if s.step not in TURN_STEPS and s.left:
        raise InvalidState("left counts resources still to take while plundering only")
    if s.step in TURN_STEPS and not s.forage_number:
        raise InvalidState("the ships act after the forage number was called")
    if any(i >= len(s.ships) for i in s.acted) or any(
            s.ships[i].owner != s.player for i in s.acted):
        raise InvalidState("acted lists ships of the seat whose turn it is")

