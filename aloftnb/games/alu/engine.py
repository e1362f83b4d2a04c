"""ALU's fast path on bitboards: the legal actions, applying one, and the control updates.

Bit `row * columns + column` (row 0 at the top) is one tile. `Board` holds one rules object's
masks and numbers; the functions here take it and a state, so that the compiled build (mypyc)
runs them as plain functions on native whole numbers. rules.py calls them; the rulings they
carry are listed in docs/rules/alu.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from ...core.action import Action
from .state import (
    CONSTRUCTION,
    CONSTRUCTION_SPENT,
    CONTROL,
    ELIMINATED,
    FOOD,
    FOOD_PENDING,
    FOOD_SPENT,
    IRON,
    IRON_SPENT,
    NO_ACTIONS,
    AluState,
)

if TYPE_CHECKING:
    from .rules import AluRules

# Action kinds as numbers (TILE_ACTIONS order); Board.kinds maps the names to them.
CAMP: Final = 0
RAID: Final = 1
RESTORE: Final = 2
RAIDED_CAMP: Final = 3
ATTACK: Final = 4
END: Final = 5


@final
class Board:
    """One rules object's board masks, piece counts and action tables."""

    def __init__(self, rules: AluRules, kinds: dict[str, int],
                 tables: tuple[tuple[Action, ...], ...], end_turn: Action,
                 costs: tuple[tuple[int, int, int], ...]) -> None:
        self.rules = rules
        self.columns: int = rules.columns
        # The rules' masks, typed here so that compiled code reads them as whole numbers.
        self.full: int = rules.full
        top, bottom, left, right = rules.edge_masks
        self.top: int = top
        self.bottom: int = bottom
        self.left: int = left
        self.right: int = right
        self.edge_tiles: int = rules.edge_tiles
        self.not_left: int = rules.not_left
        self.not_right: int = rules.not_right
        self.camp_pieces: int = rules.camp_pieces
        self.raiding_pieces: int = rules.raiding_pieces
        self.win_tiles: int = rules.win_tiles
        self.actions_per_turn: int = rules.actions_per_turn
        self.index: dict[str, int] = rules.index
        self.kinds = kinds
        self.tables = tables
        self.end_turn = end_turn
        # the same tables with each action's index (the adapters' number) in its place, made
        # when first asked (legal_indices)
        self.index_tables: tuple[tuple[int, ...], ...] | None = None
        self.end_turn_index = -1
        self.costs = costs  # (construction, iron, food) by kind: rules.COSTS in kind order


def neighbours(b: Board, mask: int) -> int:
    """Tiles orthogonally next to any tile of `mask` (may include tiles of `mask`)."""
    return (((mask << 1) & b.not_left) | ((mask >> 1) & b.not_right)
            | ((mask << b.columns) & b.full) | (mask >> b.columns))


def fill(b: Board, seed: int, within: int) -> int:
    """The orthogonally connected part of `within` that contains `seed` (every part that
    contains a tile of `seed`, when it has several)."""
    # neighbours() inlined, with the wrap-around masks folded into `within`: the hot loop.
    columns = b.columns
    within_left, within_right = within & b.not_left, within & b.not_right
    region = seed
    while True:
        grown = (region | (((region << columns) | (region >> columns)) & within)
                 | ((region << 1) & within_left) | ((region >> 1) & within_right))
        if grown == region:
            return region
        region = grown


def bordered(b: Board, region: int, opposing: int) -> bool:
    """Whether a region is bordered: no opposing camp, at most two edges."""
    if region & opposing:
        return False
    edges = 0
    if region & b.top:
        edges += 1
    if region & b.bottom:
        edges += 1
    if region & b.left:
        edges += 1
    if region & b.right:
        edges += 1
    return edges <= 2


# -- legal actions -----------------------------------------------------------------------------
def legal_actions(b: Board, s: AluState) -> list[Action]:
    return listed(b, s, b.tables, b.end_turn)


def legal_indices(b: Board, s: AluState) -> list[int]:
    """The adapters' indices of legal_actions, in its order (the same code, on tables of
    indices)."""
    tables = b.index_tables
    if tables is None:
        number = b.rules.action_to_index
        tables = b.index_tables = tuple(tuple(number(action) for action in table)
                                        for table in b.tables)
        b.end_turn_index = number(b.end_turn)
    return listed(b, s, tables, b.end_turn_index)


def listed(b: Board, s: AluState, tables: tuple[tuple[Any, ...], ...], end_turn: Any
           ) -> list[Any]:
    """The legal actions, as the entries of `tables` and `end_turn` (actions or indices)."""
    seat = s.player
    if seat < 0:
        return []
    camps = s.camps
    res = s.resources[seat]
    acts = tile_actions(b, tables, camps[seat], camps[1 - seat], s.raided, res, res[FOOD])
    # RULING: a turn ends early only when no action is legal; then end_turn is the one choice.
    if not acts:
        acts.append(end_turn)
    return acts


