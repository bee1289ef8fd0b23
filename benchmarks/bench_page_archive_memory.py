"""Benchmark what the page's first worker keeps per game of a shared archive run; prints
figures, asserts nothing.

CPython in-process, driving ``pywall.page.api`` as the page's workers do
(web/batch/archive-run.mjs, web/workers/worker.mjs): two workers' ``Api`` objects open a
phoenix-logs database of N, then 2N distinct simulated games (sim_logs.py; build/bench/,
reused), check it in chunks of 100 in turn, and the first worker's ``tally_add`` is given
every chunk's records in the archive's order (with the archive it keeps open for the
tally, as worker.mjs gives it where the File is read lazily); the parts are closed, then
the tally is settled (``audit``). tracemalloc measures what stays allocated once the run
is over: ``kept``, the first worker's tally (all but the draw walk's memo caches, which
are bounded and the same for any run: ``caches``), and the peak; KB a game = (at 2N - at
N) / N. With
``--base DIR`` (a checkout of another pywall, such as main before a change) its page API
is run too, in the same run: the two in turn, R times (default 2) each, medians printed.

Run: python3 benchmarks/bench_page_archive_memory.py [--games N] [--runs R] [--base DIR]
"""

from __future__ import annotations

import argparse
import json
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

#: One run, in a process of its own importing the tree named by PYWALL_TREE (an editable
#: install of another tree taken off the path first): prints {"kept": bytes, "peak": bytes}.
RUN = (
    IMPORT_TREE
    + """
import gc, json, tracemalloc
from pathlib import Path
from pywall.inputs.sources import ArchiveSource
from pywall.page import api, runs, audit_reports  # imported before the count starts
from pywall.audits import tally, verdicts

def opener(path, label):
    return ArchiveSource(Path(path), label)

def on(worker, kind, **payload):
    out = json.loads(api.handle(kind, json.dumps(payload), None, worker))
    assert "error" not in out, out
    return out

db = sys.argv[1]
pool = [api.Api(opener), api.Api(opener)]
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
opened = on(pool[0], "archive_open", run="r/0", label=db, path=db, records=True)
on(pool[1], "archive_open", run="r/1", label=db, path=db, records=True, survey=opened["survey"])
kept = {"path": db, "label": db, "survey": opened["survey"]}
for i, start in enumerate(range(0, opened["total"], 100)):
    chunk = on(pool[i % 2], "archive_next", run=f"r/{i % 2}", start=start, limit=100)
    on(pool[0], "tally_add", run="r", start=start, records=chunk["records"], **kept)
for k in (0, 1):
    on(pool[k], "archive_close", run=f"r/{k}")
games = on(pool[0], "audit", runs=["r"])
del chunk, games
gc.collect()
now, peak = tracemalloc.get_traced_memory()
caches = tracemalloc.take_snapshot().filter_traces(
    [tracemalloc.Filter(True, "*/pywall/analysis/*")]
)  # the draw walk's memo caches: bounded (efficiency.py), the same for any run
cached = sum(stat.size for stat in caches.statistics("filename"))
print(json.dumps({"kept": now - before - cached, "caches": cached, "peak": peak - before}))
"""
)


def measure(tree: Path, db: Path, runner: Path) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, str(runner), str(db)],
        check=True,
        capture_output=True,
        text=True,
        cwd=runner.parent,
        env=os.environ | {"PYWALL_TREE": str(tree)},
    )
    found: dict[str, int] = json.loads(out.stdout.splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="N (default 500)")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--base", type=Path, help="another pywall tree to measure too")
    args = parser.parse_args()
    sizes = (args.games, 2 * args.games)
    dbs = {}
    for n in sizes:
        dbs[n] = ROOT / "build" / "bench" / f"simulated-{n}.db"
        sim_logs.build(dbs[n], n)
    trees = {"this tree": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    found: dict[tuple[str, int], list[dict[str, int]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        runner = Path(scratch) / "run_page.py"
        runner.write_text(RUN, encoding="utf-8")
        for _ in range(args.runs):
            for n in sizes:
                for name, tree in trees.items():  # in turn: the same machine load
                    found.setdefault((name, n), []).append(measure(tree, dbs[n], runner))
    for name in trees:
        for what in ("kept", "caches", "peak"):
            low, high = (statistics.median(r[what] for r in found[name, n]) for n in sizes)
            print(
                f"{name:>9} {what}: {low / 1024:,.0f} KB at {sizes[0]:,} games, "
                f"{high / 1024:,.0f} KB at {sizes[1]:,}: "
                f"{(high - low) / 1024 / args.games:.2f} KB a game more"
            )


if __name__ == "__main__":
    main()
