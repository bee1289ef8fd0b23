"""The page in WebKit against Chromium, in the same run. Prints figures; asserts nothing
but that each run ends.

    .venv/bin/python benchmarks/bench_engines.py [--runs 3] [--games 300] [--pause 0]

(after `python3 build.py site`). WebKitGTK's MiniBrowser through WebKitWebDriver under
xvfb-run (tests/engines/drivers.py) and Debian's chromium through Playwright, each run a
new browser with a new profile, the two engines in turn so that the noise of a shared
machine falls on both:
  * ready: navigation to `#status[data-state=ready]` (the page's `pywall:ready` mark),
    with the worker's start-up phases (`times`: runtime, package, glue, ms from the
    worker's start);
  * archive: a zip of --games simulated games (benchmarks/sim_logs.py), chosen as soon as
    the page is ready (or --pause seconds later: a person finding their file): from choosing it to its last game's verdict (the page's
    `pywall:archive` measure), then the audit (click to `#audit-out [data-result=audit]`);
    beside it when the worker's warm-up after ready ended (`pywall:warmed`, ms after ready;
    cut short when the zip came first), and with --timeline the first chunks (games, ms a
    game in Python, when answered: the page's archive profile).
Medians of --runs, WebKit over Chromium pair by pair (each run's two engines in turn) and
of the medians; the load average before, after and at each run.
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import statistics
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright

from benchmarks import sim_logs
from tests.browser.conftest import chromium_path
from tests.engines.drivers import WebKit
from tests.engines.test_engines import PRELUDE, open_ready
from tests.helpers import served_site

TIMEOUT_S = 600
READY = """
const m = performance.getEntriesByName("pywall:ready")[0];
return { ms: m.startTime, times: m.detail.times, snapshot: m.detail.snapshot };
"""
#: args[0]: the zip as base64, args[1]: seconds to wait after ready. Chosen in the page's
#: file input, as a person does.
ARCHIVE = """
await new Promise((r) => setTimeout(r, args[1] * 1000));
const dt = new DataTransfer();
dt.items.add(new File([Uint8Array.from(atob(args[0]), (c) => c.charCodeAt(0))], "games.zip"));
const input = $("#files");
const chosen = performance.now();
input.files = dt.files;
input.dispatchEvent(new Event("change", { bubbles: true }));
const m = await until("the archive's end", () => performance.getEntriesByName("pywall:archive")[0], 560000);
const button = () => $("button[data-action=audit]");
await until("the audit button", () => button() && !button().hidden && !button().disabled);
const clicked = performance.now();
button().click();
await until("the audit", () => $('#audit-out [data-result="audit"]'), 560000);
const audit = performance.now() - clicked;
const ready = performance.getEntriesByName("pywall:ready")[0].startTime;
const warmed = performance.getEntriesByName("pywall:warmed")[0];
return { archive: m.startTime + m.duration - chosen, games: m.detail.games, audit,
  warmed: warmed ? warmed.startTime - ready : null, cut: warmed ? Boolean(warmed.detail.cut) : null,
  chunks: (m.detail.profile && m.detail.profile.chunks) || [] };
