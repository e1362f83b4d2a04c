"""Balloons hooks for bots and playtesting (see aloftnb/core/bots.py and aloftnb/playtest/).

- `evaluate(rules, state, seat)`: greedy's evaluation, higher is better for `seat`.
- `rewards(rules, state)`: MCTS outcome in 0..1 per seat (None: use the generic rank reward).
- `measures(rules, state)`: per-game numbers recorded in each simulated game's row.
- `positions(rules, state)`: final cells ("column:altitude") for the position heat map.
"""

from __future__ import annotations

from typing import Any

from .rules import FLYING, INFLATED, PACKED, UNPACKED, BalloonsRules, BalloonsState

MEASURES = {
    "unlaunched": "balloons left unlaunched at the end",
    "formation_width": "columns the flying formation spans at the end",
    "mean_altitude": "mean altitude of the flying balloons at the end",
}
POSITION_AXES = ("column", "altitude")

# How far along a balloon is before it flies: unpacking and inflating are steps towards a token.
_PROGRESS = {PACKED: 0.0, UNPACKED: 0.2, INFLATED: 0.4, FLYING: 0.6}


def evaluate(rules: BalloonsRules, s: BalloonsState, seat: int) -> float:
    if rules.solo_rules:
        return -float(rules.scores(s)[0])  # one shared score, lower is better
    scores = rules.scores(s)
    rivals = [v for p, v in scores.items() if p != seat]
    lead = scores[seat] - (sum(rivals) / len(rivals) if rivals else 0.0)
    # Tokens only count flying balloons; reward readying balloons of the seat's colour too.
    colour = s.colours[seat]
    progress = sum(_PROGRESS[s.status[b]] + 0.1 * s.altitude[b]
                   for b in rules._balloon_range if colour in rules.balloon_colours[b])
    return lead + progress


def rewards(rules: BalloonsRules, s: BalloonsState) -> dict[int, float] | None:
    if not rules.solo_rules:
        return None
    worst = rules.columns + 3 * len(rules.ids)
    value = 1.0 - rules.scores(s)[0] / worst
    return {seat: value for seat in range(rules.players)}


def measures(rules: BalloonsRules, s: BalloonsState) -> dict[str, Any]:
    flying = [b for b in rules._balloon_range if s.status[b] == FLYING]
    return {
        "unlaunched": len(rules.ids) - len(flying),
        "formation_width": rules.formation_width(s),
        "mean_altitude": (sum(s.altitude[b] for b in flying) / len(flying)) if flying else 0.0,
    }


def positions(rules: BalloonsRules, s: BalloonsState) -> list[str]:
    return [f"{s.where[b]}:{s.altitude[b]}" for b in rules._balloon_range
            if s.status[b] == FLYING]


def position_grid(rules: BalloonsRules) -> tuple[int, int]:
    """The heat map's size: (columns, altitudes)."""
    return rules.columns, rules.altitudes
