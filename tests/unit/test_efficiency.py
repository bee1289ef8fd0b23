"""pywall.analysis.efficiency: effective tiles (13) and Tenhou 牌理-style discard tables (14)."""

from __future__ import annotations

import random
import re

import pytest

from pywall.analysis.efficiency import (
    DiscardOption,
    EffectiveTiles,
    TileCount,
    cached_shanten,
    discard_table,
    effective_tiles,
)
from pywall.analysis.shanten import shanten
from pywall.core.errors import ValueInputError
from pywall.core.tiles import counts_from_mpsz, kinds_from_mpsz, mpsz_from_kinds

# hand (3k+1 tiles), shanten, advancing kinds, total remaining
EFFECTIVE = [
    ("123m456p789s1122z", 0, "12z", 4),
    ("1112345678999m", 0, "123456789m", 23),
    ("1122334455667m", 0, "147m", 7),
    ("19m19p19s1234567z", 0, "19m19p19s1234567z", 39),
    ("123m456p789s1111z", 1, "123456789m123456789p123456789s234567z", 123),
    ("1111m123p456p789p", 1, "23456789m123456789p123456789s1234567z", 123),
    ("1m", 0, "1m", 3),
    ("1111m", 1, "23456789m123456789p123456789s1234567z", 132),
    ("5m", 0, "5m", 3),
]
# hand (3k+2 tiles), shanten, [(discard, advancing kinds, total)] in table order
TABLES = [
    (
        "12389m45p6799s135z",
        2,
        [("1z", "7m36p58s", 20), ("3z", "7m36p58s", 20), ("5z", "7m36p58s", 20)],
    ),
    ("123m456p789s11223z", 0, [("3z", "12z", 4)]),
    (
        "1112345678999m1z",
        0,
        [("1z", "123456789m", 23), ("2m", "1z", 3), ("5m", "1z", 3), ("8m", "1z", 3)],
    ),
    ("1111m123p456p789p5z", 0, [("1m", "5z", 3)]),
    ("11m", -1, [("1m", "1m", 2)]),
    ("1m2z", 0, [("1m", "2z", 3), ("2z", "1m", 3)]),
]


@pytest.mark.parametrize(
    ("hand", "value", "kinds", "total"), EFFECTIVE, ids=[e[0] for e in EFFECTIVE]
)
def test_effective_tiles(hand: str, value: int, kinds: str, total: int) -> None:
    result = effective_tiles(counts_from_mpsz(hand))
    assert (result.shanten, mpsz_from_kinds(result.kinds), result.total) == (value, kinds, total)
    held = counts_from_mpsz(hand)
    assert all(t.remaining == 4 - held[t.kind] for t in result.tiles)


@pytest.mark.parametrize(("hand", "value", "rows"), TABLES, ids=[t[0] for t in TABLES])
def test_discard_table(hand: str, value: int, rows: list[tuple[str, str, int]]) -> None:
    table = discard_table(counts_from_mpsz(hand))
    assert table.shanten == value
    got = [(mpsz_from_kinds([o.discard]), mpsz_from_kinds(list(o.effective.kinds)), o.effective.total)
           for o in table.options]  # fmt: skip
    assert got == rows


def test_complete_hand_lists_every_tenpai_discard_sorted() -> None:
    table = discard_table(counts_from_mpsz("123m456p789s11222z"))
    assert table.shanten == -1
    totals = [o.effective.total for o in table.options]
    assert totals == sorted(totals, reverse=True) and totals[0] == 7
    first = table.options[0]
    assert first == DiscardOption(0, EffectiveTiles(0, (TileCount(0, 3), TileCount(3, 4)), 7))
    two_z = next(o for o in table.options if o.discard == 28)
    # the discarded 2z lies in the pond: 4 - 3 held = 1 left
    assert two_z.effective.tiles == (TileCount(27, 2), TileCount(28, 1))


def test_visible_tiles_lower_what_remains() -> None:
    visible = [0] * 34
    visible[27], visible[28] = 1, 2
    result = effective_tiles(counts_from_mpsz("123m456p789s1122z"), visible)
    assert result.tiles == (TileCount(27, 1), TileCount(28, 0)) and result.total == 1
    table = discard_table(counts_from_mpsz("123m456p789s11223z"), visible)
    assert table.options[0].effective.total == 1


@pytest.mark.parametrize(
    ("function", "hand", "message"),
    [
        (effective_tiles, "123m456p789s11223z", "3k+1"),
        (discard_table, "123m456p789s1122z", "3k+2"),
        (effective_tiles, "123m456p789s111z", "3k+1 or 3k+2"),
    ],
    ids=["14-to-effective", "13-to-table", "12-tiles"],
)
def test_wrong_tile_count(function: object, hand: str, message: str) -> None:
    with pytest.raises(ValueInputError, match=re.escape(message)):
        function(counts_from_mpsz(hand))  # type: ignore[operator]


@pytest.mark.parametrize(
    "visible", [[0] * 33, [4] + [0] * 33, [-1] + [0] * 33], ids=["short", "fifth", "negative"]
)
def test_bad_visible_tiles(visible: list[int]) -> None:
    with pytest.raises(ValueInputError):
        effective_tiles(counts_from_mpsz("123m456p789s1122z"), visible)


def test_effective_kinds_are_exactly_those_that_lower_shanten() -> None:
    rng = random.Random(11)
    for _ in range(200):
        counts = [0] * 34
        for tile in rng.sample(range(136), 13):
            counts[tile // 4] += 1
        result = effective_tiles(counts)
        base = shanten(counts)
        lowering = [k for k in range(34) if counts[k] < 4
                    and shanten(counts[:k] + [counts[k] + 1] + counts[k + 1:]) < base]  # fmt: skip
        assert result.shanten == base and list(result.kinds) == lowering


def test_to_dict_uses_tile_text() -> None:
    table = discard_table(counts_from_mpsz("123m456p789s11223z")).to_dict()
    assert table == {
        "shanten": 0,
        "discards": [{"discard": "3z", "shanten": 0, "tiles": "12z",
                      "remaining": {"1z": 2, "2z": 2}, "total": 4}],
    }  # fmt: skip
    assert kinds_from_mpsz("12z") == [27, 28]


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
def test_cached_shanten_is_shanten(size: int) -> None:
    """The starting hands' shanten through the suit caches: the same as ``shanten`` for
    every size, seven pairs and thirteen orphans included."""
    rng = random.Random(size)
    special = ["19m19p19s1234567z", "19m19p19s1234567z1m", "1122334455667m", "11223344556677m"]
    hands = [counts_from_mpsz(h) for h in special if len(kinds_from_mpsz(h)) == size]
    for _ in range(3000):
        counts = [0] * 34
        for tile in rng.sample(range(136), size):
            counts[tile // 4] += 1
        hands.append(counts)
    for counts in hands:
        assert cached_shanten(counts) == shanten(counts)


@pytest.mark.parametrize("hand", ["123m456p789s111z", "11111m", "1m2p3s"])
def test_cached_shanten_checks_counts_as_shanten_does(hand: str) -> None:
    counts = counts_from_mpsz(hand) if hand != "11111m" else [5] + [0] * 33
    with pytest.raises(ValueInputError) as expected:
        shanten(counts)
    with pytest.raises(ValueInputError) as got:
        cached_shanten(counts)
    assert str(got.value) == str(expected.value)
