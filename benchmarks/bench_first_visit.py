"""What a first visit costs, from a static host that compresses nothing. Prints figures;
asserts nothing.

    .venv/bin/python benchmarks/bench_first_visit.py [--runs N]

(after `python3 build.py site`). Serves site/ with Python's own static server
(`http.server.SimpleHTTPRequestHandler`, what `python3 -m http.server` runs: no
compression, no cache headers), counting the body bytes it sends per file, and opens
the page in system Chromium with a new profile each run: navigation to
`#status[data-state=ready]` (the page's `pywall:ready` mark), then the first visit
to its end (the service worker installed, its precache done, the page controlled).
Per run: the bytes sent and the ready time; then the bytes per file of the last run.

The start-up snapshot's worth: the same cold start with the snapshot refused (404:
the worker starts Python without it), pair by pair with the normal start in
alternating order, and the ratio of the pairs' ready times beside the bytes it costs.
Figures from `build.py serve` (a host that compresses: brotli) come last.

    .venv/bin/python benchmarks/bench_first_visit.py --against DIR [--runs N]

also visits another checkout's built site (DIR/site, e.g. main's) from the same kind of
server, each run right after this one's, and prints its bytes, its ready times and
the ratio of the pairs.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect, sync_playwright

from benchmarks.bench_web import start_server
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.browser.plain_host import plain_host

SITE = ROOT / "site"
TIMEOUT = 120_000


def first_visit(browser: Any, url: str, snapshot: bool = True) -> tuple[float, bool]:
    """A new profile's visit: (navigation -> ready in ms, whether Python started from the
    snapshot); returns once the service worker controls the page (its precache done)."""
    context = browser.new_context()
    page: Page = context.new_page()
    if not snapshot:
        page.route(
            re.compile(r".*/python-snapshot\.bin.*"),
            lambda route: route.fulfill(status=404, body="no"),
        )
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=TIMEOUT)
    ready = page.evaluate(
        "() => { const m = performance.getEntriesByName('pywall:ready')[0];"
        " return [m.startTime, m.detail.snapshot]; }"
    )
    for _ in range(1200):
        if page.evaluate("() => !!navigator.serviceWorker.controller"):
            break
        time.sleep(0.05)
    context.close()
    return float(ready[0]), bool(ready[1])


def mb(n: float) -> str:
    return f"{n / 1e6:,.2f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--against", type=Path, help="another checkout whose built site/ to compare with"
    )
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    totals, readies, without, pairs, brotli_readies = [], [], [], [], []
    other_totals, other_readies = [], []
    other_site = (args.against.resolve() / "site") if args.against else SITE
    proc, serve_url = start_server()
    try:
        with (
            plain_host(SITE) as (url, counter),
            plain_host(other_site) as (other_url, other),
            sync_playwright() as pw,
        ):
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            for i in range(args.runs):
                counter.reset()
                ready, from_snapshot = first_visit(browser, url)
                totals.append(sum(counter.bytes.values()))
                readies.append(ready)
                print(
                    f"run {i + 1}: {mb(totals[-1])} sent, ready in {ready:,.0f} ms "
                    f"(snapshot: {from_snapshot})",
                    flush=True,
                )
                if args.against:
                    other.reset()
                    other_readies.append(first_visit(browser, other_url)[0])
                    other_totals.append(sum(other.bytes.values()))
                    print(
                        f"  against: {mb(other_totals[-1])} sent, ready in {other_readies[-1]:,.0f} ms",
                        flush=True,
                    )
            per_file = dict(counter.bytes)
            responses = {k: list(v) for k, v in counter.responses.items()}
            for i in range(args.runs):
                order = (True, False) if i % 2 == 0 else (False, True)
                got = {snap: first_visit(browser, url, snapshot=snap)[0] for snap in order}
                without.append(got[False])
                pairs.append(got[False] / got[True])
            for _ in range(args.runs):
                brotli_readies.append(first_visit(browser, serve_url)[0])
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print("\n| file | bytes sent | responses |\n|---|---|---|")
    for path, size in sorted(per_file.items(), key=lambda kv: -kv[1]):
        print(f"| {path} | {size:,} | {' '.join(map(str, responses[path]))} |")
    snapshot_bytes = sum(v for k, v in per_file.items() if "python-snapshot" in k)
    print(
        f"\nfirst visit from http.server: {mb(statistics.median(totals))} sent (median of "
        f"{len(totals)}: {', '.join(mb(t) for t in totals)}); {len(per_file)} files"
    )
    print(
        f"navigation -> ready, cold, http.server: median {statistics.median(readies):,.0f} ms "
        f"({', '.join(f'{r:,.0f}' for r in readies)})"
    )
    if args.against:
        ratio = statistics.median(b / a for a, b in zip(other_readies, readies, strict=True))
        print(
            f"against {args.against}: {mb(statistics.median(other_totals))} sent; ready median "
            f"{statistics.median(other_readies):,.0f} ms; this/that, median of pairs: {ratio:.2f}x"
        )
    print(
        f"without the snapshot: median {statistics.median(without):,.0f} ms; without/with, median of "
        f"{len(pairs)} pairs: {statistics.median(pairs):.2f}x; the snapshot costs {mb(snapshot_bytes)}"
    )
    print(
        f"navigation -> ready, cold, build.py serve (brotli): median "
        f"{statistics.median(brotli_readies):,.0f} ms ({', '.join(f'{r:,.0f}' for r in brotli_readies)})"
    )


if __name__ == "__main__":
    main()
