"""A game's playtest hooks: what bots and metrics may know about one game, with every fallback.

`GameHooks` lists every hook and answers each with its fallback, so callers use it without asking
what a game defines. A game subclasses it and overrides what it knows:

    class DiceHooks(aloftnb.GameHooks):
        MEASURES = {"rolls": "dice rolled in the game"}

        def evaluate(self, rules, state, seat): ...
        def measures(self, rules, state): return {"rolls": state.rolls}

    aloftnb.register(DiceRules, hooks=DiceHooks())

Hooks written before this class, as a plain object or a module with some of these names, are
adopted once, when the game is registered (`adopt_hooks`): their parts are checked then, and an
`InvalidGame` names a bad one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from ..errors import InvalidGame
from .options import _short_repr
from .search import rank_rewards as rank_rewards  # compiled with MCTS's search

if TYPE_CHECKING:
    from .rules import Rules

RulesT = TypeVar("RulesT", bound="Rules[Any, Any]")
StateT = TypeVar("StateT")

# A restriction's predicate for restricted play (`aloftnb.restricted_play`): True bars the action.
# It reads the action alone, `bars(action)`, or the position too, `bars(state, action)`.
RestrictionPredicate: TypeAlias = Callable[[Any], object] | Callable[[Any, Any], object]

# An MCTS bot given no budget searches this many iterations unless the game's hooks say
# otherwise (`mcts_iterations`). Iterations, not seconds, so seeded simulations repeat anywhere.
DEFAULT_ITERATIONS = 1000


def score_evaluation(rules: Rules[Any, Any], state: Any, seat: int) -> float:
    """Fallback evaluation: the seat's score ahead of (or, lower-wins, below) the best rival."""
    scores = rules.scores(state)
    sign = 1.0 if rules.higher_score_wins else -1.0
    mine = sign * scores[seat]
    rivals = [sign * s for p, s in scores.items() if p != seat]
    return mine - max(rivals) if rivals else mine


class GameHooks(Generic[RulesT, StateT]):
    """Every playtest hook with its fallback. Subclass it for a game (typed by its rules class
    and state type, e.g. `GameHooks[DiceRules, DiceState]`) and override what the game knows.

    Keep hooks pure functions of their arguments: worker processes use their own copy.
    """

    # Per-game measures to summarise and test: {column: description}. Only the columns named
    # here get metrics; `measures` may give more columns.
    MEASURES: Mapping[str, str] = {}
    # MCTS playouts stop after this many decisions and take `estimate` as their reward (for
    # games whose random playouts run long). None: playouts run to the end of the game.
    PLAYOUT_DECISIONS: int | None = None
    # The axes of the cells `positions` gives, for the heat map. None: the game records no
    # positions (no `positions` column).
    POSITION_AXES: tuple[str, str] | None = None

    def evaluate(self, rules: RulesT, state: StateT, seat: int) -> float:
        """The greedy bot's idea of a good position for `seat`, higher is better. Called on
        determinized worlds, so it may read the whole state. Fallback: the seat's score minus the
        best rival's (reversed when lower scores win)."""
        return score_evaluation(rules, state, seat)

    def rewards(self, rules: RulesT, state: StateT) -> dict[int, float]:
        """A finished game's outcome for MCTS, 0..1 per seat, 1 best. Fallback: 1 to each
        winner in win/loss and cooperative games, else the share of rivals beaten (ties half)."""
        return rank_rewards(rules, state)

    def estimate(self, rules: RulesT, state: StateT) -> dict[int, float]:
        """An unfinished position's worth, 0..1 per seat: the reward of a playout cut short by
        `PLAYOUT_DECISIONS`. A game that sets `PLAYOUT_DECISIONS` must define it."""
        raise NotImplementedError(f"{type(self).__name__} sets no estimate")

    def secret(self, rules: RulesT, state: StateT, seat: int) -> Any:
        """What `seat` alone knows in `state` (its hand, its card), as a hashable value, or None
        when it knows nothing the others do not. The guided search keeps a rival's statistics
        apart for each secret a determinized world deals it, so the rival plays as one who knows
        its own cards. Fallback (not overridden): no secrets, one set of statistics."""
        return None

    def mcts_iterations(self, rules: RulesT) -> int:
        """The MCTS bot's iterations at its default budget, in this configured game."""
        return DEFAULT_ITERATIONS

    def search_settings(self, rules: RulesT) -> Mapping[str, Any]:
        """The guided MCTS bot's settings in this configured game (MCTSBot's keyword arguments:
        playout, epsilon, tournament, cutoff, widening, prior, bonus, secrets, exploration),
        where a bot does not set them. Fallback: none (SEARCH_DEFAULTS in
        core/search_settings.py)."""
        return {}

    def default_bot(self, rules: RulesT) -> str:
        """The bot a board gives a seat when a person asks for a bot without naming one, in this
        configured game (a spec, "mcts:800"). Fallback: "mcts" (the guided search at the game's
        default budget and settings)."""
        return "mcts"

    def measures(self, rules: RulesT, state: StateT) -> dict[str, Any]:
        """Per-game numbers (or texts) of a finished game, one `simulate` column each. For a game
        stopped by an error it is asked once more, only for its column names; it may refuse."""
        return {}

    def positions(self, rules: RulesT, state: StateT) -> list[str]:
        """Where pieces ended, as 1-based "x:y" cells (needs `POSITION_AXES`)."""
        return []

    def position_grid(self, rules: RulesT) -> tuple[int, int] | None:
        """The heat map's size (width, height); None: no heat map."""
        return None

    def restrictions(self, rules: RulesT) -> dict[str, RestrictionPredicate]:
        """Strategies worth barring in restricted play, in this configured game: {name: bars},
        `bars(action)` or `bars(state, action)` True for an action the restricted seat may not
        play ("never plunders": `lambda action: action.type == "plunder"`). Fallback: none."""
        return {}


