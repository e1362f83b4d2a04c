"""Which games exist, and each game's parts: its rules class, its board class, its playtest hooks.

Parts are named explicitly when a game is registered, either as objects or as "module:attribute"
texts that are imported only when first needed (so importing aloftnb stays cheap). A game defined
in a notebook registers its classes directly and gets a board, bots and metrics like a built-in:

    aloftnb.register(DiceRules, hooks=DiceHooks())       # the name is DiceRules.name
    aloftnb.register(DiceRules, name="dice-2")           # the same rules under a second name

Hooks are an `aloftnb.GameHooks` (core/hooks.py: every hook with its fallback). An older plain
object or module with some of its parts is adopted into one when the game is registered, so
nothing asks later what a game's hooks define.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from ..errors import InvalidGame, UnknownGame
from .action import Action
from .chance import CHANCE
from .hooks import NO_HOOKS, AnyHooks, adopt_hooks
from .options import Option, _short_repr, whole_number_problem
from .rules import AnyRules, Rules
from .traits import Traits


@dataclass(frozen=True)
class GameEntry:
    """One registered game. Each part is an object or a lazy "module:attribute" text."""

    name: str
    rules: Any
    board: Any = None
    hooks: Any = None


_GAMES: dict[str, GameEntry] = {}
_LOADED: dict[tuple[str, str], Any] = {}
_HOOKS: dict[str, AnyHooks] = {}  # each game's hooks as a GameHooks, adopted once
_ON_REGISTER: list[Any] = []  # callbacks told each game registered from now on (the adapters)
_BUILDING_IN = False  # True only while the built-in games are registered, below
BUILT_IN_GAMES: dict[str, GameEntry] = {}  # filled below, once the built-in games are in
# How far an outside game's chance probabilities may sum from 1 (rounding, not a mistake).
PROBABILITY_TOLERANCE = 1e-6
# Where aloftnb's Board is: a board class is checked against it by name, so registering a game
# never imports the widget (anywidget) and the core imports nothing above it.
BOARD_CLASS = "aloftnb.widget.board.Board"


def _load(entry: GameEntry, part: str) -> Any:
    value = getattr(entry, part)
    if not isinstance(value, str):
        return value
    key = (entry.name, part)
    if _LOADED.get(key, (None,))[0] != value:
        module, _, attr = value.partition(":")
        _LOADED[key] = (value, getattr(import_module(module), attr) if attr
                        else import_module(module))
    return _LOADED[key][1]


def _guarded(cls: type[AnyRules], game: str) -> type[AnyRules]:
    """`cls` as the game `game` plays it, with the answers library code relies on checked as
    they are given.

    An outside game's mistake (no legal action in a position that is not over, a seat that does
    not exist, a view that is not a dict, chance probabilities that are not a distribution) then
    raises InvalidGame naming the game and the method, not an IndexError deep in a bot. Built-in
    games are known good and run unchecked.

    Its `name` is `game`, so a class registered under another name (or under two) plays as that
    game everywhere: matches, saves, boards, hooks, simulate and the adapters all read it.
    """

    def current_player(self: AnyRules, state: Any) -> int | None:
        seat = cls.current_player(self, state)
        if seat is None:
            if not cls.is_over(self, state):
                raise InvalidGame(f"{game}: {cls.__name__}.current_player returned None "
                                  "(the game is over), but is_over says it goes on")
        elif seat != CHANCE and whole_number_problem(seat, 0, self.players - 1):
            raise InvalidGame(f"{game}: {cls.__name__}.current_player returned "
                              f"{_short_repr(seat)}, which is no seat of {self.players}, CHANCE "
                              "or None")
        return seat

    def legal_actions(self: AnyRules, state: Any) -> list[Any]:
        actions = cls.legal_actions(self, state)
        if not isinstance(actions, list):
            raise InvalidGame(f"{game}: {cls.__name__}.legal_actions returned "
                              f"{_short_repr(actions)}, not a list")
        if not actions and cls.current_player(self, state) not in (None, CHANCE):
            raise InvalidGame(f"{game}: {cls.__name__}.legal_actions returned no action "
                              "for the seat to move in a game that is not over")
        for action in actions:
            if not isinstance(action, Action):
                raise InvalidGame(f"{game}: {cls.__name__}.legal_actions listed "
                                  f"{_short_repr(action)}, which is not an Action")
        return actions

    def view(self: AnyRules, state: Any, seat: int | None) -> dict[str, Any]:
        seen = cls.view(self, state, seat)
        if not isinstance(seen, dict):
            raise InvalidGame(f"{game}: {cls.__name__}.view returned "
                              f"{_short_repr(seen)}, not a dict")
        return seen

    def chance_outcomes(self: AnyRules, state: Any) -> list[tuple[Any, float]]:
        outcomes = cls.chance_outcomes(self, state)
        problem = _chance_problem(outcomes)
        if (problem is None and not outcomes and self.traits.chance == "explicit"
                and cls.current_player(self, state) == CHANCE):  # sampled chance may list none
            problem = "listed no outcome at a chance step"
        if problem is not None:
            raise InvalidGame(f"{game}: {cls.__name__}.chance_outcomes {problem}")
        return outcomes

    def __reduce__(self: AnyRules) -> tuple[Any, ...]:
        # pickled as the game's own class, guarded again when it is read back
        return _guarded_instance, (cls, self.__dict__.copy(), game)

    methods = {"name": game, "current_player": current_player, "legal_actions": legal_actions,
               "view": view, "chance_outcomes": chance_outcomes, "__reduce__": __reduce__,
               "__module__": cls.__module__, "__qualname__": cls.__qualname__,
               "__doc__": cls.__doc__}
    return type(cls.__name__, (cls,), methods)


def _chance_problem(outcomes: Any) -> str | None:
    """What is wrong with chance outcomes as a game listed them, in words; None when they are
    (Action, probability) pairs whose probabilities are positive and sum to 1."""
    if not isinstance(outcomes, (list, tuple)):
        return f"returned {_short_repr(outcomes)}, not a list of (outcome, probability) pairs"
    total = 0.0
    for place, pair in enumerate(outcomes, start=1):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            return f"listed {_short_repr(pair)}, not an (outcome, probability) pair"
        outcome, probability = pair
        if not isinstance(outcome, Action):
            return f"listed {_short_repr(outcome)}, which is not an Action"
        if (isinstance(probability, bool) or not isinstance(probability, numbers.Real)
                or not math.isfinite(probability) or probability <= 0):
            return (f"gave outcome {place} ({outcome}) the probability "
                    f"{_short_repr(probability)}: each probability must be a positive, finite "
                    "number")
        total += float(probability)
    if outcomes and abs(total - 1) > PROBABILITY_TOLERANCE:
        return f"gave probabilities that sum to {total:g}, not 1"
    return None


_GUARDED: dict[tuple[type, str], type] = {}  # (rules class, game name) -> its guarded class


def _guarded_class(cls: type[AnyRules], game: str) -> type[AnyRules]:
    if (cls, game) not in _GUARDED:
        _GUARDED[cls, game] = _guarded(cls, game)
    return _GUARDED[cls, game]


def _guarded_instance(cls: type[AnyRules], attributes: dict[str, Any],
                      game: str | None = None) -> AnyRules:
    rules = object.__new__(_guarded_class(cls, game or cls.name))
    rules.__dict__.update(attributes)
    return rules


def _rules_part(entry: GameEntry) -> type[AnyRules]:
    """The rules class a registered game is played with (guarded when it comes from outside)."""
    cls = _load(entry, "rules")
    return cls if BUILT_IN_GAMES.get(entry.name) == entry else _guarded_class(cls, entry.name)


def register(rules: Any, target: Any = None, *, name: str | None = None, board: Any = None,
             hooks: Any = None) -> None:
    """Register a game: its rules class (or "module:Class"), and optionally its board class (a
    subclass of aloftnb.Board) and playtest hooks. The game's name is `rules.name` unless `name=`
    is given; then the game plays under that name everywhere (matches and their saves, boards,
    simulate, the adapters), and one class may be registered under several names. Registering a
    name again replaces the game (a notebook cell run twice).

    The older form `register("name", "module:RulesClass")` still works.
    """
    if isinstance(rules, str) and isinstance(target, (str, type)):
        name, rules = rules, target  # register("name", "module:Class")
    elif target is not None:
        raise TypeError("register(rules, *, name=..., board=..., hooks=...) takes its parts "
                        "by keyword")
    if isinstance(rules, type):
        if not issubclass(rules, Rules):
            raise TypeError(f"{rules.__name__} is not a subclass of aloftnb.Rules")
        name = name or getattr(rules, "name", None)
    elif not isinstance(rules, str):
        raise TypeError(f"register takes a Rules subclass or 'module:Class', not {rules!r}")
    if not isinstance(name, str) or not name:
        raise TypeError("a game needs a name: give the rules class a `name` or pass name=...")
    entry = GameEntry(name, rules, board, hooks)
    if _BUILDING_IN:
        _HOOKS.pop(name, None)  # adopted when first asked for (hooks_of)
    else:  # a broken entry is never kept: it would break games() for everyone
        _HOOKS[name] = _check_entry(entry)
    _GAMES[name] = entry
    for callback in _ON_REGISTER:
        callback(name)


def _check_entry(entry: GameEntry) -> AnyHooks:
    """Load every part of an entry from outside and check what every game declares; raise
    InvalidGame naming the game and the part. Returns the game's hooks as a GameHooks."""
    where = f"register({entry.name!r})"
    loaded: dict[str, Any] = {}
    for part in ("rules", "board", "hooks"):
        value = getattr(entry, part)
        if isinstance(value, str):
            module, _, attr = value.partition(":")
            try:
                value = getattr(import_module(module), attr) if attr else import_module(module)
            except (ImportError, AttributeError, ValueError) as exc:
                raise InvalidGame(f"{where}: its {part} {getattr(entry, part)!r} cannot be "
                                  f"loaded: {type(exc).__name__}: {exc}") from None
        loaded[part] = value
    rules = loaded["rules"]
    if not isinstance(rules, type) or not issubclass(rules, Rules):
        raise InvalidGame(f"{where}: {rules!r:.80} is not a subclass of aloftnb.Rules")
    missing = sorted(getattr(rules, "__abstractmethods__", ()))
    if missing:
        raise InvalidGame(f"{where}: {rules.__name__} does not define {', '.join(missing)}")
    for attribute in ("name", "title"):
        if not isinstance(getattr(rules, attribute, None), str):
            raise InvalidGame(f"{where}: {rules.__name__}.{attribute} must be a string")
    if not isinstance(rules.traits, Traits):
        raise InvalidGame(f"{where}: {rules.__name__}.traits must be an aloftnb.Traits, not "
                          f"{rules.traits!r:.60}")
    phases = rules.phases
    if not (isinstance(phases, tuple) and phases
            and all(isinstance(p, str) and p for p in phases)):
        raise InvalidGame(f"{where}: {rules.__name__}.phases must be a non-empty tuple of "
                          f"names, not {phases!r:.60}")
    spec = rules.option_spec
    if not (isinstance(spec, dict) and all(isinstance(k, str) and isinstance(v, Option)
                                           for k, v in spec.items())):
        raise InvalidGame(f"{where}: {rules.__name__}.option_spec must map option names to "
                          "aloftnb Option values")
    board = loaded["board"]
    if board is not None and not _is_board_class(board):
        given = board.__qualname__ if isinstance(board, type) else _short_repr(board)
        raise InvalidGame(f"{where}: board must be a subclass of aloftnb.Board (or None for the "
                          f"generic board), not {given}")
    try:
        rules.describe()  # what games() lists: it must work for every registered game
    except Exception as exc:
        raise InvalidGame(f"{where}: {rules.__name__}.describe() failed: "
                          f"{type(exc).__name__}: {exc}") from None
    return adopt_hooks(loaded["hooks"], where)


