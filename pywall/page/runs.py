"""An archive checked a chunk of games at a time, as the page's workers run it.

A zip or phoenix-logs database may hold 100,000 games: the page asks for a few dozen
at a time (progress and Stop in between) and keeps one compact row per game. Wall
detail travels only for the first ``DETAIL_FIRST`` games and the first
``mismatch_details`` mismatches; any other game is checked again when a person opens
it, so memory stays bounded.

Several workers may share one archive, each checking the chunks the page hands it
(``next_chunk(limit, start)``: from game ``start`` on). A shared run gives, with its
rows, each game's audit record (``GameRecord.to_dict``) as ``records``, and the page adds
them to one tally in the archive's order (``SharedRunTally``); a run of its own tallies
its games as it goes. Either tally keeps each game's copies, so the page's audit merges
runs and logs counting each game once (``AuditTally.merge``).

A shared run's tally that can open the archive again (``rereader``: the worker keeps the
File mounted for it, where it is read lazily) keeps what the command keeps of a game
with one copy: its path, fingerprint, a digest of its items and its chart points, not
its record or items. When a second copy of a game comes, the first is read again from
the archive by its index (the tally's ``Copy.at``: it is given every game in the
archive's order) and checked again, and the copies are compared exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally, Reread
from pywall.core.archives import Entry
from pywall.core.errors import PywallError, ValueInputError
from pywall.results.check import GameCheck, check_entry
from pywall.results.exports import compact_row
from pywall.run.items import Source

DETAIL_FIRST = 20
DETAIL_MISMATCHES = 50


class ArchiveRun:
    """The games of one archive, checked ``limit`` at a time, in the archive's order from
    wherever the page asks; wall detail only for the first and the first mismatched
    games (the others are checked again when opened), and one audit tally of the
    verified games, or their audit records for the page (``records``)."""

    def __init__(
        self, source: Source, records: bool = False, mismatch_details: int = DETAIL_MISMATCHES
    ) -> None:
        self._source = source
        self._entries: Iterator[Entry] | None = None
        self.records = records
        self.mismatch_details = mismatch_details
        self.done = self.mismatches_kept = 0  # done: the archive's index of the next game
        self.tally = AuditTally()

    def _check(self, name: str, content: bytes | PywallError) -> tuple[GameCheck, bool]:
        checked = check_entry(name, content, detail=self.done < DETAIL_FIRST, starting=True)
        if self.done < DETAIL_FIRST:
            return checked, True
        if checked.report.status == "mismatch" and self.mismatches_kept < self.mismatch_details:
            self.mismatches_kept += 1
            return check_entry(name, content, detail=True), True
        return checked, False

    def _seek(self, start: int | None) -> Iterator[Entry]:
        if self._entries is None or start is not None and start != self.done:
            self._close_entries()
            self.done = self.done if start is None else start
            self._entries = self._source.entries(self.done)
        return self._entries

    def next_chunk(self, limit: int, start: int | None = None) -> dict[str, Any]:
        """Up to ``limit`` games from game ``start`` (by default: where the last chunk ended)."""
        entries = self._seek(start)
        rows, details, records = [], [], []
        for name, content in entries:
            checked, detailed = self._check(name, content)
            report = checked.report
            if self.records:  # JSON for the page, which tallies a shared run's games in order
                records.append(checked.record.to_dict())
            else:
                self.tally.add(checked.record)
            if detailed:
                details.append({"i": self.done, **report.to_dict()})
            rows.append(compact_row(self.done, report))
            self.done += 1
            if len(rows) == limit:
                break
        out = {"rows": rows, "details": details, "done": len(rows) < limit}
        return {**out, "records": records} if self.records else out

    def _close_entries(self) -> None:
        close = getattr(self._entries, "close", None)
        if close:
            close()
        self._entries = None

    def close(self) -> None:
        self._close_entries()
        self._source.close()


def _close(entries: Iterator[Entry]) -> None:
    close = getattr(entries, "close", None)
    if close:
        close()


def rereader(open_source: Callable[[], Source]) -> Reread:
    """Reads games of an archive again by their index (in increasing order), each checked
    as a run checks it: the archive opened for the call and closed after."""

    def reread(places: Sequence[int]) -> Iterator[GameRecord]:
        source = open_source()
        entries: Iterator[Entry] = iter(())
        at = -1  # the index of the game ``entries`` gives next
        try:
            for place in places:
                if place != at:
                    _close(entries)
                    entries = source.entries(place)
                found = next(entries, None)
                if found is None:
                    return  # fewer records than places: the tally says the file changed
                at = place + 1
                yield check_entry(*found, detail=False, starting=True).record
        finally:
            _close(entries)
            source.close()

    return reread


class SharedRunTally:
    """The audit tally of a shared run: the page adds its games' records in the archive's
    order (with ``reread``: the archive read again for a game with several copies)."""

    def __init__(self, reread: Reread | None = None) -> None:
        self.tally = AuditTally(reread=reread)
        self.added = 0

    def add(self, start: int, records: Sequence[GameRecord]) -> int:
        """Records of the games from ``start`` on; they must follow the ones added before.
        (The page's JSON is read into records by the API, ``GameRecord.from_dict``, every
        one before any is added: a chunk is added whole or not at all.)"""
        if start != self.added:
            raise ValueInputError(f"audit records from game {start + 1}, expected {self.added + 1}")
        self.tally.add_all(records)
        self.added += len(records)
        return self.added
