"""The page as players meet it (issue 12): lang= in the fragment."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_page import READY_MS
from tests.helpers import vector_seed

pytestmark = pytest.mark.browser


# --- 9. lang= in the fragment ---------------------------------------------------------------


def test_lang_in_the_fragment_of_every_page(page: Page) -> None:
    seed = vector_seed()
    page.goto(f"/#tenhou={seed}&round=3&lang=ja")
    expect(page.locator("h1")).to_have_text("pywall — 牌山検証")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#seed-wall .slot")).to_have_count(136, timeout=READY_MS)
    page.get_by_role("button", name="次の局").click()
    expect(page.locator("#seed-round")).to_have_value("4")
    assert page.url.endswith("&round=4&lang=ja")  # the round's link keeps the language
    assert page.locator("#seed-url").input_value().endswith("&lang=ja")
    page.evaluate("() => { location.hash = '#lang=zh'; }")
    expect(page.locator("h1")).to_have_text("pywall — 麻将牌山验证")
    page.get_by_label("语言").select_option("en")
    expect(page.locator("h1")).to_have_text("pywall — mahjong wall verifier")
    assert page.url.endswith("#lang=en")  # the choice is written where the link keeps it
    page.goto("/embed.html#tenhou=" + seed + "&round=2&lang=zh")
    expect(page.locator("#embed-title")).to_have_text("局 2 · 四人麻将", timeout=READY_MS)
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    page.goto("/calc.html#q=123m456p789s1122z&lang=ja")
    expect(page.locator("h1")).to_have_text("牌理計算")
    expect(page.locator(".calc-result")).to_have_count(1, timeout=READY_MS)
    assert page.locator("#calc-url").input_value().endswith("&lang=ja")


def test_a_fragment_language_is_not_remembered(page: Page) -> None:
    page.goto("/#lang=ja")
    expect(page.locator("h1")).to_have_text("pywall — 牌山検証")
    page.goto("/#lang=xx")  # a language the page does not have: the reader's own
    page.reload()
    expect(page.locator("h1")).to_have_text("pywall — mahjong wall verifier")
