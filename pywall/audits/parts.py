"""An audit in parts: what each part counted, saved, checked and merged (docs/scale.md).

Theory of operation
-------------------
A part of an audit (a shard: some of its files, zip members or database rows) is kept
as ``ShardTally``: every game's audit record (``GameRecord``) in input order, the
verified and the excluded alike. Merging parts re-adds their records, part after part,
into one ``AuditTally``, with ``AuditTally.add``, the very step a single run takes; so
the merge of parts is the run over all their inputs in that order, to the last digit:

- a game in two parts is found by its fingerprint, as in one run (counted once, the
  later copy excluded as a repeat, or whatever ``AuditTally.add`` decides of copies);
- the tally's sums of floating-point chances (the dora dealt, the draw tests) are added
  in the run's order. Adding two parts' sums (``AuditTally.merge``) differs from the run
  in the last bits, and a game's share cannot be taken back out of a sum: the records
  are what make "exactly one run" possible.

Saved (``part_head``, ``game_piece``, ``part_tail``: written a game at a time) a part is a versioned JSON document: ``format`` and ``version``,
the ``pywall`` version that wrote it, ``games`` and ``tally``, what the records add up to
(``AuditTally.to_dict``: the counts, the exclusions with their reasons, the fingerprints
counted). Each game carries what checks it again: its ``path`` (the name it was read
under), its ``log`` (the bytes it was read from, zlib-compressed, in base64), or for a
game that could not be read ``unread`` ([code, message]: why), and the ``record`` the
audit made of it. Nothing a part states is believed: ``part_from_json`` checks the
document's shape and bounds (``SavedPart``), a driver re-derives every game's record from
its bytes through the audit's own pipeline (``pywall.run.parts``), and ``checked_part``
refuses the part, naming the game, when a stated record is not the re-derived one, or
its tally is not what the re-derived records add up to. So a part proves what one run
over its logs would count, and nothing about where the logs came from: a log that
verifies against its own seed counts, whoever made it, and the names in it are whatever
it says (no seed or hash covers them).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pywall.audits.records import MAX_TEXT_CHARS, GameRecord
from pywall.audits.tally import AuditTally
from pywall.core.archives import MAX_INPUT_BYTES
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.json_value import json_text
from pywall.core.version import VERSION as PYWALL_VERSION

FORMAT = "pywall-audit-tally"
#: 2: every game carries its log (issue 43); a part of version 1 is refused (save it again).
VERSION = 2
#: A saved part is read whole (its records' objects take about nine times their size in
#: memory; its logs, about a third of it, stay compact text): past 64 MiB, about 2,000
#: real games at 28 KB each, it is refused (cut larger audits into more parts).
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_GAMES = 100_000
#: A game's log, decompressed, is capped as a file is; all of a part's logs together at
#: 1 GiB (a zlib bomb in a 64 MiB part would otherwise be a thousand times that to check).
MAX_LOG_BYTES = MAX_INPUT_BYTES
MAX_PART_LOG_BYTES = 1024 * 1024 * 1024
MAX_PATH_CHARS = MAX_TEXT_CHARS
MAX_MESSAGE_CHARS = 2 * MAX_TEXT_CHARS  # a read error's words, a path among them
_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


@dataclass(frozen=True, slots=True)
class ShardTally:
    """What one part of an audit counted: each game's audit record, in input order."""

    records: tuple[GameRecord, ...]

    def tally(self) -> AuditTally:
        """The part's own tally (its records added in order)."""
        return merged_tally([self])


@dataclass(frozen=True, slots=True)
class PartGame:
    """One game of a part as it is saved: its record, and what checks it again (its log,
    compressed, or why it could not be read)."""

    record: GameRecord
    log: str | None = None
    unread: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.record.path}
        if self.log is not None:
            d["log"] = self.log
        else:
            d["unread"] = list(self.unread or ("error", ""))
        d["record"] = self.record.to_dict()
        return d


def part_game(record: GameRecord, content: bytes | PywallError) -> PartGame:
    """A game to save: its record and the content it was made from (``run.items``)."""
    if isinstance(content, PywallError):
        return PartGame(record, unread=(content.code, content.message))
    packed = base64.b64encode(zlib.compress(content, 9)).decode("ascii")
    return PartGame(record, log=packed)


