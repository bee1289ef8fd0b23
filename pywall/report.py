"""The verification report shared by the CLI and the web page.

One ``FileReport`` per input file, serialised by ``to_dict`` into the JSON
form documented in docs/cli.md (``schema`` is bumped on any change of shape;
schema 2 added each round's ``dealer``, indicators revealed, ``layout`` and
``starting`` hands; later, additively, a stated wall's ``hashes`` per round and the
game's ``limits``). ``check_log`` is the one call both drivers make: bytes in,
report out, never an exception for bad input. Wall positions are never computed
here: they come from the round's ``pywall.layout.Layout``.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pywall.draws import GameDraws, game_draws
from pywall.errors import PywallError
from pywall.findings import Finding, Severity
from pywall.findings import info as code_info
from pywall.formats import parse_record
from pywall.formats.tenhou_rules import date_from_log_id, rule_from_type, vs_computer
from pywall.layout import layout_for
from pywall.model import Draw, Game, Round
from pywall.shanten import shanten
from pywall.tenhou import Era, RoundWall, wall_scheme
from pywall.tiles import dora_kind
from pywall.verify import GameResult, RoundResult, Row, red_fives, verify_game
from pywall.walls import GameWalls, game_walls

SCHEMA = 2
STATUSES = ("verified", "mismatch", "error")


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
    platform: str = "tenhou"
    game_id: str | None = None  # the platform's id of the game (Tenhou: the log id)
    fingerprint: str | None = None  # the same game gives the same text (the audit counts it once)
    limits: tuple[str, ...] = ()  # what the checks cannot prove (pywall.stated.LIMITS codes)
    vs_computer: bool = False  # Tenhou: a game against the computer (GO type bit 0x01 clear)
    red_fives: bool = True  # the rule deals red fives (tile ids 16, 52, 88 are red)
    era: str | None = None  # Tenhou: the era of its walls (pywall.tenhou.Era), else None
    rule_length: str | None = None  # without a Tenhou code: "east", "south" where stated

    def to_dict(self) -> dict[str, Any]:
        d = {
            "players": list(self.players),
            "player_count": self.player_count,
            "rule": self.rule,
            "rule_code": self.rule_code,
            "date": self.date,
            "log_id": self.log_id,
            "seed_scheme": self.seed_scheme,
            "platform": self.platform,
            "game_id": self.game_id,
            "fingerprint": self.fingerprint,
            "limits": list(self.limits),
            "vs_computer": self.vs_computer,
            "red_fives": self.red_fives,
            "era": self.era,
            "rule_length": self.rule_length,
        }
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameInfo:
        return cls(
            tuple(d["players"]),
            d["player_count"],
            d["rule"],
            d["rule_code"],
            d["date"],
            d["log_id"],
            d["seed_scheme"],
            d.get("seed"),
            d.get("platform", "tenhou"),
            d.get("game_id"),
            d.get("fingerprint"),
            tuple(d.get("limits", ())),
            bool(d.get("vs_computer", False)),
            bool(d.get("red_fives", True)),
            d.get("era"),
            d.get("rule_length"),
        )


#: One seat's starting hand as the audit reads it: (seat, tiles 13 or 14, shanten,
#: dora among them). The dealer's 14 count its first draw.
Starting = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class RoundReport:
    index: int
    label: str
    dice: tuple[int, int] | None
    result: str  # verified | mismatch
    checked: int
    dealer: int = 0
    dora_revealed: int = 1  # dora indicators the record revealed (the first and kan dora)
    ura_revealed: int = 0
    wall: tuple[int, ...] | None = None  # with detail: wall[0..n-1] in the scheme's order
    events: tuple[tuple[Any, ...], ...] | None = None  # with detail: every tile check, EVENT_FIELDS
    hands: tuple[tuple[int, ...], ...] | None = None  # with detail: each seat's dealt tiles
    layout: Mapping[str, Any] | None = None  # with detail: Layout.to_dict (positions by seat)
    dora_indicators: tuple[int, ...] | None = None  # with detail: the revealed indicators' tiles
    starting: tuple[Starting, ...] | None = None  # on request: the audit's view of the deal
    hashes: tuple[Mapping[str, Any], ...] | None = None  # a stated wall's digests (not Tenhou)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "index": self.index,
            "label": self.label,
            "dice": list(self.dice) if self.dice else None,
            "result": self.result,
            "checked": self.checked,
            "dealer": self.dealer,
            "dora_revealed": self.dora_revealed,
            "ura_revealed": self.ura_revealed,
        }
        # flat tuples of ints and tuples of rows: typed per field (this runs for every
        # round of every game the page checks; a per-item isinstance was a tenth of it)
        for key in ("wall", "dora_indicators"):
            value = getattr(self, key)
            if value is not None:
                d[key] = list(value)
        for key in ("hands", "events", "starting"):
            value = getattr(self, key)
            if value is not None:
                d[key] = list(map(list, value))
        if self.layout is not None:
            d["layout"] = dict(self.layout)
        if self.hashes is not None:
            d["hashes"] = [dict(h) for h in self.hashes]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RoundReport:
        def tuples(key: str) -> Any:
            value = d.get(key)
            return (
                None
                if value is None
                else tuple(tuple(v) if isinstance(v, list) else v for v in value)
            )

        dice = d.get("dice")
        return cls(
            d["index"],
            d["label"],
            (dice[0], dice[1]) if dice else None,
            d["result"],
            d["checked"],
            d.get("dealer", 0),
            d.get("dora_revealed", 1),
            d.get("ura_revealed", 0),
            tuples("wall"),
            tuples("events"),
            tuples("hands"),
            d.get("layout"),
            tuples("dora_indicators"),
            tuples("starting"),
            None if d.get("hashes") is None else tuple(dict(h) for h in d["hashes"]),
        )


@dataclass(frozen=True, slots=True)
class FileReport:
    path: str
    status: str
    checked: int
    game: GameInfo | None
    rounds: tuple[RoundReport, ...]
    findings: tuple[Finding, ...]
    schema: int = field(default=SCHEMA)
    # with the starting hands, for a verified game: the draw test's and the wall test's
    # view of it (the audit's per-game summaries)
    draws: GameDraws | None = None
    walls: GameWalls | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "schema": self.schema,
            "path": self.path,
            "status": self.status,
            "checked": self.checked,
            "game": self.game.to_dict() if self.game else None,
            "rounds": [r.to_dict() for r in self.rounds],
            "findings": [f.to_dict() for f in self.findings],
        }
        if self.draws is not None:
            d["draws"] = self.draws.to_dict()
        if self.walls is not None:
            d["walls"] = self.walls.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FileReport:
        return cls(
            d["path"],
            d["status"],
            d["checked"],
            GameInfo.from_dict(d["game"]) if d["game"] else None,
            tuple(RoundReport.from_dict(r) for r in d["rounds"]),
            tuple(Finding.from_dict(f) for f in d["findings"]),
            d["schema"],
            GameDraws.from_dict(d["draws"]) if d.get("draws") else None,
            GameWalls.from_dict(d["walls"]) if d.get("walls") else None,
        )

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)


def fingerprint(game: Game) -> str:
    """A short text that is the same for two copies of one game (seed, or the walls)."""
    if game.seed or any(r.shuffle for r in game.rounds):
        key = game.seed or "".join(r.shuffle or "" for r in game.rounds)
    else:
        key = f"{game.platform.value}:{game.game_id or ''}:" + ";".join(
            ",".join(map(str, r.wall or ())) for r in game.rounds
        )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def game_info(game: Game, result: GameResult, detail: bool = False) -> GameInfo:
    if game.rule is not None:
        rule, code = game.rule, ""
    else:
        rule, code = rule_from_type(game.go_type, game.player_count)
    return GameInfo(
        game.names,
        game.player_count,
        rule,
        code,
        game.date or date_from_log_id(game.log_id),
        game.log_id,
        result.scheme.value if result.scheme else None,
        game.seed if detail else None,
        game.platform.value,
        game.game_id or game.log_id,
        fingerprint(game),
        result.limits,
        game.rule is None and vs_computer(game.go_type),
        red_fives(game),
        result.era.value if result.era else None,
        game.rule_length,
    )


#: Columns of each detail event (one per tile compared): compact arrays keep the
#: page's JSON small and fast; the wall's tile at ``pos`` is ``round.wall[pos]``.
EVENT_FIELDS = ("pos", "what", "seat", "n", "k", "log", "ok")


def event_rows(rows: Sequence[Row], wall: tuple[int, ...]) -> tuple[tuple[Any, ...], ...]:
    """The detail events: each row with whether the wall holds the record's tile."""
    return tuple(
        (pos, what, seat, n, k, log, log == wall[pos]) for pos, what, seat, n, k, log in rows
    )


