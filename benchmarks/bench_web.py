"""The web page's speed, as a person meets it. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_web.py [--runs N]

(or `python3 build.py site` first and run it with the venv's Python). Measures,
in system Chromium against `build.py serve`:
  * navigation -> `#status[data-state=ready]`, cold (a new browser profile each
    time: nothing cached) and warm (the same profile again: service worker and
    its cache in place), medians;
  * one 17-round game (gimite/test.mjlog) after ready: from choosing the file to
    its verdict on screen, median; beside it CPython's `api.handle("verify", ...)`
    (the page's own request) on the same bytes, in-process;
  * a 50-log batch: the page (first request to last verdict drawn) against the
    CLI (`pywall verify` on the same 50 files, a new process, as a person runs it);
    in a new page (its one worker: this machine's automatic pool size when it has two
    cores) and with a pool of two workers already running (the "Python workers"
    setting at 2, started by a batch of two logs first).
Times in the page come from its own performance marks (`pywall:ready`, and
`pywall:verify` measures), so Playwright's polling does not count.

    .venv/bin/python benchmarks/bench_web.py --against DIR [--runs N]

compares this checkout's page with another checkout's (DIR: a worktree of an older
commit with its site built, e.g. `git worktree add ../old COMMIT && (cd ../old &&
python3 build.py site)`), pair by pair on the same browser: each pair measures
both pages back to back, in alternating order, so the noise of a shared machine
falls on both; it prints each page's medians and the ratio of the pair medians.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect, sync_playwright

from pywall.page import api
from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path
from tests.helpers import current_format_paths

GAME = ROOT / "tests" / "data" / "tenhou" / "gimite" / "test.mjlog"
TIMEOUT = 120_000


def start_server(root: Path = ROOT) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, str(root / "build.py"), "serve", "--port", "0"],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    match = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline())
    assert match, "build.py serve did not print its URL"
    return proc, match.group(0)


def ready_ms(page: Page, url: str) -> float:
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=TIMEOUT)
    return float(page.evaluate("() => performance.getEntriesByName('pywall:ready')[0].startTime"))


def verify_measures(page: Page) -> list[dict[str, Any]]:
    return list(
        page.evaluate("""() => performance.getEntriesByName('pywall:verify')
        .map(m => ({start: m.startTime, end: m.startTime + m.duration, name: m.detail}))""")
    )


def wait_controlled(page: Page) -> None:
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    for _ in range(200):
        if page.evaluate("() => !!navigator.serviceWorker.controller"):
            return
        time.sleep(0.05)


def bench_ready(
    browser: Any, url: str, runs: int, warm: bool = True
) -> tuple[list[float], list[float]]:
    cold = []
    for _ in range(runs):
        context = browser.new_context()
        cold.append(ready_ms(context.new_page(), url))
        context.close()
    if not warm:
        return cold, []
    context = browser.new_context()
    page = context.new_page()
    ready_ms(page, url)
    wait_controlled(page)
    warm_ms = []
    for _ in range(runs):
        page = context.new_page()
        warm_ms.append(ready_ms(page, url))
        page.close()
    context.close()
    return cold, warm_ms


def bench_one_game(browser: Any, url: str, runs: int) -> list[float]:
    context = browser.new_context()
    page = context.new_page()
    ready_ms(page, url)
    chooser = page.locator("input[type=file][multiple]")
    for i in range(runs + 1):  # the first run warms Python's imports; it is dropped
        chooser.set_input_files(str(GAME))
        expect(page.locator("#results [data-verdict]")).to_have_count(i + 1, timeout=TIMEOUT)
    durations = [m["end"] - m["start"] for m in verify_measures(page)][1:]
    context.close()
    return durations


def start_pool(page: Page, size: int) -> None:
    """The "Python workers" setting at `size`, and that many workers running (a batch of
    two logs starts the second; it is cleared again)."""
    page.locator("#workers").select_option(str(size))
    page.locator("input[type=file][multiple]").set_input_files(
        [str(GAME), str(current_format_paths()[0])]
    )
    expect(page.locator("#results [data-verdict]")).to_have_count(2, timeout=TIMEOUT)
    expect(page.locator("#status")).to_have_attribute("data-workers", str(size), timeout=TIMEOUT)
    page.locator("#clear").click()
    page.evaluate("() => performance.clearMeasures('pywall:verify')")


def bench_page_batch(
    browser: Any, url: str, files: list[Path], runs: int, pool: int = 0
) -> list[float]:
    out = []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        ready_ms(page, url)
        if pool:
            start_pool(page, pool)
        page.locator("input[type=file][multiple]").set_input_files([str(p) for p in files])
        expect(page.locator("#results [data-verdict]")).to_have_count(len(files), timeout=TIMEOUT)
        measures = verify_measures(page)
        out.append(max(m["end"] for m in measures) - min(m["start"] for m in measures))
        context.close()
    return out


def bench_cli(files: list[Path], runs: int, extra: tuple[str, ...] = ()) -> list[float]:
    exe = shutil.which("pywall", path=str(Path(sys.executable).parent)) or "pywall"
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([exe, "verify", *extra, *map(str, files)], capture_output=True, check=False)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def verify(name: str, data: bytes) -> str:
    """The page's `verify` request, in CPython."""
    return api.handle("verify", json.dumps({"name": name}), data)


