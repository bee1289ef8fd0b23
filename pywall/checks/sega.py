"""SEGA MJ arcade walls from the four player seeds and the uncertainty value.

Theory of operation (SEGA's "牌山Viewer" page, seeds/002; written from its
prose, docs/sega.md, not from the sample code it quotes):

1. Each player seed is 27 characters over ``0-9 a-z A-Z - _`` (6 bits each,
   first character most significant): 162 bits, of which the first 160 make
   five big-endian 32-bit words (``words_from_player_seed``).
2. The four players' word tuples are sorted ascending (compared word by word)
   and interleaved: key word ``j * 4 + i`` is sorted player ``i``'s word ``j``
   (``key_from_player_seeds``); every key word is XORed with the round's
   uncertainty value (不確定要素).
3. MT19937 ``init_by_array(key, 20)``; the wall starts as ids 0-135 in SEGA's
   order and ``for j in 0..135: swap(yama[genrand_int32() % 136], yama[j])``;
   two more outputs ``% 6`` are the dice (0-based; faces are +1)
   (``wall_from_key``).

SEGA tile ids: ``kind = id // 4`` with kinds 0-8 = 1-9 characters, 9-17 =
1-9 bamboo, 18-26 = 1-9 circles, 27-33 = East South West North, haku, hatsu,
chun ("萬子、索子、筒子、字牌の順"; the honour order is assumed to be the usual
one, the page does not spell it out). Which ids are red fives is NOT stated
anywhere in the sources, so conversions here never mark a tile red.

The uncertainty value rises by 1 at each deal and by (discard number × tile
value) at each discard; see ``uncertainty_for_next_round`` for what the page
says about the numbering and what it leaves open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.checks.mt19937 import random_from_key
from pywall.core.errors import ValueInputError
from pywall.core.tiles import kind_text

SEED_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
SEED_LENGTH = 27
SCHEMA = "pywall.sega/1"
PLAYERS = 4
WORDS_PER_SEED = 5
TILES = 136
MAX_UNCERTAINTY = 0xFFFFFFFF
_SEED_VALUES = {ch: i for i, ch in enumerate(SEED_ALPHABET)}
#: SEGA suit block -> Tenhou suit block (characters, bamboo, circles, honours).
_TENHOU_SUIT = (0, 2, 1, 3)
BREAK_WALLS = (
    "the dealer's own wall",
    "the wall of the player on the dealer's right",
    "the wall opposite the dealer",
    "the wall of the player on the dealer's left",
)


@dataclass(frozen=True, slots=True)
class SegaWall:
    """One round's wall: 136 SEGA tile ids in shuffled order and the dice (faces 1-6)."""

    wall: tuple[int, ...]
    dice: tuple[int, int]
    uncertainty: int
    seeds: tuple[str, ...]

    @property
    def tenhou_ids(self) -> tuple[int, ...]:
        return tuple(tenhou_id_from_sega(t) for t in self.wall)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(text_from_sega(t) for t in self.wall)

    def to_dict(self) -> dict[str, Any]:
        """The wall as plain JSON values (shared by the CLI and the web worker)."""
        total, broken = break_from_dice(self.dice)
        return {
            "schema": SCHEMA,
            "seeds": list(self.seeds),
            "uncertainty": self.uncertainty,
            "wall": list(self.wall),
            "dice": list(self.dice),
            "tiles": list(self.texts),
            "tenhou_ids": list(self.tenhou_ids),
            "break": {
                "dice_sum": total,
                "wall": broken,
                "stacks_from_right": total,
                "index": (total - 1) % 4,
            },
            "red_fives": "unknown: SEGA's numbering of red fives is not published",
        }


@dataclass(frozen=True, slots=True)
class DiscardEvent:
    """One discard for the uncertainty helper.

    ``kind`` uses pywall's (Tenhou) kinds 0-33; ``called`` says another player
    took the tile (chi, pon or open kan), which removes it from the river.
    """

    seat: int
    kind: int
    called: bool = False


# --- seeds -> key -----------------------------------------------------------


def words_from_player_seed(seed: str, which: int | None = None) -> tuple[int, ...]:
    """The five 32-bit words of one player seed (first 160 of its 162 bits)."""
    label = "player seed" if which is None else f"player seed {which}"
    if not isinstance(seed, str):
        raise ValueInputError(f"{label} must be text")
    if len(seed) != SEED_LENGTH:
        raise ValueInputError(
            f"{label} has {len(seed)} character{'' if len(seed) == 1 else 's'}; "
            f"SEGA seeds have exactly {SEED_LENGTH}"
        )
    bits = 0
    for pos, ch in enumerate(seed):
        value = _SEED_VALUES.get(ch)
        if value is None:
            raise ValueInputError(
                f"{label}: character {pos + 1} is {ch!r}, which is not in SEGA's seed "
                "alphabet (0-9 a-z A-Z - _)"
            )
        bits = (bits << 6) | value
    bits >>= SEED_LENGTH * 6 - WORDS_PER_SEED * 32  # keep the first 160 bits
    return tuple((bits >> (32 * (WORDS_PER_SEED - 1 - j))) & 0xFFFFFFFF for j in range(5))


def key_from_player_seeds(seeds: Sequence[str], uncertainty: int) -> tuple[int, ...]:
    """The 20-word ``init_by_array`` key: sorted, interleaved, XORed with the value."""
    if isinstance(seeds, str) or len(seeds) != PLAYERS:
        raise ValueInputError(f"SEGA MJ needs {PLAYERS} player seeds, got {_count(seeds)}")
    check_uncertainty(uncertainty)
    players = sorted(words_from_player_seed(s, i + 1) for i, s in enumerate(seeds))
    return tuple(players[i][j] ^ uncertainty for j in range(WORDS_PER_SEED) for i in range(PLAYERS))


