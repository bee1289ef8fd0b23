"""Work items: what one game is to a run of many, and the job each is given.

A run of many games (``pywall verify`` and ``audit``, ``pywall.audit``, a Dask shard, an
archive in the page) sees a stream of items, ``(name, content)``: the game's name (its
file, or its member of a zip or database) and its content, a record's bytes, packed
bytes (``core.archives.Packed``, unpacked in the worker), or the ``PywallError`` that
says why it could not be read. ``source_entries`` turns what a caller of the public
API names (paths, or records' bytes) into items, as the command reads its paths; an
archive the page or Dask reads a range at a time is a ``Source``. ``weight`` is what an
item holds in flight between processes (``pool.ordered_map`` bounds batches by it).
``record_for`` and ``report_for`` are the jobs: the audit's record of a game, or its
report (``part_game_for``: the record with the game's bytes, for a part to save); each
never raises, so one item never stops a run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from pywall.core.archives import Entry, Packed, unpack
from pywall.core.errors import PywallError
from pywall.results.check import check_entry, report_for_entry

if TYPE_CHECKING:
    from pywall.audits.parts import PartGame
    from pywall.audits.records import GameRecord
    from pywall.inputs.sources import Survey
    from pywall.results.report import FileReport

#: One game of a run: its name, and its bytes, packed bytes, or why it cannot be read.
Item = tuple[str, bytes | PywallError | Packed]
#: What the public API takes as a source: a path (file, folder, zip, database) or bytes.
SourceName = bytes | bytearray | str | os.PathLike[str]
#: How a source given as bytes is named (its index among the sources, from 1).
BYTES_NAME = "<data {}>"


class Source(Protocol):
    """An archive whose games can be read from any game on (``inputs.sources.ArchiveSource``):
    the page's archive runs and Dask's shards read it a range at a time."""

    def survey(self) -> Survey: ...

    def adopt(self, survey: Survey) -> None: ...

    def entries(self, start: int = 0) -> Iterator[Entry]: ...

    def close(self) -> None: ...


def path_argument(name: str) -> str:
    """A path as the command reads it: "-" alone is a file here, not standard input."""
    return name if name != "-" else "./-"


def source_entries(sources: Iterable[SourceName]) -> Iterator[Item]:
    """Each source's games, in order, as the command reads its paths; bytes are one record
    (named ``BYTES_NAME``). Raises ``TypeError`` for anything else."""
    from pywall.inputs import iter_packed_inputs  # the input layer: files, zips, databases

    for i, source in enumerate(sources, 1):
        if isinstance(source, bytes | bytearray):
            yield BYTES_NAME.format(i), bytes(source)
        elif isinstance(source, str | os.PathLike):
            yield from iter_packed_inputs([path_argument(os.fspath(source))], [])
        else:
            raise TypeError(f"audit takes paths or bytes, not {type(source).__name__}")


def weight(item: Item) -> int:
    """Bytes an item holds, to bound how many are in flight between processes."""
    content = item[1]
    held = content.content if isinstance(content, Packed) else content
    return len(held) if isinstance(held, (bytes, str)) else 0


def record_for(item: Item) -> GameRecord:
    """The audit's job for one game: its record, typed (module level, so worker processes
    can run it)."""
    name, content = item
    return check_entry(name, unpack(content), starting=True).record


def part_game_for(item: Item) -> PartGame:
    """The audit's job for one game of a part to save (``--save-tally``): its record and
    the bytes it was made from, compressed (``audits.parts.part_game``)."""
    from pywall.audits.parts import part_game

    name, content = item
    unpacked = unpack(content)
    return part_game(check_entry(name, unpacked, starting=True).record, unpacked)


def report_for(item: Item) -> FileReport:
    """The verifier's job for one game: its report."""
    name, content = item
    return report_for_entry(name, unpack(content))
