"""The OpenSpiel adapter's steps of a game (aloftnb.adapters.openspiel): each `_Node` is the
aloftnb state a move reached, shared by the pyspiel states that clone it, with what pyspiel
asks of it (seat to move, legal moves) kept once computed; each pyspiel state's cursor (the
node it is at) with the four methods pyspiel calls at every step; and the tables of action
indices per rules object. Compiled in the compiled build (compiled/build.py), so a step through
pyspiel runs no interpreted code but the caller's.
"""

from __future__ import annotations

import weakref
from typing import Any, Final

from ..core.chance import CHANCE
from ..core.rules import Rules, gives_legal_indices
from .steps import move_at, move_of_index, numbered

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
        self.current_player: Any = rules.current_player
        self.indices = _indices_of(rules)
        # (None for a game that does not give them)
        self.legal_indices: Any = rules.legal_indices if gives_legal_indices(rules) else None
        # (its chance nodes offer the one outcome the chance stream draws: openspiel.py's)
        self.sampled = rules.traits.chance == "sampled"


class _Line:
    """Where a step stands in its game: the step before, the move that led here (its index) and
    the seat that made it, and the information state strings found so far, by seat. A line
    holds a state only where its game starts (`anchor`: the first state, or a world resampled
    for a seat); the states in between are replayed when asked. A node holds its own state, so
    only the states that pyspiel states still point at stay alive: a chain of every state
    reached kept the collector walking all of them at every pass (a sixth of a sky commodores
    step)."""

    def __init__(self, parent: _Line | None, action: Any, mover: Any, anchor: Any) -> None:
        self.parent = parent
        self.action = action
        self.mover = mover
        self.anchor = anchor  # (None but where a game starts: states are never None)
        self.infos: dict[int, str] | None = None


