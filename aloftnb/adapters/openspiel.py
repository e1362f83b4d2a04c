"""Every aloftnb game as an OpenSpiel game (the optional extra: pip install "aloftnb[openspiel]").

Importing this module registers each aloftnb game that declares an action and observation
encoding, and every such game registered later, with pyspiel as `aloftnb_<name>` (a "-" in a
name becomes "_"):

    import aloftnb.openspiel, pyspiel
    game = pyspiel.load_game("aloftnb_balloons(players=3,edition=choice)")

Parameters: `players`, `seed` (the seed of the set-up, e.g. balloons' colour cards; default 0),
and one per game option with the option's default. An option whose default depends on other
settings (balloons' `trucks` and `balloons`, ALU's `win_tiles`) is 0 or "" for "the game's
default"; a list option is written as words separated by spaces (`balloons=GP GR lion`).

How the protocol maps (docs/adapters.md has the long form):
- Decisions are the game's action indices (`rules.action_to_index`); chance steps are chance
  nodes whose outcomes are `rules.chance_to_index` with the same probabilities. A game with
  sampled chance has no outcome list: each chance node offers the one outcome that the game's
  chance stream (`chance_rng(seed, step)`) draws there, with probability 1.
- Game type from the traits: chance none -> DETERMINISTIC, explicit and sampled ->
  EXPLICIT_STOCHASTIC; information perfect/imperfect; rewards at the end only.
- Returns: `aloftnb.adapters.returns` (rank-based and zero-sum in competitive games, the shared
  reward in cooperative ones).
- Observation tensors and strings are `rules.observation` and `rules.observation_string` of the
  observing seat. The information state string is that seat's observation strings along the
  whole game with its own moves between them (perfect recall, built from views only).
"""

from __future__ import annotations

import functools
import json
import random
import time
import weakref
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as exc:  # pragma: no cover - exercised with a monkeypatched import
    raise ImportError(
        "aloftnb.openspiel needs OpenSpiel and numpy, which aloftnb does not install by default: "
        "pip install 'aloftnb[openspiel]'") from exc

from ..core import registry
from ..core.bots import MAX_EXPLORATION, MAX_ITERATIONS, MAX_SECONDS, Bot
from ..core.chance import CHANCE, chance_rng
from ..core.options import number_problem, seed_problem, whole_number_problem
from ..core.rules import Rules, declares_encoding
from ..errors import AloftnbError, IllegalAction, InvalidOptions
from . import spiel_nodes
from .observations import Observations
from .returns import outcome_returns, return_bounds, shared_returns
from .spiel_nodes import (
    ApplyAction,
    CurrentPlayer,
    Cursor,
    IsTerminal,
    LegalActions,
    _chance_index,
    _index,
    _rebuild,  # noqa: F401  (pickles of states name it here)
    root_node,
)


class IllegalSpielAction(IllegalAction, pyspiel.SpielError):
    """An action index that is not legal where the state is; the state is unchanged.

    Both aloftnb's `IllegalAction` (a `ValueError`) and the `SpielError` OpenSpiel's own games
    raise, so code written for either catches it."""

PREFIX = "aloftnb_"
spiel_nodes.SPIEL_IDS[:] = [pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.CHANCE]
# OpenSpiel's sampled-stochastic games keep a random generator whose state a Python game cannot
# hand over (random_sim_test and serialization need it), so sampled chance is presented as
# explicit chance nodes that offer the one outcome the game's chance stream draws there.
_CHANCE_MODES = {"none": pyspiel.GameType.ChanceMode.DETERMINISTIC,
                 "explicit": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
                 "sampled": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC}
_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}


def short_name(game: str) -> str:
    """The pyspiel name of an aloftnb game: "balloons" -> "aloftnb_balloons"."""
    return PREFIX + game.replace("-", "_")


# -- parameters ------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _default_rules(cls: type[Rules]) -> Rules | None:
    for players in sorted(cls.traits.player_counts):
        try:
            return cls(players)
        except InvalidOptions:
            continue
    return None


def parameter_specification(cls: type[Rules]) -> dict[str, Any]:
    """pyspiel parameters and their defaults: players, seed, and one per option."""
    sample = _default_rules(cls)
    if sample is None:
        raise AloftnbError(f"{cls.name} cannot be set up with its default options")
    spec: dict[str, Any] = {"players": sample.players, "seed": 0}
    for name, option in cls.option_spec.items():
        if name in spec:
            raise AloftnbError(f"{cls.name}'s option {name!r} clashes with a pyspiel parameter")
        default = option.default
        if default is None:  # resolved from other settings: its type is the resolved value's
            resolved = sample.options[name]
            default = 0 if isinstance(resolved, int) and not isinstance(resolved, bool) else ""
        elif not isinstance(default, (bool, int, float, str)):
            default = " ".join(map(str, default))
        spec[name] = default
    return spec


