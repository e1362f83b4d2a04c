"""ALU helpers for notebooks: positions drawn as text diagrams, printed boards, region reports.

`AluRules.board_from_text`, `position`, `text_diagram` and `region_report` call these.
"""

from __future__ import annotations

import re
import string
from typing import TYPE_CHECKING, Any

from ...core.options import whole_number_problem
from ...errors import IllegalAction, InvalidState
from .state import EDGE_NAMES, SEAT_NAMES, AluState

if TYPE_CHECKING:
    from .rules import AluRules


def board_from_text(rules: AluRules, text: str) -> dict[str, str]:
    """A `board` dict from a diagram: one line per row, top row first, one symbol per tile.

    Symbols: `.` empty, `C` circle camp, `S` square camp, `R` raided (any case); spaces
    between symbols are optional. Use it as `match.edit(board=rules.board_from_text(...))`.
    """
    if not isinstance(text, str):
        raise InvalidState(f"a board diagram must be text, not {type(text).__name__}")
    symbols = {".": "empty", "c": "circle", "s": "square", "r": "raided"}
    lines = [re.sub(r"\s+", "", line) for line in text.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) != rules.rows:
        raise InvalidState(f"the diagram has {len(lines)} rows; this board has {rules.rows}")
    board = {}
    for r, line in enumerate(lines):
        if len(line) != rules.columns:
            raise InvalidState(f"diagram row {r + 1} has {len(line)} tiles; this board has "
                               f"{rules.columns} columns")
        for c, symbol in enumerate(line):
            if symbol.lower() not in symbols:
                raise InvalidState(f"diagram row {r + 1}, column {c + 1}: {symbol!r} is not "
                                   "one of . C S R")
            board[rules.tiles[r * rules.columns + c]] = symbols[symbol.lower()]
    return board


def position(rules: AluRules, diagram: str, *, to_act: str = "circle",
             actions_left: int | None = None, turn: int | None = None,
             **available: dict[str, int]) -> dict[str, Any]:
    """A state dict for a position drawn as a diagram, ready for `match.set_state(...)`.

    to_act: "circle" or "square". turn: defaults to a later turn (3 or 4), not the first.
    circle= / square=: available amounts, e.g. square={"food": 2, "not_usable_yet": 1};
    anything not given keeps the starting amount (spent is what the counter is missing).
    """
    if to_act not in SEAT_NAMES:
        raise InvalidState(f"to_act must be 'circle' or 'square', not {to_act!r}")
    seat = SEAT_NAMES.index(to_act)
    if turn is None:
        turn = 3 + seat
    unknown = sorted(set(available) - set(SEAT_NAMES))
    if unknown:
        raise InvalidState(f"position() takes circle= and square= amounts, not {unknown[0]}=")
    players = {}
    for name in SEAT_NAMES:
        given = dict(available.get(name) or {})
        bad = sorted(set(given) - {"construction", "iron", "food", "not_usable_yet"})
        if bad:
            raise InvalidState(f"{name}'s amounts are construction, iron, food and "
                               f"not_usable_yet, not {bad[0]!r}")
        counters = {}
        for resource, start in (("construction", rules.start_construction),
                                ("iron", rules.start_iron)):
            amount = given.get(resource, start)
            if whole_number_problem(amount, 0, start):
                raise InvalidState(f"{name}'s {resource} must be 0..{start} (the counter "
                                   f"holds {start}), not {amount!r}")
            counters[resource] = {"available": amount, "spent": start - amount}
        counters["food"] = {"available": given.get("food", 0),
                            "not_usable_yet": given.get("not_usable_yet", 0), "spent": 0}
        players[name] = counters
    return {"board": rules.board_from_text(diagram), "players": players, "turn": turn,
            "current_player": seat,
            "actions_left": rules.actions_per_turn if actions_left is None else actions_left,
            "result": None}


def text_diagram(rules: AluRules, state: AluState) -> str:
    """The board and who controls each tile, as two text grids (for printing in a cell)."""
    header = "   " + " ".join(string.ascii_lowercase[: rules.columns])
    lines = [header + "      " + header]
    for r in range(rules.rows):
        pieces, owners = [], []
        for c in range(rules.columns):
            bit = 1 << (r * rules.columns + c)
            pieces.append("C" if state.camps[0] & bit else "S" if state.camps[1] & bit
                          else "R" if state.raided & bit else ".")
            owners.append("C" if state.control[0] & bit else "S" if state.control[1] & bit
                          else ".")
        lines.append(f"{r + 1:>2} " + " ".join(pieces) + "      "
                     + f"{r + 1:>2} " + " ".join(owners))
    return "board (C circle, S square, R raided)   control\n" + "\n".join(lines)


def region_report(rules: AluRules, state: AluState, seat: int) -> list[dict[str, Any]]:
    """`seat`'s regions, each with why it is or is not bordered (to teach bordering)."""
    if whole_number_problem(seat, 0, 1):
        raise IllegalAction(f"seat must be 0 (circle) or 1 (square), not {seat!r:.60}")
    report: list[dict[str, Any]] = []
    if not state.camps[seat]:
        return report
    for region, edges, has_opposing in rules.regions(state.camps, seat):
        touched = [EDGE_NAMES[b] for b in range(4) if edges >> b & 1]
        if has_opposing:
            why = f"holds {SEAT_NAMES[1 - seat]}'s camp(s)"
        elif len(touched) > 2:
            why = f"open: touches {len(touched)} board edges (at most 2 may close it)"
        else:
            why = "bordered"
        report.append({
            "tiles": rules.mask_tiles(region & ~state.camps[1 - seat]),
            "opposing_camps": rules.mask_tiles(region & state.camps[1 - seat]),
            "edges": touched,
            "controlled": why == "bordered",
            "why": why,
        })
    return report
