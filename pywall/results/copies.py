"""Copies of one game: which one the audit counts, decided by their content, never by order.

Theory of operation
-------------------
Two files hold the same game when they have the same fingerprint (``check.fingerprint``:
the seed, or the walls). A platform's seed or hash covers the walls only: the players'
names, the rule and the players' choices (discards, calls) come from the file and
nothing checks them, so two copies of one game can differ and both verify. The audit
therefore compares the copies themselves:

* a copy's ``CopyKey`` is a digest of everything in the game that is not an event (the
  names, the rule, the player count, the platform: ``head``) and a chain of 4-byte marks,
  one per item in the record's order (each round's start, each event, the final result):
  mark k is the first 4 bytes of ``blake2b(digest k-1 + item k)``, so a copy cut short
  has the first marks of the whole one, and any difference changes every mark after it;
* copies whose heads are equal and whose marks are prefixes of one another (a copy cut
  short, or equal copies) count once, as the most complete: the most rounds, then the
  most items, then the first path in code-point order (equal copies);
* any other difference (names, rule, an event) is a *conflict*: the audit cannot tell
  which copy is the game, so none of them counts, and it says which files disagree.

The rule looks at the set of copies only, so the same files give the same answer in any
order and however they are split between workers (``Copies.merge``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from pywall.core.errors import ValueInputError
from pywall.core.model import Game

MARK = 4  # bytes of each item's mark
HEAD = 32  # hex digits of the head's digest


def _chain(items: list[bytes]) -> bytes:
    """The marks of a record's items: each the start of a digest of all items up to it."""
    marks = bytearray()
    digest = b""
    for item in items:
        digest = hashlib.blake2b(digest + item, digest_size=16).digest()
        marks += digest[:MARK]
    return bytes(marks)


@dataclass(frozen=True, slots=True)
class CopyKey:
    """What one copy of a game says, in the form that compares copies: see above."""

    head: str
    rounds: int
    marks: bytes

    @property
    def items(self) -> int:
        return len(self.marks) // MARK

    @property
    def size(self) -> tuple[int, int]:
        """How complete the copy is: rounds, then items."""
        return self.rounds, self.items

    def covers(self, other: CopyKey) -> bool:
        """Whether ``other`` is this copy or a copy of it cut short."""
        return self.head == other.head and self.marks.startswith(other.marks)

    def to_list(self) -> list[Any]:
        return [self.head, self.rounds, base64.b64encode(self.marks).decode("ascii")]

    @classmethod
    def from_list(cls, value: Any, where: str) -> CopyKey:
        """A key as ``to_list`` gives it, checked: ``ValueInputError`` naming ``where``."""
        bad = ValueInputError(f"{where}: not a game's copy key: [head, rounds, marks]")
        if not (isinstance(value, list) and len(value) == 3):
            raise bad
        head, rounds, marks = value
        if not (
            isinstance(head, str)
            and len(head) == HEAD
            and all(c in "0123456789abcdef" for c in head)
            and type(rounds) is int
            and 0 <= rounds
            and isinstance(marks, str)
        ):
            raise bad
        try:
            raw = base64.b64decode(marks.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise bad from None
        if len(raw) % MARK:
            raise bad
        return cls(head, rounds, raw)


def copy_key(game: Game) -> CopyKey:
    """A game's copy key: its head (what is not an event) and its items' marks."""
    head = repr(
        (
            game.platform.value,
            game.player_count,
            game.names,
            game.go_type,
            game.lobby,
            game.rule,
            game.rule_length,
            game.ranks,
            game.rates,
            game.testing_environment,
        )
    )
    items: list[bytes] = []
    for rnd in game.rounds:
        items.append(repr(replace(rnd, events=())).encode())
        items += (repr(ev).encode() for ev in rnd.events)
    if game.complete:
        items.append(b"end")
    digest = hashlib.blake2b(head.encode(), digest_size=HEAD // 2).hexdigest()
    return CopyKey(digest, len(game.rounds), _chain(items))


@dataclass(frozen=True, slots=True)
class Copy:
    path: str
    key: CopyKey


@dataclass(slots=True)
class Copies:
    """Every copy of one game seen so far, and the record of the one that counts
    (``None`` once the copies conflict: then none counts, whatever comes after)."""

    copies: list[Copy] = field(default_factory=list)
    best: Copy | None = None
    record: bytes | None = None  # the best copy's record, packed (``audit_tally.packed``)

    @property
    def conflict(self) -> bool:
        return bool(self.copies) and self.best is None

    def add(self, copy: Copy, record: bytes | None) -> None:
        """One more copy (``record``: its packed record; needed only if it can count)."""
        self.copies.append(copy)
        best = self.best
        if best is None:
            if len(self.copies) == 1:
                self.best, self.record = copy, record
            return
        if copy.key.size > best.key.size or (
            copy.key.size == best.key.size and copy.path < best.path
        ):
            bigger, smaller = copy, best
        else:
            bigger, smaller = best, copy
        if not bigger.key.covers(smaller.key) or (bigger is copy and record is None):
            self.best = self.record = None  # a conflict: none of them counts
        elif bigger is copy:
            self.best, self.record = copy, record

    def merge(self, other: Copies) -> None:
        """Another worker's or run's copies of the same game."""
        if other.conflict:
            self.copies += other.copies
            self.best = self.record = None
            return
        if other.best is not None:
            self.add(other.best, other.record)
        rest = [c for c in other.copies if c is not other.best]
        for c in rest:
            self.add(c, None)

    def repeats(self) -> list[Copy]:
        """The copies that do not count because another copy of the game does."""
        best = self.best
        return [] if best is None else [c for c in self.copies if c is not best]
