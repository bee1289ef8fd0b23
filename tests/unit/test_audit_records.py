"""The audit's record of a game is one thing whichever way it comes: made from the typed
report in this process (the CLI, an archive run) or read back from the JSON the page
carries (a whole report, or the record's own JSON, ``GameRecord.to_dict``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pywall.audits.records import GameRecord, Why, record_of
from pywall.audits.tally import AuditTally
from pywall.core.errors import ValueInputError
from pywall.page.audit_reports import read_record
from pywall.results.check import report_for_entry
from pywall.results.report import FileReport
from tests.helpers import DATA, fixture_paths, log_text

RECORDS = [
    *fixture_paths(),
    *sorted((DATA / "majsoul").glob("*.json")),
    *sorted((DATA / "riichicity").glob("*.json")),
]


def report(path: Path) -> FileReport:
    return report_for_entry(path.name, path.read_bytes(), starting=True)


def altered(path: Path) -> FileReport:
    """A mismatched report: the first round's first draw is not the wall's."""
    text = re.sub(r"<T(\d+)/>", lambda m: f"<T{(int(m[1]) + 4) % 136}/>", log_text(path), 1)
    return report_for_entry(path.name, text.encode(), starting=True)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_typed_record_is_the_record_read_back_from_json(path: Path) -> None:
    found = report(path)
    typed = record_of(found)
    as_json = json.loads(json.dumps(found.to_dict()))
    assert read_record(as_json) == typed
    assert GameRecord.from_dict(json.loads(json.dumps(typed.to_dict()))) == typed


def test_a_mismatch_and_a_repeat_are_excluded_alike_either_way() -> None:
    path = fixture_paths()[0]
    reports = [report(path), report(path), altered(path), report_for_entry("x.xml", b"junk")]
    assert reports[2].status == "mismatch" and reports[3].status == "error"
    typed, read = AuditTally(), AuditTally()
    for r in reports:
        typed.add(record_of(r))
        read.add(GameRecord.from_dict(json.loads(json.dumps(record_of(r).to_dict()))))
    assert typed.to_dict() == read.to_dict()
    assert [e.kind for e in typed.excluded] == ["mismatch", "error", "duplicate"]
    assert typed.excluded[0].reason_data  # the first error's context, as the page words it


def test_a_whole_corpus_tallies_the_same_either_way() -> None:
    typed, read = AuditTally(), AuditTally()
    for path in RECORDS:
        found = report(path)
        typed.add(record_of(found))
        read.add(read_record(json.loads(json.dumps(found.to_dict()))))
    assert typed.games > 40 and typed.draws > 10_000
    assert typed.to_dict() == read.to_dict()


def test_an_object_that_is_no_record_counts_as_an_unreadable_game() -> None:
    """What the page hands back that is no record (``{}``) is left out as unreadable, as
    it was when the page sent reports' JSON."""
    unreadable: Why = ("unreadable", "unreadable", "unreadable", {})
    assert GameRecord.from_dict({}) == GameRecord("?", unreadable)
    assert GameRecord.from_dict({"path": "a.xml", "status": "verified"}).problem == unreadable


@pytest.mark.parametrize(
    "problem",
    ["mismatch", ["duplicate", "r", "duplicate", {}], ["error", "r", 3, {}], ["error", "r", "e"]],
    ids=["text", "kind-the-tally-makes", "code-number", "three-items"],
)
def test_a_records_problem_of_the_wrong_shape_is_a_clear_error(problem: object) -> None:
    from pywall.core.errors import ValueInputError

    with pytest.raises(ValueInputError, match="page.xml: not an audit record's problem"):
        GameRecord.from_dict({"path": "page.xml", "problem": problem})


