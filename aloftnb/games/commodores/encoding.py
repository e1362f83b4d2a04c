"""Sky commodores' observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/commodores.md, "Encodings"). The numbering of decisions and chance outcomes follows
from the action declaration (actions.py, ACTIONS).

The observation is read from the seat's view only, so it never shows which leviathans were set
aside.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from ...kit.observations import Blocks, Entries, dense, per_rules
from .catalogue import MERCHANT
from .rules import CommodoresRules
from .state import STEPS, TALLIES, CommodoresState


def _kinds(rules: CommodoresRules) -> list[str]:
    """Hex kinds a view tells apart: set-aside and stacked leviathans are one kind there."""
    return ["merchant", *rules.resources, "leviathan"]


def observation_shape(rules: CommodoresRules) -> tuple[int, ...]:
    geo, cat = rules.geometry, rules.catalogue
    n, r = rules.players, len(rules.resources)
    per_space = len(_kinds(rules)) + 1 + 2 + 1  # kind, empty, number and health, fresh
    per_corner = n + 1 + 3  # whose ship, acting, its move, forage and plunder
    return (len(geo.spaces) * per_space + len(geo.corners) * per_corner + n * r
            + n * len(cat.goals) + len(cat.goals) + 1 + len(cat.shipyard) + n * len(TALLIES)
            + len(STEPS) + 2 * n + 6 + 6 + len(_kinds(rules)),)


class _Layout(NamedTuple):
    """What the observation reads at every step, worked out once per rules object."""
    size: int
    kinds: list[str]
    kind_at: dict[str, list[int]]  # kind -> its places in a kind one-hot block
    named: frozenset[str]  # the kinds a view names as they are (all but leviathans)
    spaces: list[tuple[str, int]]  # (space name, where its block starts)
    space_at: dict[str, int]  # space name -> where its block starts
    corner_at: dict[str, int]  # corner name -> where its block starts
    corners_end: int
    top_health: int
    max_plunder: int


@functools.lru_cache(maxsize=32)
def _layout(rules: CommodoresRules) -> _Layout:
    geo, cat, n = rules.geometry, rules.catalogue, rules.players
    kinds = _kinds(rules)
    kind_at: dict[str, list[int]] = {}
    for i, k in enumerate(kinds):
        kind_at.setdefault(k, []).append(i)
    per_space, per_corner = len(kinds) + 4, n + 4
    spaces = [(geo.space_name(space), space * per_space) for space in range(len(geo.spaces))]
    space_at: dict[str, int] = {}
    for name, base in spaces:
        space_at.setdefault(name, base)
    corners = len(spaces) * per_space
    corner_at: dict[str, int] = {}
    for corner in range(len(geo.corners)):
        corner_at.setdefault(geo.corner_name(corner), corners + corner * per_corner)
    return _Layout(observation_shape(rules)[0], kinds, kind_at, frozenset(kinds[:-1]), spaces,
                   space_at, corner_at,
                   corners + len(geo.corners) * per_corner,
                   max((lv.health for lv in cat.leviathans), default=1), cat.max_plunder)


def observation(rules: CommodoresRules, view: dict[str, Any], seat: int) -> list[float]:
    return dense(_layout(rules).size, observation_entries(rules, view, seat))


def observation_entries(rules: CommodoresRules, view: dict[str, Any], seat: int) -> Entries:
    """`observation` as its non-zero entries (aloftnb.kit.observations), in its order."""
    cat, n = rules.catalogue, rules.players
    lay = _layout(rules)
    kinds, kind_at = lay.kinds, lay.kind_at
    hexes = view["hexes"]
    ones: list[int] = []
    positions: list[int] = []
    values: list[float] = []
    hot, put, value = ones.append, positions.append, values.append
    empty, top_health, named, space_at = len(kinds), lay.top_health, lay.named, lay.space_at
    ones += [base + empty for name, base in lay.spaces if name not in hexes]
    for name, h in hexes.items():
        if name not in space_at:
            continue
        base = space_at[name]
        kind = h["kind"]
        for i in kind_at[kind if kind in named else "leviathan"]:
            hot(base + i)
        positions += (base + empty + 1, base + empty + 2)
        values += (h.get("number", 0) / 6, h.get("health", 0) / top_health)
    ones += [space_at[name] + empty + 3 for name in set(view["fresh"]) if name in space_at]
    stats, acting = view["derived"]["ship_stats"], view["acting"]
    corner_at = lay.corner_at
    for corner, ship in {s["corner"]: s for s in view["ships"]}.items():
        if corner not in corner_at:
            continue
        base = corner_at[corner]
        owner = int(ship["ship"].split(":")[0])
        if 0 <= owner < n:
            hot(base + owner)
        if acting == ship["ship"]:
            hot(base + n)
        s = stats[ship["ship"]]
        positions += [base + n + 1, base + n + 2, base + n + 3]
        values += [min(1.0, s["move"] / 12), min(1.0, s["forage"] / 12),
                   min(1.0, s["plunder"] / 12)]
    at = lay.corners_end
    for pool in view["pools"]:
        for r in rules.resources:
            put(at)
            value(pool[r] / cat.pool_cap)
            at += 1
    goals = cat.goals
    for done in (*view["completed"], view["goals"]):
        ones += [at + i for i, g in enumerate(goals) if g.id in done]
        at += len(goals)
    put(at)
    value(view["goal_number"] / 6)
    at += 1
    yard, copies = view["shipyard"], max(1, cat.copies_per_type)
    for t in cat.shipyard:
        put(at)
        value(yard.get(t.id, 0) / copies)
        at += 1
    for tally in view["tallies"]:
        for name in TALLIES:
            put(at)
            value(min(1.0, tally[name] / 50))
            at += 1
    ones += [at + i for i, step in enumerate(STEPS) if view["step"] == step]
    at += len(STEPS)
    ones += [at + p for p in range(n) if view["player"] == p]
    ones += [at + n + p for p in range(n) if seat == p]
    at += 2 * n
    done = view["done"]
    ones += [at + i for i, name in enumerate(("move", "explore", "upgrade", "build", "plunder",
                                              "trade")) if name in done]
    at += 6
    positions += range(at, at + 6)
    values += [min(1.0, view["turn"] / max(1, rules.turn_limit * n)), view["left"] / max(
        1, lay.max_plunder), view["forage_number"] / 6,
        min(1.0, view["derived"]["stack_total"] / 60), min(1.0, sum(view["tokens"].values()) / 60),
        view["upgrade_cubes"] / max(1, cat.upgrade_cubes)]
    at += 6
    drawn = view.get("drawn")  # the hex waiting to be placed (rulings 2)
    if drawn is not None:
        ones += [at + i for i in kind_at[drawn if drawn in named else "leviathan"]]
    return ones, positions, values


class _StateLayout(NamedTuple):
    """What `observation_entries_from_state` reads at every step, per rules object: the
    layout, and where each part of the observation after the corners starts."""
    lay: _Layout
    per_space: int
    empty: int  # offsets in a space's block: empty, number, health, fresh
    corner_base: list[int]  # per corner: where its block starts
    goal_ids: list[str]
    steps: dict[str, list[int]]  # step -> its places in the step block
    pools: int
    goals: int  # each seat's completed goals, then those in play
    goal_number: int
    yard: int
    tallies: int
    step: int
    player: int
    done: int
    numbers: int
    drawn: int
    scales: tuple[int, int, int, int]  # turn, plunder, pool, upgrade cubes
    blocks: Blocks  # the blocks' entries kept from the last step


_STATE_LAYOUTS: dict[int, tuple[Any, Any]] = {}


def _state_layout(rules: CommodoresRules) -> _StateLayout:
    lay, geo, cat, n = _layout(rules), rules.geometry, rules.catalogue, rules.players
    steps: dict[str, list[int]] = {}
    for i, step in enumerate(STEPS):
        steps.setdefault(step, []).append(i)
    pools = lay.corners_end
    goals = pools + n * len(rules.resources)
    goal_number = goals + (n + 1) * len(cat.goals)
    yard = goal_number + 1
    tallies = yard + len(cat.shipyard)
    step_at = tallies + n * len(TALLIES)
    player = step_at + len(STEPS)
    done = player + 2 * n
    numbers = done + 6
    scales = (max(1, rules.turn_limit * n), max(1, lay.max_plunder), cat.pool_cap,
              max(1, cat.upgrade_cubes))
    return _StateLayout(lay, len(lay.kinds) + 4, len(lay.kinds),
                        [lay.corner_at[geo.corner_name(c)] for c in range(len(geo.corners))],
                        [g.id for g in cat.goals], steps, pools, goals, goal_number, yard,
                        tallies, step_at, player, done, numbers, numbers + 6, scales, Blocks())


def _kind_places(lay: _Layout, kind: str) -> list[int]:
    return lay.kind_at[kind if kind in lay.named else "leviathan"]


_DONE = ("move", "explore", "upgrade", "build", "plunder", "trade")


def observation_entries_from_state(rules: CommodoresRules, s: CommodoresState, seat: int
                                   ) -> list[Entries]:
    """`observation_entries` of `rules.view(s, seat)`, read from the state without building the
    view, as blocks (kit.observations; the adapters call it at every step, and
    tests/test_observation_state.py compares the two). Like the view it reads no set-aside
    leviathan and no kind in the stack, only its total. The sky, the ships, the pools, the
    goals, the tallies and the shipyard are blocks kept while the state holds the same
    parts."""
    n, sl = rules.players, per_rules(_STATE_LAYOUTS, rules, _state_layout)
    blocks = sl.blocks
    sky = blocks.get("sky")
    if sky is None or sky[0] is not s.hexes:
        sky = blocks["sky"] = (s.hexes, _sky(rules, sl, s))
    ships = blocks.get("ships")
    if ships is None or ships[0] is not s.ships:
        ships = blocks["ships"] = (s.ships, _ships(rules, sl, s))
    pools = blocks.get("pools")
    if pools is None or pools[0] is not s.pools:
        pools = blocks["pools"] = (s.pools, _pools(sl, s))
    goals = blocks.get("goals")  # what is in play is fixed at set-up, in a new state
    if goals is None or goals[0] is not s.completed or goals[2] is not s.goals:
        goals = blocks["goals"] = (s.completed, _goals(sl, s), s.goals)
    tallies = blocks.get("tallies")
    if tallies is None or tallies[0] is not s.tallies:
        tallies = blocks["tallies"] = (s.tallies, _tallies(sl, s))
    yard = blocks.get("yard")  # the types in play are fixed at set-up, in a new state
    if yard is None or yard[0] is not s.yard or yard[2] is not s.ship_types:
        yard = blocks["yard"] = (s.yard, _yard(rules, sl, s), s.ship_types)
    fresh = sl.empty + 3
    ones = [space * sl.per_space + fresh for space in set(s.fresh)]
    if s.active >= 0:
        # The view marks the acting ship where it shows it: at its corner, unless a later ship
        # stands there too (ships by corner keep the last; no two ships share a name).
        corner_base = sl.corner_base
        base = corner_base[s.ships[s.active].corner]
        if all(corner_base[ship.corner] != base for ship in s.ships[s.active + 1:]):
            ones.append(base + n)
    step = sl.steps.get(s.step)
    if step:
        ones += [sl.step + i for i in step]
    if 0 <= s.player < n:
        ones.append(sl.player + s.player)
    if 0 <= seat < n:
        ones.append(sl.player + n + seat)
    if s.done:
        ones += [sl.done + i for i, name in enumerate(_DONE) if name in s.done]
    if s.drawn:  # the hex waiting to be placed (rulings 2)
        ones += [sl.drawn + i for i in _kind_places(sl.lay, s.drawn)]
    turns, plunder, _, cubes = sl.scales
    at = sl.numbers
    loose = (ones, [sl.goal_number, at, at + 1, at + 2, at + 3, at + 4, at + 5],
             [s.goal_number / 6, min(1.0, s.turn / turns), s.left / plunder,
              s.forage_number / 6, min(1.0, sum(s.stack) / 60), min(1.0, sum(s.tokens) / 60),
              s.cubes / cubes])
    return [loose, sky[1], ships[1], pools[1], goals[1], tallies[1], yard[1]]


def _sky(rules: CommodoresRules, sl: _StateLayout, s: CommodoresState) -> Entries:
    """Each space's block but its fresh mark: empty, or its kind, number and health."""
    lay = sl.lay
    per_space, empty, top_health = sl.per_space, sl.empty, lay.top_health
    resources = rules.catalogue.resources
    ones: list[int] = []
    positions: list[int] = []
    values: list[float] = []
    base = 0
    for h in s.hexes:
        if h is None:
            ones.append(base + empty)
        else:
            kind = h.kind
            ones += [base + i for i in _kind_places(lay, kind)]
            positions += (base + empty + 1, base + empty + 2)
            if kind in resources:
                values += (h.number / 6, 0.0)
            else:
                values += (0.0, 0.0 if kind == MERCHANT else h.health / top_health)
        base += per_space
    return ones, positions, values


