"""Scoring: the tokens of the formation, the competitive scores, and the solo and cooperative
shared score (lower is better), with the sentence that gives the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.traits import Outcome
from .state import FLYING, OVER, BalloonsState

if TYPE_CHECKING:
    from .rules import BalloonsRules


def tokens(rules: BalloonsRules, s: BalloonsState) -> dict[str, int]:
    """Scoring tokens: 1 for the leftmost balloon of the lowest row, left to right, upwards."""
    flying = sorted((s.altitude[b], s.where[b], b) for b in rules._balloon_range
                    if s.status[b] == FLYING)
    return {rules.ids[b]: token for token, (_, _, b) in enumerate(flying, start=1)}


def formation_width(rules: BalloonsRules, s: BalloonsState) -> int:
    columns = [s.where[b] for b in rules._balloon_range if s.status[b] == FLYING]
    return max(columns) - min(columns) + 1 if columns else 0  # RULING: no formation: 0 wide


def scores(rules: BalloonsRules, s: BalloonsState) -> dict[int, float]:
    """RULING: before the end this reports the formation as it stands (designer information).

    Competitive: specials score for no one, and every tied seat wins (Rules.winners). Solo and
    cooperative: one shared score, so winners() lists every seat.
    """
    # Scores are whole numbers: typed Any here, since the compiled build turns a whole number
    # into a float wherever the code says `float`.
    result: dict[int, Any]
    if rules.mode == "competitive":
        held = tokens(rules, s)
        result = {
            seat: sum(t for bid, t in held.items()
                      if colour in rules.balloon_colours[rules.index[bid]])
            for seat, colour in enumerate(s.colours)
        }
        return result
    unlaunched = sum(1 for st in s.status if st != FLYING)
    score = formation_width(rules, s) + 3 * unlaunched
    result = {seat: score for seat in range(rules.players)}  # one shared score
    return result


def outcome(rules: BalloonsRules, s: BalloonsState) -> Outcome | None:
    if s.step != OVER:
        return None
    result = scores(rules, s)
    if rules.solo_rules:
        unlaunched = sum(1 for st in s.status if st != FLYING)
        width = formation_width(rules, s)
        why = "every balloon launched" if not unlaunched else f"{unlaunched} left unlaunched"
        return Outcome(tuple(range(rules.players)), result,
                       f"shared score {result[0]:g} (lower is better): formation {width} "
                       f"wide, {why}")
    best = max(result.values())
    winners = tuple(seat for seat, score in result.items() if score == best)
    who = " and ".join(f"seat {w}" for w in winners)
    tie = " (a tie)" if len(winners) > 1 else ""
    return Outcome(winners, result, f"{who} scored {best:g} in tokens{tie}")