AnyHooks: TypeAlias = GameHooks[Any, Any]
NO_HOOKS: AnyHooks = GameHooks()  # a game that registered none: every fallback
_FUNCTIONS = {"evaluate": 3, "rewards": 2, "estimate": 2, "mcts_iterations": 1,
              "search_settings": 1, "default_bot": 1, "measures": 2, "positions": 2,
              "position_grid": 1, "restrictions": 1}


def adopt_hooks(hooks: object, where: str) -> AnyHooks:
    """`hooks` as registered (None, a GameHooks, or an older plain object or module) as a
    checked GameHooks; InvalidGame naming the bad part, after `where`."""
    if hooks is None:
        return NO_HOOKS
    if isinstance(hooks, type):
        raise InvalidGame(f"{where}: hooks={hooks.__name__} is a class; pass an instance, "
                          f"hooks={hooks.__name__}()")
    if isinstance(hooks, GameHooks):
        _check_values(hooks, where)
        for name in _FUNCTIONS:
            _check_function(hooks, name, where)
        if (hooks.PLAYOUT_DECISIONS is not None
                and type(hooks).estimate is GameHooks.estimate):
            raise InvalidGame(f"{where}: its hooks set PLAYOUT_DECISIONS but define no estimate")
        if hooks.POSITION_AXES is None and type(hooks).positions is not GameHooks.positions:
            raise InvalidGame(f"{where}: its hooks define positions but no POSITION_AXES")
        return hooks
    return AdoptedHooks(hooks, where)


def _check_values(source: object, where: str) -> None:
    measures = getattr(source, "MEASURES", {})
    if not (isinstance(measures, Mapping)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in measures.items())):
        raise InvalidGame(f"{where}: its hooks' MEASURES must map column names to descriptions, "
                          f"not {_short_repr(measures)}")
    cutoff = getattr(source, "PLAYOUT_DECISIONS", None)
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, int)
                               or cutoff < 0):
        raise InvalidGame(f"{where}: its hooks' PLAYOUT_DECISIONS must be a whole number of "
                          f"decisions (or None), not {_short_repr(cutoff)}")
    axes = getattr(source, "POSITION_AXES", None)
    if axes is not None and not (isinstance(axes, (tuple, list)) and len(axes) == 2
                                 and all(isinstance(a, str) for a in axes)):
        raise InvalidGame(f"{where}: its hooks' POSITION_AXES must be two axis names, not "
                          f"{_short_repr(axes)}")


