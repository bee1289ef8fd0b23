"""pywall.core.tiles: the mpsz text of tiles, its round trips (STYLE: the property every
reader of hands relies on), and its errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pywall.core.errors import ValueInputError
from pywall.core.tiles import (
    KINDS,
    RED_FIVES,
    codes_from_mpsz,
    counts_from_mpsz,
    dora_kind,
    face_from_code,
    kind_text,
    kinds_from_mpsz,
    mpsz_from_counts,
    mpsz_from_ids,
    mpsz_from_kinds,
    tile_text,
)

hands = st.lists(st.integers(0, KINDS - 1), max_size=18).filter(
    lambda ks: all(ks.count(k) <= 4 for k in ks)
)
id_sets = st.sets(st.integers(0, 135), max_size=18)


@given(hands)
def test_kinds_round_trip_through_mpsz(kinds: list[int]) -> None:
    assert kinds_from_mpsz(mpsz_from_kinds(kinds)) == sorted(kinds)


@given(hands)
def test_counts_round_trip_through_mpsz(kinds: list[int]) -> None:
    counts = [kinds.count(k) for k in range(KINDS)]
    assert counts_from_mpsz(mpsz_from_counts(counts)) == counts


@given(id_sets)
def test_ids_to_mpsz_keep_each_tile_and_its_red_five(ids: set[int]) -> None:
    text = mpsz_from_ids(sorted(ids))
    assert sorted(codes_from_mpsz(text)) == sorted(tile_text(t) for t in ids)
    assert sorted(face_from_code(c) // 4 for c in codes_from_mpsz(text)) == sorted(
        t // 4 for t in ids
    )
    assert sum(c.startswith("0") for c in codes_from_mpsz(text)) == len(ids & RED_FIVES)


@given(st.integers(0, KINDS - 1))
def test_kind_text_is_read_back(kind: int) -> None:
    assert kinds_from_mpsz(kind_text(kind)) == [kind]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [("123m", [0, 1, 2]), ("0p", [13]), ("1z7z", [27, 33]), ("19s 5m", [18, 26, 4]), ("", [])],
    ids=["run", "red-five", "honours", "spaces", "empty"],
)
def test_mpsz_examples(text: str, kinds: list[int]) -> None:
    assert kinds_from_mpsz(text) == kinds


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("12x", "unexpected 'x'"),
        ("m", "has no numbers"),
        ("123", "have no suit letter"),
        ("8z", "8z is not a tile"),
        ("１m", "unexpected"),
    ],
    ids=["letter", "no-numbers", "no-suit", "honour-8", "fullwidth-digit"],
)
def test_bad_mpsz_is_a_clear_error(text: str, words: str) -> None:
    with pytest.raises(ValueInputError, match=words):
        kinds_from_mpsz(text)


def test_five_copies_are_refused() -> None:
    with pytest.raises(ValueInputError, match="5 copies of 1m"):
        counts_from_mpsz("11111m")


@pytest.mark.parametrize(
    ("indicator", "players", "dora"),
    [
        ("9m", 4, "1m"),
        ("4z", 4, "1z"),
        ("7z", 4, "5z"),
        ("1m", 3, "9m"),
        ("9m", 3, "1m"),
        ("5p", 4, "6p"),
    ],
    ids=["suit-wraps", "winds-wrap", "dragons-wrap", "sanma-1m", "sanma-9m", "plain"],
)
def test_dora_from_indicator(indicator: str, players: int, dora: str) -> None:
    assert kind_text(dora_kind(kinds_from_mpsz(indicator)[0], players)) == dora


def test_out_of_range_ids_and_kinds() -> None:
    with pytest.raises(ValueInputError):
        tile_text(136)
    with pytest.raises(ValueInputError):
        kind_text(34)
    with pytest.raises(ValueInputError):
        face_from_code("0z")
