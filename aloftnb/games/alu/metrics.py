"""ALU hooks for bots and playtesting: `AluHooks`, registered as `HOOKS` (see
aloftnb/core/hooks.py for every hook and its fallback).

- `evaluate`: greedy's evaluation, higher is better for `seat`.
- `rewards`: MCTS outcome in 0..1 per seat, from the game's own winners.
- `measures`: per-game numbers recorded in each simulated game's row.
- `positions`: final camp tiles ("column:row", 1-based) for the heat map.
"""

from __future__ import annotations

from typing import Any

from ...core.hooks import GameHooks, RestrictionPredicate
from .rules import CONSTRUCTION, FOOD, FOOD_PENDING, IRON, AluRules, AluState

_END_CODES = {"no_actions": 0, "control": 1, "eliminated": 2}


class AluHooks(GameHooks[AluRules, AluState]):
    MEASURES = {
        "circle_tiles": "tiles circle controls at the end",
        "square_tiles": "tiles square controls at the end",
        "raided_tiles": "raided tiles at the end",
        "turns": "turns played",
        "end": "how the game ended: 0 no actions left, 1 control, 2 a player eliminated",
    }
    POSITION_AXES = ("column", "row")

    def evaluate(self, rules: AluRules, s: AluState, seat: int) -> float:
        if s.player < 0:
            if len(s.winners) == 2:
                return 0.0
            return 1000.0 if s.winners[0] == seat else -1000.0
        other = 1 - seat
        lead = s.control[seat].bit_count() - s.control[other].bit_count()
        # Room to grow: tiles next to own camps that are still free to take.
        taken = s.camps[0] | s.camps[1] | s.raided
        room = (rules.neighbours(s.camps[seat]) & ~taken).bit_count()
        res = s.resources[seat]
        # A little value for being able to attack later, so raiding is not always worthless.
        attack_ready = min(res[IRON], res[FOOD] + res[FOOD_PENDING])
        return lead + 0.15 * room + 0.3 * min(attack_ready, 2) + 0.01 * res[CONSTRUCTION]

    def rewards(self, rules: AluRules, s: AluState) -> dict[int, float]:
        if len(s.winners) == 2 or not s.winners:
            return {0: 0.5, 1: 0.5}
        return {seat: 1.0 if seat == s.winners[0] else 0.0 for seat in (0, 1)}

    def measures(self, rules: AluRules, s: AluState) -> dict[str, Any]:
        return {
            "circle_tiles": s.control[0].bit_count(),
            "square_tiles": s.control[1].bit_count(),
            "raided_tiles": s.raided.bit_count(),
            "turns": s.turn,
            "end": _END_CODES.get(s.reason, -1),
        }

    def positions(self, rules: AluRules, s: AluState) -> list[str]:
        camps = s.camps[0] | s.camps[1]
        return [f"{i % rules.columns + 1}:{i // rules.columns + 1}"
                for i in range(rules.tile_count) if camps >> i & 1]

    def position_grid(self, rules: AluRules) -> tuple[int, int]:
        """The heat map's size: (columns, rows)."""
        return rules.columns, rules.rows


    def restrictions(self, rules: AluRules) -> dict[str, RestrictionPredicate]:
        """Strategies to bar in restricted play (docs/rules/alu.md, "Restricted play")."""
        return {
            "never raids": lambda action: action.type == "raid",
            "never attacks": lambda action: action.type == "attack",
            "never camps on raided tiles": lambda action: action.type == "raided_camp",
        }


HOOKS = AluHooks()
