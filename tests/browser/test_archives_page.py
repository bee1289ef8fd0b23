"""Archives in the page: phoenix-logs databases and zips of logs, streamed a chunk
of games at a time, checked against the CLI's verdicts row by row; the paged,
filterable summary table; a game opened on demand; a large run that keeps the
page responsive and stops when asked.

The tests share one loaded page (a load is most of a browser test's cost): each starts
from what a fresh page shows (``fresh``: English, no results), and the three tests of
the phoenix-logs database read the one run of it (``houou_shown``)."""

from __future__ import annotations

import bz2
import csv
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import clean, cli_output, frame_gaps, read_csv, report_of, watch_frames
from tests.browser.test_page import READY_MS, WORK_MS, choose, result
from tests.unit.test_archives import corrupt_bz2, fixture_rows, log_id, phoenix_db, tampered_text

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TAMPERED = "2019123123gm-00a9-0000-7a3e0000"
BROKEN = "2019123123gm-00a9-0000-bad0b220"
SKIPPED = ["2019123123gm-00a9-0000-e770e770", "2019123123gm-00a9-0000-00000000"]
LARGE_MS = 300_000


def special_rows() -> list[tuple[Any, ...]]:
    """A bad bz2 blob, two rows phoenix-logs did not download (skipped), a tampered log."""
    return [
        (BROKEN, corrupt_bz2(), 1, 0),
        (SKIPPED[0], b"", 1, 1),
        (SKIPPED[1], b"", 0, 0),
        (TAMPERED, bz2.compress(tampered_text().encode()), 1, 0),
    ]


