"""The 95% intervals the reports give: of a proportion (Wilson) and of a mean (t), from scipy."""

from __future__ import annotations

import math

from ..language.errors import ParameterError


def _scipy_stats():
    try:
        from scipy import stats
    except ImportError:
        raise ParameterError("reports and comparisons need scipy, which the `report` extra brings: "
                             "pip install 'ruledsl[report]'") from None
    return stats


def proportion_ci(k: int, n: int) -> list:
    """The 95% Wilson interval of ``k`` successes in ``n`` trials (scipy's binomtest)."""
    if n == 0:
        return [0.0, 1.0]
    ci = _scipy_stats().binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [float(ci.low), float(ci.high)]


def mean_ci_of(n: int, total: float, squares: float) -> list:
    """The 95% t interval of a mean from its count, sum and sum of squares (what a run adds up)."""
    mean = total / n if n else 0.0
    if n < 2:
        return [mean, mean]
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    if var <= 1e-12 * max(1.0, mean * mean):
        return [mean, mean]
    low, high = _scipy_stats().t.interval(0.95, n - 1, loc=mean, scale=math.sqrt(var / n))
    return [float(low), float(high)]


def statistic_summary(share: bool, n: int, total: float, squares: float, intervals: bool = True) -> dict:
    """A `statistic` over ``n`` games: its mean (for true/false, the share of games where it held)
    and, when ``intervals`` and scipy is there, its 95% interval (Wilson for a share, t for a mean);
    else ``ci95`` is None."""
    out = {"kind": "share" if share else "mean", "games": n, "mean": total / n if n else 0.0, "ci95": None}
    if share:
        out["held"] = int(total)
    if intervals:
        try:
            out["ci95"] = proportion_ci(int(total), n) if share else mean_ci_of(n, total, squares)
        except ParameterError:
            pass
    return out


def _mean_ci(values: list) -> list:
    """The 95% t interval of the mean of ``values`` (scipy's t distribution)."""
    stats = _scipy_stats()
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return [mean, mean]
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    if sd == 0:
        return [mean, mean]
    low, high = stats.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    return [float(low), float(high)]
