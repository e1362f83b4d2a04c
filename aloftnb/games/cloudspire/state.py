"""The Cloudspire state: `@record` named tuples (aloftnb/core/records.py: their dict form and
checked reader come from there, and the state holds its rules, so `state.to_dict()` and a
notebook's drawing work). `Work`, the draft an action changes, is in work.py.

Hexes are named "q,r" (axial coordinates, aloftnb/kit/hexgrid.py). A faction is numbered by its
place at the table: factions 0..players-1 are the seats; in solo and cooperative games the
factions after them are played by the rules themselves (see bot_faction.py, RULING on bot
factions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ...core.chance import CHANCE
from ...core.flow import OVER
from ...core.records import record

if TYPE_CHECKING:
    from .rules import CloudspireRules

# `actor` once the game is over: no faction acts (CHANCE, -1, marks a chance step). The game
# is over when its phase is OVER (core.flow: every game's one marker); `actor` follows it.
NOBODY = -2
PHASES = ("event", "income", "market", "build", "prep", "onslaught")  # then OVER
STAGES = ("", "move", "fire", "explore", "attack")
DRAWS = ("", "event", "market", "earthscape", "face", "die")
EMPTY = ""  # an empty market slot, earthscape offer or slot
# Where Source was spent: indexes into Side.spent.
SPENT_MARKET, SPENT_BUILD, SPENT_ONSLAUGHT = range(3)


@record
class Band(NamedTuple):
    """A hero, a minion, or a group of minions: in play on a hex or in a deployment stack."""

    owner: int
    members: tuple[str, ...]  # unit kind ids, top first: a group acts as its top minion
    health: int  # health chips under the band (a group's are the top minion's)
    hex: str  # "" while in the deployment stack
    level: int  # heroes: level index (0 = first)
    equipment: str  # heroes: equipment id under the chip, or ""
    moved: bool  # this turn
    attacked: bool  # this turn
    struck: bool  # attacked already this turn (only the first attack draws retaliation)


@record
class Spire(NamedTuple):
    owner: int
    kind: str
    hex: str
    upgrades: str  # "A" attack, "R" range, "F" fortification; bottom first


@record
class Landmark(NamedTuple):
    hex: str
    face: str  # "" until the first exploration draws it
    revealed: bool
    health: int  # a revealed face with health: what is left (0: none or defeated)
    known: tuple[bool, ...]  # per faction: has looked at the face
    explored: bool  # explored during the current turn
    struck: bool  # attacked already this turn


@record
class Side(NamedTuple):
    """One faction's holdings and this wave's choices."""

    faction: str  # faction id in the catalogue
    source: int
    gate: int  # fortress gate health (0: defeated, the faction is out)
    barracks: tuple[int, ...]  # per unit kind (rules.unit_ids): copies available
    hero_levels: tuple[int, ...]  # per unit kind: a hero's level, kept between waves
    spire_stock: tuple[int, ...]  # per spire kind (rules.spire_ids): spires not on the map
    equipment: tuple[str, ...]  # equipment held, not under a hero (sorted)
    earthscapes: tuple[str, ...]  # bought, not yet placed (sorted)
    advancements: tuple[int, ...]  # per fortress structure: advancements bought
    mark: int  # the faction whose gate is this wave's mark (-1: not declared)
    command: int  # command points left this wave
    heroes: int  # heroes selected this wave
    stack: tuple[Band, ...]  # the deployment stack, top first
    done: bool  # market, build or prep: this faction has finished the phase
    earthscape_bought: bool  # this wave
    limited_builds: int  # used during this wave's onslaught
    spent: tuple[int, ...]  # Source spent in the market, build and onslaught phases
    units_lost: int
    spire_kills: int  # units its spires defeated
    gate_damage: int  # damage dealt to opposing gates
    gate_history: tuple[int, ...]  # gate health after each wave
    campfire: bool  # its heroes rest until the wave ends (the campfire check found it alone)


@record
class CloudspireState(NamedTuple):
    """One position. Use `.to_dict()` for the documented plain-data form."""

    rules: CloudspireRules
    wave: int  # 1..waves
    phase: str  # one of PHASES, or OVER once the game is over
    actor: int  # faction to act, CHANCE, or NOBODY once over
    order: tuple[int, ...]  # this wave's turn order (factions)
    turn: int  # index into `order` of the faction whose turn it is
    round: int  # onslaught round (0 before the onslaught)
    rounds_played: int  # onslaught rounds of the waves before this one
    stage: str  # onslaught stage of the current turn (STAGES)
    marched: bool  # the current faction's minions have moved this turn
    sides: tuple[Side, ...]
    units: tuple[Band, ...]  # bands on the map
    spires: tuple[Spire, ...]
    landmarks: tuple[Landmark, ...]
    slots: tuple[str, ...]  # per earthscape slot: the earthscape placed there, or ""
    event: str  # this wave's event ("" in wave 1 or the simplified variant)
    event_deck: tuple[str, ...]  # events not yet drawn (sorted: draws are chance steps)
    market_deck: tuple[str, ...]
    market: tuple[str, ...]  # face-up chips, players + 1 slots ("" empty)
    earthscape_deck: tuple[str, ...]
    earthscape_offer: str
    face_pool: tuple[str, ...]  # landmark faces not yet drawn
    draw: str  # what the pending chance step draws (DRAWS)
    refills: tuple[int, ...]  # market slots to refill (-1: the earthscape offer)
    firing: tuple[str, ...]  # hexes of spires still to fire this stage; the first fires now
    target: str  # hex of the firing spire's target ("" while its owner chooses)
    dice: int  # dice left to roll for the firing spire
    damage: int  # damage rolled so far by the firing spire
    exploring: int  # landmark whose face the actor looks at (-1: none)
    placed: str  # an earthscape just placed whose well may take a spire in the same turn, or ""
    winners: tuple[int, ...]  # once over
    reason: str  # once over

    def __repr__(self) -> str:
        if self.phase == OVER:
            where = "over"
        elif self.actor == CHANCE:
            where = f"{self.phase}, chance draws ({self.draw})"
        else:
            where = f"{self.phase}, faction {self.actor} to act"
        return f"<CloudspireState wave {self.wave}, {where}>"


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """`items` less one copy of `item`."""
    i = items.index(item)
    return items[:i] + items[i + 1:]


__all__ = ["CHANCE", "DRAWS", "EMPTY", "NOBODY", "OVER", "PHASES", "SPENT_BUILD",
           "SPENT_MARKET", "SPENT_ONSLAUGHT", "STAGES", "Band", "CloudspireState", "Landmark",
           "Side", "Spire", "without"]
