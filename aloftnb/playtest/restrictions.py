"""Restrictions for restricted play: `Restriction` (a name and a predicate that bars actions),
`RestrictedBot` (any bot choosing only among the actions a restriction leaves), reading the
restrictions a caller or a game's hooks give (`resolve_restrictions`), and replaying a played game
to count how often a restriction applied and was forced (`restriction_tally`).

No pandas here: worker processes import this module to play restricted games.
"""

from __future__ import annotations

import copy
import inspect
import itertools
import pickle
import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..core.action import Action
from ..core.bots import Bot, make_bot
from ..core.chance import CHANCE, chance_rng, derive_seed
from ..core.hooks import RestrictionPredicate
from ..core.options import _short_repr
from ..core.registry import hooks_of, make_rules
from ..core.rules import AnyRules
from ..errors import AloftnbError, InvalidRestriction
from .runner import game_seed

__all__ = ["RestrictedBot", "Restriction", "Tally", "probe_restrictions", "resolve_restrictions",
           "restriction_tally"]

# Restrictions whose predicate cannot be pickled (a lambda, a function of a notebook cell), by
# key: forked workers inherit this table, so they find them here.
_LOCAL: dict[int, Restriction] = {}
_KEYS = itertools.count()
# Restrictions rebuilt from a game's hooks in a worker, so each is built once per process.
_FROM_HOOKS: dict[tuple[str, int, str, str], Restriction] = {}


def _takes_state(name: str, bars: Callable[..., object]) -> bool:
    """Whether `bars` reads (state, action) rather than the action alone."""
    try:
        signature = inspect.signature(bars)
    except (TypeError, ValueError):  # a callable without a readable signature: the action form
        return False
    for arguments, with_state in ((1, False), (2, True)):
        try:
            signature.bind(*[None] * arguments)
            return with_state
        except TypeError:
            continue
    raise InvalidRestriction(f"restriction {name!r}: its predicate{signature} cannot be called "
                             "as bars(action) or bars(state, action)")


class Restriction:
    """A named strategy to bar: `bars(action)`, or `bars(state, action)`, is True for an action
    the restricted seat may not play. `source` (game, players, options) marks one suggested by a
    game's hooks, which a worker process rebuilds from there."""

    __slots__ = ("_key", "bars", "name", "source", "with_state")

    def __init__(self, name: str, bars: RestrictionPredicate,
                 source: tuple[str, int, dict[str, Any]] | None = None) -> None:
        if not isinstance(name, str) or not name.strip():
            raise InvalidRestriction(f"a restriction's name must be a non-empty text, not "
                                     f"{_short_repr(name)}")
        if not callable(bars):
            raise InvalidRestriction(
                f"restriction {name!r}: its predicate must be a function of the action (or of the "
                f"state and the action), not {_short_repr(bars)}")
        self.name = name
        self.bars: Callable[..., object] = bars
        self.with_state = _takes_state(name, bars)
        self.source = source
        self._key: int | None = None

    def barred(self, state: Any, action: Action) -> bool:
        """Whether the restriction bars `action` in `state`; InvalidRestriction naming it when
        the predicate raises."""
        try:
            return bool(self.bars(state, action) if self.with_state else self.bars(action))
        except Exception as exc:  # noqa: BLE001 - any failure of the designer's predicate
            raise InvalidRestriction(f"restriction {self.name!r} raised {type(exc).__name__} "
                                     f"asked about the action {action}: {exc}") from exc

    @property
    def portable(self) -> bool:
        """Whether any worker process can rebuild it (not only forked ones)."""
        return self.source is not None or _pickles(self.bars)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.source is not None:
            game, players, options = self.source
            return (_from_hooks, (game, players, options, self.name))
        if _pickles(self.bars):
            return (Restriction, (self.name, self.bars))
        return (_local, (self.local_key(), self.name))

    def local_key(self) -> int:
        """Its key in this process's table of restrictions, which forked workers inherit: taken
        before the workers are forked, so they find it."""
        if self._key is None:
            self._key = next(_KEYS)
            _LOCAL[self._key] = self
        return self._key

    def __repr__(self) -> str:
        form = "state, action" if self.with_state else "action"
        return f"Restriction({self.name!r}, bars({form}))"


def _pickles(value: object) -> bool:
    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001 - pickling fails in many ways (lambdas, closures, locals)
        return False
    return True


def _from_hooks(game: str, players: int, options: dict[str, Any], name: str) -> Restriction:
    key = (game, players, repr(sorted(options.items())), name)
    restriction = _FROM_HOOKS.get(key)
    if restriction is None:
        rules = make_rules(game, players, **options)
        suggested = hooks_of(rules).restrictions(rules)
        restriction = _FROM_HOOKS[key] = Restriction(name, suggested[name],
                                                     (game, players, options))
    return restriction


