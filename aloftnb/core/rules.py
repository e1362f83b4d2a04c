"""The rules API every game implements (after OpenSpiel's Game/State and Pgx's init/step).

A `Rules` object is one game configured for a number of players and a set of options. It holds no
mutable state: states are immutable values and every method is a pure function of its arguments.
This is the fast path used by simulation and bots; `Match` adds history, undo and saving on top.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ..errors import IllegalAction, InvalidOptions, InvalidState
from .action import Action, parse_action_dict
from .options import Option, resolve_options, whole_number_problem


class Rules(ABC):
    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    option_spec: ClassVar[dict[str, Option]] = {}
    action_class: ClassVar[type[Action]] = Action
    action_types: ClassVar[tuple[str, ...]] = ()
    # State-dict keys computed from the others; `Match.edit` drops them unless they are given.
    derived_keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, players: int, **options: Any) -> None:
        problem = whole_number_problem(players, 1, 100)
        if problem:
            raise InvalidOptions(f"players {problem}")
        self.players = players
        self.options = resolve_options(self.name, self.option_spec, options)
        self.configure()

    # -- configuration -------------------------------------------------------------------------
    def configure(self) -> None:
        """Check the player count against the options and precompute tables. Raise InvalidOptions."""

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "title": cls.title,
            "summary": cls.summary,
            "players": cls.player_counts(),
            "options": {name: opt.describe() for name, opt in cls.option_spec.items()},
        }

    @classmethod
    def player_counts(cls) -> str:
        return ""

    @property
    def higher_score_wins(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.players == self.players  # type: ignore[attr-defined]
            and other.options == self.options  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return hash((self.name, self.players))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.players}, {opts})"

    # -- the game ------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, seed: int) -> Any:
        """The starting position; any set-up randomness comes from `seed`."""

    @abstractmethod
    def current_player(self, state: Any) -> int | None:
        """Seat to act, or None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: Any) -> list[Action]:
        """Every legal action, in a stable order. Empty once the game is over."""

    @abstractmethod
    def apply(self, state: Any, action: Action) -> Any:
        """The next state. Trusts that `action` is legal (the match checks); never mutates `state`."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def scores(self, state: Any) -> dict[int, float]:
        """{seat: score}. Meaningful at the end; games may report running scores before."""

    def winners(self, state: Any) -> list[int]:
        """Seats with the best final score (several on a tie); empty while the game goes on."""
        if not self.is_over(state):
            return []
        scores = self.scores(state)
        best = (max if self.higher_score_wins else min)(scores.values())
        return [seat for seat, score in scores.items() if score == best]

    # -- dict forms, editing and views ---------------------------------------------------------
    @abstractmethod
    def state_to_dict(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_dict(self, data: Any) -> Any:
        """Build a state from its dict, checking structure and rule invariants (InvalidState)."""

    def validate(self, state: Any) -> Any:
        """Check a state object's invariants; returns it (InvalidState when broken).

        The object must be exactly the state its dict describes: a hand-built object whose fields
        contradict each other (two pieces on one cell, a derived field that disagrees) would
        otherwise be silently replaced by a different state.
        """
        try:
            data = self.state_to_dict(state)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            # A hand-built state (e.g. `state._replace(...)` with a wrong-length field).
            raise InvalidState(f"that state object is malformed: {exc!r:.200}") from None
        rebuilt = self.state_from_dict(data)
        if not _same_state(rebuilt, state):
            fields = getattr(state, "_fields", ())
            differ = [name for name in fields
                      if not _same_state(getattr(rebuilt, name), getattr(state, name))]
            where = f" (its {', '.join(differ)} disagree with the rest)" if differ else ""
            raise InvalidState("that state object contradicts itself: its dict form describes a "
                               f"different state{where}; build states with set_state(dict) or "
                               "edit(...)")
        return rebuilt

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The state dict as `seat` may see it (None: a spectator). Default: nothing is hidden."""
        return self.state_to_dict(state)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A state consistent with what `seat` sees, hidden parts resampled with `rng`.

        Bots that search (MCTS) run on these so they never read what their seat cannot see.
        Default: the game has no hidden information.
        """
        return state

    # -- actions -------------------------------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        """An Action from an Action or its dict, checking its shape (IllegalAction when malformed)."""
        kind, params = parse_action_dict(data)
        if self.action_types and kind not in self.action_types:
            known = ", ".join(self.action_types)
            raise IllegalAction(f"{self.name} has no action type {kind!r} (its types: {known})")
        return self.action_class(kind, **params)

    def why_illegal(self, state: Any, action: Action) -> str:
        """A sentence saying why `action` is not legal in `state`. Games refine it."""
        return f"{action} is not a legal action now"

    def check_action(self, state: Any, data: Any) -> Action:
        """The parsed action if it is legal in `state`; IllegalAction saying why otherwise."""
        action = self.parse_action(data)
        if self.is_over(state):
            raise IllegalAction(f"the game is over; {action} cannot be played")
        legal = self.legal_actions(state)
        try:
            return legal[legal.index(action)]  # the canonical instance, as legal_actions lists it
        except ValueError:
            raise IllegalAction(self.why_illegal(state, action)) from None

    def describe_action(self, state: Any, action: Action) -> str:
        """A readable sentence for `action` played in `state` (used by logs)."""
        return str(action)

    # -- drawing -------------------------------------------------------------------------------
    def render_svg(self, view: dict[str, Any], **options: Any) -> str:
        """Draw a view dict as SVG. Games override; boards and `_repr_svg_` use it.

        Clickable parts carry `data-key` (the keys of `action_path`), an `aria-label`, and a child
        with class `hit` that the board highlights. `options` come from `Board.drawing_options`.
        """
        raise NotImplementedError(f"{self.name} has no drawing")

    def action_path(self, state: Any, action: Action) -> list[str]:
        """The board elements (data-key values) a person clicks, in order, to play `action`."""
        return [f"action:{action.type}"]


def _same_state(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b) and not (isinstance(a, tuple) and isinstance(b, tuple)):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same_state(x, y) for x, y in zip(a, b))
    if isinstance(a, Rules):
        return a == b
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 (an object that cannot compare is not the same state)
        return False
