"""The arguments of the page's requests: typed fields of a JSON payload, or ``BadRequest``."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pywall.core.errors import PywallError

MAX_TEXT = 8 * 1024 * 1024

Payload = Mapping[str, Any]


class BadRequest(PywallError):
    code = "bad_request"


#: A JSON escape that can make impossible text: a NUL, or half of a surrogate pair.
_SUSPECT = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def impossible_text(payload_json: str, value: Any) -> str | None:
    """Where a decoded payload holds text no file name, name or record holds: a NUL, or a
    lone surrogate (not Unicode: it cannot be encoded). The JSON text is searched first,
    so a payload without such an escape costs one scan; ``None`` when there is none."""
    if not _SUSPECT.search(payload_json):
        return None
    stack: list[tuple[str, Any]] = [("the payload", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            for key, v in item.items():
                stack += [(f"{key!r}"[:60], key), (f"{key!r}"[:60], v)]
        elif isinstance(item, list):
            stack += [(where, v) for v in item]
        elif isinstance(item, str):
            if "\x00" in item:
                return f"{where} holds a NUL character"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"{where} holds text that is not Unicode (half of a surrogate pair)"
    return None


def arg(payload: Payload, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    """A payload field of the given type (bool is not an int), or the default."""
    value = payload.get(key, default)
    if value is default and default is not None:
        return value
    if value is None or isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise BadRequest(f"{key!r} must be {getattr(kind, '__name__', 'of another type')}")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise BadRequest(f"{key!r} is over {MAX_TEXT // 2**20} MiB")
    return value


def bounded(payload: Payload, key: str, lo: int, hi: int, default: int | None = None) -> int:
    value: int = arg(payload, key, int, default)
    if not lo <= value <= hi:
        raise BadRequest(f"{key!r} must be from {lo} to {hi}")
    return value


#: A request's handler: the payload and a file's bytes in, the reply (a JSON object) out.
Handler = Callable[[Payload, "bytes | None"], dict[str, Any]]
