"""The adapters' per-step bookkeeping: legal actions numbered, the action mask's bytes, and the
game a PettingZoo environment steps (ZooGame). Compiled in the compiled build (compiled/build.py),
as all of it runs at every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, final

from ..core.chance import CHANCE, chance_rng
from ..core.rules import gives_legal_indices

# Actions whose index an adapter keeps by identity before it starts again: a game that builds
# new action objects at every step would otherwise grow the table without end.
KNOWN_LIMIT: Final = 50_000


# `known`'s key for an action is its id over 16 (identity_key): ids are multiples of 16 and an
# int hashes as itself, so with the ids themselves most lookups would land on another key's slot
# first.
ID_SHIFT: Final = 4


def identity_key(action: object) -> int:
    """`known`'s key for an action (numbered computes it in line: a call per action costs the
    pure build more than the lookup)."""
    return id(action) >> ID_SHIFT


def numbered(actions: Any, known: dict[int, tuple[Any, int]],
             index_of: Callable[[Any, Any], int], owner: Any,
             limit: int = KNOWN_LIMIT) -> list[int]:
    """The index of each of `actions`, in their order. `known` keeps each action's index by the
    object's identity (identity_key -> (the action, its index)): the games hand out the same
    action objects from step to step, and an identity lookup costs less than hashing an
    action's fields. Other objects ask `index_of(owner, action)` (a function and its first
    argument, so no bound method is made per step); `known` starts again when it holds `limit`
    actions. Both adapters number a step's legal actions with it."""
    order: list[int] = []
    for move in actions:
        key = id(move) >> ID_SHIFT  # identity_key(move)
        entry = known.get(key)
        if entry is None or entry[0] is not move:
            if len(known) >= limit:
                known.clear()
            entry = (move, index_of(owner, move))
            known[key] = entry  # (holding the action keeps its id from being reused)
        order.append(entry[1])
    return order


def move_at(order: list[int], moves: Any, index: int) -> Any:
    """The move beside the first `index` in `order` (the indices of `moves`, place by place), or
    None: how both adapters find the move of a legal index. (Compiled, a loop over whole numbers
    costs less than `in` and `list.index`, and a `for` over the list less than indexing it.)"""
    k = 0
    for entry in order:
        if entry == index:
            return moves[k]
        k += 1
    return None


def move_of_index(order: list[int], index: int, actions: dict[int, Any], rules: Any) -> Any:
    """The action of `index` if it is in `order` (legal indices a game gave without their
    actions: rules.legal_indices), else None. `actions` keeps them by index, from
    rules.action_from_index."""
    for entry in order:
        if entry == index:
            action = actions.get(index)
            if action is None:
                action = actions[index] = rules.action_from_index(index)
            return action
    return None


def mask_bytes(count: int, indices: list[int]) -> bytearray:
    """`count` bytes, 1 at each of `indices` (all in 0..count-1) and 0 elsewhere: the action
    mask's numbers, for numpy.frombuffer."""
    mask = bytearray(count)
    for index in indices:
        mask[index] = 1
    return mask


OVER: Final = -2  # ZooGame.seat once the game is over (CHANCE is -1; seats are 0 and up)


