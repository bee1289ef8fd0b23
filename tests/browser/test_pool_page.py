"""The pool of Python workers, driven as a person would: a batch and an archive checked
by two workers give the CLI's verdicts in the CLI's order (the audit of the archive
too); Stop stops every worker; one log starts one worker; the pool size setting is
kept and honoured. Playwright's ``page.workers`` lists the page's real workers.

A page load costs seconds of CPU: the tests of a warmed pool of two share the module's
loaded page (``fresh``); the first worker's lazy start and the setting read at start-up
keep their loads."""

from __future__ import annotations

import bz2
import contextlib
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import cli_output
from tests.browser.test_archives_page import (
    all_rows,
    archive_done,
    assert_rows_match_cli,
    cli_verdicts,
)
from tests.browser.test_audit_page import cli_audit
from tests.browser.test_page import (
    FOUR_PLAYER,
    PLAIN,
    THREE_PLAYER,
    WORK_MS,
    choose,
    open_ready,
    result,
)
from tests.helpers import fixture_paths, log_text
from tests.unit.test_archives import corrupt_bz2, fixture_rows, log_id, phoenix_db, tampered_text
from tests.unit.test_audit_copies import REAL, cut, swapped

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TAMPERED = "2019123123gm-00a9-0000-7a3e0000"
BROKEN = "2019123123gm-00a9-0000-bad0b220"
#: Games in the pooled archives: archive-run.mjs's SPREAD_FROM (400), the fewest whose
#: chunks are spread over the pool (with 260, one worker checks them all).
POOLED = 400
LARGE = 6_000


@pytest.fixture(autouse=True)
def two_cores(request: pytest.FixtureRequest) -> None:
    """Asked of the page the test uses (a test on the shared page opens no page of its own)."""
    page = request.getfixturevalue("fresh" if "fresh" in request.fixturenames else "page")
    if page.evaluate("() => navigator.hardwareConcurrency") < 2:
        pytest.skip("a pool of two workers needs two cores")


def workers_now(page: Page) -> int:
    return len(page.workers)


def choose_pool(page: Page, size: str) -> None:
    page.get_by_label("Python workers").select_option(size)


def warm_pool(page: Page) -> None:
    """A pool of two, both ready (a first batch of two logs starts the second worker),
    so that the work that follows is shared from its start."""
    choose_pool(page, "2")
    choose(page, PLAIN, THREE_PLAYER)
    expect(page.locator("#results [data-verdict]")).to_have_count(2, timeout=WORK_MS)
    expect(page.locator("#status")).to_have_attribute("data-workers", "2", timeout=WORK_MS)
    page.get_by_role("button", name="Clear results").click()
    expect(page.locator("#results > *")).to_have_count(0)


def watch_the_end(page: Page, files: int) -> None:
    """Keep in ``window.tableAtTheEnd`` the summary table's statuses as they are when
    the last of ``files`` results is drawn (a MutationObserver's callback runs before
    any redraw the page leaves for later)."""
    page.evaluate(
        """files => {
        const results = document.getElementById("results");
        new MutationObserver((_, observer) => {
            if (results.querySelectorAll(":scope > [data-verdict]").length < files) return;
            observer.disconnect();
            window.tableAtTheEnd = [...document.querySelectorAll("#summary tbody tr")].map(tr => tr.dataset.status);
        }).observe(results, { childList: true, subtree: true });
    }""",
        files,
    )


def cli_jsonl(paths: list[Path]) -> list[dict[str, Any]]:
    _, out = cli_output("verify", "--jsonl", "--jobs", "1", *map(str, paths))
    lines = [json.loads(line) for line in out.splitlines()]
    assert "summary" in lines[-1]
    return lines[:-1]


# --- a batch and an archive with a pool of two ----------------------------------------------


def test_a_batch_with_a_pool_of_two_gives_the_cli_verdicts_in_order(
    fresh: Page, tmp_path: Path, shot: Any
) -> None:
    tampered = tmp_path / "tampered.xml"
    tampered.write_text(tampered_text(), encoding="utf-8")
    junk = tmp_path / "notes.txt"
    junk.write_text("not a log", encoding="utf-8")
    paths = [*fixture_paths()[:26], tampered, *fixture_paths()[26:], junk]
    cli = cli_jsonl(paths)
    assert [r["status"] for r in cli].count("verified") == 55
    page = fresh
    warm_pool(page)
    watch_the_end(page, len(paths))
    choose(page, *paths)
    expect(page.locator("#results [data-verdict]")).to_have_count(len(paths), timeout=WORK_MS)
    # the moment the last result is drawn, the table says every file's verdict (not a
    # table left "Waiting" for its next redraw)
    assert page.evaluate("() => window.tableAtTheEnd") == [r["status"] for r in cli]
    # each file's result in its place, in the order the files were given
    shown = page.locator("#results > [data-file]").evaluate_all(
        "ns => ns.map(n => [n.dataset.file, n.dataset.verdict])"
    )
    assert shown == [[p.name, r["status"]] for p, r in zip(paths, cli, strict=True)]
    assert_rows_match_cli(all_rows(page), {p.name: r for p, r in zip(paths, cli, strict=True)})
    # both workers verified logs of it, and say so
    expect(page.locator("#batch-summary")).to_have_attribute("data-workers", "2")
    expect(page.locator("#batch-summary")).to_contain_text("2 workers")
    assert workers_now(page) == 2
    shot("pool-batch", page)


