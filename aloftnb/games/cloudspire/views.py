"""What each seat sees of a Cloudspire state: its view (other stacks below their open top and
unseen landmark faces hidden), the figures a board and a drawing read beside the state (the map,
stats, names, holdings, texts), and `determinize`, a world consistent with one seat's view."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...core.records import record_to_dict
from .state import Band, CloudspireState
from .texts import doing_text, result_text, where_text

if TYPE_CHECKING:
    from .rules import CloudspireRules


def state_to_dict(rules: CloudspireRules, s: CloudspireState) -> dict[str, Any]:
    data = record_to_dict(s)
    data["board"] = board_view(rules, s)
    return data


def view(rules: CloudspireRules, s: CloudspireState, seat: int | None) -> dict[str, Any]:
    data = state_to_dict(rules, before_hidden_deploys(rules, s, seat))
    for f, side in enumerate(data["sides"]):
        if f != seat and side["stack"]:
            # Only the top unit is open: the chips of its group under it are not.
            top = side["stack"][0]
            top["members"] = top["members"][:1] + ["hidden"] * (len(top["members"]) - 1)
            # One back per unit chip under it, not per band: how they are grouped is hidden.
            chips = sum(len(band["members"]) for band in side["stack"][1:])
            side["stack"] = [top] + ["hidden"] * chips
    for lm in data["landmarks"]:
        if lm["face"] and not lm["revealed"] and not (seat is not None and lm["known"][seat]):
            lm["face"] = "hidden"
    for deck in ("event_deck", "market_deck", "earthscape_deck", "face_pool"):
        data[deck] = len(data[deck])
    return data


def before_hidden_deploys(rules: CloudspireRules, s: CloudspireState,
                          seat: int | None) -> CloudspireState:
    """While a faction builds its stack, the others see its barracks, command, heroes and
    equipment as they were before the chips they cannot see went in (only the open top is
    counted out): otherwise each step would show which unit it added, and so the order.
    Once the faction is done the counts are its real ones (which units, not their order)."""
    f = s.actor
    if s.phase != "prep" or f < 0 or f == seat or not s.sides[f].stack:
        return s
    side, cat = s.sides[f], rules.catalogue
    barracks, command, heroes = list(side.barracks), side.command, side.heroes
    equipment = list(side.equipment)
    for i, band in enumerate(side.stack):
        for uid in band.members[1:] if i == 0 else band.members:
            kind = cat.units[uid]
            barracks[rules.unit_index[uid]] += 1
            command += 0 if kind.merc else kind.cost
            heroes -= kind.hero
        if i and band.equipment:
            equipment.append(band.equipment)
    side = side._replace(barracks=tuple(barracks), command=command, heroes=heroes,
                         equipment=tuple(sorted(equipment)))
    return s._replace(sides=s.sides[:f] + (side,) + s.sides[f + 1:])


def board_view(rules: CloudspireRules, s: CloudspireState) -> dict[str, Any]:
    """What a board needs beside the state: the map, the factions' numbers, and the stats
    of everything on the map (from open information only)."""
    cat = rules.catalogue
    wells = set(rules.wells(s))
    land = rules.land(s.slots)
    group_of, _ = rules.groups(s.slots)
    hexes = [{"hex": h, "group": group_of.get(h, ""), "ground": h in land,
              "sky": h not in land, "well": h in wells,
              "landmark": h in cat.map.landmarks, "slot": h in rules.slots,
              "gate": rules.gate_of_hex.get(h, -1)} for h in rules.hexes]
    factions = []
    for f, side in enumerate(s.sides):
        factions.append({
            "faction": f, "name": rules.faction_of[f].name, "bot": f in rules.bots,
            "gate_hex": rules.gate_hexes[f], "source_cap": rules.source_cap(side),
            "income_next_wave": rules.income(s.wave + 1) + rules.bonus(side, "income"),
            "limited_builds_left": rules.numbers.limited_builds - side.limited_builds,
            "influence": sorted(rules.influence(s, f)),
            "stack_size": sum(len(band.members) for band in side.stack)})  # unit chips
    units = []
    for u in s.units:
        attack, health, movement, terrain = rules.stats(u)
        kind = cat.units[u.members[0]]
        units.append({"hex": u.hex, "owner": u.owner, "name": kind.name,
                      "names": [cat.units[m].name for m in u.members],
                      "hero": kind.hero, "attack": attack, "health": u.health,
                      "full_health": health, "movement": movement, "terrain": terrain,
                      "group": len(u.members)})
    spires = [{"hex": sp.hex, "owner": sp.owner, "name": cat.spires[sp.kind].name,
               "range": 1 + sp.upgrades.count("R"), "dice": sp.upgrades.count("A"),
               "capacity": cat.spires[sp.kind].capacity} for sp in s.spires]
    market = [{"slot": i, "id": chip, "name": cat.chips[chip].name,
               "type": cat.chips[chip].type, "cost": cat.chips[chip].cost}
              for i, chip in enumerate(s.market) if chip]
    acting = rules.current_faction(s) if s.phase == "onslaught" and s.order else s.actor
    return {"hexes": hexes, "factions": factions, "units": units, "spires": spires,
            "market": market, "turn_of": acting,
            "firing": s.firing[0] if s.firing else "",
            "event_name": cat.events[s.event].name if s.event else "",
            "spire_die": list(rules.numbers.spire_die),
            **drawing_view(rules, s)}


def drawing_view(rules: CloudspireRules, s: CloudspireState) -> dict[str, Any]:
    """What the drawing shows beside the map's pieces, in words the rules decide: the
    catalogue's names and stats (open data), each side's holdings, where the game stands
    and what happens now. Only open information: stacks are read from the view's own
    (masked) `sides`."""
    cat, n = rules.catalogue, rules.numbers
    unit_kinds = {uid: {"name": u.name, "hero": u.hero, "merc": u.merc, "cost": u.cost,
                        "reward": u.reward, "terrain": u.terrain,
                        "levels": [[lv.attack, lv.health, lv.movement] for lv in u.levels]}
                  for uid, u in ((i, cat.units[i]) for i in rules.unit_ids)}
    sides = []
    for side in s.sides:
        fac = rules._faction(side)
        top = None
        if side.stack:  # the top of a stack is open to every seat
            attack, health, movement, _ = rules.stats(side.stack[0])
            top = {"name": cat.units[side.stack[0].members[0]].name, "attack": attack,
                   "health": side.stack[0].health, "full_health": health,
                   "movement": movement}
        sides.append({
            "stack_top": top,
            "command": side.command,
            "mark_name": rules.faction_of[side.mark].name if side.mark >= 0 else "",
            "barracks": [[cat.units[uid].name, side.barracks[i]]
                         for i, uid in enumerate(rules.unit_ids) if side.barracks[i] > 0],
            "spire_stock": [[cat.spires[k].name, side.spire_stock[i]]
                            for i, k in enumerate(rules.spire_ids) if side.spire_stock[i] > 0],
            "structures": [[st.name, bought, len(st.advancements)]
                           for st, bought in zip(fac.structures, side.advancements)],
            "equipment": [cat.equipment[e].name for e in side.equipment],
            "earthscapes": [cat.earthscapes[e].name for e in side.earthscapes],
            "done": side.done})
    landmarks = []
    for lm in s.landmarks:
        face = cat.faces[lm.face] if lm.revealed else None
        landmarks.append({"hex": lm.hex, "revealed": lm.revealed, "health": lm.health,
                          "name": face.name if face else "",
                          "attack": face.attack if face else 0})
    slots = [{"hex": h, "earthscape": cat.earthscapes[e].name if e else ""}
             for h, e in zip(rules.slots, s.slots)]
    spires = [{"hex": sp.hex, "attack": sp.upgrades.count("A"),
               "fortification": sp.upgrades.count("F"), "upgrades": sp.upgrades,
               "free": cat.spires[sp.kind].capacity - len(sp.upgrades)} for sp in s.spires]
    offer = cat.earthscapes[s.earthscape_offer] if s.earthscape_offer else None
    return {
        "unit_kinds": unit_kinds,
        "equipment_names": {e: g.name for e, g in cat.equipment.items()},
        "face_names": {k: f.name for k, f in cat.faces.items()},
        # Catalogue data: the drawing shows a face a view holds (its explorer's look).
        "face_stats": {k: {"name": f.name, "health": f.health, "attack": f.attack,
                           "reveal_source": f.reveal_source, "reward": f.reward}
                       for k, f in cat.faces.items()},
        "sides": sides, "landmark_info": landmarks, "slots": slots,
        "spire_info": spires,
        "earthscape_offer": ({"name": offer.name, "well": offer.well,
                              "cost": n.earthscape_cost,
                              # the wave's one purchase is used up (rulings 2)
                              "sold": rules.new_rulings and any(
                                  side.earthscape_bought for side in s.sides)}
                             if offer else None),
        "where": where_text(rules, s), "doing": doing_text(rules, s),
        "result_text": result_text(rules, s), "waves": rules.waves,
        "limited_builds": n.limited_builds,
        "fire": ({"spire": s.firing[0], "target": s.target, "dice_left": s.dice,
                  "damage": s.damage} if s.firing else None)}


def determinize(rules: CloudspireRules, s: CloudspireState, seat: int, rng: random.Random
                ) -> CloudspireState:
    """A world consistent with `seat`'s view: other factions' stacks below their open top
    resampled (`_resample_stack`), and the landmark faces `seat` has not seen redrawn from
    the faces left."""
    sides = list(s.sides)
    for f, side in enumerate(sides):
        # A stack being built is left as it is: its bottom decides what its owner may add.
        if f == seat or not side.stack or (s.phase == "prep" and f == s.actor):
            continue
        sides[f] = side._replace(stack=resample_stack(rules, side.stack, rng))
    unseen = [i for i, lm in enumerate(s.landmarks)
              if lm.face and not lm.revealed and not lm.known[seat]]
    landmarks, pool = list(s.landmarks), s.face_pool
    if unseen:
        faces = [s.landmarks[i].face for i in unseen] + list(pool)
        rng.shuffle(faces)
        for i, face in zip(unseen, faces):
            landmarks[i] = landmarks[i]._replace(face=face)
        pool = tuple(sorted(faces[len(unseen):]))
    return s._replace(sides=tuple(sides), landmarks=tuple(landmarks), face_pool=pool)


def resample_stack(rules: CloudspireRules, stack: tuple[Band, ...], rng: random.Random
                    ) -> tuple[Band, ...]:
    """A deployment stack drawn from what the other seats see of it: the open top band and
    the number of chips in its group, and which units, heroes and equipment are in the rest
    (the view counts them out of the barracks), but not their order, grouping, the heroes'
    places or which hero holds which equipment. The draw uses only those, each list sorted
    before it is shuffled, so two stacks that look the same give the same worlds: the
    hidden members of the top group (minions moving at least as far as the top one, in
    movement order), the other minions in a random order, each joining the group above it
    by a coin toss when its movement allows, heroes below the minions (or, under an open
    hero, each above or below them by a coin toss) and equipment under random heroes."""
    units = rules.catalogue.units

    def move(uid: str) -> int:
        return units[uid].levels[0].movement

    def new_band(members: tuple[str, ...], level: int = 0, gear: str = "") -> Band:
        band = Band(top.owner, members, 1, "", level, gear, False, False, False)
        return band._replace(health=rules.stats(band)[1])

    top = stack[0]
    below = stack[1:]
    minions = sorted(top.members[1:] + tuple(
        m for b in below if not rules.is_hero(b) for m in b.members))
    heroes = sorted((b.members[0], b.level) for b in below if rules.is_hero(b))
    gear = sorted(b.equipment for b in below if rules.is_hero(b) and b.equipment)
    if not minions and not heroes:
        return stack
    hidden = len(top.members) - 1
    if hidden:  # the top group's hidden chips: minions as quick as the top one or more
        floor = move(top.members[0])
        chosen = rng.sample([i for i, m in enumerate(minions) if move(m) >= floor], hidden)
        members = sorted((minions[i] for i in chosen), key=move)
        top = top._replace(members=(top.members[0], *members))
        taken = set(chosen)
        minions = [m for i, m in enumerate(minions) if i not in taken]
    rng.shuffle(minions)
    bands: list[Band] = []
    for m in minions:
        if bands and move(m) >= move(bands[-1].members[-1]) and rng.random() < 0.5:
            bands[-1] = bands[-1]._replace(members=bands[-1].members + (m,))
        else:
            bands.append(new_band((m,)))
    rng.shuffle(heroes)
    rng.shuffle(gear)
    upper: list[Band] = []
    lower: list[Band] = []
    for i, (uid, level) in enumerate(heroes):
        hero = new_band((uid,), level, gear[i] if i < len(gear) else "")
        above = rules.is_hero(top) and bool(bands) and rng.random() < 0.5
        (upper if above else lower).append(hero)
    return (top, *upper, *bands, *lower)

