"""Small immutable updates the handlers share (a record's fields changed, a hex set on the map, a
ship replaced, a stack or token count changed, resources gained or paid, a tally counted, an
action recorded) and the reads they share (what a pool affords, a seat's fleet)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

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


def changed(record: R, **fields: Any) -> R:
    """`record._replace(**fields)`, compiled with the handlers: the records' own _replace is a
    Python call, the compiled build's largest cost outside its own code."""
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