def pooled_db(path: Path) -> Path:
    """POOLED games: the fixtures again and again (copies of one game fall to different
    workers), a corrupt row, a row phoenix-logs did not download, a tampered game."""
    base = fixture_rows()
    rows = [(log_id(i), base[i % len(base)][1]) for i in range(POOLED - 2)]
    special = [
        (BROKEN, corrupt_bz2(), 1, 0),
        ("2019123123gm-00a9-0000-e770e770", b"", 1, 1),
        (TAMPERED, bz2.compress(tampered_text().encode()), 1, 0),
    ]
    return phoenix_db(path, rows[:200] + special + rows[200:])


def pooled_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for i, (lid, blob) in enumerate(fixture_rows(copies=10)[: POOLED - 1]):
            zf.writestr(f"games/{lid}.xml", bz2.decompress(blob))
            if i == 200:
                zf.writestr("games/tampered.xml", tampered_text())
    return path


@pytest.mark.parametrize(
    "make,name,verdict",
    [(pooled_db, "pooled.db", "mismatch"), (pooled_zip, "pooled.zip", "mismatch")],
    ids=["database", "zip"],
)
def test_an_archive_with_a_pool_of_two_gives_the_cli_verdicts_and_audit(
    fresh: Page, tmp_path: Path, make: Any, name: str, verdict: str, shot: Any
) -> None:
    archive = make(tmp_path / name)
    cli = cli_verdicts(archive)
    assert len(cli) == POOLED
    audit = cli_audit(archive)
    page = fresh
    warm_pool(page)
    choose(page, archive)
    node = archive_done(page, name, verdict)
    counts = {
        s: sum(r["status"] == s for r in cli.values()) for s in ("verified", "mismatch", "error")
    }
    expect(node.locator(".archive-counts")).to_have_text(
        f"{POOLED} games: {counts['verified']} verified, {counts['mismatch']} mismatch, {counts['error']} cannot read"
    )
    # both workers checked chunks of it
    expect(node).to_have_attribute("data-workers", "2")
    expect(node.locator(".archive-progress-text")).to_contain_text("2 workers")
    assert_rows_match_cli(all_rows(page), cli)
    # the audit counts each game once, the first time, though its copies went to both workers
    page.locator("button[data-action=audit]").click()
    summary = page.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", str(audit["games"]["used"]), timeout=WORK_MS)
    expect(summary).to_have_attribute("data-hands", str(audit["games"]["hands"]))
    excluded = page.locator("#audit-out details.excluded summary")
    expect(excluded).to_contain_text(str(len(audit["games"]["excluded"])))
    shot(f"pool-{name}", page)


def copies_zip(path: Path) -> Path:
    """POOLED games, among them a game whose copy cut short is hundreds of games later
    (another worker's chunk: a repeat) and one whose copy with two names swapped is
    (a conflict): the first worker's tally reads the first copies again from the File."""
    real, other = log_text(REAL), log_text(REAL.parent / "ratio.xml")
    extra = {
        10: ("games/real.xml", real),
        150: ("games/other.xml", other),
        250: ("games/other-forged.xml", swapped(other)),
        390: ("games/real-cut.xml", cut(real)),
    }
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for i, (lid, blob) in enumerate(fixture_rows(copies=10)[: POOLED - len(extra)]):
            if i in extra:
                zf.writestr(*extra[i])
            zf.writestr(f"games/{lid}.xml", bz2.decompress(blob))
    return path


def test_a_shared_run_with_copies_read_again_exports_the_clis_audit_json(
    fresh: Page, tmp_path: Path
) -> None:
    archive = copies_zip(tmp_path / "copies.zip")
    with contextlib.chdir(tmp_path):
        code, printed = cli_output("audit", "--json", archive.name)
    assert code == 0
    excluded = json.loads(printed)["games"]["excluded"]
    kinds = {e["path"]: e["kind"] for e in excluded}
    assert kinds["copies.zip/games/real-cut.xml"] == "duplicate"
    conflict = [e["reason"] for e in excluded if e["kind"] == "conflict"]
    assert len(conflict) == 1 and "copies.zip/games/other-forged.xml" in conflict[0]
    page = fresh
    warm_pool(page)
    choose(page, archive)
    node = archive_done(page, "copies.zip", "verified")
    expect(node).to_have_attribute("data-workers", "2")
    page.locator("button[data-action=audit]").click()
    summary = page.locator("#audit-out .audit-summary")
    expect(summary).to_have_attribute("data-games", re.compile("."), timeout=WORK_MS)
    with page.expect_download() as got:
        page.locator("#audit-out button[data-action=export-audit]").click()
    assert Path(got.value.path()).read_text(encoding="utf-8") == printed