def _ships(rules: CommodoresRules, sl: _StateLayout, s: CommodoresState) -> Entries:
    """Each corner's block but its acting mark: whose ship is there and its stats (the last
    ship at a corner, as the view's ships by corner)."""
    n = rules.players
    ones: list[int] = []
    positions: list[int] = []
    values: list[float] = []
    at_corner = {sl.corner_base[ship.corner]: ship for ship in s.ships}
    for base, ship in at_corner.items():
        if 0 <= ship.owner < n:
            ones.append(base + ship.owner)
        move, forage, plunder, _ = rules.stats(ship)
        positions += (base + n + 1, base + n + 2, base + n + 3)
        values += (min(1.0, move / 12), min(1.0, forage / 12), min(1.0, plunder / 12))
    return ones, positions, values


def _pools(sl: _StateLayout, s: CommodoresState) -> Entries:
    cap = sl.scales[2]
    held = [count for pool in s.pools for count in pool]
    return [], list(range(sl.pools, sl.pools + len(held))), [count / cap for count in held]


def _goals(sl: _StateLayout, s: CommodoresState) -> Entries:
    """The goals each seat completed, then those in play."""
    ones: list[int] = []
    at, goal_ids = sl.goals, sl.goal_ids
    for done in (*s.completed, s.goals):
        ones += [at + i for i, g in enumerate(goal_ids) if g in done]
        at += len(goal_ids)
    return ones, [], []


