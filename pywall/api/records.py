"""One game record, a seed's walls and a hand: the public functions of ``pywall``.

``verify`` and ``parse_record`` take what a person has at hand (a record's bytes, its
text, or the path of its file); ``walls`` rebuilds a Tenhou game's walls from its seed;
``shanten`` and ``effective_tiles`` take a hand as mpsz text (``"123m456p789s1122z"``)
or as 34 counts. Each calls the one module that owns the job (docs/python.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING

from pywall.api.arguments import (
    hand_counts,
    number_from,
    path_from,
    players_from,
    seed_from,
    text_bytes,
    type_name,
)
from pywall.core.archives import MAX_INPUT_BYTES
from pywall.core.errors import LogFormatError, PywallError
from pywall.core.limits import MAX_WALL_ROUNDS

if TYPE_CHECKING:
    from pywall.analysis.efficiency import EffectiveTiles
    from pywall.checks.tenhou import RoundWall
    from pywall.core.model import Game
    from pywall.results.report import FileReport

#: What names a record given as bytes or text in its report (there is no file name).
DATA_NAME = "<data>"
#: A record's text starts with one of these (after blanks); any other ``str`` is a path.
RECORD_STARTS = ("<", "{", "[")

Source = bytes | bytearray | str | os.PathLike[str]
Hand = str | Iterable[int]


def is_record_text(source: str) -> bool:
    """Whether a ``str`` is a record's text (XML or JSON) rather than a file's path."""
    return source.lstrip("\ufeff \t\r\n").startswith(RECORD_STARTS)


def verify(source: Source) -> FileReport:
    """Verify one game record against its walls: bytes, text, or the path of its file.

    Returns the typed report (``report.to_dict()`` is the report ``pywall verify --json``
    lists for that file). Bad data gives a report of status ``error`` saying why, as the
    command does, never an exception; a ``TypeError`` says a ``source`` is of none of
    these types. A ``str`` is a record's text when it starts with ``<``, ``{`` or ``[``
    (blanks and a byte-order mark aside), else a path; a path to an archive of several
    games (a zip, a phoenix-logs database) is refused: ``pywall.audit`` reads those.
    """
    from pywall.results.check import report_for_entry

    if isinstance(source, bytes | bytearray):
        return report_for_entry(DATA_NAME, bytes(source))
    if isinstance(source, str) and is_record_text(source):
        try:
            return report_for_entry(DATA_NAME, text_bytes(source, MAX_INPUT_BYTES))
        except PywallError as exc:  # too long, or a lone surrogate: said in the report
            return report_for_entry(DATA_NAME, exc)
    if not isinstance(source, str | os.PathLike):
        raise TypeError(f"verify takes a record's bytes, text or path, not {type_name(source)}")
    from pywall.inputs import iter_inputs
    from pywall.run.items import path_argument, report_for

    name = path_from(source, "verify") if isinstance(source, os.PathLike) else source
    entries = list(islice(iter_inputs([path_argument(name)], []), 2))  # as the command reads it
    if len(entries) != 1:
        why = "no log in this folder" if not entries else "it holds several games"
        return report_for_entry(
            name, LogFormatError(f"{why}: pywall.verify reads one record (pywall.audit reads many)")
        )
    return report_for(entries[0])


def parse_record(data: bytes | str) -> Game:
    """The game a record holds (any platform, plain or gzip), typed: its players, rounds,
    deals and events. Raises ``LogFormatError`` (a ``PywallError``) on what is no record."""
    from pywall.formats import parse_record as parse

    if not isinstance(data, bytes | str):
        raise TypeError(f"parse_record takes a record's bytes or text, not {type_name(data)}")
    return parse(data)


def walls(seed: str, rounds: int, players: int = 4) -> list[RoundWall]:
    """The walls of the first ``rounds`` rounds of the Tenhou game ``seed`` defines (the
    ``<SHUFFLE seed=...>`` text of its log): each a ``RoundWall``, its tiles (ids 0-135,
    yama[0] first) and dice (a 2009 seed of the per-round kind gives its one round).
    ``rounds`` is 1 to 1,000 and ``players`` 3 or 4, as ``pywall wall`` takes them: else
    ``ValueInputError``; ``SeedError`` on a bad seed (both ``PywallError``s); ``TypeError``
    for a seed that is no ``str`` or a count that is no ``int`` (a ``bool`` is none)."""
    from pywall.checks.tenhou import walls as tenhou_walls

    text = seed_from(seed)
    count = number_from(rounds, "rounds", 1, MAX_WALL_ROUNDS)
    return tenhou_walls(text, count, players_from(players))


def shanten(hand: Hand) -> int:
    """How far a hand is from ready: -1 complete, 0 ready (tenpai), 1, 2, ... (the
    least over the regular form, seven pairs and thirteen orphans). A hand that is none
    (bad text, counts over 4, more than 14 tiles) raises ``ValueInputError``; a ``hand``
    of another type (bytes, a dict, counts that are no ints), ``TypeError``."""
    from pywall.analysis.shanten import shanten as shanten_of

    return shanten_of(hand_counts(hand))


def effective_tiles(hand: Hand) -> EffectiveTiles:
    """The kinds that lower a 13-tile hand's shanten (or 10, 7, 4, 1 tiles), with how
    many of each remain unseen; ``.to_dict()`` gives them as text. Raises as ``shanten``,
    and ``ValueInputError`` for a hand of another size."""
    from pywall.analysis.efficiency import effective_tiles as effective

    return effective(hand_counts(hand))
