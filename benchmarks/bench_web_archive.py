"""Games per second for a whole archive in the page, with one and two workers, next to
the CLI's. Prints figures; asserts nothing but that every game was checked.

    .venv/bin/python benchmarks/bench_web_archive.py [--games 2000] [--runs 3] [--pools 1,2] [--no-cli] [--no-again] [--distinct] [--against DIR]

(after `python3 build.py site`). Builds a phoenix-logs-schema database of
--games games from the fixture logs (bz2-compressed XML; rows repeat the
fixtures' content under new ids; with --distinct, distinct simulated games instead,
as bench_audit.py uses), then measures, all in the same run:
  * the page, in system Chromium against `build.py serve`, with each pool size of
    --pools (the page's "Python workers" setting): from choosing the file to its
    last game's verdict (the page's `pywall:archive` measure, so Playwright's
    polling does not count), games per second, median of --runs; with --against DIR, the
    page of that checkout too (its site built: a worktree of main, say), in turn with this
    one's in each run, and the ratio of each pair. Each run is a new
    page that checks the database twice: "first" (the pool's other workers start
    when the archive needs them, their start-up counted) and "again" (the same page,
    its workers running);
  * where each archive run's time went (on stderr, a line a run: each worker's opening,
    its games and time in Python, the audit records added in the first worker, the page's
    own work: archive-run.mjs's profile);
  * each worker's memory (its WebAssembly heap, where Python lives) at the end of a
    run, and the peak memory (proportional set size) of Chromium's renderer
    processes (the page and all its workers) during the runs;
  * `pywall verify --jsonl` on the same file with --jobs 1 and --jobs 2, and
    `pywall audit --jobs 2` (the tests the page's archive run makes too): the whole
    process, as a person runs it;
  * CPython in-process through the same requests a worker makes (`archive_open`,
    then `archive_next` chunks, through `api.handle`), and the same requests inside
    Pyodide under Node with no page (`pyodide_archive.mjs`): their ratio is the most
    the page can reach against the CLI on the same cores.
--no-cli measures the page only, --no-again checks the database once a page (for a
100,000-game database's memory, say).
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from benchmarks import sim_logs
from benchmarks.archive_rate import archive_rate
from benchmarks.bench_web import start_server
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.helpers import fixture_paths, log_text

TIMEOUT_PER_GAME = 100  # ms: generous (a loaded machine's page checked 65 games/s with 2 workers)
SCHEMA = (
    "CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int, "
    "is_processed int, was_error int, log_content text, log_hash text)"
)


def make_db(path: Path, games: int) -> Path:
    blobs = [bz2.compress(log_text(p).encode()) for p in fixture_paths()]
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(SCHEMA)
        conn.executemany(
            "INSERT INTO logs VALUES (?, 0, 0, 1, 0, ?, '')",
            ((f"2019010100gm-00a9-0000-{i:08x}", blobs[i % len(blobs)]) for i in range(games)),
        )
    conn.close()
    return path


def run_archive(page: Page, db: Path, games: int, nth: int) -> dict[str, Any]:
    """Choose the database (its nth time in this page) and wait for its verdict."""
    page.locator("input[type=file][multiple]").set_input_files(str(db))
    node = page.locator(f'#results [data-file="{db.name}"]').nth(nth)
    expect(node).to_have_attribute(
        "data-verdict", "verified", timeout=max(900_000, games * TIMEOUT_PER_GAME)
    )
    m = page.evaluate("""() => { const m = performance.getEntriesByName('pywall:archive').at(-1);
                                 return {ms: m.duration, ...m.detail}; }""")
    assert m["games"] == games, m
    print(profile_line(m["ms"], m.get("profile")), file=sys.stderr)
    return {"rate": games / (m["ms"] / 1000), "workers": m["workers"], "memory": m["memory"]}


def profile_line(ms: float, profile: dict[str, Any] | None) -> str:
    """Where one archive run's time went (archive-run.mjs's profile), in seconds: each worker's
    opening, its last chunk's end, its games and time in Python (and the share of the run it
    was busy so), the first worker's time adding the audit records, the page's own work."""
    if not profile:
        return f"run {ms / 1000:.2f} s (no profile)"
    parts = [f"run {ms / 1000:.2f} s"]
    for w in profile["workers"]:
        busy = w["python"] + (profile["tally"] if w["worker"] == 0 else 0)
        parts.append(
            f"worker {w['worker']}: asked {w['asked'] / 1000:.2f}, opened {w['open'] / 1000:.2f}, last chunk {w['last'] / 1000:.2f}, "
            f"{w['games']} games, Python {w['python'] / 1000:.2f} s ({busy / ms:.0%} busy)"
        )
    parts.append(
        f"records added {profile['tally'] / 1000:.2f} s, page {profile['page'] / 1000:.2f} s"
    )
    return "; ".join(parts)


class RendererMemory:
    """The peak summed memory (PSS) of the renderer processes under the browser launched
    with ``marker`` among its arguments, sampled every 0.2 s (Linux /proc)."""

    def __init__(self, marker: str) -> None:
        self.marker, self.peak, self._stop = marker, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if exc[0] is not None:  # the figure so far, before the error
            print(
                f"peak renderer PSS before the error: {self.peak / 2**20:,.0f} MiB", file=sys.stderr
            )

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, self.now())

    def now(self) -> int:
        procs: dict[int, tuple[int, str]] = {}
        for entry in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            procs[int(entry)] = (ppid, cmd)
        roots = {
            pid for pid, (_, cmd) in procs.items() if self.marker in cmd and "--type=" not in cmd
        }
        total = 0
        for pid, (_, cmd) in procs.items():
            if "--type=renderer" not in cmd:
                continue
            ancestor = pid
            while ancestor in procs and ancestor not in roots:
                ancestor = procs[ancestor][0]
            if ancestor in roots:
                total += pss(pid)
        return total


def pss(pid: int) -> int:
    """A process's proportional set size (shared pages divided among their sharers, so
    that processes' figures add up), or its RSS where the kernel gives no PSS."""
    for name, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            for line in Path(name).read_text().splitlines():
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
        except OSError:
            continue
    return 0


