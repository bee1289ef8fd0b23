"""The page's archive requests through ``api.handle``: a run a chunk at a time, compact
rows, detail for the first games and mismatches only, one game again by its index,
the run's audit tally, and CSV of compact rows in the CLI's columns."""

from __future__ import annotations

import bz2
import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pywall.inputs import item_at
from pywall.inputs.sources import ArchiveSource
from pywall.page import api, runs
from pywall.results.check import check_log
from pywall.results.exports import CSV_COLUMNS, ROW_FIELDS, csv_text
from tests.unit.test_archives import corrupt_bz2, fixture_rows, phoenix_db, tampered_text

TAMPERED = "2019123123gm-00a9-0000-7a3e0000"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows = fixture_rows(copies=2)
    special = [
        ("2019123123gm-00a9-0000-bad0b220", corrupt_bz2(), 1, 0),
        ("2019123123gm-00a9-0000-e770e770", b"", 1, 1),
        (TAMPERED, bz2.compress(tampered_text().encode()), 1, 0),
    ]
    return phoenix_db(tmp_path_factory.mktemp("db") / "houou.db", rows[:60] + special + rows[60:])


def opener(path: str, label: str) -> ArchiveSource:
    """What the worker gives the API: the input layer the CLI uses, from any game on."""
    return ArchiveSource(Path(path), label)


WORKER = api.Api(opener)


def ask(kind: str, **payload: Any) -> Any:
    return json.loads(api.handle(kind, json.dumps(payload), None, WORKER))


