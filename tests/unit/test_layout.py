"""pywall.core.layout: every scheme's positions, as the facts (docs/walls.md) state them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pywall.core.errors import ValueInputError
from pywall.core.layout import Layout, WallScheme, layout_for

ALL = [(s, p) for s in WallScheme for p in (3, 4)]
SCHEMES = "tenhou, tenhou-late-2009, tenhou-early-2009, front, undealt"


def test_tenhou_deal_takes_the_wall_from_its_end() -> None:
    layout = layout_for(WallScheme.TENHOU, 4)
    hands = layout.deal_by_seat(1)
    assert hands[1][:4] == (135, 134, 133, 132)
    assert hands[2][:4] == (131, 130, 129, 128)
    assert hands[1][12] == 87 and hands[0][12] == 84
    assert sorted(p for h in hands for p in h) == list(range(84, 136))
    assert layout.live[0] == 83 and layout.live[-1] == 14 and len(layout.live) == 70
    assert layout.replacements[:4] == (1, 0, 3, 2)
    assert layout.dora == (5, 7, 9, 11, 13) and layout.ura == (4, 6, 8, 10, 12)
    assert layout.dead == tuple(range(14))


def test_tenhou_three_players() -> None:
    layout = layout_for(WallScheme.TENHOU, 3)
    assert sorted(p for h in layout.deal for p in h) == list(range(69, 108))
    assert layout.live[0] == 68 and layout.dora[0] == 9 and layout.ura[0] == 8


@pytest.mark.parametrize(
    ("scheme", "players", "dora", "ura", "replacements"),
    [
        (WallScheme.TENHOU_LATE_2009, 4, (4, 6, 8), (5, 7, 9), (0, 1, 2, 3)),
        (WallScheme.TENHOU_EARLY_2009, 4, (4, 6, 8), (5, 7, 9), (0, 1, 2, 3)),
        (WallScheme.TENHOU_EARLY_2009, 3, (8, 10, 12), (9, 11, 13), (0, 1, 2, 3, 4, 5, 6, 7)),
        (WallScheme.TENHOU_LATE_2009, 3, (8, 10, 12), (9, 11, 13), (0, 1, 2, 3, 4, 5, 6, 7)),
    ],
    ids=["late-2009", "early-2009", "early-2009-3p", "late-2009-3p"],
)
def test_tenhou_2009_dead_walls(
    scheme: WallScheme,
    players: int,
    dora: tuple[int, ...],
    ura: tuple[int, ...],
    replacements: tuple[int, ...],
) -> None:
    """SOURCES.md: June to December 2009 (4-player logs) show dora k at yama[4 + 2k], ura k at
    yama[5 + 2k] and replacements from yama[0], yama[1], ...; June 2009 (a 3-player log) its
    dora at yama[8] and replacements yama[0], yama[1] (its ura, above the dora as in July, unseen).
    No 3-player log of July to December 2009 is known: its dead wall is taken as June's 3-player
    one, the only layout whose indicators clear the eight replacement tiles."""
    layout = layout_for(scheme, players)
    assert (layout.dora[:3], layout.ura[:3], layout.replacements) == (dora, ura, replacements)


def test_front_deals_from_the_front_in_blocks() -> None:
    """Mahjong Soul (full wall) and Riichi City: e.g. dealer seat 3 takes W[0:4], seat 0 W[4:8]."""
    layout = layout_for(WallScheme.FRONT, 4)
    hands = layout.deal_by_seat(3)
    assert hands[3][:4] == (0, 1, 2, 3) and hands[0][:4] == (4, 5, 6, 7)
    assert hands[3][12] == 48 and hands[2][12] == 51
    assert layout.live[0] == 52 and layout.live[-1] == 121  # the dealer's 14th, then up to N-15
    assert layout.replacements[:3] == (135, 134, 133)
    assert layout.dora[:3] == (131, 129, 127) and layout.ura[:2] == (130, 128)


def test_front_three_players() -> None:
    layout = layout_for(WallScheme.FRONT, 3)
    hands = layout.deal_by_seat(1)  # the singles: W[36] seat 1, W[37] seat 2, W[38] seat 0
    assert (hands[1][12], hands[2][12], hands[0][12]) == (36, 37, 38)
    assert layout.live[0] == 39 and layout.live[-1] == 93
    assert layout.dora[0] == 99 and layout.ura[0] == 98 and layout.replacements[0] == 107


@pytest.mark.parametrize(("players", "size", "live", "dora"), [(4, 83, 69, 78), (3, 68, 54, 59)])
def test_undealt_holds_no_deal(players: int, size: int, live: int, dora: int) -> None:
    layout = layout_for(WallScheme.UNDEALT, players)
    assert not layout.holds_deal and layout.size == size
    assert layout.live == tuple(range(live)) and layout.dora[0] == dora
    assert layout.deal_by_seat(0) == ((),) * players


@pytest.mark.parametrize(("scheme", "players"), ALL, ids=[f"{s.value}-{p}p" for s, p in ALL])
def test_every_position_is_in_the_wall_and_used_once(scheme: WallScheme, players: int) -> None:
    layout = layout_for(scheme, players)
    dealt = [p for seat in layout.deal for p in seat]
    parts = dealt + list(layout.live) + list(layout.dead)
    assert sorted(parts) == list(range(layout.size))
    assert len(layout.dead) == 14
    for positions in (layout.replacements, layout.dora, layout.ura):
        assert all(0 <= p < layout.size for p in positions)
        assert len(set(positions)) == len(positions)
    assert layout.live_draws(4) == len(layout.live) - 4


def test_layout_dict_gives_the_deal_by_seat() -> None:
    d = layout_for(WallScheme.TENHOU, 4).to_dict(2)
    deal = d["deal"]
    assert isinstance(deal, list)
    assert d["dealer"] == 2 and deal[2][0] == 135 and d["scheme"] == "tenhou"


@pytest.mark.parametrize(
    ("scheme", "players", "first", "size"),
    [
        (WallScheme.FRONT, 4, 53, 136),
        (WallScheme.FRONT, 3, 40, 108),
        (WallScheme.UNDEALT, 4, 0, 83),
        (WallScheme.UNDEALT, 3, 0, 68),
    ],
    ids=["front-4p", "front-3p", "undealt-4p", "undealt-3p"],
)
def test_undealt_positions_follow_the_deal_and_the_dealers_14th(
    scheme: WallScheme, players: int, first: int, size: int
) -> None:
    """FACTS-platforms B2: Riichi City's paiShan is W[13n+1:]; an undealt wall is all of itself."""
    assert layout_for(scheme, players).undealt == tuple(range(first, size))