# --- Stop ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def large_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = fixture_rows()
    return phoenix_db(
        tmp_path_factory.mktemp("large") / "large.db",
        [(log_id(i), base[i % len(base)][1]) for i in range(LARGE)],
    )


def test_stop_stops_every_worker(fresh: Page, large_db: Path, shot: Any) -> None:
    page = fresh
    warm_pool(page)
    choose(page, large_db)
    node = result(page, "large.db")
    expect(node).to_have_attribute("data-workers", "2", timeout=WORK_MS)  # both are checking chunks
    # the page answers while both work
    page.get_by_label("Show").select_option("problems")
    expect(page.locator("#summary tbody tr")).to_have_count(0)
    page.get_by_label("Show").select_option("all")
    expect(page.locator("#summary tbody tr")).to_have_count(100, timeout=WORK_MS)
    node.get_by_role("button", name="Stop").click()
    expect(node).to_have_attribute(
        "data-verdict", "error", timeout=WORK_MS
    )  # stopped: not all verified
    expect(node.locator(".archive-problem")).to_contain_text("Stopped after")
    expect(page.locator("#status")).to_have_attribute(
        "data-busy", "0"
    )  # no worker has work in hand
    counts = node.locator(".archive-counts").text_content() or ""
    games = int(re.match(r"([\d,]+) games", counts).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert 0 < games < LARGE
    done = node.locator(".archive-progress progress").get_attribute("value")
    shot("pool-stopped", page)
    # both workers answer the next batch at once, so neither has archive work queued;
    # and nothing of the archive arrived meanwhile
    choose(page, PLAIN, FOUR_PLAYER, THREE_PLAYER)
    for log in (PLAIN, FOUR_PLAYER, THREE_PLAYER):
        expect(result(page, log.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
    expect(page.locator("#batch-summary")).to_have_attribute("data-workers", "2")
    expect(node.locator(".archive-counts")).to_have_text(counts)
    assert node.locator(".archive-progress progress").get_attribute("value") == done
    expect(page.locator("#batch-summary")).to_contain_text(f"{games + 3:,} logs:")


# --- lazily started, and the setting ----------------------------------------------------------


def test_a_single_log_starts_only_one_worker(page: Page) -> None:
    open_ready(page)
    choose_pool(page, "2")
    choose(page, FOUR_PLAYER)
    expect(result(page, FOUR_PLAYER.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    page.locator("#paste").fill(PLAIN.read_text(encoding="utf-8"))
    page.get_by_role("button", name="Verify pasted text").click()
    expect(result(page, "pasted-1.xml")).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    assert workers_now(page) == 1
    expect(page.locator("#status")).to_have_attribute("data-workers", "1")
    # two logs at once are a batch: the second worker starts
    choose(page, PLAIN, THREE_PLAYER)
    expect(page.locator("#results [data-verdict]")).to_have_count(4, timeout=WORK_MS)
    expect(page.locator("#status")).to_have_attribute("data-workers", "2", timeout=WORK_MS)
    assert workers_now(page) == 2


def test_the_pool_size_setting_is_kept_and_honoured(page: Page) -> None:
    open_ready(page)
    setting = page.get_by_label("Python workers")
    expect(setting).to_have_value("")  # automatic: one core left for the page
    cores = int(page.evaluate("() => navigator.hardwareConcurrency"))
    auto = max(1, min(8, cores - 1))
    expect(setting.locator("option").first).to_have_text(f"Automatic ({auto})")
    expect(setting.locator("option")).to_have_count(1 + min(8, cores))
    expect(page.locator("#workers-hint")).to_contain_text(f"{cores} cores")
    three = [PLAIN, THREE_PLAYER, FOUR_PLAYER]
    for size in ("1", "2"):
        choose_pool(page, size)
        page.reload()
        expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=WORK_MS)
        expect(setting).to_have_value(size)  # kept
        assert page.evaluate("() => localStorage.getItem('pywall.workers')") == size
        choose(page, *three)
        expect(page.locator("#results [data-verdict]")).to_have_count(3, timeout=WORK_MS)
        expect(page.locator("#status")).to_have_attribute("data-workers", size, timeout=WORK_MS)
        assert workers_now(page) == int(size)  # honoured: never more
    # a smaller choice lets the idle second worker go
    second = page.workers[1]
    with second.expect_event("close"):
        choose_pool(page, "1")
    expect(page.locator("#status")).to_have_attribute("data-workers", "1")
    assert workers_now(page) == 1
    choose_pool(page, "")
    assert page.evaluate("() => localStorage.getItem('pywall.workers')") is None
    for lang, label, words in (
        ("ja", "Python ワーカー数", "自動"),
        ("zh", "Python 工作线程数", "自动"),
    ):
        page.select_option("#lang", lang)
        expect(page.get_by_label(label)).to_have_value("")
        expect(page.locator("#workers option").first).to_contain_text(words)
    page.select_option("#lang", "en")
