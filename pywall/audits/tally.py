"""What the audit keeps of many games: each game's copies, and counts per group.

``AuditTally.add`` takes each game's ``records.GameRecord`` (its starting hands as
seat, size, shanten and dora; its draw sums; its whole walls; its copy key): a game that
cannot count is left out with its reason (``Exclusion``); a verified game joins the other
copies of its game (``pywall.audits.copies``: a copy cut short counts as the whole one,
copies that differ in anything else conflict and none counts). The counts (``Counts``:
everyone, each platform and player count, each named player, each seat; shanten counts per
hand class, the dora dealt with their exact mean and variance, the draw tests' sums, the
walls) take a game's record as soon as it counts and give it back exactly when another
copy replaces it or conflicts with it (every sum is a whole number), so the answer does
not depend on the order of the games; a tally that can read its games again (``reread``)
keeps a few hundred bytes of a game with one copy (docs/limits.md). Tallies of parts of a
run merge (``merge``: a game in both parts counts once, by the same rule) and travel as
JSON (``to_dict``, ``from_dict``: checked). Hands can also be given one by one (``StartingHand``, ``tally_of``).
``pywall.audits.verdicts`` computes the tests from a tally.
"""

from __future__ import annotations

import pickle
import zlib
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

from pywall.analysis.walls import WallTally
from pywall.audits.copies import Copies, Copy, CopyKey
from pywall.audits.counts import Counts, GroupTally, Points, StartingHand, tally_of
from pywall.audits.records import NO_FINGERPRINT, GameRecord
from pywall.core.errors import ValueInputError
from pywall.core.json_value import JsonObject
from pywall.core.limits import MAX_AUDIT_KEPT

__all__ = ["AuditTally", "Counts", "Exclusion", "GroupTally", "StartingHand", "tally_of"]

KIND_TEXT = {
    "unreadable": "unreadable",
    "error": "could not be verified",
    "mismatch": "mismatch",
    "duplicate": "repeats",
    "conflict": "games with conflicting copies",
    "no_hands": "no starting hands in the report",
    "changed": "in a file that changed during the audit",
}


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A game left out of the audit, and why: ``reason`` in English, ``reason_code`` and
    ``reason_data`` for words in another language (the page): the codes are the kinds,
    with ``no_hands`` split into ``no_starting_hands`` and ``no_fingerprint``; the data is
    the first error's ``exports.problem_context`` (unreadable, error, mismatch; ``{}`` when
    the report has none), ``{"same_as": path}`` (duplicate), or the file and the games
    planned (changed: codes ``missing_game`` and ``more_games``, ``pywall.scale.shards``)."""

    path: str
    kind: str  # unreadable | error | mismatch | duplicate | conflict | no_hands | changed
    reason: str
    reason_code: str = ""
    reason_data: JsonObject = field(default_factory=dict)


#: What a game's state costs the tally beyond its texts: its entry, its ``Copies``, one
#: ``Copy`` and key, and its series' points (a bound, checked by test_audit_memory.py).
GAME_BYTES = 720
#: And each more copy of a game (its ``Copy`` and key, beyond its path and stream).
COPY_BYTES = 200


def _size(fingerprint: str, group: Copies) -> int:
    """What a game's copies keep: its fingerprint and paths, the counted record and each
    copy's items (a dropped copy: a 16-byte digest of them)."""
    return (
        GAME_BYTES
        + len(fingerprint)
        + len(group.record or b"")
        + sum(COPY_BYTES + len(c.path) + len(c.key.stream) for c in group.copies)
        - COPY_BYTES
    )


def packed(record: GameRecord) -> bytes:
    """A record kept until the audit counts it (a few times smaller than the object)."""
    return zlib.compress(pickle.dumps(record, protocol=5), 1)


def unpacked(data: bytes) -> GameRecord:
    """A record ``packed`` made in this process (never bytes from elsewhere)."""
    record: GameRecord = pickle.loads(zlib.decompress(data))
    return record


