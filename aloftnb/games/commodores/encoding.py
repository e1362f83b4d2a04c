"""Sky commodores' observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/commodores.md, "Encodings"). The numbering of decisions and chance outcomes follows
from the action declaration (actions.py, ACTIONS).

The observation is read from the seat's view only, so it never shows which leviathans were set
aside.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from ...kit.observations import Entries, dense
from .rules import CommodoresRules
from .state import STEPS, TALLIES


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
