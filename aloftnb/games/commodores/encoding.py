"""Sky commodores' observation encodings, for the OpenSpiel and PettingZoo adapters
(docs/rules/commodores.md, "Encodings"). The numbering of decisions and chance outcomes follows
from the action declaration (actions.py, ACTIONS).

The observation is read from the seat's view only, so it never shows which leviathans were set
aside.
"""

from __future__ import annotations

from typing import Any

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


def observation(rules: CommodoresRules, view: dict[str, Any], seat: int) -> list[float]:
    geo, cat = rules.geometry, rules.catalogue
    n = rules.players
    kinds = _kinds(rules)
    hexes = view["hexes"]
    fresh = set(view["fresh"])
    out: list[float] = []
    top_health = max((lv.health for lv in cat.leviathans), default=1)
    for space in range(len(geo.spaces)):
        name = geo.space_name(space)
        h = hexes.get(name)
        kind = None if h is None else (h["kind"] if h["kind"] in kinds[:-1] else "leviathan")
        out += [1.0 if kind == k else 0.0 for k in kinds]
        out.append(1.0 if h is None else 0.0)
        out.append((h or {}).get("number", 0) / 6)
        out.append((h or {}).get("health", 0) / top_health)
        out.append(1.0 if name in fresh else 0.0)
    ships = {s["corner"]: s for s in view["ships"]}
    stats = view["derived"]["ship_stats"]
    for corner in range(len(geo.corners)):
        ship = ships.get(geo.corner_name(corner))
        owner = int(ship["ship"].split(":")[0]) if ship else -1
        out += [1.0 if owner == p else 0.0 for p in range(n)]
        out.append(1.0 if ship and view["acting"] == ship["ship"] else 0.0)
        s = stats[ship["ship"]] if ship else {"move": 0, "forage": 0, "plunder": 0}
        out += [min(1.0, s["move"] / 12), min(1.0, s["forage"] / 12), min(1.0, s["plunder"] / 12)]
    for pool in view["pools"]:
        out += [pool[r] / cat.pool_cap for r in rules.resources]
    for done in view["completed"]:
        out += [1.0 if g.id in done else 0.0 for g in cat.goals]
    out += [1.0 if g.id in view["goals"] else 0.0 for g in cat.goals]
    out.append(view["goal_number"] / 6)
    yard = view["shipyard"]
    out += [yard.get(t.id, 0) / max(1, cat.copies_per_type) for t in cat.shipyard]
    for tally in view["tallies"]:
        out += [min(1.0, tally[name] / 50) for name in TALLIES]
    out += [1.0 if view["step"] == step else 0.0 for step in STEPS]
    out += [1.0 if view["player"] == p else 0.0 for p in range(n)]
    out += [1.0 if seat == p else 0.0 for p in range(n)]
    out += [1.0 if name in view["done"] else 0.0
            for name in ("move", "explore", "upgrade", "build", "plunder", "trade")]
    out += [min(1.0, view["turn"] / max(1, rules.turn_limit * n)), view["left"] / max(
        1, cat.max_plunder), view["forage_number"] / 6,
        min(1.0, view["derived"]["stack_total"] / 60), min(1.0, sum(view["tokens"].values()) / 60),
        view["upgrade_cubes"] / max(1, cat.upgrade_cubes)]
    drawn = view.get("drawn")  # the hex waiting to be placed (rulings 2)
    drawn = None if drawn is None else (drawn if drawn in kinds[:-1] else "leviathan")
    out += [1.0 if drawn == k else 0.0 for k in kinds]
    return out


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
