"""Logs inside archives: zip files and phoenix-logs databases, read with bounds.

Zip: the caller hands in a binary file object (a real file from the CLI, an
in-memory buffer in the browser); members are read one at a time so memory
stays flat. Each member yields ``(name, data)`` or ``(name, PywallError)``:
one corrupt or oversized member never stops the others.

phoenix-logs (MahjongRepository/phoenix-logs, the usual downloader of Tenhou's
houou games): an SQLite database whose table ``logs`` has one row per game,
``log_id`` (Tenhou's game id) and ``log_content``, the mjlog XML as
``bz2.compress`` wrote it (bound as bytes, so stored as a BLOB in a column
declared ``text``). Only rows with ``is_processed = 1 AND was_error = 0`` hold a
downloaded game. Other copies of such databases store the content as base64
text, or uncompressed: ``log_from_content`` accepts bz2, gzip or plain XML,
raw or base64, and caps the size before and after decompression. The driver
opens the database (this module never imports ``sqlite3``) and passes the
connection, any DB-API connection with ``execute`` and ``Error``; rows are
fetched a batch at a time.

``Packed`` lets a driver hand a row's content, still compressed, to a worker
process: ``unpack`` opens it there, so the parent does no decompression.
"""

from __future__ import annotations

import base64
import io
import binascii
import bz2
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from pywall.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats.mjlog import GZIP_MAGIC, MAX_INPUT_BYTES, MAX_XML_BYTES

MAX_MEMBERS = 1_000_000
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
SQLITE_MAGIC = b"SQLite format 3\x00"
BZ2_MAGIC = b"BZh"
FETCH_ROWS = 64

PHOENIX_COLUMNS = ("log_id", "is_processed", "was_error", "log_content")
PHOENIX_WHERE = "is_processed = 1 AND was_error = 0"
#: Every field as bytes whatever its storage class (a TEXT cell holding binary
#: would otherwise fail to decode); content over the cap is not even loaded.
#: NOT INDEXED: one sequential pass in the table's own (rowid) order.
PHOENIX_QUERY = (
    "SELECT CAST(log_id AS BLOB), "
    "CAST(CASE WHEN length(log_content) <= ? THEN log_content END AS BLOB), length(log_content) "
    f"FROM logs NOT INDEXED WHERE {PHOENIX_WHERE}"
)
PHOENIX_COUNT = f"SELECT COUNT(*) FROM logs WHERE {PHOENIX_WHERE}"

#: One game of a batch or an archive: its name, and its bytes or why they could not be read.
Entry = tuple[str, "bytes | PywallError"]
Item = Entry
Row = tuple[Any, ...]  # (log_id, log_content) or (log_id, log_content, stored size)


@dataclass(frozen=True, slots=True)
class Packed:
    """A game's content as its archive stores it; ``unpack`` turns it into log bytes."""

    content: bytes | str | None
    size: int | None = None  # the stored size, when the content was too big to load


def is_zip(head: bytes) -> bool:
    return head[:4] in (ZIP_MAGIC, EMPTY_ZIP_MAGIC)


def is_sqlite(head: bytes) -> bool:
    return head[:16] == SQLITE_MAGIC


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.file_size > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"{info.file_size:,} bytes uncompressed; the cap is {MAX_INPUT_BYTES:,}")
    with zf.open(info) as member:
        data = member.read(MAX_INPUT_BYTES + 1)  # the header may lie about the size
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"expands beyond {MAX_INPUT_BYTES:,} bytes; refused as a likely bomb")
    return data


def zip_infos(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The file members (folders left out), in the archive's order."""
    return [i for i in zf.infolist() if not i.is_dir()]


def iter_zip(fileobj: IO[bytes], label: str) -> Iterator[Item]:
    """Every file member of a zip, as ``label/member`` with its bytes or its error."""
    try:
        zf = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        yield label, LogFormatError(f"not a readable zip file ({exc})")
        return
    with zf:
        infos = zip_infos(zf)
        if len(infos) > MAX_MEMBERS:
            yield label, InputTooLargeError(f"the zip has {len(infos):,} members; the cap is {MAX_MEMBERS:,}")
            return
        for info in infos:
            name = f"{label}/{info.filename}"
            try:
                yield name, _read_member(zf, info)
            except PywallError as exc:
                yield name, exc
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError,
                    NotImplementedError, RuntimeError) as exc:
                yield name, LogFormatError(f"this zip member cannot be read ({exc})")


def iter_zip_bytes(data: bytes, label: str) -> Iterator[Entry]:
    """``iter_zip`` over a zip already in memory (a file the page was given)."""
    return iter_zip(io.BytesIO(data), label)


def count_zip(fileobj: IO[bytes]) -> int:
    """How many entries ``iter_zip`` yields (1 for an unreadable zip)."""
    try:
        with zipfile.ZipFile(fileobj) as zf:
            members = len(zip_infos(zf))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return 1
    return 1 if members > MAX_MEMBERS else members


# --- bz2 and the content of a phoenix-logs row ---------------------------------

def bunzip_bounded(data: bytes, limit: int) -> bytes:
    """Decompress bz2 (all streams), refusing output over ``limit`` bytes."""
    out: list[bytes] = []
    size = 0
    rest = data
    while rest[:3] == BZ2_MAGIC:
        inflater = bz2.BZ2Decompressor()
        try:
            chunk = inflater.decompress(rest, limit + 1 - size)
            while True:
                size += len(chunk)
                out.append(chunk)
                if size > limit:
                    raise InputTooLargeError(
                        f"the bz2 data expands beyond {limit:,} bytes; refused as a likely bomb")
                if inflater.eof or inflater.needs_input:
                    break
                chunk = inflater.decompress(b"", limit + 1 - size)
        except (OSError, ValueError, EOFError) as exc:
            raise LogFormatError(f"the bz2 data is corrupt ({exc})") from None
        if not inflater.eof:
            raise LogFormatError("the bz2 data is truncated")
        rest = inflater.unused_data
    return b"".join(out)


