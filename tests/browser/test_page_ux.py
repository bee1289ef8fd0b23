"""The page as players meet it (issue 12): game links and ids, the Tenhou bookmarklet
end to end (tenhou.net resolved to a local server), the sample games offline, what a
verdict means, lang= in the fragment, the SEGA tool's link, a stopped run's progress.

A page load costs seconds of CPU: the tests that read one file's verdict or one pasted
link, and those that follow a tool's link within the page (``location.hash``, as a link
on the page does), share the module's loaded page (``fresh``); the bookmarklet tests one
context that has read the bookmarklet once. A popup, a link opened afresh, a fragment
read at load and a reload offline are what their tests are about: those keep their loads
(the reload offline is the shared page's own)."""

from __future__ import annotations

import gzip
import http.server
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    Page,
    Request,
    ViewportSize,
    expect,
)

from pywall.checks.sega import tenhou_id_from_sega
from pywall.core.archives import MAX_INPUT_BYTES
from tests.browser.conftest import VIEWPORT, report_of
from tests.browser.test_page import (
    PLAIN,
    READY_MS,
    WORK_MS,
    choose,
    result,
    tamper_draw,
    wait_controlled,
)
from tests.browser.test_panels import SEGA
from tests.helpers import ROOT, TENHOU, vector_seed
from tests.unit.test_links import hide

pytestmark = pytest.mark.browser

GAME = "2022060222gm-0001-0000-a87679bc"
GAME_LOG = (
    TENHOU / "jim137" / f"{GAME}_tw3.mjlog"
)  # gzip, as tenhou.net sends it (Content-Encoding)
HIDDEN = hide(GAME)  # the same game's id as some links show it: ...-x + 12 hex digits
VIEWER = f"https://tenhou.net/0/?log={GAME}&tw=3"
PAIPU = "https://game.maj-soul.com/1/?paipu=210815-6da08e40-2605-42fb-a5e3-f8aa5940362a_a12345"
SAMPLES = ROOT / "web" / "samples"


def paste(page: Page, text: str) -> None:
    page.locator("#paste").fill(text)
    page.get_by_role("button", name="Verify pasted text").click()


def you_of(node: Any) -> Any:
    return node.locator("ol.players li.is-you")


# --- 1. links and log ids -------------------------------------------------------------------


def test_a_pasted_tenhou_link_says_where_the_log_is_and_fetches_nothing(
    fresh: Page, tmp_path: Path, shot: Any
) -> None:
    page = fresh
    requests: list[str] = []

    def listen(request: Request) -> None:
        requests.append(request.url)

    page.on("request", listen)
    try:
        check_a_pasted_tenhou_link(page, tmp_path, shot)
    finally:
        page.remove_listener("request", listen)
    assert not [u for u in requests if "tenhou.net" in u]


def check_a_pasted_tenhou_link(page: Page, tmp_path: Path, shot: Any) -> None:
    paste(page, VIEWER)
    panel = page.locator('.link-result[data-platform="tenhou"]')
    expect(panel.locator("h3")).to_have_text(f"Tenhou game {GAME}", timeout=WORK_MS)
    expect(panel.locator(".log-url a")).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAME}"
    )
    expect(panel.locator(".link-never")).to_contain_text("never fetches anything")
    expect(panel.locator(".link-you")).to_contain_text("seat 4 (tw=3)")
    expect(page.locator("#results [data-file]")).to_have_count(0)  # not read as a broken log
    shot("link-pasted", panel)
    # the log as a browser saves it (no id in the name), chosen for this link: seat 3 is "you"
    saved = tmp_path / "log.xml"
    saved.write_bytes(gzip.decompress(GAME_LOG.read_bytes()))
    panel.locator("#link-file").set_input_files(str(saved))
    node = result(page, "log.xml")
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    players = report_of("log.xml", saved.read_bytes())["game"]["players"]
    expect(you_of(node)).to_have_count(1)
    expect(you_of(node)).to_have_text(re.compile(rf"^N {re.escape(players[3])} \(North\) \(you\)$"))
    node.locator('details.round[data-round="0"] summary').click()
    expect(node.locator(".hand-label", has_text="(you)")).to_have_count(1)
    expect(node.locator(".hand-label", has_text="(you)")).to_contain_text(players[3])


