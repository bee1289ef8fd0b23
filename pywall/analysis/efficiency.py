"""Effective tiles (ukeire) and the discard table of Tenhou's 牌理 tool.

Theory of operation
-------------------
A tile is effective for a 3k+1-tile hand when drawing it lowers the hand's shanten
(the minimum over the forms, ``pywall.analysis.shanten.shanten``). A kind already held 4
times cannot be drawn, so it is never effective (the "5th tile"). How many remain
is 4 minus the copies in the hand, minus copies the caller knows are visible
elsewhere (a round's discards, dora indicators, other hands).

For a 3k+2-tile hand, Tenhou's 牌理 (tenhou.net/2) lists each discard that keeps the
lowest shanten reachable by one discard, with the effective tiles of the hand left
and their total, sorted by that total (most first; ties in tile order). There the
discarded tile counts as seen: it lies in the player's own pond.

``effective_kinds`` gives every kind's answer in one pass over the suit automaton
(the draw audit asks it for every draw of a game): the profile of each suit with one
more tile of each of its kinds is looked up once per suit shape (cached), and only
its distinct profiles are combined with the other three suits' profile; seven pairs
and thirteen orphans improve by rule. Not 34 shanten calls (benchmarks/bench_effective.py).
A hand is asked by its four suit ids (``suit_ids``; ``effective_of``): the draw walk
keeps each hand's ids and moves them as tiles come and go (``step_up``, ``step_down``,
``step_swap``: each step looked up once, then a list index), so a draw neither builds
nor hashes the hand's counts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pywall.analysis.shanten import KINDS, checked_counts, shanten
from pywall.analysis.suit_profiles import (
    Profile,
    combine_profiles,
    final_profile,
    honour_profile,
    number_plus_finals,
    number_profile,
    split_distance,
)
from pywall.core.errors import ValueInputError
from pywall.core.tiles import kind_text, mpsz_from_kinds


@dataclass(frozen=True, slots=True)
class TileCount:
    """A kind of tile (0-33) and how many copies of it remain unseen."""

    kind: int
    remaining: int


@dataclass(frozen=True, slots=True)
class EffectiveTiles:
    """The kinds that lower a 3k+1-tile hand's shanten, in tile order."""

    shanten: int
    tiles: tuple[TileCount, ...]
    total: int

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(tile.kind for tile in self.tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "tiles": mpsz_from_kinds(list(self.kinds)),
            "remaining": {kind_text(t.kind): t.remaining for t in self.tiles},
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One row of the 牌理 table: a discard and what the hand left then accepts."""

    discard: int
    effective: EffectiveTiles

    def to_dict(self) -> dict[str, Any]:
        return {"discard": kind_text(self.discard), **self.effective.to_dict()}


@dataclass(frozen=True, slots=True)
class DiscardTable:
    """A 3k+2-tile hand's shanten and its best discards, most effective tiles first."""

    shanten: int
    options: tuple[DiscardOption, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"shanten": self.shanten, "discards": [o.to_dict() for o in self.options]}


def _visible_counts(hand: Sequence[int], visible: Sequence[int] | None) -> tuple[int, ...]:
    if visible is None:
        return (0,) * KINDS
    if len(visible) != KINDS:
        raise ValueInputError(f"visible tiles are 34 per-kind counts, got {len(visible)}")
    for kind, (held, seen) in enumerate(zip(hand, visible)):
        if not 0 <= seen <= 4 or held + seen > 4:
            raise ValueInputError(
                f"{kind_text(kind)}: {held} in the hand and {seen} visible, but a kind has 4"
            )
    return tuple(visible)


def _accepted(
    hand: list[int], base: int, visible: Sequence[int], seen: Sequence[int]
) -> EffectiveTiles:
    """Effective tiles of a validated 3k+1 hand whose shanten is ``base``.

    ``seen`` is the hand as counted against the 4 copies (for a discard table, the
    hand before the discard: the discarded tile lies in the player's own pond).
    """
    tiles = []
    for kind, held in enumerate(hand):
        if held == 4:
            continue
        hand[kind] = held + 1
        advances = shanten(hand) < base
        hand[kind] = held
        if advances:
            tiles.append(TileCount(kind, max(0, 4 - seen[kind] - visible[kind])))
    return EffectiveTiles(base, tuple(tiles), sum(t.remaining for t in tiles))


def effective_tiles(counts: Sequence[int], visible: Sequence[int] | None = None) -> EffectiveTiles:
    """The kinds that lower the shanten of a 3k+1-tile hand (13, 10, 7, 4 or 1 tiles).

    ``visible`` (34 counts) are tiles seen outside the hand; they reduce what remains.

    >>> from pywall.core.tiles import counts_from_mpsz, kind_text
    >>> waits = effective_tiles(counts_from_mpsz("123m456p789s11z23p"))
    >>> waits.shanten, [(kind_text(t.kind), t.remaining) for t in waits.tiles], waits.total
    (0, [('1p', 4), ('4p', 3), ('7p', 4)], 11)
    """
    hand, tiles = checked_counts(counts)
    if tiles % 3 != 1:
        raise ValueInputError(f"effective tiles need a 3k+1-tile hand (e.g. 13), got {tiles}")
    return _accepted(list(hand), shanten(hand), _visible_counts(hand, visible), hand)


def discard_table(counts: Sequence[int], visible: Sequence[int] | None = None) -> DiscardTable:
    """Tenhou 牌理 table of a 3k+2-tile hand (14, 11, 8, 5 or 2 tiles).

    Each discard that keeps the lowest shanten reachable by one discard, with its
    effective tiles; sorted by total remaining (most first), ties in tile order.
    """
    hand, tiles = checked_counts(counts)
    if tiles % 3 != 2:
        raise ValueInputError(f"a discard table needs a 3k+2-tile hand (e.g. 14), got {tiles}")
    seen = _visible_counts(hand, visible)
    after: dict[int, int] = {}
    work = list(hand)
    for kind in range(KINDS):
        if work[kind]:
            work[kind] -= 1
            after[kind] = shanten(work)
            work[kind] += 1
    best = min(after.values())
    options = []
    for kind, value in after.items():
        if value == best:
            work[kind] -= 1
            options.append(DiscardOption(kind, _accepted(work, value, seen, hand)))
            work[kind] += 1
    options.sort(key=lambda o: (-o.effective.total, o.discard))
    return DiscardTable(shanten(hand), tuple(options))


# --- every kind at once, for the draw audit ------------------------------------------
# Suits and profiles are numbered as they come, so the hot caches have int keys
# (hashing two 10-tuples per look-up cost more than the look-up).

_SUIT_IDS: tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]] = (
    {},
    {},
)  # number, honour
_SUITS: list[tuple[tuple[int, ...], bool]] = [
    ((), False)
]  # suit id -> (counts, honours); ids from 1
_SUIT_PROFILE: list[int] = [0]  # suit id -> profile id
_SUIT_STAT: list[int] = [0]  # suit id -> ``_suit_stat``
_SUIT_MARKS: list[int] = [0]  # suit id -> ``_suit_marks``
#: Each ``_suit_stat`` value once (414 of them over 20,000 suits in 2,000 games): the
#: four a hand reads are then few objects that stay in the CPU's caches.
_STATS: dict[int, int] = {}
#: suit id -> the suit with one more tile, by distinct profile: ((profile id, kinds), ...)
_SUIT_PLUS: list[tuple[tuple[int, int], ...] | None] = [None]
_PROFILE_IDS: dict[Profile, int] = {}
_FINAL_IDS: dict[int, int] = {}  # the shipped automaton's final index -> its profile id
_PROFILES: list[Profile] = [()]  # ids from 1, so that a look-up's ``or`` can test them
_PAIRS: dict[int, int] = {}  # a << 20 | b -> the profile id of a and b combined
_MASKS: dict[int, int] = {}  # suit << 24 | rest << 3 | melds -> the suit's improving kinds
_DISTANCES: dict[int, int] = {}  # a << 23 | b << 3 | melds -> tiles to add
#: the four suits' profile ids and the melds (12 bits each) -> ``_rests``
_QUADS: dict[int, tuple[int, int, int, int, int]] = {}
#: a 13-tile hand's summed ``_suit_stat`` -> the nearer of its seven pairs and thirteen
#: orphans shanten
_NEAR: dict[int, int] = {}
#: The caches grow with the suits and hands a run meets (on simulated games: about 3,600
#: suits, 35,000 masks and 14,000 quads a 500 games at 1,000 games; 1,900, 19,000 and
#: 6,600 at 2,000), so each has a bound reached within the first 1,000 to 2,000 games,
#: and is emptied there, so that a worker's memory is flat in the games it checks
#: (docs/limits.md). The suits' tables (about 800 bytes a suit with its steps, its
#: plus-one profiles and marks) and what is keyed by suit ids (``_MASKS``, about 70
#: bytes an entry; ``SUIT_SWAP``) are emptied together by ``suits_held``, between games
#: only (a walk holds suit ids); ``_QUADS`` (about 140 bytes an entry, keyed by profile
#: ids, which stay few) and ``_MASKS`` and ``SUIT_SWAP`` on their own at their bounds.
_SUITS_KEPT = 1 << 14
_MASKS_KEPT = 1 << 17
_QUADS_KEPT = 1 << 16
_SWAPS_KEPT = 1 << 16


