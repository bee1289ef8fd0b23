"""Zip archives of logs, read a member at a time with bounds.

The caller hands in a binary file object (a real file from the CLI, an
in-memory buffer in the browser). Each file member yields ``(name, bytes)`` or
``(name, PywallError)``: one corrupt, oversized or unsupported member never
stops the others, whatever the decompressor (deflate, bzip2, LZMA) raises.

Refused before ``zipfile`` builds its directory (about 550 bytes of memory an
entry): more than ``MAX_MEMBERS`` entries or a central directory over
``MAX_DIRECTORY_BYTES``, as the end-of-central-directory record states them
(``directory_problem``). Refused before anything is decompressed: entries that overlap (several directory entries pointing into the same
bytes: a 110 KB file could otherwise expand one 16 MiB member 2,000 times). A
member over 16 MiB, or one that expands more than ``MAX_RATIO`` times (real
logs compress about 10:1), is an error entry of its own, and so is a member whose
name the zip marks UTF-8 but is not (``zipfile`` would refuse the whole archive:
the directory is read through ``_Renamed``, which gives such names ``?`` for their
non-ASCII bytes; opening the member then fails on its local header). A zip with
no file at all is one error entry, never nothing.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from itertools import pairwise
from typing import IO

from pywall.core.archives import MAX_INPUT_BYTES, Entry
from pywall.core.errors import EmptyArchiveError, InputTooLargeError, LogFormatError, PywallError
from pywall.inputs.zip_directory import (
    MAX_MEMBERS,
    NOT_UTF8_NAME,
    directory_problem,
)
from pywall.inputs.zip_directory import zip_file as _zip_file

try:  # not in every Python build (Pyodide may leave it out)
    from lzma import LZMAError as _LZMAError
except ImportError:  # pragma: no cover
    _LZMAError = zlib.error  # type: ignore[misc,assignment]

MAX_RATIO = 200
RATIO_FROM = 1024 * 1024  # members under 1 MiB may expand as they like
#: Whatever reading a zip or a member may raise (struct.error: malformed extra fields).
ZIP_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    _LZMAError,
    OSError,
    EOFError,
    ValueError,
    NotImplementedError,
    RuntimeError,
    struct.error,
    UnicodeDecodeError,
    OverflowError,
)


def zip_infos(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The file members (folders left out), in the archive's order."""
    return [i for i in zf.infolist() if not i.is_dir()]


def overlap_problem(infos: list[zipfile.ZipInfo]) -> str | None:
    """Why the entries share bytes, or None: each member's data must end before the next begins."""
    spans = sorted(
        (i.header_offset, i.header_offset + 30 + len(i.orig_filename) + i.compress_size)
        for i in infos
    )
    for (start, end), (next_start, _) in pairwise(spans):
        if next_start < end:
            why = "point at the same bytes" if next_start == start else "overlap"
            return (
                f"two of its entries {why} (at byte {next_start:,}); refused as a likely zip bomb"
            )
    return None


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.file_size > MAX_INPUT_BYTES:
        raise InputTooLargeError(
            f"{info.file_size:,} bytes uncompressed; the cap is {MAX_INPUT_BYTES:,}"
        )
    if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise InputTooLargeError(
            f"expands {info.file_size // max(info.compress_size, 1):,} times; "
            f"refused as a likely bomb (logs compress about 10:1)"
        )
    with zf.open(info) as member:
        data = member.read(MAX_INPUT_BYTES + 1)  # the header may lie about the size
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(
            f"expands beyond {MAX_INPUT_BYTES:,} bytes; refused as a likely bomb"
        )
    return data


def _members(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The members to read; raises ``PywallError`` for an archive refused as a whole."""
    infos = zip_infos(zf)
    if not infos:
        raise EmptyArchiveError("the zip holds no files")
    if len(infos) > MAX_MEMBERS:
        raise InputTooLargeError(f"the zip has {len(infos):,} members; the cap is {MAX_MEMBERS:,}")
    problem = overlap_problem(zf.infolist())
    if problem:
        raise LogFormatError(problem)
    return infos


def open_zip(fileobj: IO[bytes]) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """The zip and the members to read; raises ``PywallError`` for a zip refused or
    unreadable as a whole (an empty zip too)."""
    try:
        problem = directory_problem(fileobj)
        if problem is not None:
            raise InputTooLargeError(problem)
        zf = _zip_file(fileobj)
    except ZIP_ERRORS as exc:
        raise LogFormatError(f"not a readable zip file ({exc})") from None
    try:
        return zf, _members(zf)
    except ZIP_ERRORS as exc:
        zf.close()
        raise LogFormatError(f"not a readable zip file ({exc})") from None
    except PywallError:
        zf.close()
        raise


def iter_members(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], label: str) -> Iterator[Entry]:
    """These members of an open zip, as ``label/member`` with their bytes or their error."""
    for info in infos:
        name = f"{label}/{info.filename}"
        try:
            yield name, _read_member(zf, info)
        except PywallError as exc:
            yield name, exc
        except UnicodeDecodeError:
            yield name, LogFormatError(NOT_UTF8_NAME)
        except ZIP_ERRORS as exc:
            yield (
                name,
                LogFormatError(f"this zip member cannot be read ({type(exc).__name__}: {exc})"),
            )


def iter_zip(fileobj: IO[bytes], label: str) -> Iterator[Entry]:
    """Every file member of a zip, as ``label/member`` with its bytes or its error."""
    try:
        zf, infos = open_zip(fileobj)
    except PywallError as exc:
        yield label, exc
        return
    with zf:
        yield from iter_members(zf, infos, label)


def count_zip(fileobj: IO[bytes]) -> int:
    """How many entries ``iter_zip`` yields (1 for a zip refused as a whole)."""
    try:
        zf, infos = open_zip(fileobj)
    except PywallError:
        return 1
    zf.close()
    return len(infos)
