"""Benchmark the draw test's effective kinds: one pass over the suit automaton
(``pywall.analysis.efficiency.effective_kinds``) against 34 shanten calls (the definition);
prints figures, asserts nothing.

The hands are those the draw walk asks about in the Tenhou fixture games
(pywall.analysis.draws; 13 - 3m tiles: the hand before each draw, but a hand whose drawn
tile was cut is not asked again, the walk keeps its answer), each timed fresh (the per-suit
caches warm, as in a long audit) and by the definition. Five runs, each alternating the
two; prints the medians in µs a hand and their ratio.

Run: python3 benchmarks/bench_effective.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.analysis import draw_walk, draws, efficiency
from pywall.analysis.shanten import shanten
from pywall.formats import parse_record
from tests.helpers import fixture_paths


def hands_before_draws() -> list[tuple[int, ...]]:
    seen: list[tuple[int, ...]] = []
    original = draw_walk.effective_of  # type: ignore[attr-defined]

    def keep(i0: int, i1: int, i2: int, i3: int) -> tuple[int, int] | None:
        # the walk asks by the hand's four suit ids: their counts, joined, are the hand
        seen.append(tuple(k for i in (i0, i1, i2, i3) for k in efficiency._SUITS[i][0]))
        return original(i0, i1, i2, i3)

    # pywall.analysis.draw_walk calls the effective_of it imported from
    # pywall.analysis.efficiency (a name it does not export, hence the ignores): swap that
    # name for one that records each hand.
    draw_walk.effective_of = keep  # type: ignore[attr-defined]
    try:
        for path in fixture_paths():
            draws.game_draws(parse_record(path.read_bytes(), path.name))
    finally:
        draw_walk.effective_of = original  # type: ignore[attr-defined]
    return seen


def by_definition(hand: tuple[int, ...]) -> int:
    base = shanten(hand)
    mask = 0
    work = list(hand)
    for kind in range(34):
        if work[kind] < 4:
            work[kind] += 1
            if shanten(work) < base:
                mask |= 1 << kind
            work[kind] -= 1
    return mask


def main() -> None:
    hands = hands_before_draws()
    one_pass, definition = [], []
    for _ in range(5):
        start = time.perf_counter()
        for hand in hands:
            efficiency.effective_kinds(hand)
        one_pass.append((time.perf_counter() - start) / len(hands) * 1e6)
        start = time.perf_counter()
        for hand in hands:
            by_definition(hand)
        definition.append((time.perf_counter() - start) / len(hands) * 1e6)
    a, b = statistics.median(one_pass), statistics.median(definition)
    print(f"{len(hands):,} hands before draws ({len(set(hands)):,} distinct)")
    print(
        f"effective_kinds (one pass): {a:.1f} µs a hand (runs {', '.join(f'{x:.1f}' for x in one_pass)})"
    )
    print(f"34 shanten calls: {b:.1f} µs a hand (runs {', '.join(f'{x:.1f}' for x in definition)})")
    print(f"speed-up: {b / a:.1f}x")


if __name__ == "__main__":
    main()