def _profile_id(profile: Profile) -> int:
    found = _PROFILE_IDS.get(profile)
    if found is None:
        found = _PROFILE_IDS[profile] = len(_PROFILES)
        _PROFILES.append(profile)
    return found


#: A suit's counts for the two special forms, packed so that the four suits' values add
#: up field by field (each field has room for a whole hand): tiles, kinds held, kinds
#: held twice or more, orphan kinds held, orphan kinds held twice or more.
_TILES, _KINDS_AT, _PAIRS_AT, _ORPHANS_AT, _ORPHAN_PAIRS_AT = 0, 6, 12, 18, 24
_FIELD = 63
#: Where a suit holds orphans (terminals or honours), by ``honours``.
_ORPHAN_PLACES = ((0, 8), range(7))


def _suit_stat(key: tuple[int, ...], honours: bool) -> int:
    ends = _ORPHAN_PLACES[honours]
    return (
        sum(key) << _TILES
        | (len(key) - key.count(0)) << _KINDS_AT
        | sum(held >= 2 for held in key) << _PAIRS_AT
        | sum(key[i] > 0 for i in ends) << _ORPHANS_AT
        | sum(key[i] >= 2 for i in ends) << _ORPHAN_PAIRS_AT
    )


#: A suit's kinds by how they are held, a bit per kind (bit i: the suit's kind i) in five
#: groups of 34 bits, so that the four suits' marks placed at their first kind (0, 9, 18,
#: 27) combine into one int for the hand.
_SINGLES, _ABSENT, _ORPHANS_ABSENT, _ORPHANS_UNDER_4, _ORPHAN_PAIRED = 0, 34, 68, 102, 136
_ALL = (1 << KINDS) - 1


