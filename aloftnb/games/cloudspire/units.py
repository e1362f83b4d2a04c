"""The questions every phase asks of units and factions: whether a band is a hero, its numbers
(attack, health, movement, terrain), whether two factions are opposed and a side's Source cap.

Module functions of the rules (the rules keep them as methods too: `rules.is_hero(band)`), so
that the compiled phases call them directly, answered from tables on the rules (the hero kinds,
and `_stats` and `_caps`, filled as they are asked) rather than from the catalogue every time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Band, Side

if TYPE_CHECKING:
    from .rules import CloudspireRules


def is_hero(rules: CloudspireRules, band: Band) -> bool:
    return band.members[0] in rules.hero_units


def stats(rules: CloudspireRules, band: Band) -> tuple[int, int, int, str]:
    """(attack, full health, movement, terrain) of a band: its top unit, its level and
    equipment."""
    key = (band.members[0], band.level, band.equipment)
    found = rules._stats.get(key)
    if found is None:
        found = rules._stats[key] = _stats(rules, band)
    return found


def _stats(rules: CloudspireRules, band: Band) -> tuple[int, int, int, str]:
    kind = rules.catalogue.units[band.members[0]]
    level = kind.levels[min(band.level, len(kind.levels) - 1)]
    attack, health, movement = level.attack, level.health, level.movement
    if band.equipment:
        gear = rules.catalogue.equipment[band.equipment]
        attack, health, movement = (attack + gear.attack, health + gear.health,
                                    movement + gear.movement)
    return attack, health, movement, kind.terrain


def opposed(rules: CloudspireRules, a: int, b: int) -> bool:
    return b not in rules._allies[a]


def source_cap(rules: CloudspireRules, side: Side) -> int:
    """The game's Source cap plus what the side's fortress advancements add."""
    key = (side.faction, side.advancements)
    found = rules._caps.get(key)
    if found is None:
        found = rules._caps[key] = rules.numbers.source_cap + rules.bonus(side, "source_cap")
    return found
