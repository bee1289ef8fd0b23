"""Exact shanten: regular hands, seven pairs, thirteen orphans.

Theory of operation
-------------------
Definition (docs/shanten.md): for a hand H of n = 3k+1 or 3k+2 tiles,
shanten = d - 1, where d is the fewest tiles that must be added to H so that it
holds a complete hand T of 3k+2 tiles (k melds and a pair, seven distinct pairs, or
thirteen orphans) with no kind beyond its 4 copies. Tiles of H outside T are
discarded, so d = min |T - H| over complete T (multiset difference). Hands after
calls have fewer tiles: 13 - 3m tiles need 4 - m melds. Because no kind may exceed
4 copies in T, ``123m456p789s1111z`` is 1-shanten, not tenpai (a "5th tile").

Regular form. T splits by suit: the fewest tiles to add is the least, over the ways to
share the melds and the pair among the four suits, of the sum of each suit's fewest
tiles to add for its share. ``pywall.analysis.suit_profiles`` computes those per-suit
numbers (a suit's *profile*: tomohxx's per-suit table method), combines them and takes
the best split (``regular_from_suits``); this module validates a hand and adds the other
two forms.

Seven pairs: 6 - pairs + max(0, 7 - kinds), counting a kind held 4 times as one
pair (the pairs must be distinct). Thirteen orphans: 13 - (terminal and honour
kinds held) - (1 if one of them is paired). Both apply to 13- and 14-tile hands only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from pywall.analysis.suit_profiles import regular_from_suits
from pywall.core.errors import ValueInputError

KINDS = 34
MAX_TILES = 14

ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_orphans = itemgetter(*ORPHAN_KINDS)
_VALID_COUNTS = frozenset(range(5))


@dataclass(frozen=True, slots=True)
class FormShanten:
    """Shanten of one hand per form; ``None`` where the tile count rules a form out."""

    regular: int
    chiitoi: int | None
    kokushi: int | None
    minimum: int


# --- public API -----------------------------------------------------------------


def checked_counts(counts: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Validate 34 per-kind counts; return them as a tuple with the tile count."""
    if len(counts) != KINDS:
        raise ValueInputError(f"a hand is 34 per-kind counts, got {len(counts)} values")
    hand = tuple(counts)
    if not _VALID_COUNTS.issuperset(hand):
        bad = next(c for c in hand if c not in _VALID_COUNTS)
        raise ValueInputError(f"a kind has 0-4 copies in a hand, got {bad!r}")
    tiles = sum(hand)
    if not isinstance(tiles, int):
        raise ValueInputError("per-kind counts must be whole numbers")
    if tiles > MAX_TILES:
        raise ValueInputError(f"a hand has at most 14 tiles, got {tiles}")
    if tiles % 3 == 0:
        raise ValueInputError(
            f"a hand has 3k+1 or 3k+2 tiles (1, 2, 4, 5, ..., 13, 14), got {tiles}"
        )
    return hand, tiles


def _chiitoi(hand: tuple[int, ...]) -> int:
    absent = hand.count(0)
    kinds = KINDS - absent
    pairs = kinds - hand.count(1)
    return 6 - pairs + max(0, 7 - kinds)


def _kokushi(hand: tuple[int, ...]) -> int:
    orphans: tuple[int, ...] = _orphans(hand)
    held = 13 - orphans.count(0)
    paired = held - orphans.count(1) > 0
    return 13 - held - paired


def _needs_full_hand(tiles: int, form: str) -> None:
    if tiles < 13:
        raise ValueInputError(f"{form} needs a 13- or 14-tile hand, got {tiles} tiles")


def regular_shanten(counts: Sequence[int]) -> int:
    """Shanten of the regular form: ``n // 3`` melds and a pair (n = tile count)."""
    hand, tiles = checked_counts(counts)
    return regular_from_suits(hand, tiles // 3)


def chiitoi_shanten(counts: Sequence[int]) -> int:
    """Shanten of seven pairs (seven *distinct* pairs); 13- or 14-tile hands only."""
    hand, tiles = checked_counts(counts)
    _needs_full_hand(tiles, "seven pairs")
    return _chiitoi(hand)


def kokushi_shanten(counts: Sequence[int]) -> int:
    """Shanten of thirteen orphans; 13- or 14-tile hands only."""
    hand, tiles = checked_counts(counts)
    _needs_full_hand(tiles, "thirteen orphans")
    return _kokushi(hand)


def shanten(counts: Sequence[int]) -> int:
    """Exact shanten of 34 per-kind counts: the minimum over the forms the count allows.

    -1 is a complete hand, 0 tenpai. Raises ``ValueInputError`` on a wrong length,
    a count outside 0-4, more than 14 tiles or a tile count divisible by 3.

    >>> from pywall.core.tiles import counts_from_mpsz
    >>> shanten(counts_from_mpsz("123m456p789s11z23p"))  # waits on 1-4-7p
    0
    >>> shanten(counts_from_mpsz("123m456p789s11z234p"))  # complete
    -1
    >>> shanten(counts_from_mpsz("19m19p19s1234567z"))  # thirteen orphans, tenpai
    0
    """
    hand, tiles = checked_counts(counts)
    best = regular_from_suits(hand, tiles // 3)
    if tiles >= 13:
        best = min(best, _chiitoi(hand), _kokushi(hand))
    return best


def shanten_by_form(counts: Sequence[int]) -> FormShanten:
    """Every form's shanten and the minimum, in one validated call."""
    hand, tiles = checked_counts(counts)
    regular = regular_from_suits(hand, tiles // 3)
    if tiles < 13:
        return FormShanten(regular, None, None, regular)
    chiitoi, kokushi = _chiitoi(hand), _kokushi(hand)
    return FormShanten(regular, chiitoi, kokushi, min(regular, chiitoi, kokushi))
