"""What the public functions take, checked before any work starts.

A caller of ``pywall`` passes whatever Python holds, so each argument is checked here
first (docs/python.md): a wrong type is a ``TypeError``, a value out of bounds a
``ValueInputError`` (a ``PywallError``), each in plain words naming the argument; no
exception from deeper down (an ``AttributeError``, ``islice``'s ``ValueError``, a
``MemoryError``) reaches the caller. The bounds are the CLI's (``pywall.core.limits``).
A count is an ``int`` (or anything with ``__index__``, as a NumPy integer) and never a
``bool``: ``rounds=True`` is a slip, not one round.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import islice

from pywall.core.errors import InputTooLargeError, ValueInputError
from pywall.core.limits import MAX_HAND_CHARS, MAX_JOBS

#: The kinds of tile a hand counts (1-9m, 1-9p, 1-9s, then the seven honours).
KINDS = 34
#: The most copies of one kind.
COPIES = 4
#: Integers shown whole in a message; larger ones are said in digits (``str`` of an int of
#: over 4,300 digits raises ``ValueError``).
SHOWN_DIGITS = 18


def type_name(value: object) -> str:
    return type(value).__name__


def number_text(number: int) -> str:
    """``number`` as a message shows it, however large."""
    if abs(number) < 10**SHOWN_DIGITS:
        return f"{number:,}"
    return f"a number of about {int(number.bit_length() * 0.30103):,} digits"


def whole_number(value: object, name: str) -> int:
    """``value`` as an int: ``TypeError`` for a bool or anything that is no integer."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} is a whole number (int), not {type_name(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} is a whole number (int), not {type_name(value)}") from None


def number_from(value: object, name: str, low: int, high: int) -> int:
    """``value``, a whole number from ``low`` to ``high``."""
    number = whole_number(value, name)
    if not low <= number <= high:
        raise ValueInputError(f"{name} must be from {low:,} to {high:,}, not {number_text(number)}")
    return number


def players_from(value: object) -> int:
    number = whole_number(value, "players")
    if number not in (3, 4):
        raise ValueInputError(f"players must be 3 or 4, not {number_text(number)}")
    return number


def jobs_from(value: object) -> int:
    """``jobs``: worker processes, 1 to ``MAX_JOBS``, as ``--jobs`` takes them."""
    return number_from(value, "jobs", 1, MAX_JOBS)


def seed_from(value: object) -> str:
    """A seed's text (its length is ``parse_seed``'s to bound, for the CLI as here)."""
    if not isinstance(value, str):
        raise TypeError(f"walls takes the seed as text (str), not {type_name(value)}")
    return value


def text_bytes(text: str, limit: int) -> bytes:
    """A record's text as its UTF-8 bytes: ``InputTooLargeError`` over ``limit`` characters
    (each is at least one byte), ``ValueInputError`` for a lone surrogate, which no UTF-8
    text holds."""
    if len(text) > limit:
        raise InputTooLargeError(
            f"the text is {len(text):,} characters; pywall reads records up to {limit:,} bytes"
        )
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueInputError(
            f"the text holds a lone surrogate (U+{ord(text[exc.start]):04X} at character "
            f"{exc.start:,}), which no record's UTF-8 can: not a record's text"
        ) from None


def path_from(value: os.PathLike[str], what: str) -> str:
    """A path object's text: ``TypeError`` when it gives bytes (pywall names files by text)."""
    name = os.fspath(value)
    if not isinstance(name, str):
        raise TypeError(f"{what} takes a path as text, not a path of {type_name(name)}")
    return name


def hand_counts(hand: object) -> list[int]:
    """A hand as 34 counts: from mpsz text, or 34 counts of 0 to 4 (a list, a tuple, any
    iterable: at most 35 items are read, so an endless one ends too)."""
    from pywall.core.tiles import counts_from_mpsz

    if isinstance(hand, str):
        if len(hand) > MAX_HAND_CHARS:
            raise ValueInputError(
                f"the hand is {len(hand):,} characters of mpsz text; 14 tiles take at most 18"
            )
        return counts_from_mpsz(hand)
    items = counted_items(hand)
    counts = [whole_number(c, "each of a hand's 34 counts") for c in items]
    if len(counts) != KINDS:
        got = f"{len(counts)}" if len(counts) <= KINDS else "more"
        raise ValueInputError(
            f"a hand of counts has 34 of them (1-9m, 1-9p, 1-9s, 1-7z), not {got}"
        )
    if not all(0 <= c <= COPIES for c in counts):
        raise ValueInputError("a hand's counts are 0 to 4 (a kind has 4 tiles)")
    return counts


def counted_items(hand: object) -> list[object]:
    """The first 35 items of a hand given as counts (one past 34: too many is said)."""
    if isinstance(hand, bytes | bytearray | memoryview | Mapping | AbstractSet) or not isinstance(
        hand, Iterable
    ):
        raise TypeError(
            f"a hand is mpsz text (e.g. 123m456p) or 34 counts of 0 to 4, not {type_name(hand)}"
        )
    items: Iterator[object] = iter(hand)
    return list(islice(items, KINDS + 1))


def source_from(value: object) -> bytes | bytearray | str:
    """One source of ``audit``: a record's bytes, or a path's text."""
    if isinstance(value, bytes | bytearray | str):
        return value
    if isinstance(value, os.PathLike):
        return path_from(value, "audit")
    raise TypeError(
        f"audit takes paths (str or os.PathLike) or records' bytes, not {type_name(value)}"
    )


def sources_from(value: object) -> Iterable[bytes | bytearray | str]:
    """``audit``'s sources: one, or a list of them (an iterator is checked as it is read)."""
    if isinstance(value, bytes | bytearray | str | os.PathLike):
        return [source_from(value)]
    if isinstance(value, Mapping | AbstractSet) or not isinstance(value, Iterable):
        raise TypeError(
            "audit takes a path, a record's bytes, or a list of them (in the order to count), "
            f"not {type_name(value)}"
        )
    if isinstance(value, Sequence):
        return [source_from(v) for v in value]
    return (source_from(v) for v in value)
