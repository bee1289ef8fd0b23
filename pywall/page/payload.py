"""The arguments of the page's requests: typed fields of a JSON payload, or ``BadRequest``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pywall.core.errors import PywallError

MAX_TEXT = 8 * 1024 * 1024

Payload = Mapping[str, Any]


class BadRequest(PywallError):
    code = "bad_request"


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
