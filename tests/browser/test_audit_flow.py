"""The fairness audit as a player meets it (issue 33), in English, Japanese and Chinese, on a
desktop (1366×800) and a phone (390×844): the first screen names both jobs; after a zip of
real logs the button asks the question; the player's own verdict, draw lines and chart come
first; each draw line says what it counts, the fair 95% range and a plain reading, with the
CLI's numbers; the charts are readable; "Export audit" saves exactly what `pywall audit
--json` prints and the HTML report; "Copy summary" copies a verdict; nothing scrolls
sideways; no English in ja or zh."""

from __future__ import annotations

import contextlib
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import cli_output
from tests.browser.test_page import WORK_MS, result
from tests.helpers import TENHOU, first_difference, fixture_paths

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SIZES = {
    "desktop": ViewportSize(width=1366, height=800),
    "phone": ViewportSize(width=390, height=844),
}
LANGS = ["en", "ja", "zh"]

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "tagline": "test, over many games, whether the deals, the draws and the walls look like a fair shuffle",
        "device": "on this device",
        "button": "Is the dealing fair? Test these {n} games: deals, draws, walls",
        "heading": "Is the dealing fair? Deals, draws and walls",
        "you": "You ({name})",
        "usual": "usual",
        "unusual": "unusual",
        "very_unusual": "very unusual",
        "copy": "pywall fairness audit: {games} verified games",
        "html_you": "<h2>You ({name})</h2>",
    },
    "ja": {
        "tagline": "多数の対局で、配牌・ツモ・牌山が公平なシャッフルらしく見えるかを検定します",
        "device": "この端末上で",
        "button": "配牌は公平？ この{n}局を検定: 配牌・ツモ・牌山",
        "heading": "配牌は公平？ 配牌・ツモ・牌山の検定",
        "you": "あなた（{name}）",
        "usual": "よくある範囲",
        "unusual": "珍しい",
        "very_unusual": "非常に珍しい",
        "copy": "pywall 公平性の検査: 検証済みの対局 {games} 局",
        "html_you": "<h2>あなた（{name}）</h2>",
    },
    "zh": {
        "tagline": "在许多对局上检验配牌、摸牌和牌山是否像公平洗牌的结果",
        "device": "本设备",
        "button": "发牌公平吗？检验这 {n} 局：配牌、摸牌、牌山",
        "heading": "发牌公平吗？配牌、摸牌与牌山的检验",
        "you": "你（{name}）",
        "usual": "常见",
        "unusual": "少见",
        "very_unusual": "非常少见",
        "copy": "pywall 公平性检验：已验证的对局 {games} 局",
        "html_you": "<h2>你（{name}）</h2>",
    },
}


def effective_words(lang: str, test: dict[str, Any]) -> str:
    """The page's effective-draw line for a test of the CLI's JSON."""
    f = {k: f"{round(test[k]):,}" for k in ("observed", "n", "expected", "low", "high")}
    return {
        "en": f"Effective draws (a tile that brings the hand closer to ready): {f['observed']} of {f['n']} — "
        f"a fair shuffle gives {f['expected']} on average, usually between {f['low']} and {f['high']}:",
        "ja": f"有効牌のツモ（手を聴牌に近づける牌）: {f['n']}回中{f['observed']}回 — 公平なシャッフルなら"
        f"平均{f['expected']}回、通常は{f['low']}〜{f['high']}回:",
        "zh": f"有效牌摸牌（使手牌更接近听牌的牌）：{f['n']} 次中 {f['observed']} 次 — 公平洗牌平均 "
        f"{f['expected']} 次，通常在 {f['low']} 到 {f['high']} 次之间：",
    }[lang]


