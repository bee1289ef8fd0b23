"""What the audit's ``detectable`` figure promises, on simulated games (tests/sim): a shift of
``detectable`` hits per 100 draws is caught 8 times in 10, and a fair shuffle is flagged
at the threshold's rate.

A player's group of the audit gives each of its 6 tests (3 starting-hand, 3 draw) the
threshold 0.001 / 6; ``detectable`` is (z_each + z_0.80) sqrt V / n per draw. For each draw
test (effective, tenpai, dora):

1. Fair corpora: C corpora (default 60) of R rounds (default 60) played by the simulator's
   bots on shuffled walls; each seat's draws are a player's group (4 a corpus). It prints
   the median ``detectable`` of those groups and how often a fair group flags (p below
   0.001 / 6; 1.7 in 10,000 expected).
2. Rigged corpora: a rig changes the games (adding effective tiles ends rounds sooner, so
   fewer draws; adding dora leaves fewer unseen), so pilots of C / 4 corpora are rigged by
   the figure until the figure they show agrees with their rig (``fixed_point``), and C
   more corpora are rigged by it: every draw's shuffle shifts by exactly it (``tests.sim.Rig``: the next tile swapped with another unseen one, so the
   chance of a hit moves from the fair p to p + shift; effective tiles taken away and
   added, winning tiles and dora added, where the fair chances leave room). It prints the
   shift the rigged draws showed, their own median ``detectable``, and how often the test
   flags: near 80% (more when hits are taken away: ``detectable`` takes the variance of the
   shifted draws the larger way, adding where chances are below one half).

Run: python3 benchmarks/detectable_calibration.py [--corpora C] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.analysis.draws import TESTS, Sums, detectable
from pywall.audits.draw_wall_tests import DrawTest
from pywall.audits.verdicts import ALPHA
from tests.sim import Rig, rigged_corpus, seat_sums

#: a listed player's group: 3 starting-hand tests and 3 draw tests
EACH = ALPHA / 6
#: the ways each test's rig moves the draws: effective tiles taken away and added; winning
#: tiles and dora added (their fair chances, near 0.05 and 0.03, leave little to take away)
RIGS = (("effective", -1.0), ("effective", 1.0), ("tenpai", 1.0), ("dora", 1.0))


def groups(corpora: int, rounds: int, test: str, rig: Rig | None, rng: random.Random) -> list[Sums]:
    """Each seat's sums of ``test`` in ``corpora`` corpora (seats without variance left out)."""
    found: list[Sums] = []
    for _ in range(corpora):
        game = rigged_corpus(rounds, rng, rig)
        found += [s for s in seat_sums(game, TESTS.index(test)) if s.variance > 0]
    return found


def flagged(sums: list[Sums]) -> float:
    """The share of groups whose test alone flags them (p below ``EACH``)."""
    return sum(1 for s in sums if (DrawTest("x", s).p or 1.0) < EACH) / len(sums)


def median_detectable(sums: list[Sums], test: str) -> float:
    return statistics.median(d for s in sums if (d := detectable(s, EACH, test)) is not None)


#: a rigged figure within this share of the rig that made it is the rig's own figure
AGREE = 0.03
#: pilot stages at most before the rigged corpora (each a quarter as many corpora)
STAGES = 6


def fixed_point(
    test: str, sign: float, start: float, corpora: int, rounds: int, rng: random.Random
) -> tuple[float, int]:
    """The shift d whose rigged games show ``detectable`` d: a rig moves the games (adding
    effective tiles ends rounds sooner; adding dora leaves fewer unseen, so V and the
    figure shrink), so pilots of a quarter as many corpora are rigged by the figure until
    the figure they show agrees with their rig within ``AGREE`` (damped: half way each
    stage, so a figure that falls as the rig grows does not swing between two values).
    Returns d and the pilot stages played."""
    figure = start
    for stage in range(1, STAGES + 1):
        pilot = groups(max(1, corpora // 4), rounds, test, Rig(test, sign * figure / 100), rng)
        shown = median_detectable(pilot, test)
        if abs(shown - figure) <= AGREE * figure:
            return shown, stage
        figure = (figure + shown) / 2
    return figure, STAGES


def calibrate(
    test: str, sign: float, corpora: int, rounds: int, rng: random.Random
) -> dict[str, float]:
    """Fair groups' median figure d0; the rig's fixed point d from there (``fixed_point``);
    then ``corpora`` rigged by d: how often they flag."""
    fair = groups(corpora, rounds, test, None, rng)
    figure, stages = fixed_point(test, sign, median_detectable(fair, test), corpora, rounds, rng)
    rigged = groups(corpora, rounds, test, Rig(test, sign * figure / 100), rng)
    n = sum(s.n for s in rigged)
    return {
        "groups": len(fair),
        "draws": statistics.median(s.n for s in fair),
        "fair_detectable": median_detectable(fair, test),
        "fair_flagged": flagged(fair),
        "detectable": figure,
        "stages": stages,
        "shown": sum(s.observed - s.expected for s in rigged) / n * 100,
        "rigged_draws": statistics.median(s.n for s in rigged),
        "rigged_detectable": median_detectable(rigged, test),
        "power": flagged(rigged),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument(
        "--only", choices=sorted({t for t, _ in RIGS}), help="one draw test's rows only"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    print(
        f"a player's group: threshold {ALPHA} / 6 = {EACH:.3g}; {args.corpora} fair and "
        f"{args.corpora} rigged corpora of {args.rounds} rounds, each seat a group"
    )
    print(
        f"{'test':<10} {'way':<6} {'groups':>6} {'draws':>6} {'detectable':>10} "
        f"{'fair flagged':>12} {'rigged by':>9} {'shown':>6} {'draws':>6} {'detectable':>10} "
        f"{'flagged':>8}"
    )
    for test, sign in RIGS:
        if args.only and test != args.only:
            continue
        r = calibrate(test, sign, args.corpora, args.rounds, rng)
        print(
            f"{test:<10} {'added' if sign > 0 else 'taken':<6} {r['groups']:>6,.0f} "
            f"{r['draws']:>6,.0f} {r['fair_detectable']:>10.2f} {r['fair_flagged']:>12.2%} "
            f"{r['detectable']:>9.2f} {r['shown']:>+6.2f} {r['rigged_draws']:>6,.0f} "
            f"{r['rigged_detectable']:>10.2f} {r['power']:>8.1%}  ({r['stages']:.0f} pilot stages)"
        )
    print(f"({time.perf_counter() - start:.0f} s; figures in hits per 100 draws)")


if __name__ == "__main__":
    main()
