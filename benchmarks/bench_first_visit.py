"""What a first visit costs, from a static host that compresses nothing. Prints figures;
asserts nothing.

    .venv/bin/python benchmarks/bench_first_visit.py [--runs N]

(after `python3 build.py site`). Serves site/ with Python's own static server
(`http.server.SimpleHTTPRequestHandler`, what `python3 -m http.server` runs: no
compression, no cache headers), counting the body bytes it sends per file, and opens
the page in system Chromium with a new profile each run: navigation to
`#status[data-state=ready]` (the page's `pywall:ready` mark), then the first visit
to its end (the service worker installed, its precache done, the page controlled).
Per run: the bytes sent, the ready time and the CPU time Chromium's processes spent from
navigation to ready (the page and its first Python worker: user and system time of every
Chromium process under this one, from /proc, so Linux only); then the bytes per file of
the last run, and the start-up step by step (medians, ms from navigation: the HTML, the
first worker started, its modules run, the runtime files fetched and checked, the
interpreter compiled, the snapshot unpacked, Python up, ready).

The start-up snapshot's worth: the same cold start with the snapshot refused (404:
the worker starts Python without it), pair by pair with the normal start in
alternating order, and the ratio of the pairs' ready times beside the bytes it costs.
Figures from `build.py serve` (a host that compresses: brotli) come last.

    .venv/bin/python benchmarks/bench_first_visit.py --against DIR [--runs N]

also visits another checkout's built site (DIR/site, e.g. main's) from the same kind of
server, pair by pair in alternating order, and prints its bytes, its ready times and CPU,
and the ratios of the pairs (medians). `--pairs-only` leaves out the start without the
snapshot and the brotli host (quicker on a shared machine).
"""

from __future__ import annotations

import argparse
import os
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


def chromium_cpu_seconds() -> dict[int, float]:
    """User and system CPU seconds of each Chromium process under this one, by pid."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :]
        values = fields.split()
        pid = int(entry.name)
        parents[pid], names[pid] = int(values[1]), name
        times[pid] = (int(values[11]) + int(values[12])) / tick
    mine, found = os.getpid(), {}
    for pid, seconds in times.items():
        ancestor = parents.get(pid, 0)
        while ancestor > 1 and ancestor != mine:
            ancestor = parents.get(ancestor, 0)
        if ancestor == mine and "chrom" in names[pid].lower():
            found[pid] = seconds
    return found


def cpu_since(before: dict[int, float]) -> float:
    """Chromium's CPU seconds since ``before`` (a process started since counts whole)."""
    now = chromium_cpu_seconds()
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in now.items())