def test_a_hidden_id_is_revealed_and_a_file_named_by_the_game_is_marked(fresh: Page) -> None:
    page = fresh
    # tw=1: the shared page may remember this game from another test's link (tw=3); the
    # seat marked below is this link's
    paste(page, f"http://tenhou.net/3/?log={HIDDEN}&tw=1")
    panel = page.locator('.link-result[data-platform="tenhou"]')
    expect(panel.locator("h3")).to_have_text(f"Tenhou game {GAME}", timeout=WORK_MS)
    expect(panel.locator(".link-hidden")).to_have_text(
        f"The link shows this game's id in its hidden form ({HIDDEN}); its real id is {GAME}."
    )
    expect(panel.locator(".log-url a")).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAME}"
    )
    # a file whose name holds the game's id, chosen the usual way, is that game: "you" again
    choose(page, GAME_LOG)
    node = result(page, GAME_LOG.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(you_of(node)).to_contain_text("(you)")
    expect(node.locator("ol.players li").nth(1)).to_have_class("is-you")
    # another game's file is not marked
    choose(page, PLAIN)
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(you_of(result(page, PLAIN.name))).to_have_count(0)


def test_a_bare_id_a_majsoul_link_and_plain_text(fresh: Page) -> None:
    page = fresh
    paste(page, f"  {GAME}\n")
    panel = page.locator(".link-result")
    expect(panel).to_have_attribute("data-game", GAME, timeout=WORK_MS)
    expect(panel.locator(".link-you")).to_have_count(0)  # no tw: nobody is "you"
    paste(page, PAIPU)
    expect(panel).to_have_attribute("data-platform", "majsoul", timeout=WORK_MS)
    expect(panel.locator("h3")).to_have_text(
        "Mahjong Soul game 210815-6da08e40-2605-42fb-a5e3-f8aa5940362a"
    )
    expect(panel).to_contain_text("record export tool")
    expect(panel.get_by_role("link", name="Mahjong Soul hashes")).to_have_attribute(
        "href", "#tool=majsoul"
    )
    page.select_option("#lang", "ja")
    expect(panel.locator("h3")).to_have_text(
        "雀魂の対局 210815-6da08e40-2605-42fb-a5e3-f8aa5940362a"
    )
    page.select_option("#lang", "zh")
    expect(panel.locator("h3")).to_have_text("雀魂对局 210815-6da08e40-2605-42fb-a5e3-f8aa5940362a")
    page.select_option("#lang", "en")
    # text that names no game is read as a log, as before, and the panel goes
    paste(page, "hello, this is not a log")
    expect(result(page, "pasted-1.xml")).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    expect(page.locator(".link-result")).to_have_count(0)


# --- 2. the bookmarklet, end to end ----------------------------------------------------------


class FakeTenhou(http.server.ThreadingHTTPServer):
    """tenhou.net as the bookmarklet meets it: a viewer page at /0/?log=..., and the log
    file at /0/log/?ID (gzip with Content-Encoding, as the real site sends it)."""

    daemon_threads = True
    logs: dict[str, bytes]
    seen: list[tuple[str, str]]  # (path, Referer)


class TenhouHandler(http.server.BaseHTTPRequestHandler):
    server: FakeTenhou

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("Referer", "")))
        if self.path.startswith("/0/log/?"):
            body = self.server.logs.get(self.path.split("?", 1)[1])
            if body is None:
                self.send_error(404)
                return
            self.send(body, "text/xml", {"Content-Encoding": "gzip"})
        else:
            self.send(
                b"<!doctype html><title>tenhou.net/0</title><p id=viewer>a game in the viewer</p>",
                "text/html",
            )

    def send(self, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def tenhou() -> Iterator[FakeTenhou]:
    server = FakeTenhou(("127.0.0.1", 0), TenhouHandler)
    server.logs = {GAME: GAME_LOG.read_bytes()}
    server.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def mapped(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tenhou: FakeTenhou
) -> Iterator[Browser]:
    """Chromium resolving tenhou.net (and evil.test, a stranger) to the local server."""
    port = tenhou.server_address[1]
    rules = f"--host-resolver-rules=MAP tenhou.net:80 127.0.0.1:{port}, MAP evil.test:80 127.0.0.1:{port}"
    browser = browser_type.launch(
        **{**browser_type_launch_args, "args": [*browser_type_launch_args["args"], rules]}
    )
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def bookmarked(mapped: Browser, site_url: str) -> Iterator[tuple[BrowserContext, str]]:
    """A context that has visited pywall once (its service worker in charge) and the
    bookmarklet the page offers in it, for the bookmarklet tests; each closes its pages."""
    context = mapped.new_context(locale="en-US", viewport=VIEWPORT)
    try:
        yield context, bookmarklet_of(context, site_url)
    finally:
        context.close()


@contextmanager
def own_pages(context: BrowserContext) -> Iterator[BrowserContext]:
    """A test's pages in a shared context, closed when it ends."""
    try:
        yield context
    finally:
        for page in context.pages:
            page.close()


@pytest.fixture
def mapped_context(mapped: Browser) -> Iterator[BrowserContext]:
    context = mapped.new_context(locale="en-US", viewport=VIEWPORT)
    yield context
    context.close()


def bookmarklet_of(context: BrowserContext, site_url: str) -> str:
    """The bookmarklet as the page offers it (after a first visit: the service worker is in charge)."""
    page = context.new_page()
    page.goto(site_url)
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    wait_controlled(page)
    page.get_by_text("Check a game from Tenhou's viewer in one click").click()
    link = page.get_by_role("link", name="Check with pywall")
    href = link.get_attribute("href") or ""
    assert href.startswith("javascript:")
    link.click()  # on pywall itself it does nothing but say how it is used
    expect(page.locator("#handoff-msg")).to_contain_text("Drag the link to your bookmarks bar")
    assert page.url == site_url
    page.close()
    return href


def click_bookmark(context: BrowserContext, viewer: Page, href: str) -> Page:
    """Click the bookmarklet on the viewer page, as a bookmark is clicked: the popup it opens."""
    viewer.evaluate(
        """href => { const a = document.createElement("a"); a.id = "bookmark";
        a.href = href; a.textContent = "bookmark"; document.body.append(a); }""",
        href,
    )
    with context.expect_page() as opened:
        viewer.click("#bookmark")
    return opened.value


def test_bookmarklet_on_a_tenhou_page_checks_its_game(
    bookmarked: tuple[BrowserContext, str], site_url: str, tenhou: FakeTenhou, shot: Any
) -> None:
    context, href = bookmarked
    with own_pages(context):
        check_the_bookmarklet_on_a_tenhou_page(context, href, site_url, tenhou, shot)


def check_the_bookmarklet_on_a_tenhou_page(
    context: BrowserContext, href: str, site_url: str, tenhou: FakeTenhou, shot: Any
) -> None:
    viewer = context.new_page()
    viewer.goto(f"http://tenhou.net/0/?log={HIDDEN}&tw=3")  # a link with the hidden id
    del tenhou.seen[:]
    popup = click_bookmark(context, viewer, href)
    node = popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAME}"]')
    expect(node).to_have_attribute("data-verdict", "verified", timeout=READY_MS)
    assert (
        popup.url.startswith(site_url) and "viewer=" not in popup.url
    )  # a reload does not ask again
    # served by the service worker, under the page's own security policy: nothing had to give way
    assert popup.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    csp = popup.evaluate(
        "() => document.querySelector('meta[http-equiv=Content-Security-Policy]').content"
    )
    assert "connect-src 'self'" in csp and "unsafe-inline" not in csp
    players = report_of(GAME_LOG.name, GAME_LOG.read_bytes())["game"]["players"]
    expect(you_of(node)).to_have_text(re.compile(rf"{re.escape(players[3])} \(North\) \(you\)"))
    expect(node.locator("dl.game")).to_contain_text(
        GAME
    )  # the name carries the id: date and id known
    # the real id was asked for, once, by the tenhou.net viewer page itself, not by pywall
    assert tenhou.seen.count((f"/0/log/?{GAME}", f"http://tenhou.net/0/?log={HIDDEN}&tw=3")) == 1
    assert [p for p, _ in tenhou.seen if p.startswith("/0/log/")] == [f"/0/log/?{GAME}"]
    shot("bookmarklet", popup)


