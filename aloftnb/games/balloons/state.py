"""Balloons' position: the components, the state type and its plain-data form.

The balloon cards and colours come from data/catalogue.json; the state is an immutable named
tuple; `state_to_dict` writes the documented dict form and `read_state` reads one back, checking
every field and the shapes the rules can produce (InvalidState saying exactly what is wrong).
The rules themselves are in rules.py and the phase modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ...core.flow import OVER
from ...core.options import _short_repr, packaged_json, whole_number_problem
from ...core.records import StateReader, record

if TYPE_CHECKING:
    from .rules import BalloonsRules

# Final, so the compiled engine holds them as numbers instead of looking them up each time
PACKED: Final = 0
UNPACKED: Final = 1
INFLATED: Final = 2
FLYING: Final = 3
STATUS_NAMES = ("packed", "unpacked", "inflated", "flying")
# A state's `step`: its phase (advance or wind), or OVER once the game has ended.
ADVANCE: Final = "advance"
WIND: Final = "wind"
ADVANCE_TYPES = ("unpack", "inflate", "launch", "ascend")


def load_catalogue() -> dict[str, Any]:
    """The balloon cards and the player-count table, from data/catalogue.json."""
    data: dict[str, Any] = packaged_json(__package__, "data/catalogue.json")
    return data


CATALOGUE = load_catalogue()
BALLOON_COLOURS = {b["id"]: tuple(b["colours"]) for b in CATALOGUE["balloons"]}
COLOURS: tuple[str, ...] = tuple(CATALOGUE["colours"])


@record
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

    def __repr__(self) -> str:
        where = "over" if self.step == OVER else f"seat {self.player} to {self.step}"
        return f"<BalloonsState turn {self.turn}, {where}>"


def state_to_dict(rules: BalloonsRules, s: BalloonsState) -> dict[str, Any]:
    """The documented plain-data form of `s` (docs/rules/balloons.md), derived keys included."""
    balloons: dict[str, dict[str, Any]] = {}
    for b, bid in enumerate(rules.ids):
        st = s.status[b]
        entry: dict[str, Any] = {"status": STATUS_NAMES[st]}
        if st in (UNPACKED, INFLATED):
            entry["truck"] = s.where[b]
        elif st == FLYING:
            entry["column"] = s.where[b]
            entry["altitude"] = s.altitude[b]
        balloons[bid] = entry
    data = {
        "game": rules.name,
        "mode": rules.mode,
        "edition": rules.edition,
        "players": rules.players,
        "columns": rules.columns,
        "altitudes": rules.altitudes,
        "trucks": list(s.trucks),
        "safety": s.safety,
        "balloons": balloons,
        "row": [rules.ids[b] for b in s.row],
        "colours": {str(seat): COLOURS[c] for seat, c in enumerate(s.colours)},
        "turn": s.turn,
        "current_player": None if s.step == OVER else s.player,
        "step": s.step,
        "wind": s.wind,
        "lead_passed": s.lead_passed,
    }
    if s.step == WIND:  # derived, for the drawing: where each wind choice moves a truck
        data["wind_choices"] = rules.wind_choice_moves(s)
    if s.step == OVER:  # derived, for reading the result; ignored when a dict is loaded
        data["tokens"] = rules.tokens(s)
        data["scores"] = {str(seat): score for seat, score in rules.scores(s).items()}
    return data


def read_state(rules: BalloonsRules, data: Any) -> BalloonsState:
    """The state a dict describes, checked (InvalidState naming the problem)."""
    return _StateReader(rules, data).read()


class _StateReader(StateReader):
    """Builds a state from a dict, saying exactly what is wrong (InvalidState)."""

    KEYS = {"game", "mode", "edition", "players", "columns", "altitudes", "trucks", "safety",
            "balloons", "row", "colours", "turn", "current_player", "step", "wind",
            "lead_passed", "tokens", "scores", "wind_choices"}

    rules: BalloonsRules

    def int_field(self, name: str, low: int, high: int) -> int:
        return self.whole(self.data[name], repr(name), low, high)

    def read(self) -> BalloonsState:
        r, data = self.rules, self.data
        self.check_keys("a balloons state", self.KEYS, self.KEYS - {
            "tokens", "scores", "wind_choices", "game", "mode", "edition", "players", "columns",
            "altitudes", "wind", "lead_passed"})
        self.check_same((("game", r.name), ("mode", r.mode), ("edition", r.edition),
                         ("players", r.players), ("columns", r.columns),
                         ("altitudes", r.altitudes)))
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
