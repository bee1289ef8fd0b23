"""What the audit can see, in the page: under each of a group's draw lines the sentence
"With these 1,234 draws, a rigged shuffle that took away (or added) 1 effective tile in
every 20 draws would be caught 8 times in 10", carrying ``data-test`` and the CLI's
``detectable`` figure (Python computes it; the page only words it), in en, ja and zh."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

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
    # on a phone, in each language: every line shown whole within the screen's width
    page.set_viewport_size({"width": 390, "height": 844})  # clean() gives the size back
    for lang in ("en", "ja", "zh"):
        in_language(page, lang)
        for name in TESTS:
            line = group.locator(f".draw-lines li[data-test={name}] .detectable")
            line.scroll_into_view_if_needed()
            expect(line, f"{lang} {name} on a phone").to_be_visible()
            box = line.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (lang, box)
    in_language(page, "en")
