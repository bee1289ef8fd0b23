"""Readers of game records, one module per platform's format: bytes in, ``model.Game`` out.

``parse_record`` picks the reader by the content, never by the file's name: a
JSON object is a Riichi City record when it holds ``handRecord``, a Mahjong Soul
record when it holds a list of events with a ``NewRound``; anything else is
read as a Tenhou mjlog. Any of them may come gzip-compressed (``.mjlog``,
``.json.gz``): it is decompressed first, with the same caps.
"""

from __future__ import annotations

from pywall.core.errors import LogFormatError
from pywall.core.model import Game
from pywall.formats import majsoul, mjlog, riichicity
from pywall.formats.jsonrecord import document_from_data, looks_like_json, unpacked


def parse_record(data: bytes | str, name: str | None = None) -> Game:
    """The game in ``data`` (plain or gzip); ``PywallError`` if unreadable."""
    data = unpacked(data)
    if not looks_like_json(data):
        return mjlog.parse(data, name)
    document = document_from_data(data)
    if riichicity.is_riichicity(document):
        return riichicity.game_from_document(document)
    if majsoul.is_majsoul(document):
        return majsoul.game_from_document(document)
    raise LogFormatError(
        "a JSON document that is neither a Mahjong Soul nor a Riichi City game record "
        "(a tenhou.net/6 JSON log carries no seed, so its wall cannot be verified)"
    )
