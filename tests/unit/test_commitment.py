"""Tenhou pre-game commitment: seat orders, the 4996-byte source, matching hashes.

No real published hash list is available, so expected hashes are built here by
the documented recipe (docs/tenhou.md) straight from the log text with the
standard library, independently of pywall's code.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import math
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pywall.checks.commitment import (
    FULL,
    LEADING_ZEROS_DROPPED,
    candidates_from_game,
    check_hash,
    check_list,
    hash_from_text,
    hashes_from_list,
    seat_orders_from_names,
    source_from_seed,
)
from pywall.core.errors import PywallError, SeedError, ValueInputError
from pywall.formats import mjlog
from tests.helpers import TENHOU

PREFIX = "mt19937ar-sha512-n288-base64,"


def seed_and_names(path: Path) -> tuple[str, tuple[str, ...]]:
    """The SHUFFLE seed and the UN names by seat, read with the stdlib only."""
    data = path.read_bytes()
    text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8")
    seed = re.search(r'<SHUFFLE seed="([^"]+)"', text).group(1)  # type: ignore[union-attr]
    un = re.search(r"<UN [^>]*>", text).group(0)  # type: ignore[union-attr]
    names = [unquote(re.search(rf'n{i}="([^"]*)"', un).group(1)) for i in range(4)]  # type: ignore[union-attr]
    if not names[3]:  # 3-player: n3=""
        names.pop()
    return seed, tuple(names)


def recipe_hash(order: str, seed: str, drop_zeros: bool = False) -> str:
    raw = base64.b64decode(seed.removeprefix(PREFIX))
    hexed = hex(int.from_bytes(raw, "big"))[2:] if drop_zeros else raw.hex()
    return hashlib.sha512((order + hexed).encode()).hexdigest()


def unique_order(names: tuple[str, ...]) -> str:
    ordered = sorted(names)
    return "".join(str(ordered.index(n)) for n in names) + "3" * (4 - len(names))


def random_hashes(n: int) -> list[str]:
    return [hashlib.sha512(str(i).encode()).hexdigest() for i in range(n)]


# --- seat order (seeds/000) ----------------------------------------------------------


def test_seeds_000_example_seat_order() -> None:
    assert seat_orders_from_names(("ちゃいますんこ", "アグモン", "NoName")) == ("1203",)


@pytest.mark.parametrize(
    ("names", "orders"),
    [
        (("b", "a", "d", "c"), ("1032",)),
        (
            ("NoName", "Joseph", "NoName", "NoName"),
            ("1023", "1032", "2013", "2031", "3012", "3021"),
        ),
        (("NoName", "x", "NoName", "a"), ("0312", "1302")),  # "N" < "a" < "x"
        (("NoName", "a", "NoName"), ("0213", "1203")),
        (("NoName",) * 3, ("0123", "0213", "1023", "1203", "2013", "2103")),
    ],
    ids=["distinct", "three-nonames", "two-nonames", "sanma-two-nonames", "sanma-all-nonames"],
)
def test_seat_orders(names: tuple[str, ...], orders: tuple[str, ...]) -> None:
    assert seat_orders_from_names(names) == orders


@pytest.mark.parametrize(("count", "orders"), [(1, 1), (2, 2), (3, 6), (4, 24)])
def test_noname_candidate_counts(count: int, orders: int) -> None:
    names = ("NoName",) * count + ("a", "b", "c")[: 4 - count]
    assert len(seat_orders_from_names(names)) == orders


def test_code_point_order_not_locale() -> None:
    # "Z" (U+005A) < "a" (U+0061) < "b" < "ア" (U+30A2): no case folding, no kana collation
    assert seat_orders_from_names(("a", "Z", "ア", "b")) == ("1032",)


@pytest.mark.parametrize("names", [("a", "b"), ("a",) * 5, "abcd", (1, 2, 3, 4)],
                         ids=["two", "five", "string", "not-text"])  # fmt: skip
def test_bad_names(names: object) -> None:
    with pytest.raises(ValueInputError):
        seat_orders_from_names(names)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(["NoName", "a", "B", "ち"]), min_size=3, max_size=4))
def test_every_order_is_consistent(names: list[str]) -> None:
    orders = seat_orders_from_names(names)
    ordered = sorted(names)
    expected = math.prod(math.factorial(c) for c in Counter(names).values())
    assert len(orders) == expected
    for order in orders:
        assert len(order) == 4 and sorted(order[: len(names)]) == [
            str(i) for i in range(len(names))
        ]
        assert all(ordered[int(d)] == names[s] for s, d in enumerate(order[: len(names)]))


# --- source -----------------------------------------------------------------------------


def test_source_is_4996_bytes() -> None:
    raw = bytes(range(16, 256)) * 10 + bytes(96)
    assert len(raw) == 2496
    source = source_from_seed("1203", raw)
    assert len(source) == 4996 and source[:4] == b"1203" and source[4:8] == b"1011"


def test_leading_zeros_dropped_form() -> None:
    raw = b"\x00\x0a" + bytes(range(2494 % 256)) * 10 + bytes(2494 - (2494 % 256) * 10)
    assert len(raw) == 2496
    assert source_from_seed("0123", raw, LEADING_ZEROS_DROPPED)[4:8] == b"a000"


@pytest.mark.parametrize("order", ["123", "12345", "12a3", "１２０３"])
def test_bad_seat_order(order: str) -> None:
    with pytest.raises(ValueInputError):
        source_from_seed(order, bytes(2496))


# --- real logs --------------------------------------------------------------------------

LOGS = [
    "tenhou-python-bot/11.txt",  # four distinct names
    "tenhou-python-bot/27.txt",  # one NoName
    "tenhou-python-bot/22.txt",  # three NoNames and Joseph
    "tenhou-python-bot/1.txt",  # four NoNames
    "dnovikoff/sanma2.xml",  # 3-player
    "jim137/2022060222gm-0001-0000-a87679bc_tw3.mjlog",  # gzip
]


@pytest.mark.parametrize("name", LOGS, ids=[Path(n).stem for n in LOGS])
def test_real_log_matches_recipe_hash(name: str) -> None:
    seed, names = seed_and_names(TENHOU / name)
    orders = seat_orders_from_names(names)
    target = orders[len(orders) // 2]  # any consistent order may be the real one
    published = recipe_hash(target, seed)
    result = check_hash(seed, names, published)
    assert result.matched and result.form == FULL
    assert (result.seat_order, result.hash) == (target, published)
    assert len(result.candidates) == len(orders)


def test_sanma_log_names_and_order() -> None:
    _seed, names = seed_and_names(TENHOU / "dnovikoff/sanma2.xml")
    assert len(names) == 3
    assert seat_orders_from_names(names) == (unique_order(names),)
    assert unique_order(names).endswith("3")


def test_real_log_in_a_pasted_list() -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/11.txt")
    order = unique_order(names)
    lines = [f"{h}  (四般東喰赤)" for h in random_hashes(20)]
    lines.insert(13, recipe_hash(order, seed).upper())
    result = check_list(seed, names, "<html><pre>\n" + "\n".join(lines) + "\n</pre>")
    assert result.matched and result.seat_order == order and result.line == 15
    assert result.published == 21


@pytest.mark.parametrize("alteration", ["seed", "seats", "hash"])
def test_tampering_is_not_matched(alteration: str) -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/11.txt")
    published = recipe_hash(unique_order(names), seed)
    if alteration == "seed":
        raw = bytearray(base64.b64decode(seed.removeprefix(PREFIX)))
        raw[100] ^= 1
        seed = base64.b64encode(bytes(raw)).decode()
    elif alteration == "seats":
        names = (names[1], names[0]) + names[2:]
    else:
        published = published[:-1] + ("0" if published[-1] != "0" else "1")
    result = check_hash(seed, names, published)
    assert not result.matched and result.seat_order is None and result.hash is None


def test_noname_game_each_candidate_matches_its_own_hash() -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/22.txt")
    orders = seat_orders_from_names(names)
    assert len(orders) == 6
    for order in orders:
        assert check_hash(seed, names, recipe_hash(order, seed)).seat_order == order


def test_leading_zero_seed_matches_the_dropped_form() -> None:
    raw = b"\x00\x07" + (hashlib.sha512(b"x").digest() * 39)[:2494]
    seed = PREFIX + base64.b64encode(raw).decode()
    names = ("a", "b", "c", "d")
    candidates = candidates_from_game(seed, names)
    assert [fh.form for fh in candidates[0].hashes] == [FULL, LEADING_ZEROS_DROPPED]
    dropped = recipe_hash("0123", seed, drop_zeros=True)
    result = check_hash(seed, names, dropped)
    assert result.matched and result.form == LEADING_ZEROS_DROPPED
    assert check_hash(seed, names, recipe_hash("0123", seed)).form == FULL


def test_seed_without_leading_zero_has_one_form() -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/11.txt")
    assert base64.b64decode(seed.removeprefix(PREFIX))[0] >= 0x10
    (candidate,) = candidates_from_game(seed, names)
    assert [fh.form for fh in candidate.hashes] == [FULL]


def test_json_form() -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/1.txt")
    data = check_hash(seed, names, recipe_hash("3210", seed)).to_dict()
    assert data["matched"] is True and data["seat_order"] == "3210" and data["form"] == "full"
    assert len(data["candidates"]) == 24
    assert data["candidates"][0]["seat_order"] == "0123"
    assert set(data["candidates"][0]["hashes"]) == {"full"}


# --- malformed input ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "abc", "g" * 128, "0" * 127, "0" * 129],
                         ids=["empty", "short", "not-hex", "127", "129"])  # fmt: skip
def test_bad_published_hash(text: str) -> None:
    with pytest.raises(ValueInputError, match="not a SHA-512 hash"):
        hash_from_text(text)


def test_list_tokens() -> None:
    h = random_hashes(3)
    text = f"{h[0]}\nx{h[1].upper()}y\n{'0' * 129}\n{h[2]}{h[2]}\n"
    assert hashes_from_list(text) == ((1, h[0]), (2, h[1]))


def test_list_without_hashes() -> None:
    seed, names = seed_and_names(TENHOU / "tenhou-python-bot/11.txt")
    with pytest.raises(ValueInputError, match="no SHA-512 hash"):
        check_list(seed, names, "<html>nothing here</html>")


@pytest.mark.parametrize(
    "seed",
    [PREFIX + "AAAA", "not base64!", "mt19937ar-sha512-n288," + ",".join(["0"] * 32), ""],
    ids=["short", "not-base64", "late-2009", "empty"],
)
def test_bad_seeds(seed: str) -> None:
    with pytest.raises(SeedError):
        check_hash(seed, ("a", "b", "c", "d"), "0" * 128)


@given(st.text(max_size=400))
def test_list_search_never_raises(text: str) -> None:
    for _, value in hashes_from_list(text):
        assert len(value) == 128


@given(st.text(max_size=50))
def test_seed_errors_are_pywall_errors(seed: str) -> None:
    try:
        candidates_from_game(seed, ("a", "b", "c"))
    except PywallError:
        pass


@pytest.mark.parametrize("name", LOGS, ids=[Path(n).stem for n in LOGS])
def test_mjlog_reader_gives_the_same_seed_and_names(name: str) -> None:
    """The CLI reads logs with pywall.formats.mjlog; it must agree with the stdlib reading."""
    game = mjlog.parse((TENHOU / name).read_bytes(), name)
    assert (game.seed, game.names) == seed_and_names(TENHOU / name)
