"""The audit's shared report (``pywall audit --html``; the page's "Export audit") as a
reader sees it in Chromium, at 1366×800 and on a 390×844 phone, in en, ja and zh.

Two reports: the fixtures' own audit (63 verified games, 181 named players, five
platforms: a forum post's zip), and the same with everyone's chart over 300 games and
wall tests far below the threshold (p < 1e-6), as a wall-bias corpus draws them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pywall.analysis.walls import WallTest
from pywall.api.audit import tally_of
from pywall.audits.draw_wall_tests import WallAudit
from pywall.audits.html import AuditGames, audit_html, games_of
from pywall.audits.verdicts import AuditResult, audit_result
from pywall.audits.words import WORDS, pick
from tests.helpers import DATA

SIZES = {"desktop": (1366, 800), "phone": (390, 844)}
LANGS = ("en", "ja", "zh")
#: The phone report's bound: six screens. Unfolded are only the opening, everyone's
#: tests with their chart, the chosen player's and each flagged player's tests; every
#: other group is one folded line, so the length does not grow with the players (the
#: same report was 93,831 px with every player's row written out). Five screens held
#: until each unfolded group also carried what it can see (a line under each draw test)
#: and everyone's wall tests with one platform (4,490 px in English, 5.3 screens).
PHONE_SCREENS = 6

#: Each SVG text's box (user units) outside its SVG's viewBox, by more than half a unit.
CUT_TEXTS = """() => {
  const cut = [];
  for (const svg of document.querySelectorAll('svg')) {
    const v = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < v.x - 0.5 || b.y < v.y - 0.5 || b.x + b.width > v.x + v.width + 0.5
          || b.y + b.height > v.y + v.height + 0.5) cut.push(t.textContent);
    }
  }
  return cut;
}"""

#: Every run of Latin letters, digits and number signs drawn over two lines (a hyphen
#: may end a line):
#: a word or a number broken in the middle (CJK text may break between characters).
BROKEN_WORDS = """() => {
  const broken = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (node.parentElement.closest('svg')) continue;
    for (const m of node.data.matchAll(/[A-Za-z0-9][A-Za-z0-9,.%+−]*/g)) {
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""

#: Table cells that hold one number, and how many lines each is drawn on.
NUMBER_CELLS = """() => [...document.querySelectorAll('td')]
  .filter(c => /^[0-9][0-9,.]*$/.test(c.textContent.trim()))
  .map(c => {
    const r = document.createRange();
    r.selectNodeContents(c);
    return [c.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size];
  })"""


def _biased(result: AuditResult) -> AuditResult:
    """Everyone's line over 300 games, rising from game 60, and wall tests at p < 1e-6."""
    series = tuple((0.6 if i >= 60 else 0.0, 0.9) for i in range(300))
    walls = WallAudit(
        300,
        300,
        (
            WallTest("positions", 900.0, 500, 1e-12),
            WallTest("deal", 30.0, 33, 0.4),
            WallTest("live", 50.0, 33, 0.01),
            WallTest("dead", 200.0, 33, 3e-9),
            WallTest("red_fives", 3.0, 2, 0.9),
        ),
    )
    overall = replace(result.overall, series=series, walls=walls)
    return replace(result, overall=overall, platforms=result.platforms[:1])


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    tally = tally_of([DATA])
    result = audit_result(tally)
    games = games_of(tally)
    you = max(result.players, key=lambda g: (g.hands, g.label)).label
    out = tmp_path_factory.mktemp("report")
    made = {}
    for lang in LANGS:
        for case, res, g in (
            ("fixtures", result, games),
            ("biased", _biased(result), AuditGames(300, games.hands, games.draws, 0)),
        ):
            path = out / f"{case}-{lang}.html"
            path.write_text(audit_html(res, lang, g, you), encoding="utf-8")
            made[case, lang] = path
    return made


@pytest.fixture(params=list(SIZES), scope="module")
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def pages(browser: Browser, size: str) -> Iterator[Page]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    yield page
    context.close()


def _open(page: Page, path: Path, unfold: bool = False) -> Any:
    page.goto(path.as_uri())
    if unfold:
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", ["fixtures", "biased"])
def test_no_chart_label_or_tick_is_cut(
    reports: dict[tuple[str, str], Path], pages: Page, case: str, lang: str
) -> None:
    _open(pages, reports[case, lang], unfold=True)
    assert pages.locator("svg text").count() > 10
    assert pages.evaluate(CUT_TEXTS) == []
    if case == "biased":  # the decisive labels are there, whole
        texts = pages.locator("svg text").all_text_contents()
        assert "300" in texts and "p < 1e-6" in texts


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_and_words_are_never_split(
    reports: dict[tuple[str, str], Path], pages: Page, lang: str
) -> None:
    _open(pages, reports["fixtures", lang], unfold=True)
    cells = pages.evaluate(NUMBER_CELLS)
    assert len(cells) > 500  # every player's and seat's numbers
    assert [text for text, lines in cells if lines != 1] == []
    assert pages.evaluate(BROKEN_WORDS) == []
    width = pages.viewport_size["width"]  # type: ignore[index]
    assert pages.evaluate("() => document.documentElement.scrollWidth") <= width
    # every table fits the screen whole: no sideways scrolling to read a row
    rights = pages.evaluate(
        "() => [...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right)"
    )
    assert rights and max(rights) <= width


@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_report_is_a_few_screens(
    reports: dict[tuple[str, str], Path], pages: Page, size: str, lang: str
) -> None:
    _open(pages, reports["fixtures", lang])
    height = pages.evaluate("() => document.documentElement.scrollHeight")
    assert height <= PHONE_SCREENS * 844, height
    # every other player is there, folded: one line that opens onto their table
    others = pages.locator("details", has=pages.locator("table")).last
    assert not others.evaluate("d => d.open")
    assert others.locator("tbody tr").count() > 150


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_opens_with_what_how_many_the_verdict_then_who(
    reports: dict[tuple[str, str], Path], pages: Page, lang: str
) -> None:
    w = WORDS[lang]
    _open(pages, reports["fixtures", lang])
    text = pages.locator("body").inner_text()
    tested = text.index(w["tested"].split("{")[0].strip())
    games = text.index(pick(w, "games_n", n="63").strip())
    verdict = min(i for i in (text.find(w["verdict_ok"]), text.find(w["verdict_bad"])) if i >= 0)
    who = text.index(w["who_you"].split("{")[0].strip())
    everyone = text.index(w["everyone"])
    you = text.index(w["you"].split("{")[0])
    assert tested <= games < verdict < who < everyone < you
    assert "second job" not in text and "第二" not in text
    # the opening names the games and the verdict before anything else
    first = pages.locator("body > p").first.inner_text()
    assert "63" in first