@pytest.fixture(scope="module")
def logs_zip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    """A zip of 17 real logs: a copy of one among them, and first of all a copy of another
    cut short in its third round (as a download that stopped), which must not replace the
    whole log it is part of; the CLI's JSON of it, read and as printed."""
    from tests.unit.test_audit_copies import REAL, cut

    where = tmp_path_factory.mktemp("audit-flow")
    paths = [REAL] + [p for p in fixture_paths() if p != REAL][:14]
    archive, whole = where / "my games.zip", where / "whole.zip"
    for target, with_copies in ((archive, True), (whole, False)):
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            if with_copies:
                zf.writestr("cut short/" + REAL.name, cut(REAL.read_text(encoding="utf-8")))
            for p in paths:
                zf.write(p, p.relative_to(TENHOU).as_posix())
            if with_copies:
                zf.write(paths[1], "a copy/of a game with a very long folder name/" + paths[1].name)

    def cli(path: Path) -> str:
        with contextlib.chdir(where):
            code, printed = cli_output("audit", "--json", path.name)
        assert code == 0
        return printed

    printed = cli(archive)
    found, plain = dict(json.loads(printed)), json.loads(cli(whole))
    # the copies count once, as the whole log: the same totals as the zip without them
    assert [found["games"][k] for k in ("used", "hands", "draws")] == [
        plain["games"][k] for k in ("used", "hands", "draws")
    ]
    assert found["games"]["left_out"] == {"duplicate": 2}
    return archive, found, printed


def speak(page: Page, lang: str) -> None:
    """The page's language chosen with its own control (a change, as a player makes one:
    choosing the language already shown changes nothing)."""
    if page.input_value("#lang") != lang:
        page.select_option("#lang", lang)


#: The deepest elements that reach past the window's right edge (for the failure's words).
TOO_WIDE = """() => [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5
      && ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 0.5))
    .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className}`
      + ` (right ${Math.round(e.getBoundingClientRect().right)}): ${e.textContent.slice(0, 60)}`)"""


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 0, f"the page scrolls {width} px sideways: {page.evaluate(TOO_WIDE)}"


def open_every_list(view: Locator) -> int:
    """Open every closed <details> in the view at once; return after each one's toggle event
    (the audit draws a chart in a list when it opens) and a task after; how many opened."""
    opened: int = view.evaluate(
        """v => new Promise((done) => {
        const shut = [...v.querySelectorAll("details")].filter((d) => !d.open);
        if (!shut.length) { done(0); return; }
        let left = shut.length;
        const seen = () => { if (--left === 0) { v.removeEventListener("toggle", seen, true);
                                                 setTimeout(() => done(shut.length)); } };
        v.addEventListener("toggle", seen, true);
        for (const d of shut) d.open = true;
        })"""
    )
    return opened


def english_left(page: Page, names: list[str]) -> list[str]:
    """Words of three Latin letters or more in the audit's view, players' names and paths aside."""
    text = page.locator("#audit-view").evaluate(
        """v => { const c = v.cloneNode(true);
        c.querySelectorAll("bdi, option, select, code, title, svg").forEach((n) => n.remove());
        document.body.append(c); const s = c.innerText; c.remove(); return s; }"""
    )
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    allowed = {"pywall", "JSON", "HTML", "NoName", "log"}
    return sorted({w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed})


def label_px(page: Page, selector: str) -> float:
    """The smallest rendered font size of a chart's labels, in CSS pixels."""
    return float(
        page.locator(selector).first.evaluate(
            """svg => { const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return Math.min(...[...svg.querySelectorAll("text")].map((t) =>
                parseFloat(getComputedStyle(t).fontSize) * scale)); }"""
        )
    )


