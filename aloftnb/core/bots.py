"""Bots: one interface, usable at any seat of a match, a board or a simulation.

A bot sees what its seat may see. It gets the rules, the full state and its seat, and must read
the state only through `rules.view(state, seat)`, `rules.legal_actions(state)` (legal actions are
public in every game here) and `rules.determinize(state, seat, rng)`, which resamples what the seat
cannot see. Searching bots run on determinized states, so they never read hidden information.

Every bot is deterministic given its `rng` (except MCTS with a time budget, which stops on the
clock). `bot.spec` is a short text that `make_bot` turns back into the same bot ("mcts:500").

Per-game knowledge lives in the game's playtest hooks (a `GameHooks`, core/hooks.py), named when
the game is registered (`aloftnb.register(..., hooks=...)`; the built-in games' are in
`aloftnb/games/<game>/metrics.py`): `evaluate(rules, state, seat) -> float` (greedy),
`rewards(rules, state) -> {seat: 0..1}` (MCTS outcomes), `PLAYOUT_DECISIONS` with `estimate` and
`mcts_iterations` (MCTS). GameHooks answers each with its fallback (the score, the outcome).

Chance: bots are never asked to move at a chance step, and never see an outcome before it is
drawn. MCTS draws chance outcomes with its own generator inside its search; greedy takes the
expectation over a chance step's listed outcomes (sampling `samples` of them when there are more
than `GreedyBot.EXPECTATION_LIMIT` or the game's chance is sampled).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..errors import AloftnbError
from .action import Action
from .hooks import DEFAULT_ITERATIONS as DEFAULT_ITERATIONS
from .hooks import AnyHooks
from .hooks import rank_rewards as rank_rewards
from .hooks import score_evaluation as score_evaluation
from .options import _short_repr, number_problem, whole_number_problem
from .registry import hooks_of
from .rules import AnyRules
from .search import Node, most_visited
from .search import search as run_search

# Upper bounds on what one decision may cost, so no bot spec (one front-end message) can hold the
# kernel for hours or grow memory without end.
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0
MAX_SAMPLES = 64
MAX_EXPLORATION = 10.0


class IllegalChoice(AloftnbError):
    """A bot chose an action that is not legal."""

    def __init__(self, action: Any) -> None:
        super().__init__(f"{action!r} is not a legal action")
        self.action = action


class Bot:
    """Base class. Subclasses implement `choose`; `name` is what logs and tables show."""

    name = "bot"
    budget = "instant"  # what one decision may cost, for boards to show while the bot thinks

    def choose(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Action:
        """The bot's move. `stop`, when given, is asked now and then by bots that search: once it
        answers True they play the best move found so far (a board cancelling a thought, the
        browser's time budget). Every bot takes it; an instant bot may ignore it."""
        raise NotImplementedError

    def choose_index(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
                     actions: list[Action]) -> int:
        """Where the action `choose` picks is in `actions` (the legal actions of `state`):
        what simulations record. ValueError when it is not there."""
        action = self.choose(rules, state, seat, rng)
        try:
            return index_of(actions, action)
        except ValueError:
            raise IllegalChoice(action) from None

    @property
    def spec(self) -> str:
        """Text that `make_bot` turns back into an equal bot."""
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bot) and type(other) is type(self) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Action:
        actions: list[Action] = rules.legal_actions(state)
        return actions[int(rng.random() * len(actions))]

    def choose_index(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
                     actions: list[Action]) -> int:
        return int(rng.random() * len(actions))  # as `choose`, with no list to build or search


def index_of(actions: list[Action], action: Action) -> int:
    """Where `action` is in `actions`; ValueError when it is not there.

    By identity first (bots return one of the listed actions): comparing actions by value costs
    a Python call for each action before it."""
    try:
        return list(map(id, actions)).index(id(action))
    except ValueError:
        return actions.index(action)


# -- per-game hooks ------------------------------------------------------------------------------
# DEFAULT_ITERATIONS, rank_rewards and score_evaluation (the fallbacks) are core/hooks.py's
# (rank_rewards is compiled with the search, in core/search.py).
def game_hooks(rules: AnyRules) -> AnyHooks:
    """The game's registered playtest hooks (its GameHooks; every fallback when it has none)."""
    return hooks_of(rules)


def evaluate(rules: AnyRules, state: Any, seat: int) -> float:
    """How good `state` looks for `seat` (higher is better): the game's hook, else the score."""
    return hooks_of(rules).evaluate(rules, state, seat)


def outcome_rewards(rules: AnyRules, state: Any) -> dict[int, float]:
    """A finished game's reward in 0..1 per seat, for searching bots."""
    return hooks_of(rules).rewards(rules, state)