def _count(seeds: object) -> str:
    return str(len(seeds)) if isinstance(seeds, Sequence) and not isinstance(seeds, str) else "1"


def check_uncertainty(value: int) -> int:
    """The uncertainty value must fit the 32-bit words it is XORed into."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueInputError("the uncertainty value must be a whole number")
    if not 0 <= value <= MAX_UNCERTAINTY:
        raise ValueInputError(
            f"the uncertainty value {value} is outside 0-{MAX_UNCERTAINTY} (32 bits)"
        )
    return value


# --- key -> wall -------------------------------------------------------------


def wall_from_key(key: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
    """Shuffle ids 0-135 with ``init_by_array(key)``; dice 0-based."""
    rng = random_from_key(key)
    yama = list(range(TILES))
    for j in range(TILES):
        r = rng.getrandbits(32) % TILES
        yama[r], yama[j] = yama[j], yama[r]
    dice = (rng.getrandbits(32) % 6, rng.getrandbits(32) % 6)
    return tuple(yama), dice


def sega_wall(seeds: Sequence[str], uncertainty: int) -> SegaWall:
    """The wall and dice (faces 1-6) SEGA's viewer shows for these inputs."""
    key = key_from_player_seeds(seeds, uncertainty)
    wall, (d0, d1) = wall_from_key(key)
    return SegaWall(wall, (d0 + 1, d1 + 1), uncertainty, tuple(seeds))


# --- tile numbering -----------------------------------------------------------


def tenhou_kind_from_sega(kind: int) -> int:
    """SEGA kind (m, s, p, z) -> pywall/Tenhou kind (m, p, s, z)."""
    if not 0 <= kind < 34:
        raise ValueInputError(f"SEGA tile kind {kind} is out of range 0-33")
    return _TENHOU_SUIT[kind // 9] * 9 + kind % 9


def tenhou_id_from_sega(tile: int) -> int:
    """SEGA id -> Tenhou id of the same kind and copy number (never red: unknown)."""
    if not 0 <= tile < TILES:
        raise ValueInputError(f"SEGA tile id {tile} is out of range 0-135")
    return tenhou_kind_from_sega(tile // 4) * 4 + tile % 4


def text_from_sega(tile: int) -> str:
    """mpsz text of a SEGA id: ``0 -> "1m"``, ``36 -> "1s"``, ``72 -> "1p"``."""
    return kind_text(tenhou_id_from_sega(tile) // 4)


def uncertainty_from(value: object) -> int:
    """The uncertainty value typed in a form or given as a number (0 to 2**32 - 1)."""
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueInputError("enter the uncertainty value (a whole number, 0-4294967295)")
        if not (text.isascii() and text.isdigit()):
            raise ValueInputError(
                f"the uncertainty value {text[:40]!r} is not a whole number (digits 0-9)"
            )
        if len(text) > 12:
            raise ValueInputError("the uncertainty value is outside 0-4294967295 (32 bits)")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueInputError("the uncertainty value must be a whole number")
    return value


def break_from_dice(dice: tuple[int, int]) -> tuple[int, str]:
    """Dice faces -> (sum, which wall is broken, counted from the dealer).

    The usual table rule (sum 1 = dealer, counting counter-clockwise); how
    SEGA lays yama indices round the table is not in the sources, so this
    names the wall and the stack count, not a yama index.
    """
    total = dice[0] + dice[1]
    if not all(1 <= d <= 6 for d in dice):
        raise ValueInputError(f"dice faces must be 1-6, got {dice}")
    return total, BREAK_WALLS[(total - 1) % 4]


# --- uncertainty value ---------------------------------------------------------


def tile_value(kind: int) -> int:
    """Value of a discarded tile: numbers their face, E S W N 1-4, haku hatsu chun 5-7."""
    if not 0 <= kind < 34:
        raise ValueInputError(f"tile kind {kind} is out of range 0-33")
    return kind % 9 + 1 if kind < 27 else kind - 26


def discard_numbers(discards: Sequence[DiscardEvent], per_seat: bool = True) -> list[int]:
    """The "何枚目の捨牌か" number of each discard.

    seeds/002: the 3rd discard is number 3; when it is called (pon in the
    example) "the next discard is also treated as the 3rd", i.e. a called tile
    leaves the river and does not count. The page does not say whether the
    count is the discarder's own river (``per_seat=True``, the default: "n-th
    discard" read as river position) or all discards of the round; both
    readings fit its example, so both are offered.
    """
    in_river: dict[int, int] = {}
    numbers = []
    for d in discards:
        group = d.seat if per_seat else 0
        number = in_river.get(group, 0) + 1
        numbers.append(number)
        in_river[group] = number if not d.called else number - 1
    return numbers


def uncertainty_for_next_round(
    value: int, discards: Sequence[DiscardEvent], per_seat: bool = True
) -> int:
    """The next round's uncertainty value from this round's value and discards.

    The value carries over between rounds (seeds/002: the +1 at each deal is
    there so a round with no discard, e.g. a dealer's blessing of heaven or
    nine terminals, does not repeat the previous round's value). Whether the
    deal's +1 is added before or after the wall is built, consecutive rounds
    differ by 1 + the sum of (discard number × tile value); the value of a
    game's first round is not stated (read it off the cabinet or MJ.NET).
    A called tile's own increment stays: the page only ever adds.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueInputError("the uncertainty value must be a non-negative whole number")
    numbers = discard_numbers(discards, per_seat)
    return value + 1 + sum(n * tile_value(d.kind) for n, d in zip(numbers, discards))
