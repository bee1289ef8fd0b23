"""Readers of game records, one module per platform's format: bytes in, ``model.Game`` out.

``parse_record`` picks the reader by the content, never by the file's name.
"""

from __future__ import annotations

from pywall.formats import mjlog
from pywall.model import Game


def parse_record(data: bytes | str, name: str | None = None) -> Game:
    """The game in ``data`` (a Tenhou mjlog, plain or gzip); ``PywallError`` if unreadable."""
    return mjlog.parse(data, name)