@final
class ZooGame:
    """The game a PettingZoo environment steps (adapters/pettingzoo.py): its state, the chance
    steps it resolves from the game's chance stream, whose turn it is, and the current state's
    legal actions with their indices (the mask and `step` share them). Compiled in the compiled
    build with the rest of this module, since all of it runs at every step."""

    def __init__(self, rules: Any, plain_chance: bool) -> None:
        self.rules = rules
        # The rules' is_chance is OpenSpiel's default (the seat to move is CHANCE): then one
        # current_player call after a move tells chance, the end and the seat apart.
        self.plain_chance = plain_chance
        self.count: int = rules.num_distinct_actions()
        self.state: Any = None
        self.seed = 0
        self.steps = 0  # decisions and chance steps, so chance draws match a Match's
        self.seat = OVER
        self.over = True
        # the current state's legal actions and their indices, in the game's order, once asked
        self.moves: Any = None
        self.order: list[int] | None = None
        self.seen: dict[int, Any] = {}  # what observations read of it, by seat
        self.indices: dict[Any, int] = {}  # action -> index
        self.known: dict[int, tuple[Any, int]] = {}  # the same by the action's identity
        # rules.legal_indices, or None for a game that does not give them (where it gives
        # them, `moves` stays None)
        self.legal_indices: Any = rules.legal_indices if gives_legal_indices(rules) else None
        self.actions: dict[int, Any] = {}  # index -> action, where the game gives indices

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as the rules and the game so far (an environment is copied
        with it); what it keeps of the current state is found again when asked."""
        return _rebuild_zoo_game, (self.rules, self.plain_chance, self.state, self.seed,
                                   self.steps, self.seat, self.over)

    def start(self, seed: int) -> None:
        """A new game from `seed`, played to its first decision."""
        self.seed = seed
        self.state = self.rules.initial_state(seed)
        self.steps = 0
        self.settle()

    def settle(self) -> None:
        """After a move: play the chance steps, then learn whose turn it is or that the game
        is over. What was known of the earlier state is forgotten."""
        rules = self.rules
        if self.plain_chance:
            seat = rules.current_player(self.state)
            while seat == CHANCE:
                self.chance_step()
                seat = rules.current_player(self.state)
            # (None once the game is over: the conformance suite checks it)
            self.over = seat is None
        else:
            while rules.is_chance(self.state):
                self.chance_step()
            self.over = bool(rules.is_over(self.state))
            seat = None if self.over else rules.current_player(self.state)
        self.seat = OVER if seat is None else int(seat)
        self.moves = self.order = None
        self.seen = {}

    def chance_step(self) -> None:
        rules = self.rules
        outcome = rules.sample_chance(self.state, chance_rng(self.seed, self.steps))
        self.state = rules.apply(self.state, outcome)
        self.steps += 1

    def legal_order(self) -> list[int]:
        """The current state's legal indices in the game's order (with its actions kept in
        `moves`, or None where the game gave the indices), computed once per state: the mask
        and `step` both ask."""
        order = self.order
        if order is None:
            if self.legal_indices is not None and self.seat >= 0:
                order = self.legal_indices(self.state, self.seat)
            if order is None:
                self.moves = self.rules.legal_actions(self.state)
                order = numbered(self.moves, self.known, _index_of, self)
            self.order = order
        return order

    def index_of(self, move: Any) -> int:
        """An action's index, kept by the action (actions hash as tuples, at C speed)."""
        index = self.indices.get(move)
        if index is None:
            index = self.indices[move] = self.rules.action_to_index(move)
        return index

    def move_of(self, index: int) -> Any:
        """The legal move of `index` now (the first of that index), or None."""
        order = self.legal_order()
        if self.moves is None:
            return move_of_index(order, index, self.actions, self.rules)
        return move_at(order, self.moves, index)

    def mask(self, seat: int) -> bytearray:
        """The action mask's bytes for `seat`: the legal indices if it is to move, else zeros."""
        if seat != self.seat or self.over:
            return bytearray(self.count)
        return mask_bytes(self.count, self.legal_order())

    def play_index(self, action: object) -> bool:
        """Play the legal move of index `action` (an int) and settle; False, with nothing
        changed, if `action` is not an int or not a legal index (the caller says why)."""
        if type(action) is not int:
            return False
        move = self.move_of(action)
        if move is None:
            return False
        self.play(move)
        return True

    def play(self, move: Any) -> None:
        """Play a legal move and settle."""
        self.state = self.rules.apply(self.state, move)
        self.steps += 1
        self.settle()


def _index_of(game: ZooGame, move: Any) -> int:
    return game.index_of(move)


def _rebuild_zoo_game(rules: Any, plain_chance: bool, state: Any, seed: int, steps: int,
                      seat: int, over: bool) -> ZooGame:
    game = ZooGame(rules, plain_chance)
    game.state, game.seed, game.steps, game.seat, game.over = state, seed, steps, seat, over
    return game
