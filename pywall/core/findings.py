"""Findings: what a check found, as data (not exceptions).

Codes are stable snake_case strings that other tools match on: add codes,
never rename them. ``CODES`` documents each in one line; ``info`` gives its category
(and which part of the wall a tile is in, or a digest's outcome). Every finding's JSON
carries these, so the page words a finding from the finding alone, with no copy of
these tables.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from pywall.core.json_value import JsonObject
from pywall.core.limits import MAX_FINDINGS


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


CODES: dict[str, str] = {
    # Tenhou wall verification
    "deal_mismatch": "a dealt tile differs from the wall rebuilt from the seed",
    "draw_mismatch": "a live-wall draw differs from the wall",
    "replacement_mismatch": "a replacement draw after a kan or North extraction differs from the wall",
    "dora_mismatch": "a dora indicator (INIT, DORA tag or AGARI doraHai) differs from the wall",
    "ura_mismatch": "an ura-dora indicator on AGARI differs from the wall",
    "dora_count_mismatch": "a win lists more or fewer dora indicators than the log revealed",
    "dice_mismatch": "the dice in INIT differ from the dice the seed gives",
    "more_mismatches": "further mismatches in the round, not listed one by one",
    "more_findings": "further findings in the game, past the 200 listed (data: count)",
    "wall_unrelated": "almost nothing in the round matches: the seed (or the wall a record "
    "reveals) is not this game's",
    "live_wall_overrun": "the log draws more live tiles than the wall holds",
    "seed_missing": "the log has no SHUFFLE seed, so its walls cannot be rebuilt",
    "bad_seed": "the SHUFFLE seed is not in a format pywall knows",
    "incomplete_log": "the log ends before the game's final result (truncated copy)",
    "legacy_seed": "an older seed format (real logs of September 2008 to February 2010): its era, and which kinds of tile real logs of it show (the rest best-effort)",
    "duplicate_attribute": "a tag repeats an attribute (a known quirk of real logs); the first is used",
    "no_rounds": "the log has no rounds to verify",
    # Walls the record states (Mahjong Soul, Riichi City): hashes and tile sets
    "sha256_match": "a stated SHA-256 matches (Mahjong Soul: of paishan + salt; Riichi City: of handCardEncode)",
    "hash_mismatch": "a stated SHA-256 of the wall differs from the one computed from the wall the record shows",
    "salt_hash_match": "SHA-256(salt) equals the round's saltSha256",
    "salt_hash_mismatch": "SHA-256(salt) differs from the round's saltSha256",
    "md5_match": "MD5(paishan) equals the round's md5 (Mahjong Soul before 2023-05-23)",
    "md5_mismatch": "MD5(paishan) differs from the round's md5",
    "salt_missing": "the round has a sha256 or saltSha256 but no salt, so it cannot be checked (a warning)",
    "no_hash": "the round states no digest of its wall: nothing shows it was fixed first (a warning)",
    "no_digest_checked": "the hash tool could check no digest of the round's wall (none stated, or none "
    "with its salt): nothing of the round is verified (an error)",
    "red_fives_unusual": "more than one red five of a suit (allowed counts are not documented)",
    "wall_composition": "the stated wall (with the hands, where it lacks the deal) is not the game's tile set",
    "left_count_mismatch": "a record's count of live tiles left differs from what its draws leave",
    "deal_not_committed": "the committed wall holds only the undealt tiles: the starting hands are outside the hash",
    "wall_copy_mismatch": "the record's second copy of the undealt wall (Riichi City's paiShan) differs from its wall",
    # Could not analyse the input at all
    "log_format": "the input is not a game record pywall can read",
    "empty_archive": "the archive (a zip) holds no file to check",
    "too_large": "the input is over pywall's size cap (raw or decompressed) or its cap on work",
    "unreadable": "the input could not be read (missing file, permission, I/O error)",
    "error": "the input could not be analysed",
}


class Category(str, Enum):
    """What a finding is about; the page words each category its own way."""

    TILE = "tile"  # a tile of the record differs from the wall; ``where`` says which part
    DIGEST = "digest"  # a stated digest of the wall: ``outcome`` match, mismatch, missing, note
    RECORD = "record"  # about a round or the record as a whole
    INPUT = "input"  # the input could not be analysed at all


#: Codes about one tile of the record, and the part of the wall it is in.
TILE_CODES = {
    "deal_mismatch": "deal",
    "draw_mismatch": "draw",
    "replacement_mismatch": "replacement",
    "dora_mismatch": "dora",
    "ura_mismatch": "ura",
}
#: Codes about a stated digest of the wall, and what it says.
DIGEST_CODES = {
    "sha256_match": "match",
    "salt_hash_match": "match",
    "md5_match": "match",
    "hash_mismatch": "mismatch",
    "salt_hash_mismatch": "mismatch",
    "md5_mismatch": "mismatch",
    "salt_missing": "missing",
    "no_hash": "missing",
    "no_digest_checked": "missing",
    "deal_not_committed": "note",
}
#: Codes meaning the input could not be analysed at all (its reader's reason is technical).
INPUT_CODES = frozenset(
    {"bad_seed", "log_format", "empty_archive", "too_large", "unreadable", "error"}
)


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """What a reader's words for a code depend on."""

    category: Category
    where: str | None = None  # TILE: deal, draw, replacement, dora or ura
    outcome: str | None = None  # DIGEST: match, mismatch, missing or note

    def to_dict(self) -> dict[str, str]:
        """``category``, and ``where`` or ``outcome`` when the category has them."""
        out = {"category": self.category.value}
        if self.where:
            out["where"] = self.where
        if self.outcome:
            out["outcome"] = self.outcome
        return out


@cache
def info(code: str) -> CodeInfo:
    """A code's category (a code in none of the tables above is about the record)."""
    if code in TILE_CODES:
        return CodeInfo(Category.TILE, where=TILE_CODES[code])
    if code in DIGEST_CODES:
        return CodeInfo(Category.DIGEST, outcome=DIGEST_CODES[code])
    return CodeInfo(Category.INPUT if code in INPUT_CODES else Category.RECORD)


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    round: int | None
    message: str
    data: JsonObject = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "round": self.round,
            "message": self.message,
            "data": dict(self.data),
            **info(self.code).to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Finding:
        return cls(
            d["code"], Severity(d["severity"]), d["round"], d["message"], dict(d.get("data", {}))
        )


def capped(findings: list[Finding], fatal: Collection[str]) -> tuple[Finding, ...]:
    """The first ``limits.MAX_FINDINGS`` findings, and one ``more_findings`` that counts the
    rest (as severe as the worst of them); one whose code is in ``fatal`` (it makes the
    game unreadable) is kept."""
    if len(findings) <= MAX_FINDINGS:
        return tuple(findings)
    kept, rest = findings[:MAX_FINDINGS], findings[MAX_FINDINGS:]
    kept += [f for f in rest if f.code in fatal]
    order = (Severity.ERROR, Severity.WARNING, Severity.INFO)
    worst = min((f.severity for f in rest), key=order.index)
    kept.append(
        Finding(
            "more_findings",
            worst,
            None,
            f"{len(rest):,} more findings in this game, not listed (pywall lists "
            f"{MAX_FINDINGS} a game)",
            {"count": len(rest)},
        )
    )
    return tuple(kept)
