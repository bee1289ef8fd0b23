"""The verification report shared by the CLI and the web page.

One ``FileReport`` per input file, serialised by ``to_dict`` into the JSON
form documented in docs/cli.md (``schema`` is bumped on any change of shape;
schema 2 added each round's ``dealer``, indicators revealed, ``layout`` and
``starting`` hands; later, additively, a stated wall's ``hashes`` per round and the
game's ``limits``). ``check_log`` is the one call both drivers make: bytes in,
report out, never an exception for bad input. Wall positions are never computed
here: they come from the round's ``pywall.core.layout.Layout``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pywall.analysis.draws import GameDraws
from pywall.analysis.walls import GameWalls
from pywall.audits.copies import CopyKey
from pywall.checks.digests import DigestResult
from pywall.core.errors import ValueInputError
from pywall.core.findings import Finding, Severity
from pywall.core.layout import Layout

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
    limits: tuple[str, ...] = ()  # what the checks cannot prove (pywall.checks.stated.LIMITS codes)
    vs_computer: bool = False  # Tenhou: a game against the computer (GO type bit 0x01 clear)
    red_fives: bool = True  # the rule deals red fives (tile ids 16, 52, 88 are red)
    era: str | None = None  # Tenhou: the era of its walls (pywall.checks.tenhou.Era), else None
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
    layout: Layout | None = None  # with detail: the wall's positions (JSON: by seat from dealer)
    dora_indicators: tuple[int, ...] | None = None  # with detail: the revealed indicators' tiles
    starting: tuple[Starting, ...] | None = None  # on request: the audit's view of the deal
    hashes: tuple[DigestResult, ...] | None = None  # a stated wall's digests (not Tenhou)

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
            d["layout"] = self.layout.to_dict(self.dealer)
        if self.hashes is not None:
            d["hashes"] = [h.to_dict() for h in self.hashes]
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

        dice, dealer, hashes = d.get("dice"), d.get("dealer", 0), d.get("hashes")
        layout = None if d.get("layout") is None else Layout.from_dict(d["layout"])
        if layout is not None and d["layout"]["dealer"] != dealer:
            raise ValueInputError("a round's layout is dealt from another seat than its dealer")
        if hashes is not None and not isinstance(hashes, list):
            raise ValueInputError("a round's hashes must be a list of digests")
        return cls(
            d["index"],
            d["label"],
            (dice[0], dice[1]) if dice else None,
            d["result"],
            d["checked"],
            dealer,
            d.get("dora_revealed", 1),
            d.get("ura_revealed", 0),
            tuples("wall"),
            tuples("events"),
            tuples("hands"),
            layout,
            tuples("dora_indicators"),
            tuples("starting"),
            None if hashes is None else tuple(DigestResult.from_dict(h) for h in hashes),
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
    #: with the starting hands, for a verified game: what compares it with other copies
    #: of the game (``pywall.audits.copies``)
    copy: CopyKey | None = None

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
            d["draws"] = self.draws.to_dict() | {"by_seat": self.draws.by_seat()}
        if self.walls is not None:
            d["walls"] = self.walls.to_dict()
        if self.copy is not None:
            d["copy"] = self.copy.to_list()
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
            CopyKey.from_list(d["copy"], str(d["path"])[:200]) if d.get("copy") else None,
        )

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict a round (for ``pandas.DataFrame(report.rows())``): the game's
        path, status, platform, id and date beside the round's index, label, dealer, dice,
        result, tiles checked, errors and first error. A report without rounds (a record
        that could not be read) is one row with the round's fields ``None``."""
        game = self.game
        head: dict[str, Any] = {
            "path": self.path,
            "status": self.status,
            "platform": game.platform if game else None,
            "game_id": game.game_id if game else None,
            "date": game.date if game else None,
            "player_count": game.player_count if game else None,
        }
        errors = self.errors
        if not self.rounds:
            first = errors[0].message if errors else None
            none = dict.fromkeys(("round", "label", "dealer", "dice", "result", "checked"))
            return [head | none | {"errors": len(errors), "first_error": first}]
        rows = []
        for r in self.rounds:
            mine = [f for f in errors if f.round == r.index]
            rows.append(
                head
                | {
                    "round": r.index,
                    "label": r.label,
                    "dealer": r.dealer,
                    "dice": f"{r.dice[0]}+{r.dice[1]}" if r.dice else None,
                    "result": r.result,
                    "checked": r.checked,
                    "errors": len(mine),
                    "first_error": mine[0].message if mine else None,
                }
            )
        return rows


#: Columns of each detail event (one per tile compared): compact arrays keep the
#: page's JSON small and fast; the wall's tile at ``pos`` is ``round.wall[pos]``.
EVENT_FIELDS = ("pos", "what", "seat", "n", "k", "log", "ok")


def error_report(path: str, code: str, message: str) -> FileReport:
    return FileReport(path, "error", 0, None, (), (Finding(code, Severity.ERROR, None, message),))