def part_dict(games: Sequence[PartGame]) -> dict[str, Any]:
    """The part as a saved document (see the module's docstring), as one object: the
    command writes the same text a game at a time (``part_head``)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "pywall": PYWALL_VERSION,
        "games": [g.to_dict() for g in games],
        "tally": ShardTally(tuple(g.record for g in games)).tally().to_dict(),
    }


#: A saved part's JSON is compact: no spaces.
_SEPARATORS = (",", ":")


def _compact(value: Any) -> str:
    return json_text(value, separators=_SEPARATORS)


def part_head() -> str:
    """The saved document's text up to its first game (see the module's docstring): a part
    is written a game at a time (``game_piece``), then its tally (``part_tail``)."""
    return (
        f'{{"format":{_compact(FORMAT)},"version":{VERSION},'
        f'"pywall":{_compact(PYWALL_VERSION)},"games":['
    )


def game_piece(game: PartGame, first: bool) -> str:
    """One game's text in the document's ``games`` (after ``part_head``, in order)."""
    return ("" if first else ",") + _compact(game.to_dict())


def part_tail(tally: AuditTally) -> Iterator[str]:
    """The document's text after its games: the tally of the part's games (``tally``,
    each of them added in order), a game's copies at a time (``AuditTally.copies_lists``);
    the whole text is ``json_text`` of the document, byte for byte."""
    head = _compact(tally.head_dict())
    yield '],"tally":' + head[:-1] + ',"copies":['
    for i, entry in enumerate(tally.copies_lists()):
        yield ("," if i else "") + _compact(entry)
    yield "]}}\n"


def part_text(games: Sequence[PartGame]) -> str:
    """The part of ``games`` as one text (their tally made here): what ``part_head``,
    ``game_piece`` and ``part_tail`` write a game at a time."""
    tally = merged_tally([ShardTally(tuple(g.record for g in games))])
    pieces = [part_head(), *(game_piece(g, not i) for i, g in enumerate(games))]
    return "".join(pieces + list(part_tail(tally)))


def merged_tally(shards: Iterable[ShardTally]) -> AuditTally:
    """One tally of the parts, in order: what one run over all their inputs counts."""
    tally = AuditTally()
    for shard in shards:
        for record in shard.records:
            tally.add(record)
    return tally


# --- a saved part read back: its shape and bounds ------------------------------------------


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as a part states it, its shape checked, nothing believed: its path, its log
    (compressed, in base64) or why it was unread, and its stated record."""

    part: str
    number: int
    path: str
    log: str | None
    unread: tuple[str, str] | None
    record: Mapping[str, Any]

    @property
    def where(self) -> str:
        return f"{self.part}: game {self.number:,} ({_short(self.path, 200)})"

    def content(self) -> bytes | PywallError:
        """The game's bytes (decompressed, capped as a file is), or its read error."""
        if self.log is None:
            code, message = self.unread or ("error", "")
            error = PywallError(message)
            error.code = code
            return error
        try:
            raw = base64.b64decode(self.log, validate=True)
            inflate = zlib.decompressobj()
            data = inflate.decompress(raw, MAX_LOG_BYTES + 1)
        except (binascii.Error, ValueError, zlib.error):
            raise ValueInputError(f"{self.where}: its log is not zlib in base64: refused") from None
        if len(data) > MAX_LOG_BYTES or inflate.unconsumed_tail:
            raise ValueInputError(f"{self.where}: its log is over {MAX_LOG_BYTES:,} bytes: refused")
        if not inflate.eof or inflate.unused_data:
            raise ValueInputError(
                f"{self.where}: its log is cut short or has bytes after it: refused"
            )
        return data


@dataclass(frozen=True, slots=True)
class SavedPart:
    """A saved part read back, its shape checked: its games and its stated tally."""

    name: str
    games: tuple[SavedGame, ...]
    tally: Mapping[str, Any]

    def items(self) -> Iterator[tuple[str, bytes | PywallError]]:
        """Each game as a work item (path, bytes), decoded one at a time; all the part's
        logs together are capped (``MAX_PART_LOG_BYTES``)."""
        total = 0
        for game in self.games:
            content = game.content()
            if isinstance(content, bytes):
                total += len(content)
                if total > MAX_PART_LOG_BYTES:
                    raise ValueInputError(
                        f"{self.name}: its logs are over {MAX_PART_LOG_BYTES:,} bytes in all "
                        "(cut the audit into more parts): refused"
                    )
            yield game.path, content


def _no_constant(name: str) -> None:
    raise ValueError(name)


def part_from_json(data: bytes, name: str) -> SavedPart:
    """A saved part read back, its shape and bounds checked (its games are not yet
    re-derived: ``checked_part``); ``ValueInputError`` saying why it is refused."""
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ValueInputError(
            f"{name}: {len(data):,} bytes, over the {MAX_DOCUMENT_BYTES:,} a saved tally may "
            "have (cut the audit into more parts): refused"
        )
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ValueInputError(f"{name}: not a saved audit tally (not JSON): refused") from None
    games = _checked_header(doc, name)
    return SavedPart(
        name, tuple(_checked_game(entry, i, name) for i, entry in enumerate(games, 1)), doc["tally"]
    )