def bench_page(
    db: Path,
    games: int,
    runs: int,
    pools: list[int],
    again: bool = True,
    roots: tuple[Path, ...] = (ROOT,),
) -> tuple[list[dict[int, dict[str, Any]]], int]:
    """The page of each checkout in ``roots`` (each served by its own `build.py serve`), in
    turn within each run, so that the machine's drift falls on all: one result per root."""
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    servers = [start_server(root) for root in roots]
    marker = f"/tmp/pywall-bench-{uuid.uuid4().hex}"
    outs: list[dict[int, dict[str, Any]]] = [
        {n: {"first": [], "again": [], "workers": [], "memory": []} for n in pools} for _ in roots
    ]
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, args=[*CHROMIUM_FLAGS, f"--crash-dumps-dir={marker}"]
            )
            with RendererMemory(marker) as memory:
                for _ in range(runs):
                    for n in pools:
                        for (_, url), out in zip(servers, outs, strict=True):
                            page_run(browser.new_context(), url, db, games, n, again, out[n])
            browser.close()
    finally:
        for server, _ in servers:
            server.terminate()
            server.wait(timeout=10)
    return outs, memory.peak


def page_run(
    context: BrowserContext,
    url: str,
    db: Path,
    games: int,
    n: int,
    again: bool,
    out: dict[str, Any],
) -> None:
    """One new page with a pool of n workers: the database checked once or twice."""
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=120_000)
    page.locator("#workers").select_option(str(n))
    first = run_archive(page, db, games, 0)
    second = run_archive(page, db, games, 1) if again else first
    out["first"].append(first["rate"])
    out["again"].append(second["rate"])
    out["workers"].append(second["workers"])
    out["memory"].append(second["memory"])
    context.close()


