"""An archive checked a chunk of games at a time, as the page's worker runs it.

A zip or phoenix-logs database may hold 100,000 games: the page asks for a few dozen
at a time (progress and Stop in between) and keeps one compact row per game. Wall
detail travels only for the first ``DETAIL_FIRST`` games and the first
``DETAIL_MISMATCHES`` mismatches; any other game is checked again when a person opens
it, so memory stays bounded. Every verified game also goes into the run's audit tally.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from pywall.archives import Entry
from pywall.audit import Tally
from pywall.errors import PywallError
from pywall.report import FileReport, compact_row, report_for_entry

DETAIL_FIRST = 20
DETAIL_MISMATCHES = 50


class ArchiveRun:
    """The games of one archive, checked ``limit`` at a time, in the archive's order; wall
    detail only for the first and the first mismatched games (the others are checked again
    when opened), and one audit tally of the verified games."""

    def __init__(self, entries: Iterator[Entry]) -> None:
        self._entries = entries
        self.done = self.mismatches_kept = 0
        self.tally = Tally()

    def _report(self, name: str, content: bytes | PywallError) -> tuple[FileReport, bool]:
        report = report_for_entry(name, content, detail=self.done < DETAIL_FIRST, starting=True)
        if self.done < DETAIL_FIRST:
            return report, True
        if report.status == "mismatch" and self.mismatches_kept < DETAIL_MISMATCHES:
            self.mismatches_kept += 1
            return report_for_entry(name, content, detail=True), True
        return report, False

    def next_chunk(self, limit: int) -> dict[str, Any]:
        rows, details = [], []
        for name, content in islice(self._entries, limit):
            report, detailed = self._report(name, content)
            as_dict = report.to_dict()
            self.tally.add_report(as_dict)
            if detailed:
                details.append({"i": self.done, **as_dict})
            rows.append(compact_row(self.done, report))
            self.done += 1
        return {"rows": rows, "details": details, "done": len(rows) < limit}

    def close(self) -> None:
        close = getattr(self._entries, "close", None)
        if close:
            close()
