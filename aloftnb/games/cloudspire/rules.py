"""Cloudspire: tower defense in waves, for 1-4 players (docs/rules/cloudspire.md).

The whole rulebook is here; the map, factions and numbers are data (catalogue.py reads
data/catalogue.json or a designer's own), the state records are in state.py.

A game is `waves` waves; each wave runs the six phases in order: event (from wave 2), income,
market, build, prep and onslaught. Every draw (event, market chip, earthscape, landmark face) and
every spire die is a chance step with explicit outcomes. Prep choices are hidden commitments made
in turn: only the top of each deployment stack is open. The rules decide whatever the text leaves
to the rules (minion marches, automatic single choices) so a seat only clicks real choices.
Rulings are marked RULING and listed in the rules page with the test that pins each.
"""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import fields
from typing import Any, ClassVar

from ...core.action import Action
from ...core.chance import CHANCE
from ...core.options import Option, int_between
from ...core.records import record_to_dict
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...core.words import possessive, with_article
from ...errors import IllegalAction, InvalidOptions, InvalidState
from ...kit.hexgrid import hex_grid, reachable
from .catalogue import Catalogue, load_catalogue, shipped_catalogue_data
from .state import (
    DRAWS,
    EMPTY,
    OVER,
    PHASES,
    STAGES,
    Band,
    CloudspireState,
    Landmark,
    Side,
    Spire,
    edit,
)

SPENT_MARKET, SPENT_BUILD, SPENT_ONSLAUGHT = range(3)
MODES = ("competitive", "solo", "cooperative")
FAR = 999  # distance to an unreachable hex


class CloudspireAction(Action):
    __slots__ = ()

    def __str__(self) -> str:
        p = self._params
        texts = {
            "draw": lambda: f"drew {p.get('card')}",
            "roll": lambda: f"rolled {p.get('pips')}",
            "buy": lambda: f"buy the chip in market slot {p.get('slot')}",
            "buy_earthscape": lambda: "buy the face-up earthscape",
            "pass": lambda: "pass",
            "construct": lambda: f"construct a {p.get('spire')} at {p.get('at')} with its "
                                 f"upgrades {p.get('order')} (bottom first)",
            "upgrade": lambda: f"add {with_article(_UPGRADE_NAMES.get(p.get('kind'), '?'))} "
                               f"upgrade to the spire at {p.get('at')}",
            "advance": lambda: f"advance the fortress structure {p.get('structure')}",
            "place": lambda: f"place the earthscape {p.get('earthscape')} at {p.get('at')}",
            "decline": lambda: "build no spire on the new earthscape now",
            "mark": lambda: f"declare faction {p.get('gate')}'s gate the mark",
            "deploy": lambda: f"add a {p.get('unit')} to the stack"
                              + (" (grouped with the minion above)" if p.get("group") else ""),
            "equip": lambda: f"put the {p.get('item')} under the hero",
            "ready": lambda: "finish the deployment stack",
            "move": lambda: f"move the hero at {p.get('at')} to {p.get('to')}",
            "march": lambda: "march the minions",
            "end_move": lambda: "end the movement stage",
            "target": lambda: f"fire at the unit at {p.get('at')}",
            "explore": lambda: f"explore the landmark at {p.get('at')}",
            "reveal": lambda: "reveal the landmark",
            "leave": lambda: "leave the landmark face down",
            "end_explore": lambda: "stop exploring",
            "attack": lambda: f"the unit at {p.get('at')} attacks {p.get('target')}",
            "end_turn": lambda: "end the turn",
        }
        text = texts.get(self.type)
        return text() if text else super().__str__()


_UPGRADE_NAMES = {"A": "attack", "R": "range", "F": "fortification"}
THEN = "; then "  # joins what the rules do by themselves to the log line of the step before
A = CloudspireAction
CHANCE_TYPES = ("draw", "roll")
DECISION_TYPES = ("buy", "buy_earthscape", "pass", "construct", "upgrade", "advance", "place",
                  "decline",
                  "mark", "deploy", "equip", "ready", "move", "march", "end_move", "target",
                  "explore", "reveal", "leave", "end_explore", "attack", "end_turn")
_ACTION_FIELDS: dict[str, dict[str, type]] = {
    "draw": {"card": str}, "roll": {"pips": int}, "buy": {"slot": int}, "buy_earthscape": {},
    "pass": {}, "construct": {"spire": str, "at": str, "order": str},
    "upgrade": {"at": str, "kind": str},
    "advance": {"structure": str}, "place": {"earthscape": str, "at": str}, "decline": {},
    "mark": {"gate": int},
    "deploy": {"unit": str, "group": bool}, "equip": {"item": str}, "ready": {},
    "move": {"at": str, "to": str}, "march": {}, "end_move": {}, "target": {"at": str},
    "explore": {"at": str}, "reveal": {}, "leave": {}, "end_explore": {},
    "attack": {"at": str, "target": str}, "end_turn": {},
}
_STATE_FIELDS = tuple(f.name for f in fields(CloudspireState))
_LISTS = ("sides", "units", "spires", "landmarks")


class _Work:
    """A state being changed by one action: its fields as attributes, its collections as lists."""

    wave: int
    phase: str
    actor: int
    order: tuple[int, ...]
    turn: int
    round: int
    rounds_played: int
    stage: str
    marched: bool
    slots: tuple[str, ...]
    event: str
    event_deck: tuple[str, ...]
    market_deck: tuple[str, ...]
    market: tuple[str, ...]
    earthscape_deck: tuple[str, ...]
    earthscape_offer: str
    face_pool: tuple[str, ...]
    draw: str
    refills: tuple[int, ...]
    firing: tuple[str, ...]
    target: str
    dice: int
    damage: int
    exploring: int
    placed: str
    winners: tuple[int, ...]
    reason: str

    # What the rules did by themselves (a march with no click), when asked for the log line.
    notes: list[str] | None = None

    def __init__(self, s: CloudspireState) -> None:
        self.__dict__.update(s.__dict__)
        self.sides: list[Side] = list(s.sides)
        self.units: list[Band] = list(s.units)
        self.spires: list[Spire] = list(s.spires)
        self.landmarks: list[Landmark] = list(s.landmarks)

    def freeze(self) -> CloudspireState:
        data = {name: self.__dict__[name] for name in _STATE_FIELDS}
        for name in _LISTS:
            data[name] = tuple(data[name])
        new = object.__new__(CloudspireState)
        new.__dict__.update(data)
        return new

    def side(self, faction: int, **changes: Any) -> None:
        self.sides[faction] = edit(self.sides[faction], **changes)


