"""What each seat gets from a finished game, for the adapters (OpenSpiel returns, PettingZoo
rewards). docs/adapters.md explains the choice.

- Competitive games: rank-based and zero-sum, in -1..1. A seat gains 1 for every rival it beats
  and loses 1 for every rival that beats it, divided by the number of rivals. Winners beat the
  others; among the winners, or among the rest, the score decides in a scored game ("scores"
  utility) and equal is a tie.
- Cooperative games and games for one seat: the shared reward in 0..1 that aloftnb's MCTS uses
  (the game's `rewards` hook, else 1 for a win and 0 for a loss), the same for every seat.
"""

from __future__ import annotations

from typing import Any

from ..core.bots import outcome_rewards
from ..core.rules import Rules


def shared_returns(rules: Rules) -> bool:
    """Whether every seat gets the same return (cooperative or one-seat games)."""
    return rules.traits.cooperative or rules.players == 1


def return_bounds(rules: Rules) -> tuple[float, float]:
    return (0.0, 1.0) if shared_returns(rules) else (-1.0, 1.0)


def outcome_returns(rules: Rules, state: Any) -> list[float]:
    """The return of each seat of a finished game, in seat order."""
    n = rules.players
    if shared_returns(rules):
        rewards = outcome_rewards(rules, state)
        return [float(rewards[seat]) for seat in range(n)]
    result = rules.outcome(state)
    if result is None:
        raise ValueError("returns are defined for finished games only")
    winners = set(result.winners)
    sign = 1.0 if rules.higher_score_wins else -1.0
    scored = rules.traits.utility == "scores"

    def rank(seat: int) -> tuple[bool, float]:
        return (seat in winners, sign * result.scores[seat] if scored else 0.0)

    returns = []
    for seat in range(n):
        mine = rank(seat)
        balance = sum((mine > rank(o)) - (mine < rank(o)) for o in range(n) if o != seat)
        returns.append(balance / (n - 1))
    return returns
