"""The ships phase: the seat whose turn it is picks its ships one at a time; each may move,
explore (explore.py), upgrade, build, plunder and trade once, then ends; the turn ends when
every ship has acted or the seat ends it. Plundering a rival's ship goes on at the take step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.action import Action
from .actions import CommodoresAction
from .catalogue import MERCHANT
from .changes import (
    affords_cost,
    changed,
    credit,
    did,
    edges,
    fleet,
    gain,
    occupied,
    pay,
    replaced,
    set_hex,
    set_ship,
    stats,
    tally,
)
from .explore import explore_options
from .state import (
    FELLED,
    FROM_LEVIATHANS,
    OVER,
    PLUNDERED,
    SHIPS,
    SHIPS_PLUNDERED,
    TAKE,
    TRADED,
    TRADES,
    CommodoresState,
    Ship,
)
from .tables import Tables

if TYPE_CHECKING:
    from .rules import CommodoresRules


# -- what a ship touches -----------------------------------------------------------------------
def destinations(rules: CommodoresRules, s: CommodoresState, ship: Ship) -> list[int]:
    """Where a ship may move (_destinations, with the rules' tables)."""
    return _destinations(rules.tables, s, ship)


def _destinations(t: Tables, s: CommodoresState, ship: Ship) -> list[int]:
    """Where a ship may move: empty corners within its move value (moving through ships),
    or, when there are none, the nearest empty corners (RULING below)."""
    move = stats(t, ship)[0]
    if move <= 0:
        return []
    taken = occupied(s)
    hexes, links = s.hexes, t.corner_links
    start = ship.corner
    distance = {start: 0}  # steps from the ship's corner, of the corners reached
    frontier = [start]  # breadth first: the corners in the order reached
    found: list[int] = []
    i = 0
    while i < len(frontier):
        corner = frontier[i]
        i += 1
        d = distance[corner] + 1
        if d > move and found:
            break  # breadth first: everything within the move value is found
        for other, a, b in links[corner]:  # rules.edges, inlined: the hottest loop
            if other not in distance and (hexes[a] is not None or hexes[b] is not None):
                distance[other] = d
                frontier.append(other)
                if d <= move and other not in taken:
                    found.append(other)
    if found:
        return sorted(found)
    # RULING: a ship with no empty corner within its move may fly to the nearest empty
    # corner (the text's "nearest open space"), counting steps along edges.
    empty = [c for c in frontier if c != start and c not in taken]  # nearest first
    if not empty:
        return []
    nearest = distance[empty[0]]
    return sorted(c for c in empty if distance[c] == nearest)


# -- legal actions -------------------------------------------------------------------------------
def ships_legal(rules: CommodoresRules, s: CommodoresState, seat: int
                ) -> list[CommodoresAction]:
    """With no ship acting: the ships that may still act, and ending the turn; else the acting
    ship's actions and ending them."""
    t = rules.tables
    if s.active < 0:
        player, acted = s.player, s.acted
        pick = t.pick_ship
        ships = [pick[ship.captain] for i, ship in enumerate(s.ships)
                 if ship.owner == player and not ship.new and i not in acted]
        ships.append(t.end_turn)
        return ships
    out = ship_actions(rules, t, s)
    out.append(t.end_ship)
    return out


def ship_actions(rules: CommodoresRules, t: Tables, s: CommodoresState
                 ) -> list[CommodoresAction]:
    ship = s.ships[s.active]
    _move, _forage, plunder, builds = stats(t, ship)
    done = s.done
    pool = s.pools[s.player]
    hexes = s.hexes
    spaces = t.corner_spaces[ship.corner]
    paying = [i for i, n in enumerate(pool) if n > 0]
    out: list[CommodoresAction] = []
    if "move" not in done:
        move_to = t.move_to
        out += [move_to[c] for c in _destinations(t, s, ship)]
    # RULING: repeated explorations follow each other; another action closes exploring.
    if paying and ("explore" not in done or done[-1] == "explore"):
        out += explore_options(t, s, spaces, paying)
    if "upgrade" not in done and s.built_any and s.cubes > 0:
        out += [action for upgrade, cost, action in t.upgrades[ship.kind]
                if upgrade not in ship.upgrades and affords_cost(pool, cost)]
    if "build" not in done and builds:
        out += _builds(t, s, ship, pool)
    if "plunder" not in done and plunder > 0:
        out += _plunders(t, s, ship)
    if "trade" not in done:
        for space in spaces:
            h = hexes[space]
            if h is not None and h.kind == MERCHANT:
                trades = t.trades_giving
                for give, n in enumerate(pool):
                    if n >= 2:
                        out += trades[give]
                break
    return out


def _builds(t: Tables, s: CommodoresState, ship: Ship, pool: tuple[int, ...]
            ) -> list[CommodoresAction]:
    options: list[str] = []  # the ship types the seat may build, by id
    costs = t.costs
    if not s.basic_built[s.player] and affords_cost(pool, costs[t.basic]):
        options.append(t.basic)
    for type_id, left in zip(s.ship_types, s.yard):
        if left > 0 and affords_cost(pool, costs[type_id]):
            options.append(type_id)
    if not options or len(fleet(s, s.player)) >= t.ships_per_player:
        return []
    taken = occupied(s)
    corners = [c for c in edges(t, s, ship.corner) if c not in taken]
    if not corners:
        return []
    build_at = t.build_at
    ordered = sorted(corners)
    return [build_at[type_id][c] for type_id in options for c in ordered]


def _plunders(t: Tables, s: CommodoresState, ship: Ship) -> list[CommodoresAction]:
    out = []
    near = set(edges(t, s, ship.corner))
    hexes = s.hexes
    # RULING: "adjacent" ships are one edge apart; a rival with an empty pool offers nothing.
    for other in s.ships:
        if other.owner != s.player and other.corner in near and sum(s.pools[other.owner]) > 0:
            out.append(t.plunder_ship[other.owner, other.captain])
    for space in t.corner_spaces[ship.corner]:
        h = hexes[space]
        if h is not None and h.health > 0 and h.kind in t.leviathans:
            out.append(t.plunder_space[space])
    return out


def take_legal(rules: CommodoresRules, s: CommodoresState, seat: int) -> list[CommodoresAction]:
    return [take for take, n in zip(rules.tables.take, s.pools[s.target]) if n > 0]


# -- applying ----------------------------------------------------------------------------------
def on_ship(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    player, captain = s.player, a.captain
    for index, ship in enumerate(s.ships):
        if ship.owner == player and ship.captain == captain:
            return changed(s, active=index, done=())
    raise StopIteration  # as next() did: legal actions name only the seat's ships


def on_move(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    ship = s.ships[s.active]
    moved = replaced(ship, corner=rules.tables.corner_index[a.to])
    return changed(s, ships=set_ship(s.ships, s.active, moved), done=did(s, "move"))


def on_upgrade(rules: CommodoresRules, s: CommodoresState, a: Action
               ) -> CommodoresState:
    ship = s.ships[s.active]
    card = rules.types[ship.kind]
    upgrade = card.upgrade(a.upgrade)
    assert upgrade is not None
    pools = pay(rules, s.pools, s.player, upgrade.cost)
    upgraded = replaced(ship, upgrades=ship.upgrades + (a.upgrade,))
    return changed(s, ships=set_ship(s.ships, s.active, upgraded), pools=pools,
                   cubes=s.cubes - 1, done=did(s, "upgrade"))


def on_build(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    card = rules.types[a.ship]
    pools = pay(rules, s.pools, s.player, card.cost)
    captains = {ship.captain for ship in fleet(s, s.player)}
    # RULING: the new ship takes the lowest captaining card still free.
    captain = min(c for c in range(1, rules.catalogue.ships_per_player + 1)
                  if c not in captains)
    corner = rules.geometry.corner_index[a.at]
    ships = s.ships + (Ship(s.player, captain, card.id, corner, (), True),)
    yard, basic_built = s.yard, s.basic_built
    if card.deck == "basic":
        basic_built = basic_built[:s.player] + (True,) + basic_built[s.player + 1:]
    else:
        i = s.ship_types.index(card.id)
        yard = yard[:i] + (yard[i] - 1,) + yard[i + 1:]
    return changed(s, ships=ships, pools=pools, yard=yard, basic_built=basic_built,
                   built_any=True, done=did(s, "build"))


def on_plunder(rules: CommodoresRules, s: CommodoresState, a: Action
               ) -> CommodoresState:
    ship = s.ships[s.active]
    plunder = stats(rules.tables, ship)[2]
    done = did(s, "plunder")
    if ":" in a.target:  # a rival's ship: take resources of your choice, one at a time
        seat = int(a.target.split(":")[0])
        # RULING: you take as many as your plunder value, or all the rival has if fewer.
        left = min(plunder, sum(s.pools[seat]))
        tallies = tally(s.tallies, s.player, SHIPS_PLUNDERED)
        return changed(s, done=done, step=TAKE, target=seat, left=left, tallies=tallies)
    space = rules.geometry.space_index[a.target]
    h = s.hexes[space]
    assert h is not None
    lv = rules.catalogue.leviathan(h.kind)
    # RULING: the reward is the hex's entry for the ship's plunder value, in full even when
    # the leviathan has less health left; the default catalogue lists 2 per unit of plunder.
    pools = gain(rules, s.pools, s.player, lv.reward, lv.rewards[plunder - 1])
    health = max(0, h.health - plunder)
    tallies = credit(s, pools, FROM_LEVIATHANS)
    if health == 0:
        tallies = tally(tallies, s.player, FELLED)
    return changed(s, done=done, pools=pools, tallies=tallies,
                   hexes=set_hex(s.hexes, space, replaced(h, health=health)))


def on_take(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    pools = gain(rules, s.pools, s.target, a.resource, -1)
    pools = gain(rules, pools, s.player, a.resource, 1)
    tallies = credit(s, pools, PLUNDERED)
    left = s.left - 1
    if left > 0 and sum(pools[s.target]) > 0:
        return changed(s, pools=pools, tallies=tallies, left=left)
    return changed(s, pools=pools, tallies=tallies, left=0, step=SHIPS, target=-1)


def on_trade(rules: CommodoresRules, s: CommodoresState, a: Action) -> CommodoresState:
    seat = s.player
    paid = gain(rules, s.pools, seat, a.give, -2)
    pools = gain(rules, paid, seat, a.get, 1)
    # What the trade gained, counted after paying (the tracker's cap may take some).
    traded = tally(s.tallies, seat, TRADED, sum(pools[seat]) - sum(paid[seat]))
    return changed(s, pools=pools, tallies=tally(traded, seat, TRADES), done=did(s, "trade"))


def on_end_ship(rules: CommodoresRules, s: CommodoresState, a: Action
                ) -> CommodoresState:
    acted, player = s.acted + (s.active,), s.player
    for i, ship in enumerate(s.ships):
        if ship.owner == player and not ship.new and i not in acted:
            return changed(s, acted=acted, active=-1, done=())
    return next_turn(rules, s)  # RULING: the turn ends once every ship has acted


def on_end_turn(rules: CommodoresRules, s: CommodoresState, a: Action
                ) -> CommodoresState:
    return next_turn(rules, s)


def next_turn(rules: CommodoresRules, s: CommodoresState) -> CommodoresState:
    """The next seat's turn, which begins with the phase the flow says follows this one
    (foraging); or the end of the game at the turn limit."""
    turn = s.turn + 1
    ships = s.ships
    if any(ship.new for ship in ships):  # else the same tuple: goal checks reuse their work
        ships = tuple(replaced(ship, new=False) if ship.new else ship for ship in ships)
    step, end = rules.step_after["ships"], s.end
    if turn >= rules.turn_limit * rules.players:
        step, end = OVER, "turn_limit"
    return changed(s, turn=turn, player=(s.player + 1) % rules.players, step=step, end=end,
                   ships=ships, active=-1, done=(), acted=(), fresh=(), forage_number=0)


def rounds(rules: CommodoresRules, s: CommodoresState) -> int:
    """The round: every seat has one turn a round (set-up is in round 1)."""
    return min(s.turn // rules.players + 1, rules.turn_limit)
