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

The starting-hand tests (``--only hands``): each seat's hands over D deals (``--deals``,
several sizes) are a player's group. Their figure depends only on the hands (V comes from
the exact laws), so no fixed point: C fair corpora give it and how often a fair group flags;
C corpora dealt by ``tests.sim.deals.DealRig`` (that share of hands a shanten step further
from ready or closer, a dora more or fewer) give the share moved, the shift shown and how
often the test alone flags: near 80%.

Run: python3 benchmarks/detectable_calibration.py [--corpora C] [--rounds R] [--seed S]
       [--only effective|tenpai|dora|hands] [--deals D ...]
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
from pywall.analysis.stats import ZScore
from pywall.audits.counts import StartingHand
from pywall.audits.draw_wall_tests import DrawTest
from pywall.audits.verdicts import ALPHA, HAND_UNIT, audit_group, hand_detectable
from tests.sim import Rig, rigged_corpus, seat_sums
from tests.sim.deals import DealRig, seat_hands

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


#: the starting-hand tests' rigs: hands dealt a shanten step further from ready and
#: closer; a dora more and fewer
HAND_RIGS = (("shanten_sum", 1.0), ("shanten_sum", -1.0), ("dora", 1.0), ("dora", -1.0))


def hand_test(hands: list[StartingHand], test: str) -> ZScore:
    """A group's ``test`` (``shanten_sum`` or ``dora``) as the audit computes it."""
    group = audit_group("x", hands)
    z = group.shanten_z if test == "shanten_sum" else group.dora
    assert z is not None
    return z


def hand_groups(
    corpora: int, rounds: int, test: str, rig: DealRig | None, rng: random.Random
) -> tuple[list[tuple[ZScore, int]], float]:
    """Each seat's ``test`` over ``rounds`` rounds in ``corpora`` corpora (a player's group:
    its z and hands), and the share of hands the rig moved a step."""
    found: list[tuple[ZScore, int]] = []
    moved = 0
    for _ in range(corpora):
        seats, steps = seat_hands(rounds, rng, rig)
        moved += steps
        found += [(hand_test(hands, test), len(hands)) for hands in seats]
    return found, moved / (corpora * rounds * 4)


def calibrate_hands(
    test: str, sign: float, corpora: int, rounds: int, rng: random.Random
) -> dict[str, float]:
    """A starting-hand test: fair groups' figure (the same for every group of these hands:
    V comes from the exact laws) and how often they flag; groups dealt by a rig that moves
    that share of hands a step, and how often they flag. The rig changes neither n nor V,
    so no fixed point is needed."""
    fair, _ = hand_groups(corpora, rounds, test, None, rng)
    figures = [d for z, n in fair if (d := hand_detectable(test, z, n, EACH)) is not None]
    figure = statistics.median(figures)
    rig = DealRig("dora" if test == "dora" else "shanten", sign * figure / HAND_UNIT[test])
    rigged, moved = hand_groups(corpora, rounds, test, rig, rng)
    hands = sum(n for _, n in rigged)
    return {
        "groups": len(fair),
        "hands": statistics.median(n for _, n in fair),
        "detectable": figure,
        "fair_flagged": sum(1 for z, _ in fair if z.p_value < EACH) / len(fair),
        "moved": sign * moved * HAND_UNIT[test],
        "shown": sum(z.observed - z.expected for z, _ in rigged) / hands * HAND_UNIT[test],
        "power": sum(1 for z, _ in rigged if z.p_value < EACH) / len(rigged),
    }


def hand_rows(corpora: int, sizes: list[int], rng: random.Random) -> None:
    print(
        f"starting hands: for each size, {corpora} fair and {corpora} rigged corpora of that "
        "many deals, each seat a group (shanten_sum: shanten a hand; dora: per 100 hands)"
    )
    print(
        f"{'test':<11} {'way':<6} {'groups':>6} {'hands':>6} {'detectable':>10} "
        f"{'fair flagged':>12} {'moved':>7} {'shown':>7} {'flagged':>8}"
    )
    for deals in sizes:
        for test, sign in HAND_RIGS:
            r = calibrate_hands(test, sign, corpora, deals, rng)
            way = {("shanten_sum", 1.0): "worse", ("shanten_sum", -1.0): "better"}.get(
                (test, sign), "more" if sign > 0 else "fewer"
            )
            print(
                f"{test:<11} {way:<6} {r['groups']:>6,.0f} {r['hands']:>6,.0f} "
                f"{r['detectable']:>10.3f} {r['fair_flagged']:>12.2%} {r['moved']:>+7.3f} "
                f"{r['shown']:>+7.3f} {r['power']:>8.1%}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument(
        "--only",
        choices=sorted({t for t, _ in RIGS}) + ["hands"],
        help="one draw test's rows only, or the starting-hand tests' (hands)",
    )
    parser.add_argument(
        "--deals",
        type=int,
        nargs="+",
        default=[100, 400, 1600],
        help="deals a corpus of the starting-hand rows (each size its rows)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    if args.only == "hands":
        hand_rows(args.corpora, args.deals, rng)
        print(f"({time.perf_counter() - start:.0f} s)")
        return
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
    if not args.only:
        hand_rows(args.corpora, args.deals, rng)
        print(f"({time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
