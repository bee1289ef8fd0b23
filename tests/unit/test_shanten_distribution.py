"""pywall.shanten_distribution: exact shanten counts over every hand dealt from 136 tiles."""

from __future__ import annotations

import ast
from fractions import Fraction
from math import comb, prod
from pathlib import Path

import pytest

import pywall.shanten
from pywall.errors import ValueInputError
from pywall.shanten import shanten
from pywall.shanten_distribution import distribution, total_hands

# shared/FACTS.md, "Shanten" (tomohxx, mahjong-algorithm-book): all C(136, 14) hands.
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


def by_enumeration(tiles: int) -> dict[int, int]:
    """Every count vector of ``tiles`` tiles over 34 kinds, weighted by C(4, c)."""
    counts: dict[int, int] = {}

    def walk(kind: int, left: int, hand: list[int]) -> None:
        if kind == 34:
            if left == 0:
                value = shanten(hand)
                counts[value] = counts.get(value, 0) + prod(comb(4, c) for c in hand)
            return
        for held in range(min(4, left) + 1):
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
    """The distribution builds on pywall.shanten; the reverse import would be a cycle."""
    tree = ast.parse(Path(pywall.shanten.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "pywall.shanten_distribution" not in imported
    assert not hasattr(pywall.shanten, "distribution")
