"""tests.helpers.first_difference: JSON values compared exactly, floats to the last bit."""

from __future__ import annotations

from tests.helpers import first_difference


def test_equal_values_have_no_difference() -> None:
    value = {"a": [1, 0.1, {"p": 1e-300}], "b": "x", "c": None}
    assert first_difference(value, {"a": [1, 0.1, {"p": 1e-300}], "b": "x", "c": None}) is None


def test_floats_differ_in_the_last_bit() -> None:
    a, b = {"p": [0.3]}, {"p": [0.1 + 0.2]}  # 0.3 and 0.30000000000000004: one unit apart
    assert first_difference(a, b) == (
        ".p[0]: 0.3 against 0.30000000000000004 (0x1.3333333333333p-2 against 0x1.3333333333334p-2)"
    )
    assert first_difference(0.0, -0.0) is not None


def test_keys_lengths_and_types() -> None:
    assert first_difference({"a": 1}, {"b": 1}) == ": keys ['a', 'b']"
    assert first_difference([1, 2], [1]) == ": 2 items against 1"
    assert first_difference({"n": 1}, {"n": 1.0}) == ".n: 1 against 1.0"
