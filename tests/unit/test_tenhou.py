"""Tenhou walls: every published intermediate value of the validation game is its own test."""

from __future__ import annotations

import hashlib
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks import tenhou
from pywall.core.errors import SeedError
from pywall.core.tiles import SANMA_IDS
from tests.helpers import rust_literal, vector_seed


@pytest.fixture(scope="module")
def seed() -> str:
    return vector_seed()


@pytest.fixture(scope="module")
def src(seed: str) -> bytes:
    return tenhou.src_from_mt(tenhou.mt_from_key(tenhou.key_from_seed(seed)))


def test_key_words(seed: str) -> None:
    assert list(tenhou.key_from_seed(seed)) == rust_literal(".seed_u32")


def test_key_words_with_prefix(seed: str) -> None:
    assert tenhou.key_from_seed(tenhou.PREFIX + seed) == tenhou.key_from_seed(seed)


def test_src_words(src: bytes) -> None:
    assert list(struct.unpack("<288I", src)) == rust_literal(".src_u32")


def test_rnd_words(src: bytes) -> None:
    assert list(tenhou.rnd_from_src(src)) == rust_literal(".rnd_u32")


def test_wall(seed: str) -> None:
    assert list(tenhou.walls(seed, 1)[0].tiles) == rust_literal(".wall136")


def test_wall_head_as_published(seed: str) -> None:
    assert tenhou.walls(seed, 1)[0].tiles[:6] == (22, 91, 36, 115, 56, 19)


def test_dice(seed: str) -> None:
    # 0-based (5, 1) in the published values: faces 6 and 2
    assert tenhou.walls(seed, 1)[0].dice == (6, 2)


def test_walls_continue_one_generator(seed: str) -> None:
    two = tenhou.walls(seed, 2)
    assert two[0] == tenhou.walls(seed, 1)[0]
    assert two[1].tiles != two[0].tiles


def test_pure_port_gives_the_same_src(seed: str, src: bytes) -> None:
    from pywall.checks.mt19937 import MT19937

    g = MT19937(tenhou.key_from_seed(seed))
    assert struct.pack("<288I", *(g.genrand_int32() for _ in range(288))) == src


@pytest.mark.parametrize("players,size", [(4, 136), (3, 108)], ids=["4p", "3p"])
def test_wall_is_a_permutation_of_the_set(seed: str, players: int, size: int) -> None:
    for wall in tenhou.walls(seed, 5, players):
        assert len(wall.tiles) == size
        assert sorted(wall.tiles) == (list(range(136)) if players == 4 else list(SANMA_IDS))


@settings(max_examples=200)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=144, max_size=144), st.sampled_from([3, 4]))
def test_shuffle_is_a_permutation(rnd: list[int], players: int) -> None:
    wall = tenhou.wall_from_rnd(rnd, players)
    assert sorted(wall) == (sorted(SANMA_IDS) if players == 3 else list(range(136)))


@settings(max_examples=300)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=144, max_size=144), st.sampled_from([3, 4]))
def test_straight_line_shuffle_equals_the_loop(rnd: list[int], players: int) -> None:
    yama = list(SANMA_IDS if players == 3 else range(136))
    tenhou.shuffle_by_loop(yama, rnd)
    assert tenhou.wall_from_rnd(rnd, players) == tuple(yama)


def test_rnd_words_are_read_little_endian() -> None:
    src = bytes(range(256)) * 4 + bytes(128)
    digests = b"".join(hashlib.sha512(src[i : i + 128]).digest() for i in range(0, 1152, 128))
    assert list(tenhou.rnd_from_src(src)) == list(struct.unpack("<144I", digests))


@settings(max_examples=300)
@given(st.binary(min_size=576, max_size=576), st.sampled_from([3, 4]))
def test_wall_from_digests_equals_the_loop(digests: bytes, players: int) -> None:
    rnd = struct.unpack("<144I", digests)
    yama = list(SANMA_IDS if players == 3 else range(136))
    tenhou.shuffle_by_loop(yama, rnd)
    wall = tenhou.wall_from_digests(digests, players)
    assert wall == tenhou.RoundWall(tuple(yama), tenhou.dice_from_rnd(rnd))