def _is_board_class(value: Any) -> bool:
    """Whether `value` is aloftnb's Board or a subclass of it, found in its MRO by name."""
    return isinstance(value, type) and any(
        f"{base.__module__}.{base.__qualname__}" == BOARD_CLASS for base in value.__mro__)


def on_register(callback: Any) -> None:
    """Call `callback(name)` for every game registered from now on (the OpenSpiel adapter uses it
    so that games registered after it was imported become OpenSpiel games too)."""
    if callback not in _ON_REGISTER:
        _ON_REGISTER.append(callback)


def game_names() -> list[str]:
    """The names of the registered games, sorted."""
    return sorted(_GAMES)


def _entry(game: str) -> GameEntry:
    if not isinstance(game, str) or game not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game called {game!r} (known games: {known})")
    return _GAMES[game]


def rules_class(game: str) -> type[AnyRules]:
    return _rules_part(_entry(game))


def board_class(game: str) -> Any:
    """The game's board class, or None when it uses the generic board."""
    return _load(_entry(game), "board")


def hooks_of(rules: AnyRules) -> AnyHooks:
    """The playtest hooks registered for this rules object's game, as a GameHooks: the fallbacks
    alone (`NO_HOOKS`) when it registered none.

    Only when `rules` is an instance of the registered class (or of a subclass keeping its name).
    """
    entry = _GAMES.get(getattr(rules, "name", None))  # type: ignore[arg-type]
    if entry is None or not isinstance(rules, _load(entry, "rules")):
        return NO_HOOKS
    hooks = _HOOKS.get(entry.name)
    if hooks is None:  # a built-in game's, named by text: loaded when first asked for
        hooks = _HOOKS[entry.name] = adopt_hooks(_load(entry, "hooks"),
                                                 f"register({entry.name!r})")
    return hooks


