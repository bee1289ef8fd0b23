"""One story per group (issue 44), in English, Japanese and Chinese, on a desktop (1366×800)
and a phone (390×844): the effective-draws chart draws the verdict's flag line beside the
95% band and its legend names both (the caption: leaving the band is not a flag); an
"unusual" result under a consistent verdict is one sentence that says why it does not
flag; a seat flagged only because a flagged player sat there says so; the hand charts are
drawn at the width they get (labels at least 11 px on screen), table headers never break
mid-word and nothing is drawn outside a chart's box.

The corpus (tests/sim/majsoul_records.py, ``seat_rigged_zip``): 50 Mahjong Soul games;
"Target" sits in the second seat in even games, each wall the best of three for Target's
starting hand. Target and the second seat are flagged (the seat only because of Target);
everyone's group is consistent with an unusual mean shanten."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import audit_in_page, audit_json, clean, in_language
from tests.sim.majsoul_records import seat_rigged_zip

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": ViewportSize(width=1366, height=800),
    "phone": ViewportSize(width=390, height=844),
}
LANGS = ["en", "ja", "zh"]
CASES = [(lang, size) for size in SIZES for lang in LANGS]
WORDS = {
    "en": {
        "band": "95% range of a fair shuffle",
        "flag": "flag line: one test flags beyond it",
        "not_flag": "Leaving the 95% band is not a flag",
        "unusual": "Unusual, but not enough to flag: with {k} tests, a flag needs p below",
        "mirror": "Seat 2 reads unlikely only because Target sat there",
    },
    "ja": {
        "band": "公平なシャッフルの95%範囲",
        "flag": "判定線：この外に出ると1つの検定で警告",
        "not_flag": "95%の帯から出ても警告ではありません",
        "unusual": "珍しいものの、警告には足りません。検定が{k}個あるので",
        "mirror": "2番目の席が疑わしいのはTargetがそこに座ったからにすぎません",
    },
    "zh": {
        "band": "公平洗牌的 95% 范围",
        "flag": "判定线：超出即由一项检验判定",
        "not_flag": "超出 95% 带并不是判定",
        "unusual": "少见，但不足以判定：共有 {k} 项检验",
        "mirror": "座位 2显得可疑，只是因为Target坐在那里",
    },
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The corpus as a zip, and what `pywall audit --json` prints for it."""
    path = tmp_path_factory.mktemp("one-story") / "seat-rigged.zip"
    path.write_bytes(seat_rigged_zip(50))
    cli = audit_json(path)
    seats = {g["label"]: g for g in cli["seats"]}
    assert seats["seat 2"]["explained_by"] == "Target"
    assert not cli["overall"]["flagged"] and cli["overall"]["shanten_sum"]["reading"] == "unusual"
    return path, cli


@pytest.fixture(scope="module")
def audited(loaded: Page, corpus: tuple[Path, dict[str, Any]]) -> Iterator[Page]:
    path, _ = corpus
    page = audit_in_page(clean(loaded), path)
    yield page
    in_language(page, "en")


def at_size(page: Page, lang: str, size: str) -> Page:
    page.set_viewport_size(SIZES[size])
    in_language(page, "ja" if lang == "en" else "en")  # a redraw at the new size
    in_language(page, lang)
    return page


