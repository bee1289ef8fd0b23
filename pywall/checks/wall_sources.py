"""Where each round's wall comes from, per platform: the one thing ``verify_game`` asks.

Theory of operation (docs/walls.md, docs/platforms.md): a Tenhou log's walls are
rebuilt from its seed (``pywall.checks.tenhou``: the seed's era decides the generator and the
layout; June and July 2009 logs carry a seed on each round), while Mahjong Soul and
Riichi City records state each round's wall (and its layout) and a digest of it. A
source says what getting its walls found (a missing or unusable seed, a legacy era),
then yields each round with its wall and layout, or one finding that stops the game (a
round's seed unusable, a stated wall of the wrong size). What a stated wall is checked
for beyond its tiles (its tile set, its copy, its digests: ``pywall.checks.stated``,
``pywall.checks.digests``) is the source's too: a wall rebuilt from a seed needs none of it.
Every source's rounds then go through the same checks (``pywall.checks.round_checks``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from pywall.checks.digests import RoundDigests, check_digests
from pywall.checks.stated import composition_findings, copy_findings, limits_of
from pywall.checks.tenhou import (
    SEEN_ON_REAL_LOGS,
    TILE_KINDS,
    Era,
    RoundWall,
    Scheme,
    Seed,
    early_2009_wall,
    iter_walls,
    parse_seed,
    wall_scheme,
)
from pywall.core.errors import SeedError
from pywall.core.findings import Finding, Severity
from pywall.core.json_value import JsonObject
from pywall.core.layout import Layout, WallScheme, layout_for
from pywall.core.model import Game, Platform, Round


@dataclass(frozen=True, slots=True)
class SourcedWall:
    """One round of the record, the wall its tiles come from and where they sit in it."""

    round: Round
    wall: RoundWall
    layout: Layout


@dataclass(frozen=True, slots=True)
class WallChecks:
    """What a source checks of a wall itself, after its tiles (a stated wall: its tile
    set, its copy and its digests; a wall rebuilt from a seed: nothing)."""

    findings: tuple[Finding, ...] = ()
    digests: RoundDigests | None = None


NO_CHECKS = WallChecks()


class WallSource(Protocol):
    """A game's walls, as one platform obtains them."""

    @property
    def stated(self) -> bool:
        """Whether the record states its walls (else they are rebuilt from a seed)."""
        ...

    @property
    def scheme(self) -> Scheme | None: ...

    @property
    def era(self) -> Era | None: ...

    @property
    def findings(self) -> tuple[Finding, ...]:
        """What getting the walls found before any round (seed problems, a legacy era)."""
        ...

    def limits(self) -> tuple[str, ...]:
        """What no check of these walls can prove (``pywall.checks.stated.LIMITS`` codes)."""
        ...

    def walls(self) -> Iterator[SourcedWall | Finding]:
        """Each round with its wall, in order; a finding ends the game's rounds."""
        ...

    def check_wall(self, item: SourcedWall) -> WallChecks:
        """The wall's own checks, once its round's tiles are checked."""
        ...


@dataclass(frozen=True, slots=True)
class SeededWalls:
    """Tenhou: every round's wall rebuilt from the game's seed (or, June and July 2009,
    from each round's own)."""

    game: Game
    seed: Seed | None
    findings: tuple[Finding, ...]
    stated = False

    @classmethod
    def of(cls, game: Game) -> SeededWalls:
        found: list[Finding] = []
        seed: Seed | None = None
        try:
            if game.seed is not None:
                seed = parse_seed(game.seed)
            elif not (game.rounds and all(r.shuffle for r in game.rounds)):
                found.append(
                    Finding(
                        "seed_missing",
                        Severity.ERROR,
                        None,
                        "the log has no SHUFFLE seed: its walls cannot be rebuilt",
                    )
                )
            else:
                seed = parse_seed(game.rounds[0].shuffle or "")
        except SeedError as exc:
            found.append(
                Finding(
                    "bad_seed", Severity.ERROR, None, f"the log's seed is unusable: {exc.message}"
                )
            )
        if seed is not None and seed.scheme.legacy:
            found.append(legacy_finding(seed, game.player_count))
        return cls(game, seed, tuple(found))

    @property
    def scheme(self) -> Scheme | None:
        return None if self.seed is None else self.seed.scheme

    @property
    def era(self) -> Era | None:
        return None if self.seed is None else self.seed.era

    def limits(self) -> tuple[str, ...]:
        return ()

    def walls(self) -> Iterator[SourcedWall | Finding]:
        game = self.game
        layout = layout_for(wall_scheme(self.era or Era.CURRENT), game.player_count)
        done = 0
        try:
            for rnd, wall in zip(game.rounds, walls_for(game, self.seed)):
                yield SourcedWall(rnd, wall, layout)
                done += 1
        except SeedError as exc:
            yield Finding(
                "bad_seed", Severity.ERROR, done, f"a round's seed is unusable: {exc.message}"
            )

    def check_wall(self, item: SourcedWall) -> WallChecks:
        return NO_CHECKS


