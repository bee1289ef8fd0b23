"""Benchmark pywall.analysis.shanten; prints figures, asserts nothing about time.

1. Cold start: a fresh process's first random 14-tile hands, table building
   included (the tables are built lazily on first use).
2. Throughput on fresh random 14-tile hands (dealt from 136 tiles with an
   OS-seeded generator, never seen before by pywall), pywall against the
   ``mahjong`` package (``Shanten.calculate_shanten``, all three forms) on the
   same hands, several rounds; the median of each and their ratio are printed.
3. Exact shanten distributions of all 13- and 14-tile hands, from a 4-player
   wall (136 tiles) and a 3-player one (108 tiles, no 2m-8m): seconds each, in a
   fresh process per wall (the first includes building the number-suit table),
   and again in this process after the throughput rounds.

Run: python3 benchmarks/bench_shanten.py [--hands N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.analysis import shanten as pywall_shanten
from pywall.analysis import suit_profiles
from pywall.analysis.shanten_distribution import _distribution, wall_copies


def fresh_hands(count: int) -> list[list[int]]:
    rng = random.Random(os.urandom(32))
    hands = []
    for _ in range(count):
        counts = [0] * 34
        for tile in rng.sample(range(136), 14):
            counts[tile // 4] += 1
        hands.append(counts)
    return hands


def rate(function: Callable[[list[int]], int], hands: list[list[int]]) -> float:
    start = time.perf_counter()
    for hand in hands:
        function(hand)
    return len(hands) / (time.perf_counter() - start)


def reference() -> Callable[[list[int]], int] | None:
    try:
        from mahjong.shanten import Shanten  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    calculate: Callable[[list[int]], int] = Shanten().calculate_shanten
    return calculate


COLD = """
import sys, time
players = int(sys.argv[1])
start = time.perf_counter()
from pywall.analysis.shanten_distribution import _distribution, wall_copies
_distribution(14, wall_copies(players))  # computed (distribution() has them written out)
middle = time.perf_counter()
_distribution(13, wall_copies(players))
print(middle - start, time.perf_counter() - middle)
"""


def cold_distribution_seconds(players: int) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", COLD, str(players)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    first, second = out.stdout.split()
    return float(first), float(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=50_000, help="hands per round (default 50,000)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {args.hands:,} fresh random 14-tile hands per round")

    cold = rate(pywall_shanten.shanten, fresh_hands(args.hands))
    print(f"pywall cold start: {cold:,.0f} hands/s for the first {args.hands:,} "
          f"(tables built on the way: {suit_profiles.table_size():,} automaton nodes)")  # fmt: skip

    other = reference()
    ours, theirs = [], []
    for _ in range(args.rounds):
        hands = fresh_hands(args.hands)
        ours.append(rate(pywall_shanten.shanten, hands))
        if other is not None:
            theirs.append(rate(other, hands))
    print(f"pywall:  {statistics.median(ours):>10,.0f} hands/s (median of {args.rounds})")
    if other is None:
        print("mahjong: not installed (pip install mahjong==2.1.0) - no comparison")
    else:
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(f"mahjong: {statistics.median(theirs):>10,.0f} hands/s (median of {args.rounds})")
        print(f"ratio:   {ratio:.2f}x mahjong's throughput on the same hands")

    for players in (4, 3):
        cold_14, then_13 = cold_distribution_seconds(players)
        print(f"exact {players}-player distributions in a fresh process: 14 tiles {cold_14:.2f} s "
              f"(tables included), then 13 tiles {then_13:.2f} s")  # fmt: skip
    for players in (4, 3):
        for tiles in (14, 13):
            start = time.perf_counter()
            counts = dict(_distribution(tiles, wall_copies(players)))  # computed, not _DEALT
            seconds = time.perf_counter() - start
            print(f"exact {players}-player distribution of {tiles}-tile hands in this process: "
                  f"{seconds:.2f} s ({len(counts)} shanten values, "
                  f"total {sum(counts.values()):,})")  # fmt: skip
    print(f"number-suit automaton after the distributions: {suit_profiles.table_size():,} nodes")
    in_pyodide(args.hands, args.rounds)


def in_pyodide(hands: int, rounds: int) -> None:
    """The same loop inside Pyodide (the page's engine: WebAssembly in V8), via Node."""
    index = ROOT / "build" / "pyodide"  # the site's runtime, unpacked (build.py)
    node = shutil.which("node")
    if node is None or not (index / "pyodide.mjs").exists():
        print("in Pyodide: not measured (needs node and a built site: python3 build.py site)")
        return
    proc = subprocess.run([node, str(ROOT / "benchmarks" / "pyodide_shanten.mjs"), str(index),
                           str(hands), str(rounds)], capture_output=True, text=True, check=False)  # fmt: skip
    if proc.returncode != 0:
        print(f"in Pyodide: failed ({proc.stderr.strip().splitlines()[-1:]})")
        return
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"in Pyodide (Node, the page's WebAssembly engine): {figures['hands_per_second']:,.0f} "
          f"hands/s (median of {rounds}); exact 14-tile distribution "
          f"{figures['distribution_14_seconds']:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
