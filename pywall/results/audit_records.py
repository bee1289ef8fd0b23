"""What the audit reads of one game: ``GameRecord``, typed.

Where the game was checked in this process (the CLI's audit, an archive run) the record
is made from the typed report (``record_of``). The page instead carries reports' JSON
(``audit_input``, a fraction of the report) and hands it back (``api``'s ``audit`` and
``tally_add``): ``read_record`` reads that JSON back into a ``GameRecord``, checking it
first, so a record of the wrong shape is a ``ValueInputError`` that says what is wrong,
never a Python error half-way through a count. Both give the same record of the same
report (a test holds them equal on every fixture).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pywall.analysis.draws import GameDraws
from pywall.analysis.walls import GameWalls
from pywall.core.errors import ValueInputError
from pywall.core.findings import info as code_info
from pywall.results.exports import problem_context
from pywall.results.report import FileReport

_T = TypeVar("_T")

#: (seat, tiles 13 or 14, shanten, dora among them): a starting hand as reports carry it.
Row = tuple[int, int, int, int]
SHANTEN = range(-1, 7)  # a complete hand (-1) to the most a 13- or 14-tile hand can be (6)
PLAYERS = (3, 4)
TILES = (13, 14)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _row(value: Any, players: int, where: str) -> Row:
    if not (isinstance(value, list) and len(value) == 4 and all(map(_whole, value))):
        raise ValueInputError(f"{where}: a starting hand is [seat, tiles, shanten, dora]")
    seat, tiles, value_, dora = value
    if not (0 <= seat < players and tiles in TILES and value_ in SHANTEN and 0 <= dora <= tiles):
        raise ValueInputError(
            f"{where}: [{seat}, {tiles}, {value_}, {dora}] is no starting hand of a "
            f"{players}-player game"
        )
    return seat, tiles, value_, dora


def checked_game(report: Mapping[str, Any]) -> tuple[int, str, list[str], list[Row]]:
    """A counted report's player count, platform, names and starting hands (every round's)."""
    path = str(report.get("path", "?"))[:200]
    game = report.get("game")
    if not isinstance(game, Mapping):
        raise ValueInputError(f"{path}: the audit record has no game")
    players, platform = game.get("player_count"), game.get("platform", "tenhou")
    names = game.get("players") or []
    if not _whole(players) or players not in PLAYERS:
        raise ValueInputError(f"{path}: player_count must be 3 or 4")
    if not isinstance(platform, str) or not isinstance(names, list):
        raise ValueInputError(f"{path}: the record's platform or players are not text")
    rounds = report.get("rounds")
    if not isinstance(rounds, list):
        raise ValueInputError(f"{path}: the record's rounds are not a list")
    rows = []
    for i, rnd in enumerate(rounds):
        starting = rnd.get("starting") if isinstance(rnd, Mapping) else None
        if not isinstance(starting, list):
            raise ValueInputError(f"{path}, round {i + 1}: no starting hands")
        rows += [_row(r, players, f"{path}, round {i + 1}") for r in starting]
    return players, platform, [str(n) for n in names], rows


#: Why a game cannot count: (kind, reason in English, reason code, data for the reason's
#: words); see ``audit.Exclusion``.
Why = tuple[str, str, str, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the audit counts of one game; ``problem`` says why it cannot count (then the
    other fields are empty). A game already counted is found by ``fingerprint``."""

    path: str
    problem: Why | None = None
    fingerprint: str = ""
    platform: str = "tenhou"
    players: int = 4
    names: tuple[str, ...] = ()
    starting: tuple[Row, ...] = ()  # every round's starting hands
    draws: GameDraws | None = None
    walls: GameWalls | None = None


def record_of(report: FileReport) -> GameRecord:
    """The record of a report made in this process (typed: nothing to check)."""
    game = report.game
    if report.status != "verified" or game is None:  # its first error, with its context
        return GameRecord(report.path, _problem(report))
    starting = [r.starting for r in report.rounds]
    if not starting or any(s is None for s in starting):
        return GameRecord(report.path, NO_STARTING_HANDS)
    if game.fingerprint is None:
        return GameRecord(report.path, NO_FINGERPRINT)
    return GameRecord(
        report.path,
        None,
        game.fingerprint,
        game.platform,
        game.player_count,
        game.players,
        tuple(row for rows in starting if rows for row in rows),
        report.draws,
        report.walls,
    )


def _problem(report: FileReport) -> Why:
    """Why a report that is not verified cannot count: ``problem_of`` of its JSON, typed."""
    first = report.errors[0] if report.errors else None
    context = problem_context(first, report.game, report.rounds) if first else {}
    return _unverified(report.status, first.message if first else None, context)


def _unverified(status: object, message: object, context: Mapping[str, Any]) -> Why:
    """Why a game that did not verify cannot count: its status and its first error."""
    kind = str(status) if status in ("mismatch", "error") else "unreadable"
    return kind, f"{kind}: {message}" if message else kind, kind, context


