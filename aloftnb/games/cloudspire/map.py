"""Cloudspire's map: ground and passable hexes, distances (to a mark, in a spire's range), hex
groups, influence, Source wells and occupied hexes.

Functions of the rules (whose `configure` reads the map from the catalogue) and of the state's
earthscape slots; the rules keep them as methods (`rules.land(slots)`...). The answers that
depend only on the slots are cached on the rules (`rules._cache`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit.hexgrid import reachable

if TYPE_CHECKING:
    from .rules import CloudspireRules

FAR = 999  # distance to an unreachable hex


def land(rules: CloudspireRules, slots: tuple[str, ...]) -> frozenset[str]:
    """Hexes with ground: islands and placed earthscapes."""
    key = ("land", slots)
    if key not in rules._cache:
        filled = {h for h, e in zip(rules.slots, slots) if e}
        rules._cache[key] = frozenset(rules.islands) | frozenset(filled)
    return rules._cache[key]


def passable(rules: CloudspireRules, slots: tuple[str, ...], terrain: str) -> frozenset[str]:
    key = ("pass", slots, terrain)
    if key not in rules._cache:
        ground = set(rules.hexes) if terrain == "sky" else set(land(rules, slots))
        rules._cache[key] = frozenset(ground - rules.walls)
    return rules._cache[key]


def mark_distance(rules: CloudspireRules, slots: tuple[str, ...], terrain: str,
                  gate: str) -> dict[str, int]:
    """Steps from each hex to the gate `gate` for a unit of that terrain (units ignored)."""
    key = ("mark", slots, terrain, gate)
    if key not in rules._cache:
        rules._cache[key] = reachable(gate, passable(rules, slots, terrain), rules.neighbours)
    return rules._cache[key]


def range_distance(rules: CloudspireRules, slots: tuple[str, ...],
                   spire_hex: str) -> dict[str, int]:
    """Steps from a spire counted over ground only: range never counts through sky
    (occupied hexes count). RULING (range, rulings 2): the target's own hex is not counted
    through, so a sky hex is as far as its nearest ground neighbour plus one; with rulings
    1 sky hexes were out of range altogether."""
    key = ("range", slots, spire_hex)
    if key not in rules._cache:
        ground = land(rules, slots)
        dist = reachable(spire_hex, ground, rules.neighbours)
        if rules.new_rulings:
            for h in rules.hexes:
                if h not in ground:
                    near = [dist[nb] for nb in rules.neighbours[h] if nb in dist]
                    if near:
                        dist[h] = min(near) + 1
        rules._cache[key] = dist
    return rules._cache[key]


def groups(rules: CloudspireRules, slots: tuple[str, ...]
           ) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """(hex -> its hex group, group -> neighbouring groups): islands, and each placed
    earthscape as a group of its own."""
    key = ("groups", slots)
    if key not in rules._cache:
        group_of = dict(rules.islands)
        for h, e in zip(rules.slots, slots):
            if e:
                group_of[h] = f"earthscape {h}"
        near: dict[str, set[str]] = {g: set() for g in group_of.values()}
        for h, g in group_of.items():
            for nb in rules.neighbours[h]:
                other = group_of.get(nb)
                if other is not None and other != g:
                    near[g].add(other)
        rules._cache[key] = (group_of, {g: frozenset(v) for g, v in near.items()})
    return rules._cache[key]


def influence(rules: CloudspireRules, s: Any, faction: int) -> frozenset[str]:
    """Hex groups within a faction's influence: next to its gate, holding one of its
    spires, or next to a group that holds one."""
    group_of, near = groups(rules, s.slots)
    gate = rules.gate_hexes[faction]
    mine = {group_of[nb] for nb in rules.neighbours[gate] if nb in group_of}
    if gate in group_of:
        mine.add(group_of[gate])
    for spire in s.spires:
        if spire.owner == faction:
            g = group_of[spire.hex]
            mine.add(g)
            mine |= near[g]
    return frozenset(mine)


def wells(rules: CloudspireRules, s: Any) -> tuple[str, ...]:
    extra = tuple(h for h, e in zip(rules.slots, s.slots)
                  if e and rules.catalogue.earthscapes[e].well)
    return rules.catalogue.map.wells + extra


def occupied(rules: CloudspireRules, s: Any) -> set[str]:
    taken = {u.hex for u in s.units} | {sp.hex for sp in s.spires}
    return taken | rules.walls
