"""Chance steps: the constant that marks them, the seed streams that resolve them, and compiled
`shuffle` and `sample` (set-ups and the bots' determinizations draw with them at every game and
every MCTS iteration).

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


def shuffle(items: list[Any], rng: random.Random) -> None:
    """`rng.shuffle(items)`: the same draws and the same order, but compiled in the compiled
    build (random.shuffle is Python). It is random.Random's algorithm: from the end, each place
    swaps with one drawn below it by getrandbits; tests check it against rng.shuffle. A
    generator of another class shuffles the list itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def sample(population: list[Any], k: int, rng: random.Random) -> list[Any]:
    """`rng.sample(population, k)`, compiled like `shuffle`: random.Random's algorithm for a
    population of up to 21 (a pool it draws from by getrandbits, moving the last unchosen item
    into each gap); tests check it against rng.sample. Larger populations and other generator
    classes use rng.sample itself."""
    n = len(population)
    if type(rng) is not random.Random or n > 21 or not 0 <= k <= n:
        return rng.sample(population, k)
    pool = list(population)
    result = []
    for i in range(k):
        j = _below(rng, n - i)
        result.append(pool[j])
        pool[j] = pool[n - i - 1]
    return result


def _below(rng: random.Random, n: int) -> int:
    """A whole number in 0..n-1, as random.Random's _randbelow draws it (n > 0): getrandbits of
    n's width until one is below n."""
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j
