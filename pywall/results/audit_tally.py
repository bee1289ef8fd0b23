"""What the audit keeps of many games: each game's copies, and counts per group.

``AuditTally.add`` takes each game's ``audit_records.GameRecord`` (its starting hands as
seat, size, shanten and dora; its draw sums; its whole walls; its copy key): a game that
cannot count is left out with its reason (``Exclusion``); a verified game joins the other
copies of its game (``pywall.results.copies``: a copy cut short counts as the whole one,
copies that differ in anything else conflict and none counts). The counts (``Counts``:
everyone, each platform and player count, each named player, each seat; shanten counts per
hand class, the dora dealt with their exact mean and variance, the draw tests' sums, the
walls) are made from the copies when the tally is read (``settle``), so the answer does not
depend on the order of the games; tallies of parts of a run merge (``merge``: a game in
both parts counts once, by the same rule) and travel as JSON (``to_dict``, ``from_dict``:
checked). Hands can also be given one by one (``StartingHand``, ``tally_of``).
``pywall.results.audit`` computes the tests from a tally.
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import add
from typing import Any

from pywall.analysis.audit_draws import DrawSums
from pywall.analysis.draws import GameDraws, Sums
from pywall.analysis.shanten import shanten
from pywall.analysis.stats import hypergeometric_moments
from pywall.analysis.walls import WallTally
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.json_value import JsonObject
from pywall.core.limits import MAX_AUDIT_KEPT
from pywall.core.tiles import dora_kind
from pywall.results.audit_records import NO_FINGERPRINT, GameRecord, checked_counts
from pywall.results.copies import Copies, Copy, CopyKey

ANONYMOUS = frozenset({"", "NoName"})


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
    players: int = 4

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

    @property
    def shanten(self) -> int:
        return shanten(list(self.counts))


def _flat(sums: DrawSums) -> list[float]:
    """The draw tests' sums as ``GroupTally.draw_sums`` holds them: n, O, E, V of each."""
    return [x for s in sums for x in s.to_list()]


#: A hand class: (player count, tiles in the hand); each has its own exact distribution.
HandClass = tuple[int, int]


