"""Where the CLI's inputs come from: files, folders, stdin, zip archives and
phoenix-logs SQLite databases.

``iter_inputs`` yields ``(name, bytes)`` or ``(name, PywallError)`` one input
at a time, so a bad input never stops the others and memory does not grow
with the batch. ``iter_packed_inputs`` is the same except that a database row
comes as ``archives.Packed`` (still compressed), for a worker process to open
with ``archives.unpack``: the parent process then does no decompression.
Archives are recognised by their first bytes (zip, ``SQLite format 3``), never
by their names. ``count_inputs`` is the cheap first pass that gives a
progress bar its total.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing
from itertools import islice
from pathlib import Path

from pywall.archives import (
    Packed,
    count_phoenix,
    count_zip,
    is_sqlite,
    is_zip,
    iter_phoenix,
    iter_zip,
    unpack,
)
from pywall.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats.jsonrecord import looks_like_json
from pywall.formats.mjlog import GZIP_MAGIC, MAX_INPUT_BYTES

Item = tuple[str, "bytes | PywallError"]
PackedItem = tuple[str, "bytes | PywallError | Packed"]


class Unreadable(PywallError):
    code = "unreadable"


def head_of(path: Path, size: int = 16) -> bytes:
    with path.open("rb") as f:
        return f.read(size)


#: Words near the start of a Mahjong Soul or Riichi City JSON record (its head,
#: first event or API answer), whatever the file is called.
_JSON_RECORD_WORDS = (b'"head"', b"NewRound", b"paishan", b"handRecord", b"keyValue")


def looks_like_log(path: Path) -> bool:
    """For files found in folders: gzip, zip, SQLite, text that starts an mjlog, or a
    JSON object that names a Mahjong Soul or Riichi City record near its start."""
    try:
        head = head_of(path, 4096)
    except OSError:
        return True  # let reading it report the problem
    if looks_like_json(head) and any(word in head for word in _JSON_RECORD_WORDS):
        return True
    return head[:2] == GZIP_MAGIC or is_zip(head) or is_sqlite(head) or b"<mjloggm" in head


def walk(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith("."):
                yield Path(root) / name


def read_capped(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise InputTooLargeError(f"the file is {size:,} bytes; pywall reads logs up to {MAX_INPUT_BYTES:,}")
        with path.open("rb") as f:
            return f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read it: {exc.strerror or exc}") from None


def read_stdin() -> Item:
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        return "-", InputTooLargeError(f"standard input is over {MAX_INPUT_BYTES:,} bytes")
    return "-", data


def open_database(path: Path) -> sqlite3.Connection:
    """Read-only: verifying never writes to (or creates) a database."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def iter_database(path: Path, packed: bool, label: str | None = None) -> Iterator[PackedItem]:
    label = str(path) if label is None else label
    try:
        conn = open_database(path)
    except sqlite3.Error as exc:
        yield label, LogFormatError(f"this SQLite database cannot be opened ({exc})")
        return
    with closing(conn):
        yield from iter_phoenix(conn, label, packed)


def items_from_file(path: Path, packed: bool = False, label: str | None = None) -> Iterator[PackedItem]:
    """One file's logs: itself, each member of a zip, or each game of a database.

    Names start with ``label`` (the path by default; the web page passes the
    file's name as the person chose it, its bytes being in a scratch file).
    """
    label = str(path) if label is None else label
    try:
        head = head_of(path)
    except OSError as exc:
        yield label, Unreadable(f"cannot read it: {exc.strerror or exc}")
        return
    if is_zip(head):
        with path.open("rb") as f:
            yield from iter_zip(f, label)
    elif is_sqlite(head):
        yield from iter_database(path, packed, label)
    else:
        try:
            yield label, read_capped(path)
        except PywallError as exc:
            yield label, exc


def item_at(path: Path, index: int, label: str | None = None) -> Item:
    """The ``index``-th (0-based) log ``items_from_file`` yields, to check one game again.

    Rows before it are skipped still packed (no decompression, no parsing).
    """
    if index >= 0:
        for name, content in islice(items_from_file(path, True, label), index, None):
            return name, unpack(content)
    return (str(path) if label is None else label), LogFormatError(f"this archive has no game number {index + 1}")


def iter_inputs(args: list[str], skipped: list[str]) -> Iterator[Item]:
    """Every log named by the command line, in order; folders recursively.
    Files in folders that are not logs are added to ``skipped``."""
    for name, content in _inputs(args, skipped, packed=False):
        yield name, unpack(content)


def iter_packed_inputs(args: list[str], skipped: list[str]) -> Iterator[PackedItem]:
    """``iter_inputs`` with database rows left packed (see ``archives.Packed``)."""
    return _inputs(args, skipped, packed=True)


def _inputs(args: list[str], skipped: list[str], packed: bool) -> Iterator[PackedItem]:
    for arg in args:
        if arg == "-":
            yield read_stdin()
            continue
        path = Path(arg)
        if path.is_dir():
            for found in walk(path):
                if looks_like_log(found):
                    yield from items_from_file(found, packed)
                else:
                    skipped.append(str(found))
        elif path.exists():
            yield from items_from_file(path, packed)
        else:
            yield arg, Unreadable("no such file or folder")


def count_file(path: Path) -> int:
    """How many entries ``items_from_file`` yields for ``path``, without reading logs."""
    try:
        head = head_of(path)
        if is_zip(head):
            with path.open("rb") as f:
                return count_zip(f)
        if is_sqlite(head):
            with closing(open_database(path)) as conn:
                return count_phoenix(conn)
    except (OSError, sqlite3.Error):
        pass
    return 1


def count_inputs(args: list[str]) -> int:
    """The number of entries ``iter_inputs`` will yield (for a progress bar's total)."""
    total = 0
    for arg in args:
        path = Path(arg)
        if arg != "-" and path.is_dir():
            total += sum(count_file(p) for p in walk(path) if looks_like_log(p))
        elif arg != "-" and path.exists():
            total += count_file(path)
        else:
            total += 1
    return total
