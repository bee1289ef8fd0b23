"""Copies of one game: which one the audit counts, decided by their content, never by order.

Theory of operation
-------------------
Two files hold the same game when they have the same fingerprint (``check.fingerprint``:
the seed, or the walls). A platform's seed or hash covers the walls only: the players'
names, the rule and the players' choices (discards, calls) come from the file and
nothing checks them, so two copies of one game can differ and both verify. The audit
therefore compares the copies themselves:

* a copy's ``CopyKey`` is a digest of everything in the game that is not an event (the
  names, the rule, the player count, the platform: ``head``) and its items in the
  record's order (each round's start, each event, the final result), one line each,
  compressed (``stream``): a copy cut short is the first lines of the whole one;
* copies whose heads are equal and whose items are prefixes of one another (a copy cut
  short, or equal copies) count once, as the most complete: the most rounds, then the
  most items, then the first path in code-point order (equal copies);
* any other difference (names, rule, an event) is a *conflict*: the audit cannot tell
  which copy is the game, so none of them counts, and it says which files disagree.

The rule looks at the set of copies only, so the same files give the same answer in any
order and however they are split between workers (``Copies.merge``). The items are
compared exactly: a game with one copy may let its items go once counted (``drop``: a
16-byte digest stands in for them), and is read again before another copy is compared
with it (``restore``: the digest only tells that the copy read again is the one read
before). A real game's stream is about 1.5 KB.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from dataclasses import dataclass, field, replace
from typing import Any

from pywall.core.errors import ValueInputError
from pywall.core.limits import MAX_RECORD_BYTES
from pywall.core.model import Discard, Draw, Event, Game

HEAD = 32  # hex digits of the head's digest


def _item(event: Event) -> bytes:
    """An event as one line of the stream: draws and discards (most events) written
    directly, the rest as their ``repr`` (a dataclass's repr is several times slower;
    a repr escapes any newline, so a line is one item)."""
    if isinstance(event, Draw):
        return b"T%d,%d" % (event.seat, event.tile)
    if isinstance(event, Discard):
        return b"D%d,%d" % (event.seat, event.tile)
    return repr(event).encode()


def _table(mark: bytes) -> tuple[tuple[bytes | None, ...], ...]:
    """``_item``'s line (with its newline) of a draw or discard, by seat and tile: 4
    seats of 136 tiles, each followed by as many ``None`` (a negative index, or a seat
    or tile past the table, then fails: ``_round_lines`` writes that event as ``_item``
    does, so every line is exactly ``_item``'s)."""
    none: tuple[bytes | None, ...] = (None,) * 272
    seats = [
        (*(b"%s%d,%d\n" % (mark, seat, tile) for tile in range(136)), *none[:136])
        for seat in range(4)
    ]
    return (*seats, *(none,) * 4)


_DRAW_LINES, _DISCARD_LINES = _table(b"T"), _table(b"D")


def _round_lines(events: tuple[Event, ...]) -> list[bytes]:
    """A round's events as ``_item``'s lines, each with its newline: draws and discards
    (most events) read from a table, with no formatting (this runs for every event of
    every audited game)."""
    draws, discards = _DRAW_LINES, _DISCARD_LINES
    try:
        lines = [
            draws[e.seat][e.tile]
            if type(e) is Draw
            else discards[e.seat][e.tile]
            if type(e) is Discard
            else _item(e) + b"\n"
            for e in events
        ]
        if None not in lines:
            return lines  # type: ignore[return-value]
    except IndexError:
        pass
    return [_item(e) + b"\n" for e in events]  # a seat or tile out of the tables


def _lines(stream: bytes) -> bytes:
    """A stream's items, one a line (``stream`` made here or read by ``from_list``: its
    size is bounded)."""
    return zlib.decompress(stream)


@dataclass(frozen=True, slots=True)
class CopyKey:
    """What one copy of a game says, in the form that compares copies: see above."""

    head: str
    rounds: int
    items: int
    stream: bytes  # the items, one a line, compressed

    @property
    def size(self) -> tuple[int, int]:
        """How complete the copy is: rounds, then items."""
        return self.rounds, self.items

    def covers(self, other: CopyKey) -> bool:
        """Whether ``other`` is this copy or a copy of it cut short."""
        if self.head != other.head or other.size > self.size:
            return False
        return other.stream == self.stream or _lines(self.stream).startswith(_lines(other.stream))

    def to_list(self) -> list[Any]:
        stream = base64.b64encode(self.stream).decode("ascii")
        return [self.head, self.rounds, self.items, stream]

    @classmethod
    def from_list(cls, value: Any, where: str) -> CopyKey:
        """A key as ``to_list`` gives it, checked (its stream read whole, at most
        ``MAX_RECORD_BYTES``): ``ValueInputError`` naming ``where``."""
        bad = ValueInputError(f"{where}: not a game's copy key: [head, rounds, items, stream]")
        if not (isinstance(value, list) and len(value) == 4):
            raise bad
        head, rounds, items, stream = value
        if not (
            isinstance(head, str)
            and len(head) == HEAD
            and all(c in "0123456789abcdef" for c in head)
            and type(rounds) is int
            and type(items) is int
            and 0 <= rounds <= items
            and isinstance(stream, str)
        ):
            raise bad
        try:
            raw = base64.b64decode(stream.encode("ascii"), validate=True)
            reader = zlib.decompressobj()
            lines = reader.decompress(raw, MAX_RECORD_BYTES + 1)
        except (binascii.Error, UnicodeEncodeError, zlib.error):
            raise bad from None
        if len(lines) > MAX_RECORD_BYTES or not reader.eof or lines.count(b"\n") != items:
            raise bad
        return cls(head, rounds, items, raw)


def copy_key(game: Game) -> CopyKey:
    """A game's copy key: its head (what is not an event) and its items."""
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
    lines: list[bytes] = []
    for rnd in game.rounds:
        lines.append(repr(replace(rnd, events=())).encode() + b"\n")
        lines += _round_lines(rnd.events)
    if game.complete:
        lines.append(b"end\n")
    digest = hashlib.blake2b(head.encode(), digest_size=HEAD // 2).hexdigest()
    stream = zlib.compress(b"".join(lines), 6)
    return CopyKey(digest, len(game.rounds), len(lines), stream)


def digest_of(key: CopyKey) -> bytes:
    """A digest of a copy's items (``Copies.drop``: what stands in for them while the
    game has one copy, to tell that a copy read again is the one read before)."""
    return hashlib.blake2b(_lines(key.stream), digest_size=16).digest()


@dataclass(frozen=True, slots=True)
class Copy:
    path: str
    key: CopyKey
    at: int = -1  # its place among the records its tally was given (to read it again)
    source: int = 0  # which of its tally's readers reads it again (``AuditTally.readers``)


@dataclass(slots=True)
class Copies:
    """Every copy of one game seen so far, and the record of the one that counts
    (``None`` once the copies conflict: then none counts, whatever comes after).

    A game with one copy may be ``dropped``: its items and record let go once counted,
    its key's stream a digest of its items (``digest_of``); before another copy can be
    compared with it, it is read again (``restore``)."""

    copies: list[Copy] = field(default_factory=list)
    best: Copy | None = None
    record: bytes | None = None  # the best copy's record, packed (``tally.packed``)
    game: int = -1  # the number its counted record has in its tally (``Counts.count``)
    dropped: bool = False

    def clone(self) -> Copies:
        return Copies(list(self.copies), self.best, self.record, self.game, self.dropped)

    def drop(self) -> None:
        """Let go of the one copy's items and record (it counts: ``game``)."""
        (only,) = self.copies
        key = only.key
        slim = CopyKey(key.head, key.rounds, key.items, digest_of(key))
        kept = Copy(only.path, slim, only.at, only.source)
        self.copies, self.best, self.record, self.dropped = [kept], kept, None, True

    def restore(self, key: CopyKey, record: bytes) -> bool:
        """The dropped copy read again: its key and packed record back; False (nothing
        changes) when they are not the copy read before (its file changed)."""
        (only,) = self.copies
        if (key.head, key.size) != (only.key.head, only.key.size) or (
            digest_of(key) != only.key.stream
        ):
            return False
        kept = Copy(only.path, key, only.at, only.source)
        self.copies, self.best, self.record, self.dropped = [kept], kept, record, False
        return True

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
