"""Archives: phoenix-logs databases (row decoding, schema checks, streaming) and zips.

The builders here (``phoenix_db``, ``fixture_rows``, ``tampered_text``) are shared
with ``test_cli_archive.py``.
"""

from __future__ import annotations

import base64
import bz2
import gzip
import io
import re
import sqlite3
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.core.archives import (
    MAX_INPUT_BYTES,
    MAX_XML_BYTES,
    Packed,
    bunzip_bounded,
    is_sqlite,
    is_zip,
    iter_phoenix_rows,
    log_from_content,
    unpack,
)
from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats import mjlog_tags
from pywall.inputs.databases import count_phoenix, iter_phoenix, phoenix_problem
from pywall.inputs.zip_directory import MAX_MEMBERS
from pywall.inputs.zips import count_zip, iter_zip
from pywall.results.check import check_log
from tests.helpers import TENHOU, fixture_paths, log_text

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
PHOENIX_SCHEMA = (
    "CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int, "
    "is_processed int, was_error int, log_content text, log_hash text)"
)
#: The newer phoenix-logs schema (download_game_ids.py today): date and is_sanma.
PHOENIX_SCHEMA_2021 = (
    "CREATE TABLE logs(log_id text primary key, date text, is_tonpusen int, "
    "is_sanma int, is_processed int, was_error int, log_content text, log_hash text)"
)
XML = log_text(LOG).encode()


# --- builders shared with test_cli_archive.py -------------------------------------


def log_id(i: int) -> str:
    return f"2019010100gm-00a9-0000-{i:08x}"


def fixture_rows(copies: int = 1) -> list[tuple[str, bytes]]:
    """Every fixture log, bz2-compressed, under a new Tenhou-style id per copy."""
    texts = [log_text(p).encode() for p in fixture_paths()]
    blobs = [bz2.compress(t) for t in texts]
    return [(log_id(c * len(blobs) + i), b) for c in range(copies) for i, b in enumerate(blobs)]


def tampered_text() -> str:
    """1.txt with its 31st U draw altered: East 2, 1 honba (round 2), draw 55 of the round."""
    text = log_text(LOG)
    m = list(re.finditer(r"<U(\d+)/>", text))[30]
    return text[: m.start()] + f"<U{(int(m.group(1)) + 4) % 136}/>" + text[m.end() :]


