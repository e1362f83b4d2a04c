"""Observations as numpy arrays for the adapters, filled from an encoding's non-zero entries
(aloftnb.kit.observations) when the game declares them, else from `rules.observation`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.rules import Rules


def entries_function(rules: Rules) -> Callable[..., Any] | None:
    """The encoding's `observation_entries(rules, view, seat)`, if the game builds its
    observation from that module (and does not override `Rules.observation`); else None."""
    if type(rules).observation is not Rules.observation:
        return None
    function: Callable[..., Any] | None = rules._encoding_function("observation_entries", "")
    return function


def fill(flat: np.ndarray, rules: Rules, state: Any, seat: int,
         entries: Callable[..., Any] | None) -> np.ndarray:
    """Write `seat`'s observation of `state` into the flat float32 array `flat` (the same
    numbers as `rules.observation`, as float32)."""
    if entries is None:
        flat[:] = rules.observation(state, seat)
        return flat
    ones, positions, values = entries(rules, rules.view(state, seat), seat)
    flat.fill(0.0)
    flat[ones] = 1.0
    flat[positions] = values
    return flat
