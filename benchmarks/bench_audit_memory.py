"""Benchmark the audit's peak memory against the number of distinct games; prints figures,
asserts nothing.

``pywall audit --json DB`` on phoenix-logs databases of N and 2N distinct simulated games
(sim_logs.py: each from its own seed; build/bench/, reused when they exist), the peak
resident memory of the parent (which holds the tally; ``getrusage(RUSAGE_SELF)`` as it
ends) and of the largest other process (``--jobs 2``'s workers: their ``VmHWM`` read every
0.1 s while they run, and ``RUSAGE_CHILDREN``), and
the KB each more game costs: (peak at 2N - peak at N) / N. With ``--base DIR`` (a checkout
of another pywall, such as main before a change) its CLI is run too, in the same run: the
two in turn, R times (default 3) each, medians printed. With ``--keep DIR`` each run's JSON
is written there (``cmp`` them: the trees' outputs byte for byte).

Run: python3 benchmarks/bench_audit_memory.py [--games N] [--runs R] [--jobs 1 2] [--base DIR]
[--keep DIR]
"""

from __future__ import annotations

import argparse
import os
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


def peak_kb(tree: Path, db: Path, jobs: int, runner: Path, keep: Path | None) -> tuple[int, int]:
    """The peak resident memory in KB of ``audit --json --jobs J DB`` run from ``tree``:
    of the parent, and of the largest other process (its JSON written to ``keep``, to
    compare trees' outputs byte for byte). Run from the runner's folder: a worker's fork
    server puts its working folder first on its path."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as out:
        with open(keep or "/dev/null", "wb") as document:
            subprocess.run(
                [sys.executable, str(runner), "audit", "--json", "--jobs", str(jobs), str(db)],
                check=True,
                cwd=runner.parent,
                env=os.environ
                | {"PYWALL_TREE": str(tree), "PYTHONPATH": str(tree), "PYWALL_RSS": out.name},
                stdout=document,
                stderr=subprocess.DEVNULL,
            )
        parent, others = out.read().split()
        return int(parent), int(others)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="N (default 1,000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--base", type=Path, help="another pywall tree to measure too")
    parser.add_argument("--keep", type=Path, help="a folder to write each run's JSON to")
    args = parser.parse_args()
    sizes = (args.games, 2 * args.games)
    dbs = {}
    for n in sizes:
        dbs[n] = ROOT / "build" / "bench" / f"simulated-{n}.db"
        sim_logs.build(dbs[n], n)
    trees = {"this tree": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    with tempfile.TemporaryDirectory() as scratch:
        runner = Path(scratch) / "run_tree.py"
        runner.write_text(RUN_TREE, encoding="utf-8")
        for jobs in args.jobs:
            peaks: dict[tuple[str, int], list[tuple[int, int]]] = {}
            for _ in range(args.runs):
                for n in sizes:
                    for name, tree in trees.items():  # in turn: the same machine load
                        keep = args.keep and args.keep / f"{name.split()[-1]}-{jobs}-{n}.json"
                        found = peak_kb(tree, dbs[n], jobs, runner, keep)
                        peaks.setdefault((name, n), []).append(found)
            for name in trees:
                for which, who in enumerate(("parent", "others") if jobs > 1 else ("parent",)):
                    runs = [[p[which] for p in peaks[name, n]] for n in sizes]
                    low, high = (statistics.median(r) for r in runs)
                    print(
                        f"--jobs {jobs} {name:>9} {who}: peak {low:,.0f} KB at {sizes[0]:,} "
                        f"games, {high:,.0f} KB at {sizes[1]:,}: "
                        f"{(high - low) / args.games:.2f} KB a game more (runs: {runs[0]} / {runs[1]})"
                    )


if __name__ == "__main__":
    main()
