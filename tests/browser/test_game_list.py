"""A list of Tenhou games in the page (issue 34): pasted, or read from the tenhou.net page
the bookmarklet runs on, then fetched through that page one log a second, each verified
as it arrives, a failing game a row with its reason, and the audit at the end; without
the bookmarklet, the list with a direct link for each game. Chromium resolves tenhou.net
to a local server (as tests/browser/test_page_ux.py does) that serves a viewer-like
page, a page listing games, and the real fixture logs (tests/tenhou_server.py's).

A run waits a second between logs: the three languages' runs of a twenty-game list go side
by side, each in a browser of its own mapping tenhou.net to a stand-in of its own (whose
record of requests is that run's alone), so the waits overlap; each keeps its own load."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from itertools import pairwise
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

from tests.browser.conftest import VIEWPORT, in_language
from tests.browser.test_page import READY_MS, WORK_MS
from tests.browser.test_page_a11y import LANGS, no_violations, variant
from tests.browser.test_page_ux import click_bookmark
from tests.tenhou_server import FIXTURES, UNKNOWN, TenhouSite, fixture_bytes, tenhou_site

pytestmark = pytest.mark.browser

GAMES = list(FIXTURES)[:19]  # 19 real logs (4 of them gzip files), and one the server lacks
LINKS = [f"https://tenhou.net/0/?log={g}&tw={i % 4}" for i, g in enumerate(GAMES)]
LINKS.insert(7, f"https://tenhou.net/0/?log={UNKNOWN}&tw=1")


@pytest.fixture(scope="module")
def tenhou() -> Iterator[TenhouSite]:
    with tenhou_site(GAMES[:3]) as site:
        yield site


@contextmanager
def mapped_browser(
    browser_type: BrowserType, launch_args: dict[str, Any], site: TenhouSite
) -> Iterator[Browser]:
    """Chromium resolving tenhou.net to ``site``."""
    rule = f"--host-resolver-rules=MAP tenhou.net:80 127.0.0.1:{site.port}"
    browser = browser_type.launch(**{**launch_args, "args": [*launch_args["args"], rule]})
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="module")
def mapped(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tenhou: TenhouSite
) -> Iterator[Browser]:
    with mapped_browser(browser_type, browser_type_launch_args, tenhou) as browser:
        yield browser


def context_in(browser: Browser, locale: str) -> BrowserContext:
    return browser.new_context(locale=locale, viewport=VIEWPORT)


@pytest.fixture(scope="module")
def bookmarklet(loaded: Page) -> str:
    """The bookmarklet's address, read from the module's loaded English page (its address
    is this site's ``/``, as any context's; no load of its own): the same for every
    context, so one read gives it to every test."""
    expect(loaded.locator("#bookmarklet")).to_have_attribute("href", re.compile("^javascript:"))
    return loaded.locator("#bookmarklet").get_attribute("href") or ""


def opened_from_tenhou(context: BrowserContext, href: str, path: str = "/") -> Page:
    """pywall as the bookmarklet ``href`` opens it from a tenhou.net page."""
    tenhou_page = context.new_page()
    tenhou_page.goto(f"http://tenhou.net{path}")
    return click_bookmark(context, tenhou_page, href)


WORDS = {
    "en": {
        "heading": "20 Tenhou games in the list",
        "done": "All 20 games asked for: 19 logs received, 1 failed.",
        "failed": f"tenhou.net did not give the log of {UNKNOWN}: HTTP 404",
        "games": "19 verified games",
    },
    "ja": {
        "heading": "リストにある天鳳の対局 20 件",
        "done": "20 件すべてを求めました。受け取った牌譜 19 件、失敗 1 件。",
        "failed": f"tenhou.net から {UNKNOWN} の牌譜を取得できませんでした: HTTP 404",
        "games": "検証済みの対局 19 局",
    },
    "zh": {
        "heading": "列表中有 20 局天凤对局",
        "done": "20 局都已请求：收到牌谱 19 份，失败 1 份。",
        "failed": f"tenhou.net 没有给出 {UNKNOWN} 的牌谱：HTTP 404",
        "games": "已验证的对局 19 局",
    },
}
LOCALES = {"en": "en-US", "ja": "ja-JP", "zh": "zh-CN"}


def test_a_pasted_list_of_twenty_links_becomes_a_batch_and_its_audit(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    bookmarklet: str,
    mapped: Browser,
    tenhou: TenhouSite,
) -> None:
    """In en, ja and zh: the bookmarklet's popup from a tenhou.net page, in a browser of that
    language (the popup's load, and its language the browser's, are each variant's own).
    The runs go side by side (the module's note): all started, then each checked. The
    English run takes the module's mapped browser and stand-in (no other test runs beside
    it, so that stand-in's record is the run's alone); the others a browser each."""
    with ExitStack() as stack:
        runs: dict[str, tuple[TenhouSite, Page]] = {}
        for lang in LANGS:
            with variant(lang):
                site, browser = tenhou, mapped
                if lang != "en":
                    site = stack.enter_context(tenhou_site(GAMES[:3]))
                    browser = stack.enter_context(
                        mapped_browser(browser_type, browser_type_launch_args, site)
                    )
                context = context_in(browser, LOCALES[lang])
                stack.callback(context.close)
                runs[lang] = (site, start_the_list(context, bookmarklet, site, lang))
        for lang, (site, popup) in runs.items():
            with variant(lang):
                check_the_run(popup, site, lang)


def start_the_list(
    context: BrowserContext, bookmarklet: str, tenhou: TenhouSite, lang: str
) -> Page:
    """The list pasted into the bookmarklet's popup, checked, and its fetching started."""
    popup = opened_from_tenhou(context, bookmarklet)  # a tenhou.net page naming no game
    expect(popup.locator("#handoff-msg")).to_contain_text("tenhou.net", timeout=READY_MS)
    expect(popup.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    words = WORDS[lang]
    popup.locator("#paste").fill("\n".join(LINKS) + "\n" + LINKS[3] + "\n")
    popup.locator("#paste-go").click()
    panel = popup.locator(".game-list")
    expect(panel.locator("h3")).to_have_text(words["heading"], timeout=WORK_MS)
    expect(panel.locator(".game-list-games li")).to_have_count(20)
    expect(panel.locator(".game-list-games li a").first).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAMES[0]}"
    )
    del tenhou.asked[:]
    panel.locator("#game-list-fetch").click()
    return popup


