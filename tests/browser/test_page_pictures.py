"""A wall picture from the page names its game (issue 24, item 10): a checked log's round
gives its game id, date, round and seed; a record that reveals its wall, the round's
digest; a wall from a seed, its round and seed; in the reader's words. And the page's
dealt hands line up: every row's tiles start in one column, however long the names.

The tests share one loaded page (a load is most of a browser test's cost), each starting
from what a fresh page shows (``fresh``: English, no results)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import in_language, report_of
from tests.browser.test_page import PLAIN, WORK_MS, choose, result
from tests.browser.test_page_ux import GAME_LOG
from tests.browser.test_platforms_page import MS
from tests.browser.test_tile_art import download
from tests.helpers import vector_seed

pytestmark = pytest.mark.browser

SVG = "{http://www.w3.org/2000/svg}"


def caption_of(svg: bytes) -> tuple[list[str], str]:
    root = ET.fromstring(svg)
    lines = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    node = root.find(f"{SVG}desc")
    return lines, "" if node is None else "".join(node.itertext())


def test_a_checked_rounds_picture_names_its_game(fresh: Page) -> None:
    page = fresh
    report = report_of(GAME_LOG.name, GAME_LOG.read_bytes())
    game, label = report["game"], report["rounds"][1]["label"]
    assert game["log_id"] and game["date"] and len(game["seed"]) > 1000
    choose(page, GAME_LOG)
    node = result(page, GAME_LOG.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="1"] summary').click()
    lines, desc = caption_of(
        download(page, node.locator('details.round[data-round="1"] .wall'), "svg")
    )
    assert re.fullmatch(
        rf"Game {game['log_id']} · Date .*2022.* 22:00 · Round {label}", lines[0]
    ), lines[0]
    seed = game["seed"]
    assert lines[1] == f"Seed {seed[:40]}…{seed[-8:]}"
    assert f"Seed: {seed}" in desc and f"Game: {game['log_id']}" in desc


def test_a_records_picture_names_its_digest_in_japanese(fresh: Page) -> None:
    record = json.loads(MS.read_text(encoding="utf-8"))
    md5 = next(
        a["result"]["data"]["md5"]
        for a in record["data"]["data"]["actions"]
        if "result" in a and a["result"]["name"].endswith("NewRound")
    )
    page = in_language(fresh, "ja")
    choose(page, MS)
    node = result(page, MS.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="0"] summary').click()
    wall = node.locator('details.round[data-round="0"] .wall')
    with page.expect_download(timeout=WORK_MS) as info:
        wall.locator('button[data-picture="svg"]').click()
    lines, _ = caption_of(Path(info.value.path()).read_bytes())
    assert lines[0].startswith(
        "対局 210815-6da08e40-2605-42fb-a5e3-f8aa5940362a · 日時 2021年8月15日"
    )
    assert lines[0].endswith(" · 局 東1局 0 本場")
    assert lines[1] == f"牌山ハッシュ md5 {md5}"


@pytest.mark.parametrize(
    "size",
    [{"width": 1366, "height": 800}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_dealt_hands_line_up_however_long_the_names(
    fresh: Page, tmp_path: Path, size: ViewportSize
) -> None:
    page = fresh
    text = PLAIN.read_text(encoding="utf-8")
    start = text.index('n0="') + len('n0="')
    long_name = tmp_path / "long-name.xml"
    long_name.write_text(
        text[:start] + quote("AVeryLongPlayerNameIndeed") + text[text.index('"', start) :],
        encoding="utf-8",
    )
    assert report_of(long_name.name, long_name.read_bytes())["status"] == "verified"
    page.set_viewport_size(size)
    choose(page, long_name)
    node = result(page, long_name.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="0"] summary').click()
    hands = node.locator('details.round[data-round="0"] .part-hands .hand')
    expect(hands).to_have_count(4)
    firsts = hands.evaluate_all(
        "rows => rows.map((r) => r.querySelector('.tiles .tile').getBoundingClientRect().x)"
    )
    assert max(firsts) - min(firsts) < 1, firsts
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


# Last of the module: the shared page keeps the seed's walls shown (no control hides them,
# and a fresh page shows none), so no test after this one sees them.
def test_a_seed_walls_picture_names_its_round_and_seed(fresh: Page) -> None:
    """A seed's link followed on the loaded page (the fragment changed in place: its
    walls drawn as at a load with it, which test_page.py's link tests cover)."""
    page = fresh
    seed = vector_seed()
    page.goto(f"/#tenhou={seed}&round=2")
    wall = page.locator("#seed-wall")
    expect(wall.locator(".slot")).to_have_count(136, timeout=WORK_MS)
    lines, desc = caption_of(download(page, wall, "svg"))
    assert lines == ["Round 2", f"Seed {seed[:40]}…{seed[-8:]}"]
    assert f"Seed: {seed}" in desc
