"""Aloft's observations for the adapters (docs/rules/balloons.md, "Encodings"); the numbering of
actions follows from their declaration in actions.py.

The game has no chance steps. Observations are read from `rules.view(state, seat)` alone, so the
other seats' colour cards show only once the game is over and the view reveals them.
"""

from __future__ import annotations

import functools
from operator import getitem
from typing import Any, NamedTuple

from ...kit.observations import Entries, dense, per_rules
from .rules import COLOURS, STATUS_NAMES, BalloonsRules
from .state import FLYING, INFLATED, OVER, UNPACKED, BalloonsState

STEPS = ("advance", "wind", "over")


# -- observations ----------------------------------------------------------------------------------
def _sizes(rules: BalloonsRules) -> dict[str, int]:
    n, t, p = len(rules.ids), rules.truck_count, rules.players
    places = rules.columns + 1  # columns 1..columns, and one past the last for a truck that left
    per_balloon = len(STATUS_NAMES) + t + places + rules.altitudes + n
    return {"balloons": n * per_balloon, "trucks": (t + 1) * places,
            "colours": p * len(COLOURS), "step": len(STEPS), "to_act": p, "me": p, "misc": 2}


def observation_shape(rules: BalloonsRules) -> tuple[int, ...]:
    return (sum(_sizes(rules).values()),)


class _Layout(NamedTuple):
    """Where each block of the observation starts, per rules object (asked at every step)."""
    size: int
    balloons: tuple[int, ...]  # each balloon's block, in rules.ids order
    truck: int  # offsets inside a balloon's block
    column: int
    altitude: int
    row: int
    trucks: int  # the trucks' and the safety truck's columns
    places: int
    colours: int
    step: int
    to_act: int
    me: int
    max_length: int


@functools.lru_cache(maxsize=32)
def _layout(rules: BalloonsRules) -> _Layout:
    sizes = _sizes(rules)
    n, t, places = len(rules.ids), rules.truck_count, rules.columns + 1
    per_balloon = sizes["balloons"] // n if n else 0
    truck = len(STATUS_NAMES)
    trucks = sizes["balloons"]
    colours = trucks + sizes["trucks"]
    step = colours + sizes["colours"]
    to_act = step + sizes["step"]
    return _Layout(sum(sizes.values()), tuple(i * per_balloon for i in range(n)), truck,
                   truck + t, truck + t + places, truck + t + places + rules.altitudes,
                   trucks, places, colours, step, to_act, to_act + rules.players,
                   rules.max_length())


_STATUS = {name: i for i, name in enumerate(STATUS_NAMES)}
_STEP = {step: i for i, step in reversed(list(enumerate(STEPS)))}
_COLOUR = {colour: i for i, colour in reversed(list(enumerate(COLOURS)))}  # first, as .index


def observation(rules: BalloonsRules, view: dict[str, Any], seat: int) -> list[float]:
    """The view as numbers, in the order of `_sizes`: one-hot blocks, then two scalars."""
    return dense(_layout(rules).size, observation_entries(rules, view, seat))


def observation_entries(rules: BalloonsRules, view: dict[str, Any], seat: int) -> Entries:
    """`observation` as its non-zero entries (aloftnb.kit.observations)."""
    at = _layout(rules)
    ones: list[int] = []
    hot = ones.append
    row = {bid: i for i, bid in enumerate(view["row"])}
    balloons, trucks = view["balloons"], view["trucks"]
    for bid, base in zip(rules.ids, at.balloons):
        entry = balloons[bid]
        hot(base + _STATUS[entry["status"]])
        truck = entry.get("truck")
        if truck is not None:
            hot(base + at.truck + truck)
        column = entry["column"] if "column" in entry else (
            trucks[truck] if truck is not None else None)
        if column is not None:
            hot(base + at.column + column - 1)
        if "altitude" in entry:
            hot(base + at.altitude + entry["altitude"] - 1)
        place = row.get(bid)  # place in the packed row
        if place is not None:
            hot(base + at.row + place)
    base = at.trucks
    for column in (*trucks, view["safety"]):
        hot(base + column - 1)
        base += at.places
    colours, width = view["colours"], len(COLOURS)
    for other in range(rules.players):  # colour cards the view shows: this seat's, every
        colour = colours.get(str(other))  # seat's at the end
        if colour is not None:
            hot(at.colours + other * width + _COLOUR[colour])
    hot(at.step + STEPS.index(view["step"]))
    if view["current_player"] is not None:
        hot(at.to_act + view["current_player"])
    hot(at.me + seat)
    end = at.me + rules.players
    return ones, [end, end + 1], [min(1.0, view["turn"] / at.max_length),
                                  1.0 if view["lead_passed"] else 0.0]


