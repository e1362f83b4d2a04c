"""Aloft, balloon festival: the options, the protocol and the turn structure.

Rulings where the texts are silent are marked RULING and listed in docs/rules/balloons.md.

Where the rest lives: the state, its dict form and the checks of a dict in state.py; the advance
phase (the fast path) in advance.py; the wind in wind.py; scoring in scoring.py; the action types
(fields, sentences, numbering) in actions.py; refusals, log sentences and click paths in texts.py;
the drawing in drawing.py.

Balloons are numbered in catalogue order (`rules.ids`); the sky is kept as one bitmask of occupied
columns per altitude, so the adjacency checks of the fast path are a few integer operations.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ...core.action import Action
from ...core.chance import sample, shuffle
from ...core.compiled import python_class
from ...core.flow import Flow, Phase, custom
from ...core.options import Option, _short_repr, int_between
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...errors import InvalidOptions
from . import advance, scoring, texts, wind
from .actions import ACTIONS, BalloonAction
from .state import (  # noqa: F401 (re-exported: this module is where the rules' names live)
    ADVANCE,
    ADVANCE_TYPES,
    BALLOON_COLOURS,
    CATALOGUE,
    COLOURS,
    FLYING,
    INFLATED,
    OVER,
    PACKED,
    STATUS_NAMES,
    UNPACKED,
    WIND,
    BalloonsState,
    load_catalogue,
    read_state,
    state_to_dict,
)
from .wind import fixed_wind  # noqa: F401 (re-exported: the balloons notebook imports it here)

# The turn structure. A turn is one advance (or a pass when no balloon can advance); in the choice
# edition it starts with a wind phase while a balloon flies. The fixed edition's wind blows by
# itself when a turn ends (advance.end_turn), so those games stay in the advance phase.
FLOW = Flow(
    phases=(
        Phase(ADVANCE, actions=ADVANCE_TYPES + ("pass",), legal=advance.legal, on=advance.PLAY,
              legal_indices=advance.legal_indices,
              turns=custom("each seat in turn from seat 0, one advance (or a pass) a turn"),
              text="unpack, inflate, launch or raise one balloon; the end of the turn decides "
                   "what follows (the game's end, the wind, the next seat)"),
        Phase(WIND, actions=("wind",), legal=wind.legal, on=wind.play, next=ADVANCE,
              turns=custom("the seat whose turn it is, before its advance"),
              text="choice edition, while a balloon flies: move a launch-zone truck or the "
                   "safety truck one column"),
    ),
    phase_field="step", ended=OVER, ended_phase=ADVANCE,
    rounds=lambda rules, s: s.turn // rules.players + 1,
)


def _check_balloon_list(value: Any) -> str | None:
    if not isinstance(value, (list, tuple)) or not value:
        return "must be a non-empty list of balloon ids"
    unknown = [b for b in value if not isinstance(b, str) or b not in BALLOON_COLOURS]
    if unknown:
        return (f"{_short_repr(unknown[0])} is not in the catalogue "
                f"({', '.join(BALLOON_COLOURS)})")
    if len(set(value)) != len(value):
        return "lists a balloon twice"
    return None


@python_class
class BalloonsRules(Rules[BalloonsState, Action]):
    name = "balloons"
    title = "Aloft, balloon festival"
    summary = "Launch a mass ascension of hot-air balloons; get your colour high and to the front."
    traits = Traits(player_counts=(1, 2, 3, 4, 5), information="imperfect")  # refined per mode
    encoding = "aloftnb.games.balloons.encoding"  # the observations (encoding.py)
    actions = ACTIONS  # action_class, action_types, parse_action, str() and numbering follow
    flow = FLOW  # phases, phase_actions, phase(), round(), legal_actions and apply follow
    derived_keys = ("lead_passed", "tokens", "scores", "wind_choices")
    optional_keys = ("game", "mode", "edition", "players", "columns", "altitudes", "wind")
    option_spec = {
        "mode": Option("mode", "competitive", "competitive (2-5), solo (1) or cooperative (2-5)",
                       choices=("competitive", "solo", "cooperative")),
        "edition": Option("edition", "fixed", "fixed: the wind follows a set cycle; choice: the "
                          "player chooses which truck moves", choices=("fixed", "choice")),
        "columns": Option("columns", 12, "width of the sky", check=int_between(3, 40)),
        "altitudes": Option("altitudes", 4, "highest altitude", check=int_between(1, 10)),
        "trucks": Option("trucks", None, "launch-zone trucks", check=int_between(1, 10),
                         default_note="fixed edition: 4 for 1-4 players, 5 for 5; choice "
                                      "edition: 4"),
        "balloons": Option("balloons", None, "balloon ids in play, from data/catalogue.json",
                           check=_check_balloon_list,
                           default_note="fixed edition: 10 regular + lion, wolf, + monkey with "
                                        "5 players; choice edition: all 13 (no monkey in solo)"),
    }

    @classmethod
    def player_counts(cls) -> str:
        return "competitive 2-5, solo 1, cooperative 2-5"

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        opts = self.options
        mode, players = opts["mode"], self.players
        allowed = {"competitive": (2, 5), "solo": (1, 1), "cooperative": (2, 5)}[mode]
        if not allowed[0] <= players <= allowed[1]:
            hint = " (use mode='solo' for one player)" if players == 1 else ""
            raise InvalidOptions(
                f"{mode} balloons is for {allowed[0]}-{allowed[1]} players, not {players}{hint}"
                if allowed[0] != allowed[1] else f"solo balloons is for 1 player, not {players}")
        # RULING: the fixed edition (and cooperative games in it) follows the player-count table of
        # the fixed text; the choice edition follows its own component list: 13 balloons and 4
        # launch-zone trucks for any number of players, one special left out in solo only (so a
        # cooperative choice game keeps all 13).
        # RULING: the catalogue names lion and wolf as the two specials kept when one is left out.
        if self.options["edition"] == "choice":
            components = CATALOGUE["choice_edition"]
            setup: dict[str, Any] | None = {"trucks": components["trucks"],
                     "balloons": components["solo_balloons" if mode == "solo" else "balloons"]}
        else:
            setup = next((row for row in CATALOGUE["player_counts"] if players in row["players"]),
                         None)
        if setup is None:
            raise InvalidOptions(f"the catalogue has no set-up for {players} players")
        # Resolve the defaults that depend on the player count, so saves hold concrete values.
        if opts["trucks"] is None:
            opts["trucks"] = setup["trucks"]
        if opts["balloons"] is None:
            opts["balloons"] = list(setup["balloons"])
        else:
            opts["balloons"] = list(opts["balloons"])
        self.mode, self.edition = mode, opts["edition"]
        self.columns, self.altitudes = opts["columns"], opts["altitudes"]
        self.truck_count = opts["trucks"]
        if self.truck_count >= self.columns:
            raise InvalidOptions(
                f"option trucks={self.truck_count} needs a sky wider than {self.columns} columns")
        if self.edition == "choice" and self.truck_count < 2:
            # With one truck the last and lead trucks coincide: neither wind move is ever allowed.
            raise InvalidOptions("the choice edition needs at least 2 launch-zone trucks "
                                 f"(trucks={self.truck_count}): with one, no truck could move")
        self.ids: tuple[str, ...] = tuple(opts["balloons"])
        self.index = {bid: i for i, bid in enumerate(self.ids)}
        # RULING: cooperative play follows the solo rules and score (the 3-point penalty).
        self.solo_rules = mode != "competitive"  # solo and cooperative share the solo rules
        if self.edition == "fixed":  # the wind blows by itself: its games never enter that phase
            self.phases = (ADVANCE,)
        if self.solo_rules:  # one shared score, nothing hidden (colour cards are competitive)
            self.traits = replace(type(self).traits, information="perfect", cooperative=True)
        colour_index = {c: i for i, c in enumerate(COLOURS)}
        self.balloon_colours = tuple(
            frozenset(colour_index[c] for c in BALLOON_COLOURS[b]) for b in self.ids)
        n, t = len(self.ids), self.truck_count
        self._unpack = [[BalloonAction("unpack", balloon=b, truck=k) for k in range(t)]
                        for b in self.ids]
        self._inflate = [BalloonAction("inflate", balloon=b) for b in self.ids]
        self._launch = [BalloonAction("launch", balloon=b) for b in self.ids]
        self._ascend = [BalloonAction("ascend", balloon=b) for b in self.ids]
        # Filled as the fast path meets each set of free trucks (advance.py).
        self._unpacks_by_free: dict[tuple[int, ...], list[tuple[Action, ...]]] = {}
        self._pass = [BalloonAction("pass")]
        self._wind = {k: BalloonAction("wind", truck=k) for k in ("launch", "safety")}
        self._wind_legal: dict[tuple[tuple[int, ...], int], tuple[Action, ...]] = {}  # wind.py
        self._balloon_range = range(n)
        self.tables = advance.Tables(self)  # what the advance reads at every step

    @property
    def higher_score_wins(self) -> bool:
        return self.mode == "competitive"  # RULING: solo and cooperative: lower is better

    def max_length(self) -> int:
        """Every turn advances a balloon or passes, and a pass needs something flying, so a wind.

        A balloon advances at most 2 + altitudes times; the wind moves one truck one column, and
        the trucks leave the field after at most (trucks + 1) * (columns + 2) moves. The choice
        edition adds one wind step per turn."""
        advances = len(self.ids) * (2 + self.altitudes)
        winds = (self.truck_count + 1) * (self.columns + 2)
        turns = advances + winds + 1
        return 2 * turns if self.edition == "choice" else turns

    # -- set-up --------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> BalloonsState:
        rng = random.Random(seed)
        n, t = len(self.ids), self.truck_count
        row = list(range(n))
        colours: tuple[int, ...] = ()
        # rng's own sample and shuffle, compiled in the compiled build (core/chance.py)
        if self.mode == "competitive":
            colours = tuple(sample(list(range(len(COLOURS))), self.players, rng))
        else:
            # RULING: only the solo rules shuffle the row; the competitive row stays in catalogue
            # order and any packed balloon of it may be unpacked.
            shuffle(row, rng)
        return BalloonsState(
            self, trucks=tuple(range(1, t + 1)), safety=1, status=(PACKED,) * n,
            where=(-1,) * n, altitude=(0,) * n, load=(-1,) * t,
            sky=(0,) * (self.altitudes + 2), row=tuple(row), colours=colours, turn=0,
            player=0,  # RULING: seat 0 starts (the texts do not say who does)
            step=ADVANCE, wind="", lead_passed=False)

    # -- whose turn (the legal actions and their effects come from FLOW) -----------------------
    def current_player(self, state: BalloonsState) -> int | None:
        return None if state.step == OVER else state.player

    def is_over(self, state: BalloonsState) -> bool:
        return state.step == OVER

    def wind_choice_moves(self, s: BalloonsState) -> dict[str, dict[str, int]]:
        """Choice edition: what each legal wind choice moves, {"launch": {"truck", "from", "to"},
        "safety": {"from", "to"}}, so a drawing shows it without running a rule."""
        return wind.choice_moves(s)

    # -- scoring (scoring.py) ------------------------------------------------------------------
    def tokens(self, s: BalloonsState) -> dict[str, int]:
        """Scoring tokens: 1 for the leftmost balloon of the lowest row, left to right, upwards."""
        return scoring.tokens(self, s)

    def formation_width(self, s: BalloonsState) -> int:
        return scoring.formation_width(self, s)

    def scores(self, s: BalloonsState) -> dict[int, float]:
        return scoring.scores(self, s)

    def outcome(self, s: BalloonsState) -> Outcome | None:
        return scoring.outcome(self, s)

    # -- dict form (state.py) ------------------------------------------------------------------
    def state_to_dict(self, s: BalloonsState) -> dict[str, Any]:
        return state_to_dict(self, s)

    def state_from_dict(self, data: Any) -> BalloonsState:
        return read_state(self, data)

    def view(self, s: BalloonsState, seat: int | None) -> dict[str, Any]:
        data = self.state_to_dict(s)
        if s.step != OVER:  # RULING: colour cards are revealed to every view once the game ends
            data["colours"] = {k: v for k, v in data["colours"].items() if k == str(seat)}
        return data

    def determinize(self, s: BalloonsState, seat: int, rng: random.Random) -> BalloonsState:
        """Deal the other seats colours at random from the cards `seat` has not seen."""
        if self.mode != "competitive" or s.step == OVER:
            return s
        others = [c for c in range(len(COLOURS)) if c != s.colours[seat]]
        shuffle(others, rng)
        colours = tuple(s.colours[seat] if p == seat else others.pop()
                        for p in range(self.players))
        return s._replace(colours=colours)

    # -- actions: reasons, log and clicks (texts.py) -------------------------------------------
    def why_illegal(self, s: BalloonsState, action: Action) -> str:
        return texts.why_illegal(self, s, action)

    def describe_action(self, s: BalloonsState, action: Action) -> str:
        return texts.describe_action(self, s, action)

    def action_path(self, s: BalloonsState, action: Action) -> list[str]:
        return texts.action_path(self, s, action)

    # -- drawing -------------------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)