def check_the_run(popup: Page, tenhou: TenhouSite, lang: str) -> None:
    """The run started by ``start_the_list``: its requests, its rows, its audit, its words."""
    words = WORDS[lang]
    panel = popup.locator(".game-list")
    expect(popup.locator("#game-list-progress")).to_have_text(
        words["done"], timeout=60_000 + WORK_MS
    )
    # every game asked once, in order, a second or more apart (measured at the server:
    # the next request leaves a whole second after the last answer came back)
    assert [g for _, g in tenhou.asked] == [*GAMES[:7], UNKNOWN, *GAMES[7:]]
    gaps = [b - a for (a, _), (b, _) in pairwise(tenhou.asked)]
    assert min(gaps) >= 1.0, gaps
    rows = popup.locator("#results [data-file]")
    expect(rows).to_have_count(20)
    expect(popup.locator("#results [data-verdict=verified]")).to_have_count(19)
    failed = popup.locator(f'#results [data-file="tenhou.net/0/log/?{UNKNOWN}"]')
    expect(failed).to_have_attribute("data-verdict", "error")
    expect(failed).to_contain_text(words["failed"])
    expect(panel.locator(f'li[data-game="{UNKNOWN}"]')).to_have_attribute("data-state", "failed")
    panel.locator("#game-list-audit").click()
    summary = popup.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", "19", timeout=WORK_MS)
    expect(summary).to_contain_text(words["games"])
    expect(popup.locator('#audit-out li[data-kind="error"]')).to_contain_text(words["failed"])
    if lang != "en":  # no English word reaches the list in ja or zh
        text = panel.inner_text()
        for english in ("Fetch", "games", "logs", "failed", "Saved", "Choose"):
            assert english not in text, (english, text)


