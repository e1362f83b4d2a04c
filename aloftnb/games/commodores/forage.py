"""Foraging, the phase each turn begins with: the seat whose turn it is calls a number from 1 to
6, and every seat's ships take from the hexes with that number they touch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.action import Action
from .actions import CommodoresAction
from .changes import changed, stats, tally
from .state import FORAGED, CommodoresState

if TYPE_CHECKING:
    from .rules import CommodoresRules


def forage_legal(rules: CommodoresRules, s: CommodoresState, seat: int
                 ) -> list[CommodoresAction]:
    return list(rules.tables.forage)


def on_forage(rules: CommodoresRules, s: CommodoresState, a: Action
              ) -> CommodoresState:
    t = rules.tables
    number, hexes, res_index = a.number, s.hexes, t.res_index
    cap = t.pool_cap
    corner_spaces = t.corner_spaces
    gaining: dict[int, list[int]] = {}  # seat -> its pool being changed (others: unchanged)
    for ship in s.ships:
        forage = 0
        for space in corner_spaces[ship.corner]:
            h = hexes[space]
            if h is not None and h.number == number and h.kind in res_index:
                if not forage:  # looked up only for ships next to the number called
                    forage = stats(t, ship)[1]
                    if forage <= 0:
                        break
                i = res_index[h.kind]
                pool = gaining.get(ship.owner)
                if pool is None:
                    pool = gaining[ship.owner] = list(s.pools[ship.owner])
                pool[i] = min(cap, pool[i] + forage)  # RULING: a full tracker takes no more
    pools, tallies = s.pools, s.tallies
    if gaining:
        pools = tuple(tuple(gaining[seat]) if seat in gaining else pool
                      for seat, pool in enumerate(s.pools))
        for seat in sorted(gaining):
            tallies = tally(tallies, seat, FORAGED, sum(gaining[seat]) - sum(s.pools[seat]))
    # The ships phase comes next, as FLOW says.
    return changed(s, pools=pools, step=rules.step_after["forage"], tallies=tallies,
                   forage_number=number)
