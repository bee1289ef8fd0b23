"""Games per second for a whole archive in the page, next to the CLI's. Prints figures.

    .venv/bin/python benchmarks/bench_web_archive.py [--games 2000] [--runs 3]

(after `python3 build.py site`). Builds a phoenix-logs-schema database of
--games games from the fixture logs (bz2-compressed XML; rows repeat the
fixtures' content under new ids), then measures:
  * the page, in system Chromium against `build.py serve`: from choosing the
    file to its last game's verdict (the page's `pywall:archive` measure, so
    Playwright's polling does not count), games per second, median of --runs;
  * `pywall verify --jsonl` on the same file, with --jobs 1 and with the
    default (all cores): the whole process, as a person runs it;
  * CPython in-process through the same requests the page's worker makes
    (`archive_open`, then `archive_next` chunks, through `api.handle`).
"""

from __future__ import annotations

import argparse
import bz2
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright

from benchmarks.bench_web import start_server
from pywall import api
from pywall.inputs import count_file, items_from_file
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.helpers import fixture_paths, log_text

TIMEOUT = 900_000
SCHEMA = ("CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int, "
          "is_processed int, was_error int, log_content text, log_hash text)")


def make_db(path: Path, games: int) -> Path:
    blobs = [bz2.compress(log_text(p).encode()) for p in fixture_paths()]
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(SCHEMA)
        conn.executemany("INSERT INTO logs VALUES (?, 0, 0, 1, 0, ?, '')",
                         ((f"2019010100gm-00a9-0000-{i:08x}", blobs[i % len(blobs)]) for i in range(games)))
    conn.close()
    return path


def bench_page(db: Path, games: int, runs: int) -> list[float]:
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    server, url = start_server()
    rates = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            for _ in range(runs):
                context = browser.new_context()
                page = context.new_page()
                page.goto(url)
                expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=120_000)
                page.locator("input[type=file][multiple]").set_input_files(str(db))
                node = page.locator(f'#results [data-file="{db.name}"]')
                expect(node).to_have_attribute("data-verdict", "verified", timeout=TIMEOUT)
                m = page.evaluate("""() => { const m = performance.getEntriesByName('pywall:archive').at(-1);
                                             return {ms: m.duration, games: m.detail.games}; }""")
                assert m["games"] == games, m
                rates.append(games / (m["ms"] / 1000))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return rates


def bench_cli(db: Path, games: int, jobs: list[str]) -> float:
    exe = shutil.which("pywall", path=str(Path(sys.executable).parent)) or "pywall"
    t0 = time.perf_counter()
    out = subprocess.run([exe, "verify", "--jsonl", *jobs, str(db)], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert summary["files"] == games and summary["verified"] == games, summary
    return games / seconds


def bench_in_process(db: Path, games: int) -> float:
    def opener(path: str, label: str) -> tuple[int, object]:  # as web/worker_py.py opens it
        return count_file(Path(path)), items_from_file(Path(path), label=label)

    runs = api.Api(opener)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    api.handle("archive_open", json.dumps({"run": "bench", "label": db.name, "path": str(db)}), None, runs)
    done = 0
    while True:
        out = json.loads(api.handle("archive_next", json.dumps({"run": "bench", "limit": 100}), None, runs))
        done += len(out["rows"])
        if out["done"]:
            break
    assert done == games
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = make_db(Path(tmp) / "houou-bench.db", args.games)
        size = db.stat().st_size / 1e6
        page = bench_page(db, args.games, args.runs)
        cli1 = [bench_cli(db, args.games, ["--jobs", "1"]) for _ in range(args.runs)]
        cli = [bench_cli(db, args.games, []) for _ in range(args.runs)]
        native = [bench_in_process(db, args.games) for _ in range(args.runs)]
    print(f"{args.games:,}-game phoenix-logs database ({size:.1f} MB), games per second, median of {args.runs}:")
    print("| where | games/s | range |")
    print("|---|---|---|")
    for label, values in (("the page (Pyodide in a worker)", page),
                          ("`pywall verify --jobs 1`", cli1),
                          ("`pywall verify` (all cores)", cli),
                          ("CPython in-process, api.handle archive_next", native)):
        print(f"| {label} | {statistics.median(values):,.0f} | {min(values):,.0f}–{max(values):,.0f} |")
    print(f"\npage / CLI --jobs 1: {statistics.median(page) / statistics.median(cli1):.2f}")


if __name__ == "__main__":
    main()