def test_a_tenhou_page_that_lists_games_is_read_and_fetched_with_stop(
    mapped: Browser, bookmarklet: str, tenhou: TenhouSite
) -> None:
    context = context_in(mapped, "en-US")
    try:
        del tenhou.asked[:]
        popup = opened_from_tenhou(context, bookmarklet, "/list")
        panel = popup.locator(".game-list")
        expect(panel.locator("h3")).to_have_text("3 Tenhou games in the list", timeout=READY_MS)
        expect(popup.locator("#game-list-progress")).to_have_text(
            "All 3 games asked for: 3 logs received, 0 failed.", timeout=WORK_MS
        )
        expect(popup.locator("#results [data-verdict=verified]")).to_have_count(3, timeout=WORK_MS)
        assert [g for _, g in tenhou.asked] == GAMES[:3]
        no_violations(popup, "a page's list, fetched")
        # a longer list, stopped after its first game: the rest are never asked for
        del tenhou.asked[:]
        popup.locator("#paste").fill("\n".join(GAMES[3:9]))
        popup.locator("#paste-go").click()
        popup.locator("#game-list-fetch").click()
        expect(popup.locator("#game-list-progress")).to_contain_text("Fetching game 2 of 6")
        popup.locator("#game-list-stop").click()
        expect(popup.locator("#game-list-progress")).to_contain_text("Stopped at game 2 of 6")
        time.sleep(2.5)
        assert [g for _, g in tenhou.asked] == GAMES[3:5]
    finally:
        context.close()


def test_without_the_bookmarklet_the_list_gives_each_log_and_takes_the_saved_files(
    fresh: Page, tmp_path: Path
) -> None:
    page = fresh
    requests: list[str] = []

    def asked(request: Request) -> None:
        requests.append(request.url)

    page.on("request", asked)
    page.locator("#paste").fill("My games:\n" + "\n".join(LINKS[:3]) + "\n2022060222gm-0001-00\n")
    page.locator("#paste-go").click()
    panel = page.locator(".game-list")
    expect(panel.locator("h3")).to_have_text("3 Tenhou games in the list")
    expect(panel.locator(".game-list-found")).to_have_text("1 piece not understood")
    expect(panel.locator(".game-list-unread li")).to_have_text(
        "2022060222gm-0001-00 is not a whole Tenhou log id"
    )
    expect(panel.locator("#game-list-fetch")).to_have_count(0)
    expect(panel.locator(".game-list-never")).to_contain_text("never fetches anything itself")
    expect(panel.locator(".game-list-never")).to_contain_text(
        "On a phone, or without the bookmarklet"
    )
    expect(panel.locator(".game-list-where")).to_contain_text("nodocchi.moe")
    # the raw file control ("Choose Files / No file chosen", in the browser's language) is
    # hidden behind its label, a button in the page's words
    assert raw_control_hidden(panel.locator("#game-list-files"))
    expect(panel.locator("label[for=game-list-files]")).to_be_visible()
    no_violations(page, "a pasted list without the bookmarklet")
    links = panel.locator(".game-list-games a")
    assert [links.nth(i).get_attribute("href") for i in range(3)] == [
        f"https://tenhou.net/0/log/?{g}" for g in GAMES[:3]
    ]
    saved = []
    for g in GAMES[:3]:
        path = tmp_path / f"{g}.mjlog"
        path.write_bytes(fixture_bytes(g))
        saved.append(str(path))
    panel.locator("#game-list-files").set_input_files(saved)
    expect(page.locator("#results [data-verdict=verified]")).to_have_count(3, timeout=WORK_MS)
    assert not [u for u in requests if "tenhou.net" in u]
    page.remove_listener("request", asked)


PHONE: ViewportSize = {"width": 390, "height": 844}


def raw_control_hidden(control: Any) -> bool:
    """Whether a file input takes no room and shows nothing (its label opens it)."""
    box = control.bounding_box()
    opacity = control.evaluate("(e) => getComputedStyle(e).opacity")
    return box is not None and box["width"] <= 1 and box["height"] <= 1 and opacity == "0"


