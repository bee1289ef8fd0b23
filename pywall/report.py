"""The verification report shared by the CLI and the web page.

One ``FileReport`` per input file, serialised by ``to_dict`` into the JSON
form documented in the README (``schema`` is bumped on any incompatible
change). ``check_log`` is the one call both drivers make: bytes in, report out,
never an exception for bad input.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pywall.errors import PywallError
from pywall.findings import Finding, Severity
from pywall.formats import mjlog
from pywall.model import Game
from pywall.tenhou import RoundWall, Scheme, layout_for
from pywall.verify import GameResult, RoundResult, Row, deal_positions, verify_game

SCHEMA = 1
STATUSES = ("verified", "mismatch", "error")

_LEVELS = {0x00: ("Ippan", "般"), 0x80: ("Joukyuu", "上"), 0x20: ("Tokujou", "特"), 0xA0: ("Houou", "鳳")}


@dataclass(frozen=True, slots=True)
class GameInfo:
    players: tuple[str, ...]
    player_count: int
    rule: str
    rule_code: str
    date: str | None
    log_id: str | None
    seed_scheme: str | None
    seed: str | None = None  # with detail only (the page checks commitments with it)

    def to_dict(self) -> dict[str, Any]:
        d = {"players": list(self.players), "player_count": self.player_count, "rule": self.rule,
             "rule_code": self.rule_code, "date": self.date, "log_id": self.log_id,
             "seed_scheme": self.seed_scheme}
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameInfo:
        return cls(tuple(d["players"]), d["player_count"], d["rule"], d["rule_code"], d["date"],
                   d["log_id"], d["seed_scheme"], d.get("seed"))


@dataclass(frozen=True, slots=True)
class RoundReport:
    index: int
    label: str
    dice: tuple[int, int]
    result: str  # verified | mismatch
    checked: int
    wall: tuple[int, ...] | None = None  # with detail: yama[0..n-1]
    events: tuple[tuple[Any, ...], ...] | None = None  # with detail: every tile check, EVENT_FIELDS
    hands: tuple[tuple[int, ...], ...] | None = None  # with detail: each seat's dealt tiles

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"index": self.index, "label": self.label, "dice": list(self.dice),
                             "result": self.result, "checked": self.checked}
        if self.wall is not None:
            d["wall"] = list(self.wall)
        if self.events is not None:
            d["events"] = [list(e) for e in self.events]
        if self.hands is not None:
            d["hands"] = [list(h) for h in self.hands]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RoundReport:
        wall, events, hands = d.get("wall"), d.get("events"), d.get("hands")
        return cls(d["index"], d["label"], (d["dice"][0], d["dice"][1]), d["result"], d["checked"],
                   tuple(wall) if wall is not None else None,
                   tuple(tuple(e) for e in events) if events is not None else None,
                   tuple(tuple(h) for h in hands) if hands is not None else None)


@dataclass(frozen=True, slots=True)
class FileReport:
    path: str
    status: str
    checked: int
    game: GameInfo | None
    rounds: tuple[RoundReport, ...]
    findings: tuple[Finding, ...]
    schema: int = field(default=SCHEMA)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": self.schema, "path": self.path, "status": self.status,
                "checked": self.checked, "game": self.game.to_dict() if self.game else None,
                "rounds": [r.to_dict() for r in self.rounds],
                "findings": [f.to_dict() for f in self.findings]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FileReport:
        return cls(d["path"], d["status"], d["checked"],
                   GameInfo.from_dict(d["game"]) if d["game"] else None,
                   tuple(RoundReport.from_dict(r) for r in d["rounds"]),
                   tuple(Finding.from_dict(f) for f in d["findings"]), d["schema"])

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)


def rule_from_type(go_type: int | None, players: int) -> tuple[str, str]:
    """English description and Tenhou's short code (e.g. "鳳南喰赤") of a GO type."""
    if go_type is None:
        return f"{players}-player, rule unknown", ""
    level, level_ja = _LEVELS[go_type & 0xA0]
    parts = [f"{players}-player", f"{level} lobby",
             "East-South" if go_type & 0x08 else "East only"]
    code = ("三" if players == 3 else "") + level_ja + ("南" if go_type & 0x08 else "東")
    if not go_type & 0x04:
        parts.append("open tanyao")
        code += "喰"
    if not go_type & 0x02:
        parts.append("red fives")
        code += "赤"
    if go_type & 0x40:
        parts.append("fast")
        code += "速"
    if not go_type & 0x01:
        parts.append("vs computer")
    return ", ".join(parts), code


def date_from_log_id(log_id: str | None) -> str | None:
    """``2016022509gm-...`` -> ``2016-02-25T09:00+09:00`` (Tenhou ids are in JST)."""
    if not log_id:
        return None
    d = log_id[:10]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:00+09:00"


