"""What the audit keeps of many games: each game's copies, and counts per group.

``AuditTally.add`` takes each game's ``records.GameRecord`` (its starting hands as
seat, size, shanten and dora; its draw sums; its whole walls; its copy key): a game that
cannot count is left out with its reason (``Exclusion``); a verified game joins the other
copies of its game (``pywall.audits.copies``: a copy cut short counts as the whole one,
copies that differ in anything else conflict and none counts). The counts (``Counts``:
everyone, each platform and player count, each named player, each seat; shanten counts per
hand class, the dora dealt with their exact mean and variance, the draw tests' sums, the
walls) are made from the copies when the tally is read (``settle``), so the answer does not
depend on the order of the games; tallies of parts of a run merge (``merge``: a game in
both parts counts once, by the same rule) and travel as JSON (``to_dict``, ``from_dict``:
checked). Hands can also be given one by one (``StartingHand``, ``tally_of``).
``pywall.audits.verdicts`` computes the tests from a tally.
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pywall.analysis.walls import WallTally
from pywall.audits.copies import Copies, Copy, CopyKey
from pywall.audits.counts import Counts, GroupTally, StartingHand, tally_of
from pywall.audits.records import NO_FINGERPRINT, GameRecord
from pywall.core.errors import PywallError, ValueInputError
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


def _size(group: Copies) -> int:
    """What a game's copies keep: the counted record and its items, 64 bytes a copy."""
    best = group.best
    return len(group.record or b"") + (len(best.key.stream) if best else 0) + 64 * len(group.copies)


def packed(record: GameRecord) -> bytes:
    """A record kept until the audit counts it (a few times smaller than the object)."""
    return zlib.compress(pickle.dumps(record, protocol=5), 1)


def unpacked(data: bytes) -> GameRecord:
    """A record ``packed`` made in this process (never bytes from elsewhere)."""
    record: GameRecord = pickle.loads(zlib.decompress(data))
    return record


