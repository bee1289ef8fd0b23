"""Fairness audit of starting hands: do they look like a fair shuffle's?

Theory of operation
-------------------
In a fair shuffle every set of 13 tiles (14 for the dealer, counting the first
draw) is equally likely, so the shanten of starting hands follows the exact
distribution of ``pywall.distribution`` and the dora among them a hypergeometric
law. For each player and overall this module compares what was dealt with those
laws: a chi-square test of the shanten distribution (sparse extremes merged), a
z-score of the total shanten against its exact mean and standard deviation, and a
z-score of the number of dora dealt. Dealer (14-tile) and non-dealer (13-tile)
hands are tested separately, then combined (chi-square statistics and degrees of
freedom add up; sums and variances add up). Only verified games should be fed in:
picking which games to count is itself a bias.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pywall.errors import PywallError, ValueInputError
from pywall.findings import Severity
from pywall.formats import mjlog
from pywall.model import Draw, Game
from pywall.shanten import shanten
from pywall.shanten_distribution import distribution
from pywall.stats import (
    ChiSquare,
    ZScore,
    chi2_sf,
    chi_square,
    hypergeometric_moments,
    moments,
    z_score,
)
from pywall.verify import verify_game

OVERALL = "all players"

EXPLANATION = (
    "What this can show: over many verified games, starting hands that are better (or "
    "worse) than a fair shuffle deals, by more than chance allows. The shanten "
    "distribution and its mean are compared with exact values for all possible hands; "
    "a small p-value (say below 0.001) means results this far from fair would be rare "
    "if the shuffle were fair. What it cannot show: it cannot prove a shuffle fair (only "
    "fail to find a bias of the size the sample can detect; a few hundred hands detect "
    "only large effects), and one small p-value among many players or tests is expected "
    "by chance (about 1 in 1,000 at 0.001). It looks at starting hands only, not at "
    "draws, and a skew it finds says nothing about who caused it. Hands dealt in the "
    "same round share one wall, so they are not quite independent; the tests treat "
    "them as independent, which is a close approximation. Verification shows each wall "
    "came from its published seed; this audit asks whether the seeds behave like "
    "random ones."
)


def dora_kind(indicator_kind: int) -> int:
    """The dora a kind indicates: next in its suit (9 -> 1), winds and dragons in a cycle."""
    if not 0 <= indicator_kind < 34:
        raise ValueInputError(f"tile kind {indicator_kind} is out of range 0-33")
    if indicator_kind < 27:
        return indicator_kind - indicator_kind % 9 + (indicator_kind % 9 + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3


@dataclass(frozen=True, slots=True)
class StartingHand:
    """One player's starting hand: 13 tiles, or 14 for the dealer (with the first draw).

    ``dora`` is the number of its tiles of the dora kind; by default the hand is a
    sample of the 135 tiles other than the indicator (``pool``), among which the dora
    kind has 4 copies (``dora_tiles``).
    """

    player: str
    dealer: bool
    counts: tuple[int, ...]
    dora: int = 0
    dora_tiles: int = 4
    pool: int = 135

    def __post_init__(self) -> None:
        tiles = sum(self.counts)
        if len(self.counts) != 34 or tiles != (14 if self.dealer else 13):
            raise ValueInputError(
                f"{self.player}: a {'dealer' if self.dealer else 'non-dealer'} starting hand "
                f"has {14 if self.dealer else 13} tiles, got {tiles} in {len(self.counts)} kinds"
            )
        if not 0 <= self.dora <= min(tiles, self.dora_tiles):
            raise ValueInputError(f"{self.player}: {self.dora} dora in a hand is impossible")

    @classmethod
    def from_tiles(
        cls, player: str, dealer: bool, tiles: Sequence[int], indicator: int | None = None
    ) -> StartingHand:
        """From tile ids (0-135); ``indicator`` is the dora indicator's tile id."""
        if any(not 0 <= t < 136 for t in tiles) or len(set(tiles)) != len(tiles):
            raise ValueInputError(f"{player}: tile ids must be distinct numbers 0-135")
        counts = [0] * 34
        for tile in tiles:
            counts[tile // 4] += 1
        if indicator is None:
            return cls(player, dealer, tuple(counts))
        return cls(player, dealer, tuple(counts), counts[dora_kind(indicator // 4)])

    @property
    def tiles(self) -> int:
        return 14 if self.dealer else 13


@dataclass(frozen=True, slots=True)
class ShantenTest:
    """Hands of one size (13 or 14 tiles) against the exact shanten distribution."""

    tiles: int
    hands: int
    observed: tuple[tuple[int, int], ...]
    expected: tuple[tuple[int, float], ...]
    mean: float
    expected_mean: float
    expected_sd: float
    z: ZScore
    chi_square: ChiSquare


@dataclass(frozen=True, slots=True)
class GroupAudit:
    """One player's hands (or everyone's): per hand size, combined, and dora."""

    label: str
    hands: int
    parts: tuple[ShantenTest, ...]
    shanten_z: ZScore
    chi2: float
    dof: int
    p_value: float
    dora: ZScore | None

    @property
    def p_values(self) -> tuple[float, ...]:
        return (self.p_value, self.shanten_z.p_value) + ((self.dora.p_value,) if self.dora else ())

    def rejects(self, alpha: float) -> bool:
        """Whether any of this group's tests rejects at ``alpha`` (Bonferroni-corrected)."""
        return min(self.p_values) < alpha / len(self.p_values)


@dataclass(frozen=True, slots=True)
class AuditResult:
    overall: GroupAudit
    players: tuple[GroupAudit, ...]
    explanation: str = EXPLANATION

    def to_dict(self) -> dict[str, Any]:
        return {
            "overall": group_dict(self.overall),
            "players": [group_dict(g) for g in self.players],
            "explanation": self.explanation,
        }


def shanten_test(tiles: int, values: Sequence[int], min_expected: float = 5.0) -> ShantenTest:
    """Shanten values of ``tiles``-tile hands against the exact distribution."""
    exact = distribution(tiles)
    total = sum(exact.values())
    n = len(values)
    observed = {s: 0 for s in exact}
    for value in values:
        observed[value] = observed.get(value, 0) + 1
    expected = {s: n * c / total for s, c in exact.items()}
    mean, variance = moments(exact)
    labels = [str(s) for s in exact]
    test = chi_square(labels, [observed[s] for s in exact], list(expected.values()), min_expected)
    return ShantenTest(
        tiles=tiles,
        hands=n,
        observed=tuple(observed.items()),
        expected=tuple(expected.items()),
        mean=sum(values) / n,
        expected_mean=float(mean),
        expected_sd=math.sqrt(variance),
        z=z_score(sum(values), n * float(mean), n * float(variance)),
        chi_square=test,
    )


def _dora_z(hands: Sequence[StartingHand]) -> ZScore | None:
    expected = variance = 0.0
    for hand in hands:
        mean, var = hypergeometric_moments(hand.pool, hand.dora_tiles, hand.tiles)
        expected, variance = expected + mean, variance + var
    if variance <= 0:
        return None
    return z_score(sum(h.dora for h in hands), expected, variance)


def audit_group(label: str, hands: Sequence[StartingHand], min_expected: float = 5.0) -> GroupAudit:
    """Every test for one group of hands (at least one)."""
    if not hands:
        raise ValueInputError(f"{label}: no hands to audit")
    parts = tuple(
        shanten_test(size, [shanten(h.counts) for h in hands if h.tiles == size], min_expected)
        for size in (13, 14)
        if any(h.tiles == size for h in hands)
    )
    chi2 = sum(p.chi_square.statistic for p in parts)
    dof = sum(p.chi_square.dof for p in parts)
    combined = z_score(
        sum(p.z.observed for p in parts),
        sum(p.z.expected for p in parts),
        sum(p.z.sd**2 for p in parts),
    )
    p_value = chi2_sf(chi2, dof) if dof else 1.0
    return GroupAudit(label, len(hands), parts, combined, chi2, dof, p_value, _dora_z(hands))


def audit_hands(hands: Iterable[StartingHand], min_expected: float = 5.0) -> AuditResult:
    """Audit starting hands per player (in name order) and overall."""
    every = list(hands)
    if not every:
        raise ValueInputError("no starting hands to audit")
    names = sorted({h.player for h in every})
    players = tuple(
        audit_group(n, [h for h in every if h.player == n], min_expected) for n in names
    )
    return AuditResult(audit_group(OVERALL, every, min_expected), players)


def _z_dict(z: ZScore | None) -> dict[str, float] | None:
    if z is None:
        return None
    return {"observed": z.observed, "expected": z.expected, "sd": z.sd, "z": z.z, "p": z.p_value}


def _part_dict(part: ShantenTest) -> dict[str, Any]:
    return {
        "tiles": part.tiles,
        "hands": part.hands,
        "observed": {str(s): n for s, n in part.observed},
        "expected": {str(s): e for s, e in part.expected},
        "mean": part.mean,
        "expected_mean": part.expected_mean,
        "expected_sd": part.expected_sd,
        "z": part.z.z,
        "z_p": part.z.p_value,
        "chi2": part.chi_square.statistic,
        "dof": part.chi_square.dof,
        "p": part.chi_square.p_value,
        "bins": [
            {"shanten": b.label, "observed": b.observed, "expected": b.expected}
            for b in part.chi_square.bins
        ],
    }


def group_dict(group: GroupAudit) -> dict[str, Any]:
    """The JSON-ready form of one group's audit."""
    return {
        "label": group.label,
        "hands": group.hands,
        "by_tiles": [_part_dict(p) for p in group.parts],
        "shanten_sum": _z_dict(group.shanten_z),
        "chi2": group.chi2,
        "dof": group.dof,
        "p": group.p_value,
        "dora": _z_dict(group.dora),
        "flagged": group.rejects(ALPHA),
    }


# --- starting hands from verified game records ------------------------------

ALPHA = 0.001


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A game left out of the audit, and why."""

    path: str
    kind: str  # unreadable | error | mismatch | three_player | duplicate
    reason: str


@dataclass(frozen=True, slots=True)
class Collected:
    hands: tuple[StartingHand, ...]
    games: int
    excluded: tuple[Exclusion, ...]


def hands_from_game(game: Game) -> list[StartingHand]:
    """Every round's starting hands: 13 tiles per non-dealer, the dealer's 13 plus
    the first draw. A round cut off before the dealer's first draw gives no dealer hand."""
    out: list[StartingHand] = []
    for rnd in game.rounds:
        first = next((e for e in rnd.events if isinstance(e, Draw)), None)
        for seat, hand in enumerate(rnd.hands):
            name = game.names[seat] if seat < len(game.names) and game.names[seat] else f"seat {seat}"
            if seat != rnd.dealer:
                out.append(StartingHand.from_tiles(name, False, hand, rnd.dora_indicator))
            elif first is not None and first.seat == seat:
                out.append(StartingHand.from_tiles(name, True, hand + (first.tile,), rnd.dora_indicator))
    return out


def exclusion_reason(game: Game, status: str, first_problem: str | None) -> tuple[str, str] | None:
    """Why a game cannot count (kind, reason), or None when it can."""
    if status != "verified":
        return status, f"{status}: {first_problem}" if first_problem else status
    if game.player_count != 4:
        return "three_player", ("3-player game: the exact distributions are over 136 tiles; "
                                "3-player walls have 108")
    return None


def collect(items: Iterable[tuple[str, bytes | PywallError]]) -> Collected:
    """Verify each log and keep the starting hands of those that verified."""
    hands: list[StartingHand] = []
    excluded: list[Exclusion] = []
    seen: dict[str, str] = {}  # seed -> first file: the same game twice must count once
    games = 0
    for name, content in items:
        if isinstance(content, PywallError):
            excluded.append(Exclusion(name, "unreadable", content.message))
            continue
        try:
            game = mjlog.parse(content, name)
        except PywallError as exc:
            excluded.append(Exclusion(name, "unreadable", exc.message))
            continue
        result = verify_game(game)
        problems = [f.message for f in result.findings if f.severity is Severity.ERROR]
        reason = exclusion_reason(game, result.status, problems[0] if problems else None)
        if reason is not None:
            excluded.append(Exclusion(name, *reason))
            continue
        key = game.seed or "".join(r.shuffle or "" for r in game.rounds)
        if key in seen:
            excluded.append(Exclusion(name, "duplicate", f"the same game as {seen[key]}"))
            continue
        seen[key] = name
        games += 1
        hands.extend(hands_from_game(game))
    return Collected(tuple(hands), games, tuple(excluded))
