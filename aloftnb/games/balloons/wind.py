"""The wind: how it moves the trucks under the sky, in both editions.

The fixed edition's wind follows a set cycle and blows by itself at the end of each turn
(`fixed_wind`, called when a turn ends, in advance.py). In the choice edition the wind is a phase
of its own: while a balloon flies, each turn starts with the player choosing which truck moves
(`legal` and `play`, the wind phase's entries in the flow table of rules.py).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ...core.action import Action
from ...kit.tuples import with_item
from .state import ADVANCE, BalloonsState

if TYPE_CHECKING:
    from .rules import BalloonsRules


def launch_zone_move(trucks: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Move the rightmost truck of the first group (the lead truck when there is one group)."""
    for i in range(len(trucks) - 1):
        if trucks[i + 1] - trucks[i] > 1:
            return with_item(trucks, i, trucks[i] + 1), i
    last = len(trucks) - 1
    return with_item(trucks, last, trucks[last] + 1), last


# Cached: it runs after every fixed-edition turn, on few distinct truck positions, and writing
# its sentence cost more than the rest of the turn's bookkeeping.
@functools.cache
def fixed_wind(trucks: tuple[int, ...], safety: int) -> tuple[tuple[int, ...], int, str]:
    """The fixed-wind edition's three cases: returns (trucks, safety, what happened).

    RULING: in the third case the safety truck moves one column, which puts it under the last
    truck again (the only position behind it that the cycle reaches is one column).
    """
    grouped = trucks[-1] - trucks[0] == len(trucks) - 1
    if grouped and safety != trucks[0]:
        return trucks, safety + 1, f"the safety truck moved to column {safety + 1}"
    moved_trucks, moved = launch_zone_move(trucks)
    return moved_trucks, safety, f"truck {moved} moved to column {moved_trucks[moved]}"


def choices(s: BalloonsState) -> list[str]:
    """Choice edition: which trucks may move. The safety truck stays between last and lead."""
    found = []
    trucks, _ = launch_zone_move(s.trucks)
    if trucks[0] <= s.safety:
        found.append("launch")
    if s.safety + 1 <= s.trucks[-1]:
        found.append("safety")
    return found


def choice_moves(s: BalloonsState) -> dict[str, dict[str, int]]:
    """Choice edition: what each legal wind choice moves, {"launch": {"truck", "from", "to"},
    "safety": {"from", "to"}}, so a drawing shows it without running a rule."""
    moves: dict[str, dict[str, int]] = {}
    for choice in choices(s):
        if choice == "launch":
            trucks, moved = launch_zone_move(s.trucks)
            moves["launch"] = {"truck": moved, "from": s.trucks[moved], "to": trucks[moved]}
        else:
            moves["safety"] = {"from": s.safety, "to": s.safety + 1}
    return moves


# -- the wind phase (choice edition) ---------------------------------------------------------------
def legal(rules: BalloonsRules, s: BalloonsState, seat: int) -> list[Action]:
    """The wind moves the seat may choose (kept per position of the trucks, for the fast path)."""
    key = (s.trucks, s.safety)
    found = rules._wind_legal.get(key)
    if found is None:
        found = rules._wind_legal[key] = tuple(rules._wind[k] for k in choices(s))
    return list(found)


def play(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    """Move the chosen truck one column; the same seat then advances a balloon (the phase the
    flow table names next, written here directly: Flow.enter's copy would double this step's
    cost)."""
    if action.truck == "launch":
        trucks, moved = launch_zone_move(s.trucks)
        safety = s.safety
        text = f"truck {moved} moved to column {trucks[moved]}"
    else:
        trucks, safety = s.trucks, s.safety + 1
        text = f"the safety truck moved to column {safety}"
    return BalloonsState(
        rules, trucks, safety, s.status, s.where, s.altitude, s.load, s.sky, s.row, s.colours,
        s.turn, s.player, ADVANCE, text, trucks[-1] > rules.columns)
