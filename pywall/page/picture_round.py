"""The round a ``wall_svg`` request carries, read into the picture's typed ``Drawing``.

The page sends the round as its report or walls reply holds it (``index``, ``wall``,
``layout``, ``dice``, ``dealer``, ``events``), or a wall with no layout at all (SEGA's, a
Mahjong Soul paishan in the hash tool), drawn as it is stored. The JSON is checked here,
at the driver, once; ``pywall.pictures.picture`` draws only typed values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pywall.core.errors import ValueInputError
from pywall.pictures.picture import Drawing


def _ints(value: object, what: str, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        type(v) is int and low <= v < high for v in value
    ):
        raise ValueInputError(f"the round's {what} must be a list of numbers {low}-{high - 1}")
    return tuple(value)


def drawing_from(rnd: Mapping[str, Any]) -> Drawing:
    """The round's wall, layout, dice and events; ``ValueInputError`` on any other shape."""
    if not isinstance(rnd, Mapping):
        raise ValueInputError("the round must be an object")
    wall = _ints(rnd.get("wall"), "wall", 0, 136)
    dice = rnd.get("dice")
    dice = _ints(dice, "dice", 1, 7) if dice is not None else None
    if dice and len(dice) != 2:  # the picture says "Dice: a + b"
        raise ValueInputError("the round's dice must be two numbers 1-6")
    layout = rnd.get("layout")
    if layout is None:
        return Drawing(wall, dice, stored_order=True)
    if not isinstance(layout, Mapping):
        raise ValueInputError("the round's layout (its wall positions) must be an object")
    size = len(wall)
    deal = layout.get("deal") or []
    if not isinstance(deal, list | tuple) or len(deal) > 4:
        raise ValueInputError("the round's deal must be a list of seats")
    dora, ura, replacements = (
        _ints(layout.get(key, []), key, 0, size) for key in ("dora", "ura", "replacements")
    )
    events = rnd.get("events")
    if events is not None and not (
        isinstance(events, list | tuple)
        and all(isinstance(e, list | tuple) and len(e) == 7 for e in events)
    ):
        raise ValueInputError("the round's events must be rows of 7 values")
    dealer = rnd.get("dealer", layout.get("dealer", 0))
    return Drawing(
        wall,
        dice,
        dealer if type(dealer) is int and 0 <= dealer < 4 else 0,
        tuple(_ints(seat, "deal", 0, size) for seat in deal),
        _ints(layout.get("live", []), "live wall", 0, size),
        _ints(layout.get("dead", []), "dead wall", 0, size),
        dora,
        ura,
        replacements,
        None if events is None else tuple(events),
    )
