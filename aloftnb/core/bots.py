"""Bots: one interface, usable at any seat of a match, a board or a simulation.

A bot sees what its seat may see. It gets the rules, the full state and its seat, and must read
the state only through `rules.view(state, seat)`, `rules.legal_actions(state)` (legal actions are
public in every game here) and `rules.determinize(state, seat, rng)`, which resamples what the seat
cannot see. Searching bots run on determinized states, so they never read hidden information.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import AloftnbError
from .action import Action
from .rules import Rules


class Bot:
    """Base class. Subclasses implement `choose`; `name` is what logs and tables show."""

    name = "bot"

    def choose(self, rules: Rules, state: Any, seat: int, rng: random.Random) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, rules: Rules, state: Any, seat: int, rng: random.Random) -> Action:
        actions = rules.legal_actions(state)
        return actions[int(rng.random() * len(actions))]


BOTS: dict[str, type[Bot]] = {"random": RandomBot}


def make_bot(spec: str | Bot, **kwargs: Any) -> Bot:
    """A bot from its name ("random", ...) or a Bot instance, returned as is."""
    if isinstance(spec, Bot):
        return spec
    if not isinstance(spec, str) or spec not in BOTS:
        known = ", ".join(sorted(BOTS))
        raise AloftnbError(f"no bot called {spec!r} (bots: {known})")
    return BOTS[spec](**kwargs)