# -- greedy --------------------------------------------------------------------------------------
class GreedyBot(Bot):
    """One move of lookahead: plays the action whose next state evaluates best for its seat.

    Hidden information: each action is evaluated on `samples` determinized worlds and averaged,
    so the evaluation never sees what the seat cannot. Ties are broken with `rng`.
    """

    name = "greedy"
    budget = "one move of lookahead"
    EXPECTATION_LIMIT = 36  # chance steps with more outcomes than this are sampled

    def __init__(self, samples: int = 2) -> None:
        problem = whole_number_problem(samples, 1, MAX_SAMPLES)
        if problem:
            raise AloftnbError(f"greedy samples {problem}")
        self.samples = samples

    @property
    def spec(self) -> str:
        return "greedy" if self.samples == 2 else f"greedy:{self.samples}"

    def choose(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Action:
        """`stop`: asked between actions; when it answers True the bot gives up, playing the
        best of the actions it has evaluated (at least one: a time budget may run out first)."""
        actions: list[Action] = rules.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        worlds = [rules.determinize(state, seat, rng) for _ in range(self.samples)]
        # Where the seat sees everything, the worlds are equal: an action that leads to no chance
        # step then evaluates the same in each, so it is played and evaluated once (the value
        # and the draws from rng are those of evaluating it in every world). A subclass with its
        # own `expected` may draw from rng there, so it evaluates every world as before.
        one_world = (type(self).expected is GreedyBot.expected
                     and all(world == worlds[0] for world in worlds[1:]))
        best: list[Action] = []
        best_value = -math.inf
        for action in actions:
            if best and stop is not None and stop():
                break
            after = rules.apply(worlds[0], action)
            value = self.expected(rules, after, seat, rng)
            if one_world and not rules.is_chance(after):
                value = sum(value for _ in worlds)  # as adding each world's up, to the bit
            else:
                for world in worlds[1:]:
                    value += self.expected(rules, rules.apply(world, action), seat, rng)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[int(rng.random() * len(best))]

    def expected(self, rules: AnyRules, state: Any, seat: int, rng: random.Random) -> float:
        """The evaluation of `state`, or its expectation when `state` is a chance step: over the
        listed outcomes (weighted by probability) when there are few, else over `samples` draws.
        Chance steps that follow the first are sampled (one level of expectation)."""
        if not rules.is_chance(state):
            return evaluate(rules, state, seat)
        if rules.traits.chance == "explicit":
            outcomes = rules.chance_outcomes(state)
            if len(outcomes) <= self.EXPECTATION_LIMIT:
                return sum(p * _settled_value(rules, rules.apply(state, o), seat, rng)
                           for o, p in outcomes)
        return sum(_settled_value(rules, rules.apply(state, rules.sample_chance(state, rng)),
                                  seat, rng) for _ in range(self.samples)) / self.samples

    def __repr__(self) -> str:
        return f"GreedyBot(samples={self.samples})"


def _settled_value(rules: AnyRules, state: Any, seat: int, rng: random.Random) -> float:
    """Evaluate after drawing any further chance steps (so evaluations see decision points)."""
    steps = 0
    while rules.is_chance(state) and steps < 1000:
        state = rules.apply(state, rules.sample_chance(state, rng))
        steps += 1
    return evaluate(rules, state, seat)


# -- MCTS ----------------------------------------------------------------------------------------
# The search loop and its tree live in core/search.py, which the compiled build compiles.
_Node = Node  # the tree's node by its older name


class MCTSBot(Bot):
    """Monte Carlo tree search (UCT) with an iteration and/or a time budget.

    Hidden information is handled by determinization (single-observer ISMCTS): every iteration
    samples a world consistent with the seat's view via `rules.determinize`, walks one shared tree
    of moves in that world, and counts how often each move was available. Chance steps are drawn
    with the bot's own generator as the walk reaches them (open-loop: the tree holds decisions
    only, and a move's statistics average over the outcomes drawn after it). Playouts are random
    to the end; the reward is each game's `rewards` hook (0..1 per seat), else the outcome's rank
    reward. Games whose random playouts run long (hundreds of steps) may cut them short: with a
    `PLAYOUT_DECISIONS` limit and an `estimate(rules, state)` hook (0..1 per seat) in their hooks,
    a playout stops after that many decisions and the estimate is its reward. The move played is
    the most visited. Given neither budget, it searches the game's default number of iterations
    (`default_iterations`).
    """

    name = "mcts"

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 exploration: float = 0.7) -> None:
        # Neither budget given: the game's default budget (`default_iterations`).
        problem = iterations is not None and whole_number_problem(iterations, 1, MAX_ITERATIONS)
        if problem:
            raise AloftnbError(f"MCTS iterations {problem}")
        problem = seconds is not None and number_problem(seconds, 0, MAX_SECONDS, low_open=True)
        if problem:
            raise AloftnbError(f"MCTS seconds {problem}")
        problem = number_problem(exploration, 0, MAX_EXPLORATION)
        if problem:
            raise AloftnbError(f"MCTS exploration {problem}")
        self.iterations, self.seconds, self.exploration = iterations, seconds, float(exploration)

    @property
    def budget(self) -> str:  # type: ignore[override]
        if self.iterations is None and self.seconds is None:
            return "the game's default budget per move"
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts) + " per move"

    @property
    def spec(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(str(self.iterations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        text = ":".join(["mcts", *parts])
        return text if self.exploration == 0.7 else f"{text}:c{self.exploration:g}"

    def __repr__(self) -> str:
        return (f"MCTSBot(iterations={self.iterations!r}, seconds={self.seconds!r}, "
                f"exploration={self.exploration!r})")

    def choose(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Action:
        """`stop`: asked every few iterations; when it answers True the search ends early."""
        actions: list[Action] = rules.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        root = self.search(rules, state, seat, rng, stop)
        # Most visited; ties in legal-action order, so the choice is reproducible.
        chosen: Action = most_visited(root, actions)
        return chosen

    def search(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Node:
        """Run the search from `state` for `seat`; returns the root with its statistics."""
        iterations = self.iterations
        if iterations is None and self.seconds is None:
            iterations = default_iterations(rules)
        hooks = game_hooks(rules)
        return run_search(rules, state, seat, rng, stop, iterations, self.seconds,
                          self.exploration, hooks.rewards, hooks.estimate,
                          hooks.PLAYOUT_DECISIONS)


def default_iterations(rules: AnyRules) -> int:
    """The iterations of an MCTS bot at its default budget, in this configured game: the game's
    `mcts_iterations` hook, else DEFAULT_ITERATIONS. Some modes cost far more per iteration, and
    each game's default must stay within the time its rules page gives a decision."""
    return game_hooks(rules).mcts_iterations(rules)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
# Bot families from outside the core, by the start of their specs ("openspiel-mcts:1000"): the
# "module:function" that turns a whole spec into a bot, imported only when such a spec is asked
# for (an optional extra need not be installed until then).
_FAMILIES: dict[str, str] = {}


def register_bot_family(prefix: str, factory: str) -> None:
    """Let `make_bot` build the bots whose spec starts with `prefix`, with `factory(spec)` given
    as "module:function" (the OpenSpiel adapter's bots are registered this way by aloftnb)."""
    if not (isinstance(prefix, str) and prefix and isinstance(factory, str) and ":" in factory):
        raise AloftnbError("register_bot_family(prefix, 'module:function') takes two texts")
    _FAMILIES[prefix] = factory


def _parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """ "mcts:500", "mcts:2s", "mcts:500:1s:c1.4", "greedy:4" -> (name, keyword arguments)."""
    if len(spec) > 100:
        raise AloftnbError(f"a bot spec is a short text like 'mcts:500', not {len(spec)} "
                           "characters")
    name, *parts = spec.strip().split(":")
    kwargs: dict[str, Any] = {}
    if not parts:
        return name, kwargs
    try:
        if name == "mcts":
            kwargs["iterations"] = None
            for part in parts:
                if part.endswith("s"):
                    kwargs["seconds"] = float(part[:-1])
                elif part.startswith("c"):
                    kwargs["exploration"] = float(part[1:])
                else:
                    kwargs["iterations"] = int(part)
        elif name == "greedy" and len(parts) == 1:
            kwargs["samples"] = int(parts[0])
        else:
            raise ValueError
    except ValueError:
        raise AloftnbError(
            f"cannot read bot {_short_repr(spec)}: write e.g. 'random', 'greedy', 'greedy:4', "
            "'mcts', "
            "'mcts:500' (iterations), 'mcts:0.5s' (seconds) or 'mcts:500:0.5s'") from None
    return name, kwargs


def make_bot(spec: str | Bot, **kwargs: Any) -> Bot:
    """A bot from its name ("random", "greedy", "mcts", "mcts:500", ...) or a Bot, as is."""
    if isinstance(spec, Bot):
        return spec
    if not isinstance(spec, str):
        raise AloftnbError(f"a bot is a name like 'random' or a Bot, not {_short_repr(spec)}")
    for prefix, factory in _FAMILIES.items():
        if spec.strip().startswith(prefix):  # a family from outside the core, loaded when asked
            module, _, attr = factory.partition(":")
            bot: Bot = getattr(import_module(module), attr)(spec.strip())
            return bot
    name, parsed = _parse_spec(spec)
    if name not in BOTS:
        known = ", ".join(sorted(BOTS))
        raise AloftnbError(f"no bot called {_short_repr(name)} (bots: {known})")
    try:
        return BOTS[name](**{**parsed, **kwargs})
    except TypeError as exc:
        raise AloftnbError(f"bot {name!r} does not take those settings: {exc}") from None