#: The page's start-up, step by step: the page's marks and the first worker's phases
#: (worker.mjs, ready's `phases`), in ms from navigation.
STEPS_JS = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const ready = mark('pywall:ready');
  const phases = (ready.detail && ready.detail.phases) || {};
  const shift = phases.origin ? phases.origin - performance.timeOrigin : 0;
  const steps = { html: nav.responseEnd, 'DOMContentLoaded': nav.domContentLoadedEventEnd };
  if (mark('pywall:early')) steps['worker started'] = mark('pywall:early').startTime;
  for (const [name, ms] of Object.entries(phases)) if (name !== 'origin') steps['worker: ' + name] = ms + shift;
  return steps;
}"""


def start_up_steps(page: Page) -> dict[str, float]:
    """When each step of the start-up ended, in ms from navigation (STEPS_JS)."""
    return {str(k): float(v) for k, v in page.evaluate(STEPS_JS).items()}


def first_visit(
    browser: Any, url: str, snapshot: bool = True, steps: dict[str, float] | None = None
) -> tuple[float, bool, float]:
    """A new profile's visit: (navigation -> ready in ms, whether Python started from the
    snapshot, Chromium's CPU seconds to ready); returns once the service worker controls
    the page (its precache done). ``steps`` is given when each start-up step ended."""
    steps = {} if steps is None else steps
    context = browser.new_context()
    page: Page = context.new_page()
    if not snapshot:
        page.route(
            re.compile(r".*/python-snapshot\.bin.*"),
            lambda route: route.fulfill(status=404, body="no"),
        )
    before = chromium_cpu_seconds()
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=TIMEOUT)
    cpu = cpu_since(before)
    ready = page.evaluate(
        "() => { const m = performance.getEntriesByName('pywall:ready')[0];"
        " return [m.startTime, m.detail.snapshot]; }"
    )
    steps.update(start_up_steps(page))
    for _ in range(1200):
        if page.evaluate("() => !!navigator.serviceWorker.controller"):
            break
        time.sleep(0.05)
    context.close()
    return float(ready[0]), bool(ready[1]), cpu


def mb(n: float) -> str:
    return f"{n / 1e6:,.2f} MB"


def median_of(values: list[float], unit: str = "ms") -> str:
    shown = ", ".join(f"{v:,.0f}" if unit == "ms" else f"{v:.2f}" for v in values)
    middle = statistics.median(values)
    return (
        f"median {middle:,.0f} ms ({shown})" if unit == "ms" else f"median {middle:.2f} s ({shown})"
    )


class Visits:
    """One site's first visits: bytes sent, ready times (ms), Chromium's CPU to ready (s)."""

    def __init__(self, label: str, url: str, counter: Any) -> None:
        self.label, self.url, self.counter = label, url, counter
        self.totals: list[int] = []
        self.readies: list[float] = []
        self.cpus: list[float] = []
        self.steps: list[dict[str, float]] = []

    def visit(self, browser: Any) -> None:
        self.counter.reset()
        steps: dict[str, float] = {}
        ready, from_snapshot, cpu = first_visit(browser, self.url, steps=steps)
        self.steps.append(steps)
        self.totals.append(sum(self.counter.bytes.values()))
        self.readies.append(ready)
        self.cpus.append(cpu)
        print(
            f"  {self.label}: {mb(self.totals[-1])} sent, ready in {ready:,.0f} ms, "
            f"CPU {cpu:.2f} s (snapshot: {from_snapshot})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--against", type=Path, help="another checkout whose built site/ to compare with"
    )
    parser.add_argument(
        "--pairs-only",
        action="store_true",
        help="only the first visits (and --against's): no start without the snapshot, no brotli",
    )
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    without: list[float] = []
    pairs: list[float] = []
    brotli_readies: list[float] = []
    other_site = (args.against.resolve() / "site") if args.against else SITE
    proc, serve_url = start_server()
    try:
        with (
            plain_host(SITE) as (url, counter),
            plain_host(other_site) as (other_url, other_counter),
            sync_playwright() as pw,
        ):
            this = Visits("this", url, counter)
            other = Visits("against", other_url, other_counter)
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            for i in range(args.runs):
                print(f"run {i + 1}:", flush=True)
                order = [this, other] if args.against else [this]
                for visits in order if i % 2 == 0 else order[::-1]:
                    visits.visit(browser)
            per_file = dict(counter.bytes)
            responses = {k: list(v) for k, v in counter.responses.items()}
            for i in range(0 if args.pairs_only else args.runs):
                snaps = (True, False) if i % 2 == 0 else (False, True)
                got = {snap: first_visit(browser, url, snapshot=snap)[0] for snap in snaps}
                without.append(got[False])
                pairs.append(got[False] / got[True])
            for _ in range(0 if args.pairs_only else args.runs):
                brotli_readies.append(first_visit(browser, serve_url)[0])
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print("\n| file | bytes sent | responses |\n|---|---|---|")
    for path, size in sorted(per_file.items(), key=lambda kv: -kv[1]):
        print(f"| {path} | {size:,} | {' '.join(map(str, responses[path]))} |")
    report(this, other if args.against else None, len(per_file))
    if not args.pairs_only:
        snapshot_bytes = sum(v for k, v in per_file.items() if "python-snapshot" in k)
        print(
            f"without the snapshot: {median_of(without)}; without/with, median of "
            f"{len(pairs)} pairs: {statistics.median(pairs):.2f}x; the snapshot costs {mb(snapshot_bytes)}"
        )
        print(f"navigation -> ready, cold, build.py serve (brotli): {median_of(brotli_readies)}")


def print_steps(visits: Visits) -> None:
    """The median time from navigation at which each start-up step ended."""
    names = sorted(
        {n for steps in visits.steps for n in steps},
        key=lambda n: statistics.median(s[n] for s in visits.steps if n in s),
    )
    print(f"{visits.label}'s start-up, median ms from navigation at which each step ended:")
    for name in names:
        print(f"  {statistics.median(s[name] for s in visits.steps if name in s):7,.0f}  {name}")


def report(this: Visits, other: Visits | None, files: int) -> None:
    totals = this.totals
    print(
        f"\nfirst visit from http.server: {mb(statistics.median(totals))} sent (median of "
        f"{len(totals)}: {', '.join(mb(t) for t in totals)}); {files} files"
    )
    print(f"navigation -> ready, cold, http.server: {median_of(this.readies)}")
    print(f"Chromium's CPU from navigation to ready: {median_of(this.cpus, 's')}")
    print_steps(this)
    if other is None:
        return
    print_steps(other)
    ready = statistics.median(a / b for a, b in zip(this.readies, other.readies, strict=True))
    cpu = statistics.median(a / b for a, b in zip(this.cpus, other.cpus, strict=True))
    print(
        f"against: {mb(statistics.median(other.totals))} sent; ready {median_of(other.readies)}; "
        f"CPU {median_of(other.cpus, 's')}"
    )
    print(f"this/that, median of {len(this.readies)} pairs: ready {ready:.2f}x, CPU {cpu:.2f}x")


if __name__ == "__main__":
    main()
