"""The guided search's settings (MCTSBot's, core/bots.py): their defaults, their checks, how a
bot's settings are completed by the game's hooks, and the pieces a search builds from them (the
score bonus, the cut-short playout's reward, the root's prior).

Apart from the bot classes so that core/bots.py stays one read; nothing here knows a bot.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..errors import AloftnbError
from .hooks import AdoptedHooks, AnyHooks, GameHooks
from .options import _short_repr, number_problem, whole_number_problem
from .registry import hooks_of
from .rules import AnyRules

PLAYOUTS = ("mast", "eval", "random")  # how a guided search's playouts choose their moves
MAX_EXPLORATION = 10.0

# A guided search's settings where neither the bot nor the game's hooks give one. `cutoff` None:
# the game's PLAYOUT_DECISIONS (playouts to the end when it sets none).
SEARCH_DEFAULTS: dict[str, Any] = {
    "exploration": 0.7, "playout": "mast", "epsilon": 0.2, "tournament": 4, "cutoff": None,
    "widening": None, "prior": False, "bonus": 0.0, "secrets": True}
MAX_WORKERS = 64
MAX_TOURNAMENT = 64
MAX_CUTOFF = 10_000


def check_search_settings(settings: dict[str, Any], where: str) -> None:
    """AloftnbError naming the first bad setting of a guided search (None: not set)."""
    unknown = sorted(set(settings) - set(SEARCH_DEFAULTS))
    if unknown:
        raise AloftnbError(f"{where}: no search setting called {', '.join(unknown)} (settings: "
                           f"{', '.join(SEARCH_DEFAULTS)})")
    value = settings.get("playout")
    if value is not None and value not in PLAYOUTS:
        raise AloftnbError(f"{where} playout must be one of {', '.join(PLAYOUTS)}, not "
                           f"{_short_repr(value)}")
    checks: dict[str, Callable[[Any], str | None]] = {
        "exploration": lambda v: number_problem(v, 0, MAX_EXPLORATION),
        "epsilon": lambda v: number_problem(v, 0, 1),
        "tournament": lambda v: whole_number_problem(v, 1, MAX_TOURNAMENT),
        "cutoff": lambda v: whole_number_problem(v, 0, MAX_CUTOFF),
        "widening": lambda v: number_problem(v, 0, MAX_EXPLORATION),
        "bonus": lambda v: number_problem(v, 0, 1)}
    for name, check in checks.items():
        value = settings.get(name)
        problem = value is not None and check(value)
        if problem:
            raise AloftnbError(f"{where} {name} {problem}")
    for name in ("prior", "secrets"):
        value = settings.get(name)
        if value is not None and not isinstance(value, bool):
            raise AloftnbError(f"{where} {name} must be True or False, not {_short_repr(value)}")


def resolved_settings(rules: AnyRules, settings: dict[str, Any]) -> dict[str, Any]:
    """`settings` (None: not set) completed by the game's `search_settings`, then the
    defaults; a cutoff still None is the game's PLAYOUT_DECISIONS."""
    hooks = hooks_of(rules)
    game = dict(hooks.search_settings(rules))
    check_search_settings(game, f"{rules.name}'s search_settings")
    out = dict(SEARCH_DEFAULTS)
    out.update({k: v for k, v in game.items() if v is not None})
    out.update({k: v for k, v in settings.items() if v is not None})
    if out["cutoff"] is None:
        out["cutoff"] = hooks.PLAYOUT_DECISIONS
    if not out["widening"]:
        out["widening"] = None  # 0: no widening
    out["exploration"] = float(out["exploration"])
    out["epsilon"] = float(out["epsilon"])
    return out


def scored_rivals(rules: AnyRules) -> bool:
    """Whether seats compete on points (a score bonus means something there)."""
    traits = rules.traits
    return rules.players > 1 and traits.utility == "scores" and not traits.cooperative