def game_info(game: Game, result: GameResult, detail: bool = False) -> GameInfo:
    rule, code = rule_from_type(game.go_type, game.player_count)
    return GameInfo(game.names, game.player_count, rule, code, date_from_log_id(game.log_id),
                    game.log_id, result.scheme.value if result.scheme else None,
                    game.seed if detail else None)


#: Columns of each detail event (one per tile compared): compact arrays keep the
#: page's JSON small and fast; the wall's tile at ``pos`` is ``round.wall[pos]``.
EVENT_FIELDS = ("pos", "what", "seat", "n", "k", "log", "ok")


def event_row(row: Row, wall: tuple[int, ...]) -> tuple[Any, ...]:
    pos, what, seat, n, k, log = row
    return (pos, what, seat, n, k, log, log == wall[pos])


def round_report(r: RoundResult, hands: tuple[tuple[int, ...], ...], detail: bool) -> RoundReport:
    return RoundReport(
        r.index, r.label, r.dice, "verified" if r.ok else "mismatch", r.checked,
        r.wall if detail else None,
        tuple(event_row(row, r.wall) for row in r.rows) if detail else None,
        hands if detail else None,
    )


def report_from_result(path: str, game: Game, result: GameResult, detail: bool = False) -> FileReport:
    rounds = tuple(round_report(r, game.rounds[r.index].hands, detail) for r in result.rounds)
    return FileReport(path, result.status, result.checked, game_info(game, result, detail), rounds,
                      result.findings)


def error_report(path: str, code: str, message: str) -> FileReport:
    return FileReport(path, "error", 0, None, (), (Finding(code, Severity.ERROR, None, message),))


def check_log(path: str, data: bytes | str, detail: bool = False) -> FileReport:
    """Parse and verify one Tenhou log. Bad input gives an ``error`` report, not an exception."""
    try:
        game = mjlog.parse(data, path)
        return report_from_result(path, game, verify_game(game), detail)
    except PywallError as exc:
        return error_report(path, exc.code, exc.message)


def report_for_entry(path: str, content: bytes | PywallError, detail: bool = False) -> FileReport:
    """A batch entry's report: its read error, or its log checked. Never raises, so
    one entry never stops a batch (CLI, archives in the page)."""
    if isinstance(content, PywallError):
        return error_report(path, content.code, content.message)
    try:
        return check_log(path, content, detail)
    except Exception as exc:  # noqa: BLE001 - a bug in pywall: one error entry, the batch goes on
        return error_report(path, "error", f"internal error ({type(exc).__name__}: {exc}); please report it")


@dataclass(frozen=True, slots=True)
class Summary:
    files: int
    verified: int
    mismatch: int
    error: int
    checked: int

    def to_dict(self) -> dict[str, int]:
        return {"files": self.files, "verified": self.verified, "mismatch": self.mismatch,
                "error": self.error, "checked": self.checked}


def summarise(reports: Iterable[FileReport]) -> Summary:
    counts = {s: 0 for s in STATUSES}
    files = checked = 0
    for r in reports:
        files += 1
        counts[r.status] += 1
        checked += r.checked
    return Summary(files, counts["verified"], counts["mismatch"], counts["error"], checked)


def batch_dict(reports: Sequence[FileReport]) -> dict[str, Any]:
    return {"schema": SCHEMA, "files": [r.to_dict() for r in reports],
            "summary": summarise(reports).to_dict()}


CSV_COLUMNS = ("file", "status", "rounds", "checked", "errors", "first_problem")


#: A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text that could start a formula gets a leading ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(reports: Iterable[FileReport]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in reports:
        first = r.errors[0].message if r.errors else ""
        row = (r.path, r.status, len(r.rounds), r.checked, len(r.errors), first)
        writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def wall_dict(index: int, wall: RoundWall, players: int, scheme: Scheme) -> dict[str, Any]:
    """One wall with its sections named by yama index, for drawing without a log.

    ``hands`` are in deal order starting with the dealer (the first seat dealt).
    """
    n = len(wall.tiles)
    layout = layout_for(scheme, players)
    live_first = n - 1 - 13 * players
    return {
        "index": index,
        "dice": list(wall.dice),
        "wall": list(wall.tiles),
        "hands": [[wall.tiles[p] for p in seat] for seat in deal_positions(0, players, n)],
        "hand_positions": deal_positions(0, players, n),
        "live_positions": list(range(live_first, 13, -1)),
        "dora_positions": [layout.dora_position(k) for k in range(5)],
        "ura_positions": [layout.ura_position(k) for k in range(5)],
        "replacement_positions": list(layout.replacement_order),
    }
