"""The page's words as players read them (issue 12, items 8, 6, 5, 7): every finding, the
rule line (a game against the computer too), dates and numbers, the summary table's first
problems and the audit's reasons in the reader's language; results brought into view
(chosen, dropped, pasted, the samples) and a round link opened at its wall; players named
by name and wind; the mismatched tile readable with both tiles labelled.

A load is most of a browser test's cost: the tests share the module's loaded page
(``fresh``: English, no results, the context's size), switched to the reader's language
with the page's own control. The embed's seed and a round link opened at load keep their
loads; a page that could not start Python is in test_page.py (its tampered lock)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from pywall.core.tiles import tile_text
from tests.browser.conftest import in_language, report_of
from tests.browser.test_page import (
    FOUR_PLAYER,
    PLAIN,
    READY_MS,
    THREE_PLAYER,
    WORK_MS,
    choose,
    result,
    tamper_draw,
)
from tests.browser.test_page_ux import GAME_LOG
from tests.helpers import TENHOU, vector_seed

pytestmark = pytest.mark.browser


def pasted(page: Page) -> Any:
    """The one pasted log the page shows (its number counts every paste since the load)."""
    return page.locator('#results [data-file^="pasted-"][data-file$=".xml"]')


# --- 8. every word in ja, zh and en ----------------------------------------------------------


def test_rule_line_date_and_numbers_in_japanese(fresh: Page) -> None:
    page = fresh
    in_language(page, "ja")
    choose(page, GAME_LOG, FOUR_PLAYER)
    game = result(page, GAME_LOG.name)
    expect(game).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    facts = game.locator("dl.game")
    expect(facts).to_contain_text("4人打ち、一般卓、東風戦、喰いタンあり、赤あり")
    expect(facts).not_to_contain_text("Ippan")
    expect(facts.locator("time")).to_have_text("2022年6月2日 22:00")
    expect(facts).not_to_contain_text("2022-06-02T22:00")
    big = result(page, FOUR_PLAYER.name)
    expect(big).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(big.locator(".verdict-detail")).to_contain_text("1,826")


def test_rule_line_and_date_in_chinese_and_english(fresh: Page) -> None:
    page = fresh
    in_language(page, "zh")
    choose(page, GAME_LOG)
    facts = result(page, GAME_LOG.name).locator("dl.game")
    expect(facts).to_contain_text("4人麻将、一般场、东风战", timeout=WORK_MS)
    expect(facts.locator("time")).to_have_text(re.compile("2022年6月2日"))
    page.get_by_label("语言").select_option("en")
    choose(page, PLAIN)
    facts = result(page, PLAIN.name).locator("dl.game")
    expect(facts).to_contain_text("4-player, Tokujou lobby, East-South", timeout=WORK_MS)


def test_an_unreadable_file_says_it_is_not_a_mahjong_log(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    junk = tmp_path / "notes.xml"
    junk.write_text("hello there", encoding="utf-8")
    in_language(page, "ja")
    choose(page, junk)
    node = result(page, "notes.xml")
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    item = node.locator('.findings li[data-code="log_format"]')
    expect(item).to_contain_text("麻雀の牌譜ではありません")
    detail = item.locator("details.technical")
    expect(detail).not_to_have_attribute("open", "")
    detail.locator("summary").click()
    expect(detail).to_contain_text("no <mjloggm> tag")


def check_the_seed_error(page: Page, words: str) -> None:
    error = page.locator("#seed-error")
    expect(error).to_contain_text(words, timeout=READY_MS)
    detail = error.locator("details.technical")
    expect(detail).not_to_have_attribute("open", "")
    shown = error.evaluate(
        "n => [...n.childNodes].filter(c => c.nodeName !== 'DETAILS').map(c => c.textContent).join('')"
    )
    assert not re.search(
        r"[A-Za-z]{3}", shown.replace("SHUFFLE", "").replace("seed", "")
    )  # no English but the tag's name
    detail.locator("summary").click()
    expect(detail).to_contain_text("Tenhou seeds are 2496")


NO_SEED = "A" * 5000  # valid base64, but no Tenhou seed's length


def test_a_seed_python_cannot_read_is_said_in_the_readers_language_in_the_embed(
    page: Page,
) -> None:
    page.goto("/embed.html#lang=ja&round=1&tenhou=" + NO_SEED)
    check_the_seed_error(page, "天鳳のシードではありません")


def test_other_findings_are_written_in_the_readers_language(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    text = PLAIN.read_text(encoding="utf-8")
    cut = tmp_path / "cut.xml"
    cut.write_text(text[: text.rfind("<INIT")], encoding="utf-8")
    in_language(page, "zh")
    choose(page, cut)
    item = result(page, "cut.xml").locator('.findings li[data-code="incomplete_log"]')
    expect(item).to_contain_text("已验证其中的 8 局", timeout=WORK_MS)
    expect(item).not_to_contain_text("the log ends")


def test_a_game_against_the_computer_says_so(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    text = PLAIN.read_text(encoding="utf-8")
    assert '<GO type="41"' in text  # bit 0x01: a game between people
    cpu = tmp_path / "cpu.xml"
    cpu.write_text(text.replace('<GO type="41"', '<GO type="40"'), encoding="utf-8")
    assert report_of(cpu.name, cpu.read_bytes())["game"]["vs_computer"] is True
    in_language(page, "ja")
    choose(page, cpu, PLAIN)
    facts = result(page, "cpu.xml").locator("dl.game")
    expect(facts).to_contain_text(
        "4人打ち、特上卓、東南戦、喰いタンあり、赤あり、コンピュータ戦 (特南喰赤)", timeout=WORK_MS
    )
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(result(page, PLAIN.name).locator("dl.game")).not_to_contain_text("コンピュータ")
    page.select_option("#lang", "zh")
    expect(facts).to_contain_text("4人麻将、特上场、东南战、有食断、有赤宝牌、人机对战")
    page.select_option("#lang", "en")
    expect(facts).to_contain_text(
        "4-player, Tokujou lobby, East-South, open tanyao, red fives, vs computer"
    )
    expect(result(page, PLAIN.name).locator("dl.game")).not_to_contain_text("vs computer")


def problem_words(card: Any, code: str) -> str:
    """A finding as the game's card says it, without its severity."""
    item = card.locator(f'.findings li[data-code="{code}"]').first
    return str(
        item.evaluate(
            "li => [...li.childNodes].filter(n => !n.matches || !n.matches('.sev, details'))"
            ".map(n => n.textContent).join('')"
        )
    )


