"""``pywall audit --save-tally FILE`` and ``--merge``: an audit's parts, written and read.

The document and its checks are ``pywall.audits.parts``', the games' re-derivation
``pywall.run.parts``'; this module only opens files: a part is written a game at a time to a temporary file
beside FILE and renamed over it when whole (a reader never sees half a tally), each
game's record spooled to an unnamed temporary file for the tally to read again, and a
saved part is read capped in size, from a regular file only.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pywall.audits.parts import (
    MAX_DOCUMENT_BYTES,
    PartGame,
    game_piece,
    part_from_json,
    part_head,
    part_tail,
)
from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally, packed, unpacked
from pywall.cli.output import fail, plural, print_lines
from pywall.core.errors import PywallError
from pywall.inputs.files import read_capped
from pywall.run.parts import verified_part
from pywall.run.pool import WorkerDied


class PartFile:
    """A part being saved, a game at a time: its text to a scratch file beside FILE (renamed
    over FILE when it is whole: ``finish``), and each game's record packed to a spool that
    the run's tally reads again (``reread``) instead of keeping it: memory flat in the games."""

    def __init__(self, path: str) -> None:
        self.path = path
        target = Path(path)
        self.scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        self.games = 0
        self.places = array("q")  # where each game's packed record starts in the spool
        self.spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by ``close``
        try:
            self.out = self.scratch.open("x", encoding="utf-8")
            self.out.write(part_head())
        except OSError:
            self.close()
            raise

    def add(self, game: PartGame) -> None:
        self.out.write(game_piece(game, not self.games))
        self.spool.seek(0, os.SEEK_END)
        self.places.append(self.spool.tell())
        self.spool.write(packed(game.record))
        self.games += 1

    def reread(self, places: Sequence[int]) -> Iterator[GameRecord]:
        """``AuditTally.reread``: the records of the games at these places, from the spool."""
        for at in places:
            self.spool.seek(self.places[at])
            end = self.places[at + 1] if at + 1 < len(self.places) else None
            data = self.spool.read(None if end is None else end - self.places[at])
            yield unpacked(data)

    def finish(self, tally: AuditTally) -> None:
        """The part's tally written after its games, the text renamed over FILE."""
        self.out.writelines(part_tail(tally))
        self.out.close()
        os.replace(self.scratch, self.path)

    def close(self) -> None:
        """The spool let go, and the scratch file unless it was renamed (``finish``)."""
        self.spool.close()
        out = getattr(self, "out", None)
        if out is not None:
            out.close()
        self.scratch.unlink(missing_ok=True)


@contextmanager
def part_file(path: str) -> Iterator[PartFile]:
    part = PartFile(path)
    try:
        yield part
    finally:
        part.close()


def cannot_write(path: str, exc: OSError) -> str:
    return f"cannot write the tally to {path}: {exc.strerror or exc}"


def merged_from_files(paths: Sequence[str], jobs: int) -> AuditTally | str:
    """The tally of saved parts, in the order named, one part in memory at a time, every
    game re-derived from its log over ``jobs`` processes; or why one is refused (nothing is
    reported then)."""
    tally = AuditTally()
    for path in paths:
        try:
            part = part_from_json(read_capped(Path(path), MAX_DOCUMENT_BYTES), path)
            for record in verified_part(part, jobs).records:
                tally.add(record)
        except PywallError as exc:
            message = exc.message if exc.message.startswith(path) else f"{path}: {exc.message}"
            return message if message.endswith("refused") else message + ": refused"
        except WorkerDied as exc:
            return f"{path}: {exc}"
    return tally


def in_parts(
    args: argparse.Namespace, tally: AuditTally, part: PartFile | None, jobs: int
) -> AuditTally | int:
    """The audit's parts: with ``--merge`` the saved parts' tally (or exit 2, nothing
    merged); with ``--save-tally`` this run's part finished (its games were written as they
    came; a part without a verified game is saved all the same, exit 0); the tally to
    report, or the exit code."""
    if args.merge:
        merged = merged_from_files(args.paths, jobs)
        return fail(merged) if isinstance(merged, str) else merged
    if part is not None:
        try:
            part.finish(tally)
        except OSError as exc:
            return fail(cannot_write(part.path, exc))
        print_lines(
            [f"saved the tally of {plural(part.games, 'game')} to {part.path}"],
            file=sys.stderr,
        )
        if not tally.hands:
            return 0
    return tally
