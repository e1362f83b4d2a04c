"""Aloft, sky commodores: the rules of the 3X hex game whose map grows as players explore.

Rulings where the text is silent or unclear are marked RULING and listed, each with its test, in
docs/rules/commodores.md. The cards (ship types, goals, leviathans) are data: catalogue.py reads
data/catalogue.json or a designer's own catalogue. The state and its dict form are in state.py,
the sky's hex grid is aloftnb/kit/hexgrid.py's.

This module holds the options, the protocol methods and the turn structure (FLOW); each phase is
a module of its own (setup.py, forage.py, ships.py, with exploring in explore.py), as are the
goals (goals.py), the refusals (refusals.py), the texts (texts.py), the state's invariants
(checks.py), the actions (actions.py) and the small state updates the handlers share
(changes.py).

Randomness is drawn when it happens, through protocol v2's chance steps: the leviathans set aside,
the goals and ship types in play and the goal's number at set-up; the hex and the number token
drawn by each exploration. The face-down stacks hold counts, not an order: a draw picks a kind
with probability in proportion to what is left, as drawing the top of a shuffled stack does. The
only hidden information is which leviathans were set aside; bots determinize it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final

from ...core.action import Action
from ...core.catalogues import CatalogueRules
from ...core.chance import CHANCE, shuffle, weighted_choice
from ...core.compiled import python_class
from ...core.flow import Flow, Handler, Legal, Phase, Stage, custom
from ...core.options import Option, int_between
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...errors import IllegalAction, InvalidOptions
from ...kit.hexgrid import DIRECTIONS, hex_grid
from . import changes, checks, explore, forage, goals, refusals, setup, ships, texts
from .actions import ACTIONS, CommodoresAction, rulings_problem
from .catalogue import CATALOGUE, Catalogue
from .changes import new_hex
from .goals import CHECKED_STEPS, check_goals
from .state import (
    CHANCE_STEPS,
    DRAW_HEX,
    DRAW_NUMBER,
    FORAGE,
    FREE,
    GOAL,
    GOAL_NUMBER,
    OVER,
    PLACE,
    PLACE_HEX,
    SET_ASIDE,
    SHIP_TYPE,
    SHIPS,
    TAKE,
    TALLIES,
    CommodoresState,
    Hex,
    Ship,
    StateReader,
    state_to_dict,
)
from .tables import Tables

__all__ = ["FLOW", "CommodoresAction", "CommodoresRules"]

# Who acts in each phase: the game works it out (set-up by its steps, a turn by its seat).
SETUP_TURNS = custom("chance sets leviathans aside and draws the goals, the Beacon number and "
                     "the ship types; then each seat in seat order places its starter ship, "
                     "then each in seat order takes a free resource")
FORAGE_TURNS = custom("the seat whose turn it is calls the number; every seat's ships forage")
SHIPS_TURNS = custom("the seat whose turn it is acts with its ships one at a time, in the order "
                     "it picks; then the next seat's turn begins with its forage (the turn "
                     "limit, or a seat completing its goals, ends the game)")

# The turn structure. The state records only its step: each step is a stage of one phase (the
# stage names are the step values), and a finished game's step is OVER, in the ships phase.
# A chance stage lists its outcome types; chance_outcomes draws them. After every step the
# goals are checked (goals.after_step).
FLOW = Flow(
    phases=(
        Phase("setup", turns=SETUP_TURNS, begin=setup.skip_finished, next="forage",
              text="the table is set, the starters placed and a free resource taken",
              stages=(
                  Stage(SET_ASIDE, actions=("set_aside",), on=setup.on_set_aside),
                  Stage(GOAL, actions=("goal",), on=setup.on_goal),
                  Stage(GOAL_NUMBER, actions=("goal_number",), on=setup.on_goal_number),
                  Stage(SHIP_TYPE, actions=("ship_type",), on=setup.on_ship_type),
                  Stage(PLACE, actions=("place",), legal=setup.place_legal, on=setup.on_place),
                  Stage(FREE, actions=("free",), legal=setup.free_legal, on=setup.on_free),
              )),
        Phase("forage", turns=FORAGE_TURNS, next="ships",
              text="a turn begins: the forage number is called",
              stages=(
                  Stage(FORAGE, actions=("forage",), legal=forage.forage_legal,
                        on=forage.on_forage),
              )),
        Phase("ships", turns=SHIPS_TURNS, next="forage", text="the seat's ships act",
              stages=(
                  Stage(SHIPS, actions=("ship", "move", "explore", "terraform", "upgrade",
                                        "build", "plunder", "trade", "end_ship", "end_turn"),
                        legal=ships.ships_legal,
                        on={"ship": ships.on_ship, "move": ships.on_move,
                            "explore": explore.on_explore, "terraform": explore.on_terraform,
                            "upgrade": ships.on_upgrade, "build": ships.on_build,
                            "plunder": ships.on_plunder, "trade": ships.on_trade,
                            "end_ship": ships.on_end_ship, "end_turn": ships.on_end_turn},
                        text="pick a ship or end the turn; the ship acts, then ends"),
                  Stage(TAKE, actions=("take",), legal=ships.take_legal, on=ships.on_take,
                        text="plundering a rival's ship: take its resources one at a time"),
                  Stage(DRAW_HEX, actions=("hex",), on=explore.on_hex,
                        text="the top hex is drawn for an exploration or a terraform"),
                  Stage(DRAW_NUMBER, actions=("number",), on=explore.on_number,
                        text="a number token is drawn for the resource hex just placed"),
                  Stage(PLACE_HEX, actions=("place_hex",), legal=explore.place_hex_legal,
                        on=explore.on_place_hex,
                        text="from rulings 2 on: the explorer places the hex just drawn"),
              )),
    ),
    phase_field="", stage_field="step", ended=OVER, ended_phase="ships",
    rounds=ships.rounds, after=goals.after_step,
)


def _step_after(phase: str) -> str:
    """The step a game moves to when `phase` ends: the first stage of the phase FLOW says comes
    next (such a phase has no `begin`, so writing the step is all FLOW.end_phase would do)."""
    following = FLOW.phase_named(FLOW.next_phase(None, None, phase))
    assert following.begin is None and following.stages, following.name
    return following.stages[0].name


def _drawn_outcomes(rules: CommodoresRules, s: CommodoresState, seat: int
                    ) -> list[CommodoresAction]:
    return [outcome for outcome, _ in rules.chance_outcomes(s)]


def _nothing(rules: CommodoresRules, s: CommodoresState, seat: int) -> list[CommodoresAction]:
    return []


def _fast_tables() -> tuple[dict[str, Legal], dict[str, dict[str, Handler]]]:
    """From FLOW, per step: its legal-actions function (a chance step's draws; nothing once
    over) and its {action type: handler}, so the hot path finds each with one lookup."""
    legal: dict[str, Legal] = {OVER: _nothing}
    handlers: dict[str, dict[str, Handler]] = {OVER: {}}
    for phase in FLOW.phases:
        for stage in phase.stages:
            legal[stage.name] = stage.legal or phase.legal or _drawn_outcomes
            handlers[stage.name] = FLOW.handlers_of(phase.name, stage.name)
    return legal, handlers


# Final: the compiled build holds them in static variables, not among the module's names.
_FAST: Final = _fast_tables()
_LEGAL: Final = _FAST[0]
_HANDLERS: Final = _FAST[1]
_CHANCE_STEPS: Final = frozenset(CHANCE_STEPS)


@python_class
class CommodoresRules(CatalogueRules[Catalogue], Rules[CommodoresState, CommodoresAction]):
    name = "commodores"
    title = "Aloft, sky commodores"
    summary = ("Explore a growing sky of hexes, forage, fight leviathans and plunder rivals; "
               "the first commodore to complete three goals wins.")
    traits = Traits(player_counts=(2, 3, 4, 5), chance="explicit", information="imperfect",
                    utility="win_loss")
    flow: ClassVar[Flow] = FLOW  # phases, phase_actions, phase() and round() come from it
    # The step each phase hands on to, from FLOW: a handler ending a phase writes it in the same
    # change of state (a turn's hot path; FLOW.end_phase would copy the state once more).
    step_after: ClassVar[dict[str, str]] = {phase.name: _step_after(phase.name)
                                            for phase in FLOW.phases}
    encoding = "aloftnb.games.commodores.encoding"  # the adapters' observations
    actions = ACTIONS  # action_class, action_types, parse_action, str() and the numbering
    derived_keys = ("derived",)  # worked out from the rest; Match.edit drops it
    state_form = 2  # 2: "drawn" (the hex waiting to be placed, rulings 2) joined the dict
    game_catalogue = CATALOGUE  # the catalogue option; saves hold its data
    option_spec: ClassVar[dict[str, Option]] = {
        "catalogue": CATALOGUE.option("ship types, goals, leviathans, hexes and supplies: a "
                                      "dict or a JSON file path"),
        "turn_limit": Option("turn_limit", 40, "rounds after which the game stops (most goals "
                             "wins; nobody if nobody has a goal)", check=int_between(1, 500)),
        "radius": Option("radius", 4, "how far from the centre hexes may be placed (the table's "
                         "edge)", check=int_between(2, 8)),
        "two_players": Option("two_players", False, "allow a 2-player game (the text says 3-5)",
                              choices=(False, True)),
        # A designer's compensation for playing later (not in the text): at 0 the text's set-up.
        "catch_up": Option("catch_up", 0, "later seats start with more: seat k takes "
                           "1 + (k x catch_up + 1) // 2 free resources at set-up (0: one each, "
                           "as the text says)", check=int_between(0, 4), quiet_default=True),
        # Rule changes after saves were written: a save keeps the rulings it was played by
        # (those written before this option replay with 1); new matches get the current ones.
        # The rules page lists what each value changed.
        "rulings": Option("rulings", 3, "which rulings apply: 3, the current ones; 2, those "
                          "played from the rules audit of November 2026 to December 2026, "
                          "under which a terraform could leave the centre merchant touching "
                          "no other hex; 1, those before that audit, under which an "
                          "exploration named its space before the hex was drawn, a felled "
                          "leviathan could be terraformed with the stack empty and a player "
                          "could record more than three goals (saves written before the "
                          "option load with 1 and replay as they were played)",
                          choices=(1, 2, 3), older_saves=1),
    }

    @classmethod
    def player_counts(cls) -> str:
        """The text's 3-5; two players only with the designer's option."""
        return "3-5 (2 with two_players=True)"

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        opts = self.options
        # RULING: a match keeps a catalogue file's contents, so saves load without the file; a
        # dict or a Path becomes a JSON copy (core/catalogues.py), None the shipped one.
        self.load_catalogue()
        low = 2 if opts["two_players"] else 3
        if not low <= self.players <= 5:
            extra = "" if low == 2 else " (2 with the option two_players=True)"
            raise InvalidOptions(f"sky commodores is for 3-5 players{extra}, not {self.players}")
        cat = self.catalogue
        if self.players > 6:
            raise InvalidOptions("the merchant hex has 6 corners: at most 6 starters")
        self.turn_limit = opts["turn_limit"]
        self.rulings = opts["rulings"]
        self.catch_up = opts["catch_up"]
        most = self.free_resources_of(self.players - 1)
        if most > cat.pool_cap * len(cat.free_resources):
            raise InvalidOptions(f"option catch_up={self.catch_up}: seat {self.players - 1} "
                                 f"would take {most} free resources, more than its tracker "
                                 "holds")
        # RULING: the sky has an edge: spaces lie within `radius` steps of the centre.
        self.geometry = geo = hex_grid(opts["radius"])
        self.kinds = cat.hex_kinds
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.resources = cat.resources
        self.res_index = {r: i for i, r in enumerate(self.resources)}
        self.leviathan_ids = tuple(lv.id for lv in cat.leviathans)
        self.types = {t.id: t for t in cat.ship_types}
        self.goal_cards = {g.id: g for g in cat.goals}
        self._goal_order = {g.id: i for i, g in enumerate(cat.goals)}
        # The stack before set-up: every hex but the centre and the ring.
        stack = dict.fromkeys(self.kinds, 0)
        for kind, count in cat.hexes:
            stack[kind] += count
        for lv in self.leviathan_ids:
            stack[lv] += 1
        for kind in [cat.centre] + [kind for kind, _ in cat.ring]:
            stack[kind] -= 1
            if stack[kind] < 0:
                raise InvalidOptions(f"catalogue: hexes has too few {kind} hexes for the centre "
                                     "and the ring")
        self.start_stack = tuple(stack[k] for k in self.kinds)
        tokens = list(cat.number_tokens)
        for _, number in cat.ring:
            tokens[number - 1] -= 1
            if tokens[number - 1] < 0:
                raise InvalidOptions(f"catalogue: number_tokens has too few {number}s for the "
                                     "ring")
        self.start_tokens = tuple(tokens)
        self.ring_spaces = tuple(geo.space_index[f"{dq},{dr}"] for dq, dr in DIRECTIONS)
        # The hot paths' lookups and the goals' tests (tables.py, goals.py).
        self.tables = Tables(self, goals.goal_tests(self))
        self._max_length = self._compute_max_length()

    def free_resources_of(self, seat: int) -> int:
        """How many free resources `seat` takes at set-up: 1, and half of catch_up more per seat
        before it, rounded up (RULING, a designer's option: the catch_up option)."""
        return 1 + (self.catch_up * seat + 1) // 2

    def max_length(self) -> int:
        """Set-up steps plus, per turn, the most steps a turn can take (see the rules page)."""
        return self._max_length

    def _compute_max_length(self) -> int:
        cat = self.catalogue
        setup = (cat.leviathans_set_aside + cat.goals_in_play + 1 + cat.ship_types_in_play
                 + self.players + sum(map(self.free_resources_of, range(self.players))))
        ships = cat.ships_per_player
        best_reward = max((max(lv.rewards) for lv in cat.leviathans), default=0)
        # Explorations: each pays a resource, so they are bounded by what a seat can hold plus
        # what it gains within the turn; drawing a leviathan repays its cost, at most once per
        # leviathan in the game plus once per ship that can fell one this turn.
        explores = (len(self.resources) * cat.pool_cap + ships * (best_reward + cat.max_plunder)
                    + len(self.leviathan_ids) + ships)
        per_ship = 8 + cat.max_plunder  # pick, move, upgrade, build, plunder+takes, trade, end
        # forage, end turn; per exploration the decision and two draws (and, under rulings 2,
        # placing the hex drawn)
        per_turn = 2 + ships * per_ship + (3 if self.rulings < 2 else 4) * explores
        return setup + self.turn_limit * self.players * per_turn

    # -- ship stats ----------------------------------------------------------------------------
    def stats(self, ship: Ship) -> tuple[int, int, int, bool]:
        """(move, forage, plunder, builds) of a ship with its upgrades."""
        return changes.stats(self.tables, ship)

    # -- the game ------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> CommodoresState:
        """The centre and the ring in place; set-up continues with chance steps (the seed is
        not used: every draw is a chance step the match resolves from its own seed)."""
        cat, geo = self.catalogue, self.geometry
        hexes: list[Hex | None] = [None] * len(geo.spaces)
        hexes[0] = new_hex(self, cat.centre, 0)
        for space, (kind, number) in zip(self.ring_spaces, cat.ring):
            hexes[space] = Hex(kind, number, 0)  # RULING: tokens 1-6 go clockwise from the NE
        n = self.players
        state = CommodoresState(
            self, "", 0, 0, tuple(hexes), self.start_stack, self.start_tokens, (), (), (),
            0, (), (), (), ((0,) * len(self.resources),) * n, ((),) * n, ((0,) * len(TALLIES),) * n,
            (False,) * n, cat.upgrade_cubes, False, -1, (), (), (), -1, 0, 0, "")
        return self.flow.enter(self, state, "setup")  # its first stage, set_aside


    def current_player(self, s: CommodoresState) -> int | None:
        if s.step == OVER:
            return None
        return CHANCE if s.step in _CHANCE_STEPS else s.player

    def is_over(self, s: CommodoresState) -> bool:
        return s.step == OVER

    # -- what a ship touches -------------------------------------------------------------------
    def occupied(self, s: CommodoresState) -> set[int]:
        return changes.occupied(s)

    def edges(self, s: CommodoresState, corner: int) -> list[int]:
        """Corners one edge away (changes.edges)."""
        return changes.edges(self.tables, s, corner)

    def touching(self, s: CommodoresState, corner: int) -> list[int]:
        """Spaces with a hex that meet at this corner."""
        hexes = s.hexes
        return [sp for sp in self.geometry.corner_spaces[corner] if hexes[sp] is not None]

    def destinations(self, s: CommodoresState, ship: Ship) -> list[int]:
        """Where a ship may move (ships.destinations)."""
        return ships.destinations(self, s, ship)

    def placements(self, s: CommodoresState) -> list[int]:
        """Rulings 2: where the hex just drawn may go (explore.placements)."""
        return explore.placements(self, s)

    # -- legal actions, chance and applying ----------------------------------------------------
    def legal_actions(self, s: CommodoresState) -> list[CommodoresAction]:
        """The step's legal-actions function, as FLOW declares it (one lookup: the hot path)."""
        return _LEGAL[s.step](self, s, s.player)

    def chance_outcomes(self, s: CommodoresState) -> list[tuple[CommodoresAction, float]]:
        step = s.step
        if step == SET_ASIDE:
            return setup.set_aside_outcomes(self, s)
        if step == GOAL:
            return setup.goal_outcomes(self, s)
        if step == SHIP_TYPE:
            return setup.ship_type_outcomes(self, s)
        if step == GOAL_NUMBER or step == DRAW_NUMBER:
            return explore.number_outcomes(self, s)
        if step == DRAW_HEX:
            return explore.hex_outcomes(self, s)
        raise IllegalAction("this is not a chance step: nothing is drawn now")

    def sample_chance(self, s: CommodoresState, rng: random.Random) -> CommodoresAction:
        """Rules.sample_chance, here so the compiled build calls chance_outcomes directly (the
        core's is a Python call on every chance step)."""
        return weighted_choice(self.chance_outcomes(s), rng)

    def apply(self, s: CommodoresState, action: Action) -> CommodoresState:
        """FLOW.apply, its handlers found with one lookup (the hot path): the handler of the
        action in this step, then the goal check (FLOW's after)."""
        handler = _HANDLERS[s.step].get(action.type)
        if handler is None:
            handler = self.flow.handler(s, action.type)  # raises InvalidGame: not in this step
        s = handler(self, s, action)
        if s.step in CHECKED_STEPS:  # goals.after_step, inlined
            s = check_goals(self, s)
        return s

    # -- goals and results ---------------------------------------------------------------------
    def goal_met(self, s: CommodoresState, seat: int, goal_id: str) -> bool:
        """Whether `seat` meets a goal in `s` (met or not, completed or not)."""
        return goals.goal_met(self, s, seat, goal_id)

    def scores(self, s: CommodoresState) -> dict[int, float]:
        return {seat: float(len(c)) for seat, c in enumerate(s.completed)}

    def outcome(self, s: CommodoresState) -> Outcome | None:
        if s.step != OVER:
            return None
        scores = self.scores(s)
        if s.end == "goals":
            seat = s.player
            names = [self.goal_cards[g].name for g in s.completed[seat]]
            return Outcome((seat,), scores, f"seat {seat} completed {len(names)} goals: "
                                            f"{', '.join(names)}")
        best = max(scores.values())
        # RULING: at the turn limit the most goals win (shared); with none, nobody wins.
        winners = tuple(seat for seat, v in scores.items() if v == best) if best > 0 else ()
        text = (f"most goals ({best:g})" if winners else "nobody completed a goal")
        return Outcome(winners, scores, f"the turn limit of {self.turn_limit} rounds was "
                                        f"reached: {text}")


    # -- parsing, refusals and descriptions ----------------------------------------------------
    def parse_action(self, data: Any) -> CommodoresAction:
        """As declared (ACTIONS), saying so when an action belongs to the other rulings."""
        try:
            return super().parse_action(data)
        except IllegalAction:
            problem = rulings_problem(self.rulings, data)
            if problem:
                raise IllegalAction(problem) from None
            raise

    def why_illegal(self, s: CommodoresState, action: Action) -> str:
        return refusals.why_illegal(self, s, action)

    def describe_action(self, s: CommodoresState, action: Action) -> str:
        return texts.describe_action(self, s, action)

    def action_text(self, s: CommodoresState, action: Action) -> str:
        """An action in words, naming the catalogue's ship types, upgrades, resources and
        leviathans (str(action) knows only their ids)."""
        return texts.action_text(self, s, action)

    def describe_chance(self, s: CommodoresState, outcome: Action) -> str:
        return texts.describe_chance(self, s, outcome)

    def chance_choice_label(self, s: CommodoresState, outcome: Action) -> str:
        return texts.chance_choice_label(self, s, outcome)

    def hex_text(self, kind: str) -> str:
        """A hex kind in words: "a wood hex", "a merchant hex", "a leviathan, Cindermaw,"."""
        return texts.hex_text(self, kind)

    # -- dict form, views and hidden information -----------------------------------------------
    def state_to_dict(self, s: CommodoresState) -> dict[str, Any]:
        return state_to_dict(self, s)

    def state_from_dict(self, data: Any) -> CommodoresState:
        return StateReader(self, data).read()

    def check_state(self, s: CommodoresState) -> None:
        """The invariants a state read from a dict must keep (checks.py)."""
        checks.check_state(self, s)

    def upgrade_state_dict(self, data: dict[str, Any], form: int) -> dict[str, Any]:
        """Form 1 had no "drawn" (no hex ever waited to be placed)."""
        if form < 2 and isinstance(data, dict):
            data.setdefault("drawn", None)
        return data

    def view(self, s: CommodoresState, seat: int | None) -> dict[str, Any]:
        """Nobody sees which leviathans were set aside, nor which are still in the stack."""
        data = state_to_dict(self, s)
        data["set_aside"] = ["hidden"] * len(s.set_aside)
        stack = data["stack"]
        unseen = 0
        for lv in self.leviathan_ids:
            unseen += stack.pop(lv)
        stack["leviathans"] = unseen
        return data

    def determinize(self, s: CommodoresState, seat: int, rng: random.Random) -> CommodoresState:
        """Resample which unseen leviathans were set aside and which are still in the stack."""
        unseen = list(s.set_aside)
        for lv, count in zip(self.kinds, s.stack):
            if lv in self.leviathan_ids and count and lv not in s.seen:
                unseen.append(lv)
        if len(unseen) <= len(s.set_aside) or not s.set_aside:
            return s
        shuffle(unseen, rng)  # rng.shuffle, compiled
        set_aside = tuple(unseen[:len(s.set_aside)])
        stack = list(s.stack)
        for lv in unseen:
            stack[self.kind_index[lv]] = 0 if lv in set_aside else 1
        for lv in self.leviathan_ids:  # seen ones in the stack stay where they are
            if lv in s.seen:
                stack[self.kind_index[lv]] = s.stack[self.kind_index[lv]]
        return changes.changed(s, set_aside=set_aside, stack=tuple(stack))

    # -- drawing and clicking ------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    def action_path(self, s: CommodoresState, action: Action) -> list[str]:
        """What a person clicks: ships, corners and spaces on the map; the rest are buttons."""
        return texts.action_path(self, s, action)
