"""MT19937 exactly as mt19937ar.c (Matsumoto & Nishimura, 2002 version).

Theory of operation: Tenhou and SEGA both seed the generator with
``init_by_array(key, len(key))`` and read ``genrand_int32`` outputs. CPython's
``random.Random`` is the same generator, so the fast path builds the state
through CPython and reads outputs in C: ``Random(n)`` calls ``init_by_array``
with the 32-bit words of ``n`` (little-endian order) but drops high zero words,
so it is used only when the key's last word is non-zero; otherwise the state is
built by the pure port below and loaded with ``setstate``. The pure port is
also what tests cross-check the fast path against.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

N = 624
M = 397
MASK = 0xFFFFFFFF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF


def state_from_seed(seed: int) -> list[int]:
    """``init_genrand(seed)``: the 624-word state."""
    mt = [0] * N
    mt[0] = seed & MASK
    for i in range(1, N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK
    return mt


def state_from_key(key: Sequence[int]) -> list[int]:
    """``init_by_array(key, len(key))``: the 624-word state (before any output)."""
    if not key:
        raise ValueError("init_by_array needs a key of at least one word")
    mt = state_from_seed(19650218)
    i, j = 1, 0
    length = len(key)
    for _ in range(max(N, length)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    return mt


class MT19937:
    """The pure-Python generator: slow, obviously correct, used to cross-check."""

    __slots__ = ("index", "mt")

    def __init__(self, key: Sequence[int]) -> None:
        self.mt = state_from_key(key)
        self.index = N

    def _twist(self) -> None:
        mt = self.mt
        for kk in range(N):
            y = (mt[kk] & _UPPER) | (mt[(kk + 1) % N] & _LOWER)
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self.index = 0

    def genrand_int32(self) -> int:
        if self.index >= N:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & MASK


def random_from_key(key: Sequence[int]) -> random.Random:
    """A CPython ``Random`` in the state ``init_by_array(key)`` leaves (fast path).

    Its ``getrandbits(32)`` is ``genrand_int32``, and ``randbytes(4 * k)`` is the
    next k outputs as little-endian words.
    """
    try:
        raw = struct.pack(f"<{len(key)}I", *key)
    except struct.error:
        raise ValueError("MT19937 key words must be 32-bit unsigned integers") from None
    return random_from_key_bytes(raw)


def random_from_key_bytes(raw: bytes) -> random.Random:
    """``random_from_key`` for a key given as its little-endian bytes (4 per word)."""
    if len(raw) % 4:
        raise ValueError("an MT19937 key in bytes must be a whole number of 32-bit words")
    if raw[-4:].strip(b"\0"):
        return random.Random(int.from_bytes(raw, "little"))
    rng = random.Random()
    key = struct.unpack(f"<{len(raw) // 4}I", raw)
    rng.setstate((3, tuple(state_from_key(key)) + (N,), None))
    return rng
