from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pywall.checks.mt19937 import MT19937, random_from_key, random_from_key_bytes, state_from_key

# mt19937ar.out (Matsumoto & Nishimura): init_by_array({0x123, 0x234, 0x345, 0x456}, 4)
REFERENCE_KEY = (0x123, 0x234, 0x345, 0x456)
REFERENCE_FIRST = (
    1067595299,
    955945823,
    477289528,
    4107218783,
    4228976476,
    3344332714,
    3355579695,
    227628506,
    810200273,
    2591290167,
)
REFERENCE_OUTPUT_1000 = 3460025646  # the last of the 1000 outputs in mt19937ar.out


def test_pure_port_matches_reference_outputs() -> None:
    g = MT19937(REFERENCE_KEY)
    assert tuple(g.genrand_int32() for _ in range(10)) == REFERENCE_FIRST


def test_pure_port_reference_output_1000() -> None:
    g = MT19937(REFERENCE_KEY)
    outputs = [g.genrand_int32() for _ in range(1000)]
    assert outputs[-1] == REFERENCE_OUTPUT_1000


def test_fast_path_matches_reference_outputs() -> None:
    r = random_from_key(REFERENCE_KEY)
    assert tuple(r.getrandbits(32) for _ in range(10)) == REFERENCE_FIRST


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=700))
def test_fast_path_equals_pure_port(key: list[int]) -> None:
    pure = MT19937(key)
    fast = random_from_key(key)
    assert [pure.genrand_int32() for _ in range(700)] == [fast.getrandbits(32) for _ in range(700)]


@pytest.mark.parametrize(
    "key", [[7, 0], [0], [1, 2, 3, 0, 0]], ids=["last0", "zero", "two-trailing0"]
)
def test_fast_path_handles_trailing_zero_words(key: list[int]) -> None:
    # Random(int) would drop the zero words; the fast path must not.
    pure = MT19937(key)
    fast = random_from_key(key)
    assert [pure.genrand_int32() for _ in range(50)] == [fast.getrandbits(32) for _ in range(50)]


def test_state_from_key_rejects_empty_key() -> None:
    with pytest.raises(ValueError):
        state_from_key([])


def test_random_from_key_rejects_wide_words() -> None:
    with pytest.raises(ValueError):
        random_from_key([2**32])


@pytest.mark.parametrize("key", [[5, 6, 7], [9, 0]], ids=["fast", "last0"])
def test_key_bytes_are_little_endian_words(key: list[int]) -> None:
    raw = b"".join(w.to_bytes(4, "little") for w in key)
    pure = MT19937(key)
    fast = random_from_key_bytes(raw)
    assert [pure.genrand_int32() for _ in range(20)] == [fast.getrandbits(32) for _ in range(20)]


@pytest.mark.parametrize("raw", [b"", b"\x01\x02\x03"], ids=["empty", "partial-word"])
def test_key_bytes_must_be_whole_words(raw: bytes) -> None:
    with pytest.raises(ValueError):
        random_from_key_bytes(raw)
