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
of checking every tile), and the same in CPU: the CPU of the whole process tree of each
(the workers too), the figure issue 45 bounds at 2.5 on distinct games.

``--baseline DIR`` times another checkout's audit and verify too (its pywall imported
from DIR: ``PYTHONPATH``, run from DIR), in the same alternation, pair by pair (this audit,
DIR's audit, this verify, DIR's verify), and prints both ratios and this audit's CPU over
DIR's verify's.

Run: python3 benchmarks/bench_audit.py [--games N] [--jobs J] [--runs R] [--copies] [--baseline DIR]
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


def timed(args: list[str], root: Path = ROOT) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the whole process tree: the workers too) of
    ``pywall ARGS`` as the checkout ``root`` has it."""
    env = dict(os.environ)
    if root != ROOT:  # its pywall first: run from it (``-m`` puts the cwd first), and its workers
        env["PYTHONPATH"] = str(root)
        # its compiled modules kept here (it may be read-only), so its runs do not compile
        env["PYTHONPYCACHEPREFIX"] = str(ROOT / "build" / "bench" / "pycache")
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", *args],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    sample = bench_archive.watch(proc)
    return time.perf_counter() - start, sum(sample.cpu_ticks.values()) / bench_archive.TICK


def report(
    name: str, games: int, audit: list[tuple[float, float]], verify: list[tuple[float, float]]
) -> float:
    """Print one checkout's audit and verify medians and their ratios; return the verify's
    median CPU."""
    a, v = statistics.median(t for t, _ in audit), statistics.median(t for t, _ in verify)
    ac, vc = statistics.median(c for _, c in audit), statistics.median(c for _, c in verify)
    print(
        f"{name} audit: {games / a:,.0f} games/s (median of {len(audit)}: {a:.2f} s; runs "
        f"{', '.join(f'{t:.2f}' for t, _ in audit)}); {ac / games * 1e3:.2f} ms of CPU a game"
    )
    print(
        f"{name} verify --failures-only: {games / v:,.0f} games/s (median {v:.2f} s); "
        f"{vc / games * 1e3:.2f} ms of CPU a game"
    )
    ratios = sorted(x[1] / y[1] for x, y in zip(audit, verify))
    print(
        f"{name} audit / verify: {a / v:.2f} in time, {ac / vc:.2f} in CPU "
        f"(pair by pair: {', '.join(f'{r:.2f}' for r in ratios)})"
    )
    return vc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--copies", action="store_true", help="copies of the fixture logs")
    parser.add_argument("--baseline", type=Path, help="another checkout, timed in turn")
    args = parser.parse_args()
    if args.copies:
        db = ROOT / "build" / "bench" / f"phoenix-{args.games}.db"
        bench_archive.build(db, args.games)
    else:
        db = ROOT / "build" / "bench" / f"simulated-{args.games}.db"
        sim_logs.build(db, args.games)
    jobs = ["--jobs", str(args.jobs)]
    audit_args = ["audit", *jobs, str(db)]
    verify_args = ["verify", "--failures-only", "--no-progress", *jobs, str(db)]
    roots = [ROOT] if args.baseline is None else [ROOT, args.baseline.resolve()]
    audit: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
    verify: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
    for _ in range(args.runs):
        for root in roots:
            audit[root].append(timed(audit_args, root))
        for root in roots:
            verify[root].append(timed(verify_args, root))
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine slows both)"
    )
    print(f"pywall ... --jobs {args.jobs} on {args.games:,} games ({db.name})")
    this_verify = report("this", args.games, audit[ROOT], verify[ROOT])
    if args.baseline is not None:
        base = args.baseline.resolve()
        base_verify = report(f"baseline ({base})", args.games, audit[base], verify[base])
        ac = statistics.median(c for _, c in audit[ROOT])
        ratios = sorted(x[1] / y[1] for x, y in zip(audit[ROOT], audit[base]))
        print(
            f"this audit's CPU / the baseline's verify's: {ac / base_verify:.2f} "
            f"(this verify / the baseline's: {this_verify / base_verify:.2f}); "
            f"this audit / the baseline's, pair by pair: {', '.join(f'{r:.2f}' for r in ratios)}"
        )


if __name__ == "__main__":
    main()
