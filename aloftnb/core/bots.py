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
import sys
import time
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
from .search import guided_search as run_guided_search
from .search import search as run_search
from .search_settings import (
    MAX_EXPLORATION,
    MAX_WORKERS,
    check_search_settings,
    evaluation_estimate,
    evaluation_order,
    has_estimate,
    has_secret,
    read_setting,
    resolved_settings,
    scored_rivals,
    with_score_bonus,
)
from .search_settings import PLAYOUTS as GUIDED_PLAYOUTS

# Upper bounds on what one decision may cost, so no bot spec (one front-end message) can hold the
# kernel for hours or grow memory without end.
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0
MAX_SAMPLES = 64


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
# The search loops and their tree live in core/search.py, which the compiled build compiles.
_Node = Node  # the tree's node by its older name


class UCTBot(Bot):
    """Monte Carlo tree search (UCT) with an iteration and/or a time budget: the project's first
    search, kept unchanged as the baseline the guided one (`MCTSBot`) is measured against.

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

    name = "uct"

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

    def _budget_spec(self) -> list[str]:
        parts = [self.name]
        if self.iterations is not None:
            parts.append(str(self.iterations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return parts

    @property
    def spec(self) -> str:
        text = ":".join(self._budget_spec())
        return text if self.exploration == 0.7 else f"{text}:c{self.exploration:g}"

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(iterations={self.iterations!r}, "
                f"seconds={self.seconds!r}, exploration={self.exploration!r})")

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

    def _iterations(self, rules: AnyRules) -> int | None:
        if self.iterations is None and self.seconds is None:
            return default_iterations(rules)
        return self.iterations

    def search(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Node:
        """Run the search from `state` for `seat`; returns the root with its statistics."""
        hooks = game_hooks(rules)
        return run_search(rules, state, seat, rng, stop, self._iterations(rules), self.seconds,
                          self.exploration, hooks.rewards, hooks.estimate,
                          hooks.PLAYOUT_DECISIONS)


class MCTSBot(UCTBot):
    """Monte Carlo tree search guided by what it learns and what the game knows: UCTBot's search
    (the same determinized worlds, open-loop chance, budgets and most-visited choice), with

    - playouts by move statistics (`playout="mast"`): each seat's mean reward of every action it
      played so far in this search; a playout move is the best of `tournament` random legal
      actions, or a random one with probability `epsilon`. `playout="eval"` judges the
      candidates by the game's evaluation of where each leads (slower, sharper);
      `playout="random"` plays UCT's random playouts;
    - `cutoff`: playouts stop after that many decisions and take the game's `estimate` (or, where
      it has none, the seats ranked by their evaluations) as their reward;
    - `widening` W: a node passed through n times gets a new child only while it has fewer
      than 1 + W * sqrt(n) (0: no widening), the untried actions coming best-first by move
      statistics, for games with hundreds of moves a
      decision; `prior=True` orders the root's actions by the game's evaluation one move ahead;
    - `bonus` B: in a competitive game won on points, a playout that reaches the end is worth
      (1 - B) times its outcome's reward plus B times each seat's margin over its rivals' mean
      score (0.5 + margin / 2 / all points scored), so a search also learns by how much (0: the
      outcome alone);
    - `secrets`: where the game's hooks define `secret`, a rival's statistics are kept apart
      for each secret a world deals it (it plays knowing its own card);
    - `workers`: root-parallel search on that many processes, each a whole search with its own
      seed drawn from the bot's generator, their visits added up: the same move for the same
      seed and worker count (with an iteration budget).

    A setting left None is the game's (its hooks' `search_settings`), else the default in
    `SEARCH_DEFAULTS`. `mcts` with no budget searches the game's default number of iterations.
    """

    name = "mcts"
    PLAYOUTS = GUIDED_PLAYOUTS

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 exploration: float | None = None, *, playout: str | None = None,
                 epsilon: float | None = None, tournament: int | None = None,
                 cutoff: int | None = None, widening: float | None = None,
                 prior: bool | None = None, bonus: float | None = None,
                 secrets: bool | None = None, workers: int = 1) -> None:
        super().__init__(iterations, seconds, 0.7 if exploration is None else exploration)
        self._exploration_given = exploration is not None
        self.settings: dict[str, Any] = {
            "playout": playout, "epsilon": epsilon, "tournament": tournament, "cutoff": cutoff,
            "widening": widening, "prior": prior, "bonus": bonus, "secrets": secrets}
        if exploration is not None:
            self.settings["exploration"] = self.exploration
        check_search_settings(self.settings, "MCTS")
        problem = whole_number_problem(workers, 1, MAX_WORKERS)
        if problem:
            raise AloftnbError(f"MCTS workers {problem}")
        self.workers = workers

    @property
    def spec(self) -> str:
        parts = self._budget_spec()
        settings = self.settings
        if settings.get("exploration") is not None:
            parts.append(f"c{self.exploration:g}")
        if settings["playout"] is not None:
            parts.append(settings["playout"])
        if settings["epsilon"] is not None:
            parts.append(f"e{settings['epsilon']:g}")
        if settings["tournament"] is not None:
            parts.append(f"t{settings['tournament']}")
        if settings["cutoff"] is not None:
            parts.append(f"cut{settings['cutoff']}")
        if settings["widening"] is not None:
            parts.append(f"pw{settings['widening']:g}")
        if settings["prior"] is not None:
            parts.append("prior" if settings["prior"] else "noprior")
        if settings["bonus"] is not None:
            parts.append(f"b{settings['bonus']:g}")
        if settings["secrets"] is not None:
            parts.append("secrets" if settings["secrets"] else "nosecrets")
        if self.workers != 1:
            parts.append(f"w{self.workers}")
        return ":".join(parts)

    def __repr__(self) -> str:
        given = {k: v for k, v in self.settings.items() if v is not None}
        extra = "".join(f", {k}={v!r}" for k, v in given.items() if k != "exploration")
        workers = f", workers={self.workers}" if self.workers != 1 else ""
        return (f"MCTSBot(iterations={self.iterations!r}, seconds={self.seconds!r}, "
                f"exploration={self.exploration!r}{extra}{workers})")

    def resolved(self, rules: AnyRules) -> dict[str, Any]:
        """Every search setting as this bot plays `rules`: its own, else the game's, else the
        defaults (`SEARCH_DEFAULTS`)."""
        return resolved_settings(rules, self.settings)

    def search(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Node:
        """Run the search from `state` for `seat`; returns the root with its statistics (the
        workers' added up, when there are several)."""
        if self.workers > 1 and processes_available():
            from .root_parallel import search_on_workers

            seeds = [rng.getrandbits(64) for _ in range(self.workers)]
            return search_on_workers(self, rules, state, seat, seeds, stop)
        return self.search_here(rules, state, seat, rng, stop)

    def search_here(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
                    stop: Callable[[], bool] | None = None) -> Node:
        """One search in this process (what each worker of a root-parallel search runs)."""
        settings = self.resolved(rules)
        hooks = game_hooks(rules)
        seconds = self.seconds
        deadline = None if seconds is None else time.perf_counter() + seconds
        rank = None
        if settings["prior"]:
            rank = evaluation_order(rules, state, seat, rng, stop, deadline)
            if deadline is not None:
                seconds = max(deadline - time.perf_counter(), 1e-6)
        cutoff = settings["cutoff"]
        estimate = hooks.estimate if has_estimate(hooks) else evaluation_estimate
        playout = settings["playout"]
        rewards: Callable[[AnyRules, Any], dict[int, float]] = hooks.rewards
        if settings["bonus"] and scored_rivals(rules):
            rewards = with_score_bonus(hooks.rewards, settings["bonus"])
        return run_guided_search(
            rules, state, seat, rng, stop, self._iterations(rules), seconds,
            settings["exploration"], rewards, estimate, cutoff,
            1.0 if playout == "random" else settings["epsilon"], settings["tournament"],
            settings["widening"], rank, hooks.evaluate if playout == "eval" else None,
            hooks.secret if settings["secrets"] and has_secret(hooks) else None)


def explicit_spec(bot: Bot, rules: AnyRules) -> str:
    """`bot`'s spec with everything it leaves to the game written out, as it plays `rules`
    ("mcts" -> "mcts:1000:c0.7:mast:e0.2:t4:cut16:noprior:b0"): what a reader needs to know
    what played. Secrets are written only in a game that has them."""
    if not isinstance(bot, UCTBot):
        return bot.spec
    iterations = bot._iterations(rules)
    if isinstance(bot, MCTSBot):
        settings = bot.resolved(rules)
        if not has_secret(game_hooks(rules)):
            settings["secrets"] = None
        full = MCTSBot(iterations, bot.seconds, workers=bot.workers, **settings)
        return full.spec
    return UCTBot(iterations, bot.seconds, bot.exploration).spec


def default_bot(game: str | AnyRules, players: int | None = None, **options: Any) -> str:
    """The bot a board gives a seat when a person asks for one without naming it ("bot"), in
    this game, player count and options: the game's choice (its hooks' `default_bot`, made on
    the evidence of the bots' strength at equal time), written out in full."""
    from .registry import make_rules

    if isinstance(game, str):
        if players is None:
            raise AloftnbError("default_bot needs players=... with a game's name")
        rules = make_rules(game, players, **options)
    else:
        rules = game
    return explicit_spec(make_bot(hooks_of(rules).default_bot(rules)), rules)


def bot_for(spec: str | Bot, rules: AnyRules) -> Bot:
    """`make_bot(spec)`, where the spec "bot" means this game's default bot (`default_bot`): what
    a person gets by asking for a bot without naming one (a board's seat menu, `simulate`)."""
    if isinstance(spec, str) and spec.strip() == "bot":
        return make_bot(default_bot(rules))
    return make_bot(spec)


def processes_available() -> bool:
    """Whether this Python can start worker processes (not in the browser's)."""
    return sys.platform != "emscripten"


def default_iterations(rules: AnyRules) -> int:
    """The iterations of an MCTS bot at its default budget, in this configured game: the game's
    `mcts_iterations` hook, else DEFAULT_ITERATIONS. Some modes cost far more per iteration, and
    each game's default must stay within the time its rules page gives a decision."""
    return game_hooks(rules).mcts_iterations(rules)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot,
                              "uct": UCTBot}
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
    """ "mcts:500", "mcts:2s", "mcts:500:1s:c1.4:mast:cut8", "uct:400", "greedy:4" -> (name,
    keyword arguments)."""
    if len(spec) > 100:
        raise AloftnbError(f"a bot spec is a short text like 'mcts:500', not {len(spec)} "
                           "characters")
    name, *parts = spec.strip().split(":")
    kwargs: dict[str, Any] = {}
    if not parts:
        return name, kwargs
    try:
        if name == "uct":
            for part in parts:
                if not _budget_part(part, kwargs):
                    raise ValueError
        elif name == "mcts":
            for part in parts:
                if not (_budget_part(part, kwargs) or read_setting(part, kwargs)):
                    raise ValueError
        elif name == "greedy" and len(parts) == 1:
            kwargs["samples"] = int(parts[0])
        else:
            raise ValueError
    except ValueError:
        raise AloftnbError(
            f"cannot read bot {_short_repr(spec)}: write e.g. 'random', 'greedy', 'greedy:4', "
            "'mcts', 'mcts:500' (iterations), 'mcts:0.5s' (seconds), 'mcts:500:0.5s', "
            "'mcts:1s:mast:cut8:w2' (settings, see MCTSBot) or 'uct:400'") from None
    return name, kwargs


def _budget_part(part: str, kwargs: dict[str, Any]) -> bool:
    """Reads "500" (iterations), "0.5s" (seconds) or "c1.4" (exploration) into kwargs."""
    if part.isdigit():
        kwargs["iterations"] = int(part)
    elif part.endswith("s") and _reads_as_number(part[:-1]):
        kwargs["seconds"] = float(part[:-1])  # "nans", "infs": read, then refused as not finite
    elif part.startswith("c") and not part.startswith("cut"):
        kwargs["exploration"] = float(part[1:])
    else:
        return False
    return True


def _reads_as_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


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
