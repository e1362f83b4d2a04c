"""Exploring and terraforming, inside the ships phase: the acting ship pays a resource, the top
hex is drawn (chance), placed (under rulings 2 the explorer chooses where, at the place_hex
step) and, for a resource hex, given a number token drawn from the rest (chance)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.action import Action
from .actions import CommodoresAction
from .catalogue import MERCHANT
from .changes import (
    changed,
    credit,
    did,
    gain,
    new_hex,
    replaced,
    set_hex,
    stack_change,
    tally,
    token_change,
)
from .state import (
    DRAW_HEX,
    DRAW_NUMBER,
    EXPLORED,
    FROM_LEVIATHANS,
    GOAL_NUMBER,
    PLACE_HEX,
    SHIPS,
    CommodoresState,
    Hex,
    ship_name,
)
from .tables import Tables

if TYPE_CHECKING:
    from .rules import CommodoresRules

Outcomes = list[tuple[CommodoresAction, float]]


# -- the acting ship's options -----------------------------------------------------------------
def explore_options(t: Tables, s: CommodoresState, spaces: Sequence[int], paying: list[int]
                    ) -> list[CommodoresAction]:
    """The explorations and terraforms open to the acting ship, touching `spaces`, paying with
    one of the resources `paying` (indices)."""
    out: list[CommodoresAction] = []
    hexes = s.hexes
    stack_left = sum(s.stack) > 0
    reveal_first = t.rulings >= 2
    if reveal_first and stack_left and any(hexes[sp] is None for sp in spaces):
        # RULING (rulings 2): the hex is drawn first, then placed (place_hex)
        explore_pay = t.explore_pay
        out += [explore_pay[i] for i in paying]
    for space in spaces:
        h = hexes[space]
        if h is None:
            if stack_left and not reveal_first:  # RULING: an empty stack ends exploring
                explore = t.explore_paying[space]
                out += [explore[i] for i in paying]
        elif h.kind in t.resource_kinds:
            if stack_left and space not in s.fresh:
                terraform = t.terraform_paying[space]
                out += [terraform[i] for i in paying]
        elif h.health == 0 and h.kind in t.leviathans and (
                stack_left or not reveal_first):
            # RULING (rulings 2): with the stack empty, the only hex a felled
            # leviathan's terraform could draw is that leviathan: no new hex, no
            # terraform (rulings 1 allowed it, and it could be farmed every turn).
            terraform = t.terraform_paying[space]
            out += [terraform[i] for i in paying]
    return out


def on_explore(rules: CommodoresRules, s: CommodoresState, a: Action
               ) -> CommodoresState:
    space = rules.geometry.space_index[a.space] if rules.rulings < 2 else -1
    pools = gain(rules, s.pools, s.player, a.pay, -1)
    return changed(s, pools=pools, done=did(s, "explore"), step=DRAW_HEX, target=space)


def on_terraform(rules: CommodoresRules, s: CommodoresState, a: Action
                 ) -> CommodoresState:
    space = rules.geometry.space_index[a.space]
    h = s.hexes[space]
    assert h is not None
    stack = s.stack
    if h.kind in rules.leviathan_ids:
        stack = stack_change(rules, stack, h.kind, +1)  # shuffled back into the stack
    # A resource hex and its number token leave the game.
    hexes = set_hex(s.hexes, space, None)
    pools = gain(rules, s.pools, s.player, a.pay, -1)
    return changed(s, pools=pools, hexes=hexes, stack=stack,
                   done=did(s, "terraform"), step=DRAW_HEX, target=space)


# -- the draws -----------------------------------------------------------------------------------
def hex_outcomes(rules: CommodoresRules, s: CommodoresState) -> Outcomes:
    total = sum(s.stack)
    return [(hex_drawn, n / total) for hex_drawn, n in zip(rules.tables.hex_drawn, s.stack)
            if n]


def number_outcomes(rules: CommodoresRules, s: CommodoresState) -> Outcomes:
    """A number token drawn from those left (also the Beacon number at set-up)."""
    total = sum(s.tokens)
    t = rules.tables
    drawn = t.goal_number_drawn if s.step == GOAL_NUMBER else t.number_drawn
    return [(drawn[i], n / total) for i, n in enumerate(s.tokens) if n]


def on_hex(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    kind = a.kind
    stack = stack_change(rules, s.stack, kind, -1)
    tallies = tally(s.tallies, s.player, EXPLORED)
    if rules.rulings >= 2:
        # RULING (rulings 2): the hex is revealed (and a leviathan pays its reward) when
        # drawn; the explorer then chooses where it goes (place_hex).
        s = changed(s, stack=stack, tallies=tallies, step=PLACE_HEX, drawn=kind)
        if kind in rules.leviathan_ids:
            s = leviathan_found(rules, s, kind)
        return s
    fresh = s.fresh if s.target in s.fresh else s.fresh + (s.target,)
    placed = new_hex(rules, kind, 0)
    s = changed(s, stack=stack, tallies=tallies, fresh=fresh,
                hexes=set_hex(s.hexes, s.target, placed))
    if kind in rules.res_index:
        if any(s.tokens):
            return changed(s, step=DRAW_NUMBER)
        # RULING: with no number tokens left, a resource hex is placed without a number.
    elif kind in rules.leviathan_ids:
        s = leviathan_found(rules, s, kind)
    return changed(s, step=SHIPS, target=-1)


def leviathan_found(rules: CommodoresRules, s: CommodoresState, kind: str) -> CommodoresState:
    reward = rules.catalogue.leviathan(kind).reward  # one reward on discovery
    seen = s.seen if kind in s.seen else s.seen + (kind,)
    pools = gain(rules, s.pools, s.player, reward, 1)
    return changed(s, pools=pools, seen=seen, tallies=credit(s, pools, FROM_LEVIATHANS))


def on_number(rules: CommodoresRules, s: CommodoresState, a: Action
              ) -> CommodoresState:
    h = s.hexes[s.target]
    assert h is not None
    return changed(s, hexes=set_hex(s.hexes, s.target, replaced(h, number=a.number)),
                   tokens=token_change(s.tokens, a.number), step=SHIPS, target=-1)


# -- placing the hex drawn (rulings 2) -----------------------------------------------------------
def placements(rules: CommodoresRules, s: CommodoresState) -> list[int]:
    """Rulings 2: the spaces where the hex just drawn may go. An exploration places it in
    any empty space the acting ship touches. RULING: a terraform's new hex goes, "as if
    exploring", in any empty space the ship touches, the freed one included, except a
    space that would leave a ship or a hex touching nothing (the freed space never does;
    the centre counts from rulings 3 on)."""
    if s.active < 0:
        return []
    hexes, geo = s.hexes, rules.geometry
    empty = [sp for sp in geo.corner_spaces[s.ships[s.active].corner] if hexes[sp] is None]
    freed = s.target
    if freed < 0:
        return empty
    return [sp for sp in empty if sp == freed or not strands(rules, s, freed, sp)]


def strands(rules: CommodoresRules, s: CommodoresState, freed: int, space: int) -> str:
    """What placing the drawn hex at `space`, leaving `freed` empty, would leave touching
    nothing ("" if nothing)."""
    geo = rules.geometry
    hexes = set_hex(s.hexes, space, Hex(s.drawn or MERCHANT, 0, 0))
    for ship in s.ships:
        if ship.corner in geo.space_corners[freed] and not any(
                hexes[sp] is not None for sp in geo.corner_spaces[ship.corner]):
            return f"ship {ship_name(ship)} would touch no hex"
    # RULING (rulings 3): the centre hex is no exception: left alone, its ships could never
    # fly off it and no other ship could reach it. Rulings 2 let it be cut off.
    centre_counts = rules.rulings >= 3
    for sp in (space, *geo.space_neighbours[freed]):
        if (sp or centre_counts) and hexes[sp] is not None and not any(
                hexes[o] is not None for o in geo.space_neighbours[sp]):
            what = "the centre hex" if sp == 0 else "the hex"
            return f"{what} at {geo.space_name(sp)} would touch no other hex"
    return ""


def place_hex_legal(rules: CommodoresRules, s: CommodoresState, seat: int
                    ) -> list[CommodoresAction]:
    place = rules.tables.place_hex
    return [place[space] for space in placements(rules, s)]


def on_place_hex(rules: CommodoresRules, s: CommodoresState, a: Action
                 ) -> CommodoresState:
    space = rules.geometry.space_index[a.space]
    fresh = s.fresh if space in s.fresh else s.fresh + (space,)
    placed = new_hex(rules, s.drawn, 0)
    hexes = set_hex(s.hexes, space, placed)
    if placed.kind in rules.res_index and any(s.tokens):
        return changed(s, hexes=hexes, fresh=fresh, drawn="", step=DRAW_NUMBER, target=space)
    # RULING: with no number tokens left, a resource hex is placed without a number.
    return changed(s, hexes=hexes, fresh=fresh, drawn="", step=SHIPS, target=-1)
