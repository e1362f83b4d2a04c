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

import math
from typing import Any

from ...core.action import Action
from ...core.hooks import GameHooks, RestrictionPredicate
from .rules import FAR, CloudspireRules
from .state import OVER, CloudspireState

# Worth of one Source, held or turned into something (greedy weighs them against each other).
HELD = 0.35
SPENT = 0.75
GATE = 3.0  # one point of gate health


def strength(rules: CloudspireRules, s: CloudspireState, f: int) -> float:
    """What a faction has: gate health, Source, what it bought, and its units' threat."""
    cat = rules.catalogue
    side = s.sides[f]
    if side.gate == 0:
        return 0.0
    value = GATE * side.gate + HELD * side.source
    fac = rules._faction(side)
    for st, bought in zip(fac.structures, side.advancements):
        value += SPENT * sum(a.cost for a in st.advancements[:bought])
    chip_cost = {c.id: c.cost for c in cat.chips.values()}
    for sp in s.spires:
        if sp.owner == f:
            kind = cat.spires[sp.kind]
            value += SPENT * (chip_cost.get(kind.id, kind.cost) + len(sp.upgrades) * 1.5)
            value += 0.8 * sp.upgrades.count("A")
    for uid, count in zip(rules.unit_ids, side.barracks):
        if count and uid in chip_cost:  # merc units bought at the market
            value += SPENT * chip_cost[uid] * count
    value += SPENT * sum(chip_cost[e] for e in side.equipment)
    value += SPENT * sum(chip_cost.get(k, 0) * n for k, n in zip(rules.spire_ids,
                                                                  side.spire_stock)
                         if cat.spires[k].merc)
    # An earthscape held is worth a little more than the Source it cost (so greedy buys one);
    # placed where the faction's spires reach, more still (a well is a place for a spire).
    cost = rules.numbers.earthscape_cost
    value += 0.4 * cost * len(side.earthscapes)
    if any(s.slots):
        group_of, _ = rules.groups(s.slots)
        mine = rules.influence(s, f)
        for slot_hex, placed in zip(rules.slots, s.slots):
            if placed and group_of[slot_hex] in mine:
                value += 0.5 * cost + (1.0 if cat.earthscapes[placed].well else 0.0)
    if side.mark >= 0:
        gate = rules.gate_hexes[side.mark]
        for u in s.units:
            if u.owner == f:
                attack, _, _, terrain = rules.stats(u)
                dist = rules.mark_distance(s.slots, terrain, gate).get(u.hex, FAR)
                value += (0.5 * attack + 0.25 * u.health) * (1.0 + 3.0 / (1 + min(dist, 10)))
        value += sum(0.5 * rules.stats(b)[0] + 0.25 * b.health for b in side.stack)
    return value


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
        if s.phase == OVER:
            return 1000.0 if seat in s.winners else -1000.0
        mine = [f for f in range(rules.factions) if not rules.opposed(seat, f)]
        rivals = [f for f in range(rules.factions) if rules.opposed(seat, f)]
        own = sum(strength(rules, s, f) for f in mine) / len(mine)
        best_rival = max((strength(rules, s, f) for f in rivals), default=0.0)
        return own - best_rival

    def estimate(self, rules: CloudspireRules, s: CloudspireState) -> dict[int, float]:
        """Each seat's share of the strength in play, squashed into 0..1 around 0.5."""
        return {seat: 1 / (1 + math.exp(-self.evaluate(rules, s, seat) / 15.0))
                for seat in range(rules.players)}

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
