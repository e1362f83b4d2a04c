"""Goals: each goal kind's test, built once per rules object, and the check after every step of
a seat's turn that records the goals it completes (and ends the game at the goals to win); and
how near a seat is to each goal (`goal_progress`, `goal_estimate`), which the bots' hooks in
metrics.py read, compiled here with the rules (an MCTS playout ends in an estimate)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def goal_test(rules: CommodoresRules, kind: str, amount: int) -> Any:
    """A goal kind's check as a function of (state, seat, that seat's fleet), built once per
    rules object (the fleet is passed in: one step checks several goals of one seat)."""
    resources = frozenset(rules.resources)
    corner_spaces = rules.geometry.corner_spaces

    def tally(which: int) -> Any:
        return lambda s, seat, fleet: s.tallies[seat][which] >= amount

    def by_number(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
        number, hexes = s.goal_number, s.hexes
        return len(fleet) >= amount and number > 0 and all(
            any(h is not None and h.number == number
                for h in (hexes[sp] for sp in corner_spaces[ship.corner])) for ship in fleet)

    def touched(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
        hexes = s.hexes
        kinds = {h.kind for ship in fleet for h in (hexes[sp] for sp in
                                                    corner_spaces[ship.corner])
                 if h is not None}
        return len(kinds & resources) >= amount

    def remembered(test: Any) -> Any:
        """The test, answering again without looking when it is asked about the same ships,
        map and Beacon number as last time: most steps change neither, and states are
        immutable, so the same objects mean the same answer. (One entry, replaced whole, so
        threads sharing the rules object cannot mix two entries.)"""
        last: list[tuple[Any, ...]] = [((), (), -1, -1, False)]

        def check(s: CommodoresState, seat: int, fleet: list[Ship]) -> bool:
            ships, hexes, asked, number, met = last[0]
            if s.ships is ships and s.hexes is hexes and seat == asked and \
                    s.goal_number == number:
                return met
            met = test(s, seat, fleet)
            last[0] = (s.ships, s.hexes, seat, s.goal_number, met)
            return met

        return check

    tests = {
        "ships_by_number": remembered(by_number),
        "ships": lambda s, seat, fleet: len(fleet) >= amount,
        "explored": tally(EXPLORED),
        "leviathans_felled": tally(FELLED),
        "trades": tally(TRADES),
        "ships_plundered": tally(SHIPS_PLUNDERED),
        "pool_total": lambda s, seat, fleet: sum(s.pools[seat]) >= amount,
        "ship_types": lambda s, seat, fleet: len({x.kind for x in fleet}) >= amount,
        "upgrades": lambda s, seat, fleet: sum(len(x.upgrades) for x in fleet) >= amount,
        "resources_touched": remembered(touched),
    }
    return tests[kind]


def goal_met(rules: CommodoresRules, s: CommodoresState, seat: int, goal_id: str) -> bool:
    """Whether `seat` meets a goal in `s` (met or not, completed or not)."""
    return rules._goal_tests[goal_id](s, seat, fleet(s, seat))


# The steps after which goals are checked: those where the seat whose turn it is decides.
CHECKED_STEPS = frozenset((FORAGE, SHIPS, TAKE))


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
    # ending one) change none of them: equal parts give last time's answer. (Compared in C,
    # the same objects at once; one entry, replaced whole: safe for threads.)
    inputs = (seat, done, s.goals, s.ships, s.hexes, s.pools, s.tallies, s.goal_number)
    last_inputs, new = rules._last_goal_check
    if inputs != last_inputs:
        tests = rules._goal_tests
        seat_fleet = fleet(s, seat)
        new = tuple(g for g in s.goals if g not in done and tests[g](s, seat, seat_fleet))
        rules._last_goal_check = (inputs, new)
    if not new:
        return s
    if rules.rulings >= 2:
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
_TALLY_OF = {"explored": EXPLORED, "leviathans_felled": FELLED, "trades": TRADES,
             "ships_plundered": SHIPS_PLUNDERED}


def goal_progress(rules: CommodoresRules, s: CommodoresState, seat: int, goal_id: str) -> float:
    """How far `seat` is towards a goal, 0..1 (1: met)."""
    goal = rules.goal_cards[goal_id]
    kind, amount = goal.kind, goal.amount
    fleet = [ship for ship in s.ships if ship.owner == seat]
    if kind == "leviathans_felled" and s.tallies[seat][FELLED] < amount:
        # Half-way credit for wounding: the most hurt leviathan next to one of your ships.
        hurt = [1 - s.hexes[sp].health / rules.catalogue.leviathan(  # type: ignore[union-attr]
                    s.hexes[sp].kind).health for ship in fleet  # type: ignore[union-attr, operator]
                for sp in rules.touching(s, ship.corner)
                if s.hexes[sp].kind in rules.leviathan_ids]  # type: ignore[union-attr]
        return (s.tallies[seat][FELLED] + 0.5 * max(hurt, default=0.0)) / amount
    if kind in _TALLY_OF:
        value = s.tallies[seat][_TALLY_OF[kind]]
    elif kind == "ships":
        value = len(fleet)
    elif kind == "pool_total":
        value = sum(s.pools[seat])
    elif kind == "ship_types":
        value = len({ship.kind for ship in fleet})
    elif kind == "upgrades":
        value = sum(len(ship.upgrades) for ship in fleet)
    elif kind == "resources_touched":
        kinds = {s.hexes[sp].kind for ship in fleet  # type: ignore[union-attr]
                 for sp in rules.touching(s, ship.corner)}
        value = len(kinds & set(rules.resources))
    else:  # ships_by_number: enough ships, and the share of them next to the number
        near = sum(any(s.hexes[sp].number == s.goal_number  # type: ignore[union-attr]
                       for sp in rules.touching(s, ship.corner)) for ship in fleet)
        return min(1.0, len(fleet) / amount) * (near / len(fleet) if fleet else 0.0)
    return min(1.0, value / amount)


def goal_estimate(rules: CommodoresRules, s: CommodoresState) -> dict[int, float]:
    """The MCTS estimate of a position (metrics.CommodoresHooks.estimate), per seat in 0..1:
    goals done, plus progress towards the nearest goals still open."""
    need = rules.catalogue.goals_to_win
    out: dict[int, float] = {}
    for seat in range(rules.players):
        done = len(s.completed[seat])
        open_goals = sorted((goal_progress(rules, s, seat, g) for g in s.goals
                             if g not in s.completed[seat]), reverse=True)
        near = sum(open_goals[:max(0, need - done)])
        out[seat] = min(1.0, (done + 0.8 * near) / need)
    return out
