"""Calibration and power of the draw and wall tests, on the project's own simulated games
(tests/sim: bots that draw, discard by shanten, call pon and kan, riichi and win)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from pywall.analysis.draws import TESTS, game_draws
from pywall.analysis.walls import WallKinds, WallTally, wall_tests, wall_text
from pywall.audits.draw_wall_tests import draw_audit
from pywall.audits.tally import StartingHand
from pywall.audits.verdicts import ALPHA, audit_group
from pywall.core.layout import WallScheme
from tests.sim import LAYOUT, biased_wall, corpus, worst_wall


def z_values(corpora: int, rounds: int, seed: int) -> dict[str, list[float]]:
    rng = random.Random(seed)
    found: dict[str, list[float]] = {name: [] for name in TESTS}
    for _ in range(corpora):
        draws = game_draws(corpus(rounds, rng))
        assert draws.skipped_rounds == 0
        totals = [
            sum((s.sums()[i] for s in draws.seats), start=type(draws.seats[0].effective)())
            for i in range(3)
        ]
        audit = draw_audit((totals[0], totals[1], totals[2]))
        assert audit is not None
        for test in audit.tests:
            if test.z is not None:
                found[test.name].append(test.z)
    return found


@pytest.fixture(scope="module")
def fair_z() -> dict[str, list[float]]:
    return z_values(corpora=200, rounds=6, seed=25)


@pytest.mark.parametrize("name", ["effective", "dora"])
def test_fair_z_values_are_standard_normal(fair_z: dict[str, list[float]], name: str) -> None:
    """200 fair corpora of 6 rounds (about 290 draws each): mean within 0.25 of 0 (3.5 standard errors), sd
    within 0.85-1.15 (3 standard errors), |z| > 1.96 in 1%-10% of corpora (5% expected)."""
    z = fair_z[name]
    assert len(z) == 200
    assert abs(statistics.mean(z)) < 0.25
    assert 0.85 < statistics.stdev(z) < 1.15
    assert 0.01 <= sum(abs(v) > 1.96 for v in z) / len(z) <= 0.10


def test_fair_tenpai_z_values(fair_z: dict[str, list[float]]) -> None:
    """Fewer tenpai draws a corpus (about 25), so a discrete z: mean within 0.3, sd 0.8-1.2."""
    z = fair_z["tenpai"]
    assert len(z) >= 190
    assert abs(statistics.mean(z)) < 0.3
    assert 0.8 < statistics.stdev(z) < 1.2


def test_a_dealer_choosing_the_worst_wall_for_one_player_is_flagged() -> None:
    """Each round the dealer plays three fair walls and deals the one worst for seat 2's
    effective draws: 60 rounds flag seat 2's draws, while its starting hands (the audit
    before the draw test) show nothing."""
    rng = random.Random(2)
    game = corpus(60, rng, dealer=lambda r: worst_wall(r, seat=1))
    sums = [s for s in game_draws(game).seats if s.seat == 1]
    total = [sum((s.sums()[i] for s in sums), start=type(sums[0].effective)()) for i in range(3)]
    audit = draw_audit((total[0], total[1], total[2]))
    assert audit is not None and audit.tests[0].z is not None
    assert audit.tests[0].z < -4 and min(audit.p_values) < ALPHA / 6
    hands = [
        StartingHand.from_tiles("seat 2", False, rnd.hands[1], rnd.dora_indicator)
        for rnd in game.rounds
    ]
    assert not audit_group("seat 2", hands).rejects(ALPHA)


def test_fair_dealer_is_not_flagged_for_that_player() -> None:
    rng = random.Random(2)
    game = corpus(60, rng)
    sums = [s for s in game_draws(game).seats if s.seat == 1]
    total = sum((s.effective for s in sums), start=type(sums[0].effective)())
    assert abs(total.observed - total.expected) / math.sqrt(total.variance) < 3


def test_a_positional_bias_is_flagged_by_the_wall_tests() -> None:
    """A dealer that puts honours at the live wall's last eight positions in one wall of
    four: 1,000 walls, flagged by the positions and live-wall tests."""
    rng = random.Random(9)
    tally = WallTally(4)
    for _ in range(1000):
        tally.add(
            WallKinds(
                WallScheme.FRONT.value, wall_text(biased_wall(rng, LAYOUT.live[-8:], 0.25), True)
            )
        )
    tests = {t.name: t.p for t in wall_tests(tally)}
    assert min(tests.values()) < ALPHA / len(tests)
    assert tests["positions"] < 1e-4 and tests["live"] < 1e-4


def test_the_fair_range_holds_95_percent_of_fair_results() -> None:
    """The range a draw line gives ("usually between 28 and 48": expected +- 1.96 sd of the
    test's own sums) holds the hits of about 95% of fair corpora: over 200 simulated corpora
    of 6 rounds, 91%-99% for each test's total and for each seat's line of one corpus (its
    ``by_seat``, the page's one-game view). 600 corpora gave 95.5%, 97.5%, 96.5% (totals of
    effective, tenpai, dora) and 96.5%, 97.5%, 97.1% (seats)."""
    from pywall.analysis.draws import Sums, sums_dict

    rng = random.Random(11)
    totals: dict[str, list[bool]] = {name: [] for name in TESTS}
    seats: dict[str, list[bool]] = {name: [] for name in TESTS}
    for _ in range(200):
        draws = game_draws(corpus(6, rng))
        for i, name in enumerate(TESTS):
            d = sums_dict(sum((s.sums()[i] for s in draws.seats), start=Sums()))
            if d["variance"]:
                totals[name].append(d["low"] <= d["observed"] <= d["high"])
        for row in draws.by_seat():
            for name in TESTS:
                d = row[name]
                if d["variance"]:
                    seats[name].append(d["low"] <= d["observed"] <= d["high"])
    for name in TESTS:
        for found in (totals[name], seats[name]):
            assert len(found) >= 150
            assert 0.91 <= sum(found) / len(found) <= 0.99, (name, sum(found) / len(found))


def test_a_shift_of_detectable_is_caught_8_times_in_10() -> None:
    """The audit's ``detectable`` on rigged games, for a player's group (threshold
    0.001 / 6) of each seat's effective draws in corpora of 10 rounds: 6 fair corpora give
    a median ``detectable`` d0; a shuffle that adds d0 effective tiles per 100 draws
    (``tests.sim.Rig``) ends rounds sooner, so 6 corpora rigged by d0 give the figure such
    games show, d1; 25 corpora rigged by d1 flag 60%-95% of their 100 seats (80% promised;
    one standard error of 100 samples is 4%, and this is the hard case: about 70 draws).
    The fair seats flag none. benchmarks/detectable_calibration.py runs it large, both
    ways, for every draw test (docs/audit.md)."""
    from pywall.analysis.draws import Sums, detectable
    from pywall.audits.draw_wall_tests import DrawTest
    from tests.sim import Rig, rigged_corpus, seat_sums

    each = ALPHA / 6
    rng = random.Random(44)

    def seats(corpora: int, shift: float | None) -> list[Sums]:
        rig = None if shift is None else Rig("effective", shift / 100)
        return [s for _ in range(corpora) for s in seat_sums(rigged_corpus(10, rng, rig), 0)]

    def median(sums: list[Sums]) -> float:
        return statistics.median(d for s in sums if (d := detectable(s, each)) is not None)

    fair = seats(6, None)
    assert not any((DrawTest("effective", s).p or 1.0) < each for s in fair)
    d0 = median(fair)
    assert 10 < d0 < 25  # hits per 100 draws: a hundred draws see only large shifts
    d1 = median(seats(6, d0))
    rigged = seats(25, d1)
    shown = sum(s.observed - s.expected for s in rigged) / sum(s.n for s in rigged) * 100
    assert shown == pytest.approx(d1, rel=0.2)  # the rig added what it was told
    caught = sum((DrawTest("effective", s).p or 1.0) < each for s in rigged) / len(rigged)
    assert 0.6 <= caught <= 0.95, caught
