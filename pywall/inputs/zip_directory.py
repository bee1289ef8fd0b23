"""A zip's directory, looked at before ``zipfile`` reads it.

``zipfile.ZipFile`` builds a ``ZipInfo`` for every entry of the central directory
as it opens the archive (about 550 bytes of memory each: a million entries is half a
gigabyte), and refuses the whole archive when one entry that says its name is UTF-8
is not. So the end-of-central-directory record (APPNOTE 4.3.16; 4.3.14-15 for
ZIP64), which states the entry count and the directory's size, is read first and a
directory over the caps is refused; and when ``zipfile`` stumbles on a name, the
directory is read again through ``_Renamed``, which shows such names with ``?`` for
their non-ASCII bytes (same length, so every offset holds), so that only that member
is lost: opening it fails on its local header's name (``NOT_UTF8_NAME``).
"""

from __future__ import annotations

import struct
import zipfile
from typing import IO, Any

#: Entries a zip may have: 200,000 cost about 110 MB of directory in ``zipfile``.
MAX_MEMBERS = 200_000
#: Bytes of central directory (names and extra fields: at most 32 MiB of them in memory).
MAX_DIRECTORY_BYTES = 32 * 1024 * 1024
NOT_UTF8_NAME = "the zip marks this member's name as UTF-8, but it is not; the member is not read"

_EOCD = b"PK\x05\x06"
_EOCD64 = b"PK\x06\x06"
_LOCATOR64 = b"PK\x06\x07"
_ENTRY = b"PK\x01\x02"
_EOCD_SIZE, _LOCATOR64_SIZE, _EOCD64_SIZE, _ENTRY_SIZE = 22, 20, 56, 46
_UTF8_FLAG = 0x800


def _tail(f: IO[bytes]) -> tuple[bytes, int]:
    """The file's last bytes (the EOCD and a comment of up to 64 KiB) and where they start."""
    size = f.seek(0, 2)
    start = max(0, size - _EOCD_SIZE - 0xFFFF - _LOCATOR64_SIZE - _EOCD64_SIZE)
    f.seek(start)
    return f.read(), start


def directory_extent(f: IO[bytes]) -> tuple[int, int, int] | None:
    """(entries, the directory's size, where it starts) as the end records state them, found
    as ``zipfile`` finds them; None when there is no end record (``zipfile`` says why)."""
    tail, base = _tail(f)
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < _EOCD_SIZE:
        return None
    entries, size = struct.unpack("<HI", tail[at + 10 : at + 16])
    location = base + at
    loc = at - _LOCATOR64_SIZE
    if loc >= _EOCD64_SIZE and tail[loc : loc + 4] == _LOCATOR64:
        record = tail[loc - _EOCD64_SIZE : loc]
        if record[:4] == _EOCD64:
            entries, size = struct.unpack("<QQ", record[32:48])
            location = base + loc - _EOCD64_SIZE
    return entries, size, location - size


def directory_problem(f: IO[bytes]) -> str | None:
    """Why the zip's directory is too big to read, or None; leaves ``f`` at its start."""
    extent = directory_extent(f)
    f.seek(0)
    if extent is None or extent[2] < 0:
        return None
    entries, size, start = extent
    if entries > MAX_MEMBERS:
        return f"the zip has {entries:,} members; the cap is {MAX_MEMBERS:,}"
    if size > MAX_DIRECTORY_BYTES:
        return f"the zip's directory is {size:,} bytes; the cap is {MAX_DIRECTORY_BYTES:,}"
    # The 16-bit count may be a writer's 0xFFFF or a lie; zipfile reads by the size.
    if size > MAX_MEMBERS * _ENTRY_SIZE and _entries_over_cap(f, start, size):
        f.seek(0)
        return f"the zip has over {MAX_MEMBERS:,} members; the cap is {MAX_MEMBERS:,}"
    f.seek(0)
    return None


def _entries_over_cap(f: IO[bytes], start: int, size: int) -> bool:
    """Whether the directory at ``start`` holds more than ``MAX_MEMBERS`` entries."""
    f.seek(start)
    directory = f.read(size)
    at = count = 0
    while directory[at : at + 4] == _ENTRY and count <= MAX_MEMBERS:
        lengths = struct.unpack_from("<HHH", directory, at + 28) if at + 34 <= size else (0, 0, 0)
        at += _ENTRY_SIZE + sum(lengths)
        count += 1
    return count > MAX_MEMBERS


def zip_file(f: IO[bytes]) -> zipfile.ZipFile:
    """``zipfile.ZipFile(f)``, or, when a name marked UTF-8 is not, the same read through
    ``_Renamed`` (raises what ``zipfile`` raises otherwise)."""
    try:
        return zipfile.ZipFile(f)
    except UnicodeDecodeError:
        extent = directory_extent(f)
        if extent is None:
            raise
        _, size, start = extent
        f.seek(start)
        directory = _renamed(f.read(size))
        f.seek(0)
        return zipfile.ZipFile(_Renamed(f, start, directory))


def _renamed(directory: bytes) -> bytes:
    """The central directory with every name marked UTF-8 that is not made ASCII (``?``)."""
    out = bytearray(directory)
    at = 0
    while out[at : at + 4] == _ENTRY and at + _ENTRY_SIZE <= len(out):
        flags = struct.unpack("<H", out[at + 8 : at + 10])[0]
        name_len, extra_len, comment_len = struct.unpack("<HHH", out[at + 28 : at + 34])
        name = slice(at + _ENTRY_SIZE, at + _ENTRY_SIZE + name_len)
        if flags & _UTF8_FLAG:
            try:
                bytes(out[name]).decode("utf-8")
            except UnicodeDecodeError:
                out[name] = bytes(b if b < 0x80 else 0x3F for b in out[name])
        at = name.stop + extra_len + comment_len
    return bytes(out)


class _Renamed:
    """A read-only view of a zip file whose central directory reads as ``directory``."""

    def __init__(self, f: IO[bytes], start: int, directory: bytes) -> None:
        self._f, self._start, self._directory = f, start, directory

    def read(self, n: int = -1) -> bytes:
        at = self._f.tell()
        data = self._f.read(n)
        lo, hi = max(at, self._start), min(at + len(data), self._start + len(self._directory))
        if lo >= hi:
            return data
        patch = self._directory[lo - self._start : hi - self._start]
        return data[: lo - at] + patch + data[hi - at :]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)  # seek, tell, seekable, close
