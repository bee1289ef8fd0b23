"""Mahjong Soul game records as JSON: ``parse(data) -> MajsoulRecord``.

Theory of operation: the game's own protobuf message ``RecordNewRound``
(liqi.proto) has ``chang``, ``ju``, ``ben``, ``md5``, ``paishan``, ``sha256``,
``saltSha256`` and ``salt``. Export tools save the decoded record as JSON but
nest it differently (``{"head", "data": {"actions": [{"result": {"name":
".lq.RecordNewRound", "data": {...}}}]}}``, a flat ``records`` list, a live
capture's ``ActionNewRound``...), so this reader does not trust any one shape:
it walks the JSON in document order and takes every object that has a
``paishan`` key as one round, with the round fields found beside it. A copy of
the same round (same wall and hashes) is kept once. Anything it cannot read
raises ``LogFormatError`` saying where (a JSON path).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pywall.errors import InputTooLargeError, LogFormatError
from pywall.model import RoundHashes

MAX_INPUT_BYTES = 64 * 1024 * 1024
_HASH_FIELDS = {
    "salt": ("salt",),
    "sha256": ("sha256",),
    "salt_sha256": ("saltSha256", "salt_sha256"),
    "md5": ("md5",),
}


@dataclass(frozen=True, slots=True)
class MajsoulRecord:
    """The rounds of one game record, in order; ``uuid`` from ``head`` when present."""

    rounds: tuple[RoundHashes, ...]
    uuid: str | None = None


def parse(data: bytes | str) -> MajsoulRecord:
    """Read a Mahjong Soul record saved as JSON; every round that has a ``paishan``."""
    document = document_from_data(data)
    rounds = rounds_from_document(document)
    if not rounds:
        raise LogFormatError(
            "no round with a 'paishan' field: this is not a Mahjong Soul game record "
            "saved as JSON with its rounds decoded"
        )
    return MajsoulRecord(tuple(rounds), _uuid(document))


def document_from_data(data: bytes | str) -> Any:
    """Bytes or text -> the JSON document; bounded in size, errors as LogFormatError."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_INPUT_BYTES:
            raise InputTooLargeError(f"the record is over {MAX_INPUT_BYTES // 2**20} MiB")
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LogFormatError("the record is not UTF-8 text", f"byte {exc.start}") from None
    elif isinstance(data, str):
        if len(data) > MAX_INPUT_BYTES:
            raise InputTooLargeError(f"the record is over {MAX_INPUT_BYTES // 2**20} MiB")
        text = data.removeprefix("\ufeff")
    else:
        raise LogFormatError("a record must be bytes or text")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogFormatError(
            f"not JSON: {exc.msg}", f"line {exc.lineno} column {exc.colno}"
        ) from None
    except (ValueError, RecursionError) as exc:  # huge integers, absurd nesting
        raise LogFormatError(f"not JSON pywall can read: {type(exc).__name__}") from None


def rounds_from_document(document: Any) -> list[RoundHashes]:
    """Every object with a ``paishan`` key, depth-first in document order."""
    rounds: list[RoundHashes] = []
    seen: set[RoundHashes] = set()
    stack: list[tuple[Any, str]] = [(document, "$")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if "paishan" in node:
                found = round_from_object(node, path)
                if found not in seen:
                    seen.add(found)
                    rounds.append(found)
                continue
            children = [(v, f"{path}.{k}") for k, v in node.items()]
        elif isinstance(node, list):
            children = [(v, f"{path}[{i}]") for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))
    return rounds


def round_from_object(obj: dict[str, Any], path: str) -> RoundHashes:
    paishan = obj["paishan"]
    if not isinstance(paishan, str):
        raise LogFormatError("'paishan' is not text", path)
    texts = {name: _text(obj, keys, path) for name, keys in _HASH_FIELDS.items()}
    return RoundHashes(
        paishan,
        salt=texts["salt"],
        sha256=texts["sha256"],
        salt_sha256=texts["salt_sha256"],
        md5=texts["md5"],
        chang=_small_int(obj.get("chang")),
        ju=_small_int(obj.get("ju")),
        ben=_small_int(obj.get("ben")),
    )


def _text(obj: dict[str, Any], keys: tuple[str, ...], path: str) -> str | None:
    """A string field; absent, null and "" all mean "not stated"."""
    for key in keys:
        value = obj.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise LogFormatError(f"'{key}' is not text", path)
        return value
    return None


def _small_int(value: Any) -> int | None:
    """Round numbers as protobuf JSON writes them (numbers, sometimes digit strings)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 6:
        value = int(value)
    if isinstance(value, int) and 0 <= value < 100:
        return value
    return None


def _uuid(document: Any) -> str | None:
    if isinstance(document, dict):
        head = document.get("head")
        for holder in (head, document):
            if isinstance(holder, dict) and isinstance(holder.get("uuid"), str):
                return str(holder["uuid"])
    return None