def test_a_shared_run_sends_each_games_record(tmp_path: Path) -> None:
    """What an archive run gives the page is each game's GameCheck record, as JSON."""
    import zipfile

    from pywall.inputs.sources import ArchiveSource
    from pywall.page.runs import ArchiveRun

    paths = fixture_paths()[:2]
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i, path in enumerate(paths):
            zf.writestr(f"{i}.xml", log_text(path))
        zf.writestr("junk.txt", "hello")
    run = ArchiveRun(ArchiveSource(archive, "x.zip"), records=True)
    try:
        sent = run.next_chunk(10)["records"]
    finally:
        run.close()
    assert [r["path"] for r in sent] == ["x.zip/0.xml", "x.zip/1.xml", "x.zip/junk.txt"]
    assert sent[2]["problem"][0] == "error" and sent[0]["starting"]
    with zipfile.ZipFile(archive) as zf:
        expected = [
            record_of(report_for_entry(r["path"], zf.read(r["path"][6:]), starting=True))
            for r in sent
        ]
    assert sent == [e.to_dict() for e in expected]


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_draw_sums_that_are_no_finite_numbers_are_a_clear_error(bad: str) -> None:
    """A report whose draws carry NaN or an infinity (JSON as Python reads it) is refused
    with a message, before any count: the audit's exact sums take finite numbers only."""
    path = DATA / "tenhou" / "dnovikoff" / "example.xml"
    report = report_for_entry("a.xml", path.read_bytes(), starting=True).to_dict()
    first = report["draws"]["seats"][0]
    report["draws"]["seats"][0] = [first[0], first[1], [first[2][0], first[2][1], 0.5, 0.25]]
    report["draws"]["seats"][0] += first[3:]
    assert read_record(json.loads(json.dumps(report))).draws is not None  # finite: read
    text = json.dumps(report).replace("0.5, 0.25]", f"{bad}, 0.25]", 1)
    assert bad in text
    with pytest.raises(ValueInputError, match="not a game's draws"):
        read_record(json.loads(text))


def _with(d: dict[str, object], change: str) -> dict[str, object]:
    """A verified game's record JSON with one field made impossible (issue 43's crafted parts)."""
    out: dict[str, object] = json.loads(json.dumps(d))
    seats: list[list[object]] = out["draws"]["seats"]  # type: ignore[index]
    effective: list[object] = seats[0][2]  # type: ignore[assignment]
    walls: list[list[str]] = out["walls"]["rounds"]  # type: ignore[index]
    if change == "negative-count":
        effective[1] = -5
    elif change == "hits-above-draws":
        effective[1] = int(effective[0]) + 1  # type: ignore[call-overload]
    elif change == "huge-n":
        effective[0] = 10**310
    elif change == "sums-near-1e308":
        effective[2] = effective[3] = 1.7e308
    elif change == "expected-above-draws":
        effective[2] = float(effective[0]) + 1  # type: ignore[arg-type]
    elif change == "long-wall":
        walls[0][1] = walls[0][1] * 74  # 10,064 symbols
    elif change == "short-wall":
        walls[0][1] = walls[0][1][:108]  # a 3-player wall in a 4-player game
    elif change == "platform":
        out["platform"] = "<script>alert(1)</script>"
    elif change == "name-not-text":
        out["names"] = [1, 2, 3, 4]
    elif change == "name-huge":
        out["names"] = ["x" * 100_000, "a", "b", "c"]
    elif change == "path-huge":
        out["path"] = "p" * 100_000
    return out


CHANGES = [
    "negative-count",
    "hits-above-draws",
    "huge-n",
    "sums-near-1e308",
    "expected-above-draws",
    "long-wall",
    "short-wall",
    "platform",
    "name-not-text",
    "name-huge",
    "path-huge",
]


@pytest.mark.parametrize("change", CHANGES)
def test_every_field_of_a_record_read_back_is_checked(change: str) -> None:
    """A record the page hands back (``tally_add``) with a count, a sum, a wall, a platform
    or a text out of its range is refused in words before anything is counted (it was
    counted: a negative count, hits above draws, walls of any size; sums near 1e308 gave an
    OverflowError)."""
    from pywall.page import api

    path = DATA / "tenhou" / "dnovikoff" / "example.xml"
    honest = record_of(report(path)).to_dict()
    assert GameRecord.from_dict(json.loads(json.dumps(honest))).to_dict() == honest
    bad = _with(honest, change)
    with pytest.raises(ValueInputError) as exc:
        GameRecord.from_dict(bad)
    assert len(exc.value.message) < 600
    worker = api.Api()
    reply = json.loads(
        api.handle(
            "tally_add", json.dumps({"run": "r", "start": 0, "records": [bad]}), None, worker
        )
    )
    assert reply["error"]["code"] == "bad_value" and "record 1" in reply["error"]["message"]
