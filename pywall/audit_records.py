"""What the audit is handed, checked before it counts: the page makes reports' audit
records and tallies in JavaScript and hands them back (``api``'s ``audit`` and
``tally_add``), so a record of the wrong shape is a ``ValueInputError`` that says what
is wrong, never a Python error half-way through a count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pywall.errors import ValueInputError

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


def checked_counts(value: Any) -> dict[tuple[int, int], dict[int, int]]:
    """A tally's shanten counts as ``Tally.to_dict`` lists them: [players, tiles, {shanten: n}]."""
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
