"""The page for keyboards, screen readers, phones and wikis (issue 12, items 10, 12, 14,
15, 19): axe-core (pinned in web/package.json, not part of site/) over every main
state with zero violations, headings in order, the file chooser from the keyboard,
a link to every checked round, the embed in a narrow sidebar, the audit's words and
place, and the tables at a phone's width.

A page load costs seconds of CPU: tests of the verifier share the module's loaded page
(``fresh``; a tool or the seed view is opened there by its fragment, as a link on the page
does), and variants that differ only in what one loaded page can show in turn (a language
switched with the page's own select, which redraws in place; the embed's fragment, which it
follows) are one test that checks each variant, named in its failures."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import api_call, report_of
from tests.browser.test_page import (
    PLAIN,
    READY_MS,
    THREE_PLAYER,
    WORK_MS,
    choose,
    result,
    tamper_draw,
)
from tests.browser.test_panels import MAJSOUL_FILE, SEGA
from tests.helpers import ROOT, TENHOU, vector_seed

pytestmark = pytest.mark.browser

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SEED = quote(vector_seed(), safe="")
LANGS = ("en", "ja", "zh")


def axe(page: Page) -> list[str]:
    """axe-core's violations on the page as it stands, one line each (rule, impact, where)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.flatMap((v) => v.nodes.map((n) =>
            `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary.replace(/\\s+/g, " ")}`));
    }""")
    return found


def no_violations(page: Page, state: str) -> None:
    found = axe(page)
    assert found == [], f"{state}: {len(found)} axe-core violation(s)\n" + "\n".join(found[:20])


@contextmanager
def variant(name: str) -> Iterator[None]:
    """One variant of a merged test: a failed assertion inside says which one it was."""
    try:
        yield
    except AssertionError as err:
        raise AssertionError(f"[{name}] {err}") from err


@contextmanager
def sized(page: Page) -> Iterator[Page]:
    """The shared page back at its own size after a test that resizes it."""
    size = page.viewport_size
    try:
        yield page
    finally:
        if size is not None:
            page.set_viewport_size(size)


def hands_done(scope: Any, count: int = 1) -> None:
    expect(scope.locator('[data-panel="start-hands"][data-state="done"]')).to_have_count(
        count, timeout=WORK_MS
    )


# --- 19. keyboard and axe-core ----------------------------------------------------------------


def test_axe_core_is_pinned_for_the_tests_and_not_shipped() -> None:
    package = json.loads((ROOT / "web" / "package.json").read_text())
    version = package["devDependencies"]["axe-core"]
    assert version[0].isdigit(), "pinned exactly, not a range"
    lock = json.loads((ROOT / "web" / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/axe-core"]["version"] == version
    assert lock["packages"]["node_modules/axe-core"]["dev"] is True
    assert AXE.is_file(), "npm ci installs it (python3 build.py test)"
    assert not any("axe" in p.name for p in (ROOT / "site").rglob("*")), "a test-only file"


def test_the_file_chooser_opens_with_enter_and_with_space(fresh: Page) -> None:
    page = fresh
    from_the_top(page)
    # Playwright intercepts file choosers only while someone listens: listen from the start,
    # or a chooser opened just as expect_file_chooser begins to listen can be missed.
    page.on("filechooser", ignore_chooser)
    try:
        tab_to_the_chooser(page)
    finally:
        page.remove_listener("filechooser", ignore_chooser)


def from_the_top(page: Page) -> None:
    """The shared page where a fresh one's first Tab goes: its first link (the skip link)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("a.skip").focus()


def ignore_chooser(chooser: Any) -> None:
    pass


