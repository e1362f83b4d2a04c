"""Goals: each goal kind's test, built once per rules object, and the check after every step of
a seat's turn that records the goals it completes (and ends the game at the goals to win); and
how near a seat is to each goal (`goal_progress`, `goal_estimate`), which the bots' hooks in
metrics.py read, compiled here with the rules (an MCTS playout ends in an estimate)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from .changes import changed, fleet
from .state import (
    EXPLORED,
    FELLED,
    FORAGE,
    OVER,
    SHIPS,
    SHIPS_PLUNDERED,
    TAKE,
    TRADES,
    CommodoresState,
    Ship,
)

if TYPE_CHECKING:
    from .rules import CommodoresRules


# Goal kinds as numbers (the compiled build compares whole numbers); the tallies some count.
BY_NUMBER: Final = 0
SHIPS_AT_LEAST: Final = 1
TALLY: Final = 2
POOL_TOTAL: Final = 3
SHIP_TYPES: Final = 4
UPGRADES: Final = 5
TOUCHED: Final = 6
KINDS = {"ships_by_number": BY_NUMBER, "ships": SHIPS_AT_LEAST, "explored": TALLY,
         "leviathans_felled": TALLY, "trades": TALLY, "ships_plundered": TALLY,
         "pool_total": POOL_TOTAL, "ship_types": SHIP_TYPES, "upgrades": UPGRADES,
         "resources_touched": TOUCHED}
TALLY_OF = {"explored": EXPLORED, "leviathans_felled": FELLED, "trades": TRADES,
            "ships_plundered": SHIPS_PLUNDERED}


@final
class GoalTest:
    """A goal card's test: its kind (KINDS), its amount, the tally it counts (TALLY), and the
    last answer of a test that reads the map, with what it read (see goal_test_met)."""

    def __init__(self, rules: CommodoresRules, kind: str, amount: int) -> None:
        self.kind: int = KINDS[kind]
        self.amount: int = amount
        self.tally: int = TALLY_OF.get(kind, -1)
        self.resources: frozenset[str] = frozenset(rules.resources)
        self.corner_spaces: tuple[tuple[int, ...], ...] = rules.geometry.corner_spaces
        # (ships, hexes, seat, Beacon number, answer): one entry, replaced whole, so threads
        # sharing the rules object cannot mix two entries.
        self.last: tuple[Any, ...] = ((), (), -1, -1, False)


def goal_tests(rules: CommodoresRules) -> dict[str, GoalTest]:
    """Each goal card's test, by goal id, built once per rules object."""
    return {g.id: GoalTest(rules, g.kind, g.amount) for g in rules.catalogue.goals}


