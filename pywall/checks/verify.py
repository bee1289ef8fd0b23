"""Check every tile of a game record against the walls it is supposed to come from.

Theory of operation: one loop for every platform. The game's wall source
(``pywall.checks.wall_sources``: rebuilt from a Tenhou seed, or stated by a Mahjong Soul or
Riichi City record) says what getting its walls found and yields each round with its
wall and layout (``pywall.core.layout``; docs/walls.md states the facts). Each round goes
through the same checks (``pywall.checks.round_checks``: deal, live draws, replacement draws,
dora and ura indicators, wins, wall counts), then the game's budget of tile checks
(``limits.MAX_ROWS``), then the source's checks of the wall itself (a stated wall's tile
set, copy and digests). A mismatch is a ``Finding`` that says where, and checking goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pywall.checks.round_checks import (
    MAX_LISTED_PER_ROUND,
    RoundResult,
    Row,
    TileCheck,
    check_round,
    deal_rows,
    describe,
    event_rows,
)
from pywall.checks.tenhou import Era, Scheme
from pywall.checks.wall_sources import (
    SeededWalls,
    StatedWalls,
    WallSource,
    legacy_finding,
    source_for,
    walls_for,
)
from pywall.core.findings import Finding, Severity, capped
from pywall.core.limits import MAX_ROWS
from pywall.core.model import Game, Platform

__all__ = [
    "FATAL_CODES",
    "MAX_LISTED_PER_ROUND",
    "GameResult",
    "RoundResult",
    "Row",
    "SeededWalls",
    "StatedWalls",
    "TileCheck",
    "WallSource",
    "check_budget",
    "check_round",
    "deal_rows",
    "describe",
    "event_rows",
    "game_findings",
    "legacy_finding",
    "red_fives",
    "status_of",
    "verify_game",
    "walls_for",
]

#: Findings that mean the log could not be verified at all (status ``error``).
FATAL_CODES = frozenset(
    {"seed_missing", "bad_seed", "no_rounds", "log_format", "too_large", "unreadable", "error"}
)


@dataclass(frozen=True, slots=True)
class GameResult:
    rounds: tuple[RoundResult, ...]
    findings: tuple[Finding, ...]  # game-level and round findings, in order
    scheme: Scheme | None  # Tenhou's seed format (None for other platforms)
    limits: tuple[str, ...] = ()  # what the checks cannot prove: pywall.checks.stated.LIMITS codes
    era: Era | None = None  # Tenhou's era of walls (None for other platforms)

    @property
    def checked(self) -> int:
        return sum(r.checked for r in self.rounds)

    @property
    def status(self) -> str:
        return status_of(self.findings)


def status_of(findings: Sequence[Finding]) -> str:
    if any(f.code in FATAL_CODES for f in findings):
        return "error"
    if any(f.severity is Severity.ERROR for f in findings):
        return "mismatch"
    return "verified"


def red_fives(game: Game) -> bool:
    """Whether the rule uses red fives (Tenhou: GO type bit 0x02 means "no red")."""
    if game.platform is not Platform.TENHOU:
        return True
    return game.go_type is None or not game.go_type & 0x02


def game_findings(game: Game) -> list[Finding]:
    """Findings about the game as a whole, whatever its platform."""
    found = [
        Finding("duplicate_attribute", Severity.INFO, None, f"{q}; the first value is used")
        for q in game.quirks
    ]
    if not game.rounds:
        found.append(
            Finding("no_rounds", Severity.ERROR, None, "the log has no rounds (no INIT tag)")
        )
    if not game.complete:
        found.append(
            Finding(
                "incomplete_log",
                Severity.INFO,
                None,
                f"the log ends before the game's final result; the {len(game.rounds)} "
                "rounds it has were verified",
            )
        )
    return found


def verify_game(game: Game) -> GameResult:
    """Get every round's wall from the game's source and compare every tile of the log
    with it."""
    source = source_for(game)
    findings = game_findings(game) + list(source.findings)
    scheme, era = source.scheme, source.era
    if any(f.code in FATAL_CODES for f in findings):
        return GameResult((), tuple(findings), scheme, era=era)
    limits = source.limits()
    red = red_fives(game)
    rounds: list[RoundResult] = []
    for item in source.walls():
        if isinstance(item, Finding):  # the source cannot give this round's wall
            findings.append(item)
            break
        result = check_round(item.round, item.wall, item.layout, red, source.stated)
        if check_budget(rounds, result, findings):
            break
        checks = source.check_wall(item)
        if checks.findings or checks.digests is not None:
            result = replace(
                result, findings=result.findings + checks.findings, digests=checks.digests
            )
        rounds.append(result)
        findings.extend(result.findings)
    return GameResult(tuple(rounds), capped(findings, FATAL_CODES), scheme, limits, era)


def check_budget(rounds: list[RoundResult], result: RoundResult, findings: list[Finding]) -> bool:
    """Whether this round's tile checks take the game over ``limits.MAX_ROWS`` (then a
    ``too_large`` finding says so: the game is not verified, and no more rounds are read)."""
    if sum(r.checked for r in rounds) + result.checked <= MAX_ROWS:
        return False
    findings.append(
        Finding(
            "too_large",
            Severity.ERROR,
            result.index,
            f"{result.label}: the game makes over {MAX_ROWS:,} tile checks (a real game "
            "makes about 4,000); pywall stops checking here",
            {"cap": MAX_ROWS},
        )
    )
    return True