def test_first_problems_and_audit_reasons_in_the_readers_language(
    fresh: Page, tmp_path: Path
) -> None:
    page = fresh
    bad = tmp_path / "tampered.xml"
    bad.write_text(
        tamper_draw(PLAIN.read_text(encoding="utf-8"), round_index=3, nth=5), encoding="utf-8"
    )
    again = tmp_path / "again.xml"
    again.write_bytes(PLAIN.read_bytes())
    junk = tmp_path / "notes.xml"
    junk.write_text("hello there", encoding="utf-8")
    english = {p.name: report_of(p.name, p.read_bytes()) for p in (bad, junk)}
    in_language(page, "ja")
    choose(page, PLAIN, again, bad, junk)
    for path, verdict in ((bad, "mismatch"), (junk, "error"), (again, "verified")):
        expect(result(page, path.name)).to_have_attribute("data-verdict", verdict, timeout=WORK_MS)
    cell = page.locator('#summary tbody tr[data-row="tampered.xml"] td.problem')
    # the table says what the game's card says, in Japanese, with no English tooltip (issue 24, 7)
    said = problem_words(result(page, bad.name), "draw_mismatch")
    assert "牌譜" in said and "牌山" in said
    expect(cell).to_have_text(said)
    message = next(
        f["message"] for f in english["tampered.xml"]["findings"] if f["severity"] == "error"
    )
    expect(cell).not_to_have_attribute("title", re.compile("."))
    expect(cell).to_have_attribute("data-code", "draw_mismatch")
    junk_cell = page.locator('#summary tbody tr[data-row="notes.xml"] td.problem')
    expect(junk_cell).to_have_text("このファイルは pywall が読める麻雀の牌譜ではありません。")
    # the audit's games left out: the repeated game and the two that do not count
    page.locator("#audit-go").click()
    left_out = page.locator("#audit-out details.excluded")
    expect(left_out).to_have_count(1, timeout=WORK_MS)
    left_out.locator("summary").click()
    expect(left_out.locator("li")).to_have_count(3)
    # two whole copies of one game: the one whose name sorts first counts, whatever the order
    # the files came in (docs/audit.md)
    assert "again.xml" < PLAIN.name
    expect(left_out.locator('li[data-kind="duplicate"]')).to_have_text(
        f"{PLAIN.name}: again.xml と同じ対局です"
    )
    expect(left_out.locator('li[data-kind="mismatch"]')).to_have_text(
        f"tampered.xml: 不一致: {said}"
    )
    expect(left_out.locator('li[data-kind="error"]')).to_have_text(
        "notes.xml: 検証できませんでした: このファイルは pywall が読める麻雀の牌譜ではありません。"
    )
    expect(left_out.locator('li[data-kind="mismatch"]')).not_to_have_attribute(
        "title", re.compile(".")
    )
    # in Chinese too, drawn again on the change; English keeps Python's words
    page.select_option("#lang", "zh")
    said = problem_words(result(page, bad.name), "draw_mismatch")
    assert "牌谱" in said
    expect(cell).to_have_text(said)
    expect(left_out.locator('li[data-kind="duplicate"]')).to_have_text(
        f"{PLAIN.name}: 与 again.xml 是同一局"
    )
    expect(left_out.locator('li[data-kind="mismatch"]')).to_have_text(
        f"tampered.xml: 不一致：{said}"
    )
    expect(cell).not_to_have_attribute("title", re.compile("."))
    page.select_option("#lang", "en")
    expect(cell).to_have_text(message)
    expect(left_out.locator('li[data-kind="mismatch"]')).to_have_text(
        f"tampered.xml: mismatch: {message}"
    )