def make_rules(game: str, players: int, **options: Any) -> AnyRules:
    return rules_class(game)(players, **options)


def games() -> list[dict[str, Any]]:
    """The playable games: name, title, player counts, traits, phases and each option."""
    return [rules_class(name).describe() for name in sorted(_GAMES)]


def is_built_in(game: str) -> bool:
    """Whether a fresh process knows `game` as it is registered here (workers can load it)."""
    entry = _GAMES.get(game)
    return entry is not None and BUILT_IN_GAMES.get(game) == entry


# The built-in games are known good and loaded when first needed (importing aloftnb stays cheap).
_BUILDING_IN = True
register("aloftnb.games.balloons.rules:BalloonsRules", name="balloons",
         board="aloftnb.games.balloons.board:GameBoard",
         hooks="aloftnb.games.balloons.metrics:HOOKS")
register("aloftnb.games.alu.rules:AluRules", name="alu",
         board="aloftnb.games.alu.board:GameBoard", hooks="aloftnb.games.alu.metrics:HOOKS")
register("aloftnb.games.commodores.rules:CommodoresRules", name="commodores",
         board="aloftnb.games.commodores.board:GameBoard",
         hooks="aloftnb.games.commodores.metrics:HOOKS")
register("aloftnb.games.cloudspire.rules:CloudspireRules", name="cloudspire",
         board="aloftnb.games.cloudspire.board:GameBoard",
         hooks="aloftnb.games.cloudspire.metrics:HOOKS")
_BUILDING_IN = False
BUILT_IN_GAMES.update(_GAMES)  # what a fresh process knows without any register() call