def test_digests_are_the_rnd_words(src: bytes) -> None:
    digests = tenhou.digests_from_src(src)
    assert list(struct.unpack("<144I", digests)) == rust_literal(".rnd_u32")
    assert tenhou.wall_from_digests(digests) == tenhou.walls(vector_seed(), 1)[0]


@pytest.mark.parametrize("extreme", [b"\x00", b"\xff"], ids=["zeros", "ones"])
@pytest.mark.parametrize("players", [3, 4], ids=["3p", "4p"])
def test_wall_from_digests_at_the_extremes(extreme: bytes, players: int) -> None:
    rnd = [int.from_bytes(extreme * 4, "little")] * 144
    yama = list(SANMA_IDS if players == 3 else range(136))
    tenhou.shuffle_by_loop(yama, rnd)
    assert tenhou.wall_from_digests(extreme * 576, players).tiles == tuple(yama)


@pytest.mark.parametrize(
    "bad,why",
    [
        ("", "empty"),
        ("!!!!", "base64"),
        ("QUJD", "bytes"),
        ("foo,bar", "unknown seed format"),
        ("mt19937ar-sha512-n288,1,2", "32 hex words"),
        ("mt19937ar,1,2,3,4,5,6,7,zz", "hexadecimal"),
        ("mt19937ar,1,2,3", "8 or 32 hex words"),
        ("mt19937ar,-1,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,+1,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,0x1,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,1_0,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,\uff11,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,,0,0,0,0,0,0,0", "hexadecimal"),
        ("mt19937ar,123456789,0,0,0,0,0,0,0", "longer than 32 bits"),
        ("mt19937ar-sha512-n288,-1" + ",0" * 31, "hexadecimal"),
    ],
    ids=[
        "empty",
        "not-base64",
        "short",
        "unknown-prefix",
        "late2009-count",
        "early2009-hex",
        "early2009-count",
        "signed",
        "plus",
        "0x",
        "underscore",
        "fullwidth-digit",
        "empty-word",
        "nine-digits",
        "late2009-signed",
    ],
)
def test_bad_seeds_raise_seed_error(bad: str, why: str) -> None:
    """int(word, 16) alone takes '-1' (struct then failed: a traceback), '+1', '0x1', '1_0'
    and non-ASCII digits: each is refused with a SeedError."""
    with pytest.raises(SeedError, match=why):
        tenhou.walls(bad, 1)


def test_wall_command_refuses_a_signed_seed_word(capsys: pytest.CaptureFixture[str]) -> None:
    from pywall.cli import main

    assert main(["wall", "mt19937ar,-1,0,0,0,0,0,0,0"]) == 2
    err = capsys.readouterr().err
    assert "bad seed" in err and "not hexadecimal" in err and "Traceback" not in err


def test_players_must_be_3_or_4(seed: str) -> None:
    with pytest.raises(SeedError, match="3 or 4"):
        tenhou.walls(seed, 1, players=5)


def test_seed_with_whitespace_and_newlines(seed: str) -> None:
    spaced = "\n".join(seed[i : i + 76] for i in range(0, len(seed), 76))
    assert tenhou.walls(spaced, 1) == tenhou.walls(seed, 1)


def test_seed_bytes_are_the_decoded_2496(seed: str) -> None:
    raw = tenhou.seed_bytes_from_seed(seed)
    assert len(raw) == 2496
    assert struct.unpack("<624I", raw) == tenhou.key_from_seed(seed)


def test_legacy_schemes_are_recognised() -> None:
    late = tenhou.parse_seed("mt19937ar-sha512-n288," + ",".join(["0000000A"] * 32))
    early = tenhou.parse_seed("mt19937ar," + ",".join(["DEADBEEF"] * 8))
    assert (late.scheme, early.scheme) == (tenhou.Scheme.LATE_2009, tenhou.Scheme.EARLY_2009)
    assert late.scheme.legacy and early.scheme.legacy
    assert early.key == (0xDEADBEEF,) * 8
