"""Game links and ids as players share them: which game, and where its record is.

The page never fetches anything itself; this module only reads the text a person
pastes and says what it names. Tenhou viewer links
(``https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3``, also ``/3/``,
``/5/``, ``/6/``) and bare log ids name a game whose record (the mjlog XML) is at
``https://tenhou.net/0/log/?LOG_ID``; ``tw`` is the seat the link was made for.
Some ids shown to players hide their last part as ``x`` plus 12 hex digits; the
public log-download scripts undo it as ``real_log_id`` does (docs/tenhou.md).
Mahjong Soul replay links (``.../?paipu=UUID_a123``) name a game whose record a
person exports with a record tool, since the game's servers give it only to a
logged-in client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from pywall.core.errors import ValueInputError

_T = (
    22136,
    52719,
    55146,
    42104,
    59591,
    46934,
    9248,
    28891,
    49597,
    52974,
    62844,
    4015,
    18311,
    50730,
    43056,
    17939,
    64838,
    38145,
    27008,
    39128,
    35652,
    63407,
    65535,
    23473,
    35164,
    55230,
    27536,
    4386,
    64920,
    29075,
    42617,
    17294,
    18868,
    2081,
)
LOG_ID = re.compile(
    r"\b([0-9]{10}gm-[0-9a-f]{4}-[0-9a-f]{4,5}-(?:[0-9a-f]{8}|x[0-9a-f]{12}))\b", re.ASCII
)
#: A log id written with other digits (fullwidth, Arabic-Indic...): refused, as no address
#: of Tenhou's holds it.
_ANY_DIGITS_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-")
MAJSOUL_PAIPU = re.compile(r"paipu=([0-9a-f]{6}-[0-9a-f-]{20,40})", re.IGNORECASE)
TENHOU_LOG_URL = "https://tenhou.net/0/log/?"
TENHOU_VIEWER_URL = "https://tenhou.net/0/?log="


@dataclass(frozen=True, slots=True)
class GameLink:
    """What a pasted link or id names."""

    platform: str  # "tenhou" | "majsoul"
    game_id: str
    seat: int | None = None  # Tenhou's tw: the seat the link was made for
    obfuscated: str | None = None  # the id as the link gave it, when it was hidden
    round: int | None = None  # Tenhou's ts: the round the viewer opens at (0: the first)

    @property
    def record_url(self) -> str | None:
        """Where the record file is (Tenhou), for a person to save and check."""
        return TENHOU_LOG_URL + self.game_id if self.platform == "tenhou" else None

    @property
    def viewer_url(self) -> str | None:
        if self.platform != "tenhou":
            return None
        marks = (("ts", self.round), ("tw", self.seat))
        return (
            TENHOU_VIEWER_URL
            + self.game_id
            + "".join(f"&{k}={v}" for k, v in marks if v is not None)
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "platform": self.platform,
            "game_id": self.game_id,
            "seat": self.seat,
            "obfuscated": self.obfuscated,
            "round": self.round,
            "record_url": self.record_url,
            "viewer_url": self.viewer_url,
        }


def real_log_id(log_id: str) -> str:
    """A Tenhou log id with its hidden last part (``x`` + 12 hex digits) revealed."""
    head, _, last = log_id.rpartition("-")
    if not (last.startswith("x") and len(last) == 13):
        return log_id
    try:
        a, b, c = (int(last[i : i + 4], 16) for i in (1, 5, 9))
    except ValueError:
        raise ValueInputError(f"{log_id[:60]!r} is not a Tenhou log id") from None
    index = 0
    if log_id[:12] > "2010041111gm":
        index = int("3" + log_id[4:10]) % (33 - int(log_id[9]))
    first = (a ^ b ^ _T[index]) & 0xFFFF
    second = (b ^ c ^ _T[index] ^ _T[index + 1]) & 0xFFFF
    return f"{head}-{first:04x}{second:04x}"


def link_from_text(text: str) -> GameLink | None:
    """The game a pasted text names (a link or an id), or None when it names none."""
    text = text.strip()
    if len(text) > 4096:
        return None
    if match := MAJSOUL_PAIPU.search(text):
        return GameLink("majsoul", match.group(1).split("_")[0])
    found = LOG_ID.search(unquote(text))
    if not found:
        if _ANY_DIGITS_ID.search(unquote(text)):
            raise ValueInputError("a Tenhou log id is written with the digits 0-9 only")
        return None
    seat = None
    try:
        query = parse_qs(urlsplit(text).query) if "?" in text else {}
    except ValueError as exc:  # urlsplit: "Invalid IPv6 URL", a bad port...
        raise ValueInputError(f"not a link pywall can read ({exc})") from None
    tw = (query.get("tw") or [""])[0]
    if tw in ("0", "1", "2", "3"):
        seat = int(tw)
    shown = found.group(1)
    real = real_log_id(shown)
    return GameLink("tenhou", real, seat, shown if real != shown else None)
