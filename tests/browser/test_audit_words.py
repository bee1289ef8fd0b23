"""The page's audit of too few games, in words (issue 44): one game is headlined "Too few
games to tell", not a green tick; the games given but not counted are said with why,
beside the counts, without opening anything."""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_page import WORK_MS, result
from tests.helpers import fixture_paths


def test_one_game_and_its_copy_are_too_few_and_the_copy_is_said(
    fresh: Page, tmp_path: Path
) -> None:
    page = fresh
    one = fixture_paths()[0]
    copy = tmp_path / f"copy-{one.name}"
    shutil.copyfile(one, copy)
    page.locator("input[type=file][multiple]").set_input_files([str(one), str(copy)])
    for name in (one.name, copy.name):
        expect(result(page, name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.locator("button[data-action=audit]").click()
    view = page.locator("#audit-out")
    expect(view.locator(".audit-summary")).to_contain_text("1 verified game,", timeout=WORK_MS)
    expect(view.locator(".audit-left-out")).to_have_text("Not counted: 1 repeat.")
    expect(view.locator(".audit-left-out")).to_be_visible()
    overall = view.locator('.audit-group[data-group="all players"]')
    headline = overall.locator(".audit-verdict.few")
    expect(headline).to_be_visible()
    expect(headline).to_contain_text("Too few games to tell")
    expect(overall.locator(".audit-verdict.ok")).to_be_hidden()
    # the same in Japanese
    page.select_option("#lang", "ja")
    expect(overall.locator(".audit-verdict.few")).to_contain_text("対局が少なすぎて判定できません")
    expect(view.locator(".audit-left-out")).to_contain_text("数えていないもの：")
    page.select_option("#lang", "en")
