"""pywall.analysis.stats: incomplete gamma / chi-square p-values, z-scores, binning, moments."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from pywall.analysis.stats import (
    Bin,
    chi2_sf,
    chi_square,
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
