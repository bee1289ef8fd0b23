"""The one input layer: files, folders, stdin, zip archives and phoenix-logs
databases, as a stream of entries. Used by the CLI and by the web worker.

Like the CLI, this is a driver: it opens files and databases; what it reads
is decoded by the pure ``pywall.core.archives``. ``iter_inputs`` yields
``archives.Entry`` values, ``(name, bytes)`` or ``(name, PywallError)``, one
input at a time, so a bad input never stops the others and memory does not
grow with the batch. ``iter_packed_inputs`` is the same except that a database
row comes as ``archives.Packed`` (still compressed), for a worker process to
open with ``archives.unpack``. Archives are recognised by their first bytes,
never by their names. ``count_inputs`` is the cheap first pass that gives a
progress bar its total. Paths in folders that are not checked are reported
to the caller's ``skipped`` list, each with its reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from pywall.core.archives import HEAD_BYTES, Entry, PackedEntry, is_sqlite, is_zip, unpack
from pywall.core.errors import LogFormatError, PywallError
from pywall.inputs.databases import count_database, iter_database
from pywall.inputs.files import (
    NOT_A_LOG,
    Skipped,
    Unreadable,
    looks_like_log,
    open_regular,
    read_capped,
    sniff,
    stdin_entry,
    walk,
)
from pywall.inputs.zips import count_zip, iter_zip

__all__ = [
    "Entry",
    "PackedEntry",
    "Skipped",
    "Unreadable",
    "count_file",
    "count_inputs",
    "item_at",
    "items_from_file",
    "iter_inputs",
    "iter_packed_inputs",
]


def items_from_file(
    path: Path, packed: bool = False, label: str | None = None
) -> Iterator[PackedEntry]:
    """One file's logs: itself, each member of a zip, or each game of a database.

    Names start with ``label`` (the path by default; the web page passes the
    file's name as the person chose it, its bytes being in a scratch file).
    """
    label = str(path) if label is None else label
    try:
        with open_regular(path) as f:
            head = f.read(HEAD_BYTES)
            if is_zip(head):
                f.seek(0)
                yield from iter_zip(f, label)
                return
    except PywallError as exc:
        yield label, exc
        return
    except OSError as exc:
        yield label, Unreadable(f"cannot read it: {exc.strerror or exc}")
        return
    if is_sqlite(head):
        yield from iter_database(path, packed, label)
        return
    try:
        yield label, read_capped(path)
    except PywallError as exc:
        yield label, exc


def item_at(path: Path, index: int, label: str | None = None) -> Entry:
    """The ``index``-th (0-based) log ``items_from_file`` yields, to check one game again.

    Rows before it are skipped still packed (no decompression, no parsing).
    """
    if index >= 0:
        for name, content in islice(items_from_file(path, True, label), index, None):
            return name, unpack(content)
    return (str(path) if label is None else label), LogFormatError(
        f"this archive has no game number {index + 1}"
    )


def iter_inputs(args: list[str], skipped: list[Skipped]) -> Iterator[Entry]:
    """Every log named by the command line, in order; folders recursively.
    Paths in folders that are not checked are added to ``skipped``."""
    for name, content in _inputs(args, skipped, packed=False):
        yield name, unpack(content)


def iter_packed_inputs(args: list[str], skipped: list[Skipped]) -> Iterator[PackedEntry]:
    """``iter_inputs`` with database rows left packed (see ``archives.Packed``)."""
    return _inputs(args, skipped, packed=True)


def _inputs(args: list[str], skipped: list[Skipped], packed: bool) -> Iterator[PackedEntry]:
    for arg in args:
        if arg == "-":
            yield stdin_entry()
            continue
        path = Path(arg)
        if path.is_dir():
            yield from _folder(path, skipped, packed)
        elif path.exists():
            yield from items_from_file(path, packed)
        else:
            yield (
                arg,
                Unreadable(
                    "no such file or folder" if not path.is_symlink() else "a broken symbolic link"
                ),
            )


def _folder(folder: Path, skipped: list[Skipped], packed: bool) -> Iterator[PackedEntry]:
    for found in walk(folder):
        if found.error is not None:
            yield str(found.path), found.error
        elif found.skipped is not None:
            skipped.append(Skipped(str(found.path), found.skipped))
        else:
            head = sniff(found.path)
            if isinstance(head, PywallError):
                yield str(found.path), head
            elif looks_like_log(head):
                yield from items_from_file(found.path, packed)
            else:
                skipped.append(Skipped(str(found.path), NOT_A_LOG))


def count_file(path: Path) -> int:
    """How many entries ``items_from_file`` yields for ``path``, without reading logs."""
    try:
        with open_regular(path) as f:
            head = f.read(HEAD_BYTES)
            if is_zip(head):
                f.seek(0)
                return count_zip(f)
    except (PywallError, OSError):
        return 1
    return count_database(path) if is_sqlite(head) else 1


def count_inputs(args: list[str]) -> int:
    """The number of entries ``iter_inputs`` will yield (for a progress bar's total)."""
    total = 0
    for arg in args:
        path = Path(arg)
        if arg != "-" and path.is_dir():
            for found in walk(path):
                if found.error is not None:
                    total += 1
                elif found.skipped is None:
                    head = sniff(found.path)
                    total += (
                        1
                        if isinstance(head, PywallError)
                        else count_file(found.path)
                        if looks_like_log(head)
                        else 0
                    )
        else:
            total += count_file(path) if arg != "-" and path.exists() else 1
    return total
