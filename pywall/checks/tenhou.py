"""Tenhou walls from the seed published in every log.

Theory of operation (Tenhou's blog, article 174202532, and its validation page
tenhou.net/stat/rand/validation.txt; summivox/riichi-rs tenhou-shuffle):

* ``key_from_seed``: the log's ``SHUFFLE seed="mt19937ar-sha512-n288-base64,B64"``
  decodes to 2496 bytes = 624 little-endian 32-bit words, the MT19937 key.
* ``mt_from_key``: one generator per game, ``init_by_array(key, 624)``.
* ``src_from_mt``: each round (each ``INIT``) takes the next 288 ``genrand_int32``
  outputs (1152 bytes, little-endian).
* ``rnd_from_src``: SHA-512 of each of the 9 chunks of 128 bytes gives 9 x 64
  bytes = 144 little-endian words.
* ``wall_from_rnd``: ``for i in 0..n-2: swap(yama[i], yama[i + rnd[i] % (n - i)])``
  over ``yama = [0..136)`` (3-player: the 108 ids without 2m-8m).
* ``dice_from_rnd``: ``rnd[135] % 6 + 1`` and ``rnd[136] % 6 + 1``.

The older formats (docs/tenhou.md), one ``Era`` each: logs of September 2008 to June
2009 carry ``shuffle="mt19937ar,<8 hex words>"`` on every ``INIT`` and July 2009 logs
the same with 32 words (a generator per round whose raw outputs drive the shuffle, no
SHA-512); logs of July 2009 to February 2010 carry ``mt19937ar-sha512-n288,<32 hex
words>`` (today's scheme with a 32-word key). Where each round's tiles sit in the wall is
``pywall.core.layout``'s (``wall_scheme``); docs/walls.md has the facts.
"""

from __future__ import annotations

import binascii
import hashlib
import random
import re
import struct
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import islice

from pywall.checks.mt19937 import random_from_key, random_from_key_bytes
from pywall.core.errors import SeedError
from pywall.core.layout import WallScheme
from pywall.core.limits import MAX_SEED_CHARS
from pywall.core.tiles import SANMA_IDS

PREFIX = "mt19937ar-sha512-n288-base64,"
PREFIX_2009 = "mt19937ar-sha512-n288,"
PREFIX_EARLY_2009 = "mt19937ar,"
KEY_WORDS = 624
SEED_BYTES = 4 * KEY_WORDS
SRC_WORDS = 288
RND_WORDS = 144
_FULL_SET = tuple(range(136))
# The 32-bit array typecode of this platform (rnd words are read through array).
_WORD = next(code for code in "IL" if array(code).itemsize == 4)
_BIG_ENDIAN = array(_WORD, b"\x00\x00\x00\x01")[0] == 1
_CHUNKS = struct.Struct("128s" * 9).unpack
#: A round's shuffle words (n - 1 of them), by tile count, and its two dice words.
_SHUFFLE_WORDS = {n: struct.Struct(f"<{n - 1}I").unpack_from for n in (108, 136)}
_DICE_WORDS = struct.Struct("<2I").unpack_from


class Scheme(str, Enum):
    """Which generation of Tenhou's seed format a seed belongs to."""

    CURRENT = "mt19937ar-sha512-n288-base64"
    LATE_2009 = "mt19937ar-sha512-n288"
    EARLY_2009 = "mt19937ar"

    @property
    def legacy(self) -> bool:
        return self is not Scheme.CURRENT


class Era(str, Enum):
    """Which period of Tenhou's walls a seed belongs to: its format and the key's length
    (``mt19937ar,`` seeds of 8 words, seen on real logs from September 2008 to June 2009,
    or of 32, July 2009). The values are the JSON's names; ``dates`` are the words people
    read."""

    CURRENT = "current"
    LATE_2009 = "late-2009"
    JULY_2009 = "july-2009"
    JUNE_2009 = "june-2009"

    @property
    def dates(self) -> str:
        """When real logs of this era's format are dated (docs/tenhou.md), in words."""
        return ERA_DATES[self]


