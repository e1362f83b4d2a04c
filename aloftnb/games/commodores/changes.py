"""Small immutable updates the handlers share (a record's fields changed, a hex set on the map, a
ship replaced, a stack or token count changed, resources gained or paid, a tally counted, an
action recorded) and the reads they share (what a pool affords, a seat's fleet)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

from ...core.compiled import is_compiled
from .actions import ACTION_OF
from .state import CommodoresState, Hex, Ship
from .tables import Tables

if TYPE_CHECKING:
    from .rules import CommodoresRules

Pools = tuple[tuple[int, ...], ...]
R = TypeVar("R", CommodoresState, Ship, Hex)

# Each record's {field: position}, for changed(); Final, so the compiled build holds them in
# static variables rather than looking them up among the module's names on every call.
_FIELDS: Final[dict[type, dict[str, int]]] = {
    cls: {name: i for i, name in enumerate(cls._fields)} for cls in (CommodoresState, Ship, Hex)}
_NEW: Final = tuple.__new__
_KEEP: Final = object()  # changed(): a field not named keeps its value


def changed(s: CommodoresState, *, step: Any = _KEEP, player: Any = _KEEP, turn: Any = _KEEP,
            hexes: Any = _KEEP, stack: Any = _KEEP, tokens: Any = _KEEP, set_aside: Any = _KEEP,
            seen: Any = _KEEP, goals: Any = _KEEP, goal_number: Any = _KEEP,
            ship_types: Any = _KEEP, yard: Any = _KEEP, ships: Any = _KEEP, pools: Any = _KEEP,
            completed: Any = _KEEP, tallies: Any = _KEEP, basic_built: Any = _KEEP,
            cubes: Any = _KEEP, built_any: Any = _KEEP, active: Any = _KEEP, done: Any = _KEEP,
            acted: Any = _KEEP, fresh: Any = _KEEP, target: Any = _KEEP, left: Any = _KEEP,
            forage_number: Any = _KEEP, end: Any = _KEEP, drawn: Any = _KEEP) -> CommodoresState:
    """`s._replace(...)`: the state with the fields named changed. Its keyword parameters are
    the state's fields (tests/test_commodores_flow.py checks each), so the compiled build
    passes them without a dict and builds the new state with one tuple (the handlers change
    the state at nearly every step: a generic replace was the largest cost in apply)."""
    return _NEW(CommodoresState, (
        s.rules,
        s.step if step is _KEEP else step,
        s.player if player is _KEEP else player,
        s.turn if turn is _KEEP else turn,
        s.hexes if hexes is _KEEP else hexes,
        s.stack if stack is _KEEP else stack,
        s.tokens if tokens is _KEEP else tokens,
        s.set_aside if set_aside is _KEEP else set_aside,
        s.seen if seen is _KEEP else seen,
        s.goals if goals is _KEEP else goals,
        s.goal_number if goal_number is _KEEP else goal_number,
        s.ship_types if ship_types is _KEEP else ship_types,
        s.yard if yard is _KEEP else yard,
        s.ships if ships is _KEEP else ships,
        s.pools if pools is _KEEP else pools,
        s.completed if completed is _KEEP else completed,
        s.tallies if tallies is _KEEP else tallies,
        s.basic_built if basic_built is _KEEP else basic_built,
        s.cubes if cubes is _KEEP else cubes,
        s.built_any if built_any is _KEEP else built_any,
        s.active if active is _KEEP else active,
        s.done if done is _KEEP else done,
        s.acted if acted is _KEEP else acted,
        s.fresh if fresh is _KEEP else fresh,
        s.target if target is _KEEP else target,
        s.left if left is _KEEP else left,
        s.forage_number if forage_number is _KEEP else forage_number,
        s.end if end is _KEEP else end,
        s.drawn if drawn is _KEEP else drawn,
    ))


# The interpreter runs the named tuple's own _replace faster than the 28 tests above, so the
# pure build uses it.
if not is_compiled(changed):
    changed = CommodoresState._replace  # type: ignore[assignment]


def replaced(record: R, **fields: Any) -> R:
    """`record._replace(**fields)` for any record (a ship, a hex), compiled with the handlers:
    the records' own _replace is a Python call."""
    cls: Any = type(record)
    index = _FIELDS[cls]
    values = list(record[:])  # a plain tuple first: list() copies one at C speed
    for name, value in fields.items():
        values[index[name]] = value
    new: R = _NEW(cls, values)
    return new


