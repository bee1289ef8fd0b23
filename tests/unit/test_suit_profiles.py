"""pywall.analysis.suit_profiles: the shipped number-suit automaton and the combining of profiles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

# --- the shipped automaton (pywall.analysis.shanten_table) --------------------------------


def test_the_shipped_suit_table_is_the_automaton_built_again() -> None:
    """tools/make_shanten_table.py wrote it from ``suit_table()``: run it again after a
    change to the automaton."""
    import base64
    import zlib

    from pywall.analysis.shanten_table import PACKED
    from pywall.analysis.suit_profiles import suit_table

    assert zlib.decompress(base64.b64decode(PACKED)) == suit_table()


def test_the_suit_table_is_the_same_whatever_nodes_were_built_before() -> None:
    """Node numbers follow the order suits came in; the table must not. A fresh process
    builds nodes for random suits of four copies first (numbering them unlike any other
    process), then builds the table: the shipped bytes again."""
    import base64
    import hashlib
    import subprocess
    import sys
    import zlib

    from pywall.analysis.shanten_table import PACKED

    code = (
        "import hashlib, random\n"
        "from pywall.analysis import suit_profiles as s\n"
        "r = random.Random(7)\n"
        "for _ in range(300):\n"
        "    node = s.NUMBER_SUIT_START\n"
        "    for held in r.sample([4, 4, 3, 2, 1, 0, 0, 0, 0], 9):\n"
        "        node = s.number_suit_step(node, held)\n"
        "print(hashlib.sha256(s.suit_table()).hexdigest())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert (
        out.stdout.strip() == hashlib.sha256(zlib.decompress(base64.b64decode(PACKED))).hexdigest()
    )


def test_every_suit_of_up_to_14_tiles_reads_the_automatons_profile_from_the_table() -> None:
    """All 405,350 number suits of at most 14 tiles, walked through the automaton that
    builds its nodes as it goes, against the shipped (minimised) table; past 14 tiles the
    table has no answer and number_profile builds the suit's nodes as before."""
    from pywall.analysis import suit_profiles as sh

    seen = 0

    def walk(prefix: tuple[int, ...], tiles: int, node: int) -> None:
        nonlocal seen
        if len(prefix) == 9:
            seen += 1
            assert sh._table_profile(prefix) == sh.number_suit_profile(node), prefix
            return
        for held in range(min(4, 14 - tiles) + 1):
            walk((*prefix, held), tiles + held, sh.number_suit_step(node, held))

    walk((), 0, sh.NUMBER_SUIT_START)
    assert seen == 405_350
    big = (4, 4, 4, 3, 0, 0, 0, 0, 0)
    assert sh._table_profile(big) is None
    node = sh.NUMBER_SUIT_START
    for held in big:
        node = sh.number_suit_step(node, held)
    assert sh.number_profile(big) == sh.number_suit_profile(node)


def test_each_place_plus_one_tile_is_read_from_the_table() -> None:
    """``number_plus_finals`` (the draw audit's new suits) against ``number_profile`` of
    the suit with one more tile at each place, for every number suit of at most 13 tiles;
    a suit of 14 tiles is past the table (None)."""
    from itertools import product

    from pywall.analysis import suit_profiles as sh

    seen = 0
    for key in product(range(5), repeat=9):
        if sum(key) > 13:
            continue
        seen += 1
        finals = sh.number_plus_finals(key)
        assert finals is not None
        for i, final in enumerate(finals):
            if key[i] == 4:
                assert final == -1
            else:
                more = key[:i] + (key[i] + 1,) + key[i + 1 :]
                assert sh.final_profile(final) == sh.number_profile(more), (key, i)
    assert seen == 286_550
    assert sh.number_plus_finals((4, 4, 4, 2, 0, 0, 0, 0, 0)) is None


def convolve_by_definition(a: tuple[int, ...], b: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """Two profiles together, from the definition: for m melds and p pairs, every way to
    give m1 melds and p1 pairs to the first and the rest to the second."""
    return tuple(
        min(
            [cap]
            + [
                a[m1 * 2 + p1] + b[(m - m1) * 2 + p - p1]
                for m1 in range(m + 1)
                for p1 in range(p + 1)
            ]
        )
        for m in range(5)
        for p in (0, 1)
    )


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.integers(0, 10), min_size=10, max_size=10),
    st.lists(st.integers(0, 10), min_size=10, max_size=10),
    st.sampled_from([8, 10]),
)
def test_combining_two_profiles_is_their_min_plus_convolution(
    a: list[int], b: list[int], cap: int
) -> None:
    from pywall.analysis.suit_profiles import combine_profiles

    assert combine_profiles(tuple(a), tuple(b), cap) == convolve_by_definition(
        tuple(a), tuple(b), cap
    )
