"""The page's reports read back into the audit's records, at the edge.

The page keeps the reports of the logs a person checks (``FileReport.to_dict()``, from
``verify``) and hands them to ``api.audit`` as ``reports``: ``read_record`` reads each
into the ``GameRecord`` that ``records.record_of`` makes of the typed report,
checking the JSON first, so a report of the wrong shape is a ``ValueInputError`` that
says what is wrong, never a Python error half-way through a count (a test holds the two
records equal on every fixture). An archive run's games come back as records already
(``GameRecord.from_dict``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pywall.analysis.walls import GameWalls
from pywall.audits.copies import CopyKey
from pywall.audits.records import (
    NO_FINGERPRINT,
    NO_STARTING_HANDS,
    PLAYERS,
    GameRecord,
    Row,
    Why,
    carried,
    checked_draws,
    checked_row,
    unverified,
    whole,
)
from pywall.core.errors import ValueInputError
from pywall.core.findings import info as code_info


def read_record(report: Mapping[str, Any]) -> GameRecord:
    """The record of a report's JSON (``FileReport.to_dict()``, or the page's copy of it),
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
        checked_draws(report.get("draws"), path, players),
        carried(report.get("walls"), "walls", GameWalls.from_dict, path),
        CopyKey.from_list(report["copy"], path[:200]),
    )


def checked_game(report: Mapping[str, Any]) -> tuple[int, str, list[str], list[Row]]:
    """A counted report's player count, platform, names and starting hands (every round's)."""
    path = str(report.get("path", "?"))[:200]
    game = report.get("game")
    if not isinstance(game, Mapping):
        raise ValueInputError(f"{path}: the audit record has no game")
    players, platform = game.get("player_count"), game.get("platform", "tenhou")
    names = game.get("players") or []
    if not whole(players) or players not in PLAYERS:
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
        rows += [checked_row(r, players, f"{path}, round {i + 1}") for r in starting]
    return players, platform, [str(n) for n in names], rows


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
        return unverified(status, first.get("message") if first else None, context)
    rounds = report.get("rounds") or []
    if not isinstance(rounds, list):
        path = str(report.get("path", "?"))[:200]
        raise ValueInputError(f"{path}: the record's rounds are not a list")
    if not rounds or any(not isinstance(r, Mapping) or r.get("starting") is None for r in rounds):
        return NO_STARTING_HANDS
    if not isinstance(game.get("fingerprint"), str) or not report.get("copy"):
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