#: The list path's words in each language: the list panel's two ways (a computer with the
#: bookmarklet, a phone without), where a player finds their games, the bookmarklet's
#: desktop-only line, and what a tenhou.net page naming no game says when it opened pywall.
LIST_PATH = {
    "en": ("On a phone, or without the bookmarklet", "nodocchi.moe lists", "on a computer",
           "Opened from http://tenhou.net/, a tenhou.net page that names no single game"),
    "ja": ("スマートフォンやブックマークレットなしでは", "nodocchi.moe ではプレイヤー名で", "パソコンのブラウザ",
           "http://tenhou.net/（特定の対局を示さない tenhou.net のページ）から開かれました"),
    "zh": ("在手机上或没有书签小工具时", "nodocchi.moe 按玩家名", "电脑上的浏览器",
           "从 http://tenhou.net/ 打开（这是一个没有指明具体对局的 tenhou.net 页面）"),
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_the_list_path_says_one_thing_from_the_panel_to_the_bookmarklet(
    fresh: Page, mapped: Browser, bookmarklet: str, lang: str
) -> None:
    """The list panel sends a player to the bookmarklet on a tenhou.net page; doing exactly
    that connects pywall to that tab (not "names no game"), and the pasted list is offered
    through it. Phone steps, desktop-only, where one's own games are, in the page's words."""
    never, where, desktop, connected = LIST_PATH[lang]
    page = in_language(fresh, lang)
    expect(page.locator(".handoff-desktop")).to_contain_text(desktop)
    expect(page.locator(".handoff-where")).to_contain_text(where)
    page.locator("#paste").fill("\n".join(GAMES[:2]))
    page.locator("#paste-go").click()
    panel = page.locator(".game-list")
    expect(panel.locator(".game-list-never")).to_contain_text(never)
    expect(panel.locator(".game-list-where")).to_contain_text(where)
    assert raw_control_hidden(panel.locator("#game-list-files"))
    page.set_viewport_size(PHONE)  # and on a phone (clean() gives the next test its size back)
    for words in (panel.locator(".game-list-never"), panel.locator(".game-list-where")):
        words.scroll_into_view_if_needed()
        box = words.bounding_box()  # within the phone's width: read without scrolling sideways
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert raw_control_hidden(panel.locator("#game-list-files"))
    expect(panel.locator("label[for=game-list-files]")).to_be_visible()
    context = context_in(mapped, LOCALES[lang])
    try:
        popup = opened_from_tenhou(context, bookmarklet)  # tenhou.net/: no game, no list
        expect(popup.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        in_language(popup, lang)
        expect(popup.locator("#handoff-msg")).to_contain_text(connected, timeout=READY_MS)
        popup.locator("#paste").fill("\n".join(GAMES[:2]))
        popup.locator("#paste-go").click()
        expect(popup.locator("#game-list-fetch")).to_be_visible(timeout=WORK_MS)
        expect(popup.locator(".game-list-never")).to_have_count(0)
    finally:
        context.close()


#: A list of 1,001 games, one more than the page takes, and what the page says of it.
OVER_A_THOUSAND = "\n".join(f"2022060222gm-0001-0000-{i:08x}" for i in range(1001))
REFUSED = {
    "en": "The list names more than 1,000 games; pywall takes at most 1,000 at a time: paste a part of it.",
    "zh": "列表中的对局超过 1,000 局；pywall 每次最多处理 1,000 局：请分批粘贴。",
}


def test_a_list_over_a_thousand_games_is_refused_with_words(fresh: Page) -> None:
    page = fresh
    page.locator("#paste").fill(OVER_A_THOUSAND)
    page.locator("#paste-go").click()
    expect(page.locator(".game-list-error")).to_have_text(REFUSED["en"])


def test_the_box_under_the_paste_shows_the_last_answer_in_every_language(fresh: Page) -> None:
    """A link, a list, a link, a refused list: each answer replaces the last under the paste
    box, and a change of language redraws the last one given, never an earlier one. Go takes
    the last answer away at once: no earlier answer stands while the new one is worked out."""
    page = fresh
    box = page.locator("#link-out")
    page.locator("#paste").fill(LINKS[0])
    page.locator("#paste-go").click()
    expect(box.locator(".link-result")).to_have_attribute("data-game", GAMES[0])
    page.locator("#paste").fill("\n".join(LINKS[:3]))
    # Go's click empties the box before it returns, before Python is asked anything
    left = "() => { document.getElementById('paste-go').click(); return [...document.getElementById('link-out').children].length; }"
    assert page.evaluate(left) == 0
    expect(box.locator(".game-list h3")).to_have_text("3 Tenhou games in the list")
    in_language(page, "ja")
    expect(box.locator(".game-list h3")).to_have_text("リストにある天鳳の対局 3 件")
    expect(box.locator(":scope > *")).to_have_count(1)
    page.locator("#paste").fill(LINKS[1])
    page.locator("#paste-go").click()
    expect(box.locator(".link-result h3")).to_have_text(f"天鳳の対局 {GAMES[1]}")
    in_language(page, "zh")
    expect(box.locator(".link-result h3")).to_have_text(f"天凤对局 {GAMES[1]}")
    expect(box.locator(":scope > *")).to_have_count(1)
    page.locator("#paste").fill(OVER_A_THOUSAND)
    page.locator("#paste-go").click()
    expect(box.locator(".game-list-error")).to_have_text(REFUSED["zh"])
    in_language(page, "en")
    expect(box.locator(".game-list-error")).to_have_text(REFUSED["en"])
    expect(box.locator(":scope > *")).to_have_count(1)


OPEN_PYWALL = """([pywall, viewer]) => new Promise((resolve) => {
    window.got = [];
    window.w = window.open(pywall + "#viewer=" + encodeURIComponent(viewer), "_blank");
    addEventListener("message", (e) => { if (e.source === window.w) { window.got.push(e.data); resolve(e.data); } });
})"""


def test_the_list_exchange_takes_only_what_was_asked(
    mapped: Browser, site_url: str, tenhou: TenhouSite
) -> None:
    """A hand-written opener on tenhou.net (no bookmarklet): the page's list is asked for
    once and taken only as text; during the run each log only for the game asked, and an
    error answer is a failed row while the run goes on."""
    context = context_in(mapped, "en-US")
    try:
        opener = context.new_page()
        opener.goto("http://tenhou.net/")
        with context.expect_page() as opened:
            first = opener.evaluate(OPEN_PYWALL, [site_url, "http://tenhou.net/"])
        popup = opened.value
        assert first == {"pywall": "list"}
        note = popup.locator("#handoff-msg")
        sends = [
            (f"{{pywall: 'log', id: '{GAMES[0]}', text: '<mjloggm/>'}}", "not a log message"),
            ("{pywall: 'list', text: 42}", "the page's list is not text"),
        ]
        for message, why in sends:
            opener.evaluate(f"() => window.w.postMessage({message}, '*')")
            expect(note).to_have_text(
                f"A message from tenhou.net was ignored: it is not the log pywall asked for ({why}).",
                timeout=READY_MS,
            )
        listing = f"<li>{GAMES[0]}</li><li>http://tenhou.net/0/?log={GAMES[1]}&tw=0</li>"
        opener.evaluate("t => window.w.postMessage({pywall: 'list', text: t}, '*')", listing)
        expect(popup.locator(".game-list h3")).to_have_text(
            "2 Tenhou games in the list", timeout=WORK_MS
        )
        opener.wait_for_function("() => window.got.length === 2", timeout=WORK_MS)
        assert opener.evaluate("() => window.got[1]") == {
            "pywall": "want",
            "id": GAMES[0],
            "url": f"https://tenhou.net/0/log/?{GAMES[0]}",
        }
        # the log of a game not asked for is refused; the one asked for is taken
        log = fixture_bytes(GAMES[2])
        opener.evaluate(
            f"b => window.w.postMessage({{pywall: 'log', id: '{GAMES[2]}', bytes: new Uint8Array(b).buffer}}, '*')",
            list(log),
        )
        expect(note).to_contain_text("(another game)")
        opener.evaluate(
            f"b => window.w.postMessage({{pywall: 'log', id: '{GAMES[0]}', bytes: new Uint8Array(b).buffer}}, '*')",
            list(fixture_bytes(GAMES[0])),
        )
        opener.wait_for_function("() => window.got.length === 3", timeout=WORK_MS)
        assert opener.evaluate("() => window.got[2].id") == GAMES[1]
        opener.evaluate(
            f"() => window.w.postMessage({{pywall: 'log', id: '{GAMES[1]}', error: 'HTTP 500'}}, '*')"
        )
        expect(popup.locator("#game-list-progress")).to_have_text(
            "All 2 games asked for: 1 log received, 1 failed.", timeout=WORK_MS
        )
        expect(
            popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAMES[0]}"]')
        ).to_have_attribute("data-verdict", "verified")
        failed = popup.locator(f'#results [data-file="tenhou.net/0/log/?{GAMES[1]}"]')
        expect(failed).to_have_attribute("data-verdict", "error")
        expect(failed).to_contain_text(f"tenhou.net did not give the log of {GAMES[1]}: HTTP 500")
        # nothing more is taken once the run is over
        opener.evaluate(
            f"() => window.w.postMessage({{pywall: 'log', id: '{GAMES[1]}', text: '<mjloggm/>'}}, '*')"
        )
        expect(note).to_contain_text("(pywall asked for no log)")
        expect(popup.locator("#results [data-file]")).to_have_count(2)
    finally:
        context.close()
