"""The Cloudspire state's invariants: what a state read from a dict (a save, an edit, a
notebook) must satisfy before the rules play on from it (`rules.check_state`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import CHANCE, DRAWS, NOBODY, OVER, PHASES, STAGES, CloudspireState

if TYPE_CHECKING:
    from .rules import CloudspireRules


def state_problem(rules: CloudspireRules, s: CloudspireState) -> str | None:
    """The first broken invariant of a state read from a dict, or None."""
    cat, nf = rules.catalogue, rules.factions
    if not 1 <= s.wave <= rules.waves:
        return f"wave must be 1..{rules.waves}"
    if (s.phase not in PHASES and s.phase != OVER) or s.phase == "income":
        return "phase must be event, market, build, prep, onslaught or over"
    if (s.actor == NOBODY) != (s.phase == OVER):
        return "actor is -2 (nobody) exactly when the phase is over (the game has ended)"
    if s.stage not in STAGES or (s.stage != "") != (s.phase == "onslaught"):
        return "stage must name the onslaught stage (and only in the onslaught)"
    if s.draw not in DRAWS or (s.actor == CHANCE) != bool(s.draw):
        return "draw must say what a chance step draws (and only at a chance step)"
    if len(s.sides) != nf:
        return f"sides must list {nf} factions"
    if not (s.actor in (NOBODY, CHANCE) or 0 <= s.actor < nf) or s.actor in rules.bots:
        return "actor must be a seat's faction, -1 (chance) or -2 (nobody: the game is over)"
    if len(set(s.order)) != len(s.order) or any(not 0 <= f < nf for f in s.order) or (
            not s.order and s.phase != OVER):
        return "order must list factions once each"
    if s.phase != OVER and not 0 <= s.turn < len(s.order) + (s.phase == "market"):
        return "turn must point into the order"
    if s.actor >= 0 and s.phase == "onslaught" and s.stage != "fire" and (
            s.actor != s.order[s.turn]):
        return "the onslaught's actor is the faction whose turn it is"
    if not 0 <= s.round <= rules.round_limit or (s.phase != OVER and (s.round == 0) != (
            s.phase != "onslaught")) or not 0 <= s.rounds_played <= rules.waves * (
            rules.round_limit):
        return f"round must be 1..{rules.round_limit} in the onslaught, 0 before"
    if s.placed and (s.phase != "build" or s.actor < 0 or s.placed not in rules.slots or not
                     s.slots[rules.slots.index(s.placed)]):
        return "placed must name an earthscape placed in this build turn (or be empty)"
    if s.phase == OVER and not s.reason:
        return "a finished game says why it ended"
    if any(not 0 <= f < nf for f in s.winners) or (s.phase != OVER and s.winners):
        return "winners are factions, once the game is over"
    if len(s.landmarks) != len(cat.map.landmarks) or len(s.slots) != len(
            rules.slots) or len(s.market) != rules.market_slots:
        return "landmarks, slots and market must match the map and seat count"
    decks = (("event_deck", s.event_deck, cat.events), ("market_deck", s.market_deck,
             cat.chips), ("earthscape_deck", s.earthscape_deck, cat.earthscapes),
             ("face_pool", s.face_pool, cat.faces))
    for name, deck, entries in decks:
        if list(deck) != sorted(deck) or any(c not in entries for c in deck):
            return f"{name} must list known cards, sorted"
    if s.actor == CHANCE and not rules.chance_deck(s):
        return "a chance step draws from an empty deck"
    if any(c and c not in cat.chips for c in s.market) or (
            s.earthscape_offer and s.earthscape_offer not in cat.earthscapes) or any(
            e and e not in cat.earthscapes for e in s.slots) or (
            s.event and s.event not in cat.events):
        return "market, earthscapes and event must name known cards"
    if any(r < -1 or r >= rules.market_slots for r in s.refills) or (
            s.draw in ("market", "earthscape") and (not s.refills or (
                s.refills[0] >= 0) != (s.draw == "market"))):
        return "refills must name market slots (-1: the earthscape)"
    for f, side in enumerate(s.sides):
        fac = rules._faction(side) if side.faction in {x.id for x in cat.factions} else None
        if fac is None or fac.id != rules.faction_of[f].id:
            return f"side {f} must play {rules.faction_of[f].id}"
        if (len(side.barracks) != len(rules.unit_ids) or len(side.spire_stock) != len(
                rules.spire_ids) or len(side.hero_levels) != len(rules.unit_ids)
                or len(side.advancements) != len(fac.structures) or len(side.spent) != 3):
            return f"side {f}'s barracks, spire stock, advancements and spent list each kind"
        if side.source < 0 or side.gate < 0 or side.command < 0 or any(
                c < 0 or c > 50 for c in side.barracks + side.spire_stock) or any(
                x < 0 for x in side.spent) or side.units_lost < 0 or side.spire_kills < 0 \
                or side.gate_damage < 0 or side.limited_builds < 0 or side.heroes < 0:
            return f"side {f}'s counts are never negative"
        if any(not 0 <= b <= len(st.advancements) for b, st in zip(side.advancements,
                                                                   fac.structures)):
            return f"side {f}'s advancements are within its structures"
        if any(not 0 <= lv < 10 for lv in side.hero_levels) or not -1 <= side.mark < nf:
            return f"side {f}'s hero levels and mark are out of range"
        if any(e not in cat.equipment for e in side.equipment) or any(
                e not in cat.earthscapes for e in side.earthscapes):
            return f"side {f} holds unknown equipment or earthscapes"
        if len(side.gate_history) > rules.waves:
            return f"side {f}'s gate history is longer than the game"
        if side.campfire and s.phase not in ("onslaught", OVER):
            return f"side {f} is in campfire mode outside an onslaught"
    bands = list(s.units) + [b for side in s.sides for b in side.stack]
    for band in bands:
        if (not band.members or any(m not in cat.units for m in band.members)
                or not 0 <= band.owner < nf or band.health < 1 or band.level < 0
                or (band.equipment and band.equipment not in cat.equipment)):
            return "a unit names an unknown kind, owner, level or equipment"
    for f, side in enumerate(s.sides):
        if any(b.owner != f or b.hex for b in side.stack):
            return "a stack holds its own faction's units, off the map"
    occupied = [u.hex for u in s.units] + [sp.hex for sp in s.spires]
    if len(set(occupied)) != len(occupied) or any(
            h not in rules.hex_index or h in rules.walls for h in occupied):
        return "every piece stands on its own hex of the map, off gates and landmarks"
    for sp in s.spires:
        if (sp.kind not in cat.spires or not 0 <= sp.owner < nf or not sp.upgrades
                or any(c not in "ARF" for c in sp.upgrades)
                or len(sp.upgrades) > cat.spires[sp.kind].capacity):
            return "a spire names an unknown kind or owner, or bad upgrades"
    for lm, h in zip(s.landmarks, cat.map.landmarks):
        if lm.hex != h or len(lm.known) != nf or (lm.face and lm.face not in cat.faces) or (
                lm.revealed and not lm.face) or lm.health < 0:
            return "landmarks must follow the map, with known faces"
    spire_hexes = {sp.hex for sp in s.spires}
    if any(h not in spire_hexes for h in s.firing) or (s.firing and s.stage != "fire"):
        return "firing lists spires, in the fire stage"
    if s.target and not any(u.hex == s.target for u in s.units):
        return "the target is a unit on the map"
    if s.draw == "die" and (not s.firing or not s.target or s.dice < 1):
        return "a spire die is rolled for a firing spire with a target"
    if s.dice < 0 or s.damage < 0 or not -1 <= s.exploring < len(s.landmarks):
        return "dice, damage and exploring are out of range"
    if s.draw == "face" and (s.exploring < 0 or s.landmarks[s.exploring].face):
        return "a landmark face is drawn for the landmark being explored"
    if s.stage == "fire" and s.actor >= 0 and (not s.firing or s.target or next(
            sp.owner for sp in s.spires if sp.hex == s.firing[0]) != s.actor):
        return "a spire's owner chooses its target"
    if s.stage == "explore" and s.actor >= 0 and s.exploring >= 0 and not s.landmarks[
            s.exploring].face:
        return "a landmark being looked at has a face"
    return None
