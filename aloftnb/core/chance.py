"""Chance steps: the constant that marks them and the seed streams that resolve them.

A game is at a chance step when `rules.current_player(state) == CHANCE`: nobody decides; an
outcome is drawn (a die, a shuffled stack). Every consumer resolves chance the same way: the
outcome of the chance step taken after `step` earlier steps of a game with seed `seed` is drawn
from `chance_rng(seed, step)`. So a `Match`, `simulate` and a replay of simulation results draw
the same outcomes from the same seed, whatever worker or executor plays the game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar

CHANCE: Final = -1
"""`current_player` at a chance step (OpenSpiel's kChancePlayerId): never a seat."""

T = TypeVar("T")


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts, the same on every machine and Python version."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator that resolves the chance step reached after `step` steps of a game."""
    return random.Random(derive_seed("aloftnb.chance", seed, step))


def weighted_choice(outcomes: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One outcome of a list of (outcome, probability), drawn with `rng`."""
    if not outcomes:
        raise ValueError("a chance step needs at least one outcome")
    point = rng.random() * sum(p for _, p in outcomes)
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]  # rounding left a sliver at the top
