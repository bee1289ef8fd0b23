"""Fairness audit of starting hands: do they look like a fair shuffle's?

Theory of operation
-------------------
In a fair shuffle every set of 13 tiles (14 for the dealer, counting the first
draw) is equally likely, so the shanten of starting hands follows the exact
distribution of ``pywall.analysis.shanten_distribution`` (over 136 tiles, or the 108 of
a 3-player set) and the dora among them a hypergeometric law. For each group of
hands (everyone, each platform and player count, each named player) this module
compares what was dealt with those laws: a chi-square test of the shanten
distribution (sparse extremes merged), a z-score of the total shanten against
its exact mean and standard deviation, and a z-score of the number of dora
dealt. Hands of each size and player count are tested separately, then combined
(chi-square statistics and degrees of freedom add up; sums and variances add
up). Only verified games count, each once: picking which games to count is
itself a bias.

This module is the only audit: it computes every test from a tally of the hands
(``pywall.audits.tally``: what the CLI, a batch in the page and an archive in
the page feed alike), and the tests' verdicts and JSON.
"""

from __future__ import annotations

import json
import math
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pywall.analysis.draws import detectable_one_in
from pywall.analysis.shanten_distribution import distribution
from pywall.analysis.stats import (
    ChiSquare,
    ZScore,
    chi2_sf,
    chi_square,
    critical_z,
    detectable_step_shift,
    exact_sum,
    moments,
    reading,
    z_score,
)
from pywall.audits.draw_wall_tests import (
    DrawAudit,
    WallAudit,
    draw_audit,
    draw_verdict,
    wall_audit,
)
from pywall.audits.tally import AuditTally, Exclusion, GroupTally, StartingHand, tally_of
from pywall.core.errors import ValueInputError
from pywall.core.json_value import json_text

OVERALL = "all players"

EXPLANATION = (
    "What this can show: over many verified games, starting hands that are better (or "
    "worse) than a fair shuffle deals, by more than chance allows. The shanten "
    "distribution and its mean are compared with exact values for all possible hands; "
    "a small p-value (say below 0.001) means results this far from fair would be rare "
    "if the shuffle were fair. What it cannot show: it cannot prove a shuffle fair (only "
    "fail to find a bias of the size the sample can detect; a few hundred hands detect "
    "only large effects), and one small p-value among many players or tests is expected "
    "by chance (about 1 in 1,000 at 0.001). The starting-hand tests look at the deal (the "
    "draw tests look at every draw, the wall tests at the walls), and a skew says nothing "
    "about who caused it. "
    "Hands dealt in the same round share one wall, so they are not quite independent; "
    "the tests treat them as independent, which is a close approximation. Verification "
    "shows each wall is the one the platform committed to; this audit asks whether "
    "those walls behave like randomly shuffled ones."
)

DRAWS_EXPLANATION = (
    "The draw tests follow every draw of the verified games (live and replacement "
    "draws; the dealer's first is part of the starting hand). From the record every "
    "hand is known, so for each draw the chance that it gives an effective tile (one "
    "that lowers the hand's shanten), a winning tile in tenpai, or a dora is the share "
    "of such tiles among the tiles the record had not yet shown. Under a fair shuffle "
    "those unseen tiles lie in a random order whatever the players chose, so the draws "
    "hit on average what these chances add up to: each test compares the hits with that "
    "sum, in standard deviations (z). The wall tests ask, for walls known whole, whether "
    "tile kinds are spread over the wall's positions (and its regions: each deal, the "
    "live wall early and late, the dead wall, red fives) as a shuffle spreads them. "
    "A small p-value means results this far from fair would be rare; one among many "
    "players and tests is expected by chance. docs/audit.md explains the tests."
)


def point_lists(series: Sequence[tuple[float, float]]) -> list[list[float]]:
    """A group's ``effective_by_game``: each point as [O - E, V]."""
    return [list(p) for p in series]