def bench_cpython_batch(files: list[Path], runs: int) -> list[float]:
    blobs = [(p.name, p.read_bytes()) for p in files]
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for name, data in blobs:
            verify(name, data)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def bench_cpython_game(runs: int) -> list[float]:
    data = GAME.read_bytes()
    verify(GAME.name, data)
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        verify(GAME.name, data)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def row(label: str, values: list[float], note: str = "") -> str:
    med = statistics.median(values)
    return f"| {label} | {med:,.0f} ms | {min(values):,.0f}–{max(values):,.0f} ms | {len(values)} | {note} |"


def against(other: Path, runs: int, chromium: str, files: list[Path]) -> None:
    """This checkout's page (B) against another's (A), pair by pair."""
    servers = {"A": start_server(other), "B": start_server(ROOT)}
    names = {"A": str(other), "B": str(ROOT)}
    keys = ("cold", "warm", "game", "batch")
    got: dict[str, dict[str, list[float]]] = {s: {k: [] for k in keys} for s in servers}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            warm_contexts = {}
            for side, (_, url) in servers.items():
                context = browser.new_context()
                page = context.new_page()
                ready_ms(page, url)
                wait_controlled(page)
                warm_contexts[side] = context
            for i in range(runs):
                for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
                    url = servers[side][1]
                    cold, _ = bench_ready(browser, url, 1, warm=False)
                    got[side]["cold"] += cold
                    page = warm_contexts[side].new_page()
                    got[side]["warm"].append(ready_ms(page, url))
                    page.close()
                    got[side]["game"].append(statistics.median(bench_one_game(browser, url, 3)))
                    got[side]["batch"] += bench_page_batch(browser, url, files, 1)
            browser.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=10)
    labels = {
        "cold": "navigation → ready, cold",
        "warm": "navigation → ready, warm",
        "game": "one 17-round game in the page",
        "batch": f"{len(files)}-log batch in the page",
    }
    print(f"A = {names['A']}\nB = {names['B']}\n")
    print("| what | A median | B median | B/A (median of pairs) | pairs |")
    print("|---|---|---|---|---|")
    for key in keys:
        a, b = got["A"][key], got["B"][key]
        ratio = statistics.median(y / x for x, y in zip(a, b, strict=True))
        print(
            f"| {labels[key]} | {statistics.median(a):,.0f} ms | {statistics.median(b):,.0f} ms "
            f"| {ratio:.2f} | {len(a)} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--against", type=Path, help="another checkout (its site built) to compare with"
    )
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        sys.exit("no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium")
    files = current_format_paths()[:50]
    if args.against:
        against(args.against.resolve(), args.runs, chromium, files)
        return
    server, url = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            cold, warm = bench_ready(browser, url, args.runs)
            game = bench_one_game(browser, url, max(args.runs, 7))
            page_batch = bench_page_batch(browser, url, files, max(1, args.runs // 2))
            pool_batch = bench_page_batch(browser, url, files, max(1, args.runs // 2), pool=2)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    cli = bench_cli(files, 3)
    cli_one = bench_cli(files, 3, ("--jobs", "1"))
    native = bench_cpython_game(max(args.runs, 7))
    native_batch = bench_cpython_batch(files, 3)
    print("| what | median | range | runs | note |")
    print("|---|---|---|---|---|")
    print(row("navigation → ready, cold", cold, "new profile each run"))
    print(row("navigation → ready, warm", warm, "service worker cache"))
    print(row("one 17-round game in the page", game, "choose file → verdict drawn"))
    print(row("same game, CPython api.handle verify", native, "in-process"))
    print(row(f"{len(files)}-log batch in the page", page_batch, "first request → last verdict"))
    print(
        row(
            f"{len(files)}-log batch in the page, 2 workers running",
            pool_batch,
            "first request → last verdict",
        )
    )
    print(row(f"{len(files)}-log batch, `pywall verify` CLI", cli, "whole process, all cores"))
    print(
        row(f"{len(files)}-log batch, `pywall verify --jobs 1`", cli_one, "whole process, one core")
    )
    print(
        row(
            f"{len(files)}-log batch, CPython api.handle verify",
            native_batch,
            "in-process, one core",
        )
    )
    ratio = statistics.median(game) / statistics.median(native)
    per = {
        k: statistics.median(v) / len(files)
        for k, v in (
            ("page", page_batch),
            ("pool", pool_batch),
            ("cli", cli),
            ("cli1", cli_one),
            ("native", native_batch),
        )
    }
    print(
        f"\none game, page/CPython: {ratio:.1f}x. Per game in the batch: page {per['page']:.0f} ms, "
        f"CLI {per['cli']:.0f} ms ({per['page'] / per['cli']:.1f}x), CLI --jobs 1 {per['cli1']:.0f} ms "
        f"({per['page'] / per['cli1']:.1f}x), CPython in-process {per['native']:.0f} ms "
        f"({per['page'] / per['native']:.1f}x); page with 2 workers running {per['pool']:.1f} ms "
        f"({per['pool'] / per['cli']:.1f}x the CLI)"
    )


if __name__ == "__main__":
    main()
