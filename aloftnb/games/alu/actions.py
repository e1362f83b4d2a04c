"""ALU's action types, each declared once: five tile actions and ending the turn, with their
sentences, the tiles in the order the adapters number them (docs/rules/alu.md, "Encodings") and
the refusal of a tile that is not on the board. Parsing, str() and the numbering follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action, ActionTypes, action_type
from ...core.options import _short_repr

if TYPE_CHECKING:
    from .rules import AluRules

TILE_ACTIONS = ("camp", "raid", "restore", "raided_camp", "attack")
END_TURN = "end_turn"


class AluAction(Action):
    __slots__ = ()


def tile_key(value: Any) -> Any:
    """A tile name as typed ("B3 ") as the board names it ("b3")."""
    return value.strip().lower() if isinstance(value, str) else value


def _no_tile(rules: AluRules, value: Any) -> str | None:
    if tile_key(value) in rules.index:
        return None
    return (f"there is no tile {_short_repr(value)} on this {rules.columns}x{rules.rows} board "
            f"(tiles are a1 to {rules.tiles[-1]}: a column letter, then a row number from the "
            "top)")


TILE = (str, lambda rules: rules.tiles, _no_tile)

# `done` is the log's sentence; its words ({who}, {first}, {victim}) come from describe_action.
ACTIONS = ActionTypes(
    AluAction,
    action_type("camp", "set up a camp on {tile}", tile=TILE,
                done="{who} set up a camp on {tile}{first}"),
    action_type("raid", "raid {tile}", tile=TILE,
                done="{who} raided {tile} and gains 1 food, usable next turn"),
    action_type("restore", "restore {tile}", tile=TILE, done="{who} restored {tile}"),
    action_type("raided_camp", "set up a camp on raided {tile}", tile=TILE,
                done="{who} set up a camp on raided {tile}"),
    action_type("attack", "attack the camp on {tile}", tile=TILE,
                done="{who} attacked {victim}'s camp on {tile}: it returns to {victim}; "
                     "{tile} is raided"),
    action_type(END_TURN, "end the turn", done="{who} ended the turn: no action was possible"),
)
