"""What the audit reads of one game: ``GameRecord``, typed.

The record is made once per game from its typed report (``record_of``, by
``check.check_data``: ``GameCheck.record``); the CLI's audit and an archive run tally it
as it is. The page's workers send it as JSON (``GameRecord.to_dict``, an archive run's
``records``) and hand it back to ``api.tally_add``: ``GameRecord.from_dict`` reads it
back, checking it first, so a record of the wrong shape is a ``ValueInputError`` that
says what is wrong, never a Python error half-way through a count. (The page's logs
carry whole reports: ``pywall.page.audit_reports`` reads those at the edge.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pywall.analysis.draws import GameDraws
from pywall.analysis.walls import GameWalls
from pywall.audits.copies import CopyKey
from pywall.core.errors import ValueInputError
from pywall.core.json_value import JsonObject
from pywall.core.model import Platform
from pywall.results.exports import problem_context
from pywall.results.report import FileReport

_T = TypeVar("_T")

#: (seat, tiles 13 or 14, shanten, dora among them): a starting hand as reports carry it.
Row = tuple[int, int, int, int]
SHANTEN = range(-1, 7)  # a complete hand (-1) to the most a 13- or 14-tile hand can be (6)
PLAYERS = (3, 4)
TILES = (13, 14)
PLATFORMS = frozenset(p.value for p in Platform)
#: A wall's positions: 108 tiles in a 3-player game, 136 in a 4-player one.
WALL_SIZE = {3: 108, 4: 136}
#: The longest text a record's path or a player's name may be (64 Ki characters: an
#: mjlog tag's cap; no real name or path comes near).
MAX_TEXT_CHARS = 65_536
#: The kinds of a game that cannot count, as a record says them (the tally adds
#: ``duplicate``; ``changed``: a game planned on Dask that its file no longer held,
#: ``pywall.scale.shards``).
PROBLEMS = ("unreadable", "error", "mismatch", "no_hands", "changed")


def whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def checked_row(value: Any, players: int, where: str) -> Row:
    """A starting hand as JSON carries it, checked: [seat, tiles, shanten, dora]."""
    if not (isinstance(value, list) and len(value) == 4 and all(map(whole, value))):
        raise ValueInputError(f"{where}: a starting hand is [seat, tiles, shanten, dora]")
    seat, tiles, value_, dora = value
    if not (0 <= seat < players and tiles in TILES and value_ in SHANTEN and 0 <= dora <= tiles):
        raise ValueInputError(
            f"{where}: [{seat}, {tiles}, {value_}, {dora}] is no starting hand of a "
            f"{players}-player game"
        )
    return seat, tiles, value_, dora


#: Why a game cannot count: (kind, reason in English, reason code, data for the reason's
#: words); see ``tally.Exclusion``.
Why = tuple[str, str, str, JsonObject]


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
    copy: CopyKey | None = None  # what compares it with other copies of the game

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON (what a shared archive run sends the page)."""
        return {
            "path": self.path,
            "problem": None if self.problem is None else [*self.problem[:3], dict(self.problem[3])],
            "fingerprint": self.fingerprint,
            "platform": self.platform,
            "players": self.players,
            "names": list(self.names),
            "starting": [list(row) for row in self.starting],
            "draws": None if self.draws is None else self.draws.to_dict(),
            "walls": None if self.walls is None else self.walls.to_dict(),
            "copy": None if self.copy is None else self.copy.to_list(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameRecord:
        """A record's JSON read back, checked: ``ValueInputError`` naming the game's path
        and what is wrong. An object without ``problem`` is no record: it counts as an
        unreadable game; one whose problem is null but that has no starting hands or no
        fingerprint cannot count, as the report it came from could not."""
        path = str(d.get("path", "?"))
        where = path[:200]
        if len(path) > MAX_TEXT_CHARS:
            raise ValueInputError(f"{where}…: a path of over {MAX_TEXT_CHARS:,} characters")
        if "problem" not in d:  # no record's JSON (the page sent something else): unreadable
            return cls(path, unverified(None, None, {}))
        if d["problem"] is not None:
            return cls(path, _read_problem(d["problem"], where))
        players, platform, names = d.get("players", 4), d.get("platform", "tenhou"), d.get("names")
        if not whole(players) or players not in PLAYERS:
            raise ValueInputError(f"{where}: player_count must be 3 or 4")
        if platform not in PLATFORMS:
            raise ValueInputError(
                f"{where}: the record's platform is not one of {', '.join(sorted(PLATFORMS))}"
            )
        _check_names(names, players, where)
        starting = d.get("starting")
        if starting is None:
            return cls(path, NO_STARTING_HANDS)
        if not isinstance(starting, list):
            raise ValueInputError(f"{where}: the record's starting hands are not a list")
        rows = tuple(checked_row(r, players, where) for r in starting)
        if not isinstance(d.get("fingerprint"), str) or not d.get("copy"):
            return cls(path, NO_FINGERPRINT)
        return cls(
            path,
            None,
            d["fingerprint"],
            platform,
            players,
            tuple(str(n) for n in names or ()),
            rows,
            checked_draws(d.get("draws"), where, players),
            checked_walls(d.get("walls"), where, players),
            CopyKey.from_list(d["copy"], where),
        )


def record_of(report: FileReport) -> GameRecord:
    """The record of a report made in this process (typed: nothing to check)."""
    game = report.game
    if report.status != "verified" or game is None:  # its first error, with its context
        return GameRecord(report.path, _problem(report))
    starting = [r.starting for r in report.rounds]
    if not starting or any(s is None for s in starting):
        return GameRecord(report.path, NO_STARTING_HANDS)
    if game.fingerprint is None or report.copy is None:
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
        report.copy,
    )


def _problem(report: FileReport) -> Why:
    """Why a report that is not verified cannot count (``audit_reports.problem_of`` reads the
    same from its JSON)."""
    first = report.errors[0] if report.errors else None
    context = problem_context(first, report.game, report.rounds) if first else {}
    return unverified(report.status, first.message if first else None, context)


def unverified(status: object, message: object, context: JsonObject) -> Why:
    """Why a game that did not verify cannot count: its status and its first error."""
    kind = str(status) if status in ("mismatch", "error") else "unreadable"
    return kind, f"{kind}: {message}" if message else kind, kind, context


def _read_problem(value: Any, path: str) -> Why:
    """A record's problem as ``to_dict`` lists it: [kind, reason, code, data]."""
    if not (
        isinstance(value, list)
        and len(value) == 4
        and value[0] in PROBLEMS
        and all(isinstance(v, str) for v in value[1:3])
        and isinstance(value[3], dict)
    ):
        raise ValueInputError(f"{path}: not an audit record's problem: [kind, reason, code, data]")
    kind, reason, code, data = value
    return kind, reason, code, data


def checked_draws(value: Any, path: str, players: int) -> GameDraws | None:
    """A game's draw sums (``GameDraws`` as JSON carries them), read before anything is
    counted; ``None`` when it carries none."""
    draws = carried(value, "draws", GameDraws.from_dict, path)
    if draws is not None and any(not 0 <= s.seat < players for s in draws.seats):
        raise ValueInputError(f"{path}: the game's draws name a seat it does not have")
    return draws


def _check_names(names: Any, players: int, where: str) -> None:
    """A record's players: at most one name a seat, each text of bounded length."""
    if names is None:
        return
    if not (
        isinstance(names, list)
        and len(names) <= players
        and all(isinstance(n, str) and len(n) <= MAX_TEXT_CHARS for n in names)
    ):
        raise ValueInputError(
            f"{where}: the record's players are not at most {players} names of text "
            f"(each at most {MAX_TEXT_CHARS:,} characters)"
        )


def checked_walls(value: Any, path: str, players: int) -> GameWalls | None:
    """A game's whole walls, each of its player count's size (108 or 136 positions)."""
    walls = carried(value, "walls", GameWalls.from_dict, path)
    if walls is not None and any(len(w.text) != WALL_SIZE[players] for w in walls.rounds):
        raise ValueInputError(
            f"{path}: a wall of the game is not of {WALL_SIZE[players]} tiles ({players} players)"
        )
    return walls


def carried(value: Any, key: str, read: Callable[[Any], _T], path: str) -> _T | None:
    """A game's ``key`` as JSON carries it, read back as its type; a ``ValueInputError``
    naming what is wrong for anything else; ``None`` when it carries none."""
    if not value:
        return None
    try:
        return read(value)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueInputError(f"{path}: not a game's {key} ({type(exc).__name__})") from None


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


NO_STARTING_HANDS: Why = (
    "no_hands",
    "the report carries no starting hands (check the game with the audit on)",
    "no_starting_hands",
    {},
)
NO_FINGERPRINT: Why = (
    "no_hands",
    "the report has no game fingerprint or copy key (check the game with the audit on)",
    "no_fingerprint",
    {},
)
