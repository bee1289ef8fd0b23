"""pywall.analysis.shanten: exact shanten per form, for 1-14 tiles, including 5th-tile hands."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.analysis.shanten import (
    FormShanten,
    chiitoi_shanten,
    kokushi_shanten,
    regular_shanten,
    shanten,
    shanten_by_form,
)
from pywall.core.errors import ValueInputError
from pywall.core.tiles import counts_from_mpsz, mpsz_from_counts

# hand, regular, seven pairs, thirteen orphans (None: not a 13/14-tile hand), minimum
FORMS = [
    ("123m456p789s1122z", 0, 4, 8, 0),
    ("123m456p789s11223z", 0, 4, 7, 0),
    ("123m456p789s11222z", -1, 4, 8, -1),
    ("123m456p789s1111z", 1, 5, 9, 1),
    ("1111m123p456p789p", 1, 5, 9, 1),
    ("1112345678999m", 0, 4, 10, 0),
    ("11123456789999m", -1, 4, 10, -1),
    ("19m19p19s1234567z", 8, 6, 0, 0),
    ("119m19p19s1234567z", 7, 5, -1, -1),
    ("1122334455667m", 0, 0, 11, 0),
    ("11223344556677z", 3, -1, 5, -1),
    ("11223344556666z", 2, 1, 6, 1),
    ("1111222233334m", 0, 6, 11, 0),
    ("11112222333344m", -1, 5, 11, -1),
    ("147m258p369s1234z", 8, 6, 7, 6),
    ("147m258p369s12345z", 8, 6, 6, 6),
    ("159m159p159s1357z", 8, 6, 3, 3),
]
SMALL = [
    ("1m", 0),
    ("1z", 0),
    ("11m", -1),
    ("12m", 0),
    ("19m", 0),
    ("1111m", 1),
    ("1111z", 1),
    ("1112m", 0),
    ("11122m", -1),
    ("11112m", 0),
    ("1111z2222z", 1),
    ("1111z2222z33z", 2),
    ("1111222233m", 0),
    ("11112222333m", -1),
    ("147m258p36s", 4),
    ("159m159p15s", 4),
]
INVALID: list[tuple[list[Any], str]] = [
    ([0] * 33, "34 per-kind counts"),
    ([5] + [0] * 33, "0-4 copies"),
    ([-1, 2] + [0] * 32, "0-4 copies"),
    ([4, 4, 4, 3] + [0] * 30, "at most 14"),
    ([3] + [0] * 33, "3k+1 or 3k+2"),
    ([0] * 34, "3k+1 or 3k+2"),
    ([4, 4, 4] + [0] * 31, "3k+1 or 3k+2"),
    ([1.0] + [0] * 33, "whole numbers"),
]


@pytest.mark.parametrize(
    ("hand", "regular", "chiitoi", "kokushi", "minimum"), FORMS, ids=[f[0] for f in FORMS]
)
def test_forms(hand: str, regular: int, chiitoi: int, kokushi: int, minimum: int) -> None:
    counts = counts_from_mpsz(hand)
    assert shanten_by_form(counts) == FormShanten(regular, chiitoi, kokushi, minimum)
    assert regular_shanten(counts) == regular
    assert chiitoi_shanten(counts) == chiitoi
    assert kokushi_shanten(counts) == kokushi
    assert shanten(counts) == minimum


@pytest.mark.parametrize(("hand", "expected"), SMALL, ids=[s[0] for s in SMALL])
def test_hands_after_calls(hand: str, expected: int) -> None:
    counts = counts_from_mpsz(hand)
    assert shanten(counts) == regular_shanten(counts) == expected
    assert shanten_by_form(counts) == FormShanten(expected, None, None, expected)


@pytest.mark.parametrize(
    ("counts", "message"), INVALID, ids=[f"{m}-{len(c)}-{sum(c)}" for c, m in INVALID]
)
def test_invalid_counts(counts: list[Any], message: str) -> None:
    for function in (shanten, regular_shanten, shanten_by_form):
        with pytest.raises(ValueInputError, match=re.escape(message)):
            function(counts)


@pytest.mark.parametrize("function", [chiitoi_shanten, kokushi_shanten])
def test_special_forms_need_13_or_14_tiles(function: object) -> None:
    with pytest.raises(ValueInputError, match="13- or 14-tile"):
        function(counts_from_mpsz("1122334455m"))  # type: ignore[operator]


def test_accepts_tuples_and_leaves_input_alone() -> None:
    counts = counts_from_mpsz("123m456p789s1111z")
    before = list(counts)
    assert shanten(tuple(counts)) == shanten(counts) == 1
    assert counts == before


# --- a brute-force reference straight from the definition ------------------------


@cache
def holds_complete(hand: tuple[int, ...], melds: int, pair: int) -> bool:
    """Whether some sub-multiset of ``hand`` is ``melds`` melds and ``pair`` pairs."""
    if melds == 0 and pair == 0:
        return True
    first = next((k for k, c in enumerate(hand) if c), None)
    if first is None:
        return False
    rest = list(hand)
    rest[first] -= 1
    if holds_complete(tuple(rest), melds, pair):  # leave one copy out
        return True
    options = []
    if melds and hand[first] >= 3:
        options.append(({first: 3}, melds - 1, pair))
    if pair and hand[first] >= 2:
        options.append(({first: 2}, melds, pair - 1))
    if melds and first < 27 and first % 9 <= 6 and hand[first + 1] and hand[first + 2]:
        options.append(({first: 1, first + 1: 1, first + 2: 1}, melds - 1, pair))
    for used, m, p in options:
        left = list(hand)
        for kind, n in used.items():
            left[kind] -= n
        if holds_complete(tuple(left), m, p):
            return True
    return False


def brute_regular(counts: list[int]) -> int:
    """Fewest added tiles (a kind never beyond 4) for a sub-hand of k melds and a pair."""
    melds = sum(counts) // 3
    frontier = {tuple(counts)}
    for added in range(5):
        if any(holds_complete(h, melds, 1) for h in frontier):
            return added - 1
        frontier = {
            h[:k] + (h[k] + 1,) + h[k + 1 :] for h in frontier for k in range(34) if h[k] < 4
        }
    raise AssertionError("no test hand here is worse than 3-shanten")


def near_hands(count: int, seed: int) -> list[list[int]]:
    """Hands close to complete (often with quads), where brute force stays cheap."""
    rng = random.Random(seed)
    hands: list[list[int]] = []
    while len(hands) < count:
        kinds = rng.sample(range(34), rng.randint(2, 5))
        size = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
        counts = [0] * 34
        while sum(counts) < size:
            kind = rng.choice(kinds) if rng.random() < 0.8 else rng.randrange(34)
            if counts[kind] < 4:
                counts[kind] += 1
        if regular_shanten(counts) <= 2:
            hands.append(counts)
    return hands


@pytest.mark.parametrize("seed", range(4), ids=lambda s: f"seed{s}")
def test_regular_matches_brute_force(seed: int) -> None:
    for counts in near_hands(60, seed):
        assert regular_shanten(counts) == brute_regular(counts), mpsz_from_counts(counts)


@pytest.mark.parametrize(("hand", "_r", "_c", "_k", "_m"), FORMS[:7], ids=[f[0] for f in FORMS[:7]])
def test_table_regular_matches_brute_force(hand: str, _r: int, _c: int, _k: int, _m: int) -> None:
    counts = counts_from_mpsz(hand)
    assert regular_shanten(counts) == brute_regular(counts)


# --- properties ------------------------------------------------------------------


@st.composite
def draw_and_tile(draw: st.DrawFn) -> tuple[list[int], int]:
    """A 3k+1-tile hand (as dealt from 136 tiles) and one more tile from the rest."""
    size = draw(st.sampled_from([1, 4, 7, 10, 13]))
    tiles = draw(st.lists(st.integers(0, 135), min_size=size + 1, max_size=size + 1, unique=True))
    counts = [0] * 34
    for tile in tiles[:size]:
        counts[tile // 4] += 1
    return counts, tiles[size] // 4


@settings(max_examples=400, deadline=None)
@given(draw_and_tile())
def test_one_tile_moves_shanten_by_at_most_one(case: tuple[list[int], int]) -> None:
    counts, kind = case
    before = shanten(counts)
    counts[kind] += 1
    assert before - shanten(counts) in (0, 1)


@settings(max_examples=200, deadline=None)
@given(draw_and_tile())
def test_discarding_moves_shanten_by_at_most_one(case: tuple[list[int], int]) -> None:
    counts, kind = case
    counts[kind] += 1
    full = shanten(counts)
    after = [
        shanten(counts[:k] + [counts[k] - 1] + counts[k + 1 :]) for k in range(34) if counts[k]
    ]
    assert all(value - full in (0, 1) for value in after)
    assert min(after) == max(full, 0)
