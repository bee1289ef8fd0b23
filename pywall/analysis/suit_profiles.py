"""Suit profiles: the per-suit tables behind the regular form's shanten.

``pywall.analysis.shanten`` asks ``regular_from_suits`` for a checked hand's regular form.

Theory of operation
-------------------
A complete regular hand T of k melds and a pair splits by suit, so the fewest tiles to
add to a hand H to hold one is the minimum over the ways to share the k melds and
the one pair among the four suits of the sum of d_suit(m, p): the fewest tiles to
add to that suit's tiles to hold m melds and p pairs inside the suit. These ten
numbers (m = 0..4, p = 0..1) are the suit's *profile*; combining two suits is a
min-plus convolution of profiles. This is tomohxx's per-suit table method
(tomohxx/shanten-number, "mahjong-algorithm-book"), built here lazily:

* A number suit's profile comes from a small automaton that reads the nine counts
  left to right. Its state is a vector of fewest-tiles-added-so-far, one entry per
  (sequences waiting for this kind only, sequences waiting for this kind and the
  next, melds so far, pair so far). Distinct vectors are interned as node numbers
  and each node's successors are computed on first use, so the table for every
  suit of at most 14 tiles (about 11,000 nodes) costs well under a second in
  CPython, and a hand costs a few dictionary look-ups. That whole table, minimised,
  ships as ``pywall.analysis.shanten_table`` (see ``suit_table``), so a fresh process reads a
  suit's profile in nine steps instead of building nodes for its first hands.
* An honour kind is a triplet, a pair or nothing, so honour profiles need no
  automaton. The 4-copy limit is the condition "tiles of a kind used <= 4".
"""

from __future__ import annotations

import struct
import zlib
from array import array
from binascii import a2b_base64
from collections.abc import Sequence
from functools import cache
from itertools import product

#: Profile entries are capped here: no hand of at most 14 tiles is 9-shanten, so a
#: capped value never decides a result.
CAP = 10
#: A profile: index ``melds * 2 + pair`` -> fewest tiles to add (capped at ``CAP``).
Profile = tuple[int, ...]

# Automaton states (waiting for this kind, waiting for this and next, melds, pair).
_STATES = tuple(
    (a, b, m, p) for m in range(5) for p in (0, 1) for a in range(5) for b in range(5) if a + b <= m
)
_INDEX = {state: i for i, state in enumerate(_STATES)}
_FINAL_SLOTS = tuple(_INDEX[(0, 0, m, p)] for m in range(5) for p in (0, 1))


# --- number-suit automaton -------------------------------------------------------


def _moves(can_start: bool) -> tuple[tuple[int, int, int], ...]:
    """(from state, to state, tiles of this kind used) for every way to read a kind."""
    moves = []
    for src, (a, b, m, p) in enumerate(_STATES):
        for triplet, pair in product((0, 1), (0, 1) if p == 0 else (0,)):
            base = a + b + 3 * triplet + 2 * pair
            for starts in range(5 - base if can_start else min(1, 5 - base)):
                melds = m + triplet + starts
                if melds <= 4:
                    dst = _INDEX[(b, starts, melds, p + pair)]
                    moves.append((src, dst, base + starts))
    return tuple(moves)


def _moves_by_count(can_start: bool) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    moves = _moves(can_start)
    return tuple(tuple((s, d, max(0, used - held)) for s, d, used in moves) for held in range(5))


_MOVES = {True: _moves_by_count(True), False: _moves_by_count(False)}
_START = (0,) + (CAP,) * (len(_STATES) - 1)

#: Node tables: node number -> (position, cost vector); (node, count) -> node.
_NODE_KEYS: list[tuple[int, tuple[int, ...]]] = [(0, _START)]
_NODE_IDS: dict[tuple[int, tuple[int, ...]], int] = {(0, _START): 0}
_NEXT: dict[tuple[int, int], int] = {}

#: The node every number suit starts from.
NUMBER_SUIT_START = 0