def _waiting(copy: Copy, data: bytes) -> int:
    """What a copy waiting for its game's first copy to be read again keeps."""
    return COPY_BYTES + len(copy.path) + len(copy.key.stream) + len(data)


#: Reads again the games given at these places (``Copy.at``, in increasing order) and
#: gives their records in that order: the run's driver's, which can read its inputs again.
Reread = Callable[[Sequence[int]], Iterable[GameRecord]]


def changed(path: str) -> ValueInputError:
    return ValueInputError(
        f"{path}: the game read again to compare it with another copy is not the one read "
        "before (the file changed during the audit): audit it again"
    )


@dataclass(slots=True)
class AuditTally:
    """Everything the audit keeps of many games: the copies of each game (``copies``, by
    fingerprint) and the games that cannot count (``problems``), and the counts per group
    (``Counts``), to which a game's record is added as soon as it counts and from which it
    is taken out exactly when another copy replaces it or conflicts with it.

    With ``reread`` (the command, ``pywall.audit``: their inputs can be read twice), a
    game with one copy keeps no record and no items, only its path, its fingerprint and
    a digest of its items (``Copies.drop``): a few hundred bytes. When a second copy
    comes, the first is read again (``reread``, all at once when the tally is next
    read: ``settle``) and the copies compared exactly. Without it (the page, saved
    parts), each game keeps its counted record and its items, packed."""

    problems: list[Exclusion] = field(default_factory=list)  # unreadable, not verified, ...
    copies: dict[str, Copies] = field(default_factory=dict)  # fingerprint -> its copies
    counts: Counts = field(default_factory=Counts)
    kept: int = 0  # bytes kept to tell copies apart (``limits.MAX_AUDIT_KEPT``)
    reread: Reread | None = None
    #: dropped games that met another copy: the later copies and their records, packed
    waiting: dict[str, list[tuple[Copy, bytes]]] = field(default_factory=dict)
    added: int = 0  # records given so far (the next one's ``Copy.at``)
    #: what reads dropped copies again, by ``Copy.source``: ``reread``, then those of the
    #: tallies merged into this one
    readers: list[Reread] = field(default_factory=list)
    numbered: int = 0  # records counted so far (the next one's ``Copies.game``)

    def __post_init__(self) -> None:
        if self.reread is not None and not self.readers:
            self.readers.append(self.reread)

    def _check_kept(self, more: int) -> None:
        if self.kept + more > MAX_AUDIT_KEPT:
            raise ValueInputError(
                f"the audit would keep over {MAX_AUDIT_KEPT // 2**20:,} MiB to tell copies of "
                f"its {len(self.copies):,} games apart (a few hundred bytes a game, and the "
                "items of each game with several copies: docs/limits.md): audit fewer games "
                "at a time"
            )

    def _count(self, record: GameRecord) -> int:
        number = self.numbered
        self.numbered += 1
        self.counts.count(record, number)
        return number

    def _commit(self, fingerprint: str, group: Copies, before: Copies | None) -> None:
        """``group`` is now the game's copies (``before``: what they were): the counts
        follow the record that counts, taken out and added exactly."""
        old = before.record if before is not None else None
        if group.record is not old:
            if old is not None:
                self.counts.remove(unpacked(old))
            if group.record is not None:
                group.game = self._count(unpacked(group.record))
        self.copies[fingerprint] = group

    def settle(self) -> Counts:
        """The counts of the games that count, each game once: its most complete copy, or
        none when its copies conflict (``pywall.audits.copies``). Games that met another
        copy after they were dropped are read again first and decided now; every sum is
        exact, so the counts are the same bits whatever the order or split of the games
        (``GroupTally``)."""
        if self.waiting:
            self._resolve()
        return self.counts

    def _resolve(self) -> None:
        """Games that met another copy after their first was dropped: the first read
        again, then the others added one by one, in the order they came."""
        self._undrop(list(self.waiting))
        for fingerprint, later in self.waiting.items():
            group = self.copies[fingerprint]
            size = _size(fingerprint, group) + sum(_waiting(c, d) for c, d in later)
            for copy, data in later:
                before = group.clone()
                group.add(copy, data)
                self._commit(fingerprint, group, before)
            self.kept += _size(fingerprint, group) - size
        self.waiting.clear()

    def _undrop(self, fingerprints: Iterable[str]) -> None:
        """These games' dropped copies read again, their items and records kept again."""
        dropped = [(f, g) for f in fingerprints if (g := self.copies[f]).dropped]
        read = self._read_again([g.copies[0] for _, g in dropped])
        for fingerprint, group in dropped:
            first = group.copies[0]
            record = read[first.source, first.at]
            size = _size(fingerprint, group)
            if record.copy is None or not group.restore(record.copy, packed(record)):
                raise changed(first.path)
            self.kept += _size(fingerprint, group) - size

    def _read_again(self, copies: Sequence[Copy]) -> dict[tuple[int, int], GameRecord]:
        """The records of dropped ``copies``, read again (by reader and place), each
        checked to be a verified copy of the same path (``changed`` otherwise)."""
        return {(c.source, c.at): record for c, record in self._each_read_again(copies)}

    def _each_read_again(
        self, copies: Sequence[Copy]
    ) -> Generator[tuple[Copy, GameRecord], None, None]:
        """Each of dropped ``copies`` with its record read again, one at a time (by reader,
        in the order of their places: nothing kept a game but a reference to its copy),
        each checked to be a verified copy of the same path (``changed`` otherwise)."""
        for source in sorted({c.source for c in copies}):
            mine = sorted((c for c in copies if c.source == source), key=attrgetter("at"))
            places = [c.at for i, c in enumerate(mine) if not i or c.at != mine[i - 1].at]
            records = iter(self.readers[source](places))
            try:
                at = 0
                for place in places:
                    record = next(records, None)
                    if record is None:
                        raise changed(mine[at].path)
                    while at < len(mine) and mine[at].at == place:
                        copy = mine[at]
                        if (
                            record.problem is not None
                            or record.path != copy.path
                            or not record.copy
                        ):
                            raise changed(copy.path)
                        yield copy, record
                        at += 1
                if next(records, None) is not None:
                    raise changed(mine[0].path)
            finally:
                close = getattr(records, "close", None)
                if close is not None:
                    close()

    def seat_shares(self, names: Iterable[str]) -> dict[tuple[str, str], GroupTally]:
        """Each of ``names``' hands and draws in each seat group, (seat group, player) ->
        its tally, counted again from the games kept (so only when asked: a seat group
        flagged while a player is; the memory is a few groups a name). Dropped games are
        read again (``reread``) one at a time."""
        counts = Counts(shares_of=frozenset(names))
        self.settle()
        dropped: list[Copy] = []
        for group in self.copies.values():
            if group.best is None:
                continue
            if group.record is not None:
                counts.count(unpacked(group.record), -1)
            elif group.dropped:
                dropped.append(group.best)
        for _, record in self._each_read_again(dropped):
            counts.count(record, -1)  # its series' points are not these counts' business
        return counts.shares

    def settle_items(self) -> list[tuple[str, Copies]]:
        """Each game's copies, settled, in code-point order of the fingerprints."""
        self.settle()
        return sorted(self.copies.items(), key=lambda item: item[0])

    def _order(self) -> array[int]:
        """Each game's number -> its place among the counted games in code-point order of
        their fingerprints (the series' order), -1 for a number that no longer counts: 8
        bytes a number, the fingerprints' order sorted once (a list of references)."""
        self.settle()
        rank = array("q", [-1]) * self.numbered
        place = 0
        for fingerprint in sorted(self.copies):
            group = self.copies[fingerprint]
            if group.best is not None and group.game >= 0:
                rank[group.game] = place
                place += 1
        return rank

    @property
    def overall(self) -> GroupTally:
        return self.settle().overall

    @property
    def platforms(self) -> dict[str, GroupTally]:
        return self.settle().platforms

    @property
    def players(self) -> dict[str, GroupTally]:
        return self.settle().players

    @property
    def games(self) -> int:
        return self.settle().games

    @property
    def anonymous_hands(self) -> int:
        return self.settle().anonymous_hands

    @property
    def seats(self) -> dict[str, GroupTally]:
        return self.settle().seats

    @property
    def walls(self) -> dict[str, WallTally]:
        return self.settle().walls

    @property
    def anonymous_draws(self) -> int:
        return self.settle().anonymous_draws

    @property
    def skipped_rounds(self) -> dict[str, int]:
        """Rounds of counted games whose draws were left out, by reason."""
        return self.settle().skipped_rounds

    @property
    def series(self) -> dict[str, Points]:
        """Each named player's effective draws game by game, (O - E, V), the games in
        code-point order of their fingerprints (compact: ``counts.Points``)."""
        return self.counts.series_in(self._order())

    @property
    def overall_series(self) -> Points:
        """Every player's effective draws together, game by game: (O - E, V)."""
        return self.counts.overall_series_in(self._order())

    @property
    def hands(self) -> int:
        return self.settle().overall.hands

    @property
    def draws(self) -> int:
        return self.settle().overall.draws[0].n

    @property
    def excluded(self) -> list[Exclusion]:
        """Every file that does not count, and why: the problems, then the repeats of a
        game that counts and one entry per game whose copies conflict (naming every file),
        each part in code-point order of the paths (then kind and reason), so the list is
        the same whatever the order of the files."""
        self.settle()
        out = []
        for group in self.copies.values():
            best = group.best
            if best is None:
                paths = sorted({c.path for c in group.copies})
                out.append(
                    Exclusion(
                        paths[0],
                        "conflict",
                        "conflicting copies of one game: their names, rule or events "
                        "differ, and the names come from the file (no platform's seed or "
                        f"hash covers them), so none counts: {', '.join(paths)}",
                        "conflict",
                        {"paths": list(paths)},
                    )
                )
            for c in group.repeats():
                out.append(
                    Exclusion(
                        c.path,
                        "duplicate",
                        f"repeat of {best.path}" if best else "",
                        "duplicate",
                        {"same_as": best.path if best else ""},
                    )
                )

        def order(e: Exclusion) -> tuple[str, str, str]:
            return (e.path, e.kind, e.reason)

        return sorted(self.problems, key=order) + sorted(out, key=order)

    @property
    def conflicts(self) -> int:
        """Games left out because their copies conflict."""
        self.settle()
        return sum(1 for g in self.copies.values() if g.conflict)

    def add(self, record: GameRecord) -> None:
        """One game's audit record: kept with the other copies of its game (counted once,
        as ``copies`` decides), or an exclusion; over ``MAX_AUDIT_KEPT``, a
        ``ValueInputError`` that says so (nothing changes)."""
        at = self.added
        if record.problem is not None:
            self.problems.append(Exclusion(record.path, *record.problem))
        elif record.copy is None:  # a record made without the audit: it cannot be compared
            self.problems.append(Exclusion(record.path, *NO_FINGERPRINT))
        else:
            self._add(record, Copy(record.path, record.copy, at))
        self.added = at + 1

    def _add(self, record: GameRecord, copy: Copy) -> None:
        fingerprint = record.fingerprint
        group = self.copies.get(fingerprint)
        if group is not None and group.dropped:  # decided when it is read again (settle)
            data = packed(record)
            self._check_kept(_waiting(copy, data))
            self.kept += _waiting(copy, data)
            self.waiting.setdefault(fingerprint, []).append((copy, data))
            return
        if group is None and self.reread is not None:  # counted now, its items let go
            made = Copies([copy], copy)
            made.drop()
            self._check_kept(_size(fingerprint, made))
            made.game = self._count(record)
            self.copies[fingerprint] = made
            self.kept += _size(fingerprint, made)
            return
        changed_group = group.clone() if group is not None else Copies()
        changed_group.add(copy, packed(record))
        more = _size(fingerprint, changed_group) - (
            _size(fingerprint, group) if group is not None else 0
        )
        self._check_kept(more)
        self._commit(fingerprint, changed_group, group)
        self.kept += more

    def add_all(self, records: Sequence[GameRecord]) -> None:
        """Every record, or none: over ``MAX_AUDIT_KEPT`` the tally is as before (what
        they would keep is found first, on copies of their games' groups; with ``reread``,
        a bound of it)."""
        groups: dict[str, Copies | None] = {}
        more = 0
        for r in records:
            if r.problem is not None or r.copy is None:
                continue
            if self.reread is not None:
                more += self._rereading_keeps(r, groups)
                continue
            if r.fingerprint not in groups:
                found = self.copies.get(r.fingerprint)
                groups[r.fingerprint] = found.clone() if found is not None else None
            group = groups[r.fingerprint]
            made = group.clone() if group is not None else Copies()
            made.add(Copy(r.path, r.copy, -1), b"")
            more += _size(r.fingerprint, made) - (
                _size(r.fingerprint, group) if group is not None else 0
            )
            more += len(packed(r)) if made.best is not None and made.best.path == r.path else 0
            groups[r.fingerprint] = made
        self._check_kept(more)
        for r in records:
            self.add(r)

    def _rereading_keeps(self, r: GameRecord, seen: dict[str, Copies | None]) -> int:
        """At most what ``add`` keeps of ``r`` with ``reread`` (``seen``: the games of
        the records before it in the same call): a new game is dropped at once, a later
        copy of a dropped or new game waits with its record, packed (``settle``)."""
        assert r.copy is not None
        copy = Copy(r.path, r.copy, -1)
        found = self.copies.get(r.fingerprint)
        if found is None and r.fingerprint not in seen:
            seen[r.fingerprint] = None
            made = Copies([copy], copy)
            made.drop()
            return _size(r.fingerprint, made)
        if found is None or found.dropped:
            return _waiting(copy, packed(r))
        made = found.clone()  # a game read again already (a merge): the copy joins it
        made.add(copy, b"")
        return _size(r.fingerprint, made) - _size(r.fingerprint, found) + len(packed(r))

    def merge(self, other: AuditTally) -> None:
        """Add another part of the same audit (another worker's share of a run, another
        run, the page's logs): a game in both counts once, by the same rule as in one.
        The counts are added (each part's made once: the page's runs are not counted
        again at each audit); a game in both is then decided from both parts' copies (a
        dropped one read again first), both its records taken out of the counts and the
        one that counts now added. Dropped games of ``other`` stay dropped, read again by
        its readers. ``other`` is not to be used after."""
        other.settle()
        common = self.copies.keys() & other.copies.keys()
        self._undrop(common)
        other._undrop(common)
        sources, offset = len(self.readers), self.numbered
        self.readers += other.readers
        self.problems += other.problems
        self.added += other.added
        self.counts.merge(other.counts, offset)
        self.numbered += other.numbered
        self.kept += other.kept
        for fingerprint, theirs in other.copies.items():
            moved = _moved(theirs, sources)
            moved.game = theirs.game + offset if theirs.best is not None else -1
            mine = self.copies.get(fingerprint)
            if mine is None:
                self.copies[fingerprint] = moved
                continue
            made = mine.clone()
            made.merge(moved)
            for old in (mine.record, moved.record):
                if old is not None:
                    self.counts.remove(unpacked(old))
            if made.record is not None:
                made.game = self._count(unpacked(made.record))
            self.kept += _size(fingerprint, made) - _size(fingerprint, mine)
            self.kept -= _size(fingerprint, moved)
            self.copies[fingerprint] = made
        self._check_kept(0)

    def to_dict(self) -> dict[str, Any]:
        """The tally as JSON: its problems, and each game's copies ([path, key]) with the
        index of the one that counts and its record (null when they conflict); ``games``
        and ``excluded`` say what it counts and leaves out (``from_dict`` reads neither)."""
        return self.head_dict() | {"copies": list(self.copies_lists())}

    def head_dict(self) -> dict[str, Any]:
        """``to_dict`` but its ``copies`` (``copies_lists`` gives them one at a time)."""

        def listed(exclusions: list[Exclusion]) -> list[list[Any]]:
            return [
                [e.path, e.kind, e.reason, e.reason_code, dict(e.reason_data)] for e in exclusions
            ]

        return {
            "games": self.games,
            "excluded": listed(self.excluded),
            "problems": listed(self.problems),
        }

    def copies_lists(self) -> Iterator[list[Any]]:
        """``to_dict``'s ``copies``, a game at a time, in the order the games came: a
        dropped game's record is read again as its turn comes and let go (the tally stays
        as small as it was: ``--save-tally`` writes a part's tally this way)."""
        self.settle()
        dropped = [g.copies[0] for g in self.copies.values() if g.dropped]
        if [(c.source, c.at) for c in dropped] != sorted((c.source, c.at) for c in dropped):
            self._undrop(list(self.copies))  # merged tallies' order: all read again at once
            dropped = []
        again = self._each_read_again(dropped)
        try:
            for fingerprint, group in self.copies.items():
                if group.dropped:
                    group = _read_back(group, next(again))
                best = None if group.best is None else group.copies.index(group.best)
                record = None if group.record is None else unpacked(group.record).to_dict()
                yield [fingerprint, [[c.path, c.key.to_list()] for c in group.copies], best, record]
        finally:
            again.close()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AuditTally:
        """A tally's JSON read back, checked (``ValueInputError``): every record as
        ``GameRecord.from_dict`` reads it, the copies compared again."""
        try:
            tally = cls(problems=[_exclusion_from(e) for e in d["problems"]])
            for fingerprint, copies, best, record in d["copies"]:
                listed = [Copy(str(p), CopyKey.from_list(k, str(p)[:200])) for p, k in copies]
                if best is None:
                    group = Copies(listed)
                else:
                    read = GameRecord.from_dict(record)
                    if read.copy != listed[best].key or read.fingerprint != fingerprint:
                        raise ValueInputError("not an audit tally: a record is not its game's copy")
                    group = Copies()
                    group.add(listed[best], packed(read))
                    for c in listed[:best] + listed[best + 1 :]:
                        group.add(c, None)
                if group.best is None and not group.conflict or not listed:
                    raise ValueInputError("not an audit tally: a game's copies do not agree")
                tally._commit(str(fingerprint), group, None)
                tally.kept += _size(str(fingerprint), group)
            return tally
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            if isinstance(exc, ValueInputError):
                raise
            raise ValueInputError(f"not an audit tally ({type(exc).__name__})") from None


def _read_back(group: Copies, found: tuple[Copy, GameRecord]) -> Copies:
    """A dropped game's copies with its record read again (``found``), the tally's own
    left dropped; ``changed`` when it is not the copy read before."""
    copy, record = found
    back = group.clone()
    if (
        copy is not group.copies[0]
        or record.copy is None
        or not back.restore(record.copy, packed(record))
    ):
        raise changed(copy.path)
    return back


def _moved(group: Copies, sources: int) -> Copies:
    """A group of another tally as this one keeps it: its copies' readers after ours."""
    moved = group.clone()
    if sources:
        moved.copies = [replace(c, source=c.source + sources) for c in group.copies]
        moved.best = None if group.best is None else moved.copies[group.copies.index(group.best)]
    return moved


def _exclusion_from(e: Sequence[Any]) -> Exclusion:
    """An exclusion as ``AuditTally.to_dict`` lists it (tallies before reason codes: 3 items)."""
    path, kind, reason = e[:3]
    code, data = (e[3], e[4]) if len(e) >= 5 else ("", {})
    return Exclusion(str(path), str(kind), str(reason), str(code), dict(data))
