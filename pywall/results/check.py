"""The pipeline: a game record's bytes in, one typed ``GameCheck`` out.

A record is parsed (``pywall.formats``), verified against its walls
(``pywall.checks.verify``), and viewed once as the report (``FileReport``, whose ``to_dict``
is the JSON the CLI prints and the page shows) and as the audit's record of the game
(``records.record_of``). The drivers (the CLI, ``api``, archive runs) take what
they need of the one ``GameCheck``; none of them reads a report's JSON back to learn
what was found here. Bad input gives an ``error`` report, never an exception.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.analysis.draws import game_draws
from pywall.analysis.efficiency import cached_shanten, suits_held
from pywall.analysis.walls import game_walls
from pywall.audits.copies import copy_key
from pywall.audits.records import GameRecord, record_of
from pywall.checks.verify import GameResult, RoundResult, Row, red_fives, verify_game
from pywall.core.errors import PywallError
from pywall.core.model import Game, Round
from pywall.core.tiles import dora_kind
from pywall.formats import parse_record
from pywall.formats.tenhou_rules import date_from_log_id, rule_from_type, vs_computer
from pywall.results.report import FileReport, GameInfo, RoundReport, Starting, error_report


@dataclass(frozen=True, slots=True)
class GameCheck:
    """One game checked: the parsed game and its verification (None when the record could
    not be read), the report's view of it and the audit's record of it."""

    game: Game | None
    result: GameResult | None
    report: FileReport
    record: GameRecord


def _checked(
    report: FileReport, game: Game | None = None, result: GameResult | None = None
) -> GameCheck:
    return GameCheck(game, result, report, record_of(report))


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
    first = rnd.dealer_draw
    for seat, hand in enumerate(rnd.hands):
        tiles = list(hand)
        if seat == rnd.dealer and len(tiles) == 13:
            if first is None:
                continue
            tiles.append(first.tile)
        counts = [0] * 34
        for t in tiles:
            counts[t // 4] += 1
        out.append((seat, len(tiles), cached_shanten(counts), counts[indicated]))
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
        layout if detail else None,
        tuple(r.wall[p] for p in layout.dora[: r.dora_revealed]) if detail else None,
        starting_hands(rnd, players) if starting else None,
        r.hashes,
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
        copy=copy_key(game) if audited else None,
    )


def check_data(
    path: str, data: bytes | str, detail: bool = False, starting: bool = False
) -> GameCheck:
    """Parse and verify one game record. Bad input gives an ``error`` report, not an exception.
    The draw test's suit caches are bounded between games (``efficiency.suits_held``)."""
    with suits_held():
        try:
            game = parse_record(data, path)
            result = verify_game(game)
            return _checked(report_from_result(path, game, result, detail, starting), game, result)
        except PywallError as exc:
            return _checked(error_report(path, exc.code, exc.message))


def check_entry(
    path: str, content: bytes | PywallError, detail: bool = False, starting: bool = False
) -> GameCheck:
    """A batch entry checked: its read error, or its log. Never raises, so one entry never
    stops a batch (CLI, archives in the page)."""
    if isinstance(content, PywallError):
        return _checked(error_report(path, content.code, content.message))
    try:
        return check_data(path, content, detail, starting)
    except Exception as exc:  # noqa: BLE001 - a bug in pywall: one error entry, the batch goes on
        return _checked(
            error_report(
                path, "error", f"internal error ({type(exc).__name__}: {exc}); please report it"
            )
        )


def check_log(
    path: str, data: bytes | str, detail: bool = False, starting: bool = False
) -> FileReport:
    """The report of one game record (``check_data``'s view)."""
    return check_data(path, data, detail, starting).report


def report_for_entry(
    path: str, content: bytes | PywallError, detail: bool = False, starting: bool = False
) -> FileReport:
    """A batch entry's report (``check_entry``'s view). Never raises."""
    return check_entry(path, content, detail, starting).report