#: The dates of each era's format on real logs (2008-09-20 and 2009-02-20 logs carry the
#: eight-word format named after June 2009; a 2010-02-28 log the "late-2009" one, a
#: 2010-03-04 log today's): what people read, where the JSON says ``Era.value``.
ERA_DATES = {
    Era.CURRENT: "March 2010 on",
    Era.LATE_2009: "July 2009 to February 2010",
    Era.JULY_2009: "July 2009",
    Era.JUNE_2009: "September 2008 to June 2009",
}


_WALL_SCHEMES = {
    Era.CURRENT: WallScheme.TENHOU,
    Era.LATE_2009: WallScheme.TENHOU_LATE_2009,
    Era.JULY_2009: WallScheme.TENHOU_LATE_2009,
    Era.JUNE_2009: WallScheme.TENHOU_EARLY_2009,
}
#: The kinds of tile each kind of game of a 2009 era has shown on real logs (docs/tenhou.md):
#: by (era, players). The rest of an era's layout is inferred, not seen.
TILE_KINDS = ("deal", "live draws", "dice", "dora", "ura", "replacement draws")
SEEN_ON_REAL_LOGS: dict[tuple[Era, int], tuple[str, ...]] = {
    (Era.JUNE_2009, 3): ("deal", "live draws", "dice", "dora", "replacement draws"),
    (Era.JUNE_2009, 4): TILE_KINDS,
    (Era.JULY_2009, 4): TILE_KINDS,
    (Era.LATE_2009, 4): TILE_KINDS,
}
#: Key words of a seed on each INIT (``mt19937ar,``), by era.
_ROUND_KEY_WORDS = {8: Era.JUNE_2009, 32: Era.JULY_2009}
_HEX_WORD = re.compile(r"[0-9A-Fa-f]{1,8}")