"""


def zip_of(games: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for i, text in enumerate(sim_logs.logs(games)):
            z.writestr(f"g{i:04d}.mjlog", text)
    return buffer.getvalue()


def in_webkit(url: str, data: str, pause: float) -> tuple[dict[str, Any], dict[str, Any]]:
    browser = WebKit()
    try:
        open_ready(browser, url, fresh=True)
        ready = browser.run(PRELUDE + READY)
        return ready, browser.run(PRELUDE + ARCHIVE, data, pause)
    finally:
        browser.close()


def in_chromium(
    pw: Any, url: str, data: str, pause: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    browser = pw.chromium.launch(
        executable_path=chromium_path(),
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )
    try:
        page: Page = browser.new_context().new_page()
        page.set_default_timeout(TIMEOUT_S * 1000)
        page.goto(url)
        page.wait_for_selector("#status[data-state=ready]")
        script = f"async (args) => {{ {PRELUDE} {{body}} }}"
        ready = page.evaluate(script.replace("{body}", READY), [])
        return ready, page.evaluate(script.replace("{body}", ARCHIVE), [data, pause])
    finally:
        browser.close()


def timeline(chunks: list[list[int]]) -> str:
    """The first chunks of a run: games, ms a game in Python, and when each was answered."""
    return ", ".join(
        f"{games}@{ms / max(games, 1):.0f}ms/game(t={at / 1000:.1f}s)"
        for _, _, games, ms, at in chunks[:12]
    )


def pairs(results: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]) -> None:
    """WebKit over Chromium run by run (each run's two engines ran one after the other)."""
    runs = zip(results["webkit"], results["chromium"], strict=True)
    ready, archive = [], []
    for (w_ready, w_archive), (c_ready, c_archive) in runs:
        ready.append(w_ready["ms"] / c_ready["ms"])
        archive.append(w_archive["archive"] / c_archive["archive"])
    print("WebKit / Chromium, pair by pair")
    print(
        f"  ready    {', '.join(f'{r:.2f}' for r in ready)}  median {statistics.median(ready):.2f}x"
    )
    print(
        f"  archive  {', '.join(f'{r:.2f}' for r in archive)}  median {statistics.median(archive):.2f}x"
    )


def line(name: str, values: list[float], unit: str = "s") -> str:
    shown = ", ".join(f"{v:.2f}" for v in values)
    return f"  {name:<26} median {statistics.median(values):6.2f} {unit}  ({shown})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument(
        "--pause", type=float, default=0.0, help="seconds from ready to choosing the zip"
    )
    parser.add_argument(
        "--timeline", action="store_true", help="print each run's first chunks of the archive"
    )
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    data = base64.b64encode(zip_of(args.games)).decode()
    results: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {"webkit": [], "chromium": []}
    with served_site() as url, sync_playwright() as pw:
        for i in range(args.runs):
            for engine in ("webkit", "chromium") if i % 2 == 0 else ("chromium", "webkit"):
                started = time.monotonic()
                got = (
                    in_webkit(url, data, args.pause)
                    if engine == "webkit"
                    else in_chromium(pw, url, data, args.pause)
                )
                results[engine].append(got)
                ready, archive = got
                print(
                    f"run {i + 1} {engine}: ready {ready['ms'] / 1000:.2f} s {ready['times']}, "
                    f"{archive['games']} games {archive['archive'] / 1000:.2f} s, "
                    f"audit {archive['audit'] / 1000:.2f} s, warmed {archive['warmed']} ms after ready"
                    f"{' (cut short by the zip)' if archive.get('cut') else ''} "
                    f"({time.monotonic() - started:.0f} s in all; load {os.getloadavg()[0]:.2f})",
                    flush=True,
                )
                if args.timeline:
                    print(f"    chunks: {timeline(archive.get('chunks') or [])}", flush=True)
    medians: dict[str, dict[str, float]] = {}
    for engine, runs in results.items():
        figures = {
            "ready": [r["ms"] / 1000 for r, _ in runs],
            "runtime phase": [r["times"]["runtime"] / 1000 for r, _ in runs],
            "package phase": [
                (r["times"]["package"] - r["times"]["runtime"]) / 1000 for r, _ in runs
            ],
            f"archive ({args.games} games)": [a["archive"] / 1000 for _, a in runs],
            "audit": [a["audit"] / 1000 for _, a in runs],
        }
        print(engine)
        for name, values in figures.items():
            print(line(name, values))
        medians[engine] = {name: statistics.median(values) for name, values in figures.items()}
    pairs(results)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    print("WebKit / Chromium (medians)")
    for name, value in medians["webkit"].items():
        print(f"  {name:<26} {value / max(medians['chromium'][name], 1e-9):.2f}x")


if __name__ == "__main__":
    main()
