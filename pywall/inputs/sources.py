"""One chosen file read from any of its games on: the page's workers share an archive.

The web page checks a large archive with several workers, each reading its own
chunks of the same file (nothing is copied between them). ``ArchiveSource``
gives what ``items_from_file`` gives, the same entries in the same order, but
from any game ``n`` on:

- a zip: its directory is read once; game ``n`` is its ``n``-th file member;
- a phoenix-logs database: ``survey`` counts the games and notes seek marks
  (``databases.survey_phoenix``); another worker is handed that survey instead
  of making its own, and seeks by it;
- anything else is one log, game 0.

A survey is a typed ``Survey`` (the game count, the seek marks, whether other
workers can share the file): ``parallel`` is false where the file can only be read
from its start (a database without usable rowids, a file that is not an archive).
The page's JSON form of it is read and written by its driver (``page.api``).
"""

from __future__ import annotations

import sqlite3
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pywall.core.archives import HEAD_BYTES, Entry, is_sqlite, is_zip
from pywall.core.errors import PywallError
from pywall.inputs.databases import (
    DB_ERRORS,
    iter_phoenix,
    open_database,
    survey_phoenix,
    unopenable,
)
from pywall.inputs.files import Unreadable, open_regular, read_capped
from pywall.inputs.zips import iter_members, open_zip


@dataclass(frozen=True)
class Survey:
    """What one pass over a file found: its game count, the seek marks of a phoenix-logs
    database (``databases.survey_phoenix``; None where there are none), and whether several
    workers can share the file (read from any game on)."""

    total: int
    marks: tuple[int, ...] | None
    parallel: bool


class ArchiveSource:
    """The logs of one file (a zip, a phoenix-logs database or one log), from game ``n`` on."""

    def __init__(self, path: Path, label: str) -> None:
        self.path, self.label = path, label
        self.problem: PywallError | None = None  # the file as a whole: one error entry
        self._file: IO[bytes] | None = None
        self._zip: tuple[zipfile.ZipFile, list[zipfile.ZipInfo]] | None = None
        self._db: sqlite3.Connection | None = None
        self._survey: Survey | None = None
        self.closed = False
        self._open()

    def _open(self) -> None:
        try:
            f = self._file = open_regular(self.path)
            head = f.read(HEAD_BYTES)
        except PywallError as exc:
            self.problem = exc
            return
        except OSError as exc:
            self.problem = Unreadable(f"cannot read it: {exc.strerror or exc}")
            return
        if is_zip(head):
            f.seek(0)
            try:
                self._zip = open_zip(f)
            except PywallError as exc:
                self.problem = exc
            return
        f.close()
        self._file = None
        if is_sqlite(head):
            try:
                self._db = open_database(self.path)
            except DB_ERRORS as exc:
                self.problem = unopenable(exc)

    def survey(self) -> Survey:
        """The game count and how to seek, made once (a database's costs one pass)."""
        if self._survey is None:
            if self._zip is not None:
                members = len(self._zip[1])
                self._survey = Survey(members, None, members > 1)
            elif self._db is not None:
                total, marks = survey_phoenix(self._db)
                kept = tuple(marks) if marks is not None else None
                self._survey = Survey(total, kept, kept is not None)
            else:
                self._survey = Survey(1, None, False)
        return self._survey

    def adopt(self, survey: Survey) -> None:
        """Use the survey another worker made of the same file (no second pass)."""
        self._survey = survey

    def entries(self, start: int = 0) -> Iterator[Entry]:
        """The file's entries from game ``start`` (0-based) on, as ``items_from_file``
        yields them (nothing once closed)."""
        if self.closed:
            return iter([])
        if self.problem is not None:
            return iter([(self.label, self.problem)] if not start else [])
        if self._zip is not None:
            zf, infos = self._zip
            return iter_members(zf, infos[start:], self.label)
        if self._db is not None:
            marks = self.survey().marks if start else None
            return iter_phoenix(self._db, self.label, start=start, marks=marks)  # type: ignore[return-value]
        return iter([(self.label, _read(self.path))] if not start else [])

    def close(self) -> None:
        self.closed = True
        if self._zip is not None:
            self._zip[0].close()
        for handle in (self._file, self._db):
            if handle is not None:
                handle.close()
        self._zip = self._file = self._db = None


def _read(path: Path) -> bytes | PywallError:
    try:
        return read_capped(path)
    except PywallError as exc:
        return exc