def with_score_bonus(rewards: Callable[[AnyRules, Any], Any], bonus: float
                     ) -> Callable[[AnyRules, Any], dict[int, float]]:
    """`rewards` blended with each seat's margin over its rivals' mean final score, as a share
    of all the points scored, mapped to 0..1 around 0.5."""
    keep = 1.0 - bonus

    def blended(rules: AnyRules, state: Any) -> dict[int, float]:
        base = rewards(rules, state)
        scores = rules.scores(state)
        players = rules.players
        total = sum(scores.values())
        scale = max(1.0, float(sum(abs(v) for v in scores.values())))
        sign = 0.5 if rules.higher_score_wins else -0.5
        out = {}
        for seat in range(players):
            mine = scores[seat]
            margin = (mine - (total - mine) / (players - 1)) / scale
            out[seat] = keep * float(base[seat]) + bonus * (0.5 + sign * margin)
        return out

    return blended


def has_estimate(hooks: AnyHooks) -> bool:
    """Whether the game's hooks define their own `estimate`."""
    if isinstance(hooks, AdoptedHooks):
        return hooks.has_estimate
    return type(hooks).estimate is not GameHooks.estimate


def has_secret(hooks: AnyHooks) -> bool:
    """Whether the game's hooks say what a seat alone knows (`secret`)."""
    return type(hooks).secret is not GameHooks.secret


def evaluation_estimate(rules: AnyRules, state: Any) -> dict[int, float]:
    """A cut-short playout's reward where the game has no `estimate`: each seat's share of
    rivals whose evaluation it beats (ties half), from the game's `evaluate`; 0.5 alone."""
    if rules.players == 1:
        return {0: 0.5}
    hooks = hooks_of(rules)
    values = [hooks.evaluate(rules, state, seat) for seat in range(rules.players)]
    rivals = rules.players - 1
    return {seat: sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                      for other_seat, other in enumerate(values) if other_seat != seat) / rivals
            for seat, mine in enumerate(values)}


def evaluation_order(rules: AnyRules, state: Any, seat: int, rng: random.Random,
                     stop: Callable[[], bool] | None, deadline: float | None) -> dict[Any, int]:
    """The root's prior: `seat`'s legal actions ranked by the game's evaluation of where each
    leads, in one determinized world (best first, ties in legal order). Stops ranking when the
    time or `stop` runs out: the actions not reached rank after the others."""
    world = rules.determinize(state, seat, rng)
    hooks = hooks_of(rules)
    scored: list[tuple[float, int, Any]] = []
    for place, action in enumerate(rules.legal_actions(state)):
        if place % 16 == 15 and ((deadline is not None and time.perf_counter() >= deadline)
                                  or (stop is not None and stop())):
            break
        scored.append((-hooks.evaluate(rules, rules.apply(world, action), seat), place, action))
    scored.sort(key=lambda item: (item[0], item[1]))
    return {action: rank for rank, (_, _, action) in enumerate(scored)}


def read_setting(part: str, kwargs: dict[str, Any]) -> bool:
    """Reads one part of a guided search's spec ("mast", "e0.1", "t4", "cut8", "pw1.5",
    "prior", "noprior", "secrets", "nosecrets", "w4", "b0.3") into kwargs; False when the part
    is none of them."""
    if part in PLAYOUTS:
        kwargs["playout"] = part
    elif part in ("prior", "noprior"):
        kwargs["prior"] = part == "prior"
    elif part in ("secrets", "nosecrets"):
        kwargs["secrets"] = part == "secrets"
    elif part.startswith("cut"):
        kwargs["cutoff"] = int(part[3:])
    elif part.startswith("pw"):
        kwargs["widening"] = float(part[2:])
    elif part.startswith("e"):
        kwargs["epsilon"] = float(part[1:])
    elif part.startswith("t"):
        kwargs["tournament"] = int(part[1:])
    elif part.startswith("w"):
        kwargs["workers"] = int(part[1:])
    elif part.startswith("b"):
        kwargs["bonus"] = float(part[1:])
    else:
        return False
    return True