def read_record(report: Mapping[str, Any]) -> GameRecord:
    """The record of a report's JSON (``FileReport.to_dict()`` or its ``audit_input``),
    checked: ``ValueInputError`` on a record of the wrong shape."""
    path = str(report.get("path", "?"))
    problem = problem_of(report)
    if problem is not None:
        return GameRecord(path, problem)
    players, platform, names, rows = checked_game(report)
    return GameRecord(
        path,
        None,
        report["game"]["fingerprint"],
        platform,
        players,
        tuple(names),
        tuple(rows),
        _game_draws(report, path, players),
        _carried(report, "walls", GameWalls.from_dict, path),
    )


def checked_counts(value: Any) -> dict[tuple[int, int], dict[int, int]]:
    """A tally's shanten counts as ``AuditTally.to_dict`` lists them: [players, tiles, {shanten: n}]."""
    counts: dict[tuple[int, int], dict[int, int]] = {}
    for p, t, c in value:
        hand_class = (int(p), int(t))
        by_value = {int(s): int(n) for s, n in c.items()}
        if hand_class[0] not in PLAYERS or hand_class[1] not in TILES:
            raise ValueInputError(f"not an audit tally: no hand class {hand_class}")
        if any(s not in SHANTEN or n < 0 for s, n in by_value.items()):
            raise ValueInputError("not an audit tally: a shanten count out of range")
        counts[hand_class] = by_value
    return counts


#: What ``read_record`` reads of a game's report, and of its rounds and findings.
AUDIT_FIELDS = ("path", "status", "game", "findings", "rounds", "draws", "walls")
AUDIT_GAME = ("fingerprint", "player_count", "platform", "players", "red_fives")


def _game_draws(report: Mapping[str, Any], path: str, players: int) -> GameDraws | None:
    """A report's draw sums (``GameDraws`` as it carries them), read before anything is
    counted; ``None`` when it carries none."""
    draws = _carried(report, "draws", GameDraws.from_dict, path)
    if draws is not None and any(not 0 <= s.seat < players for s in draws.seats):
        raise ValueInputError(f"{path}: the game's draws name a seat it does not have")
    return draws


def _carried(
    report: Mapping[str, Any], key: str, read: Callable[[Any], _T], path: str
) -> _T | None:
    """The report's ``key`` read back as its type; a ``ValueInputError`` naming what is
    wrong for anything else; ``None`` when the report carries none."""
    found = report.get(key)
    if not found:
        return None
    try:
        return read(found)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueInputError(f"{path}: not a game's {key} ({type(exc).__name__})") from None


def audit_input(report: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a report (``FileReport.to_dict()``) the tally reads: adding it counts
    the same as adding the report, at a fraction of its size."""
    out = {k: report[k] for k in AUDIT_FIELDS if k in report}
    game = report.get("game")
    if isinstance(game, Mapping):
        out["game"] = {k: game[k] for k in AUDIT_GAME if k in game}
    # the first error, whole (its code and data word the reason in the reader's language)
    first = _first_error(report)
    out["findings"] = [first] if first else []
    out["rounds"] = [
        {k: r.get(k) for k in ("index", "label", "dealer", "starting")}
        if isinstance(r, Mapping)
        else r
        for r in report.get("rounds") or []
    ]
    return out


def _first_error(report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A report's first finding of severity error (its dict form), or None."""
    return next(
        (
            f
            for f in report.get("findings") or []
            if isinstance(f, Mapping) and f.get("severity") == "error"
        ),
        None,
    )


NO_STARTING_HANDS: Why = (
    "no_hands",
    "the report carries no starting hands (check the game with the audit on)",
    "no_starting_hands",
    {},
)
NO_FINGERPRINT: Why = ("no_hands", "the report has no game fingerprint", "no_fingerprint", {})


def problem_of(report: Mapping[str, Any]) -> Why | None:
    """Why a game's report cannot count (a repeat aside: the tally knows), or None."""
    status, game = report.get("status"), report.get("game")
    if status != "verified" or not isinstance(game, Mapping):
        first = _first_error(report)
        rounds = report.get("rounds")
        context = (
            read_problem_context(
                first,
                game if isinstance(game, Mapping) else None,
                rounds if isinstance(rounds, list) else (),
            )
            if first
            else {}
        )
        return _unverified(status, first.get("message") if first else None, context)
    rounds = report.get("rounds") or []
    if not isinstance(rounds, list):
        path = str(report.get("path", "?"))[:200]
        raise ValueInputError(f"{path}: the record's rounds are not a list")
    if not rounds or any(not isinstance(r, Mapping) or r.get("starting") is None for r in rounds):
        return NO_STARTING_HANDS
    if not isinstance(game.get("fingerprint"), str):
        return NO_FINGERPRINT
    return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def read_problem_context(
    finding: Mapping[str, Any], game: Mapping[str, Any] | None, rounds: Iterable[Any]
) -> dict[str, Any]:
    """``exports.problem_context`` of a finding, its game and rounds as the page hands them
    back (their dict form): the same dict, with anything malformed left out, never
    raised on."""
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
