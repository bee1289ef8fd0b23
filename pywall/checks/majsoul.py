"""The Mahjong Soul hash tool: a round's wall and digests, as typed or saved, checked alone.

Theory of operation (docs/platforms.md; the real 3-player vector from
pages.lipenghua.com/game/maj-soul-crypto): each round record carries the whole
wall as ``paishan``, a string of 2-character codes (``1m``-``9m``, ``0m`` the
red 5m, likewise p and s, ``1z``-``7z`` E S W N haku hatsu chun), 136 tiles or
108 in 3-player games (only 1m and 9m among the characters). At the start of
the round the client is shown a hash of that wall; after the game the record
reveals the wall, so anyone can recompute the hash:

- since 2023-05-23: ``sha256 = SHA-256(paishan + salt)`` and
  ``saltSha256 = SHA-256(salt)`` (hex);
- before: ``md5 = MD5(paishan)``, unsalted, and ``paishan`` holds only the 83 (3
  players: 68) undealt tiles, so the starting hands are outside the hash.

This module is ``pywall majsoul`` and the page's hash panel: it reads the wall text and
the stated digests (``paishan_from_text``, ``digest_from_text``) and hands them to
``pywall.checks.digests``, which checks every platform's digests with the same codes and
severities; checking every tile of a game against its wall is ``pywall.formats.majsoul`` +
``pywall.checks.verify``. docs/platforms.md says what each scheme can and cannot prove.

Hex digests are compared case-insensitively. A mismatch is a finding, not an
exception; malformed input (a wall that cannot exist, a "hash" that is not
hex of the right length) raises ``ValueInputError``. Which red-five counts a
rule set allows is not in the sources: more than one red five of a suit is
reported as a warning, not rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pywall.checks.digests import DigestResult, RoundDigests, check_digests
from pywall.core.errors import ValueInputError
from pywall.core.findings import Finding, Severity
from pywall.core.model import RoundHashes
from pywall.formats.majsoul_hashes import claims_from_round

SCHEMA = "pywall.majsoul/1"
#: paishan length -> players: a whole wall (since 2023-05-23), or before that only the
#: undealt tiles (136 - 53 = 83, 108 - 40 = 68), the starting hands being outside the hash.
WALL_SIZES = {136: 4, 108: 3, 83: 4, 68: 3}
UNDEALT_SIZES = frozenset({83, 68})
SANMA_CHARACTERS = frozenset({"1m", "9m"})
DIGEST_HEX_LENGTH = {"sha256": 64, "md5": 32}
#: A digest's key in this tool's report (``pywall.majsoul/1``), by the record's name of it.
REPORT_KEYS = {"sha256": "sha256", "saltSha256": "salt_sha256", "md5": "md5"}


@dataclass(frozen=True, slots=True)
class Paishan:
    """A parsed wall: the exact text that is hashed and its tiles in order."""

    text: str
    tiles: tuple[str, ...]

    @property
    def players(self) -> int:
        return WALL_SIZES[len(self.tiles)]

    @property
    def undealt(self) -> bool:
        """Only the tiles not dealt (records before 2023-05-23): the deal is not hashed."""
        return len(self.tiles) in UNDEALT_SIZES

    def red_fives(self) -> dict[str, int]:
        return {suit: self.tiles.count(f"0{suit}") for suit in "mps"}


@dataclass(frozen=True, slots=True)
class RoundCheck:
    index: int
    stated: RoundHashes
    paishan: Paishan
    digests: RoundDigests
    findings: tuple[Finding, ...]  # the digests' findings, then the tool's own (red fives)

    @property
    def checked(self) -> tuple[DigestResult, ...]:
        """The digests that could be computed again (a sha256 without its salt cannot)."""
        return tuple(d for d in self.digests.results if d.computed is not None)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        r = self
        s = r.stated
        return {
            "index": r.index,
            "label": s.label,
            "chang": s.chang,
            "ju": s.ju,
            "ben": s.ben,
            "players": r.paishan.players,
            "undealt": r.paishan.undealt,
            "paishan": r.paishan.text,
            "salt": s.salt,
            "digests": {
                REPORT_KEYS[d.name]: {"stated": d.stated, "computed": d.computed, "match": d.match}
                for d in r.checked
            },
            "ok": r.ok,
        }


@dataclass(frozen=True, slots=True)
class MajsoulReport:
    rounds: tuple[RoundCheck, ...]

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for r in self.rounds for f in r.findings)

    @property
    def ok(self) -> bool:
        return bool(self.rounds) and all(r.ok for r in self.rounds)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values (shared by the CLI and the web worker)."""
        return {
            "schema": SCHEMA,
            "ok": self.ok,
            "rounds": [r.to_dict() for r in self.rounds],
            "findings": [f.to_dict() for f in self.findings],
        }


# --- parsing -----------------------------------------------------------------


def tiles_from_paishan(text: str) -> tuple[str, ...]:
    """Split a paishan into 2-character codes, naming the first bad one."""
    if not isinstance(text, str):
        raise ValueInputError("paishan must be text")
    if len(text) % 2:
        raise ValueInputError(f"paishan has {len(text)} characters: tiles take 2 characters each")
    tiles = tuple(text[i : i + 2] for i in range(0, len(text), 2))
    for n, code in enumerate(tiles, 1):
        if not _is_code(code):
            raise ValueInputError(
                f"paishan tile {n} (characters {2 * n - 1}-{2 * n}) is {code!r}, which is not "
                "a tile code (1m-9m, 0m for the red five, same for p and s, 1z-7z)"
            )
    return tiles


