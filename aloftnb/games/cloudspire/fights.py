"""Fights and what they lead to: damage to units (and the falls, rewards and level-ups that
follow), attacks and retaliation, spire fire's damage, damage to spires, gates and landmarks, a
faction's elimination and the end of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.words import possessive
from .map import FAR, land, range_distance
from .phases.prep import mark_options
from .state import NOBODY, OVER
from .units import is_hero, opposed, source_cap, stats
from .work import Work

if TYPE_CHECKING:
    from .rules import CloudspireRules


def gain(rules: CloudspireRules, w: Work, f: int, amount: int) -> None:
    """Faction f gains Source, up to its cap."""
    side = w.sides[f]
    w.side(f, source=min(source_cap(rules, side), side.source + amount))


def fire_targets(rules: CloudspireRules, s: Any, spire_hex: str) -> list[str]:
    """Units of the faction whose turn it is that the spire at `spire_hex` may fire at."""
    spire = next(sp for sp in s.spires if sp.hex == spire_hex)
    reach = 1 + spire.upgrades.count("R")  # RULING (range): 1 plus one per range upgrade
    dist = range_distance(rules, s.slots, spire_hex)
    cur = s.order[s.turn]
    return [u.hex for u in s.units if u.owner == cur and dist.get(u.hex, FAR) <= reach
            and opposed(rules, spire.owner, cur)]


def fire_damage(rules: CloudspireRules, w: Work) -> None:
    """The firing spire's rolled damage dealt to its target; its owner counts a kill."""
    spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
    i = next((i for i, u in enumerate(w.units) if u.hex == w.target), None)
    if i is not None and w.damage > 0:
        if damage_band(rules, w, i, w.damage, spire.owner, None):
            side = w.sides[spire.owner]
            w.side(spire.owner, spire_kills=side.spire_kills + 1)


# -- fights --------------------------------------------------------------------------------
def damage_band(rules: CloudspireRules, w: Work, i: int, damage: int, by: int,
                hero: str | None) -> bool:
    """Deal damage to the band w.units[i]; True when its top unit is defeated. The
    defeater's faction gains the Source reward; a hero that defeated it levels up."""
    band = w.units[i]
    if band.health > damage:
        w.units[i] = band._replace(health=band.health - damage)
        return False
    top = rules.catalogue.units[band.members[0]]
    gain(rules, w, by, top.reward)
    side = w.sides[band.owner]
    barracks = list(side.barracks)
    levels = list(side.hero_levels)
    if not top.hero and not top.merc:  # faction minions go back; mercs are discarded
        barracks[rules.unit_index[top.id]] += 1
    if top.hero:
        levels[rules.unit_index[top.id]] = 0  # removed from the game
    w.side(band.owner, barracks=tuple(barracks), hero_levels=tuple(levels),
           units_lost=side.units_lost + 1)
    if len(band.members) > 1:  # the next minion of the group, at full health
        rest = band._replace(members=band.members[1:])
        w.units[i] = rest._replace(health=stats(rules, rest)[1])
        if rules.new_rulings:
            fall(rules, w, i)
    else:
        del w.units[i]
    if hero is not None:
        level_up(rules, w, hero)
    return True


def fall(rules: CloudspireRules, w: Work, i: int) -> None:
    """RULING (revealed on sky, rulings 2): a group moves as its top minion, so a group under
    a flying minion may stand on sky; a minion revealed there that cannot fly falls, and the
    next is revealed (full health) until one can stay or none is left. A fall is nobody's
    defeat: no reward, no level-up; the minion goes back to its barracks (a merc is
    discarded) and counts as a unit lost."""
    band = w.units[i]
    ground = land(rules, w.slots)
    while band.hex not in ground and stats(rules, band)[3] != "sky":
        kind = rules.catalogue.units[band.members[0]]
        side = w.sides[band.owner]
        barracks = list(side.barracks)
        if not kind.merc:
            barracks[rules.unit_index[kind.id]] += 1
        w.side(band.owner, barracks=tuple(barracks), units_lost=side.units_lost + 1)
        if w.notes is not None:
            w.notes.append(f"{possessive(rules.faction_of[band.owner].name)} {kind.name}, "
                           f"revealed on the sky at {band.hex}, falls")
        if len(band.members) == 1:
            del w.units[i]
            return
        rest = band._replace(members=band.members[1:])
        band = rest._replace(health=stats(rules, rest)[1])
        w.units[i] = band


def level_up(rules: CloudspireRules, w: Work, hex_: str) -> None:
    """RULING (level-ups): a hero that defeats something always takes its next level, and
    gains the health the new level adds. The text says "may"; with the shipped data a level
    is never weaker and rewards do not depend on levels, so declining never helps (the
    rules page gives the reasoning)."""
    j = next((j for j, u in enumerate(w.units) if u.hex == hex_), None)
    if j is None:
        return
    hero = w.units[j]
    kind = rules.catalogue.units[hero.members[0]]
    if hero.level + 1 >= len(kind.levels):
        return
    gain = kind.levels[hero.level + 1].health - kind.levels[hero.level].health
    w.units[j] = hero._replace(level=hero.level + 1, health=hero.health + max(0, gain))
    side = w.sides[hero.owner]
    levels = list(side.hero_levels)
    levels[rules.unit_index[kind.id]] = hero.level + 1
    w.side(hero.owner, hero_levels=tuple(levels))


