"""Records of each platform as their players meet them (issue 24, items 6 and 5): a
verdict's words fit the platform (a Mahjong Soul or Riichi City record has no seed; a
Mahjong Soul room with test settings is said for what it is), and each platform's
players are told how to get a record the page can check, a phone player with only a
Tenhou link included (at 390x844)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_page import WORK_MS, choose, open_ready, result
from tests.browser.test_platforms_page import MS, RC, alter_majsoul, alter_riichicity

pytestmark = pytest.mark.browser

SEED_WORDS = {"en": "seed", "ja": "シード", "zh": "种子"}


# --- 6. a verdict's words per platform --------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_a_mismatch_in_a_record_that_reveals_its_wall_blames_no_seed(page: Page, tmp_path: Path, lang: str) -> None:
    ms = json.loads(MS.read_text(encoding="utf-8"))
    alter_majsoul(ms, 2, 9)
    rc = json.loads(RC[0].read_text(encoding="utf-8"))
    alter_riichicity(rc, 1, 6)
    paths = [tmp_path / "ms-altered.json", tmp_path / "rc-altered.json"]
    for path, record in zip(paths, (ms, rc), strict=True):
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    open_ready(page, f"/#lang={lang}")
    choose(page, *paths)
    wall_changed = {"en": "the wall in the file was changed", "ja": "ファイルの牌山が変更された",
                    "zh": "文件中的牌山在对局后被改动"}[lang]
    for path in paths:
        node = result(page, path.name)
        expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
        meaning = node.locator('details.meaning[data-meaning="mismatch"]')
        expect(meaning).to_have_attribute("data-platform", "stated")
        expect(meaning).to_contain_text(wall_changed)
        expect(meaning).not_to_contain_text(SEED_WORDS[lang])


def test_a_record_whose_wall_is_another_rounds_says_so_without_a_seed(page: Page, tmp_path: Path) -> None:
    ms = json.loads(MS.read_text(encoding="utf-8"))
    actions = [a["result"] for a in ms["data"]["data"]["actions"] if "result" in a]
    rounds = [e["data"] for e in actions if e["name"].endswith("NewRound")]
    rounds[1]["paishan"], rounds[2]["paishan"] = rounds[2]["paishan"], rounds[1]["paishan"]
    swapped = tmp_path / "swapped-walls.json"
    swapped.write_text(json.dumps(ms, ensure_ascii=False), encoding="utf-8")
    open_ready(page, "/#lang=ja")
    choose(page, swapped)
    node = result(page, swapped.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    unrelated = node.locator('.findings li[data-code="wall_unrelated"]').first
    expect(unrelated).to_contain_text("牌譜の公開した牌山と異なります")
    expect(node.locator(".findings")).not_to_contain_text("シード")
    expect(node.locator("details.meaning")).not_to_contain_text("シード")
    expect(node.locator(".meaning-unrelated")).to_contain_text("別の対局")


def room_record(tmp_path: Path, alter: bool) -> Path:
    """The real record as a room with test settings would give it (head.config.mode.testing_environment)."""
    record = json.loads(MS.read_text(encoding="utf-8"))
    record["head"]["config"]["mode"]["testing_environment"] = {"paixing": 1}
    if alter:
        alter_majsoul(record, 2, 9)
    path = tmp_path / f"room-{'altered' if alter else 'plain'}.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "room", "limit"), [
    ("en", "room with test settings", "nothing about the platform's shuffled games"),
    ("ja", "テスト設定のある", "シャッフルされた対局については何も言えません"),
    ("zh", "带测试设置的", "对平台正常洗牌的对局什么也说明不了"),
])
def test_a_room_with_test_settings_is_said_for_what_it_is(
        page: Page, tmp_path: Path, lang: str, room: str, limit: str) -> None:
    paths = [room_record(tmp_path, alter=False), room_record(tmp_path, alter=True)]
    open_ready(page, f"/#lang={lang}")
    choose(page, MS, *paths)
    for path, verdict in zip(paths, ("verified", "mismatch"), strict=True):
        node = result(page, path.name)
        expect(node).to_have_attribute("data-verdict", verdict, timeout=WORK_MS)
        note = node.locator('[data-meaning="room"]')
        expect(note).to_contain_text(room)
        expect(node.locator('.limits li[data-limit="testing_environment"]')).to_contain_text(limit)
    # the same record from an ordinary room says nothing of the kind
    plain = result(page, MS.name)
    expect(plain).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(plain.locator('[data-meaning="room"]')).to_have_count(0)
    expect(plain.locator('.limits li[data-limit="testing_environment"]')).to_have_count(0)
    expect(plain).not_to_contain_text(re.compile(room))
