"""The lookups the hot paths (legal actions, apply, goal checks) index, built once per rules object
from its map geometry, catalogue and options: a final class of typed fields, so that the compiled
build reads each with a field access rather than a Python object's attribute lookup (the way
ALU's engine.py reads its Board). rules.tables holds it; ships.py, explore.py, forage.py,
changes.py and goals.py read it once per call."""

from __future__ import annotations

from typing import TYPE_CHECKING, final

from .actions import CommodoresAction, cached
from .catalogue import ShipType
from .state import CommodoresState

if TYPE_CHECKING:
    from .goals import GoalTest
    from .rules import CommodoresRules

Cost = tuple[tuple[int, int], ...]  # (resource index, how many)


@final
class Tables:
    """One rules object's tables: numbers from its options and catalogue, the map's corners and
    spaces, the action objects legal actions hand out, and ship costs by resource index."""

    def __init__(self, rules: CommodoresRules, goals: dict[str, GoalTest]) -> None:
        geo, cat, res = rules.geometry, rules.catalogue, rules.resources
        self.players: int = rules.players
        self.turn_limit: int = rules.turn_limit
        self.rulings: int = rules.rulings
        self.pool_cap: int = cat.pool_cap
        self.ships_per_player: int = cat.ships_per_player
        self.goals_to_win: int = cat.goals_to_win
        self.res_index: dict[str, int] = rules.res_index
        self.kind_index: dict[str, int] = rules.kind_index
        self.types: dict[str, ShipType] = rules.types
        self.leviathans: frozenset[str] = frozenset(rules.leviathan_ids)
        self.resource_kinds: frozenset[str] = frozenset(res)
        # The map: corner -> spaces it touches; names -> numbers.
        self.corner_spaces: tuple[tuple[int, ...], ...] = geo.corner_spaces
        self.corner_index: dict[str, int] = geo.corner_index
        self.space_index: dict[str, int] = geo.space_index
        # Each edge with the two spaces either side; a side outside the sky (-1) is replaced by
        # the other side, so "either side holds a hex" needs no bounds test.
        self.corner_links: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
            tuple((other, a if a >= 0 else b, b if b >= 0 else a) for other, (a, b) in links)
            for links in geo.corner_edges)
        # The actions, built once: the enumeration is stable.
        space_names = [geo.space_name(sp) for sp in range(len(geo.spaces))]
        corner_names = [geo.corner_name(c) for c in range(len(geo.corners))]
        # Set-up's draws and decisions.
        self.set_aside: dict[str, CommodoresAction] = {
            lv: cached("set_aside", leviathan=lv) for lv in rules.leviathan_ids}
        self.goal: dict[str, CommodoresAction] = {g.id: cached("goal", goal=g.id)
                                                  for g in cat.goals}
        self.ship_type: dict[str, CommodoresAction] = {
            st.id: cached("ship_type", ship=st.id) for st in cat.shipyard}
        self.place: tuple[CommodoresAction, ...] = tuple(cached("place", corner=name)
                                                         for name in corner_names)
        self.free: tuple[CommodoresAction, ...] = tuple(cached("free", resource=r)
                                                        for r in cat.free_resources)
        # A turn's.
        self.forage: tuple[CommodoresAction, ...] = tuple(cached("forage", number=n)
                                                          for n in range(1, 7))
        self.end_ship: CommodoresAction = cached("end_ship")
        self.end_turn: CommodoresAction = cached("end_turn")
        self.move_to: tuple[CommodoresAction, ...] = tuple(cached("move", to=name)
                                                           for name in corner_names)
        self.explore_paying: tuple[tuple[CommodoresAction, ...], ...] = tuple(
            tuple(cached("explore", space=name, pay=r) for r in res) for name in space_names)
        self.explore_pay: tuple[CommodoresAction, ...] = tuple(  # rulings 2
            cached("explore", pay=r) for r in res)
        self.place_hex: tuple[CommodoresAction, ...] = tuple(cached("place_hex", space=name)
                                                             for name in space_names)
        self.terraform_paying: tuple[tuple[CommodoresAction, ...], ...] = tuple(
            tuple(cached("terraform", space=name, pay=r) for r in res) for name in space_names)
        self.plunder_space: tuple[CommodoresAction, ...] = tuple(
            cached("plunder", target=name) for name in space_names)
        self.trades_giving: tuple[tuple[CommodoresAction, ...], ...] = tuple(
            tuple(cached("trade", give=give, get=get) for get in res if get != give)
            for give in res)
        self.take: tuple[CommodoresAction, ...] = tuple(cached("take", resource=r) for r in res)
        self.hex_drawn: tuple[CommodoresAction, ...] = tuple(cached("hex", kind=k)
                                                             for k in rules.kinds)
        self.goal_number_drawn: tuple[CommodoresAction, ...] = tuple(
            cached("goal_number", number=i + 1) for i in range(6))
        self.number_drawn: tuple[CommodoresAction, ...] = tuple(cached("number", number=i + 1)
                                                                for i in range(6))
        captains = range(1, cat.ships_per_player + 1)
        self.pick_ship: dict[int, CommodoresAction] = {k: cached("ship", captain=k)
                                                       for k in captains}
        self.plunder_ship: dict[tuple[int, int], CommodoresAction] = {
            (seat, k): cached("plunder", target=f"{seat}:{k}")
            for seat in range(rules.players) for k in captains}
        self.build_at: dict[str, tuple[CommodoresAction, ...]] = {
            t.id: tuple(cached("build", ship=t.id, at=name) for name in corner_names)
            for t in cat.ship_types}
        # Ship costs, and each ship type's upgrades (id, cost, action), by resource index.
        index = rules.res_index
        self.costs: dict[str, Cost] = {t.id: tuple((index[r], n) for r, n in t.cost)
                                       for t in cat.ship_types}
        self.upgrades: dict[str, tuple[tuple[str, Cost, CommodoresAction], ...]] = {
            t.id: tuple((u.id, tuple((index[r], n) for r, n in u.cost),
                         cached("upgrade", upgrade=u.id)) for u in t.upgrades)
            for t in cat.ship_types}
        self.basic: str = cat.basic.id
        # Each goal card's test (goals.py), and the goal check's last state and answer (one
        # entry, replaced whole: safe for threads).
        self.goals: dict[str, GoalTest] = goals
        self.last_goal_check: tuple[CommodoresState | None, tuple[str, ...]] = (None, ())
        # (move, forage, plunder, builds) by (ship type, upgrades): filled as they are asked.
        self.stats: dict[tuple[str, tuple[str, ...]], tuple[int, int, int, bool]] = {}