@dataclass(slots=True)
class AuditTally:
    """Everything the audit keeps of many games: the copies of each game (``copies``, by
    fingerprint, with the record of the one that counts) and the games that cannot count
    (``problems``); the counts per group (``Counts``) are made from them when first read
    after a change (``settle``)."""

    problems: list[Exclusion] = field(default_factory=list)  # unreadable, not verified, ...
    copies: dict[str, Copies] = field(default_factory=dict)  # fingerprint -> its copies
    _counts: Counts | None = None
    kept: int = 0  # bytes kept to compare copies (``limits.MAX_AUDIT_KEPT``)

    def _keep(self, group: Copies, change: Callable[[], None]) -> None:
        """``change`` a game's copies, counting what the tally keeps: over
        ``MAX_AUDIT_KEPT``, a ``ValueInputError`` that says so (nothing else changes)."""
        before = _size(group)
        change()
        self.kept += _size(group) - before
        self._counts = None
        if self.kept > MAX_AUDIT_KEPT:
            raise ValueInputError(
                f"the audit would keep over {MAX_AUDIT_KEPT // 2**20:,} MiB to tell copies of "
                f"its {len(self.copies):,} games apart (docs/limits.md): audit fewer games at a time"
            )

    def settle(self) -> Counts:
        """Count the game of each fingerprint once: its most complete copy, or none when
        its copies conflict (``pywall.audits.copies``). The counts are made again from
        the records kept, in code-point order of the fingerprints, so a game counts the
        same whatever the order its copies came in (and the sums, kept exact, are the same
        bits whatever the order or split of the games: ``GroupTally``)."""
        if self._counts is None:
            self._counts = self._count(Counts())
        return self._counts

    def _count(self, counts: Counts) -> Counts:
        """``counts`` with the game of each fingerprint counted, in fingerprint order."""
        for _, group in sorted(self.copies.items(), key=lambda item: item[0]):
            if group.record is not None:
                counts.count(unpacked(group.record))
        return counts

    def seat_shares(self, names: Iterable[str]) -> dict[tuple[str, str], GroupTally]:
        """Each of ``names``' hands and draws in each seat group, (seat group, player) ->
        its tally, counted again from the games kept (so only when asked: a seat group
        flagged while a player is; the memory is a few groups a name)."""
        return self._count(Counts(shares_of=frozenset(names))).shares

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
    def series(self) -> dict[str, list[tuple[float, float]]]:
        return self.settle().series

    @property
    def overall_series(self) -> list[tuple[float, float]]:
        """Every player's effective draws together, game by game: (O - E, V)."""
        return self.settle().overall_series

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
        return sum(1 for g in self.copies.values() if g.conflict)

    def add(self, record: GameRecord) -> None:
        """One game's audit record: kept with the other copies of its game (counted once,
        as ``copies`` decides, when the tally is read), or an exclusion."""
        if record.problem is not None:
            self.problems.append(Exclusion(record.path, *record.problem))
            return
        if record.copy is None:  # a record made without the audit: it cannot be compared
            self.problems.append(Exclusion(record.path, *NO_FINGERPRINT))
            return
        group = self.copies.get(record.fingerprint)
        if group is None:
            group = self.copies[record.fingerprint] = Copies()
        copy, data = Copy(record.path, record.copy), packed(record)
        self._keep(group, lambda: group.add(copy, data))

    def add_all(self, records: Sequence[GameRecord]) -> None:
        """Every record, or none: on an error (``MAX_AUDIT_KEPT``) the tally is as before."""
        problems, kept = len(self.problems), self.kept
        before: dict[str, Copies | None] = {}
        for r in records:
            group = self.copies.get(r.fingerprint)
            if r.problem is None and r.fingerprint not in before:
                before[r.fingerprint] = group and Copies(
                    list(group.copies), group.best, group.record
                )
        try:
            for r in records:
                self.add(r)
        except PywallError:
            del self.problems[problems:]
            for fingerprint, group in before.items():
                if group is None:
                    self.copies.pop(fingerprint, None)
                else:
                    self.copies[fingerprint] = group
            self.kept, self._counts = kept, None
            raise

    def merge(self, other: AuditTally) -> None:
        """Add another part of the same audit (another worker's share of a run, another
        run, the page's logs): a game in both counts once, by the same rule as in one.
        When no game is in both, the counts are added (each part's made once, kept until
        it changes: the page's runs are not counted again at each audit); else the games
        are counted again from their copies."""
        self.problems += other.problems
        counts = None
        if self.copies.keys().isdisjoint(other.copies):
            counts = Counts()
            counts.merge(self.settle())
            counts.merge(other.settle())
        for fingerprint, theirs in other.copies.items():
            mine = self.copies.get(fingerprint)
            if mine is None:
                mine = self.copies[fingerprint] = Copies()
            self._keep(mine, partial(mine.merge, theirs))
        self._counts = counts

    def to_dict(self) -> dict[str, Any]:
        """The tally as JSON: its problems, and each game's copies ([path, key]) with the
        index of the one that counts and its record (null when they conflict); ``games``
        and ``excluded`` say what it counts and leaves out (``from_dict`` reads neither)."""
        games = []
        for fingerprint, group in self.copies.items():
            best = None if group.best is None else group.copies.index(group.best)
            record = None if group.record is None else unpacked(group.record).to_dict()
            games.append(
                [fingerprint, [[c.path, c.key.to_list()] for c in group.copies], best, record]
            )

        def listed(exclusions: list[Exclusion]) -> list[list[Any]]:
            return [
                [e.path, e.kind, e.reason, e.reason_code, dict(e.reason_data)] for e in exclusions
            ]

        return {
            "games": self.games,
            "excluded": listed(self.excluded),
            "problems": listed(self.problems),
            "copies": games,
        }

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
                tally.copies[str(fingerprint)] = group
            return tally
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            if isinstance(exc, ValueInputError):
                raise
            raise ValueInputError(f"not an audit tally ({type(exc).__name__})") from None


def _exclusion_from(e: Sequence[Any]) -> Exclusion:
    """An exclusion as ``AuditTally.to_dict`` lists it (tallies before reason codes: 3 items)."""
    path, kind, reason = e[:3]
    code, data = (e[3], e[4]) if len(e) >= 5 else ("", {})
    return Exclusion(str(path), str(kind), str(reason), str(code), dict(data))
