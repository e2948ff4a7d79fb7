"""The 95% intervals of a match's figures: Wilson's for a share of deals won, Student's t
for a mean score. `cardavia match` and the project's strength benchmark share them, so a
bot's figures and the service's own levels' are read the same way."""

from __future__ import annotations

import math

Z95 = 1.959964  # two-sided 95% quantile of the normal distribution
# Two-sided 95% quantiles of Student's t by degrees of freedom; 1.96 beyond 120.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
       16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042,
       40: 2.021, 60: 2.000, 120: 1.980}


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion k/n. k may be fractional (a shared win counted
    as a share of one): the interval then errs on the wide side."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def t95(df: int) -> float:
    """The t quantile of the largest tabulated df not above `df` (so never too small)."""
    if df < 1:
        return math.inf
    if df > max(T95):
        return Z95
    return T95[max(d for d in T95 if d <= df)]


def mean_ci(values: list[float]) -> tuple[float | None, tuple[float, float] | None]:
    """Mean and its 95% interval, mean ± t(n-1) · sd/√n, over independent per-deal values."""
    n = len(values)
    if not n:
        return None, None
    mean = sum(values) / n
    if n < 2:
        return mean, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)
