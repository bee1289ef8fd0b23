"""The draw test: did each draw give what a fair shuffle gives, from the record's own view?

Theory of operation
-------------------
This module owns the draw test (docs/audit.md states it). A verified record shows
every hand, so for each draw (a live draw, or a replacement draw after a kan or a
North; the dealer's first draw is part of the deal, which the starting-hand audit
tests) the drawer's concealed hand H just before it is known: 13 - 3m tiles with m
melds. With s = shanten(H) (``pywall.analysis.shanten``: regular hands, and seven pairs and
thirteen orphans when m = 0) the effective kinds E are those k with
shanten(H + k) = s - 1 (``pywall.analysis.efficiency.effective_kinds``, one pass over the
suit automaton). U is what the record has not shown before the draw: the tile set
minus every dealt hand, every earlier draw and every dora indicator revealed so far,
so |U| is the number of wall positions not yet revealed. Then p = (tiles of U of a
kind in E) / |U| and X = 1 when the drawn tile's kind is in E. Under a fair shuffle
the unrevealed positions hold a uniformly random arrangement of U whatever the
players decided, so X - p is a martingale difference, and over a group of draws
O = sum X, E = sum p, V = sum p(1 - p) give z = (O - E) / sqrt(V), close to normal.

Three tests read each draw: ``effective`` (every draw), ``tenpai`` (draws made in
tenpai: X = a winning tile) and ``dora`` (every draw: X = the tile is a dora under
the indicators revealed so far; p = dora tiles in U / |U|).

A call's tiles from the hand are the record's (``Call.taken``: Tenhou's meld code,
Mahjong Soul's tiles); where a record names only the called tile (Riichi City: a chi
of 4m from 2m3m5m6m) the walk takes the one choice that keeps every later discard
and call of the round possible, the lowest when several do, found by following each
seat's possible hands as a set (``pywall.analysis.draw_walk``, the walk's own module:
polynomial work, bounded by ``WALK_BUDGET``). A round no choice fits, or over the budget,
is left out and counted (``skipped_rounds``, with its reason in ``skipped_reasons``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.analysis.draw_walk import SKIP_REASONS, Acc, DrawRow, add_round, rows_of
from pywall.core.model import Game, Round

TESTS = ("effective", "tenpai", "dora")


#: Past 2**53 a count is no longer exact in a float: no audit comes near it.
MAX_DRAWS = 2**53


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """One tested draw: what the hand could use, what U held, what came."""

    round: int  # the round's index in the game
    event: int  # the draw's event number in the round (1-based)
    seat: int
    dealer: bool
    replacement: bool
    tile: int
    shanten: int  # of the hand before the draw
    effective_kinds: int  # bit mask of the kinds that lower it
    unseen: int  # |U|
    unseen_effective: int  # tiles of U of an effective kind
    unseen_dora: int  # dora tiles in U
    is_effective: bool
    is_dora: bool

    @property
    def tenpai(self) -> bool:
        return self.shanten == 0

    def outcomes(self) -> tuple[tuple[bool, float] | None, ...]:
        """(X, p) for each of ``TESTS``; None where the test does not read this draw."""
        p_effective = self.unseen_effective / self.unseen
        return (
            (self.is_effective, p_effective),
            (self.is_effective, p_effective) if self.shanten == 0 else None,
            (self.is_dora, self.unseen_dora / self.unseen),
        )


@dataclass(frozen=True, slots=True)
class Sums:
    """One test over a group of draws: n draws, O = sum X, E = sum p, V = sum p(1 - p)."""

    n: int = 0
    observed: int = 0
    expected: float = 0.0
    variance: float = 0.0

    def __reduce__(self) -> tuple[type[Sums], tuple[int, int, float, float]]:
        # pickled as its fields (a worker's records): dataclass's slots pickling reads
        # ``fields()`` for each object
        return Sums, (self.n, self.observed, self.expected, self.variance)

    def __add__(self, other: Sums) -> Sums:
        return Sums(
            self.n + other.n,
            self.observed + other.observed,
            self.expected + other.expected,
            self.variance + other.variance,
        )

    def to_list(self) -> list[float]:
        return [self.n, self.observed, self.expected, self.variance]

    @classmethod
    def from_list(cls, v: Sequence[Any]) -> Sums:
        """Raises ValueError on anything but sums of ``n`` draws (the caller words it):
        whole counts, 0 <= hits <= n < 2**53, a finite expectation and variance within
        [0, n] (each draw adds a chance and a p (1 - p), both at most 1)."""
        n, observed, expected, variance = v
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in (n, observed)):
            raise ValueError("draw counts must be whole numbers")
        e, var = float(expected), float(variance)
        if not (math.isfinite(e) and math.isfinite(var)):
            raise ValueError("draw sums must be finite")
        if not 0 <= observed <= n < MAX_DRAWS:
            raise ValueError("draw counts out of range (0 <= hits <= draws)")
        top = n * (1 + 1e-9) + 1e-9  # a sum of n numbers each at most 1, rounded
        if not (0 <= e <= top and 0 <= var <= top):
            raise ValueError("draw sums out of range (0 to the number of draws)")
        return cls(n, observed, e, var)


def sums_dict(s: Sums, each: float = 0.0) -> dict[str, Any]:
    """One test's sums for people and JSON: n, O, E, V, z = (O - E) / sqrt V and its
    two-sided p (None when V = 0), the range a fair shuffle gives about 95% of the time
    (``low``, ``high``: ``stats.fair_range``) and where O falls (``reading``: usual,
    unusual, or very_unusual below ``each``, ``stats.reading``)."""
    # imported on first use: the page's start-up leaves the audit's statistics lazy
    from pywall.analysis.stats import fair_range, reading, two_sided_p

    z = (s.observed - s.expected) / math.sqrt(s.variance) if s.variance > 0 else None
    p = None if z is None else two_sided_p(z)
    low, high = fair_range(s.expected, s.variance, s.n)
    return {
        "n": s.n,
        "observed": s.observed,
        "expected": s.expected,
        "variance": s.variance,
        "z": z,
        "p": p,
        "low": low,
        "high": high,
        "reading": reading(p, each),
    }


#: Each draw test's figure times this: what rigged simulated games need to be caught 8
#: times in 10 (benchmarks/detectable_calibration.py; docs/audit.md). The normal
#: approximation holds for effective and tenpai draws; a rig that adds dora also leaves
#: fewer dora unseen, so the rigged draws' own V and figure shrink as the rig grows: rigged
#: by their own figure they were caught 6 times in 10, and 1.5 times it brings that to 8.
CALIBRATION = {"effective": 1.0, "tenpai": 1.0, "dora": 1.5}


def detectable(s: Sums, each: float, test: str = "effective") -> float | None:
    """The smallest shift in hits per 100 draws that a group's ``test`` over these ``s.n``
    draws catches 8 times in 10 when the group's verdict gives it the threshold ``each``
    (``stats.detectable_shift``: about (z_each + z_0.80) sqrt V / n, with the shifted
    draws' own variance, times 100, times the test's ``CALIBRATION``); None when there is
    no draw or no variance (V = 0: every draw's chance was 0 or 1, nothing to shift).
    docs/audit.md gives its calibration on rigged simulated games
    (benchmarks/detectable_calibration.py)."""
    from pywall.analysis.stats import detectable_shift

    shift = detectable_shift(s.n, s.expected, s.variance, each)
    return None if shift is None else shift * 100.0 * CALIBRATION[test]


def detectable_one_in(per_100: float | None) -> int | None:
    """``detectable`` in a player's words, "1 tile in every N draws": the whole N (two
    significant digits, rounded down, so the shift it names is at least ``per_100`` and the
    sentence stays true), or None when ``per_100`` is None or above 50 (no N of 2 or more)."""
    if per_100 is None or per_100 > 50.0:
        return None
    n = math.floor(100.0 / per_100)
    step = 1
    while n // step >= 100:
        step *= 10
    return n - n % step


def _report_p(test: dict[str, Any]) -> dict[str, Any]:
    """A one-game line's p to 10 significant digits: a display choice (one game's normal
    approximation is not worth more digits). CPython and Pyodide agree to the last bit
    without it (``stats.two_sided_p`` uses IEEE operations only); it keeps reports as
    they were."""
    p = test["p"]
    return test if p is None else test | {"p": float(f"{p:.10g}")}


#: The threshold one game's seat lines are read against: the audit's 0.001 split over
#: the three draw tests, as a group's verdict would split it (one game is information,
#: never a verdict).
GAME_EACH = 0.001 / 3


@dataclass(frozen=True, slots=True)
class SeatDraws:
    """One seat's draws in one game, as dealer or not: the three tests' sums."""

    seat: int
    dealer: bool
    effective: Sums
    tenpai: Sums
    dora: Sums

    def __reduce__(self) -> tuple[type[SeatDraws], tuple[int, bool, Sums, Sums, Sums]]:
        return SeatDraws, (self.seat, self.dealer, self.effective, self.tenpai, self.dora)

    def sums(self) -> tuple[Sums, Sums, Sums]:
        return self.effective, self.tenpai, self.dora


@dataclass(frozen=True, slots=True)
class GameDraws:
    """What the audit keeps of one game's draws (typed; ``to_dict`` for the report)."""

    seats: tuple[SeatDraws, ...]
    skipped_rounds: int = 0
    #: why each skipped round was left out, one of ``SKIP_REASONS`` each, in round order
    skipped_reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [[s.seat, s.dealer, *(t.to_list() for t in s.sums())] for s in self.seats],
            "skipped_rounds": self.skipped_rounds,
            "skipped_reasons": list(self.skipped_reasons),
        }

    def by_seat(self) -> list[dict[str, Any]]:
        """Each seat's three tests over the whole game (its rounds as dealer and not),
        in seat order, as ``sums_dict`` words them: the page's one-game lines."""
        totals: dict[int, tuple[Sums, Sums, Sums]] = {}
        for s in self.seats:
            a, b, c = totals.get(s.seat, (Sums(), Sums(), Sums()))
            totals[s.seat] = (a + s.effective, b + s.tenpai, c + s.dora)
        return [
            {"seat": seat}
            | {name: _report_p(sums_dict(x, GAME_EACH)) for name, x in zip(TESTS, sums)}
            for seat, sums in sorted(totals.items())
        ]

    @classmethod
    def from_dict(cls, d: Any) -> GameDraws:
        """Raises KeyError, TypeError or ValueError on anything else (the caller words it)."""
        seats = tuple(
            SeatDraws(int(seat), bool(dealer), *(Sums.from_list(t) for t in tests))
            for seat, dealer, *tests in d["seats"]
        )
        skipped = int(d["skipped_rounds"])
        # a report made before the walk had a budget: its only reason was no_fit
        reasons = d.get("skipped_reasons", ["no_fit"] * skipped)
        if not isinstance(reasons, list) or any(r not in SKIP_REASONS for r in reasons):
            raise ValueError(f"skipped_reasons must list some of {', '.join(SKIP_REASONS)}")
        if len(reasons) != skipped:
            raise ValueError("skipped_reasons must give one reason for each skipped round")
        return cls(seats, skipped, tuple(reasons))


