"""The page's cache takes no bad answer (issue 43, finding 2): a runtime file answered
with a Wi-Fi login page (a 200 HTML page) is never used nor kept, a cached copy that does
not match its hash is evicted and fetched again, a start that fails says so in words (never
a frozen "Loading…"), and the caches are named by the site's version
(web/workers/runtime-files.mjs, web/sw.js, build.py)."""

from __future__ import annotations

import hashlib
import http.server
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.helpers import ROOT, load_build

pytestmark = pytest.mark.browser

SITE = ROOT / "site"
READY_MS = 90_000
LOGIN_PAGE = "<!doctype html><title>Log in</title><p>Log in to use the Wi-Fi of this café.</p>"
WASM = "**/pyodide/pyodide.asm.wasm.*"
STDLIB = "**/pyodide/python_stdlib.zip.*"


def packed_url(base: str, name: str) -> str:
    return f"{base}pyodide/{load_build().read_packed()[name]}"


def version() -> str:
    match = re.search(r'const VERSION = "([0-9a-f]{16})";', (SITE / "sw.js").read_text())
    assert match, "sw.js names no version"
    return match.group(1)


def login_page(times: int, seen: list[str]) -> Callable[[Route], None]:
    """A route answering its first `times` requests with a login page, then the site."""

    def answer(route: Route) -> None:
        seen.append(route.request.url)
        if len(seen) <= times:
            route.fulfill(status=200, body=LOGIN_PAGE, headers={"Content-Type": "text/html"})
        else:
            route.continue_()

    return answer


def cached_sha256(page: Page, url: str) -> list[str]:
    """The SHA-256 of every copy of `url` in the page's Cache Storage."""
    return list(
        page.evaluate(
            """async (url) => {
                const found = [];
                for (const key of await caches.keys()) {
                    const hit = await (await caches.open(key)).match(url);
                    if (!hit) continue;
                    const digest = await crypto.subtle.digest("SHA-256", await hit.arrayBuffer());
                    found.push([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""));
                }
                return found;
            }""",
            url,
        )
    )


def genuine(name: str) -> str:
    return hashlib.sha256(
        (SITE / "pyodide" / load_build().read_packed()[name]).read_bytes()
    ).hexdigest()


@pytest.fixture
def no_sw(browser: Browser) -> Iterator[BrowserContext]:
    """A new profile whose pages run without the service worker: the worker's own cache."""
    context = browser.new_context(service_workers="block")
    yield context
    context.close()


def test_a_login_page_for_the_interpreter_is_said_in_words_and_a_later_visit_recovers(
    no_sw: BrowserContext, site_url: str
) -> None:
    page = no_sw.new_page()
    seen: list[str] = []
    no_sw.route(WASM, login_page(1000, seen))
    page.goto(site_url + "#lang=en")
    expect(page.locator("#status")).to_have_attribute("data-state", "error", timeout=READY_MS)
    text = page.locator("#status-text")
    expect(text).to_contain_text("pyodide.asm.wasm")
    expect(text).to_contain_text("is not the file this page ships")
    expect(text).to_contain_text("reload the page")
    assert 2 <= len(seen) <= 4  # fetched again once (the first worker and its one new try)
    assert cached_sha256(page, packed_url(site_url, "pyodide.asm.wasm")) == []
    page.goto(site_url + "#lang=ja")
    page.reload()
    expect(page.locator("#status-text")).to_contain_text("pyodide.asm.wasm", timeout=READY_MS)
    expect(page.locator("#status-text")).to_contain_text("再読み込み")
    no_sw.unroute(WASM)
    page.goto(site_url + "#lang=en")
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    assert cached_sha256(page, packed_url(site_url, "pyodide.asm.wasm")) == [
        genuine("pyodide.asm.wasm")
    ]