@dataclass(frozen=True, slots=True)
class StatedWalls:
    """Mahjong Soul and Riichi City: each round's wall as the record states it, in the
    layout the record's format gives it."""

    game: Game
    stated = True
    scheme = None
    era = None
    findings = ()

    @classmethod
    def of(cls, game: Game) -> StatedWalls:
        return cls(game)

    def limits(self) -> tuple[str, ...]:
        return limits_of(self.game.rounds, self.game.testing_environment)

    def walls(self) -> Iterator[SourcedWall | Finding]:
        players = self.game.player_count
        for rnd in self.game.rounds:
            layout = layout_for(WallScheme(rnd.wall_scheme or "front"), players)
            wall = rnd.wall or ()
            if len(wall) != layout.size:
                yield Finding(
                    "log_format",
                    Severity.ERROR,
                    rnd.index,
                    f"{rnd.label}: the wall has {len(wall)} tiles; this record's "
                    f"walls have {layout.size}",
                )
                return
            yield SourcedWall(rnd, RoundWall(wall, None), layout)

    def check_wall(self, item: SourcedWall) -> WallChecks:
        rnd, layout = item.round, item.layout
        digests = check_digests(
            rnd.hashes, index=rnd.index, where=rnd.label, tiles=len(item.wall.tiles),
            undealt=not layout.holds_deal,
        )  # fmt: skip
        more = composition_findings(rnd, layout) + copy_findings(rnd, layout)
        return WallChecks(tuple(more) + digests.findings, digests)


#: The source of each platform's walls (the one place verification asks the platform).
SOURCES: dict[Platform, Callable[[Game], WallSource]] = {
    Platform.TENHOU: SeededWalls.of,
    Platform.MAJSOUL: StatedWalls.of,
    Platform.RIICHICITY: StatedWalls.of,
}


def source_for(game: Game) -> WallSource:
    """The source of ``game``'s walls."""
    return SOURCES[game.platform](game)


def walls_for(game: Game, seed: Seed | None) -> Iterator[RoundWall]:
    if seed is not None and seed.scheme is not Scheme.EARLY_2009:
        yield from iter_walls(seed, game.player_count)
        return
    for rnd in game.rounds:  # June and July 2009: a seed on each INIT
        own = parse_seed(rnd.shuffle or "")
        if seed is not None and own.era is not seed.era:
            raise SeedError(
                f"{rnd.label}: its seed is in the format of {own.era.dates}, "
                f"the first round's in that of {seed.era.dates}"
            )
        yield early_2009_wall(own.key, game.player_count)


def legacy_finding(seed: Seed, players: int) -> Finding:
    """Which older era the seed is of (in dates: ``Era.dates``), and which kinds of its
    tiles real logs have shown."""
    seen = SEEN_ON_REAL_LOGS.get((seed.era, players), ())
    unseen = tuple(k for k in TILE_KINDS if k not in seen)
    words = len(seed.raw) // 4
    head = f"the seed format of logs from {seed.era.dates} ({seed.scheme.value}, {words} words)"
    if not unseen:
        tail = f"every kind of tile ({', '.join(seen)}) holds on real {players}-player logs of it"
    elif seen:
        tail = (
            f"{', '.join(seen)} hold on real {players}-player logs of it; "
            f"{', '.join(unseen)} verified best-effort (no real log of it shows them)"
        )
    else:
        tail = f"verified best-effort (no real {players}-player log of it has been checked)"
    data: JsonObject = {"era": seed.era.value, "seen": list(seen), "unseen": list(unseen)}
    return Finding("legacy_seed", Severity.INFO, None, f"{head}: {tail}", data)