def _is_code(code: str) -> bool:
    digit, suit = code[0], code[1]
    if suit in "mps":
        return digit in "0123456789"
    return suit == "z" and digit in "1234567"


def paishan_from_text(text: str) -> Paishan:
    """Parse and check a whole wall: 136 or 108 tiles, no kind over 4 copies."""
    if not isinstance(text, str):
        raise ValueInputError("paishan must be text")
    text = text.strip()
    tiles = tiles_from_paishan(text)
    if len(tiles) not in WALL_SIZES:
        raise ValueInputError(
            f"paishan has {len(tiles)} tiles; a wall has 136 (4 players) or 108 (3 players), "
            "or before 2023-05-23 its undealt part 83 (4 players) or 68 (3 players)"
        )
    seen: dict[str, int] = {}
    for n, code in enumerate(tiles, 1):
        kind = "5" + code[1] if code[0] == "0" else code
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] > 4:
            raise ValueInputError(f"paishan tile {n} is a 5th {kind}: a kind has only 4 copies")
        if WALL_SIZES[len(tiles)] == 3 and code[1] == "m" and kind not in SANMA_CHARACTERS:
            raise ValueInputError(
                f"paishan tile {n} is {code}, which a 3-player wall (108 tiles) does not have"
            )
    return Paishan(text, tiles)


def digest_from_text(text: str, algorithm: str, what: str | None = None) -> str:
    """A stated hex digest, trimmed and lower-cased; wrong length or non-hex -> error."""
    what = what or algorithm
    expected = DIGEST_HEX_LENGTH[algorithm]
    if not isinstance(text, str):
        raise ValueInputError(f"{what} must be text")
    value = text.strip().lower()
    if len(value) != expected or any(c not in "0123456789abcdef" for c in value):
        shown = value if len(value) <= 80 else value[:77] + "..."
        raise ValueInputError(
            f"{what} {shown!r} is not an {algorithm.upper()} digest ({expected} hex digits)"
        )
    return value


# --- checking ----------------------------------------------------------------------


def stated_digests(stated: RoundHashes, where: str) -> RoundHashes:
    """The round's digests as they are compared: each one that can be checked (a sha256
    needs the salt) trimmed and lower-cased, or a ``ValueInputError`` when it is not hex
    of its algorithm's length."""

    def clean(value: str | None, algorithm: str, name: str) -> str | None:
        if value is None or (algorithm == "sha256" and stated.salt is None):
            return value
        return digest_from_text(value, algorithm, f"{where}: {name}")

    return replace(
        stated,
        sha256=clean(stated.sha256, "sha256", "sha256"),
        salt_sha256=clean(stated.salt_sha256, "sha256", "saltSha256"),
        md5=clean(stated.md5, "md5", "md5"),
    )


def check_round(stated: RoundHashes, index: int = 0) -> RoundCheck:
    """Parse the round's wall, recompute its digests (``pywall.checks.digests``) and say what matched."""
    where = _where(stated, index)
    try:
        wall = paishan_from_text(stated.paishan)
    except ValueInputError as exc:
        raise ValueInputError(f"{where}: {exc.message}") from None
    digests = check_digests(
        claims_from_round(replace(stated_digests(stated, where), paishan=wall.text), wall.undealt),
        index=index, where=where, tiles=len(wall.tiles), undealt=wall.undealt, alone=True,
    )  # fmt: skip
    findings = digests.findings + tuple(_red_five_findings(wall, index, where))
    return RoundCheck(index, stated, wall, digests, findings)


def _where(stated: RoundHashes, index: int) -> str:
    label = stated.label
    return f"round {index + 1} ({label})" if label else f"round {index + 1}"


def _red_five_findings(wall: Paishan, index: int, where: str) -> list[Finding]:
    out = []
    for suit, count in wall.red_fives().items():
        if count > 1:
            out.append(
                Finding(
                    "red_fives_unusual",
                    Severity.WARNING,
                    index,
                    f"{where}: the wall has {count} red 5{suit}",
                    {"suit": suit},
                )
            )
    return out


def verify_rounds(rounds: Sequence[RoundHashes]) -> MajsoulReport:
    """Check every round of a game in one go (round indexes are 0-based)."""
    return MajsoulReport(tuple(check_round(r, i) for i, r in enumerate(rounds)))


def typed_round(
    paishan: str | None,
    salt: str | None,
    sha256: str | None,
    md5: str | None,
    salt_sha256: str | None,
) -> RoundHashes:
    """One round's values as a person types them, checked for what a check needs."""
    if paishan is None:
        raise ValueInputError("choose a record file, or enter a paishan with its hash")
    if sha256 is None and md5 is None:
        raise ValueInputError("enter the stated hash: sha256 (with the salt) or md5")
    if sha256 is not None and salt is None:
        raise ValueInputError("sha256 needs the salt: the hash is SHA-256(paishan + salt)")
    paishan_from_text(paishan)
    return RoundHashes(paishan, salt, sha256, salt_sha256, md5)
