"""A first visit from a static host that compresses nothing (Python's http.server):
each file is fetched once, the large runtime files come packed and are unpacked in the
page's worker, and a host that sends them with Content-Encoding: gzip works as well."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.plain_host import Counter, plain_host
from tests.helpers import ROOT, TENHOU, load_build

SITE = ROOT / "site"
READY_MS = 90_000
LOG = TENHOU / "dnovikoff" / "example.xml"
#: The issue's target for a first visit from a host that compresses nothing.
FIRST_VISIT_BYTES = 12_000_000


def visit(browser: Browser, url: str) -> tuple[bool, str]:
    """A new profile: ready, a log verified, then the service worker in control (its
    precache done); (whether Python started from the snapshot, the log's verdict)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.locator("input[type=file][multiple]").set_input_files(str(LOG))
    verdict = page.locator("#results [data-verdict]")
    expect(verdict).to_have_count(1, timeout=READY_MS)
    snapshot = page.evaluate(
        "() => performance.getEntriesByName('pywall:ready')[0].detail.snapshot"
    )
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    for _ in range(600):
        if page.evaluate("() => !!navigator.serviceWorker.controller"):
            break
        time.sleep(0.1)
    assert page.evaluate("() => !!navigator.serviceWorker.controller"), (
        "the service worker never took control"
    )
    answer = (bool(snapshot), str(verdict.get_attribute("data-verdict")))
    context.close()
    return answer


def fetched_twice(counter: Counter) -> list[str]:
    return sorted(path for path, statuses in counter.responses.items() if statuses.count(200) > 1)


def test_first_visit_fetches_each_file_once(browser: Browser) -> None:
    packed = load_build().read_packed()
    with plain_host(SITE) as (url, counter):
        assert visit(browser, url) == (True, "verified")
    assert fetched_twice(counter) == []
    for name in packed.values():
        assert counter.responses[f"/pyodide/{name}"] == [200]
    total = sum(counter.bytes.values())
    assert total <= FIRST_VISIT_BYTES, f"a first visit sent {total:,} bytes"


def test_a_host_that_encodes_the_packed_files_works(browser: Browser) -> None:
    """A host that sends the .gz files with Content-Encoding: gzip (the browser unpacks
    them before the page sees them): the worker takes the bytes as they come."""
    with plain_host(SITE, gzip_header=True) as (url, counter):
        assert visit(browser, url) == (True, "verified")
    assert fetched_twice(counter) == []


def test_a_browser_that_cannot_unpack_is_told_so(browser: Browser) -> None:
    """Without DecompressionStream (browsers before 2023) the page says, in the reader's
    language, that the browser is too old, rather than a loader's error."""
    context = browser.new_context(service_workers="block", locale="ja-JP")
    page = context.new_page()
    with plain_host(SITE) as (url, _):
        original = (SITE / "workers" / "worker.mjs").read_text()
        page.route(
            "**/workers/worker.mjs",
            lambda route: route.fulfill(
                body="self.DecompressionStream = undefined;\n" + original,
                headers={"Content-Type": "text/javascript"},
            ),
        )
        page.goto(url + "#lang=en")
        expect(page.locator("#status")).to_have_attribute("data-state", "error", timeout=READY_MS)
        expect(page.locator("#status-text")).to_have_text(
            "Python could not be loaded: this browser is too old to unpack the page's files "
            "(it needs Chrome 80, Firefox 113, Safari 16.4 or newer)"
        )
        page.goto(url + "#lang=ja")
        page.reload()
        expect(page.locator("#status-text")).to_contain_text("このブラウザは古く", timeout=READY_MS)
    context.close()


def test_the_first_worker_starts_before_the_pages_modules_and_the_page_takes_it(
    browser: Browser,
) -> None:
    """early.mjs starts the first Python worker as soon as it comes, not once the page's
    own modules have been fetched and run (0.3-0.4 s of a cold start): with one of those
    modules held back, the worker is already there; the page then takes it over, its
    start-up events included, and starts no other."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    held: list[Any] = []
    page.route(
        "**/audit/charts.mjs", lambda route: held.append(route)
    )  # deep in the page's module graph
    with plain_host(SITE) as (url, _):
        page.goto(url, wait_until="commit")
        page.wait_for_event("worker", timeout=READY_MS)
        assert [w.rsplit("/", 2)[-2:] for w in workers] == [["workers", "worker.mjs"]]
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the page never asked for audit/charts.mjs"
        assert page.locator("#status[data-state=loading]").count() == 1  # no module has run
        held[0].continue_()
        expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        assert page.evaluate("() => performance.getEntriesByName('pywall:early').length") == 1
        assert page.evaluate(
            "() => performance.getEntriesByName('pywall:ready')[0].detail.snapshot"
        )
    assert len(workers) == 1
    context.close()
