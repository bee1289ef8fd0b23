"""Tenhou's mjlog format: ``parse(data) -> model.Game``.

Theory of operation: an mjlog is a flat sequence of tags inside ``<mjloggm>``
(plain XML, or gzip as ``.mjlog``). ``pywall.formats.mjlog_tags`` reads the tags
(a tolerant tokenizer that never expands entities, refuses any DTD and caps sizes);
this module builds the game from them: each ``<INIT>`` opens a round, whose draws,
discards, calls, dora, riichi and results follow, and ``<GO>`` and ``<UN>`` give the
rules and the players. Everything it cannot make sense of raises ``LogFormatError``
saying where.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import cast

from pywall.core import limits
from pywall.core.archives import MAX_XML_BYTES
from pywall.core.errors import InputTooLargeError, LogFormatError
from pywall.core.model import (
    Call,
    Discard,
    DoraReveal,
    Draw,
    Event,
    Game,
    MeldKind,
    Riichi,
    Round,
    Ryuukyoku,
    Win,
)
from pywall.formats.mjlog_tags import Moves, Tag, run_tags, text_from_bytes, tokens

LOG_ID_RE = re.compile(r"[0-9]{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")
#: Events one round may have, rounds one game may have (``pywall.core.limits``).
MAX_ROUND_EVENTS = limits.MAX_ROUND_EVENTS
#: A draw or discard's tile number: ASCII digits only (``str.isdigit`` accepts "²").
_DIGITS = frozenset("0123456789")
#: Runs of %XX escapes, as Tenhou writes the UTF-8 bytes of players' names.
_ESCAPES_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_DTD_RE = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_DRAW_TAGS = {"T": 0, "U": 1, "V": 2, "W": 3}
_DISCARD_TAGS = {"D": 0, "E": 1, "F": 2, "G": 3}
_TILE_IDS = {str(tile): tile for tile in range(136)}
#: Every valid draw or discard tag name (``T23``, ``D0``, ...) -> its event, by
#: player count (3-player games have no W or G): one lookup reads and checks a
#: move, and every draw of 23 by seat 0 is the same ``Draw(0, 23)`` value.
_MOVE_TABLES: dict[int, dict[str, Draw | Discard]] = {
    players: {
        f"{letter}{tile}": cls(seat, tile)
        for cls, letters in ((Draw, _DRAW_TAGS), (Discard, _DISCARD_TAGS))
        for letter, seat in letters.items()
        if seat < players
        for tile in range(136)
    }
    for players in (3, 4)
}


def _ints(tag: Tag, key: str, required: bool = True) -> tuple[int, ...]:
    raw = tag.attrs.get(key)
    if raw is None:
        if required:
            raise LogFormatError(f"<{tag.name}> lacks {key}=", f"tag {tag.index}")
        return ()
    if not raw.strip():
        return ()
    try:
        return tuple(map(int, raw.split(",")))
    except ValueError:
        raise LogFormatError(
            f"{key}={raw[:40]!r} is not a list of numbers", f"tag {tag.index} <{tag.name}>"
        ) from None


def _int(tag: Tag, key: str, lo: int, hi: int) -> int:
    values = _ints(tag, key)
    if len(values) != 1 or not lo <= values[0] <= hi:
        raise LogFormatError(
            f"{key}= must be a number from {lo} to {hi}", f"tag {tag.index} <{tag.name}>"
        )
    return values[0]


def _tiles(tag: Tag, values: tuple[int, ...]) -> tuple[int, ...]:
    for t in values:
        if not 0 <= t < 136:
            raise LogFormatError(
                f"tile {t} is not a tile id (0-135)", f"tag {tag.index} <{tag.name}>"
            )
    return values


def _tile_list(tag: Tag, key: str, required: bool = True) -> tuple[int, ...]:
    """``_tiles(tag, _ints(tag, key))``: the usual spelling (``12,0,135``) is read by
    table; anything else (spaces, ``05``, an error) goes the long way."""
    raw = tag.attrs.get(key)
    if raw:
        try:
            return tuple(map(_TILE_IDS.__getitem__, raw.split(",")))
        except KeyError:
            pass
    return _tiles(tag, _ints(tag, key, required))


def meld_kind(code: int) -> MeldKind:
    """The kind of a call from its ``m`` code (bit layout as in Tenhou's client)."""
    if code & 0x4:
        return MeldKind.CHI
    if code & 0x8:
        return MeldKind.PON
    if code & 0x10:
        return MeldKind.ADDED_KAN
    if code & 0x20:
        return MeldKind.NUKI
    return MeldKind.OPEN_KAN if code & 0x3 else MeldKind.CLOSED_KAN


def meld_taken(code: int, kind: MeldKind) -> tuple[int, ...]:
    """The tile ids a call takes from the caller's hand, from its ``m`` code (the bit
    layout of Tenhou's client: docs/tenhou.md)."""
    if kind is MeldKind.CHI:
        t = code >> 10
        called, t = t % 3, t // 3
        base = t // 7 * 9 + t % 7
        tiles = [(base + i) * 4 + (code >> (3 + 2 * i) & 3) for i in range(3)]
    elif kind is MeldKind.PON:
        t = code >> 9
        called, base = t % 3, t // 3 * 4
        unused = code >> 5 & 3
        tiles = [base + i for i in range(4) if i != unused]
    elif kind is MeldKind.ADDED_KAN:
        return ((code >> 9) // 3 * 4 + (code >> 5 & 3),)
    elif kind is MeldKind.NUKI:
        return (code >> 8,)
    else:
        base = (code >> 8) // 4 * 4
        tiles = [base + i for i in range(4)]
        if kind is MeldKind.CLOSED_KAN:
            return tuple(tiles)
        called = tiles.index(code >> 8)
    return tuple(x for i, x in enumerate(tiles) if i != called)


@dataclass
class _RoundBuilder:
    init: Tag
    index: int
    players: int
    events: list[Event] = field(default_factory=list)

    def add(self, tag: Tag) -> None:
        if len(self.events) >= MAX_ROUND_EVENTS:
            raise LogFormatError(
                f"a round of over {MAX_ROUND_EVENTS:,} events (a real round has a few hundred)",
                f"tag {tag.index}",
            )
        name = tag.name
        move = len(name) > 1 and _DIGITS.issuperset(name[1:])
        if move and name[0] in _DRAW_TAGS:
            self.events.append(Draw(self._seat(tag, _DRAW_TAGS[name[0]]), self._tile(tag)))
        elif move and name[0] in _DISCARD_TAGS:
            self.events.append(Discard(self._seat(tag, _DISCARD_TAGS[name[0]]), self._tile(tag)))
        elif name == "N":
            code = _int(tag, "m", 0, 0xFFFF)
            kind = meld_kind(code)
            seat = _int(tag, "who", 0, self.players - 1)
            self.events.append(Call(seat, code, kind, meld_taken(code, kind)))
        elif name == "DORA":
            self.events.append(DoraReveal(_tiles(tag, (_int(tag, "hai", 0, 135),))[0]))
        elif name == "REACH":
            self.events.append(
                Riichi(_int(tag, "who", 0, self.players - 1), _int(tag, "step", 1, 2))
            )
        elif name == "AGARI":
            self.events.append(
                Win(
                    _int(tag, "who", 0, self.players - 1),
                    _int(tag, "fromWho", 0, self.players - 1),
                    _tile_list(tag, "doraHai", required=False),
                    _tile_list(tag, "doraHaiUra", required=False),
                )
            )
        elif name == "RYUUKYOKU":
            self.events.append(Ryuukyoku(tag.attrs.get("type", "exhaustive")))

    def add_moves(self, run: str, index: int) -> None:
        """What ``add`` does with each tag of a run like ``<T23/><D45/>``, without Tags:
        each tag name is looked up in the table of every valid move."""
        # "<T23/><D45/>" -> "T23", "D45" (split is 3x faster than findall; a run
        # with spaces between its tags leaves pieces that are not in the table).
        if len(self.events) + run.count("<") > MAX_ROUND_EVENTS:
            raise LogFormatError(
                f"a round of over {MAX_ROUND_EVENTS:,} events (a real round has a few hundred)",
                f"tag {index}",
            )
        moves = list(map(_MOVE_TABLES[self.players].get, run.rstrip()[1:-2].split("/><")))
        if all(moves):  # no None: every tag was in the table
            self.events.extend(cast("list[Draw | Discard]", moves))
            return
        # Spaces between tags, or a tile over 135, a seat the game lacks, a leading
        # zero: tag by tag, which raises the error ``add`` gives at its tag (or
        # reads "T023" as 23).
        for tag in run_tags(run, index):
            self.add(tag)

    def _seat(self, tag: Tag, seat: int) -> int:
        if seat >= self.players:
            raise LogFormatError(
                f"seat {seat} acts in a {self.players}-player game", f"tag {tag.index} <{tag.name}>"
            )
        return seat

    def _tile(self, tag: Tag) -> int:
        digits = tag.name[1:].lstrip("0") or "0"
        tile = int(digits) if len(digits) <= 3 else 136  # "T" + 5,000 digits: no int() of it
        if tile > 135:
            raise LogFormatError(
                f"tile {digits[:8]}{'...' if len(digits) > 8 else ''} is not a tile id (0-135)",
                f"tag {tag.index} <{tag.name[:12]}>",
            )
        return tile

    def build(self) -> Round:
        tag = self.init
        seed = _ints(tag, "seed")
        if len(seed) != 6:
            raise LogFormatError("INIT seed= must have 6 numbers", f"tag {tag.index}")
        number, honba, sticks, d1, d2, dora = seed
        if not (0 <= d1 <= 5 and 0 <= d2 <= 5) or number < 0 or honba < 0 or sticks < 0:
            raise LogFormatError(f"INIT seed= {seed} is out of range", f"tag {tag.index}")
        hands = tuple(_tile_list(tag, f"hai{s}") for s in range(self.players))
        for s, hand in enumerate(hands):
            if len(hand) != 13:
                raise LogFormatError(
                    f"seat {s} is dealt {len(hand)} tiles, not 13", f"tag {tag.index} <INIT>"
                )
        return Round(
            index=self.index,
            number=number,
            honba=honba,
            riichi_sticks=sticks,
            dice=(d1 + 1, d2 + 1),
            dora_indicator=_tiles(tag, (dora,))[0],
            dealer=_int(tag, "oya", 0, self.players - 1),
            hands=hands,
            scores=_ints(tag, "ten", required=False),
            events=tuple(self.events),
            shuffle=tag.attrs.get("shuffle"),
        )


def _player_count(go_type: int | None, tags_un: Tag | None) -> int:
    if go_type is not None:
        return 3 if go_type & 0x10 else 4
    if tags_un is not None and tags_un.attrs.get("n3", "") == "":
        return 3
    return 4


def percent_decode(text: str) -> str:
    """``urllib.parse.unquote(text, errors="replace")``: each run of %XX escapes read as
    UTF-8, anything else kept. Written out because importing urllib.parse took about a
    fifth of the page's start-up in Pyodide (the tests hold it to unquote's answers)."""
    if "%" not in text:
        return text
    return _ESCAPES_RE.sub(
        lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "replace"), text
    )


def _names(un: Tag | None, players: int) -> tuple[str, ...]:
    if un is None:
        return tuple("" for _ in range(players))
    return tuple(percent_decode(un.attrs.get(f"n{s}", "")) for s in range(players))


def parse(data: bytes | str, name: str | None = None) -> Game:
    """Read one Tenhou game record. Raises only ``PywallError`` subclasses."""
    text = data if isinstance(data, str) else text_from_bytes(data)
    if len(text) > MAX_XML_BYTES:
        raise InputTooLargeError(f"the log is over {MAX_XML_BYTES:,} characters")
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        raise LogFormatError(
            "this is a JSON log (tenhou.net/6 style): it carries no seed, so its wall cannot be verified"
        )
    if _DTD_RE.search(text):
        raise LogFormatError("the log declares a DTD or entities, which pywall refuses")
    if "<mjloggm" not in text[:4096]:
        raise LogFormatError("not a Tenhou mjlog: no <mjloggm> tag at the start")
    return _game_from_tags(tokens(text), name)


def _game_from_tags(tags: Iterator[Tag | Moves], name: str | None) -> Game:
    seed: str | None = None
    go_type = lobby = None
    un: Tag | None = None
    rounds: list[_RoundBuilder] = []
    quirks: list[str] = []
    complete = False
    for tag in tags:
        if isinstance(tag, tuple):
            if rounds:
                rounds[-1].add_moves(*tag)
            continue
        if tag.duplicates:
            quirks.append(f"tag {tag.index} <{tag.name}> repeats {', '.join(tag.duplicates)}=")
        if tag.name == "SHUFFLE":
            seed = tag.attrs.get("seed")
        elif tag.name == "GO":
            go_type = _int(tag, "type", 0, 1 << 30)
            lobby = _ints(tag, "lobby", required=False)[:1] or None
        elif tag.name == "UN" and un is None:
            un = tag
        elif tag.name == "INIT":
            if len(rounds) >= limits.MAX_ROUNDS:
                raise LogFormatError(
                    f"a game of over {limits.MAX_ROUNDS} rounds (real games have about 30); "
                    "pywall stops reading here",
                    f"tag {tag.index}",
                )
            players = _player_count(go_type, un)
            _check_players(rounds, players, tag)
            rounds.append(_RoundBuilder(tag, len(rounds), players))
        elif rounds:
            rounds[-1].add(tag)
            complete = complete or "owari" in tag.attrs
    players = _player_count(go_type, un)
    _check_players(rounds, players, None)
    built = tuple(r.build() for r in rounds)
    return Game(
        seed=seed,
        player_count=players,
        names=_names(un, players),
        rounds=built,
        complete=complete,
        go_type=go_type,
        lobby=lobby[0] if lobby else None,
        log_id=log_id_from_name(name),
        ranks=_split(un, "dan"),
        rates=_rates(un),
        quirks=tuple(quirks),
    )


def _check_players(rounds: list[_RoundBuilder], players: int, at: Tag | None) -> None:
    """The player count is fixed by the first INIT: a <GO> or <UN> after it may not change it."""
    if rounds and rounds[0].players != players:
        raise LogFormatError(
            f"the player count changes from {rounds[0].players} to {players} after the "
            "first round began (a <GO> or <UN> tag after an <INIT>)",
            f"tag {at.index}" if at else "at the end of the log",
        )


def _split(un: Tag | None, key: str) -> tuple[str, ...]:
    return tuple(un.attrs.get(key, "").split(",")) if un is not None and key in un.attrs else ()


def _rates(un: Tag | None) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in _split(un, "rate"))
    except ValueError:
        return ()


def log_id_from_name(name: str | None) -> str | None:
    """Tenhou's game id (``2016022509gm-0009-0000-b327da61``) if the name holds one."""
    if not name:
        return None
    m = LOG_ID_RE.search(name)
    return m.group(0) if m else None
