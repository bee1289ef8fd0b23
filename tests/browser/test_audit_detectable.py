"""What the audit can see, in the page: under each of a group's draw lines the sentence
"With these 1,234 draws, a rigged shuffle that took away (or added) 1 effective tile in
every 20 draws would be caught 8 times in 10", and under its mean shanten and dora dealt
lines the starting hands' ("... that dealt 1 hand in every 5 one shanten further from ready
(or closer) ..."), each carrying ``data-test`` and the CLI's ``detectable`` figure (Python
computes it; the page only words it), in en, ja and zh, whole at a phone's and a laptop's
width with no sideways scroll."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from pywall.audits.words import WORDS
from tests.browser.conftest import in_language
from tests.browser.test_audit_page import cli_audit, drop
from tests.browser.test_page import PLAIN, WORK_MS, result
from tests.helpers import TENHOU, fixture_paths

pytestmark = pytest.mark.browser

TESTS = ("effective", "tenpai", "dora")


def test_the_pages_detectable_lines_are_the_clis(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    inside = [p for p in fixture_paths() if p != PLAIN and p.is_relative_to(TENHOU)][:12]
    archive = tmp_path / "twelve.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for p in inside:
            zf.write(p, p.relative_to(TENHOU).as_posix())
    cli = cli_audit(archive)
    everyone = cli["overall"]["draws"]
    assert all(everyone[name]["detectable"] > 0 for name in TESTS)
    drop(page, archive.name, archive.read_bytes(), "application/zip")
    expect(result(page, archive.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    page.locator("button[data-action=audit], #audit-go").first.click()
    view = page.locator("#audit-out")
    expect(view.locator(".audit-summary")).to_have_attribute(
        "data-games", str(cli["games"]["used"]), timeout=WORK_MS
    )
    group = view.locator('.audit-group[data-group="all players"]').first
    for lang in ("en", "ja", "zh"):
        in_language(page, lang)
        for name in TESTS:
            t = everyone[name]
            line = group.locator(f".draw-lines li[data-test={name}] .detectable")
            expect(line, f"{lang} {name}").to_have_count(1)
            expect(line).to_have_attribute("data-test", name)
            # the CLI's figure to the bit (JavaScript's shortest form of a double is Python's)
            assert float(line.get_attribute("data-detectable") or "nan") == t["detectable"]
            k = t["detectable_one_in"]
            words = WORDS[lang][f"detect_{name}" if k else f"few_{name}"]
            expect(line).to_have_text(words.format(n=f"{t['n']:,}", k=f"{k or 0:,}"))
    hands_lines(group, cli["overall"], page)
    # on a phone and a laptop, in each language: every line shown whole within the screen's
    # width, and the page never scrolls sideways
    for width, height in ((390, 844), (1366, 800)):
        page.set_viewport_size({"width": width, "height": height})  # clean() gives it back
        for lang in ("en", "ja", "zh"):
            in_language(page, lang)
            lines = [f".draw-lines li[data-test={name}] .detectable" for name in TESTS] + [
                f".audit-tests [data-test={name}] .detectable[data-part=hands]"
                for name in HAND_TESTS
            ]
            for css in lines:
                line = group.locator(css)
                line.scroll_into_view_if_needed()
                expect(line, f"{lang} {css} at {width}").to_be_visible()
                box = line.bounding_box()
                assert box is not None and box["x"] >= 0, (lang, css, box)
                assert box["x"] + box["width"] <= width, (lang, css, box)
            sideways = page.evaluate(
                "() => document.scrollingElement.scrollWidth - window.innerWidth"
            )
            assert sideways <= 0, (lang, width, sideways)
    in_language(page, "en")


HAND_TESTS = ("shanten_sum", "dora")


def hands_lines(group: Locator, everyone: dict[str, Any], page: Page) -> None:
    """The starting-hand tests' sentences (mean shanten, dora dealt) under their lines, in
    en, ja and zh: the words of the report's ``detect_shanten_sum`` and ``detect_hand_dora``
    with the CLI's figures, and the CLI's ``detectable`` on the element."""
    keys = {"shanten_sum": "shanten_sum", "dora": "hand_dora"}
    for lang in ("en", "ja", "zh"):
        in_language(page, lang)
        for name in HAND_TESTS:
            t = everyone[name]
            assert t["detectable"] > 0 and t["detectable_one_in"]
            line = group.locator(f".audit-tests [data-test={name}] .detectable[data-part=hands]")
            expect(line, f"{lang} {name}").to_have_count(1)
            assert float(line.get_attribute("data-detectable") or "nan") == t["detectable"]
            words = WORDS[lang][f"detect_{keys[name]}"]
            expect(line).to_have_text(
                words.format(n=f"{everyone['hands']:,}", k=f"{t['detectable_one_in']:,}")
            )
