"""ALU: Loki's island — the complete rules of the two-player area-control game.

Rulings where the text is silent or unclear are marked RULING and listed in docs/rules/alu.md.

The state type and its dict form are in state.py, the action types (fields, sentences, numbering)
in actions.py, the fast path (legal actions, apply, control updates) in engine.py, the helpers for
notebooks in notebook.py.

The board is kept as bitboards: bit `row * columns + column` (row 0 at the top) is one tile. A state
holds one camp mask per seat and one mask of raided tiles, so adjacency, legal targets and the
flood fill that finds bordered areas are a few integer operations each.

Seat 0 plays the circles and moves first; seat 1 plays the squares.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from ...core.action import Action
from ...core.options import Option, int_between
from ...core.rules import Rules
from ...core.traits import Outcome, Traits
from ...errors import IllegalAction, InvalidOptions
from . import engine, notebook
from .actions import (  # noqa: F401 (re-exported: this module is where the rules' names live)
    ACTIONS,
    END_TURN,
    TILE_ACTIONS,
    AluAction,
    tile_key,
)
from .state import (  # noqa: F401 (re-exported: this module is where the rules' names live)
    CIRCLE,
    CONSTRUCTION,
    CONSTRUCTION_SPENT,
    CONTROL,
    EDGE_NAMES,
    ELIMINATED,
    FOOD,
    FOOD_PENDING,
    FOOD_SPENT,
    IRON,
    IRON_SPENT,
    NO_ACTIONS,
    SEAT_NAMES,
    SQUARE,
    TILE_CONTENTS,
    AluState,
    _popcount,
    _with,
    derived,
    read_state,
    state_to_dict,
)

# What each action costs: (construction, iron, food).
COSTS = {"camp": (1, 0, 0), "raid": (1, 0, 0), "restore": (1, 0, 0),
         "raided_camp": (2, 1, 0), "attack": (0, 1, 1), END_TURN: (0, 0, 0)}


def cost_text(kind: str) -> str:
    """What an action costs, in words, from COSTS: the board's action bar and menus show it."""
    if kind == END_TURN:
        return "when no action is possible"
    parts = [f"{n} {what}" for n, what in zip(COSTS[kind], ("construction", "iron", "food"))
             if n]
    if kind == "raid":
        parts.append("+1 food")
    return ", ".join(parts)


ACTION_NAMES = {"camp": "set up a camp", "raid": "raid", "restore": "restore a raided tile",
                "raided_camp": "set up a camp on a raided tile", "attack": "attack",
                END_TURN: "end the turn"}


