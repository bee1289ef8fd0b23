"""pywall.analysis.shanten_distribution: exact shanten counts over every hand dealt from a wall
(136 tiles for 4 players, 108 for 3)."""

from __future__ import annotations

import ast
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb, prod
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pywall.analysis.shanten
from pywall.analysis.shanten import shanten
from pywall.analysis.shanten_distribution import (
    WALL_COPIES,
    distribution,
    distribution_for_copies,
    total_hands,
    wall_copies,
)
from pywall.core.errors import ValueInputError
from pywall.core.tiles import counts_from_mpsz

# docs/shanten.md (tomohxx, mahjong-algorithm-book): all C(136, 14) hands.
FOURTEEN = {
    -1: 12859078207674,
    0: 2966241795738948,
    1: 99154452630748356,
    2: 828714358375292670,
    3: 1867404976243926528,
    4: 1211948980271480832,
    5: 233501763289743360,
    6: 6601397483077632,
}


@pytest.mark.parametrize(
    ("value", "count"), FOURTEEN.items(), ids=[f"shanten{s}" for s in FOURTEEN]
)
def test_fourteen_tile_count(value: int, count: int) -> None:
    assert distribution(14)[value] == count


def test_fourteen_tiles_has_nothing_else_and_its_mean() -> None:
    counts = distribution(14)
    assert counts == FOURTEEN
    mean = Fraction(sum(s * n for s, n in counts.items()), comb(136, 14))
    assert abs(float(mean) - 3.1559378) < 5e-8


