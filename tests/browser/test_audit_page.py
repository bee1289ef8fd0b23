"""Starting hands and the audit in the page, against the CLI: a legacy 2009 log's
dora indicator in the starting-hands panel, and the audit of a dropped zip of 30
logs (3-player and altered ones among them) counting what `pywall audit` counts."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import report_of
from tests.browser.test_page import PLAIN, THREE_PLAYER, WORK_MS, open_ready, result, tamper_draw
from tests.helpers import TENHOU, fixture_paths

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LEGACY = TENHOU / "legacy-2009" / "2009100718gm-00e1-0000-470654d3.xml"
ZIP_GAMES = 30


def drop(page: Page, name: str, data: bytes, mime: str) -> None:
    """Drop one file on the page, as a person drags it from their desktop."""
    transfer = page.evaluate_handle("""([name, b64, mime]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name, { type: mime }));
        return dt;
    }""", [name, base64.b64encode(data).decode(), mime])
    page.dispatch_event("main", "dragenter", {"dataTransfer": transfer})
    page.dispatch_event("main", "drop", {"dataTransfer": transfer})


def test_legacy_log_starting_hands_show_the_dora_indicator(page: Page, shot: Any) -> None:
    report = report_of(LEGACY.name, LEGACY.read_bytes())
    first = report["rounds"][0]
    assert first["dora_indicators"][0] == 55  # the layout of late 2009: not DB = 5
    open_ready(page)
    drop(page, LEGACY.name, LEGACY.read_bytes(), "text/xml")
    node = result(page, LEGACY.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="0"] summary').click()
    hands = node.locator('details.round[data-round="0"] [data-panel="start-hands"]')
    expect(hands).to_have_attribute("data-state", "done", timeout=WORK_MS)
    expect(hands).to_have_attribute("data-dealer", str(first["dealer"]))
    indicator = hands.locator(".dora-indicator")
    expect(indicator).to_have_attribute("data-tile", "55")
    expect(indicator.locator(".tile")).to_have_attribute("data-tile", "55")
    expect(indicator).to_contain_text("Dora indicator")
    # the wall marks the same tile as dora indicator 1
    dora = node.locator('details.round[data-round="0"] .dead .slot:has(.mark-dora)').first
    expect(dora.locator(".tile")).to_have_attribute("data-tile", "55")
    # each seat's hand: the dealt tiles (the dealer's with the first draw)
    for seat, dealt in enumerate(first["hands"]):
        ids = hands.locator(f'.seat-hand[data-seat="{seat}"] .seat-head + .tiles .tile')\
            .evaluate_all("ns => ns.map(n => Number(n.dataset.tile))")
        assert set(dealt) <= set(ids), seat
    shot("legacy-starting-hands", hands)


def thirty_logs(tmp: Path) -> Path:
    """A zip of 30 logs: 3-player games and an altered one among them."""
    paths = [p for p in fixture_paths() if p != PLAIN][: ZIP_GAMES - 1]
    assert THREE_PLAYER in paths and any("sanma" in p.name for p in paths)
    archive = tmp / "thirty.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for p in paths:
            zf.write(p, p.relative_to(TENHOU).as_posix())
        zf.writestr("altered/example.xml", tamper_draw(PLAIN.read_text(encoding="utf-8"), 2, 4))
    with zipfile.ZipFile(archive) as zf:
        assert len(zf.namelist()) == ZIP_GAMES
    return archive


def cli_audit(path: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "pywall", "audit", "--json", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_audit_of_a_dropped_zip_counts_what_the_cli_counts(page: Page, tmp_path: Path, shot: Any) -> None:
    archive = thirty_logs(tmp_path)
    cli = cli_audit(archive)
    used = cli["games"]["used"]
    hands = cli["games"].get("hands", cli["overall"]["hands"])
    assert 0 < used < ZIP_GAMES  # the altered game and repeated ones do not count
    assert any(part["players"] == 3 for part in cli["overall"]["by_tiles"])
    open_ready(page)
    drop(page, archive.name, archive.read_bytes(), "application/zip")
    node = result(page, archive.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)  # the altered log
    expect(node.locator(".archive-counts")).to_contain_text(f"{ZIP_GAMES} games")
    page.get_by_role("button", name="Audit starting hands").click()
    view = page.locator("#audit-out")
    expect(view.locator('[data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    summary = view.locator(".audit-summary")
    expect(summary).to_have_attribute("data-games", str(used))
    expect(summary).to_have_attribute("data-hands", str(hands))
    expect(summary).to_have_text(f"{used} verified game{'s' * (used != 1)}, {hands} starting hands.")
    expect(view.locator('.audit-group[data-group="all players"] h4').first).to_contain_text(f"{hands} hands")
    if cli["games"]["anonymous_hands"]:
        expect(view.locator(".audit-anonymous")).to_contain_text(f'{cli["games"]["anonymous_hands"]} hands')
    if len(cli["platforms"]) > 1:
        expect(view.locator(".audit-platforms .audit-group")).to_have_count(len(cli["platforms"]))
    shot("audit-zip", page.locator("#audit-view"))
    # cleared from the page, the archive no longer counts (Python closed its run)
    page.get_by_role("button", name="Clear results").click()
    drop(page, PLAIN.name, PLAIN.read_bytes(), "text/xml")
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.get_by_role("button", name="Audit starting hands").click()
    expect(summary).to_have_attribute("data-games", "1", timeout=WORK_MS)
