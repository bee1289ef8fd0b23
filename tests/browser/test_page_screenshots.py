"""The page as players meet it (issue 12), pictured: each main state (an empty page, one
verified game, a mismatch, a batch, an archive, the audit, the SEGA and Mahjong Soul
tools, the embed and the calculator) in English, Japanese and Chinese at 1366×800 and
390×844, written to test-artifacts/<state>-<lang>-<width>x<height>.png. Each state is
checked as it is pictured: its verdict or answer shown, no sideways scrolling, and its
words in the page's language (no English left in the Japanese and Chinese pages)."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_page import READY_MS, THREE_PLAYER, WORK_MS, choose, result
from tests.browser.test_panels import MAJSOUL_FILE, SEGA, bot_logs
from tests.helpers import ROOT, vector_seed

pytestmark = pytest.mark.browser

SAMPLES = ROOT / "web" / "samples"
GOOD, ALTERED = SAMPLES / "sample-game.xml", SAMPLES / "sample-game-one-draw-changed.xml"
SIZES = [(1366, 800), (390, 844)]
LANGS = ["en", "ja", "zh"]

#: What each state says, in each language (the page's own words, from its i18n tables).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "pywall — mahjong wall verifier",
        "ready": "Ready",
        "results": "Results",
        "verified": "Verified",
        "mismatch": "Mismatch",
        "error": "Cannot read",
        "meaning": "What a mismatch can mean, and what to do",
        "record": "in the record",
        "summary": "4 logs: 2 verified, 1 mismatch, 1 cannot read",
        "archive": "7 games: 6 verified, 1 mismatch, 0 cannot read",
        "audit": "Is the dealing fair? Deals, draws and walls",
        "left_out": "mismatch: ",
        "sega": "SEGA MJ arcade wall",
        "ms": "Mahjong Soul wall hashes",
        "ms_ok": "Every hash matches its wall.",
        "embed": "Tenhou wall · Round 2 · 4 players",
        "calc": "Hand calculator",
        "tenpai": "tenpai",
    },
    "ja": {
        "title": "pywall — 牌山検証",
        "ready": "準備完了",
        "results": "結果",
        "verified": "一致",
        "mismatch": "不一致",
        "error": "読めません",
        "meaning": "不一致が意味しうること、すべきこと",
        "record": "牌譜では",
        "summary": "4 件: 一致 2、不一致 1、読めない 1",
        "archive": "7 局: 一致 6、不一致 1、読めない 0",
        "audit": "配牌は公平？ 配牌・ツモ・牌山の検定",
        "left_out": "不一致: ",
        "sega": "セガ MJ（アーケード）の牌山",
        "ms": "雀魂の牌山ハッシュ",
        "ms_ok": "すべてのハッシュが牌山と一致しました。",
        "embed": "天鳳の牌山 · 第 2 局 · 四人打ち",
        "calc": "牌理計算",
        "tenpai": "聴牌",
    },
    "zh": {
        "title": "pywall — 麻将牌山验证",
        "ready": "就绪",
        "results": "结果",
        "verified": "一致",
        "mismatch": "不一致",
        "error": "无法读取",
        "meaning": "不一致可能意味着什么，以及该怎么做",
        "record": "在牌谱中是",
        "summary": "4 份牌谱：一致 2，不一致 1，无法读取 1",
        "archive": "7 局：一致 6，不一致 1，无法读取 0",
        "audit": "发牌公平吗？配牌、摸牌与牌山的检验",
        "left_out": "不一致：",
        "sega": "世嘉 MJ（街机）牌山",
        "ms": "雀魂牌山哈希",
        "ms_ok": "所有哈希都与牌山一致。",
        "embed": "天凤牌山 · 第 2 局 · 四人麻将",
        "calc": "牌理计算器",
        "tenpai": "听牌",
    },
}
#: English of the page's own that must not show on a Japanese or Chinese page.
ENGLISH = [
    "Verify logs",
    "Choose log files",
    "Results",
    "Clear results",
    "First problem",
    "Verified",
    "Mismatch",
    "Cannot read",
    "in the record",
    "in the log",
    "mismatch:",
    "Left out",
    "Is the dealing fair?",
    "Effective draws",
    "a fair shuffle gives",
    "Show the wall",
    "Mahjong Soul wall hashes",
    "Hand calculator",
    "tiles checked",
    "Round 2",
]

#: Whether the page's font draws two CJK characters differently (without a CJK font both
#: are the same empty box, and the Japanese and Chinese pictures show nothing readable).
GLYPHS = """() => {
  const canvas = document.createElement("canvas");
  canvas.width = 64;
  canvas.height = 32;
  const g = canvas.getContext("2d");
  g.font = `24px ${getComputedStyle(document.body).fontFamily}`;
  const drawn = (ch) => { g.clearRect(0, 0, 64, 32); g.fillText(ch, 4, 26); return g.getImageData(0, 0, 64, 32).data.join(); };
  return drawn("牌") !== drawn("山");
}"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A zip of six real games (two of them the same game) and the altered sample."""
    path = tmp_path_factory.mktemp("shots") / "games.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for log in bot_logs(6):
            zf.write(log, f"games/{log.name}")
        zf.write(ALTERED, f"games/{ALTERED.name}")
    return path


