"""The report's exports: views of typed reports for batches, tables and spreadsheets.

A batch's JSON (``batch_dict``: every report and the ``summary``), the one compact row
of a game (``compact_row``, which the page keeps for big archives and the CSV is made
of), the CSV itself (``csv_text``, with cells a spreadsheet will not run) and a wall
made from a seed without a log (``wall_dict``). The CLI, the page's API and archive
runs use these; ``pywall.results.report`` keeps the result types and their schema.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pywall.checks.tenhou import Era, RoundWall, wall_scheme
from pywall.core.findings import Finding
from pywall.core.layout import Layout, layout_for
from pywall.results.report import SCHEMA, STATUSES, FileReport, GameInfo, RoundReport


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    verified: int
    mismatch: int
    error: int
    checked: int

    def to_dict(self) -> dict[str, int]:
        return {
            "files": self.files,
            "verified": self.verified,
            "mismatch": self.mismatch,
            "error": self.error,
            "checked": self.checked,
        }


def summarise(reports: Iterable[FileReport]) -> Summary:
    counts = {s: 0 for s in STATUSES}
    files = checked = 0
    for r in reports:
        files += 1
        counts[r.status] += 1
        checked += r.checked
    return Summary(files, counts["verified"], counts["mismatch"], counts["error"], checked)


def batch_dict(reports: Sequence[FileReport]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "files": [r.to_dict() for r in reports],
        "summary": summarise(reports).to_dict(),
    }


#: A game as a batch or archive lists it (JSON, CSV and the page's table); the CSV
#: columns are these keys but ``i``.
ROW_FIELDS = (
    "i",
    "path",
    "status",
    "round_count",
    "checked",
    "errors",
    "first_problem",
    "log_id",
    "date",
    "platform",
    "first_problem_code",
    "first_problem_data",
)
#: The CSV's columns: the row's plain fields (the problem's code and context are for the page).
CSV_COLUMNS = ROW_FIELDS[1:10]


#: A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text that could start a formula gets a leading ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def problem_context(
    finding: Finding, game: GameInfo | None, rounds: Iterable[RoundReport]
) -> dict[str, Any]:
    """A finding with what a reader's language needs to word it away from its report, as
    the page's findings list does: its round's label and dealer, the players' names and
    whether red fives are dealt. The page's summary table and the audit's games left out
    carry this; the English ``message`` stays in it. (What the page hands back is read by
    ``pywall.page.audit_reports.read_problem_context``, into the same dict.)"""
    index = finding.round
    rnd = next((r for r in rounds if index is not None and r.index == index), None)
    return {
        "finding": finding.to_dict(),
        "round": None
        if rnd is None
        else {"index": rnd.index, "label": rnd.label, "dealer": rnd.dealer},
        "game": None
        if game is None
        else {
            "players": list(game.players),
            "player_count": game.player_count,
            "red_fives": game.red_fives,
        },
    }


def compact_row(index: int, report: FileReport) -> dict[str, Any]:
    """The one compact form of a game's report (the page keeps these for big archives)."""
    errors = report.errors
    game = report.game
    first = errors[0] if errors else None
    context = problem_context(first, game, report.rounds) if first else None
    return {
        "i": index,
        "path": report.path,
        "status": report.status,
        "round_count": len(report.rounds),
        "checked": report.checked,
        "errors": len(errors),
        "first_problem": errors[0].message if errors else "",
        "log_id": game.game_id if game else None,
        "date": game.date if game else None,
        "platform": game.platform if game else None,
        "first_problem_code": first.code if first else "",
        "first_problem_data": context,
    }


def csv_text(rows: Iterable[FileReport | Sequence[object]]) -> str:
    """CSV of games, one line each, columns ``CSV_COLUMNS``: a report, or a game's cells in
    those columns (the page's compact rows, which ``pywall.page.api`` reads into cells)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180: a cell holding CR is quoted too
    writer.writerow(CSV_COLUMNS)
    for i, r in enumerate(rows):
        cells = _csv_cells(compact_row(i, r)) if isinstance(r, FileReport) else r
        writer.writerow(["" if c is None else csv_cell(c) for c in cells])
    return out.getvalue()


def _csv_cells(row: dict[str, Any]) -> tuple[object, ...]:
    return tuple(row[c] for c in CSV_COLUMNS)


def seed_layout(players: int, era: Era) -> Layout:
    """The layout of a wall made from a seed of ``era`` for ``players``."""
    return layout_for(wall_scheme(era), players)


def wall_dict(index: int, wall: RoundWall, players: int, era: Era) -> dict[str, Any]:
    """One wall from a seed, without a log: its tiles, dice and layout (the dealer is seat 0,
    so ``hands`` and ``layout.deal`` are in deal order starting with the dealer)."""
    layout = seed_layout(players, era)
    by_seat = layout.deal_by_seat(0)
    return {
        "index": index,
        "dice": list(wall.dice) if wall.dice else None,
        "wall": list(wall.tiles),
        "hands": [[wall.tiles[p] for p in seat] for seat in by_seat],
        "dealer": 0,
        "layout": layout.to_dict(0),
    }
