"""SEGA MJ arcade walls: the spec is seeds/002 and the 40 vectors in tests/data."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks.sega import (
    SEED_ALPHABET,
    DiscardEvent,
    break_from_dice,
    discard_numbers,
    key_from_player_seeds,
    sega_wall,
    tenhou_id_from_sega,
    text_from_sega,
    tile_value,
    uncertainty_for_next_round,
    wall_from_key,
    words_from_player_seed,
)
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.tiles import kinds_from_mpsz

VECTORS = json.loads(
    (Path(__file__).parent.parent / "data/vectors/sega-mj/vectors.json").read_text("utf-8")
)
SEEDS = tuple(VECTORS[0]["player_seeds"])


def _kind(mpsz: str) -> int:
    return kinds_from_mpsz(mpsz)[0]


@pytest.mark.parametrize(
    "case", VECTORS, ids=[f"case{i:02d}-u{c['uncertainty']}" for i, c in enumerate(VECTORS)]
)
def test_vector_wall_and_dice(case: dict[str, Any]) -> None:
    result = sega_wall(case["player_seeds"], case["uncertainty"])
    assert list(result.wall) == case["wall"]
    assert [d - 1 for d in result.dice] == case["dice"]  # vectors are 0-based


def test_vector_count() -> None:
    assert len(VECTORS) == 40


def test_dice_are_faces() -> None:
    assert sega_wall(SEEDS, 1028).dice == (6, 5)


def test_seed_order_does_not_matter() -> None:
    walls = {sega_wall(p, 7).wall for p in permutations(SEEDS)}
    assert len(walls) == 1


def test_uncertainty_changes_the_wall() -> None:
    assert sega_wall(SEEDS, 1028).wall != sega_wall(SEEDS, 1029).wall


# --- seeds -> words -> key ------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "words"),
    [
        ("0" * 27, (0, 0, 0, 0, 0)),
        ("_" * 27, (0xFFFFFFFF,) * 5),
        ("1" + "0" * 26, (0x04000000, 0, 0, 0, 0)),
        ("0" * 26 + "3", (0, 0, 0, 0, 0)),  # the last 2 of 162 bits are dropped
        ("0" * 26 + "4", (0, 0, 0, 0, 1)),
        (
            "0" * 5 + "w" + "0" * 21,
            (0b10, 0, 0, 0, 0),
        ),  # "w" = 32 = 0b100000 straddles words 0 and 1
    ],
    ids=["zeros", "ones", "first-char", "dropped-bits", "last-kept-bit", "word-boundary"],
)
def test_words_from_player_seed(seed: str, words: tuple[int, ...]) -> None:
    assert words_from_player_seed(seed) == words


def test_key_is_sorted_interleaved_and_xored() -> None:
    seeds = ["0" * 26 + "4", "0" * 27, "_" * 27, "1" + "0" * 26]
    key = key_from_player_seeds(seeds, 0)
    # sorted: zeros, last-bit, first-char, ones; word j of player i at j*4+i
    assert key[:4] == (0, 0, 0x04000000, 0xFFFFFFFF)
    assert key[16:] == (0, 1, 0, 0xFFFFFFFF)
    xored = key_from_player_seeds(seeds, 5)
    assert xored == tuple(w ^ 5 for w in key)


def test_wall_from_key_matches_sega_wall() -> None:
    wall, dice = wall_from_key(key_from_player_seeds(SEEDS, 1028))
    assert wall == sega_wall(SEEDS, 1028).wall
    assert dice == (5, 4)


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ((SEEDS[0][:-1],) + SEEDS[1:], "player seed 1 has 26 characters"),
        (SEEDS[:3] + (SEEDS[3] + "A",), "player seed 4 has 28 characters"),
        (
            (SEEDS[0],) + ("52eAi8KYYuMQ!hLShJ8LS-nbCgU",) + SEEDS[2:],
            "player seed 2: character 13 is '!'",
        ),
        (
            SEEDS[:2] + ("RuK6qqBuCl1s5cdsyXnVGuFg9N.",) + SEEDS[3:],
            "player seed 3: character 27 is '.'",
        ),
        (SEEDS[:3], "needs 4 player seeds, got 3"),
        (SEEDS[0], "needs 4 player seeds, got 1"),
    ],
    ids=["short", "long", "bad-char", "bad-last-char", "three-seeds", "one-string"],
)
def test_bad_seeds_are_named(seeds: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueInputError, match=message.replace("(", r"\(").replace(".", r"\.")):
        sega_wall(seeds, 1)


@pytest.mark.parametrize("value", [-1, 2**32, True, 1.5], ids=["neg", "33bit", "bool", "float"])
def test_bad_uncertainty(value: object) -> None:
    with pytest.raises(ValueInputError):
        sega_wall(SEEDS, value)  # type: ignore[arg-type]


def test_uncertainty_32_bit_limits() -> None:
    assert len(sega_wall(SEEDS, 0).wall) == 136
    assert len(sega_wall(SEEDS, 2**32 - 1).wall) == 136


# --- tile numbering -----------------------------------------------------------


@pytest.mark.parametrize(
    ("sega", "tenhou", "text"),
    [
        (0, 0, "1m"),
        (35, 35, "9m"),
        (36, 72, "1s"),
        (71, 107, "9s"),
        (72, 36, "1p"),
        (107, 71, "9p"),
        (108, 108, "1z"),
        (135, 135, "7z"),
        (53, 89, "5s"),
        (89, 53, "5p"),
    ],
    ids=["1m", "9m", "1s", "9s", "1p", "9p", "east", "chun", "5s-copy1", "5p-copy1"],
)
def test_sega_numbering(sega: int, tenhou: int, text: str) -> None:
    assert tenhou_id_from_sega(sega) == tenhou
    assert text_from_sega(sega) == text


def test_conversion_is_a_bijection() -> None:
    assert sorted(tenhou_id_from_sega(t) for t in range(136)) == list(range(136))


def test_vector_wall_has_every_tile_once() -> None:
    result = sega_wall(SEEDS, 1028)
    assert sorted(result.tenhou_ids) == list(range(136))
    assert result.texts[0] == text_from_sega(35) == "9m"


@pytest.mark.parametrize(
    ("dice", "total", "wall"),
    [
        ((1, 1), 2, "right"),
        ((2, 3), 5, "own"),
        ((3, 4), 7, "opposite"),
        ((6, 6), 12, "left"),
        ((4, 5), 9, "own"),
    ],
    ids=["2", "5", "7", "12", "9"],
)
def test_break_from_dice(dice: tuple[int, int], total: int, wall: str) -> None:
    got_total, text = break_from_dice(dice)
    assert got_total == total
    assert wall in text


def test_break_from_bad_dice() -> None:
    with pytest.raises(ValueInputError):
        break_from_dice((0, 7))


# --- uncertainty value (seeds/002, "不確定要素") -----------------------------------


@pytest.mark.parametrize(
    ("mpsz", "value"),
    [
        ("1m", 1),
        ("9m", 9),
        ("5p", 5),
        ("0s", 5),
        ("7s", 7),
        ("1z", 1),
        ("4z", 4),
        ("5z", 5),
        ("6z", 6),
        ("7z", 7),
    ],
    ids=["1m", "9m", "5p", "red5s", "7s", "east", "north", "haku", "hatsu", "chun"],
)
def test_tile_value(mpsz: str, value: int) -> None:
    assert tile_value(_kind(mpsz)) == value


def test_example_1_third_discard_chun_adds_21() -> None:
    """seeds/002 例1: the 3rd discard is 中 -> 3 * 7 = 21 (plus 1 for the deal)."""
    discards = [
        DiscardEvent(0, _kind("1m")),
        DiscardEvent(0, _kind("2m")),
        DiscardEvent(0, _kind("7z")),
    ]
    assert discard_numbers(discards) == [1, 2, 3]
    assert uncertainty_for_next_round(0, discards) == 1 + 1 * 1 + 2 * 2 + 3 * 7


def test_example_2_called_discard_number_is_reused() -> None:
    """seeds/002 例2: when that 中 is ponned, the next discard (2p) is also the 3rd: +6."""
    discards = [
        DiscardEvent(0, _kind("1m")),
        DiscardEvent(0, _kind("2m")),
        DiscardEvent(0, _kind("7z"), called=True),
        DiscardEvent(0, _kind("2p")),
    ]
    assert discard_numbers(discards) == [1, 2, 3, 3]
    assert uncertainty_for_next_round(100, discards) == 100 + 1 + 1 + 4 + 21 + 6


def test_discard_numbers_per_seat_or_whole_table() -> None:
    discards = [DiscardEvent(s, _kind("1z")) for s in (0, 1, 2, 3, 0, 1)]
    assert discard_numbers(discards) == [1, 1, 1, 1, 2, 2]
    assert discard_numbers(discards, per_seat=False) == [1, 2, 3, 4, 5, 6]
    called = [DiscardEvent(0, 0), DiscardEvent(1, 0, called=True), DiscardEvent(2, 0)]
    assert discard_numbers(called, per_seat=False) == [1, 2, 2]


def test_round_without_discards_still_moves_by_one() -> None:
    assert uncertainty_for_next_round(593, []) == 594


def test_bad_uncertainty_helper_inputs() -> None:
    with pytest.raises(ValueInputError):
        uncertainty_for_next_round(-1, [])
    with pytest.raises(ValueInputError):
        uncertainty_for_next_round(0, [DiscardEvent(0, 34)])


# --- properties -----------------------------------------------------------------

seed_text = st.text(alphabet=SEED_ALPHABET, min_size=27, max_size=27)


@given(st.lists(seed_text, min_size=4, max_size=4), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_wall_is_a_permutation(seeds: list[str], value: int) -> None:
    result = sega_wall(seeds, value)
    assert sorted(result.wall) == list(range(136))
    assert all(1 <= d <= 6 for d in result.dice)


@given(st.text(max_size=40))
def test_seed_parser_raises_only_pywall_errors(text: str) -> None:
    try:
        words = words_from_player_seed(text)
    except PywallError:
        return
    assert len(words) == 5 and all(0 <= w < 2**32 for w in words)