def _successor(costs: tuple[int, ...], held: int, can_start: bool) -> tuple[int, ...]:
    out = [CAP] * len(_STATES)
    for src, dst, add in _MOVES[can_start][held]:
        cost = costs[src]
        if cost < CAP:
            cost += add
            if cost < out[dst]:  # noqa: PLR1730 (a hot loop: min() is a call)
                out[dst] = cost
    return tuple(out)


def number_suit_step(node: int, held: int) -> int:
    """The node after reading one kind held ``held`` times (0-4)."""
    nxt = _NEXT.get((node, held))
    if nxt is None:
        position, costs = _NODE_KEYS[node]
        key = (position + 1, _successor(costs, held, position <= 6))
        nxt = _NODE_IDS.get(key)
        if nxt is None:
            nxt = _NODE_IDS[key] = len(_NODE_KEYS)
            _NODE_KEYS.append(key)
        _NEXT[(node, held)] = nxt
    return nxt


def number_suit_profile(node: int) -> Profile:
    """The profile of a suit whose nine counts led from the start to ``node``."""
    position, costs = _NODE_KEYS[node]
    if position != 9:
        raise ValueError("a number-suit profile needs all nine kinds read")
    return tuple(costs[slot] for slot in _FINAL_SLOTS)


def table_size() -> int:
    """Nodes built so far in the number-suit automaton (for benchmarks)."""
    return len(_NODE_KEYS)


_NUMBER_PROFILES: dict[tuple[int, ...], Profile] = {}


def number_profile(counts: Sequence[int]) -> Profile:
    """Profile of one number suit given its nine counts."""
    key = tuple(counts)
    profile = _NUMBER_PROFILES.get(key)
    if profile is None:
        profile = _table_profile(key)
        if profile is None:  # a suit of over 14 tiles: the automaton itself
            node = NUMBER_SUIT_START
            for held in key:
                node = number_suit_step(node, held)
            profile = number_suit_profile(node)
        _NUMBER_PROFILES[key] = profile
    return profile


# --- the automaton, built once and shipped ---------------------------------------
# Building nodes as suits come would make a fresh process (a page's worker, a CLI run)
# pay for every new suit shape of its first hands.
# ``suit_table`` is the whole automaton for suits of at most 14 tiles, minimised (nodes
# whose every continuation gives the same profile are one node: 11,307 nodes before,
# 4,372 after) and packed; ``pywall.analysis.shanten_table`` holds it as written by
# tools/make_shanten_table.py, and a test holds it equal to this function.
# Packed: "<HH" (inner nodes, final nodes), then 5 uint16 per inner node (the next node
# for 0-4 copies of the kind; 0xFFFF past 14 tiles; nodes after the ninth kind are
# numbered from the inner count on), then 10 bytes per final node (its profile).

_NO_NODE = 0xFFFF
_TABLE_TILES = 14


def suit_table() -> bytes:
    """The number-suit automaton for suits of at most 14 tiles, minimised and packed."""
    levels: list[list[int]] = [[NUMBER_SUIT_START]]
    steps: dict[tuple[int, int], int] = {}
    reached = {(NUMBER_SUIT_START, 0)}
    for _ in range(9):
        following: set[tuple[int, int]] = set()
        for node, tiles in reached:
            for held in range(min(4, _TABLE_TILES - tiles) + 1):
                steps[node, held] = nxt = number_suit_step(node, held)
                following.add((nxt, tiles + held))
        reached = following
        # in the order of the nodes' own keys, not of their numbers (which depend on
        # the hands seen before): the same table from any process
        levels.append(sorted({node for node, _ in following}, key=_NODE_KEYS.__getitem__))
    # Minimise from the last kind back: a node's class is its profile (after the ninth
    # kind) or the classes its five moves lead to; each class is numbered per level.
    final = {node: number_suit_profile(node) for node in levels[9]}
    profiles = sorted(set(final.values()))
    rank = {profile: k for k, profile in enumerate(profiles)}
    number: dict[int, int] = {node: rank[profile] for node, profile in final.items()}
    rows: list[list[tuple[int, ...]]] = [[] for _ in range(9)]
    for depth in range(8, -1, -1):
        classes: dict[tuple[int, ...], int] = {}
        for node in levels[depth]:
            row = tuple(number[steps[node, h]] if (node, h) in steps else -1 for h in range(5))
            number[node] = classes.setdefault(row, len(classes))
        rows[depth] = list(classes)
    offsets = [0]
    for depth in range(9):
        offsets.append(offsets[-1] + len(rows[depth]))
    inner = offsets[9]
    out = [_NO_NODE] * (inner * 5)
    for depth in range(9):
        for k, row in enumerate(rows[depth]):
            for held, target in enumerate(row):
                if target >= 0:
                    out[(offsets[depth] + k) * 5 + held] = offsets[depth + 1] + target
    return struct.pack(f"<HH{len(out)}H", inner, len(profiles), *out) + bytes(
        v for p in profiles for v in p
    )


