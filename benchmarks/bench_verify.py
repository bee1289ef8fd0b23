"""Time ``verify_game`` over every record in tests/data against another checkout's; prints
figures, asserts nothing about time.

Each run is a fresh process that parses the records once, verifies them all once to warm
up, then times ``--passes`` passes over them and prints the median. Runs of this tree and
of ``--against`` alternate (the machine is shared and noisy: compare within one run);
the script prints each side's median of run medians and the median of the pair ratios
(this tree / the other: below 1 is faster).

Run: .venv/bin/python benchmarks/bench_verify.py --against DIR [--runs 9] [--passes 15]
(DIR: a checkout whose pywall/ to compare, e.g. ``git worktree add /tmp/main main``)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SUFFIXES = (".txt", ".xml", ".mjlog", ".json")

#: One run, in a process whose ``pywall`` is the given checkout's.
RUN = """
import statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import pywall
from pywall.formats import parse_record
try:
    from pywall.checks.verify import verify_game
except ImportError:  # a checkout from before the folders (pywall/verify.py)
    from pywall.verify import verify_game
assert pywall.__file__.startswith(sys.argv[1]), pywall.__file__
games = [parse_record(Path(p).read_bytes(), Path(p).name) for p in sys.argv[3:]]
for g in games:
    verify_game(g)
times = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter()
    for g in games:
        verify_game(g)
    times.append(time.perf_counter() - t)
print(statistics.median(times))
"""


def records() -> list[Path]:
    return [
        p
        for p in sorted(DATA.rglob("*"))
        if p.is_file() and p.suffix in SUFFIXES and "vectors" not in p.parts
    ]


def run(tree: Path, passes: int, paths: list[Path]) -> float:
    args = [sys.executable, "-c", RUN, str(tree.resolve()), str(passes), *map(str, paths)]
    return float(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, required=True, help="the other checkout")
    ap.add_argument("--runs", type=int, default=9, help="runs of each tree (default 9)")
    ap.add_argument("--passes", type=int, default=15, help="timed passes per run (default 15)")
    opts = ap.parse_args()
    paths = records()
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(opts.runs):
        order = [(ours, ROOT), (theirs, opts.against)]
        for times, tree in order if i % 2 else order[::-1]:
            times.append(run(tree, opts.passes, paths))
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    print(f"{len(paths)} records, {opts.runs} alternating runs of {opts.passes} passes each")
    print(f"this tree: median {statistics.median(ours) * 1000:.1f} ms a pass")
    print(f"--against: median {statistics.median(theirs) * 1000:.1f} ms a pass")
    print(f"ratio (this / against), median of pairs: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
