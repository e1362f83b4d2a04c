"""Aloft's observations for the adapters (docs/rules/balloons.md, "Encodings"); the numbering of
actions follows from their declaration in actions.py.

The game has no chance steps. Observations are read from `rules.view(state, seat)` alone, so the
other seats' colour cards show only once the game is over and the view reveals them.
"""

from __future__ import annotations

from typing import Any

from .rules import COLOURS, STATUS_NAMES, BalloonsRules

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


def observation(rules: BalloonsRules, view: dict[str, Any], seat: int) -> list[float]:
    """The view as numbers, in the order of `_sizes`: one-hot blocks, then two scalars."""
    n, t, p = len(rules.ids), rules.truck_count, rules.players
    places, top = rules.columns + 1, rules.altitudes
    out = [0.0] * observation_shape(rules)[0]
    at = 0  # where the next block starts; a block of `size` has a 1 at `at + hot`, if any

    def one_hot(size: int, hot: int | None) -> None:
        nonlocal at
        if hot is not None:
            out[at + hot] = 1.0
        at += size

    row = {bid: i for i, bid in enumerate(view["row"])}
    statuses = {name: i for i, name in enumerate(STATUS_NAMES)}
    for bid in rules.ids:
        entry = view["balloons"][bid]
        one_hot(len(STATUS_NAMES), statuses[entry["status"]])
        truck = entry.get("truck")
        one_hot(t, truck)
        column = entry["column"] if "column" in entry else (
            view["trucks"][truck] if truck is not None else None)
        one_hot(places, None if column is None else column - 1)
        one_hot(top, entry["altitude"] - 1 if "altitude" in entry else None)
        one_hot(n, row.get(bid))  # place in the packed row
    for column in (*view["trucks"], view["safety"]):
        one_hot(places, column - 1)
    for other in range(p):  # colour cards the view shows: this seat's, every seat's at the end
        colour = view["colours"].get(str(other))
        one_hot(len(COLOURS), None if colour is None else COLOURS.index(colour))
    one_hot(len(STEPS), STEPS.index(view["step"]))
    one_hot(p, view["current_player"])
    one_hot(p, seat)
    out[at] = min(1.0, view["turn"] / rules.max_length())
    out[at + 1] = 1.0 if view["lead_passed"] else 0.0
    return out


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