def _suit_marks(key: tuple[int, ...], honours: bool) -> int:
    ends = _ORPHAN_PLACES[honours]
    marks = 0
    for i, held in enumerate(key):
        marks |= (held == 1) << i + _SINGLES | (held == 0) << i + _ABSENT
        if i in ends:
            marks |= (held == 0) << i + _ORPHANS_ABSENT | (held < 4) << i + _ORPHANS_UNDER_4
            marks |= (held >= 2) << i + _ORPHAN_PAIRED
    return marks


def _suit_id(key: tuple[int, ...], honours: bool) -> int:
    ids = _SUIT_IDS[honours]
    found = ids.get(key)
    if found is None:
        found = ids[key] = len(_SUITS)
        _SUITS.append((key, honours))
        _SUIT_PROFILE.append(_profile_id(honour_profile(key) if honours else number_profile(key)))
        stat = _suit_stat(key, honours)
        _SUIT_STAT.append(_STATS.setdefault(stat, stat))
        _SUIT_MARKS.append(_suit_marks(key, honours))
        _SUIT_PLUS.append(None)
        SUIT_UP.append([0] * len(key))
        SUIT_DOWN.append([0] * len(key))
    return found


def _plus(suit: int) -> tuple[tuple[int, int], ...]:
    """The profiles of ``suit`` with one more tile of each kind it holds under 4 times,
    each once, with the kinds (a bit mask) that lead to it."""
    key, honours = _SUITS[suit]
    finals = None if honours else number_plus_finals(key)
    kinds: dict[int, int] = {}
    if finals is not None:  # the shipped automaton, read once for all nine places
        ids = _FINAL_IDS
        for i, final in enumerate(finals):
            if final >= 0:
                more = ids.get(final)
                if more is None:
                    more = ids[final] = _profile_id(final_profile(final))
                kinds[more] = kinds.get(more, 0) | 1 << i
    else:
        profile_of = honour_profile if honours else number_profile  # each keeps a cache
        for i, held in enumerate(key):
            if held < 4:
                more = _profile_id(profile_of(key[:i] + (held + 1,) + key[i + 1 :]))
                kinds[more] = kinds.get(more, 0) | 1 << i
    found = _SUIT_PLUS[suit] = tuple(kinds.items())
    return found


