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


def _entries(piece: Piece) -> Iterator[tuple[str, bytes | PywallError]]:
    if piece.entry is not None:
        yield piece.label, piece.entry
        return
    source = ArchiveSource(Path(piece.label), piece.label)
    try:
        if piece.survey is not None:
            source.adopt(piece.survey)
        found = source.entries(piece.start)
        yield from found if piece.count is None else islice(found, piece.count)
    finally:
        source.close()


def shard_records(shard: Shard) -> ShardTally:
    """A worker's job: every game of the shard checked, its records in input order."""
    return ShardTally(tuple(record_for(item) for piece in shard.pieces for item in _entries(piece)))
