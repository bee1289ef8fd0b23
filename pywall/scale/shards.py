"""An audit's inputs cut into shards, and one shard's records made: what a Dask worker runs.

``plan_shards`` reads the inputs as ``pywall audit`` does (``pywall.inputs``: files,
folders, zips, phoenix-logs databases, in the same order) without reading a game: a zip
is counted by its directory, a database by a pass over its row ids
(``databases.survey_phoenix``, which notes where to seek), so the machine that plans
never loads the archive. Each input becomes ``Piece``s, ranges of its games (a zip's
members, a database's rows: ``ArchiveSource`` reads any range, seeking), grouped into
``Shard``s of about the same number of games. ``shard_records`` is a worker's job: it
opens its pieces, checks each game and returns the shard's records (``ShardTally``), in
input order; the shards' records, added in shard order, are the single run's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from pywall.audits.parts import ShardTally
from pywall.audits.records import GameRecord
from pywall.core.errors import PywallError
from pywall.inputs.files import Unreadable, looks_like_log, sniff, walk
from pywall.inputs.sources import ArchiveSource, Survey
from pywall.run.items import BYTES_NAME, SourceName, path_argument, record_for


@dataclass(frozen=True, slots=True)
class Piece:
    """Games ``start`` to ``start + count`` of one input file (``count`` None: to its end),
    or one entry given whole (``entry``: a record's bytes, or why an input cannot be read).
    ``survey`` is the file's survey (a database's row marks), for a worker to seek by."""

    label: str
    games: int
    start: int = 0
    count: int | None = None
    survey: Survey | None = None
    entry: bytes | PywallError | None = None


@dataclass(frozen=True, slots=True)
class Shard:
    """One worker's task: pieces of the inputs, in input order."""

    pieces: tuple[Piece, ...]

    @property
    def games(self) -> int:
        return sum(p.games for p in self.pieces)


#: At most this many of a failed shard's inputs are named in its error's words (all of
#: them are in ``ShardError.inputs``).
NAMED_INPUTS = 5


class ShardError(PywallError):
    """A shard whose work raised on its worker: the audit stops, naming the shard, what it
    raised and its inputs (``inputs``: each piece's file and range of games)."""

    code = "shard_failed"

    def __init__(self, number: int, shards: int, shard: Shard, cause: BaseException) -> None:
        self.inputs = tuple(describe(p) for p in shard.pieces)
        named = "; ".join(self.inputs[:NAMED_INPUTS])
        more = len(self.inputs) - NAMED_INPUTS
        if more > 0:
            named += f"; and {more:,} more"
        what = f"{type(cause).__name__}: {cause}" if str(cause) else type(cause).__name__
        super().__init__(
            f"shard {number:,} of {shards:,} failed on its worker ({what[:500]}); "
            f"its inputs: {named}"
        )


def describe(piece: Piece) -> str:
    """A piece in words: its file, and the range of its games when it is not all of them."""
    if piece.games == _planned(piece):
        return piece.label
    first, last = piece.start + 1, piece.start + piece.games
    return f"{piece.label} games {first:,} to {last:,} of {_planned(piece):,}"


def _file_piece(path: Path) -> Piece:
    """A whole input file as one piece, with its game count and survey (no game read)."""
    source = ArchiveSource(path, str(path))
    try:
        if source.problem is not None:
            return Piece(str(path), 1, entry=source.problem)
        survey = source.survey()
        if not survey.parallel:
            return Piece(str(path), survey.total)
        return Piece(str(path), survey.total, 0, survey.total, survey)
    finally:
        source.close()


def _input_pieces(name: str) -> Iterator[Piece]:
    """One command-line path's pieces, as ``pywall.inputs`` reads it."""
    path = Path(path_argument(name))
    if path.is_dir():
        for found in walk(path):
            if found.error is not None:
                yield Piece(str(found.path), 1, entry=found.error)
            elif found.skipped is None:
                head = sniff(found.path)
                if isinstance(head, PywallError):
                    yield Piece(str(found.path), 1, entry=head)
                elif looks_like_log(head):
                    yield _file_piece(found.path)
                # else: not a log, skipped as the command skips it
    elif path.exists():
        yield _file_piece(path)
    else:
        why = "no such file or folder" if not path.is_symlink() else "a broken symbolic link"
        yield Piece(name, 1, entry=Unreadable(why))


