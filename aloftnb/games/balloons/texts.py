"""What balloons says: the reasons an action is refused, log sentences and the board parts
clicked to play an action (the actions' fields and sentences are declared in actions.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.action import Action
from .state import (
    ADVANCE_TYPES,
    FLYING,
    INFLATED,
    PACKED,
    STATUS_NAMES,
    UNPACKED,
    WIND,
    BalloonsState,
)

if TYPE_CHECKING:
    from .rules import BalloonsRules


# -- refusals --------------------------------------------------------------------------------------
def why_illegal(rules: BalloonsRules, s: BalloonsState, action: Action) -> str:
    """Why `action` is not legal in `s`, in a sentence."""
    kind = action.type
    if s.step == WIND and kind != "wind":
        return (f"this is the wind phase: seat {s.player} must move a truck first, since "
                "balloons are flying and the wind blows before a balloon advances")
    if kind == "wind":
        if rules.edition == "fixed":
            return "in the fixed-wind edition the wind moves the trucks by itself"
        if s.step != WIND:
            return ("no truck moves in the advance phase: the wind blows once, at the start "
                    "of a turn, and only when a balloon is flying")
        if action.truck == "launch":
            return "moving a launch-zone truck would put the last truck past the safety truck"
        return "moving the safety truck would put it past the lead truck"
    if kind == "pass":
        return "a balloon can still advance; you may pass only when none can"
    b = rules.index[action.balloon]
    st = s.status[b]
    bid = action.balloon
    expected = {"unpack": PACKED, "inflate": UNPACKED, "launch": INFLATED,
                "ascend": FLYING}[kind]
    if st != expected:
        wanted = STATUS_NAMES[expected]
        article = "an" if wanted[0] in "aeiou" else "a"
        return f"{bid} is {STATUS_NAMES[st]}; only {article} {wanted} balloon can {kind}"
    if kind == "unpack":
        if rules.solo_rules and s.row and s.row[0] != b:
            return (f"with the solo rules only the first balloon of the row "
                    f"({rules.ids[s.row[0]]}) may be unpacked")
        rider = s.load[action.truck]
        return f"truck {action.truck} already carries {rules.ids[rider]}"
    if kind == "launch":
        c = s.trucks[s.where[b]]
        if c > rules.columns:
            return f"{bid}'s truck has left the field (column {c}); there is no sky above it"
        return cell_problem(rules, s, b, c, 1)
    if s.altitude[b] >= rules.altitudes:
        return f"{bid} is already at the highest altitude ({rules.altitudes})"
    return cell_problem(rules, s, b, s.where[b], s.altitude[b] + 1)


def cell_problem(rules: BalloonsRules, s: BalloonsState, b: int, c: int, a: int) -> str:
    """Why balloon `b` may not fly into column `c`, altitude `a`."""
    occupant = balloon_at(rules, s)
    bid = rules.ids[b]
    if (c, a) in occupant:
        return f"column {c}, altitude {a} is taken by {rules.ids[occupant[(c, a)]]}"
    for cell in ((c - 1, a), (c + 1, a), (c, a + 1), (c, a - 1)):
        other = occupant.get(cell)
        if other is not None and other != b:
            return (f"{bid} would fly orthogonally next to {rules.ids[other]} at column "
                    f"{cell[0]}, altitude {cell[1]}")
    for cell in ((c - 1, a - 1), (c + 1, a - 1), (c - 1, a + 1), (c + 1, a + 1)):
        other = occupant.get(cell)
        if other is not None and rules.balloon_colours[b] & rules.balloon_colours[other]:
            return (f"with the solo rules {bid} may not touch {rules.ids[other]} diagonally "
                    f"(they share a colour)")
    return f"{bid} cannot advance there"


def balloon_at(rules: BalloonsRules, s: BalloonsState) -> dict[tuple[int, int], int]:
    """The flying balloons by cell (column, altitude)."""
    return {(s.where[b], s.altitude[b]): b for b in rules._balloon_range
            if s.status[b] == FLYING}


# -- the log and the board ------------------------------------------------------------------------
def describe_action(rules: BalloonsRules, s: BalloonsState, action: Action) -> str:
    """The log sentence for `action` played in `s`."""
    kind = action.type
    if kind == "unpack":
        return f"unpacked {action.balloon} onto truck {action.truck} " \
               f"(column {s.trucks[action.truck]})"
    if kind == "inflate":
        return f"inflated {action.balloon}"
    if kind == "launch":
        b = rules.index[action.balloon]
        return f"launched {action.balloon} at column {s.trucks[s.where[b]]}"
    if kind == "ascend":
        b = rules.index[action.balloon]
        return f"{action.balloon} rose to altitude {s.altitude[b] + 1}"
    if kind == "wind":
        return str(rules.apply(s, action).wind)
    return "passed: no balloon could advance"


def action_path(rules: BalloonsRules, s: BalloonsState, action: Action) -> list[str]:
    """The board parts clicked, in order, to play `action`."""
    kind = action.type
    if kind == "unpack":
        return [f"balloon:{action.balloon}", f"truck:{action.truck}"]
    if kind in ADVANCE_TYPES:
        return [f"balloon:{action.balloon}"]
    if kind == "wind":
        return [f"wind:{action.truck}"]
    return ["pass"]
