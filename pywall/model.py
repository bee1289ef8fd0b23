"""What a game record says, independent of the vendor's syntax.

Frozen, slotted dataclasses only; ``formats/`` builds them, algorithms read them.
Seats are fixed for the whole game: seat 0 is East of the first round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

WINDS = ("East", "South", "West", "North")


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


# Draws and discards are nine events in ten, and a game has about 900: their
# __init__ sets the slots through the slot descriptors instead of the frozen
# class's object.__setattr__, which makes them 1.6x faster to build (the
# classes stay frozen: assignment after __init__ still raises).
_Setter = Callable[[object, int], None]


def _slot_setters(cls: type, *names: str) -> tuple[_Setter, ...]:
    return tuple(getattr(cls, name).__set__ for name in names)


@dataclass(frozen=True, slots=True, init=False)
class Draw:
    seat: int
    tile: int
    n: int  # 1-based number of the event within its round

    def __init__(self, seat: int, tile: int, n: int) -> None:
        _DRAW_SEAT(self, seat)
        _DRAW_TILE(self, tile)
        _DRAW_N(self, n)


@dataclass(frozen=True, slots=True, init=False)
class Discard:
    seat: int
    tile: int
    n: int

    def __init__(self, seat: int, tile: int, n: int) -> None:
        _DISCARD_SEAT(self, seat)
        _DISCARD_TILE(self, tile)
        _DISCARD_N(self, n)


_DRAW_SEAT, _DRAW_TILE, _DRAW_N = _slot_setters(Draw, "seat", "tile", "n")
_DISCARD_SEAT, _DISCARD_TILE, _DISCARD_N = _slot_setters(Discard, "seat", "tile", "n")


@dataclass(frozen=True, slots=True)
class Call:
    seat: int
    code: int
    kind: MeldKind
    n: int


@dataclass(frozen=True, slots=True)
class DoraReveal:
    tile: int
    n: int


@dataclass(frozen=True, slots=True)
class Riichi:
    seat: int
    step: int
    n: int


@dataclass(frozen=True, slots=True)
class Win:
    seat: int
    from_seat: int
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    n: int


@dataclass(frozen=True, slots=True)
class Ryuukyoku:
    """A hand that ends without a win (exhaustive or abortive draw)."""

    kind: str
    n: int


Event = Draw | Discard | Call | DoraReveal | Riichi | Win | Ryuukyoku


@dataclass(frozen=True, slots=True)
class Round:
    """One hand (kyoku), from its INIT tag to the tag before the next INIT."""

    index: int
    number: int  # 0 = East 1, 4 = South 1, ...
    honba: int
    riichi_sticks: int
    dice: tuple[int, int]  # faces 1-6 as the log states them
    dora_indicator: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # each seat's 13 dealt tiles, in deal order
    scores: tuple[int, ...]
    events: tuple[Event, ...]
    shuffle: str | None = None  # early-2009 logs carry a seed on each INIT

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
