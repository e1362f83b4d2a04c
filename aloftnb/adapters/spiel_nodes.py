"""The OpenSpiel adapter's steps of a game (aloftnb.adapters.openspiel): each `_Node` is the
aloftnb state a move reached, shared by the pyspiel states that clone it, with what pyspiel
asks of it (seat to move, legal moves) kept once computed; and the tables of action indices
per rules object. Compiled in the compiled build (compiled/build.py): pyspiel asks a node for
its player, legal moves and child at every step, so each of AloftnbState's methods there is
one call into this module.
"""

from __future__ import annotations

import weakref
from typing import Any, Final

from ..core.chance import CHANCE
from ..core.rules import Rules
from .steps import move_at, numbered

# pyspiel's PlayerId.TERMINAL and .CHANCE, set by openspiel.py (this module imports no pyspiel),
# so current_player answers with the members pyspiel's own games answer with.
SPIEL_IDS: list[Any] = [-4, -1]


class _Steps:
    """What the nodes of one game share: its rules, their methods bound once (looking one up
    on the rules object costs more than the call, for a compiled flow method most), and the
    rules object's index tables (`_indices_of`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        # (Any: compiled, a declared return type would be checked at every call)
        self.legal_actions: Any = rules.legal_actions
        self.apply: Any = rules.apply
        self.is_over: Any = rules.is_over
        self.current_player: Any = rules.current_player
        self.indices = _indices_of(rules)
        # (its chance nodes offer the one outcome the chance stream draws: openspiel.py's)
        self.sampled = rules.traits.chance == "sampled"


class _Node:
    """One step of a game: the aloftnb state reached, by which move. Immutable and shared by
    clones (OpenSpiel deep-copies a Python state's attributes on every clone); what it computes
    about its state (seat to move, legal moves) it keeps, as pyspiel asks for them repeatedly."""

    def __init__(self, parent: _Node | None, action: Any, mover: Any, state: Any,
                 rules: Rules) -> None:
        # (one store a line: cheaper than unpacking a tuple, and a node is made every step)
        self.parent = parent
        self.action = action
        self.mover = mover
        self.state = state
        self.rules = rules
        self.steps: _Steps = parent.steps if parent is not None else _Steps(rules)
        # What is computed when first asked, None until then: information state strings by
        # seat, the legal indices (sorted), the legal indices and their moves in the game's
        # order (two lists, one index once: `legal` itself when it is in that order), chance
        # (index, probability) pairs, the seat to move as OpenSpiel numbers it, is_over.
        self.infos: dict[int, str] | None = None
        self.legal: list[int] | None = None
        self.order: list[int] | None = None
        self.moves: Any = None  # (the game's own list, or tuple, of legal actions)
        self.chance: list[tuple[int, float]] | None = None
        self.player: Any = None
        self.over: bool | None = None
        self.seat: int | None = _UNKNOWN  # rules.current_player(state), likewise

    def to_move(self) -> int | None:
        """The aloftnb seat to move (CHANCE for a chance step, None once the game is over)."""
        seat = self.seat
        if seat == _UNKNOWN:
            seat = self.seat = self.steps.current_player(self.state)
        return seat

    def terminal(self) -> bool:
        """rules.is_over(state): pyspiel's is_terminal."""
        over = self.over
        if over is None:
            over = self.over = bool(self.steps.is_over(self.state))
        return over

    def spiel_player(self) -> Any:
        """pyspiel's current_player: the seat, or PlayerId.TERMINAL or .CHANCE."""
        player = self.player
        if player is None:  # pyspiel asks several times a step
            seat = self.seat
            if seat == _UNKNOWN:
                seat = self.to_move()
            player = self.player = (SPIEL_IDS[0] if seat is None
                                    else SPIEL_IDS[1] if seat == CHANCE else seat)
        return player

    def legal_copy(self) -> list[int] | None:
        """A new list of the legal indices (callers may change it) where they are known or a
        seat decides; None at a chance step not yet asked, for the adapter's general route."""
        legal = self.legal  # (kept only at a step of a game that goes on)
        if legal is not None:
            return list(legal)
        # (what is known is read here, not asked: in the pure build each call is a frame)
        over = self.over
        if over is None:
            over = self.terminal()
        if over:
            return []
        seat = self.seat
        if seat == _UNKNOWN:
            seat = self.to_move()
        if seat is None:
            return None
        if seat >= 0:
            return list(self.decisions())
        if seat == CHANCE and not self.steps.sampled:
            return [index for index, _ in self.chances()]
        return None

    def chances(self) -> list[tuple[int, float]]:
        """The chance outcomes' (index, probability), sorted (kept: legal_actions and apply
        ask too); a game with sampled chance has them from openspiel.py (`keep_chance`)."""
        chance = self.chance
        if chance is None:
            chance = sorted((_chance_index(self, outcome), probability)
                            for outcome, probability in self.rules.chance_outcomes(self.state))
            self.keep_chance(chance)
        return chance

    def keep_chance(self, chance: list[tuple[int, float]]) -> None:
        self.chance = chance
        if self.to_move() == CHANCE:  # kept as a decision's: legal_actions and apply ask
            legal = self.legal = self.order = [index for index, _ in chance]
            self.moves = [_chance_outcome(self, index) for index in legal]

    def decisions(self) -> list[int]:
        """The legal indices of the seat to move, sorted; kept with their actions (apply_action
        checks an index and finds its action there). Several actions of one index: the last.
        The indices are found by `steps.numbered`, by the actions' identity."""
        legal = self.legal
        if legal is not None:
            return legal
        moves = self.steps.legal_actions(self.state)
        order = numbered(moves, self.steps.indices[2], _action_index, self)
        legal = order
        for k in range(1, len(order)):
            if order[k - 1] >= order[k]:  # out of order (no dict then: it costs more)
                legal = sorted(order)
                for j in range(1, len(legal)):
                    if legal[j - 1] == legal[j]:  # one index twice: its last action
                        last = dict(zip(order, moves))
                        legal = order = sorted(last)
                        moves = [last[index] for index in legal]
                        break
                break
        self.order, self.moves, self.legal = order, moves, legal
        return legal

    def move_of(self, index: int) -> Any:
        """The move of a legal index kept here, or None."""
        order, moves = self.order, self.moves
        return None if order is None or moves is None else move_at(order, moves, index)

    def child(self, action: Any) -> _Node | None:
        """The node a legal index kept here leads to, or None (the adapter's general route
        then checks the action and says why it is refused)."""
        if type(action) is not int:
            return None
        move = self.move_of(action)  # (kept only at a step of a game that goes on)
        if move is None:
            return None
        return _Node(self, action, self.seat, self.steps.apply(self.state, move), self.rules)

    def __deepcopy__(self, memo: Any) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Rules, list[tuple[Any, Any, Any]]]]:
        # flat, so long games do not pickle recursively
        steps: list[tuple[Any, Any, Any]] = []
        node: _Node | None = self
        while node is not None:
            steps.append((node.action, node.mover, node.state))
            node = node.parent
        return (_rebuild, (self.rules, steps[::-1]))

    def info(self, player: int) -> str:
        """`player`'s information state: its observations along the game and its own moves."""
        infos = self.infos
        text = infos.get(player) if infos is not None else None
        if text is None:
            chain: list[_Node] = []
            node: _Node | None = self
            while node is not None and (node.infos is None or player not in node.infos):
                chain.append(node)
                node = node.parent
            found = node.infos if node is not None else None
            text = found[player] if found is not None else ""
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