def test_bookmarklet_when_tenhou_has_no_such_log(bookmarked: tuple[BrowserContext, str]) -> None:
    context, href = bookmarked
    missing = "2022060222gm-0001-0000-0000ffff"
    with own_pages(context):
        viewer = context.new_page()
        viewer.goto(f"http://tenhou.net/0/?log={missing}")
        popup = click_bookmark(context, viewer, href)
        expect(popup.locator("#handoff-msg")).to_have_text(
            f"tenhou.net did not give the log of {missing}: HTTP 404", timeout=READY_MS
        )
        expect(popup.locator(".link-result .log-url a")).to_have_attribute(
            "href", f"https://tenhou.net/0/log/?{missing}"
        )
        expect(popup.locator("#results [data-file]")).to_have_count(0)


def test_bookmarklet_on_a_page_that_names_no_game(bookmarked: tuple[BrowserContext, str]) -> None:
    context, href = bookmarked
    with own_pages(context):
        viewer = context.new_page()
        viewer.goto("http://tenhou.net/")
        popup = click_bookmark(context, viewer, href)
        # not "names no Tenhou game… open a game": pywall is connected to that tab, and a
        # list pasted now is fetched through it (the list panel sends players here)
        expect(popup.locator("#handoff-msg")).to_have_text(
            "Opened from http://tenhou.net/, a tenhou.net page that names no single game. To "
            "check one game, open it in Tenhou's viewer and click the bookmark there. To check "
            "many, paste their list in the box above and press “Verify pasted text”: pywall "
            "asks this tenhou.net tab for each log, one a second (keep it open).",
            timeout=READY_MS,
        )


