"""Comparing two variants of a game on the same seeds: which metrics moved beyond noise?"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import AloftnbError
from .metrics import metric_samples
from .simulation import simulate
from .stats import holm, two_proportion_test, welch_test


@dataclass
class Comparison:
    """Two variants' results and the metric-by-metric test. `moved` lists what changed."""

    game: str
    labels: tuple[str, str]
    results_a: pd.DataFrame
    results_b: pd.DataFrame
    table: pd.DataFrame  # index metric: a, b, change, p_value, moved, test
    alpha: float

    @property
    def moved(self) -> list[str]:
        return [str(m) for m, moved in self.table["moved"].items() if moved]

    def _lines(self) -> list[str]:
        a, b = self.labels
        n = len(self.results_a)
        lines = [f"{self.game}: A = {a} vs B = {b}, {n} games each on the same seeds",
                 f"moved beyond noise (Holm-corrected, family-wise error {self.alpha:g}):"]
        for metric in self.moved:
            row = self.table.loc[metric]
            lines.append(f"  {metric}: {row['a']:.3f} -> {row['b']:.3f} "
                         f"({row['change']:+.3f}, p={row['p_value']:.2g})")
        if not self.moved:
            lines.append("  nothing")
        still = [m for m in self.table.index if m not in self.moved]
        if still:
            lines.append("within noise: " + ", ".join(still))
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._lines())

    def _repr_html_(self) -> str:
        head = "".join(f"<p>{html.escape(line)}</p>" for line in self._lines()[:1])
        return head + self.table.to_html(float_format=lambda v: f"{v:.4g}")


def _label(variant: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in variant.items()) or "base"


def compare(game: str, a: dict[str, Any], b: dict[str, Any], *, players: int | None = None,
            bots: Any = None, games: int = 200, seed: int = 0, workers: int | None = None,
            executor: Any = None, progress: Any = True, alpha: float = 0.05,
            labels: tuple[str, str] | None = None, **options: Any) -> Comparison:
    """Run variants `a` and `b` on the same seeds and test every metric for a change.

    A variant is a dict of what differs from the shared settings: rule options, "players" or
    "bots". `compare("balloons", {"edition": "fixed"}, {"edition": "choice"}, players=3)`.
    Proportions (win rates, decisiveness, ties, errors) use a two-proportion z-test; means
    (duration, branching, lead changes, spread, scores, the game's measures) Welch's t-test.
    Holm's correction keeps the chance of any false "moved" at most `alpha` across all metrics.
    """
    for name, variant in (("a", a), ("b", b)):
        if not isinstance(variant, dict):
            raise AloftnbError(f"variant {name} must be a dict of settings, e.g. "
                               f"{{'edition': 'choice'}}, not {variant!r}")
    if not 0 < alpha < 1:
        raise AloftnbError(f"alpha must be between 0 and 1, not {alpha!r}")
    runs = []
    for variant in (a, b):
        settings = {"players": players, "bots": bots, **options, **variant}
        runs.append(simulate(game, games=games, seed=seed, workers=workers, executor=executor,
                             progress=progress, **settings))
    samples_a, samples_b = metric_samples(runs[0]), metric_samples(runs[1])
    rows, p_values = [], []
    for metric, (kind, values_a, _) in samples_a.items():
        if metric not in samples_b:
            continue
        values_b = samples_b[metric][1]
        mean_a = sum(values_a) / len(values_a) if values_a else math.nan
        mean_b = sum(values_b) / len(values_b) if values_b else math.nan
        if kind == "proportion":
            p = two_proportion_test(sum(values_a), len(values_a), sum(values_b), len(values_b))
            test = "two-proportion z"
        else:
            p = welch_test(values_a, values_b)
            test = "Welch t"
        rows.append({"metric": metric, "a": mean_a, "b": mean_b, "change": mean_b - mean_a,
                     "p_value": p, "test": test})
        p_values.append(p)
    moved = holm(p_values, alpha)
    for row, flag in zip(rows, moved):
        row["moved"] = flag
    table = pd.DataFrame(rows).set_index("metric")[["a", "b", "change", "p_value", "moved",
                                                    "test"]]
    return Comparison(game, labels or (_label(a), _label(b)), runs[0], runs[1], table, alpha)