class _Node:
    """One step of a game: the aloftnb state reached and its line. Immutable and shared by
    clones (OpenSpiel deep-copies a Python state's attributes on every clone); what it computes
    about its state (seat to move, legal moves) it keeps, as pyspiel asks for them repeatedly."""

    def __init__(self, line: _Line, state: Any, steps: _Steps) -> None:
        # (one store a line: cheaper than unpacking a tuple, and a node is made every step)
        self.line = line
        self.state = state
        self.steps = steps
        self.rules: Rules = steps.rules
        # What is computed when first asked, None until then: the legal indices (sorted), the
        # legal indices and their moves in the game's order (two lists, one index once:
        # `legal` itself when it is in that order), chance (index, probability) pairs, the
        # seat to move as OpenSpiel numbers it, whether the game is over.
        self.legal: list[int] | None = None
        self.order: list[int] | None = None
        self.moves: Any = None  # (the game's own list of legal actions; None if it gave indices)
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
        """pyspiel's is_terminal: whether no seat is to move (the protocol's current_player is
        None exactly when rules.is_over; the conformance suite checks it at every step), so a
        step asks the rules once for both."""
        over = self.over
        if over is None:
            over = self.over = self.to_move() is None
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
        checks an index and finds its action there). The game's own legal_indices where it
        gives them (the actions are then found by index when played), else the actions'
        indices, found by `steps.numbered` by the actions' identity; of several actions of one
        index, the last."""
        legal = self.legal
        if legal is not None:
            return legal
        steps = self.steps
        order: list[int] | None = None
        moves: Any = None
        if steps.legal_indices is not None:
            seat = self.seat
            if seat == _UNKNOWN:
                seat = self.to_move()
            if seat is not None and seat >= 0:
                order = steps.legal_indices(self.state, seat)
        if order is None:
            moves = steps.legal_actions(self.state)
            order = numbered(moves, steps.indices[2], _action_index, self)
        legal = order
        highest = -1
        for index in order:
            if index > highest:  # (indices are whole numbers; a loop over them costs little)
                highest = index
                continue
            legal = sorted(order)  # out of order (no dict then: it costs more)
            for j in range(1, len(legal)):
                if legal[j - 1] == legal[j]:  # one index twice: its last action
                    if moves is None:
                        legal = order = sorted(set(order))
                        break
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
        if order is None:
            return None
        if moves is None:  # indices the game gave
            return move_of_index(order, index, self.steps.indices[4], self.rules)
        return move_at(order, moves, index)

    def child(self, action: Any) -> _Node | None:
        """The node a legal index kept here leads to, or None (the adapter's general route
        then checks the action and says why it is refused)."""
        if type(action) is not int:
            return None
        move = self.move_of(action)  # (kept only at a step of a game that goes on)
        if move is None:
            return None
        return self.step(action, self.seat, self.steps.apply(self.state, move))

    def step(self, action: Any, mover: Any, state: Any) -> _Node:
        """The node after `mover` played `action` (its index) here, reaching `state`."""
        return _Node(_Line(self.line, action, mover, None), state, self.steps)

    def resampled(self, world: Any, player: int) -> _Node:
        """This step with `world` for its state (a state `player` cannot tell from it): its
        descendants replay from the world; `player`'s information state is this one's."""
        line = self.line
        known = self.info(player)
        node = _Node(_Line(line.parent, line.action, line.mover, world), world, self.steps)
        node.line.infos = {player: known}
        return node

    def __deepcopy__(self, memo: Any) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Rules, list[tuple[Any, Any, Any]], Any]]:
        # flat, so long games do not pickle recursively; the states in between are replayed
        lines: list[tuple[Any, Any, Any]] = []
        line: _Line | None = self.line
        while line is not None:
            lines.append((line.action, line.mover, line.anchor))
            line = line.parent
        return (_replayed, (self.rules, lines[::-1], self.state))

    def info(self, player: int) -> str:
        """`player`'s information state: its observations along the game and its own moves."""
        infos = self.line.infos
        text = infos.get(player) if infos is not None else None
        if text is not None:
            return text
        chain: list[_Line] = []  # the lines without this seat's string, newest first
        line: _Line | None = self.line
        while line is not None and (line.infos is None or player not in line.infos):
            chain.append(line)
            line = line.parent
        found = line.infos if line is not None else None
        text = found[player] if found is not None else ""
        chain.reverse()
        states = self.states_at(chain[:-1]) + [self.state]
        for step, state in zip(chain, states):
            seen = self.rules.observation_string(state, player)
            if step.parent is None:
                text = seen
            else:  # a step: this seat's own move, or only that something happened
                move = f"> {step.action}" if step.mover == player else ">"
                text = f"{text}\n{move}\n{seen}"
            if step.infos is None:
                step.infos = {}
            step.infos[player] = text
        return text

    def states_at(self, chain: list[_Line]) -> list[Any]:
        """The states at consecutive lines of this game (oldest first): from the anchor at or
        before the first, each line's move replayed (or its own anchor taken)."""
        if not chain:
            return []
        back: list[_Line] = []
        line = chain[0]
        while line.anchor is None:
            back.append(line)
            parent = line.parent
            if parent is None:
                raise RuntimeError("a line of an OpenSpiel state has no first state")
            line = parent
        state = line.anchor
        for step in reversed(back):
            state = self.replay(state, step)
        states = [state]
        for step in chain[1:]:
            state = step.anchor if step.anchor is not None else self.replay(state, step)
            states.append(state)
        return states

    def replay(self, state: Any, line: _Line) -> Any:
        """The state `line`'s move reaches from `state` (the state before it): found as
        apply_action found it (a seat's index: its last legal action)."""
        scratch = _Node(line, state, self.steps)  # (the step before `line`: its line unread)
        if line.mover == CHANCE:
            move = _chance_outcome(scratch, line.action)
        else:
            scratch.decisions()
            move = scratch.move_of(line.action)
        if move is None:
            raise RuntimeError(f"{self.rules.name}: replaying an OpenSpiel state found no move "
                               f"of index {line.action!r}")
        return self.steps.apply(state, move)