OPEN_PYWALL = """([pywall, viewer]) => new Promise((resolve) => {
    window.got = [];
    window.w = window.open(pywall + "#viewer=" + encodeURIComponent(viewer), "_blank");
    addEventListener("message", (e) => { if (e.source === window.w) { window.got.push(e.data); resolve(e.data); } });
})"""


def test_messages_from_tenhou_are_checked_before_use(
    mapped_context: BrowserContext, site_url: str
) -> None:
    """A hostile or broken opener: wrong shapes, types, games and sizes each get a sentence."""
    opener = mapped_context.new_page()
    opener.goto(VIEWER.replace("https:", "http:"))
    with mapped_context.expect_page() as opened:
        want = opener.evaluate(OPEN_PYWALL, [site_url, VIEWER])
    popup = opened.value
    assert want == {"pywall": "want", "id": GAME, "url": f"https://tenhou.net/0/log/?{GAME}"}
    note = popup.locator("#handoff-msg")
    expect(note).to_have_text(f"Waiting for the log of {GAME} from tenhou.net…")
    sends = [
        ("'a string'", "not a log message"),
        (
            "{pywall: 'log', id: '2022060222gm-0001-0000-00000000', text: '<mjloggm/>'}",
            "another game",
        ),
        (f"{{pywall: 'log', id: '{GAME}', bytes: 42}}", "the log is neither text nor bytes"),
        (
            f"{{pywall: 'log', id: '{GAME}', text: ['<mjloggm>']}}",
            "the log is neither text nor bytes",
        ),
    ]
    for message, why in sends:
        opener.evaluate(f"() => window.w.postMessage({message}, '*')")
        expect(note).to_have_text(
            f"A message from tenhou.net was ignored: it is not the log pywall asked for ({why})."
        )
    expect(popup.locator("#results [data-file]")).to_have_count(0)
    # a log over the size pywall reads is refused before it reaches Python, like a big file
    opener.evaluate(
        f"() => window.w.postMessage({{pywall: 'log', id: '{GAME}', "
        f"bytes: new ArrayBuffer({MAX_INPUT_BYTES + 1})}}, '*')"
    )
    node = popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAME}"]')
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    expect(node.locator(".findings")).to_contain_text(
        f"is {MAX_INPUT_BYTES + 1:,} bytes; pywall reads logs up to {MAX_INPUT_BYTES:,} bytes"
    )
    # one answer per request: a second log is not taken
    opener.evaluate(
        f"text => window.w.postMessage({{pywall: 'log', id: '{GAME}', text}}, '*')",
        PLAIN.read_text(encoding="utf-8"),
    )
    expect(note).to_contain_text("(pywall asked for no log)")
    expect(popup.locator("#results [data-file]")).to_have_count(1)