def _local(key: int, name: str) -> Restriction:
    restriction = _LOCAL.get(key)
    if restriction is None:
        raise InvalidRestriction(
            f"restriction {name!r}: its predicate (a lambda, or a function defined in a notebook "
            "cell) cannot reach worker processes that were not forked from this one; define it "
            "in a module, or play with workers=1")
    return restriction


def _narrowed(rules: AnyRules, restriction: Restriction, seat: int) -> AnyRules:
    """A shallow copy of `rules` whose `legal_actions` leaves out what `restriction` bars in every
    state where `seat` decides (all of them when it would bar every one). A searching bot given
    it keeps to the restriction in its own search too, not only at the move it plays. The copy is
    the bot's own: the rules it came from, perhaps shared with a board, are never changed."""
    try:
        narrowed = copy.copy(rules)
    except Exception as exc:  # noqa: BLE001 - a rules class that refuses copying
        raise AloftnbError(f"{type(rules).__name__} cannot be copied ({exc}): a restricted bot "
                           "cannot narrow its legal actions") from None
    compute, player_of, barred = rules.legal_actions, rules.current_player, restriction.barred

    def legal_actions(state: Any) -> list[Any]:
        actions: list[Any] = compute(state)
        if player_of(state) != seat:
            return actions
        kept = [a for a in actions if not barred(state, a)]
        return kept or actions

    try:
        narrowed.legal_actions = legal_actions  # type: ignore[method-assign]
    except AttributeError:
        raise AloftnbError(f"{type(rules).__name__} has __slots__: a restricted bot cannot "
                           "narrow its legal actions") from None
    return narrowed


class RestrictedBot(Bot):
    """`bot` playing under `restriction`: it chooses among the legal actions the restriction does
    not bar. RULING: when it bars every legal action, the bot chooses among all of them, as it
    would unrestricted, and the decision counts as forced (`restriction_tally`).

    The wrapped bot is given a copy of the rules whose `legal_actions` leaves out the barred
    actions wherever this seat decides (every built-in bot reads its choices there), so a
    searching bot such as MCTS keeps to the restriction in the futures it imagines as well as in
    the move it plays. The rules it is given are never changed.
    """

    def __init__(self, bot: str | Bot, restriction: Restriction) -> None:
        if not isinstance(restriction, Restriction):
            raise InvalidRestriction(f"a RestrictedBot needs a Restriction, not "
                                     f"{_short_repr(restriction)}")
        self.bot = make_bot(bot)
        self.restriction = restriction
        # The narrowed copy of the last rules and seat it played for: a simulation plays many
        # moves with one rules object, so the copy is made once, not at every move.
        self._narrowed: tuple[AnyRules, int, AnyRules] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # A worker process makes its own narrowed copy (the copy's filter is a local function).
        return {**self.__dict__, "_narrowed": None}

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.bot.name} [{self.restriction.name}]"

    @property
    def budget(self) -> str:  # type: ignore[override]
        return self.bot.budget

    @property
    def spec(self) -> str:
        return f"{self.bot.spec} [{self.restriction.name}]"

    def _kept(self, state: Any, actions: list[Action]) -> list[int] | None:
        """Where the actions the restriction leaves are; None when it leaves all or none."""
        kept = [i for i, a in enumerate(actions) if not self.restriction.barred(state, a)]
        return None if not kept or len(kept) == len(actions) else kept

    def _rules_for(self, rules: AnyRules, seat: int) -> AnyRules:
        cached = self._narrowed
        if cached is None or cached[0] is not rules or cached[1] != seat:
            cached = self._narrowed = (rules, seat, _narrowed(rules, self.restriction, seat))
        return cached[2]

    def choose(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
               stop: Callable[[], bool] | None = None) -> Action:
        return self.bot.choose(self._rules_for(rules, seat), state, seat, rng, stop)

    def choose_index(self, rules: AnyRules, state: Any, seat: int, rng: random.Random,
                     actions: list[Action]) -> int:
        kept = self._kept(state, actions)
        # RULING: every legal action barred -> the bot chooses among them all (a forced decision,
        # counted by restriction_tally); nothing barred -> the bot's own choice among them all.
        # Either way a searching bot plans its later moves under the restriction.
        narrowed = self._rules_for(rules, seat)
        if kept is None:
            return self.bot.choose_index(narrowed, state, seat, rng, actions)
        choice = self.bot.choose_index(narrowed, state, seat, rng, [actions[i] for i in kept])
        return kept[choice]

    def __repr__(self) -> str:
        return f"RestrictedBot({self.bot!r}, {self.restriction!r})"


