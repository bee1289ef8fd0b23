"""Benchmark ``pywall audit`` on a phoenix-logs database, against ``pywall verify`` in the
same run; prints figures, asserts nothing.

The database is bench_archive.py's (N games, default 4,000, copies of the Tenhou fixture
logs under new log ids; build/bench/, reused when it exists). Each run setting is timed
R times (default 3), alternating audit and verify so that both see the same machine load,
each a CLI subprocess with ``--jobs J`` (default 2). Prints each median in games per
second and the audit's time over verify's (the cost of the starting-hand, draw and wall
tests on top of checking every tile). The copies repeat about 50 distinct games, so the
audit counts 50 and excludes the rest as repeats; every copy is still checked and its
draws computed (the repeat is found after the report is made), with the shanten caches
warmer than a corpus of distinct games would leave them.

Run: python3 benchmarks/bench_audit.py [--games N] [--jobs J] [--runs R]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_archive import build


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pywall", *args],
        check=False,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    db = ROOT / "build" / "bench" / f"phoenix-{args.games}.db"
    build(db, args.games)
    jobs = ["--jobs", str(args.jobs)]
    audit, verify = [], []
    for _ in range(args.runs):
        audit.append(timed(["audit", *jobs, str(db)]))
        verify.append(timed(["verify", "--failures-only", "--no-progress", *jobs, str(db)]))
    a, v = statistics.median(audit), statistics.median(verify)
    print(
        f"pywall audit --jobs {args.jobs}: {args.games / a:,.0f} games/s "
        f"(median of {args.runs}: {a:.2f} s; runs {', '.join(f'{t:.2f}' for t in audit)})"
    )
    print(
        f"pywall verify --jobs {args.jobs} --failures-only: {args.games / v:,.0f} games/s "
        f"(median {v:.2f} s)"
    )
    print(f"audit / verify time: {a / v:.2f}")


if __name__ == "__main__":
    main()
