"""The counts of the games that count, per group, which merge by addition.

Each group (everyone, each platform and player count, each named player, each seat) keeps
shanten counts per hand class, the dora dealt with their exact mean and variance, and the
draw tests' sums (``GroupTally``); ``Counts`` holds them all with the walls, and counts one
game's ``records.GameRecord`` (``Counts.count``). Which games count, and once, is
``tally.AuditTally``'s business; hands can also be given one by one
(``StartingHand``, ``tally_of``).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import add
from typing import Any, overload

from pywall.analysis.draws import GameDraws, Sums
from pywall.analysis.shanten import shanten
from pywall.analysis.stats import exact_sum, exact_units, from_units, hypergeometric_moments
from pywall.analysis.walls import WallTally
from pywall.audits.draw_wall_tests import DrawSums
from pywall.audits.records import GameRecord, checked_counts
from pywall.core.errors import ValueInputError
from pywall.core.tiles import dora_kind

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
    """The draw tests' sums flat, as ``GroupTally.draw_sums`` gives them: n, O, E, V of each."""
    return [x for s in sums for x in s.to_list()]


def _units(flat: Sequence[float]) -> list[int]:
    """Flat draw sums as ``GroupTally.draw_units`` holds them: n and O as they are, E and V
    as whole numbers of 2**-1074 (``stats.exact_units``)."""
    return [int(x) if i % 4 < 2 else exact_units(x) for i, x in enumerate(flat)]


#: A hand class: (player count, tiles in the hand); each has its own exact distribution.
HandClass = tuple[int, int]


