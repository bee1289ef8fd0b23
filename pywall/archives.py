"""Logs inside archives: zip files read member by member, with bounds.

The caller hands in a binary file object (a real file from the CLI, an
in-memory buffer in the browser); members are read one at a time so memory
stays flat. Each member yields ``(name, data)`` or ``(name, PywallError)``:
one corrupt or oversized member never stops the others.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from typing import IO

from pywall.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats.mjlog import MAX_INPUT_BYTES

MAX_MEMBERS = 1_000_000
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"


def is_zip(head: bytes) -> bool:
    return head[:4] in (ZIP_MAGIC, EMPTY_ZIP_MAGIC)


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.file_size > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"{info.file_size:,} bytes uncompressed; the cap is {MAX_INPUT_BYTES:,}")
    with zf.open(info) as member:
        data = member.read(MAX_INPUT_BYTES + 1)  # the header may lie about the size
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"expands beyond {MAX_INPUT_BYTES:,} bytes; refused as a likely bomb")
    return data


def iter_zip(fileobj: IO[bytes], label: str) -> Iterator[tuple[str, bytes | PywallError]]:
    """Every file member of a zip, as ``label/member`` with its bytes or its error."""
    try:
        zf = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        yield label, LogFormatError(f"not a readable zip file ({exc})")
        return
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
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