@pytest.fixture(scope="module")
def houou(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """165 fixture games (every fixture three times) with the special rows among them: 167 games."""
    rows = fixture_rows(copies=3)
    return phoenix_db(
        tmp_path_factory.mktemp("db") / "houou.db", rows[:70] + special_rows() + rows[70:]
    )


@pytest.fixture(scope="module")
def logs_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five fixture logs, one tampered, one truncated member, one file that is no log."""
    path = tmp_path_factory.mktemp("zip") / "logs.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for lid, blob in fixture_rows()[:5]:
            zf.writestr(f"games/{lid}.xml", bz2.decompress(blob))
        zf.writestr("games/tampered.xml", tampered_text())
        zf.writestr("games/truncated.xml", bz2.decompress(fixture_rows()[7][1]))
        zf.writestr("readme.txt", "not a log")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:  # zero the middle of one member's deflate stream
        info = zf.getinfo("games/truncated.xml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.compress_size // 2
    data[start : start + 64] = bytes(64)
    path.write_bytes(bytes(data))
    return path


@pytest.fixture
def houou_shown(loaded: Page, houou: Path) -> Page:
    """The page with houou.db checked: the run a test before left, if it shows the whole
    table in English with no game opened; else a new run from a clean page."""
    archive = result(loaded, "houou.db")
    kept = (
        archive.count() == 1
        and loaded.locator("#results > *").count() == 1
        and archive.get_attribute("data-verdict") == "mismatch"
        and archive.locator("article.file-result").count() == 0
    )
    if kept:
        loaded.select_option("#lang", "en")
        loaded.get_by_label("Show").select_option("all")
        first = loaded.get_by_role("button", name="First page")
        if first.is_enabled():
            first.click()
        expect(loaded.locator("#page-text")).to_have_text("Page 1 of 2 (167 rows)")
    else:
        clean(loaded)
        choose(loaded, houou)
        archive_done(loaded, "houou.db", "mismatch")
    return loaded


def cli_verdicts(path: Path) -> dict[str, dict[str, Any]]:
    """``pywall verify --jsonl`` on the file (in this process: its exit status is the
    verdicts', not asserted), keyed by the name the page gives each game."""
    _, out = cli_output("verify", "--jsonl", "--jobs", "1", str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert "summary" in lines[-1]
    return {r["path"].replace(str(path), path.name, 1): r for r in lines[:-1]}


def archive_done(page: Page, name: str, verdict: str, ms: int = WORK_MS) -> Any:
    node = result(page, name)
    expect(node).to_have_attribute("data-verdict", verdict, timeout=ms)
    return node


def shown_rows(page: Page) -> list[dict[str, str]]:
    return list(
        page.locator("#summary tbody tr").evaluate_all("""trs => trs.map(tr => ({
        path: tr.dataset.row, status: tr.dataset.status, rounds: tr.cells[2].textContent,
        checked: tr.cells[3].textContent, problem: tr.cells[4].textContent}))""")
    )


def all_rows(page: Page) -> list[dict[str, str]]:
    """Every row of the summary table, page by page with the Next button."""
    first = page.get_by_role("button", name="First page")
    if first.is_visible() and first.is_enabled():
        first.click()
        expect(page.locator("#page-text")).to_contain_text("Page 1 of")
    rows = shown_rows(page)
    while (
        page.locator("#pager").is_visible()
        and page.get_by_role("button", name="Next page").is_enabled()
    ):
        before = page.locator("#page-text").text_content()
        page.get_by_role("button", name="Next page").click()
        expect(page.locator("#page-text")).not_to_have_text(before or "")
        rows += shown_rows(page)
    return rows


def assert_rows_match_cli(rows: list[dict[str, str]], cli: dict[str, dict[str, Any]]) -> None:
    assert [r["path"] for r in rows] == list(cli)
    for row in rows:
        want = cli[row["path"]]
        assert row["status"] == want["status"], row["path"]
        assert int(row["checked"]) == want["checked"], row["path"]
        assert int(row["rounds"]) == len(want["rounds"]), row["path"]
        errors = [f for f in want["findings"] if f["severity"] == "error"]
        assert row["problem"] == (errors[0]["message"] if errors else ""), row["path"]


# --- a phoenix-logs database ------------------------------------------------------------


def test_database_rows_match_the_cli(houou_shown: Page, houou: Path, shot: Any) -> None:
    page = houou_shown
    cli = cli_verdicts(houou)
    assert len(cli) == 167 and not any(s in p for p in cli for s in SKIPPED)
    node = archive_done(page, "houou.db", "mismatch")
    expect(node.locator(".archive-counts")).to_have_text(
        "167 games: 165 verified, 1 mismatch, 1 cannot read"
    )
    expect(page.locator("#batch-summary")).to_contain_text(
        "167 logs: 165 verified, 1 mismatch, 1 cannot read"
    )
    expect(page.locator("#batch-summary")).to_contain_text("per second")
    expect(page.locator("#batch-progress")).to_have_attribute("value", "167")
    # one page of 100 rows at a time, not 167, and no game drawn until asked
    expect(page.locator("#summary tbody tr")).to_have_count(100)
    expect(page.locator("#page-text")).to_have_text("Page 1 of 2 (167 rows)")
    expect(node.locator("article.file-result")).to_have_count(0)
    shot("archive-db", page)
    assert_rows_match_cli(all_rows(page), cli)
    expect(page.locator("#page-text")).to_have_text("Page 2 of 2 (167 rows)")
    expect(page.get_by_role("button", name="Next page")).to_be_disabled()
    expect(page.get_by_role("button", name="Last page")).to_be_disabled()
    page.get_by_role("button", name="Previous page").click()
    expect(page.locator("#page-text")).to_have_text("Page 1 of 2 (167 rows)")
    expect(page.get_by_role("button", name="Previous page")).to_be_disabled()
    page.get_by_role("button", name="Last page").click()
    expect(page.locator("#summary tbody tr")).to_have_count(67)

    with page.expect_download() as info:
        page.get_by_role("button", name="Export CSV").click()
    exported = list(csv.DictReader(io.StringIO(read_csv(info.value.path())[1])))
    assert [(r["path"], r["status"], int(r["checked"])) for r in exported] == [
        (p, r["status"], r["checked"]) for p, r in cli.items()
    ]
    with page.expect_download() as info:
        page.get_by_role("button", name="Export JSON").click()
    doc = json.loads(Path(info.value.path()).read_text())
    assert doc["summary"] == {
        "files": 167,
        "verified": 165,
        "mismatch": 1,
        "error": 1,
        "checked": sum(r["checked"] for r in cli.values()),
    }
    assert [(f["path"], f["status"], f["round_count"]) for f in doc["files"]] == [
        (p, r["status"], len(r["rounds"])) for p, r in cli.items()
    ]


def test_filter_shows_only_problems(houou_shown: Page) -> None:
    page = houou_shown
    archive_done(page, "houou.db", "mismatch")
    page.get_by_label("Show").select_option("problems")
    expect(page.locator("#summary tbody tr")).to_have_count(2)
    rows = shown_rows(page)
    assert [(r["path"], r["status"]) for r in rows] == [
        (f"houou.db/{BROKEN}", "error"),
        (f"houou.db/{TAMPERED}", "mismatch"),
    ]
    assert "bz2" in rows[0]["problem"]
    expect(page.locator("#pager")).to_be_hidden()
    page.get_by_label("Show").select_option("all")
    expect(page.locator("#summary tbody tr")).to_have_count(100)


def test_opening_the_tampered_game_shows_the_mismatch(houou_shown: Page, shot: Any) -> None:
    page = houou_shown
    data = tampered_text().encode()
    report = report_of("x", data)
    bad = [r for r in report["rounds"] if r["result"] == "mismatch"]
    assert [r["index"] for r in bad] == [2]
    archive = archive_done(page, "houou.db", "mismatch")
    page.get_by_label("Show").select_option("problems")
    page.locator("#summary tbody tr").get_by_role("button", name=f"houou.db/{TAMPERED}").click()
    game = archive.locator(f'[data-file="houou.db/{TAMPERED}"]')
    expect(game).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(game.locator('details.round[data-result="mismatch"]')).to_have_count(1)
    bad_round = game.locator('details.round[data-round="2"]')
    expect(bad_round).to_have_attribute("data-result", "mismatch")
    expect(bad_round.locator(".round-label")).to_have_text(bad[0]["label"])
    expect(bad_round.locator(".slot.bad")).to_have_count(1)
    expect(game.locator(".findings")).to_contain_text("East 2, 1 honba")
    shot("archive-tampered-game", game)
    # a verified game past the first ones: its walls are computed again on demand
    page.get_by_label("Show").select_option("all")
    page.get_by_role("button", name="Last page").click()
    name = f"houou.db/{log_id(155)}"
    page.locator("#summary tbody tr").get_by_role("button", name=name).click()
    later = archive.locator(f'[data-file="{name}"]')
    expect(later).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    later.locator('details.round[data-round="0"] summary').click()
    expect(later.locator('details.round[data-round="0"] .slot').first).to_be_visible()
    expect(archive.locator("article.file-result")).to_have_count(2)
    # another language redraws the archive with the same games open, each once
    page.select_option("#lang", "ja")
    expect(archive.locator(".archive-counts")).to_contain_text("167 局")
    expect(archive.locator("article.file-result")).to_have_count(2)
    expect(archive.locator(f'[data-file="houou.db/{TAMPERED}"]')).to_have_attribute(
        "data-verdict", "mismatch"
    )
    page.locator("#summary tbody tr").get_by_role("button", name=name).click()
    expect(archive.locator("article.file-result")).to_have_count(2)
    page.select_option("#lang", "en")


def test_a_database_that_is_not_phoenix_logs_is_one_error(fresh: Page, tmp_path: Path) -> None:
    other = phoenix_db(tmp_path / "games.db", [], "CREATE TABLE games(id text, body blob)")
    page = fresh
    choose(page, other)
    node = archive_done(page, "games.db", "error")
    expect(node.locator(".archive-problem")).to_contain_text(
        "without the phoenix-logs table 'logs'"
    )
    expect(page.locator("#summary tbody tr")).to_have_count(1)
    expect(page.locator('#summary tbody tr[data-row="games.db"]')).to_have_attribute(
        "data-status", "error"
    )


# --- a zip of logs ----------------------------------------------------------------------


def test_an_empty_zip_is_one_clear_error(fresh: Page, tmp_path: Path) -> None:
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    page = fresh
    choose(page, empty)
    node = archive_done(page, "empty.zip", "error")
    expect(node.locator(".archive-problem")).to_have_text("This archive holds no file.")


def test_zip_rows_match_the_cli(fresh: Page, logs_zip: Path, shot: Any) -> None:
    cli = cli_verdicts(logs_zip)
    statuses = [r["status"] for r in cli.values()]
    assert statuses == ["verified"] * 5 + ["mismatch", "error", "error"]
    assert "cannot be read" in cli["logs.zip/games/truncated.xml"]["findings"][0]["message"]
    page = fresh
    choose(page, logs_zip)
    node = archive_done(page, "logs.zip", "mismatch")
    assert_rows_match_cli(all_rows(page), cli)
    # a small archive shows each of its games like a file
    for path, r in cli.items():
        expect(node.locator(f'[data-file="{path}"]')).to_have_attribute("data-verdict", r["status"])
    expect(
        node.locator(
            '[data-file="logs.zip/games/tampered.xml"] details.round[data-result="mismatch"]'
        )
    ).to_have_attribute("data-round", "2")
    shot("archive-zip", page)


def test_a_database_of_several_read_windows_reads_every_row(fresh: Page, tmp_path: Path) -> None:
    """The worker reads a chosen file through a 1 MiB read-ahead window (worker.mjs):
    a database of several windows reads every row intact (each bz2 blob carries its
    own CRC, so a byte read wrong would be an error row) and counts as the CLI does."""
    base = fixture_rows()
    db = phoenix_db(
        tmp_path / "windows.db", [(log_id(i), base[i % len(base)][1]) for i in range(600)]
    )
    assert db.stat().st_size > 3 * 2**20
    page = fresh
    choose(page, db)
    node = archive_done(page, "windows.db", "verified")
    expect(node.locator(".archive-counts")).to_have_text(
        "600 games: 600 verified, 0 mismatch, 0 cannot read"
    )


# --- a large run --------------------------------------------------------------------------


#: Games in the large database: enough that the run is still going when the page is
#: checked (it is stopped early, so its size costs little time).
LARGE = 6_000


@pytest.fixture(scope="module")
def large_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = fixture_rows()
    rows = [(log_id(i), base[i % len(base)][1]) for i in range(LARGE)]
    return phoenix_db(tmp_path_factory.mktemp("large") / "large.db", rows)


def test_large_run_stays_responsive_and_stops_when_asked(
    fresh: Page, large_db: Path, shot: Any
) -> None:
    page = fresh
    watch_frames(page)
    choose(page, large_db)
    node = result(page, "large.db")
    expect(node).to_have_attribute("data-state", "running")
    expect(page.locator("#summary tbody tr")).to_have_count(
        100, timeout=WORK_MS
    )  # rows arrive as they go
    # a click is answered at once while Python works
    t0 = page.evaluate("() => performance.now()")
    page.get_by_label("Show").select_option("problems")
    expect(page.locator("#summary tbody tr")).to_have_count(0, timeout=2_000)
    page.get_by_label("Show").select_option("all")
    expect(page.locator("#summary tbody tr")).to_have_count(100, timeout=2_000)
    assert page.evaluate("() => performance.now()") - t0 < 2_000
    progress = node.locator(".archive-progress progress")
    done_before = int(progress.get_attribute("value") or 0)
    assert 0 < done_before < LARGE, "the run finished before the page could be checked"
    shot("archive-running", page)
    node.get_by_role("button", name="Stop").click()
    expect(node).to_have_attribute(
        "data-verdict", "error", timeout=WORK_MS
    )  # stopped: not all verified
    expect(node.locator(".archive-problem")).to_contain_text("Stopped after")
    expect(node.get_by_role("button", name="Stop")).to_be_hidden()
    counts = node.locator(".archive-counts").text_content() or ""
    games = int(re.match(r"([\d,]+) games", counts).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert done_before <= games < LARGE
    assert f"{games} verified" in counts.replace(",", "")
    gaps = frame_gaps(page)
    assert len(gaps) > 10
    assert max(gaps) < 1_000, f"longest frame gap {max(gaps):.0f} ms"
    # the worker is free again: another file is verified at once
    choose(page, ROOT / "tests" / "data" / "tenhou" / "dnovikoff" / "example.xml")
    expect(result(page, "example.xml")).to_have_attribute(
        "data-verdict", "verified", timeout=READY_MS
    )