def attack(rules: CloudspireRules, w: Work, f: int, at: str, target: str) -> None:
    i = next(i for i, u in enumerate(w.units) if u.hex == at)
    attacker = w.units[i]._replace(attacked=True)
    w.units[i] = attacker
    power = stats(rules, attacker)[0]
    by_hero = at if is_hero(rules, attacker) else None
    j = next((j for j, u in enumerate(w.units) if u.hex == target), None)
    if j is not None:
        defender = w.units[j]
        struck = defender.struck
        w.units[j] = defender._replace(struck=True)
        defeated = damage_band(rules, w, j, power, f, by_hero) if power else False
        if not defeated and not struck:  # retaliation, the first time each turn
            back = stats(rules, defender)[0]
            i = next(i for i, u in enumerate(w.units) if u.hex == at)
            if back:
                damage_band(rules, w, i, back, defender.owner,
                                  target if is_hero(rules, defender) else None)
        return
    k = next((k for k, sp in enumerate(w.spires) if sp.hex == target), None)
    if k is not None:
        damage_spire(rules, w, k, power, f, by_hero)
        return
    if target in rules.gate_of_hex:
        g = rules.gate_of_hex[target]
        dealt = min(power, w.sides[g].gate)
        w.side(g, gate=w.sides[g].gate - dealt)
        w.side(f, gate_damage=w.sides[f].gate_damage + dealt)
        # RULING (gates): a gate retaliates every time it is attacked, while standing.
        if w.sides[g].gate == 0:
            eliminate(rules, w, g)
        elif rules.numbers.gate_retaliation:
            damage_band(rules, w, i, rules.numbers.gate_retaliation, g, None)
        return
    m = next(m for m, lm in enumerate(w.landmarks) if lm.hex == target)
    lm = w.landmarks[m]
    face = rules.catalogue.faces[lm.face]
    left = max(0, lm.health - power)
    w.landmarks[m] = lm._replace(health=left, struck=True)
    if left == 0:  # RULING (landmarks): a defeated landmark stays as ground nobody enters
        gain(rules, w, f, face.reward)
        if by_hero is not None:
            level_up(rules, w, by_hero)
    elif not lm.struck and face.attack:
        damage_band(rules, w, i, face.attack, f, None)  # nobody gains from it


def damage_spire(rules: CloudspireRules, w: Work, k: int, damage: int, by: int,
                 hero: str | None) -> None:
    """One upgrade at most comes off the bottom: attack or range to any damage,
    fortification only to 2 or more. The last upgrade gone, the spire is defeated."""
    spire = w.spires[k]
    if not spire.upgrades or damage < (2 if spire.upgrades[0] == "F" else 1):
        return
    rest = spire.upgrades[1:]
    if rest:
        w.spires[k] = spire._replace(upgrades=rest)
        return
    kind = rules.catalogue.spires[spire.kind]
    del w.spires[k]
    gain(rules, w, by, kind.reward)
    if not kind.merc:  # faction spires go back to the barracks
        side = w.sides[spire.owner]
        stock = list(side.spire_stock)
        stock[rules.spire_index[kind.id]] += 1
        w.side(spire.owner, spire_stock=tuple(stock))
    if hero is not None:
        level_up(rules, w, hero)


def eliminate(rules: CloudspireRules, w: Work, g: int) -> None:
    """A gate at 0: its faction is out; its units and spires leave the map."""
    w.units = [u for u in w.units if u.owner != g]
    w.spires = [sp for sp in w.spires if sp.owner != g]
    w.side(g, stack=(), gate=0)
    standing = [f for f in range(rules.factions) if w.sides[f].gate > 0]
    for f in standing:  # RULING (fallen mark): minions turn to the next standing gate
        if w.sides[f].mark == g:
            options = mark_options(rules, w, f)
            w.side(f, mark=options[0] if options else -1)
    if rules.mode == "competitive":
        if len(standing) <= 1:
            finish(rules, w)
    elif all(w.sides[b].gate == 0 for b in rules.bots) or all(
            w.sides[s].gate == 0 for s in range(rules.players)):
        finish(rules, w)


def finish(rules: CloudspireRules, w: Work) -> None:
    """The game ends: the winners and why."""
    w.phase, w.actor, w.stage, w.draw = OVER, NOBODY, "", ""
    gates = [side.gate for side in w.sides]
    if rules.mode == "competitive":
        standing = [f for f in range(rules.factions) if gates[f] > 0]
        if len(standing) == 1:
            w.winners = tuple(standing)
            w.reason = f"faction {standing[0]}'s gate is the last standing"
            return
        # RULING (ties): highest gate health wins; then most damage dealt to opposing
        # gates; then most Source held; still equal, they share the win.
        def key(f: int) -> tuple[int, int, int]:
            return gates[f], w.sides[f].gate_damage, w.sides[f].source

        best = max(key(f) for f in range(rules.factions))
        w.winners = tuple(f for f in range(rules.factions) if key(f) == best)
        w.reason = (f"highest gate health after wave {w.wave}: {best[0]}"
                    + ("" if sum(gates[f] == best[0] for f in range(rules.factions)) == 1
                       else " (tie broken by damage dealt to gates, then Source)"))
        return
    seats = range(rules.players)
    bot_gate = max(gates[b] for b in rules.bots)
    # RULING (solo and cooperative outcome): the seats win together if the bot's gate
    # falls, or if after the last wave every seat's gate stands higher than the bot's.
    if bot_gate == 0:
        w.winners, w.reason = tuple(seats), "the opposing gate fell"
    elif all(gates[s] > bot_gate for s in seats):
        w.winners = tuple(seats)
        w.reason = "every gate stands higher than the opposing gate"
    else:
        w.winners = ()
        w.reason = ("a gate fell" if any(gates[s] == 0 for s in seats)
                    else "the opposing gate stands as high as one of yours")


# -- dict forms, views and hidden information ----------------------------------------------