def run_cli(args: list[str]) -> tuple[float, str]:
    """(seconds, stdout) of one ``pywall`` run, the whole process as a person runs it."""
    exe = shutil.which("pywall", path=str(Path(sys.executable).parent)) or "pywall"
    t0 = time.perf_counter()
    out = subprocess.run([exe, *args], capture_output=True, text=True, check=False)
    return time.perf_counter() - t0, out.stdout


def bench_cli(db: Path, games: int, jobs: list[str]) -> float:
    seconds, stdout = run_cli(["verify", "--jsonl", *jobs, str(db)])
    summary = json.loads(stdout.splitlines()[-1])["summary"]
    assert summary["files"] == games and summary["verified"] == games, summary
    return games / seconds


def bench_cli_audit(db: Path, games: int, jobs: list[str]) -> float:
    """``pywall audit`` (starting hands, every draw, wall positions) on the file, games/s."""
    seconds, stdout = run_cli(["audit", "--json", *jobs, str(db)])
    counted = json.loads(stdout)["games"]
    assert counted["used"] + len(counted["excluded"]) == games, counted
    return games / seconds


def bench_in_process(db: Path, games: int) -> float:
    done, rate = archive_rate(str(db))
    assert done == games
    return rate


def bench_pyodide(db: Path, runs: int) -> list[float]:
    """The in-process figure's requests inside Pyodide under Node (no page), `runs` times in
    one Node: the most the page's Python can do on this machine's WebAssembly engine, one core."""
    node, index = (
        shutil.which("node"),
        ROOT / "build" / "pyodide",
    )  # the site's runtime, unpacked (build.py)
    if node is None or not (index / "pyodide.mjs").exists():
        return []
    proc = subprocess.run(
        [node, str(ROOT / "benchmarks" / "pyodide_archive.mjs"), str(index), str(db), str(runs)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT / "web",
    )
    rates: list[float] = json.loads(proc.stdout.strip().splitlines()[-1])["rates"]
    return rates


def line(label: str, values: list[float]) -> str:
    return f"| {label} | {statistics.median(values):,.0f} | {min(values):,.0f}–{max(values):,.0f} |"


def print_pairs(
    other: Path,
    before: dict[int, dict[str, Any]],
    after: dict[int, dict[str, Any]],
    pools: list[int],
    again: bool,
) -> None:
    """This page's rate against the other checkout's, run by run (measured in turn)."""
    for n in pools:
        for kind in ("first", "again") if again else ("first",):
            pairs = [b / a for a, b in zip(before[n][kind], after[n][kind], strict=True)]
            print(
                f"the page, {n} worker(s), {kind}: {statistics.median(after[n][kind]):,.0f} games/s "
                f"against {statistics.median(before[n][kind]):,.0f} ({other}); this / that, pair by pair: "
                f"median {statistics.median(pairs):.2f} ({', '.join(f'{r:.2f}' for r in pairs)})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pools", default="1,2", help="pool sizes to measure, e.g. 1,2")
    parser.add_argument(
        "--cli",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also measure the CLI and CPython in-process (default: yes)",
    )
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="distinct simulated games (sim_logs.py, as bench_audit.py; reused from build/bench/) "
        "instead of copies of the fixture logs, whose repeated hands keep caches warm",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout (its site built, e.g. a worktree of main): its page is measured "
        "too, in turn with this one's, and the ratio of each pair printed",
    )
    parser.add_argument(
        "--again",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="check the database a second time in each page (default: yes)",
    )
    args = parser.parse_args()
    pools = [int(n) for n in args.pools.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        if args.distinct:
            db = ROOT / "build" / "bench" / f"simulated-{args.games}.db"
            sim_logs.build(db, args.games)
        else:
            db = make_db(Path(tmp) / "houou-bench.db", args.games)
        size = db.stat().st_size / 1e6
        roots = (ROOT,) if args.against is None else (args.against.resolve(), ROOT)
        pages, peak = bench_page(db, args.games, args.runs, pools, args.again, roots)
        page = pages[-1]
        runs = args.runs if args.cli else 0
        cli1 = [bench_cli(db, args.games, ["--jobs", "1"]) for _ in range(runs)]
        cli2 = [bench_cli(db, args.games, ["--jobs", "2"]) for _ in range(runs)]
        audit2 = [bench_cli_audit(db, args.games, ["--jobs", "2"]) for _ in range(runs)]
        native, pyodide, ratios = [], [], []
        for _ in range(runs):  # pair by pair, so that the host's noise falls on both
            native.append(bench_in_process(db, args.games))
            warm = bench_pyodide(
                db, 2
            )  # its first run warms the engine up, as the page's warm-up does
            if warm:
                pyodide.append(warm[-1])
                ratios.append(warm[-1] / native[-1])
    print(
        f"{args.games:,}-game phoenix-logs database ({size:.1f} MB), games per second, median of {args.runs}"
        f" ({os.cpu_count()} cores):"
    )
    print("| where | games/s | range |")
    print("|---|---|---|")
    for n in pools:
        used = sorted({w for w in page[n]["workers"]})
        print(
            line(
                f"the page, {n} worker(s), first archive (start-up of the others counted)",
                page[n]["first"],
            )
        )
        if args.again:
            print(
                line(
                    f"the page, {n} worker(s), the same archive again (workers that checked it: {used})",
                    page[n]["again"],
                )
            )
    if args.cli:
        print(line("`pywall verify --jobs 1`", cli1))
        print(line("`pywall verify --jobs 2`", cli2))
        print(line("`pywall audit --jobs 2` (what the page's archive run also does)", audit2))
        print(line("CPython in-process, api.handle archive_next", native))
        if pyodide:
            print(line("Pyodide under Node, no page, the same requests (one core)", pyodide))
    med = {n: statistics.median(page[n]["again"]) for n in pools}
    if 1 in med:
        for n in pools:
            if n > 1:
                print(
                    f"\npage, {n} workers / 1 worker: {med[n] / med[1]:.2f}x (again); "
                    f"first: {statistics.median(page[n]['first']) / statistics.median(page[1]['first']):.2f}x"
                )
    if args.cli:
        top = max(pools)
        print(
            f"page, {top} worker(s) / CLI --jobs 2: {med[top] / statistics.median(cli2):.2f}; "
            f"page, 1 worker / CLI --jobs 1: {med.get(1, float('nan')) / statistics.median(cli1):.2f}"
        )
        first = statistics.median(page[top]["first"])
        print(
            f"page's archive audit, {top} worker(s), first archive / `pywall audit --jobs 2`: "
            f"{first / statistics.median(audit2):.2f}"
        )
        if args.against is not None:
            before = statistics.median(pages[0][top]["first"])
            print(f"the same for {args.against}'s page: {before / statistics.median(audit2):.2f}")
        if pyodide:
            print(
                f"Pyodide (no page) / CPython in-process, median of the pairs: {statistics.median(ratios):.2f} "
                f"({', '.join(f'{r:.2f}' for r in ratios)}): the page's ceiling against the CLI on the same cores"
            )
    if args.against is not None:
        print_pairs(args.against, pages[0], page, pools, args.again)
    for n in pools:
        last = page[n]["memory"][-1]
        print(
            f"memory, {n} worker(s): "
            + ", ".join(f"worker {i + 1} {b / 2**20:,.0f} MiB" for i, b in enumerate(last))
        )
    print(
        f"peak memory (PSS) of Chromium's renderer processes (each page and its workers): {peak / 2**20:,.0f} MiB"
    )


if __name__ == "__main__":
    main()
