"""Benchmark the audit's peak memory against the number of distinct games; prints figures,
asserts nothing.

``pywall audit --json DB`` on phoenix-logs databases of N and 2N distinct simulated games
(sim_logs.py: each from its own seed; build/bench/, reused when they exist), the peak
resident memory of the parent (which holds the tally; ``getrusage(RUSAGE_SELF)`` as it
ends) and of the largest other process (``--jobs 2``'s workers: their ``VmHWM`` read every
0.1 s while they run, and ``RUSAGE_CHILDREN``), and
the KB each more game costs: (peak at 2N - peak at N) / N, for each N given (``--games 2000
4000``: 2,000 to 4,000 games, then 4,000 to 8,000). With ``--base DIR`` (a checkout
of another pywall, such as main before a change) its CLI is run too, in the same run: the
two in turn, R times (default 3) each, medians printed. With ``--save-tally`` each run
writes a part too (``audit --json --save-tally FILE``). With ``--keep DIR`` each run's JSON
(and part) is written there (``cmp`` them: the trees' outputs byte for byte).

``--profile N`` instead checks the first N games of the database in this process, as a
worker does, and prints the entries of each of the draw test's caches
(``efficiency.cache_sizes``) every N/8 games: where each reaches its bound.

Run: python3 benchmarks/bench_audit_memory.py [--games N ...] [--runs R] [--jobs 1 2]
[--base DIR] [--save-tally] [--keep DIR] [--profile N]
"""

from __future__ import annotations

import argparse
import bz2
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import sim_logs
from benchmarks.trees import IMPORT_TREE

#: Runs the CLI of the tree named by PYWALL_TREE whatever pywall this interpreter has
#: installed (an editable install of another tree is taken off the path first; the worker
#: processes find the same tree first on PYTHONPATH).
RUN_TREE = (
    IMPORT_TREE
    + """
import threading


def descendants(root):
    children = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def high_water(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            return max([int(l.split()[1]) for l in status if l.startswith("VmHWM:")] or [0])
    except OSError:
        return 0


others, done = [0], threading.Event()


def sample():  # the workers' peak: their high-water marks, read until they end
    while not done.wait(0.1):
        others[0] = max([others[0], *map(high_water, descendants(os.getpid()))])


if __name__ == "__main__":
    import resource
    from pywall.cli import main
    sys.argv = ["pywall", *sys.argv[1:]]
    threading.Thread(target=sample, daemon=True).start()
    code = main()
    done.set()
    with open(os.environ["PYWALL_RSS"], "w") as out:
        self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        waited = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out.write(f"{self} {max(others[0], waited)}")
    sys.exit(code)
"""
)


def peak_kb(
    tree: Path, db: Path, jobs: int, runner: Path, keep: Path | None, part: bool
) -> tuple[int, int]:
    """The peak resident memory in KB of ``audit --json --jobs J DB`` run from ``tree``:
    of the parent, and of the largest other process (its JSON written to ``keep``, to
    compare trees' outputs byte for byte; with ``part``, ``--save-tally`` to ``keep``'s
    name with ``.part``). Run from the runner's folder: a worker's fork server puts its
    working folder first on its path."""
    with (
        tempfile.NamedTemporaryFile("r", suffix=".rss") as out,
        tempfile.TemporaryDirectory() as scratch,
    ):
        saved = Path(f"{keep}.part" if keep else Path(scratch) / "part.json")
        tally = ["--save-tally", str(saved)] if part else []
        with open(keep or "/dev/null", "wb") as document:
            subprocess.run(
                [sys.executable, str(runner), "audit", "--json", "--jobs", str(jobs)]
                + tally
                + [str(db)],
                check=True,
                cwd=runner.parent,
                env=os.environ
                | {"PYWALL_TREE": str(tree), "PYTHONPATH": str(tree), "PYWALL_RSS": out.name},
                stdout=document,
                stderr=subprocess.DEVNULL,
            )
        parent, others = out.read().split()
        return int(parent), int(others)


def profile(db: Path, games: int) -> None:
    """Each of the draw test's caches' entries every ``games`` / 8 games, checked here."""
    from pywall.analysis.efficiency import cache_sizes
    from pywall.results.check import check_data

    every = max(1, games // 8)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT log_id, log_content FROM logs ORDER BY rowid LIMIT ?", (games,))
        for i, (name, blob) in enumerate(rows, 1):
            check_data(name, bz2.decompress(blob), starting=True)
            if i % every == 0:
                sizes = ", ".join(f"{k} {v:,}" for k, v in cache_sizes().items())
                print(f"{i:>6,} games: {sizes}", flush=True)


def growth(args: argparse.Namespace, trees: dict[str, Path], n: int, runner: Path) -> None:
    """Each tree's peaks at n and 2n games and the KB a game more, per ``--jobs``."""
    sizes = (n, 2 * n)
    dbs = {}
    for size in sizes:
        dbs[size] = ROOT / "build" / "bench" / f"simulated-{size}.db"
        sim_logs.build(dbs[size], size)
    for jobs in args.jobs:
        peaks: dict[tuple[str, int], list[tuple[int, int]]] = {}
        for _ in range(args.runs):
            for size in sizes:
                for name, tree in trees.items():  # in turn: the same machine load
                    keep = args.keep and args.keep / f"{name.split()[-1]}-{jobs}-{size}.json"
                    found = peak_kb(tree, dbs[size], jobs, runner, keep, args.save_tally)
                    peaks.setdefault((name, size), []).append(found)
        for name in trees:
            for which, who in enumerate(("parent", "others") if jobs > 1 else ("parent",)):
                runs = [[p[which] for p in peaks[name, size]] for size in sizes]
                low, high = (statistics.median(r) for r in runs)
                print(
                    f"--jobs {jobs}{' --save-tally' if args.save_tally else ''} {name:>9} "
                    f"{who}: peak {low:,.0f} KB at {sizes[0]:,} games, {high:,.0f} KB at "
                    f"{sizes[1]:,}: {(high - low) / n:.2f} KB a game more "
                    f"(runs: {runs[0]} / {runs[1]})",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000], help="N (default 1,000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--base", type=Path, help="another pywall tree to measure too")
    parser.add_argument("--save-tally", action="store_true", help="write a part in each run")
    parser.add_argument("--keep", type=Path, help="a folder to write each run's JSON to")
    parser.add_argument("--profile", type=int, metavar="N", help="the caches over N games")
    args = parser.parse_args()
    if args.profile:
        db = ROOT / "build" / "bench" / f"simulated-{args.profile}.db"
        sim_logs.build(db, args.profile)
        profile(db, args.profile)
        return
    trees = {"this tree": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    with tempfile.TemporaryDirectory() as scratch:
        runner = Path(scratch) / "run_tree.py"
        runner.write_text(RUN_TREE, encoding="utf-8")
        for n in args.games:
            growth(args, trees, n, runner)


if __name__ == "__main__":
    main()