def tile_actions(b: Board, tables: tuple[tuple[Any, ...], ...], own: int, opposing: int,
                 raided: int, res: tuple[int, ...], food: int) -> list[Any]:
    """The legal tile actions of the seat with camps `own`, kind by kind, lowest tile first."""
    construction, iron = res[CONSTRUCTION], res[IRON]
    camps_in_hand = b.camp_pieces - own.bit_count() >= 1
    pieces_left = b.raiding_pieces - raided.bit_count() >= 1
    vacant = b.full & ~(own | opposing | raided)
    acts: list[Any] = []
    if not own:
        # RULING: a player with no camp on the board (only possible before their first
        # camp, or in a position set up from a cell) may only camp on a vacant edge tile.
        if construction >= 1 and camps_in_hand:
            add(acts, tables[CAMP], vacant & b.edge_tiles)
        return acts
    reach = neighbours(b, own) & ~own
    if construction >= 1:
        near_vacant, near_raided = reach & vacant, reach & raided
        if camps_in_hand:
            add(acts, tables[CAMP], near_vacant)
        if pieces_left:
            add(acts, tables[RAID], near_vacant)
        add(acts, tables[RESTORE], near_raided)  # RULING: whoever raided it
        if construction >= 2 and iron >= 1 and camps_in_hand:
            add(acts, tables[RAIDED_CAMP], near_raided)
    # RULING: an attack needs a raiding piece in reserve to mark the tile.
    if iron >= 1 and food >= 1 and pieces_left:
        add(acts, tables[ATTACK], reach & opposing)
    return acts


def add(acts: list[Any], table: tuple[Any, ...], mask: int) -> None:
    """Append the entries of `table` (actions, or indices) on the tiles of `mask`, lowest tile
    first."""
    while mask:
        low = mask & -mask
        acts.append(table[low.bit_length() - 1])
        mask ^= low


def can_act(b: Board, own: int, opposing: int, raided: int, res: tuple[int, ...]) -> bool:
    """Whether the seat with camps `own` has a legal tile action at the start of its next turn.

    RULING: food not usable yet counts here; it becomes usable at that next turn.
    """
    construction = res[CONSTRUCTION]
    camps_in_hand = b.camp_pieces - own.bit_count() >= 1
    vacant = b.full & ~(own | opposing | raided)
    if not own:
        return construction >= 1 and camps_in_hand and vacant & b.edge_tiles != 0
    reach = neighbours(b, own) & ~own
    pieces_left = b.raiding_pieces - raided.bit_count() >= 1
    if construction >= 1:
        # A raided tile in reach can always be restored (and camping on it needs more).
        if reach & raided or (reach & vacant and (camps_in_hand or pieces_left)):
            return True
    return (res[IRON] >= 1 and res[FOOD] + res[FOOD_PENDING] >= 1 and pieces_left
            and reach & opposing != 0)


# -- applying an action --------------------------------------------------------------------------
def apply(b: Board, s: AluState, action: Action) -> AluState:
    seat = s.player
    kind = b.kinds[action.type]
    if kind == END:
        return pass_turn(b, s, s.camps, s.raided, s.resources, s.control)
    bit = 1 << b.index[action._params["tile"]]
    other = 1 - seat
    camps, raided, control = s.camps, s.raided, s.control
    own, opposing = camps[seat], camps[other]
    mine = control[seat]
    res = s.resources[seat]
    pending = res[FOOD_PENDING]
    if kind == RAID:
        raided |= bit
        pending += 1  # usable from this player's next turn
    elif kind == RESTORE:
        raided &= ~bit
    else:  # the camps change, and control around the tile
        if kind == ATTACK:  # the camp goes back to its owner's hand and the tile is raided
            opposing &= ~bit
            raided |= bit
            mine, theirs = control_after_attack(b, own, opposing, mine, control[other], bit)
        else:
            if kind == RAIDED_CAMP:
                raided &= ~bit
            own |= bit
            mine, theirs = control_after_camp(b, own, opposing, mine, control[other], bit)
        camps = (opposing, own) if seat else (own, opposing)
        control = (theirs, mine) if seat else (mine, theirs)
    c, i, f = b.costs[kind]
    spent: tuple[int, ...] = (
        res[CONSTRUCTION] - c, res[CONSTRUCTION_SPENT] + c, res[IRON] - i, res[IRON_SPENT] + i,
        res[FOOD] - f, pending, res[FOOD_SPENT] + f)
    resources = (s.resources[0], spent) if seat else (spent, s.resources[1])
    # Instant ends, checked after every action.
    if kind == ATTACK and not opposing:
        return over(b, s, camps, raided, resources, control, (seat,), ELIMINATED)
    # Only the actor can gain control: its camps and attacks only ever cost the other side.
    if mine.bit_count() >= b.win_tiles:
        return over(b, s, camps, raided, resources, control, (seat,), CONTROL)
    if s.actions_left > 1:
        # RULING: the game also ends when neither player has any legal action left, even
        # with resources in hand (nothing either can do will change the board again).
        if not (can_act(b, own, opposing, raided, spent)
                or can_act(b, opposing, own, raided, resources[other])):
            return final_count(b, s, camps, raided, resources, control)
        return new_state(b, camps, raided, resources, control, s.turn, seat,
                         s.actions_left - 1, (), "")
    return pass_turn(b, s, camps, raided, resources, control)


