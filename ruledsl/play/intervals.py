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