def _checked_header(doc: Any, name: str) -> list[Any]:
    """The document's games, once its format, version and size are those of a saved tally."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueInputError(
            f"{name}: not a saved audit tally (pywall audit --save-tally writes them): refused"
        )
    version = doc.get("version")
    if version != VERSION:
        raise ValueInputError(
            f"{name}: a saved tally of format version {_short(version)} (written by pywall "
            f"{_short(doc.get('pywall'))}); this pywall reads version {VERSION} only: refused. "
            "Save the part again with this version."
        )
    games, tally = doc.get("games"), doc.get("tally")
    if not isinstance(games, list) or not isinstance(tally, dict):
        raise ValueInputError(f"{name}: a saved tally without its games or its tally: refused")
    if len(games) > MAX_GAMES:
        raise ValueInputError(
            f"{name}: {len(games):,} games, over the {MAX_GAMES:,} a saved tally may hold: refused"
        )
    return games


def _checked_game(entry: Any, number: int, name: str) -> SavedGame:
    where = f"{name}: game {number:,}"
    if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
        raise ValueInputError(f"{where} is not a game's record: refused")
    path, log, unread = entry.get("path"), entry.get("log"), entry.get("unread")
    if not isinstance(path, str) or not 0 < len(path) <= MAX_PATH_CHARS:
        raise ValueInputError(
            f"{where}: its path is not a name of 1 to {MAX_PATH_CHARS:,} characters: refused"
        )
    if (log is None) == (unread is None):
        raise ValueInputError(
            f"{where} ({_short(path, 200)}) carries neither its log nor why it was unread "
            "(a part saved by pywall audit --save-tally carries one): refused"
        )
    if log is not None and not (isinstance(log, str) and len(log) <= MAX_DOCUMENT_BYTES):
        raise ValueInputError(f"{where} ({_short(path, 200)}): its log is not text: refused")
    return SavedGame(name, number, path, log, _checked_unread(unread, where), entry["record"])


def _checked_unread(value: Any, where: str) -> tuple[str, str] | None:
    if value is None:
        return None
    if not (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str)
        and _CODE.fullmatch(value[0])
        and isinstance(value[1], str)
        and len(value[1]) <= MAX_MESSAGE_CHARS
    ):
        raise ValueInputError(f"{where}: why it was unread is not [code, message]: refused")
    return value[0], value[1]


# --- a saved part checked against its games re-derived -----------------------------------------


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


def checked_record(game: SavedGame, made: GameRecord) -> GameRecord:
    """``made``, the record re-derived from the game's bytes, once the part's stated record
    is exactly it; else ``ValueInputError`` naming the part and the game."""
    mine = _plain(made.to_dict())
    try:
        same = mine == game.record
    except RecursionError:
        same = False
    if same:
        return made
    stated = game.record
    differ = sorted(k for k in mine if k not in stated or stated[k] != mine[k])
    extra = sorted(_short(k, 20) for k in stated if k not in mine)[:3]
    raise ValueInputError(
        f"{game.where}: its stated record is not what its log gives (differing: "
        f"{', '.join(differ[:5] + extra) or '?'}); altered, or saved by another pywall "
        "version: refused"
    )


def checked_part(part: SavedPart, made: Sequence[GameRecord]) -> ShardTally:
    """The part's records, re-derived (``made``, one per game, in order, each already
    ``checked_record``), once its stated tally is what they add up to."""
    shard = ShardTally(tuple(made))
    _check_counts(shard, part.tally, part.name)
    return shard


def _totals(tally: Mapping[str, Any]) -> str:
    """A tally's headline counts in words (from its JSON form, checked or not)."""
    excluded = tally.get("excluded")
    games = tally.get("games", "?")
    return (
        f"{_short(games, 20)} games, "
        f"{len(excluded) if isinstance(excluded, list) else '?'} excluded"
    )


def _check_counts(shard: ShardTally, stored: Mapping[str, Any], name: str) -> None:
    """The saved tally must be exactly what the part's re-derived records add up to."""
    made = _plain(shard.tally().to_dict())
    try:
        if made == stored:
            return
    except RecursionError:
        pass
    differ = sorted(_short(k, 20) for k in set(made) | set(stored) if made.get(k) != stored.get(k))
    raise ValueInputError(
        f"{name}: its counts do not add up: its tally says {_totals(stored)}, its "
        f"{len(shard.records):,} records give {_totals(made)} (differing: "
        f"{', '.join(differ[:5])}): refused"
    )