_UNKNOWN: Final = -(2**62)  # a _Node's seat before it is asked (None is "the game is over")


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


def _rebuild(rules: Rules, steps: list[tuple[Any, Any, Any]]) -> _Node | None:
    node = None
    for action, mover, state in steps:
        node = _Node(node, action, mover, state, rules)
    return node


_INDICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _indices_of(rules: Rules) -> tuple[dict, dict, dict, dict]:
    """The indices of the actions and chance outcomes seen so far, per rules object: the
    adapter asks for every legal one at every step (chance_to_index searches a list). The
    third holds the actions' indices by the actions' identity (`steps.numbered`), the
    fourth chance_from_index's outcomes by index."""
    indices = _INDICES.get(rules)
    if indices is None:
        indices = _INDICES[rules] = ({}, {}, {}, {})
    return indices


def _action_index(node: _Node, action: Any) -> int:
    indices = node.steps.indices[0]
    index = indices.get(action)
    if index is None:
        index = indices[action] = node.rules.action_to_index(action)
    return index


def _chance_index(node: _Node, outcome: Any) -> int:
    indices = node.steps.indices[1]
    index = indices.get(outcome)
    if index is None:
        index = indices[outcome] = node.rules.chance_to_index(outcome)
    return index


def _chance_outcome(node: _Node, index: int) -> Any:
    outcomes = node.steps.indices[3]
    outcome = outcomes.get(index)
    if outcome is None:
        outcome = outcomes[index] = node.rules.chance_from_index(index)
    return outcome
