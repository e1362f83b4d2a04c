"""Cloudspire hooks for bots and playtesting: `CloudspireHooks`, registered as `HOOKS` (see
aloftnb/core/hooks.py for every hook and its fallback).

- `evaluate`: greedy's evaluation, higher is better for `seat`: its side's strength (gate health
  most, then what its Source bought: spires and their upgrades, fortress advancements, market
  chips, units marching on their mark) against the strongest opposing side. Source held counts
  less than Source spent well, so the greedy bot spends it.
- `rewards`: MCTS outcome in 0..1 per seat, from the game's own winners.
- `estimate` with `PLAYOUT_DECISIONS`: MCTS playouts stop after that many decisions and score the
  position from the sides' strengths; `mcts_iterations`: the default budget.
- `measures`: per-game numbers in each simulated game's row (MEASURES), plus
  `gate_<seat>_wave_<n>` (gate health after each wave) and `spent_<phase>` per phase.
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.hooks import GameHooks, RestrictionPredicate
from . import worth
from .rules import CloudspireRules
from .state import OVER, CloudspireState


class CloudspireHooks(GameHooks[CloudspireRules, CloudspireState]):
    MEASURES = {
        "waves_played": "the wave the game ended in (before the last when a gate fell)",
        "gate_health_total": "gate health of all factions at the end",
        "winner_gate": "the winners' best gate health (0 when nobody won)",
        "spent_market": "Source spent at the market, all factions",
        "spent_build": "Source spent in the build phase, all factions",
        "spent_onslaught": "Source spent on limited builds in the onslaught, all factions",
        "units_lost": "units defeated, all factions",
        "spire_kills": "units defeated by spires, all factions",
        "spires": "spires on the map at the end",
        "gate_fell": "1 when a gate fell",
    }
    # MCTS: random playouts run for a hundred decisions or more, so at the default budget they
    # stop after this many decisions and `estimate` scores the position instead.
    PLAYOUT_DECISIONS = 16

    def mcts_iterations(self, rules: CloudspireRules) -> int:
        """MCTS iterations at the default budget: a decision within 2 s on one core in every mode.

        An iteration of the solo and cooperative games costs more (the rules play the Source
        faction's turns inside every playout), so they search fewer; measured with
        `python -m aloftnb bench` (docs/rules/cloudspire.md).
        """
        if rules.mode == "solo":
            return 400
        if rules.mode == "cooperative":
            return 500 if rules.players == 2 else 700
        return 1000

    def evaluate(self, rules: CloudspireRules, s: CloudspireState, seat: int) -> float:
        return worth.evaluate(rules, s, seat)

    def estimate(self, rules: CloudspireRules, s: CloudspireState) -> dict[int, float]:
        """Each seat's share of the strength in play, squashed into 0..1 around 0.5."""
        return worth.estimate(rules, s)

    def rewards(self, rules: CloudspireRules, s: CloudspireState) -> dict[int, float]:
        winners = s.winners if s.phase == OVER else ()
        return {seat: (1.0 if seat in winners else 0.0) for seat in range(rules.players)}

    def measures(self, rules: CloudspireRules, s: CloudspireState) -> dict[str, Any]:
        sides = s.sides
        row: dict[str, Any] = {
            "waves_played": s.wave,
            "gate_health_total": sum(side.gate for side in sides),
            "winner_gate": max((sides[w].gate for w in s.winners), default=0),
            "spent_market": sum(side.spent[0] for side in sides),
            "spent_build": sum(side.spent[1] for side in sides),
            "spent_onslaught": sum(side.spent[2] for side in sides),
            "units_lost": sum(side.units_lost for side in sides),
            "spire_kills": sum(side.spire_kills for side in sides),
            "spires": len(s.spires),
            "gate_fell": int(any(side.gate == 0 for side in sides)),
        }
        for f, side in enumerate(sides):
            for wave in range(rules.waves):
                history = side.gate_history
                row[f"gate_{f}_wave_{wave + 1}"] = (history[wave] if wave < len(history)
                                                    else (0 if side.gate == 0 else float("nan")))
            row[f"spent_{f}"] = sum(side.spent)
        return row


    def restrictions(self, rules: CloudspireRules) -> dict[str, RestrictionPredicate]:
        """Strategies to bar in restricted play (docs/rules/cloudspire.md, "Restricted play")."""
        heroes = {u for u, kind in rules.catalogue.units.items() if kind.hero}

        def one_spire_kind(s: CloudspireState, action: Action) -> bool:
            # Another kind than a spire the faction has standing (s.actor: the faction to act).
            return action.type == "construct" and any(
                sp.owner == s.actor and sp.kind != action.spire for sp in s.spires)

        return {
            "never buys at the market": lambda action: action.type in ("buy", "buy_earthscape"),
            "never fields heroes": lambda action: action.type == "deploy" and action.unit in heroes,
            "builds one spire kind": one_spire_kind,
            "never advances its fortress": lambda action: action.type == "advance",
        }


HOOKS = CloudspireHooks()