#: How a group's series becomes its ``effective_by_game`` value (``point_lists``, or a
#: placeholder that ``cli_json`` streams the points into)
SeriesForm = Callable[[Sequence[tuple[float, float]]], Any]


@dataclass(frozen=True, slots=True)
class ShantenTest:
    """Hands of one class (player count, 13 or 14 tiles) against the exact distribution."""

    players: int
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
    """One group's hands: per hand class, combined, and dora."""

    label: str
    hands: int
    parts: tuple[ShantenTest, ...]
    shanten_z: ZScore
    chi2: float
    dof: int
    p_value: float
    dora: ZScore | None
    platform: str | None = None  # set on a platform's group (the page words it itself)
    players: int | None = None
    draws: DrawAudit | None = None  # the draw tests (None: no tested draw)
    walls: WallAudit | None = None  # a platform's wall-position tests
    #: a player's effective draws game by game: (O - E, V), for the cumulative chart
    #: (``counts.Points``: compact arrays, a pair made when read)
    series: Sequence[tuple[float, float]] = ()
    #: a flagged seat group that one flagged player explains: without that player's hands
    #: and draws in it, the group is not flagged (``explained``)
    explained_by: str | None = None

    @property
    def named_p_values(self) -> tuple[tuple[str, float], ...]:
        """Each test's name, as its place in the group's JSON names it (``chi2``,
        ``shanten_sum``, ``dora``, ``draws.effective``, ..., ``walls.positions``, ...), and
        its p-value: the tests the verdict splits the threshold over."""
        hands = (("chi2", self.p_value), ("shanten_sum", self.shanten_z.p_value)) + (
            (("dora", self.dora.p_value),) if self.dora else ()
        )
        draws = tuple(
            (f"draws.{t.name}", t.p)
            for t in (self.draws.tests if self.draws else ())
            if t.p is not None
        )
        walls = tuple((f"walls.{t.name}", t.p) for t in (self.walls.tests if self.walls else ()))
        return hands + draws + walls

    @property
    def p_values(self) -> tuple[float, ...]:
        return tuple(p for _, p in self.named_p_values)

    def rejects(self, alpha: float) -> bool:
        """Whether any of this group's tests rejects at ``alpha`` (Bonferroni-corrected)."""
        return min(self.p_values) < alpha / len(self.p_values)

    def flagged_by(self, alpha: float) -> tuple[str, ...]:
        """The tests that flag the group at ``alpha`` (each below ``alpha`` split over the
        group's tests), by their names in ``named_p_values``; empty when it is not flagged."""
        named = self.named_p_values
        return tuple(name for name, p in named if p < alpha / len(named))


@dataclass(frozen=True, slots=True)
class AuditResult:
    overall: GroupAudit
    players: tuple[GroupAudit, ...]
    platforms: tuple[GroupAudit, ...] = ()
    explanation: str = EXPLANATION
    seats: tuple[GroupAudit, ...] = ()  # dealer, non-dealer, each seat

    def to_dict(self, series_form: SeriesForm = point_lists) -> dict[str, Any]:
        """The audit JSON-ready; ``series_form`` makes each group's ``effective_by_game``."""
        return {
            "overall": group_dict(self.overall, series_form),
            "platforms": [group_dict(g, series_form) for g in self.platforms],
            "players": [group_dict(g, series_form) for g in self.players],
            "seats": [
                group_dict(g, series_form) | {"explained_by": g.explained_by} for g in self.seats
            ],
            "explanation": self.explanation,
            "draws_explanation": DRAWS_EXPLANATION,
        }


