"""Files, folders and standard input: which paths are read, and their bytes.

Only regular files are ever opened for reading logs. A FIFO, socket or device
would block or never end: named on the command line it is an error entry, met
in a folder it is skipped with its reason. Files are opened non-blocking and
checked with ``fstat`` on the open descriptor, so a path swapped for a FIFO
between a check and the open cannot hang the run either. Folders are searched
in sorted order; symbolic links to folders are followed, once each (a link
back into a folder already searched is skipped, not looped over); a folder
that cannot be listed is an error entry (it makes the exit code 2), never a
silent gap.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pywall.core.archives import MAX_INPUT_BYTES, Entry, is_archive, is_gzip
from pywall.core.errors import InputTooLargeError, PywallError
from pywall.formats.jsonrecord import looks_like_json

SNIFF_BYTES = 4096


class Unreadable(PywallError):
    code = "unreadable"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A path in a folder that was not checked, and why."""

    path: str
    reason: str


NOT_A_LOG = "not a log"
NOT_REGULAR = "not a regular file"
BROKEN_LINK = "a broken symbolic link"
LINK_LOOP = "a link to a folder already searched"


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _why(exc: OSError) -> str:
    return str(exc.strerror or exc)


def open_regular(path: Path, follow: bool = True) -> BinaryIO:
    """``path`` opened for reading if it is a regular file (else ``Unreadable``).

    Opened with O_NONBLOCK, so even a FIFO never blocks the open itself. With ``follow``
    false a symbolic link is refused, not followed (O_NOFOLLOW where the system has it).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow:
        _refuse_link(path)
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise Unreadable(LINK_REFUSED) from None
        raise Unreadable(f"cannot read it: {_why(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise Unreadable(f"cannot read it: {_why(exc)}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise Unreadable(f"{_kind(mode)}, not a regular file: pywall reads only files")
    return os.fdopen(fd, "rb")


LINK_REFUSED = "a symbolic link: pywall does not follow links here"


def _refuse_link(path: Path) -> None:
    """``Unreadable`` when ``path`` is a symbolic link (systems without O_NOFOLLOW)."""
    if path.is_symlink():
        raise Unreadable(LINK_REFUSED)


def head_of(path: Path, size: int = 16) -> bytes:
    with open_regular(path) as f:
        return f.read(size)


def read_capped(path: Path, limit: int = MAX_INPUT_BYTES, follow: bool = True) -> bytes:
    """A regular file's bytes, refused over ``limit`` (checked before and while reading);
    a symbolic link refused when ``follow`` is false."""
    with open_regular(path, follow) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise InputTooLargeError(
                f"the file is over {limit:,} bytes ({size:,}); pywall reads less"
            )
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise Unreadable(f"cannot read it: {_why(exc)}") from None
    if len(data) > limit:
        raise InputTooLargeError(f"the file is over {limit:,} bytes; pywall reads less")
    return data


def read_stdin(limit: int = MAX_INPUT_BYTES) -> bytes:
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise InputTooLargeError(f"standard input is over {limit:,} bytes")
    return data


def read_named(name: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file named by a person (``-``: standard input), capped."""
    if name == "-":
        return read_stdin(limit)
    try:
        return read_capped(Path(name), limit)
    except Unreadable as exc:
        raise Unreadable(
            f"cannot read {name}: {exc.message.removeprefix('cannot read it: ')}"
        ) from None
    except InputTooLargeError as exc:
        raise InputTooLargeError(f"{name}: {exc.message}") from None


def stdin_entry() -> Entry:
    try:
        return "-", read_stdin()
    except PywallError as exc:
        return "-", exc


#: Words near the start of a Mahjong Soul or Riichi City JSON record (its head,
#: first event or API answer), whatever the file is called.
_JSON_RECORD_WORDS = (b'"head"', b"NewRound", b"paishan", b"handRecord", b"keyValue")


def looks_like_log(head: bytes) -> bool:
    """For files found in folders: gzip, zip, SQLite, text that starts an mjlog, or a
    JSON object that names a Mahjong Soul or Riichi City record near its start."""
    if looks_like_json(head) and any(word in head for word in _JSON_RECORD_WORDS):
        return True
    return is_gzip(head) or is_archive(head) or b"<mjloggm" in head


# --- folders ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Found:
    """What a folder search meets: a file to read, a path skipped, or a folder it cannot list."""

    path: Path
    skipped: str | None = None
    error: PywallError | None = None


def walk(folder: Path) -> Iterator[Found]:
    """Every file under ``folder`` (sorted, hidden names left out), following links once."""
    seen: set[tuple[int, int]] = set()
    yield from _walk(folder, seen)


def _walk(folder: Path, seen: set[tuple[int, int]]) -> Iterator[Found]:
    try:
        st = folder.stat()
        if (st.st_dev, st.st_ino) in seen:
            yield Found(folder, skipped=LINK_LOOP)
            return
        seen.add((st.st_dev, st.st_ino))
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if not e.name.startswith("."))
    except OSError as exc:
        yield Found(folder, error=Unreadable(f"cannot search this folder: {_why(exc)}"))
        return
    for name in names:
        path = folder / name
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            yield Found(path, skipped=BROKEN_LINK)
            continue
        except OSError as exc:
            yield Found(path, error=Unreadable(f"cannot read it: {_why(exc)}"))
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(path, seen)
        elif stat.S_ISREG(mode):
            yield Found(path)
        else:
            yield Found(path, skipped=f"{NOT_REGULAR} ({_kind(mode)})")


def sniff(path: Path) -> bytes | PywallError:
    """The first bytes of a file found in a folder, or why it cannot be read."""
    try:
        return head_of(path, SNIFF_BYTES)
    except PywallError as exc:
        return exc
    except OSError as exc:
        return Unreadable(f"cannot read it: {_why(exc)}")


def write_atomically(path: Path, data: bytes) -> Path:
    """``data`` in ``path``, all or nothing, never through a symbolic link.

    Written to a fresh temporary file in the same folder, created exclusively
    (O_CREAT | O_EXCL, and O_NOFOLLOW where the system has it) under a random name, so
    nothing planted in the folder (a link named as the temporary file, another run's
    file) is opened or overwritten; then renamed over ``path`` (``os.replace`` replaces a
    link there, never what it points to). A run stopped at any point leaves ``path`` as
    it was or whole, and no temporary file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | os.O_EXCL
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_BINARY", 0)
        | getattr(os, "O_CLOEXEC", 0)
    )
    temp = path.parent / f".part-{secrets.token_hex(8)}-{path.name}"
    fd = -1
    try:
        fd = os.open(temp, flags, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if fd != -1:  # ours: created by this call (a planted file makes the open fail)
            temp.unlink(missing_ok=True)
        raise
    return path