def goal_test_met(test: GoalTest, s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
    """Whether `seat`, whose ships are `fleet`, meets the goal `test` checks in `s`."""
    kind, amount = test.kind, test.amount
    if kind == TALLY:
        return s.tallies[seat][test.tally] >= amount
    if kind == SHIPS_AT_LEAST:
        return len(fleet) >= amount
    if kind == POOL_TOTAL:
        return sum(s.pools[seat]) >= amount
    if kind == SHIP_TYPES:
        return len({x.kind for x in fleet}) >= amount
    if kind == UPGRADES:
        return sum(len(x.upgrades) for x in fleet) >= amount
    # The map-reading kinds answer again without looking when asked about the same ships, map
    # and Beacon number as last time: most steps change neither, and states are immutable, so
    # the same objects mean the same answer.
    ships, hexes, asked, number, met = test.last
    if s.ships is ships and s.hexes is hexes and seat == asked and s.goal_number == number:
        return bool(met)
    if kind == BY_NUMBER:
        met = _by_number(test, s, fleet)
    else:
        met = _touched(test, s, fleet)
    test.last = (s.ships, s.hexes, seat, s.goal_number, met)
    return bool(met)


def _by_number(test: GoalTest, s: CommodoresState, fleet: list[Ship]) -> bool:
    """At least `amount` ships, each touching a hex with the Beacon number."""
    number, hexes, corner_spaces = s.goal_number, s.hexes, test.corner_spaces
    return len(fleet) >= test.amount and number > 0 and all(
        any(h is not None and h.number == number
            for h in (hexes[sp] for sp in corner_spaces[ship.corner])) for ship in fleet)


def _touched(test: GoalTest, s: CommodoresState, fleet: list[Ship]) -> bool:
    """The fleet touches hexes of at least `amount` resources."""
    hexes, corner_spaces = s.hexes, test.corner_spaces
    kinds = {h.kind for ship in fleet for h in (hexes[sp] for sp in corner_spaces[ship.corner])
             if h is not None}
    return len(kinds & test.resources) >= test.amount


def goal_met(rules: CommodoresRules, s: CommodoresState, seat: int, goal_id: str) -> bool:
    """Whether `seat` meets a goal in `s` (met or not, completed or not)."""
    return goal_test_met(rules.tables.goals[goal_id], s, seat, fleet(s, seat))


# The steps after which goals are checked: those where the seat whose turn it is decides.
CHECKED_STEPS: Final = frozenset((FORAGE, SHIPS, TAKE))


def after_step(rules: CommodoresRules, s: CommodoresState) -> CommodoresState:
    """What follows every step (FLOW's `after`): the goal check, at CHECKED_STEPS."""
    if s.step in CHECKED_STEPS:
        return check_goals(rules, s)
    return s


def check_goals(rules: CommodoresRules, s: CommodoresState) -> CommodoresState:
    """RULING: goals are checked after every step of a seat's turn, for that seat only."""
    seat = s.player
    done = s.completed[seat]
    # Every goal test reads only these parts of the state, and many steps (picking a ship,
    # ending one) change none of them: the same parts as the last state checked give its
    # answer (states are immutable; one entry, replaced whole: safe for threads).
    t = rules.tables
    last, new = t.last_goal_check
    if last is None or not (
            seat == last.player and s.completed is last.completed and s.goals is last.goals
            and s.ships is last.ships and s.hexes is last.hexes and s.pools is last.pools
            and s.tallies is last.tallies and s.goal_number == last.goal_number):
        tests = t.goals
        seat_fleet = fleet(s, seat)
        new = tuple(g for g in s.goals
                    if g not in done and goal_test_met(tests[g], s, seat, seat_fleet))
        t.last_goal_check = (s, new)
    if not new:
        return s
    if t.rulings >= 2:
        # RULING (rulings 2): a player has only goals_to_win goal tokens. When one step meets
        # more goals than tokens are left (it can happen only at the winning step), the tokens
        # go on the goals in catalogue order: the game ends at once, so which goal is taken
        # changes the record, never who wins, and a fixed order needs no question.
        order = rules._goal_order
        new = tuple(sorted(new, key=order.__getitem__))[
            :max(0, rules.catalogue.goals_to_win - len(done))]
    completed = s.completed[:seat] + (s.completed[seat] + new,) + s.completed[seat + 1:]
    if len(completed[seat]) >= rules.catalogue.goals_to_win:
        return changed(s, completed=completed, step=OVER, end="goals", active=-1, done=(),
                       acted=(), fresh=(), target=-1, left=0)
    return changed(s, completed=completed)


# -- how near a seat is to its goals (the bots' evaluation and MCTS estimate, metrics.py) ----
def goal_progress(rules: CommodoresRules, s: CommodoresState, seat: int, goal_id: str) -> float:
    """How far `seat` is towards a goal, 0..1 (1: met)."""
    return _progress(rules, s, seat, [ship for ship in s.ships if ship.owner == seat], goal_id)


def _progress(rules: CommodoresRules, s: CommodoresState, seat: int, fleet: list[Ship],
              goal_id: str) -> float:
    goal = rules.goal_cards[goal_id]
    kind, amount = goal.kind, goal.amount
    spaces_at = rules.tables.corner_spaces
    hexes = s.hexes
    if kind == "leviathans_felled" and s.tallies[seat][FELLED] < amount:
        # Half-way credit for wounding: the most hurt leviathan next to one of your ships.
        leviathans = rules.tables.leviathans
        hurt = [1 - hexes[sp].health / rules.catalogue.leviathan(  # type: ignore[union-attr]
                    hexes[sp].kind).health for ship in fleet  # type: ignore[union-attr, operator]
                for sp in spaces_at[ship.corner]
                if hexes[sp] is not None and hexes[sp].kind in leviathans]  # type: ignore[union-attr]
        return (s.tallies[seat][FELLED] + 0.5 * max(hurt, default=0.0)) / amount
    if kind in TALLY_OF:
        value = s.tallies[seat][TALLY_OF[kind]]
    elif kind == "ships":
        value = len(fleet)
    elif kind == "pool_total":
        value = sum(s.pools[seat])
    elif kind == "ship_types":
        value = len({ship.kind for ship in fleet})
    elif kind == "upgrades":
        value = sum(len(ship.upgrades) for ship in fleet)
    elif kind == "resources_touched":
        kinds = {hexes[sp].kind for ship in fleet  # type: ignore[union-attr]
                 for sp in spaces_at[ship.corner] if hexes[sp] is not None}
        value = len(kinds & rules.tables.resource_kinds)
    else:  # ships_by_number: enough ships, and the share of them next to the number
        near = sum(any(hexes[sp] is not None
                       and hexes[sp].number == s.goal_number  # type: ignore[union-attr]
                       for sp in spaces_at[ship.corner]) for ship in fleet)
        return min(1.0, len(fleet) / amount) * (near / len(fleet) if fleet else 0.0)
    return min(1.0, value / amount)


def goal_estimate(rules: CommodoresRules, s: CommodoresState) -> dict[int, float]:
    """The MCTS estimate of a position (metrics.CommodoresHooks.estimate), per seat in 0..1:
    goals done, plus progress towards the nearest goals still open."""
    need = rules.tables.goals_to_win
    out: dict[int, float] = {}
    for seat in range(rules.tables.players):
        done = len(s.completed[seat])
        fleet = [ship for ship in s.ships if ship.owner == seat]
        open_goals = sorted((_progress(rules, s, seat, fleet, g) for g in s.goals
                             if g not in s.completed[seat]), reverse=True)
        near = sum(open_goals[:max(0, need - done)])
        out[seat] = min(1.0, (done + 0.8 * near) / need)
    return out