def shanten_test(
    tiles: int,
    values: Sequence[int] | Mapping[int, int],
    min_expected: float = 5.0,
    players: int = 4,
) -> ShantenTest:
    """Shanten values (or counts per value) of ``tiles``-tile hands against the exact distribution."""
    exact = distribution(tiles, players)
    total = sum(exact.values())
    counts = dict(values) if isinstance(values, Mapping) else {}
    if not isinstance(values, Mapping):
        for value in values:
            counts[value] = counts.get(value, 0) + 1
    n = sum(counts.values())
    observed = {s: counts.get(s, 0) for s in exact} | {
        s: c for s, c in counts.items() if s not in exact
    }
    expected = {s: n * c / total for s, c in exact.items()}
    mean, variance = moments(exact)
    test = chi_square(
        [str(s) for s in exact], [observed[s] for s in exact], list(expected.values()), min_expected
    )
    observed_sum = sum(s * c for s, c in counts.items())
    return ShantenTest(
        players=players,
        tiles=tiles,
        hands=n,
        observed=tuple(observed.items()),
        expected=tuple(expected.items()),
        mean=observed_sum / n,
        expected_mean=float(mean),
        expected_sd=math.sqrt(variance),
        z=z_score(observed_sum, n * float(mean), n * float(variance)),
        chi_square=test,
    )


def audit_tally(label: str, tally: GroupTally, min_expected: float = 5.0) -> GroupAudit:
    """Every test for one group (at least one hand)."""
    if not tally.hands:
        raise ValueInputError(f"{label}: no hands to audit")
    parts = tuple(
        shanten_test(t, tally.shanten[(p, t)], min_expected, p)
        for p, t in sorted(tally.shanten)
        if tally.shanten[(p, t)]
    )
    # exact sums, rounded once: ``sum()`` of floats is compensated from Python 3.12 on
    chi2 = exact_sum(p.chi_square.statistic for p in parts)
    dof = sum(p.chi_square.dof for p in parts)
    combined = z_score(
        exact_sum(p.z.observed for p in parts),
        exact_sum(p.z.expected for p in parts),
        exact_sum(p.z.sd * p.z.sd for p in parts),
    )
    p_value = chi2_sf(chi2, dof) if dof else 1.0
    dora = z_score(tally.dora, tally.dora_mean, tally.dora_var) if tally.dora_var > 0 else None
    return GroupAudit(
        label, tally.hands, parts, combined, chi2, dof, p_value, dora, draws=draw_audit(tally.draws)
    )


def audit_group(label: str, hands: Sequence[StartingHand], min_expected: float = 5.0) -> GroupAudit:
    """Every test for one group of hands (at least one)."""
    if not hands:
        raise ValueInputError(f"{label}: no hands to audit")
    return audit_tally(label, tally_of(hands), min_expected)


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


#: Each starting-hand test's ``detectable`` in its own unit: the mean shanten shift per
#: hand (``shanten_sum``), dora per 100 hands (``dora``); times its calibration factor, what
#: rigged simulated deals need to be caught 8 times in 10 (benchmarks/detectable_calibration.py,
#: docs/audit.md: 1 for both, the step model's variance holds)
HAND_UNIT = {"shanten_sum": 1.0, "dora": 100.0}
HAND_CALIBRATION = {"shanten_sum": 1.0, "dora": 1.0}


def hand_detectable(test: str, z: ZScore, hands: int, each: float) -> float | None:
    """What a starting-hand test (``shanten_sum`` or ``dora``) over ``hands`` hands can see
    at the threshold ``each``: the shift it catches 8 times in 10 when a rigged shuffle
    deals a share of the hands one step off (one shanten further from ready or closer, one
    dora more or fewer: ``stats.detectable_step_shift``), in ``HAND_UNIT``; None without
    variance."""
    shift = detectable_step_shift(hands, z.sd * z.sd, each)
    return None if shift is None else shift * HAND_UNIT[test] * HAND_CALIBRATION[test]


def _z_dict(z: ZScore | None, each: float, test: str = "", hands: int = 0) -> dict[str, Any] | None:
    """A z-score test's JSON; with ``test`` (``shanten_sum``, ``dora``), what it can see:
    ``detectable`` (``hand_detectable``) and ``detectable_one_in`` (the same as "1 hand in
    every N": a step per hand is 100 per 100 hands)."""
    if z is None:
        return None
    found: dict[str, Any] = {
        "observed": z.observed,
        "expected": z.expected,
        "sd": z.sd,
        "z": z.z,
        "p": z.p_value,
        "reading": reading(z.p_value, each),
    }
    if test:
        seen = hand_seen(test, z, hands, each)
        found |= {k: seen[k] for k in ("detectable", "detectable_one_in")}
    return found


