"""Starting hands and the hand calculator as the page shows them.

``starting_table`` answers like Tenhou's 牌理 tool for one typed hand;
``round_hands`` gives each seat's starting hand of a reported round (``DealtRound``)
with its shanten and effective tiles. Positions come from the round's layout
(``pywall.core.layout``), never from arithmetic here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pywall.analysis.efficiency import discard_table, effective_tiles
from pywall.analysis.shanten import shanten_by_form
from pywall.core.errors import ValueInputError
from pywall.core.layout import Layout
from pywall.core.tiles import (
    KINDS,
    codes_from_mpsz,
    counts_from_mpsz,
    kinds_from_mpsz,
    mpsz_from_counts,
)


def hand_analysis(counts: list[int], visible: list[int] | None) -> dict[str, Any]:
    """Shanten per form, and the effective tiles (13) or the 牌理 table (14)."""
    forms = shanten_by_form(counts)
    out: dict[str, Any] = {
        "tiles": sum(counts),
        "shanten": {
            "regular": forms.regular,
            "chiitoi": forms.chiitoi,
            "kokushi": forms.kokushi,
            "minimum": forms.minimum,
        },
    }
    if sum(counts) % 3 == 1:
        out["effective"] = effective_tiles(counts, visible).to_dict()
    else:
        out["discards"] = discard_table(counts, visible).to_dict()["discards"]
    return out


def starting_table(hand: str, visible: str = "") -> dict[str, Any]:
    """The hand calculator: a typed hand (mpsz), optionally with tiles already seen."""
    if len(hand) > 200 or len(visible) > 600:
        raise ValueInputError("that is far more tiles than a hand has")
    kinds = kinds_from_mpsz(hand)
    if not kinds:
        raise ValueInputError("type a hand in mpsz, e.g. 123m456p789s1122z")
    counts = counts_from_mpsz(hand)
    if sum(counts) > 14 or sum(counts) % 3 == 0:
        raise ValueInputError(
            f"a hand has 1-14 tiles and not a multiple of 3 (13 or 14 before "
            f"calls); this one has {sum(counts)}"
        )
    seen = counts_from_mpsz(visible) if visible.strip() else None
    red = [i for i, code in enumerate(codes_from_mpsz(hand)) if code[0] == "0"]
    out = {
        "hand": mpsz_from_counts(counts),
        "kinds": sorted(kinds),
        "red": sorted({kinds[i] for i in red}),
        **hand_analysis(counts, seen),
    }
    if seen is not None:
        out["visible"] = mpsz_from_counts(seen)
    return out


@dataclass(frozen=True, slots=True)
class DealtRound:
    """A round's deal as ``round_hands`` reads it: its wall (tile ids in the layout's
    order), each seat's dealt tile ids, the dealer's seat and the wall's layout. The page
    hands a report's round back as JSON: ``tool_api`` reads and checks it into this."""

    wall: Sequence[int]
    hands: Sequence[Sequence[int]]
    dealer: int
    layout: Layout


def round_hands(rnd: DealtRound) -> dict[str, Any]:
    """A reported round's starting hands: each seat's 13 (the dealer's 14, with the first
    live draw) sorted, with shanten and effective tiles or the 牌理 table; the dora
    indicator counts as a visible tile."""
    wall, hands, dealer, layout = rnd.wall, rnd.hands, rnd.dealer, rnd.layout
    indicator = wall[layout.dora[0]]
    draw = wall[layout.dealer_draw] if len(hands[dealer]) == 13 else None
    visible = [0] * KINDS
    visible[indicator // 4] += 1
    seats = []
    for seat, hand in enumerate(hands):
        tiles = [*hand, *([draw] if seat == dealer and draw is not None else [])]
        counts = [0] * KINDS
        for t in tiles:
            counts[t // 4] += 1
        seats.append(
            {
                "seat": seat,
                "dealer": seat == dealer,
                "ids": sorted(tiles),
                "draw": draw if seat == dealer else None,
                **hand_analysis(counts, visible),
            }
        )
    return {"players": len(hands), "dealer": dealer, "dora_indicator": indicator, "seats": seats}