def test_a_log_as_text_with_a_parse_error_is_a_readable_verdict(
    mapped_context: BrowserContext, site_url: str
) -> None:
    opener = mapped_context.new_page()
    opener.goto(VIEWER.replace("https:", "http:"))
    with mapped_context.expect_page() as opened:
        opener.evaluate(OPEN_PYWALL, [site_url, VIEWER])
    popup = opened.value
    opener.evaluate(
        f"() => window.w.postMessage({{pywall: 'log', id: '{GAME}', text: '<mjloggm ver=\"2.3\"><GO'}}, '*')"
    )
    node = popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAME}"]')
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    expect(node.locator(".findings li").first).to_be_visible()
    expect(popup.locator("#handoff-msg")).to_have_text("")


@pytest.mark.parametrize(
    "size",
    [
        pytest.param({"width": 1366, "height": 800}, id="desktop"),
        pytest.param({"width": 390, "height": 844}, id="phone"),
    ],
)
def test_a_handed_over_log_comes_into_view(
    mapped: Browser, site_url: str, size: ViewportSize
) -> None:
    context = mapped.new_context(locale="en-US", viewport=size)
    opener = context.new_page()
    opener.goto(VIEWER.replace("https:", "http:"))
    with context.expect_page() as opened:
        opener.evaluate(OPEN_PYWALL, [site_url, VIEWER])
    popup = opened.value
    expect(popup.locator("#handoff-msg")).to_have_text(
        f"Waiting for the log of {GAME} from tenhou.net…", timeout=READY_MS
    )
    choose(popup, PLAIN)  # a first game's walls: the handed-over log lands far below
    expect(result(popup, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    popup.evaluate("window.scrollTo(0, 0)")
    opener.evaluate(
        f"text => window.w.postMessage({{pywall: 'log', id: '{GAME}', text}}, '*')",
        gzip.decompress(GAME_LOG.read_bytes()).decode(),
    )
    node = popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAME}"]')
    expect(node).to_be_in_viewport()
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(node).to_be_in_viewport()
    context.close()


def test_a_stranger_cannot_hand_pywall_a_log(mapped_context: BrowserContext, site_url: str) -> None:
    stranger = mapped_context.new_page()
    stranger.goto("http://evil.test/0/?log=x")
    with mapped_context.expect_page() as opened:
        stranger.evaluate(
            """([pywall, viewer]) => {
            window.got = [];
            window.w = window.open(pywall + "#viewer=" + encodeURIComponent(viewer), "_blank");
            addEventListener("message", (e) => { window.got.push(e.data); });
        }""",
            [site_url, VIEWER],
        )
    popup = opened.value
    note = popup.locator("#handoff-msg")
    # pywall asks its opener for the log, addressed to tenhou.net: the stranger never hears it
    expect(note).to_have_text(f"Waiting for the log of {GAME} from tenhou.net…", timeout=READY_MS)
    stranger.evaluate(
        "text => window.w.postMessage({pywall: 'log', id: '" + GAME + "', text}, '*')",
        PLAIN.read_text(encoding="utf-8"),
    )
    expect(note).to_have_text(
        "A message from http://evil.test was ignored: pywall accepts logs only "
        "from the tenhou.net page that opened it."
    )
    expect(popup.locator("#results [data-file]")).to_have_count(0)
    assert stranger.evaluate("() => window.got") == []


def test_a_viewer_address_without_an_opener_says_where_the_log_is(page: Page) -> None:
    page.goto(f"/#viewer={VIEWER.replace('&', '%26')}")
    panel = page.locator('.link-result[data-platform="tenhou"]')
    expect(panel.locator(".log-url a")).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAME}", timeout=READY_MS
    )
    assert "viewer=" not in page.url