def hand_seen(test: str, z: ZScore, hands: int, each: float) -> dict[str, Any]:
    """What a starting-hand test can see, as its words read it: ``n`` (the hands),
    ``detectable`` (``hand_detectable``) and ``detectable_one_in`` (the same as "1 hand in
    every N": a step in every hand is 100 per 100 hands; None past 1 in 2)."""
    shift = hand_detectable(test, z, hands, each)
    per_100 = None if shift is None else shift * 100.0 / HAND_UNIT[test]
    return {"n": hands, "detectable": shift, "detectable_one_in": detectable_one_in(per_100)}


def _part_dict(part: ShantenTest) -> dict[str, Any]:
    return {
        "players": part.players,
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


def group_dict(group: GroupAudit, series_form: SeriesForm = point_lists) -> dict[str, Any]:
    """The JSON-ready form of one group's audit; each test's ``reading`` against the
    threshold the group's verdict gives it (``ALPHA`` split over the group's tests);
    ``series_form`` makes its ``effective_by_game``."""
    each = ALPHA / len(group.p_values)
    return (
        {
            "label": group.label,
            "hands": group.hands,
            "by_tiles": [_part_dict(p) for p in group.parts],
            "shanten_sum": _z_dict(group.shanten_z, each, "shanten_sum", group.hands),
            "chi2": group.chi2,
            "dof": group.dof,
            "p": group.p_value,
            "dora": _z_dict(group.dora, each, "dora", group.hands),
            "draws": group.draws.to_dict(each) if group.draws else None,
            "flagged": group.rejects(ALPHA),
            # the tests that flag it, by their place here: "chi2", "draws.effective", "walls.dead"
            "flagged_by": list(group.flagged_by(ALPHA)),
            "tests": len(group.p_values),
            "smallest_p": min(group.p_values),
            "draw_verdict": draw_verdict(group.draws, group.walls, ALPHA),
        }
        | (
            # the chart's flag band beside its 95% one: the |z| one test needs to flag
            {"effective_by_game": series_form(group.series), "flag_z": critical_z(each)}
            if group.series
            else {}
        )
        | (
            {
                "platform": group.platform,
                "players": group.players,
                "walls": (group.walls or wall_audit(None)).to_dict(),
            }
            if group.platform
            # everyone's, when one platform's walls are theirs (``audit_result``): the wall
            # tests its verdict counts are shown with it
            else {"walls": group.walls.to_dict()}
            if group.walls is not None
            else {}
        )
    )


# --- a tally's tests --------------------------------------------------------------

ALPHA = 0.001
#: Named players the audit lists (those with the most hands, then by name): each listed
#: player is a group of tests and its JSON, so 80,000 names would take gigabytes. The
#: others count in every total (everyone, platforms, seats) and in ``players_not_listed``.
MAX_PLAYERS_LISTED = 1_000


def listed_players(tally: AuditTally) -> list[str]:
    """The named players the audit lists, in code-point order of their names."""
    named = [(g.hands, k) for k, g in tally.players.items() if g.hands]
    if len(named) > MAX_PLAYERS_LISTED:
        named = sorted(named, key=lambda hk: (-hk[0], hk[1]))[:MAX_PLAYERS_LISTED]
    return sorted(k for _, k in named)


def players_not_listed(tally: AuditTally) -> int:
    """Named players with hands that the audit does not list (``MAX_PLAYERS_LISTED``)."""
    return max(0, sum(1 for g in tally.players.values() if g.hands) - MAX_PLAYERS_LISTED)


def platform_label(platform: str, players: int) -> str:
    name = {"tenhou": "Tenhou", "majsoul": "Mahjong Soul", "riichicity": "Riichi City"}.get(
        platform, platform
    )
    return f"{name}, {players}-player"


def audit_result(tally: AuditTally, min_expected: float = 5.0) -> AuditResult:
    """The audit of every group in ``tally`` (which must hold at least one hand)."""
    if not tally.hands:
        raise ValueInputError("no verified game to audit")
    platforms = sorted(
        (
            replace(
                audit_tally(platform_label(name, int(n)), g, min_expected),
                platform=name,
                players=int(n),
                walls=wall_audit(tally.walls.get(f"{name}:{n}")),
            )
            for (name, _, n), g in ((k.partition(":"), g) for k, g in tally.platforms.items())
        ),
        key=lambda group: group.label,
    )
    series = tally.series  # each player's games in fingerprint order: any order of files
    players = tuple(
        replace(audit_tally(k, tally.players[k], min_expected), series=series.get(k, ()))
        for k in listed_players(tally)
    )
    seats = tuple(
        audit_tally(k, tally.seats[k], min_expected)
        for k in sorted(tally.seats, key=_seat_order)
        if tally.seats[k].hands
    )
    overall = replace(
        audit_tally(OVERALL, tally.overall, min_expected), series=tally.overall_series
    )
    if len(platforms) == 1:  # everyone is that platform's players: its walls are theirs
        overall = replace(overall, walls=platforms[0].walls)
    return AuditResult(
        overall,
        players,
        tuple(platforms),
        seats=explained(tally, seats, players, min_expected),
    )


def explained(
    tally: AuditTally,
    seats: tuple[GroupAudit, ...],
    players: tuple[GroupAudit, ...],
    min_expected: float = 5.0,
) -> tuple[GroupAudit, ...]:
    """The seat groups, each flagged one with the flagged player that explains it
    (``explained_by``): taken out of it (their hands and draws in that seat), the group
    is no longer flagged. Of several, the one whose absence leaves the largest smallest p
    (then the first name). The players' shares are counted only when a seat group and a
    player are both flagged."""
    suspects = [g.label for g in players if g.rejects(ALPHA)]
    if not suspects or not any(g.rejects(ALPHA) for g in seats):
        return seats
    shares = tally.seat_shares(suspects)

    def explainer(group: GroupAudit) -> str | None:
        best: tuple[float, str] | None = None
        for name in suspects:
            share = shares.get((group.label, name))
            if share is None or not share.hands:
                continue
            rest = tally.seats[group.label].without(share)
            left = audit_tally(group.label, rest, min_expected) if rest.hands else None
            if left is not None and left.rejects(ALPHA):
                continue
            smallest = min(left.p_values) if left is not None else 1.0
            if best is None or smallest > best[0]:
                best = (smallest, name)
        return best[1] if best else None

    return tuple(replace(g, explained_by=explainer(g)) if g.rejects(ALPHA) else g for g in seats)


def _seat_order(label: str) -> tuple[int, str]:
    return ({"dealer": 0, "non-dealer": 1}.get(label, 2), label)


def games_dict(tally: AuditTally, reason_codes: bool = True) -> dict[str, Any]:
    """The games the audit counted and left out, JSON-ready; each exclusion with its
    ``reason_code`` and ``reason_data`` (for words in another language) unless
    ``reason_codes`` is false (the CLI's ``--json``: English reasons only)."""

    def exclusion(e: Exclusion) -> dict[str, Any]:
        found: dict[str, Any] = {"path": e.path, "kind": e.kind, "reason": e.reason}
        if reason_codes:
            found["reason_code"] = e.reason_code
            found["reason_data"] = dict(e.reason_data)
        return found

    tally.settle()
    excluded = tally.excluded
    return {
        "used": tally.games,
        "hands": tally.hands,
        "anonymous_hands": tally.anonymous_hands,
        "draws": tally.draws,
        "anonymous_draws": tally.anonymous_draws,
        # rounds of counted games whose draws the walk could not follow, by reason
        # (pywall.analysis.draws.SKIP_REASONS): their deals and walls still count
        "skipped_rounds": sum(tally.skipped_rounds.values()),
        "skipped_round_reasons": dict(sorted(tally.skipped_rounds.items())),
        "players_not_listed": players_not_listed(tally),
        "excluded": [exclusion(e) for e in excluded],
        # how many were left out for each reason (a conflict: one entry a game)
        "left_out": dict(Counter(e.kind for e in excluded)),
    }


def cli_dict(
    result: AuditResult, tally: AuditTally, series_form: SeriesForm = point_lists
) -> dict[str, Any]:
    """What ``pywall audit --json`` prints for ``tally`` (whose audit is ``result``): the
    audit and its games with English reasons only; the page's "Export audit" saves the same."""
    return result.to_dict(series_form) | {"games": games_dict(tally, reason_codes=False)}


#: Points a piece of ``cli_json``'s text carries at most
CHUNK_POINTS = 1024


def cli_json(result: AuditResult, tally: AuditTally) -> Iterator[str]:
    """``json_text(cli_dict(result, tally), indent=2)`` in pieces, the same characters,
    without every game's points as objects: the document is made with a placeholder for
    each series (a random token no input can know), and each series' points are written
    from their arrays into its place, ``CHUNK_POINTS`` at a time."""
    token = secrets.token_hex(16)
    series: list[Sequence[tuple[float, float]]] = []

    def placeholder(points: Sequence[tuple[float, float]]) -> str:
        series.append(points)
        return f"{token}:{len(series) - 1}"

    text = json_text(cli_dict(result, tally, placeholder), indent=2)
    pieces = text.split(f'"{token}:')
    places = [piece.partition('"')[0] for piece in pieces[1:]]
    if places != [str(n) for n in range(len(series))]:  # cannot be: no input knows the token
        yield json_text(cli_dict(result, tally), indent=2)
        return
    yield pieces[0]
    for number, piece in enumerate(pieces[1:]):
        line = pieces[number][pieces[number].rfind("\n") + 1 :]  # '    "effective_by_game": '
        yield from series_json(series[number], len(line) - len(line.lstrip(" ")))
        yield piece.partition('"')[2]


def series_json(points: Sequence[tuple[float, float]], indent: int) -> Iterator[str]:
    """A non-empty series as ``json.dumps(..., indent=2)`` writes a list of [O - E, V] in
    an object whose key's line is indented ``indent`` spaces, in pieces."""
    item, number = " " * (indent + 2), " " * (indent + 4)
    step = f"\n{item}],\n{item}[\n{number}"
    yield f"[\n{item}[\n{number}"
    for start in range(0, len(points), CHUNK_POINTS):
        chunk = points[start : start + CHUNK_POINTS]
        yield step.join(f"{_number(o)},\n{number}{_number(v)}" for o, v in chunk)
        if start + CHUNK_POINTS < len(points):
            yield step
    yield f"\n{item}]\n{' ' * indent}]"


def _number(x: float) -> str:
    """A float as ``json.dumps`` writes it (``float.__repr__``; NaN, Infinity)."""
    return float.__repr__(x) if math.isfinite(x) else json.dumps(x)


def audit_dict(tally: AuditTally) -> dict[str, Any]:
    """The audit as JSON-ready data, with the games counted and left out, and the fair
    distributions (exact counts as text: they exceed 2**53)."""
    games = games_dict(tally)
    if not tally.hands:
        return {
            "error": {"code": "no_games", "message": "no verified game to audit"},
            "games": games,
        }
    fair: dict[str, Any] = {}
    for players, tiles in sorted({key for key in tally.overall.shanten}):
        counts = distribution(tiles, players)
        total = sum(counts.values())
        fair[f"{players}p{tiles}"] = {
            "total": str(total),
            "counts": {str(s): str(c) for s, c in counts.items()},
            "probability": {str(s): c / total for s, c in counts.items()},
        }
    return {**audit_result(tally).to_dict(), "games": games, "fair": fair, "alpha": ALPHA}
