"""Benchmark ``pywall verify`` on a phoenix-logs database; prints figures, asserts nothing.

1. Builds a phoenix-logs-schema SQLite database of N games (default 100,000)
   from the fixture logs in tests/data/tenhou, bz2-compressed as phoenix-logs
   stores them, each copy under a new log id (build/bench/, not committed; an
   existing database with the same number of rows is reused).
2. Verifies it end to end with the CLI in a subprocess, once per run setting
   (default: ``--jobs 1`` and ``--jobs 2`` with ``--failures-only``, and
   ``--jobs 2 --jsonl`` to /dev/null), and prints games per second (wall clock
   and per CPU second) and peak resident memory: the largest single process,
   the sum of every process's peak, and the largest total seen at one time.
   Memory and CPU are sampled from /proc for the whole process tree (the
   workers are grandchildren, through the forkserver) every 50 ms.

Run: python3 benchmarks/bench_archive.py [--games N] [--runs "1,2,2:jsonl"]
"""

from __future__ import annotations

import argparse
import bz2
import hashlib
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.formats.mjlog_tags import text_from_bytes
from tests.helpers import fixture_paths

SCHEMA = (
    "CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int, "
    "is_processed int, was_error int, log_content text, log_hash text)"
)
TICK = os.sysconf("SC_CLK_TCK")


def blobs() -> list[bytes]:
    return [bz2.compress(text_from_bytes(p.read_bytes()).encode()) for p in fixture_paths()]


def rows(games: int, contents: list[bytes]) -> Iterator[tuple[object, ...]]:
    for i in range(games):
        blob = contents[i % len(contents)]
        day = 1 + i // 4000 % 28
        lid = f"201901{day:02d}{i // 200 % 24:02d}gm-00a9-0000-{i:08x}"
        yield lid, 0, 0, 1, 0, blob, hashlib.sha256(blob).hexdigest()


def build(
    path: Path,
    games: int,
    make_rows: Callable[[int], Iterable[tuple[object, ...]]] | None = None,
) -> None:
    """A phoenix-logs-schema database of ``games`` rows (by default copies of the
    fixture logs; ``make_rows(games)`` gives others), reused if it has as many."""
    if path.exists():
        with sqlite3.connect(path) as conn:
            if conn.execute("SELECT COUNT(*) FROM logs").fetchone()[0] == games:
                print(f"reusing {path} ({games:,} games, {path.stat().st_size / 2**20:,.0f} MiB)")
                return
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(SCHEMA)
        made = make_rows(games) if make_rows else rows(games, blobs())
        conn.executemany("INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?, ?)", made)
    conn.close()
    print(
        f"built {path}: {games:,} games, {path.stat().st_size / 2**20:,.0f} MiB "
        f"in {time.perf_counter() - start:.1f} s"
    )


@dataclass
class Sample:
    """What /proc says about a process tree over its life."""

    hwm_kb: dict[int, int] = field(default_factory=dict)  # peak RSS of each process
    cpu_ticks: dict[int, int] = field(default_factory=dict)  # last utime + stime seen
    peak_total_kb: int = 0  # largest sum of current RSS over the tree at one sample

    def take(self, root: int) -> None:
        total = 0
        for pid in tree(root):
            status = read(f"/proc/{pid}/status")
            stat = read(f"/proc/{pid}/stat")
            if not status or not stat:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            hwm = int(fields.get("VmHWM", "0 kB").split()[0])
            rss = int(fields.get("VmRSS", "0 kB").split()[0])
            self.hwm_kb[pid] = max(self.hwm_kb.get(pid, 0), hwm)
            parts = stat.rsplit(")", 1)[1].split()
            self.cpu_ticks[pid] = int(parts[11]) + int(parts[12])
            total += rss
        self.peak_total_kb = max(self.peak_total_kb, total)


def watch(proc: subprocess.Popen[str]) -> Sample:
    """What /proc says about a running process and its descendants, sampled every 50 ms
    until it ends."""
    sample = Sample()
    while proc.poll() is None:
        sample.take(proc.pid)
        time.sleep(0.05)
    return sample


def read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def children_of() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read(f"/proc/{entry}/stat")
            if stat:
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree(root: int) -> list[int]:
    kids = children_of()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def verify(db: Path, jobs: int, style: str) -> None:
    flags = ["--jsonl"] if style == "jsonl" else ["--failures-only"]
    cmd = [
        sys.executable,
        "-m",
        "pywall",
        "verify",
        "--jobs",
        str(jobs),
        "--no-progress",
        *flags,
        str(db),
    ]
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        out = sink if style == "jsonl" else subprocess.PIPE
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        sample = watch(proc)
        stdout, stderr = proc.communicate()
    seconds = time.perf_counter() - start
    games = int(db_games(db))
    cpu = sum(sample.cpu_ticks.values()) / TICK
    summary = (stdout or "").strip().splitlines()[-1:] or stderr.strip().splitlines()[-1:]
    print(
        f"\n--jobs {jobs} {' '.join(flags)} (load average before: {load:.2f}; exit {proc.returncode})"
    )
    print(f"  {summary[0] if summary else '(no summary)'}")
    print(
        f"  {games:,} games in {seconds:,.1f} s: {games / seconds:,.0f} games/s; "
        f"CPU {cpu:,.1f} s over {len(sample.hwm_kb)} processes = {games / cpu if cpu else 0:,.0f} "
        f"games per CPU second (the parent process: {sample.cpu_ticks.get(proc.pid, 0) / TICK:,.1f} s)"
    )
    print(
        f"  peak RSS: largest process {max(sample.hwm_kb.values(), default=0) / 1024:,.1f} MiB, "
        f"sum of per-process peaks {sum(sample.hwm_kb.values()) / 1024:,.1f} MiB, "
        f"largest total at one time {sample.peak_total_kb / 1024:,.1f} MiB"
    )


def db_games(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(
            conn.execute(
                "SELECT COUNT(*) FROM logs WHERE is_processed = 1 AND was_error = 0"
            ).fetchone()[0]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--runs",
        default="1,2,2:jsonl",
        help="comma-separated JOBS[:jsonl] settings (default: 1,2,2:jsonl)",
    )
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; Python {sys.version.split()[0]}")
    db = args.dir / f"phoenix-{args.games}.db"
    build(db, args.games)
    for run in args.runs.split(","):
        jobs, _, style = run.partition(":")
        verify(db, int(jobs), style or "human")


if __name__ == "__main__":
    main()
