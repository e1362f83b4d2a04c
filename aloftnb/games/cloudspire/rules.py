"""Cloudspire: tower defense in waves, for 1-4 players (docs/rules/cloudspire.md).

This module holds the options, the set-up, the protocol the core calls and `FLOW`, the turn
structure: a game is `waves` waves, and each wave runs the six phases in the order FLOW
declares them: event (from wave 2), income, market, build, prep and onslaught (its turns run
through the stages move, fire, explore and attack). Where the rules of each part are:

    phases/market.py   event, income and market      phases/build.py   the build phase
    phases/prep.py     marks and deployment stacks   phases/onslaught.py  onslaught turns
    phases/march.py    hero moves, minion marches    fights.py  damage, attacks, the end
    map.py             ground, distances, influence  bot_faction.py  the faction the rules play
    checks.py          a state's invariants          texts.py  sentences, click paths
    views.py           what each seat sees           actions.py, state.py  actions, records

The map, factions and numbers are data (catalogue.py reads data/catalogue.json or a designer's
own). Every draw (event, market chip, earthscape, landmark face) and every spire die is a chance
step with explicit outcomes. Prep choices are hidden commitments made in turn: only the top of
each deployment stack is open. The rules decide whatever the text leaves to the rules (minion
marches, automatic single choices) so a seat only clicks real choices. Rulings are marked
RULING and listed in the rules page with the test that pins each.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar

from ...core.action import Action
from ...core.catalogues import CatalogueRules
from ...core.compiled import method, python_class
from ...core.flow import ONCE_EACH, OVER, UNTIL_ALL_PASS, Flow, Phase, Stage, custom
from ...core.options import Option, int_between
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...errors import InvalidOptions, InvalidState
from ...kit.hexgrid import hex_grid
from . import bot_faction, checks, fights, texts, units, views
from . import map as map_rules
from .actions import ACTIONS, CHANCE_TYPES, A, CloudspireAction, draw
from .catalogue import CATALOGUE, DIFFICULTY_LEVELS, Catalogue
from .map import FAR
from .phases import build, market, onslaught, prep
from .phases.onslaught import (
    on_attack,
    on_end_explore,
    on_end_move,
    on_end_turn,
    on_explore,
    on_face,
    on_limited_build,
    on_look,
    on_march,
    on_move,
    on_roll,
    on_target,
)
from .state import (
    CHANCE,
    EMPTY,
    NOBODY,
    CloudspireState,
    Landmark,
    Side,
)
from .texts import THEN
from .work import Work

MODES = ("competitive", "solo", "cooperative")

FLOW = Flow(
    phases=(
        Phase("event", actions=("draw",), begin=market.begin_wave, on=market.on_event,
              next="income", text="the wave's turn order; from wave 2 an event card is drawn"),
        Phase("income", begin=market.begin_income, next=market.after_income,
              text="every faction gains Source and command points"),
        Phase("market", actions=("draw", "buy", "buy_earthscape", "pass"), turns=ONCE_EACH,
              begin=market.begin_market, legal=market.decisions,
              on={"draw": market.on_refill, "buy": market.on_market,
                  "buy_earthscape": market.on_market, "pass": market.on_market},
              next="build", text="buy one chip or the earthscape, or pass"),
        Phase("build", actions=("construct", "upgrade", "advance", "place", "decline", "pass"),
              turns=UNTIL_ALL_PASS, begin=build.begin_build, legal=build.decisions,
              on=build.on_build, next="prep",
              text="construct, upgrade, advance or place an earthscape, a thing a turn"),
        Phase("prep", actions=("mark", "deploy", "equip", "ready"),
              turns=custom("in turn order every faction declares its mark, then in turn order "
                           "each builds its deployment stack"),
              begin=prep.begin_prep, legal=prep.decisions, on=prep.on_prep, next="onslaught",
              text="declare a mark, then build a hidden deployment stack"),
        Phase("onslaught", turns=custom("in turn order, round after round, each faction with "
                                        "units in play, until no minion is left or the round "
                                        "limit"),
              begin=onslaught.begin_onslaught, next="event",
              text="turns of four stages; the wave ends when the minions are gone",
              stages=(
                  Stage("move", actions=("construct", "upgrade", "move", "march", "end_move"),
                        legal=onslaught.move_decisions,
                        on={"construct": on_limited_build, "upgrade": on_limited_build,
                            "move": on_move, "march": on_march, "end_move": on_end_move},
                        text="limited builds, then heroes move and minions march"),
                  Stage("fire", actions=("target", "roll"), begin=onslaught.begin_fire,
                        legal=onslaught.fire_decisions,
                        on={"target": on_target, "roll": on_roll},
                        text="opposing spires fire at the faction's units"),
                  Stage("explore", actions=("explore", "reveal", "leave", "end_explore", "draw"),
                        begin=onslaught.continue_explore, legal=onslaught.explore_decisions,
                        on={"explore": on_explore, "draw": on_face, "reveal": on_look,
                            "leave": on_look, "end_explore": on_end_explore},
                        text="look at face-down landmarks next to its units"),
                  Stage("attack", actions=("attack", "end_turn"),
                        begin=onslaught.continue_attack, legal=onslaught.attack_decisions,
                        on={"attack": on_attack, "end_turn": on_end_turn},
                        text="units attack adjacent opposing pieces"),
              )),
    ),
    stage_field="stage",
    # A finished game records OVER in its phase; it ended in an onslaught.
    ended=OVER, ended_phase="onslaught",
    draft=Work,
    settle=Work.freeze,
    # Onslaught rounds counted through the game (the phases before an onslaught belong to its
    # first round), so every faction has acted in a round before the next begins.
    rounds=lambda rules, s: s.rounds_played + max(1, s.round),
)
# The refusals of each phase's decisions (why_illegal).
_REFUSALS = {"market": market.refusal, "build": build.refusal, "prep": prep.refusal,
             "onslaught": onslaught.refusal}


def _faction_list(value: Any) -> str | None:
    """The shape of the factions option (the rules check the ids against the catalogue)."""
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        return "must be a list of 1 to 4 faction ids"
    if not all(isinstance(name, str) for name in value):
        return "must list faction ids (text)"
    return None


@python_class
class CloudspireRules(CatalogueRules[Catalogue], Rules[CloudspireState, CloudspireAction]):
    name = "cloudspire"
    title = "Cloudspire"
    summary = ("Tower defense in waves: advance your fortress, build spires, hire mercenaries "
               "and send minions and heroes at the opposing gates.")
    traits = Traits(player_counts=(1, 2, 3, 4), chance="explicit", information="imperfect",
                    utility="scores", simultaneous=True)
    flow = FLOW
    actions = ACTIONS  # action_class, action_types, parse_action, str() and the numbering
    state_class = CloudspireState
    derived_keys = ("board",)  # worked out from the rest (the map, stats); Match.edit drops it
    # 2: a finished game's phase is "over" (core.flow.OVER); form 1 kept the phase it ended in
    # and marked the end by its actor alone (upgrade_state_dict).
    state_form = 2
    encoding = "aloftnb.games.cloudspire.encoding"
    game_catalogue = CATALOGUE  # the catalogue option; saves hold its data
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
        "rulings": Option("rulings", 2, "which rulings apply: 2, the current ones; 1, the "
                          "rulings as they were before the rules audit of November 2026, when "
                          "a displaced hero could be pushed onto the sky, a land minion "
                          "revealed on the sky stayed there, each faction could buy an "
                          "earthscape every wave and a unit on the sky was out of every "
                          "spire's range (saves written before this option load with 1 and "
                          "replay as they were played)",
                          choices=(1, 2), older_saves=1),
        "difficulty": Option("difficulty", "normal", "solo and cooperative games: how strong "
                             "the faction the rules play is (easy, normal, hard; learning is "
                             "the opponent of saves written before the option: no help)",
                             choices=("learning",) + DIFFICULTY_LEVELS, older_saves="learning"),
        "factions": Option("factions", None, "the catalogue faction each faction in play "
                           "fields, by id: one per seat, then the faction the rules play in "
                           "solo and cooperative games", check=_faction_list,
                           default_note="the catalogue's lineup for the mode and seats",
                           quiet_default=True),
        # Quiet: simulation rows keep their old form (a 3- or 4-player competitive row recorded
        # before it replays on the new gates, as after any change of the shipped data).
        "gate_layout": Option("gate_layout", "balanced", "where the gates stand and who sits "
                              "at them in competitive games: balanced, the map's "
                              "competitive_gates (chosen in the balance pass of November 2026 "
                              "so that every seat wins about as often; a count they leave out "
                              "uses the map's gates) and the catalogue's lineups; original, the "
                              "map's gates and the first two factions in turn, as every game "
                              "was set up before that pass (saves written before the option "
                              "load with it). Solo and cooperative games always use the map's "
                              "gates",
                              choices=("balanced", "original"), older_saves="original",
                              quiet_default=True),
        "catalogue": CATALOGUE.option("map, factions, market, events and landmarks: a dict or "
                                      "a JSON file path"),
    }

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        opts = self.options
        # Saves record the catalogue the match was made with (None: the shipped one).
        self.load_catalogue()
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
        # RULING (competitive gates): competitive games stand on the map's own competitive
        # gates where it lists them (the 3- and 4-player gates of the original layout favoured
        # some seats); solo and cooperative games, whose difficulty levels were
        # tuned on them, and gate_layout "original" (older saves) on the map's gates.
        gates = cat.map.gates
        if (self.mode == "competitive" and opts["gate_layout"] == "balanced"
                and self.factions in cat.map.competitive_gates):
            gates = cat.map.competitive_gates
        if self.factions not in gates:
            raise InvalidOptions(f"catalogue: map.gates has no entry for {self.factions} "
                                 "factions")
        self.waves = opts["waves"]
        self.simplified = opts["variant"] == "simplified"
        self.round_limit = opts["onslaught_rounds"]
        # Rule changes are gated (docs/saves.md): 1 plays the rulings saves written before the
        # option were played by, 2 (the default) the current ones. See `self.new_rulings`.
        self.new_rulings = opts["rulings"] >= 2
        self.numbers = cat.numbers
        self.faction_of = self._factions_in_play(opts["factions"])
        # RULING (difficulty): at a level the catalogue tunes, the faction the rules play gains
        # what the level gives it for this many seats (catalogue `difficulty`); `learning`
        # (and a level the catalogue leaves out) gives nothing, as before the option.
        level = cat.difficulty.get(opts["difficulty"], {}) if self.bots else {}
        self.level = {key: values[self.players - 1] for key, values in level.items()}
        self.gate_hexes = gates[self.factions]
        self.gate_of_hex = {h: f for f, h in enumerate(self.gate_hexes)}
        # The pieces numbered (barracks, spire stocks, the actions' numbering): with lineups,
        # the factions' in play and the mercs; a catalogue written before lineups numbers every
        # faction's, as it did, so its games and saves stay as they were.
        ids = {fac.id for fac in (self.faction_of if cat.lineups else cat.factions)}
        self.numbered = tuple(fac for fac in cat.factions if fac.id in ids)
        self.unit_ids = tuple(u for u, k in cat.units.items() if k.merc or k.faction in ids)
        self.unit_index = {u: i for i, u in enumerate(self.unit_ids)}
        self.spire_ids = tuple(k for k, sp in cat.spires.items() if sp.merc or sp.faction in ids)
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
        # units.py's tables: the hero kinds, each (unit, level, equipment)'s numbers, caps.
        self.hero_units = frozenset(u for u, k in cat.units.items() if k.hero)
        self._stats: dict[tuple[str, int, str], tuple[int, int, int, str]] = {}
        self._caps: dict[tuple[str, tuple[int, ...]], int] = {}  # by faction, advancements
        # (a state, its decisions) as the action that made the state found them (Work.legal).
        self._known_legal: tuple[CloudspireState | None, list[CloudspireAction]] = (None, [])
        # The spire die's outcomes, made once: a die is rolled on most onslaught steps.
        self._rolls = [(A("roll", pips=v), p) for v, p in _outcomes(self.numbers.spire_die)]
        self._allies = tuple(frozenset(range(self.players)) if (
            self.mode == "cooperative" and f < self.players) else frozenset({f})
            for f in range(self.factions))

    def _factions_in_play(self, chosen: list[str] | None) -> tuple[Any, ...]:
        """The catalogue faction of each faction in play: the `factions` option's, checked
        against the catalogue, or by default the catalogue's lineup (else its factions in turn)."""
        listed = self.catalogue.factions
        if chosen is None:
            # RULING (default lineups): the catalogue's lineup for the mode and seats, if it
            # names one; otherwise seats take its factions in turn (seat 0 the first). The
            # original competitive layout (saves written before the lineups existed) takes the
            # first two factions in turn, as every competitive game did then.
            lineup = self.catalogue.lineups.get(self.mode, {}).get(self.players)
            if self.mode == "competitive" and self.options["gate_layout"] == "original":
                lineup = None if lineup is None else tuple(listed[f % 2].id for f in
                                                           range(self.factions))
            if lineup is None:
                return tuple(listed[f % len(listed)] for f in range(self.factions))
            chosen = list(lineup)
        if len(chosen) != self.factions:
            who = "" if self.factions == self.players else " (the seats, then the rules' own)"
            raise InvalidOptions(f"option factions names {len(chosen)} faction(s); this game has "
                                 f"{self.factions}{who}")
        by_id = {fac.id: fac for fac in listed}
        for name in chosen:
            if name not in by_id:
                known = ", ".join(by_id)
                raise InvalidOptions(f"option factions: the catalogue has no faction "
                                     f"{name!r:.40} (its factions: {known})")
        return tuple(by_id[name] for name in chosen)

    @classmethod
    def player_counts(cls) -> str:
        return "competitive 2-4, solo 1, cooperative 2-3"

    def max_length(self) -> int:
        cat, n, f = self.catalogue, self.numbers, self.factions
        units = sum(cat.units[u].copies for u in self.unit_ids if not cat.units[u].merc) + sum(
            c.copies for c in cat.chips.values() if c.type in ("minion", "hero"))
        cap = n.source_cap + max(sum(a.source_cap for s in fac.structures for a in s.advancements)
                                 for fac in self.numbered)
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
                 1 if u.faction == fac.id else 0) for u in (cat.units[i] for i in self.unit_ids))
            stock = tuple(s.copies if s.faction == fac.id else 0
                          for s in (cat.spires[i] for i in self.spire_ids))
            # RULING (first-player edge): later seats start with a little more Source.
            source = n.starting_source + n.later_seat_source * f + self.helped(f, "starting_source")
            gate = n.gate_health + self.helped(f, "gate_health")
            sides.append(Side(fac.id, source, gate, barracks,
                              (0,) * len(self.unit_ids), stock, (), (),
                              (0,) * len(fac.structures), -1, 0, 0, (), False, False, 0,
                              (0, 0, 0), 0, 0, 0, (), False))
        landmarks = tuple(Landmark(h, "", False, 0, (False,) * self.factions, False, False)
                          for h in cat.map.landmarks)
        s = CloudspireState(
            rules=self, wave=1, phase="event", actor=0, order=(), turn=0, round=0,
            rounds_played=0, stage="", marched=False, sides=tuple(sides), units=(), spires=(),
            landmarks=landmarks,
            slots=(EMPTY,) * len(self.slots), event="", event_deck=cat.deck(cat.events),
            market_deck=cat.deck(cat.chips), market=(EMPTY,) * self.market_slots,
            earthscape_deck=cat.deck(cat.earthscapes), earthscape_offer=EMPTY,
            face_pool=cat.deck(cat.faces), draw="", refills=(), firing=(), target="", dice=0,
            damage=0, exploring=-1, placed="", winners=(), reason="")
        w = Work(s)
        FLOW.enter(self, w, "event")
        return bot_faction.play_bots(self, w.freeze())

    # -- whose turn, the end -------------------------------------------------------------------
    def current_player(self, s: CloudspireState) -> int | None:
        return None if s.phase == OVER else s.actor

    def is_over(self, s: CloudspireState) -> bool:
        return s.phase == OVER

    def scores(self, s: CloudspireState) -> dict[int, float]:
        return {seat: float(s.sides[seat].gate) for seat in range(self.players)}

    def outcome(self, s: CloudspireState) -> Outcome | None:
        if s.phase != OVER:
            return None
        return Outcome(s.winners, self.scores(s), s.reason)

    # -- catalogue lookups ---------------------------------------------------------------------
    def income(self, wave: int) -> int:
        return _by_wave(self.numbers.income, self.numbers.step_after_last, wave)

    def command(self, wave: int) -> int:
        return _by_wave(self.numbers.command, self.numbers.step_after_last, wave)

    def bonus(self, side: Side, field: str) -> int:
        """The sum of `field` over the fortress advancements a side has bought."""
        fac = self._faction(side)
        return sum(getattr(adv, field) for st, bought in zip(fac.structures, side.advancements)
                   for adv in st.advancements[:bought])

    def helped(self, f: int, field: str) -> int:
        """What the difficulty level gives faction `f` in `field` (only the rules' faction)."""
        return self.level.get(field, 0) if f in self.bots else 0

    def _faction(self, side: Side) -> Any:
        for faction in self.catalogue.factions:
            if faction.id == side.faction:
                return faction
        raise KeyError(f"the catalogue has no faction {side.faction!r:.40}")

    # -- units (units.py), the map (map.py), each phase's questions, the rules' faction ----------
    # (method(): a compiled function does not bind `self` as a Python function does)
    stats = method(units.stats)
    is_hero = method(units.is_hero)
    opposed = method(units.opposed)
    source_cap = method(units.source_cap)
    land = method(map_rules.land)
    passable = method(map_rules.passable)
    mark_distance = method(map_rules.mark_distance)
    range_distance = method(map_rules.range_distance)
    groups = method(map_rules.groups)
    influence = method(map_rules.influence)
    wells = method(map_rules.wells)
    occupied = method(map_rules.occupied)
    earthscape_bought = method(market.earthscape_bought)
    upgrade_cost = method(build.upgrade_cost)
    well_problem = method(build.well_problem)
    mark_options = method(prep.mark_options)
    hero_limit = method(prep.hero_limit)
    current_faction = method(onslaught.current_faction)
    campfire = method(onslaught.campfire)
    hero_moves = method(onslaught.hero_moves)
    forced_hero = method(onslaught.forced_hero)
    explorable = method(onslaught.explorable)
    targets_of = method(onslaught.targets_of)
    attacks = method(onslaught.attacks)
    fire_targets = method(fights.fire_targets)
    bot_choice = method(bot_faction.bot_choice)

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, s: CloudspireState) -> list[tuple[CloudspireAction, float]]:
        if s.draw == "die":
            return list(self._rolls)
        deck = {"event": s.event_deck, "market": s.market_deck,
                "earthscape": s.earthscape_deck, "face": s.face_pool}[s.draw]
        return [(draw(card), p) for card, p in _outcomes(deck)]

    def chance_deck(self, s: CloudspireState) -> tuple[Any, ...]:
        if s.draw == "die":
            return tuple(self.numbers.spire_die)
        return {"event": s.event_deck, "market": s.market_deck,
                "earthscape": s.earthscape_deck, "face": s.face_pool}.get(s.draw, ())

    # -- legal actions and applying them ---------------------------------------------------------
    def legal_actions(self, s: CloudspireState) -> list[CloudspireAction]:
        """The decisions FLOW declares for the phase and stage (as Rules derives them, reading
        the actor once: this is the fast path), or the chance outcomes at a chance step."""
        if s.actor >= 0:
            known, acts = self._known_legal
            if known is s:  # found by the action that led here (Work.legal)
                return list(acts)
            return FLOW.legal(self, s, s.actor)
        return [] if s.phase == OVER else [o for o, _ in self.chance_outcomes(s)]

    def apply(self, s: CloudspireState, action: Action) -> CloudspireState:
        return bot_faction.play_bots(self, self._apply_one(s, action))

    def _apply_one(self, s: CloudspireState, action: Action,
                   notes: list[str] | None = None) -> CloudspireState:
        """One action, by the handler its phase and stage declare in FLOW, on a draft; `notes`
        collects what the rules then do by themselves (texts.automatic_steps)."""
        w = Work(s)
        w.notes = notes
        FLOW.handler(s, action.type)(self, w, action)
        state: CloudspireState = w.freeze()
        if w.legal is not None:
            self._known_legal = (state, w.legal)
        return state

    # -- dict forms, views and hidden information ----------------------------------------------
    def check_state(self, s: CloudspireState) -> None:
        problem = checks.state_problem(self, s)
        if problem:
            raise InvalidState(f"cloudspire state: {problem}")

    def state_to_dict(self, s: CloudspireState) -> dict[str, Any]:
        return views.state_to_dict(self, s)

    def state_from_dict(self, data: Any) -> CloudspireState:
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k != "board"}  # worked out, not read
        return super().state_from_dict(data)

    def upgrade_state_dict(self, data: dict[str, Any], form: int) -> dict[str, Any]:
        """Form 1: a finished game (actor -2) kept the phase it ended in; it is now OVER."""
        if form < 2 and isinstance(data, dict) and data.get("actor") == NOBODY:
            data["phase"] = OVER
        return data

    def view(self, s: CloudspireState, seat: int | None) -> dict[str, Any]:
        return views.view(self, s, seat)

    def determinize(self, s: CloudspireState, seat: int, rng: random.Random
                    ) -> CloudspireState:
        return views.determinize(self, s, seat, rng)

    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    # -- parsing and refusals ------------------------------------------------------------------
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
        if s.phase == OVER:
            return f"the game is over ({s.reason})"
        if s.actor == CHANCE:
            return self._chance_refusal(s, action)
        if kind in CHANCE_TYPES:
            return (f"{'drawing cards' if kind == 'draw' else 'rolling the spire die'} is a "
                    f"chance step, not a decision: {self.faction_of[s.actor].name} is to play")
        refuse = _REFUSALS.get(s.phase)
        return refuse(self, s, s.actor, action) if refuse else None

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

    # -- words (texts.py) ----------------------------------------------------------------------
    def describe_action(self, s: CloudspireState, action: Action) -> str:
        return texts.describe_action(self, s, action)

    def describe_chance(self, s: CloudspireState, outcome: Action) -> str:
        return texts.describe_chance(self, s, outcome)

    def chance_choice_label(self, s: CloudspireState, outcome: Action) -> str:
        return texts.chance_choice_label(self, s, outcome)

    def hidden_text(self, s: CloudspireState, action: Action, seat: int | None) -> str | None:
        return texts.hidden_text(self, s, action, seat)

    def action_path(self, s: CloudspireState, action: Action) -> list[str]:
        return texts.action_path(self, s, action)

    action_text = texts.action_text
    automatic_steps = texts.automatic_steps
    where_text = texts.where_text
    doing_text = texts.doing_text
    result_text = texts.result_text


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


__all__ = ["FAR", "FLOW", "THEN", "CloudspireAction", "CloudspireRules"]

