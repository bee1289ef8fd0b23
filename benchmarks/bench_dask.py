"""Benchmark the audit on Dask (``pywall.scale.audit_on_dask``) beside ``pywall audit --jobs 2``
in the same run; prints figures, asserts nothing.

On a phoenix-logs database of N distinct simulated games (default 4,000; sim_logs.py,
build/bench/, reused), R times each (default 3), alternating so that all see the same
machine load:

- ``pywall audit --jobs 2 --json`` as a CLI subprocess;
- ``audit_on_dask`` on a ``distributed.LocalCluster`` of 1 and of 2 worker processes (one
  thread each), the cluster started before the clock (its start-up is printed apart).

Prints each median in games per second, whether Dask's JSON is the CLI's (it must be,
to the last digit), each Dask worker's peak resident memory, and the rate at which the
calling process adds the shards' records (the one serial step: it bounds a large
cluster's speed). Then the audit in two parts: the database's rows copied into two
halves, each saved with ``--save-tally`` (``--jobs 2``), the parts merged with
``--merge --json``, against one run over both halves: the time of each step, the parts'
sizes, and whether the merge's JSON is the run's.

Run: python3 benchmarks/bench_dask.py [--games N] [--runs R] [--shards S] [--no-halves]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_archive, sim_logs


def pywall_cli(*args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pywall", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, done.stdout


def cli_audit(db: Path) -> tuple[float, str]:
    return pywall_cli("audit", "--jobs", "2", "--json", str(db))


def halves(db: Path, games: int) -> tuple[Path, Path]:
    """The database's rows in two databases, the first half and the rest (rebuilt each run)."""
    made = []
    for number, where in ((1, f"rowid <= {games // 2}"), (2, f"rowid > {games // 2}")):
        half = db.with_name(f"{db.stem}-half{number}.db")
        half.unlink(missing_ok=True)
        with closing(sqlite3.connect(half)) as conn, conn:
            conn.execute(bench_archive.SCHEMA)
            conn.execute("ATTACH DATABASE ? AS whole", (str(db),))
            conn.execute(f"INSERT INTO logs SELECT * FROM whole.logs WHERE {where} ORDER BY rowid")
        made.append(half)
    return made[0], made[1]


def in_parts(db: Path, games: int) -> None:
    first, second = halves(db, games)
    parts = [db.with_name(f"{db.stem}-half{n}.tally.json") for n in (1, 2)]
    saving = [
        pywall_cli("audit", "--jobs", "2", "--save-tally", str(part), str(half))[0]
        for part, half in zip(parts, (first, second), strict=True)
    ]
    merging, merged = pywall_cli("audit", "--merge", "--json", *map(str, parts))
    whole_time, whole = pywall_cli("audit", "--jobs", "2", "--json", str(first), str(second))
    sizes = ", ".join(f"{p.stat().st_size / 2**20:,.1f} MiB" for p in parts)
    same = "the same JSON" if merged == whole else "JSON DIFFERS from the run's"
    print(
        f"in two parts: --save-tally {saving[0]:.2f} s and {saving[1]:.2f} s (parts of {sizes}); "
        f"--merge --json {merging:.2f} s ({games / merging:,.0f} games/s); one run over both "
        f"halves {whole_time:.2f} s; the merge gives {same}"
    )


def peak_rss_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dask_runs(db: Path, workers: int, runs: int, shards: int | None) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    from pywall.scale import audit_on_dask

    start = time.perf_counter()
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        startup = time.perf_counter() - start
        times, text = [], ""
        for _ in range(runs):
            t = time.perf_counter()
            result = audit_on_dask([db], client, shards=shards)
            times.append(time.perf_counter() - t)
            text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"
        memory = client.run(peak_rss_mib)
    return {"startup": startup, "times": times, "json": text, "memory": memory}


def adding_rate(db: Path) -> float:
    """Records a second the calling process adds (``AuditTally.add``), on one shard's records."""
    from pywall.audits.tally import AuditTally
    from pywall.scale import plan_shards, shard_records

    (shard, *_) = plan_shards([db], 8)
    records = shard_records(shard).records
    start = time.perf_counter()
    tally = AuditTally()
    for record in records:
        tally.add(record)
    return len(records) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shards", type=int, default=None)
    parser.add_argument("--no-halves", action="store_true", help="skip the audit in two parts")
    args = parser.parse_args()
    db = ROOT / "build" / "bench" / f"simulated-{args.games}.db"
    sim_logs.build(db, args.games)
    cli_times, cli_json = [], ""
    dask: dict[int, dict[str, Any]] = {}
    for workers in (1, 2):  # each cluster once, its runs alternating with the CLI's
        t, cli_json = cli_audit(db)
        cli_times.append(t)
        dask[workers] = dask_runs(db, workers, args.runs, args.shards)
    for _ in range(args.runs - 2):
        cli_times.append(cli_audit(db)[0])
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (other work slows every figure)")
    c = statistics.median(cli_times)
    print(
        f"pywall audit --jobs 2: {args.games / c:,.0f} games/s (median of {len(cli_times)}: "
        f"{c:.2f} s; runs {', '.join(f'{t:.2f}' for t in cli_times)})"
    )
    for workers, found in dask.items():
        d = statistics.median(found["times"])
        same = "the same JSON" if found["json"] == cli_json else "JSON DIFFERS from the CLI's"
        memory = ", ".join(f"{m:,.0f}" for m in found["memory"].values())
        print(
            f"audit_on_dask, LocalCluster of {workers} worker process{'es' if workers > 1 else ''}: "
            f"{args.games / d:,.0f} games/s (median of {len(found['times'])}: {d:.2f} s; runs "
            f"{', '.join(f'{t:.2f}' for t in found['times'])}); {same}; cluster start "
            f"{found['startup']:.1f} s; workers' peak memory {memory} MiB; "
            f"time / CLI's {d / c:.2f}"
        )
    print(f"the calling process adds {adding_rate(db):,.0f} records/s (the serial step)")
    if not args.no_halves:
        in_parts(db, args.games)


if __name__ == "__main__":
    main()