def _unpack_table(raw: bytes) -> tuple[array[int], tuple[Profile, ...], int]:
    inner, finals = struct.unpack_from("<HH", raw)
    steps = array("H", raw[4 : 4 + inner * 10])
    if array("H", [1]).tobytes() != b"\x01\x00":  # a big-endian machine
        steps.byteswap()
    tail = raw[4 + inner * 10 :]
    profiles = tuple(tuple(tail[k * 10 : k * 10 + 10]) for k in range(finals))
    return steps, profiles, inner


@cache
def _shipped_table() -> tuple[array[int], tuple[Profile, ...], int]:
    """``pywall.analysis.shanten_table``, unpacked on the first hand (a few milliseconds)."""
    from pywall.analysis.shanten_table import PACKED

    return _unpack_table(zlib.decompress(a2b_base64(PACKED)))


def _table_profile(key: tuple[int, ...]) -> Profile | None:
    """A suit's profile from the shipped automaton (loaded on first use); None past it."""
    steps, profiles, inner = _shipped_table()
    node = 0
    for held in key:
        node = steps[node * 5 + held]
        if node == _NO_NODE:
            return None
    return profiles[node - inner]


def number_plus_finals(key: tuple[int, ...]) -> list[int] | None:
    """For each of a number suit's nine places, the shipped automaton's final profile
    index (``final_profile``) of the suit with one more tile there; -1 where the place
    holds 4. None for a suit of over 13 tiles (past the table). One walk of the suit's
    prefix, then each place's suffix: the draw audit asks it for every new suit."""
    steps, _, inner = _shipped_table()
    prefix = []
    node = 0
    for held in key:
        prefix.append(node)
        node = steps[node * 5 + held]
        if node == _NO_NODE:
            return None
    out = []
    for i, held in enumerate(key):
        if held == 4:
            out.append(-1)
            continue
        node = steps[prefix[i] * 5 + held + 1]
        for later in key[i + 1 :]:
            if node == _NO_NODE:
                return None
            node = steps[node * 5 + later]
        if node == _NO_NODE:
            return None
        out.append(node - inner)
    return out


def final_profile(index: int) -> Profile:
    """The profile of the shipped automaton's final node ``index``."""
    return _shipped_table()[1][index]


# --- honours and combining ------------------------------------------------------

_HONOUR_PROFILES: dict[tuple[int, ...], Profile] = {}


def _honour_profile_sorted(counts: tuple[int, ...]) -> Profile:
    best = [0] + [CAP] * 9
    for held in counts:
        options = ((0, 0, 0), (1, 0, max(0, 3 - held)), (0, 1, max(0, 2 - held)))
        new = [CAP] * 10
        for slot, cost in enumerate(best):
            if cost >= CAP:
                continue
            for melds, pair, add in options:
                target = slot + melds * 2 + pair
                if melds * 2 + slot < 10 and slot % 2 + pair <= 1:
                    new[target] = min(new[target], cost + add, CAP)
        best = new
    return tuple(best)


