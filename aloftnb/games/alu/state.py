"""ALU's state: the position type and its plain-data form (the dict writer and reader).

The rules themselves are in rules.py; this module only says what a position holds, how it is
written as a dict, and how a dict is read back with a clear error for anything wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ...core.options import _short_repr, is_whole_number, whole_number_problem
from ...core.records import StateReader, record

if TYPE_CHECKING:
    from .rules import AluRules

CIRCLE, SQUARE = 0, 1
SEAT_NAMES = ("circle", "square")
TILE_CONTENTS = ("empty", "circle", "square", "raided")

# Indexes into a seat's resource tuple. RULING: food has no upper limit; the text does not say
# how many food sliders a counter holds.
# Final literals, so that compiled code (engine.py) reads them as constants.
CONSTRUCTION: Final = 0
CONSTRUCTION_SPENT: Final = 1
IRON: Final = 2
IRON_SPENT: Final = 3
FOOD: Final = 4
FOOD_PENDING: Final = 5
FOOD_SPENT: Final = 6

# Why a game ended (the "reason" of a result).
ELIMINATED, CONTROL, NO_ACTIONS = "eliminated", "control", "no_actions"
EDGE_NAMES = ("top", "bottom", "left", "right")


@record
class AluState(NamedTuple):
    """One position. Use `.to_dict()` for the documented plain-data form."""

    rules: AluRules
    # The per-seat pairs are typed tuple[X, ...], so that compiled code (engine.py) passes on
    # an unchanged pair as it is instead of unpacking it and building it again.
    camps: tuple[int, ...]  # per seat: bitmask of tiles holding that seat's camps
    raided: int  # bitmask of raided tiles
    resources: tuple[tuple[int, ...], ...]  # per seat, indexed by CONSTRUCTION...
    control: tuple[int, ...]  # per seat: bitmask of controlled tiles (derived, kept for speed)
    turn: int  # 1 is circle's first turn
    player: int  # seat to act; -1 once over
    actions_left: int  # actions the current player still has this turn; 0 once over
    winners: tuple[int, ...]  # () while the game goes on; both seats on a draw
    reason: str  # "" while the game goes on, else ELIMINATED, CONTROL or NO_ACTIONS

    def __repr__(self) -> str:
        if self.player < 0:
            return f"<AluState turn {self.turn}, over ({self.reason})>"
        return (f"<AluState turn {self.turn}, {SEAT_NAMES[self.player]} to act, "
                f"{self.actions_left} action(s) left>")


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _with(values: tuple, i: int, value: Any) -> tuple:
    return (value, values[1]) if i == 0 else (values[0], value)


def state_to_dict(rules: AluRules, s: AluState) -> dict[str, Any]:
    board = {}
    circles, squares = s.camps
    for i, tile in enumerate(rules.tiles):
        bit = 1 << i
        board[tile] = ("circle" if circles & bit else "square" if squares & bit
                       else "raided" if s.raided & bit else "empty")
    players = {}
    for seat, name in enumerate(SEAT_NAMES):
        r = s.resources[seat]
        players[name] = {
            "construction": {"available": r[CONSTRUCTION], "spent": r[CONSTRUCTION_SPENT]},
            "iron": {"available": r[IRON], "spent": r[IRON_SPENT]},
            "food": {"available": r[FOOD], "not_usable_yet": r[FOOD_PENDING],
                     "spent": r[FOOD_SPENT]},
        }
    over = s.player < 0
    return {
        "game": rules.name,
        "columns": rules.columns,
        "rows": rules.rows,
        "board": board,
        "players": players,
        "turn": s.turn,
        "current_player": None if over else s.player,
        "actions_left": s.actions_left,
        "result": {"winners": list(s.winners), "reason": s.reason} if over else None,
        "derived": rules.derived(s),
    }


def derived(rules: AluRules, s: AluState) -> dict[str, Any]:
    """Values that follow from the rest of the state; recomputed whenever a state is read."""
    return {
        "control": {name: rules.mask_tiles(s.control[seat])
                    for seat, name in enumerate(SEAT_NAMES)},
        "controlled_count": {name: _popcount(s.control[seat])
                             for seat, name in enumerate(SEAT_NAMES)},
        "camps_in_hand": {name: rules.camp_pieces - _popcount(s.camps[seat])
                          for seat, name in enumerate(SEAT_NAMES)},
        "raiding_pieces_left": rules.raiding_pieces - _popcount(s.raided),
        "win_tiles": rules.win_tiles,
        "result_text": rules.result_text(s),
    }


def read_state(rules: AluRules, data: Any) -> AluState:
    """A state from its dict, checked (InvalidState saying what is wrong)."""
    return _StateReader(rules, data).read()


class _StateReader(StateReader):
    """Builds a state from a dict, saying exactly what is wrong (InvalidState)."""

    KEYS = frozenset({"game", "columns", "rows", "board", "players", "turn", "current_player",
                      "actions_left", "result", "derived"})
    REQUIRED = frozenset({"board", "players", "turn", "current_player", "actions_left"})
    rules: AluRules

    def read(self) -> AluState:
        r, data = self.rules, self.data
        self.check_keys("an ALU state", self.KEYS, self.REQUIRED, list_keys=True)
        self.check_same((("game", r.name), ("columns", r.columns), ("rows", r.rows)))
        if "derived" in data and not isinstance(data["derived"], (dict, type(None))):
            self.fail("'derived' must be a dict (it is recomputed, so it may be left out)")
        camps, raided = self.read_board()
        resources = self.read_players()
        control = r._control(camps)
        turn = self.whole(data["turn"], "'turn'", 1)
        player, actions_left, winners, reason = self.read_progress(turn)
        state = AluState(r, camps, raided, resources, control, turn, player, actions_left,
                         winners, reason)
        self.check_outcome(state)
        return state

    def read_board(self) -> tuple[tuple[int, int], int]:
        r, board = self.rules, self.data["board"]
        if not isinstance(board, dict):
            self.fail("'board' must map tile ids (a1, b1, ...) to "
                      "'empty', 'circle', 'square' or 'raided'")
        extra = sorted((t for t in board if not isinstance(t, str) or t not in r.index), key=str)
        if extra:
            self.fail(f"'board' names {_short_repr(extra[0])}, which is not a tile of this "
                      f"{r.columns}x{r.rows} board (a1 to {r.tiles[-1]})")
        absent = [t for t in r.tiles if t not in board]
        if absent:
            self.fail(f"'board' has no entry for tile {absent[0]} (every tile needs one)")
        masks = {name: 0 for name in TILE_CONTENTS}
        for i, tile in enumerate(r.tiles):
            content = board[tile]
            if not isinstance(content, str) or content not in masks:
                self.fail(f"tile {tile} holds {_short_repr(content)}; a tile is 'empty', "
                          "'circle', 'square' or 'raided'")
            masks[content] |= 1 << i
        for name in SEAT_NAMES:
            on_board = _popcount(masks[name])
            if on_board > r.camp_pieces:
                self.fail(f"{name} has {on_board} camps on the board but only {r.camp_pieces} "
                          "camp pieces")
        if _popcount(masks["raided"]) > r.raiding_pieces:
            self.fail(f"{_popcount(masks['raided'])} tiles are raided but there are only "
                      f"{r.raiding_pieces} raiding pieces")
        return (masks["circle"], masks["square"]), masks["raided"]

    def read_players(self):
        r, players = self.rules, self.data["players"]
        if not isinstance(players, dict) or set(players) != set(SEAT_NAMES):
            self.fail("'players' must have exactly the entries 'circle' and 'square'")
        out = []
        for name in SEAT_NAMES:
            entry = players[name]
            if not isinstance(entry, dict) or set(entry) != {"construction", "iron", "food"}:
                self.fail(f"players.{name} must have exactly 'construction', 'iron' and 'food'")
            counters = []
            for resource, fields, start in (
                    ("construction", ("available", "spent"), r.start_construction),
                    ("iron", ("available", "spent"), r.start_iron),
                    ("food", ("available", "not_usable_yet", "spent"), None)):
                counter = entry[resource]
                if not isinstance(counter, dict) or set(counter) != set(fields):
                    self.fail(f"players.{name}.{resource} must have exactly the keys "
                              f"{', '.join(fields)}")
                values = [self.whole(counter[f], f"players.{name}.{resource}.{f}")
                          for f in fields]
                if start is not None and sum(values) != start:
                    self.fail(f"{name}'s {resource}: available {values[0]} + spent {values[1]} "
                              f"is {sum(values)}, but the counter holds {start} (the match's "
                              f"'{resource}' option)")
                counters.extend(values)
            out.append(tuple(counters))
        return tuple(out)

    def read_progress(self, turn: int):
        r, data = self.rules, self.data
        result = data.get("result")
        player = data["current_player"]
        actions_left = data["actions_left"]
        if result is None:
            if whole_number_problem(player, 0, 1):
                self.fail(f"'current_player' must be 0 (circle) or 1 (square) while the game "
                          f"goes on, not {_short_repr(player)}")
            if player != (turn - 1) % 2:
                self.fail(f"turn {turn} is {SEAT_NAMES[(turn - 1) % 2]}'s turn (circle plays "
                          f"the odd turns), but 'current_player' is {player}")
            most = r.first_turn_actions if turn == 1 else r.actions_per_turn
            self.whole(actions_left, "'actions_left'", 1, most)
            return player, actions_left, (), ""
        if not isinstance(result, dict) or set(result) != {"winners", "reason"}:
            self.fail("'result' must be None while the game goes on, or "
                      "{'winners': [...], 'reason': ...} once it is over")
        if player is not None:
            self.fail("'current_player' must be None once the game is over")
        if actions_left != 0:
            self.fail("'actions_left' must be 0 once the game is over")
        reason = result["reason"]
        if not isinstance(reason, str) or reason not in (ELIMINATED, CONTROL, NO_ACTIONS):
            self.fail(f"result reason must be {ELIMINATED!r}, {CONTROL!r} or {NO_ACTIONS!r}, "
                      f"not {_short_repr(reason)}")
        winners = result["winners"]
        if (not isinstance(winners, list) or not all(is_whole_number(w) for w in winners)
                or winners not in ([0], [1], [0, 1])):
            self.fail(f"result winners must be [0], [1] or [0, 1] (a draw), not "
                      f"{_short_repr(winners)}")
        return -1, 0, tuple(winners), reason

    def check_outcome(self, s: AluState) -> None:
        r = self.rules
        counts = (_popcount(s.control[0]), _popcount(s.control[1]))
        reach = [seat for seat in (0, 1) if counts[seat] >= r.win_tiles]
        if s.player >= 0:
            if reach:
                self.fail(f"{SEAT_NAMES[reach[0]]} controls {counts[reach[0]]} tiles, at least "
                          f"the {r.win_tiles} that win at once: this position is already over")
            if not (r.can_act(s, 0) or r.can_act(s, 1)):
                self.fail("neither player has any legal action in this position, so the game "
                          "would be over: give a player resources or room, or set 'result'")
            return
        if s.reason == ELIMINATED:
            if len(s.winners) != 1 or s.camps[1 - s.winners[0]] or not s.camps[s.winners[0]]:
                self.fail("result 'eliminated' needs one winner with camps on the board (the "
                          "last attack came from one) and a loser with none")
        elif s.reason == CONTROL:
            if len(s.winners) != 1 or s.winners[0] not in reach:
                self.fail(f"result 'control' needs a winner controlling at least {r.win_tiles} "
                          f"tiles (circle controls {counts[0]}, square {counts[1]})")
        else:
            if reach:
                self.fail(f"{SEAT_NAMES[reach[0]]} controls {counts[reach[0]]} tiles, at least "
                          f"the {r.win_tiles} that win at once: the result is 'control', not "
                          "'no_actions'")
            able = [SEAT_NAMES[seat] for seat in (0, 1) if r.can_act(s, seat)]
            if able:
                self.fail(f"result 'no_actions' says neither player can act, but {able[0]} still "
                          "has a legal action (resources and room) in this position")
            expected = ([0, 1] if counts[0] == counts[1] else [0] if counts[0] > counts[1]
                        else [1])
            if list(s.winners) != expected:
                self.fail(f"result 'no_actions' goes to the player controlling more tiles "
                          f"(circle {counts[0]}, square {counts[1]}), so winners are {expected}")