def round_draws(rnd: Round, players: int) -> tuple[DrawRecord, ...] | None:
    """Every tested draw of a round, in order; None when the record does not fit."""
    rows = rows_of(rnd, players)
    if rows is None:
        return None
    return tuple(
        DrawRecord(
            rnd.index, e, seat, seat == rnd.dealer, bool(r), t, s, m, u, ue, ud, bool(x), bool(d)
        )
        for e, seat, r, t, s, m, u, ue, ud, x, d in rows
    )


def _add(acc: Acc, rows: list[DrawRow], dealer: int) -> None:
    """Add a round's rows to per-(seat, dealer) sums: n, O, E, V for each of ``TESTS``
    (as ``draw_walk.Walk.run`` adds a draw)."""
    for _, seat, _, _, value, _, left, useful, dora, x, is_dora in rows:
        key = (seat, seat == dealer)
        a = acc.get(key)
        if a is None:
            a = acc[key] = [0.0] * 12
        p = useful / left
        a[0] += 1
        a[1] += x
        a[2] += p
        a[3] += p * (1 - p)
        if value == 0:
            a[4] += 1
            a[5] += x
            a[6] += p
            a[7] += p * (1 - p)
        q = dora / left
        a[8] += 1
        a[9] += is_dora
        a[10] += q
        a[11] += q * (1 - q)


