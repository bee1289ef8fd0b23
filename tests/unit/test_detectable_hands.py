"""What the starting-hand tests can see: the mean shanten test (``shanten_sum``) and the dora
dealt (``dora``) give ``detectable``, the shift a rigged shuffle that deals a share of the
hands one step off (a shanten further from ready or closer; a dora more or fewer) needs to
be caught 8 times in 10 at the threshold the group's verdict gives the test (docs/audit.md);
the same number in the CLI's JSON, the API's, the text and the HTML report; and rigged
simulated deals (tests/sim/deals.py) at that shift are caught about 8 times in 10."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from pywall.analysis.stats import ZScore, critical_z, detectable_step_shift
from pywall.audits.html import detectable_words
from pywall.audits.verdicts import HAND_UNIT, audit_group, hand_detectable, hand_seen
from pywall.audits.words import WORDS
from tests.sim.deals import DealRig, seat_hands

HAND_TESTS = ("shanten_sum", "dora")
#: the words' key of each test's sentence
KEYS = {"shanten_sum": "shanten_sum", "dora": "hand_dora"}


def test_the_figure_is_the_step_formula() -> None:
    """n d = z_each sqrt V + z_0.80 sqrt(V + n d (1 - d)): 1,000 hands of shanten variance
    0.9 a hand at 0.001 / 6 need 0.140 shanten a hand (0.138 to first order)."""
    n, variance, each = 1000, 900.0, 0.001 / 6
    d = detectable_step_shift(n, variance, each)
    assert d is not None and d == pytest.approx(0.1398, abs=1e-4)
    z_each, z_power = critical_z(each), critical_z(0.4)
    shifted = variance + n * d * (1 - d)
    assert n * d == pytest.approx(z_each * 30.0 + z_power * math.sqrt(shifted), rel=1e-14)
    first_order = (z_each + z_power) * 30.0 / n
    assert first_order == pytest.approx(0.1382, abs=1e-4) and d > first_order


def test_more_hands_see_a_smaller_shift() -> None:
    """Hands like these, k times as many: the figure falls as about 1 / sqrt k."""
    figures = [detectable_step_shift(100 * k, 90.0 * k, 0.001 / 6) for k in range(1, 65)]
    shown = [f for f in figures if f is not None]
    assert len(shown) == 64 and all(a > b for a, b in itertools.pairwise(shown))
    assert shown[0] / shown[63] == pytest.approx(8.0, rel=0.1)


@pytest.mark.parametrize(
    ("n", "variance"), [(0, 0.0), (0, 5.0), (40, 0.0)], ids=["no-hands", "no-n", "no-variance"]
)
def test_no_hands_or_no_variance_gives_null(n: int, variance: float) -> None:
    assert detectable_step_shift(n, variance, 0.001 / 6) is None
    z = ZScore(0.0, 0.0, math.sqrt(variance), 0.0, 1.0)
    for test in HAND_TESTS:
        assert hand_detectable(test, z, n, 0.001 / 6) is None
        seen = hand_seen(test, z, n, 0.001 / 6)
        assert seen["detectable"] is None and seen["detectable_one_in"] is None
        assert detectable_words(KEYS[test], seen, WORDS["en"]) is None


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_too_few_hands_say_so(lang: str) -> None:
    for name in HAND_TESTS:
        text = detectable_words(
            KEYS[name], {"n": 12, "detectable": 0.9, "detectable_one_in": None}, WORDS[lang]
        )
        assert text is not None and "12" in text
        assert {"en": "too few hands", "ja": "少なすぎます", "zh": "配牌太少"}[lang] in text


def flagged(test: str, rig: DealRig | None, corpora: int, deals: int, seed: int) -> list[bool]:
    """Each seat's group of ``deals`` hands in ``corpora`` corpora: whether ``test`` alone
    flags it (p below 0.001 / 6, a player's share)."""
    rng = random.Random(seed)
    found = []
    for _ in range(corpora):
        seats, _ = seat_hands(deals, rng, rig)
        for hands in seats:
            g = audit_group("x", hands)
            z = g.shanten_z if test == "shanten_sum" else g.dora
            assert z is not None
            found.append(z.p_value < 0.001 / 6)
    return found


@pytest.mark.parametrize(
    ("test", "rig", "sign"),
    [("shanten_sum", "shanten", -1.0), ("dora", "dora", 1.0)],
    ids=["better-hands", "more-dora"],
)
def test_rigged_deals_at_the_figure_are_caught_about_8_times_in_10(
    test: str, rig: str, sign: float
) -> None:
    """64 groups of 200 hands dealt by a shuffle that moves the figure's share of hands a step
    (hands a shanten closer to ready; a dora more): flagged by the test alone 60%-95% of the
    time (80% expected; benchmarks/detectable_calibration.py --only hands plays 400 groups
    of each size, both ways, and fair groups beside them). Closer, not further: a step
    further from ready takes a few times the shanten calls to find."""
    hands = seat_hands(200, random.Random(1))[0][0]
    g = audit_group("x", hands)
    z = g.shanten_z if test == "shanten_sum" else g.dora
    assert z is not None
    figure = hand_detectable(test, z, len(hands), 0.001 / 6)
    assert figure is not None
    rigged = flagged(test, DealRig(rig, sign * figure / HAND_UNIT[test]), 16, 200, 44)
    assert 0.60 <= sum(rigged) / len(rigged) <= 0.95
