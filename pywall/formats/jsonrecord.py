"""Shared by the readers of JSON game records (Mahjong Soul, Riichi City).

Bytes (plain or gzip) or text become a JSON document within a size cap, and values are taken
out of it with small typed getters that raise ``LogFormatError`` naming where
(a JSON path such as ``round 3, event 17``): a reader never lets a ``KeyError``
or ``TypeError`` out, whatever the document holds.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from pywall.core.archives import MAX_INPUT_BYTES as MAX_GZIP_BYTES
from pywall.core.archives import MAX_XML_BYTES, gunzip_bounded, is_gzip
from pywall.core.errors import InputTooLargeError, LogFormatError, ValueInputError
from pywall.core.limits import MAX_RECORD_BYTES, json_depth_problem, json_values_problem
from pywall.core.tiles import face_from_code

#: Capped like a log (16 MiB of text, plain or out of a gzip).
MAX_INPUT_BYTES = MAX_RECORD_BYTES
_BOM = "\ufeff"


def unpacked(data: bytes | str) -> bytes | str:
    """gzip bytes decompressed, with a gzip mjlog's caps (``MAX_GZIP_BYTES`` in,
    ``MAX_XML_BYTES`` out: a bomb is refused); anything else as it is."""
    if isinstance(data, (bytes, bytearray, memoryview)) and is_gzip(bytes(data[:2])):
        if len(data) > MAX_GZIP_BYTES:
            raise InputTooLargeError(
                f"the gzip record is {len(data):,} bytes; pywall reads up to {MAX_GZIP_BYTES:,}"
            )
        return gunzip_bounded(bytes(data), MAX_XML_BYTES)
    return data


def text_from_data(data: bytes | str) -> str:
    """Bytes (UTF-8, with or without a BOM; gzip too) or text, bounded in size."""
    data = unpacked(data)
    if isinstance(data, (bytes, bytearray, memoryview)):
        if len(data) > MAX_INPUT_BYTES:
            raise InputTooLargeError(f"the record is over {MAX_INPUT_BYTES // 2**20} MiB")
        try:
            return bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LogFormatError("the record is not UTF-8 text", f"byte {exc.start}") from None
    if isinstance(data, str):
        if len(data) > MAX_INPUT_BYTES:
            raise InputTooLargeError(f"the record is over {MAX_INPUT_BYTES // 2**20} MiB")
        return data.removeprefix(_BOM)
    raise LogFormatError("a record must be bytes or text")


def loads(text: str, where: str | None = None) -> Any:
    """``json.loads`` with every failure as ``LogFormatError``; text that would nest too
    deep or make too many objects (``pywall.core.limits``) is refused before it."""
    at = f" ({where})" if where else ""
    problem = json_values_problem(text)
    if problem is not None:
        raise InputTooLargeError(f"not a JSON record pywall reads: {problem}{at}")
    problem = json_depth_problem(text)
    if problem is not None:
        raise LogFormatError(f"not JSON pywall can read: {problem}", where)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno} column {exc.colno}"
        raise LogFormatError(f"not JSON: {exc.msg}", f"{where}, {at}" if where else at) from None
    except (ValueError, RecursionError) as exc:  # huge integers, absurd nesting
        raise LogFormatError(f"not JSON pywall can read: {type(exc).__name__}", where) from None


def document_from_data(data: bytes | str) -> Any:
    """Bytes or text -> the JSON document; bounded in size, errors as LogFormatError."""
    return loads(text_from_data(data))


def looks_like_json(data: bytes | str) -> bool:
    """Whether the content starts like a JSON object or array (BOM and blanks skipped)."""
    head = data[:64]
    if isinstance(head, str):
        return head.lstrip(_BOM + " \t\r\n")[:1] in ("{", "[")
    return bytes(head).removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")[:1] in (b"{", b"[")


def obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LogFormatError("expected a JSON object", where)
    return value


def array(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise LogFormatError("expected a JSON array", where)
    return value


def integer(value: Any, where: str, lo: int, hi: int) -> int:
    """An int in ``lo..hi`` (digit strings too: protobuf JSON writes some numbers so)."""
    if (
        isinstance(value, str)
        and value.isascii()
        and value.lstrip("-").isdigit()
        and len(value) < 12
    ):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise LogFormatError(
            f"expected a whole number from {lo} to {hi}, not {_shown(value)}", where
        )
    return value


def text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise LogFormatError(f"expected text, not {_shown(value)}", where)
    return value


def optional_text(d: dict[str, Any], key: str, where: str) -> str | None:
    """A text field; absent, null and "" all mean "not stated"."""
    value = d.get(key)
    if value is None or value == "":
        return None
    return text(value, f"{where}, {key}")


def hashable_text(value: str, where: str) -> str:
    """Text that is hashed as UTF-8: a lone surrogate (JSON can carry ``\\ud800``) has no
    UTF-8 form, so no server can have hashed it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise LogFormatError("text that cannot be UTF-8 (a lone surrogate)", where) from None
    return value


def game_id(value: Any, where: str) -> str | None:
    """A record's id of its game: text, or None when not stated; a lone surrogate (JSON
    can carry ``\\ud800``) is no id a platform gives, and no output could write it."""
    if not isinstance(value, str) or not value:
        return None
    return hashable_text(value, where)


#: Every 2-character tile code (``1m``..``0m``..``7z``) -> its face id.
FACES = {f"{d}{s}": face_from_code(f"{d}{s}") for s in "mps" for d in "0123456789"} | {
    f"{d}z": face_from_code(f"{d}z") for d in "1234567"
}


def face(code: Any, where: str) -> int:
    """A tile code as the platforms write it (``"0p"``) -> its face id (52)."""
    found = FACES.get(code) if type(code) is str else None
    if found is not None:
        return found
    try:
        return face_from_code(text(code, where))
    except ValueInputError as exc:
        raise LogFormatError(exc.message, where) from None


def faces_from_text(s: str, where: str) -> tuple[int, ...]:
    """A wall written as 2-character codes (``paishan``, ``handCardEncode``) -> face ids."""
    if len(s) % 2 or len(s) > 400:
        raise LogFormatError(f"a wall of {len(s)} characters is not 2-character tile codes", where)
    return tuple(face(s[i : i + 2], f"{where}, tile {i // 2 + 1}") for i in range(0, len(s), 2))


def date_from_unix(seconds: Any) -> str | None:
    """Unix seconds (as records state a game's time; the protobuf JSON mapping writes a
    64-bit one as a digit string) -> ISO 8601 in UTC; None if absent."""
    if isinstance(seconds, str) and seconds.isascii() and seconds.isdecimal() and len(seconds) < 12:
        seconds = int(seconds)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds < 2**33:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _shown(value: Any) -> str:
    shown = (
        json.dumps(value, ensure_ascii=False)
        if not isinstance(value, (dict, list))
        else type(value).__name__
    )
    return shown if len(shown) <= 40 else shown[:37] + "..."
