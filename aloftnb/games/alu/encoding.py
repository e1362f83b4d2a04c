"""ALU's observations for the adapters (docs/rules/alu.md, "Encodings"); the numbering of actions
follows from their declaration in actions.py.

ALU has no chance and hides nothing, but the observation is still read from the view only.
"""

from __future__ import annotations

from typing import Any

from .rules import SEAT_NAMES, TILE_CONTENTS, AluRules

RESOURCES = (("construction", "available"), ("construction", "spent"), ("iron", "available"),
             ("iron", "spent"), ("food", "available"), ("food", "not_usable_yet"),
             ("food", "spent"))


# -- observations ----------------------------------------------------------------------------------
def observation_shape(rules: AluRules) -> tuple[int, ...]:
    """Planes of rows x columns (contents one-hot, control per seat), then the counters."""
    planes = len(TILE_CONTENTS) + 2
    return (planes * rules.tile_count + 2 * len(RESOURCES) + 2 + 2 + 2 + 2,)


def observation(rules: AluRules, view: dict[str, Any], seat: int) -> list[float]:
    tiles, board = rules.tiles, view["board"]
    out: list[float] = []
    for content in TILE_CONTENTS:
        out.extend(1.0 if board[tile] == content else 0.0 for tile in tiles)
    control = view["derived"]["control"]
    for name in SEAT_NAMES:
        held = set(control[name])
        out.extend(1.0 if tile in held else 0.0 for tile in tiles)
    # Counters scaled into 0..1: food comes from raids, and each raid spends a construction.
    scale = {"construction": max(1, rules.start_construction), "iron": max(1, rules.start_iron),
             "food": max(1, rules.start_construction)}
    for name in SEAT_NAMES:
        counters = view["players"][name]
        out.extend(counters[resource][part] / scale[resource] for resource, part in RESOURCES)
    to_act = view["current_player"]
    out.extend(1.0 if to_act == s else 0.0 for s in (0, 1))
    out.extend(1.0 if seat == s else 0.0 for s in (0, 1))
    winners = view["result"]["winners"] if view["result"] else []
    out.extend(1.0 if s in winners else 0.0 for s in (0, 1))
    out.append(view["actions_left"] / max(rules.first_turn_actions, rules.actions_per_turn))
    out.append(min(1.0, view["turn"] / rules.max_length()))
    return out


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