def _seat_draws(key: tuple[int, bool], a: list[float]) -> SeatDraws:
    return SeatDraws(
        key[0], key[1], *(Sums(int(a[i]), int(a[i + 1]), a[i + 2], a[i + 3]) for i in (0, 4, 8))
    )


def summary_of(
    records: Sequence[DrawRecord], skipped_rounds: int = 0, skipped_reasons: tuple[str, ...] = ()
) -> GameDraws:
    """The per-seat sums of draw records (what ``game_draws`` gives from a game)."""
    acc: Acc = {}
    for r in records:
        row = (r.event, r.seat, r.replacement, r.tile, r.shanten, r.effective_kinds, r.unseen,
               r.unseen_effective, r.unseen_dora, int(r.is_effective), r.is_dora)  # fmt: skip
        _add(acc, [row], r.seat if r.dealer else -1)
    seats = tuple(_seat_draws(k, acc[k]) for k in sorted(acc))
    return GameDraws(seats, skipped_rounds, skipped_reasons)


def game_draws(game: Game) -> GameDraws:
    """The draw test's sums of a game (a verified one: its record shows every hand)."""
    acc: Acc = {}
    reasons = []
    for rnd in game.rounds:
        reason = add_round(rnd, game.player_count, acc)
        if reason is not None:
            reasons.append(reason)
    seats = tuple(_seat_draws(k, acc[k]) for k in sorted(acc))
    return GameDraws(seats, len(reasons), tuple(reasons))