def _pair(a: int, b: int) -> int:
    found = _PAIRS.get(a << 20 | b)
    if found is None:
        found = _PAIRS[a << 20 | b] = _profile_id(combine_profiles(_PROFILES[a], _PROFILES[b]))
    return found


def _distance(a: int, b: int, melds: int) -> int:
    key = a << 23 | b << 3 | melds
    found = _DISTANCES.get(key)
    if found is None:
        found = _DISTANCES[key] = split_distance(_PROFILES[a], _PROFILES[b], melds)
    return found


def _suit_mask(suit: int, rest: int, melds: int) -> int:
    """The kinds of a suit whose one more tile lowers the distance of suit + rest
    (``_distance``'s look-ups written out: this runs for each new suit and rest). The
    caller keeps it in ``_MASKS``, emptied here when full."""
    if len(_MASKS) >= _MASKS_KEPT:
        _MASKS.clear()
    known = _DISTANCES
    tail = rest << 3 | melds
    base = _SUIT_PROFILE[suit]
    distance = known.get(base << 23 | tail)
    if distance is None:
        distance = _distance(base, rest, melds)
    mask = 0
    for profile, kinds in _SUIT_PLUS[suit] or _plus(suit):
        more = known.get(profile << 23 | tail)
        if more is None:
            more = _distance(profile, rest, melds)
        if more < distance:
            mask |= kinds
    return mask


def _rests(a: int, b: int, c: int, h: int, melds: int) -> tuple[int, int, int, int, int]:
    """(regular shanten, and for each suit the profile id of the other three together)
    of a hand whose suits have profiles a, b, c and h."""
    pairs = _PAIRS  # ``_pair``'s look-ups written out (profile ids are never 0)
    ab = pairs.get(a << 20 | b) or _pair(a, b)
    ch = pairs.get(c << 20 | h) or _pair(c, h)
    return (
        _distance(ab, ch, melds) - 1,
        pairs.get(b << 20 | ch) or _pair(b, ch),
        pairs.get(a << 20 | ch) or _pair(a, ch),
        pairs.get(ab << 20 | h) or _pair(ab, h),
        pairs.get(ab << 20 | c) or _pair(ab, c),
    )


def suit_ids(hand: Sequence[int]) -> list[int]:
    """The four suit ids (man, pin, sou, honours) of a hand given as 34 valid counts:
    ``effective_of`` takes them; ``step_up`` and ``step_down`` follow a hand's tiles."""
    numbers, honours = _SUIT_IDS
    counts = tuple(hand)
    m, p, s, z = counts[0:9], counts[9:18], counts[18:27], counts[27:34]
    return [
        numbers.get(m) or _suit_id(m, False),
        numbers.get(p) or _suit_id(p, False),
        numbers.get(s) or _suit_id(s, False),
        honours.get(z) or _suit_id(z, True),
    ]


#: suit id -> the suit id with one more (``SUIT_UP``) or one fewer (``SUIT_DOWN``) tile at
#: each of its places (0 until first asked), so that a walk over a round follows each
#: hand's suit ids through its draws and discards without making or hashing its counts.
SUIT_UP: list[list[int]] = [[]]
SUIT_DOWN: list[list[int]] = [[]]
#: suit id << 8 | place in << 4 | place out -> the suit id with a tile moved (a draw and
#: a discard in one suit)
SUIT_SWAP: dict[int, int] = {}


def _moved(suit: int, place: int, by: int, place_out: int = -1) -> int:
    """The suit id of ``suit`` with ``by`` more tiles at ``place`` (and one fewer at
    ``place_out``, when given)."""
    key, honours = _SUITS[suit]
    held = key[place] + by
    moved = key[:place] + (held,) + key[place + 1 :]
    if place_out >= 0:
        out = moved[place_out] - 1
        moved = moved[:place_out] + (out,) + moved[place_out + 1 :]
        if out < 0:
            raise ValueError("a kind held -1 times")
    if not 0 <= held <= 4:
        raise ValueError(f"a kind held {held} times")
    return _SUIT_IDS[honours].get(moved) or _suit_id(moved, honours)


