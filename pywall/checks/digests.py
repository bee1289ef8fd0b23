"""Does a round's stated wall match the digests published for it? One check, every platform.

Theory of operation (docs/platforms.md; ../shared/FACTS-platforms.md A1, A7, B1): Mahjong
Soul and Riichi City show a digest of each round's wall when the round begins and reveal
the wall after the game. A record's reader (``pywall.formats``) turns each digest the round
states into a ``model.HashClaim``: its algorithm, the exact text it says was hashed and
what that text covers. This module computes each one again and says what it found:

- Mahjong Soul since 2023-05-23: ``sha256 = SHA-256(paishan + salt)`` over the whole wall,
  ``saltSha256 = SHA-256(salt)``; a record without its ``salt`` states them uncheckably;
- Mahjong Soul before: ``md5 = MD5(paishan)``, unsalted, over the undealt tiles only;
- Riichi City: ``handCardsSHA256 = SHA-256(handCardEncode)``, unsalted, over the whole wall,
  and the same digest again in every player's start event.

Both checks of a stated wall call ``check_digests``: the check of a game record
(``pywall.checks.verify``, which also compares every tile with the wall) and the hash tool
(``pywall.checks.majsoul``: ``pywall majsoul`` and the page's panel, where the digests are the
only check, ``alone``). Each code has one severity (``SEVERITY``), whichever calls it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pywall.core.errors import ValueInputError
from pywall.core.findings import Finding, Severity
from pywall.core.json_value import JsonObject
from pywall.core.model import HashClaim

#: The one severity of each code this module says (docs/platforms.md says why): a digest
#: that differs from the wall is an error, as is (for the hash tool, which checks nothing
#: else) a round with no digest it could check; a digest stated without the means to check
#: it, or no digest at all, is a warning (the record is not shown altered, only not shown
#: committed); the rest are information.
SEVERITY: Mapping[str, Severity] = {
    "sha256_match": Severity.INFO,
    "salt_hash_match": Severity.INFO,
    "md5_match": Severity.INFO,
    "hash_mismatch": Severity.ERROR,
    "salt_hash_mismatch": Severity.ERROR,
    "md5_mismatch": Severity.ERROR,
    "salt_missing": Severity.WARNING,
    "no_hash": Severity.WARNING,
    "no_digest_checked": Severity.ERROR,
    "deal_not_committed": Severity.INFO,
}
#: (algorithm, the salt's own digest?) -> the codes of a match and of a mismatch.
_CODES = {
    ("sha256", False): ("sha256_match", "hash_mismatch"),
    ("sha256", True): ("salt_hash_match", "salt_hash_mismatch"),
    ("md5", False): ("md5_match", "md5_mismatch"),
    ("md5", True): ("md5_match", "md5_mismatch"),
}
ALGORITHM_NAMES = {"sha256": "SHA-256", "md5": "MD5"}
_COVERED = {"wall": "wall", "undealt": "undealt wall", "salt": "salt"}


@dataclass(frozen=True, slots=True)
class DigestResult:
    """One digest a round states, and the one computed from what it says was hashed
    (``computed`` is ``None`` when the record lacks part of that text: a salt)."""

    name: str
    algorithm: str
    covers: str  # wall | undealt | salt
    salted: bool
    tiles: int  # wall tiles the digest covers (0 for the salt's own digest)
    stated: str
    computed: str | None
    seat: int | None = None  # stated in this seat's start event (Riichi City), else None

    @property
    def label(self) -> str:
        """The digest's name for people: "hand_cards_sha_256 (seat 1's start)" (seats from 1)."""
        return self.name if self.seat is None else f"{self.name} (seat {self.seat + 1}'s start)"

    @property
    def match(self) -> bool | None:
        if self.computed is None:
            return None
        return self.computed == self.stated.strip().lower()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "algorithm": self.algorithm,
            "covers": self.covers,
            "salted": self.salted,
            "tiles": self.tiles,
            "stated": self.stated,
            "computed": self.computed,
            "match": self.match,
            "seat": self.seat,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DigestResult:
        """The digest ``to_dict`` wrote, read back and checked (``match`` follows from the
        rest): ``ValueInputError`` saying what is wrong for any other shape."""
        if not isinstance(d, Mapping):
            raise ValueInputError("a round's digest must be an object")
        for key, kind in _FIELDS.items():
            value = d.get(key)
            if type(value) is not kind and not (key == "computed" and value is None):
                raise ValueInputError(f"a round's digest needs its {key} ({kind.__name__})")
        seat = d.get("seat")
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise ValueInputError("a round's digest names a seat that is no seat")
        return cls(
            d["name"],
            d["algorithm"],
            d["covers"],
            d["salted"],
            d["tiles"],
            d["stated"],
            d["computed"],
            seat,
        )


