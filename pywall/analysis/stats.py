"""Small, exact-where-possible statistics for the fairness audit (no SciPy).

Theory of operation
-------------------
* Chi-square p-values are the regularized upper incomplete gamma function,
  Q(dof/2, x/2), evaluated as in Numerical Recipes (2nd ed., 6.2): its series for
  x < a + 1 and Lentz's continued fraction otherwise, to about 1e-15 relative.
* A z-score compares a sum of observations with its exact expectation and exact
  variance (from the exact shanten distribution, or the hypergeometric law for
  dora); the two-sided p-value is erfc(|z| / sqrt 2).
* A chi-square test wants every expected count large enough (5 by the usual rule),
  so sparse neighbouring categories (the rare extremes of shanten) are merged first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pywall.core.errors import ValueInputError

_EPS = 1e-16
_TINY = 1e-300
_MAX_TERMS = 100_000


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    denom = a
    for _ in range(_MAX_TERMS):
        denom += 1.0
        term *= x / denom
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a), a > 0."""
    if a <= 0 or x < 0 or math.isnan(x):
        raise ValueInputError(f"gamma_q needs a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, x))
    return _gamma_q_fraction(a, x)


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom."""
    if dof < 1:
        raise ValueInputError(f"a chi-square test needs at least 1 degree of freedom, got {dof}")
    return gamma_q(dof / 2.0, max(0.0, statistic) / 2.0)


def two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def moments(counts: Mapping[int, int]) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of a value distributed as ``counts`` (value -> weight)."""
    total = sum(counts.values())
    if total <= 0:
        raise ValueInputError("a distribution needs a positive total weight")
    mean = Fraction(sum(v * w for v, w in counts.items()), total)
    square = Fraction(sum(v * v * w for v, w in counts.items()), total)
    return mean, square - mean * mean


def hypergeometric_moments(population: int, successes: int, draws: int) -> tuple[float, float]:
    """Mean and variance of the successes among ``draws`` taken from ``population``."""
    if not 0 <= successes <= population or not 0 <= draws <= population or population < 2:
        raise ValueInputError(f"no hypergeometric law for N={population}, K={successes}, n={draws}")
    share = successes / population
    mean = draws * share
    variance = draws * share * (1 - share) * (population - draws) / (population - 1)
    return mean, variance


@dataclass(frozen=True, slots=True)
class Bin:
    """Categories merged for a chi-square test: their label, observed and expected count."""

    label: str
    observed: int
    expected: float


@dataclass(frozen=True, slots=True)
class ChiSquare:
    statistic: float
    dof: int
    p_value: float
    bins: tuple[Bin, ...]


@dataclass(frozen=True, slots=True)
class ZScore:
    """A sum of observations against its exact expectation and standard deviation."""

    observed: float
    expected: float
    sd: float
    z: float
    p_value: float


def merge_sparse(
    labels: Sequence[str],
    observed: Sequence[int],
    expected: Sequence[float],
    min_expected: float = 5.0,
) -> tuple[Bin, ...]:
    """Merge neighbouring categories, in order, until each bin expects ``min_expected``.

    A short remainder at the end joins the last full bin. Labels of merged bins are
    joined with ``..`` (first..last).
    """
    if not len(labels) == len(observed) == len(expected):
        raise ValueInputError("labels, observed and expected counts differ in length")
    groups: list[list[int]] = []
    current: list[int] = []
    pending = 0.0
    for i, e in enumerate(expected):
        current.append(i)
        pending += e
        if pending >= min_expected:
            groups.append(current)
            current, pending = [], 0.0
    if current and groups:
        groups[-1].extend(current)
    elif current:
        groups.append(current)
    return tuple(
        Bin(_label(labels, g[0], g[-1]), sum(observed[i] for i in g), sum(expected[i] for i in g))
        for g in groups
    )


def _label(labels: Sequence[str], first: int, last: int) -> str:
    return labels[first] if first == last else f"{labels[first]}..{labels[last]}"


def chi_square(
    labels: Sequence[str],
    observed: Sequence[int],
    expected: Sequence[float],
    min_expected: float = 5.0,
) -> ChiSquare:
    """Pearson's chi-square test of observed counts against fully specified expected ones.

    Sparse categories are merged first (``merge_sparse``); dof = bins - 1. With a
    single bin there is nothing to test: statistic 0, dof 0, p-value 1.
    """
    bins = merge_sparse(labels, observed, expected, min_expected)
    if len(bins) < 2:
        return ChiSquare(0.0, 0, 1.0, bins)
    statistic = sum((b.observed - b.expected) ** 2 / b.expected for b in bins)
    return ChiSquare(statistic, len(bins) - 1, chi2_sf(statistic, len(bins) - 1), bins)


def z_score(observed: float, expected: float, variance: float) -> ZScore:
    """z = (observed - expected) / sd with its two-sided p-value."""
    if variance <= 0:
        raise ValueInputError("a z-score needs a positive variance")
    sd = math.sqrt(variance)
    z = (observed - expected) / sd
    return ZScore(observed, expected, sd, z, two_sided_p(z))


#: The two-sided normal quantile of a 95% range.
Z95 = 1.959963984540054
#: Below this p-value a result is "unusual" (one test in twenty under a fair shuffle).
UNUSUAL_P = 0.05


def fair_range(expected: float, variance: float, n: int) -> tuple[int, int]:
    """The counts a fair shuffle gives about 95% of the time: expected +- 1.96 sd, rounded
    to whole counts and kept within 0..n (the normal law of a sum of many draws' hits;
    tests/unit/test_audit_calibration.py checks its coverage on simulated games)."""
    sd = math.sqrt(max(variance, 0.0))
    low = max(0, round(expected - Z95 * sd))
    return low, max(low, min(n, round(expected + Z95 * sd)))


def reading(p: float | None, each: float) -> str:
    """Where a result falls, in one word for people: ``usual`` (p >= 0.05), ``unusual``,
    or ``very_unusual`` (p below ``each``, the threshold one test gets when the verdict
    splits it over a group's tests: such a result alone flags the group)."""
    if p is None or p >= UNUSUAL_P:
        return "usual"
    return "very_unusual" if p < each else "unusual"
