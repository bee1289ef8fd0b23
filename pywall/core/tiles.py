"""Tile ids and their text forms.

Tile ids follow Tenhou: 0-135, ``kind = id // 4``; kinds 0-8 are 1-9m, 9-17 1-9p,
18-26 1-9s, 27-33 the honours E S W N, white (haku), green (hatsu), red (chun).
With red fives on, ids 16, 52 and 88 are the red 5m, 5p and 5s. Text is "mpsz":
``123m0p77z`` where ``0`` is a red five and ``1z``-``7z`` are E S W N haku hatsu chun.
This encoding never changes: reports and the web page depend on it.
"""

from __future__ import annotations

from pywall.core.errors import ValueInputError

KINDS = 34
RED_FIVES = frozenset((16, 52, 88))
SUITS = "mpsz"
HONOUR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
SUIT_NAMES = {"m": "characters", "p": "circles", "s": "bamboo", "z": "honours"}

#: The 108 tile ids of a 3-player (sanma) set: only 1m and 9m among the characters.
SANMA_IDS = tuple(range(4)) + tuple(range(32, 136))


def kind_from_id(tile: int) -> int:
    return tile // 4


def kind_text(kind: int) -> str:
    """``0 -> "1m"``, ``33 -> "7z"``."""
    if not 0 <= kind < KINDS:
        raise ValueInputError(f"tile kind {kind} is out of range 0-33")
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tile_text(tile: int, red: bool = True) -> str:
    """The mpsz text of one tile id; red fives are ``0m``/``0p``/``0s`` when ``red``."""
    if not 0 <= tile < 136:
        raise ValueInputError(f"tile id {tile} is out of range 0-135")
    if red and tile in RED_FIVES:
        return f"0{SUITS[tile // 36]}"
    return kind_text(tile // 4)


def kind_name(kind: int) -> str:
    """A readable English name: ``"5 of circles"``, ``"East"``."""
    text = kind_text(kind)
    if text[1] == "z":
        return HONOUR_NAMES[kind - 27]
    return f"{text[0]} of {SUIT_NAMES[text[1]]}"


def kinds_from_mpsz(text: str) -> list[int]:
    """Parse mpsz text (``"123m0p77z"``, spaces allowed) into tile kinds, in order.

    A red five (``0``) is read as its kind (5). Raises ``ValueInputError`` on
    anything that is not mpsz, naming the offending character.

    >>> kinds_from_mpsz("123m0p77z")
    [0, 1, 2, 13, 33, 33]
    >>> kinds_from_mpsz("12x")
    Traceback (most recent call last):
    pywall.core.errors.ValueInputError: unexpected 'x' at position 3 in '12x'
    """
    kinds: list[int] = []
    pending: list[int] = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch.isdigit() and ch.isascii():
            pending.append(int(ch))
            continue
        suit = SUITS.find(ch.lower())
        if suit < 0 or not ch.isascii():
            raise ValueInputError(f"unexpected {ch!r} at position {pos + 1} in {text!r}")
        if not pending:
            raise ValueInputError(f"suit letter {ch!r} at position {pos + 1} has no numbers")
        for digit in pending:
            number = 5 if digit == 0 else digit
            if suit == 3 and not 1 <= digit <= 7:
                raise ValueInputError(f"{digit}z is not a tile (honours are 1z-7z)")
            kinds.append(suit * 9 + number - 1)
        pending = []
    if pending:
        raise ValueInputError(f"numbers at the end of {text!r} have no suit letter")
    return kinds


def counts_from_kinds(kinds: list[int] | tuple[int, ...]) -> list[int]:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def counts_from_mpsz(text: str, max_copies: int = 4) -> list[int]:
    """34 per-kind counts from mpsz text; more than four copies of a kind is an error."""
    counts = counts_from_kinds(kinds_from_mpsz(text))
    for kind, n in enumerate(counts):
        if n > max_copies:
            raise ValueInputError(f"{n} copies of {kind_text(kind)}: a kind has only 4")
    return counts


def mpsz_from_kinds(kinds: list[int] | tuple[int, ...]) -> str:
    """Compact mpsz for kinds, sorted.

    >>> mpsz_from_kinds([27, 0, 2, 1])
    '123m1z'
    """
    return _compact([(k % 9 + 1, k // 9) for k in sorted(kinds)])


def mpsz_from_counts(counts: list[int] | tuple[int, ...]) -> str:
    return mpsz_from_kinds([k for k, n in enumerate(counts) for _ in range(n)])


def mpsz_from_ids(tiles: list[int] | tuple[int, ...], red: bool = True) -> str:
    """Compact mpsz for tile ids, sorted by kind, red fives as ``0``.

    >>> mpsz_from_ids([16, 17, 20, 52, 135])
    '056m0p7z'
    >>> mpsz_from_ids([16, 17, 20, 52, 135], red=False)
    '556m5p7z'
    """
    pairs = []
    for t in sorted(tiles):
        digit = 0 if red and t in RED_FIVES else t // 4 % 9 + 1
        pairs.append((digit, t // 36))
    return _compact(pairs)


def _compact(pairs: list[tuple[int, int]]) -> str:
    out: list[str] = []
    for i, (digit, suit) in enumerate(pairs):
        out.append(str(digit))
        if i + 1 == len(pairs) or pairs[i + 1][1] != suit:
            out.append(SUITS[suit])
    return "".join(out)


def codes_from_mpsz(text: str) -> list[str]:
    """Each tile's two-character code, in order, red fives kept: ``"05m1z"`` ->
    ``["0m", "5m", "1z"]``. Raises ``ValueInputError`` as ``kinds_from_mpsz`` does."""
    kinds_from_mpsz(text)  # validates
    out: list[str] = []
    pending: list[str] = []
    for ch in text:
        if ch.isascii() and ch.isdigit():
            pending.append(ch)
        elif ch.lower() in SUITS and not ch.isspace():
            out += [d + ch.lower() for d in pending]
            pending = []
    return out


def face_from_code(code: str) -> int:
    """A tile face as a tile id: the platforms that state walls as text (Mahjong Soul,
    Riichi City) name a tile's face, not which copy it is. A face is the id
    ``kind * 4 + 1``; a red five is its red id (16, 52, 88). ``"0p"`` -> 52, ``"5p"`` -> 53."""
    if len(code) != 2 or code[1] not in SUITS or not (code[0].isascii() and code[0].isdigit()):
        raise ValueInputError(
            f"{code[:8]!r} is not a tile code (1m-9m, 0m for a red five, ... 1z-7z)"
        )
    suit = SUITS.index(code[1])
    digit = int(code[0])
    if digit == 0:
        if suit == 3:
            raise ValueInputError("0z is not a tile (honours are 1z-7z)")
        return (16, 52, 88)[suit]
    if suit == 3 and digit > 7:
        raise ValueInputError(f"{code} is not a tile (honours are 1z-7z)")
    return (suit * 9 + digit - 1) * 4 + 1


def dora_kind(indicator_kind: int, players: int = 4) -> int:
    """The dora a kind indicates: next in its suit (9 -> 1), winds and dragons in a cycle;
    in 3-player games 1m indicates 9m (2m-8m are not in the set)."""
    if not 0 <= indicator_kind < KINDS:
        raise ValueInputError(f"tile kind {indicator_kind} is out of range 0-33")
    if players == 3 and indicator_kind in (0, 8):
        return 8 - indicator_kind
    if indicator_kind < 27:
        return indicator_kind - indicator_kind % 9 + (indicator_kind % 9 + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3
