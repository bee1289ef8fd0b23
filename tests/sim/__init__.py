"""A small mahjong simulator for the audit's calibration and power tests (tests only).

``play_round`` plays one 4-player round on a wall laid out as the ``front`` scheme
(pywall/core/layout.py): bots draw, win when complete, call pon or an open kan on a
discard now and then, declare a closed kan, riichi in tenpai, and discard a tile
that keeps the lowest shanten. The round is a ``pywall.core.model.Round``, so the audit's
own code (pywall.analysis.draws, pywall.analysis.walls) reads it as it reads a real record.

Dealers: ``fair_wall`` shuffles; ``worst_wall`` plays each of a few fair candidate
walls and keeps the one whose draws are worst for one seat (a rigged dealer that
leaves every wall a fair-looking shuffle); ``biased_wall`` moves honours to given
positions now and then (a positional bias). A ``Rig`` shifts the draws themselves: at each
draw it names, the chance that the drawn tile is a hit (an effective tile, a winning tile in
tenpai, or a dora) moves by exactly ``shift`` from the fair chance the audit computes, by
swapping the next tile with another unseen one (the calibration of the audit's
``detectable`` figure, benchmarks/detectable_calibration.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pywall.analysis.draws import Sums, game_draws
from pywall.analysis.efficiency import effective_kinds
from pywall.analysis.shanten import shanten
from pywall.core.layout import Layout, WallScheme, layout_for
from pywall.core.model import (
    Call,
    Discard,
    DoraReveal,
    Draw,
    Event,
    Game,
    MeldKind,
    Riichi,
    Round,
    Ryuukyoku,
    Win,
)
from pywall.core.tiles import dora_kind

LAYOUT = layout_for(WallScheme.FRONT, 4)
PLAYERS = 4


def counts_of(tiles: Sequence[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t // 4] += 1
    return counts


@dataclass(frozen=True)
class Rig:
    """A shuffle that moves the chance of a hit at each draw ``test`` reads (``effective``:
    every draw, ``tenpai``: draws in tenpai, a winning tile; ``dora``: every draw, a dora)
    by ``shift`` on average (negative: takes hits away). Where a draw's fair chance p leaves
    no room (p = 0: no hit left unseen; p = 1), the rest is carried to the next draws, so a
    corpus's draws move by ``shift`` each on average, as ``detectable`` supposes."""

    test: str
    shift: float


@dataclass
class RigCount:
    """What a rig did: the draws it read and the shift it still owes (carried over)."""

    draws: int = 0
    owed: float = 0.0


