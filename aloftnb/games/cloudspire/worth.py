"""What a side has in Cloudspire, in points: `strength` per faction, the greedy bot's `evaluate`
and the MCTS playouts' `estimate` (metrics.CloudspireHooks' hooks call these).

Apart from metrics.py so the compiled build compiles it (an MCTS playout ends in an estimate);
it calls units.py and map.py directly, as the rules' methods would cost a Python call each.
"""

from __future__ import annotations

import math
from typing import Any

from . import map as map_rules
from . import units
from .rules import FAR, CloudspireRules
from .state import OVER, CloudspireState

# Worth of one Source, held or turned into something (greedy weighs them against each other).
HELD = 0.35
SPENT = 0.75
GATE = 3.0  # one point of gate health


def chip_costs(rules: CloudspireRules) -> dict[str, Any]:
    """Each chip's cost, by its id."""
    return {c.id: c.cost for c in rules.catalogue.chips.values()}


def strength(rules: CloudspireRules, s: CloudspireState, f: int,
             chip_cost: dict[str, Any] | None = None) -> float:
    """What a faction has: gate health, Source, what it bought, and its units' threat
    (`chip_cost`: chip_costs(rules), where the caller has it already)."""
    cat = rules.catalogue
    side = s.sides[f]
    if side.gate == 0:
        return 0.0
    value = GATE * side.gate + HELD * side.source
    fac = rules._faction(side)
    for st, bought in zip(fac.structures, side.advancements):
        value += SPENT * sum(a.cost for a in st.advancements[:bought])
    if chip_cost is None:
        chip_cost = chip_costs(rules)
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
        group_of, _ = map_rules.groups(rules, s.slots)
        mine = map_rules.influence(rules, s, f)
        for slot_hex, placed in zip(rules.slots, s.slots):
            if placed and group_of[slot_hex] in mine:
                value += 0.5 * cost + (1.0 if cat.earthscapes[placed].well else 0.0)
    if side.mark >= 0:
        gate = rules.gate_hexes[side.mark]
        for u in s.units:
            if u.owner == f:
                attack, _, _, terrain = units.stats(rules, u)
                dist = map_rules.mark_distance(rules, s.slots, terrain, gate).get(u.hex, FAR)
                value += (0.5 * attack + 0.25 * u.health) * (1.0 + 3.0 / (1 + min(dist, 10)))
        value += sum(0.5 * units.stats(rules, b)[0] + 0.25 * b.health for b in side.stack)
    return value


def evaluate(rules: CloudspireRules, s: CloudspireState, seat: int) -> float:
    """Greedy's evaluation: the seat's side's strength against the strongest opposing side."""
    if s.phase == OVER:
        return 1000.0 if seat in s.winners else -1000.0
    return _against(rules, seat, strengths(rules, s))


def strengths(rules: CloudspireRules, s: CloudspireState) -> list[float]:
    """Every faction's strength, in faction order."""
    chip_cost = chip_costs(rules)
    return [strength(rules, s, f, chip_cost) for f in range(rules.factions)]


def _against(rules: CloudspireRules, seat: int, strength_of: list[float]) -> float:
    """The seat's sides' mean strength less the strongest opposing faction's."""
    mine = [f for f in range(rules.factions) if not units.opposed(rules, seat, f)]
    rivals = [f for f in range(rules.factions) if units.opposed(rules, seat, f)]
    own = sum(strength_of[f] for f in mine) / len(mine)
    best_rival = max((strength_of[f] for f in rivals), default=0.0)
    return own - best_rival


def estimate(rules: CloudspireRules, s: CloudspireState) -> dict[int, float]:
    """Each seat's share of the strength in play, squashed into 0..1 around 0.5 (every
    faction's strength found once, for all the seats)."""
    if s.phase == OVER:
        return {seat: 1 / (1 + math.exp(-evaluate(rules, s, seat) / 15.0))
                for seat in range(rules.players)}
    strength_of = strengths(rules, s)
    return {seat: 1 / (1 + math.exp(-_against(rules, seat, strength_of) / 15.0))
            for seat in range(rules.players)}