class AluRules(Rules[AluState, Action]):
    name = "alu"
    title = "ALU: Loki's island"
    summary = ("Two Viking rulers set up camps, raid and attack on a grid; control more of the "
               "island than your rival.")
    traits = Traits(player_counts=(2,), utility="win_loss")
    encoding = "aloftnb.games.alu.encoding"  # the observations (encoding.py)
    actions = ACTIONS  # action_class, action_types, parse_action, str() and numbering follow
    derived_keys = ("derived",)  # recomputed from the rest; Match.edit drops it
    option_spec: ClassVar[dict[str, Option]] = {
        "columns": Option("columns", 8, "board width in tiles", check=int_between(2, 26)),
        "rows": Option("rows", 5, "board height in tiles", check=int_between(2, 26)),
        "win_tiles": Option("win_tiles", None, "controlled tiles that win at once",
                            check=int_between(1, 676),
                            default_note="more than half the tiles (21 on the 8x5 board)"),
        "construction": Option("construction", 25, "construction each player starts with",
                               check=int_between(0, 1000)),
        "iron": Option("iron", 10, "iron each player starts with", check=int_between(0, 1000)),
        "camps": Option("camps", 14, "camp pieces per player", check=int_between(1, 676)),
        "raiding_pieces": Option("raiding_pieces", 14, "raiding pieces, shared by both players",
                                 check=int_between(0, 676)),
        "first_turn_actions": Option("first_turn_actions", 2, "actions in circle's first turn",
                                     check=int_between(1, 10)),
        "actions_per_turn": Option("actions_per_turn", 3, "actions in every later turn",
                                   check=int_between(1, 10)),
    }

    def max_length(self) -> int:
        """Every action but ending a turn spends construction or iron, and a turn ends with no
        action only when the rival can still act, so turn ends are at most one more than actions.
        """
        actions = 2 * (self.start_construction + self.start_iron)
        return 2 * actions + 1

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        if self.players != 2:
            raise InvalidOptions(f"ALU is a game for 2 players, not {self.players}")
        opts = self.options
        self.columns, self.rows = opts["columns"], opts["rows"]
        n = self.tile_count = self.columns * self.rows
        if opts["win_tiles"] is None:
            opts["win_tiles"] = n // 2 + 1  # RULING: the 21 of 40 generalises to a majority
        elif opts["win_tiles"] > n:
            raise InvalidOptions(f"option win_tiles={opts['win_tiles']} is more than the "
                                 f"{n} tiles of a {self.columns}x{self.rows} board")
        self.win_tiles = opts["win_tiles"]
        self.start_construction, self.start_iron = opts["construction"], opts["iron"]
        self.camp_pieces, self.raiding_pieces = opts["camps"], opts["raiding_pieces"]
        self.first_turn_actions = opts["first_turn_actions"]
        self.actions_per_turn = opts["actions_per_turn"]

        cols, rows = self.columns, self.rows
        self.tiles: tuple[str, ...] = tuple(
            f"{string.ascii_lowercase[c]}{r + 1}" for r in range(rows) for c in range(cols))
        self.index = {tile: i for i, tile in enumerate(self.tiles)}
        self.full = (1 << n) - 1
        left = sum(1 << (r * cols) for r in range(rows))
        right = left << (cols - 1)
        top = (1 << cols) - 1
        bottom = top << (cols * (rows - 1))
        self.edge_masks = (top, bottom, left, right)  # in EDGE_NAMES order
        self.edge_tiles = top | bottom | left | right
        self.not_left, self.not_right = self.full & ~left, self.full & ~right
        self._actions = {kind: tuple(AluAction(kind, tile=t) for t in self.tiles)
                         for kind in TILE_ACTIONS}
        self._end_turn = AluAction(END_TURN)
        # The fast path's tables as typed fields (engine.py)
        order = (*TILE_ACTIONS, END_TURN)
        kinds = {kind: n for n, kind in enumerate(order)}
        self._board = engine.Board(self, kinds, tuple(self._actions.values()), self._end_turn,
                                   tuple(COSTS[kind] for kind in order))

    def neighbours(self, mask: int) -> int:
        """Tiles orthogonally next to any tile of `mask` (may include tiles of `mask`)."""
        return engine.neighbours(self._board, mask)

    def mask_tiles(self, mask: int) -> list[str]:
        """Tile ids of a bitmask, in reading order (top row first, left to right)."""
        tiles = []
        while mask:
            low = mask & -mask
            tiles.append(self.tiles[low.bit_length() - 1])
            mask ^= low
        return tiles

    def tiles_mask(self, tiles) -> int:
        return sum(1 << self.index[t] for t in set(tiles))

    # -- set-up --------------------------------------------------------------------------------
    def initial_state(self, seed: int) -> AluState:
        # ALU has no chance: the seed changes nothing.
        # RULING: seat 0 holds the circles, so it starts; the text gives no way to choose.
        seat_resources = (self.start_construction, 0, self.start_iron, 0, 0, 0, 0)
        return AluState(self, camps=(0, 0), raided=0, resources=(seat_resources, seat_resources),
                        control=(0, 0), turn=1, player=CIRCLE,
                        actions_left=self.first_turn_actions, winners=(), reason="")

    # -- control (bordering) -------------------------------------------------------------------
    def fill(self, seed: int, within: int) -> int:
        """The orthogonally connected part of `within` that contains `seed` (every part that
        contains a tile of `seed`, when it has several)."""
        return engine.fill(self._board, seed, within)

    def bordered(self, region: int, opposing: int) -> bool:
        """Whether a region (see regions()) is bordered: no opposing camp, at most two edges."""
        return engine.bordered(self._board, region, opposing)

    def regions(self, camps: tuple[int, ...], seat: int) -> list[tuple[int, int, bool]]:
        """`seat`'s regions: (tiles mask, edges-touched mask, holds an opposing camp).

        A region is a maximal orthogonally connected set of tiles without `seat`'s camps, so two
        of its camps meeting only at a corner already wall it: a region can leave only through a
        tile's side, never through a corner.
        """
        own, opposing = camps[seat], camps[1 - seat]
        free = self.full & ~own
        found = []
        remaining = free
        while remaining:
            region = self.fill(remaining & -remaining, free)
            remaining &= ~region
            edges = 0
            for bit, edge in enumerate(self.edge_masks):
                if region & edge:
                    edges |= 1 << bit
            found.append((region, edges, bool(region & opposing)))
        return found

    def controlled_mask(self, camps: tuple[int, ...], seat: int) -> int:
        """`seat`'s camps plus every region they border.

        RULING: a region is bordered when it holds no opposing camp and touches at most two of
        the board's four edges (a corner tile touches two). Its other sides are then all the
        player's camps, joined orthogonally or diagonally. Empty and raided tiles inside count.
        """
        own, opposing = camps[seat], camps[1 - seat]
        if not own:
            return 0
        free = self.full & ~own
        # Every region holding an opposing camp at once (one fill from all of them); each of
        # the others is bordered unless it touches three or four edges.
        remaining = free & ~self.fill(opposing, free)
        controlled = own
        while remaining:
            region = self.fill(remaining & -remaining, remaining)
            remaining ^= region
            if self.bordered(region, 0):
                controlled |= region
        return controlled

    def _control(self, camps: tuple[int, ...]) -> tuple[int, ...]:
        return (self.controlled_mask(camps, CIRCLE), self.controlled_mask(camps, SQUARE))

    # -- the fast path -------------------------------------------------------------------------
    def current_player(self, state: AluState) -> int | None:
        return None if state.player < 0 else state.player

    def is_over(self, state: AluState) -> bool:
        return state.player < 0

    def round(self, state: AluState) -> int:
        return (state.turn + 1) // 2  # circle plays the odd turns, square the even ones

    # The fast path is engine.py's: legal actions and apply as functions on the board's masks.
    def legal_actions(self, state: AluState) -> list[Action]:
        return engine.legal_actions(self._board, state)

    def legal_indices(self, state: AluState, seat: int) -> list[int]:
        return engine.legal_indices(self._board, state)

    def apply(self, s: AluState, action: Action) -> AluState:
        return engine.apply(self._board, s, action)

    def can_act(self, state: AluState, seat: int) -> bool:
        """Whether `seat` has a legal action at the start of its next turn.

        RULING: food not usable yet counts here; it becomes usable at that next turn.
        """
        camps = state.camps
        return engine.can_act(self._board, camps[seat], camps[1 - seat], state.raided,
                              state.resources[seat])

    # -- scoring -------------------------------------------------------------------------------
    def scores(self, state: AluState) -> dict[int, float]:
        """Controlled tiles per seat (a running count before the end)."""
        return {seat: _popcount(state.control[seat]) for seat in (0, 1)}

    def outcome(self, state: AluState) -> Outcome | None:
        if state.player >= 0:
            return None
        return Outcome(state.winners, self.scores(state), self.result_text(state))

    def result_text(self, state: AluState) -> str:
        if state.player >= 0:
            return ""
        counts = self.scores(state)
        if state.reason == ELIMINATED:
            loser = 1 - state.winners[0]
            return (f"{SEAT_NAMES[state.winners[0]]} wins: {SEAT_NAMES[loser]} has no camps "
                    "left on the board")
        if state.reason == CONTROL:
            w = state.winners[0]
            return f"{SEAT_NAMES[w]} wins by controlling {counts[w]} tiles"
        if len(state.winners) == 2:
            return f"a draw: neither player can act, and both control {counts[0]} tiles"
        w = state.winners[0]
        return (f"{SEAT_NAMES[w]} wins: neither player can act, and {SEAT_NAMES[w]} controls "
                f"{counts[w]} tiles to {counts[1 - w]}")

    # -- dict form (state.py) ------------------------------------------------------------------
    def state_to_dict(self, s: AluState) -> dict[str, Any]:
        return state_to_dict(self, s)

    def derived(self, s: AluState) -> dict[str, Any]:
        """Values that follow from the rest of the state; recomputed whenever a state is read."""
        return {
            **derived(self, s),
            # For drawings, which read only the view: costs and this turn's number of actions.
            "action_costs": {kind: cost_text(kind) for kind in COSTS},
            "actions_this_turn": self.first_turn_actions if s.turn == 1 else self.actions_per_turn,
        }

    def state_from_dict(self, data: Any) -> AluState:
        return read_state(self, data)

    # -- helpers for notebooks (notebook.py) -----------------------------------------------------
    def board_from_text(self, text: str) -> dict[str, str]:
        """A `board` dict from a diagram: one line per row, top row first, one symbol per tile.

        Symbols: `.` empty, `C` circle camp, `S` square camp, `R` raided (any case); spaces
        between symbols are optional. Use it as `match.edit(board=rules.board_from_text(...))`.
        """
        return notebook.board_from_text(self, text)

    def position(self, diagram: str, *, to_act: str = "circle", actions_left: int | None = None,
                 turn: int | None = None, **available: dict[str, int]) -> dict[str, Any]:
        """A state dict for a position drawn as a diagram, ready for `match.set_state(...)`.

        to_act: "circle" or "square". turn: defaults to a later turn (3 or 4), not the first.
        circle= / square=: available amounts, e.g. square={"food": 2, "not_usable_yet": 1};
        anything not given keeps the starting amount (spent is what the counter is missing).
        """
        return notebook.position(self, diagram, to_act=to_act, actions_left=actions_left,
                                 turn=turn, **available)

    def text_diagram(self, state: AluState) -> str:
        """The board and who controls each tile, as two text grids (for printing in a cell)."""
        return notebook.text_diagram(self, state)

    def region_report(self, state: AluState, seat: int) -> list[dict[str, Any]]:
        """`seat`'s regions, each with why it is or is not bordered (to teach bordering)."""
        return notebook.region_report(self, state, seat)

    # -- actions: shape and reasons ------------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        """The declared checks (actions.py), then the canonical action: tile names are read
        without case or surrounding spaces ("B3 " is b3)."""
        action = super().parse_action(data)
        if action.type == END_TURN:
            return self._end_turn
        return self._actions[action.type][self.index[tile_key(action.tile)]]

    def why_illegal(self, s: AluState, action: Action) -> str:
        problem = self.problem(s, action)
        return problem or f"{action} is not a legal action now"

    def problem(self, s: AluState, action: Action) -> str | None:
        """Why `action` cannot be played now, or None when it is legal."""
        if s.player < 0:
            return f"the game is over; {action} cannot be played"
        seat = s.player
        who = SEAT_NAMES[seat]
        kind = action.type
        if kind == END_TURN:
            options = engine.tile_actions(self._board, self._board.tables, s.camps[seat],
                                          s.camps[1 - seat], s.raided, s.resources[seat],
                                          s.resources[seat][FOOD])
            if options:
                return (f"{who} still has {s.actions_left} action(s) this turn and a legal one "
                        f"({options[0]}); a turn ends early only when no action is possible")
            return None
        i = self.index[action.tile]
        bit, tile = 1 << i, action.tile
        own, opposing = s.camps[seat], s.camps[1 - seat]
        res = s.resources[seat]
        content = (f"{who}'s own camp" if own & bit else f"{SEAT_NAMES[1 - seat]}'s camp"
                   if opposing & bit else "a raiding piece" if s.raided & bit else "nothing")
        in_hand = self.camp_pieces - _popcount(own)
        pieces_left = self.raiding_pieces - _popcount(s.raided)
        if not own and kind != "camp":
            return (f"{who} has no camp on the board yet: the first action must be setting "
                    "up a camp on a vacant edge tile")
        wanted = {"camp": "vacant", "raid": "vacant", "restore": "raided",
                  "raided_camp": "raided", "attack": "opposing"}[kind]
        state_ok = {"vacant": not (bit & (own | opposing | s.raided)),
                    "raided": bool(bit & s.raided), "opposing": bool(bit & opposing)}[wanted]
        if not state_ok:
            need = {"vacant": "a vacant tile", "raided": "a raided tile",
                    "opposing": f"a tile holding {SEAT_NAMES[1 - seat]}'s camp"}[wanted]
            hint = ""
            if kind in ("camp", "raid") and bit & s.raided:
                hint = " (restore it first, or set up a camp on the raided tile)"
            return f"{ACTION_NAMES[kind]} needs {need}; {tile} holds {content}{hint}"
        if not own:
            if not bit & self.edge_tiles:
                return f"{tile} is not on the board's edge; {who}'s first camp must be on one"
        elif not self.neighbours(own) & bit:
            return (f"{tile} is not orthogonally next to any of {who}'s camps; actions reach "
                    "only tiles beside your own camps, never diagonally")
        cost_c, cost_i, cost_f = COSTS[kind]
        if res[CONSTRUCTION] < cost_c:
            return (f"{ACTION_NAMES[kind]} costs {cost_c} construction; {who} has "
                    f"{res[CONSTRUCTION]} available")
        if res[IRON] < cost_i:
            return f"{ACTION_NAMES[kind]} costs {cost_i} iron; {who} has {res[IRON]} available"
        if res[FOOD] < cost_f:
            later = (f" ({res[FOOD_PENDING]} food from raids this turn becomes usable next turn)"
                     if res[FOOD_PENDING] else "")
            return (f"attacking costs 1 iron and 1 food; {who} has no usable food{later}")
        if kind in ("camp", "raided_camp") and in_hand < 1:
            return f"{who} has no camp pieces left: all {self.camp_pieces} are on the board"
        if kind in ("raid", "attack") and pieces_left < 1:
            return (f"all {self.raiding_pieces} raiding pieces are on the board"
                    + ("; an attack must mark the tile as raided" if kind == "attack" else ""))
        return None

    def check_action(self, state: AluState, data: Any) -> Action:
        action = self.parse_action(data)
        problem = self.problem(state, action)
        if problem:
            raise IllegalAction(problem)
        return action

    def describe_action(self, s: AluState, action: Action) -> str:
        seat = s.player
        return ACTIONS.done(
            action, who=SEAT_NAMES[seat] if seat >= 0 else "nobody",
            first=lambda: "" if s.camps[seat] else " (first camp)",
            victim=lambda: SEAT_NAMES[1 - seat])

    # -- drawing -------------------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        from .drawing import draw_board

        return draw_board(self, view, **options)

    def action_path(self, s: AluState, action: Action) -> list[str]:
        if action.type == END_TURN:
            return ["do:end_turn"]
        return [f"tile:{action.tile}", f"do:{action.type}"]

    def action_label(self, action: Action) -> str:
        """Button text for the last step of an action's path, with its cost."""
        return f"{str(action).capitalize()} ({cost_text(action.type)})"