def step_up(suit: int, place: int) -> int:
    """The suit id of ``suit`` with one more tile at ``place`` (0-8; 0-6 for honours)."""
    found = SUIT_UP[suit][place] = SUIT_UP[suit][place] or _moved(suit, place, 1)
    return found


def step_down(suit: int, place: int) -> int:
    """The suit id of ``suit`` with one tile fewer at ``place``."""
    found = SUIT_DOWN[suit][place] = SUIT_DOWN[suit][place] or _moved(suit, place, -1)
    return found


def step_swap(suit: int, place_in: int, place_out: int) -> int:
    """The suit id of ``suit`` with one more tile at ``place_in`` and one fewer at
    ``place_out`` (the suit between the two is never made)."""
    key = suit << 8 | place_in << 4 | place_out
    found = SUIT_SWAP.get(key)
    if found is None:
        if len(SUIT_SWAP) >= _SWAPS_KEPT:
            SUIT_SWAP.clear()
        found = SUIT_SWAP[key] = _moved(suit, place_in, 1, place_out)
    return found


#: Game checks under way in this process (threads: a Dask worker's), and the lock that
#: counts them: the suits' tables are emptied only when none is under way.
_HOLDING = [0]
_HOLDING_LOCK = threading.Lock()


@contextmanager
def suits_held() -> Iterator[None]:
    """Around one game's check (``results.check``): the suit ids it is given stay valid
    until it ends. As it starts, when no other check is under way and the suits' tables
    are past ``_SUITS_KEPT``, they are emptied, with everything keyed by suit ids (memos
    only: the answers are the same)."""
    with _HOLDING_LOCK:
        if not _HOLDING[0] and len(_SUITS) > _SUITS_KEPT:
            forget_suits()
        _HOLDING[0] += 1
    try:
        yield
    finally:
        with _HOLDING_LOCK:
            _HOLDING[0] -= 1


def forget_suits() -> None:
    """Empty the suits' tables and what is keyed by suit ids (ids are given from 1 again):
    only while no caller holds a suit id (``suits_held``)."""
    for ids in _SUIT_IDS:
        ids.clear()
    for table in (_SUITS, _SUIT_PROFILE, _SUIT_STAT, _SUIT_MARKS, _SUIT_PLUS, SUIT_UP, SUIT_DOWN):
        del table[1:]
    _MASKS.clear()
    SUIT_SWAP.clear()


def cache_sizes() -> dict[str, int]:
    """Entries in each of this module's caches that grow with the games (for the tests
    and benchmarks of their bounds)."""
    return {
        "suits": len(_SUITS) - 1,
        "masks": len(_MASKS),
        "quads": len(_QUADS),
        "swaps": len(SUIT_SWAP),
        "pairs": len(_PAIRS),
        "distances": len(_DISTANCES),
        "profiles": len(_PROFILES) - 1,
    }


def effective_kinds(hand: tuple[int, ...]) -> tuple[int, int]:
    """(shanten, bit mask of effective kinds: bit k set when drawing kind k lowers the
    shanten) of a 3k+1-tile hand given as 34 valid counts (13 - 3m tiles, m melds).

    The same kinds as ``effective_tiles`` (shanten(H + k) < shanten(H), a kind held 4
    times never), in one pass: see the module's docstring."""
    found = effective_of(*suit_ids(hand))
    if found is None:
        raise ValueInputError(f"effective kinds need a 3k+1-tile hand, got {sum(hand)} tiles")
    return found


