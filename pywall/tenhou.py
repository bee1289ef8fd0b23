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

The 2009 formats (see SOURCES.md) are supported best-effort: early 2009 logs
carry ``shuffle="mt19937ar,<8 hex words>"`` on every ``INIT`` (raw generator
outputs, no SHA-512); late 2009 logs carry ``mt19937ar-sha512-n288,<32 hex
words>`` (today's scheme with a 32-word key, dora indicator at yama[4]).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from pywall.errors import SeedError
from pywall.mt19937 import random_from_key
from pywall.tiles import SANMA_IDS

PREFIX = "mt19937ar-sha512-n288-base64,"
PREFIX_2009 = "mt19937ar-sha512-n288,"
PREFIX_EARLY_2009 = "mt19937ar,"
KEY_WORDS = 624
SEED_BYTES = 4 * KEY_WORDS
SRC_WORDS = 288
RND_WORDS = 144
_RND = struct.Struct("<144I")
_FULL_SET = tuple(range(136))
_CHUNKS = range(0, 4 * SRC_WORDS, 128)


class Scheme(str, Enum):
    """Which generation of Tenhou's seed format a seed belongs to."""

    CURRENT = "mt19937ar-sha512-n288-base64"
    LATE_2009 = "mt19937ar-sha512-n288"
    EARLY_2009 = "mt19937ar"

    @property
    def legacy(self) -> bool:
        return self is not Scheme.CURRENT


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a scheme puts the dead-wall tiles (indices into yama)."""

    dora_base: int
    replacement_order: tuple[int, ...]

    def dora_position(self, k: int) -> int:
        return self.dora_base + 2 * k

    def ura_position(self, k: int) -> int:
        return self.dora_base - 1 + 2 * k


@dataclass(frozen=True, slots=True)
class RoundWall:
    """One round's wall: ``tiles`` is yama[0..n-1] in Tenhou's order, ``dice`` faces 1-6."""

    tiles: tuple[int, ...]
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Seed:
    """A parsed seed: its scheme and MT19937 key words."""

    scheme: Scheme
    key: tuple[int, ...]


def layout_for(scheme: Scheme, players: int) -> Layout:
    if scheme is Scheme.EARLY_2009:
        return Layout(dora_base=8, replacement_order=tuple(range(8)))
    if scheme is Scheme.LATE_2009:
        return Layout(dora_base=4, replacement_order=(1, 0, 3, 2, 5, 4, 7, 6))
    base = 9 if players == 3 else 5
    return Layout(dora_base=base, replacement_order=(1, 0, 3, 2, 5, 4, 7, 6))


def key_from_seed(seed: str) -> tuple[int, ...]:
    """The 624 key words of a current-format seed (prefix optional)."""
    parsed = parse_seed(seed)
    if parsed.scheme is not Scheme.CURRENT:
        raise SeedError(f"seed is in the {parsed.scheme.value} format, not the current one")
    return parsed.key


def parse_seed(seed: str) -> Seed:
    """Recognise any Tenhou seed format; ``SeedError`` says what is wrong."""
    text = "".join(seed.split())
    if text.startswith(PREFIX_2009):
        return Seed(Scheme.LATE_2009, _hex_words(text[len(PREFIX_2009):], 32))
    if text.startswith(PREFIX_EARLY_2009):
        return Seed(Scheme.EARLY_2009, _hex_words(text[len(PREFIX_EARLY_2009):], 8))
    if text.startswith(PREFIX):
        text = text[len(PREFIX):]
    elif "," in text:
        raise SeedError(f"unknown seed format {text.split(',', 1)[0][:40]!r}")
    return Seed(Scheme.CURRENT, _key_from_base64(text))


def _key_from_base64(text: str) -> tuple[int, ...]:
    if not text:
        raise SeedError("the seed is empty")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SeedError(f"the seed is not valid base64 ({exc})") from None
    if len(raw) != SEED_BYTES:
        raise SeedError(f"the seed decodes to {len(raw)} bytes; Tenhou seeds are {SEED_BYTES}")
    return struct.unpack(f"<{KEY_WORDS}I", raw)


def _hex_words(text: str, count: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != count:
        raise SeedError(f"expected {count} hex words in the seed, found {len(parts)}")
    try:
        words = tuple(int(p, 16) for p in parts)
    except ValueError:
        raise SeedError("the seed has a word that is not hexadecimal") from None
    if any(len(p) > 8 or w > 0xFFFFFFFF for p, w in zip(parts, words)):
        raise SeedError("the seed has a word longer than 32 bits")
    return words


def seed_bytes_from_seed(seed: str) -> bytes:
    """The 2496 raw bytes behind a current-format seed (what the commitment hashes)."""
    return struct.pack(f"<{KEY_WORDS}I", *key_from_seed(seed))


def mt_from_key(key: Sequence[int]) -> random.Random:
    return random_from_key(key)


def src_from_mt(mt: random.Random) -> bytes:
    """The next 288 outputs as 1152 little-endian bytes."""
    return mt.getrandbits(32 * SRC_WORDS).to_bytes(4 * SRC_WORDS, "little")


def rnd_from_src(src: bytes) -> tuple[int, ...]:
    """SHA-512 of each 128-byte chunk, as 144 little-endian words."""
    sha = hashlib.sha512
    return _RND.unpack(b"".join([sha(src[i:i + 128]).digest() for i in _CHUNKS]))


def wall_from_rnd(rnd: Sequence[int], players: int = 4) -> tuple[int, ...]:
    """Tenhou's swap shuffle of the tile set by the round's random words."""
    yama = list(SANMA_IDS if players == 3 else _FULL_SET)
    n = len(yama)
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        yama[i], yama[j] = yama[j], yama[i]
    return tuple(yama)


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
        # Early 2009 seeds live on each INIT; a "game" here is one round.
        yield early_2009_wall(parsed.key, players)
        return
    mt = mt_from_key(parsed.key)
    while True:
        rnd = rnd_from_src(src_from_mt(mt))
        yield RoundWall(wall_from_rnd(rnd, players), dice_from_rnd(rnd))


def early_2009_wall(key: Sequence[int], players: int) -> RoundWall:
    """Early-2009 scheme: the shuffle takes raw genrand_int32 outputs (best effort)."""
    mt = mt_from_key(key)
    n = 108 if players == 3 else 136
    r = [mt.getrandbits(32) for _ in range(n + 1)]
    yama = list(SANMA_IDS if players == 3 else _FULL_SET)
    for i in range(n - 1):
        j = i + r[i] % (n - i)
        yama[i], yama[j] = yama[j], yama[i]
    return RoundWall(tuple(yama), (r[n - 1] % 6 + 1, r[n] % 6 + 1))


def walls(seed: str, rounds: int, players: int = 4) -> list[RoundWall]:
    """The walls of the first ``rounds`` rounds of the game ``seed`` defines."""
    if rounds < 0:
        raise SeedError("the number of rounds cannot be negative")
    out: list[RoundWall] = []
    for wall in iter_walls(seed, players):
        if len(out) >= rounds:
            break
        out.append(wall)
    return out