# --- 3. the sample games, offline -----------------------------------------------------------


def test_the_samples_are_a_real_game_and_one_changed_draw() -> None:
    real = (TENHOU / "tenhou-python-bot" / "1.txt").read_bytes()
    assert (SAMPLES / "sample-game.xml").read_bytes() == real
    changed = (SAMPLES / "sample-game-one-draw-changed.xml").read_text(encoding="utf-8")
    a, b = re.findall(r"<[^<>]*>", real.decode()), re.findall(r"<[^<>]*>", changed)
    assert len(a) == len(b)
    assert [(x, y) for x, y in zip(a, b, strict=True) if x != y] == [("<U92/>", "<U96/>")]


def test_sample_games_work_offline(fresh: Page, shot: Any) -> None:
    """The shared page (its service worker in charge) reloaded offline."""
    page = fresh
    wait_controlled(page)
    page.context.set_offline(True)
    try:
        check_the_samples_offline(page, shot)
    finally:
        page.context.set_offline(False)


def check_the_samples_offline(page: Page, shot: Any) -> None:
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.get_by_role("button", name="Try two sample games").click()
    good, bad = result(page, "sample-game.xml"), result(page, "sample-game-one-draw-changed.xml")
    expect(good).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(bad).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(page.locator("#results [data-file]")).to_have_count(2)
    expect(good.locator(".verdict-detail")).to_have_text(
        "All 693 tile events checked match the wall."
    )
    expect(bad.locator(".findings")).to_contain_text(
        re.compile(
            r"East 2, 1 honba: the draw by .+ \((East|South|West|North)\) on turn \d+ "
            r"is 7s in the record, 6s in the wall$"
        )
    )
    expect(bad.locator(".slot.bad")).to_have_count(1)
    shot("samples", page)


# --- 4. what a verdict means ------------------------------------------------------------------


def test_a_mismatch_says_what_it_can_mean_and_what_to_do(
    fresh: Page, tmp_path: Path, shot: Any
) -> None:
    page = fresh
    text = gzip.decompress(GAME_LOG.read_bytes()).decode()
    named = tmp_path / f"{GAME}.xml"  # the id in the name: the page can link the fresh copy
    named.write_text(tamper_draw(text, round_index=1, nth=4), encoding="utf-8")
    choose(page, named)
    node = result(page, named.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    meaning = node.locator('details.meaning[data-meaning="mismatch"]')
    expect(meaning).to_have_attribute("open", "")  # shown, not folded
    for words in (
        "edited or damaged after the game",
        "belongs to another game",
        "did not deal from the wall it had committed to",
        "download the log again",
    ):
        expect(meaning).to_contain_text(words)
    expect(meaning.get_by_role("link")).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAME}"
    )
    expect(meaning.locator(".meaning-unrelated")).to_have_count(0)
    shot("mismatch-meaning", node)
    page.select_option("#lang", "ja")
    expect(node.locator("details.meaning summary")).to_have_text(
        "不一致が意味しうること、すべきこと"
    )
    page.select_option("#lang", "zh")
    expect(node.locator("details.meaning summary")).to_have_text(
        "不一致可能意味着什么，以及该怎么做"
    )