def options_from_parameters(cls: type[Rules], params: dict[str, Any]
                            ) -> tuple[Any, Any, dict[str, Any]]:
    """(players, seed, options) from pyspiel parameters; "game's default" sentinels dropped."""
    sample = _default_rules(cls)
    options: dict[str, Any] = {}
    for name, option in cls.option_spec.items():
        if name not in params:
            continue
        value = params[name]
        if option.default is None and (value == "" or (value == 0
                                                      and not isinstance(value, bool))):
            continue  # the game's own default
        resolved = (option.default if option.default is not None
                    else sample.options[name] if sample is not None else None)
        if isinstance(value, str) and isinstance(resolved, (list, tuple)):
            value = value.split()  # a list option, written as words
        options[name] = value
    return params.get("players"), params.get("seed", 0), options


def parameters_of(rules: Rules, seed: int = 0) -> dict[str, Any]:
    """The pyspiel parameters of a configured rules object (resolved option values)."""
    params: dict[str, Any] = {"players": rules.players, "seed": seed}
    for name, value in rules.options.items():
        params[name] = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
    return params


# -- game types --------------------------------------------------------------------------------
def game_type(cls: type[Rules], rules: Rules | None = None) -> pyspiel.GameType:
    traits = (rules or cls).traits
    shared = traits.cooperative if rules is None else shared_returns(rules)
    return pyspiel.GameType(
        short_name=short_name(cls.name), long_name=f"aloftnb: {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_CHANCE_MODES[traits.chance],
        information=_INFORMATION[traits.information],
        utility=(pyspiel.GameType.Utility.IDENTICAL if shared
                 else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(traits.player_counts), min_num_players=min(traits.player_counts),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_specification(cls))


class AloftnbGame(pyspiel.Game):
    """One aloftnb game, configured from pyspiel parameters. Subclassed once per game."""

    aloftnb_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cls = registry.rules_class(self.aloftnb_name)
        spec = parameter_specification(cls)
        params = {**spec, **(params or {})}
        players, seed, options = options_from_parameters(cls, params)
        problem = seed_problem(seed)  # as Match refuses it
        if problem:
            raise InvalidOptions(f"{cls.name}: seed {problem}")
        rules = cls(players, **options)
        if not rules.has_encoding:
            raise AloftnbError(f"{cls.name} declares no action and observation encoding, so it "
                               "cannot be an OpenSpiel game (see docs/adapters.md)")
        self.rules, self.seed = rules, seed
        shared = shared_returns(rules)
        low, high = return_bounds(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_distinct_actions(),
            max_chance_outcomes=rules.max_chance_outcomes(),
            num_players=rules.players,
            min_utility=low, max_utility=high,
            utility_sum=None if shared else 0.0,
            max_game_length=rules.max_length())
        super().__init__(game_type(cls, rules), info, params)

    def new_initial_state(self) -> AloftnbState:
        return AloftnbState(self)

    def root(self) -> Any:
        """The node where this game starts, shared by its states (pyspiel's clone starts each
        copy as a new initial state)."""
        root = self.__dict__.get("_root")
        if root is None:
            root = self._root = root_node(self.rules, self.rules.initial_state(self.seed))
        return root

    def state_from(self, state: Any) -> AloftnbState:
        """An OpenSpiel state at an aloftnb state (no history before it): for bots."""
        spiel_state = AloftnbState(self)
        spiel_state._node = root_node(self.rules, state)
        return spiel_state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"aloftnb observers take no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return AloftnbObserver(self.rules, perfect_recall)


# -- states ------------------------------------------------------------------------------------
_BOUND = frozenset({"is_terminal", "current_player", "legal_actions", "_apply_action"})


class AloftnbState(pyspiel.State):
    # pyspiel calls is_terminal, current_player, legal_actions and _apply_action at every step:
    # each is an object bound to the state's cursor (spiel_nodes, compiled in the compiled
    # build, where a call runs no interpreted frame) and kept in a slot. pyspiel's clone
    # deep-copies the instance dict key by key, so the dict holds the cursor and the seed alone,
    # and setting `_cursor` (at creation, clone and unpickling) binds the four anew.
    __slots__ = ("__dict__", *sorted(_BOUND))
    is_terminal: IsTerminal
    current_player: CurrentPlayer
    legal_actions: LegalActions
    _apply_action: ApplyAction

    def __init__(self, game: AloftnbGame) -> None:
        super().__init__(game)
        self._seed = game.seed
        self._cursor = Cursor(game.root())

    @property
    def _cursor(self) -> Cursor:
        cursor = self.__dict__.get("_cursor")
        if cursor is None:  # a state unpickled from before cursors: its dict held the node
            cursor = self._cursor = Cursor(self.__dict__.pop("_node"))
        return cursor

    @_cursor.setter
    def _cursor(self, cursor: Cursor) -> None:
        self.__dict__["_cursor"] = cursor
        cursor.owner = weakref.ref(self)
        self.is_terminal = IsTerminal(cursor)
        self.current_player = CurrentPlayer(cursor)
        self.legal_actions = LegalActions(cursor)
        self._apply_action = ApplyAction(cursor)

    def __setstate__(self, data: Any) -> None:
        super().__setstate__(data)  # (which restores the dict, not the slots)
        self._cursor = self._cursor  # binds the four

    @property
    def _node(self) -> Any:
        """The node this state is at (`spiel_nodes._Node`)."""
        return self._cursor.node

    @_node.setter
    def _node(self, node: Any) -> None:
        self._cursor.node = node

    @property
    def aloftnb_state(self) -> Any:
        """The aloftnb state this OpenSpiel state is at."""
        return self._node.state

    @property
    def rules(self) -> Rules:
        return self._node.rules

    # The general routes of legal_actions and _apply_action (spiel_nodes answers the rest).
    def legal_actions_of(self, player: int | None) -> list[int]:
        """legal_actions(player): pyspiel's own with a player; without one, a chance step's."""
        if player is not None:
            return super().legal_actions(player)
        if self.is_terminal():
            return []
        current = self.current_player()
        if current == pyspiel.PlayerId.CHANCE:
            return [index for index, _ in self.chance_outcomes()]
        return self._legal_actions(current)

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if node.to_move() != player:
            return []
        return list(node.decisions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        if node.chance is None and node.steps.sampled:  # (the others: the node's own work)
            outcome = node.rules.sample_chance(node.state,
                                               chance_rng(self._seed, self.move_number()))
            node.keep_chance([(_chance_index(node, outcome), 1.0)])
        return list(node.chances())

    def child_of(self, action: Any) -> Any:
        """The node `action` leads to where the node does not know it: a chance outcome's, or
        an IllegalSpielAction that says why it is refused (the state is unchanged)."""
        node = self._node
        rules = node.rules
        mover = node.to_move()
        index = _index(action)
        if mover is None:
            raise IllegalSpielAction(f"{rules.name}: the game is over; action {action!r:.40} "
                                     "cannot be applied")
        if mover == CHANCE:
            allowed = [i for i, _ in self.chance_outcomes()]
            move = rules.chance_from_index(index) if index in allowed else None
        else:
            allowed = node.decisions()
            move = node.move_of(index) if index is not None else None
        if index is None or move is None:
            who = "the chance step" if mover == CHANCE else f"player {mover}"
            raise IllegalSpielAction(
                f"{rules.name}: {action!r:.40} is not a legal action of {who} at move "
                f"{self.move_number()}; the legal ones are {allowed[:12]}"
                + (" ..." if len(allowed) > 12 else ""))
        return node.step(index, mover, rules.apply(node.state, move))

    def _action_to_string(self, player: int, action: int) -> str:
        rules = self.rules
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance: {rules.chance_from_index(int(action))}"
        return str(rules.action_from_index(int(action)))

    def returns(self) -> list[float]:
        rules, state = self.rules, self._node.state
        if not rules.is_over(state):
            return [0.0] * rules.players
        return outcome_returns(rules, state)

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> AloftnbState:
        """A state `player_id` cannot tell from this one: hidden parts resampled by the game's
        `determinize` (for ISMCTS). The sampler's draw seeds the resampling."""
        draw = probability_sampler() if callable(probability_sampler) else random.random()
        rng = random.Random(int(draw * 2**52))
        clone = self.clone()
        node = self._node
        world = self.rules.determinize(node.state, player_id, rng)
        clone._node = node.resampled(world, player_id)
        return clone

    def __str__(self) -> str:
        return json.dumps(self.rules.state_to_dict(self._node.state), sort_keys=True)


class AloftnbObserver:
    """OpenSpiel's Python observer: the seat's observation tensor and string, or with perfect
    recall its information state string."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules, self.perfect_recall = rules, perfect_recall
        shape = rules.observation_shape()
        self.tensor = np.zeros(0 if perfect_recall else int(np.prod(shape)), np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(shape)}
        self._observations = Observations(rules)

    def set_from(self, state: AloftnbState, player: int) -> None:
        """Computed when asked (OpenSpiel's observation_tensor), from the encoding's entries."""
        if not self.perfect_recall:
            self._observations.fill(self.tensor, state._node.state, player)

    def string_from(self, state: AloftnbState, player: int) -> str:
        if self.perfect_recall:
            return state._node.info(player)
        return self.rules.observation_string(state._node.state, player)


# -- registration ------------------------------------------------------------------------------
def register_game(name: str) -> None:
    """Register one aloftnb game with pyspiel (again, if it was registered before)."""
    cls = registry.rules_class(name)
    class_name = "Game_" + "".join(c if c.isalnum() else "_" for c in name)
    game_class = type(class_name, (AloftnbGame,), {"aloftnb_name": name, "__module__": __name__,
                                                   "__qualname__": class_name})
    globals()[class_name] = game_class  # so pickle finds the class of a pickled game
    pyspiel.register_game(game_type(cls), game_class)


def _register_quietly(name: str) -> None:
    """Register a game that declares an encoding; skip the others (and games that cannot be set
    up with their default options)."""
    try:
        cls = registry.rules_class(name)
        if not declares_encoding(cls):
            return
        register_game(name)
    except (AloftnbError, ImportError):
        pass


for _name in registry.game_names():
    _register_quietly(_name)
registry.on_register(_register_quietly)


# pyspiel keeps a game's integer parameters as C++ ints.
OPENSPIEL_SEED_LIMIT = 2**31


def load_game(game: str, players: int | None = None, seed: int = 0,
              **options: Any) -> AloftnbGame:
    """The pyspiel game of an aloftnb game: `load_game("balloons", players=3, edition="choice")`."""
    problem = seed_problem(seed)
    if not problem and seed >= OPENSPIEL_SEED_LIMIT:
        problem = f"must be below 2**31 here (OpenSpiel's parameters are 32-bit), not {seed}"
    if problem:  # pyspiel itself would only say it cannot cast the value
        raise InvalidOptions(f"{game}: seed {problem}")
    params: dict[str, Any] = {"seed": seed, **options}
    if players is not None:
        params["players"] = players
    for name, value in list(params.items()):
        if isinstance(value, (list, tuple)):
            params[name] = " ".join(map(str, value))
    return pyspiel.load_game(short_name(game), params)


def game_for(rules: Rules, seed: int = 0) -> AloftnbGame:
    """The pyspiel game with the same players and options as `rules`."""
    return pyspiel.load_game(short_name(rules.name), parameters_of(rules, seed))


# -- bots --------------------------------------------------------------------------------------
class OpenSpielMCTSBot(Bot):
    """OpenSpiel's MCTS (`open_spiel.python.algorithms.mcts`) at an aloftnb seat.

    "openspiel-mcts:N" searches N simulations with random rollouts; "openspiel-mcts:0.25s" as
    many as fit in a quarter of a second (to compare with aloftnb's bots at equal time), and
    "openspiel-mcts:N:0.25s" stops at whichever comes first. In a game with hidden
    information it searches one world that `rules.determinize` samples for its seat, so it never
    reads what the seat cannot see; "openspiel-ismcts:N" runs OpenSpiel's ISMCTS instead, which
    resamples a world (through the same `determinize`) on every simulation.
    """

    name = "openspiel-mcts"
    algorithm = "mcts"

    def __init__(self, simulations: int | None = None, exploration: float = 2.0,
                 seconds: float | None = None) -> None:
        # The same bounds as aloftnb's own MCTS: a spec from a board's seat menu must never
        # start a search that runs for hours or never converges. Neither budget: 1000.
        if simulations is None:
            simulations = 1000 if seconds is None else MAX_ITERATIONS
        else:
            problem = whole_number_problem(simulations, 1, MAX_ITERATIONS)
            if problem:
                raise AloftnbError(f"{self.name} simulations {problem}")
        if seconds is not None:
            problem = number_problem(seconds, 0, MAX_SECONDS, low_open=True)
            if problem:
                raise AloftnbError(f"{self.name} seconds {problem}")
        problem = number_problem(exploration, 0, MAX_EXPLORATION)
        if problem:
            raise AloftnbError(f"{self.name} exploration {problem}")
        self.simulations, self.exploration = simulations, float(exploration)
        self.seconds = None if seconds is None else float(seconds)
        self._games: dict[Rules, AloftnbGame] = {}

    @property
    def budget(self) -> str:  # type: ignore[override]
        if self.seconds is None:
            return f"{self.simulations} simulations per move"
        if self.simulations == MAX_ITERATIONS:
            return f"{self.seconds:g} s per move"
        return f"{self.simulations} simulations or {self.seconds:g} s per move"

    @property
    def spec(self) -> str:
        parts = [self.name]
        if self.seconds is None or self.simulations != MAX_ITERATIONS:
            parts.append(str(self.simulations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        if self.exploration != 2.0:
            parts.append(f"c{self.exploration:g}")
        return ":".join(parts)

    def __repr__(self) -> str:
        seconds = "" if self.seconds is None else f", seconds={self.seconds}"
        return f"{type(self).__name__}(simulations={self.simulations}, " \
               f"exploration={self.exploration}{seconds})"

    def _game(self, rules: Rules) -> AloftnbGame:
        game = self._games.get(rules)
        if game is None or game.rules != rules:
            game = self._games[rules] = game_for(rules)
        return game

    def choose(self, rules: Rules, state: Any, seat: int, rng: random.Random,
               stop: Any = None) -> Any:
        # `stop` is taken as every bot takes it; OpenSpiel's search runs its simulations whole.
        actions = rules.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        game = self._game(rules)
        numpy_rng = np.random.RandomState(rng.randrange(2**31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy_rng)
        if self.algorithm == "ismcts" and rules.traits.information == "imperfect":
            bot = ismcts.ISMCTSBot(game, evaluator, self.exploration, self.simulations,
                                   random_state=numpy_rng, use_observation_string=False)
            # Worlds resampled from the bot's own generator, so its play is reproducible.
            bot.set_resampler(lambda root, player: root.resample_from_infostate(player,
                                                                                rng.random))
            world = state
        else:
            bot = _TimedMCTSBot(game, self.exploration, self.simulations, evaluator,
                                random_state=numpy_rng)
            world = rules.determinize(state, seat, rng)
            if self.seconds is not None:
                bot.deadline = time.perf_counter() + self.seconds
        index = bot.step(game.state_from(world))
        return rules.action_from_index(int(index))


class _TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's MCTSBot with a deadline: its search loop ends once the root has an outcome,
    so when the time is up the root is given one (all zeros, read by nothing but that test) and
    the simulation under way is the last. The move is still the most visited child; the first
    two simulations always run (the second expands the root, so it has a child to choose)."""

    deadline: float | None = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        path = super()._apply_tree_policy(root, state)
        if (self.deadline is not None and root.outcome is None and root.explore_count > 0
                and time.perf_counter() >= self.deadline):
            root.outcome = np.zeros(state.get_game().num_players())
        return path


class OpenSpielISMCTSBot(OpenSpielMCTSBot):
    __doc__ = OpenSpielMCTSBot.__doc__
    name = "openspiel-ismcts"
    algorithm = "ismcts"

    def __init__(self, simulations: int | None = None, exploration: float = 2.0,
                 seconds: float | None = None) -> None:
        if seconds is not None:  # OpenSpiel's ISMCTS runs its simulations whole
            raise AloftnbError(f"{self.name} takes a number of simulations, not seconds")
        super().__init__(simulations, exploration)


BOTS = {"openspiel-mcts": OpenSpielMCTSBot, "openspiel-ismcts": OpenSpielISMCTSBot}


def bot_from_spec(spec: str) -> Bot:
    """The bot of an "openspiel-..." spec: what `aloftnb.make_bot` calls for this family."""
    name, *parts = spec.split(":")
    if name not in BOTS:
        raise AloftnbError(f"no bot called {name!r} (OpenSpiel bots: "
                           f"{', '.join(sorted(BOTS))})")
    return make_bot(name, parts)


def make_bot(name: str, parts: list[str]) -> Bot:
    """A bot from the parts of its spec after the name: ["1000"], ["0.25s"] or
    ["1000", "c1.4"]."""
    kwargs: dict[str, Any] = {}
    try:
        for part in parts:
            if part.startswith("c"):
                kwargs["exploration"] = float(part[1:])
            elif part.endswith("s"):
                kwargs["seconds"] = float(part[:-1])
            else:
                kwargs["simulations"] = int(part)
    except ValueError:
        raise AloftnbError(f"cannot read bot {':'.join([name, *parts])!r}: write e.g. "
                           f"'{name}', '{name}:1000' (simulations), '{name}:0.25s' (seconds) "
                           f"or '{name}:1000:c1.4'") from None
    return BOTS[name](**kwargs)