def whole_pieces(sources: Iterable[SourceName]) -> list[Piece]:
    """Every input as whole pieces, in input order."""
    pieces: list[Piece] = []
    for i, source in enumerate(sources, 1):
        if isinstance(source, bytes | bytearray):
            pieces.append(Piece(BYTES_NAME.format(i), 1, entry=bytes(source)))
        elif isinstance(source, str | os.PathLike):
            pieces.extend(_input_pieces(os.fspath(source)))
        else:
            raise TypeError(f"audit takes paths or bytes, not {type(source).__name__}")
    return pieces


def _cut(piece: Piece, size: int) -> Iterator[Piece]:
    """A piece that can be read from any game on, in ranges of at most ``size`` games."""
    if piece.count is None or piece.count <= size:
        yield piece
        return
    for start in range(piece.start, piece.start + piece.count, size):
        count = min(size, piece.start + piece.count - start)
        yield Piece(piece.label, count, start, count, piece.survey)


def plan_shards(sources: Iterable[SourceName], shards: int) -> list[Shard]:
    """The inputs cut into about ``shards`` shards of about the same number of games."""
    pieces = whole_pieces(sources)
    size = max(1, math.ceil(sum(p.games for p in pieces) / max(1, shards)))
    out: list[Shard] = []
    current: list[Piece] = []
    held = 0
    for piece in pieces:
        for part in _cut(piece, size):
            if current and held + part.games > size:
                out.append(Shard(tuple(current)))
                current, held = [], 0
            current.append(part)
            held += part.games
    if current:
        out.append(Shard(tuple(current)))
    return out


def _games(n: int) -> str:
    return f"{n:,} game" if n == 1 else f"{n:,} games"


def _planned(piece: Piece) -> int:
    """How many games the piece's file held when the shards were planned."""
    return piece.survey.total if piece.survey is not None else piece.games


def _missing(piece: Piece, game: int) -> GameRecord:
    """Game ``game`` (0-based) of a piece, planned but not in its file when read."""
    total, first, last = _planned(piece), piece.start + 1, piece.start + piece.games
    n = game + 1
    return GameRecord(
        f"{piece.label}, game {n} of {total}",
        (
            "changed",
            (
                f"{piece.label} changed during the audit: it held {_games(total)} when the "
                f"shards were planned, and game {n} (of games {first} to {last}, one shard's "
                "share) is not there now"
            ),
            "missing_game",
            {"file": piece.label, "game": n, "games": total, "first": first, "last": last},
        ),
    )


def _more(piece: Piece) -> GameRecord:
    """A file read to the end of its plan that holds more games than planned."""
    total = _planned(piece)
    return GameRecord(
        piece.label,
        (
            "changed",
            (
                f"{piece.label} changed during the audit: it holds more than the "
                f"{_games(total)} planned, and the games after game {total} were not read"
            ),
            "more_games",
            {"file": piece.label, "games": total},
        ),
    )


def _records(piece: Piece) -> Iterator[GameRecord]:
    """The records of a piece's games, one for every game planned: a game checked, or,
    when the file changed since the plan, a game missing (``_missing``); a file read to
    the end of its plan that holds more adds one record that says so (``_more``)."""
    if piece.entry is not None:
        yield record_for((piece.label, piece.entry))
        return
    source = ArchiveSource(Path(piece.label), piece.label)
    try:
        if piece.survey is not None:
            source.adopt(piece.survey)
        to_end = piece.start + piece.games >= _planned(piece)
        read = 0
        for item in islice(source.entries(piece.start), piece.games + to_end):
            if read == piece.games:
                yield _more(piece)
                return
            yield record_for(item)
            read += 1
    finally:
        source.close()
    for game in range(piece.start + read, piece.start + piece.games):
        yield _missing(piece, game)


def shard_records(shard: Shard) -> ShardTally:
    """A worker's job: every game of the shard checked, its records in input order."""
    return ShardTally(tuple(record for piece in shard.pieces for record in _records(piece)))