def tab_to_the_chooser(page: Page) -> None:
    for _ in range(20):  # reached by Tab alone
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "files":
            break
    else:
        raise AssertionError("Tab never reaches the file chooser")
    expect(page.locator("label[for=files]")).to_have_css("outline-style", "solid")  # and it shows
    for key, log in (("Enter", PLAIN), ("Space", THREE_PLAYER)):
        with page.expect_file_chooser() as chooser:
            page.keyboard.press(key)
        assert chooser.value.is_multiple() and chooser.value.element.get_attribute("id") == "files"
        chooser.value.set_files(str(log))
        expect(result(page, log.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
        expect(page.locator("#files")).to_be_focused()


def test_axe_over_the_verifier_states(fresh: Page) -> None:
    """Empty, a verified result with a round open (wall, starting hands, commitment box),
    a mismatch, the audit, the seed view; then the results in Japanese and Chinese."""
    page = fresh
    no_violations(page, "empty")
    choose(page, PLAIN)
    node = result(page, PLAIN.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="0"] > summary').click()
    hands_done(node)
    box = node.locator('[data-panel="commitment"]')
    box.get_by_label("Published hash, or the saved hash list").fill("0" * 128)
    box.get_by_role("button", name="Check the commitment").click()
    expect(box.locator("[data-result]")).to_have_attribute(
        "data-result", "unmatched", timeout=WORK_MS
    )
    box.locator("details.candidates summary").click()
    no_violations(page, "verified result, round open, commitment checked")
    page.get_by_role("button", name="Try two sample games").click()
    bad = result(page, "sample-game-one-draw-changed.xml")
    expect(bad).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    hands_done(bad)  # the mismatched round is open
    no_violations(page, "mismatch")
    page.locator("button[data-action=audit]").click()
    expect(page.locator('#audit-out [data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    page.locator("details.audit-players > summary").click()
    page.locator("#audit-out details.audit-hand-charts > summary").first.click()
    page.locator("#audit-out figure.audit-chart details > summary").first.click()
    no_violations(page, "audit")
    for lang in ("ja", "zh"):
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        no_violations(page, f"results in {lang}")
    page.evaluate("f => { location.hash = f; }", f"#tenhou={SEED}&round=2")
    expect(page.locator("#seed-wall .wall")).to_have_count(1, timeout=READY_MS)
    no_violations(page, "seed view")


def test_axe_over_an_archive(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    archive = tmp_path / "five.zip"
    logs = sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))[:4]
    with zipfile.ZipFile(archive, "w") as zf:
        for p in logs:
            zf.write(p, p.name)
        zf.writestr("altered.xml", tamper_draw(PLAIN.read_text(encoding="utf-8"), 2, 4))
    choose(page, archive)
    node = result(page, archive.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    page.locator("#summary tbody tr").get_by_role("button", name="five.zip/altered.xml").click()
    game = node.locator('[data-file="five.zip/altered.xml"]')
    expect(game).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    hands_done(game)
    no_violations(page, "archive with a game open")


def test_axe_over_the_tool_panels(fresh: Page) -> None:
    case = SEGA[0]
    seeds = ",".join(case["player_seeds"])
    page = fresh
    page.evaluate(
        "f => { location.hash = f; }", f"#tool=sega&seeds={seeds}&u={case['uncertainty']}"
    )
    expect(page.locator("#tool-sega .sega-wall .tile")).to_have_count(136, timeout=WORK_MS)
    no_violations(page, "SEGA MJ wall")
    page.evaluate("() => { location.hash = '#tool=majsoul'; }")
    panel = page.locator("#tool-majsoul")
    panel.get_by_label("Game record (JSON)").set_input_files(str(MAJSOUL_FILE))
    expect(panel.locator(".ms-result")).to_have_attribute(
        "data-verdict", "verified", timeout=READY_MS
    )
    no_violations(page, "Mahjong Soul hashes")


# --- 14. a link to every checked round ----------------------------------------------------------

GAME = "2022060222gm-0001-0000-a87679bc"
GAME_LOG = TENHOU / "jim137" / f"{GAME}_tw3.mjlog"


def open_every_round(node: Any) -> None:
    node.locator("details.rounds").evaluate("d => { d.open = true; }")
    node.locator("details.round").evaluate_all("ds => ds.forEach((d) => { d.open = true; })")


def live_wall(scope: Any) -> list[int]:
    ids: list[int] = scope.locator(".live .tile").evaluate_all(
        "ns => ns.map(n => Number(n.dataset.tile))"
    )
    return ids


ROUND_LINK_GAMES = [("tenhou-id", GAME_LOG, 4), ("3-player", THREE_PLAYER, 3)]


def test_every_checked_round_links_to_its_wall(fresh: Page, site_url: str) -> None:
    """Both games (one with its Tenhou id in the file's name, one of three players) in one
    loaded page; each followed link opens its own tab, a fresh load of the seed view,
    which is what the link is for."""
    page = fresh
    choose(page, *(log for _, log, _ in ROUND_LINK_GAMES))
    for name, log, players in ROUND_LINK_GAMES:
        with variant(name):
            check_round_links(page, site_url, log, players)


def check_round_links(page: Page, site_url: str, log: Path, players: int) -> None:
    report = report_of(log.name, log.read_bytes())
    game, rounds = report["game"], report["rounds"]
    assert game["player_count"] == players and len(rounds) > 2
    node = result(page, log.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    open_every_round(node)
    links = node.locator("details.round a.wall-link")
    expect(links).to_have_count(len(rounds))
    suffix = "&players=3" if players == 3 else ""
    for r in rounds:
        expect(
            node.locator(f'details.round[data-round="{r["index"]}"] a.wall-link')
        ).to_have_attribute(
            "href",
            f"{site_url}#tenhou={quote(game['seed'], safe='')}&round={r['index'] + 1}{suffix}",
        )
    # Tenhou's viewer at the same round when the game's id is known (here, from the file's name)
    viewers = node.locator("details.round a.viewer-link")
    if game["log_id"]:
        expect(viewers).to_have_count(len(rounds), timeout=WORK_MS)
        expect(viewers.nth(2)).to_have_attribute(
            "href", f"https://tenhou.net/0/?log={game['log_id']}&ts=2"
        )
        expect(viewers.nth(2)).to_have_text("This round in Tenhou's viewer")
    else:
        expect(viewers).to_have_count(0)
    # followed, the link shows the same wall as the checked round
    third = node.locator('details.round[data-round="2"]')
    with page.context.expect_page() as opened:
        third.get_by_role("link", name="Link to this wall").click()
    seed_page = opened.value
    try:
        wall = seed_page.locator("#seed-wall .wall")
        expect(wall).to_have_count(1, timeout=READY_MS)
        expect(seed_page.locator("#seed-players")).to_have_value(str(players))
        expect(seed_page.locator("#seed-round")).to_have_value("3")
        assert (
            live_wall(wall)
            == live_wall(third)
            == [rounds[2]["wall"][p] for p in rounds[2]["layout"]["live"]]
        )
    finally:
        seed_page.close()


# --- 15. the embed in a narrow wiki sidebar ---------------------------------------------------


def fits(page: Page, width: int, height: int) -> None:
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= width and size[1] <= height, (
        f"the page is {size[0]}×{size[1]}, the frame {width}×{height}"
    )
    beyond = page.locator("#seed-wall .tile, .embed-head, .embed-foot").evaluate_all(
        f"ns => ns.filter(n => {{ const r = n.getBoundingClientRect(); return r.right > {width} || r.bottom > {height}; }})"
        ".length"
    )
    assert beyond == 0


EMBED_VARIANTS = [  # (name, lang, players, title)
    ("en", "en", 4, "Tenhou wall · Round 3 · 4 players"),
    ("en-3-player", "en", 3, "Tenhou wall · Round 3 · 3 players"),
    ("ja", "ja", 4, "天鳳の牌山 · 第 3 局 · 四人打ち"),
    ("zh", "zh", 4, "天凤牌山 · 第 3 局 · 四人麻将"),
]


def test_the_embed_fits_a_narrow_sidebar_and_its_wide_frame(page: Page, shot: Any) -> None:
    """One embed, loaded in a wiki sidebar's 360×400 in English (axe-core over it), then
    following its fragment through the other variants (as it does when a wiki's link
    changes); last, at the snippet's own 760×640, round 1, unscrolled."""
    page.set_viewport_size({"width": 360, "height": 400})
    for n, (name, lang, players, title) in enumerate(EMBED_VARIANTS):
        fragment = f"#tenhou={SEED}&round=3&players={players}&lang={lang}"
        with variant(name):
            if n == 0:
                page.goto(f"/embed.html{fragment}")
            else:
                page.evaluate("f => { location.hash = f; }", fragment)
            check_the_narrow_embed(page, shot, lang, players, title)
            if n == 0:
                no_violations(page, "embed")
    with variant("wide"):
        page.set_viewport_size({"width": 760, "height": 640})  # the snippet's own size
        page.evaluate("f => { location.hash = f; }", f"#tenhou={SEED}&round=1&lang=en")
        expect(page.locator("#embed-title")).to_have_text("Tenhou wall · Round 1 · 4 players")
        expect(page.locator("#seed-wall .wall .tile")).to_have_count(136, timeout=READY_MS)
        fits(page, 760, 640)


def check_the_narrow_embed(page: Page, shot: Any, lang: str, players: int, title: str) -> None:
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    # what game and round it is (first: the title is drawn as the last wall is taken away)
    expect(page.locator("#embed-title")).to_have_text(title)
    wall = page.locator("#seed-wall .wall")
    expect(wall.locator(".tile")).to_have_count(136 if players == 4 else 108)
    fits(page, 360, 400)
    game = page.locator("#embed-game")
    body = vector_seed().split(",")[-1]
    expect(game).to_contain_text(body[:8])
    expect(game).to_have_attribute("title", vector_seed())
    # the wall, the dealt hands, the dice and the dora indicator, all in view
    for part in (".part-live", ".part-hands", ".part-dice .die", ".part-dead .mark-dora"):
        expect(wall.locator(part).first).to_be_in_viewport(ratio=1)
    expect(wall.locator(".part-hands .hand")).to_have_count(players)
    # no runtime jargon: the versions are in the about line only
    expect(page.locator("#status")).to_be_hidden()
    expect(page.locator("#about")).to_contain_text("Python 3.14")
    shown = page.evaluate(
        "() => document.body.innerText.replace(document.getElementById('about').innerText, '')"
    )
    assert "Python" not in shown and "Ready" not in shown
    shot(f"embed-360x400-{lang}-{players}p", page)


def test_the_status_line_speaks_to_players_and_the_about_line_to_developers(fresh: Page) -> None:
    from pywall import __version__

    page = fresh
    expect(page.locator("#status-text")).to_have_text("Ready")
    expect(page.locator("#about")).to_have_text(
        re.compile(rf"pywall {re.escape(__version__)} · Python 3\.14\.\d+")
    )
    page.select_option("#lang", "ja")
    expect(page.locator("#status-text")).to_have_text("準備完了")
    calc = page.context.new_page()  # the calculator, opened next in the same browser
    try:
        calc.goto("/calc.html")
        expect(calc.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        expect(calc.locator("#status-text")).to_have_text("準備完了")
        expect(calc.locator("#about")).to_contain_text(f"pywall {__version__}")
    finally:
        calc.close()


# --- 12. the audit: its words and its place ---------------------------------------------------


def bot_logs(count: int) -> list[Path]:
    return sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))[:count]


def run_audit(page: Page) -> Any:
    page.locator("button[data-action=audit]").click()
    view = page.locator("#audit-out")
    expect(view.locator('[data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    return view


def test_the_audit_counts_in_words_and_keeps_anonymous_players_apart(fresh: Page) -> None:
    page = fresh
    logs = bot_logs(6)  # 1.txt and 2.txt: four NoName players each; 4.txt is 3.txt again
    data = api_call("audit", {"reports": [report_of(p.name, p.read_bytes()) for p in logs]})
    games = data["games"]
    once = [
        (g["label"], part) for g in data["players"] for part in g["by_tiles"] if part["hands"] == 1
    ]
    assert games["used"] > 1 and games["anonymous_hands"] > 1 and once
    label, part = once[0]  # a player who dealt once: "Dealer hands (14 tiles) — 1 hand"
    choose(page, *logs)
    expect(page.locator("#results > [data-verdict]")).to_have_count(len(logs), timeout=WORK_MS)
    view = run_audit(page)
    expect(view.locator(".audit-summary")).to_have_text(
        f"{games['used']:,} verified games, {games['hands']:,} starting hands, {games['draws']:,} draws tested."
    )
    expect(view.locator(".audit-anonymous")).to_have_text(
        f"{games['anonymous_hands']} hands of anonymous players (NoName) count in the totals only, not per player."
    )
    # NoName is nobody: never one player of all its hands
    players = view.locator(".audit-players .audit-group, .audit-you .audit-group")
    expect(players).to_have_count(len(data["players"]))
    assert "NoName" not in [g["label"] for g in data["players"]]
    expect(view.locator('.audit-players .audit-group[data-group="NoName"]')).to_have_count(0)
    view.locator("details.audit-players > summary").click()
    group = view.locator(".audit-players .audit-group").filter(
        has=page.locator(f'h4 bdi:text-is("{label}")')
    )
    caption = group.locator(f'figure[data-tiles="{part["tiles"]}"] figcaption')
    expect(caption).to_have_text(
        "Dealer hands (14 tiles) — 1 hand"
        if part["tiles"] == 14
        else "Non-dealer hands (13 tiles) — 1 hand"
    )
    expect(group.locator("h4")).to_have_text(
        re.compile(
            rf" — {next(g['hands'] for g in data['players'] if g['label'] == label)} hands"
            r"(, [\d,]+ draws? tested)?$"
        )
    )
    # Japanese and Chinese count without a plural, and read as a sentence
    words = {
        "ja": ("検証済みの対局 {g} 局、配牌 {h} 件、検定したツモ {d} 回。", "1 件"),
        "zh": ("已验证的对局 {g} 局，配牌 {h} 手，检验的摸牌 {d} 次。", "1 手"),
    }
    for lang, (summary, one) in words.items():
        page.select_option("#lang", lang)
        expect(view.locator(".audit-summary")).to_have_text(
            summary.format(g=games["used"], h=f"{games['hands']:,}", d=f"{games['draws']:,}")
        )
        expect(caption).to_contain_text(f" — {one}")
        expect(view).not_to_contain_text("(s)")
    page.select_option("#lang", "en")
    # one game is one game
    page.get_by_role("button", name="Clear results").click()
    choose(page, GAME_LOG)
    expect(result(page, GAME_LOG.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    view = run_audit(page)
    expect(view.locator(".audit-summary")).to_have_text(
        re.compile(r"^1 verified game, \d+ starting hands, [\d,]+ draws tested\.$")
    )


def test_the_audit_button_is_at_the_top_of_the_results(fresh: Page) -> None:
    page = fresh
    logs = bot_logs(12)
    choose(page, *logs)
    expect(page.locator("#results > [data-verdict]")).to_have_count(len(logs), timeout=WORK_MS)
    button = page.locator("button[data-action=audit]")
    # before every result in the page's order (so the Tab key, too, meets it first) ...
    assert page.evaluate("""() => !!(document.getElementById("audit-go").compareDocumentPosition(
        document.getElementById("results")) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    # ... and in view with the results' heading, on a desktop and on a phone
    with sized(page):
        for size in (ViewportSize(width=1366, height=800), ViewportSize(width=390, height=844)):
            page.set_viewport_size(size)
            page.locator("#batch-heading").evaluate("h => h.scrollIntoView({ block: 'start' })")
            expect(button).to_be_in_viewport()
        run_audit(page)


# --- 10. the tables on a phone ----------------------------------------------------------------

# Each visible cell of the tables (the column heads a phone's summary hides are skipped): its
# text, on how many lines it reads, and for a cell of tiles how many tiles stand on a line.
CELLS = """(selector) => {
  const lines = (tops) => tops.sort((a, b) => a - b).filter((t, i) => i === 0 || t - tops[i - 1] > 8).length;
  const textTops = (node) => {
    const tops = [];
    const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest("[aria-hidden=true]")) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0) tops.push(r.top);
    }
    return tops;
  };
  const out = [];
  for (const table of document.querySelectorAll(selector)) {
    for (const cell of table.querySelectorAll("th, td")) {
      const head = cell.closest("thead");  // a phone's summary keeps its heads for screen readers only
      if (cell.getBoundingClientRect().width < 2 || (head && head.getBoundingClientRect().width < 2)) continue;
      const tiles = [...cell.querySelectorAll(".accept-tile")];
      if (tiles.length) {
        out.push({ table: selector, tiles: tiles.length,
                   lines: lines(tiles.map((t) => t.getBoundingClientRect().top)) });
      } else if (!cell.querySelector(".tile") && cell.textContent.trim()) {
        out.push({ table: selector, text: cell.textContent.trim(), lines: lines(textTops(cell)) });
      }
    }
  }
  return out;
}"""


def narrow_problems(page: Page, selector: str) -> list[str]:
    """What reads badly at a phone's width: a cell's words broken into lines of a few
    letters, or tiles stacked one or two to a line."""
    bad = []
    for cell in page.evaluate(CELLS, selector):
        if "tiles" in cell:
            if cell["tiles"] / cell["lines"] < min(cell["tiles"], 3):
                bad.append(f"{selector}: {cell['tiles']} tiles on {cell['lines']} lines")
        elif cell["lines"] > 1 and len(cell["text"]) / cell["lines"] < 16:
            bad.append(f"{selector}: {cell['text']!r} on {cell['lines']} lines")
    return bad


def no_sideways_scrolling(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at 390"


def test_the_tables_fit_a_phone(fresh: Page, tmp_path: Path, shot: Any) -> None:
    """In en, ja and zh in turn: the results and the calculator each loaded once at a phone's
    width, the language switched with the page's own select (it redraws the page in place,
    as a reader's switch does; lang= read at load is test_page_ux's fragment test). The
    calculator is first read by axe-core at a desktop's width."""
    page = fresh
    archive = tmp_path / "five.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for p in bot_logs(4):
            zf.write(p, p.name)
        zf.writestr("altered.xml", tamper_draw(PLAIN.read_text(encoding="utf-8"), 2, 4))
    logs = sorted((TENHOU / "jim137").iterdir())[:3]  # names of 41 characters
    with sized(page):
        page.set_viewport_size({"width": 390, "height": 844})
        choose(page, *logs, archive)
        expect(page.locator("#results > [data-verdict]")).to_have_count(
            len(logs) + 1, timeout=WORK_MS
        )
        expect(page.locator("#summary tbody tr")).to_have_count(len(logs) + 5)
        first = result(page, logs[0].name)
        for lang in LANGS:
            with variant(lang):
                page.select_option("#lang", lang)
                expect(page.locator("html")).to_have_attribute("lang", lang)
                # the first game's first round open (again: a language change redraws the game)
                for fold in ("details.rounds", 'details.round[data-round="0"]'):
                    if first.locator(fold).get_attribute("open") is None:
                        first.locator(f"{fold} > summary").click()
                hands_done(first)
                expect(first.locator("table.discards")).to_have_count(1)  # the dealer's 牌理 table
                no_sideways_scrolling(page)
                assert narrow_problems(page, "#summary") == []
                assert narrow_problems(page, "table.discards") == []
                shot(f"phone-summary-{lang}", page.locator("#summary"))
                no_violations(page, f"results on a phone, {lang}")
                expect(
                    page.locator("#summary tbody tr").first.get_by_role("rowheader")
                ).to_be_visible()  # still a table
    calc = page.context.new_page()
    try:
        calc.set_viewport_size({"width": 1366, "height": 800})
        calc.goto(f"/calc.html#q=1345m246p3579s146z&lang={LANGS[0]}")
        expect(calc.locator("table.discards tbody tr")).not_to_have_count(0, timeout=READY_MS)
        no_violations(calc, "calculator")
        calc.set_viewport_size({"width": 390, "height": 844})
        for lang in LANGS:
            with variant(lang):
                calc.select_option("#lang", lang)
                expect(calc.locator("html")).to_have_attribute("lang", lang)
                expect(calc.locator("table.discards tbody tr")).not_to_have_count(
                    0, timeout=READY_MS
                )
                no_sideways_scrolling(calc)
                assert narrow_problems(calc, "table.discards") == []
                shot(f"phone-calculator-{lang}", calc)
                no_violations(calc, f"calculator on a phone, {lang}")
                expect(
                    calc.locator("table.discards tbody tr").first.get_by_role("cell").first
                ).to_be_visible()  # still a table
    finally:
        calc.close()