def new_hex(rules: CommodoresRules, kind: str, number: int) -> Hex:
    """A hex as it goes on the map: a leviathan at full health, other kinds with `number`."""
    if kind in rules.leviathan_ids:
        return Hex(kind, 0, rules.catalogue.leviathan(kind).health)
    return Hex(kind, number, 0)


def stack_change(rules: CommodoresRules, stack: tuple[int, ...], kind: str, delta: int
                 ) -> tuple[int, ...]:
    i = rules.kind_index[kind]
    return stack[:i] + (stack[i] + delta,) + stack[i + 1:]


def token_change(tokens: tuple[int, ...], number: int) -> tuple[int, ...]:
    return tokens[:number - 1] + (tokens[number - 1] - 1,) + tokens[number:]


def set_hex(hexes: tuple[Hex | None, ...], space: int, h: Hex | None) -> tuple[Hex | None, ...]:
    return hexes[:space] + (h,) + hexes[space + 1:]


def set_ship(ships: tuple[Ship, ...], i: int, ship: Ship) -> tuple[Ship, ...]:
    return ships[:i] + (ship,) + ships[i + 1:]


def tally(tallies: Pools, seat: int, which: int, amount: int = 1) -> Pools:
    if not amount:
        return tallies
    t = tallies[seat]
    return (tallies[:seat] + (t[:which] + (t[which] + amount,) + t[which + 1:],)
            + tallies[seat + 1:])


def credit(s: CommodoresState, pools: Pools, which: int) -> Pools:
    """The active seat's tallies with what it gained (pools after vs s.pools) credited."""
    seat = s.player
    return tally(s.tallies, seat, which, sum(pools[seat]) - sum(s.pools[seat]))


def gain(rules: CommodoresRules, pools: Pools, seat: int, resource: str, amount: int) -> Pools:
    t = rules.tables
    i = t.res_index[resource]
    pool = pools[seat]
    value = min(t.pool_cap, pool[i] + amount)
    return pools[:seat] + (pool[:i] + (value,) + pool[i + 1:],) + pools[seat + 1:]


def pay(rules: CommodoresRules, pools: Pools, seat: int, cost: tuple[tuple[str, int], ...]
        ) -> Pools:
    for resource, n in cost:
        pools = gain(rules, pools, seat, resource, -n)
    return pools


def affords(rules: CommodoresRules, pool: tuple[int, ...], cost: tuple[tuple[str, int], ...]
            ) -> bool:
    return all(pool[rules.res_index[r]] >= n for r, n in cost)


def affords_cost(pool: tuple[int, ...], cost: tuple[tuple[int, int], ...]) -> bool:
    """affords with the cost's resources as indices (the rules' _costs tables)."""
    for i, n in cost:
        if pool[i] < n:
            return False
    return True


def did(s: CommodoresState, kind: str) -> tuple[str, ...]:
    """The acting ship's actions with `kind` recorded (a run of explorations counts once)."""
    name = ACTION_OF[kind]
    return s.done if s.done and s.done[-1] == name else s.done + (name,)


def fleet(s: CommodoresState, seat: int) -> list[Ship]:
    return [ship for ship in s.ships if ship.owner == seat]


# The rules' stats, occupied and edges (rules.py's methods call these): the hot paths call them
# here, directly in the compiled build rather than as a Python class's methods.
def stats(t: Tables, ship: Ship) -> tuple[int, int, int, bool]:
    """(move, forage, plunder, builds) of a ship with its upgrades."""
    key = (ship.kind, ship.upgrades)
    found = t.stats.get(key)
    if found is None:
        card = t.types[ship.kind]
        ups = [card.upgrade(u) for u in ship.upgrades]
        found = (card.move + sum(u.move for u in ups if u),
                 card.forage + sum(u.forage for u in ups if u),
                 card.plunder + sum(u.plunder for u in ups if u),
                 card.builds or any(u.builds for u in ups if u))
        t.stats[key] = found
    return found


def occupied(s: CommodoresState) -> set[int]:
    return {ship.corner for ship in s.ships}


def edges(t: Tables, s: CommodoresState, corner: int) -> list[int]:
    """Corners one edge away, along edges of hexes on the map (RULING: ships fly along the
    sides of placed hexes only)."""
    hexes = s.hexes
    return [other for other, a, b in t.corner_links[corner]
            if hexes[a] is not None or hexes[b] is not None]