def control_after_camp(b: Board, own: int, opposing: int, mine: int, theirs: int,
                       bit: int) -> tuple[int, int]:
    """The actor's and the other seat's control once the actor has set up a camp on `bit` (now
    in `own`): only the regions around that tile change, so only they are filled."""
    if not mine & bit:
        # The tile's old region was not bordered; the pieces it splits into may be.
        free = b.full & ~own
        mine |= bit
        around = neighbours(b, bit) & free
        while around:
            region = fill(b, around & -around, free)
            around &= ~region
            if bordered(b, region, opposing):
                mine |= region
    if theirs & bit:
        # The other seat's bordered region around the tile now holds an opposing camp.
        theirs &= ~fill(b, bit, b.full & ~opposing)
    return mine, theirs


def control_after_attack(b: Board, own: int, opposing: int, mine: int, theirs: int,
                         bit: int) -> tuple[int, int]:
    """The actor's and the other seat's control once the actor's attack has removed the
    other's camp on `bit` (no longer in `opposing`)."""
    # The attacker's region around the tile lost an opposing camp: it may now be bordered.
    region = fill(b, bit, b.full & ~own)
    if bordered(b, region, opposing):
        mine |= region
    # The tile joins the other seat's regions next to it into one.
    if opposing:
        merged = fill(b, bit, b.full & ~opposing)
        theirs &= ~merged
        if bordered(b, merged, own):
            theirs |= merged
    else:
        theirs = 0
    return mine, theirs


def pass_turn(b: Board, s: AluState, camps: tuple[int, ...], raided: int,
              resources: tuple[tuple[int, ...], ...], control: tuple[int, ...]) -> AluState:
    seat = s.player
    res = resources[seat]
    if res[FOOD_PENDING]:  # RULING: raided food becomes usable when the raider's turn ends
        res = (res[CONSTRUCTION], res[CONSTRUCTION_SPENT], res[IRON], res[IRON_SPENT],
               res[FOOD] + res[FOOD_PENDING], 0, res[FOOD_SPENT])
        resources = (res, resources[1]) if seat == 0 else (resources[0], res)
    nxt = 1 - seat
    if not (can_act(b, camps[nxt], camps[seat], raided, resources[nxt])
            or can_act(b, camps[seat], camps[nxt], raided, res)):
        return final_count(b, s, camps, raided, resources, control)
    return new_state(b, camps, raided, resources, control, s.turn + 1, nxt,
                     b.actions_per_turn, (), "")


def final_count(b: Board, s: AluState, camps: tuple[int, ...], raided: int,
                resources: tuple[tuple[int, ...], ...], control: tuple[int, ...]) -> AluState:
    """Neither player can act: more controlled tiles wins, equal is a draw."""
    first, second = control[0].bit_count(), control[1].bit_count()
    winners = (0, 1) if first == second else (0,) if first > second else (1,)
    return over(b, s, camps, raided, resources, control, winners, NO_ACTIONS)


def over(b: Board, s: AluState, camps: tuple[int, ...], raided: int,
         resources: tuple[tuple[int, ...], ...], control: tuple[int, ...],
         winners: tuple[int, ...], reason: str) -> AluState:
    return new_state(b, camps, raided, resources, control, s.turn, -1, 0, winners, reason)


def new_state(b: Board, camps: tuple[int, ...], raided: int,
              resources: tuple[tuple[int, ...], ...], control: tuple[int, ...], turn: int,
              player: int, actions_left: int, winners: tuple[int, ...], reason: str
              ) -> AluState:
    """AluState(b.rules, ...), made by tuple.__new__: a named tuple's own __new__ is a Python
    function, the costliest step of a compiled action."""
    return tuple.__new__(AluState, (b.rules, camps, raided, resources, control, turn, player,
                                    actions_left, winners, reason))
