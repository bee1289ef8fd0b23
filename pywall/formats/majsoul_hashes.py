"""The hash-only path of Mahjong Soul records: ``parse_hashes(data) -> MajsoulRecord``.

For ``pywall majsoul`` and the page's hash panel, which check the digests of a
record without reading the game (``pywall.formats.majsoul`` reads the game):
export tools nest the decoded record differently, so this path trusts no one
shape. It walks the JSON in document order and takes every object with a
``paishan`` key as one round, with the hash fields beside it; a copy of the same
round (same wall and hashes) is kept once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pywall.core.errors import LogFormatError
from pywall.core.model import HashClaim, RoundHashes
from pywall.formats.jsonrecord import document_from_data, game_id

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


def parse_hashes(data: bytes | str) -> MajsoulRecord:
    """Every round that has a ``paishan``, anywhere in the JSON, with its hash fields
    (copies of the same round kept once); for checking hashes without the game."""
    document = document_from_data(data)
    rounds = rounds_from_document(document)
    if not rounds:
        raise LogFormatError(
            "no round with a 'paishan' field: this is not a Mahjong Soul game record "
            "saved as JSON with its rounds decoded"
        )
    head = document.get("head") if isinstance(document, dict) else None
    uuid = head_text(head, "uuid") if isinstance(head, dict) else None
    if uuid is None and isinstance(document, dict):
        uuid = head_text(document, "uuid")
    return MajsoulRecord(tuple(rounds), uuid)


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


def round_from_object(node: dict[str, Any], path: str) -> RoundHashes:
    paishan = node["paishan"]
    if not isinstance(paishan, str):
        raise LogFormatError("'paishan' is not text", path)
    texts = {name: _hash_text(node, keys, path) for name, keys in _HASH_FIELDS.items()}
    return RoundHashes(
        paishan,
        salt=texts["salt"],
        sha256=texts["sha256"],
        salt_sha256=texts["salt_sha256"],
        md5=texts["md5"],
        chang=_small_int(node.get("chang")),
        ju=_small_int(node.get("ju")),
        ben=_small_int(node.get("ben")),
    )


def _hash_text(node: dict[str, Any], keys: tuple[str, ...], path: str) -> str | None:
    for key in keys:
        value = node.get(key)
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


def claims_from_round(stated: RoundHashes, undealt: bool) -> tuple[HashClaim, ...]:
    """The digests a Mahjong Soul round states, each with the exact text it was computed over
    (FACTS-platforms A7): ``sha256`` over paishan + salt, ``saltSha256`` over the salt (both
    uncheckable, message ``None``, without the salt), ``md5`` over the paishan, which holds
    only the undealt tiles before 2023-05-23 (``undealt``)."""
    paishan, salt = stated.paishan, stated.salt
    claims = []
    if stated.sha256 is not None:
        message = None if salt is None else paishan + salt
        claims.append(
            HashClaim("sha256", "sha256", message, stated.sha256, "wall", True, "paishan + salt")
        )
    if stated.salt_sha256 is not None:
        claims.append(
            HashClaim("saltSha256", "sha256", salt, stated.salt_sha256, "salt", False, "salt")
        )
    if stated.md5 is not None:
        covers = "undealt" if undealt else "wall"
        claims.append(HashClaim("md5", "md5", paishan, stated.md5, covers, False, "paishan"))
    return tuple(claims)


def head_text(head: dict[str, Any], key: str) -> str | None:
    return game_id(head.get(key), f"head, {key}")
