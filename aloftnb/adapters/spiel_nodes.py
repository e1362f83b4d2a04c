"""The OpenSpiel adapter's steps of a game (aloftnb.adapters.openspiel): each `_Node` is the
aloftnb state a move reached, shared by the pyspiel states that clone it, with what pyspiel
asks of it (seat to move, legal moves) kept once computed; and the tables of action indices
per rules object.
"""

from __future__ import annotations

import weakref
from typing import Any

from ..core.rules import Rules


class _Node:
    """One step of a game: the aloftnb state reached, by which move. Immutable and shared by
    clones (OpenSpiel deep-copies a Python state's attributes on every clone); what it computes
    about its state (seat to move, legal moves) it keeps, as pyspiel asks for them repeatedly."""

    __slots__ = ("action", "chance", "indices", "infos", "legal", "mover", "moves", "over",
                 "parent", "player", "rules", "seat", "state")

    def __init__(self, parent, action, mover, state, rules) -> None:
        # (one store a line: cheaper than unpacking a tuple, and a node is made every step)
        self.parent = parent
        self.action = action
        self.mover = mover
        self.state = state
        self.rules = rules
        # (action -> index, chance outcome -> index, action's id -> index), shared along the game
        self.indices = parent.indices if parent is not None else _indices_of(rules)
        # What is computed when first asked, None until then: information state strings by
        # seat, the legal indices, legal index -> action, chance (index, probability) pairs,
        # the seat to move as OpenSpiel numbers it, rules.is_over(state).
        self.infos: dict[int, str] | None = None
        self.legal: list[int] | None = None
        self.moves: dict[int, Any] | None = None
        self.chance: list[tuple[int, float]] | None = None
        self.player: int | None = None
        self.over: bool | None = None
        self.seat: int | None = _UNKNOWN  # rules.current_player(state), likewise

    def to_move(self) -> int | None:
        """The aloftnb seat to move (CHANCE for a chance step, None once the game is over)."""
        seat = self.seat
        if seat == _UNKNOWN:
            seat = self.seat = self.rules.current_player(self.state)
        return seat

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):  # flat, so long games do not pickle recursively
        steps, node = [], self
        while node is not None:
            steps.append((node.action, node.mover, node.state))
            node = node.parent
        return (_rebuild, (self.rules, steps[::-1]))

    def info(self, player: int) -> str:
        """`player`'s information state: its observations along the game and its own moves."""
        text = self.infos.get(player) if self.infos is not None else None
        if text is None:
            chain, node = [], self
            while node is not None and (node.infos is None or player not in node.infos):
                chain.append(node)
                node = node.parent
            text = node.infos[player] if node is not None and node.infos is not None else ""
            for step in reversed(chain):
                seen = step.rules.observation_string(step.state, player)
                if step.parent is None:
                    text = seen
                else:  # a step: this seat's own move, or only that something happened
                    move = f"> {step.action}" if step.mover == player else ">"
                    text = f"{text}\n{move}\n{seen}"
                if step.infos is None:
                    step.infos = {}
                step.infos[player] = text
        return text


_UNKNOWN = -(2**62)  # a _Node's seat before it is asked (None is "the game is over")


def _index(action: Any) -> int | None:
    """An action index as an int (numpy integers included), or None for anything else."""
    if type(action) is int:  # what pyspiel passes
        return action
    if isinstance(action, bool):
        return None
    try:
        return int(action) if int(action) == action else None
    except (TypeError, ValueError, OverflowError):
        return None


def _rebuild(rules, steps):
    node = None
    for action, mover, state in steps:
        node = _Node(node, action, mover, state, rules)
    return node


_INDICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _indices_of(rules: Rules) -> tuple[dict, dict, dict, dict]:
    """The indices of the actions and chance outcomes seen so far, per rules object: the
    adapter asks for every legal one at every step (chance_to_index searches a list). The
    third holds the actions' indices by the actions' identity (`steps.moves_by_index`), the
    fourth chance_from_index's outcomes by index."""
    indices = _INDICES.get(rules)
    if indices is None:
        indices = _INDICES[rules] = ({}, {}, {}, {})
    return indices


def _action_index(node: _Node, action: Any) -> int:
    indices = node.indices[0]
    index = indices.get(action)
    if index is None:
        index = indices[action] = node.rules.action_to_index(action)
    return index


def _chance_index(node: _Node, outcome: Any) -> int:
    indices = node.indices[1]
    index = indices.get(outcome)
    if index is None:
        index = indices[outcome] = node.rules.chance_to_index(outcome)
    return index


def _chance_outcome(node: _Node, index: int) -> Any:
    outcomes = node.indices[3]
    outcome = outcomes.get(index)
    if outcome is None:
        outcome = outcomes[index] = node.rules.chance_from_index(index)
    return outcome
