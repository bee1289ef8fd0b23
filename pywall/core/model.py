"""What a game record says, independent of the vendor's syntax.

Frozen, slotted dataclasses only; ``formats/`` builds them, algorithms read them.
Seats are fixed for the whole game: seat 0 is East of the first round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

WINDS = ("East", "South", "West", "North")


class Platform(str, Enum):
    """Whose record it is: decides how its walls are obtained (seed or committed wall)."""

    TENHOU = "tenhou"
    MAJSOUL = "majsoul"
    RIICHICITY = "riichicity"


class MeldKind(str, Enum):
    CHI = "chi"
    PON = "pon"
    ADDED_KAN = "added_kan"
    OPEN_KAN = "open_kan"
    CLOSED_KAN = "closed_kan"
    NUKI = "nuki"

    @property
    def takes_replacement(self) -> bool:
        """A kan or a North extraction is followed by a replacement draw."""
        return self not in (MeldKind.CHI, MeldKind.PON)


# An event's number is its 1-based position in ``Round.events`` (what messages
# call "event 23"); events do not carry it, so equal events are equal values and
# a parser may share one object for every draw of the same tile by the same seat.


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Call:
    seat: int
    code: int
    kind: MeldKind
    # The tiles the call takes from the caller's hand, where the record says which
    # (Tenhou's meld code, Mahjong Soul's tiles); empty where it names only the called
    # tile (the draw audit then follows the hand to find them).
    taken: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DoraReveal:
    tile: int


@dataclass(frozen=True, slots=True)
class Riichi:
    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class Win:
    seat: int
    from_seat: int
    dora: tuple[int, ...]
    ura: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ryuukyoku:
    """A hand that ends without a win (exhaustive or abortive draw)."""

    kind: str


@dataclass(frozen=True, slots=True)
class WallCount:
    """The record's count of live tiles left, stated with the draw before it."""

    left: int


Event = Draw | Discard | Call | DoraReveal | Riichi | Win | Ryuukyoku | WallCount


@dataclass(frozen=True, slots=True)
class HashClaim:
    """A digest a record states, and the exact text it says was hashed.

    ``covers`` names what the digest commits to: ``wall`` (the whole wall),
    ``undealt`` (the wall without the deal) or ``salt``. ``message`` is ``None`` when
    the record lacks part of what was hashed (a Mahjong Soul round with a ``sha256``
    but no ``salt``): the digest is stated but cannot be checked.
    """

    name: str  # as the record calls it: "sha256", "md5", "handCardsSHA256", ...
    algorithm: str  # "md5" | "sha256"
    message: str | None
    stated: str  # hex, as the record states it
    covers: str
    salted: bool = False  # a secret salt was hashed with the wall (revealed after the game)
    over: str = ""  # what was hashed, in the record's words ("paishan + salt"), for messages
    seat: int | None = None  # a digest stated in one seat's start event (Riichi City), else None


@dataclass(frozen=True, slots=True)
class Round:
    """One hand (kyoku), from its INIT tag to the tag before the next INIT."""

    index: int
    number: int  # 0 = East 1, 4 = South 1, ...
    honba: int
    riichi_sticks: int
    dice: tuple[int, int] | None  # faces 1-6 as the log states them (None: not stated)
    dora_indicator: int
    dealer: int
    # Each seat's 13 dealt tiles in deal order; the dealer's 14th tile is its first Draw.
    # Only where the wall does not hold the deal (scheme ``undealt``) does the dealer's
    # hand hold 14 tiles, in the record's order.
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    events: tuple[Event, ...]  # in log order; event n is events[n - 1]
    shuffle: str | None = None  # early-2009 logs carry a seed on each INIT
    # Platforms that reveal the wall after the game: the wall as the record states it
    # (tile faces: ids kind * 4 + 1, red fives 16, 52, 88), its scheme, its digests.
    wall: tuple[int, ...] | None = None
    wall_scheme: str | None = None
    hashes: tuple[HashClaim, ...] = ()
    # A second copy of the undealt part of the wall, where the record has one (Riichi
    # City's ``paiShan``): it must equal the wall's tiles that are in no starting hand.
    wall_copy: tuple[int, ...] | None = None

    @property
    def dealer_draw(self) -> Draw | None:
        """The dealer's 14th tile of the starting hand: the round's first draw, when the
        dealer was dealt 13 tiles and that draw is the dealer's (None otherwise). The one
        place this is decided from a record (the wall's position of it: ``Layout.live[0]``)."""
        if len(self.hands[self.dealer]) != 13:
            return None
        first = next((e for e in self.events if type(e) is Draw), None)
        return first if first is not None and first.seat == self.dealer else None

    @property
    def label(self) -> str:
        """As a person says it: "South 3, 2 honba"."""
        wind = WINDS[self.number // 4 % 4]
        return f"{wind} {self.number % 4 + 1}, {self.honba} honba"

    @property
    def finished(self) -> bool:
        return any(isinstance(e, (Win, Ryuukyoku)) for e in self.events)


@dataclass(frozen=True, slots=True)
class Game:
    """A whole game record."""

    seed: str | None
    player_count: int
    names: tuple[str, ...]  # by seat; 3-player games have three
    rounds: tuple[Round, ...]
    complete: bool  # the final result (``owari``) is present
    go_type: int | None = None
    lobby: int | None = None
    log_id: str | None = None
    ranks: tuple[str, ...] = ()
    rates: tuple[float, ...] = ()
    quirks: tuple[str, ...] = field(default=())  # tolerated irregularities, for the report
    platform: Platform = Platform.TENHOU
    game_id: str | None = None  # the platform's id of the game (Tenhou: log_id)
    rule: str | None = None  # the rule in words, where the record states it (not Tenhou)
    date: str | None = None  # ISO 8601, where the record states it (Tenhou: from log_id)
    rule_length: str | None = None  # "east" (East only) or "south" (East-South), where stated
    testing_environment: bool = False  # Mahjong Soul: a room with test settings (preset tiles)


@dataclass(frozen=True, slots=True)
class RoundHashes:
    """A Mahjong Soul round's wall text and the digests stated for it (by a record or
    typed by a person); ``None`` = absent."""

    paishan: str
    salt: str | None = None
    sha256: str | None = None
    salt_sha256: str | None = None
    md5: str | None = None
    chang: int | None = None  # round wind: 0 East, 1 South, ...
    ju: int | None = None  # dealer's seat, 0-3: "East ju+1"
    ben: int | None = None  # honba

    @property
    def label(self) -> str | None:
        if self.chang is None or self.ju is None:
            return None
        wind = WINDS[self.chang % 4]
        return f"{wind} {self.ju + 1}, {self.ben or 0} honba"