@dataclass(slots=True)
class GroupTally:
    """One group's hands: shanten counts per hand class and the dora dealt.

    Every sum of floats over hands or games is kept exact, as a whole number of 2**-1074
    (``stats.exact_units``), and rounded once when read: adding and merging are exact, so
    the sums do not depend on the order the games are counted in or on how a run was split
    (workers, shards, saved tallies)."""

    shanten: dict[HandClass, dict[int, int]] = field(default_factory=dict)
    dora: int = 0
    #: the dora's mean and variance under a fair deal, summed over hands, in 2**-1074
    mean_units: int = 0
    var_units: int = 0
    #: the draw tests' sums, flat: n, O, E, V of each test (pywall.analysis.draws.TESTS
    #: order), E and V in 2**-1074, added to in place (``draws`` gives them as ``Sums``)
    draw_units: list[int] = field(default_factory=lambda: [0] * 12)

    @property
    def hands(self) -> int:
        return sum(sum(c.values()) for c in self.shanten.values())

    @property
    def dora_mean(self) -> float:
        return from_units(self.mean_units)

    @property
    def dora_var(self) -> float:
        return from_units(self.var_units)

    @property
    def draw_sums(self) -> list[float]:
        """The draw tests' sums, flat: n, O, E, V of each test, E and V rounded once."""
        return [x if i % 4 < 2 else from_units(x) for i, x in enumerate(self.draw_units)]

    @property
    def draws(self) -> DrawSums:
        v = self.draw_units
        a, b, c = (
            Sums(v[i], v[i + 1], from_units(v[i + 2]), from_units(v[i + 3])) for i in (0, 4, 8)
        )
        return a, b, c

    @draws.setter
    def draws(self, sums: DrawSums) -> None:
        self.draw_units = _units(_flat(sums))

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
        self.add_hand_units(hand_class, shanten_value, dora, exact_units(mean), exact_units(var))

    def add_hand_units(
        self, hand_class: HandClass, shanten_value: int, dora: int, mean: int, var: int
    ) -> None:
        """``add_hand`` with the mean and variance already in 2**-1074 (``exact_units``)."""
        counts = self.shanten.get(hand_class)
        if counts is None:
            counts = self.shanten[hand_class] = {}
        counts[shanten_value] = counts.get(shanten_value, 0) + 1
        self.dora += dora
        self.mean_units += mean
        self.var_units += var

    def merge(self, other: GroupTally) -> None:
        for key, counts in other.shanten.items():
            mine = self.shanten.setdefault(key, {})
            for value, n in counts.items():
                mine[value] = mine.get(value, 0) + n
        self.dora += other.dora
        self.mean_units += other.mean_units
        self.var_units += other.var_units
        self.add_units(other.draw_units)

    def add_draws(self, sums: DrawSums) -> None:
        self.add_units(_units(_flat(sums)))

    def add_flat(self, flat: Sequence[float]) -> None:
        """Draw sums given flat, as ``draw_sums`` gives them."""
        self.add_units(_units(flat))

    def add_units(self, units: Sequence[int]) -> None:
        """Draw sums given flat, as ``draw_units`` holds them: added exactly."""
        self.draw_units[:] = map(add, self.draw_units, units)

    def take(self, part: GroupTally) -> None:
        """Take ``part`` (hands and draws counted in this group) out, in place and exactly:
        a hand class or shanten value no hand is left in is dropped, as if never counted."""
        for key, theirs in part.shanten.items():
            counts = self.shanten[key]
            for value, n in theirs.items():
                left = counts[value] - n
                if left:
                    counts[value] = left
                else:
                    del counts[value]
            if not counts:
                del self.shanten[key]
        self.dora -= part.dora
        self.mean_units -= part.mean_units
        self.var_units -= part.var_units
        self.draw_units[:] = [a - b for a, b in zip(self.draw_units, part.draw_units, strict=True)]

    def without(self, part: GroupTally) -> GroupTally:
        """This group less ``part`` (hands and draws counted in both, such as one player's
        in a seat): exact, as every sum here is a whole number."""
        shanten: dict[HandClass, dict[int, int]] = {}
        for key, counts in self.shanten.items():
            theirs = part.shanten.get(key, {})
            left = {s: n - theirs.get(s, 0) for s, n in counts.items() if n > theirs.get(s, 0)}
            if left:
                shanten[key] = left
        return GroupTally(
            shanten,
            self.dora - part.dora,
            self.mean_units - part.mean_units,
            self.var_units - part.var_units,
            [a - b for a, b in zip(self.draw_units, part.draw_units, strict=True)],
        )

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
            return cls(
                shanten_counts,
                int(dora),
                exact_units(float(mean)),
                exact_units(float(var)),
                _units(_flat((a, b, c))),
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise ValueInputError(f"not an audit tally ({type(exc).__name__})") from None


def tally_of(hands: Iterable[StartingHand]) -> GroupTally:
    tally = GroupTally()
    for h in hands:
        tally.add(h.players, h.tiles, h.shanten, h.dora, h.pool, h.dora_tiles)
    return tally


#: one game's effective draws in a series: (O - E, V)
Point = tuple[float, float]


@dataclass(slots=True)
class Series:
    """One series' points as counted, compact (24 bytes a point): the number of each
    point's game in its tally (``Counts.count``'s ``game``) and its (O - E, V)."""

    games: array[int] = field(default_factory=lambda: array("q"))
    observed: array[float] = field(default_factory=lambda: array("d"))
    variance: array[float] = field(default_factory=lambda: array("d"))

    def append(self, game: int, point: Point) -> None:
        self.games.append(game)
        self.observed.append(point[0])
        self.variance.append(point[1])

    def extend(self, other: Series, offset: int) -> None:
        """Another tally's points, its games numbered from ``offset`` here."""
        self.games.extend(g + offset for g in other.games)
        self.observed.extend(other.observed)
        self.variance.extend(other.variance)

    def ordered(self, rank: Sequence[int]) -> Points:
        """The points of the games that count, in code-point order of their fingerprints:
        ``rank`` gives each game's place in that order (-1: a game taken out since,
        ``Counts.remove``, whose point is left out). The games of a series have distinct
        places, so the points are placed by them: through a slot array of every place when
        the series has a point in many games (everyone's), else sorted (a player's)."""
        games = self.games
        if len(games) * 8 >= len(rank):
            slots = array("q", [-1]) * len(rank)
            for i, game in enumerate(games):
                place = rank[game]
                if place >= 0:
                    slots[place] = i
            picked: Iterable[int] = (i for i in slots if i >= 0)
        else:
            counted = [i for i, game in enumerate(games) if rank[game] >= 0]
            picked = sorted(counted, key=lambda i: rank[games[i]])
        observed, variance = array("d"), array("d")
        for i in picked:
            observed.append(self.observed[i])
            variance.append(self.variance[i])
        return Points(observed, variance)


class Points(Sequence[Point]):
    """A series' points in their order, compact (16 bytes a point): a sequence of
    (O - E, V) made one at a time when read."""

    __slots__ = ("observed", "variance")

    def __init__(self, observed: array[float], variance: array[float]) -> None:
        self.observed = observed
        self.variance = variance

    def __len__(self) -> int:
        return len(self.observed)

    @overload
    def __getitem__(self, index: int) -> Point: ...

    @overload
    def __getitem__(self, index: slice) -> Points: ...

    def __getitem__(self, index: int | slice) -> Point | Points:
        if isinstance(index, slice):
            return Points(self.observed[index], self.variance[index])
        return (self.observed[index], self.variance[index])

    def __iter__(self) -> Iterator[Point]:
        return zip(self.observed, self.variance, strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Points):
            return self.observed == other.observed and self.variance == other.variance
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def _group(groups: dict[str, GroupTally], key: str) -> GroupTally:
    found = groups.get(key)
    if found is None:
        found = groups[key] = GroupTally()
    return found


def _take_walls(walls: WallTally, part: WallTally) -> None:
    """``part``'s walls (counted in ``walls``) taken out: every count is a whole number."""
    for name in tuple(part.tables):
        walls.table(name).subtract(part.table(name))
    walls.walls -= part.walls
    walls.reds -= part.reds
    walls.red_pairs -= part.red_pairs
    walls.games -= part.games


def _take(
    groups: dict[Any, GroupTally],
    part: Mapping[Any, GroupTally],
    refs: dict[tuple[str, Any], int],
    kind: str,
) -> None:
    """``part``'s groups taken out of ``groups``; a group no counted game is left in is
    dropped (``refs``: how many counted games are in each group), as if never made."""
    for key, group in part.items():
        groups[key].take(group)
        ref = (kind, key)
        refs[ref] -= 1
        if not refs[ref]:
            del refs[ref], groups[key]


@dataclass(slots=True)
class Counts:
    """The counts of the games that count, per group (``AuditTally`` makes them): a game
    is added (``count``) and can be taken out again exactly (``remove``), so the counts
    are the same whatever the order the games came in and left."""

    overall: GroupTally = field(default_factory=GroupTally)
    platforms: dict[str, GroupTally] = field(default_factory=dict)  # "tenhou:4" -> its hands
    players: dict[str, GroupTally] = field(default_factory=dict)
    games: int = 0
    anonymous_hands: int = 0
    seats: dict[str, GroupTally] = field(default_factory=dict)  # "dealer", "seat 1", ...
    walls: dict[str, WallTally] = field(default_factory=dict)  # "tenhou:4" -> its whole walls
    anonymous_draws: int = 0
    #: each named player's effective draws game by game, as counted (``series_in`` lists
    #: them in fingerprint order)
    by_player: dict[str, Series] = field(default_factory=dict)
    #: every player's effective draws together, game by game, as counted
    by_game: Series = field(default_factory=Series)
    #: rounds whose draws the walk left out, by reason (``draws.SKIP_REASONS``)
    skipped_rounds: dict[str, int] = field(default_factory=dict)
    #: the named players whose hands and draws are also kept per seat group (``shares``):
    #: a few (the flagged), so the memory is a few groups a player, none a game
    shares_of: frozenset[str] = frozenset()
    #: (seat group, player) -> that player's hands and draws in it ("seat 2", "dealer", ...)
    shares: dict[tuple[str, str], GroupTally] = field(default_factory=dict)
    #: (kind, key) -> how many counted games are in that group (``remove`` drops a group
    #: none is left in); kinds: platform, player, seat, wall, share
    refs: dict[tuple[str, Any], int] = field(default_factory=dict)

    def series_in(self, rank: Sequence[int]) -> dict[str, Points]:
        """Each named player's effective draws game by game, (O - E, V), the games in
        code-point order of their fingerprints (``rank``: each game's place in that order,
        -1 for a game that no longer counts): the same whatever the order the games were
        counted in."""
        found = {name: s.ordered(rank) for name, s in self.by_player.items()}
        return {name: points for name, points in found.items() if points}

    def overall_series_in(self, rank: Sequence[int]) -> Points:
        """Every player's effective draws together, game by game, in fingerprint order."""
        return self.by_game.ordered(rank)

    def merge(self, other: Counts, offset: int = 0) -> None:
        """Add the counts of other games (none of them counted here), numbered from
        ``offset`` here (their series' points)."""
        self.overall.merge(other.overall)
        for mine, theirs in (
            (self.platforms, other.platforms),
            (self.players, other.players),
            (self.seats, other.seats),
        ):
            for key, group in theirs.items():
                _group(mine, key).merge(group)
        for pair, group in other.shares.items():
            self.shares.setdefault(pair, GroupTally()).merge(group)
        for key, walls in other.walls.items():
            self.walls.setdefault(key, WallTally(walls.players)).merge(walls)
        for name, points in other.by_player.items():
            self.by_player.setdefault(name, Series()).extend(points, offset)
        self.by_game.extend(other.by_game, offset)
        self.games += other.games
        self.anonymous_hands += other.anonymous_hands
        self.anonymous_draws += other.anonymous_draws
        for reason, rounds in other.skipped_rounds.items():
            self.skipped_rounds[reason] = self.skipped_rounds.get(reason, 0) + rounds
        for ref, n in other.refs.items():
            self.refs[ref] = self.refs.get(ref, 0) + n

    def remove(self, record: GameRecord) -> None:
        """Take out a game ``count`` added (its copy no longer counts): every sum is a
        whole number, so what is left is exactly the counts without it; its series'
        points are left out by ``series_in`` (its number no longer counts)."""
        one = Counts(shares_of=self.shares_of)
        one.count(record, -1)
        self.overall.take(one.overall)
        _take(self.platforms, one.platforms, self.refs, "platform")
        _take(self.players, one.players, self.refs, "player")
        _take(self.seats, one.seats, self.refs, "seat")
        _take(self.shares, one.shares, self.refs, "share")
        for key, walls in one.walls.items():
            _take_walls(self.walls[key], walls)
            self.refs[("wall", key)] -= 1
            if not self.refs[("wall", key)]:
                del self.refs[("wall", key)], self.walls[key]
        self.games -= one.games
        self.anonymous_hands -= one.anonymous_hands
        self.anonymous_draws -= one.anonymous_draws
        for reason, rounds in one.skipped_rounds.items():
            left = self.skipped_rounds[reason] - rounds
            if left:
                self.skipped_rounds[reason] = left
            else:
                del self.skipped_rounds[reason]

    def count(self, record: GameRecord, game: int) -> None:
        """A game that counts, ``game`` its number (its series' points; -1: none, as in
        counts made again for ``shares``): its hands, draws and walls added to its groups."""
        players, names = record.players, record.names
        self.games += 1
        platform = f"{record.platform}:{players}"  # a platforms key
        pool = (108 if players == 3 else 136) - 1
        platform_group = _group(self.platforms, platform)
        touched: set[tuple[str, Any]] = {("platform", platform)}
        # each (seat, hand size) of the game: its groups, found once (a game has 32 hands)
        by_hand: dict[tuple[int, int], tuple[int, int, tuple[GroupTally, ...], bool]] = {}
        for seat, tiles, value, dora in record.starting:
            found = by_hand.get((seat, tiles))
            if found is None:
                name = names[seat] if seat < len(names) else ""
                anonymous = name in ANONYMOUS
                groups: tuple[GroupTally, ...] = (
                    self.overall,
                    platform_group,
                    *self._seat_groups(seat, tiles == 14, touched),
                )
                if not anonymous:
                    touched.add(("player", name))
                    groups += (
                        _group(self.players, name),
                        *self._shares(name, seat, tiles == 14, touched),
                    )
                mean, var = hypergeometric_moments(pool, 4, tiles)
                found = by_hand[seat, tiles] = (
                    exact_units(mean),
                    exact_units(var),
                    groups,
                    anonymous,
                )
            mean_units, var_units, groups, anonymous = found
            for group in groups:
                group.add_hand_units((players, tiles), value, dora, mean_units, var_units)
            if anonymous:
                self.anonymous_hands += 1
        if record.draws is not None:
            self._add_draws(record.draws, platform_group, names, game, touched)
            for reason in record.draws.skipped_reasons:
                self.skipped_rounds[reason] = self.skipped_rounds.get(reason, 0) + 1
        if record.walls is not None:
            touched.add(("wall", platform))
            self.walls.setdefault(platform, WallTally(players)).add_game(record.walls)
        for ref in touched:
            self.refs[ref] = self.refs.get(ref, 0) + 1

    def _seat_groups(
        self, seat: int, dealer: bool, touched: set[tuple[str, Any]]
    ) -> tuple[GroupTally, GroupTally]:
        keys = ("dealer" if dealer else "non-dealer", f"seat {seat + 1}")
        touched.update(("seat", k) for k in keys)
        return _group(self.seats, keys[0]), _group(self.seats, keys[1])

    def _shares(
        self, name: str, seat: int, dealer: bool, touched: set[tuple[str, Any]]
    ) -> tuple[GroupTally, ...]:
        """The player's share of its seat groups, if it is one of ``shares_of``."""
        if name not in self.shares_of:
            return ()
        keys = ("dealer" if dealer else "non-dealer", f"seat {seat + 1}")
        touched.update(("share", (k, name)) for k in keys)
        return tuple(self.shares.setdefault((k, name), GroupTally()) for k in keys)

    def _add_draws(
        self,
        draws: GameDraws,
        platform: GroupTally,
        names: Sequence[Any],
        game: int,
        touched: set[tuple[str, Any]],
    ) -> None:
        """A verified game's draw sums (the game's seats' sums are added exactly)."""
        by_game: dict[str, tuple[float, float]] = {}
        for s in draws.seats:
            e = s.effective
            units = _units(_flat(s.sums()))
            for group in (self.overall, platform, *self._seat_groups(s.seat, s.dealer, touched)):
                group.add_units(units)
            name = str(names[s.seat]) if s.seat < len(names) else ""
            if name in ANONYMOUS:
                self.anonymous_draws += e.n
            else:
                touched.add(("player", name))
                for group in (
                    _group(self.players, name),
                    *self._shares(name, s.seat, s.dealer, touched),
                ):
                    group.add_units(units)
                o, v = by_game.get(name, (0.0, 0.0))
                by_game[name] = (o + e.observed - e.expected, v + e.variance)
        if game < 0:
            return
        for name, point in by_game.items():
            series = self.by_player.get(name)
            if series is None:
                series = self.by_player[name] = Series()
            series.append(game, point)
        seats = [s.effective for s in draws.seats]
        self.by_game.append(
            game,
            (
                exact_sum(e.observed - e.expected for e in seats),
                exact_sum(e.variance for e in seats),
            ),
        )
