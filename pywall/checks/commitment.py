"""Tenhou's pre-game commitment: the SHA-512 published before a game.

Theory of operation (tenhou.net/stat/rand: "SHA512のソースは4(座席並べ替え情報)
+ 624*8(乱数種) = 4996bytes"; the encoding from seeds/000, confirmed with
Tenhou by its author): before games start Tenhou publishes, per lobby rule, one
SHA-512 per game over

    source = seat order (4 ASCII digits) + seed (lowercase hex of its 2496 bytes)

The seat order: sort the players' names (code-point order) and number them
0, 1, 2, 3; the digits say which of them sat East, South, West and North at
the start (3-player games: the absent North is ``3``). seeds/000's example:
East ちゃいますんこ, South アグモン, West NoName -> ``1203``. Players with equal
names (several ``NoName``) make the order ambiguous, so every consistent order
is tried. seeds/000 built its hex as ``hex(int.from_bytes(seed, "big"))``,
which drops leading zeros, while the byte count 4996 says they are kept; both
forms are tried and the result says which matched. Tenhou calls its own
server-side checker "not a strict verification"; this one runs locally.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from pywall.checks.tenhou import seed_bytes_from_seed
from pywall.core.errors import SeedError, ValueInputError

SCHEMA = "pywall.commitment/1"
FULL = "full"
LEADING_ZEROS_DROPPED = "leading_zeros_dropped"
HASH_HEX_LENGTH = 128
_HASH_TOKEN = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{128}(?![0-9A-Fa-f])")


@dataclass(frozen=True, slots=True)
class FormHash:
    form: str  # "full" | "leading_zeros_dropped"
    hash: str  # lowercase hex


@dataclass(frozen=True, slots=True)
class Candidate:
    """One consistent seat order and the hash of each distinct source form."""

    seat_order: str
    hashes: tuple[FormHash, ...]


@dataclass(frozen=True, slots=True)
class CommitmentResult:
    matched: bool
    seat_order: str | None
    hash: str | None
    form: str | None
    line: int | None  # 1-based line of the match in a pasted list
    candidates: tuple[Candidate, ...]
    published: int  # how many hashes were compared against

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "matched": self.matched,
            "seat_order": self.seat_order,
            "hash": self.hash,
            "form": self.form,
            "line": self.line,
            "published_hashes": self.published,
            "candidates": [
                {"seat_order": c.seat_order, "hashes": {fh.form: fh.hash for fh in c.hashes}}
                for c in self.candidates
            ],
        }


# --- seat order ------------------------------------------------------------------


def seat_orders_from_names(names: Sequence[str]) -> tuple[str, ...]:
    """Every seat-order string consistent with the names by seat (seat 0 = East).

    Sorted index i of the code-point sort is the digit; equal names may take
    their indexes in any order. 3 names: North is ``3``.
    """
    if isinstance(names, str) or len(names) not in (3, 4):
        raise ValueInputError(f"a Tenhou game has 3 or 4 players, got {_count(names)} names")
    if not all(isinstance(n, str) for n in names):
        raise ValueInputError("player names must be text")
    ordered = sorted(names)
    orders = {
        "".join(map(str, perm)) + ("3" if len(names) == 3 else "")
        for perm in permutations(range(len(names)))
        if all(ordered[i] == names[seat] for seat, i in enumerate(perm))
    }
    return tuple(sorted(orders))


def _count(names: object) -> str:
    return str(len(names)) if isinstance(names, Sequence) and not isinstance(names, str) else "1"


# --- source and hash ----------------------------------------------------------------


def seed_hex_from_bytes(seed: bytes, form: str = FULL) -> str:
    """The seed as lowercase hex: all 4992 digits, or with leading zeros dropped."""
    if form == FULL:
        return seed.hex()
    if form == LEADING_ZEROS_DROPPED:
        return f"{int.from_bytes(seed, 'big'):x}"
    raise ValueInputError(f"unknown source form {form!r}")


def source_from_seed(seat_order: str, seed: bytes, form: str = FULL) -> bytes:
    """The bytes Tenhou hashes: 4 digits + the seed's hex (4996 bytes in full form)."""
    if len(seat_order) != 4 or not seat_order.isascii() or not seat_order.isdigit():
        raise ValueInputError(f"seat order {seat_order!r} is not 4 digits")
    return (seat_order + seed_hex_from_bytes(seed, form)).encode("ascii")


def hash_from_source(source: bytes) -> str:
    return hashlib.sha512(source).hexdigest()


def candidates_from_game(seed: str, names: Sequence[str]) -> tuple[Candidate, ...]:
    """Every seat order the names allow, each with its hash in each distinct form."""
    try:
        raw = seed_bytes_from_seed(seed)
    except SeedError as exc:
        raise SeedError(f"{exc.message} (pre-game hashes cover base64 seeds only)") from None
    forms = [FULL] if raw[0] >= 0x10 else [FULL, LEADING_ZEROS_DROPPED]
    return tuple(
        Candidate(
            order,
            tuple(FormHash(f, hash_from_source(source_from_seed(order, raw, f))) for f in forms),
        )
        for order in seat_orders_from_names(names)
    )


# --- published hashes ------------------------------------------------------------------


def hash_from_text(text: str) -> str:
    """One published hash typed or pasted by a person: 128 hex digits."""
    value = text.strip().lower() if isinstance(text, str) else ""
    if len(value) != HASH_HEX_LENGTH or any(c not in "0123456789abcdef" for c in value):
        shown = value if len(value) <= 40 else value[:37] + "..."
        raise ValueInputError(f"{shown!r} is not a SHA-512 hash (128 hex digits)")
    return value


def hashes_from_list(text: str) -> tuple[tuple[int, str], ...]:
    """Every 128-hex-digit token in any text (a saved tenhou.net/stat/rand page), with its line."""
    if not isinstance(text, str):
        raise ValueInputError("the hash list must be text")
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        found.extend((number, m.group(0).lower()) for m in _HASH_TOKEN.finditer(line))
    return tuple(found)


def match_candidates(
    candidates: Sequence[Candidate], published: Sequence[tuple[int | None, str]]
) -> CommitmentResult:
    """The first published hash any candidate has (published order, then full form first)."""
    by_hash = {fh.hash: (c.seat_order, fh.form) for c in candidates for fh in reversed(c.hashes)}
    for line, value in published:
        if value in by_hash:
            order, form = by_hash[value]
            return CommitmentResult(
                True, order, value, form, line, tuple(candidates), len(published)
            )
    return CommitmentResult(False, None, None, None, None, tuple(candidates), len(published))


def check_hash(seed: str, names: Sequence[str], published_hash: str) -> CommitmentResult:
    """Compare a game (seed + names by seat) with one published hash."""
    value = hash_from_text(published_hash)
    return match_candidates(candidates_from_game(seed, names), [(None, value)])


def check_list(seed: str, names: Sequence[str], text: str) -> CommitmentResult:
    """Search any pasted text for the game's hash; a text with no hash at all is an error."""
    published = hashes_from_list(text)
    if not published:
        raise ValueInputError("the hash list has no SHA-512 hash in it (128 hex digits)")
    return match_candidates(candidates_from_game(seed, names), published)