def _yard(rules: CommodoresRules, sl: _StateLayout, s: CommodoresState) -> Entries:
    """The cards left in the shipyard."""
    cat = rules.catalogue
    yard, copies = dict(zip(s.ship_types, s.yard)), max(1, cat.copies_per_type)
    return [], list(range(sl.yard, sl.yard + len(cat.shipyard))), [
        yard.get(t.id, 0) / copies for t in cat.shipyard]


def _tallies(sl: _StateLayout, s: CommodoresState) -> Entries:
    """Each seat's tallies."""
    at = sl.tallies
    counts = [count for tally in s.tallies for count in tally]
    return [], list(range(at, at + len(counts))), [min(1.0, count / 50) for count in counts]


def observation_string(rules: CommodoresRules, view: dict[str, Any], seat: int) -> str:
    d = view["derived"]
    lines = [f"observer seat {seat}; step {view['step']}, seat {view['player']}, turn "
             f"{view['turn']}, round {d['round']}"]
    for name, h in sorted(view["hexes"].items()):
        extra = h.get("number", h.get("health", ""))
        lines.append(f"  hex {name}: {h['kind']} {extra}".rstrip())
    for ship in view["ships"]:
        lines.append(f"  ship {ship['ship']} {ship['type']} at {ship['corner']}"
                     + (f" upgrades {','.join(ship['upgrades'])}" if ship["upgrades"] else ""))
    for p, pool in enumerate(view["pools"]):
        held = " ".join(f"{k}={v}" for k, v in pool.items())
        lines.append(f"  seat {p}: {held}; goals {','.join(view['completed'][p]) or '-'}")
    lines.append(f"  goals in play {','.join(view['goals'])}; stack {d['stack_total']}")
    if view.get("drawn"):
        lines.append(f"  drawn, to place: {view['drawn']}")
    if d["result_text"]:
        lines.append(f"over: {d['result_text']}")
    return "\n".join(lines)