class Cursor:
    """Where one pyspiel state stands: the node it has reached, replaced at each action it
    applies, and the pyspiel state itself, weakly (openspiel.py's general routes, which raise
    pyspiel's errors and draw sampled chance, are its methods). pyspiel's clone deep-copies a
    state's attributes one by one: a copy is at the same node, and its new state sets `owner`."""

    def __init__(self, node: _Node) -> None:
        self.node = node
        self.owner: Any = None  # (a weakref.ref to the pyspiel state)

    def __deepcopy__(self, memo: Any) -> Cursor:
        return Cursor(self.node)

    def __reduce__(self) -> tuple[Any, tuple[_Node]]:
        return (Cursor, (self.node,))


# The four methods pyspiel calls at every step (AloftnbState keeps one of each per state, bound
# to its cursor): compiled, a call runs no interpreted frame, which cost as much as the node's
# own work. What a node already knows is read here; anything else is asked of the node, or of
# the state's general route. (Each class keeps its own cursor: compiled with mypyc 2.4, these
# classes sharing a base that holds it crashed the interpreter at the first call from pyspiel.)
class IsTerminal:
    """pyspiel's is_terminal(): whether the game is over."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor

    def __call__(self) -> bool:
        node = self.cursor.node
        over = node.over
        return over if over is not None else node.terminal()


class CurrentPlayer:
    """pyspiel's current_player(): the seat to move, or PlayerId.TERMINAL or .CHANCE."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor

    def __call__(self) -> Any:
        node = self.cursor.node
        player = node.player
        return player if player is not None else node.spiel_player()


class LegalActions:
    """pyspiel's legal_actions(): a new list of the legal indices (callers may change it).
    With a player, or at a chance step of sampled chance, the state's general route answers."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor

    def __call__(self, player: Any = None) -> list[int]:
        if player is None:
            node = self.cursor.node
            legal = node.legal
            if legal is not None:
                return list(legal)
            found = node.legal_copy()  # a decision's, or the game's end
            if found is not None:
                return found
        return self.cursor.owner().legal_actions_of(player)


class ApplyAction:
    """pyspiel's _apply_action(action): to the child of a legal index the node knows; any other
    action goes to the state's general route, which applies a chance outcome or raises."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor

    def __call__(self, action: Any) -> None:
        cursor = self.cursor
        child = cursor.node.child(action)
        if child is None:
            child = cursor.owner().child_of(action)
        cursor.node = child


def root_node(rules: Rules, state: Any) -> _Node:
    """The node of a game that starts at `state`."""
    return _Node(_Line(None, None, None, state), state, _Steps(rules))


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


def _replayed(rules: Rules, lines: list[tuple[Any, Any, Any]], state: Any) -> _Node:
    """A pickled node: its lines (action, mover, anchor) from the first and its state."""
    line: _Line | None = None
    for action, mover, anchor in lines:
        line = _Line(line, action, mover, anchor)
    if line is None:
        raise ValueError("a pickled OpenSpiel state has no steps")
    return _Node(line, state, _Steps(rules))


def _rebuild(rules: Rules, steps: list[tuple[Any, Any, Any]]) -> _Node:
    """A node pickled before lines (every step's state kept): each state is an anchor."""
    return _replayed(rules, steps, steps[-1][2])


_INDICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _indices_of(rules: Rules) -> tuple[dict, dict, dict, dict, dict]:
    """The indices of the actions and chance outcomes seen so far, per rules object: the
    adapter asks for every legal one at every step (chance_to_index searches a list). The
    third holds the actions' indices by the actions' identity (`steps.numbered`), the
    fourth chance_from_index's outcomes by index, the fifth action_from_index's actions by
    index (for the indices a game gives: `steps.move_of_index`)."""
    indices = _INDICES.get(rules)
    if indices is None:
        indices = _INDICES[rules] = ({}, {}, {}, {}, {})
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
