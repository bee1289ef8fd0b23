"""The draw test's large calibration and its power table, on simulated games (tests/sim).

1. Calibration: C fair corpora (default 2,000) of R rounds (default 5) are played by
   the simulator's bots on shuffled walls; for each of the three draw tests (effective,
   tenpai, dora) it prints the z values' mean, standard deviation and the share of
   |z| beyond 1.96, 2.58 and 3.29 (5%, 1% and 0.1% under a standard normal).
2. Power: the chance p of each simulated draw (its effective tiles in U / |U|) is kept;
   for a shift of 1, 2 and 5 percentage points it prints the draws needed for a test
   at the 0.001 level (two-sided) to detect the shift 80% of the time,
   n = (3.29 + 0.84)^2 mean(p(1 - p)) / shift^2, and the share of 200 simulated
   samples of n draws (p drawn from the kept chances, X ~ Bernoulli(p + shift)) that
   the test flags.

Run: python3 benchmarks/audit_calibration.py [--corpora C] [--rounds R]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.analysis.draws import TESTS, Sums, round_draws
from pywall.audits.draw_wall_tests import draw_audit
from tests.sim import corpus

Z_ALPHA, Z_POWER = 3.2905, 0.8416


def calibration(
    corpora: int, rounds: int, rng: random.Random
) -> tuple[dict[str, list[float]], list[float]]:
    found: dict[str, list[float]] = {name: [] for name in TESTS}
    chances: list[float] = []
    for _ in range(corpora):
        game = corpus(rounds, rng)
        totals = [Sums(), Sums(), Sums()]
        for rnd in game.rounds:
            for r in round_draws(rnd, 4) or ():
                for i, outcome in enumerate(r.outcomes()):
                    if outcome is not None:
                        x, p = outcome
                        totals[i] = totals[i] + Sums(1, int(x), p, p * (1 - p))
                chances.append(r.unseen_effective / r.unseen)
        audit = draw_audit((totals[0], totals[1], totals[2]))
        for test in audit.tests if audit else ():
            if test.z is not None:
                found[test.name].append(test.z)
    return found, chances


def detected(n: int, shift: float, chances: list[float], rng: random.Random) -> bool:
    o = e = v = 0.0
    for _ in range(n):
        p = rng.choice(chances)
        o += rng.random() < min(1.0, p + shift)
        e += p
        v += p * (1 - p)
    return abs(o - e) / math.sqrt(v) > Z_ALPHA


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(2025)
    start = time.perf_counter()
    found, chances = calibration(args.corpora, args.rounds, rng)
    print(
        f"calibration: {args.corpora:,} fair corpora of {args.rounds} rounds "
        f"({len(chances):,} draws, {time.perf_counter() - start:.0f} s)"
    )
    print(
        f"{'test':<10} {'corpora':>8} {'mean z':>8} {'sd z':>6} {'>1.96':>7} {'>2.58':>7} {'>3.29':>7}"
    )
    for name, z in found.items():
        tails = [sum(abs(v) > c for v in z) / len(z) for c in (1.96, 2.58, 3.29)]
        print(
            f"{name:<10} {len(z):>8,} {statistics.mean(z):>+8.3f} {statistics.stdev(z):>6.3f} "
            + " ".join(f"{t:>7.2%}" for t in tails)
        )
    print("(fair: mean 0, sd 1, tails 5%, 1%, 0.1%)")
    pq = statistics.mean(p * (1 - p) for p in chances)
    print(
        f"\npower of the effective-draw test (mean p {statistics.mean(chances):.3f}, "
        f"mean p(1-p) {pq:.4f}), 0.001 level, two-sided:"
    )
    print(
        f"{'shift':>6} {'draws for 80%':>14} {'games of one player':>20} {'flagged in 200 samples':>23}"
    )
    per_player = len(chances) / (args.corpora * args.rounds * 4) * 8  # about 8 rounds a game
    for shift in (0.01, 0.02, 0.05):
        n = math.ceil((Z_ALPHA + Z_POWER) ** 2 * pq / shift**2)
        hits = sum(detected(n, shift, chances, rng) for _ in range(200))
        print(f"{shift:>6.0%} {n:>14,} {n / per_player:>20,.0f} {hits / 200:>23.0%}")


if __name__ == "__main__":
    main()