class CloudspireRules(Rules[CloudspireState, CloudspireAction]):
    name = "cloudspire"
    title = "Cloudspire"
    summary = ("Tower defense in waves: advance your fortress, build spires, hire mercenaries "
               "and send minions and heroes at the opposing gates.")
    traits = Traits(player_counts=(1, 2, 3, 4), chance="explicit", information="imperfect",
                    utility="scores", simultaneous=True)
    phases = PHASES
    phase_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "event": ("draw",),
        "income": (),
        "market": ("draw", "buy", "buy_earthscape", "pass"),
        "build": ("construct", "upgrade", "advance", "place", "decline", "pass"),
        "prep": ("mark", "deploy", "equip", "ready"),
        "onslaught": ("roll", "draw", "construct", "upgrade", "move", "march", "end_move",
                      "target", "explore", "reveal", "leave", "end_explore", "attack",
                      "end_turn"),
    }
    action_class = CloudspireAction
    action_types = CHANCE_TYPES + DECISION_TYPES
    state_class = CloudspireState
    derived_keys = ("board",)  # worked out from the rest (the map, stats); Match.edit drops it
    encoding = "aloftnb.games.cloudspire.encoding"
    option_spec: ClassVar[dict[str, Option]] = {
        "waves": Option("waves", 4, "waves in the game", check=int_between(1, 8)),
        "variant": Option("variant", "standard", "standard, or simplified (no event and "
                          "market phases)", choices=("standard", "simplified")),
        "mode": Option("mode", "competitive", "competitive (2-4 seats), solo (1 seat) or "
                       "cooperative (2-3 seats): in solo and cooperative games a faction "
                       "played by the rules opposes the seats", choices=MODES),
        "onslaught_rounds": Option("onslaught_rounds", 8, "rounds after which a wave's "
                                   "onslaught ends even if minions remain",
                                   check=int_between(1, 30)),
        "rulings": Option("rulings", 2, "which rulings apply: 2, the current ones; 1, those "
                          "before the rules audit of issue 19 (saves written before this "
                          "option load with 1 and replay as they were played)",
                          choices=(1, 2), older_saves=1),
        "catalogue": Option("catalogue", None, "map, factions, market, events and landmarks: "
                            "a dict or a JSON file path",
                            default_note="data/catalogue.json, shipped with the game",
                            from_file=True),
    }

    # -- configuration -------------------------------------------------------------------------
    def options_for_save(self) -> dict[str, Any]:
        """Saves hold the catalogue's data even when it is the shipped one, so that tuning the
        shipped numbers later changes no saved game."""
        return {**copy.deepcopy(self.options), "catalogue": copy.deepcopy(self.catalogue_data)}

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        opts = self.options
        source = opts["catalogue"]
        self.catalogue: Catalogue
        self.catalogue, data = load_catalogue(source)
        self.catalogue_data = data
        if source is not None:
            # Saves record the catalogue the match was made with; the shipped data given as a
            # dict (every save holds it) is the shipped catalogue.
            opts["catalogue"] = None if data == shipped_catalogue_data() else data
        self.mode = opts["mode"]
        allowed = {"competitive": (2, 3, 4), "solo": (1,), "cooperative": (2, 3)}[self.mode]
        if self.players not in allowed:
            raise InvalidOptions(f"cloudspire {self.mode} is for "
                                 f"{'-'.join(map(str, (allowed[0], allowed[-1])))} players, "
                                 f"not {self.players}")
        # RULING (modes): in solo and cooperative games one faction more than the seats is
        # played by the rules themselves (bot_choice) and opposes every seat; the seats are
        # allies and share one outcome.
        self.factions = self.players + (0 if self.mode == "competitive" else 1)
        self.bots = frozenset(range(self.players, self.factions))
        if self.mode == "cooperative":
            self.traits = Traits(player_counts=(2, 3), chance="explicit",
                                 information="imperfect", utility="win_loss", cooperative=True,
                                 simultaneous=True)
        cat = self.catalogue
        if self.factions not in cat.map.gates:
            raise InvalidOptions(f"catalogue: map.gates has no entry for {self.factions} "
                                 "factions")
        self.waves = opts["waves"]
        self.simplified = opts["variant"] == "simplified"
        self.round_limit = opts["onslaught_rounds"]
        # Rule changes are gated (docs/saves.md): 1 plays the rulings saves written before the
        # option were played by, 2 (the default) the current ones. See `self.new_rulings`.
        self.new_rulings = opts["rulings"] >= 2
        self.numbers = cat.numbers
        # RULING (factions): seats take the catalogue's factions in turn (seat 0 the first).
        self.faction_of = tuple(cat.factions[f % len(cat.factions)] for f in range(self.factions))
        self.gate_hexes = cat.map.gates[self.factions]
        self.gate_of_hex = {h: f for f, h in enumerate(self.gate_hexes)}
        self.unit_ids = tuple(cat.units)
        self.unit_index = {u: i for i, u in enumerate(self.unit_ids)}
        self.spire_ids = tuple(cat.spires)
        # The orders a spire's starting upgrades may be stacked in: the catalogue's first.
        self.start_orders = {k: _orders(sp.start) for k, sp in cat.spires.items()}
        self.spire_index = {s: i for i, s in enumerate(self.spire_ids)}
        grid = hex_grid(cat.map.radius)
        self.hexes = grid.names
        self.hex_index = grid.space_index
        self.neighbours = grid.neighbours
        self.islands = cat.map.island_of
        self.sky = frozenset(cat.map.sky)
        self.slots = cat.map.earthscape_slots
        self.walls = frozenset(self.gate_hexes) | frozenset(cat.map.landmarks)
        self.market_slots = self.players + 1
        self._cache: dict[Any, Any] = {}
        self._die = _outcomes(self.numbers.spire_die)
        self._allies = tuple(frozenset(range(self.players)) if (
            self.mode == "cooperative" and f < self.players) else frozenset({f})
            for f in range(self.factions))

    @classmethod
    def player_counts(cls) -> str:
        return "competitive 2-4, solo 1, cooperative 2-3"

    def max_length(self) -> int:
        cat, n, f = self.catalogue, self.numbers, self.factions
        units = sum(u.copies for u in cat.units.values() if not u.merc) + sum(
            c.copies for c in cat.chips.values() if c.type in ("minion", "hero"))
        cap = n.source_cap + max(sum(a.source_cap for s in fac.structures for a in s.advancements)
                                 for fac in cat.factions)
        merc_spires = sum(c.copies for c in cat.chips.values() if c.type == "spire")
        scapes = sum(e.copies for e in cat.earthscapes.values())
        gear = sum(c.copies for c in cat.chips.values() if c.type == "equipment")
        spires = len(cat.map.wells) + len(self.slots)
        die_rolls = max(s.capacity for s in cat.spires.values())
        market = 2 * (self.market_slots + 1) + 2 * f
        build = f * (cap + merc_spires + 2 * scapes + 1)  # a placement may be declined
        prep = f * (units + gear + 2)
        turn = (n.heroes_later + 3 + spires * (1 + die_rolls)
                + 3 * len(cat.map.landmarks) + 1 + units + 1)
        onslaught = self.round_limit * f * turn + f * n.limited_builds
        return self.waves * (1 + market + build + prep + onslaught) + 1

    # -- set-up --------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> CloudspireState:
        cat, n = self.catalogue, self.numbers
        sides = []
        for f in range(self.factions):
            fac = self.faction_of[f]
            barracks = tuple(
                (u.copies if (u.faction == fac.id and not u.hero) else
                 1 if u.faction == fac.id else 0) for u in cat.units.values())
            stock = tuple(s.copies if s.faction == fac.id else 0 for s in cat.spires.values())
            # RULING (first-player edge): later seats start with a little more Source.
            source = n.starting_source + n.later_seat_source * f
            sides.append(Side(fac.id, source, n.gate_health, barracks,
                              (0,) * len(self.unit_ids), stock, (), (),
                              (0,) * len(fac.structures), -1, 0, 0, (), False, False, 0,
                              (0, 0, 0), 0, 0, 0, (), False))
        landmarks = tuple(Landmark(h, "", False, 0, (False,) * self.factions, False, False)
                          for h in cat.map.landmarks)
        s = CloudspireState(
            wave=1, phase="event", actor=0, order=(), turn=0, round=0, rounds_played=0, stage="",
            marched=False, sides=tuple(sides), units=(), spires=(), landmarks=landmarks,
            slots=(EMPTY,) * len(self.slots), event="", event_deck=cat.deck(cat.events),
            market_deck=cat.deck(cat.chips), market=(EMPTY,) * self.market_slots,
            earthscape_deck=cat.deck(cat.earthscapes), earthscape_offer=EMPTY,
            face_pool=cat.deck(cat.faces), draw="", refills=(), firing=(), target="", dice=0,
            damage=0, exploring=-1, placed="", winners=(), reason="")
        w = _Work(s)
        self._begin_wave(w)
        return self._play_bots(w.freeze())

    # -- whose turn, phases, the end -----------------------------------------------------------
    def current_player(self, s: CloudspireState) -> int | None:
        return None if s.actor == OVER else s.actor

    def is_over(self, s: CloudspireState) -> bool:
        return s.actor == OVER

    def phase(self, s: CloudspireState) -> str:
        return s.phase

    def round(self, s: CloudspireState) -> int:
        """Onslaught rounds counted through the game (the phases before an onslaught belong to
        its first round), so every faction has acted in a round before the next begins."""
        return s.rounds_played + max(1, s.round)

    def scores(self, s: CloudspireState) -> dict[int, float]:
        return {seat: float(s.sides[seat].gate) for seat in range(self.players)}

    def outcome(self, s: CloudspireState) -> Outcome | None:
        if s.actor != OVER:
            return None
        return Outcome(s.winners, self.scores(s), s.reason)

    # -- catalogue lookups ---------------------------------------------------------------------
    def stats(self, band: Band) -> tuple[int, int, int, str]:
        """(attack, full health, movement, terrain) of a band: its top unit, its level and
        equipment."""
        kind = self.catalogue.units[band.members[0]]
        level = kind.levels[min(band.level, len(kind.levels) - 1)]
        attack, health, movement = level.attack, level.health, level.movement
        if band.equipment:
            gear = self.catalogue.equipment[band.equipment]
            attack, health, movement = (attack + gear.attack, health + gear.health,
                                        movement + gear.movement)
        return attack, health, movement, kind.terrain

    def is_hero(self, band: Band) -> bool:
        return self.catalogue.units[band.members[0]].hero

    def income(self, wave: int) -> int:
        return _by_wave(self.numbers.income, self.numbers.step_after_last, wave)

    def command(self, wave: int) -> int:
        return _by_wave(self.numbers.command, self.numbers.step_after_last, wave)

    def bonus(self, side: Side, field: str) -> int:
        """The sum of `field` over the fortress advancements a side has bought."""
        fac = self._faction(side)
        return sum(getattr(adv, field) for st, bought in zip(fac.structures, side.advancements)
                   for adv in st.advancements[:bought])

    def source_cap(self, side: Side) -> int:
        return self.numbers.source_cap + self.bonus(side, "source_cap")

    def _faction(self, side: Side) -> Any:
        for faction in self.catalogue.factions:
            if faction.id == side.faction:
                return faction
        raise KeyError(f"the catalogue has no faction {side.faction!r:.40}")

    def opposed(self, a: int, b: int) -> bool:
        return b not in self._allies[a]

    # -- the map -------------------------------------------------------------------------------
    def land(self, slots: tuple[str, ...]) -> frozenset[str]:
        """Hexes with ground: islands and placed earthscapes."""
        key = ("land", slots)
        if key not in self._cache:
            filled = {h for h, e in zip(self.slots, slots) if e}
            self._cache[key] = frozenset(self.islands) | frozenset(filled)
        return self._cache[key]

    def passable(self, slots: tuple[str, ...], terrain: str) -> frozenset[str]:
        key = ("pass", slots, terrain)
        if key not in self._cache:
            ground = set(self.hexes) if terrain == "sky" else set(self.land(slots))
            self._cache[key] = frozenset(ground - self.walls)
        return self._cache[key]

    def mark_distance(self, slots: tuple[str, ...], terrain: str, gate: str) -> dict[str, int]:
        """Steps from each hex to the gate `gate` for a unit of that terrain (units ignored)."""
        key = ("mark", slots, terrain, gate)
        if key not in self._cache:
            self._cache[key] = reachable(gate, self.passable(slots, terrain), self.neighbours)
        return self._cache[key]

    def range_distance(self, slots: tuple[str, ...], spire_hex: str) -> dict[str, int]:
        """Steps from a spire counted over ground only: range never counts through sky
        (occupied hexes count). RULING (range, rulings 2): the target's own hex is not counted
        through, so a sky hex is as far as its nearest ground neighbour plus one; with rulings
        1 sky hexes were out of range altogether."""
        key = ("range", slots, spire_hex)
        if key not in self._cache:
            land = self.land(slots)
            dist = reachable(spire_hex, land, self.neighbours)
            if self.new_rulings:
                for h in self.hexes:
                    if h not in land:
                        near = [dist[nb] for nb in self.neighbours[h] if nb in dist]
                        if near:
                            dist[h] = min(near) + 1
            self._cache[key] = dist
        return self._cache[key]

    def groups(self, slots: tuple[str, ...]) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
        """(hex -> its hex group, group -> neighbouring groups): islands, and each placed
        earthscape as a group of its own."""
        key = ("groups", slots)
        if key not in self._cache:
            group_of = dict(self.islands)
            for h, e in zip(self.slots, slots):
                if e:
                    group_of[h] = f"earthscape {h}"
            near: dict[str, set[str]] = {g: set() for g in group_of.values()}
            for h, g in group_of.items():
                for nb in self.neighbours[h]:
                    other = group_of.get(nb)
                    if other is not None and other != g:
                        near[g].add(other)
            self._cache[key] = (group_of, {g: frozenset(v) for g, v in near.items()})
        return self._cache[key]

    def influence(self, s: Any, faction: int) -> frozenset[str]:
        """Hex groups within a faction's influence: next to its gate, holding one of its
        spires, or next to a group that holds one."""
        group_of, near = self.groups(s.slots)
        gate = self.gate_hexes[faction]
        mine = {group_of[nb] for nb in self.neighbours[gate] if nb in group_of}
        if gate in group_of:
            mine.add(group_of[gate])
        for spire in s.spires:
            if spire.owner == faction:
                g = group_of[spire.hex]
                mine.add(g)
                mine |= near[g]
        return frozenset(mine)

    def wells(self, s: Any) -> tuple[str, ...]:
        extra = tuple(h for h, e in zip(self.slots, s.slots)
                      if e and self.catalogue.earthscapes[e].well)
        return self.catalogue.map.wells + extra

    def occupied(self, s: Any) -> set[str]:
        taken = {u.hex for u in s.units} | {sp.hex for sp in s.spires}
        return taken | self.walls

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, s: CloudspireState) -> list[CloudspireAction]:
        if s.actor == OVER:
            return []
        if s.actor == CHANCE:
            return [o for o, _ in self.chance_outcomes(s)]
        return self._decisions(s, s.actor)

    def _decisions(self, s: Any, f: int) -> list[CloudspireAction]:
        side = s.sides[f]
        if s.phase == "market":
            acts = [A("buy", slot=i) for i, chip in enumerate(s.market)
                    if chip and self.catalogue.chips[chip].cost <= side.source]
            if (s.earthscape_offer and not self.earthscape_bought(s, f)
                    and side.source >= self.numbers.earthscape_cost):
                acts.append(A("buy_earthscape"))
            return acts + [A("pass")]
        if s.phase == "build":
            if s.placed:  # the same turn goes on: a spire on the new earthscape's well, or not
                return self._constructions(s, f, only=s.placed) + [A("decline")]
            return (self._constructions(s, f) + self._upgrades(s, f) + self._advances(s, f)
                    + self._placements(s, f) + [A("pass")])
        if s.phase == "prep":
            return self._prep_actions(s, f)
        return self._onslaught_actions(s, f)

    def earthscape_bought(self, s: Any, f: int) -> bool:
        """Whether the wave's earthscape purchase is used up for faction f. RULING (one
        earthscape a wave, rulings 2): "only one earthscape may be purchased per wave" is one
        for the whole table; with rulings 1 it was one per faction."""
        if self.new_rulings:
            return any(side.earthscape_bought for side in s.sides)
        return bool(s.sides[f].earthscape_bought)

    def _constructions(self, s: Any, f: int, only: str = "") -> list[CloudspireAction]:
        side = s.sides[f]
        kinds = [k for i, k in enumerate(self.spire_ids) if side.spire_stock[i] > 0 and (
            self.catalogue.spires[k].merc or self.catalogue.spires[k].cost <= side.source)]
        if not kinds:
            return []
        group_of, _ = self.groups(s.slots)
        reach = self.influence(s, f)
        taken = self.occupied(s)
        spots = [h for h in self.wells(s) if h not in taken and group_of[h] in reach
                 and (not only or h == only)]
        return [A("construct", spire=k, at=h, order=o) for k in kinds
                for o in self.start_orders[k] for h in spots]

    def _upgrades(self, s: Any, f: int) -> list[CloudspireAction]:
        source, acts = s.sides[f].source, []
        for sp in s.spires:
            if sp.owner != f or len(sp.upgrades) >= self.catalogue.spires[sp.kind].capacity:
                continue
            if len(sp.upgrades) + 1 <= source:
                acts += [A("upgrade", at=sp.hex, kind="A"), A("upgrade", at=sp.hex, kind="R")]
            if self.numbers.fortification_cost <= source:
                acts.append(A("upgrade", at=sp.hex, kind="F"))
        return acts

    def _advances(self, s: Any, f: int) -> list[CloudspireAction]:
        side = s.sides[f]
        fac = self._faction(side)
        return [A("advance", structure=st.id) for st, bought in zip(fac.structures,
                                                                     side.advancements)
                if bought < len(st.advancements) and st.advancements[bought].cost <= side.source]

    def _placements(self, s: Any, f: int) -> list[CloudspireAction]:
        held = sorted(set(s.sides[f].earthscapes))
        # RULING (earthscapes): an earthscape goes on any empty earthscape slot of the map (a
        # spire on its well may follow in the same turn: see the build branch of _apply_one).
        return [A("place", earthscape=e, at=h) for e in held
                for h, filled in zip(self.slots, s.slots) if not filled]

    # -- prep ----------------------------------------------------------------------------------
    def mark_options(self, s: Any, f: int) -> list[int]:
        return [g for g in range(self.factions)
                if self.opposed(f, g) and s.sides[g].gate > 0]

    def hero_limit(self, wave: int) -> int:
        return self.numbers.heroes_in_wave_1 if wave == 1 else self.numbers.heroes_later

    def _prep_actions(self, s: Any, f: int) -> list[CloudspireAction]:
        side = s.sides[f]
        if side.mark < 0:
            return [A("mark", gate=g) for g in self.mark_options(s, f)]
        acts = []
        stack = side.stack
        last = stack[-1] if stack else None
        minions_closed = any(not self.is_hero(b) for b in stack) and last is not None and \
            self.is_hero(last)
        for i, uid in enumerate(self.unit_ids):
            if side.barracks[i] <= 0:
                continue
            kind = self.catalogue.units[uid]
            cost = 0 if kind.merc else kind.cost
            if cost > side.command:
                continue
            if kind.hero:
                if side.heroes < self.hero_limit(s.wave) and kind.from_wave <= s.wave:
                    acts.append(A("deploy", unit=uid, group=False))
                continue
            if minions_closed:  # heroes go before or after all minions, never between
                continue
            acts.append(A("deploy", unit=uid, group=False))
            if last is not None and not self.is_hero(last):
                below = self.catalogue.units[last.members[-1]]
                if kind.levels[0].movement >= below.levels[0].movement:
                    acts.append(A("deploy", unit=uid, group=True))
        if last is not None and self.is_hero(last) and not last.equipment:
            acts += [A("equip", item=e) for e in sorted(set(side.equipment))]
        return acts + [A("ready")]

    # -- onslaught -----------------------------------------------------------------------------
    def current_faction(self, s: Any) -> int:
        return s.order[s.turn]

    def campfire(self, s: Any, f: int) -> bool:
        """Whether faction f's heroes rest (campfire mode) for the rest of this wave."""
        return bool(s.sides[f].campfire)

    def _campfire_check(self, w: _Work) -> None:
        """The campfire check at the start of every onslaught turn: a faction that is the only
        one with units in play (map or stack) rests its heroes until the wave ends.
        RULING (campfire): its heroes then neither move nor attack; units in play only
        dwindle during an onslaught, so the mode lasts to the end of the wave as the text says."""
        in_play = {u.owner for u in w.units} | {f for f, side in enumerate(w.sides)
                                                if side.stack}
        if len(in_play) == 1:
            (alone,) = in_play
            if not w.sides[alone].campfire:
                w.side(alone, campfire=True)

    def hero_moves(self, s: Any, band: Band, start: str) -> list[CloudspireAction]:
        _, _, movement, terrain = self.stats(band)
        free = self.passable(s.slots, terrain).difference(self.occupied(s))
        seen = reachable(start, free, self.neighbours, limit=movement)
        return [A("move", at=start, to=h) for h in sorted(seen, key=self.hex_index.__getitem__)
                if h != start]

    def forced_hero(self, s: Any, f: int) -> Band | None:
        """A hero on top of the stack that must move now: before the march if minions are
        under it, after the march if it is still on the stack."""
        stack = s.sides[f].stack
        if not stack or not self.is_hero(stack[0]):
            return None
        if s.marched or any(not self.is_hero(b) for b in stack[1:]):
            return stack[0]
        return None

    def _onslaught_actions(self, s: Any, f: int) -> list[CloudspireAction]:
        cur = self.current_faction(s)
        if s.stage == "fire":  # the spire's owner chooses among the units in range
            return [A("target", at=h) for h in self.fire_targets(s, s.firing[0])]
        if s.stage == "move":
            acts: list[CloudspireAction] = []
            nothing_moved = not s.marched and not any(u.moved for u in s.units if u.owner == cur)
            if nothing_moved and s.sides[cur].limited_builds < self.numbers.limited_builds:
                acts += self._constructions(s, cur) + self._upgrades(s, cur)
            resting = self.campfire(s, cur)
            forced = None if resting else self.forced_hero(s, cur)
            if forced is not None:
                moves = self.hero_moves(s, forced, self.gate_hexes[cur])
                if moves:
                    return acts + moves
            if not resting:
                for u in s.units:
                    if u.owner == cur and not u.moved and self.is_hero(u):
                        acts += self.hero_moves(s, u, u.hex)
            acts.append(A("end_move") if s.marched else A("march"))
            return acts
        if s.stage == "explore":
            if s.exploring >= 0:
                return [A("reveal"), A("leave")]
            return [A("explore", at=s.landmarks[i].hex)
                    for i in self.explorable(s, cur)] + [A("end_explore")]
        attacks, must = self.attacks(s, cur)
        return attacks + ([] if must else [A("end_turn")])

    def explorable(self, s: Any, f: int) -> list[int]:
        near = {nb for u in s.units if u.owner == f for nb in self.neighbours[u.hex]}
        return [i for i, lm in enumerate(s.landmarks)
                if lm.hex in near and not lm.revealed and not lm.explored]

    def targets_of(self, s: Any, f: int, at: str) -> list[str]:
        """Hexes a unit of faction f at `at` may attack: opposing units, spires and gates, and
        revealed landmarks with health, all adjacent."""
        found = []
        units = {u.hex: u for u in s.units}
        spires = {sp.hex: sp for sp in s.spires}
        landmarks = {lm.hex: lm for lm in s.landmarks}
        for nb in self.neighbours[at]:
            if nb in units:
                if self.opposed(f, units[nb].owner):
                    found.append(nb)
            elif nb in spires:
                if self.opposed(f, spires[nb].owner):
                    found.append(nb)
            elif nb in self.gate_of_hex:
                g = self.gate_of_hex[nb]
                if self.opposed(f, g) and s.sides[g].gate > 0:
                    found.append(nb)
            elif nb in landmarks and landmarks[nb].revealed and landmarks[nb].health > 0:
                found.append(nb)
        return found

    def attacks(self, s: Any, f: int) -> tuple[list[CloudspireAction], bool]:
        """(attack actions, whether a minion that must attack still has a target)."""
        acts, must = [], False
        resting = self.campfire(s, f)
        for u in s.units:
            if u.owner != f or u.attacked:
                continue
            hero = self.is_hero(u)
            if hero and resting:
                continue
            targets = self.targets_of(s, f, u.hex)
            if targets and not hero:
                must = True
            acts += [A("attack", at=u.hex, target=t) for t in targets]
        return acts, must

    def fire_targets(self, s: Any, spire_hex: str) -> list[str]:
        spire = next(sp for sp in s.spires if sp.hex == spire_hex)
        reach = 1 + spire.upgrades.count("R")  # RULING (range): 1 plus one per range upgrade
        dist = self.range_distance(s.slots, spire_hex)
        cur = self.current_faction(s)
        return [u.hex for u in s.units if u.owner == cur and dist.get(u.hex, FAR) <= reach
                and self.opposed(spire.owner, cur)]

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, s: CloudspireState) -> list[tuple[CloudspireAction, float]]:
        if s.draw == "die":
            return [(A("roll", pips=v), p) for v, p in self._die]
        deck = {"event": s.event_deck, "market": s.market_deck,
                "earthscape": s.earthscape_deck, "face": s.face_pool}[s.draw]
        return [(A("draw", card=card), p) for card, p in _outcomes(deck)]

    def describe_chance(self, s: CloudspireState, outcome: CloudspireAction) -> str:
        if outcome.type == "roll":
            return f"the spire die rolled {outcome.pips}" + self._then(s, outcome)
        return f"drew {self._card_name(outcome.card)} ({s.draw})" + self._then(s, outcome)

    def _card_name(self, card: str) -> str:
        """A drawn card's display name (an event, chip, earthscape or landmark face)."""
        cat = self.catalogue
        for deck in (cat.events, cat.chips, cat.earthscapes, cat.faces):
            if card in deck:
                return deck[card].name
        return card

    def automatic_steps(self, s: CloudspireState, action: CloudspireAction) -> list[str]:
        """What the rules do by themselves after `action`, in words: the marches that follow
        with no click because marching is the only choice (see RULING on automatic marches)."""
        if s.phase not in ("prep", "onslaught") or s.actor == OVER:
            return []
        notes: list[str] = []
        try:
            self._apply_one(s, action, notes)
        except (IllegalAction, KeyError, ValueError, StopIteration, IndexError):
            return []  # an action that cannot be applied here is described, not played
        return notes

    def _then(self, s: CloudspireState, action: CloudspireAction) -> str:
        notes = self.automatic_steps(s, action)
        return "".join(THEN + note for note in notes)

    def chance_choice_label(self, s: CloudspireState, outcome: CloudspireAction) -> str:
        if outcome.type == "roll":
            return f"roll {outcome.pips} on the spire die"
        return f"draw {self._card_name(outcome.card)} ({s.draw})"

    # -- applying actions ----------------------------------------------------------------------
    def apply(self, s: CloudspireState, action: CloudspireAction) -> CloudspireState:
        return self._play_bots(self._apply_one(s, action))

    def _play_bots(self, s: CloudspireState) -> CloudspireState:
        # RULING (bot factions): whenever a faction played by the rules must decide, the rules
        # choose for it at once (bot_choice); chance steps in its turns stay chance steps.
        while s.actor in self.bots:
            s = self._apply_one(s, self.bot_choice(s, self._decisions(s, s.actor)))
        return s

    def bot_choice(self, s: CloudspireState, actions: list[CloudspireAction]
                   ) -> CloudspireAction:
        """The bot faction's fixed priorities: build spires and upgrade, deploy every minion it
        can, march, then move each hero as near its mark as it can, fire at the first target,
        attack whenever it can; never buy at the market or explore."""
        moves = [a for a in actions if a.type == "move"]
        if moves and not any(a.type in ("construct", "upgrade", "march") for a in actions):
            side = s.sides[s.actor]
            dist = self.mark_distance(s.slots, "land", self.gate_hexes[max(side.mark, 0)])
            best = min(moves, key=lambda a: (dist.get(a.to, FAR), self.hex_index[a.to]))
            forced = all(a.at == self.gate_hexes[s.actor] for a in moves) and not any(
                a.type == "end_move" for a in actions)
            if forced or dist.get(best.to, FAR) < dist.get(best.at, FAR):
                return best
        prefer = ("target", "reveal", "construct", "upgrade", "mark", "deploy", "march",
                  "attack", "end_move", "end_explore", "ready", "end_turn", "decline", "pass",
                  "leave")
        for kind in prefer:
            for act in actions:
                if act.type == kind and not (kind == "deploy" and act.group):
                    return act
        return moves[0] if moves else actions[-1]

    def _apply_one(self, s: CloudspireState, action: CloudspireAction,
                   notes: list[str] | None = None) -> CloudspireState:
        w = _Work(s)
        w.notes = notes
        kind = action.type
        if kind == "draw":
            self._on_draw(w, action.card)
        elif kind == "roll":
            w.damage += action.pips
            w.dice -= 1
            if w.dice == 0:
                self._resolve_fire(w)
            else:
                w.actor = CHANCE
        elif w.phase == "market":
            self._on_market(w, action)
        elif w.phase == "build":
            if kind == "pass":
                w.side(w.actor, done=True)
            elif kind != "decline":
                self._on_build(w, action, SPENT_BUILD)
            if kind != "place" or not self._constructions(w, w.actor, only=action.at):
                w.placed = ""
                w.turn = (w.turn + 1) % len(w.order)
                self._continue_build(w)
            else:
                # The text: a spire may be constructed on the earthscape's well at once (still
                # paying for it), if the faction has influence over its hex.
                w.placed = action.at
        elif w.phase == "prep":
            self._on_prep(w, action)
        else:
            self._on_onslaught(w, action)
        return w.freeze()

    # -- waves and phases ----------------------------------------------------------------------
    def _begin_wave(self, w: _Work) -> None:
        standing = [f for f in range(self.factions) if w.sides[f].gate > 0]
        # RULING (turn order): the first player moves one seat on each wave; from wave 2 the
        # factions with the lowest gate health go first (a catch-up that evens out the first
        # mover's edge: greedy-vs-greedy games were 62-38 for seat 0 without it).
        first = (w.wave - 1) % len(standing)
        rotation = standing[first:] + standing[:first]
        if w.wave > 1:
            place = {f: i for i, f in enumerate(rotation)}
            rotation.sort(key=lambda f: (w.sides[f].gate, place[f]))
        w.order = tuple(rotation)
        for f in range(self.factions):
            w.side(f, mark=-1, command=0, heroes=0, stack=(), done=False,
                   earthscape_bought=False, limited_builds=0)
        w.event, w.round, w.stage, w.turn = "", 0, "", 0
        if w.wave > 1 and not self.simplified and w.event_deck:
            w.phase, w.draw, w.actor = "event", "event", CHANCE
            return
        self._income(w)

    def _income(self, w: _Work) -> None:
        w.phase = "income"
        event = self.catalogue.events.get(w.event)
        for f in w.order:
            side = w.sides[f]
            gain = self.income(w.wave) + self.bonus(side, "income") + (event.source if event else 0)
            source = max(0, min(self.source_cap(side), side.source + gain))
            command = self.command(w.wave) + self.bonus(side, "command") + (
                event.command if event else 0)
            w.side(f, source=source, command=max(0, command))
        if self.simplified:
            self._begin_build(w)
        else:
            self._begin_market(w)

    def _begin_market(self, w: _Work) -> None:
        w.phase, w.turn = "market", 0
        if w.wave > 1:  # refresh: the old offer is discarded
            w.market, w.earthscape_offer = (EMPTY,) * self.market_slots, EMPTY
        w.refills = tuple(i for i, chip in enumerate(w.market) if not chip) + (
            (-1,) if not w.earthscape_offer else ())
        for f in w.order:
            w.side(f, done=False)
        self._continue_market(w)

    def _continue_market(self, w: _Work) -> None:
        while w.refills:
            slot = w.refills[0]
            if (w.market_deck if slot >= 0 else w.earthscape_deck):
                w.draw, w.actor = ("market" if slot >= 0 else "earthscape"), CHANCE
                return
            w.refills = w.refills[1:]  # an empty deck leaves the slot empty
        w.draw = ""
        # RULING (market turns): each faction has one market turn a wave: buy one or pass.
        if w.turn < len(w.order):
            w.actor = w.order[w.turn]
            return
        self._begin_build(w)

    def _on_market(self, w: _Work, action: CloudspireAction) -> None:
        f = w.actor
        side = w.sides[f]
        if action.type == "buy":
            chip = self.catalogue.chips[w.market[action.slot]]
            self._spend(w, f, chip.cost, SPENT_MARKET)
            side = w.sides[f]
            if chip.type == "spire":
                stock = list(side.spire_stock)
                stock[self.spire_index[chip.id]] += 1
                w.side(f, spire_stock=tuple(stock))
            elif chip.type == "equipment":
                w.side(f, equipment=tuple(sorted(side.equipment + (chip.id,))))
            else:
                barracks = list(side.barracks)
                barracks[self.unit_index[chip.id]] += 1
                w.side(f, barracks=tuple(barracks))
            market = list(w.market)
            market[action.slot] = EMPTY
            w.market = tuple(market)
            w.refills = (action.slot,)
        elif action.type == "buy_earthscape":
            self._spend(w, f, self.numbers.earthscape_cost, SPENT_MARKET)
            side = w.sides[f]
            w.side(f, earthscapes=tuple(sorted(side.earthscapes + (w.earthscape_offer,))),
                   earthscape_bought=True)
            w.earthscape_offer = EMPTY
            w.refills = (-1,)
        w.turn += 1
        self._continue_market(w)

    def _on_draw(self, w: _Work, card: str) -> None:
        if w.draw == "event":
            w.event = card
            w.event_deck = _without(w.event_deck, card)
            event = self.catalogue.events[card]
            if event.repair:  # RULING (events): repairs never raise a gate above its start
                for f in w.order:
                    gate = w.sides[f].gate
                    top = self.numbers.gate_health + self.bonus(w.sides[f], "gate_health")
                    w.side(f, gate=min(top, gate + event.repair))
            w.draw = ""
            self._income(w)
        elif w.draw == "market":
            market = list(w.market)
            market[w.refills[0]] = card
            w.market, w.market_deck = tuple(market), _without(w.market_deck, card)
            w.refills = w.refills[1:]
            self._continue_market(w)
        elif w.draw == "earthscape":
            w.earthscape_offer = card
            w.earthscape_deck = _without(w.earthscape_deck, card)
            w.refills = w.refills[1:]
            self._continue_market(w)
        else:  # a landmark face, seen by the explorer
            lm = w.landmarks[w.exploring]
            known = list(lm.known)
            f = self.current_faction(w)
            known[f] = True
            w.landmarks[w.exploring] = edit(lm, face=card, known=tuple(known))
            w.face_pool = _without(w.face_pool, card)
            w.draw, w.actor = "", f

    def _spend(self, w: _Work, f: int, amount: int, phase: int) -> None:
        side = w.sides[f]
        spent = list(side.spent)
        spent[phase] += amount
        w.side(f, source=side.source - amount, spent=tuple(spent))

    def _gain(self, w: _Work, f: int, amount: int) -> None:
        side = w.sides[f]
        w.side(f, source=min(self.source_cap(side), side.source + amount))

    # -- build ---------------------------------------------------------------------------------
    def _begin_build(self, w: _Work) -> None:
        w.phase, w.turn, w.draw = "build", 0, ""
        for f in w.order:
            w.side(f, done=False)
        self._continue_build(w)

    def _continue_build(self, w: _Work) -> None:
        for step in range(len(w.order)):
            f = w.order[(w.turn + step) % len(w.order)]
            if not w.sides[f].done:
                w.turn = (w.turn + step) % len(w.order)
                w.actor = f
                return
        self._begin_prep(w)

    def _on_build(self, w: _Work, action: CloudspireAction, phase: int) -> None:
        f = w.actor
        side = w.sides[f]
        if action.type == "construct":
            kind = self.catalogue.spires[action.spire]
            stock = list(side.spire_stock)
            stock[self.spire_index[kind.id]] -= 1
            w.side(f, spire_stock=tuple(stock))
            if not kind.merc:  # a merc spire was paid for at the market
                self._spend(w, f, kind.cost, phase)
            # The builder stacks the starting upgrades in the order it chose, bottom first.
            w.spires.append(Spire(f, kind.id, action.at, action.order))
        elif action.type == "upgrade":
            i = next(i for i, sp in enumerate(w.spires) if sp.hex == action.at)
            spire = w.spires[i]
            cost = (self.numbers.fortification_cost if action.kind == "F"
                    else len(spire.upgrades) + 1)
            self._spend(w, f, cost, phase)
            w.spires[i] = edit(spire, upgrades=spire.upgrades + action.kind)  # on top
        elif action.type == "advance":
            fac = self._faction(side)
            j = next(j for j, st in enumerate(fac.structures) if st.id == action.structure)
            adv = fac.structures[j].advancements[side.advancements[j]]
            self._spend(w, f, adv.cost, phase)
            bought = list(w.sides[f].advancements)
            bought[j] += 1
            w.side(f, advancements=tuple(bought), gate=w.sides[f].gate + adv.gate_health)
        elif action.type == "place":
            slots = list(w.slots)
            slots[self.slots.index(action.at)] = action.earthscape
            w.slots = tuple(slots)
            w.side(f, earthscapes=_without(side.earthscapes, action.earthscape))

    # -- prep ----------------------------------------------------------------------------------
    def _begin_prep(self, w: _Work) -> None:
        w.phase, w.turn = "prep", 0
        for f in w.order:
            w.side(f, done=False)
        self._continue_prep(w)

    def _continue_prep(self, w: _Work) -> None:
        # Step 1: every faction declares its mark in turn order, openly, before anybody chooses
        # units (so later stacks may answer earlier marks, as at the table).
        for f in w.order:
            if w.sides[f].mark < 0:
                marks = self.mark_options(w, f)
                if len(marks) == 1:  # no choice to make
                    w.side(f, mark=marks[0])
                    continue
                w.actor = f
                return
        # Steps 2-3: each faction builds its hidden deployment stack, in turn order.
        if w.turn < len(w.order):
            w.actor = w.order[w.turn]
            return
        self._begin_onslaught(w)

    def _on_prep(self, w: _Work, action: CloudspireAction) -> None:
        f = w.actor
        side = w.sides[f]
        if action.type == "mark":
            w.side(f, mark=action.gate)
            self._continue_prep(w)
        elif action.type == "ready":
            w.side(f, done=True)
            w.turn += 1
            self._continue_prep(w)
        elif action.type == "equip":
            stack = list(side.stack)
            stack[-1] = edit(stack[-1], equipment=action.item,
                             health=stack[-1].health + self.catalogue.equipment[action.item]
                             .health)
            w.side(f, stack=tuple(stack), equipment=_without(side.equipment, action.item))
        else:  # deploy: one unit to the bottom of the stack
            i = self.unit_index[action.unit]
            kind = self.catalogue.units[action.unit]
            barracks = list(side.barracks)
            barracks[i] -= 1
            cost = 0 if kind.merc else kind.cost
            stack = list(side.stack)
            if action.group:  # joins the group above; the group keeps its top minion's health
                stack[-1] = edit(stack[-1], members=stack[-1].members + (action.unit,))
            else:
                level = side.hero_levels[i] if kind.hero else 0
                health = kind.levels[min(level, len(kind.levels) - 1)].health
                stack.append(Band(f, (action.unit,), health, "", level, "", False, False,
                                  False))
            w.side(f, barracks=tuple(barracks), stack=tuple(stack),
                   command=side.command - cost, heroes=side.heroes + kind.hero)

    # -- onslaught -----------------------------------------------------------------------------
    def _begin_onslaught(self, w: _Work) -> None:
        w.phase, w.round, w.turn = "onslaught", 1, 0
        self._begin_turn(w)

    def _minions_left(self, w: _Work) -> bool:
        return any(not self.is_hero(u) for u in w.units) or any(
            not self.is_hero(b) for side in w.sides for b in side.stack)

    def _begin_turn(self, w: _Work) -> None:
        while True:
            if not self._minions_left(w) or w.round > self.round_limit:
                self._end_wave(w)
                return
            if w.turn >= len(w.order):
                w.round += 1
                w.turn = 0
                continue
            f = w.order[w.turn]
            # RULING (empty turns): a faction with no units in play (or whose gate fell)
            # takes no onslaught turn.
            if w.sides[f].gate > 0 and (w.sides[f].stack or any(u.owner == f for u in w.units)):
                break
            w.turn += 1
        self._campfire_check(w)
        w.units = [edit(u, moved=False, attacked=False, struck=False) if u.owner == f
                   else edit(u, struck=False) for u in w.units]
        w.landmarks = [edit(lm, explored=False, struck=False) for lm in w.landmarks]
        w.stage, w.marched, w.actor, w.exploring = "move", False, f, -1
        self._continue_move(w)

    def _continue_move(self, w: _Work) -> None:
        f = self.current_faction(w)
        if not w.marched and not any(not self.is_hero(b) for b in w.sides[f].stack) and not any(
                u.owner == f and not self.is_hero(u) for u in w.units):
            w.marched = True  # no minions: nothing to march
        acts = self._onslaught_actions(w, f)
        if len(acts) == 1 and acts[0].type in ("march", "end_move"):
            if acts[0].type == "march":
                # RULING (automatic marches): marching as the only choice needs no click; the
                # log line of the step that led here says so (automatic_steps).
                if w.notes is not None:
                    who = possessive(self.faction_of[f].name)
                    w.notes.append(f"{who} minions march (their only move)")
                self._march(w, f)
                self._continue_move(w)
                return
            self._begin_fire(w)
            return
        w.actor = f

    def _on_onslaught(self, w: _Work, action: CloudspireAction) -> None:
        kind = action.type
        f = self.current_faction(w)
        if kind in ("construct", "upgrade"):
            self._on_build(w, action, SPENT_ONSLAUGHT)
            w.side(f, limited_builds=w.sides[f].limited_builds + 1)
            self._continue_move(w)
        elif kind == "move":
            self._move_hero(w, f, action.at, action.to)
            self._continue_move(w)
        elif kind == "march":
            self._march(w, f)
            self._continue_move(w)
        elif kind == "end_move":
            self._begin_fire(w)
        elif kind == "target":
            w.target = action.at
            self._roll_fire(w)
        elif kind == "explore":
            i = next(i for i, lm in enumerate(w.landmarks) if lm.hex == action.at)
            lm = w.landmarks[i]
            w.exploring = i
            if not lm.face:
                w.landmarks[i] = edit(lm, explored=True)
                w.draw, w.actor = "face", CHANCE
                return
            known = list(lm.known)
            known[f] = True
            w.landmarks[i] = edit(lm, explored=True, known=tuple(known))
        elif kind in ("reveal", "leave"):
            lm = w.landmarks[w.exploring]
            if kind == "reveal":
                face = self.catalogue.faces[lm.face]
                w.landmarks[w.exploring] = edit(lm, revealed=True, health=face.health)
                if face.reveal_source:
                    self._gain(w, f, face.reveal_source)
            w.exploring = -1
            self._continue_explore(w)
        elif kind == "end_explore":
            self._begin_attack(w)
        elif kind == "attack":
            self._attack(w, f, action.at, action.target)
            if w.actor != OVER:
                self._continue_attack(w)
        elif kind == "end_turn":
            self._end_turn(w)

    def _move_hero(self, w: _Work, f: int, start: str, to: str) -> None:
        if start == self.gate_hexes[f] and not any(u.hex == start for u in w.units):
            side = w.sides[f]
            band = side.stack[0]
            w.side(f, stack=side.stack[1:])
            w.units.append(edit(band, hex=to, moved=True))
            return
        i = next(i for i, u in enumerate(w.units) if u.hex == start)
        w.units[i] = edit(w.units[i], hex=to, moved=True)

    def _march(self, w: _Work, f: int) -> None:
        """Every minion of faction f moves, leading minion first (the one nearest its mark),
        the deployment stack's minions last, top first."""
        w.marched = True
        gate = self.gate_hexes[w.sides[f].mark] if w.sides[f].mark >= 0 else None
        if gate is None:
            return
        moved: set[int] = set()  # ids of bands on the map that have marched
        while True:
            best, best_key = None, None
            for u in w.units:
                if u.owner != f or id(u) in moved or self.is_hero(u):
                    continue
                dist = self.mark_distance(w.slots, self.stats(u)[3], gate)
                key = (dist.get(u.hex, FAR), self.hex_index[u.hex])
                if best_key is None or key < best_key:
                    best, best_key = u, key
            if best is None:
                break
            new = self._step_minion(w, best, best.hex, gate)
            moved.add(id(new))
        # then the stack, top first; a hero under the minions waits for the after-march moves
        while True:
            stack = w.sides[f].stack
            if not stack or self.is_hero(stack[0]):
                break
            band = stack[0]
            spot = self._first_step(w, band, self.gate_hexes[f], gate)
            if spot is None:  # RULING (blocked gate): it stays on the stack this turn
                break
            w.side(f, stack=stack[1:])
            placed = edit(band, hex=self.gate_hexes[f])
            w.units.append(placed)
            self._step_minion(w, placed, self.gate_hexes[f], gate)

    def _first_step(self, w: _Work, band: Band, at: str, gate: str) -> str | None:
        return self._next_hex(w, band, at, gate, set(), self.occupied(w) - {at})

    def _next_hex(self, w: _Work, band: Band, at: str, gate: str, visited: set[str],
                  taken: set[str]) -> str | None:
        """RULING (minion steps): each step goes to the free neighbour nearest the mark (the
        lowest-numbered hex on a tie); if none is nearer, sideways to a free neighbour as near
        that it has not stood on this move; a minion next to its mark's gate stays."""
        terrain = self.stats(band)[3]
        dist = self.mark_distance(w.slots, terrain, gate)
        here = dist.get(at, FAR)
        if here <= 1:
            return None
        ground = self.passable(w.slots, terrain)
        # a friendly hero in the way swaps places with the minion (never onto a gate hex)
        heroes = set() if at in self.walls else {
            u.hex for u in w.units if u.owner == band.owner and self.is_hero(u)
            and (not self.new_rulings or at in self.passable(w.slots, self.stats(u)[3]))}
        # RULING (displacement, rulings 2): the terrain allowance has no exception for a
        # displaced hero, so a hero that cannot stand on the minion's hex (sky, for a hero that
        # cannot fly) is not displaced: it blocks the minion like any other unit.
        best, best_key = None, None
        for nb in self.neighbours[at]:
            if nb not in ground or nb in visited or (nb in taken and nb not in heroes):
                continue
            d = dist.get(nb, FAR)
            if d > here or (d == here and d >= FAR):
                continue
            key = (d, self.hex_index[nb])
            if best_key is None or key < best_key:
                best, best_key = nb, key
        return best

    def _step_minion(self, w: _Work, band: Band, start: str, gate: str) -> Band:
        """Move a minion its full movement (or until it cannot); friendly heroes in the way
        swap places with it. Returns the band as it ends."""
        movement = self.stats(band)[2]
        at, visited = start, {start}
        taken = self.occupied(w)
        i = next(i for i, u in enumerate(w.units) if u is band)
        for _ in range(movement):
            nxt = self._next_hex(w, band, at, gate, visited, taken - {at})
            if nxt is None:
                break
            # a friendly hero on the way is displaced to where the minion stood
            for j, u in enumerate(w.units):
                if u.hex == nxt:
                    w.units[j] = edit(u, hex=at)
            taken.discard(at)
            taken.add(nxt)
            if at == start and start == self.gate_hexes[band.owner]:
                taken.add(start)  # the gate stays a wall
            visited.add(nxt)
            at = nxt
        new = edit(band, hex=at, moved=True)
        w.units[i] = new
        return new

    def _begin_fire(self, w: _Work) -> None:
        w.stage = "fire"
        cur = self.current_faction(w)
        k = w.order.index(cur)
        queue = []
        for step in range(1, len(w.order)):  # the player to the left first, then on in order
            g = w.order[(k + step) % len(w.order)]
            if self.opposed(g, cur):
                queue += sorted((sp.hex for sp in w.spires if sp.owner == g),
                                key=self.hex_index.__getitem__)
        w.firing = tuple(queue)
        self._continue_fire(w)

    def _continue_fire(self, w: _Work) -> None:
        while w.firing:
            targets = self.fire_targets(w, w.firing[0])
            spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
            if not targets or spire.upgrades.count("A") == 0:
                w.firing = w.firing[1:]
                continue
            if len(targets) == 1:
                w.target = targets[0]
                self._roll_fire(w)
                return
            w.target, w.actor = "", spire.owner
            return
        self._begin_explore(w)

    def _roll_fire(self, w: _Work) -> None:
        spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
        w.dice, w.damage = spire.upgrades.count("A"), 0
        w.draw, w.actor = "die", CHANCE

    def _resolve_fire(self, w: _Work) -> None:
        spire = next(sp for sp in w.spires if sp.hex == w.firing[0])
        i = next((i for i, u in enumerate(w.units) if u.hex == w.target), None)
        if i is not None and w.damage > 0:
            if self._damage_band(w, i, w.damage, spire.owner, None):
                side = w.sides[spire.owner]
                w.side(spire.owner, spire_kills=side.spire_kills + 1)
        w.firing, w.target, w.damage, w.draw = w.firing[1:], "", 0, ""
        w.actor = self.current_faction(w)
        self._continue_fire(w)

    def _begin_explore(self, w: _Work) -> None:
        w.stage = "explore"
        self._continue_explore(w)

    def _continue_explore(self, w: _Work) -> None:
        f = self.current_faction(w)
        if not self.explorable(w, f):
            self._begin_attack(w)
            return
        w.actor = f

    def _begin_attack(self, w: _Work) -> None:
        w.stage = "attack"
        self._continue_attack(w)

    def _continue_attack(self, w: _Work) -> None:
        f = self.current_faction(w)
        attacks, _ = self.attacks(w, f)
        if not attacks:
            self._end_turn(w)
            return
        w.actor = f

    def _end_turn(self, w: _Work) -> None:
        w.turn += 1
        self._begin_turn(w)

    # -- fights --------------------------------------------------------------------------------
    def _damage_band(self, w: _Work, i: int, damage: int, by: int, hero: str | None) -> bool:
        """Deal damage to the band w.units[i]; True when its top unit is defeated. The
        defeater's faction gains the Source reward; a hero that defeated it levels up."""
        band = w.units[i]
        if band.health > damage:
            w.units[i] = edit(band, health=band.health - damage)
            return False
        top = self.catalogue.units[band.members[0]]
        self._gain(w, by, top.reward)
        side = w.sides[band.owner]
        barracks = list(side.barracks)
        levels = list(side.hero_levels)
        if not top.hero and not top.merc:  # faction minions go back; mercs are discarded
            barracks[self.unit_index[top.id]] += 1
        if top.hero:
            levels[self.unit_index[top.id]] = 0  # removed from the game
        w.side(band.owner, barracks=tuple(barracks), hero_levels=tuple(levels),
               units_lost=side.units_lost + 1)
        if len(band.members) > 1:  # the next minion of the group, at full health
            rest = edit(band, members=band.members[1:])
            w.units[i] = edit(rest, health=self.stats(rest)[1])
            if self.new_rulings:
                self._fall(w, i)
        else:
            del w.units[i]
        if hero is not None:
            self._level_up(w, hero)
        return True

    def _fall(self, w: _Work, i: int) -> None:
        """RULING (revealed on sky, rulings 2): a group moves as its top minion, so a group under
        a flying minion may stand on sky; a minion revealed there that cannot fly falls, and the
        next is revealed (full health) until one can stay or none is left. A fall is nobody's
        defeat: no reward, no level-up; the minion goes back to its barracks (a merc is
        discarded) and counts as a unit lost."""
        band = w.units[i]
        land = self.land(w.slots)
        while band.hex not in land and self.stats(band)[3] != "sky":
            kind = self.catalogue.units[band.members[0]]
            side = w.sides[band.owner]
            barracks = list(side.barracks)
            if not kind.merc:
                barracks[self.unit_index[kind.id]] += 1
            w.side(band.owner, barracks=tuple(barracks), units_lost=side.units_lost + 1)
            if w.notes is not None:
                w.notes.append(f"{possessive(self.faction_of[band.owner].name)} {kind.name}, "
                               f"revealed on the sky at {band.hex}, falls")
            if len(band.members) == 1:
                del w.units[i]
                return
            rest = edit(band, members=band.members[1:])
            band = edit(rest, health=self.stats(rest)[1])
            w.units[i] = band

    def _level_up(self, w: _Work, hex_: str) -> None:
        """RULING (level-ups): a hero that defeats something always takes its next level, and
        gains the health the new level adds. The text says "may"; with the shipped data a level
        is never weaker and rewards do not depend on levels, so declining never helps (the
        rules page gives the reasoning)."""
        j = next((j for j, u in enumerate(w.units) if u.hex == hex_), None)
        if j is None:
            return
        hero = w.units[j]
        kind = self.catalogue.units[hero.members[0]]
        if hero.level + 1 >= len(kind.levels):
            return
        gain = kind.levels[hero.level + 1].health - kind.levels[hero.level].health
        w.units[j] = edit(hero, level=hero.level + 1, health=hero.health + max(0, gain))
        side = w.sides[hero.owner]
        levels = list(side.hero_levels)
        levels[self.unit_index[kind.id]] = hero.level + 1
        w.side(hero.owner, hero_levels=tuple(levels))

    def _attack(self, w: _Work, f: int, at: str, target: str) -> None:
        i = next(i for i, u in enumerate(w.units) if u.hex == at)
        attacker = edit(w.units[i], attacked=True)
        w.units[i] = attacker
        attack = self.stats(attacker)[0]
        by_hero = at if self.is_hero(attacker) else None
        j = next((j for j, u in enumerate(w.units) if u.hex == target), None)
        if j is not None:
            defender = w.units[j]
            struck = defender.struck
            w.units[j] = edit(defender, struck=True)
            defeated = self._damage_band(w, j, attack, f, by_hero) if attack else False
            if not defeated and not struck:  # retaliation, the first time each turn
                back = self.stats(defender)[0]
                i = next(i for i, u in enumerate(w.units) if u.hex == at)
                if back:
                    self._damage_band(w, i, back, defender.owner,
                                      target if self.is_hero(defender) else None)
            return
        k = next((k for k, sp in enumerate(w.spires) if sp.hex == target), None)
        if k is not None:
            self._damage_spire(w, k, attack, f, by_hero)
            return
        if target in self.gate_of_hex:
            g = self.gate_of_hex[target]
            dealt = min(attack, w.sides[g].gate)
            w.side(g, gate=w.sides[g].gate - dealt)
            w.side(f, gate_damage=w.sides[f].gate_damage + dealt)
            # RULING (gates): a gate retaliates every time it is attacked, while standing.
            if w.sides[g].gate == 0:
                self._eliminate(w, g)
            elif self.numbers.gate_retaliation:
                self._damage_band(w, i, self.numbers.gate_retaliation, g, None)
            return
        m = next(m for m, lm in enumerate(w.landmarks) if lm.hex == target)
        lm = w.landmarks[m]
        face = self.catalogue.faces[lm.face]
        left = max(0, lm.health - attack)
        w.landmarks[m] = edit(lm, health=left, struck=True)
        if left == 0:  # RULING (landmarks): a defeated landmark stays as ground nobody enters
            self._gain(w, f, face.reward)
            if by_hero is not None:
                self._level_up(w, by_hero)
        elif not lm.struck and face.attack:
            self._damage_band(w, i, face.attack, f, None)  # nobody gains from it

    def _damage_spire(self, w: _Work, k: int, damage: int, by: int, hero: str | None) -> None:
        """One upgrade at most comes off the bottom: attack or range to any damage,
        fortification only to 2 or more. The last upgrade gone, the spire is defeated."""
        spire = w.spires[k]
        if not spire.upgrades or damage < (2 if spire.upgrades[0] == "F" else 1):
            return
        rest = spire.upgrades[1:]
        if rest:
            w.spires[k] = edit(spire, upgrades=rest)
            return
        kind = self.catalogue.spires[spire.kind]
        del w.spires[k]
        self._gain(w, by, kind.reward)
        if not kind.merc:  # faction spires go back to the barracks
            side = w.sides[spire.owner]
            stock = list(side.spire_stock)
            stock[self.spire_index[kind.id]] += 1
            w.side(spire.owner, spire_stock=tuple(stock))
        if hero is not None:
            self._level_up(w, hero)

    def _eliminate(self, w: _Work, g: int) -> None:
        """A gate at 0: its faction is out; its units and spires leave the map."""
        w.units = [u for u in w.units if u.owner != g]
        w.spires = [sp for sp in w.spires if sp.owner != g]
        w.side(g, stack=(), gate=0)
        standing = [f for f in range(self.factions) if w.sides[f].gate > 0]
        for f in standing:  # RULING (fallen mark): minions turn to the next standing gate
            if w.sides[f].mark == g:
                options = self.mark_options(w, f)
                w.side(f, mark=options[0] if options else -1)
        if self.mode == "competitive":
            if len(standing) <= 1:
                self._finish(w)
        elif all(w.sides[b].gate == 0 for b in self.bots) or all(
                w.sides[s].gate == 0 for s in range(self.players)):
            self._finish(w)

    def _end_wave(self, w: _Work) -> None:
        """Surviving units go back to their barracks (RULING: mercs too; heroes keep their
        level, equipment goes back to its owner)."""
        for band in list(w.units) + [b for side in w.sides for b in side.stack]:
            side = w.sides[band.owner]
            barracks = list(side.barracks)
            for uid in band.members:
                barracks[self.unit_index[uid]] += 1
            gear = side.equipment + ((band.equipment,) if band.equipment else ())
            w.side(band.owner, barracks=tuple(barracks), equipment=tuple(sorted(gear)))
        w.units = []
        for f in range(self.factions):
            side = w.sides[f]
            w.side(f, stack=(), gate_history=side.gate_history + (side.gate,), campfire=False)
        w.stage, w.firing, w.target = "", (), ""
        w.round = min(w.round, self.round_limit)
        if w.wave >= self.waves:
            self._finish(w)
            return
        w.rounds_played += max(1, w.round)
        w.wave += 1
        self._begin_wave(w)

    def _finish(self, w: _Work) -> None:
        w.actor, w.stage, w.draw = OVER, "", ""
        gates = [side.gate for side in w.sides]
        if self.mode == "competitive":
            standing = [f for f in range(self.factions) if gates[f] > 0]
            if len(standing) == 1:
                w.winners = tuple(standing)
                w.reason = f"faction {standing[0]}'s gate is the last standing"
                return
            # RULING (ties): highest gate health wins; then most damage dealt to opposing
            # gates; then most Source held; still equal, they share the win.
            def key(f: int) -> tuple[int, int, int]:
                return gates[f], w.sides[f].gate_damage, w.sides[f].source

            best = max(key(f) for f in range(self.factions))
            w.winners = tuple(f for f in range(self.factions) if key(f) == best)
            w.reason = (f"highest gate health after wave {w.wave}: {best[0]}"
                        + ("" if sum(gates[f] == best[0] for f in range(self.factions)) == 1
                           else " (tie broken by damage dealt to gates, then Source)"))
            return
        seats = range(self.players)
        bot_gate = max(gates[b] for b in self.bots)
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
    def check_state(self, s: CloudspireState) -> None:
        problem = self._state_problem(s)
        if problem:
            raise InvalidState(f"cloudspire state: {problem}")

    def _state_problem(self, s: CloudspireState) -> str | None:
        """The first broken invariant of a state read from a dict, or None."""
        cat, nf = self.catalogue, self.factions
        if not 1 <= s.wave <= self.waves:
            return f"wave must be 1..{self.waves}"
        if s.phase not in PHASES or s.phase == "income":
            return "phase must be event, market, build, prep or onslaught"
        if s.stage not in STAGES or (s.stage != "") != (s.phase == "onslaught" and
                                                         s.actor != OVER):
            return "stage must name the onslaught stage (and only in the onslaught)"
        if s.draw not in DRAWS or (s.actor == CHANCE) != bool(s.draw):
            return "draw must say what a chance step draws (and only at a chance step)"
        if len(s.sides) != nf:
            return f"sides must list {nf} factions"
        if not (s.actor in (OVER, CHANCE) or 0 <= s.actor < nf) or s.actor in self.bots:
            return "actor must be a seat's faction, -1 (chance) or -2 (over)"
        if len(set(s.order)) != len(s.order) or any(not 0 <= f < nf for f in s.order) or (
                not s.order and s.actor != OVER):
            return "order must list factions once each"
        if s.actor != OVER and not 0 <= s.turn < len(s.order) + (s.phase == "market"):
            return "turn must point into the order"
        if s.actor >= 0 and s.phase == "onslaught" and s.stage != "fire" and (
                s.actor != s.order[s.turn]):
            return "the onslaught's actor is the faction whose turn it is"
        if not 0 <= s.round <= self.round_limit or (s.actor != OVER and (s.round == 0) != (
                s.phase != "onslaught")) or not 0 <= s.rounds_played <= self.waves * (
                self.round_limit):
            return f"round must be 1..{self.round_limit} in the onslaught, 0 before"
        if s.placed and (s.phase != "build" or s.actor < 0 or s.placed not in self.slots or not
                         s.slots[self.slots.index(s.placed)]):
            return "placed must name an earthscape placed in this build turn (or be empty)"
        if s.actor == OVER and not s.reason:
            return "a finished game says why it ended"
        if any(not 0 <= f < nf for f in s.winners) or (s.actor != OVER and s.winners):
            return "winners are factions, once the game is over"
        if len(s.landmarks) != len(cat.map.landmarks) or len(s.slots) != len(
                self.slots) or len(s.market) != self.market_slots:
            return "landmarks, slots and market must match the map and seat count"
        decks = (("event_deck", s.event_deck, cat.events), ("market_deck", s.market_deck,
                 cat.chips), ("earthscape_deck", s.earthscape_deck, cat.earthscapes),
                 ("face_pool", s.face_pool, cat.faces))
        for name, deck, entries in decks:
            if list(deck) != sorted(deck) or any(c not in entries for c in deck):
                return f"{name} must list known cards, sorted"
        if s.actor == CHANCE and not self.chance_deck(s):
            return "a chance step draws from an empty deck"
        if any(c and c not in cat.chips for c in s.market) or (
                s.earthscape_offer and s.earthscape_offer not in cat.earthscapes) or any(
                e and e not in cat.earthscapes for e in s.slots) or (
                s.event and s.event not in cat.events):
            return "market, earthscapes and event must name known cards"
        if any(r < -1 or r >= self.market_slots for r in s.refills) or (
                s.draw in ("market", "earthscape") and (not s.refills or (
                    s.refills[0] >= 0) != (s.draw == "market"))):
            return "refills must name market slots (-1: the earthscape)"
        for f, side in enumerate(s.sides):
            fac = self._faction(side) if side.faction in {x.id for x in cat.factions} else None
            if fac is None or fac.id != self.faction_of[f].id:
                return f"side {f} must play {self.faction_of[f].id}"
            if (len(side.barracks) != len(self.unit_ids) or len(side.spire_stock) != len(
                    self.spire_ids) or len(side.hero_levels) != len(self.unit_ids)
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
            if len(side.gate_history) > self.waves:
                return f"side {f}'s gate history is longer than the game"
            if side.campfire and s.phase != "onslaught":
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
                h not in self.hex_index or h in self.walls for h in occupied):
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

    def chance_deck(self, s: CloudspireState) -> tuple[Any, ...]:
        if s.draw == "die":
            return tuple(self.numbers.spire_die)
        return {"event": s.event_deck, "market": s.market_deck,
                "earthscape": s.earthscape_deck, "face": s.face_pool}.get(s.draw, ())

    def state_to_dict(self, s: CloudspireState) -> dict[str, Any]:
        data = record_to_dict(s)
        data["board"] = self._board_view(s)
        return data

    def state_from_dict(self, data: Any) -> CloudspireState:
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k != "board"}  # worked out, not read
        return super().state_from_dict(data)

    def view(self, s: CloudspireState, seat: int | None) -> dict[str, Any]:
        data = self.state_to_dict(self._before_hidden_deploys(s, seat))
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

    def _before_hidden_deploys(self, s: CloudspireState, seat: int | None) -> CloudspireState:
        """While a faction builds its stack, the others see its barracks, command, heroes and
        equipment as they were before the chips they cannot see went in (only the open top is
        counted out): otherwise each step would show which unit it added, and so the order.
        Once the faction is done the counts are its real ones (which units, not their order)."""
        f = s.actor
        if s.phase != "prep" or f < 0 or f == seat or not s.sides[f].stack:
            return s
        side, cat = s.sides[f], self.catalogue
        barracks, command, heroes = list(side.barracks), side.command, side.heroes
        equipment = list(side.equipment)
        for i, band in enumerate(side.stack):
            for uid in band.members[1:] if i == 0 else band.members:
                kind = cat.units[uid]
                barracks[self.unit_index[uid]] += 1
                command += 0 if kind.merc else kind.cost
                heroes -= kind.hero
            if i and band.equipment:
                equipment.append(band.equipment)
        side = edit(side, barracks=tuple(barracks), command=command, heroes=heroes,
                    equipment=tuple(sorted(equipment)))
        return edit(s, sides=s.sides[:f] + (side,) + s.sides[f + 1:])

    def _board_view(self, s: CloudspireState) -> dict[str, Any]:
        """What a board needs beside the state: the map, the factions' numbers, and the stats
        of everything on the map (from open information only)."""
        cat = self.catalogue
        wells = set(self.wells(s))
        land = self.land(s.slots)
        group_of, _ = self.groups(s.slots)
        hexes = [{"hex": h, "group": group_of.get(h, ""), "ground": h in land,
                  "sky": h not in land, "well": h in wells,
                  "landmark": h in cat.map.landmarks, "slot": h in self.slots,
                  "gate": self.gate_of_hex.get(h, -1)} for h in self.hexes]
        factions = []
        for f, side in enumerate(s.sides):
            factions.append({
                "faction": f, "name": self.faction_of[f].name, "bot": f in self.bots,
                "gate_hex": self.gate_hexes[f], "source_cap": self.source_cap(side),
                "income_next_wave": self.income(s.wave + 1) + self.bonus(side, "income"),
                "limited_builds_left": self.numbers.limited_builds - side.limited_builds,
                "influence": sorted(self.influence(s, f)),
                "stack_size": sum(len(band.members) for band in side.stack)})  # unit chips
        units = []
        for u in s.units:
            attack, health, movement, terrain = self.stats(u)
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
        acting = (self.current_faction(s) if s.phase == "onslaught" and s.order
                  and s.actor != OVER else s.actor)
        return {"hexes": hexes, "factions": factions, "units": units, "spires": spires,
                "market": market, "turn_of": acting,
                "firing": s.firing[0] if s.firing else "",
                "event_name": cat.events[s.event].name if s.event else "",
                "spire_die": list(self.numbers.spire_die),
                **self._drawing_view(s)}

    def _drawing_view(self, s: CloudspireState) -> dict[str, Any]:
        """What the drawing shows beside the map's pieces, in words the rules decide: the
        catalogue's names and stats (open data), each side's holdings, where the game stands
        and what happens now. Only open information: stacks are read from the view's own
        (masked) `sides`."""
        cat, n = self.catalogue, self.numbers
        unit_kinds = {uid: {"name": u.name, "hero": u.hero, "merc": u.merc, "cost": u.cost,
                            "reward": u.reward, "terrain": u.terrain,
                            "levels": [[lv.attack, lv.health, lv.movement] for lv in u.levels]}
                      for uid, u in cat.units.items()}
        sides = []
        for side in s.sides:
            fac = self._faction(side)
            top = None
            if side.stack:  # the top of a stack is open to every seat
                attack, health, movement, _ = self.stats(side.stack[0])
                top = {"name": cat.units[side.stack[0].members[0]].name, "attack": attack,
                       "health": side.stack[0].health, "full_health": health,
                       "movement": movement}
            sides.append({
                "stack_top": top,
                "command": side.command,
                "mark_name": self.faction_of[side.mark].name if side.mark >= 0 else "",
                "barracks": [[cat.units[uid].name, side.barracks[i]]
                             for i, uid in enumerate(self.unit_ids) if side.barracks[i] > 0],
                "spire_stock": [[cat.spires[k].name, side.spire_stock[i]]
                                for i, k in enumerate(self.spire_ids) if side.spire_stock[i] > 0],
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
                 for h, e in zip(self.slots, s.slots)]
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
                                  "sold": self.new_rulings and any(
                                      side.earthscape_bought for side in s.sides)}
                                 if offer else None),
            "where": self.where_text(s), "doing": self.doing_text(s),
            "result_text": self.result_text(s), "waves": self.waves,
            "limited_builds": n.limited_builds,
            "fire": ({"spire": s.firing[0], "target": s.target, "dice_left": s.dice,
                      "damage": s.damage} if s.firing else None)}

    def where_text(self, s: CloudspireState) -> str:
        """The wave, phase, and in an onslaught its round and stage, in words."""
        text = f"Wave {s.wave} of {self.waves}, {s.phase} phase"
        if s.phase == "onslaught" and s.round:
            text += f", round {s.round}" + (f", {s.stage} stage" if s.stage else "")
        return text

    def doing_text(self, s: CloudspireState) -> str:
        """Who acts now and on what, in words."""
        if s.actor == OVER:
            return ""
        if s.actor == CHANCE:
            what = {"event": "an event card", "market": "a market chip",
                    "earthscape": "an earthscape", "face": "a landmark face",
                    "die": "a spire die"}.get(s.draw, "a chance outcome")
            return f"Drawing {what}"
        who = self.faction_of[s.actor].name
        if s.phase == "onslaught" and s.stage == "fire":
            return f"{who} chooses the target of the spire at {s.firing[0]}"
        if s.phase == "onslaught" and s.exploring >= 0:
            return f"{who} looks at the landmark at {s.landmarks[s.exploring].hex}"
        return f"{who} to play"

    def result_text(self, s: CloudspireState) -> str:
        if s.actor != OVER:
            return ""
        won = " and ".join(self.faction_of[f].name for f in s.winners) or "nobody"
        return f"{won} won ({s.reason})"

    def action_path(self, s: CloudspireState, action: Action) -> list[str]:
        """What a person clicks: hexes of the map ("hex:q,r": a well, a spire, a unit, a
        landmark, a target, the gate for a hero still on the stack), then buttons whose keys
        read as what they do."""
        p = action.params
        kind = action.type
        if kind == "construct":
            path = [f"hex:{p['at']}", f"construct {p['spire']}"]
            if len(self.start_orders.get(p["spire"], ())) > 1:  # then the upgrades' order
                path.append(f"upgrades {p['order']} (bottom first)")
            return path
        if kind == "upgrade":
            return [f"hex:{p['at']}", f"{_UPGRADE_NAMES.get(p['kind'], p['kind'])} upgrade"]
        if kind == "place":
            return [f"hex:{p['at']}", f"place {p['earthscape']}"]
        if kind in ("move", "attack"):
            return [f"hex:{p['at']}", f"hex:{p['to' if kind == 'move' else 'target']}"]
        if kind in ("target", "explore"):
            return [f"hex:{p['at']}"]
        if kind == "buy":
            return [f"buy market slot {p['slot']}"]
        if kind == "advance":
            return [f"advance {p['structure']}"]
        if kind == "mark":
            return [f"mark gate {p['gate']}"]
        if kind == "deploy":
            return [f"deploy {p['unit']}" + (" grouped" if p["group"] else "")]
        if kind == "equip":
            return [f"equip {p['item']}"]
        return [kind.replace("_", " ")]

    def determinize(self, s: CloudspireState, seat: int, rng: random.Random
                    ) -> CloudspireState:
        """A world consistent with `seat`'s view: other factions' stacks below their open top
        resampled (`_resample_stack`), and the landmark faces `seat` has not seen redrawn from
        the faces left."""
        sides = list(s.sides)
        for f, side in enumerate(sides):
            # A stack being built is left as it is: its bottom decides what its owner may add.
            if f == seat or not side.stack or (s.phase == "prep" and f == s.actor):
                continue
            sides[f] = edit(side, stack=self._resample_stack(side.stack, rng))
        unseen = [i for i, lm in enumerate(s.landmarks)
                  if lm.face and not lm.revealed and not lm.known[seat]]
        landmarks, pool = list(s.landmarks), s.face_pool
        if unseen:
            faces = [s.landmarks[i].face for i in unseen] + list(pool)
            rng.shuffle(faces)
            for i, face in zip(unseen, faces):
                landmarks[i] = edit(landmarks[i], face=face)
            pool = tuple(sorted(faces[len(unseen):]))
        return edit(s, sides=tuple(sides), landmarks=tuple(landmarks), face_pool=pool)

    def _resample_stack(self, stack: tuple[Band, ...], rng: random.Random
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
        units = self.catalogue.units

        def move(uid: str) -> int:
            return units[uid].levels[0].movement

        def new_band(members: tuple[str, ...], level: int = 0, gear: str = "") -> Band:
            band = Band(top.owner, members, 1, "", level, gear, False, False, False)
            return edit(band, health=self.stats(band)[1])

        top = stack[0]
        below = stack[1:]
        minions = sorted(top.members[1:] + tuple(
            m for b in below if not self.is_hero(b) for m in b.members))
        heroes = sorted((b.members[0], b.level) for b in below if self.is_hero(b))
        gear = sorted(b.equipment for b in below if self.is_hero(b) and b.equipment)
        if not minions and not heroes:
            return stack
        hidden = len(top.members) - 1
        if hidden:  # the top group's hidden chips: minions as quick as the top one or more
            floor = move(top.members[0])
            chosen = rng.sample([i for i, m in enumerate(minions) if move(m) >= floor], hidden)
            members = sorted((minions[i] for i in chosen), key=move)
            top = edit(top, members=(top.members[0], *members))
            taken = set(chosen)
            minions = [m for i, m in enumerate(minions) if i not in taken]
        rng.shuffle(minions)
        bands: list[Band] = []
        for m in minions:
            if bands and move(m) >= move(bands[-1].members[-1]) and rng.random() < 0.5:
                bands[-1] = edit(bands[-1], members=bands[-1].members + (m,))
            else:
                bands.append(new_band((m,)))
        rng.shuffle(heroes)
        rng.shuffle(gear)
        upper: list[Band] = []
        lower: list[Band] = []
        for i, (uid, level) in enumerate(heroes):
            hero = new_band((uid,), level, gear[i] if i < len(gear) else "")
            above = self.is_hero(top) and bool(bands) and rng.random() < 0.5
            (upper if above else lower).append(hero)
        return (top, *upper, *bands, *lower)

    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    # -- parsing -------------------------------------------------------------------------------
    def parse_action(self, data: Any) -> CloudspireAction:
        action = super().parse_action(data)
        expected: dict[str, type] = _ACTION_FIELDS[action.type]
        params = action.params
        if set(params) != set(expected) or any(type(params[k]) is not t
                                               for k, t in expected.items()):
            shape = ", ".join(f"{k}: {t.__name__}" for k, t in expected.items()) or "no fields"
            raise IllegalAction(f"a {action.type} action takes {shape}")
        return action

    def why_illegal(self, s: CloudspireState, action: Action) -> str:
        problem = self.phase_problem(s, action) or self._refusal(s, action)
        if problem:
            return problem
        if s.phase == "onslaught" and s.stage:
            return (f"{self.action_text(s, action)} is not possible now (the {s.stage} stage "
                    "of the onslaught)")
        return f"{self.action_text(s, action)} is not possible now"

    def _refusal(self, s: CloudspireState, action: Action) -> str | None:
        """The rule a well-formed action breaks here, in words (None: no specific reason)."""
        kind = action.type
        if s.actor == OVER:
            return f"the game is over ({s.reason})"
        if s.actor == CHANCE:
            return self._chance_refusal(s, action)
        if kind in CHANCE_TYPES:
            return (f"{'drawing cards' if kind == 'draw' else 'rolling the spire die'} is a "
                    f"chance step, not a decision: {self.faction_of[s.actor].name} is to play")
        f = s.actor
        if s.phase == "market":
            return self._market_refusal(s, f, action)
        if s.phase == "build":
            return self._build_refusal(s, f, action)
        if s.phase == "prep":
            return self._prep_refusal(s, f, action)
        if s.phase == "onslaught":
            return self._onslaught_refusal(s, f, action)
        return None

    def _chance_refusal(self, s: CloudspireState, action: Action) -> str | None:
        what = {"event": "an event card", "market": "a market chip",
                "earthscape": "an earthscape", "face": "a landmark face",
                "die": "the spire die"}.get(s.draw, "a chance outcome")
        if action.type not in CHANCE_TYPES:
            return f"chance draws {what} now: no faction decides until it is drawn"
        if action.type == "roll" and s.draw != "die":
            return f"chance draws {what} now, not a roll of the spire die"
        if action.type == "draw" and s.draw == "die":
            return "the spire die is rolled now, not a card drawn"
        if action.type == "roll":
            faces = ", ".join(map(str, self.numbers.spire_die))
            return f"the spire die has the faces {faces}, not {action.params['pips']}"
        card = action.params["card"]
        return f"{card!r} is not among the cards left to draw {what} from"

    def _build_refusal(self, s: CloudspireState, f: int, action: Action) -> str | None:
        kind, p = action.type, action.params
        if s.placed:
            if kind == "construct" and p["at"] != s.placed:
                return (f"just after placing an earthscape, only a spire on its well at "
                        f"{s.placed} may follow (or declining it)")
            if kind not in ("construct", "decline"):
                return (f"the earthscape just placed at {s.placed} offers a spire on its well: "
                        "construct one there or decline first")
        elif kind == "decline":
            return "no earthscape was just placed, so there is no spire to decline"
        if kind in ("construct", "upgrade"):
            return self._spire_refusal(s, f, action)
        side, name = s.sides[f], self.faction_of[f].name
        if kind == "advance":
            fac = self._faction(side)
            j = next((j for j, st in enumerate(fac.structures) if st.id == p["structure"]), None)
            if j is None:
                ids = ", ".join(st.id for st in fac.structures)
                return f"{name} has no fortress structure {p['structure']!r} (its: {ids})"
            st = fac.structures[j]
            if side.advancements[j] >= len(st.advancements):
                return f"every advancement of the {st.name} is bought"
            cost = st.advancements[side.advancements[j]].cost
            if cost > side.source:
                return (f"the next advancement of the {st.name} costs {cost} Source and "
                        f"{name} has {side.source}")
        if kind == "place":
            if p["earthscape"] not in side.earthscapes:
                return f"{name} holds no earthscape {p['earthscape']!r} to place"
            if p["at"] not in self.slots:
                return f"{p['at']} is not an earthscape slot (the slots: {', '.join(self.slots)})"
            if s.slots[self.slots.index(p["at"])]:
                return f"the earthscape slot at {p['at']} is filled already"
        return None

    def _spire_refusal(self, s: CloudspireState, f: int, action: Action) -> str | None:
        """Why a construct or upgrade is refused (build phase or limited build)."""
        side, name, p, cat = s.sides[f], self.faction_of[f].name, action.params, self.catalogue
        if action.type == "construct":
            kind = cat.spires.get(p["spire"])
            if kind is None or side.spire_stock[self.spire_index[kind.id]] <= 0:
                what = kind.name if kind is not None else repr(p["spire"])
                return f"{name} has no {what} left in its barracks to construct"
            if not kind.merc and kind.cost > side.source:
                return f"the {kind.name} costs {kind.cost} Source and {name} has {side.source}"
            if p["order"] not in self.start_orders[kind.id]:
                orders = ", ".join(self.start_orders[kind.id])
                return (f"the {kind.name}'s starting upgrades stack in one of the orders "
                        f"{orders}, not {p['order']!r}")
            if p["at"] not in self.wells(s):
                return f"{p['at']} is not a Source well: spires stand on wells"
            if p["at"] in self.occupied(s):
                return f"the well at {p['at']} is taken (a spire or a unit stands on it)"
            group_of, _ = self.groups(s.slots)
            if group_of[p["at"]] not in self.influence(s, f):
                return (f"the well at {p['at']} ({group_of[p['at']]}) is not within "
                        f"{possessive(name)} influence: next to its gate, or holding or next "
                        "to one of its spires")
            return None
        spire = next((sp for sp in s.spires if sp.hex == p["at"]), None)
        if spire is None:
            return f"no spire stands at {p['at']}"
        if spire.owner != f:
            return f"the spire at {p['at']} is {possessive(self.faction_of[spire.owner].name)}"
        capacity = cat.spires[spire.kind].capacity
        if len(spire.upgrades) >= capacity:
            return f"the spire at {p['at']} is full: it takes {capacity} upgrades"
        if p["kind"] not in _UPGRADE_NAMES:
            return f"an upgrade is A (attack), R (range) or F (fortification), not {p['kind']!r}"
        cost = (self.numbers.fortification_cost if p["kind"] == "F"
                else len(spire.upgrades) + 1)
        if cost > side.source:
            return (f"{with_article(_UPGRADE_NAMES[p['kind']])} upgrade there costs {cost} "
                    f"Source and {name} has {side.source}")
        return None

    def _prep_refusal(self, s: CloudspireState, f: int, action: Action) -> str | None:
        side, name, p, kind = s.sides[f], self.faction_of[f].name, action.params, action.type
        if kind == "mark":
            if side.mark >= 0:
                return (f"{name} declared its mark already: "
                        f"{possessive(self.faction_of[side.mark].name)} gate")
            g = p["gate"]
            if not 0 <= g < self.factions:
                return f"there is no faction {g} (factions 0 to {self.factions - 1})"
            if g == f:
                return "the mark is an opposing gate, not the faction's own"
            if not self.opposed(f, g):
                return f"the mark is an opposing gate, and {self.faction_of[g].name} is an ally"
            return f"{possessive(self.faction_of[g].name)} gate has fallen"
        if side.mark < 0:
            return "every faction declares its mark before any stack is built: declare it first"
        if kind == "deploy":
            uid = p["unit"]
            unit = self.catalogue.units.get(uid)
            if unit is None:
                return f"the catalogue has no unit {uid!r}"
            i = self.unit_index[uid]
            if side.barracks[i] <= 0:
                return f"{name} has no {unit.name} left in its barracks"
            cost = 0 if unit.merc else unit.cost
            if cost > side.command:
                return (f"{with_article(unit.name)} costs {cost} command point"
                        f"{'' if cost == 1 else 's'} and {name} has {side.command} left")
            stack = side.stack
            last = stack[-1] if stack else None
            if unit.hero:
                if p["group"]:
                    return "heroes are never grouped"
                if unit.from_wave > s.wave:
                    return f"the {unit.name} may be selected from wave {unit.from_wave}"
                limit = self.hero_limit(s.wave)
                return (f"{limit} hero{'es' if limit > 1 else ''} at most in wave {s.wave}, and "
                        f"{name} has selected {side.heroes}")
            if last is not None and self.is_hero(last) and any(
                    not self.is_hero(b) for b in stack):
                return "heroes go before or after all minions, never between: the stack " \
                       "ends with a hero under its minions"
            if p["group"]:
                if last is None or self.is_hero(last):
                    return "a minion is grouped only with a minion directly above it"
                above = self.catalogue.units[last.members[-1]]
                return (f"a group is ordered by movement, lowest on top: {with_article(unit.name)}"
                        f" (movement {unit.levels[0].movement}) cannot go under "
                        f"{with_article(above.name)} (movement {above.levels[0].movement})")
        if kind == "equip":
            last = side.stack[-1] if side.stack else None
            if last is None or not self.is_hero(last):
                return "equipment goes under the hero just added to the stack"
            if last.equipment:
                return "the hero just added holds equipment already"
            gear = self.catalogue.equipment.get(p["item"])
            return f"{name} holds no {gear.name if gear else repr(p['item'])} to put under it"
        return None

    def _onslaught_refusal(self, s: CloudspireState, f: int, action: Action) -> str | None:
        kind, p, stage = action.type, action.params, s.stage
        cur = self.current_faction(s)
        name = self.faction_of[cur].name
        if stage == "fire":
            spire = s.firing[0]
            if kind != "target":
                return (f"the spire at {spire} fires now: its owner chooses its target before "
                        "anything else")
            return (f"{p['at']} holds no unit of {name} within range of the spire at {spire} "
                    f"(its targets: {', '.join(self.fire_targets(s, spire))})")
        stage_of = {"construct": "move", "upgrade": "move", "move": "move", "march": "move",
                    "end_move": "move", "target": "fire", "explore": "explore",
                    "reveal": "explore", "leave": "explore", "end_explore": "explore",
                    "attack": "attack", "end_turn": "attack"}
        home = stage_of.get(kind)
        order = STAGES[1:]
        if home and home != stage:
            when = "is over" if order.index(home) < order.index(stage) else "comes later"
            return f"this is the {stage} stage of {possessive(name)} turn: the {home} stage {when}"
        if stage == "move":
            return self._move_refusal(s, cur, action)
        if stage == "explore":
            if s.exploring >= 0:
                where = s.landmarks[s.exploring].hex
                return f"{name} looks at the landmark at {where}: reveal it or leave it first"
            if kind in ("reveal", "leave"):
                return "no landmark is being looked at: explore one first"
            lm = next((lm for lm in s.landmarks if lm.hex == p["at"]), None)
            if lm is None:
                return f"there is no landmark at {p['at']}"
            if lm.revealed:
                return f"the landmark at {p['at']} is revealed already"
            if lm.explored:
                return f"the landmark at {p['at']} was explored this turn: once a turn"
            return f"no unit of {name} stands next to the landmark at {p['at']}"
        if stage == "attack":
            attacks, must = self.attacks(s, cur)
            if kind == "end_turn":
                minion = next(a.at for a in attacks if not self.is_hero(
                    next(u for u in s.units if u.hex == a.at)))
                return f"minions must attack when they can: the minion at {minion} has a target"
            unit = next((u for u in s.units if u.hex == p["at"]), None)
            if unit is None or unit.owner != cur:
                return f"no unit of {name} stands at {p['at']}"
            if unit.attacked:
                return f"the unit at {p['at']} attacked already this turn: once a turn"
            if self.is_hero(unit) and self.campfire(s, cur):
                return f"{possessive(name)} heroes rest in campfire mode until the wave ends"
            if p["target"] not in self.neighbours.get(p["at"], ()):
                return f"{p['target']} is not next to {p['at']}: attacks are on adjacent hexes"
            return (f"nothing at {p['target']} may be attacked by {name}: targets are opposing "
                    "units, spires and standing gates, and revealed landmarks with health")
        return None

    def _move_refusal(self, s: CloudspireState, cur: int, action: Action) -> str | None:
        kind, p = action.type, action.params
        name = self.faction_of[cur].name
        if kind in ("construct", "upgrade"):
            if s.marched or any(u.moved for u in s.units if u.owner == cur):
                return "limited builds come at the start of the turn, before anything moves"
            if s.sides[cur].limited_builds >= self.numbers.limited_builds:
                return (f"{name} has made its {self.numbers.limited_builds} limited builds of "
                        "this onslaught")
            return self._spire_refusal(s, cur, action)
        forced = None if self.campfire(s, cur) else self.forced_hero(s, cur)
        forced_moves = self.hero_moves(s, forced, self.gate_hexes[cur]) if forced else []
        if forced_moves and kind != "move":
            return "the hero on top of the stack must move first (minions are under it)"
        if kind == "march":
            return f"{possessive(name)} minions have marched already this turn"
        if kind == "end_move":
            return f"{possessive(name)} minions march before the movement stage ends"
        if kind != "move":
            return None
        if self.campfire(s, cur):
            return f"{possessive(name)} heroes rest in campfire mode until the wave ends"
        gate = self.gate_hexes[cur]
        if forced_moves and p["at"] != gate:
            return "the hero on top of the stack must move first (minions are under it)"
        if p["at"] == gate and not any(u.hex == gate for u in s.units):
            stack = s.sides[cur].stack
            if not stack or not self.is_hero(stack[0]):
                return f"no hero of {name} waits on top of the stack at its gate {gate}"
            if not forced:
                return ("a hero on top of the stack with no minions under it leaves the stack "
                        "after the march")
            band, start = stack[0], gate
        else:
            found = next((u for u in s.units if u.hex == p["at"]), None)
            if found is None or found.owner != cur:
                return f"no unit of {name} stands at {p['at']}"
            band = found
            if not self.is_hero(band):
                return "minions are not moved by hand: they march"
            if band.moved:
                return f"the hero at {p['at']} has moved already this turn"
            start = p["at"]
        _, _, movement, terrain = self.stats(band)
        return (f"{p['to']} is not within the hero's movement ({movement}) from {start} over "
                f"{'any hex' if terrain == 'sky' else 'ground'} through free hexes")

    def _market_refusal(self, s: CloudspireState, f: int, action: Action) -> str | None:
        side, p = s.sides[f], action.params
        if action.type == "buy":
            slot = p["slot"]
            if not 0 <= slot < len(s.market):
                return f"the market has slots 0 to {len(s.market) - 1}, not {slot}"
            if not s.market[slot]:
                return f"market slot {slot} is empty (its deck ran out)"
            chip = self.catalogue.chips[s.market[slot]]
            if chip.cost > side.source:
                return (f"the {chip.name} costs {chip.cost} Source and "
                        f"{self.faction_of[f].name} has {side.source}")
        if action.type == "buy_earthscape":
            if not s.earthscape_offer:
                return "no earthscape lies face up (the earthscape deck ran out)"
            if self.earthscape_bought(s, f):
                if not self.new_rulings:
                    return (f"{self.faction_of[f].name} bought an earthscape this wave "
                            "(one per faction a wave, with rulings 1)")
                buyer = next(g for g, sd in enumerate(s.sides) if sd.earthscape_bought)
                return ("only one earthscape may be bought per wave, and "
                        f"{self.faction_of[buyer].name} bought this wave's")
            cost = self.numbers.earthscape_cost
            if cost > side.source:
                return (f"the earthscape costs {cost} Source and {self.faction_of[f].name} "
                        f"has {side.source}")
        return None

    def describe_action(self, s: CloudspireState, action: Action) -> str:
        who = self.faction_of[s.actor].name if 0 <= s.actor < self.factions else "?"
        return (f"{who}: {self.action_text(s, action)}"
                + self._then(s, action))  # type: ignore[arg-type]

    def action_text(self, s: CloudspireState, action: Action) -> str:
        """An action in words, naming chips, spires, units, structures, earthscapes and
        equipment by the catalogue's names (str(action) knows only their ids)."""
        p, kind, cat = action.params, action.type, self.catalogue

        def named(table: dict[str, Any], key: Any) -> str:
            entry = table.get(key)
            return entry.name if entry is not None else str(key)

        def on(hex_: Any) -> str:
            unit = next((u for u in s.units if u.hex == hex_), None)
            return cat.units[unit.members[0]].name if unit is not None else "unit"

        if kind == "buy" and isinstance(p["slot"], int) and 0 <= p["slot"] < len(s.market) \
                and s.market[p["slot"]]:
            return f"buy {named(cat.chips, s.market[p['slot']])} from market slot {p['slot']}"
        if kind == "buy_earthscape" and s.earthscape_offer:
            return f"buy the earthscape {named(cat.earthscapes, s.earthscape_offer)}"
        if kind == "construct":
            order = ", ".join(_UPGRADE_NAMES.get(u, u) for u in p["order"])
            return (f"construct {with_article(named(cat.spires, p['spire']))} at {p['at']} with "
                    f"its upgrades {order} (bottom first)")
        if kind == "upgrade":
            spire = next((sp for sp in s.spires if sp.hex == p["at"]), None)
            where = f"the {named(cat.spires, spire.kind)}" if spire else "the spire"
            upgrade = with_article(_UPGRADE_NAMES.get(p["kind"], "?"))
            return f"add {upgrade} upgrade to {where} at {p['at']}"
        if kind == "advance":
            structures = {st.id: st for fac in cat.factions for st in fac.structures}
            return f"advance the {named(structures, p['structure'])}"
        if kind == "place":
            return f"place the earthscape {named(cat.earthscapes, p['earthscape'])} at {p['at']}"
        if kind == "mark" and isinstance(p["gate"], int) and 0 <= p["gate"] < self.factions:
            return f"declare {possessive(self.faction_of[p['gate']].name)} gate the mark"
        if kind == "deploy":
            return (f"add {with_article(named(cat.units, p['unit']))} to the stack"
                    + (" (grouped with the minion above)" if p["group"] else ""))
        if kind == "equip":
            return f"put the {named(cat.equipment, p['item'])} under the hero"
        if kind == "target":
            return f"fire at the {on(p['at'])} at {p['at']}"
        if kind == "attack":
            return f"the {on(p['at'])} at {p['at']} attacks {p['target']}"
        return str(action)

    def hidden_text(self, s: CloudspireState, action: Action, seat: int | None) -> str | None:
        """Other seats read that a chip went into a stack, not which, where or grouped how (a
        unit grouped and equipment under a hero look alike to them); only the explorer reads
        the landmark face it drew."""
        if action.type in ("deploy", "equip") and seat != s.actor:
            who = self.faction_of[s.actor].name if 0 <= s.actor < self.factions else "?"
            return f"{who}: add a chip to the stack, face down"
        if action.type == "draw" and s.draw == "face":
            explorer = self.current_faction(s)
            if seat != explorer:
                where = s.landmarks[s.exploring].hex if s.exploring >= 0 else "?"
                return (f"drew the face of the landmark at {where} (only "
                        f"{self.faction_of[explorer].name} sees it)")
        return None


def _by_wave(table: tuple[int, ...], step: int, wave: int) -> int:
    if wave <= len(table):
        return table[wave - 1]
    return table[-1] + step * (wave - len(table))


def _orders(upgrades: str) -> tuple[str, ...]:
    """Every distinct order of a spire's starting upgrades, the given one first."""
    others = sorted({"".join(p) for p in itertools.permutations(upgrades)} - {upgrades})
    return (upgrades, *others)


def _outcomes(items: tuple[Any, ...]) -> list[tuple[Any, float]]:
    counts: dict[Any, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    total = len(items)
    return [(item, n / total) for item, n in sorted(counts.items())]


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


__all__ = ["CloudspireAction", "CloudspireRules"]