@dataclass(frozen=True, slots=True)
class RoundWall:
    """One round's wall: ``tiles`` is yama[0..n-1] in Tenhou's order, ``dice`` faces 1-6
    (None for a wall a record states without dice)."""

    tiles: tuple[int, ...]
    dice: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Seed:
    """A parsed seed: its scheme and MT19937 key, as little-endian bytes (4 per word)."""

    scheme: Scheme
    raw: bytes

    @property
    def key(self) -> tuple[int, ...]:
        """The key words."""
        return struct.unpack(f"<{len(self.raw) // 4}I", self.raw)

    @property
    def era(self) -> Era:
        if self.scheme is Scheme.EARLY_2009:
            return _ROUND_KEY_WORDS[len(self.raw) // 4]
        return Era.LATE_2009 if self.scheme is Scheme.LATE_2009 else Era.CURRENT


def wall_scheme(era: Era) -> WallScheme:
    """How walls of this era are laid out (``pywall.core.layout``)."""
    return _WALL_SCHEMES[era]


def key_from_seed(seed: str) -> tuple[int, ...]:
    """The 624 key words of a current-format seed (prefix optional)."""
    return _current_seed(seed).key


def _current_seed(seed: str) -> Seed:
    parsed = parse_seed(seed)
    if parsed.scheme is not Scheme.CURRENT:
        raise SeedError(f"seed is in the {parsed.scheme.value} format, not the current one")
    return parsed


def parse_seed(seed: str) -> Seed:
    """Recognise any Tenhou seed format; ``SeedError`` says what is wrong."""
    if len(seed) > MAX_SEED_CHARS:
        raise SeedError(
            f"the seed is {len(seed):,} characters; pywall reads seeds of up to "
            f"{MAX_SEED_CHARS:,} (a real one has 3,357)"
        )
    text = "".join(seed.split())
    if text.startswith(PREFIX_2009):
        return Seed(Scheme.LATE_2009, _hex_words(text[len(PREFIX_2009) :], (32,)))
    if text.startswith(PREFIX_EARLY_2009):
        words = _hex_words(text[len(PREFIX_EARLY_2009) :], tuple(_ROUND_KEY_WORDS))
        return Seed(Scheme.EARLY_2009, words)
    if text.startswith(PREFIX):
        text = text[len(PREFIX) :]
    elif "," in text:
        raise SeedError(f"unknown seed format {text.split(',', 1)[0][:40]!r}")
    return Seed(Scheme.CURRENT, _key_from_base64(text))


def _key_from_base64(text: str) -> bytes:
    if not text:
        raise SeedError("the seed is empty")
    try:
        raw = binascii.a2b_base64(text, strict_mode=True)
    except (binascii.Error, ValueError) as exc:
        raise SeedError(f"the seed is not valid base64 ({exc})") from None
    if len(raw) != SEED_BYTES:
        raise SeedError(f"the seed decodes to {len(raw)} bytes; Tenhou seeds are {SEED_BYTES}")
    return raw


def _hex_words(text: str, counts: tuple[int, ...]) -> bytes:
    """The words of a 2009 seed: ``counts`` says how many it may have, each 1-8 ASCII
    hex digits (``int`` alone would take a sign, ``0x``, ``_`` and non-ASCII digits)."""
    parts = text.split(",")
    if len(parts) not in counts:
        expected = " or ".join(map(str, counts))
        raise SeedError(f"expected {expected} hex words in the seed, found {len(parts)}")
    for p in parts:
        if not _HEX_WORD.fullmatch(p):
            if p and all(c in "0123456789abcdefABCDEF" for c in p):
                raise SeedError("the seed has a word longer than 32 bits")
            raise SeedError(f"the seed has a word that is not hexadecimal: {p[:12]!r}")
    return struct.pack(f"<{len(parts)}I", *(int(p, 16) for p in parts))


def seed_bytes_from_seed(seed: str) -> bytes:
    """The 2496 raw bytes behind a current-format seed (what the commitment hashes)."""
    return _current_seed(seed).raw


def mt_from_key(key: Sequence[int]) -> random.Random:
    return random_from_key(key)


def mt_from_seed(seed: Seed) -> random.Random:
    """The game's generator (the fast path takes the key bytes as they are)."""
    return random_from_key_bytes(seed.raw)


def src_from_mt(mt: random.Random) -> bytes:
    """The next 288 outputs as 1152 little-endian bytes."""
    return mt.getrandbits(32 * SRC_WORDS).to_bytes(4 * SRC_WORDS, "little")


def digests_from_src(src: bytes) -> bytes:
    """SHA-512 of each 128-byte chunk, joined: the 144 rnd words as little-endian bytes.

    The nine chunks come from one ``struct`` call and are hashed written out (no loop):
    slicing each chunk took 7% longer, a loop longer still (benchmarks/bench_tenhou.py).
    """
    c0, c1, c2, c3, c4, c5, c6, c7, c8 = _CHUNKS(src)
    sha = hashlib.sha512
    return b"".join(
        (
            sha(c0).digest(), sha(c1).digest(), sha(c2).digest(),
            sha(c3).digest(), sha(c4).digest(), sha(c5).digest(),
            sha(c6).digest(), sha(c7).digest(), sha(c8).digest(),
        )
    )  # fmt: skip


def rnd_from_src(src: bytes) -> Sequence[int]:
    """SHA-512 of each 128-byte chunk, as 144 little-endian words (an ``array``)."""
    rnd = array(_WORD, digests_from_src(src))
    if _BIG_ENDIAN:
        rnd.byteswap()
    return rnd


def wall_from_rnd(rnd: Sequence[int], players: int = 4) -> tuple[int, ...]:
    """Tenhou's swap shuffle of the tile set by the round's random words."""
    size = _size(players)
    return _straight_line_shuffle(size)(tuple(rnd[: size - 1]))


def wall_from_digests(digests: bytes, players: int = 4) -> RoundWall:
    """The round's wall and dice from ``digests_from_src``'s bytes: its words are read
    by one ``struct`` call, straight into the shuffle (no ``array``, no list)."""
    size = _size(players)
    tiles = _straight_line_shuffle(size)(_SHUFFLE_WORDS[size](digests))
    d0, d1 = _DICE_WORDS(digests, 4 * 135)
    return RoundWall(tiles, (d0 % 6 + 1, d1 % 6 + 1))


def _size(players: int) -> int:
    return 108 if players == 3 else 136


def shuffle_by_loop(yama: list[int], rnd: Sequence[int]) -> None:
    """The shuffle as Tenhou states it: step i swaps yama[i] with yama[i + rnd[i] % (n - i)]."""
    n = len(yama)
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        yama[i], yama[j] = yama[j], yama[i]


@cache
def _straight_line_shuffle(n: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """``shuffle_by_loop`` of an n-tile set (its n - 1 words given), as straight-line code.

    One line per step with its index and modulus as constants, and no loop bookkeeping.
    Each step's word, once used, holds the tile that step leaves at its place (step i
    never reads place i again), so a step is one read and one write of the list and the
    wall is returned as a tuple of locals: about 10% faster, timed alone, than taking
    the offsets through ``map`` and swapping in place. The source is built from integers
    only; tests check it against the loop on random words.
    """
    steps = n - 1
    words = ", ".join(f"r{i}" for i in range(steps))
    lines = ["def shuffle(words):", f"    {words}, = words", "    yama = start[:]"]
    lines += [
        f"    j = r{i} % {n - i} + {i}; r{i} = yama[j]; yama[j] = yama[{i}]" for i in range(steps)
    ]
    lines.append(f"    return ({words}, yama[{steps}])")
    namespace: dict[str, object] = {"start": list(SANMA_IDS if n == 108 else _FULL_SET)}
    exec(compile("\n".join(lines), f"<tenhou shuffle of {n} tiles>", "exec"), namespace)  # noqa: S102
    return namespace["shuffle"]  # type: ignore[return-value]


def dice_from_rnd(rnd: Sequence[int]) -> tuple[int, int]:
    return rnd[135] % 6 + 1, rnd[136] % 6 + 1


def _check_players(players: int) -> None:
    if players not in (3, 4):
        raise SeedError(f"players must be 3 or 4, not {players}")


def iter_walls(seed: str | Seed, players: int = 4) -> Iterator[RoundWall]:
    """Walls of successive rounds, without end (one generator per game)."""
    _check_players(players)
    parsed = parse_seed(seed) if isinstance(seed, str) else seed
    if parsed.scheme is Scheme.EARLY_2009:
        # June and July 2009 seeds live on each INIT; a "game" here is one round.
        yield early_2009_wall(parsed.key, players)
        return
    mt = mt_from_seed(parsed)
    while True:
        yield wall_from_digests(digests_from_src(src_from_mt(mt)), players)


def early_2009_wall(key: Sequence[int], players: int) -> RoundWall:
    """June and July 2009: the shuffle takes the raw genrand_int32 outputs of a generator
    keyed by the round's own seed (8 or 32 words)."""
    mt = mt_from_key(key)
    n = 108 if players == 3 else 136
    r = [mt.getrandbits(32) for _ in range(n + 1)]
    yama = list(SANMA_IDS if players == 3 else _FULL_SET)
    shuffle_by_loop(yama, r)
    return RoundWall(tuple(yama), (r[n - 1] % 6 + 1, r[n] % 6 + 1))


def walls(seed: str, rounds: int, players: int = 4) -> list[RoundWall]:
    """The walls of the first ``rounds`` rounds of the game ``seed`` defines."""
    if rounds < 0:
        raise SeedError("the number of rounds cannot be negative")
    return list(islice(iter_walls(seed, players), rounds))
