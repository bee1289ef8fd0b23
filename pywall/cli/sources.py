"""Where the CLI's inputs come from: files, folders, stdin and zip archives.

Yields ``(name, bytes)`` or ``(name, PywallError)`` one input at a time, so a
bad input never stops the others and memory does not grow with the batch.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from pywall.archives import is_zip, iter_zip
from pywall.errors import InputTooLargeError, PywallError
from pywall.formats.mjlog import GZIP_MAGIC, MAX_INPUT_BYTES

Item = tuple[str, "bytes | PywallError"]


class Unreadable(PywallError):
    code = "unreadable"


def looks_like_log(path: Path) -> bool:
    """For files found in folders: gzip, zip, or text that starts an mjlog."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return True  # let reading it report the problem
    return head[:2] == GZIP_MAGIC or is_zip(head) or b"<mjloggm" in head


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


def items_from_file(path: Path) -> Iterator[Item]:
    try:
        with path.open("rb") as f:
            head = f.read(4)
    except OSError as exc:
        yield str(path), Unreadable(f"cannot read it: {exc.strerror or exc}")
        return
    if is_zip(head):
        with path.open("rb") as f:
            yield from iter_zip(f, str(path))
        return
    try:
        yield str(path), read_capped(path)
    except PywallError as exc:
        yield str(path), exc


def iter_inputs(args: list[str], skipped: list[str]) -> Iterator[Item]:
    """Every log named by the command line, in order; folders recursively."""
    for arg in args:
        if arg == "-":
            yield read_stdin()
            continue
        path = Path(arg)
        if path.is_dir():
            for found in walk(path):
                if looks_like_log(found):
                    yield from items_from_file(found)
                else:
                    skipped.append(str(found))
        elif path.exists():
            yield from items_from_file(path)
        else:
            yield arg, Unreadable("no such file or folder")