def starting_hands(rnd: Round, players: int) -> tuple[Starting, ...]:
    """Each seat's starting hand for the audit: 13 tiles, the dealer's 14 with its first
    draw (none when the round ends before it), with shanten and dora count."""
    indicated = dora_kind(rnd.dora_indicator // 4, players)
    out: list[Starting] = []
    first = next((e for e in rnd.events if type(e) is Draw), None)
    for seat, hand in enumerate(rnd.hands):
        tiles = list(hand)
        if seat == rnd.dealer and len(tiles) == 13:
            if first is None or first.seat != seat:
                continue
            tiles.append(first.tile)
        counts = [0] * 34
        for t in tiles:
            counts[t // 4] += 1
        out.append((seat, len(tiles), shanten(counts), counts[indicated]))
    return tuple(out)


def round_report(
    r: RoundResult, rnd: Round, players: int, detail: bool, starting: bool
) -> RoundReport:
    layout = r.layout
    return RoundReport(
        r.index,
        r.label,
        r.dice,
        "verified" if r.ok else "mismatch",
        r.checked,
        r.dealer,
        r.dora_revealed,
        r.ura_revealed,
        r.wall if detail else None,
        event_rows(r.rows, r.wall) if detail else None,
        rnd.hands if detail else None,
        layout.to_dict(r.dealer) if detail else None,
        tuple(r.wall[p] for p in layout.dora[: r.dora_revealed]) if detail else None,
        starting_hands(rnd, players) if starting else None,
        None if r.hashes is None else tuple(h.to_dict() for h in r.hashes),
    )


def report_from_result(
    path: str, game: Game, result: GameResult, detail: bool = False, starting: bool = False
) -> FileReport:
    rounds = tuple(
        round_report(r, game.rounds[r.index], game.player_count, detail, starting)
        for r in result.rounds
    )
    audited = starting and result.status == "verified"
    return FileReport(
        path,
        result.status,
        result.checked,
        game_info(game, result, detail),
        rounds,
        result.findings,
        draws=game_draws(game) if audited else None,
        walls=game_walls([(r.layout.scheme, r.wall) for r in result.rounds], red_fives(game))
        if audited
        else None,
    )


def error_report(path: str, code: str, message: str) -> FileReport:
    return FileReport(path, "error", 0, None, (), (Finding(code, Severity.ERROR, None, message),))


def check_log(
    path: str, data: bytes | str, detail: bool = False, starting: bool = False
) -> FileReport:
    """Parse and verify one game record. Bad input gives an ``error`` report, not an exception."""
    try:
        game = parse_record(data, path)
        return report_from_result(path, game, verify_game(game), detail, starting)
    except PywallError as exc:
        return error_report(path, exc.code, exc.message)


def report_for_entry(
    path: str, content: bytes | PywallError, detail: bool = False, starting: bool = False
) -> FileReport:
    """A batch entry's report: its read error, or its log checked. Never raises, so
    one entry never stops a batch (CLI, archives in the page)."""
    if isinstance(content, PywallError):
        return error_report(path, content.code, content.message)
    try:
        return check_log(path, content, detail, starting)
    except Exception as exc:  # noqa: BLE001 - a bug in pywall: one error entry, the batch goes on
        return error_report(
            path, "error", f"internal error ({type(exc).__name__}: {exc}); please report it"
        )


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


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def problem_context(
    finding: Mapping[str, Any], game: Mapping[str, Any] | None, rounds: Iterable[Any]
) -> dict[str, Any]:
    """A finding (its dict form) with what a reader's language needs to word it away from
    its report, as the page's findings list does: its round's label and dealer, the
    players' names and whether red fives are dealt. The page's summary table and the
    audit's games left out carry this; the English ``message`` stays in it. Reads dicts
    the page may have sent back, so anything malformed is left out, never raised on."""
    index = finding.get("round")
    index = index if isinstance(index, int) and not isinstance(index, bool) else None
    found = (r for r in map(_mapping, rounds) if index is not None and r.get("index") == index)
    rnd = next(found, None)
    info = _mapping(game)
    players = info.get("players")
    code = str(finding.get("code", ""))
    return {
        "finding": {
            "code": code,
            "severity": str(finding.get("severity", "error")),
            "round": index,
            "message": str(finding.get("message", "")),
            "data": dict(_mapping(finding.get("data"))),
            **code_info(code).to_dict(),
        },
        "round": None if rnd is None else {k: rnd.get(k) for k in ("index", "label", "dealer")},
        "game": {
            "players": [str(n) for n in players] if isinstance(players, list | tuple) else [],
            "player_count": info.get("player_count"),
            "red_fives": info.get("red_fives", True) is not False,
        }
        if info
        else None,
    }


def compact_row(index: int, report: FileReport) -> dict[str, Any]:
    """The one compact form of a game's report (the page keeps these for big archives)."""
    errors = report.errors
    game = report.game
    first = errors[0] if errors else None
    context = (
        problem_context(
            first.to_dict(),
            game.to_dict() if game else None,
            (r.to_dict() for r in report.rounds if r.index == first.round),
        )
        if first
        else None
    )
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


def csv_text(rows: Iterable[Mapping[str, Any] | FileReport]) -> str:
    """CSV of games (compact rows or reports), one line each, columns ``CSV_COLUMNS``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180: a cell holding CR is quoted too
    writer.writerow(CSV_COLUMNS)
    for i, r in enumerate(rows):
        row = compact_row(i, r) if isinstance(r, FileReport) else r
        writer.writerow(["" if row.get(c) is None else csv_cell(row.get(c)) for c in CSV_COLUMNS])
    return out.getvalue()


def wall_dict(index: int, wall: RoundWall, players: int, era: Era) -> dict[str, Any]:
    """One wall from a seed, without a log: its tiles, dice and layout (the dealer is seat 0,
    so ``hands`` and ``layout.deal`` are in deal order starting with the dealer)."""
    layout = layout_for(wall_scheme(era), players)
    by_seat = layout.deal_by_seat(0)
    return {
        "index": index,
        "dice": list(wall.dice) if wall.dice else None,
        "wall": list(wall.tiles),
        "hands": [[wall.tiles[p] for p in seat] for seat in by_seat],
        "dealer": 0,
        "layout": layout.to_dict(0),
    }