def run_all(
    path: Path, label: str, limit: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    assert ask("archive_open", run="r", label=label, path=str(path))["total"] >= 1
    rows, details, calls = [], [], 0
    while True:
        out = ask("archive_next", run="r", limit=limit)
        calls += 1
        assert len(out["rows"]) <= limit
        rows += out["rows"]
        details += out["details"]
        if out["done"]:
            return rows, details, calls


def test_rows_in_order_with_their_verdicts(db: Path) -> None:
    rows, _, calls = run_all(db, "houou.db", 50)
    assert len(rows) == 110 + 2 and calls == 3
    assert [r["i"] for r in rows] == list(range(len(rows)))
    assert set(rows[0]) == set(ROW_FIELDS)
    by_path = {r["path"]: r for r in rows}
    assert by_path["houou.db/2019123123gm-00a9-0000-bad0b220"]["status"] == "error"
    assert "bz2" in by_path["houou.db/2019123123gm-00a9-0000-bad0b220"]["first_problem"]
    assert "houou.db/2019123123gm-00a9-0000-e770e770" not in by_path  # was_error = 1: skipped
    bad = by_path[f"houou.db/{TAMPERED}"]
    assert (
        bad["status"] == "mismatch"
        and bad["errors"] == 1
        and "East 2, 1 honba" in bad["first_problem"]
    )
    assert sum(r["status"] == "verified" for r in rows) == 110


def test_detail_only_for_the_first_games_and_mismatches(db: Path) -> None:
    rows, details, _ = run_all(db, "houou.db", 7)
    kept = [d["i"] for d in details]
    mismatch = next(r["i"] for r in rows if r["status"] == "mismatch")
    assert kept == [*range(runs.DETAIL_FIRST), mismatch]
    assert all("wall" in r for d in details if d["status"] != "error" for r in d["rounds"])


def test_one_game_again_by_its_index(db: Path) -> None:
    rows, _, _ = run_all(db, "houou.db", 200)
    for row in (rows[0], next(r for r in rows if r["status"] != "verified"), rows[-1]):
        report = ask("archive_game", label="houou.db", path=str(db), index=row["i"])
        assert (report["path"], report["status"], report["checked"]) == (
            row["path"],
            row["status"],
            row["checked"],
        )
    tampered = next(r for r in rows if r["status"] == "mismatch")
    report = ask("archive_game", label="houou.db", path=str(db), index=tampered["i"])
    assert [r["index"] for r in report["rounds"] if r["result"] == "mismatch"] == [2]
    assert report["rounds"][2]["wall"]
    error = ask("archive_game", label="houou.db", path=str(db), index=len(rows))["error"]
    assert error["code"] == "bad_request" and "no game number" in error["message"]


def test_a_zip_and_a_file_that_is_not_phoenix_logs(tmp_path: Path) -> None:
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for lid, blob in fixture_rows()[:3]:
            zf.writestr(f"{lid}.xml", bz2.decompress(blob))
        zf.writestr("junk.txt", "hello")
    rows, details, _ = run_all(archive, "x.zip", 2)
    assert [r["status"] for r in rows] == ["verified"] * 3 + ["error"]
    assert len(details) == 4
    assert ask("archive_game", label="x.zip", path=str(archive), index=1)["path"] == rows[1]["path"]
    other = phoenix_db(tmp_path / "other.db", [], "CREATE TABLE games(id text)")
    rows, _, _ = run_all(other, "other.db", 50)
    assert len(rows) == 1 and rows[0]["path"] == "other.db" and "'logs'" in rows[0]["first_problem"]


def test_close_stops_and_closes_the_source(db: Path) -> None:
    source = ArchiveSource(db, "houou.db")
    run = runs.ArchiveRun(source)
    run.next_chunk(10)
    items = run._entries
    run.close()
    assert items is not None and list(items) == []
    assert list(source.entries(0)) == []  # its database is closed
    ask("archive_open", run="c", label="houou.db", path=str(db))
    assert ask("archive_close", run="c") == {"closed": True}
    assert ask("archive_next", run="c", limit=5)["error"]["code"] == "bad_request"


def test_the_run_tallies_its_verified_games_for_the_audit(db: Path) -> None:
    rows, _, _ = run_all(db, "houou.db", 64)
    assert len(rows) == 112
    tally = ask("tally", run="r")
    assert tally["games"] == 53  # the 53 distinct fixture games (55 files); copies are duplicates
    kinds = sorted({e[1] for e in tally["excluded"]})
    assert kinds == ["duplicate", "error", "mismatch"]
    audit = ask("audit", runs=["r"])
    assert audit["games"]["used"] == 53 and audit["games"]["hands"] > 1000


def test_csv_of_rows_matches_the_cli_columns(db: Path) -> None:
    rows, _, _ = run_all(db, "houou.db", 200)
    text = ask("csv", rows=rows)["csv"]
    got = list(csv.reader(io.StringIO(text)))
    assert tuple(got[0]) == CSV_COLUMNS and len(got) == len(rows) + 1
    reports = []
    for r in rows[:5]:
        content = item_at(db, r["i"], "houou.db")[1]
        assert isinstance(content, bytes)
        reports.append(check_log(r["path"], content))
    expected = list(csv.reader(io.StringIO(csv_text(reports))))
    assert got[1:6] == expected[1:]


# --- one archive shared by several workers, as the page's pool runs it -----------------


def shared_run(
    path: Path, label: str, workers: int, limit: int
) -> tuple[list[Any], list[Any], api.Api]:
    """The page's pool in miniature: the first worker surveys the file, every worker
    opens it with that survey, chunks go to the workers in turn and come back in any
    order; their audit records go to the first worker's tally in the archive's order."""
    pool = [api.Api(opener) for _ in range(workers)]

    def on(k: int, kind: str, **payload: Any) -> Any:
        return json.loads(api.handle(kind, json.dumps(payload), None, pool[k]))

    opened = on(0, "archive_open", run="s/0", label=label, path=str(path), records=True)
    for k in range(1, workers):
        on(
            k,
            "archive_open",
            run=f"s/{k}",
            label=label,
            path=str(path),
            records=True,
            survey=opened["survey"],
        )
    starts = list(range(0, opened["total"], limit))
    replies = {
        start: on(i % workers, "archive_next", run=f"s/{i % workers}", start=start, limit=limit)
        for i, start in reversed(list(enumerate(starts)))
    }  # answered last chunk first
    rows, details = [], []
    for start in starts:
        reply = replies[start]
        rows += reply["rows"]
        details += reply["details"]
        assert on(0, "tally_add", run="s", start=start, records=reply["records"])["added"] == len(
            rows
        )
    for k in range(workers):
        on(k, "archive_close", run=f"s/{k}")
    return rows, details, pool[0]


@pytest.fixture(scope="module")
def copies_alone(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A database of the fixtures three times over with a tampered game among them, and one
    worker's run of it: its rows, details, tally and audit (made once for the shared runs)."""
    rows = fixture_rows(copies=3)
    path = phoenix_db(
        tmp_path_factory.mktemp("copies") / "copies.db",
        rows[:70] + [(TAMPERED, bz2.compress(tampered_text().encode()))] + rows[70:],
    )
    alone, alone_details, _ = run_all(path, "copies.db", 40)
    return {
        "path": path,
        "rows": alone,
        "details": alone_details,
        "tally": ask("tally", run="r"),
        "audit": ask("audit", runs=["r"]),
    }


@pytest.mark.parametrize("workers,limit", [(2, 7), (3, 16), (4, 50)], ids=["2x7", "3x16", "4x50"])
def test_a_shared_run_gives_what_one_run_gives(
    copies_alone: dict[str, Any], workers: int, limit: int
) -> None:
    """Rows, details and the audit tally: the same as one worker's, even for a game
    whose copies were checked by different workers (it counts once, the first time)."""
    alone, alone_details = copies_alone["rows"], copies_alone["details"]
    shared, shared_details, first = shared_run(copies_alone["path"], "copies.db", workers, limit)
    assert shared == alone and len(shared) == 166
    assert [d["i"] for d in shared_details] == [d["i"] for d in alone_details]
    tally = json.loads(api.handle("tally", json.dumps({"run": "s"}), None, first))
    assert tally == copies_alone["tally"] and tally["games"] == 53
    audit = json.loads(api.handle("audit", json.dumps({"runs": ["s"]}), None, first))
    assert audit == copies_alone["audit"]
    assert json.loads(api.handle("archive_close", json.dumps({"run": "s"}), None, first)) == {
        "closed": True
    }
    assert json.loads(api.handle("tally", json.dumps({"run": "s"}), None, first))["games"] == 0


def test_a_shared_zip_gives_what_one_run_gives(tmp_path: Path) -> None:
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for lid, blob in fixture_rows(copies=2)[:70]:
            zf.writestr(f"{lid}.xml", bz2.decompress(blob))
        zf.writestr("junk.txt", "hello")
    alone, _, _ = run_all(archive, "x.zip", 9)
    shared, _, _ = shared_run(archive, "x.zip", 3, 5)
    assert shared == alone and shared[-1]["status"] == "error"


def test_records_are_tallied_only_in_the_archive_order() -> None:
    worker = api.Api(opener)
    out = json.loads(
        api.handle("tally_add", json.dumps({"run": "t", "start": 5, "records": []}), None, worker)
    )
    assert out["error"]["code"] == "bad_value" and "expected 1" in out["error"]["message"]
    assert json.loads(
        api.handle(
            "tally_add", json.dumps({"run": "t", "start": 0, "records": [{}, {}]}), None, worker
        )
    ) == {"added": 2}


def test_a_survey_that_is_not_one_is_refused(db: Path) -> None:
    bad: list[dict[str, object]] = [{"total": "x"}, {"total": 3, "marks": ["1"]}]
    bad += [{"total": 3, "marks": 7}, {"total": -1}, {"total": 3, "parallel": "yes"}]
    bad += [{"total": True}]
    for survey in bad:
        out = ask("archive_open", run="b", label="houou.db", path=str(db), survey=survey)
        assert out["error"]["code"] == "bad_request", survey


def test_a_survey_goes_from_worker_to_worker_as_the_page_passes_it(db: Path) -> None:
    """The page's JSON form of a survey is read at the driver into the typed ``Survey`` the
    input layer adopts, and written back in the same form: one round trip changes nothing."""
    from pywall.inputs.sources import ArchiveSource
    from pywall.page.api import survey_dict, survey_of

    source = ArchiveSource(db, "houou.db")
    made = source.survey()
    source.close()
    opened = ask("archive_open", run="s", label="houou.db", path=str(db))
    assert opened["survey"] == survey_dict(made) and survey_of(opened["survey"]) == made
    again = ask("archive_open", run="t", label="houou.db", path=str(db), survey=opened["survey"])
    assert again["survey"] == opened["survey"]


def test_a_tally_add_chunk_with_a_bad_record_changes_nothing_and_names_it() -> None:
    from pywall.audits.records import record_of
    from tests.helpers import fixture_paths

    good = [
        record_of(check_log(str(p), p.read_bytes(), starting=True)).to_dict()
        for p in fixture_paths()[:3]
    ]
    bad = {**good[1], "starting": [[9, 13, 0, 0]]}  # seat 9 of a 4-player game
    worker = api.Api(opener)

    def call(kind: str, **payload: Any) -> Any:
        return json.loads(api.handle(kind, json.dumps(payload), None, worker))

    out = call("tally_add", run="t", start=0, records=[good[0], bad, good[2]])
    assert out["error"]["code"] == "bad_value"
    assert out["error"]["message"].startswith("record 2 (game 2 of the chunk)")
    assert call("tally", run="t")["games"] == 0  # the good record before it was not added
    # the same chunk, mended, is then taken whole, and the next chunk follows it
    assert call("tally_add", run="t", start=0, records=good[:2]) == {"added": 2}
    assert call("tally_add", run="t", start=2, records=good[2:]) == {"added": 3}
    assert call("tally", run="t")["games"] == 3


def test_a_tally_add_chunk_over_what_the_audit_may_keep_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pywall.audits import tally as audit_tally
    from pywall.audits.records import record_of
    from tests.helpers import fixture_paths

    records = [
        record_of(check_log(str(p), p.read_bytes(), starting=True)).to_dict()
        for p in fixture_paths()[:6]
    ]
    worker = api.Api(opener)

    def call(kind: str, **payload: Any) -> Any:
        return json.loads(api.handle(kind, json.dumps(payload), None, worker))

    assert call("tally_add", run="t", start=0, records=records[:2]) == {"added": 2}
    before = call("tally", run="t")
    monkeypatch.setattr(audit_tally, "MAX_AUDIT_KEPT", 30_000)  # the 6 games keep more
    out = call("tally_add", run="t", start=2, records=records[2:])
    assert out["error"]["code"] == "bad_value" and "audit fewer games" in out["error"]["message"]
    assert call("tally", run="t") == before
    monkeypatch.undo()
    assert call("tally_add", run="t", start=2, records=records[2:]) == {"added": 6}


@pytest.mark.parametrize(
    "kind,payload",
    [
        ("archive_open", '{"run": "r", "label": "x.zip", "path": "/tmp/x\\u0000.zip"}'),
        ("archive_open", '{"run": "r", "label": "x\\ud800.zip", "path": "/tmp/x.zip"}'),
        ("archive_game", '{"index": 0, "label": "x.zip", "path": "\\u0000"}'),
        ("tally_add", '{"run": "r", "start": 0, "records": [{"path": "a\\u0000b"}]}'),
        ("audit", '{"reports": [{"path": "x", "game": {"players": ["\\udc80"]}}]}'),
        ("verify", '{"name": "a\\u0000.xml"}'),
        ("wall_svg", '{"names": ["\\ud83d"], "round": {}}'),
    ],
    ids=["open-nul", "open-surrogate", "game-nul", "tally-nul", "audit-surrogate", "verify", "svg"],
)
def test_impossible_text_in_any_field_is_a_bad_request(kind: str, payload: str) -> None:
    out = json.loads(api.handle(kind, payload, b"<mjloggm/>", api.Api(opener)))
    assert out["error"]["code"] == "bad_request", out
    assert "NUL" in out["error"]["message"] or "not Unicode" in out["error"]["message"]


def test_text_that_only_looks_like_an_escape_is_not_refused() -> None:
    # a name whose text is a backslash and "u0000", and a real pair (an emoji): both fine
    out = json.loads(api.handle("sniff", '{"name": "\\\\u0000 \\ud83d\\ude00"}', b"PK\x03\x04"))
    assert out == {"kind": "zip"}