class _Table:
    """One round being played: hands as tile ids, the events so far."""

    def __init__(
        self,
        wall: Sequence[int],
        rng: random.Random,
        calls: float,
        layout: Layout = LAYOUT,
        rig: Rig | None = None,
        count: RigCount | None = None,
    ) -> None:
        self.wall, self.rng, self.calls, self.layout = list(wall), rng, calls, layout
        self.rig, self.count = rig, count
        self.dora_kinds = [dora_kind(self.wall[layout.dora[0]] // 4)]
        self.hands = [sorted(wall[p] for p in layout.deal[s]) for s in range(PLAYERS)]
        self.events: list[Event] = []
        self.live = 0  # live draws made
        self.kans = 0
        self.riichi = [False] * PLAYERS
        self.melds = [0] * PLAYERS

    def live_left(self) -> int:
        return len(self.layout.live) - self.live - self.kans

    def draw(self, seat: int, replacement: bool = False) -> int:
        if self.rig is not None and self.events:  # the dealer's first draw is the deal's
            self.rigged(seat, replacement)
        if replacement:
            tile = self.wall[self.layout.replacements[self.kans - 1]]
        else:
            tile = self.wall[self.layout.live[self.live]]
            self.live += 1
        self.events.append(Draw(seat, tile))
        self.hands[seat].append(tile)
        return tile

    def hit_kinds(self, seat: int) -> set[int] | None:
        """The kinds that are a hit for the rig's test at this draw; None when the test does
        not read it (a draw not in tenpai for ``tenpai``)."""
        assert self.rig is not None
        if self.rig.test == "dora":
            return set(self.dora_kinds)
        value, mask = effective_kinds(tuple(counts_of(self.hands[seat])))
        if self.rig.test == "tenpai" and value != 0:
            return None
        return {k for k in range(34) if mask >> k & 1}

    def rigged(self, seat: int, replacement: bool) -> None:
        """Move the chance that the next tile is a hit by the rig's shift (and what earlier
        draws owed): swap it, now and then, with another unseen tile of the other sort.
        Every position not yet shown holds the unseen tiles in a fair random order (a swap
        with a random partner keeps it so), so the fair chance is p = hits among them /
        their number, and swapping a hit away with chance -d / p (a miss in with chance
        d / (1 - p)) makes it p + d exactly."""
        assert self.rig is not None and self.count is not None
        hits = self.hit_kinds(seat)
        if hits is None:
            return
        lay = self.layout
        here = lay.replacements[self.kans - 1] if replacement else lay.live[self.live]
        shown = {p for s in range(PLAYERS) for p in lay.deal[s]}
        done = self.kans - 1 if replacement else self.kans  # replacement tiles drawn before
        shown |= set(lay.live[: self.live]) | set(lay.replacements[:done])
        shown |= set(lay.dora[: len(self.dora_kinds)])
        unseen = [p for p in range(len(self.wall)) if p not in shown]
        hit = [p for p in unseen if self.wall[p] // 4 in hits]
        chance = len(hit) / len(unseen)
        want = self.rig.shift + self.count.owed
        # room: how far this draw's chance can move that way (0 without a tile to swap in:
        # no hit unseen to add one, no miss unseen to take one away)
        room = (
            (chance if len(hit) < len(unseen) else 0.0)
            if want < 0
            else (1.0 - chance if hit else 0.0)
        )
        move = max(-room, min(room, want))
        self.count.draws += 1
        self.count.owed = want - move
        is_hit = self.wall[here] // 4 in hits
        if move == 0 or is_hit != (move < 0) or self.rng.random() >= abs(move) / room:
            return
        other = self.rng.choice([p for p in unseen if (p in hit) != is_hit])
        self.wall[here], self.wall[other] = self.wall[other], self.wall[here]

    def complete(self, seat: int, extra: int | None = None) -> bool:
        tiles = self.hands[seat] + ([extra] if extra is not None else [])
        return shanten(counts_of(tiles)) == -1

    def discard(self, seat: int) -> int:
        """A tile whose discard keeps the lowest shanten (ties at random); riichi when tenpai."""
        hand = self.hands[seat]
        if self.riichi[seat]:
            tile = hand[-1]
        else:
            counts = counts_of(hand)
            best: list[int] = []
            low = 99
            for kind in {t // 4 for t in hand}:
                counts[kind] -= 1
                value = shanten(counts)
                counts[kind] += 1
                if value < low:
                    low, best = value, [kind]
                elif value == low:
                    best.append(kind)
            kind = self.rng.choice(sorted(best))
            tile = next(t for t in hand if t // 4 == kind)
            if low == 0 and self.melds[seat] == 0 and self.rng.random() < 0.7:
                self.riichi[seat] = True
                self.events.append(Riichi(seat, 1))
        hand.remove(tile)
        self.events.append(Discard(seat, tile))
        return tile

    def reveal(self) -> None:
        """The next kan dora indicator."""
        indicator = self.wall[self.layout.dora[self.kans]]
        self.events.append(DoraReveal(indicator))
        self.dora_kinds.append(dora_kind(indicator // 4))

    def closed_kan(self, seat: int) -> bool:
        if self.riichi[seat] or self.kans >= 4 or self.live_left() < 2:
            return False
        counts = counts_of(self.hands[seat])
        kinds = [k for k in range(34) if counts[k] == 4]
        if not kinds or self.rng.random() > 0.5:
            return False
        taken = tuple(t for t in self.hands[seat] if t // 4 == kinds[0])
        for t in taken:
            self.hands[seat].remove(t)
        self.events.append(Call(seat, 0, MeldKind.CLOSED_KAN, taken))
        self.kans += 1
        self.melds[seat] += 1
        self.reveal()
        return True

    def claim(self, discarder: int, tile: int) -> tuple[int, MeldKind | None] | None:
        """Ron first (kind None); else a pon or an open kan by a player not in riichi,
        now and then."""
        for k in range(1, PLAYERS):
            seat = (discarder + k) % PLAYERS
            if self.complete(seat, tile):
                return seat, None
        for k in range(1, PLAYERS):
            seat = (discarder + k) % PLAYERS
            held = sum(1 for t in self.hands[seat] if t // 4 == tile // 4)
            if self.riichi[seat] or held < 2 or self.rng.random() > self.calls:
                continue
            if held == 3 and self.kans < 4 and self.live_left() >= 2:
                return seat, MeldKind.OPEN_KAN
            return seat, MeldKind.PON
        return None


def play_round(
    wall: Sequence[int],
    rng: random.Random,
    index: int = 0,
    calls: float = 0.3,
    layout: Layout = LAYOUT,
    rig: Rig | None = None,
    count: RigCount | None = None,
) -> Round:
    """One round with seat 0 as dealer on a 136-tile wall in ``layout`` (by default the
    ``front`` scheme's); ``rig`` shifts every seat's draws (``count`` tells what it did)."""
    t = _Table(wall, rng, calls, layout, rig, count or RigCount())
    seat = 0
    t.draw(seat)
    drew = True
    while True:
        if drew and t.complete(seat):
            t.events.append(Win(seat, seat, (), ()))
            break
        if drew and t.closed_kan(seat):
            t.draw(seat, replacement=True)
            continue
        tile = t.discard(seat)
        claim = t.claim(seat, tile)
        if claim is not None:
            caller, kind = claim
            if kind is None:
                t.events.append(Win(caller, seat, (), ()))
                break
            seat = caller
            need = 3 if kind is MeldKind.OPEN_KAN else 2
            taken = tuple(x for x in t.hands[seat] if x // 4 == tile // 4)[:need]
            for x in taken:
                t.hands[seat].remove(x)
            t.events.append(Call(seat, 0, kind, taken))
            t.melds[seat] += 1
            drew = kind is MeldKind.OPEN_KAN
            if drew:
                t.kans += 1
                t.draw(seat, replacement=True)
                t.reveal()
            continue  # a pon discards next; after a kan's replacement, check the win first
        if t.live_left() <= 0:
            t.events.append(Ryuukyoku("exhaustive"))
            break
        seat = (seat + 1) % PLAYERS
        t.draw(seat)
        drew = True
    hands = tuple(tuple(t.wall[p] for p in layout.deal[s]) for s in range(PLAYERS))
    return Round(
        index, 0, 0, 0, None, t.wall[layout.dora[0]], 0, hands, (25000,) * 4, tuple(t.events)
    )


def fair_wall(rng: random.Random) -> list[int]:
    tiles = list(range(136))
    rng.shuffle(tiles)
    return tiles


def seat_shortfall(rnd: Round, seat: int) -> float:
    """O - E of one seat's effective draws in a round (what a rigged dealer minimises)."""
    game = Game(None, PLAYERS, ("a", "b", "c", "d"), (rnd,), True)
    return sum(
        s.effective.observed - s.effective.expected
        for s in game_draws(game).seats
        if s.seat == seat
    )


def worst_wall(rng: random.Random, seat: int, candidates: int = 3) -> Round:
    """A dealer that plays a few fair walls and deals the one worst for ``seat``."""
    rounds = []
    for _ in range(candidates):
        wall = fair_wall(rng)
        rounds.append(play_round(wall, random.Random(rng.random())))
    return min(rounds, key=lambda r: seat_shortfall(r, seat))


def biased_wall(rng: random.Random, positions: Sequence[int], share: float) -> list[int]:
    """A shuffle that, with chance ``share``, moves an honour to each of ``positions``."""
    tiles = fair_wall(rng)
    if rng.random() < share:
        for pos in positions:
            j = rng.choice([i for i, t in enumerate(tiles) if t >= 108 and i not in positions])
            tiles[pos], tiles[j] = tiles[j], tiles[pos]
    return tiles


def corpus(
    rounds: int, rng: random.Random, dealer: Callable[[random.Random], Round] | None = None
) -> Game:
    """A game of ``rounds`` rounds (seat 0 deals each: the audit's sums do not mind)."""
    make = dealer or (lambda r: play_round(fair_wall(r), r))
    return Game(None, PLAYERS, ("a", "b", "c", "d"), tuple(make(rng) for _ in range(rounds)), True)


def rigged_corpus(rounds: int, rng: random.Random, rig: Rig | None) -> Game:
    """A game of ``rounds`` fair walls whose draws ``rig`` shifts (fair when None)."""
    count = RigCount()
    return Game(
        None,
        PLAYERS,
        ("a", "b", "c", "d"),
        tuple(play_round(fair_wall(rng), rng, i, rig=rig, count=count) for i in range(rounds)),
        True,
    )


def seat_sums(game: Game, test: int) -> list[Sums]:
    """Each seat's sums of draw test ``test`` (an index in ``draws.TESTS``) over ``game``:
    what a player's group of the audit adds up."""
    seats = [Sums()] * PLAYERS
    for s in game_draws(game).seats:
        seats[s.seat] = seats[s.seat] + s.sums()[test]
    return seats