def everyone(page: Page) -> Locator:
    return page.locator('#audit-out .audit-group[data-group="all players"]').first


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_the_chart_draws_the_flag_line_beside_the_band_and_names_both(
    audited: Page, corpus: tuple[Path, dict[str, Any]], lang: str, size: str
) -> None:
    _, cli = corpus
    page, words = at_size(audited, lang, size), WORDS[lang]
    chart = everyone(page).locator("figure.draws-chart")
    expect(chart.locator("svg polyline.flag-line")).to_have_count(2)
    legend = chart.locator("svg .legend-text").all_text_contents()
    assert legend[1:] == [words["band"], words["flag"]], legend
    expect(chart.locator("p.not-flag")).to_contain_text(words["not_flag"])
    # the flag line (flag_z sqrt V, one side) reaches beyond the band (1.96 sqrt V, both sides)
    assert cli["overall"]["flag_z"] > 1.96
    spans = chart.locator("svg").evaluate(
        """svg => ['band', 'flag-line'].map((c) => { const b = svg.querySelector('.' + c).getBBox();
          return b.height; })"""
    )
    assert spans[1] > spans[0] / 2 * (cli["overall"]["flag_z"] / 1.96) * 0.95


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_unusual_under_a_consistent_verdict_is_one_sentence(
    audited: Page, corpus: tuple[Path, dict[str, Any]], lang: str, size: str
) -> None:
    _, cli = corpus
    page = at_size(audited, lang, size)
    group = everyone(page)
    expect(group).to_have_attribute("data-flagged", "false")
    reading = group.locator(
        '.audit-tests [data-test="shanten_sum"] .reading[data-reading="unusual"]'
    )
    expect(reading).to_have_attribute("data-not-flag", "true")
    expect(reading).to_contain_text(WORDS[lang]["unusual"].format(k=cli["overall"]["tests"]))
    # a flagged group's "unusual" stays one word: the verdict already says it flags
    expect(page.locator('.audit-group[data-flagged="true"] .reading[data-not-flag]')).to_have_count(
        0
    )


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_seat_that_only_mirrors_a_player_says_so(audited: Page, lang: str, size: str) -> None:
    page = at_size(audited, lang, size)
    seats = page.locator("#audit-out details.audit-seats")
    seats.locator(":scope > summary").click()
    mirror = seats.locator('.audit-group[data-group="seat 2"] .audit-mirror')
    expect(mirror).to_be_visible()
    expect(mirror).to_have_attribute("data-explained-by", "Target")
    expect(mirror).to_contain_text(WORDS[lang]["mirror"])
    expect(seats.locator(".audit-mirror")).to_have_count(1)
    seats.locator(":scope > summary").click()


#: each chart text's font size on screen (its CSS size times the SVG's scale), and how
#: far any text reaches outside the SVG's box (in viewBox units)
MEASURE = """root => [...root.querySelectorAll('svg.chart')].filter((s) => s.getClientRects().length)
  .map((svg) => { const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const box = svg.viewBox.baseVal;
    const texts = [...svg.querySelectorAll('text')];
    const out = texts.map((t) => { const b = t.getBBox(); const m = t.getCTM && t.transform.baseVal.numberOfItems
      ? t.transform.baseVal.consolidate().matrix : null;
      const pts = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => m
        ? [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f] : [x, y]);
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      return Math.max(box.x - Math.min(...xs), Math.max(...xs) - box.x - box.width,
        box.y - Math.min(...ys), Math.max(...ys) - box.y - box.height); });
    const worst = texts[out.indexOf(Math.max(...out))];
    return { cls: svg.getAttribute('class'), text: worst ? worst.textContent : '',
      smallest: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
      outside: Math.max(0, ...out) }; })"""


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_charts_read_at_any_size_and_headers_never_break(
    audited: Page, lang: str, size: str
) -> None:
    page = at_size(audited, lang, size)
    group = everyone(page)
    group.locator("details.audit-hand-charts > summary").click()
    group.locator("figure.audit-chart details > summary").first.click()
    charts = group.evaluate(MEASURE)
    assert {c["cls"] for c in charts} >= {"chart band-chart", "chart bar-chart"}, charts
    for c in charts:
        assert c["smallest"] >= 11, c
        assert c["outside"] <= 0.5, c
    # every table header in one line per word: none wraps inside a word
    heads = group.locator("table.audit-table th").evaluate_all(
        """ths => ths.filter((th) => th.getClientRects().length).map((th) => {
          const r = document.createRange(); r.selectNodeContents(th);
          return [th.textContent, r.getClientRects().length,
            th.textContent.trim().split(/\\s+/).length]; })"""
    )
    assert heads, "no table header shown"
    for text, lines, words in heads:
        assert lines <= words, (text, lines)
    group.locator("figure.audit-chart details > summary").first.click()
    group.locator("details.audit-hand-charts > summary").click()
