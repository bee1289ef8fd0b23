"""Small, exact-where-possible statistics for the fairness audit (no SciPy).

Theory of operation
-------------------
* One answer everywhere: the CLI runs on CPython with the host's C library, the page on
  Pyodide (WebAssembly, musl), and their ``math.exp``, ``math.log``, ``math.lgamma`` and
  ``math.erfc`` differ in the last bits. So every p-value here is computed with IEEE
  operations only (+ - * /, ``math.sqrt``, ``math.ldexp``, comparisons, ints), which give
  the same bits on every platform: ``exp`` by Cody-Waite range reduction (x = k ln 2 + r,
  ln 2 split in a 32-bit head and a tail, so k * head is exact; |r| <= ln 2 / 2) and a
  Taylor polynomial of degree 13, scaled by 2**k with ``ldexp``.
* Chi-square p-values, Q(dof / 2, x / 2) (the regularized upper incomplete gamma), in
  closed form for whole dof: even dof 2k, Q(k, y) = e^-y sum_{j<k} y^j / j!; odd dof
  2k + 1, Q(k + 1/2, y) = Q(1/2, y) + e^-y sum_{j<k} y^(j + 1/2) / Gamma(j + 3/2), where
  Q(1/2, y) = erfc(sqrt y) comes from its series for y < 1.5 and Lentz's continued
  fraction otherwise (Numerical Recipes, 2nd ed., 6.2). Every term is positive; the sums
  carry their own power of two (``ldexp``), so p-values far below 1e-300 come out right
  (or as 0.0 where a double ends) and no intermediate overflows.
* A z-score compares a sum of observations with its exact expectation and exact
  variance (from the exact shanten distribution, or the hypergeometric law for
  dora); the two-sided p-value is erfc(|z| / sqrt 2) = Q(1/2, z^2 / 2), with e^(-z^2/2)
  taken as e^(-s^2/2) e^(-(z - s)(z + s)/2) for s = z cut to 26 bits (s^2 is exact), so
  large |z| lose nothing to the rounding of z^2.
* Accuracy against 40- to 60-digit references (tests/unit/test_stats.py holds the
  bounds in brackets): ``exp`` within 0.65 units in the last place (2); ``erfc`` within
  2.7e-15 relative over 0..26.5 (1e-14); ``two_sided_p`` within 5.8e-15 for p down to
  1e-300 (1e-14), then subnormal and 0.0; chi-square p-values within 4.1e-15 for dof 1 to
  4,455, the audit's largest table, from p near 1 to below 1e-300 (1e-13).
* Sums of floats whose order is not fixed by a loop (``exact_sum``) are exact, rounded
  once: Python 3.12 made ``sum()`` of floats compensated, so the built-in gives other
  bits on 3.11.
* A chi-square test wants every expected count large enough (5 by the usual rule),
  so sparse neighbouring categories (the rare extremes of shanten) are merged first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pywall.core.errors import ValueInputError

_EPS = 1e-16
_TINY = 1e-300
_MAX_TERMS = 1_000
#: The largest dof ``chi2_sf`` takes: its closed forms add dof / 2 terms (the audit's
#: largest table, a 4-player wall's positions, has 4,455).
MAX_DOF = 100_000

# ln 2 = _LN2_HI + _LN2_LO: the head has 32 significant bits, so k * _LN2_HI is exact for
# |k| < 2**21 (tests/unit/test_stats.py derives both from a 50-digit ln 2)
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.4426950408889634
#: 1 / sqrt(pi), correctly rounded
_INV_SQRT_PI = 0.5641895835477563
#: 1/2!, 1/3!, ... 1/13!, correctly rounded (Fraction to float is), highest first
_EXP_TAYLOR = tuple(float(Fraction(1, math.factorial(n))) for n in range(13, 1, -1))
#: past these, exp overflows or is 0.0
_EXP_MAX = 709.782712893384
_EXP_MIN = -745.2
#: the power of two the closed forms' sums shed when they grow past it
_SCALE = 600
_BIG = math.ldexp(1.0, _SCALE)


def _exp_parts(x: float) -> tuple[float, int]:
    """e**x as (m, k), e**x = m * 2**k with m in [0.7, 1.42]; x finite, |x| < 2**20."""
    k = math.floor(x * _INV_LN2 + 0.5)
    r = (x - k * _LN2_HI) - k * _LN2_LO
    poly = 0.0
    for c in _EXP_TAYLOR:
        poly = poly * r + c
    return 1.0 + (r + r * r * poly), k


def exp(x: float) -> float:
    """e**x from IEEE operations only: the same bits on every platform, within 2 units
    in the last place of the true value."""
    if math.isnan(x):
        return x
    if x > _EXP_MAX:
        return math.inf
    if x < _EXP_MIN:
        return 0.0
    m, k = _exp_parts(x)
    return math.ldexp(m, k)


def _exp_neg_square(x: float, half: bool) -> tuple[float, int]:
    """e^(-x^2) (or e^(-x^2/2) when ``half``) as (m, k), for 0 <= x <= 40: x = s + t
    with s of 26 bits, so s^2 is exact and only the small (x - s)(x + s) is rounded."""
    m, e = math.frexp(x)
    s = math.ldexp(math.floor(math.ldexp(m, 26)), e - 26)
    head, tail = s * s, (x - s) * (x + s)
    if half:
        head, tail = head * 0.5, tail * 0.5
    m, k = _exp_parts(-head)
    # e^-tail for 0 <= tail < x^2 2**-24 < 1e-4: its series to tail^4 / 4! (the next term
    # is below 1e-22)
    t = -tail
    return m * (1.0 + t * (1.0 + t * (0.5 + t * (_EXP_TAYLOR[-2] + t * _EXP_TAYLOR[-3])))), k


def _half_series(y: float) -> float:
    """sum_{j>=0} y^j / ((1/2)(3/2)...(j + 1/2)): P(1/2, y) = e^-y sqrt(y / pi) times it."""
    term = total = 2.0
    denom = 0.5
    for _ in range(_MAX_TERMS):
        denom += 1.0
        term *= y / denom
        total += term
        if term < total * _EPS:
            break
    return total


def _half_fraction(y: float) -> float:
    """Q(1/2, y) = e^-y sqrt(y / pi) h for y >= 1.5: h by Lentz's continued fraction."""
    b = y + 0.5
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - 0.5)
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
    return h


