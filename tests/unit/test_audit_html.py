"""The audit's HTML report (``pywall audit --html FILE``; ``audit_html``) on real logs, and
the words every draw line carries: what it counts, the fair 95% range, a plain reading."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pywall.analysis.stats import fair_range, reading
from pywall.audits.words import EN, WORDS
from pywall.cli import main
from tests.helpers import TENHOU


@pytest.mark.parametrize(
    ("p", "each", "word"),
    [
        (0.5, 0.001 / 6, "usual"),
        (0.05, 0.001 / 6, "usual"),
        (0.049, 0.001 / 6, "unusual"),
        (0.001 / 6, 0.001 / 6, "unusual"),
        (0.0001, 0.001 / 6, "very_unusual"),
        (None, 0.001, "usual"),
    ],
    ids=["half", "at-0.05", "below-0.05", "at-threshold", "below-threshold", "no-test"],
)
def test_reading_splits_as_the_verdict_splits(p: float | None, each: float, word: str) -> None:
    assert reading(p, each) == word


def test_fair_range_is_mean_plus_minus_1_96_sd_within_the_draws() -> None:
    assert fair_range(38.0, 25.0, 123) == (28, 48)  # the example: sd 5
    assert fair_range(1.0, 0.9, 20) == (0, 3)  # never below 0
    assert fair_range(9.8, 0.2, 10) == (9, 10)  # never above n


@pytest.fixture(scope="module")
def cli_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("html")
    pages = {}
    for lang in ("en", "ja", "zh"):
        page = out / f"audit-{lang}.html"
        assert main(["audit", "--html", str(page), "--lang", lang, str(TENHOU)]) == 0
        pages[lang] = page.read_text(encoding="utf-8")
    assert main(["audit", "--json", "--html", str(out / "j.html"), str(TENHOU)]) == 0
    return {"pages": pages}


def test_the_report_is_self_contained(
    cli_report: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    pages = cli_report["pages"]
    assert isinstance(pages, dict)
    for lang, page in pages.items():
        assert page.startswith("<!doctype html>") and f"<html lang='{lang}'>" in page
        lower = page.lower()
        assert "<script" not in lower and not re.search(r"<[^>]+\son\w+\s*=", lower)
        assert not re.search(r"""(src|href)\s*=\s*['"]?https?:""", lower)  # loads nothing
        assert "<svg" in page and "</html>" in page


def test_the_report_says_what_the_json_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "a.html"
    assert main(["audit", "--json", "--html", str(page), str(TENHOU)]) == 0
    doc = json.loads(capsys.readouterr().out)
    html = page.read_text(encoding="utf-8")
    eff = doc["overall"]["draws"]["effective"]
    line = (
        f"Effective draws (a tile that brings the hand closer to ready): {eff['observed']:,} of "
        f"{eff['n']:,} — a fair shuffle gives {round(eff['expected']):,} on average, usually "
        f"between {eff['low']:,} and {eff['high']:,}:"
    )
    assert line in html
    assert f"{doc['games']['used']} verified games" in html
    for path in doc["games"]["excluded"]:
        assert path["kind"] == "duplicate"
    # each counted game is listed; the chart of everyone's draws is drawn
    assert html.count("<li>") >= doc["games"]["used"]
    assert "All players together: effective draws above or below fair" in html


def test_ja_and_zh_reports_carry_no_english_sentence(cli_report: dict[str, object]) -> None:
    pages = cli_report["pages"]
    assert isinstance(pages, dict)
    english = [v.split("{")[0] for k, v in EN.items() if len(v.split("{")[0]) > 12]
    for lang in ("ja", "zh"):
        for text in english:
            assert text not in pages[lang], (lang, text)
        assert set(WORDS[lang]) == set(EN) - {k for k in EN if k.endswith(".one")}


def test_an_unwritable_report_is_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = tmp_path / "no" / "such" / "dir" / "a.html"
    assert main(["audit", "--html", str(where), str(TENHOU)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pywall: cannot write") and "Traceback" not in err


def test_within_chance_is_never_worded_better_or_more(cli_report: dict[str, object]) -> None:
    """A hand test within chance reads "close to fair", never a direction: on the fixtures
    every group's is usual but for a flagged one-hand player (shown in full, since a flag
    is never folded away), whose dora lean beyond chance is named."""
    pages = cli_report["pages"]
    assert isinstance(pages, dict)
    lines = re.findall(r"<li>(.*?)</li>", pages["en"])
    close = [line for line in lines if "close to fair" in line]
    assert close and all("class='usual'" in line for line in close)
    directions = (
        "better hands than fair",
        "worse hands than fair",
        "more than fair",
        "fewer than fair",
    )
    leaning = [line for line in lines if any(word in line for word in directions)]
    assert all("class='usual'" not in line for line in leaning)


def test_a_lean_beyond_chance_is_named() -> None:
    """200 dealt hands of one tenpai shape: far better than fair, very unusual, flagged."""
    from pywall.audits.html import audit_html
    from pywall.audits.tally import StartingHand
    from pywall.audits.verdicts import AuditResult, audit_group

    counts = [0] * 34
    for kind in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 31):
        counts[kind] += 1
    group = audit_group("all players", [StartingHand("a", False, tuple(counts))] * 200)
    html = audit_html(AuditResult(group, ()), "en")
    assert "better hands than fair" in html and "close to fair" not in html
    assert "very unusual" in html and "Unlikely under a fair shuffle" in html


@pytest.mark.parametrize(
    ("top", "whole", "ticks"),
    [(2, True, [0, 1, 2]), (5, True, [0, 1, 2, 3, 4, 5]), (57, True, [0, 10, 20, 30, 40, 50, 60])],
    ids=["two-games", "five-games", "57-games"],
)
def test_game_ticks_are_whole_games(top: int, whole: bool, ticks: list[int]) -> None:
    from pywall.audits.html import nice_ticks

    assert nice_ticks(top, 6, whole) == ticks


def test_a_one_game_audit_is_headlined_too_few(tmp_path: Path) -> None:
    """One game: the headline says too few to tell, not a large green tick."""
    game = min(TENHOU.rglob("*.xml"))
    for lang in ("en", "ja", "zh"):
        page = tmp_path / f"one-{lang}.html"
        assert main(["audit", "--html", str(page), "--lang", lang, str(game)]) == 0
        html = page.read_text(encoding="utf-8")
        assert f"<p class='headline few'>⚠ {WORDS[lang]['too_few']}</p>" in html
        assert "class='headline ok'" not in html and "class='headline bad'" not in html


def test_p_values_read_as_relations() -> None:
    """ "p < 1e-6", never "p = < 1e-6", in the lines, the verdict and the wall chart."""
    from dataclasses import replace

    from pywall.analysis.walls import WallTest
    from pywall.audits.draw_wall_tests import WallAudit
    from pywall.audits.html import audit_html
    from pywall.audits.tally import StartingHand
    from pywall.audits.verdicts import AuditResult, audit_group

    counts = [0] * 34
    for kind in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 31):
        counts[kind] += 1
    group = audit_group("all players", [StartingHand("a", False, tuple(counts))] * 400)
    walls = WallAudit(300, 300, (WallTest("positions", 900.0, 500, 1e-12),))
    html = audit_html(AuditResult(replace(group, walls=walls), ()), "en")
    assert "p = &lt;" not in html and "p = <" not in html
    assert "p &lt; 1e-6</text>" in html  # the wall test's bar
    assert ", p &lt; 1e-6)</span>" in html  # the mean shanten line
    assert "the smallest p &lt; 1e-6" in html  # the verdict


def test_the_files_left_out_are_counted_by_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "N files were left out: 2 repeats of a game already counted", in each language."""
    page = tmp_path / "a.html"
    assert main(["audit", "--json", "--html", str(page), str(TENHOU)]) == 0
    left = json.loads(capsys.readouterr().out)["games"]["left_out"]
    assert set(left) == {"duplicate"} and left["duplicate"] > 1
    html = page.read_text(encoding="utf-8")
    n = left["duplicate"]
    assert f"{n} files were left out: {n} repeats of a game already counted." in html
    for lang, words in (("ja", f"集計済みの対局の重複 {n}"), ("zh", f"与已计入对局重复 {n} 个")):
        assert main(["audit", "--html", str(page), "--lang", lang, str(TENHOU)]) == 0
        assert words in page.read_text(encoding="utf-8")


SCRIPT = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def hostile_records(platform: bool) -> list[dict[str, object]]:
    """Real games' records (as the page's workers send them) whose players' names and paths
    (and, with ``platform``, platform) carry markup."""
    from pywall.results.check import check_entry
    from tests.helpers import fixture_paths

    out = []
    for i, p in enumerate(fixture_paths()[:12]):
        d = check_entry(str(p), p.read_bytes(), starting=True).record.to_dict()
        if platform:
            d["platform"] = SCRIPT
        d["names"] = [SCRIPT + str(k) for k in range(len(d["names"]))]
        d["path"] = f"{SCRIPT}/{i}.xml"
        out.append(d)
    return out


def assert_inert(page: str) -> None:
    """No markup of the games' text: escaped, never an element, an attribute or a script."""
    lower = page.lower()
    assert "<script" not in lower and "<img" not in lower
    assert not re.search(r"<[^>]+\son\w+\s*=", lower)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_every_field_of_the_games_is_escaped_whatever_its_source() -> None:
    """Records with markup in their platform, players and paths (typed, past any reader's
    checks) give a report where it is text, the chosen player first; the report's policy
    runs no script and loads nothing."""
    from pywall.audits.html import audit_html, games_of
    from pywall.audits.records import GameRecord
    from pywall.audits.tally import AuditTally
    from pywall.audits.verdicts import audit_result

    tally = AuditTally()
    for d in hostile_records(platform=True):  # typed as the CLI's run holds them: any text
        record = GameRecord.from_dict({**d, "platform": "tenhou"})
        tally.add(replace(record, platform=str(d["platform"])))
    tally.settle()
    result = audit_result(tally)
    page = audit_html(result, "en", games_of(tally), result.players[0].label)
    assert_inert(page)