def _check_function(source: object, name: str, where: str) -> Callable[..., Any] | None:
    """`source.name` when it is there, checked to take the hook's arguments."""
    function: object = getattr(source, name, None)
    if function is None:
        return None
    if not callable(function):
        raise InvalidGame(f"{where}: its hooks' {name} must be a function, not "
                          f"{_short_repr(function)}")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a callable without a readable signature: trust it
        return function
    try:
        signature.bind(*[None] * _FUNCTIONS[name])
    except TypeError:
        arguments = "(rules)" if _FUNCTIONS[name] == 1 else (
            "(rules, state, seat)" if _FUNCTIONS[name] == 3 else "(rules, state)")
        raise InvalidGame(f"{where}: its hooks' {name}{signature} cannot be called as "
                          f"{name}{arguments}") from None
    return function


class AdoptedHooks(GameHooks[Any, Any]):
    """Hooks a designer wrote as a plain object or module, read and checked once, when the game
    is registered: what it defines is called, the rest falls back as in GameHooks. `source` is
    the object registered."""

    def __init__(self, source: object, where: str) -> None:
        _check_values(source, where)
        self.source = source
        parts = {name: _check_function(source, name, where) for name in _FUNCTIONS}
        self.MEASURES = dict(getattr(source, "MEASURES", {}))
        estimate = parts["estimate"]
        # As before GameHooks: the cut-off applies only with an estimate to end playouts with.
        self.PLAYOUT_DECISIONS = (getattr(source, "PLAYOUT_DECISIONS", None)
                                  if estimate is not None else None)
        positions = parts["positions"]
        axes = getattr(source, "POSITION_AXES", None)
        self.POSITION_AXES = (None if positions is None
                              else (str(axes[0]), str(axes[1])) if axes else ("x", "y"))
        self._evaluate = parts["evaluate"] or super().evaluate
        self._rewards = parts["rewards"]
        self._estimate = estimate or super().estimate
        self.has_estimate = estimate is not None
        self._iterations = parts["mcts_iterations"]
        self._search_settings = parts["search_settings"]
        self._default_bot = parts["default_bot"]
        self._measures = parts["measures"] or super().measures
        self._positions = positions or super().positions
        self._grid = parts["position_grid"] or super().position_grid
        self._restrictions = parts["restrictions"] or super().restrictions

    def evaluate(self, rules: Rules[Any, Any], state: Any, seat: int) -> float:
        value: float = self._evaluate(rules, state, seat)
        return value

    def rewards(self, rules: Rules[Any, Any], state: Any) -> dict[int, float]:
        # An older hook may answer None: the fallback then
        rewards: dict[int, float] | None = (None if self._rewards is None
                                            else self._rewards(rules, state))
        return rank_rewards(rules, state) if rewards is None else rewards

    def estimate(self, rules: Rules[Any, Any], state: Any) -> dict[int, float]:
        estimate: dict[int, float] = self._estimate(rules, state)
        return estimate

    def mcts_iterations(self, rules: Rules[Any, Any]) -> int:
        return DEFAULT_ITERATIONS if self._iterations is None else int(self._iterations(rules))

    def search_settings(self, rules: Rules[Any, Any]) -> Mapping[str, Any]:
        if self._search_settings is None:
            return {}
        settings: Mapping[str, Any] = self._search_settings(rules)
        return settings

    def default_bot(self, rules: Rules[Any, Any]) -> str:
        return "mcts" if self._default_bot is None else str(self._default_bot(rules))

    def measures(self, rules: Rules[Any, Any], state: Any) -> dict[str, Any]:
        measures: dict[str, Any] = self._measures(rules, state)
        return measures

    def positions(self, rules: Rules[Any, Any], state: Any) -> list[str]:
        positions: list[str] = self._positions(rules, state)
        return positions

    def position_grid(self, rules: Rules[Any, Any]) -> tuple[int, int] | None:
        grid: tuple[int, int] | None = self._grid(rules)
        return grid

    def restrictions(self, rules: Rules[Any, Any]) -> dict[str, RestrictionPredicate]:
        restrictions: dict[str, RestrictionPredicate] = self._restrictions(rules)
        return restrictions

    def __repr__(self) -> str:
        return f"AdoptedHooks({_short_repr(self.source)})"
