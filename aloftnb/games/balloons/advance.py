"""The advance phase: which balloons may advance, what each advance does, and the end of a turn.

A turn's advance is the fast path: the sky is one bitmask of occupied columns per altitude, so
whether a cell is free of orthogonal neighbours is a few integer operations. After the advance
(or the pass when nothing can advance) `end_turn` decides what comes next: the end of the game,
the fixed edition's wind and the next seat's advance, or the choice edition's wind phase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, final

from ...core.action import Action
from ...kit.tuples import new_record, with_item
from .actions import BalloonAction
from .state import ADVANCE, FLYING, INFLATED, OVER, PACKED, UNPACKED, WIND, BalloonsState
from .wind import fixed_wind

if TYPE_CHECKING:
    from .rules import BalloonsRules


@final
class Tables:
    """One rules object's numbers and action tables, as the advance reads them at every step.

    A compiled class: compiled code reads its typed fields directly, where each read of the
    (Python) rules object is a dictionary lookup. Built by the rules from their own tables."""

    def __init__(self, rules: BalloonsRules, numbers: Callable[[Any], int] | None = None
                 ) -> None:
        self.players: int = rules.players
        self.columns: int = rules.columns
        self.altitudes: int = rules.altitudes
        self.solo: bool = rules.solo_rules
        self.choice: bool = rules.edition == "choice"
        self.index: dict[str, int] = rules.index
        self.colours: tuple[frozenset[int], ...] = rules.balloon_colours
        self.balloons: range = rules._balloon_range
        # The actions by balloon (and truck), or with `numbers`, the adapters' indices of them
        # in their places: the advance then lists the indices of the legal actions
        # (`legal_indices`) with the code that lists the actions.
        self.ascend: list[Any] = _numbered(rules._ascend, numbers)
        self.inflate: list[Any] = _numbered(rules._inflate, numbers)
        self.launch: list[Any] = _numbered(rules._launch, numbers)
        self.unpack: list[list[Any]] = ([_numbered(row, numbers) for row in rules._unpack]
                                         if numbers is not None else rules._unpack)
        self.unpacks_by_free: dict[tuple[int, ...], list[tuple[Any, ...]]] = (
            rules._unpacks_by_free if numbers is None else {})
        self.pass_turn: list[Any] = _numbered(rules._pass, numbers)
        self.numbered: Tables | None = None  # the tables of indices, made when first asked


def _numbered(actions: list[BalloonAction], numbers: Callable[[Any], int] | None) -> list[Any]:
    return actions if numbers is None else [numbers(action) for action in actions]


def legal(rules: BalloonsRules, s: BalloonsState, seat: int) -> list[Action]:
    """Every legal unpack, inflate, launch and ascend, balloon by balloon in catalogue order, or
    the pass when there is none."""
    return advances(rules.tables, s)


def legal_indices(rules: BalloonsRules, s: BalloonsState, seat: int) -> list[int]:
    """The adapters' indices of `legal`'s actions, in its order."""
    t = rules.tables
    numbered = t.numbered
    if numbered is None:
        numbered = t.numbered = Tables(rules, rules.action_to_index)
    return advances(numbered, s)


def advances(t: Tables, s: BalloonsState) -> list[Any]:
    """`legal`, with the entries of the tables `t` (actions, or their indices)."""
    acts: list[Any] = []
    where, altitude, sky, trucks = s.where, s.altitude, s.sky, s.trucks
    unpacks: list[tuple[Any, ...]] | None = None  # per balloon, found at the first packed one
    top, columns, solo = t.altitudes, t.columns, t.solo
    first = s.row[0] if (solo and s.row) else -1
    for b, st in enumerate(s.status):
        if st == FLYING:
            a = altitude[b] + 1
            c = where[b]
            if (a <= top and not (sky[a] >> (c - 1)) & 7 and not (sky[a + 1] >> c) & 1
                    and (not solo or diagonals_clear(t, s, b, c, a))):
                acts.append(t.ascend[b])
        elif st == PACKED:
            if not solo or b == first:
                if unpacks is None:
                    unpacks = unpacks_onto_free_trucks(t, s.load)
                acts.extend(unpacks[b])
        elif st == UNPACKED:
            acts.append(t.inflate[b])
        else:  # inflated
            # RULING: a truck beyond the last column (choice edition, final advance) has no sky
            # above it, so its balloon cannot launch.
            c = trucks[where[b]]
            if (c <= columns and not (sky[1] >> (c - 1)) & 7 and not (sky[2] >> c) & 1
                    and (not solo or diagonals_clear(t, s, b, c, 1))):
                acts.append(t.launch[b])
    return acts or list(t.pass_turn)  # RULING: pass is an explicit action


def unpacks_onto_free_trucks(t: Tables, load: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """Per balloon, its unpack actions onto the trucks that carry nothing, in truck order.

    Kept per set of free trucks (at most 2**trucks of them), so the fast path looks them up."""
    free = tuple([k for k, b in enumerate(load) if b < 0])  # RULING: one per truck, both editions
    found = t.unpacks_by_free.get(free)
    if found is None:
        found = [tuple(table[k] for k in free) for table in t.unpack]
        t.unpacks_by_free[free] = found
    return found


def diagonals_clear(t: Tables, s: BalloonsState, b: int, column: int, altitude: int) -> bool:
    """Solo rule: no flying balloon sharing a colour with `b` diagonally next to the cell.

    RULING: only flying balloons count (balloons on trucks are below the sky), and specials,
    which carry no colour, never share one.
    """
    mine = t.colours[b]
    if not mine:
        return True
    sky = s.sky
    if not ((sky[altitude - 1] | sky[altitude + 1]) >> (column - 1)) & 5:
        return True  # nothing flies on a diagonal (columns c-1 and c+1 one altitude off)
    corners = {(column - 1, altitude - 1), (column + 1, altitude - 1),
               (column - 1, altitude + 1), (column + 1, altitude + 1)}
    for other in t.balloons:
        if (other != b and s.status[other] == FLYING
                and (s.where[other], s.altitude[other]) in corners
                and mine & t.colours[other]):
            return False
    return True


# -- the advances, one handler per action type (the flow table in rules.py names them) -----------
def unpack(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    """Take a packed balloon from the row onto an empty launch-zone truck."""
    t = rules.tables
    b, k = t.index[action.balloon], action.truck
    return end_turn(t, s, with_item(s.status, b, UNPACKED), with_item(s.where, b, k),
                    s.altitude, with_item(s.load, k, b), s.sky,
                    tuple([x for x in s.row if x != b]))


def inflate(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    t = rules.tables
    b = t.index[action.balloon]
    return end_turn(t, s, with_item(s.status, b, INFLATED), s.where, s.altitude, s.load, s.sky,
                    s.row)


def launch(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    """The balloon leaves its truck for altitude 1 of the column above it."""
    t = rules.tables
    b = t.index[action.balloon]
    k = s.where[b]
    c = s.trucks[k]
    sky = s.sky
    return end_turn(t, s, with_item(s.status, b, FLYING), with_item(s.where, b, c),
                    with_item(s.altitude, b, 1), with_item(s.load, k, -1),
                    with_item(sky, 1, sky[1] | (1 << c)), s.row)


def ascend(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    t = rules.tables
    b = t.index[action.balloon]
    c, a = s.where[b], s.altitude[b]
    rows = list(s.sky)
    rows[a] &= ~(1 << c)
    rows[a + 1] |= 1 << c
    return end_turn(t, s, s.status, s.where, with_item(s.altitude, b, a + 1), s.load,
                    tuple(rows), s.row)


def pass_turn(rules: BalloonsRules, s: BalloonsState, action: Action) -> BalloonsState:
    """No balloon can advance: the turn ends with the sky as it is."""
    return end_turn(rules.tables, s, s.status, s.where, s.altitude, s.load, s.sky, s.row)


def flying(sky: tuple[int, ...]) -> bool:
    """Whether any balloon flies (`any(sky)`, as a compiled loop: it runs every turn)."""
    for row in sky:
        if row:
            return True
    return False


PLAY = {"unpack": unpack, "inflate": inflate, "launch": launch, "ascend": ascend,
        "pass": pass_turn}


def end_turn(t: Tables, s: BalloonsState, status: tuple[int, ...],
             where: tuple[int, ...], altitude: tuple[int, ...], load: tuple[int, ...],
             sky: tuple[int, ...], row: tuple[int, ...]) -> BalloonsState:
    """The state after an advance: the game ends, or the next seat's turn begins, with the wind
    phase in the choice edition, after the wind has blown by itself in the fixed edition. `t`
    is the rules' tables (the handler has them: reading them off the rules again costs)."""
    trucks, safety, text, over = s.trucks, s.safety, "", s.lead_passed
    player, step = (s.player + 1) % t.players, ADVANCE
    # RULING (choice edition): no wind step while nothing flies, and none once the lead truck
    # has passed: that turn's advance was the last.
    if over:
        player, step = -1, OVER
    elif not flying(sky):
        pass  # nothing flies: the next seat advances with no wind first
    elif t.choice:
        step = WIND
    else:
        # RULING (fixed edition): the wind of the next player's turn is applied right here,
        # after this advance, so the state that player sees already shows it in `wind`.
        trucks, safety, text = fixed_wind(trucks, safety)
        if trucks[-1] > t.columns:  # the game ends before that player advances
            player, step, over = -1, OVER, True
    return new_record(BalloonsState, s.rules, trucks, safety, status, where, altitude, load,
                      sky, row, s.colours, s.turn + 1, player, step, text, over)
