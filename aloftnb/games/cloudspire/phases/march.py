"""How units move in the onslaught's move stage: a hero's moves (chosen by its faction, within
its movement over the terrain it may cross), and the minions' march towards their mark (decided
by the rules, step by step; friendly heroes in the way swap places)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import CloudspireAction, move
from ..map import FAR, mark_distance, occupied, passable
from ..state import Band
from ..units import is_hero, stats
from ..work import Work

if TYPE_CHECKING:
    from ..rules import CloudspireRules


def hero_moves(rules: CloudspireRules, s: Any, band: Band, start: str) -> list[CloudspireAction]:
    _, _, movement, terrain = stats(rules, band)
    ground, taken = passable(rules, s.slots, terrain), occupied(rules, s)
    # Breadth first, ring by ring, onto free ground: kit.hexgrid.reachable's search without
    # building the set ground - taken (the whole map's ground, for a search of a few steps).
    seen, ring = {start}, [start]
    for _ in range(movement):
        reached = []
        for h in ring:
            for nb in rules.neighbours[h]:
                if nb not in seen and nb in ground and nb not in taken:
                    seen.add(nb)
                    reached.append(nb)
        ring = reached
    seen.discard(start)
    return [move(start, h) for h in sorted(seen, key=rules.hex_index.__getitem__)]


def forced_hero(rules: CloudspireRules, s: Any, f: int) -> Band | None:
    """A hero on top of the stack that must move now: before the march if minions are
    under it, after the march if it is still on the stack."""
    stack = s.sides[f].stack
    if not stack or not is_hero(rules, stack[0]):
        return None
    if s.marched or any(not is_hero(rules, b) for b in stack[1:]):
        return stack[0]
    return None


def move_hero(rules: CloudspireRules, w: Work, f: int, start: str, to: str) -> None:
    if start == rules.gate_hexes[f] and not any(u.hex == start for u in w.units):
        side = w.sides[f]
        band = side.stack[0]
        w.side(f, stack=side.stack[1:])
        w.units.append(band._replace(hex=to, moved=True))
        return
    i = next(i for i, u in enumerate(w.units) if u.hex == start)
    w.units[i] = w.units[i]._replace(hex=to, moved=True)


def march(rules: CloudspireRules, w: Work, f: int) -> None:
    """Every minion of faction f moves, leading minion first (the one nearest its mark),
    the deployment stack's minions last, top first."""
    w.marched = True
    gate = rules.gate_hexes[w.sides[f].mark] if w.sides[f].mark >= 0 else None
    if gate is None:
        return
    # Nearest first (then the lowest-numbered hex). A minion that waits its turn stays where
    # it is (the heroes in the way are displaced, never minions), so the order is found once;
    # each moved minion takes its own place in w.units.
    leading = sorted((mark_distance(rules, w.slots, stats(rules, u)[3], gate).get(u.hex, FAR),
                      rules.hex_index[u.hex], i)
                     for i, u in enumerate(w.units) if u.owner == f and not is_hero(rules, u))
    for _, _, i in leading:
        band = w.units[i]
        step_minion(rules, w, band, band.hex, gate)
    # then the stack, top first; a hero under the minions waits for the after-march moves
    while True:
        stack = w.sides[f].stack
        if not stack or is_hero(rules, stack[0]):
            break
        band = stack[0]
        spot = first_step(rules, w, band, rules.gate_hexes[f], gate)
        if spot is None:  # RULING (blocked gate): it stays on the stack this turn
            break
        w.side(f, stack=stack[1:])
        placed = band._replace(hex=rules.gate_hexes[f])
        w.units.append(placed)
        step_minion(rules, w, placed, rules.gate_hexes[f], gate)


def first_step(rules: CloudspireRules, w: Work, band: Band, at: str, gate: str) -> str | None:
    # (`at` itself may be taken: next_hex looks only at its neighbours)
    return next_hex(rules, w, band, at, gate, set(), occupied(rules, w))


def next_hex(rules: CloudspireRules, w: Work, band: Band, at: str, gate: str, visited: set[str],
             taken: set[str]) -> str | None:
    """RULING (minion steps): each step goes to the free neighbour nearest the mark (the
    lowest-numbered hex on a tie); if none is nearer, sideways to a free neighbour as near
    that it has not stood on this move; a minion next to its mark's gate stays."""
    terrain = stats(rules, band)[3]
    dist = mark_distance(rules, w.slots, terrain, gate)
    here = dist.get(at, FAR)
    if here <= 1:
        return None
    ground = passable(rules, w.slots, terrain)
    heroes: set[str] | None = None  # found when a neighbour is taken
    best, best_key = None, None
    for nb in rules.neighbours[at]:
        if nb not in ground or nb in visited:
            continue
        if nb in taken:
            if heroes is None:
                heroes = swapping_heroes(rules, w, band, at)
            if nb not in heroes:
                continue
        d = dist.get(nb, FAR)
        if d > here or (d == here and d >= FAR):
            continue
        key = (d, rules.hex_index[nb])
        if best_key is None or key < best_key:
            best, best_key = nb, key
    return best


def swapping_heroes(rules: CloudspireRules, w: Work, band: Band, at: str) -> set[str]:
    """Hexes of the friendly heroes that would swap places with the minion at `at`."""
    # a friendly hero in the way swaps places with the minion (never onto a gate hex)
    if at in rules.walls:
        return set()
    # RULING (displacement, rulings 2): the terrain allowance has no exception for a
    # displaced hero, so a hero that cannot stand on the minion's hex (sky, for a hero that
    # cannot fly) is not displaced: it blocks the minion like any other unit.
    return {u.hex for u in w.units if u.owner == band.owner and is_hero(rules, u)
            and (not rules.new_rulings or at in passable(rules, w.slots, stats(rules, u)[3]))}


def step_minion(rules: CloudspireRules, w: Work, band: Band, start: str, gate: str) -> Band:
    """Move a minion its full movement (or until it cannot); friendly heroes in the way
    swap places with it. Returns the band as it ends."""
    movement = stats(rules, band)[2]
    at, visited = start, {start}
    taken = occupied(rules, w)
    i = next(i for i, u in enumerate(w.units) if u is band)
    for _ in range(movement):
        nxt = next_hex(rules, w, band, at, gate, visited, taken)  # (neighbours of `at`)
        if nxt is None:
            break
        # a friendly hero on the way is displaced to where the minion stood
        for j, u in enumerate(w.units):
            if u.hex == nxt:
                w.units[j] = u._replace(hex=at)
        taken.discard(at)
        taken.add(nxt)
        if at == start and start == rules.gate_hexes[band.owner]:
            taken.add(start)  # the gate stays a wall
        visited.add(nxt)
        at = nxt
    new = band._replace(hex=at, moved=True)
    w.units[i] = new
    return new
