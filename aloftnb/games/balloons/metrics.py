"""Balloons hooks for bots and playtesting: `BalloonsHooks`, registered as `HOOKS` (see
aloftnb/core/hooks.py for every hook and its fallback).

- `evaluate`: greedy's evaluation, higher is better for `seat`.
- `rewards`: MCTS outcome in 0..1 per seat (competitive games: the generic rank reward).
- `estimate` and `search_settings`: the guided search's playouts in competitive games stop after
  24 decisions and score the position by the seats' evaluations; `secret`: a seat's colour card.
- `measures`: per-game numbers recorded in each simulated game's row.
- `positions`: final cells ("column:altitude") for the position heat map.
"""

from __future__ import annotations

from math import exp
from typing import Any

from ...core.action import Action
from ...core.hooks import GameHooks, RestrictionPredicate, rank_rewards
from .rules import FLYING, INFLATED, PACKED, UNPACKED, BalloonsRules, BalloonsState

# How far along a balloon is before it flies: unpacking and inflating are steps towards a token.
_PROGRESS = {PACKED: 0.0, UNPACKED: 0.2, INFLATED: 0.4, FLYING: 0.6}


class BalloonsHooks(GameHooks[BalloonsRules, BalloonsState]):
    MEASURES = {
        "unlaunched": "balloons left unlaunched at the end",
        "formation_width": "columns the flying formation spans at the end",
        "mean_altitude": "mean altitude of the flying balloons at the end",
    }
    POSITION_AXES = ("column", "altitude")

    def evaluate(self, rules: BalloonsRules, s: BalloonsState, seat: int) -> float:
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

    def search_settings(self, rules: BalloonsRules) -> dict[str, Any]:
        """Competitive games: playouts cut after 24 decisions and scored by `estimate` (about
        half a two-player game); they beat `uct` at equal time more often than playouts to the
        end (docs/playtesting.md, "How strong the bots are"). Solo and cooperative games play
        to the end: their shared score is settled only by the last launches."""
        return {"cutoff": 24} if rules.mode == "competitive" else {}

    def estimate(self, rules: BalloonsRules, s: BalloonsState) -> dict[int, float]:
        """A cut-short playout's worth: each seat's evaluation against its rivals' mean, squashed
        into 0..1 around 0.5 (ahead by 4 is worth about 0.73)."""
        if rules.solo_rules:
            return self.rewards(rules, s)
        values = [self.evaluate(rules, s, seat) for seat in range(rules.players)]
        total, rivals = sum(values), rules.players - 1
        return {seat: 1.0 / (1.0 + exp(-(v - (total - v) / rivals) / 4.0))
                for seat, v in enumerate(values)}

    def rewards(self, rules: BalloonsRules, s: BalloonsState) -> dict[int, float]:
        if not rules.solo_rules:
            return rank_rewards(rules, s)  # GameHooks' fallback, called without a Python frame
        worst = rules.columns + 3 * len(rules.ids)
        value = 1.0 - rules.scores(s)[0] / worst
        return {seat: value for seat in range(rules.players)}

    def secret(self, rules: BalloonsRules, s: BalloonsState, seat: int) -> Any:
        """A seat's colour card: the one thing it knows that the others do not."""
        return s.colours[seat] if rules.mode == "competitive" else None

    def measures(self, rules: BalloonsRules, s: BalloonsState) -> dict[str, Any]:
        flying = [b for b in rules._balloon_range if s.status[b] == FLYING]
        return {
            "unlaunched": len(rules.ids) - len(flying),
            "formation_width": rules.formation_width(s),
            "mean_altitude": ((sum(s.altitude[b] for b in flying) / len(flying)) if flying
                              else 0.0),
        }

    def positions(self, rules: BalloonsRules, s: BalloonsState) -> list[str]:
        return [f"{s.where[b]}:{s.altitude[b]}" for b in rules._balloon_range
                if s.status[b] == FLYING]

    def position_grid(self, rules: BalloonsRules) -> tuple[int, int]:
        """The heat map's size: (columns, altitudes)."""
        return rules.columns, rules.altitudes


    def restrictions(self, rules: BalloonsRules) -> dict[str, RestrictionPredicate]:
        """Strategies to bar in restricted play (docs/rules/balloons.md, "Restricted play")."""

        def inflates_early(s: BalloonsState, action: Action) -> bool:
            return action.type == "inflate" and FLYING not in s.status

        return {
            "never ascends": lambda action: action.type == "ascend",
            "never unpacks": lambda action: action.type == "unpack",
            "never inflates early": inflates_early,
        }


HOOKS = BalloonsHooks()