@pytest.mark.parametrize("tiles", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
def test_counts_add_up_to_every_hand(tiles: int) -> None:
    counts = distribution(tiles)
    assert sum(counts.values()) == total_hands(tiles) == comb(136, tiles)
    assert list(counts) == sorted(counts) and all(n > 0 for n in counts.values())


def test_thirteen_tiles() -> None:
    counts = distribution(13)
    assert sum(counts.values()) == comb(136, 13)
    assert min(counts) == 0 and max(counts) == 6  # 13 tiles are never complete


def by_enumeration(tiles: int, copies: tuple[int, ...] = (4,) * 34) -> dict[int, int]:
    """Every count vector of ``tiles`` tiles over 34 kinds, weighted by C(copies, c)."""
    counts: dict[int, int] = {}

    def walk(kind: int, left: int, hand: list[int]) -> None:
        if kind == 34:
            if left == 0:
                value = shanten(hand)
                counts[value] = counts.get(value, 0) + prod(map(comb, copies, hand))
            return
        for held in range(min(copies[kind], left) + 1):
            hand[kind] = held
            walk(kind + 1, left - held, hand)
        hand[kind] = 0

    walk(0, tiles, [0] * 34)
    return dict(sorted(counts.items()))


@pytest.mark.parametrize("tiles", [1, 2, 4])
def test_small_hands_match_enumeration(tiles: int) -> None:
    assert distribution(tiles) == by_enumeration(tiles)


@pytest.mark.parametrize("tiles", [0, 3, 12, 15, -1, True, "14"], ids=repr)
def test_rejects_impossible_tile_counts(tiles: object) -> None:
    with pytest.raises(ValueInputError, match="choose one of"):
        distribution(tiles)  # type: ignore[arg-type]


def test_returns_a_fresh_dict() -> None:
    first = distribution(14)
    first[-1] = 0
    assert distribution(14)[-1] == FOURTEEN[-1]


def test_shanten_does_not_import_the_distribution_module() -> None:
    """The distribution builds on pywall.analysis.shanten; the reverse import would be a cycle."""
    tree = ast.parse(Path(pywall.analysis.shanten.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "pywall.analysis.shanten_distribution" not in imported
    assert not hasattr(pywall.analysis.shanten, "distribution")


# --- 3-player walls: 108 tiles, no 2m-8m ------------------------------------------

# Computed by this module; agree with 60,000 random hands per size scored by the
# ``mahjong`` package (every |z| < 2.3), and the method is checked exactly below on
# walls small enough to enumerate.
THREE_PLAYER = {
    13: {
        0: 4248510347840,
        1: 243214957965344,
        2: 2732462102008544,
        3: 8169994696655136,
        4: 7581335897696256,
        5: 1820816976642048,
        6: 40884598996992,
    },
    14: {
        -1: 1321887397648,
        0: 229204302023024,
        1: 5666836324042176,
        2: 35089291127094384,
        3: 61289092707873792,
        4: 33570528047677440,
        5: 3878645818982400,
        6: 13007308455936,
    },
}


def test_three_player_wall_is_108_tiles_without_2m_to_8m() -> None:
    copies = wall_copies(3)
    assert sum(copies) == 108 and copies[1:8] == (0,) * 7
    assert copies[0] == copies[8] == 4 and set(copies[9:]) == {4}
    assert wall_copies(4) == (4,) * 34 and total_hands(14, players=3) == comb(108, 14)


@pytest.mark.parametrize("tiles", [13, 14])
def test_three_player_full_hands(tiles: int) -> None:
    counts = distribution(tiles, players=3)
    assert counts == THREE_PLAYER[tiles]
    assert sum(counts.values()) == comb(108, tiles) == total_hands(tiles, 3)


@pytest.mark.parametrize("tiles", [1, 2, 4, 5, 7, 8, 10, 11])
def test_three_player_counts_add_up(tiles: int) -> None:
    counts = distribution(tiles, players=3)
    assert sum(counts.values()) == comb(108, tiles)
    assert list(counts) == sorted(counts) and all(n > 0 for n in counts.values())


@pytest.mark.parametrize("tiles", [1, 2, 4])
def test_three_player_small_hands_match_enumeration(tiles: int) -> None:
    assert distribution(tiles, players=3) == by_enumeration(tiles, WALL_COPIES[3])


def test_four_players_is_the_default() -> None:
    assert distribution(14, players=4) == distribution(14) == FOURTEEN
    assert distribution(13, 4) == distribution(13) != distribution(13, 3)


@pytest.mark.parametrize("players", [2, 5, 0, True, "3", None], ids=repr)
def test_rejects_other_player_counts(players: object) -> None:
    with pytest.raises(ValueInputError, match="choose 3 or 4"):
        distribution(14, players)  # type: ignore[arg-type]


# --- the same code path on small walls, against every hand dealt from them ---------

SMALL_WALLS = {
    "1m9m-and-pins": ("11119999m1235p77z", (5, 8)),
    "runs": ("1234566789p12399s", (5, 8)),
    "orphans": ("1199m1559p1559s11234567z", (13, 14)),
    "pairs-few-kinds": ("11112233m4455p66s7777z", (13, 14)),
    "3-player-like": ("1199m12345p789s12355z", (13,)),
}
SMALL_CASES = [(wall, tiles) for wall, sizes in SMALL_WALLS.values() for tiles in sizes]
SMALL_IDS = [f"{name}-{tiles}" for name, (_, sizes) in SMALL_WALLS.items() for tiles in sizes]


def by_dealing(wall: str, tiles: int) -> dict[int, int]:
    """Deal every set of ``tiles`` physical tiles from ``wall`` and score each hand."""
    copies = counts_from_mpsz(wall)
    physical = [kind for kind, n in enumerate(copies) for _ in range(n)]
    hands = Counter(combinations(physical, tiles))  # a hand = its sorted kinds
    counts: dict[int, int] = {}
    for kinds, ways in hands.items():
        hand = [0] * 34
        for kind in kinds:
            hand[kind] += 1
        value = shanten(hand)
        counts[value] = counts.get(value, 0) + ways
    return dict(sorted(counts.items()))


@pytest.mark.parametrize(("wall", "tiles"), SMALL_CASES, ids=SMALL_IDS)
def test_small_wall_matches_dealing_every_hand(wall: str, tiles: int) -> None:
    exact = distribution_for_copies(tiles, counts_from_mpsz(wall))
    assert exact == by_dealing(wall, tiles)
    assert sum(exact.values()) == comb(sum(counts_from_mpsz(wall)), tiles)


def test_small_walls_reach_every_form() -> None:
    """The full-hand walls hold complete thirteen orphans and seven pairs hands."""
    assert by_dealing("1199m1559p1559s11234567z", 14)[-1] > 0
    assert distribution_for_copies(14, counts_from_mpsz("11112233m4455p66s7777z"))[-1] > 0
    assert shanten(counts_from_mpsz("119m19p19s1234567z")) == -1


@pytest.mark.parametrize(
    "copies",
    [(4,) * 33, (5,) + (4,) * 33, (-1,) + (4,) * 33, (4.0,) * 34, (1,) * 10 + (0,) * 24],
    ids=["33-kinds", "five-copies", "negative", "floats", "10-tiles"],
)
def test_rejects_impossible_walls(copies: tuple[int, ...]) -> None:
    with pytest.raises(ValueInputError):
        distribution_for_copies(14, copies)


# --- random 3-player hands ---------------------------------------------------------

THREE_PLAYER_TILES = [t for t in range(136) if WALL_COPIES[3][t // 4] > t % 4]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([13, 14]), st.randoms(use_true_random=False))
def test_random_three_player_hand_is_possible(tiles: int, rng: random.Random) -> None:
    dealt = rng.sample(THREE_PLAYER_TILES, tiles)
    hand = [0] * 34
    for tile in dealt:
        hand[tile // 4] += 1
    assert len(THREE_PLAYER_TILES) == 108 and not any(hand[1:8])  # no 2m-8m
    assert distribution(tiles, players=3).get(shanten(hand), 0) > 0


@pytest.mark.parametrize("key", [(13, 4), (14, 4), (13, 3), (14, 3)], ids=str)
def test_the_written_out_dealt_distributions_are_what_the_computation_gives(
    key: tuple[int, int],
) -> None:
    """``distribution`` answers 13- and 14-tile hands from a table (``_DEALT``), so the
    audit does not compute them at every start: the computation, run here, agrees."""
    from pywall.analysis.shanten_distribution import _DEALT, _distribution

    tiles, players = key
    assert _distribution(tiles, wall_copies(players)) == _DEALT[key]
    assert distribution(tiles, players) == dict(_DEALT[key])
