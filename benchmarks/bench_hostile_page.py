"""The page beside hostile logs (issue 23, part 4): how long a real log waits for its
verdict when dropped with a log whose check would take minutes, or one whose report is
huge, against the same real log dropped alone; and the peak memory. Prints figures.

    .venv/bin/python benchmarks/bench_hostile_page.py [--runs N]

(`python3 build.py site` first.) System Chromium against `build.py serve`, a new page
for each run (one worker on a 2-core machine: the real log waits behind the hostile
one). Times come from the page's `pywall:verify` measures (choosing the files to each
verdict drawn); the peak is the largest resident size (VmHWM) of any process in this
script's tree, the browser's included, sampled every 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright

from benchmarks.bench_web import TIMEOUT, ready_ms, start_server, verify_measures
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.browser.test_hostile_page import huge_reply_log, slow_log
from tests.browser.test_page import PLAIN
from tests.unit.test_cli_hostile import PeakWatcher


def one_run(browser: object, url: str, files: list[Path]) -> tuple[dict[str, float], float]:
    """Each file's time to its verdict (ms from the first request), and the peak MB."""
    watcher = PeakWatcher(__import__("os").getpid())
    watcher.start()
    page = browser.new_page()  # type: ignore[attr-defined]
    ready_ms(page, url)
    page.locator("input[type=file][multiple]").set_input_files([str(p) for p in files])
    for p in files:
        expect(page.locator(f'#results [data-file="{p.name}"]')).to_have_attribute(
            "data-verdict", "verified" if p == PLAIN else "error", timeout=TIMEOUT
        )
    marks = verify_measures(page)
    start = min(m["start"] for m in marks)
    times = {m["name"]: m["end"] - start for m in marks}
    page.close()
    watcher.done.set()
    return times, watcher.peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    with tempfile.TemporaryDirectory() as tmp:
        slow, huge = slow_log(Path(tmp) / "slow.xml"), huge_reply_log(Path(tmp) / "huge.xml")
        cases = {
            "the real log alone": [PLAIN],
            "slow log, then the real log": [slow, PLAIN],
            "huge-report log, then the real log": [huge, PLAIN],
        }
        server, url = start_server()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
                results = {
                    k: [one_run(browser, url, files) for _ in range(args.runs)]
                    for k, files in cases.items()
                }
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    alone = statistics.median(t[PLAIN.name] for t, _ in results["the real log alone"])
    print(
        "| files dropped | real log's verdict (median ms) | vs alone | hostile log's message (median ms) | peak MB |"
    )
    print("|---|---|---|---|---|")
    for label, runs in results.items():
        good = statistics.median(t[PLAIN.name] for t, _ in runs)
        other = [v for t, _ in runs for k, v in t.items() if k != PLAIN.name]
        hostile = f"{statistics.median(other):,.0f}" if other else "—"
        peak = max(mb for _, mb in runs)
        print(f"| {label} | {good:,.0f} | {good / alone:.1f}x | {hostile} | {peak:,.0f} |")


if __name__ == "__main__":
    main()
