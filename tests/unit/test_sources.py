"""One file read from any of its games on (``pywall.inputs.sources``): from every start,
a database, a zip or a log gives exactly the entries ``items_from_file`` gives from
there, with its own survey or with another worker's."""

from __future__ import annotations

import bz2
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pywall.core.errors import PywallError
from pywall.inputs import count_file, items_from_file
from pywall.inputs.databases import MARK_EVERY
from pywall.inputs.sources import ArchiveSource, Survey
from tests.unit.test_archives import LOG, corrupt_bz2, fixture_rows, phoenix_db, tampered_text

SPECIAL = [
    ("2019123123gm-00a9-0000-bad0b220", corrupt_bz2(), 1, 0),
    ("2019123123gm-00a9-0000-e770e770", b"", 1, 1),  # not downloaded: skipped
    ("2019123123gm-00a9-0000-00000000", b"", 0, 0),
    ("2019123123gm-00a9-0000-7a3e0000", bz2.compress(tampered_text().encode()), 1, 0),
]


def plain(entries: Any) -> list[tuple[str, Any]]:
    """Entries comparable with ==: an error as its class and message."""
    return [
        (name, (type(c).__name__, str(c)) if isinstance(c, PywallError) else c)
        for name, c in entries
    ]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows = fixture_rows()  # 55 games: more than three seek marks
    return phoenix_db(tmp_path_factory.mktemp("db") / "houou.db", rows[:20] + SPECIAL + rows[20:])


@pytest.fixture(scope="module")
def logs_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("zip") / "logs.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for lid, blob in fixture_rows()[:6]:
            zf.writestr(f"games/{lid}.xml", bz2.decompress(blob))
        zf.writestr("games/", "")  # a folder: not a game
        zf.writestr("readme.txt", "not a log")
    return path


def everything(path: Path, label: str) -> list[tuple[str, Any]]:
    return plain(items_from_file(path, label=label))


@pytest.mark.parametrize("which", ["db", "logs_zip"], ids=["database", "zip"])
def test_every_start_gives_the_rest_of_what_items_from_file_gives(
    which: str, request: pytest.FixtureRequest
) -> None:
    path: Path = request.getfixturevalue(which)
    want = everything(path, path.name)
    source = ArchiveSource(path, path.name)
    survey = source.survey()
    assert survey.total == count_file(path) == len(want) and survey.parallel
    for start in range(len(want) + 2):
        assert plain(source.entries(start)) == want[start:], start
    source.close()


def test_a_database_survey_marks_every_sixteenth_game_and_another_worker_adopts_it(
    db: Path,
) -> None:
    want = everything(db, "houou.db")
    first = ArchiveSource(db, "houou.db")
    survey = first.survey()
    assert survey.marks is not None and len(survey.marks) == -(-len(want) // MARK_EVERY)
    other = ArchiveSource(db, "houou.db")
    other.adopt(survey)
    for start in (0, 1, MARK_EVERY - 1, MARK_EVERY, 2 * MARK_EVERY + 5, len(want) - 1):
        assert plain(other.entries(start)) == want[start:], start
    assert plain(other.entries(len(want))) == []
    first.close()
    other.close()


@pytest.mark.parametrize(
    "schema",
    [
        (
            "CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_processed int, was_error int, "
            "log_content text, log_hash text) WITHOUT ROWID"
        ),
        (
            "CREATE TABLE logs(rowid text, log_id text, is_tonpusen int, is_processed int, was_error int, "
            "log_content text, log_hash text)"
        ),
    ],
    ids=["without-rowid", "a-column-named-rowid"],
)
def test_a_table_whose_rowid_is_hidden_still_reads_right(tmp_path: Path, schema: str) -> None:
    path = phoenix_db(tmp_path / "odd.db", fixture_rows()[:40] + SPECIAL, schema)
    want = everything(path, "odd.db")
    source = ArchiveSource(path, "odd.db")
    survey = source.survey()
    assert survey.total == len(want)
    assert survey.parallel == (
        "WITHOUT ROWID" not in schema
    )  # a real column 'rowid': seeks by _rowid_
    assert plain(source.entries(0)) == want
    if survey.parallel:
        assert plain(source.entries(MARK_EVERY + 3)) == want[MARK_EVERY + 3 :]
    source.close()


def test_files_that_are_one_entry(tmp_path: Path) -> None:
    other = phoenix_db(tmp_path / "games.db", [], "CREATE TABLE games(id text)")
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    for path in (LOG, other, broken):
        source = ArchiveSource(path, path.name)
        want = everything(path, path.name)
        assert len(want) == 1 and source.survey() == Survey(1, None, False)
        assert plain(source.entries(0)) == want
        assert plain(source.entries(1)) == []
        source.close()
        assert plain(source.entries(0)) == []  # closed: nothing more


def test_an_unreadable_database_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    path.write_bytes(b"SQLite format 3\x00" + bytes(200))
    source = ArchiveSource(path, "x.db")
    assert plain(source.entries(0)) == everything(path, "x.db")
    assert len(everything(path, "x.db")) == 1
    source.close()


def test_sqlite_errors_never_escape(tmp_path: Path) -> None:
    path = phoenix_db(tmp_path / "ok.db", fixture_rows()[:3])
    source = ArchiveSource(path, "ok.db")
    source.adopt(Survey(3, None, False))
    [(name, error)] = list(source.entries(2))  # no marks: it cannot seek, and says so
    assert name == "ok.db" and isinstance(error, PywallError)
    source.close()
    assert not isinstance(sqlite3.Error(), PywallError)