def test_another_games_seed_is_named(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    other = re.search(r'<SHUFFLE seed="[^"]*"', PLAIN.read_text(encoding="utf-8")).group(0)  # type: ignore[union-attr]
    text = gzip.decompress(GAME_LOG.read_bytes()).decode()
    swapped = tmp_path / "swapped.xml"
    swapped.write_text(re.sub(r'<SHUFFLE seed="[^"]*"', other, text, count=1), encoding="utf-8")
    assert any(
        f["code"] == "wall_unrelated"
        for f in report_of("swapped.xml", swapped.read_bytes())["findings"]
    )
    choose(page, swapped)
    node = result(page, "swapped.xml")
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(node.locator(".meaning-unrelated")).to_have_text(
        "Here the wall does not fit this game at all: most likely the seed is another game's."
    )


def test_verified_says_what_it_proves_and_cannot(fresh: Page) -> None:
    page = fresh
    choose(page, PLAIN)
    node = result(page, PLAIN.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    meaning = node.locator('details.meaning[data-meaning="verified"]')
    expect(meaning).not_to_have_attribute("open", "")
    meaning.locator("summary").click()
    expect(meaning).to_contain_text("cannot show how that seed was chosen")
    expect(meaning).to_contain_text("not that it was picked fairly")
    expect(meaning).to_contain_text("a made-up game with its own made-up seed would pass too")


# --- 9. lang= in the fragment ---------------------------------------------------------------


def test_lang_in_the_fragment_of_every_page_and_not_remembered(page: Page) -> None:
    """Each page in the language its fragment names; a fragment's language is not
    remembered for the next visit (a reload whose fragment names none the page has)."""
    seed = vector_seed()
    page.goto(f"/#tenhou={seed}&round=3&lang=ja")
    expect(page.locator("h1")).to_have_text("pywall — 牌山検証")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#seed-wall .slot")).to_have_count(136, timeout=READY_MS)
    page.get_by_role("button", name="次の局").click()
    expect(page.locator("#seed-round")).to_have_value("4")
    assert page.url.endswith("&round=4&lang=ja")  # the round's link keeps the language
    assert page.locator("#seed-url").input_value().endswith("&lang=ja")
    page.goto("/#lang=xx")  # a language the page does not have: the reader's own
    page.reload()
    expect(page.locator("h1")).to_have_text("pywall — mahjong wall verifier")
    page.evaluate("() => { location.hash = '#lang=zh'; }")
    expect(page.locator("h1")).to_have_text("pywall — 麻将牌山验证")
    page.get_by_label("语言").select_option("en")
    expect(page.locator("h1")).to_have_text("pywall — mahjong wall verifier")
    assert page.url.endswith("#lang=en")  # the choice is written where the link keeps it
    page.goto("/embed.html#tenhou=" + seed + "&round=2&lang=zh")
    expect(page.locator("#embed-title")).to_have_text(
        "天凤牌山 · 第 2 局 · 四人麻将", timeout=READY_MS
    )
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    page.goto("/calc.html#q=123m456p789s1122z&lang=ja")
    expect(page.locator("h1")).to_have_text("牌理計算")
    expect(page.locator(".calc-result")).to_have_count(1, timeout=READY_MS)
    assert page.locator("#calc-url").input_value().endswith("&lang=ja")


# --- 18. the SEGA tool's link -----------------------------------------------------------------


def test_sega_values_are_kept_in_the_link(fresh: Page, browser: Browser, site_url: str) -> None:
    case = SEGA[0]
    page = fresh
    page.evaluate("() => { location.hash = '#tool=sega'; }")
    panel = page.locator("#tool-sega")
    for n, seed in enumerate(case["player_seeds"], 1):
        panel.get_by_label(f"Player seed {n}").fill(seed)
    panel.get_by_label("Uncertainty value").fill(str(case["uncertainty"]))
    panel.get_by_role("button", name="Show the wall").click()
    expect(panel.locator(".sega-wall .tile")).to_have_count(136, timeout=WORK_MS)
    seeds = ",".join(case["player_seeds"])
    assert page.url == f"{site_url}#tool=sega&seeds={seeds}&u={case['uncertainty']}"
    assert panel.get_by_label("Link to this wall").input_value() == page.url
    # the link, opened afresh, shows the same wall with nothing typed
    other = browser.new_page()
    other.goto(page.url + "&lang=ja")
    wall = other.locator("#tool-sega .sega-wall .tile")
    expect(wall).to_have_count(136, timeout=READY_MS)
    shown = wall.evaluate_all("ns => ns.map(n => Number(n.dataset.tile))")
    assert shown == [tenhou_id_from_sega(t) for t in case["wall"]]
    expect(other.get_by_label("プレイヤーシード 1")).to_have_value(case["player_seeds"][0])
    other.close()


@pytest.mark.parametrize(
    ("fragment", "message"),
    [
        (
            "seeds=abc,def&u=5",
            "The link must give four player seeds separated by commas (seeds=S1,S2,S3,S4); it gives 2.",
        ),
        (
            "seeds=" + ",".join(["a" * 27] * 3 + ["a" * 26 + "!"]) + "&u=5",
            "Player seed 4: character 27 is “!”",
        ),
        (
            "seeds=" + ",".join(["a" * 27] * 4) + "&u=-1",
            "The uncertainty value must be a whole number",
        ),
        (
            "seeds=" + ",".join(["a" * 27] * 4) + "&u=" + "9" * 5000,
            "The uncertainty value must be a whole number",
        ),
        ("seeds=" + "b" * 100_000 + "&u=1", "it gives 1."),
    ],
    ids=["two-seeds", "bad-char", "negative", "huge-number", "huge-seed"],
)
def test_a_bad_sega_link_is_named_not_run(fresh: Page, fragment: str, message: str) -> None:
    """Followed on the shared page (a fragment the page hears change, as read at load):
    first a link with no seeds, so that the message read is this link's, not the last's."""
    page = fresh
    page.evaluate("() => { location.hash = '#tool=sega&seeds=&u='; }")
    expect(page.locator("#sega-error")).to_contain_text("it gives 0.")
    page.evaluate("f => { location.hash = f; }", f"#tool=sega&{fragment}")
    expect(page.locator("#sega-error")).to_contain_text(message)
    expect(page.locator(".sega-wall")).to_have_count(0)


# --- 11. a stopped run says how far it got ----------------------------------------------------


STOP_GAMES = 6_000


@pytest.fixture(scope="module")
def stop_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.unit.test_archives import fixture_rows, log_id, phoenix_db

    base = fixture_rows()
    rows = [(log_id(i), base[i % len(base)][1]) for i in range(STOP_GAMES)]
    return phoenix_db(tmp_path_factory.mktemp("stop") / "stop.db", rows)


def test_after_stop_the_progress_says_how_many_of_how_many(fresh: Page, stop_db: Path) -> None:
    page = fresh
    choose(page, stop_db)
    node = result(page, "stop.db")
    expect(page.locator("#summary tbody tr")).to_have_count(100, timeout=WORK_MS)
    node.get_by_role("button", name="Stop").click()
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    rows = int(
        (node.locator(".archive-counts").text_content() or "").split(" ")[0].replace(",", "")
    )
    assert 0 < rows < STOP_GAMES, "the run finished before it could be stopped"
    total = f"{STOP_GAMES:,}"
    expect(node.locator(".archive-progress-text")).to_have_text(
        f"{rows:,} of {total} games checked — stopped"
    )
    expect(page.locator("#batch-text")).to_have_text(f"{rows:,} of {total} logs checked — stopped")
    bar = page.locator("#batch-progress")
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == (str(rows), str(STOP_GAMES))


def test_a_chosen_files_verdict_comes_into_view_on_a_phone(fresh: Page) -> None:
    """On a phone the results lie far below the file chooser: the first file chosen is
    brought into view, and again when its answer is drawn (the batch's progress, table and
    summary drawn above it meanwhile pushed it down, below the fold, most of all on a page
    whose language was changed before), unless the person scrolled in between."""
    from tests.browser.test_page_a11y import sized

    with sized(fresh) as page:
        page.set_viewport_size({"width": 390, "height": 844})
        page.select_option("#lang", "ja")
        page.select_option("#lang", "en")
        page.evaluate("window.scrollTo(0, 0)")
        choose(page, PLAIN)
        node = result(page, PLAIN.name)
        expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
        expect(node.locator("header .verdict")).to_be_in_viewport(ratio=1)
        expect(node.locator(".verdict-detail")).to_be_in_viewport(ratio=1)
        # a person who scrolls while the file is checked stays where they scrolled to
        page.locator("#clear").click()
        page.evaluate("window.scrollTo(0, 0)")
        choose(page, PLAIN)
        page.mouse.wheel(0, -100)  # at the top already: scrolling up moves nothing, but is a choice
        page.evaluate("window.scrollTo(0, 0)")
        node = result(page, PLAIN.name)
        expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
        page.wait_for_timeout(200)  # a frame for a second scroll, were there one
        assert page.evaluate("window.scrollY") == 0
