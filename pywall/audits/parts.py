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

Saved (``to_dict``) a part is a versioned JSON document: ``format`` and ``version``,
the ``pywall`` version that wrote it, ``games`` (each record with a content digest,
the SHA-256 of its canonical JSON: two copies of one game with the same digest are the
same in everything the audit reads) and ``tally``, what the records add up to
(``AuditTally.to_dict``: the counts, the exclusions with their reasons, the fingerprints
counted). ``shard_from_json`` reads one back and refuses it, with words saying why,
when it is not such a document, is of another format version, is over
``MAX_DOCUMENT_BYTES`` or ``MAX_GAMES``, has a record whose digest does not match, or
when its tally is not what its records add up to.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally
from pywall.core.errors import ValueInputError
from pywall.core.version import VERSION as PYWALL_VERSION

FORMAT = "pywall-audit-tally"
VERSION = 1
#: A saved part is read whole, and its objects take about nine times its size in memory
#: (a 6.2 MiB part of 2,000 games: 58 MiB): past 64 MiB (about 20,000 games) it is refused
#: (cut larger audits into more parts).
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_GAMES = 100_000


def digest_of(record: Mapping[str, Any]) -> str:
    """A record's content digest: SHA-256 of its canonical JSON (sorted keys, no blanks)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True, slots=True)
class ShardTally:
    """What one part of an audit counted: each game's audit record, in input order."""

    records: tuple[GameRecord, ...]

    def tally(self) -> AuditTally:
        """The part's own tally (its records added in order)."""
        return merged_tally([self])

    def to_dict(self) -> dict[str, Any]:
        """The part as a saved document (see the module's docstring)."""
        games = []
        for record in self.records:
            d = record.to_dict()
            games.append({"digest": digest_of(d), "record": d})
        return {
            "format": FORMAT,
            "version": VERSION,
            "pywall": PYWALL_VERSION,
            "games": games,
            "tally": self.tally().to_dict(),
        }


def merged_tally(shards: Iterable[ShardTally]) -> AuditTally:
    """One tally of the parts, in order: what one run over all their inputs counts."""
    tally = AuditTally()
    for shard in shards:
        for record in shard.records:
            tally.add(record)
    return tally


def shard_from_json(data: bytes, name: str) -> ShardTally:
    """A saved part read back and checked; ``ValueInputError`` saying why it is refused."""
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ValueInputError(
            f"{name}: {len(data):,} bytes, over the {MAX_DOCUMENT_BYTES:,} a saved tally may "
            "have (cut the audit into more parts): refused"
        )
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        raise ValueInputError(f"{name}: not a saved audit tally (not JSON): refused") from None
    games = _checked_header(doc, name)
    records = tuple(_checked_game(entry, i, name) for i, entry in enumerate(games, 1))
    shard = ShardTally(records)
    _check_counts(shard, doc["tally"], name)
    return shard


def _checked_header(doc: Any, name: str) -> list[Any]:
    """The document's games, once its format, version and size are those of a saved tally."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueInputError(
            f"{name}: not a saved audit tally (pywall audit --save-tally writes them): refused"
        )
    version = doc.get("version")
    if version != VERSION:
        raise ValueInputError(
            f"{name}: a saved tally of format version {version!r} (written by pywall "
            f"{doc.get('pywall')!r}); this pywall reads version {VERSION} only: refused. "
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


def _checked_game(entry: Any, number: int, name: str) -> GameRecord:
    where = f"{name}: game {number:,}"
    if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
        raise ValueInputError(f"{where} is not a game's record: refused")
    if entry.get("digest") != digest_of(entry["record"]):
        raise ValueInputError(f"{where}: its record does not match its digest (altered?): refused")
    try:
        return GameRecord.from_dict(entry["record"])
    except ValueInputError as exc:
        raise ValueInputError(f"{where}: {exc.message}: refused") from None


def _totals(tally: Mapping[str, Any]) -> str:
    """A tally's headline counts in words (from its JSON form, checked or not)."""
    excluded = tally.get("excluded")
    overall = tally.get("overall")
    shanten = overall.get("shanten") if isinstance(overall, dict) else None
    try:
        hands = sum(sum(c.values()) for _, _, c in shanten) if isinstance(shanten, list) else "?"
    except (TypeError, ValueError, AttributeError):
        hands = "?"
    return (
        f"{tally.get('games', '?')} games, {hands} hands, "
        f"{len(excluded) if isinstance(excluded, list) else '?'} excluded"
    )


def _check_counts(shard: ShardTally, stored: Mapping[str, Any], name: str) -> None:
    """The saved tally must be exactly what the saved records add up to."""
    made = _plain(shard.tally().to_dict())
    if made == stored:
        return
    differ = sorted(k for k in set(made) | set(stored) if made.get(k) != stored.get(k))
    raise ValueInputError(
        f"{name}: its counts do not add up: its tally says {_totals(stored)}, its "
        f"{len(shard.records):,} records give {_totals(made)} (differing: "
        f"{', '.join(differ[:5])}): refused"
    )