class _Places(NamedTuple):
    """The observation's places as tables indexed by what the state holds, per rules object, so
    that `observation_entries_from_state` looks places up instead of adding offsets."""
    at: _Layout
    status: list[tuple[int, ...]]  # per balloon: by status
    column: list[tuple[int, ...]]  # per balloon: by column (one past the last too)
    altitude: list[tuple[int, ...]]  # per balloon: by altitude
    truck: list[tuple[int, ...]]  # per balloon: by launch-zone truck
    row: list[tuple[int, ...]]  # per balloon: by place in the row
    trucks: list[tuple[int, ...]]  # per truck, the safety truck last: by column


_PLACES: dict[int, tuple[Any, Any]] = {}


def _places(rules: BalloonsRules) -> _Places:
    at, n = _layout(rules), len(rules.ids)
    columns = rules.columns + 1  # a truck that left is one past the last column
    return _Places(
        at,
        [_table(base, len(STATUS_NAMES) - 1) for base in at.balloons],
        [_table(base + at.column - 1, columns) for base in at.balloons],
        [_table(base + at.altitude - 1, rules.altitudes) for base in at.balloons],
        [_table(base + at.truck, rules.truck_count - 1) for base in at.balloons],
        [_table(base + at.row, n - 1) for base in at.balloons],
        [_table(at.trucks + k * at.places - 1, columns) for k in range(rules.truck_count + 1)])


def _table(start: int, top: int) -> tuple[int, ...]:
    """start + k at index k, for k in 0..top."""
    return tuple(range(start, start + top + 1))


def observation_entries_from_state(rules: BalloonsRules, s: BalloonsState, seat: int
                                   ) -> list[Entries]:
    """`observation_entries` of `rules.view(s, seat)`, read from the state without building the
    view (the adapters call it at every step; tests/test_observation_state.py compares them).
    It reads only what that view shows: the other seats' colours only once the game is over."""
    places = per_rules(_PLACES, rules, _places)
    at = places.at
    status, where, trucks = s.status, s.where, s.trucks
    column, altitude, truck_of = places.column, places.altitude, places.truck
    ones = list(map(getitem, places.status, status))
    for b, st in enumerate(status):
        if st == FLYING:
            ones += (column[b][where[b]], altitude[b][s.altitude[b]])
        elif st == UNPACKED or st == INFLATED:
            truck = where[b]
            ones += (truck_of[b][truck], column[b][trucks[truck]])
    row = places.row
    ones += [row[b][place] for place, b in enumerate(s.row)]
    ones += map(getitem, places.trucks, (*trucks, s.safety))
    colours, width, step = s.colours, len(COLOURS), s.step
    shown = min(rules.players, len(colours))
    for other in range(shown) if step == OVER else (seat,) if 0 <= seat < shown else ():
        ones.append(at.colours + other * width + _COLOUR[COLOURS[colours[other]]])
    ones.append(at.step + _STEP[step])
    if step != OVER:
        ones.append(at.to_act + s.player)
    ones.append(at.me + seat)
    end = at.me + rules.players
    return [(ones, [end, end + 1], [min(1.0, s.turn / at.max_length),
                                   1.0 if s.lead_passed else 0.0])]


def observation_string(rules: BalloonsRules, view: dict[str, Any], seat: int) -> str:
    """The sky as a grid (balloon ids), the trucks and their loads, the row, and whose turn."""
    width = max(len(bid) for bid in rules.ids) + 1
    cells: dict[tuple[int, int], str] = {}
    riders: dict[int, str] = {}
    for bid, entry in view["balloons"].items():
        if entry["status"] == "flying":
            cells[(entry["column"], entry["altitude"])] = bid
        elif "truck" in entry:
            riders[entry["truck"]] = f"{bid}({entry['status'][0]})"
    lines = []
    for altitude in range(rules.altitudes, 0, -1):
        lines.append(f"{altitude} " + "".join(cells.get((c, altitude), ".").ljust(width)
                                              for c in range(1, rules.columns + 1)).rstrip())
    lines.append("  " + "".join(str(c).ljust(width) for c in range(1, rules.columns + 1)).rstrip())
    trucks = ", ".join(f"{k}@{c}" + (f" {riders[k]}" if k in riders else "")
                       for k, c in enumerate(view["trucks"]))
    lines.append(f"trucks: {trucks}; safety @{view['safety']}")
    lines.append(f"row: {' '.join(view['row']) or '(empty)'}")
    colours = ", ".join(f"seat {s} {c}" for s, c in sorted(view["colours"].items()))
    lines.append(f"seat {seat} sees colours: {colours or 'none'}")
    if view["step"] == "over":
        lines.append(f"turn {view['turn']}: the game is over")
    else:
        lines.append(f"turn {view['turn']}: seat {view['current_player']} to {view['step']}")
    return "\n".join(lines)
