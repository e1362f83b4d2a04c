"""Set-up, the first phase: chance sets leviathans aside and draws the goals, the Beacon number
and the ship types in play; then each seat in seat order places its starter ship on a corner
of the centre merchant, and each in seat order takes a free resource (with the catch_up option,
later seats take more)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CommodoresAction, cached
from .changes import changed, gain, stack_change, token_change
from .state import FREE, GOAL, GOAL_NUMBER, PLACE, SET_ASIDE, SHIP_TYPE, CommodoresState, Ship

if TYPE_CHECKING:
    from .rules import CommodoresRules

Outcomes = list[tuple[CommodoresAction, float]]


def skip_finished(rules: CommodoresRules, s: CommodoresState) -> CommodoresState:
    """Skip set-up steps that have nothing left to do (the set-up phase's begin, and what each
    draw ends with)."""
    cat = rules.catalogue
    if s.step == SET_ASIDE and len(s.set_aside) >= cat.leviathans_set_aside:
        s = s._replace(step=GOAL)
    if s.step == GOAL and len(s.goals) >= cat.goals_in_play:
        s = s._replace(step=GOAL_NUMBER)
    if s.step == GOAL_NUMBER and (s.goal_number or not any(
            rules.goal_cards[g].kind == "ships_by_number" for g in s.goals)
            or not any(s.tokens)):
        s = s._replace(step=SHIP_TYPE)
    if s.step == SHIP_TYPE and len(s.ship_types) >= cat.ship_types_in_play:
        s = s._replace(step=PLACE, player=0)
    return s


# -- chance ----------------------------------------------------------------------------------
def set_aside_outcomes(rules: CommodoresRules, s: CommodoresState) -> Outcomes:
    left = [lv for lv in rules.leviathan_ids if lv not in s.set_aside]
    return [(cached("set_aside", leviathan=lv), 1 / len(left)) for lv in left]


def goal_outcomes(rules: CommodoresRules, s: CommodoresState) -> Outcomes:
    left = [g.id for g in rules.catalogue.goals if g.id not in s.goals]
    return [(cached("goal", goal=g), 1 / len(left)) for g in left]


def ship_type_outcomes(rules: CommodoresRules, s: CommodoresState) -> Outcomes:
    left = [t.id for t in rules.catalogue.shipyard if t.id not in s.ship_types]
    return [(cached("ship_type", ship=t), 1 / len(left)) for t in left]


def on_set_aside(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction
                 ) -> CommodoresState:
    stack = stack_change(rules, s.stack, a.leviathan, -1)
    return skip_finished(rules, s._replace(stack=stack, set_aside=s.set_aside + (a.leviathan,)))


def on_goal(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
    return skip_finished(rules, s._replace(goals=s.goals + (a.goal,)))


def on_goal_number(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction
                   ) -> CommodoresState:
    # RULING: the drawn token stays on the goal card, out of the stack.
    tokens = token_change(s.tokens, a.number)
    return skip_finished(rules, s._replace(goal_number=a.number, tokens=tokens))


def on_ship_type(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction
                 ) -> CommodoresState:
    # The shipyard is kept in catalogue order (not draw order): its dict form is a table,
    # and saves sort a table's keys.
    yard = dict(zip(s.ship_types, s.yard))
    yard[a.ship] = rules.catalogue.copies_per_type
    order = [t.id for t in rules.catalogue.shipyard if t.id in yard]
    return skip_finished(rules, s._replace(
        ship_types=tuple(order), yard=tuple(yard[t] for t in order)))


# -- the seats' decisions --------------------------------------------------------------------
def place_legal(rules: CommodoresRules, s: CommodoresState, seat: int) -> list[CommodoresAction]:
    taken = rules.occupied(s)
    return [cached("place", corner=rules.geometry.corner_name(c))
            for c in rules.geometry.space_corners[0] if c not in taken]


def on_place(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
    corner = rules.geometry.corner_index[a.corner]
    ships = s.ships + (Ship(s.player, 1, "starter", corner, (), False),)
    if s.player + 1 < rules.players:
        return changed(s, ships=ships, player=s.player + 1)
    return changed(s, ships=ships, player=0, step=FREE)


def free_legal(rules: CommodoresRules, s: CommodoresState, seat: int) -> list[CommodoresAction]:
    offered = [cached("free", resource=r) for r in rules.catalogue.free_resources]
    if rules.catch_up:  # a seat takes several, one at a time: never one its tracker cannot hold
        pool, cap, index = s.pools[s.player], rules.catalogue.pool_cap, rules.res_index
        room = [a for a in offered if pool[index[a.resource]] < cap]
        return room or offered  # (an edited state may have filled every row)
    return offered


def on_free(rules: CommodoresRules, s: CommodoresState, a: CommodoresAction) -> CommodoresState:
    pools = gain(rules, s.pools, s.player, a.resource, 1)
    # RULING (the catch_up option): seat k takes 1 + (k x catch_up + 1) // 2 free resources,
    # one at a time; nothing else gives resources during set-up, so its pool counts them.
    if sum(pools[s.player]) < rules.free_resources_of(s.player):
        return changed(s, pools=pools)
    if s.player + 1 < rules.players:
        return changed(s, pools=pools, player=s.player + 1)
    # Set-up ends: seat 0's turn begins with the phase FLOW says comes next.
    return changed(s, pools=pools, player=0, step=rules.step_after["setup"])