def test_the_report_says_it_runs_no_script_and_loads_nothing(
    cli_report: dict[str, object],
) -> None:
    """A Content-Security-Policy first in its head: no source for anything (so no script,
    no image, no font, no frame), inline style only."""
    from pywall.audits.html import CSP

    assert "default-src 'none'" in CSP and "script-src" not in CSP
    assert "style-src 'unsafe-inline'" in CSP and "http" not in CSP
    pages = cli_report["pages"]
    assert isinstance(pages, dict)
    for page in pages.values():
        head = page.split("<style>", 1)[0]
        assert f'<meta http-equiv="Content-Security-Policy" content="{CSP}">' in head


def test_the_pages_export_escapes_records_from_its_workers() -> None:
    """The page's "Export audit" (``audit_export``) of a shared run whose records carry markup."""
    from pywall.page import api

    worker = api.Api()

    def call(kind: str, **payload: object) -> dict[str, object]:
        reply = json.loads(api.handle(kind, json.dumps(payload), None, worker))
        assert "error" not in reply, reply
        return dict(reply)

    records = hostile_records(platform=False)
    assert call("tally_add", run="r", start=0, records=records)["added"] == len(records)
    refused = json.loads(
        api.handle(
            "tally_add",
            json.dumps({"run": "q", "start": 0, "records": hostile_records(platform=True)}),
            None,
            worker,
        )
    )
    assert refused["error"]["code"] == "bad_value"  # a platform is one pywall knows
    reply = call("audit_export", reports=[], runs=["r"], tallies=[], player=SCRIPT + "0")
    html = reply["html"]
    assert isinstance(html, str)
    assert_inert(html)
    assert "Content-Security-Policy" in html