def test_the_audit_as_a_player_meets_it(
    fresh: Page, logs_zip: tuple[Path, dict[str, Any], str], shot: Any
) -> None:
    """The module's loaded page (in English, cleaned), one verified zip, the audit in each language at each size: the first
    screen is read in each language (chosen with the page's own language control before any
    file), then at each size the window is resized and the audit asked (its charts take their
    width when drawn, as on that device), and read in English, Japanese and Chinese in turn:
    a change of language redraws the audit in place, at the window's width, from the same
    answer (the audit's request carries no language; its exports do, and are asked in each)."""
    archive, cli, printed = logs_zip
    page = fresh
    page.set_viewport_size(SIZES["desktop"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tagline = page.locator(".tagline")
    # 1. the first screen says both jobs, and where they run, in each language
    for lang in LANGS:
        at = f"{lang}, the first screen"
        speak(page, lang)
        expect(page.locator("html"), at).to_have_attribute("lang", lang)
        expect(tagline, at).to_contain_text(WORDS[lang]["tagline"])
        expect(tagline, at).to_contain_text(WORDS[lang]["device"])
    page.locator("input[type=file][multiple]").set_input_files(str(archive))
    expect(result(page, archive.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    verified = 17  # every file verifies (the cut copy too); the copies are games again
    button = page.locator("button[data-action=audit]")
    view = page.locator("#audit-out")
    players = sorted(cli["players"], key=lambda g: (-g["hands"], g["label"]))
    me = players[0]
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for n, lang in enumerate(LANGS):
            at = f"{lang} at {size}"
            words = WORDS[lang]
            speak(page, lang)
            expect(page.locator("html"), at).to_have_attribute("lang", lang)
            expect(tagline, at).to_contain_text(words["tagline"])
            expect(tagline, at).to_contain_text(words["device"])
            expect(button, at).to_have_text(words["button"].format(n=verified))
            expect(page.locator("#audit-heading"), at).to_have_text(words["heading"])
            if n == 0:  # asked once at this size; each language after redraws it in place
                button.click()
            expect(view.locator('[data-result="audit"]'), at).to_have_count(1, timeout=WORK_MS)
            if size == next(iter(SIZES)) and n == 0:
                # no link names a seat and nothing was chosen before: the page asks, never
                # guesses (not the player with the most hands); the answer is remembered
                expect(view.locator(".audit-who"), at).to_have_attribute("data-how", "ask")
                expect(view.locator(".audit-you"), at).to_have_count(0)
                page.locator("#audit-player").select_option(me["label"])
            check_audit(page, lang, size, cli, printed, me, shot)
    # 2. another player chosen is remembered on this device: chosen in each language (on
    # the last size's audit), it stays chosen when the audit is asked again
    for n, lang in enumerate(LANGS):
        at = f"{lang} at phone"
        speak(page, lang)
        expect(page.locator("html"), at).to_have_attribute("lang", lang)
        other = players[1 + n % 2]["label"]
        page.locator("#audit-player").select_option(other)
        expect(view.locator(".audit-you"), at).to_have_attribute("data-player", other)
        button.click()
        expect(view.locator(".audit-you"), at).to_have_attribute(
            "data-player", other, timeout=WORK_MS
        )


def check_audit(
    page: Page,
    lang: str,
    size: str,
    cli: dict[str, Any],
    printed: str,
    me: dict[str, Any],
    shot: Any,
) -> None:
    """The drawn audit in one language at one size: counts, "you" first, the draw lines,
    the charts, the exports, the copied summary, no sideways scrolling, no English left."""
    at = f"{lang} at {size}"
    words = WORDS[lang]
    view = page.locator("#audit-out")
    summary = view.locator(".audit-summary")
    expect(summary, at).to_have_attribute("data-games", str(cli["games"]["used"]))
    expect(summary, at).to_have_attribute("data-hands", str(cli["games"]["hands"]))
    expect(summary, at).to_have_attribute("data-draws", str(cli["games"]["draws"]))
    # 2. "you" first: the player chosen (and remembered); their group before everyone's
    expect(page.locator("#audit-player"), at).to_have_value(me["label"])
    you = view.locator(".audit-you")
    expect(you, at).to_have_attribute("data-player", me["label"])
    expect(you.locator("h4").first, at).to_contain_text(words["you"].format(name=me["label"]))
    everyone = view.locator('.audit-group[data-group="all players"]')
    assert you.evaluate(
        "(y, e) => !!(y.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)",
        everyone.element_handle(),
    ), at
    # 3. each draw line: what it counts, the CLI's figures, the fair 95% range, a plain word
    for group, node in ((me, you), (cli["overall"], everyone)):
        line = node.locator(".draw-lines li[data-test=effective]").first
        eff = group["draws"]["effective"]
        expect(line, at).to_contain_text(effective_words(lang, eff))
        expect(line, at).to_have_attribute("data-reading", eff["reading"])
        expect(line.locator(".reading"), at).to_have_text(words[eff["reading"]])
        expect(line, at).to_have_attribute("data-low", str(eff["low"]))
    # within chance, never "better" or "more": the hand tests of a usual group say close to fair
    if cli["overall"]["shanten_sum"]["reading"] == "usual":
        close = {"en": "close to fair", "ja": "公平に近い", "zh": "接近公平"}[lang]
        expect(everyone.locator('[data-test="shanten_sum"]'), at).to_contain_text(close)
    # 4. the charts: the player's and everyone's, visible, ticks, swatches, readable labels
    for node in (you, everyone):
        chart = node.locator("figure.draws-chart svg")
        expect(chart, at).to_be_visible()
        assert chart.locator("text.tick").count() >= 3, at
        # the line, the 95% band and the flag line the verdict uses (one story per group)
        expect(chart.locator(".swatch"), at).to_have_count(3)
        expect(chart.locator(".flag-line.swatch"), at).to_have_count(1)
    assert label_px(page, ".audit-you figure.draws-chart svg") >= 11, at
    everyone_chart = '.audit-group[data-group="all players"] figure.draws-chart svg'
    assert label_px(page, everyone_chart) >= 11, at
    if size == "phone":
        box = everyone.locator("figure.draws-chart svg").bounding_box()
        assert box is not None and box["width"] >= 0.7 * 390, (at, box)
    # the wall tests of the platform as a picture: a bar per region against the threshold
    walls = view.locator("figure.walls-chart svg").first
    expect(walls, at).to_be_visible()
    expect(walls.locator(".threshold"), at).to_have_count(1)
    shot(f"audit-flow-{lang}-{size}", page.locator("#audit-view"))
    # 5. export: exactly what `pywall audit --json` prints; the HTML report; a summary
    with page.expect_download() as got:
        view.locator("button[data-action=export-audit]").click()
    assert got.value.suggested_filename == "pywall-audit.json", at
    text = Path(got.value.path()).read_text(encoding="utf-8")
    exported = json.loads(text)
    assert first_difference(exported, cli) is None, (at, first_difference(exported, cli))
    assert text == printed, at  # the same bytes: every float to the last bit
    with page.expect_download() as got:
        view.locator("button[data-action=export-audit-html]").click()
    assert got.value.suggested_filename == "pywall-audit.html", at
    html = Path(got.value.path()).read_text(encoding="utf-8")
    assert f"<html lang='{lang}'>" in html and "<script" not in html.lower(), at
    assert "<svg" in html, at
    assert words["html_you"].format(name=me["label"]) in html, at
    page.evaluate("() => navigator.clipboard.writeText('')")
    view.locator("button[data-action=copy-summary]").click()
    expect(view.locator(".audit-share-msg"), at).not_to_be_empty()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert words["copy"].format(games=cli["games"]["used"]) in copied, (at, copied)
    # 11. nothing scrolls sideways with every list open; no English in ja or zh
    assert open_every_list(view) > 0, at
    no_sideways_scroll(page)
    if lang != "en":
        left = english_left(page, [g["label"] for g in cli["players"]])
        assert not left, (at, left)


def test_one_log_is_one_log_and_counts_carry_separators(fresh: Page) -> None:
    """ "1 log", no rate for a single file; the audit's one-game button and its word that one
    game is too few; thousands grouped ("1,234") in the audit's counts. The module's loaded
    page, cleaned (as a fresh page shows it)."""
    page = fresh
    one = fixture_paths()[0]
    page.locator("input[type=file][multiple]").set_input_files(str(one))
    expect(result(page, one.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    summary = page.locator("#batch-summary")
    expect(summary).to_contain_text(
        re.compile(r"^1 log: 1 verified, 0 mismatch, 0 cannot read; [\d,]+ tiles checked")
    )
    expect(summary).not_to_contain_text("per second")
    expect(page.locator("#batch-text")).to_have_text("1 of 1 log checked")
    button = page.locator("button[data-action=audit]")
    expect(button).to_have_text("Is the dealing fair? Test this game: deals, draws, walls")
    expect(page.locator(".audit-need")).to_contain_text("far too few")
    button.click()
    draws = page.locator("#audit-out .audit-summary")
    expect(draws).to_contain_text(
        re.compile(r"1 verified game, \d+ starting hands, [\d,]+ draws tested\.")
    )
    text = draws.inner_text()
    for number in re.findall(r"\d[\d,]*", text):
        assert int(number.replace(",", "")) < 1000 or "," in number, text
