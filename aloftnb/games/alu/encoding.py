"""ALU's observations for the adapters (docs/rules/alu.md, "Encodings"); the numbering of actions
follows from their declaration in actions.py.

ALU has no chance and hides nothing, but the observation is still read from the view only.
"""

from __future__ import annotations

import functools
from typing import Any

from ...kit.observations import Entries, dense, per_rules
from .rules import SEAT_NAMES, TILE_CONTENTS, AluRules
from .state import AluState

RESOURCES = (("construction", "available"), ("construction", "spent"), ("iron", "available"),
             ("iron", "spent"), ("food", "available"), ("food", "not_usable_yet"),
             ("food", "spent"))


# -- observations ----------------------------------------------------------------------------------
def observation_shape(rules: AluRules) -> tuple[int, ...]:
    """Planes of rows x columns (contents one-hot, control per seat), then the counters."""
    planes = len(TILE_CONTENTS) + 2
    return (planes * rules.tile_count + 2 * len(RESOURCES) + 2 + 2 + 2 + 2,)


@functools.lru_cache(maxsize=32)
def _layout(rules: AluRules) -> tuple[int, dict[str, int], dict[str, int], int, dict[str, int],
                                      int]:
    """(size, tile -> place, content -> its plane's start, where the control planes start,
    resource -> scale, the step counters' scale): asked at every step."""
    tiles = rules.tiles
    place = {tile: i for i, tile in reversed(list(enumerate(tiles)))}
    planes = {content: i * len(tiles) for i, content in reversed(list(enumerate(TILE_CONTENTS)))}
    # Counters scaled into 0..1: food comes from raids, and each raid spends a construction.
    scale = {"construction": max(1, rules.start_construction), "iron": max(1, rules.start_iron),
             "food": max(1, rules.start_construction)}
    return (observation_shape(rules)[0], place, planes, len(TILE_CONTENTS) * len(tiles), scale,
            max(rules.first_turn_actions, rules.actions_per_turn))


def observation(rules: AluRules, view: dict[str, Any], seat: int) -> list[float]:
    return dense(_layout(rules)[0], observation_entries(rules, view, seat))


def observation_entries(rules: AluRules, view: dict[str, Any], seat: int) -> Entries:
    """`observation` as its non-zero entries (aloftnb.kit.observations)."""
    _, place, planes, control_at, scale, actions = _layout(rules)
    board, count = view["board"], len(rules.tiles)
    ones = [planes[content] + i for i, content in enumerate(board[tile] for tile in rules.tiles)
            if content in planes]
    control = view["derived"]["control"]
    for s, name in enumerate(SEAT_NAMES):
        base = control_at + s * count
        ones += sorted({base + place[tile] for tile in control[name] if tile in place})
    at = control_at + len(SEAT_NAMES) * count
    positions: list[int] = []
    values: list[float] = []
    for name in SEAT_NAMES:
        counters = view["players"][name]
        for resource, part in RESOURCES:
            positions.append(at)
            values.append(counters[resource][part] / scale[resource])
            at += 1
    to_act = view["current_player"]
    winners = view["result"]["winners"] if view["result"] else []
    for s in (0, 1):
        if to_act == s:
            ones.append(at + s)
        if seat == s:
            ones.append(at + 2 + s)
        if s in winners:
            ones.append(at + 4 + s)
    positions += [at + 6, at + 7]
    values += [view["actions_left"] / actions, min(1.0, view["turn"] / rules.max_length())]
    return ones, positions, values


_STATE_LAYOUTS: dict[int, tuple[Any, Any]] = {}


def _state_layout(rules: AluRules) -> tuple[tuple[int, ...], int, list[int], int, int, int]:
    """What `observation_entries_from_state` reads of the rules: (the content planes' starts
    in TILE_CONTENTS order, where the control planes start, each resource counter's scale in
    RESOURCES order, the step counters' scale, max_length, the tile count)."""
    _, _, planes, control_at, scale, actions = _layout(rules)
    return (tuple(planes[c] for c in TILE_CONTENTS), control_at,
            [scale[resource] for resource, _ in RESOURCES], actions, rules.max_length(),
            len(rules.tiles))


def observation_entries_from_state(rules: AluRules, s: AluState, seat: int) -> list[Entries]:
    """`observation_entries` of the view, read from the state's bitmasks without building the
    view (the adapters call it at every step; tests/test_observation_state.py compares them).
    Tile i of the board is bit i of a mask, as `rules.mask_tiles` reads it."""
    planes, control_at, scales, actions, max_length, count = per_rules(
        _STATE_LAYOUTS, rules, _state_layout)
    circles, squares = s.camps
    raided = s.raided
    empty, circle, square, raid = planes
    ones = [(circle if circles >> i & 1 else square if squares >> i & 1
             else raid if raided >> i & 1 else empty) + i for i in range(count)]
    for side, mask in enumerate(s.control):
        base = control_at + side * count
        while mask:
            low = mask & -mask
            ones.append(base + low.bit_length() - 1)
            mask ^= low
    at = control_at + len(SEAT_NAMES) * count
    positions = list(range(at, at + 2 * len(RESOURCES)))
    values = [held[i] / scales[i] for held in s.resources for i in range(len(RESOURCES))]
    at += 2 * len(RESOURCES)
    over = s.player < 0
    winners = s.winners if over else ()
    for side in (0, 1):
        if not over and s.player == side:
            ones.append(at + side)
        if seat == side:
            ones.append(at + 2 + side)
        if side in winners:
            ones.append(at + 4 + side)
    positions += [at + 6, at + 7]
    values += [s.actions_left / actions, min(1.0, s.turn / max_length)]
    return [(ones, positions, values)]


def observation_string(rules: AluRules, view: dict[str, Any], seat: int) -> str:
    """The board and control grids, each seat's counters, and whose turn it is."""
    symbol = {"empty": ".", "circle": "C", "square": "S", "raided": "R"}
    control = {tile: name[0].upper() for name in SEAT_NAMES
               for tile in view["derived"]["control"][name]}
    letters = " ".join(chr(ord("a") + c) for c in range(rules.columns))
    lines = [f"   {letters}      {letters}"]
    for r in range(rules.rows):
        row = rules.tiles[r * rules.columns:(r + 1) * rules.columns]
        lines.append(f"{r + 1:>2} " + " ".join(symbol[view["board"][t]] for t in row)
                     + f"   {r + 1:>2} " + " ".join(control.get(t, ".") for t in row))
    for name in SEAT_NAMES:
        c = view["players"][name]
        lines.append(f"{name}: construction {c['construction']['available']}, iron "
                     f"{c['iron']['available']}, food {c['food']['available']}"
                     f" (+{c['food']['not_usable_yet']} next turn)")
    if view["result"]:
        lines.append(f"over: {view['derived']['result_text']}")
    else:
        lines.append(f"turn {view['turn']}: {SEAT_NAMES[view['current_player']]} to act, "
                     f"{view['actions_left']} action(s) left; observer {SEAT_NAMES[seat]}")
    return "\n".join(lines)
