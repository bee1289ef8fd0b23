"""What archives hold, decoded from bytes: no files, no SQL, no zip reading here.

The driver layer (``pywall.inputs``) opens files, zips and phoenix-logs
databases and hands this module bytes or rows. This module owns:

- ``Entry``, the one "item" of every input: ``(name, bytes | PywallError)``. A
  bad input is an entry carrying its error, so it never stops the others.
- Magic-byte sniffing (``is_zip``, ``is_sqlite``, ``is_gzip``, ``is_bz2``): the
  one set of checks used everywhere (archives are recognised by their first
  bytes, never by their names).
- Bounded decompression of gzip and bz2, every member or stream, in linear
  time: the input is fed a slice at a time, so a decompressor never copies the
  rest of a 16 MiB input per member, and the number of members is capped.
- The content of a phoenix-logs row (MahjongRepository/phoenix-logs: bz2 as
  ``bz2.compress`` wrote it; other copies hold base64 text or plain XML):
  ``log_from_content``, and ``Packed``, a row still compressed, for a worker
  process to open with ``unpack`` so the parent does no decompression.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError

MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_XML_BYTES = 16 * 1024 * 1024
#: Real logs are one gzip member or one bz2 stream; 1,000 leaves room for odd
#: tools and refuses a file made of hundreds of thousands of empty members.
MAX_STREAMS = 1_000
FEED_BYTES = 64 * 1024  # how much compressed input a decompressor is given at once

GZIP_MAGIC = b"\x1f\x8b"
BZ2_MAGIC = b"BZh"
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
SQLITE_MAGIC = b"SQLite format 3\x00"
#: How many first bytes the sniffing functions need.
HEAD_BYTES = 16

#: One input: its name, and its bytes or why it could not be read.
Entry = tuple[str, "bytes | PywallError"]
Row = tuple[Any, ...]  # (log_id, log_content) or (log_id, log_content, stored size)


@dataclass(frozen=True, slots=True)
class Packed:
    """A game's content as its archive stores it; ``unpack`` turns it into log bytes."""

    content: bytes | str | None
    size: int | None = None  # the stored size, when the content was too big to load


#: An entry whose content may still be packed (a database row for a worker).
PackedEntry = tuple[str, "bytes | PywallError | Packed"]


# --- sniffing ------------------------------------------------------------------------------


def is_zip(head: bytes) -> bool:
    return head[:4] in (ZIP_MAGIC, EMPTY_ZIP_MAGIC)


def is_sqlite(head: bytes) -> bool:
    return head[:16] == SQLITE_MAGIC


def is_gzip(head: bytes) -> bool:
    return head[:2] == GZIP_MAGIC


def is_bz2(head: bytes) -> bool:
    return head[:3] == BZ2_MAGIC


def is_archive(head: bytes) -> bool:
    return is_zip(head) or is_sqlite(head)


# --- bounded multi-member decompression -----------------------------------------------------


class _Inflater(Protocol):
    @property
    def eof(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...
    def decompress(self, data: bytes, max_length: int = ..., /) -> bytes: ...


def _slices(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for start in range(0, len(data), FEED_BYTES):
        yield bytes(view[start : start + FEED_BYTES])


def _inflate_streams(
    data: bytes, magic: bytes, new: Callable[[], _Inflater], limit: int, what: str
) -> bytes:
    """Every stream of ``data`` (each starting with ``magic``) decompressed, in order.

    Trailing bytes that do not start a stream are ignored (as gzip does).
    Raises ``InputTooLargeError`` over ``limit`` bytes, ``LogFormatError`` on
    corrupt or truncated data or more than ``MAX_STREAMS`` streams.
    """
    pieces = _slices(data)
    out: list[bytes] = []
    size = streams = 0
    pending = b""
    try:
        while True:
            while len(pending) < len(magic) and (more := next(pieces, None)) is not None:
                pending += more
            if not pending.startswith(magic):
                return b"".join(out)
            streams += 1
            if streams > MAX_STREAMS:
                raise LogFormatError(f"more than {MAX_STREAMS:,} {what} streams; refused")
            inflater = new()
            while not inflater.eof:
                if not pending:
                    pending = next(pieces, b"")
                    if not pending:
                        raise LogFormatError(f"the {what} data is truncated")
                chunk = inflater.decompress(pending, limit + 1 - size)
                size += len(chunk)
                if size > limit:
                    raise InputTooLargeError(
                        f"the {what} data expands beyond {limit:,} bytes; refused as a likely bomb"
                    )
                out.append(chunk)
                pending = getattr(inflater, "unconsumed_tail", b"")
            pending = inflater.unused_data
    except (zlib.error, OSError, ValueError, EOFError) as exc:
        raise LogFormatError(f"the {what} data is corrupt ({exc})") from None


def gunzip_bounded(data: bytes, limit: int) -> bytes:
    """Gunzip (all members), refusing output over ``limit`` bytes."""
    return _inflate_streams(data, GZIP_MAGIC, lambda: zlib.decompressobj(wbits=31), limit, "gzip")


def bunzip_bounded(data: bytes, limit: int) -> bytes:
    """Decompress bz2 (all streams), refusing output over ``limit`` bytes."""
    return _inflate_streams(data, BZ2_MAGIC, bz2.BZ2Decompressor, limit, "bz2")


# --- the content of a phoenix-logs row -------------------------------------------------------


def _looks_like_log(data: bytes) -> bool:
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return is_bz2(head) or is_gzip(head) or head[:1] == b"<"


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
    data = (
        content.encode("utf-8", "surrogateescape") if isinstance(content, str) else bytes(content)
    )
    if len(data) > MAX_INPUT_BYTES * 4 // 3 + 4:
        raise InputTooLargeError(
            f"log_content is {len(data):,} bytes; the cap is {MAX_INPUT_BYTES:,}"
        )
    if not data.strip():
        raise LogFormatError("the row's log_content is empty")
    if not _looks_like_log(data):
        decoded = _from_base64(data)
        if decoded is None:
            raise LogFormatError("log_content is not bz2, gzip or XML (raw or base64)")
        data = decoded
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(
            f"log_content is {len(data):,} bytes; the cap is {MAX_INPUT_BYTES:,}"
        )
    if is_bz2(data):
        return bunzip_bounded(data, MAX_XML_BYTES)
    return data


def unpack(content: bytes | PywallError | Packed) -> bytes | PywallError:
    """Log bytes (or the error) from what a source yielded, packed or not."""
    if not isinstance(content, Packed):
        return content
    try:
        if content.size is not None and content.content is None:
            raise InputTooLargeError(
                f"log_content is {content.size:,} bytes; the cap is {MAX_INPUT_BYTES:,}"
            )
        return log_from_content(content.content)
    except PywallError as exc:
        return exc


# --- rows of a phoenix-logs database, as entries ------------------------------------------


def _text(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def name_of_row(label: str, log_id: Any, number: int) -> str:
    """``label/log_id``; a row without an id is named by its position (1-based)."""
    if log_id is None or not _text(log_id).strip():
        return f"{label}/row {number}"
    return f"{label}/{_text(log_id).strip()}"


def iter_phoenix_rows(
    rows: Iterable[Row], label: str, packed: bool = False, start: int = 1
) -> Iterator[PackedEntry]:
    """``(log_id, log_content[, stored size])`` rows as named logs, decoded or ``Packed``."""
    for number, row in enumerate(rows, start):
        name = name_of_row(label, row[0], number)
        item = Packed(row[1], row[2] if len(row) > 2 and row[1] is None and row[2] else None)
        yield name, (item if packed else unpack(item))
