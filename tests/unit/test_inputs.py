"""pywall.inputs, the one input layer: bounds on databases, zips and special files."""

from __future__ import annotations

import io
import os
import sqlite3
import time
import zipfile
from pathlib import Path

import pytest

from pywall.core.errors import InputTooLargeError, LogFormatError
from pywall.inputs import Skipped, Unreadable, items_from_file, iter_inputs
from pywall.inputs.databases import Budget, iter_phoenix
from pywall.inputs.zips import iter_zip
from tests.helpers import TENHOU, log_text
from tests.unit.test_cli_hostile import lzma_zip_with_a_corrupt_member, overlapping_zip

LOG = TENHOU / "tenhou-python-bot" / "1.txt"


def test_a_statement_over_its_budget_is_aborted() -> None:
    conn = sqlite3.connect(":memory:")
    budget = Budget(conn, seconds=0.3)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        conn.execute(
            "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"
        ).fetchone()
    assert time.monotonic() - start < 10
    budget.reraise()  # no Ctrl-C: nothing to raise


def test_a_view_named_logs_is_refused() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIEW logs(log_id, is_processed, was_error, log_content) AS SELECT 1, 1, 0, 'x'"
    )
    [(_, error)] = list(iter_phoenix(conn, "v.db"))
    assert isinstance(error, LogFormatError) and "is a view, not a table" in str(error)


def test_wide_text_is_measured_in_bytes() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content text)"
    )
    conn.execute("INSERT INTO logs VALUES ('g', 1, 0, ?)", ("\U0001f004" * (6 * 1024 * 1024),))
    [(_, content)] = list(iter_phoenix(conn, "w.db", packed=True))
    assert content.content is None and content.size == 24 * 1024 * 1024  # type: ignore[union-attr]


def test_a_corrupt_lzma_member_is_one_error(tmp_path: Path) -> None:
    archive = lzma_zip_with_a_corrupt_member(tmp_path / "l.zip")
    with archive.open("rb") as f:
        got = list(iter_zip(f, "l.zip"))
    assert [isinstance(c, bytes) for _, c in got] == [True, False, True]
    assert "cannot be read" in str(got[1][1])


def test_overlapping_entries_refuse_the_zip(tmp_path: Path) -> None:
    archive = overlapping_zip(tmp_path / "o.zip", entries=3)
    [(name, error)] = list(iter_zip(io.BytesIO(archive.read_bytes()), "o.zip"))
    assert name == "o.zip" and isinstance(error, LogFormatError) and "same bytes" in str(error)


def test_a_member_that_expands_too_much_is_refused_unread() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("zeros.xml", bytes(4 * 1024 * 1024))
        zf.writestr("log.xml", log_text(LOG))
    got = list(iter_zip(io.BytesIO(buf.getvalue()), "z"))
    assert isinstance(got[0][1], InputTooLargeError) and isinstance(got[1][1], bytes)


def test_a_fifo_is_never_opened_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    [(_, error)] = list(items_from_file(fifo))
    assert isinstance(error, Unreadable) and "a FIFO" in str(error)
    skipped: list[Skipped] = []
    assert list(iter_inputs([str(tmp_path)], skipped)) == []
    assert [s.reason for s in skipped] == ["not a regular file (a FIFO)"]
