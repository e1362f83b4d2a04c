"""Aloft, balloon festival: the complete rules.

Rulings where the texts are silent are marked RULING and listed in docs/rules/balloons.md.

A state is an immutable named tuple. Balloons are numbered in catalogue order (`rules.ids`); the sky
is kept as one bitmask of occupied columns per altitude, so the adjacency checks of the fast path
are a few integer operations.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, NamedTuple

from ...core.action import Action
from ...core.options import Option, _short_repr, int_between, packaged_json, whole_number_problem
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...errors import IllegalAction, InvalidOptions, InvalidState

PACKED, UNPACKED, INFLATED, FLYING = 0, 1, 2, 3
STATUS_NAMES = ("packed", "unpacked", "inflated", "flying")
ADVANCE, WIND, OVER = "advance", "wind", "over"
ADVANCE_TYPES = ("unpack", "inflate", "launch", "ascend")


def load_catalogue() -> dict[str, Any]:
    """The balloon cards and the player-count table, from data/catalogue.json."""
    data: dict[str, Any] = packaged_json(__package__, "data/catalogue.json")
    return data


CATALOGUE = load_catalogue()
BALLOON_COLOURS = {b["id"]: tuple(b["colours"]) for b in CATALOGUE["balloons"]}
COLOURS = tuple(CATALOGUE["colours"])


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


class BalloonAction(Action):
    __slots__ = ()

    def __str__(self) -> str:
        kind = self.type
        if kind == "unpack":
            return f"unpack {self.balloon} onto truck {self.truck}"
        if kind in ADVANCE_TYPES:
            return f"{kind} {self.balloon}"
        if kind == "wind":
            return "wind: move the safety truck" if self.truck == "safety" else (
                "wind: move a launch-zone truck")
        return "pass: no balloon can advance"


class BalloonsState(NamedTuple):
    """One position. Use `.to_dict()` for the documented plain-data form."""

    rules: BalloonsRules
    trucks: tuple[int, ...]  # launch-zone truck columns (1-based), left to right
    safety: int  # safety truck column
    status: tuple[int, ...]  # per balloon: PACKED / UNPACKED / INFLATED / FLYING
    where: tuple[int, ...]  # per balloon: truck index (on a truck), column (flying), -1 (packed)
    altitude: tuple[int, ...]  # per balloon: altitude when flying, else 0
    load: tuple[int, ...]  # per truck: index of the balloon riding it, or -1
    sky: tuple[int, ...]  # per altitude 0..A+1: bitmask of occupied columns (0 and A+1 stay empty)
    row: tuple[int, ...]  # packed balloons in row order
    colours: tuple[int, ...]  # per seat: colour index (competitive); () in solo and cooperative
    turn: int  # turns completed
    player: int  # seat to act; -1 once over
    step: str  # ADVANCE, WIND (choice edition) or OVER
    wind: str  # what the wind did this turn, for the board and the log
    lead_passed: bool  # the lead truck has passed the last column

    def to_dict(self) -> dict[str, Any]:
        return self.rules.state_to_dict(self)

    def _repr_svg_(self) -> str:
        return self.rules.render_svg(self.rules.view(self, None))

    def __repr__(self) -> str:
        where = "over" if self.step == OVER else f"seat {self.player} to {self.step}"
        return f"<BalloonsState turn {self.turn}, {where}>"


class BalloonsRules(Rules[BalloonsState, Action]):
    name = "balloons"
    title = "Aloft, balloon festival"
    summary = "Launch a mass ascension of hot-air balloons; get your colour high and to the front."
    traits = Traits(player_counts=(1, 2, 3, 4, 5), information="imperfect")  # refined per mode
    encoding = "aloftnb.games.balloons.encoding"  # the adapters' numbering (encoding.py)
    action_class = BalloonAction
    action_types = ("unpack", "inflate", "launch", "ascend", "pass", "wind")
    # The choice edition's turn is a wind step, then an advance; the fixed edition's wind moves
    # by itself, so its games stay in the advance phase.
    phases: tuple[str, ...] = ("advance", "wind")
    phase_actions = {"advance": ("unpack", "inflate", "launch", "ascend", "pass"),
                     "wind": ("wind",)}
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
        if self.edition == "fixed":  # the wind moves by itself: no wind phase
            self.phases = ("advance",)
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
        self._pass = [BalloonAction("pass")]
        self._wind = {k: BalloonAction("wind", truck=k) for k in ("launch", "safety")}
        self._balloon_range = range(n)

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
        if self.mode == "competitive":
            colours = tuple(rng.sample(range(len(COLOURS)), self.players))
        else:
            # RULING: only the solo rules shuffle the row; the competitive row stays in catalogue
            # order and any packed balloon of it may be unpacked.
            rng.shuffle(row)
        return BalloonsState(
            self, trucks=tuple(range(1, t + 1)), safety=1, status=(PACKED,) * n,
            where=(-1,) * n, altitude=(0,) * n, load=(-1,) * t,
            sky=(0,) * (self.altitudes + 2), row=tuple(row), colours=colours, turn=0,
            player=0,  # RULING: seat 0 starts (the texts do not say who does)
            step=ADVANCE, wind="", lead_passed=False)

    # -- the fast path -------------------------------------------------------------------------
    def current_player(self, state: BalloonsState) -> int | None:
        return None if state.step == OVER else state.player

    def phase(self, state: BalloonsState) -> str:
        return "wind" if state.step == WIND else "advance"

    def round(self, state: BalloonsState) -> int:
        return state.turn // self.players + 1

    def is_over(self, state: BalloonsState) -> bool:
        return state.step == OVER

    def legal_actions(self, state: BalloonsState) -> list[Action]:
        step = state.step
        if step == ADVANCE:
            return self._advances(state) or list(self._pass)  # RULING: pass is an explicit action
        if step == WIND:
            return [self._wind[k] for k in self._wind_choices(state)]
        return []

    def _advances(self, s: BalloonsState) -> list[Action]:
        acts: list[Action] = []
        status, where, altitude, sky = s.status, s.where, s.altitude, s.sky
        free = [k for k, b in enumerate(s.load) if b < 0]  # RULING: one per truck, both editions
        top, columns, solo = self.altitudes, self.columns, self.solo_rules
        first = s.row[0] if (solo and s.row) else -1
        for b in self._balloon_range:
            st = status[b]
            if st == PACKED:
                if free and (not solo or b == first):
                    table = self._unpack[b]
                    acts.extend(table[k] for k in free)
            elif st == UNPACKED:
                acts.append(self._inflate[b])
            elif st == INFLATED:
                # RULING: a truck beyond the last column (choice edition, final advance) has no sky
                # above it, so its balloon cannot launch.
                c = s.trucks[where[b]]
                if (c <= columns and not (sky[1] >> (c - 1)) & 7 and not (sky[2] >> c) & 1
                        and (not solo or self._diagonals_clear(s, b, c, 1))):
                    acts.append(self._launch[b])
            else:
                a = altitude[b] + 1
                c = where[b]
                if (a <= top and not (sky[a] >> (c - 1)) & 7 and not (sky[a + 1] >> c) & 1
                        and (not solo or self._diagonals_clear(s, b, c, a))):
                    acts.append(self._ascend[b])
        return acts

    def _diagonals_clear(self, s: BalloonsState, b: int, column: int, altitude: int) -> bool:
        """Solo rule: no flying balloon sharing a colour with `b` diagonally next to the cell.

        RULING: only flying balloons count (balloons on trucks are below the sky), and specials,
        which carry no colour, never share one.
        """
        mine = self.balloon_colours[b]
        if not mine:
            return True
        corners = {(column - 1, altitude - 1), (column + 1, altitude - 1),
                   (column - 1, altitude + 1), (column + 1, altitude + 1)}
        for other in self._balloon_range:
            if (other != b and s.status[other] == FLYING
                    and (s.where[other], s.altitude[other]) in corners
                    and mine & self.balloon_colours[other]):
                return False
        return True

    def _wind_choices(self, s: BalloonsState) -> list[str]:
        """Choice edition: which trucks may move. The safety truck stays between last and lead."""
        choices = []
        trucks, _ = _launch_zone_move(s.trucks)
        if trucks[0] <= s.safety:
            choices.append("launch")
        if s.safety + 1 <= s.trucks[-1]:
            choices.append("safety")
        return choices

    def wind_choice_moves(self, s: BalloonsState) -> dict[str, dict[str, int]]:
        """Choice edition: what each legal wind choice moves, {"launch": {"truck", "from", "to"},
        "safety": {"from", "to"}}, so a drawing shows it without running a rule."""
        moves: dict[str, dict[str, int]] = {}
        for choice in self._wind_choices(s):
            if choice == "launch":
                trucks, moved = _launch_zone_move(s.trucks)
                moves["launch"] = {"truck": moved, "from": s.trucks[moved], "to": trucks[moved]}
            else:
                moves["safety"] = {"from": s.safety, "to": s.safety + 1}
        return moves

    def apply(self, s: BalloonsState, action: Action) -> BalloonsState:
        kind = action.type
        if kind == "wind":
            if action.truck == "launch":
                trucks, moved = _launch_zone_move(s.trucks)
                safety = s.safety
                text = f"truck {moved} moved to column {trucks[moved]}"
            else:
                trucks, safety = s.trucks, s.safety + 1
                text = f"the safety truck moved to column {safety}"
            return BalloonsState(
                self, trucks, safety, s.status, s.where, s.altitude, s.load, s.sky, s.row,
                s.colours, s.turn, s.player, ADVANCE, text, trucks[-1] > self.columns)
        status, where, altitude, load, sky, row = (
            s.status, s.where, s.altitude, s.load, s.sky, s.row)
        if kind != "pass":
            b = self.index[action.balloon]
            if kind == "unpack":
                k = action.truck
                status = _set(status, b, UNPACKED)
                where = _set(where, b, k)
                load = _set(load, k, b)
                row = tuple(x for x in row if x != b)
            elif kind == "inflate":
                status = _set(status, b, INFLATED)
            elif kind == "launch":
                k = where[b]
                c = s.trucks[k]
                status = _set(status, b, FLYING)
                where = _set(where, b, c)
                altitude = _set(altitude, b, 1)
                load = _set(load, k, -1)
                sky = _set(sky, 1, sky[1] | (1 << c))
            else:  # ascend
                c, a = where[b], altitude[b]
                altitude = _set(altitude, b, a + 1)
                rows = list(sky)
                rows[a] &= ~(1 << c)
                rows[a + 1] |= 1 << c
                sky = tuple(rows)
        return self._next_turn(s, status, where, altitude, load, sky, row)

    def _next_turn(self, s, status, where, altitude, load, sky, row) -> BalloonsState:
        trucks, safety, turn = s.trucks, s.safety, s.turn + 1
        player = (s.player + 1) % self.players
        # RULING (choice edition): no wind step while nothing flies, and none once the lead truck
        # has passed: that turn's advance was the last.
        if s.lead_passed:
            return BalloonsState(self, trucks, safety, status, where, altitude, load, sky, row,
                                 s.colours, turn, -1, OVER, "", True)
        if not any(sky):
            return BalloonsState(self, trucks, safety, status, where, altitude, load, sky, row,
                                 s.colours, turn, player, ADVANCE, "", False)
        if self.edition == "choice":
            return BalloonsState(self, trucks, safety, status, where, altitude, load, sky, row,
                                 s.colours, turn, player, WIND, "", False)
        # RULING (fixed edition): the wind of the next player's turn is applied right here, after
        # this advance, so the state that player sees already shows it in `wind`.
        trucks, safety, text = fixed_wind(trucks, safety)
        if trucks[-1] > self.columns:  # the game ends before that player advances
            return BalloonsState(self, trucks, safety, status, where, altitude, load, sky, row,
                                 s.colours, turn, -1, OVER, text, True)
        return BalloonsState(self, trucks, safety, status, where, altitude, load, sky, row,
                             s.colours, turn, player, ADVANCE, text, False)

    # -- scoring -------------------------------------------------------------------------------
    def tokens(self, s: BalloonsState) -> dict[str, int]:
        """Scoring tokens: 1 for the leftmost balloon of the lowest row, left to right, upwards."""
        flying = sorted((s.altitude[b], s.where[b], b) for b in self._balloon_range
                        if s.status[b] == FLYING)
        return {self.ids[b]: token for token, (_, _, b) in enumerate(flying, start=1)}

    def formation_width(self, s: BalloonsState) -> int:
        columns = [s.where[b] for b in self._balloon_range if s.status[b] == FLYING]
        return max(columns) - min(columns) + 1 if columns else 0  # RULING: no formation: 0 wide

    def scores(self, s: BalloonsState) -> dict[int, float]:
        """RULING: before the end this reports the formation as it stands (designer information).

        Competitive: specials score for no one, and every tied seat wins (Rules.winners). Solo and
        cooperative: one shared score, so winners() lists every seat.
        """
        if self.mode == "competitive":
            tokens = self.tokens(s)
            return {
                seat: sum(t for bid, t in tokens.items()
                          if colour in self.balloon_colours[self.index[bid]])
                for seat, colour in enumerate(s.colours)
            }
        unlaunched = sum(1 for st in s.status if st != FLYING)
        score = self.formation_width(s) + 3 * unlaunched
        return {seat: score for seat in range(self.players)}  # one shared score

    def outcome(self, s: BalloonsState) -> Outcome | None:
        if s.step != OVER:
            return None
        scores = self.scores(s)
        if self.solo_rules:
            unlaunched = sum(1 for st in s.status if st != FLYING)
            width = self.formation_width(s)
            why = "every balloon launched" if not unlaunched else f"{unlaunched} left unlaunched"
            return Outcome(tuple(range(self.players)), scores,
                           f"shared score {scores[0]:g} (lower is better): formation {width} "
                           f"wide, {why}")
        best = max(scores.values())
        winners = tuple(seat for seat, score in scores.items() if score == best)
        who = " and ".join(f"seat {w}" for w in winners)
        tie = " (a tie)" if len(winners) > 1 else ""
        return Outcome(winners, scores, f"{who} scored {best:g} in tokens{tie}")

    # -- dict form -----------------------------------------------------------------------------
    def state_to_dict(self, s: BalloonsState) -> dict[str, Any]:
        balloons: dict[str, dict[str, Any]] = {}
        for b, bid in enumerate(self.ids):
            st = s.status[b]
            entry: dict[str, Any] = {"status": STATUS_NAMES[st]}
            if st in (UNPACKED, INFLATED):
                entry["truck"] = s.where[b]
            elif st == FLYING:
                entry["column"] = s.where[b]
                entry["altitude"] = s.altitude[b]
            balloons[bid] = entry
        data = {
            "game": self.name,
            "mode": self.mode,
            "edition": self.edition,
            "players": self.players,
            "columns": self.columns,
            "altitudes": self.altitudes,
            "trucks": list(s.trucks),
            "safety": s.safety,
            "balloons": balloons,
            "row": [self.ids[b] for b in s.row],
            "colours": {str(seat): COLOURS[c] for seat, c in enumerate(s.colours)},
            "turn": s.turn,
            "current_player": None if s.step == OVER else s.player,
            "step": s.step,
            "wind": s.wind,
            "lead_passed": s.lead_passed,
        }
        if s.step == WIND:  # derived, for the drawing: where each wind choice moves a truck
            data["wind_choices"] = self.wind_choice_moves(s)
        if s.step == OVER:  # derived, for reading the result; ignored when a dict is loaded
            data["tokens"] = self.tokens(s)
            data["scores"] = {str(seat): score for seat, score in self.scores(s).items()}
        return data

    def state_from_dict(self, data: Any) -> BalloonsState:
        return _StateReader(self, data).read()

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
        rng.shuffle(others)
        colours = tuple(s.colours[seat] if p == seat else others.pop()
                        for p in range(self.players))
        return s._replace(colours=colours)

    # -- actions: shape and reasons ------------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        action = super().parse_action(data)
        needed = {"unpack": {"balloon", "truck"}, "inflate": {"balloon"}, "launch": {"balloon"},
                  "ascend": {"balloon"}, "pass": set(), "wind": {"truck"}}[action.type]
        have = set(action.params)
        if have != needed:
            wanted = ", ".join(repr(k) for k in sorted(needed)) or "no fields"
            article = "an" if action.type[0] in "aeiou" else "a"
            raise IllegalAction(f"{article} {action.type!r} action takes {wanted}; got "
                                f"{', '.join(repr(k) for k in sorted(have)) or 'none'}")
        if "balloon" in needed and action.balloon not in self.index:
            raise IllegalAction(f"there is no balloon {_short_repr(action.balloon)} in this game "
                                f"(balloons: {', '.join(self.ids)})")
        if action.type == "unpack":
            truck = action.truck
            if truck == "safety":
                raise IllegalAction("balloons may not be placed on the safety truck")
            if whole_number_problem(truck, 0, self.truck_count - 1):
                raise IllegalAction(f"'truck' must be a launch-zone truck 0..{self.truck_count - 1}"
                                    f", not {_short_repr(truck)}")
        if action.type == "wind" and action.truck not in ("launch", "safety"):
            raise IllegalAction(f"a wind action moves truck 'launch' or 'safety', "
                                f"not {_short_repr(action.truck)}")
        return action

    def why_illegal(self, s: BalloonsState, action: Action) -> str:
        kind = action.type
        if s.step == WIND and kind != "wind":
            return (f"this is the wind phase: seat {s.player} must move a truck first, since "
                    "balloons are flying and the wind blows before a balloon advances")
        if kind == "wind":
            if self.edition == "fixed":
                return "in the fixed-wind edition the wind moves the trucks by itself"
            if s.step != WIND:
                return ("no truck moves in the advance phase: the wind blows once, at the start "
                        "of a turn, and only when a balloon is flying")
            if action.truck == "launch":
                return "moving a launch-zone truck would put the last truck past the safety truck"
            return "moving the safety truck would put it past the lead truck"
        if kind == "pass":
            return "a balloon can still advance; you may pass only when none can"
        b = self.index[action.balloon]
        st = s.status[b]
        bid = action.balloon
        expected = {"unpack": PACKED, "inflate": UNPACKED, "launch": INFLATED,
                    "ascend": FLYING}[kind]
        if st != expected:
            wanted = STATUS_NAMES[expected]
            article = "an" if wanted[0] in "aeiou" else "a"
            return f"{bid} is {STATUS_NAMES[st]}; only {article} {wanted} balloon can {kind}"
        if kind == "unpack":
            if self.solo_rules and s.row and s.row[0] != b:
                return (f"with the solo rules only the first balloon of the row "
                        f"({self.ids[s.row[0]]}) may be unpacked")
            rider = s.load[action.truck]
            return f"truck {action.truck} already carries {self.ids[rider]}"
        if kind == "launch":
            c = s.trucks[s.where[b]]
            if c > self.columns:
                return f"{bid}'s truck has left the field (column {c}); there is no sky above it"
            return self._cell_problem(s, b, c, 1)
        if s.altitude[b] >= self.altitudes:
            return f"{bid} is already at the highest altitude ({self.altitudes})"
        return self._cell_problem(s, b, s.where[b], s.altitude[b] + 1)

    def _cell_problem(self, s: BalloonsState, b: int, c: int, a: int) -> str:
        occupant = self._balloon_at(s)
        bid = self.ids[b]
        if (c, a) in occupant:
            return f"column {c}, altitude {a} is taken by {self.ids[occupant[(c, a)]]}"
        for cell in ((c - 1, a), (c + 1, a), (c, a + 1), (c, a - 1)):
            other = occupant.get(cell)
            if other is not None and other != b:
                return (f"{bid} would fly orthogonally next to {self.ids[other]} at column "
                        f"{cell[0]}, altitude {cell[1]}")
        for cell in ((c - 1, a - 1), (c + 1, a - 1), (c - 1, a + 1), (c + 1, a + 1)):
            other = occupant.get(cell)
            if other is not None and self.balloon_colours[b] & self.balloon_colours[other]:
                return (f"with the solo rules {bid} may not touch {self.ids[other]} diagonally "
                        f"(they share a colour)")
        return f"{bid} cannot advance there"

    def _balloon_at(self, s: BalloonsState) -> dict[tuple[int, int], int]:
        return {(s.where[b], s.altitude[b]): b for b in self._balloon_range
                if s.status[b] == FLYING}

    def describe_action(self, s: BalloonsState, action: Action) -> str:
        kind = action.type
        if kind == "unpack":
            return f"unpacked {action.balloon} onto truck {action.truck} " \
                   f"(column {s.trucks[action.truck]})"
        if kind == "inflate":
            return f"inflated {action.balloon}"
        if kind == "launch":
            b = self.index[action.balloon]
            return f"launched {action.balloon} at column {s.trucks[s.where[b]]}"
        if kind == "ascend":
            b = self.index[action.balloon]
            return f"{action.balloon} rose to altitude {s.altitude[b] + 1}"
        if kind == "wind":
            return str(self.apply(s, action).wind)
        return "passed: no balloon could advance"

    # -- drawing -------------------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    def action_path(self, s: BalloonsState, action: Action) -> list[str]:
        kind = action.type
        if kind == "unpack":
            return [f"balloon:{action.balloon}", f"truck:{action.truck}"]
        if kind in ADVANCE_TYPES:
            return [f"balloon:{action.balloon}"]
        if kind == "wind":
            return [f"wind:{action.truck}"]
        return ["pass"]



def _set(values: tuple, i: int, value: Any) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _launch_zone_move(trucks: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Move the rightmost truck of the first group (the lead truck when there is one group)."""
    for i in range(len(trucks) - 1):
        if trucks[i + 1] - trucks[i] > 1:
            return _set(trucks, i, trucks[i] + 1), i
    last = len(trucks) - 1
    return _set(trucks, last, trucks[last] + 1), last