# --- 6. results come into view; a round link opens at its wall -------------------------------

SIZES = [
    pytest.param({"width": 1366, "height": 800}, id="desktop"),
    pytest.param({"width": 390, "height": 844}, id="phone"),
]


@pytest.mark.parametrize("size", SIZES)
def test_chosen_files_bring_the_results_into_view(fresh: Page, size: ViewportSize) -> None:
    page = fresh
    page.set_viewport_size(size)
    choose(page, PLAIN)
    expect(result(page, PLAIN.name)).to_be_in_viewport()
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.evaluate("window.scrollTo(0, 0)")  # a second choice lands below the first game's walls
    choose(page, FOUR_PLAYER)
    expect(result(page, FOUR_PLAYER.name)).to_be_in_viewport()


@pytest.mark.parametrize("size", SIZES)
def test_dropped_files_bring_the_results_into_view(fresh: Page, size: ViewportSize) -> None:
    page = fresh
    page.set_viewport_size(size)
    choose(page, PLAIN)
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.evaluate("window.scrollTo(0, 0)")
    data = list(THREE_PLAYER.read_bytes())
    page.evaluate(
        """([name, bytes]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name));
      document.body.dispatchEvent(new DragEvent("dragenter", { dataTransfer: dt, bubbles: true }));
      document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }""",
        [THREE_PLAYER.name, data],
    )
    expect(result(page, THREE_PLAYER.name)).to_be_in_viewport()
    expect(result(page, THREE_PLAYER.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )


@pytest.mark.parametrize("size", SIZES)
def test_pasted_logs_and_the_samples_bring_the_results_into_view(
    fresh: Page, size: ViewportSize
) -> None:
    page = fresh
    page.set_viewport_size(size)
    choose(page, PLAIN)  # a first game's walls: what comes next lands far below
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#paste").fill(THREE_PLAYER.read_text(encoding="utf-8"))
    page.get_by_role("button", name="Verify pasted text").click()
    expect(pasted(page)).to_be_in_viewport()
    expect(pasted(page)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.evaluate("window.scrollTo(0, 0)")
    page.get_by_role("button", name="Try two sample games").click()
    first = result(page, "sample-game.xml")
    expect(first).to_be_in_viewport()
    expect(first).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(first).to_be_in_viewport()


@pytest.mark.parametrize("size", SIZES)
def test_a_round_link_opens_at_that_rounds_wall(page: Page, size: ViewportSize) -> None:
    page.set_viewport_size(size)
    page.goto(f"/#tenhou={vector_seed()}&round=3")
    expect(page.locator("#seed-wall .slot")).to_have_count(136, timeout=READY_MS)
    expect(page.locator("#seed-wall h3")).to_have_text("Round 3")
    expect(page.locator("#seed-wall h3")).to_be_in_viewport()


# --- 5. players by name and wind, moments by round, turn and whose draw ------------------------

WINDS = ["East", "South", "West", "North"]


def test_players_are_named_by_name_and_wind_everywhere(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    bad = tmp_path / "tampered.xml"
    bad.write_text(
        tamper_draw(PLAIN.read_text(encoding="utf-8"), round_index=3, nth=5), encoding="utf-8"
    )
    cli = report_of(bad.name, bad.read_bytes())
    (finding,) = [f for f in cli["findings"] if f["severity"] == "error"]
    d, rnd = finding["data"], cli["rounds"][finding["round"]]
    wind = WINDS[(d["seat"] - rnd["dealer"]) % 4]
    name = cli["game"]["players"][d["seat"]]
    choose(page, bad)
    node = result(page, bad.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    item = node.locator('.findings li[data-code="draw_mismatch"]')
    expect(item).to_have_text(
        f"error: {rnd['label']}: the draw by {name} ({wind}) on turn {d['turn']} is "
        f"{tile_text(d['log'])} in the record, {tile_text(d['wall'])} in the wall"
    )
    # the player list: name and starting wind; no seat numbers anywhere
    players = node.locator("ol.players li")
    for s, who in enumerate(cli["game"]["players"]):
        expect(players.nth(s)).to_have_text(f"{WINDS[s][0]} {who} ({WINDS[s]})")
    # the wall's badge on the drawn tile carries the drawer's wind in that round, as does its label
    slot = node.locator(f'details.round[data-round="{finding["round"]}"] .slot.bad')
    expect(slot.locator(".marks .who")).to_have_text(wind[0])
    expect(slot.locator(".tile").first).to_have_attribute(
        "aria-label", re.compile(re.escape(f"{name} ({wind})"))
    )


# --- 7. the mismatched tile readable -----------------------------------------------------------

UNCOVERED = """els => els.map(e => {
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return hit === e || e.contains(hit);
})"""


def boxes_apart(a: dict[str, float], b: dict[str, float], gap: float = 0) -> bool:
    return (
        a["x"] + a["width"] + gap <= b["x"]
        or b["x"] + b["width"] + gap <= a["x"]
        or a["y"] + a["height"] + gap <= b["y"]
        or b["y"] + b["height"] + gap <= a["y"]
    )


def test_the_mismatched_tile_is_readable(fresh: Page, tmp_path: Path) -> None:
    """One checked game, seen at each size in turn (the viewport changed in place)."""
    page = fresh
    bad = tmp_path / "tampered.xml"
    bad.write_text(
        tamper_draw(PLAIN.read_text(encoding="utf-8"), round_index=3, nth=5), encoding="utf-8"
    )
    choose(page, bad)
    node = result(page, bad.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    for size in SIZES:
        page.set_viewport_size(cast(ViewportSize, size.values[0]))
        check_the_mismatched_tile(node, str(size.id))


def check_the_mismatched_tile(node: Any, variant: str) -> None:
    slot = node.locator(".slot.bad")
    slot.scroll_into_view_if_needed()
    wall_label, wall_tile = slot.locator(":scope > .wall-label"), slot.locator(":scope > .tile")
    log_label, log_tile = slot.locator(".vs .vs-label"), slot.locator(".vs .tile")
    expect(wall_label, variant).to_have_text("wall")
    expect(log_label, variant).to_have_text("log")
    parts = [wall_label, wall_tile, log_label, log_tile, slot.locator(".marks .who")]
    for part in parts:
        expect(part, variant).to_be_visible()
    # nothing else is drawn over either tile or label (another slot, a badge)
    assert (
        slot.locator(
            ":scope > .wall-label, :scope > .tile, .vs .vs-label, .vs .tile, .marks .who"
        ).evaluate_all(UNCOVERED)
        == [True] * 5
    ), variant
    # the wall tile's outline (3px, 1px away) keeps clear of the labels, the log's tile and the badge
    outlined = wall_tile.bounding_box()
    assert outlined is not None, variant
    for other in (wall_label, log_label, log_tile, slot.locator(".marks .who")):
        box = other.bounding_box()
        assert box is not None and boxes_apart(outlined, box, gap=4), (variant, other)


def test_a_2009_game_says_its_era_and_what_is_best_effort(fresh: Page) -> None:
    """The legacy_seed note names the era and, for June 2009, that its ura indicators are
    verified only as far as is known (no real log of June shows one): from the report's data."""
    page = fresh
    legacy = TENHOU / "legacy-2009"
    june, july = (
        legacy / "2009060321gm-00b9-0000-75b25bcf.xml",
        legacy / "2009071823gm-0041-0000-ff3a2214&tw=0.mjlog",
    )
    in_language(page, "ja")
    choose(page, june, july)
    notes = {
        p.name: result(page, p.name).locator('.findings li[data-code="legacy_seed"]')
        for p in (june, july)
    }
    expect(result(page, july.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(result(page, june.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(notes[july.name]).to_contain_text(
        "2009 年 7 月の牌山: この時期の実際の牌譜で全種類の牌が確認されており"
    )
    expect(notes[june.name]).to_contain_text(
        "2008 年 9 月〜2009 年 6 月の牌山: 検証しました。裏ドラ表示牌は分かっている範囲での検証です"
    )
    page.select_option("#lang", "en")
    expect(notes[july.name]).to_contain_text("walls of July 2009: every kind of tile has been seen")
    expect(notes[june.name]).to_contain_text(
        "walls of September 2008 to June 2009: verified; ura indicators verified as far as is known"
    )


def test_a_seed_python_cannot_read_is_said_in_the_readers_language(fresh: Page) -> None:
    """The page's fragment changed to a seed and a language (hashchange, as a link
    followed within the page). Last of the module: it leaves the seed view shown."""
    page = fresh
    expect(page.locator("#seed-error")).to_be_empty()
    page.evaluate("h => { location.hash = h; }", "#lang=zh&round=1&tenhou=" + NO_SEED)
    check_the_seed_error(page, "这不是天凤的种子")
