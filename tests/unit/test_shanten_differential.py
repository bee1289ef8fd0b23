"""Differential test: pywall.analysis.shanten against the ``mahjong`` package (test-only).

About 227,000 hands: 60,000 dealt at random, 35,000 adversarial ones (one suit,
quads, honours, a few neighbouring kinds) and every hand within one suit of up to
10 (man) or 8 (sou) tiles and every honours-only hand (102,190 in all).

Like is compared with like, form by form: ``regular_shanten`` with
``Shanten.calculate_shanten_for_regular_hand``, and for 13/14-tile hands
``chiitoi_shanten`` / ``kokushi_shanten`` with its chiitoitsu / kokushi functions
and ``shanten`` with ``calculate_shanten``. Both count hands of 3k+1 or 3k+2 tiles
with the missing melds taken as called (13 - 3m tiles need 4 - m melds).

Where the two packages differ by definition rather than by answer (nothing here
hides a disagreement on a valid hand):
* input checks: ``mahjong`` 2.1.0 does not reject a count of 5 or more, pywall
  raises ``ValueInputError``; both reject tile counts divisible by 3 and > 14;
* ``mahjong``'s chiitoitsu and kokushi functions accept any tile count, pywall's
  only 13 or 14 (the forms need a full hand); the minimum uses them at 13/14 only
  in both.
On valid hands the answers agree exactly, including the 4-copy ("5th tile") cases
that ``mahjong`` handles with its own flags.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import mahjong.shanten as mahjong_shanten  # a test extra: if missing, fail rather than skip
import pytest

from pywall.analysis.shanten import chiitoi_shanten, kokushi_shanten, regular_shanten, shanten
from pywall.core.tiles import mpsz_from_counts

Reference = mahjong_shanten.Shanten

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
Hand = list[int]


def disagreements(hands: Iterator[Hand]) -> tuple[int, list[str]]:
    """Count hands and list every form on which the two packages differ."""
    checked, found = 0, []
    for counts in hands:
        checked += 1
        pairs = [
            (
                "regular",
                regular_shanten(counts),
                Reference.calculate_shanten_for_regular_hand(counts),
            )
        ]
        if sum(counts) >= 13:
            pairs += [
                ("chiitoi", chiitoi_shanten(counts), Reference.calculate_shanten_for_chiitoitsu_hand(counts)),
                ("kokushi", kokushi_shanten(counts), Reference.calculate_shanten_for_kokushi_hand(counts)),
                ("minimum", shanten(counts), Reference.calculate_shanten(counts)),
            ]  # fmt: skip
        found += [f"{mpsz_from_counts(counts)} {form}: pywall {a}, mahjong {b}"
                  for form, a, b in pairs if a != b]  # fmt: skip
    return checked, found


def dealt(rng: random.Random, pool: list[int], size: int) -> Hand:
    counts = [0] * 34
    for tile in rng.sample(pool, size):
        counts[tile // 4] += 1
    return counts


def random_hands(rng: random.Random, count: int) -> Iterator[Hand]:
    """Dealt from a full set; mostly 13 and 14 tiles, every other size too."""
    sizes = (13, 14, 13, 14, *SIZES)
    for _ in range(count):
        yield dealt(rng, list(range(136)), rng.choice(sizes))


def one_suit_hands(rng: random.Random, count: int) -> Iterator[Hand]:
    for _ in range(count):
        suit = rng.randrange(4)
        pool = [t for t in range(136) if t // 36 == suit]
        yield dealt(rng, pool, rng.choice([s for s in SIZES if s <= len(pool)]))


def quad_hands(rng: random.Random, count: int) -> Iterator[Hand]:
    """One to three kinds held four times, the rest random."""
    for _ in range(count):
        counts, size = [0] * 34, rng.choice(SIZES)
        for kind in rng.sample(range(34), rng.randint(1, 3)):
            if size - sum(counts) >= 4:
                counts[kind] = 4
        while sum(counts) < size:
            kind = rng.randrange(34)
            counts[kind] += counts[kind] < 4
        yield counts


def honour_heavy_hands(rng: random.Random, count: int) -> Iterator[Hand]:
    for _ in range(count):
        pool = list(range(108, 136)) + rng.sample(range(108), 12)
        yield dealt(rng, pool, rng.choice(SIZES))


def few_kind_hands(rng: random.Random, count: int) -> Iterator[Hand]:
    """Tiles from 3-6 neighbouring kinds: dense shapes, quads, 5th-tile waits."""
    for _ in range(count):
        start = rng.randrange(30)
        kinds = list(range(start, start + rng.randint(3, 4))) + [rng.randrange(34)]
        counts, size = [0] * 34, rng.choice(SIZES)
        while sum(counts) < size:
            kind = rng.choice(kinds)
            if counts[kind] < 4:
                counts[kind] += 1
            elif all(counts[k] == 4 for k in kinds):
                kinds.append(rng.randrange(34))
        yield counts


def every_hand_of(kinds: int, offset: int, max_size: int) -> Iterator[Hand]:
    """Every hand within one suit (or the honours) of up to ``max_size`` tiles."""

    def vectors(left: int, room: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        for held in range(min(4, room) + 1):
            for rest in vectors(left - 1, room - held):
                yield (held, *rest)

    for vector in vectors(kinds, max_size):
        if sum(vector) % 3:
            yield [0] * offset + list(vector) + [0] * (34 - offset - kinds)


GENERATORS: list[tuple[Callable[[random.Random, int], Iterator[Hand]], int]] = [
    (random_hands, 60_000),
    (one_suit_hands, 5_000),
    (quad_hands, 10_000),
    (honour_heavy_hands, 10_000),
    (few_kind_hands, 10_000),
]


@pytest.mark.parametrize(("generate", "count"), GENERATORS, ids=[g.__name__ for g, _ in GENERATORS])
def test_no_disagreement_on_generated_hands(generate: Callable[[random.Random, int], Iterator[Hand]],
                                            count: int) -> None:  # fmt: skip
    checked, found = disagreements(generate(random.Random(f"pywall-{generate.__name__}"), count))
    assert checked == count
    assert found == []


@pytest.mark.parametrize(
    ("kinds", "offset", "max_size"),
    [(9, 0, 10), (9, 18, 8), (7, 27, 14)],
    ids=["man<=10", "sou<=8", "honours"],
)
def test_no_disagreement_on_every_single_suit_hand(kinds: int, offset: int, max_size: int) -> None:
    checked, found = disagreements(every_hand_of(kinds, offset, max_size))
    assert checked > 1000
    assert found == []