def _looks_like_log(data: bytes) -> bool:
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:3] == BZ2_MAGIC or head[:2] == GZIP_MAGIC or head[:1] == b"<"


def _from_base64(data: bytes) -> bytes | None:
    """The decoded bytes if ``data`` is base64 of a log (bz2, gzip or XML), else None."""
    compact = b"".join(data.split())
    if not compact or len(compact) % 4:
        return None
    try:
        raw = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if _looks_like_log(raw) else None


def log_from_content(content: bytes | str | memoryview | None) -> bytes:
    """A phoenix-logs ``log_content`` as log bytes (gzip or XML) for ``mjlog.parse``.

    Accepts bz2 (what phoenix-logs writes), gzip or plain XML, each raw or as
    base64 text. Raises ``LogFormatError`` or ``InputTooLargeError``.
    """
    if content is None:
        raise LogFormatError("the row has no log_content")
    data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else bytes(content)
    if len(data) > MAX_INPUT_BYTES * 4 // 3 + 4:
        raise InputTooLargeError(f"log_content is {len(data):,} bytes; the cap is {MAX_INPUT_BYTES:,}")
    if not data.strip():
        raise LogFormatError("the row's log_content is empty")
    if not _looks_like_log(data):
        decoded = _from_base64(data)
        if decoded is None:
            raise LogFormatError("log_content is not bz2, gzip or XML (raw or base64)")
        data = decoded
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"log_content is {len(data):,} bytes; the cap is {MAX_INPUT_BYTES:,}")
    if data[:3] == BZ2_MAGIC:
        return bunzip_bounded(data, MAX_XML_BYTES)
    return data


def unpack(content: bytes | PywallError | Packed) -> bytes | PywallError:
    """Log bytes (or the error) from what a source yielded, packed or not."""
    if not isinstance(content, Packed):
        return content
    try:
        if content.size is not None and content.content is None:
            raise InputTooLargeError(
                f"log_content is {content.size:,} bytes; the cap is {MAX_INPUT_BYTES:,}")
        return log_from_content(content.content)
    except PywallError as exc:
        return exc


# --- phoenix-logs databases ------------------------------------------------------

def _text(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def name_of_row(label: str, log_id: Any, number: int) -> str:
    """``label/log_id``; a row without an id is named by its position (1-based)."""
    if log_id is None or not _text(log_id).strip():
        return f"{label}/row {number}"
    return f"{label}/{_text(log_id).strip()}"


def iter_phoenix_rows(rows: Iterable[Row], label: str, packed: bool = False,
                      start: int = 1) -> Iterator[tuple[str, bytes | PywallError | Packed]]:
    """``(log_id, log_content[, stored size])`` rows as named logs, decoded or ``Packed``."""
    for number, row in enumerate(rows, start):
        name = name_of_row(label, row[0], number)
        item = Packed(row[1], row[2] if len(row) > 2 and row[1] is None and row[2] else None)
        yield name, (item if packed else unpack(item))


def phoenix_problem(conn: Any) -> str | None:
    """Why ``conn`` is not a phoenix-logs database, or None if it is one."""
    try:
        columns = {str(r[1]).lower() for r in conn.execute("PRAGMA table_info(logs)").fetchall()}
        if not columns:
            tables = [str(r[0]) for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()]
            shown = ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "") if tables else "none"
            return f"an SQLite database without the phoenix-logs table 'logs' (its tables: {shown})"
    except conn.Error as exc:
        return f"an SQLite file that cannot be read ({exc})"
    missing = [c for c in PHOENIX_COLUMNS if c not in columns]
    if missing:
        return f"its table 'logs' is not phoenix-logs': no column {', '.join(missing)}"
    return None


def count_phoenix(conn: Any) -> int:
    """How many downloaded games (the rows ``iter_phoenix`` verifies) the database holds."""
    if phoenix_problem(conn):
        return 1
    try:
        return max(int(conn.execute(PHOENIX_COUNT).fetchone()[0]), 1)
    except conn.Error:
        return 1


def iter_phoenix(conn: Any, label: str, packed: bool = False,
                 batch: int = FETCH_ROWS) -> Iterator[tuple[str, bytes | PywallError | Packed]]:
    """Every downloaded game of a phoenix-logs database, ``batch`` rows at a time.

    A database that is not phoenix-logs', or that breaks off mid-way, is one
    error entry named ``label``; a bad row is one error entry of its own.
    """
    problem = phoenix_problem(conn)
    if problem:
        yield label, LogFormatError(problem)
        return
    seen = 0
    try:
        cursor = conn.execute(PHOENIX_QUERY, (MAX_INPUT_BYTES * 4 // 3 + 4,))
        while rows := cursor.fetchmany(batch):
            yield from iter_phoenix_rows(rows, label, packed, seen + 1)
            seen += len(rows)
    except conn.Error as exc:
        yield label, LogFormatError(f"the database cannot be read past row {seen:,} ({exc})")
        return
    if not seen:
        yield label, LogFormatError(
            f"no downloaded game in this phoenix-logs database (no row with {PHOENIX_WHERE})")