#: ``DigestResult``'s JSON fields and their types (``computed`` may also be null).
_FIELDS: Mapping[str, type] = {
    "name": str,
    "algorithm": str,
    "covers": str,
    "salted": bool,
    "tiles": int,
    "stated": str,
    "computed": str,
}


@dataclass(frozen=True, slots=True)
class RoundDigests:
    """A round's digests: each one it states, computed again, and what they say."""

    index: int  # the round's index in its game (0: the first)
    results: tuple[DigestResult, ...]
    findings: tuple[Finding, ...]

    @property
    def checked(self) -> bool:
        """Whether some digest of the wall (not the salt's) could be computed again."""
        return _wall_computed(self.results)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def digest_hex(algorithm: str, text: str) -> str:
    # JSON can carry lone surrogates ("\ud800"); hash them rather than crash.
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.new(algorithm, data, usedforsecurity=False).hexdigest()


def result_from_claim(claim: HashClaim, tiles: int) -> DigestResult:
    """A stated digest against the one computed from the text it names (``tiles``: how
    many wall tiles that text holds)."""
    computed = None if claim.message is None else digest_hex(claim.algorithm, claim.message)
    covered = 0 if claim.covers == "salt" else tiles
    return DigestResult(
        claim.name,
        claim.algorithm,
        claim.covers,
        claim.salted,
        covered,
        claim.stated,
        computed,
        claim.seat,
    )


def check_digests(
    claims: Iterable[HashClaim],
    *,
    index: int,
    where: str,
    tiles: int,
    undealt: bool = False,
    alone: bool = False,
) -> RoundDigests:
    """Every digest the round states, computed again, and a finding for each; ``where``
    names the round in messages, ``undealt`` says the wall holds only the undealt tiles,
    ``alone`` that the digests are all that is checked of the round (the hash tool)."""
    claims = tuple(claims)
    results = tuple(result_from_claim(c, tiles) for c in claims)
    checked = [(c, r) for c, r in zip(claims, results) if r.computed is not None]
    out = [_digest_finding(c, r, index, where) for c, r in checked]
    unchecked = [r.label for r in results if r.computed is None]
    if unchecked:
        it = "it cannot" if len(unchecked) == 1 else "they cannot"
        out.append(_finding("salt_missing", index,
                            f"{where}: the record states {' and '.join(unchecked)} but no salt, "
                            f"so {it} be checked", {"names": list(unchecked)}))  # fmt: skip
    if not any(r.covers != "salt" for r in results):
        out.append(_finding("no_hash", index,
                            f"{where}: the record states no digest of this wall: nothing shows "
                            "the wall was fixed before the round"))  # fmt: skip
    if alone and not _wall_computed(results):
        out.append(_finding("no_digest_checked", index,
                            f"{where}: no digest of the wall could be checked, so nothing "
                            "of this round is verified"))  # fmt: skip
    if undealt:
        out.append(_finding("deal_not_committed", index,
                            f"{where}: the wall holds only the {tiles} undealt tiles; the "
                            "starting hands are not covered by its digest"))  # fmt: skip
    return RoundDigests(index, results, tuple(out))


def _wall_computed(results: Iterable[DigestResult]) -> bool:
    return any(r.covers != "salt" and r.computed is not None for r in results)


def _finding(code: str, index: int, message: str, data: JsonObject | None = None) -> Finding:
    return Finding(code, SEVERITY[code], index, message, dict(data or {}))


def _digest_finding(claim: HashClaim, r: DigestResult, index: int, where: str) -> Finding:
    ok_code, bad_code = _CODES[(r.algorithm, r.covers == "salt")]
    data: dict[str, str | int | None] = {"name": r.name, "algorithm": r.algorithm, "covers": r.covers,
            "stated": r.stated, "computed": r.computed}  # fmt: skip
    if r.seat is not None:
        data["seat"] = r.seat
    formula = formula_of(claim)
    if r.match:
        return _finding(ok_code, index, f"{where}: {formula} matches {r.label}", data)
    return _finding(bad_code, index,
                    f"{where}: {formula} is {r.computed}, but the round states {r.label} "
                    f"{r.stated}", data)  # fmt: skip


def formula_of(claim: HashClaim) -> str:
    """What the digest is of, for messages: ``SHA-256(paishan + salt)``."""
    algorithm = ALGORITHM_NAMES.get(claim.algorithm, claim.algorithm)
    if claim.over:
        return f"{algorithm}({claim.over})"
    return f"{algorithm} of the {_COVERED.get(claim.covers, claim.covers)}"
