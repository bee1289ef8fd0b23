"""Starting hands and the audit in the page, against the CLI: a legacy 2009 log's
dora indicator in the starting-hands panel, and the audit of a dropped zip of 30
logs (3-player and altered ones among them) counting what `pywall audit` counts.

The tests share one loaded page (a load is most of a browser test's cost), each starting
from what a fresh page shows (``fresh``: English, no results, no audit)."""

from __future__ import annotations

import base64
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import audit_json, in_language, report_of
from tests.browser.test_page import PLAIN, THREE_PLAYER, WORK_MS, result, tamper_draw
from tests.helpers import TENHOU, fixture_paths

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LEGACY = TENHOU / "legacy-2009" / "2009100718gm-00e1-0000-470654d3.xml"
ZIP_GAMES = 30


def drop(page: Page, name: str, data: bytes, mime: str) -> None:
    """Drop one file on the page, as a person drags it from their desktop."""
    transfer = page.evaluate_handle(
        """([name, b64, mime]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name, { type: mime }));
        return dt;
    }""",
        [name, base64.b64encode(data).decode(), mime],
    )
    page.dispatch_event("main", "dragenter", {"dataTransfer": transfer})
    page.dispatch_event("main", "drop", {"dataTransfer": transfer})


def test_legacy_log_starting_hands_show_the_dora_indicator(fresh: Page, shot: Any) -> None:
    page = fresh
    report = report_of(LEGACY.name, LEGACY.read_bytes())
    first = report["rounds"][0]
    assert first["dora_indicators"][0] == 55  # the layout of late 2009: not DB = 5
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
        ids = hands.locator(
            f'.seat-hand[data-seat="{seat}"] .seat-head + .tiles .tile'
        ).evaluate_all("ns => ns.map(n => Number(n.dataset.tile))")
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
    """What `pywall audit --json PATH` prints (``audit_json``: in this process)."""
    return audit_json(path)


