"""Every Tenhou game a text names: a pasted list, a text file, a copied web page.

A player's games come as lists: one link or log id per line, a forum post, the
HTML of a page that lists games, file names such as
``2022060222gm-0001-0000-a87679bc&tw=3.mjlog``. ``games_from_text`` finds each log
id in such a text (bare, inside ``tenhou.net/0/?log=...`` links, hidden ones
revealed by ``links.real_log_id``), keeps each game once in the order first met,
notes the seat of a link's ``tw``, and counts what looks like a game but cannot be
read (an id cut short, one written with other digits, a Mahjong Soul replay link,
which no download gives). The scan jumps from one ``gm-`` to the next over
text capped at ``MAX_LIST_CHARS``; a list naming more than ``MAX_GAMES`` games is
refused with words that say how many it named, before any game is fetched. A text
holding a NUL character is no list (a binary file, UTF-16 text): it is refused whole,
as the page refuses a payload holding one, so the CLI and the page read the same lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pywall.core.errors import ValueInputError
from pywall.formats.links import MAJSOUL_PAIPU, GameLink, real_log_id

#: The most games one request (a run of the CLI, a list pasted in the page) takes.
MAX_GAMES = 1000
#: The longest text read for games (4 MiB: some 60,000 links, many more than MAX_GAMES).
MAX_LIST_CHARS = 4 * 1024 * 1024
#: How many of the pieces not understood are kept to show.
MAX_SHOWN = 5

_EDGE = r"(?<![0-9A-Za-z])"
#: A log id as Tenhou writes it (the last part 8 hex digits, or hidden: x + 12).
_ID = re.compile(
    _EDGE + r"([0-9]{10}gm-[0-9a-f]{4}-[0-9a-f]{4,5}-(?:[0-9a-f]{8}|x[0-9a-f]{12}))(?![0-9A-Za-z])",
    re.ASCII,
)
#: Anything that starts like a log id (any digits), to count what could not be read.
_LIKE_ID = re.compile(_EDGE + r"\d{10}gm-[\w-]{0,40}")
#: The seat a link or a file name gives right after the id: &tw=3, &amp;tw=3, _tw3.
_SEAT = re.compile(r"(?:&amp;|[&;_])tw=?([0-3])(?![0-9])", re.ASCII)

NOT_AN_ID = "not a whole Tenhou log id"
OTHER_DIGITS = "a Tenhou log id is written with the digits 0-9 only"
MAJSOUL = "a Mahjong Soul replay: its record comes from a record tool, not a download"
#: Each reason's code, for words in another language (the page).
REASON_CODES = {NOT_AN_ID: "not_an_id", OTHER_DIGITS: "other_digits", MAJSOUL: "majsoul"}


@dataclass(frozen=True, slots=True)
class Unread:
    """A piece of the text that looks like a game but names none pywall can fetch."""

    text: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "reason": self.reason, "code": REASON_CODES[self.reason]}


@dataclass(frozen=True, slots=True)
class GameList:
    """The Tenhou games a text names, each once, in order, and what was not understood."""

    games: tuple[GameLink, ...]
    repeated: int = 0  # mentions of a game already found (a link and its id, twice in a list)
    unread: int = 0  # pieces that look like a game but could not be read
    shown: tuple[Unread, ...] = ()  # the first MAX_SHOWN of them

    def summary(self) -> str:
        """``"3 games found (1 named again); 1 not understood"``."""
        found = f"{len(self.games):,} game{'' if len(self.games) == 1 else 's'} found"
        if self.repeated:
            found += f" ({self.repeated:,} named again)"
        return found + (f"; {self.unread:,} not understood" if self.unread else "")

    def to_dict(self) -> dict[str, object]:
        return {
            "games": [g.to_dict() for g in self.games],
            "repeated": self.repeated,
            "unread": self.unread,
            "shown": [u.to_dict() for u in self.shown],
        }


def games_from_text(text: str, limit: int = MAX_GAMES) -> GameList:
    """Every Tenhou game ``text`` names, each once, in order (``ValueInputError`` when the
    text is over ``MAX_LIST_CHARS`` or names more than ``limit`` games)."""
    if len(text) > MAX_LIST_CHARS:
        raise ValueInputError(
            f"the list is over {MAX_LIST_CHARS:,} characters; pywall takes at most "
            f"{limit:,} games at a time: split it into smaller lists"
        )
    check_no_nul(text)
    games: dict[str, GameLink] = {}
    named: set[str] = set()  # every id as written: past the limit, only counted
    repeated = unread = 0
    shown: list[tuple[int, Unread]] = []
    for start, found in _mentions(text):
        if found.lastindex is None:  # a piece like an id, not one
            unread += 1
            if unread <= MAX_SHOWN:
                shown.append((start, _unread_id(found.group(0))))
        elif found.group(1) in named:
            repeated += 1
        else:
            named.add(found.group(1))
            if len(games) < limit:
                link = _link_at(text, found)
                repeated += link.game_id in games
                games.setdefault(link.game_id, link)
    if len(named) > limit:
        raise ValueInputError(
            f"the list names more than {limit:,} games ({len(named):,} log ids); pywall takes "
            f"at most {limit:,} at a time: split it into lists of at most that many"
        )
    majsoul = list(_majsoul(text))
    shown += majsoul[:MAX_SHOWN]
    shown.sort(key=lambda pair: pair[0])
    return GameList(
        tuple(games.values()),
        repeated,
        unread + len(majsoul),
        tuple(u for _, u in shown[:MAX_SHOWN]),
    )


def check_no_nul(text: str) -> None:
    """``ValueInputError`` when ``text`` holds a NUL character, naming its line."""
    at = text.find("\x00")
    if at != -1:
        line = text.count("\n", 0, at) + 1
        raise ValueInputError(
            f"the list holds a NUL character (line {line:,}): a list of games is plain text "
            "(UTF-8); nothing was read from it"
        )


def _mentions(text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """Each log id in ``text`` (a match with its group) and each piece that starts like
    one but is not (a match without), in order.

    Every id holds ``gm-``: the scan jumps from one to the next (``str.find``), so a
    text without any costs one pass in C, and each one costs two anchored matches.
    """
    at = text.find("gm-", 10)
    while at != -1:
        start = at - 10
        found = _ID.match(text, start)
        if found:
            yield start, found
            at = text.find("gm-", found.end())
            continue
        like = _LIKE_ID.match(text, start)
        if like:
            yield start, like
        at = text.find("gm-", at + 3)


def _unread_id(piece: str) -> Unread:
    return Unread(piece[:60], NOT_AN_ID if piece[:10].isascii() else OTHER_DIGITS)


def _majsoul(text: str) -> Iterator[tuple[int, Unread]]:
    """Mahjong Soul replay links: named games that no download gives."""
    at = text.find("paipu=")
    while at != -1:
        found = MAJSOUL_PAIPU.match(text, at)
        if found:
            yield at, Unread(found.group(0)[:60], MAJSOUL)
        at = text.find("paipu=", at + 6)


def _link_at(text: str, match: re.Match[str]) -> GameLink:
    shown = match.group(1)
    real = real_log_id(shown)
    seat = _SEAT.match(text, match.end())
    return GameLink(
        "tenhou", real, int(seat.group(1)) if seat else None, shown if real != shown else None
    )