def cached_shanten(counts: Sequence[int]) -> int:
    """``shanten.shanten`` of 34 counts (checked as it checks them: ``ValueInputError``),
    read through this module's caches: the audit asks it for every starting hand."""
    hand, _ = checked_counts(counts)
    i0, i1, i2, i3 = suit_ids(hand)
    stat = _SUIT_STAT
    stats = stat[i0] + stat[i1] + stat[i2] + stat[i3]
    tiles = stats & _FIELD
    profile = _SUIT_PROFILE
    regular = _quad(profile[i0], profile[i1], profile[i2], profile[i3], tiles // 3)[0]
    if tiles < 13:
        return regular
    return min(regular, *_special_shanten(stats))


def _quad(a: int, b: int, c: int, h: int, melds: int) -> tuple[int, int, int, int, int]:
    """``_rests`` kept in ``_QUADS`` by the four profile ids and the melds (12 bits each;
    larger ids, never met in practice, are not kept)."""
    if a | b | c | h >= 1 << 12:
        return _rests(a, b, c, h, melds)
    quad = a | b << 12 | c << 24 | h << 36 | melds << 48
    rests = _QUADS.get(quad)
    if rests is None:
        if len(_QUADS) >= _QUADS_KEPT:
            _QUADS.clear()
        rests = _QUADS[quad] = _rests(a, b, c, h, melds)
    return rests


def effective_of(i0: int, i1: int, i2: int, i3: int) -> tuple[int, int] | None:
    """``effective_kinds`` of the hand whose suit ids (``suit_ids``) are i0-i3; None when
    it does not hold 3k+1 tiles."""
    stat = _SUIT_STAT
    stats = stat[i0] + stat[i1] + stat[i2] + stat[i3]
    tiles = stats & _FIELD
    if tiles % 3 != 1:
        return None
    melds = tiles // 3
    profile = _SUIT_PROFILE
    a, b, c, h = profile[i0], profile[i1], profile[i2], profile[i3]
    # ``_quad``'s look-up written out (one for the four profiles, whose ids stay small)
    small = a | b | c | h < 1 << 12
    quad = a | b << 12 | c << 24 | h << 36 | melds << 48
    rests = (_QUADS.get(quad) if small else None) or _quad(a, b, c, h, melds)
    regular, r0, r1, r2, r3 = rests
    masks = _MASKS
    k0, k1 = i0 << 24 | r0 << 3 | melds, i1 << 24 | r1 << 3 | melds
    k2, k3 = i2 << 24 | r2 << 3 | melds, i3 << 24 | r3 << 3 | melds
    m0, m1, m2, m3 = masks.get(k0), masks.get(k1), masks.get(k2), masks.get(k3)
    if m0 is None:
        m0 = masks[k0] = _suit_mask(i0, r0, melds)
    if m1 is None:
        m1 = masks[k1] = _suit_mask(i1, r1, melds)
    if m2 is None:
        m2 = masks[k2] = _suit_mask(i2, r2, melds)
    if m3 is None:
        m3 = masks[k3] = _suit_mask(i3, r3, melds)
    found = regular, m0 | m1 << 9 | m2 << 18 | m3 << 27
    if melds == 4:  # 13 tiles: seven pairs and thirteen orphans as well
        near = _NEAR.get(stats)
        if near is None:
            near = _NEAR[stats] = min(_special_shanten(stats))
        if near <= regular:
            chiitoi, kokushi = _special_shanten(stats)
            marks = _SUIT_MARKS
            held = marks[i0] | marks[i1] << 9 | marks[i2] << 18 | marks[i3] << 27
            few = stats >> _KINDS_AT & _FIELD < 7
            found = _special(held, found, chiitoi, kokushi, few)
    return found


def _special_shanten(stats: int) -> tuple[int, int]:
    """(seven pairs, thirteen orphans) shanten of a 13-tile hand, from its suits' summed
    ``_suit_stat``."""
    kinds = stats >> _KINDS_AT & _FIELD
    chiitoi = 6 - (stats >> _PAIRS_AT & _FIELD) + max(0, 7 - kinds)
    orphans = stats >> _ORPHANS_AT & _FIELD
    return chiitoi, 13 - orphans - (stats >> _ORPHAN_PAIRS_AT & _FIELD > 0)


def _special(
    held: int, regular: tuple[int, int], chiitoi: int, kokushi: int, few: bool
) -> tuple[int, int]:
    """A 13-tile hand whose seven pairs or thirteen orphans form is as near as its
    regular form (``regular``: shanten and mask) or nearer; ``held`` is its
    ``_suit_marks`` at each suit's place, ``few``: it holds under 7 kinds."""
    best = min(regular[0], chiitoi, kokushi)
    out = regular[1] if regular[0] == best else 0
    if chiitoi == best:  # a single's pair; with too few kinds, any new kind too
        out |= held >> _SINGLES & _ALL
        if few:
            out |= held >> _ABSENT & _ALL
    if kokushi == best:  # a missing orphan; with no orphan pair, any orphan held under 4
        out |= held >> _ORPHANS_ABSENT & _ALL
        if not held >> _ORPHAN_PAIRED & _ALL:
            out |= held >> _ORPHANS_UNDER_4 & _ALL
    return best, out