def _closed_form(dof: int, y: float, e: tuple[float, int]) -> float:
    """Q(dof / 2, y) for whole dof >= 1, y > 0 finite, e = e^-y as ``_exp_parts`` gives it.

    The head's terms, y^j / j! (even) or y^j / ((1/2)(3/2)...(j + 1/2)) (odd), are added
    scaled by 2**-scale; the result is e^-y times them, with sqrt(y / pi) for odd dof.
    """
    m, k = e
    odd = dof % 2
    terms = dof // 2
    if odd and y < 1.5:
        root = math.sqrt(y) * _INV_SQRT_PI * math.ldexp(m, k)
        whole = 1.0 - root * _half_series(y)
        total = term = 2.0
        for j in range(1, terms):
            term *= y / (j + 0.5)
            total += term
            if term < total * 1e-19:
                break  # y < 1.5: the rest falls faster than geometrically
        return min(1.0, max(0.0, whole + root * total if terms else whole))
    term = 2.0 if odd else 1.0  # the head's first term, j = 0
    total = (_half_fraction(y) if odd else 0.0) + (term if terms else 0.0)
    scale = 0
    for j in range(1, terms):
        term *= y / (j + 0.5 if odd else j)
        total += term
        if total > _BIG:
            term, total = math.ldexp(term, -_SCALE), math.ldexp(total, -_SCALE)
            scale += _SCALE
        elif j > y and term < total * 1e-19:
            break  # the rest, falling faster than geometrically, is below the last bit
    if odd:
        total *= math.sqrt(y) * _INV_SQRT_PI
    return min(1.0, math.ldexp(total * m, k + scale))


def _upper_tail(dof: int, y: float) -> float:
    if y == 0:
        return 1.0
    if y >= 2**20 or y == math.inf:  # below 2**-1074 for every dof up to MAX_DOF
        return 0.0
    return _closed_form(dof, y, _exp_parts(-y))


def gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a), for the
    chi-square's a: a positive multiple of 1/2 (a = dof / 2, dof <= ``MAX_DOF``)."""
    if not float(2 * a).is_integer() or not 1 <= 2 * a <= MAX_DOF or x < 0 or math.isnan(x):
        raise ValueInputError(
            f"gamma_q needs a = 1/2, 1, 3/2, ... up to {MAX_DOF // 2:,} and x >= 0, got a={a}, x={x}"
        )
    return _upper_tail(int(2 * a), x)


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom."""
    if not 1 <= dof <= MAX_DOF:
        raise ValueInputError(
            f"a chi-square test needs 1 to {MAX_DOF:,} degrees of freedom, got {dof}"
        )
    if math.isnan(statistic):
        raise ValueInputError("a chi-square statistic must be a number")
    return _upper_tail(dof, max(0.0, statistic) * 0.5)


def _q_half_square(x: float, half: bool) -> float:
    """Q(1/2, x^2) = erfc(x) (or Q(1/2, x^2/2) = erfc(x / sqrt 2) when ``half``), x >= 0."""
    if x == 0:
        return 1.0
    if x > 40:  # erfc(28) < 2**-1074
        return 0.0
    y = x * x * 0.5 if half else x * x
    return _closed_form(1, y, _exp_neg_square(x, half))


def erfc(x: float) -> float:
    """The complementary error function from IEEE operations only (see the module's notes)."""
    if math.isnan(x):
        return x
    if x < 0:
        return 2.0 - _q_half_square(-x, False)
    return _q_half_square(x, False)


def two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z: erfc(|z| / sqrt 2), without rounding |z| / sqrt 2."""
    if math.isnan(z):
        raise ValueInputError("a z-score must be a number")
    return _q_half_square(abs(z), True)


#: ``critical_z``'s answers: the audit asks for a few thresholds many times (each group's share).
_CRITICAL: dict[float, float] = {}


def critical_z(p: float) -> float:
    """The |z| whose two-sided p-value is ``p`` (0 < p < 1): the largest z with
    ``two_sided_p(z) >= p``, found by bisection on ``two_sided_p`` until the bounds are
    neighbouring floats, so IEEE operations only (the same bits on every platform, where
    an inverse built on ``math.log`` would not be)."""
    if not 0.0 < p < 1.0:
        raise ValueInputError(f"a two-sided p-value must be between 0 and 1, got {p}")
    known = _CRITICAL.get(p)
    if known is not None:
        return known
    low, high = 0.0, 40.0  # two_sided_p(0) = 1 > p >= 0 = two_sided_p(40)
    while True:
        middle = (low + high) * 0.5
        if middle in (low, high):
            break
        if two_sided_p(middle) >= p:
            low = middle
        else:
            high = middle
    _CRITICAL[p] = low
    return low


#: The power the audit's ``detectable`` figure speaks of: a shift caught 8 times in 10;
#: ``POWER_P``: the two-sided p-value of its one-sided quantile, 2 (1 - 0.8).
POWER = 0.8
POWER_P = 0.4


def detectable_shift(n: int, expected: float, variance: float, each: float) -> float | None:
    """The shift d per draw in a sum of ``n`` draws' hits (fair expectation ``expected``,
    variance ``variance``) that a two-sided test at ``each`` catches ``POWER`` of the time.

    Under a shift d a draw, O - E moves by n d, and the test flags when it passes
    z_each sqrt V; it does so ``POWER`` of the time when n d = z_each sqrt V + z_power
    sqrt V', with V' = sum (p + d)(1 - p - d) = V + d (n - 2E) - n d^2 the variance of the
    shifted draws (z_power: the one-sided ``POWER`` quantile). V' is taken the larger way,
    V + d |n - 2E| - n d^2 (adding hits where chances are below one half, taking them away
    above), so both ways are caught at least ``POWER`` of the time; d is found by
    iterating from (z_each + z_power) sqrt V / n, the first-order answer. IEEE operations
    only. None without a draw or without variance (no shift moves a z that does not exist).
    """
    if n <= 0 or not variance > 0:
        return None
    z_each, z_power = critical_z(each), critical_z(POWER_P)
    spread = abs(n - 2.0 * expected)
    flag = z_each * math.sqrt(variance)
    shift = (z_each + z_power) * math.sqrt(variance) / n
    for _ in range(_MAX_TERMS):
        shifted = max(0.0, variance + shift * spread - n * shift * shift)
        after = (flag + z_power * math.sqrt(shifted)) / n
        if after == shift:
            break
        shift = after
    return shift


def detectable_step_shift(n: int, variance: float, each: float) -> float | None:
    """The shift d in the mean of ``n`` items (a sum of fair variance ``variance``) that a
    two-sided test at ``each`` catches ``POWER`` of the time, when the shift moves a share
    d of the items one step each (a starting hand one shanten further from ready, or one
    dora more): n d = z_each sqrt V + z_power sqrt V', with V' = V + n d (1 - d) the
    variance of the shifted sum (the steps add a Bernoulli's variance to each item; none
    past d = 1). Found by iterating from (z_each + z_power) sqrt V / n, the first-order
    answer; IEEE operations only. None without an item or without variance."""
    if n <= 0 or not variance > 0:
        return None
    z_each, z_power = critical_z(each), critical_z(POWER_P)
    flag = z_each * math.sqrt(variance)
    shift = (z_each + z_power) * math.sqrt(variance) / n
    for _ in range(_MAX_TERMS):
        shifted = variance + n * max(0.0, shift * (1.0 - shift))
        after = (flag + z_power * math.sqrt(shifted)) / n
        if after == shift:
            break
        shift = after
    return shift


def exact_units(value: float) -> int:
    """A finite float as a whole number of 2**-1074 (the smallest subnormal): every
    float is one exactly, so sums of them are exact and do not depend on their order;
    ``from_units`` rounds such a sum to a float once."""
    n, d = float(value).as_integer_ratio()
    return n << (1075 - d.bit_length())


def from_units(total: int) -> float:
    """A sum of ``exact_units`` rounded once to the nearest float (int / int is
    correctly rounded in Python, so the same on every Python and platform)."""
    return total / (1 << 1074)


def exact_sum(values: Iterable[float]) -> float:
    """The sum of finite floats, exact and then rounded once: the same bits in any order
    and on any Python (``sum()`` of floats is compensated from 3.12 on, plain before)."""
    return from_units(sum(map(exact_units, values)))


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
        Bin(
            _label(labels, g[0], g[-1]),
            sum(observed[i] for i in g),
            exact_sum(expected[i] for i in g),
        )
        for g in groups
    )


def _square(x: float) -> float:
    """x * x (``x ** 2`` calls the C library's ``pow``, which need not round alike everywhere)."""
    return x * x


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
    statistic = exact_sum(_square(b.observed - b.expected) / b.expected for b in bins)
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
