"""Benchmark ``pywall audit`` on a phoenix-logs database, against ``pywall verify`` in the
same run; prints figures, asserts nothing.

The database (N games, default 4,000; build/bench/, reused when it exists) holds by
default distinct games (sim_logs.py: each from its own seed, played by the test
simulator's bots on the walls pywall rebuilds, so every hand differs, as in a real
archive); ``--copies`` uses bench_archive.py's copies of the Tenhou fixture logs instead
(about 50 games repeated: the audit counts 50 and excludes the rest as repeats, with the
shanten caches warmer than distinct games leave them). Each setting is timed R times
(default 3), alternating audit and verify so that both see the same machine load, each a
CLI subprocess with ``--jobs J`` (default 2). Prints each median in games per second and
the audit's time over verify's (the cost of the starting-hand, draw and wall tests on top
of checking every tile).

Run: python3 benchmarks/bench_audit.py [--games N] [--jobs J] [--runs R] [--copies]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_archive, sim_logs


def timed(args: list[str]) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the whole process tree: the workers too)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    sample = bench_archive.watch(proc)
    return time.perf_counter() - start, sum(sample.cpu_ticks.values()) / bench_archive.TICK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--copies", action="store_true", help="copies of the fixture logs")
    args = parser.parse_args()
    if args.copies:
        db = ROOT / "build" / "bench" / f"phoenix-{args.games}.db"
        bench_archive.build(db, args.games)
    else:
        db = ROOT / "build" / "bench" / f"simulated-{args.games}.db"
        sim_logs.build(db, args.games)
    jobs = ["--jobs", str(args.jobs)]
    audit, verify = [], []
    for _ in range(args.runs):
        audit.append(timed(["audit", *jobs, str(db)]))
        verify.append(timed(["verify", "--failures-only", "--no-progress", *jobs, str(db)]))
    a, v = statistics.median(t for t, _ in audit), statistics.median(t for t, _ in verify)
    ac, vc = statistics.median(c for _, c in audit), statistics.median(c for _, c in verify)
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine slows both)"
    )
    print(
        f"pywall audit --jobs {args.jobs}: {args.games / a:,.0f} games/s "
        f"(median of {args.runs}: {a:.2f} s; runs {', '.join(f'{t:.2f}' for t, _ in audit)}); "
        f"{ac / args.games * 1e3:.2f} ms of CPU a game"
    )
    print(
        f"pywall verify --jobs {args.jobs} --failures-only: {args.games / v:,.0f} games/s "
        f"(median {v:.2f} s); {vc / args.games * 1e3:.2f} ms of CPU a game"
    )
    print(f"audit / verify: {a / v:.2f} in time, {ac / vc:.2f} in CPU")


if __name__ == "__main__":
    main()