def test_one_login_page_for_two_runtime_files_is_fetched_again_and_never_kept(
    no_sw: BrowserContext, site_url: str
) -> None:
    page = no_sw.new_page()
    wasm: list[str] = []
    stdlib: list[str] = []
    no_sw.route(WASM, login_page(1, wasm))
    no_sw.route(STDLIB, login_page(1, stdlib))
    page.goto(site_url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    assert len(wasm) == 2 and len(stdlib) == 2
    for name in ("pyodide.asm.wasm", "python_stdlib.zip"):
        assert cached_sha256(page, packed_url(site_url, name)) == [genuine(name)]


def test_a_corrupt_copy_in_the_cache_is_evicted_and_fetched_again(
    no_sw: BrowserContext, site_url: str
) -> None:
    page = no_sw.new_page()
    page.goto(site_url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    url = packed_url(site_url, "pyodide.asm.wasm")
    assert cached_sha256(page, url) == [genuine("pyodide.asm.wasm")]
    page.evaluate(
        """async ([url, body]) => {
            for (const key of await caches.keys()) {
                const cache = await caches.open(key);
                if (await cache.match(url)) {
                    await cache.put(url, new Response(body, { headers: { "Content-Type": "text/html" } }));
                }
            }
        }""",
        [url, LOGIN_PAGE],
    )
    assert cached_sha256(page, url) != [genuine("pyodide.asm.wasm")]
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.url == url else None)
    no_sw.on("request", lambda r: fetched.append(r.url) if r.url == url else None)
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    assert fetched  # the bad copy was not used: the file came from the network again
    assert cached_sha256(page, url) == [genuine("pyodide.asm.wasm")]


def test_caches_are_named_by_the_version_and_old_ones_go(browser: Browser, site_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=READY_MS)
    name = f"pywall-{version()}"
    packed = load_build().read_packed()
    assert f'export const VERSION = "{version()}";' in (SITE / "pyodide" / "packed.mjs").read_text()
    assert page.evaluate("() => caches.keys()") == [name]
    assert cached_sha256(page, packed_url(site_url, "pyodide.asm.wasm")) == [
        genuine("pyodide.asm.wasm")
    ]
    # An earlier version's caches (and the shared one of before) go when this one activates.
    page.evaluate(
        """async (url) => {
            for (const key of ["pywall-0123456789abcdef", "pywall-files"]) {
                await (await caches.open(key)).put(url, new Response("old"));
            }
            await (await navigator.serviceWorker.getRegistration()).unregister();
        }""",
        site_url + "index.html",
    )
    # A new visit installs this version again: it deletes the others as it activates.
    page.close()
    page = context.new_page()
    page.goto(site_url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=READY_MS)
    assert page.evaluate("() => caches.keys()") == [name]
    for file in packed:
        assert cached_sha256(page, packed_url(site_url, file)) == [genuine(file)]
    context.close()


@contextmanager
def served_copy(tmp: Path) -> Iterator[tuple[str, Path]]:
    """A copy of the site (its runtime folder linked, not copied) served as build.py serves
    the site, so that a test can publish a new version of it: its URL and folder."""
    build = load_build()
    copy = tmp / "site"
    shutil.copytree(SITE, copy, ignore=shutil.ignore_patterns("pyodide"))
    (copy / "pyodide").symlink_to(SITE / "pyodide", target_is_directory=True)

    class Handler(build.SiteHandler):  # type: ignore[misc, name-defined]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            http.server.SimpleHTTPRequestHandler.__init__(
                self, *args, directory=str(copy), **kwargs
            )

    server = build.SiteServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", copy
    finally:
        server.shutdown()
        server.server_close()


def publish(copy: Path, new_version: str) -> None:
    """A new version of the copied site: its service worker names another version (its
    precompressed variants removed, so every client gets the new one)."""
    sw = copy / "sw.js"
    text = sw.read_text(encoding="utf-8").replace(version(), new_version)
    assert new_version in text
    for variant in (copy / "sw.js.br", copy / "sw.js.gz"):
        variant.unlink(missing_ok=True)
    sw.write_text(text, encoding="utf-8")


def test_an_open_page_reloads_when_a_new_version_takes_over_and_a_first_visit_does_not(
    browser: Browser, tmp_path: Path
) -> None:
    """One version in an open page: a new version's service worker takes over at once and
    deletes the old version's cache, so a page under the old one reloads (rpc.mjs) rather
    than start its next worker from the new files beside its old modules; a first visit,
    whose service worker takes control for the first time, is not reloaded."""
    new_version = "feedfacefeedface"
    with served_copy(tmp_path) as (url, copy):
        context = browser.new_context()
        page = context.new_page()
        loads: list[str] = []
        page.on("load", lambda p: loads.append(p.url))
        page.goto(url)
        expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=READY_MS)
        page.wait_for_timeout(500)  # a reload on the first take-over would have begun by now
        assert loads == [url]  # the first visit was not reloaded when its worker took control
        page.evaluate("() => { window.oldVersion = true; }")
        publish(copy, new_version)
        with page.expect_event("load", timeout=READY_MS):
            page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        assert page.evaluate("() => window.oldVersion") is None  # a new document: reloaded
        expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        page.wait_for_function(
            "(v) => caches.keys().then((keys) => keys.length === 1 && keys[0] === 'pywall-' + v)",
            arg=new_version,
            timeout=READY_MS,
        )
        assert len(loads) == 2
        context.close()