def honour_profile(counts: Sequence[int]) -> Profile:
    """Profile of the seven honour kinds (order does not matter)."""
    key = tuple(counts)
    profile = _HONOUR_PROFILES.get(key)
    if profile is None:
        shape = tuple(sorted(key, reverse=True))
        profile = _HONOUR_PROFILES.get(shape) or _honour_profile_sorted(shape)
        _HONOUR_PROFILES[key] = _HONOUR_PROFILES[shape] = profile
    return profile


_COMBINED: dict[tuple[Profile, Profile, int], Profile] = {}


def combine_profiles(a: Profile, b: Profile, cap: int = CAP) -> Profile:
    """Min-plus convolution: the profile of two suits' tiles taken together."""
    key = (a, b, cap)
    out = _COMBINED.get(key)
    if out is None:
        out = _COMBINED[key] = _convolve(a, b, cap)
    return out


def _convolve(a: Profile, b: Profile, cap: int) -> Profile:
    """Slot ``s`` (melds * 2 + pair) of two profiles together: the least a[i] + b[s - i]
    over the splits of its melds and pair (``i`` even when there is no pair to place),
    capped. Written out, it takes about a quarter of the time of the loop over the splits
    (2.6 against 9.3 µs in CPython), which a fresh process runs for every new pair of
    profiles (``convolve_by_definition`` in the tests is the loop)."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 = a
    b0, b1, b2, b3, b4, b5, b6, b7, b8, b9 = b
    return (
        min(cap, a0 + b0),
        min(cap, a0 + b1, a1 + b0),
        min(cap, a0 + b2, a2 + b0),
        min(cap, a0 + b3, a1 + b2, a2 + b1, a3 + b0),
        min(cap, a0 + b4, a2 + b2, a4 + b0),
        min(cap, a0 + b5, a1 + b4, a2 + b3, a3 + b2, a4 + b1, a5 + b0),
        min(cap, a0 + b6, a2 + b4, a4 + b2, a6 + b0),
        min(cap, a0 + b7, a1 + b6, a2 + b5, a3 + b4, a4 + b3, a5 + b2, a6 + b1, a7 + b0),
        min(cap, a0 + b8, a2 + b6, a4 + b4, a6 + b2, a8 + b0),
        min(
            cap,
            a0 + b9,
            a1 + b8,
            a2 + b7,
            a3 + b6,
            a4 + b5,
            a5 + b4,
            a6 + b3,
            a7 + b2,
            a8 + b1,
            a9 + b0,
        ),
    )


def split_distance(a: Profile, b: Profile, melds: int) -> int:
    """Fewest tiles to add for ``melds`` melds and a pair from two profiles' tiles."""
    return min([a[i] + b[j] for i, j in _SPLITS[melds]])


#: For ``melds`` melds and a pair: the (slot in a, slot in b) of each way to split them.
_SPLITS = tuple(
    tuple((m * 2 + p, (melds - m) * 2 + 1 - p) for m in range(melds + 1) for p in (0, 1))
    for melds in range(5)
)


# --- a hand's regular form --------------------------------------------------------


def regular_from_suits(hand: tuple[int, ...], melds: int) -> int:
    """The regular form's shanten of a checked hand (34 counts) that needs ``melds`` melds
    and a pair: its four suits' profiles, combined in pairs, split at their best. Lives with
    the caches it reads first (a dict look-up, no call, on shanten's hot path)."""
    a = _NUMBER_PROFILES.get(hand[0:9]) or number_profile(hand[0:9])
    b = _NUMBER_PROFILES.get(hand[9:18]) or number_profile(hand[9:18])
    c = _NUMBER_PROFILES.get(hand[18:27]) or number_profile(hand[18:27])
    h = _HONOUR_PROFILES.get(hand[27:34]) or honour_profile(hand[27:34])
    ab = _COMBINED.get((a, b, CAP)) or combine_profiles(a, b)
    ch = _COMBINED.get((c, h, CAP)) or combine_profiles(c, h)
    return split_distance(ab, ch, melds) - 1