def fixed_wind(trucks: tuple[int, ...], safety: int) -> tuple[tuple[int, ...], int, str]:
    """The fixed-wind edition's three cases: returns (trucks, safety, what happened).

    RULING: in the third case the safety truck moves one column, which puts it under the last
    truck again (the only position behind it that the cycle reaches is one column).
    """
    grouped = trucks[-1] - trucks[0] == len(trucks) - 1
    if grouped and safety != trucks[0]:
        return trucks, safety + 1, f"the safety truck moved to column {safety + 1}"
    moved_trucks, moved = _launch_zone_move(trucks)
    return moved_trucks, safety, f"truck {moved} moved to column {moved_trucks[moved]}"


class _StateReader:
    """Builds a state from a dict, saying exactly what is wrong (InvalidState)."""

    KEYS = {"game", "mode", "edition", "players", "columns", "altitudes", "trucks", "safety",
            "balloons", "row", "colours", "turn", "current_player", "step", "wind",
            "lead_passed", "tokens", "scores", "wind_choices"}

    def __init__(self, rules: BalloonsRules, data: Any) -> None:
        self.rules, self.data = rules, data

    def fail(self, message: str) -> None:
        raise InvalidState(message)

    def int_field(self, name: str, low: int, high: int) -> int:
        value = self.data[name]
        problem = whole_number_problem(value, low, high)
        if problem:
            self.fail(f"{name!r} {problem}")
        return value

    def read(self) -> BalloonsState:
        r, data = self.rules, self.data
        if not isinstance(data, dict):
            self.fail(f"a balloons state must be a dict, not {type(data).__name__}")
        unknown = sorted((k for k in data if not isinstance(k, str) or k not in self.KEYS), key=str)
        if unknown:
            self.fail(f"unknown key {_short_repr(unknown[0])} in the state")
        required = self.KEYS - {"tokens", "scores", "wind_choices", "game", "mode", "edition",
                                "players", "columns",
                                "altitudes", "wind", "lead_passed"}
        missing = sorted(required - set(data))
        if missing:
            self.fail(f"the state has no {missing[0]!r}")
        for key, expected in (("game", r.name), ("mode", r.mode), ("edition", r.edition),
                              ("players", r.players), ("columns", r.columns),
                              ("altitudes", r.altitudes)):
            if key in data and not (type(data[key]) is type(expected) and data[key] == expected):
                self.fail(f"this match has {key} {expected!r}; the state says "
                          f"{_short_repr(data[key])} (start a new match to change it)")
        trucks = self.read_trucks()
        lead_passed = trucks[-1] > r.columns
        safety = self.int_field("safety", 1, r.columns + 1)
        status, where, altitude, load = self.read_balloons(trucks)
        sky = [0] * (r.altitudes + 2)
        for b in r._balloon_range:
            if status[b] == FLYING:
                sky[altitude[b]] |= 1 << where[b]
        row = self.read_row(status)
        colours = self.read_colours()
        turn = self.int_field("turn", 0, 10**9)
        step = data["step"]
        if not isinstance(step, str) or step not in (ADVANCE, WIND, OVER):
            self.fail(f"'step' must be 'advance', 'wind' or 'over', not {_short_repr(step)}")
        player = data["current_player"]
        if step == OVER:
            if player is not None:
                self.fail("'current_player' must be None once the game is over")
            player = -1
        elif whole_number_problem(player, 0, r.players - 1):
            self.fail(f"'current_player' must be a seat 0..{r.players - 1}, not "
                      f"{_short_repr(player)}")
        wind = data.get("wind", "")
        if not isinstance(wind, str):
            self.fail(f"'wind' must be text, not {_short_repr(wind)}")
        if "lead_passed" in data and data["lead_passed"] is not lead_passed:
            self.fail(f"'lead_passed' is {data['lead_passed']!r} but the lead truck is at column "
                      f"{trucks[-1]} of {r.columns}")
        state = BalloonsState(r, trucks, safety, tuple(status), tuple(where), tuple(altitude),
                              tuple(load), tuple(sky), row, colours, turn, player, step, wind,
                              lead_passed)
        self.check_invariants(state)
        return state

    def read_trucks(self) -> tuple[int, ...]:
        r, trucks = self.rules, self.data["trucks"]
        if not isinstance(trucks, (list, tuple)) or len(trucks) != r.truck_count:
            self.fail(f"'trucks' must list the {r.truck_count} launch-zone truck columns")
        for c in trucks:
            if whole_number_problem(c, 1, r.columns + 1):
                self.fail(f"truck columns must be 1..{r.columns} (or {r.columns + 1} once the "
                          f"lead truck has passed the last column), not {_short_repr(c)}")
        trucks = tuple(trucks)
        if any(b <= a for a, b in zip(trucks, trucks[1:])):
            self.fail(f"'trucks' must be in distinct columns, left to right: {list(trucks)}")
        # RULING: edits too keep the shape the wind makes: one group, or two split by one column.
        gaps = [b - a - 1 for a, b in zip(trucks, trucks[1:]) if b - a > 1]
        if len(gaps) > 1 or (gaps and gaps[0] != 1):
            self.fail(f"trucks {list(trucks)} must form one group, or two groups with one empty "
                      "column between them")
        return trucks

    def read_balloons(self, trucks):
        r, balloons = self.rules, self.data["balloons"]
        if not isinstance(balloons, dict) or set(balloons) != set(r.ids):
            self.fail(f"'balloons' must have one entry for each of {', '.join(r.ids)}")
        n = len(r.ids)
        status, where, altitude = [PACKED] * n, [-1] * n, [0] * n
        load = [-1] * r.truck_count
        for b, bid in enumerate(r.ids):
            entry = balloons[bid]
            if not isinstance(entry, dict) or not isinstance(entry.get("status"), str) or (
                    entry["status"] not in STATUS_NAMES):
                self.fail(f"balloon {bid} needs a 'status' of {', '.join(STATUS_NAMES)}")
            st = STATUS_NAMES.index(entry["status"])
            keys = {PACKED: {"status"}, UNPACKED: {"status", "truck"},
                    INFLATED: {"status", "truck"},
                    FLYING: {"status", "column", "altitude"}}[st]
            if set(entry) != keys:
                self.fail(f"a {entry['status']} balloon ({bid}) has exactly the keys "
                          f"{sorted(keys)}, not {_short_repr(sorted(entry, key=str))}")
            status[b] = st
            if st in (UNPACKED, INFLATED):
                k = entry["truck"]
                if whole_number_problem(k, 0, r.truck_count - 1):
                    self.fail(f"{bid}'s truck must be 0..{r.truck_count - 1} (balloons never ride "
                              f"the safety truck), not {_short_repr(k)}")
                if load[k] >= 0:
                    self.fail(f"truck {k} carries both {r.ids[load[k]]} and {bid}; "
                              "a truck carries one balloon")
                load[k], where[b] = b, k
            elif st == FLYING:
                c, a = entry["column"], entry["altitude"]
                for name, value, high in (("column", c, r.columns), ("altitude", a, r.altitudes)):
                    if whole_number_problem(value, 1, high):
                        self.fail(f"{bid}'s {name} must be 1..{high}, not {_short_repr(value)}")
                where[b], altitude[b] = c, a
        return status, where, altitude, load

    def read_row(self, status) -> tuple[int, ...]:
        r, row = self.rules, self.data["row"]
        if not isinstance(row, list) or any(not isinstance(b, str) or b not in r.index
                                            for b in row):
            self.fail(f"'row' must list balloon ids, not {_short_repr(row)}")
        packed = {bid for b, bid in enumerate(r.ids) if status[b] == PACKED}
        if len(row) != len(set(row)) or set(row) != packed:
            self.fail(f"'row' must list each packed balloon once: packed are "
                      f"{sorted(packed)}, the row has {row}")
        return tuple(r.index[b] for b in row)

    def read_colours(self) -> tuple[int, ...]:
        r, colours = self.rules, self.data["colours"]
        if not isinstance(colours, dict):
            self.fail("'colours' must map seats to colours")
        if r.mode != "competitive":
            if colours:
                self.fail(f"the {r.mode} game deals no colour cards; 'colours' must be empty")
            return ()
        seats = {str(p) for p in range(r.players)}
        given = {k: v for k, v in colours.items()}
        if set(given) != seats:
            self.fail(f"'colours' must give a colour to each seat {sorted(seats)}")
        if any(not isinstance(v, str) or v not in COLOURS for v in given.values()):
            self.fail(f"colours must be among {', '.join(COLOURS)}")
        if len(set(given.values())) != len(given):
            self.fail("two seats cannot hold the same colour card")
        return tuple(COLOURS.index(given[str(p)]) for p in range(r.players))

    def check_invariants(self, s: BalloonsState) -> None:
        r = self.rules
        cells: dict[tuple[int, int], int] = {}
        for b in r._balloon_range:
            if s.status[b] != FLYING:
                continue
            cell = (s.where[b], s.altitude[b])
            if cell in cells:
                self.fail(f"{r.ids[cells[cell]]} and {r.ids[b]} are both at column {cell[0]}, "
                          f"altitude {cell[1]}")
            cells[cell] = b
        for (c, a), b in cells.items():
            for cell in ((c + 1, a), (c, a + 1)):
                if cell in cells:
                    self.fail(f"flying balloons {r.ids[b]} and {r.ids[cells[cell]]} are "
                              "orthogonally adjacent")
            if r.solo_rules:
                for cell in ((c + 1, a + 1), (c + 1, a - 1)):
                    other = cells.get(cell)
                    if other is not None and r.balloon_colours[b] & r.balloon_colours[other]:
                        self.fail(f"with the solo rules {r.ids[b]} and {r.ids[other]} share a "
                                  "colour and may not touch diagonally")
        trucks, safety = s.trucks, s.safety
        if r.edition == "fixed":
            # RULING: an edited safety truck sits under the last truck, or one column behind it
            # when the trucks form one group (what the three-case wind can produce).
            grouped = trucks[-1] - trucks[0] == len(trucks) - 1
            if not (safety == trucks[0] or (grouped and safety == trucks[0] - 1)):
                self.fail(f"in the fixed-wind edition the safety truck (column {safety}) is under "
                          f"the last truck (column {trucks[0]}) or one column behind it once the "
                          "trucks are back in one group")
            if s.step == WIND:
                self.fail("the fixed-wind edition has no wind step: the wind moves by itself")
            if s.lead_passed != (s.step == OVER):
                self.fail("in the fixed-wind edition the game is over exactly when the lead "
                          "truck has passed the last column")
        else:
            if not trucks[0] <= safety <= trucks[-1]:
                self.fail(f"the safety truck (column {safety}) must be between the last truck "
                          f"(column {trucks[0]}) and the lead truck (column {trucks[-1]})")
            if s.step == WIND and s.lead_passed:
                self.fail("the lead truck has passed the last column: no more wind this game")
        if s.step == OVER and not s.lead_passed:
            self.fail("the game is over only once the lead truck has passed the last column")
        if s.step == WIND and not any(s.sky):
            self.fail("the wind step needs a flying balloon")
