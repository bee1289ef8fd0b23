"""The panels in Chromium, used as a person would: the commitment box of a verified
game, SEGA MJ and Mahjong Soul tools, starting hands per round, the audit of a
batch, and the hand calculator page. Answers are compared with CPython's pywall.

A page load costs seconds of CPU: the tests of the verifier's page share the module's
loaded page (``fresh``; a tool opened there by its link in the page's fragment), except
the tool link opened afresh; the calculator's tests share one load of its page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from pywall.checks.sega import tenhou_id_from_sega
from tests.browser.conftest import api_call, report_of
from tests.browser.test_page import READY_MS, WORK_MS, choose, result
from tests.helpers import DATA, TENHOU
from tests.unit.test_commitment import recipe_hash, seed_and_names, unique_order

pytestmark = pytest.mark.browser

LOG = TENHOU / "tenhou-python-bot" / "11.txt"
SEGA = json.loads((DATA / "vectors" / "sega-mj" / "vectors.json").read_text())
MAJSOUL_FILE = DATA / "vectors" / "majsoul" / "lipenghua_sanma_vector.json"
MAJSOUL = json.loads(MAJSOUL_FILE.read_text())


def bot_logs(count: int) -> list[Path]:
    logs = sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))
    return logs[:count]


# --- the commitment box ---------------------------------------------------------------------


def test_commitment_box_matches_and_refuses(fresh: Page, shot: Any) -> None:
    seed, names = seed_and_names(LOG)
    order = unique_order(names)
    value = recipe_hash(order, seed)
    page = fresh
    choose(page, LOG)
    node = result(page, LOG.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    box = node.locator('[data-panel="commitment"]')
    expect(box).to_have_count(1)
    # a saved list page with other hashes around ours
    page_text = "\n".join(
        ["<tr><td>" + "ab" * 64 + "</td></tr>", f"<tr><td>{value}</td></tr>", "</table>"]
    )
    box.get_by_label("Published hash, or the saved hash list").fill(page_text)
    box.get_by_role("button", name="Check the commitment").click()
    verdict = box.locator("[data-result]")
    expect(verdict).to_have_attribute("data-result", "matched", timeout=WORK_MS)
    expect(box).to_contain_text(f"Seat order {order}")
    expect(box).to_contain_text("full form")
    expect(box).to_contain_text("line 2")
    expect(box).to_contain_text(value)
    for name in names:
        expect(box.locator("ol.seat-order")).to_contain_text(name)
    shot("commitment-match", box)
    # a wrong hash: no match, and the candidates tried are listed
    box.get_by_label("Published hash, or the saved hash list").fill("0" * 128)
    box.get_by_role("button", name="Check the commitment").click()
    expect(box.locator("[data-result]")).to_have_attribute(
        "data-result", "unmatched", timeout=WORK_MS
    )
    expect(box).to_contain_text("No match among 1 published hash")
    box.locator("details.candidates summary").click()
    expect(box.locator("details.candidates tbody tr")).to_have_count(1)
    expect(box.locator("details.candidates")).to_contain_text(order)
    # text with no hash in it: a message, not a crash
    box.get_by_label("Published hash, or the saved hash list").fill("nothing here")
    box.get_by_role("button", name="Check the commitment").click()
    expect(box.locator('[data-result="error"]')).to_contain_text("no SHA-512 hash", timeout=WORK_MS)


# --- starting hands per round -------------------------------------------------------------


def test_round_shows_starting_hands_with_shanten(fresh: Page, shot: Any) -> None:
    report = report_of(LOG.name, LOG.read_bytes())
    expected = api_call("hands", {"round": report["rounds"][0]})
    page = fresh
    choose(page, LOG)
    node = result(page, LOG.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    node.locator('details.round[data-round="0"] summary').click()
    hands = node.locator('details.round[data-round="0"] [data-panel="start-hands"]')
    expect(hands).to_have_attribute("data-state", "done", timeout=WORK_MS)
    seats = hands.locator(".seat-hand")
    expect(seats).to_have_count(4)
    for seat in expected["seats"]:
        row = hands.locator(f'.seat-hand[data-seat="{seat["seat"]}"]')
        expect(row).to_have_attribute("data-shanten", str(seat["shanten"]["minimum"]))
        ids = row.locator(".seat-head + .tiles .tile").evaluate_all(
            "ns => ns.map(n => Number(n.dataset.tile))"
        )
        assert ids == seat["ids"]
        word = {-1: "complete", 0: "tenpai"}.get(
            seat["shanten"]["minimum"], f"{seat['shanten']['minimum']}-shanten"
        )
        expect(row.locator(".shanten")).to_have_text(word)
        if seat["dealer"]:
            expect(row.locator("table.discards tbody tr")).to_have_count(len(seat["discards"]))
        else:
            expect(row.locator(".effective")).to_contain_text(f"{seat['effective']['total']} tiles")
    shot("starting-hands", hands)


# --- SEGA MJ --------------------------------------------------------------------------------


def test_sega_panel_shows_the_vector_wall(fresh: Page, shot: Any) -> None:
    case = SEGA[0]
    assert case["player_seeds"][0].startswith("-")
    page = fresh
    page.get_by_role("link", name="SEGA MJ walls").click()
    panel = page.locator("#tool-sega")
    expect(panel).to_be_visible()
    assert "#tool=sega" in page.url
    for n, seed in enumerate(case["player_seeds"], 1):
        panel.get_by_label(f"Player seed {n}").fill(seed)
    panel.get_by_label("Uncertainty value").fill(str(case["uncertainty"]))
    panel.get_by_role("button", name="Show the wall").click()
    wall = panel.locator(".sega-wall .tile")
    expect(wall).to_have_count(136, timeout=WORK_MS)
    shown = wall.evaluate_all("ns => ns.map(n => Number(n.dataset.tile))")
    assert shown == [tenhou_id_from_sega(t) for t in case["wall"]]
    a, b = (d + 1 for d in case["dice"])
    expect(panel).to_contain_text(f"Dice {a} + {b} = {a + b}")
    expect(panel).to_contain_text("Red fives are not marked")
    expect(panel.locator(".sega-wall .tile.red")).to_have_count(0)
    shot("sega", panel)
    # a bad character: the message names the seed and the character; no wall
    panel.get_by_label("Player seed 2").fill(case["player_seeds"][1][:26] + "!")
    panel.get_by_role("button", name="Show the wall").click()
    expect(panel.locator("#sega-error")).to_have_text(
        re.compile(r"Player seed 2: character 27 is “!”")
    )
    expect(panel.locator(".sega-wall")).to_have_count(0)
    panel.get_by_label("Player seed 2").fill(case["player_seeds"][1][:20])
    panel.get_by_role("button", name="Show the wall").click()
    expect(panel.locator("#sega-error")).to_contain_text("Player seed 2 has 20 characters")


def test_tool_link_opens_its_panel(page: Page) -> None:
    page.goto("/#tool=majsoul")
    expect(page.locator("#tool-majsoul")).to_be_visible()
    expect(page.locator("#tool-sega")).to_be_hidden()
    expect(page.locator('nav.tools a[aria-current="page"]')).to_have_text("Mahjong Soul hashes")


# --- Mahjong Soul ---------------------------------------------------------------------------


def test_majsoul_record_file_matches(fresh: Page, shot: Any) -> None:
    page = fresh
    page.evaluate("() => { location.hash = '#tool=majsoul'; }")
    panel = page.locator("#tool-majsoul")
    panel.get_by_label("Game record (JSON)").set_input_files(str(MAJSOUL_FILE))
    out = panel.locator(".ms-result")
    expect(out).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(out).to_contain_text("Every hash matches its wall.")
    expect(out.locator('[data-digest="sha256"]')).to_contain_text("✓ matches")
    expect(out.locator('[data-digest="salt_sha256"]')).to_have_attribute("data-match", "true")
    tiles = out.locator(".ms-wall .tile")
    expect(tiles).to_have_count(108)
    labels = tiles.evaluate_all("ns => ns.map(n => n.querySelector('.lbl').textContent)")
    paishan = MAJSOUL["paishan"]
    assert labels == [paishan[i : i + 2] for i in range(0, len(paishan), 2)]
    red = [i for i, code in enumerate(labels) if code.startswith("0")]
    assert red
    expect(tiles.nth(red[0])).to_have_class(re.compile(r"\bred\b"))
    shot("majsoul-match", panel)


def test_majsoul_tampered_paishan_mismatch(fresh: Page, shot: Any) -> None:
    p = MAJSOUL["paishan"]
    tampered = p[2:4] + p[0:2] + p[4:]  # two tiles swapped: still a possible wall
    page = fresh
    page.evaluate("() => { location.hash = '#tool=majsoul'; }")
    panel = page.locator("#tool-majsoul")
    panel.get_by_label("Paishan").fill(tampered)
    panel.get_by_label("Salt").fill(MAJSOUL["salt"])
    panel.get_by_label("Stated hash").fill(MAJSOUL["sha256"])
    panel.get_by_role("button", name="Check the typed values").click()
    out = panel.locator(".ms-result")
    expect(out).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(out.locator(".verdict")).to_have_text(re.compile("Mismatch"))
    expect(out.locator('[data-digest="sha256"]')).to_contain_text("✗ does not match")
    expect(out.locator('[data-digest="sha256"]')).to_contain_text(MAJSOUL["sha256"])
    shot("majsoul-mismatch", panel)
    # the untampered values match
    panel.get_by_label("Paishan").fill(p)
    panel.get_by_role("button", name="Check the typed values").click()
    expect(out).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    # a wall that cannot exist gets Python's message
    panel.get_by_label("Paishan").fill(p[:-2])
    panel.get_by_role("button", name="Check the typed values").click()
    expect(panel.locator('[data-result="error"]')).to_contain_text("107 tiles", timeout=WORK_MS)


# --- the audit of a batch -------------------------------------------------------------------


def test_audit_view_for_a_batch(fresh: Page, shot: Any) -> None:
    logs = bot_logs(6)  # 3.txt and 4.txt are the same game
    sanma = TENHOU / "dnovikoff" / "sanma2.xml"
    page = fresh
    choose(page, *logs, sanma)
    for path in [*logs, sanma]:
        expect(result(page, path.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
    # CPython's audit of the same reports: the page must show the same numbers
    data = api_call(
        "audit", {"reports": [report_of(p.name, p.read_bytes()) for p in [*logs, sanma]]}
    )
    games = data["games"]
    assert games["excluded"] == [
        {
            "path": "4.txt",
            "kind": "duplicate",
            "reason": "repeat of 3.txt",
            "reason_code": "duplicate",
            "reason_data": {"same_as": "3.txt"},
        }
    ]
    page.locator("button[data-action=audit]").click()
    view = page.locator("#audit-out")
    expect(view.locator('[data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    # 3-player games count too (against the 108-tile distributions): 6 games, 4.txt is 3.txt again
    expect(view).to_contain_text(
        f"{games['used']:,} verified games, {games['hands']:,} starting hands, {games['draws']:,} draws tested."
    )
    summary = view.locator(".audit-summary")
    expect(summary).to_have_attribute("data-games", str(games["used"]))
    expect(summary).to_have_attribute("data-hands", str(games["hands"]))
    view.locator("details.excluded summary").click()
    expect(view.locator("details.excluded li")).to_have_count(1)
    expect(view.locator('details.excluded li[data-kind="duplicate"]')).to_contain_text("4.txt")
    # NoName players are not one player: their hands count in the totals only, and the page says so
    assert games["anonymous_hands"] > 0
    expect(view.locator(".audit-anonymous")).to_contain_text(f"{games['anonymous_hands']} hands")
    # two platforms (Tenhou 4-player and 3-player): a breakdown of each
    platforms = view.locator(".audit-platforms .audit-group")
    expect(platforms).to_have_count(len(data["platforms"]))
    assert len(data["platforms"]) == 2
    for group in data["platforms"]:
        expect(
            view.locator(f'.audit-platforms .audit-group[data-group="{group["label"]}"]')
        ).to_contain_text(f"{group['hands']} hands")
    overall = view.locator('.audit-group[data-group="all players"]')
    bars = overall.locator("svg.chart:not(.band-chart):not(.p-bars)")
    expect(bars).to_have_count(len(data["overall"]["by_tiles"]))
    expect(overall.locator("svg.chart rect.bar.observed")).not_to_have_count(0)
    expect(bars.first).to_have_attribute("aria-label", re.compile("observed and expected"))
    expect(overall).to_contain_text("Mean shanten")
    expect(overall).to_contain_text("Chi-square")
    expect(overall).to_contain_text("Dora dealt")
    expect(overall.locator(".audit-verdict")).to_contain_text(re.compile("fair shuffle"))
    # the table alternative has the same numbers as CPython's audit
    part = data["overall"]["by_tiles"][0]
    overall.locator("details.audit-hand-charts > summary").click()  # the hand charts, folded
    overall.locator("figure.audit-chart").first.locator("details summary").click()
    rows = overall.locator("figure.audit-chart").first.locator("table.audit-table tbody tr")
    expect(rows).to_have_count(len(part["expected"]))
    observed = rows.evaluate_all("rs => rs.map(r => Number(r.cells[1].textContent))")
    assert observed == [part["observed"][k] for k in sorted(part["expected"], key=int)]
    expect(view.locator(".explanation")).to_contain_text("What this can show")
    shot("audit", page.locator("#audit-view"))
    # each platform's group is worded in the reader's language, not Python's English label
    names = {
        "en": {"tenhou": "Tenhou, {n}-player"},
        "ja": {"tenhou": "天鳳（{n}人）"},
        "zh": {"tenhou": "天凤（{n}人）"},
    }
    for lang, words in names.items():
        page.select_option("#lang", lang)
        page.locator("#audit-go").click()
        headings = view.locator(".audit-platforms .audit-group h4")
        expect(headings).to_have_count(2, timeout=WORK_MS)
        for heading, group in zip(headings.all(), data["platforms"]):
            expect(heading).to_contain_text(words[group["platform"]].format(n=group["players"]))
        if lang != "en":
            expect(view.locator(".audit-platforms")).not_to_contain_text("player")
    page.select_option("#lang", "en")


# --- the hand calculator --------------------------------------------------------------------


def test_calculator_page_and_in_japanese(page: Page, shot: Any) -> None:
    """Reached from the verifier's link; then a shared link's hand, bad input, and last a
    link's hand read in Japanese (the language switched with the page's own select)."""
    page.goto("/")
    page.get_by_role("link", name="Hand calculator").click()
    expect(page).to_have_url(re.compile(r"calc\.html"))
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.get_by_label("Hand (13 or 14 tiles, mpsz)").fill("123m456p789s1111z")
    page.get_by_role("button", name="Calculate").click()
    out = page.locator(".calc-result")
    expect(out).to_have_attribute("data-shanten", "1", timeout=WORK_MS)
    expect(out.locator(".calc-shanten")).to_contain_text("1-shanten")
    expect(out.locator(".calc-shanten")).to_contain_text("seven pairs 5")
    assert page.url.endswith("#q=123m456p789s1111z")
    # a 14-tile hand from a shared link: the 牌理 table, sorted like Tenhou's
    hand = "1234m406p789s1122z"
    expected = api_call("shanten", {"hand": hand})
    page.goto(f"/calc.html#q={hand}")
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    rows = page.locator("table.discards tbody tr")
    expect(rows).to_have_count(len(expected["discards"]), timeout=WORK_MS)
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.discard)") == [
        d["discard"] for d in expected["discards"]
    ]
    expect(rows.first).to_contain_text(f"{expected['discards'][0]['total']} tiles")
    expect(page.locator(".calc-hand .tile.red")).to_have_count(1)
    expect(page.get_by_label("Hand (13 or 14 tiles, mpsz)")).to_have_value(hand)
    shot("calculator", page)
    # bad input: Python's message, in words
    page.get_by_label("Hand (13 or 14 tiles, mpsz)").fill("123x")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#calc-error")).to_contain_text("unexpected 'x'", timeout=WORK_MS)
    # a link's hand, read in Japanese (the page follows the fragment it is given)
    page.evaluate("() => { location.hash = '#q=123m456p789s1122z'; }")
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    page.get_by_label("Language").select_option("ja")
    expect(page.locator("h1")).to_have_text("牌理計算")
    expect(page.locator(".calc-shanten")).to_contain_text("聴牌", timeout=WORK_MS)
    expect(page.locator(".effective")).to_contain_text("有効牌")