def corrupt_bz2() -> bytes:
    """A real log's bz2 with eight bytes zeroed in the middle (the block CRC fails)."""
    blob = bytearray(bz2.compress(XML))
    blob[len(blob) // 2 : len(blob) // 2 + 8] = bytes(8)
    return bytes(blob)


def bz2_bomb() -> bytes:
    return bz2.compress(b'<mjloggm ver="2.3">' + b" " * (MAX_XML_BYTES + 1024))


def phoenix_db(path: Path, rows: Iterable[tuple[Any, ...]], schema: str = PHOENIX_SCHEMA) -> Path:
    """A phoenix-logs database; rows are (log_id, content[, is_processed, was_error])."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(schema)
        for row in rows:
            lid, content, processed, error = (tuple(row) + (1, 0))[:4]
            conn.execute(
                "INSERT INTO logs (log_id, is_tonpusen, is_processed, was_error, log_content, "
                "log_hash) VALUES (?, 0, ?, ?, ?, '')",
                (lid, processed, error, content),
            )
    conn.close()
    return path


def entries(conn: sqlite3.Connection, label: str = "houou.db", **kw: Any) -> list[tuple[str, Any]]:
    return list(iter_phoenix(conn, label, **kw))


def memory_db(rows: Iterable[tuple[Any, ...]], schema: str = PHOENIX_SCHEMA) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(schema)
    for row in rows:
        lid, content, processed, error = (tuple(row) + (1, 0))[:4]
        conn.execute(
            "INSERT INTO logs (log_id, is_processed, was_error, log_content) VALUES (?, ?, ?, ?)",
            (lid, processed, error, content),
        )
    return conn


# --- magic numbers ------------------------------------------------------------------


@pytest.mark.parametrize(
    "head,zip_,sqlite",
    [
        (b"PK\x03\x04rest", True, False),
        (b"PK\x05\x06", True, False),
        (b"SQLite format 3\x00more", False, True),
        (b"SQLite format 3 ", False, False),
        (b"<mjloggm ver", False, False),
    ],
    ids=["zip", "empty-zip", "sqlite", "sqlite-without-nul", "xml"],
)
def test_archives_are_recognised_by_magic(head: bytes, zip_: bool, sqlite: bool) -> None:
    assert is_zip(head) is zip_
    assert is_sqlite(head) is sqlite


# --- log_content: every encoding phoenix-logs databases are found in ------------------


@pytest.mark.parametrize(
    "content",
    [
        bz2.compress(XML),
        base64.b64encode(bz2.compress(XML)),
        base64.b64encode(bz2.compress(XML)).decode(),
        base64.encodebytes(bz2.compress(XML)),  # with line breaks
        XML,
        XML.decode(),
        gzip.compress(XML),
        base64.b64encode(gzip.compress(XML)).decode(),
        memoryview(bz2.compress(XML)),
        bz2.compress(XML[:5000]) + bz2.compress(XML[5000:]),
    ],
    ids=[
        "bz2-blob",
        "base64-bytes",
        "base64-text",
        "base64-lines",
        "xml-bytes",
        "xml-text",
        "gzip",
        "base64-gzip",
        "memoryview",
        "two-bz2-streams",
    ],
)
def test_log_content_in_any_encoding_gives_the_log(content: bytes | str) -> None:
    data = log_from_content(content)
    assert mjlog_tags.text_from_bytes(data) == XML.decode()


@pytest.mark.parametrize(
    "content,error,message",
    [
        (None, LogFormatError, "no log_content"),
        (b"", LogFormatError, "empty"),
        ("  ", LogFormatError, "empty"),
        (corrupt_bz2(), LogFormatError, "bz2 data is corrupt"),
        (b"BZh91AY&SY" + b"\x00garbage" * 10, LogFormatError, "bz2 data is (corrupt|truncated)"),
        (bz2.compress(XML)[:200], LogFormatError, "bz2 data is truncated"),
        (b"\x00\x01\x02 binary", LogFormatError, "not bz2, gzip or XML"),
        ("not base64 at all!", LogFormatError, "not bz2, gzip or XML"),
        (base64.b64encode(b"plain words, not a log"), LogFormatError, "not bz2, gzip or XML"),
    ],
    ids=[
        "null",
        "empty",
        "blank-text",
        "bad-bz2",
        "bad-bz2-header",
        "truncated-bz2",
        "binary",
        "text",
        "base64-of-junk",
    ],
)
def test_bad_log_content_is_a_clear_error(
    content: Any, error: type[PywallError], message: str
) -> None:
    with pytest.raises(error, match=message):
        log_from_content(content)


def test_bz2_bomb_is_refused_without_expanding_it() -> None:
    with pytest.raises(
        InputTooLargeError, match="expands beyond 16,777,216 bytes; refused as a likely bomb"
    ):
        log_from_content(bz2_bomb())


def test_bunzip_bounded_limit_is_exact() -> None:
    data = bz2.compress(b"x" * 1000)
    assert bunzip_bounded(data, 1000) == b"x" * 1000
    with pytest.raises(InputTooLargeError):
        bunzip_bounded(data, 999)


def test_oversized_content_is_refused_before_decoding() -> None:
    with pytest.raises(InputTooLargeError, match="the cap is"):
        log_from_content(b"BZh" + b"\x00" * (MAX_INPUT_BYTES * 4 // 3 + 8))
    assert isinstance(unpack(Packed(None, 10**9)), InputTooLargeError)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300),
        st.binary(max_size=200).map(lambda b: b"BZh9" + b),
        st.binary(max_size=200).map(base64.b64encode),
    )
)
def test_log_content_raises_only_pywall_errors(content: bytes | str) -> None:
    try:
        log_from_content(content)
    except PywallError:
        pass


def test_unpack_passes_plain_items_through() -> None:
    err = LogFormatError("x")
    assert unpack(b"abc") == b"abc" and unpack(err) is err
    assert unpack(Packed(bz2.compress(XML))) == XML
    assert isinstance(unpack(Packed(b"BZh9junk")), LogFormatError)


# --- phoenix-logs databases ---------------------------------------------------------


def test_only_downloaded_rows_in_table_order_named_by_log_id() -> None:
    blob = bz2.compress(XML)
    conn = memory_db(
        [
            (log_id(3), blob),
            (log_id(1), blob, 0, 0),
            (log_id(2), blob, 1, 1),
            (log_id(0), blob),
            (log_id(4), b"", 0, 0),
        ]
    )
    got = entries(conn)
    assert [name for name, _ in got] == [f"houou.db/{log_id(3)}", f"houou.db/{log_id(0)}"]
    assert all(data == XML for _, data in got)
    assert count_phoenix(conn) == 2


def test_the_report_knows_the_game_from_its_row_name() -> None:
    conn = memory_db([("2019010100gm-00a9-0000-0ac4f9d1", bz2.compress(XML))])
    ((name, data),) = entries(conn, "houou2019.db")
    report = check_log(name, data)
    assert report.path == "houou2019.db/2019010100gm-00a9-0000-0ac4f9d1"
    assert report.status == "verified"
    assert report.game is not None
    assert report.game.log_id == "2019010100gm-00a9-0000-0ac4f9d1"
    assert report.game.date == "2019-01-01T00:00+09:00"


def test_a_bad_row_is_one_error_and_the_others_go_on() -> None:
    conn = memory_db(
        [
            (log_id(0), bz2.compress(XML)),
            (log_id(1), b"BZh9broken"),
            (log_id(2), None),
            (None, bz2.compress(XML)),
            (log_id(4), bz2_bomb()),
        ]
    )
    got = entries(conn)
    assert [n for n, _ in got] == [
        f"houou.db/{log_id(0)}",
        f"houou.db/{log_id(1)}",
        f"houou.db/{log_id(2)}",
        "houou.db/row 4",
        f"houou.db/{log_id(4)}",
    ]
    kinds = [type(c).__name__ if isinstance(c, PywallError) else "log" for _, c in got]
    assert kinds == ["log", "LogFormatError", "LogFormatError", "log", "InputTooLargeError"]


def test_packed_rows_are_decoded_later() -> None:
    conn = memory_db([(log_id(0), bz2.compress(XML)), (log_id(1), b"BZh9broken")])
    got = entries(conn, packed=True)
    assert all(isinstance(c, Packed) for _, c in got)
    assert unpack(got[0][1]) == XML and isinstance(unpack(got[1][1]), LogFormatError)


def test_content_stored_as_text_or_with_bad_utf8_still_reads() -> None:
    conn = memory_db([(log_id(0), base64.b64encode(bz2.compress(XML)).decode())])
    conn.execute(
        "INSERT INTO logs (log_id, is_processed, was_error, log_content) "
        "VALUES (?, 1, 0, CAST(? AS TEXT))",
        (log_id(1), bz2.compress(XML)),
    )
    got = entries(conn)
    assert [c for _, c in got] == [XML, XML]


def test_newer_schema_with_date_and_is_sanma_is_accepted() -> None:
    conn = memory_db([(log_id(0), bz2.compress(XML))], PHOENIX_SCHEMA_2021)
    assert phoenix_problem(conn) is None
    assert [c for _, c in entries(conn)] == [XML]


def test_streaming_reads_a_row_at_a_time() -> None:
    conn = memory_db([(log_id(i), bz2.compress(XML)) for i in range(10)])
    it = iter_phoenix(conn, "x.db", packed=True)
    first = [next(it) for _ in range(4)]
    assert [n for n, _ in first] == [f"x.db/{log_id(i)}" for i in range(4)]
    assert len(list(it)) == 6


@pytest.mark.parametrize(
    "schema,message",
    [
        (
            "CREATE TABLE games(id text)",
            "without the phoenix-logs table 'logs' (its tables: games)",
        ),
        (
            "CREATE TABLE logs(log_id text, content blob)",
            "no column is_processed, was_error, log_content",
        ),
    ],
    ids=["no-logs-table", "wrong-columns"],
)
def test_a_database_that_is_not_phoenix_logs_is_one_error(schema: str, message: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(schema)
    ((name, err),) = entries(conn)
    assert name == "houou.db" and isinstance(err, LogFormatError) and message in err.message
    assert count_phoenix(conn) == 1


def test_a_database_without_downloaded_games_says_so() -> None:
    conn = memory_db([(log_id(0), b"", 0, 0), (log_id(1), b"", 1, 1)])
    ((name, err),) = entries(conn)
    assert name == "houou.db" and isinstance(err, LogFormatError)
    assert "no downloaded game" in err.message
    assert count_phoenix(conn) == 1


def test_a_corrupt_database_file_is_one_error(tmp_path: Path) -> None:
    path = phoenix_db(tmp_path / "a.db", [(log_id(i), bz2.compress(XML)) for i in range(3)])
    raw = bytearray(path.read_bytes())
    raw[100:] = b"\xff" * (len(raw) - 100)
    path.write_bytes(bytes(raw))
    conn = sqlite3.connect(path)
    got = entries(conn, str(path))
    assert len(got) == 1 and isinstance(got[0][1], LogFormatError)
    assert "cannot be read" in got[0][1].message


def test_a_database_whose_text_is_not_utf8_is_read(tmp_path: Path) -> None:
    # A damaged or hostile file's schema text need not be UTF-8 (found by the fuzz suite:
    # sqlite3 raised UnicodeDecodeError, a traceback in `pywall verify` and in the page).
    from pywall.inputs import items_from_file
    from pywall.inputs.sources import ArchiveSource

    schema = PHOENIX_SCHEMA.replace("log_hash text", "log_hash text, zzqq text")
    path = phoenix_db(tmp_path / "a.db", [(log_id(i), bz2.compress(XML)) for i in range(3)], schema)
    raw = path.read_bytes()
    assert raw.count(b"zzqq") == 1
    path.write_bytes(raw.replace(b"zzqq", b"zz\xff\xfe"))
    got = list(items_from_file(path, label="a.db"))
    assert [n for n, _ in got] == [f"a.db/{log_id(i)}" for i in range(3)] and all(
        c == XML for _, c in got
    )
    source = ArchiveSource(path, "a.db")
    assert source.survey().total == 3 and [c for _, c in source.entries(2)] == [XML]
    source.close()


def test_a_database_whose_error_message_is_not_utf8_is_one_error(tmp_path: Path) -> None:
    # SQLite's message quotes the damaged name, and sqlite3 cannot decode it: it raised
    # UnicodeDecodeError, not sqlite3.Error (the fuzz suite's case, rebuilt).
    from pywall.inputs import count_file, items_from_file
    from pywall.inputs.sources import ArchiveSource, Survey

    path = phoenix_db(tmp_path / "a.db", [(log_id(i), bz2.compress(XML)) for i in range(3)])
    raw = path.read_bytes()
    assert raw.count(b"sqlite_autoindex_logs_1") == 1
    path.write_bytes(raw.replace(b"sqlite_autoindex_logs_1", b"sqlite_autoin\xabex_logs_1"))
    ((name, err),) = list(items_from_file(path, label="a.db"))
    assert name == "a.db" and isinstance(err, LogFormatError)
    assert "cannot be read (malformed database schema (sqlite_autoin\ufffdex_logs_1)" in err.message
    assert count_file(path) == 1
    source = ArchiveSource(path, "a.db")
    assert source.survey() == Survey(1, None, False)
    assert [n for n, _ in source.entries(0)] == ["a.db"]
    source.close()


def test_rows_from_any_iterable() -> None:
    """The browser can feed rows it read itself."""
    rows = [(b"2019010100gm-00a9-0000-0ac4f9d1", bz2.compress(XML)), ("id2", None, 10**9)]
    got = list(iter_phoenix_rows(rows, "web.db"))
    assert got[0] == ("web.db/2019010100gm-00a9-0000-0ac4f9d1", XML)
    assert got[1][0] == "web.db/id2" and isinstance(got[1][1], InputTooLargeError)


# --- zips ---------------------------------------------------------------------------------


def test_zip_truncated_member_is_one_error() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.xml", XML)
        zf.writestr("b.xml", XML)
        zf.writestr("c.xml", XML)
    raw = bytearray(buf.getvalue())
    start = raw.find(b"PK\x03\x04", 10)  # b.xml's local header
    raw[start + 60 : start + 400] = bytes(340)  # damage its compressed data
    got = list(iter_zip(io.BytesIO(bytes(raw)), "logs.zip"))
    assert [n for n, _ in got] == ["logs.zip/a.xml", "logs.zip/b.xml", "logs.zip/c.xml"]
    assert got[0][1] == XML and got[2][1] == XML
    assert isinstance(got[1][1], LogFormatError) and "cannot be read" in got[1][1].message


def test_count_zip_matches_iter_zip() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("dir/", b"")
        for i in range(5):
            zf.writestr(f"dir/{i}.xml", XML)
    assert (
        count_zip(io.BytesIO(buf.getvalue()))
        == 5
        == len(list(iter_zip(io.BytesIO(buf.getvalue()), "z")))
    )
    assert count_zip(io.BytesIO(b"PK\x03\x04 not really")) == 1
    assert MAX_MEMBERS >= 100_000