class States:
    """One page taken from state to state, each state reached once (its files verified once)
    and, in it, the page's language switched in place with its own language control (the
    page redraws without a reload) and each language pictured at each size: the window is
    resized between the pictures of a state (what the page draws for a width when it draws,
    the audit's charts, is drawn again at each size; a state whose check depends on where
    the page scrolled to is reached again at each size)."""

    def __init__(self, page: Page, shot: Any) -> None:
        self.page, self.shot = page, shot
        self.lang = "en"

    @property
    def words(self) -> dict[str, str]:
        return WORDS[self.lang]

    def languages(self) -> Iterator[str]:
        """Each language in turn, chosen with the page's language control."""
        for lang in LANGS:
            self.lang = lang
            if self.page.input_value("#lang") != lang:  # as a player can: a change, or none
                self.page.select_option("#lang", lang)
            expect(self.page.locator("html"), lang).to_have_attribute("lang", lang)
            yield lang

    def resize(self, size: tuple[int, int]) -> None:
        self.page.set_viewport_size({"width": size[0], "height": size[1]})

    def check(self, state: str, sizes: list[tuple[int, int]] = SIZES) -> None:
        """At each size: no sideways scrolling; the page in its language; then its picture."""
        page = self.page
        for width, height in sizes:
            self.resize((width, height))
            at = f"{state} in {self.lang} at {width}x{height}"
            scroll, inner = page.evaluate(
                "() => [document.documentElement.scrollWidth, innerWidth]"
            )
            assert scroll <= inner, f"{at}: the page is {scroll} px wide at {inner}"
            expect(page.locator("html"), at).to_have_attribute("lang", self.lang)
            if self.lang != "en":
                shown = str(page.evaluate("() => document.body.innerText"))
                assert [w for w in ENGLISH if w in shown] == [], at
            self.shot(f"{state}-{self.lang}-{width}x{height}", page)

    def clear(self) -> None:
        self.page.locator("#clear").click()
        expect(self.page.locator("#batch")).to_be_hidden()
        self.page.evaluate("window.scrollTo(0, 0)")

    def empty(self, lang: str) -> None:
        """A fresh page opened in the language (the first screen, and the first file chosen
        on it: a page whose language was changed brings a chosen file's verdict 57 px lower
        at 390x844, below the fold, so the verdict coming into view is checked as a page
        opened in its language shows it)."""
        page = self.page
        self.lang = lang
        self.resize(SIZES[0])
        page.goto("about:blank")  # a new load (from /#lang=en, /#lang=ja would only redraw)
        page.goto(f"/#lang={lang}")
        expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
        expect(page.locator("#status-text")).to_have_text(self.words["ready"])
        expect(page.locator("h1")).to_have_text(self.words["title"])
        assert page.evaluate(GLYPHS), (
            "牌 and 山 are drawn alike: no CJK font (apt-get install fonts-noto-cjk)"
        )
        expect(page.locator("#batch")).to_be_hidden()
        self.check("empty")

    def one_game(self) -> None:
        # chosen at each size, the phone's first (on the page as it opened), then again on the
        # cleared page at the desktop's size: its verdict comes into view at each
        for i, size in enumerate(reversed(SIZES)):
            self.resize(size)
            if i:
                self.clear()
            choose(self.page, GOOD)
            node = result(self.page, GOOD.name)
            at = f"{self.lang} at {size[0]}x{size[1]}"
            expect(node, at).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
            expect(node.locator(".verdict").first, at).to_contain_text(self.words["verified"])
            expect(node.locator(".verdict").first, at).to_be_in_viewport()
            expect(self.page.locator("#batch-heading"), at).to_have_text(self.words["results"])
            self.check("results", [size])

    def mismatch(self) -> None:
        self.clear()
        choose(self.page, ALTERED)
        node = result(self.page, ALTERED.name)
        for lang in self.languages():
            expect(node, lang).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
            expect(node.locator(".verdict").first, lang).to_contain_text(self.words["mismatch"])
            expect(node.locator("details.meaning summary"), lang).to_have_text(
                self.words["meaning"]
            )
            expect(node.locator('.findings li[data-code="draw_mismatch"]'), lang).to_contain_text(
                self.words["record"]
            )
            expect(node.locator(".slot.bad"), lang).to_have_count(1)
            self.check("mismatch")

    def batch(self, junk: Path) -> None:
        self.clear()
        page = self.page
        page.locator("#sample-go").click()
        expect(result(page, ALTERED.name)).to_have_attribute(
            "data-verdict", "mismatch", timeout=WORK_MS
        )
        choose(page, THREE_PLAYER, junk)
        for lang in self.languages():
            expect(result(page, junk.name), lang).to_have_attribute(
                "data-verdict", "error", timeout=WORK_MS
            )
            expect(result(page, THREE_PLAYER.name), lang).to_have_attribute(
                "data-verdict", "verified", timeout=WORK_MS
            )
            expect(page.locator("#batch-summary"), lang).to_contain_text(self.words["summary"])
            expect(page.locator("#summary tbody tr"), lang).to_have_count(4)
            problem = page.locator(f'#summary tbody tr[data-row="{ALTERED.name}"] td.problem')
            expect(problem, lang).to_contain_text(
                "in the log" if lang == "en" else self.words["record"]
            )
            page.locator("#batch-heading").scroll_into_view_if_needed()
            self.check("batch")

    def archive(self, path: Path) -> None:
        self.clear()
        choose(self.page, path)
        node = result(self.page, path.name)
        for lang in self.languages():
            expect(node, lang).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
            expect(node.locator(".archive-counts"), lang).to_have_text(self.words["archive"])
            expect(self.page.locator("#summary tbody tr"), lang).to_have_count(7)
            self.check("archive")

    def audit(self) -> None:
        page = self.page
        view = page.locator("#audit-view")
        for width, height in SIZES:  # asked at each size: its charts are drawn for the width
            self.resize((width, height))
            for n, lang in enumerate(self.languages()):
                # asked in the first language; each language after redraws it in place
                if n == 0:
                    page.locator("#audit-go").click()
                at = f"{lang} at {width}x{height}"
                expect(view.locator('[data-result="audit"]'), at).to_have_count(1, timeout=WORK_MS)
                if view.locator(".audit-who[data-how=ask]").count():  # asked, never guessed
                    page.locator("#audit-player").select_option(index=1)  # the first player
                expect(view.locator("#audit-heading"), at).to_have_text(self.words["audit"])
                expect(view.locator(".audit-summary"), at).to_have_attribute("data-games", "5")
                view.locator("details.excluded summary").click()
                expect(view.locator("details.excluded li"), at).to_have_count(2)
                expect(
                    view.locator('details.excluded li[data-kind="mismatch"]'), at
                ).to_contain_text(self.words["left_out"])
                view.scroll_into_view_if_needed()
                self.check("audit", [(width, height)])
                # the parts a player reads first, pictured apart: their own group, everyone's
                you = view.locator(".audit-you")
                expect(you.locator("figure.draws-chart svg"), at).to_be_visible()
                self.shot(f"audit-you-{lang}-{width}x{height}", you)
                everyone = view.locator('.audit-group[data-group="all players"]')
                self.shot(f"audit-everyone-{lang}-{width}x{height}", everyone)

    def sega(self) -> None:
        self.clear()
        case = SEGA[0]
        seeds = ",".join(case["player_seeds"])
        self.page.evaluate(
            f"() => {{ location.hash = '#tool=sega&seeds={seeds}&u={case['uncertainty']}"
            f"&lang={self.lang}'; }}"
        )
        panel = self.page.locator("#tool-sega")
        for lang in self.languages():
            expect(panel.locator(".sega-wall .tile"), lang).to_have_count(136, timeout=WORK_MS)
            expect(panel.locator("h2"), lang).to_have_text(self.words["sega"])
            self.check("sega")

    def majsoul(self) -> None:
        self.page.evaluate(f"() => {{ location.hash = '#tool=majsoul&lang={self.lang}'; }}")
        panel = self.page.locator("#tool-majsoul")
        expect(panel).to_be_visible()
        expect(self.page.locator("#tool-sega")).to_be_hidden()
        panel.locator("#ms-file").set_input_files(str(MAJSOUL_FILE))
        out = panel.locator(".ms-result")
        for lang in self.languages():
            expect(out, lang).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
            expect(out, lang).to_contain_text(self.words["ms_ok"])
            expect(panel.locator("h2"), lang).to_have_text(self.words["ms"])
            self.check("majsoul")

    def embed(self) -> None:
        # the embed has no language control: a wiki's iframe names its language in the
        # address, and a new lang= in the fragment redraws it in place
        fragment = f"tenhou={vector_seed()}&round=2"
        self.page.goto(f"/embed.html#{fragment}&lang={LANGS[0]}")
        for lang in LANGS:
            self.lang = lang
            self.page.evaluate(f"() => {{ location.hash = '#{fragment}&lang={lang}'; }}")
            expect(self.page.locator("html"), lang).to_have_attribute("lang", lang)
            expect(self.page.locator("#embed-title"), lang).to_have_text(self.words["embed"])
            expect(self.page.locator("#seed-wall .wall .tile"), lang).to_have_count(
                136, timeout=READY_MS
            )
            self.check("embed")

    def calculator(self) -> None:
        self.page.goto(f"/calc.html#q=123m456p789s1122z&lang={self.lang}")
        for lang in self.languages():
            expect(self.page.locator(".calc-shanten"), lang).to_contain_text(
                self.words["tenpai"], timeout=READY_MS
            )
            expect(self.page.locator("h1"), lang).to_have_text(self.words["calc"])
            self.check("calculator")


def test_main_states_pictured(page: Page, shot: Any, tmp_path: Path, archive: Path) -> None:
    """Five page loads (the page in each language for its first screen and first file, the
    embed, the calculator) for every state in every language at every size: the states
    after the first file are reached once on the last page (their Python work done once)
    and read in turn in English, Japanese and Chinese."""
    junk = tmp_path / "notes.xml"
    junk.write_text("hello there", encoding="utf-8")
    states = States(page, shot)
    for lang in LANGS:  # the first screen and the first file, on a page opened in each language
        states.empty(lang)
        states.one_game()
    states.mismatch()
    states.batch(junk)
    states.archive(archive)
    states.audit()
    states.sega()
    states.majsoul()
    states.embed()
    states.calculator()
    for lang in LANGS:
        for width, height in SIZES:
            written = sorted(
                p.name for p in (ROOT / "test-artifacts").glob(f"*-{lang}-{width}x{height}.png")
            )
            for state in (
                "empty",
                "results",
                "mismatch",
                "batch",
                "archive",
                "audit",
                "sega",
                "majsoul",
                "embed",
                "calculator",
            ):
                assert f"{state}-{lang}-{width}x{height}.png" in written