@pytest.mark.parametrize(("scheme", "players"), ALL, ids=[f"{s.value}-{p}p" for s, p in ALL])
def test_undealt_positions_are_the_wall_but_the_starting_hands(
    scheme: WallScheme, players: int
) -> None:
    layout = layout_for(scheme, players)
    undealt = set(layout.undealt)
    in_hands = {p for seat in layout.deal for p in seat} | (
        {layout.live[0]} if layout.holds_deal else set()
    )
    assert undealt.isdisjoint(in_hands) and undealt | in_hands == set(range(layout.size))


# --- the JSON view: deal by seat from the round's dealer, read back and checked ----------


@pytest.mark.parametrize(("scheme", "players"), ALL, ids=[f"{s.value}-{p}p" for s, p in ALL])
def test_a_layout_reads_back_from_its_json_for_every_dealer(
    scheme: WallScheme, players: int
) -> None:
    layout = layout_for(scheme, players)
    for dealer in range(players):
        d = json.loads(json.dumps(layout.to_dict(dealer)))
        assert Layout.from_dict(d) == layout
        assert Layout.from_dict(d).to_dict(dealer) == d


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"scheme": None}, f"a round's layout has no known scheme ({SCHEMES})"),
        ({"size": "136"}, "a round's layout needs its wall's size (1-136 tiles)"),
        ({"deal": [[0]] * 5}, "a round's layout needs the deal of 3 or 4 seats"),
        ({"dealer": 4}, "a round's layout needs its dealer's seat (0-3)"),
        ({"live": [136]}, "a round's layout's live must be a list of positions 0-135"),
        ({"dora": "5"}, "a round's layout's dora must be a list of positions 0-135"),
        ({"deal": [[True]] * 4}, "a round's layout's deal must be a list of positions 0-135"),
        ({"dead": [0, 1]}, "a round's layout's dead wall is not what its deal and live leave"),
    ],
    ids=["scheme", "size", "seats", "dealer", "live", "dora", "deal", "dead"],
)
def test_a_malformed_layout_is_said_in_words(change: dict[str, Any], words: str) -> None:
    d = {**layout_for(WallScheme.TENHOU, 4).to_dict(0), **change}
    with pytest.raises(ValueInputError) as raised:
        Layout.from_dict(d)
    assert raised.value.message == words
