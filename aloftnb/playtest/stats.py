"""The few statistics playtesting needs, in plain Python (no SciPy).

Intervals: Wilson score for proportions, Student's t for means. Tests: two-proportion z-test,
Welch's t-test, and Holm's step-down correction when many metrics are tested at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction of the incomplete beta function (Numerical Recipes, modified Lentz).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf_two_sided(t: float, dof: float) -> float:
    """P(|T| > |t|) for Student's t with `dof` degrees of freedom."""
    if math.isinf(dof):
        return 2.0 * normal_sf(abs(t))
    return betainc(dof / 2.0, 0.5, dof / (dof + t * t))


def t_quantile_975(dof: float) -> float:
    """The 97.5% quantile of Student's t (bisection on the two-sided tail)."""
    if dof <= 0:
        return math.nan
    if dof > 1e6:
        return Z95
    low, high = Z95, 1000.0
    for _ in range(100):
        mid = (low + high) / 2.0
        if t_sf_two_sided(mid, dof) > 0.05:
            low = mid
        else:
            high = mid
    return (low + high) / 2.0


def wilson_interval(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sensible even at 0% or 100%)."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% Student-t interval."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, math.nan, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def two_proportion_test(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value that two proportions differ (pooled z-test)."""
    if n1 == 0 or n2 == 0:
        return math.nan
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0  # both all-or-nothing alike: no evidence of a difference
    z = (x1 / n1 - x2 / n2) / se
    return 2.0 * normal_sf(abs(z))


def welch_test(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value that two means differ (Welch's unequal-variance t-test)."""
    n1, n2 = len(a), len(b)
    if n1 < 2 or n2 < 2:
        return math.nan
    m1, m2 = sum(a) / n1, sum(b) / n2
    v1 = sum((x - m1) ** 2 for x in a) / (n1 - 1)
    v2 = sum((x - m2) ** 2 for x in b) / (n2 - 1)
    se2 = v1 / n1 + v2 / n2
    if se2 == 0:
        return 1.0 if m1 == m2 else 0.0
    t = (m1 - m2) / math.sqrt(se2)
    dof = se2 * se2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1)) if (
        v1 > 0 and v2 > 0) else (n1 - 1 if v2 == 0 else n2 - 1)
    return t_sf_two_sided(t, dof)


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which hypotheses Holm's step-down method rejects at family-wise error `alpha`."""
    order = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    rejected = [False] * len(p_values)
    m = len(order)
    for rank, (p, i) in enumerate(order):
        if p > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected
