"""pywall.analysis.stats: incomplete gamma / chi-square p-values, z-scores, binning, moments."""

from __future__ import annotations

import math
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from pywall.analysis.stats import (
    MAX_DOF,
    Bin,
    chi2_sf,
    chi_square,
    erfc,
    exact_sum,
    exp,
    gamma_q,
    hypergeometric_moments,
    merge_sparse,
    moments,
    two_sided_p,
    z_score,
)
from pywall.core.errors import ValueInputError

POINTS = (0.01, 0.5, 1.0, 2.0, 3.841458820694124, 7.5, 12.0, 20.0, 40.0, 90.0)


def chi2_sf_closed_form(x: float, dof: int) -> float:
    """Closed forms: even dof is a Poisson tail; odd dof steps up from erfc."""
    half = x / 2
    if dof % 2 == 0:
        return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(dof // 2))
    value, a = math.erfc(math.sqrt(half)), 0.5
    while a < dof / 2:
        value += half**a * math.exp(-half) / math.gamma(a + 1)
        a += 1
    return value


@pytest.mark.parametrize("dof", range(1, 11), ids=lambda d: f"dof{d}")
def test_chi2_sf_matches_closed_forms(dof: int) -> None:
    for x in POINTS:
        assert chi2_sf(x, dof) == pytest.approx(chi2_sf_closed_form(x, dof), rel=1e-12, abs=1e-15)
        assert abs(chi2_sf(x, dof) - chi2_sf_closed_form(x, dof)) < 1e-9


# Published critical values (upper 5 %, 1 %, 0.1 % points of chi-square).
CRITICAL = [
    (3.841458820694124, 1, 0.05),
    (6.634896601021214, 1, 0.01),
    (10.827566170662733, 1, 0.001),
    (11.070497693516351, 5, 0.05),
    (18.307038053275146, 10, 0.05),
    (29.588298445074418, 10, 0.001),
    (124.34211340400407, 100, 0.05),
]


@pytest.mark.parametrize(("x", "dof", "p"), CRITICAL, ids=[f"{d}-{p}" for _, d, p in CRITICAL])
def test_chi2_critical_values(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, rel=1e-9)


def test_gamma_q_edges_and_tiny_tails() -> None:
    assert gamma_q(3.0, 0.0) == 1.0
    assert chi2_sf(0.0, 4) == 1.0
    assert gamma_q(1.0, 50.0) == pytest.approx(math.exp(-50.0), rel=1e-12)  # Q(1, x) = e^-x
    assert 0 < chi2_sf(500.0, 3) < 1e-100
    with pytest.raises(ValueInputError):
        gamma_q(0.0, 1.0)
    with pytest.raises(ValueInputError):
        chi2_sf(1.0, 0)


def test_two_sided_normal_p() -> None:
    assert two_sided_p(0.0) == 1.0
    assert two_sided_p(1.959963984540054) == pytest.approx(0.05, rel=1e-12)
    assert two_sided_p(-3.290526731491926) == pytest.approx(0.001, rel=1e-10)


def test_z_score() -> None:
    z = z_score(110.0, 100.0, 25.0)
    assert (z.sd, z.z) == (5.0, 2.0)
    assert z.p_value == pytest.approx(0.04550026389635842, rel=1e-12)
    with pytest.raises(ValueInputError):
        z_score(1.0, 1.0, 0.0)


def test_exact_moments() -> None:
    mean, variance = moments({0: 1, 1: 2, 2: 1})
    assert (mean, variance) == (Fraction(1), Fraction(1, 2))
    with pytest.raises(ValueInputError):
        moments({})


def test_hypergeometric_moments() -> None:
    # 4 dora among the 135 tiles other than the indicator; a 13-tile hand
    mean, variance = hypergeometric_moments(135, 4, 13)
    assert mean == pytest.approx(52 / 135)
    assert variance == pytest.approx(13 * (4 / 135) * (131 / 135) * (122 / 134))
    assert hypergeometric_moments(10, 10, 3) == (3.0, 0.0)
    with pytest.raises(ValueInputError):
        hypergeometric_moments(10, 11, 3)


MERGES = [
    ([0.1, 2.0, 10.0, 20.0, 3.0], ["0..2", "3..4"]),
    ([10.0, 10.0, 10.0], ["0", "1", "2"]),
    ([1.0, 1.0, 1.0], ["0..2"]),
    ([6.0, 1.0, 1.0], ["0..2"]),
    ([1.0, 9.0, 4.0, 1.5], ["0..1", "2..3"]),
]


@pytest.mark.parametrize(
    ("expected", "labels"), MERGES, ids=["low-tail", "none", "all", "tail", "both"]
)
def test_merge_sparse(expected: list[float], labels: list[str]) -> None:
    names = [str(i) for i in range(len(expected))]
    observed = list(range(1, len(expected) + 1))
    bins = merge_sparse(names, observed, expected)
    assert [b.label for b in bins] == labels
    assert sum(b.observed for b in bins) == sum(observed)
    assert sum(b.expected for b in bins) == pytest.approx(sum(expected))
    assert all(b.expected >= 5.0 for b in bins) or len(bins) == 1


def test_chi_square() -> None:
    result = chi_square(["a", "b", "c"], [30, 50, 20], [25.0, 50.0, 25.0])
    assert result.statistic == pytest.approx(2.0)
    assert result.dof == 2 and result.p_value == pytest.approx(math.exp(-1.0))
    assert result.bins[0] == Bin("a", 30, 25.0)
    single = chi_square(["a", "b"], [1, 1], [1.0, 1.0])
    assert (single.statistic, single.dof, single.p_value) == (0.0, 0, 1.0)
    with pytest.raises(ValueInputError):
        chi_square(["a"], [1, 2], [1.0, 2.0])


# --- IEEE-only exp, erfc and chi-square p against 50-digit references -------------------
# (the page's Pyodide and the CLI's CPython must give the same bits: no C library call)

SMALLEST_NORMAL = Decimal(sys.float_info.min)
PI_60 = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")


def ref_exp(x: float) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 50
        return Decimal(x).exp()


def ref_erfc(x: Decimal) -> Decimal:
    """erfc(x) to about 40 digits: for x < 3 the alternating-free series of erf,
    2/sqrt(pi) e^-x^2 sum 2^n x^(2n+1) / (1 3 ... (2n+1)), with digits enough for
    1 - erf's cancellation; beyond, the continued fraction of erfc evaluated from depth
    N and again from 2N (they must agree)."""
    with localcontext() as ctx:
        ctx.prec = 60
        if x < 3:
            x2 = x * x
            term = total = x
            n = 0
            while term > total * Decimal(10) ** -55:
                n += 1
                term = term * 2 * x2 / (2 * n + 1)
                total += term
            return +(1 - 2 / PI_60.sqrt() * (-x2).exp() * total)

        def fraction(depth: int) -> Decimal:
            tail = x
            for k in range(depth, 0, -1):
                tail = x + Decimal(k) / 2 / tail
            return (-x * x).exp() / PI_60.sqrt() / tail

        first, second = fraction(400), fraction(800)
        assert abs(first - second) <= abs(second) * Decimal(10) ** -40
        return second


def ref_chi2_sf(statistic: float, dof: int) -> Decimal:
    """Q(dof/2, statistic/2) from the closed forms, every term positive, 60 digits."""
    with localcontext() as ctx:
        ctx.prec = 60
        y = Decimal(statistic) / 2
        if dof % 2 == 0:
            term = total = Decimal(1)
            for j in range(1, dof // 2):
                term = term * y / j
                total += term
            return (-y).exp() * total
        term = 2 * y.sqrt() / PI_60.sqrt()  # y^(1/2) / Gamma(3/2)
        total = Decimal(0)
        for j in range(dof // 2):
            total += term
            term = term * y / (j + Decimal(3) / 2)
        return ref_erfc(y.sqrt()) + (-y).exp() * total


def relative(got: float, want: Decimal) -> float:
    return 0.0 if got == want else float(abs(Decimal(got) - want) / want)


def test_ln2_split_is_the_32_bit_head_of_ln2() -> None:
    from pywall.analysis import stats

    with localcontext() as ctx:
        ctx.prec = 50
        ln2 = Decimal(2).ln()
    head = math.floor(Fraction(ln2) * 2**32) / 2**32
    assert stats._LN2_HI == head and stats._LN2_HI.hex().endswith("fee00000p-1")
    assert stats._LN2_LO == float(Fraction(ln2) - Fraction(head))
    assert stats._INV_LN2 == float(1 / Fraction(ln2))
    assert stats._INV_SQRT_PI == float(1 / Fraction(PI_60.sqrt()))


def test_exp_within_two_units_in_the_last_place() -> None:
    grid = [i / 64 for i in range(-47_680, 45_360, 7)] + [-745.1, -708.4, -1e-300, 0.0, 1e-300]
    worst = max(relative(exp(x), ref_exp(x)) for x in grid if ref_exp(x) > Decimal("1e-300"))
    assert worst < 2 * 2**-52
    assert exp(0.0) == 1.0 and exp(-746.0) == 0.0 and exp(710.0) == math.inf
    assert exp(-745.0) > 0.0 and math.isnan(exp(math.nan))
    normal = [x for x in grid if x > -690]
    assert max(abs(exp(x) - math.exp(x)) / math.exp(x) for x in normal) < 2 * 2**-52


ERFC_GRID = [i / 40 for i in range(1, 1600)] + [1e-300, 1e-8, 1.2247, 1.2248, 26.5, 27.2]


def test_erfc_against_references_and_the_c_library() -> None:
    """Within 1e-14 relative of a 40-digit reference from 0 to 27 (erfc 27 = 5e-319); the
    same as math.erfc within that too; 0.0 beyond what a double holds."""
    worst, where = 0.0, 0.0
    for x in ERFC_GRID:
        want = ref_erfc(Decimal(x))
        if want < SMALLEST_NORMAL:  # subnormal: a relative error means nothing there
            assert abs(Decimal(erfc(x)) - want) <= 2 * Decimal(2) ** -1074
            continue
        err = relative(erfc(x), want)
        worst, where = max((worst, where), (err, x))
        assert erfc(x) == pytest.approx(math.erfc(x), rel=1e-14), x
    assert worst < 1e-14, (worst, where)
    assert erfc(0.0) == 1.0 and erfc(28.0) == 0.0 and erfc(1e10) == 0.0
    assert erfc(-1.5) == 2.0 - erfc(1.5) and erfc(-40.0) == 2.0


def test_two_sided_p_against_references_down_to_1e_300() -> None:
    """erfc(|z| / sqrt 2) for the exact z (no rounding of z / sqrt 2): within 1e-14
    relative for p down to 1e-300 (z = 37.0), then subnormal and 0.0."""
    with localcontext() as ctx:
        ctx.prec = 60
        root2 = Decimal(2).sqrt()
    worst = 0.0
    for z in [i / 25 for i in range(1, 925)] + [1e-9, 1.959963984540054, 36.99]:
        with localcontext() as ctx:
            ctx.prec = 60
            x = Decimal(z) / root2
        worst = max(worst, relative(two_sided_p(z), ref_erfc(x)))
        assert two_sided_p(-z) == two_sided_p(z)
    assert worst < 1e-14, worst
    assert 0.0 < two_sided_p(38.4) < 1e-320 and two_sided_p(38.6) == 0.0
    assert two_sided_p(1e300) == 0.0 and two_sided_p(math.inf) == 0.0
    with pytest.raises(ValueInputError):
        two_sided_p(math.nan)


CHI2_DOFS = (1, 2, 3, 4, 5, 7, 10, 33, 100, 101, 999, 2782, 4455)


@pytest.mark.parametrize("dof", CHI2_DOFS, ids=lambda d: f"dof{d}")
def test_chi2_sf_against_references_into_the_far_tail(dof: int) -> None:
    """Within 1e-13 relative of the 60-digit closed forms, from p near 1 to p below
    1e-300; the audit's largest table has 4,455 degrees of freedom."""
    spread = 12 * math.sqrt(2 * dof) + 700
    points = [dof * f for f in (0.001, 0.1, 0.5, 0.9, 1.0, 1.1, 1.5)]
    points += [dof + spread * f for f in (0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2)]
    for statistic in points:
        want = ref_chi2_sf(statistic, dof)
        got = chi2_sf(statistic, dof)
        if want < SMALLEST_NORMAL:
            assert abs(Decimal(got) - want) <= 2 * Decimal(2) ** -1074, (statistic, got, want)
        else:
            assert relative(got, want) < 1e-13, (statistic, got, want)
    assert chi2_sf(2.0**22, dof) == 0.0 and chi2_sf(math.inf, dof) == 0.0


def test_chi2_sf_bounds() -> None:
    assert chi2_sf(-1.0, 3) == 1.0 and chi2_sf(1e-300, 1) == 1.0
    with pytest.raises(ValueInputError):
        chi2_sf(1.0, MAX_DOF + 1)
    with pytest.raises(ValueInputError):
        chi2_sf(math.nan, 3)
    with pytest.raises(ValueInputError):
        gamma_q(1.25, 1.0)
    assert gamma_q(2, 3.0) == chi2_sf(6.0, 4)


SUMS = [
    [0.1, 0.2, 0.3],
    [1e16, 1.0, -1e16],
    [1e308, 1e308, -1e308],
    [5e-324, 1.5, -2.5e-310],
    [0.0, -0.0],
    [],
]


@pytest.mark.parametrize("values", SUMS, ids=lambda v: f"n{len(v)}-{v[:1]}")
def test_exact_sum_is_the_exact_sum_rounded_once(values: list[float]) -> None:
    want = float(sum((Fraction(v) for v in values), Fraction(0)))
    assert exact_sum(values) == want
    assert exact_sum(reversed(values)) == want