def test_audit_of_a_dropped_zip_counts_and_tests_what_the_cli_does(
    fresh: Page, tmp_path: Path, shot: Any
) -> None:
    """The zip checked and audited once: the audit's counts, then its draw and wall tests
    (in each language), are the CLI's; cleared, the zip no longer counts."""
    page = fresh
    archive = thirty_logs(tmp_path)
    cli = cli_audit(archive)
    used = cli["games"]["used"]
    hands = cli["games"].get("hands", cli["overall"]["hands"])
    assert 0 < used < ZIP_GAMES  # the altered game and repeated ones do not count
    assert any(part["players"] == 3 for part in cli["overall"]["by_tiles"])
    drop(page, archive.name, archive.read_bytes(), "application/zip")
    node = result(page, archive.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)  # the altered log
    expect(node.locator(".archive-counts")).to_contain_text(f"{ZIP_GAMES} games")
    page.locator("button[data-action=audit]").click()
    view = page.locator("#audit-out")
    expect(view.locator('[data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    summary = view.locator(".audit-summary")
    expect(summary).to_have_attribute("data-games", str(used))
    expect(summary).to_have_attribute("data-hands", str(hands))
    draws = cli["games"]["draws"]
    expect(summary).to_have_text(
        f"{used:,} verified game{'s' * (used != 1)}, {hands:,} starting hands, {draws:,} draws tested."
    )
    expect(view.locator('.audit-group[data-group="all players"] h4').first).to_contain_text(
        f"{hands:,} hands"
    )
    if cli["games"]["anonymous_hands"]:
        expect(view.locator(".audit-anonymous")).to_contain_text(
            f"{cli['games']['anonymous_hands']} hands"
        )
    if len(cli["platforms"]) > 1:
        expect(view.locator(".audit-platforms .audit-group")).to_have_count(len(cli["platforms"]))
    shot("audit-zip", page.locator("#audit-view"))
    the_draw_and_wall_tests_are_the_clis(page, cli, shot)
    page.select_option("#lang", "en")
    # cleared from the page, the archive no longer counts (Python closed its run)
    page.get_by_role("button", name="Clear results").click()
    drop(page, PLAIN.name, PLAIN.read_bytes(), "text/xml")
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.locator("button[data-action=audit]").click()
    expect(summary).to_have_attribute("data-games", "1", timeout=WORK_MS)


def audit_button(page: Page) -> Any:
    return page.locator("button[data-action=audit], #audit-go").first


def test_each_game_counts_once_across_logs_archives_and_repeated_drops(
    fresh: Page, tmp_path: Path
) -> None:
    """A log dropped beside a zip that holds it, and the zip dropped twice: the page's
    totals (games, hands, draws) are the CLI's for the zip alone."""
    page = fresh
    inside = [p for p in fixture_paths() if p != PLAIN][:5]
    archive = tmp_path / "five.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for p in inside:
            zf.write(p, p.relative_to(TENHOU).as_posix())
    games = cli_audit(archive)["games"]
    assert games["used"] == len(inside) and not games["excluded"]
    for i in range(2):
        drop(page, archive.name, archive.read_bytes(), "application/zip")
        expect(result(page, archive.name).nth(i)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
    log = inside[0]
    drop(page, log.name, log.read_bytes(), "text/xml")
    expect(result(page, log.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    audit_button(page).click()
    summary = page.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", str(games["used"]), timeout=WORK_MS)
    expect(summary).to_have_attribute("data-hands", str(games["hands"]))
    expect(summary).to_have_attribute("data-draws", str(games["draws"]))


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "the names come from the file"),
        ("ja", "名前はファイルに書かれたもの"),
        ("zh", "名字来自文件本身"),
    ],
)
def test_copies_with_other_names_conflict_and_the_page_says_why(
    fresh: Page, lang: str, words: str
) -> None:
    """A copy of a log with two seats' names swapped, dropped first, does not replace the
    real log: neither counts, the game is listed once naming both files, in each language."""
    from tests.unit.test_audit_copies import OTHER, REAL, swapped

    page = in_language(fresh, lang)
    text = REAL.read_text(encoding="utf-8")
    files = [("forged.xml", swapped(text)), ("real.xml", text), ("other.txt", OTHER.read_text())]
    for name, content in files:
        drop(page, name, content.encode(), "text/xml")
        expect(result(page, name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    audit_button(page).click()
    summary = page.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", "1", timeout=WORK_MS)
    conflict = page.locator('#audit-out .excluded li[data-kind="conflict"]')
    expect(conflict).to_have_count(1)
    expect(conflict).to_contain_text(words)
    expect(conflict).to_contain_text("forged.xml")
    expect(conflict).to_contain_text("real.xml")
    kinds = {"en": "1 game with conflicting copies", "ja": "コピーが食い違う対局 1 局"}
    kinds["zh"] = "副本互相矛盾的对局 1 局"
    expect(page.locator("#audit-out .excluded .left-out-kinds")).to_contain_text(kinds[lang])


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "3 rounds left out of the draw tests (3: the calls and discards fit no hand"),
        ("ja", "3 局を引きの検定から除きました（3 局：副露と打牌に合う手牌をたどれません）"),
        ("zh", "3 局未计入摸牌检验（3 局：副露和打牌对不上可追踪的手牌）"),
    ],
)
def test_rounds_left_out_of_the_draw_tests_are_counted_and_said(
    fresh: Page, lang: str, words: str
) -> None:
    """Riichi City records whose rounds' calls fit no hand the walk can follow: the page
    counts those rounds as the CLI does (games.skipped_rounds) and says why, in each
    language, while the rounds that fit are tested."""
    from tests.unit.test_draw_walk import choice_record

    records = {
        "misfit.json": json.dumps(choice_record(3, misfit=True)).encode(),
        "fits.json": json.dumps(choice_record(2, misfit=False)).encode(),
    }
    page = in_language(fresh, lang)
    for name, data in records.items():
        drop(page, name, data, "application/json")
        expect(result(page, name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    audit_button(page).click()
    summary = page.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", "2", timeout=WORK_MS)
    expect(summary).to_have_attribute("data-draws", "16")
    skipped = page.locator("#audit-out .audit-skipped")
    expect(skipped).to_have_attribute("data-n", "3")
    expect(skipped).to_contain_text(words)


# --- the draw and wall tests (issue 25) ---------------------------------------------


def draw_words(test: dict[str, Any]) -> str:
    """The page's English line for a draw test of the CLI's JSON (counts rounded): the hits,
    the fair mean and the range a fair shuffle gives 95% of the time."""

    def n(x: float) -> str:
        return f"{round(x):,}"

    return (
        f"{n(test['observed'])} of {n(test['n'])} — a fair shuffle gives {n(test['expected'])} "
        f"on average, usually between {n(test['low'])} and {n(test['high'])}:"
    )


def the_draw_and_wall_tests_are_the_clis(page: Page, cli: dict[str, Any], shot: Any) -> None:
    """The audit of ``thirty_logs`` on the page, in English: its draw and wall tests as the
    CLI's audit of the same zip gives them, then in Japanese and Chinese."""
    view = page.locator("#audit-out")
    overall = view.locator('.audit-group[data-group="all players"]').first
    lines = overall.locator(".draw-lines li")
    expect(lines).to_have_count(3, timeout=WORK_MS)
    effective = cli["overall"]["draws"]["effective"]
    expect(lines.nth(0)).to_contain_text(
        "Effective draws (a tile that brings the hand closer to ready): " + draw_words(effective)
    )
    expect(lines.nth(0)).to_have_attribute("data-z", f"{effective['z']:.3f}")
    expect(lines.nth(1)).to_contain_text(
        "Winning tiles drawn while ready (tenpai): " + draw_words(cli["overall"]["draws"]["tenpai"])
    )
    expect(lines.nth(2)).to_contain_text(
        "Dora drawn: " + draw_words(cli["overall"]["draws"]["dora"])
    )
    expect(overall.locator(".draws-verdict")).to_contain_text("look like a fair shuffle's")
    # the wall tests of each platform, as the CLI lists them
    for group in cli["platforms"]:
        names = [w["name"] for w in group["walls"]["tests"]]
        label = f"Tenhou, {group['players']}-player"
        walls = view.locator(f'.audit-platforms .audit-group[data-group="{label}"] .audit-walls li')
        expect(walls).to_have_count(len(names))
        if "positions" in names:
            expect(walls.first).to_contain_text("tile kinds by wall position: chi-square")
            expect(walls.first).to_contain_text("4,455 degrees of freedom")
        # and as a picture: a bar per test against the threshold
        picture = view.locator(
            f'.audit-platforms .audit-group[data-group="{label}"] figure.walls-chart'
        )
        expect(picture.locator("rect.bar")).to_have_count(len(names))
    # dealer, non-dealer and each seat
    seats = view.locator(".audit-seats")
    seats.locator(":scope > summary").click()
    expect(seats.locator(":scope > .audit-group")).to_have_count(len(cli["seats"]))
    # a player of several games: the cumulative chart with its band
    player = max(cli["players"], key=lambda g: len(g.get("effective_by_game", [])))
    games = len(player["effective_by_game"])
    assert games >= 2
    group = view.locator(f'.audit-group[data-group="{player["label"]}"]').first
    if not group.is_visible():  # among the other players (not the one chosen first)
        view.locator(".audit-players > summary").click()
    expect(group.locator(".draw-lines li").first).to_contain_text(
        draw_words(player["draws"]["effective"])
    )
    chart = group.locator("figure.draws-chart")
    expect(chart).to_have_attribute("data-games", str(games))
    expect(chart.locator("svg polygon.band")).to_have_count(1)
    expect(chart.locator("svg polyline.line")).to_have_count(1)
    shot("audit-draws", overall)
    explanation = view.locator(".draws-explanation")
    expect(explanation).to_contain_text("The draw tests follow every draw")
    # the same lines in Japanese and Chinese
    page.get_by_label("Language").select_option("ja")
    expect(lines.nth(0)).to_contain_text(
        f"有効牌のツモ（手を聴牌に近づける牌）: {effective['n']:,}回中{effective['observed']:,}回"
    )
    expect(overall.locator(".draws-verdict")).to_contain_text("公平なシャッフルと矛盾しません")
    expect(explanation).to_contain_text("ツモの検定は")
    page.get_by_label("言語").select_option("zh")
    expect(lines.nth(0)).to_contain_text(
        f"有效牌摸牌（使手牌更接近听牌的牌）：{effective['n']:,} 次中 {effective['observed']:,} 次"
    )
    expect(explanation).to_contain_text("摸牌检验跟踪")
    expect(chart.locator(".hint")).to_contain_text("95%")


def test_a_single_games_draws_per_player(fresh: Page) -> None:
    """One game's lines per player: information, not a verdict, each with its fair range and
    reading (the report's ``draws.by_seat``), in the reader's words."""
    page = fresh
    report = report_of(PLAIN.name, PLAIN.read_bytes())
    by_seat = report["draws"]["by_seat"]
    drop(page, PLAIN.name, PLAIN.read_bytes(), "text/xml")
    node = result(page, PLAIN.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    box = node.locator("details.game-draws")
    box.locator(":scope > summary").click()
    expect(box).to_contain_text("Information, not a verdict")
    rows = box.locator(":scope > ul > li")
    expect(rows).to_have_count(len(by_seat))
    for k, seat in enumerate(by_seat):
        eff = seat["effective"]
        expect(rows.nth(k)).to_have_attribute("data-seat", str(seat["seat"]))
        expect(rows.nth(k)).to_contain_text(report["game"]["players"][seat["seat"]])
        line = rows.nth(k).locator("li[data-test=effective]")
        expect(line).to_contain_text(draw_words(eff))
        expect(line).to_have_attribute("data-reading", eff["reading"])
        expect(line.locator(".reading")).to_have_text(eff["reading"].replace("_", " "))
    # a round the reader opened, inside the rounds' fold
    rounds = node.locator("details.rounds")
    if rounds.get_attribute("open") is None:
        rounds.locator(":scope > summary").click()
    second = node.locator('details.round[data-round="2"]')
    second.locator(":scope > summary").click()
    expect(second.locator(".tile").first).to_be_visible()
    page.get_by_label("Language").select_option("ja")
    # the game is drawn again in Japanese with the folds the reader opened still open
    expect(node.locator("details.rounds")).to_have_attribute("open", "")
    expect(second).to_have_attribute("open", "")
    expect(second.locator(".tile").first).to_be_visible()
    expect(second.locator(".round-label")).to_have_text(re.compile("^東2局"))
    expect(node.locator('details.round[data-round="1"]')).not_to_have_attribute("open", "")
    expect(box).to_have_attribute("open", "")
    expect(rows).to_have_count(len(by_seat))
    expect(rows.first.locator("li[data-test=effective]")).to_contain_text(
        "公平なシャッフルなら平均"
    )