@dataclass(slots=True)
class GroupTally:
    """One group's hands: shanten counts per hand class and the dora dealt."""

    shanten: dict[HandClass, dict[int, int]] = field(default_factory=dict)
    dora: int = 0
    dora_mean: float = 0.0
    dora_var: float = 0.0
    #: the draw tests' sums, flat: n, O, E, V of each test (pywall.analysis.draws.TESTS
    #: order), added to in place (``draws`` gives them as ``Sums``)
    draw_sums: list[float] = field(default_factory=lambda: [0] * 12)

    @property
    def hands(self) -> int:
        return sum(sum(c.values()) for c in self.shanten.values())

    @property
    def draws(self) -> DrawSums:
        v = self.draw_sums
        a, b, c = (Sums(int(v[i]), int(v[i + 1]), v[i + 2], v[i + 3]) for i in (0, 4, 8))
        return a, b, c

    @draws.setter
    def draws(self, sums: DrawSums) -> None:
        self.draw_sums = _flat(sums)

    def add(
        self,
        players: int,
        tiles: int,
        shanten_value: int,
        dora: int,
        pool: int,
        dora_tiles: int = 4,
    ) -> None:
        mean, var = hypergeometric_moments(pool, dora_tiles, tiles)
        self.add_hand((players, tiles), shanten_value, dora, mean, var)

    def add_hand(
        self, hand_class: HandClass, shanten_value: int, dora: int, mean: float, var: float
    ) -> None:
        """A hand, with the mean and variance of its dora under a fair deal."""
        counts = self.shanten.get(hand_class)
        if counts is None:
            counts = self.shanten[hand_class] = {}
        counts[shanten_value] = counts.get(shanten_value, 0) + 1
        self.dora += dora
        self.dora_mean += mean
        self.dora_var += var

    def merge(self, other: GroupTally) -> None:
        for key, counts in other.shanten.items():
            mine = self.shanten.setdefault(key, {})
            for value, n in counts.items():
                mine[value] = mine.get(value, 0) + n
        self.dora += other.dora
        self.dora_mean += other.dora_mean
        self.dora_var += other.dora_var
        self.add_flat(other.draw_sums)

    def add_draws(self, sums: DrawSums) -> None:
        self.add_flat(_flat(sums))

    def add_flat(self, flat: Sequence[float]) -> None:
        """Draw sums given flat, as ``draw_sums`` holds them."""
        self.draw_sums[:] = map(add, self.draw_sums, flat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": [
                [p, t, {str(s): n for s, n in c.items()}] for (p, t), c in self.shanten.items()
            ],
            "dora": [self.dora, self.dora_mean, self.dora_var],
            "draws": [s.to_list() for s in self.draws],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GroupTally:
        try:
            shanten_counts = checked_counts(d["shanten"])
            dora, mean, var = d["dora"]
            a, b, c = (Sums.from_list(v) for v in d.get("draws") or [[0, 0, 0, 0]] * 3)
            return cls(shanten_counts, int(dora), float(mean), float(var), _flat((a, b, c)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueInputError(f"not an audit tally ({type(exc).__name__})") from None


def tally_of(hands: Iterable[StartingHand]) -> GroupTally:
    tally = GroupTally()
    for h in hands:
        tally.add(h.players, h.tiles, h.shanten, h.dora, h.pool, h.dora_tiles)
    return tally


KIND_TEXT = {
    "unreadable": "unreadable",
    "error": "could not be verified",
    "mismatch": "mismatch",
    "duplicate": "repeats",
    "conflict": "games with conflicting copies",
    "no_hands": "no starting hands in the report",
}


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A game left out of the audit, and why: ``reason`` in English, ``reason_code`` and
    ``reason_data`` for words in another language (the page): the codes are the kinds,
    with ``no_hands`` split into ``no_starting_hands`` and ``no_fingerprint``; the data is
    the first error's ``exports.problem_context`` (unreadable, error, mismatch; ``{}`` when
    the report has none) or ``{"same_as": path}`` (duplicate)."""

    path: str
    kind: str  # unreadable | error | mismatch | duplicate | conflict | no_hands
    reason: str
    reason_code: str = ""
    reason_data: JsonObject = field(default_factory=dict)


def _size(group: Copies) -> int:
    """What a game's copies keep: the counted record and its marks, 64 bytes a copy."""
    best = group.best
    return len(group.record or b"") + (len(best.key.marks) if best else 0) + 64 * len(group.copies)


def packed(record: GameRecord) -> bytes:
    """A record kept until the audit counts it (a few times smaller than the object)."""
    return zlib.compress(pickle.dumps(record, protocol=5), 1)


def unpacked(data: bytes) -> GameRecord:
    """A record ``packed`` made in this process (never bytes from elsewhere)."""
    record: GameRecord = pickle.loads(zlib.decompress(data))
    return record


def _group(groups: dict[str, GroupTally], key: str) -> GroupTally:
    found = groups.get(key)
    if found is None:
        found = groups[key] = GroupTally()
    return found


@dataclass(slots=True)
class Counts:
    """The counts of the games that count, per group (``AuditTally`` makes them)."""

    overall: GroupTally = field(default_factory=GroupTally)
    platforms: dict[str, GroupTally] = field(default_factory=dict)  # "tenhou:4" -> its hands
    players: dict[str, GroupTally] = field(default_factory=dict)
    games: int = 0
    anonymous_hands: int = 0
    seats: dict[str, GroupTally] = field(default_factory=dict)  # "dealer", "seat 1", ...
    walls: dict[str, WallTally] = field(default_factory=dict)  # "tenhou:4" -> its whole walls
    anonymous_draws: int = 0
    #: each named player's effective draws game by game, in the order counted: (O - E, V)
    series: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def count(self, record: GameRecord) -> None:
        """A game that counts: its hands, draws and walls added to its groups."""
        players, names = record.players, record.names
        self.games += 1
        platform = f"{record.platform}:{players}"  # a platforms key
        pool = (108 if players == 3 else 136) - 1
        platform_group = _group(self.platforms, platform)
        # each (seat, hand size) of the game: its groups, found once (a game has 32 hands)
        by_hand: dict[tuple[int, int], tuple[float, float, tuple[GroupTally, ...], bool]] = {}
        for seat, tiles, value, dora in record.starting:
            found = by_hand.get((seat, tiles))
            if found is None:
                name = names[seat] if seat < len(names) else ""
                anonymous = name in ANONYMOUS
                groups: tuple[GroupTally, ...] = (
                    self.overall,
                    platform_group,
                    *self._seat_groups(seat, tiles == 14),
                )
                if not anonymous:
                    groups += (_group(self.players, name),)
                mean, var = hypergeometric_moments(pool, 4, tiles)
                found = by_hand[seat, tiles] = (mean, var, groups, anonymous)
            mean, var, groups, anonymous = found
            for group in groups:
                group.add_hand((players, tiles), value, dora, mean, var)
            if anonymous:
                self.anonymous_hands += 1
        if record.draws is not None:
            self._add_draws(record.draws, platform_group, names)
        if record.walls is not None:
            self.walls.setdefault(platform, WallTally(players)).add_game(record.walls)

    def _seat_groups(self, seat: int, dealer: bool) -> tuple[GroupTally, GroupTally]:
        return (
            _group(self.seats, "dealer" if dealer else "non-dealer"),
            _group(self.seats, f"seat {seat + 1}"),
        )

    def _add_draws(self, draws: GameDraws, platform: GroupTally, names: Sequence[Any]) -> None:
        """A verified game's draw sums."""
        by_game: dict[str, tuple[float, float]] = {}
        for s in draws.seats:
            e = s.effective
            flat = _flat(s.sums())
            for group in (self.overall, platform, *self._seat_groups(s.seat, s.dealer)):
                group.add_flat(flat)
            name = str(names[s.seat]) if s.seat < len(names) else ""
            if name in ANONYMOUS:
                self.anonymous_draws += e.n
            else:
                _group(self.players, name).add_flat(flat)
                o, v = by_game.get(name, (0.0, 0.0))
                by_game[name] = (o + e.observed - e.expected, v + e.variance)
        for name, point in by_game.items():
            self.series.setdefault(name, []).append(point)


@dataclass(slots=True)
class AuditTally:
    """Everything the audit keeps of many games: the copies of each game (``copies``, by
    fingerprint, with the record of the one that counts) and the games that cannot count
    (``problems``); the counts per group (``Counts``) are made from them when first read
    after a change (``settle``)."""

    problems: list[Exclusion] = field(default_factory=list)  # unreadable, not verified, ...
    copies: dict[str, Copies] = field(default_factory=dict)  # fingerprint -> its copies
    _counts: Counts | None = None
    kept: int = 0  # bytes kept to compare copies (``limits.MAX_AUDIT_KEPT``)

    def _keep(self, group: Copies, change: Callable[[], None]) -> None:
        """``change`` a game's copies, counting what the tally keeps: over
        ``MAX_AUDIT_KEPT``, a ``ValueInputError`` that says so (nothing else changes)."""
        before = _size(group)
        change()
        self.kept += _size(group) - before
        self._counts = None
        if self.kept > MAX_AUDIT_KEPT:
            raise ValueInputError(
                f"the audit would keep over {MAX_AUDIT_KEPT // 2**20:,} MiB to tell copies of "
                f"its {len(self.copies):,} games apart (docs/limits.md): audit fewer games at a time"
            )

    def settle(self) -> Counts:
        """Count the game of each fingerprint once: its most complete copy, or none when
        its copies conflict (``pywall.results.copies``). The counts are made again from
        the records kept, in the order the games first came, so a game counts the same
        whatever the order its copies came in."""
        if self._counts is None:
            counts = Counts()
            for group in self.copies.values():
                if group.record is not None:
                    counts.count(unpacked(group.record))
            self._counts = counts
        return self._counts

    overall = property(lambda self: self.settle().overall)
    platforms = property(lambda self: self.settle().platforms)
    players = property(lambda self: self.settle().players)
    games = property(lambda self: self.settle().games)
    anonymous_hands = property(lambda self: self.settle().anonymous_hands)
    seats = property(lambda self: self.settle().seats)
    walls = property(lambda self: self.settle().walls)
    anonymous_draws = property(lambda self: self.settle().anonymous_draws)
    series = property(lambda self: self.settle().series)

    @property
    def hands(self) -> int:
        return self.settle().overall.hands

    @property
    def draws(self) -> int:
        return self.settle().overall.draws[0].n

    @property
    def excluded(self) -> list[Exclusion]:
        """Every file that does not count, and why: the problems in the order they came,
        then, in code-point order of the paths, the repeats of a game that counts and one
        entry per game whose copies conflict (naming every file)."""
        out = []
        for group in self.copies.values():
            best = group.best
            if best is None:
                paths = sorted({c.path for c in group.copies})
                out.append(
                    Exclusion(
                        paths[0],
                        "conflict",
                        "conflicting copies of one game: their names, rule or events "
                        "differ, and the names come from the file (no platform's seed or "
                        f"hash covers them), so none counts: {', '.join(paths)}",
                        "conflict",
                        {"paths": list(paths)},
                    )
                )
            for c in group.repeats():
                out.append(
                    Exclusion(
                        c.path,
                        "duplicate",
                        f"repeat of {best.path}" if best else "",
                        "duplicate",
                        {"same_as": best.path if best else ""},
                    )
                )
        return self.problems + sorted(out, key=lambda e: (e.path, e.kind, e.reason))

    @property
    def conflicts(self) -> int:
        """Games left out because their copies conflict."""
        return sum(1 for g in self.copies.values() if g.conflict)

    def add(self, record: GameRecord) -> None:
        """One game's audit record: kept with the other copies of its game (counted once,
        as ``copies`` decides, when the tally is read), or an exclusion."""
        if record.problem is not None:
            self.problems.append(Exclusion(record.path, *record.problem))
            return
        if record.copy is None:  # a record made without the audit: it cannot be compared
            self.problems.append(Exclusion(record.path, *NO_FINGERPRINT))
            return
        group = self.copies.get(record.fingerprint)
        if group is None:
            group = self.copies[record.fingerprint] = Copies()
        copy, data = Copy(record.path, record.copy), packed(record)
        self._keep(group, lambda: group.add(copy, data))

    def add_all(self, records: Sequence[GameRecord]) -> None:
        """Every record, or none: on an error (``MAX_AUDIT_KEPT``) the tally is as before."""
        problems, kept = len(self.problems), self.kept
        before: dict[str, Copies | None] = {}
        for r in records:
            group = self.copies.get(r.fingerprint)
            if r.problem is None and r.fingerprint not in before:
                before[r.fingerprint] = group and Copies(
                    list(group.copies), group.best, group.record
                )
        try:
            for r in records:
                self.add(r)
        except PywallError:
            del self.problems[problems:]
            for fingerprint, group in before.items():
                if group is None:
                    self.copies.pop(fingerprint, None)
                else:
                    self.copies[fingerprint] = group
            self.kept, self._counts = kept, None
            raise

    def merge(self, other: AuditTally) -> None:
        """Add another part of the same audit (another worker's share of a run, another
        run, the page's logs): a game in both counts once, by the same rule as in one."""
        self.problems += other.problems
        for fingerprint, theirs in other.copies.items():
            mine = self.copies.get(fingerprint)
            if mine is None:
                mine = self.copies[fingerprint] = Copies()
            self._keep(mine, partial(mine.merge, theirs))
        self._counts = None

    def to_dict(self) -> dict[str, Any]:
        """The tally as JSON: its problems, and each game's copies ([path, key]) with the
        index of the one that counts and its record (null when they conflict); ``games``
        and ``excluded`` say what it counts and leaves out (``from_dict`` reads neither)."""
        games = []
        for fingerprint, group in self.copies.items():
            best = None if group.best is None else group.copies.index(group.best)
            record = None if group.record is None else unpacked(group.record).to_dict()
            games.append(
                [fingerprint, [[c.path, c.key.to_list()] for c in group.copies], best, record]
            )

        def listed(exclusions: list[Exclusion]) -> list[list[Any]]:
            return [
                [e.path, e.kind, e.reason, e.reason_code, dict(e.reason_data)] for e in exclusions
            ]

        return {
            "games": self.games,
            "excluded": listed(self.excluded),
            "problems": listed(self.problems),
            "copies": games,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AuditTally:
        """A tally's JSON read back, checked (``ValueInputError``): every record as
        ``GameRecord.from_dict`` reads it, the copies compared again."""
        try:
            tally = cls(problems=[_exclusion_from(e) for e in d["problems"]])
            for fingerprint, copies, best, record in d["copies"]:
                listed = [Copy(str(p), CopyKey.from_list(k, str(p)[:200])) for p, k in copies]
                if best is None:
                    group = Copies(listed)
                else:
                    read = GameRecord.from_dict(record)
                    if read.copy != listed[best].key or read.fingerprint != fingerprint:
                        raise ValueInputError("not an audit tally: a record is not its game's copy")
                    group = Copies()
                    group.add(listed[best], packed(read))
                    for c in listed[:best] + listed[best + 1 :]:
                        group.add(c, None)
                if group.best is None and not group.conflict or not listed:
                    raise ValueInputError("not an audit tally: a game's copies do not agree")
                tally.copies[str(fingerprint)] = group
            return tally
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            if isinstance(exc, ValueInputError):
                raise
            raise ValueInputError(f"not an audit tally ({type(exc).__name__})") from None


def _exclusion_from(e: Sequence[Any]) -> Exclusion:
    """An exclusion as ``AuditTally.to_dict`` lists it (tallies before reason codes: 3 items)."""
    path, kind, reason = e[:3]
    code, data = (e[3], e[4]) if len(e) >= 5 else ("", {})
    return Exclusion(str(path), str(kind), str(reason), str(code), dict(data))