def resolve_restrictions(rules: AnyRules, restrictions: Any) -> list[Restriction]:
    """The restrictions to play: the game's suggestions (None), a dict {name: predicate}, or a
    list of Restrictions, (name, predicate) pairs and names of the game's suggestions."""
    suggested = hooks_of(rules).restrictions(rules)
    if not isinstance(suggested, Mapping):
        raise InvalidRestriction(f"{rules.name}'s hooks' restrictions() must give a dict "
                                 f"{{name: predicate}}, not {_short_repr(suggested)}")
    source = (rules.name, rules.players, dict(rules.options))
    if restrictions is None:
        if not suggested:
            raise InvalidRestriction(
                f"{rules.name} suggests no restrictions (its hooks' restrictions() is empty): "
                "pass some, e.g. restrictions={'never passes': lambda action: action.type == "
                "'pass'}")
        items = [Restriction(name, bars, source) for name, bars in suggested.items()]
    elif isinstance(restrictions, Mapping):
        items = [Restriction(name, bars) for name, bars in restrictions.items()]
    else:
        if isinstance(restrictions, (str, Restriction)) or not hasattr(restrictions, "__iter__"):
            restrictions = [restrictions]
        items = []
        for item in restrictions:
            if isinstance(item, Restriction):
                items.append(item)
            elif isinstance(item, str):
                if item not in suggested:
                    known = ", ".join(repr(n) for n in suggested) or "none"
                    raise InvalidRestriction(f"{rules.name} suggests no restriction {item!r} "
                                             f"(it suggests: {known})")
                items.append(Restriction(item, suggested[item], source))
            elif isinstance(item, tuple) and len(item) == 2:
                items.append(Restriction(*item))
            else:
                raise InvalidRestriction(
                    "a restriction is a name of the game's suggestions, a (name, predicate) "
                    f"pair or a Restriction, not {_short_repr(item)}")
    names = [r.name for r in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InvalidRestriction(f"restriction {twice[0]!r} is given twice")
    if not items:
        raise InvalidRestriction("no restrictions given")
    return items


def probe_restrictions(rules: AnyRules, restrictions: list[Restriction], seed: int = 0,
                       decisions: int = 200) -> dict[str, int]:
    """Ask every restriction about every legal action along one random game (at most
    `decisions` decisions): how many actions each barred. A predicate that raises gives an
    InvalidRestriction naming it, before any game is simulated."""
    rng = random.Random(derive_seed("aloftnb.restrictions", seed))
    seed = game_seed(seed, 0)
    state = rules.initial_state(seed)
    counts = {r.name: 0 for r in restrictions}
    steps = made = 0
    while not rules.is_over(state) and made < decisions:
        if rules.current_player(state) == CHANCE:
            state = rules.apply(state, rules.sample_chance(state, chance_rng(seed, steps)))
        else:
            actions = rules.legal_actions(state)
            for restriction in restrictions:
                counts[restriction.name] += sum(restriction.barred(state, a) for a in actions)
            state = rules.apply(state, actions[int(rng.random() * len(actions))])
            made += 1
        steps += 1
    return counts


class Tally(NamedTuple):
    """One seat's decisions in one game under a restriction."""

    decisions: int  # decisions the seat made
    applied: int  # decisions at which the restriction barred at least one legal action
    forced: int  # decisions at which it barred every legal action (the seat played anyway)
    broken: int  # barred actions played when something else was allowed (a bot ignoring it)


def restriction_tally(rules: AnyRules, restriction: Restriction, seed: int, moves: str,
                      seat: int) -> Tally:
    """Replay a simulated game (its game seed and `moves` column) and count, for `seat`, the
    decisions at which `restriction` applied and those at which it was forced."""
    state = rules.initial_state(seed)
    decisions = applied = forced = broken = steps = 0
    tokens = moves.split()
    for token in tokens:
        while rules.current_player(state) == CHANCE:
            state = rules.apply(state, rules.sample_chance(state, chance_rng(seed, steps)))
            steps += 1
        actions = rules.legal_actions(state)
        choice = int(token)
        action = actions[choice]
        if rules.current_player(state) == seat:
            barred = [restriction.barred(state, a) for a in actions]
            decisions += 1
            if any(barred):
                applied += 1
                if all(barred):
                    forced += 1
                elif barred[choice]:
                    broken += 1
        state = rules.apply(state, action)
        steps += 1
    return Tally(decisions, applied, forced, broken)
