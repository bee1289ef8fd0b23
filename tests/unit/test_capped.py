"""A hand is ready only if it can win (issue 33, item 7): the draw test counts the copies
in the drawer's own melds and Norths as used (pywall.analysis.capped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pywall.analysis.capped import capped_effective
from pywall.analysis.draws import round_draws
from pywall.analysis.efficiency import effective_kinds
from pywall.analysis.shanten import shanten
from pywall.core.model import Call, Discard, Draw, MeldKind, Round
from pywall.core.tiles import counts_from_mpsz
from tests.helpers import DATA, fixture_paths
from tests.unit.test_draws import game_of


def used_of(text: str) -> list[int]:
    return list(counts_from_mpsz(text)) if text else [0] * 34


def bits(text: str) -> int:
    return sum(1 << k for k, n in enumerate(counts_from_mpsz(text)) if n)


@pytest.mark.parametrize(
    ("hand", "used", "expected"),
    [
        # 1z ponned, the last 1z held: its only wait is a fifth 1z
        ("123m456p789s1z", "111z", (1, None)),
        # the same hand with no meld of 1z is ready on 1z
        ("123m456p789s1z", "", (0, "1z")),
        # 2m3m waits on 1m and 4m; every 4m is in a kan: ready on 1m only
        ("23m456p789s11z", "4444m", (0, "1m")),
        # every wait in a kan: not ready (one exchange away: 3m for 2m, 3m and 1z both live)
        ("23m456p11z", "11114444m", (1, None)),
        # a North extracted three times and the fourth held: seven pairs cannot pair it
        ("1122m3344p5566s4z", "444z", (1, None)),
    ],
    ids=["fifth-1z", "no-meld", "dead-4m", "all-dead", "north-pair"],
)
def test_a_wait_on_a_used_copy_does_not_count(
    hand: str, used: str, expected: tuple[int, str | None]
) -> None:
    counts = tuple(counts_from_mpsz(hand))
    value, mask = capped_effective(counts, used_of(used))
    want_value, want_mask = expected
    assert value == want_value
    if want_mask is not None:
        assert mask == bits(want_mask)
    assert value >= effective_kinds(counts)[0]


def capped_reference(hand: tuple[int, ...], used: list[int]) -> tuple[int, int] | None:
    """By definition with ``shanten``: ready when adding a kind with a copy left completes
    the hand; one from ready when one exchange makes it ready (None: further)."""
    caps = [4 - u for u in used]

    def waits(h: list[int]) -> int:
        found = 0
        for j in range(34):
            if h[j] < caps[j]:
                h[j] += 1
                if shanten(h) == -1:
                    found |= 1 << j
                h[j] -= 1
        return found

    counts = list(hand)
    ready = waits(counts)
    if ready:
        return 0, ready
    ahead = 0
    for j in range(34):
        if counts[j] >= caps[j]:
            continue
        counts[j] += 1
        for x in range(34):
            if x != j and counts[x]:
                counts[x] -= 1
                hit = waits(counts)
                counts[x] += 1
                if hit:
                    ahead |= 1 << j
                    break
        counts[j] -= 1
    return (1, ahead) if ahead else None


def test_the_fifth_copy_case_in_the_walk() -> None:
    """A seat that ponned 1z and holds the last 1z, waiting on it alone: its draw is not a
    tenpai draw (the tenpai test leaves it out), and it is one from ready."""
    pon_hand = counts_from_mpsz("111z123m456p789s9p")  # pon 1z with two of them, 9p cut
    tiles = tuple(k * 4 + c for k, n in enumerate(pon_hand) for c in range(n))
    dealer = tuple(k * 4 + 3 for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 28, 29, 30, 31))
    others = (
        tuple(k * 4 + 2 for k in (3, 4, 5, 12, 13, 14, 21, 22, 23, 31, 32, 33, 8)),
        tuple(k * 4 + 1 for k in (3, 4, 5, 12, 13, 14, 21, 22, 23, 31, 32, 33, 8)),
    )
    events = (
        Draw(0, 27 * 4 + 3),  # the dealer's 14th: a 1z, cut at once
        Discard(0, 27 * 4 + 3),
        Call(1, 27 * 4 + 3, MeldKind.PON, (27 * 4, 27 * 4 + 1)),
        Discard(1, 17 * 4),  # 9p: 1z + 123m456p789s remain, waiting on a fifth 1z
        Draw(2, 6 * 4 + 2),
        Discard(2, 6 * 4 + 2),
        Draw(3, 6 * 4 + 1),
        Discard(3, 6 * 4 + 1),
        Draw(0, 7 * 4 + 3),
        Discard(0, 7 * 4 + 3),
        Draw(1, 15 * 4 + 3),
    )
    hands = (dealer, tiles, *others)
    rnd = Round(0, 0, 0, 0, None, 24 * 4, 0, hands, (25000,) * 4, events)
    found = round_draws(rnd, 4)
    assert found is not None
    last = found[-1]
    assert last.seat == 1 and not last.tenpai and last.shanten == 1
    assert last.outcomes()[1] is None  # the tenpai test does not read it


PONS_AND_KANS = [
    p
    for p in fixture_paths()
    if p.name in ("test.mjlog", "29.txt", "sanma2.xml", "1.txt", "2.txt", "3.txt")
] + [DATA / "riichicity" / "4ma_gin_han_sample.json"]


@pytest.mark.parametrize("path", PONS_AND_KANS, ids=lambda p: p.name)
def test_draws_of_seats_with_melds_follow_the_definition(path: Path) -> None:
    """On real games with pons, kans and Norths: every draw of a seat with a meld whose
    hand is ready or one from ready has the shanten and effective kinds the definition
    gives with the meld's copies used (a reference with ``shanten`` alone)."""
    game = game_of(path)
    checked = 0
    for rnd in game.rounds:
        records = {r.event: r for r in round_draws(rnd, game.player_count) or ()}
        hands = [[0] * 34 for _ in rnd.hands]
        used = [[0] * 34 for _ in rnd.hands]
        last = -1
        for seat, hand in enumerate(rnd.hands):
            for t in hand:
                hands[seat][t // 4] += 1
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, Draw):
                r = records.get(n)
                if r is not None and any(used[ev.seat]) and r.shanten <= 1 and checked < 40:
                    ref = capped_reference(tuple(hands[ev.seat]), used[ev.seat])
                    assert ref == (r.shanten, r.effective_kinds) or (
                        ref is None and r.shanten == 2 and r.effective_kinds == 0
                    ), (rnd.label, n)
                    checked += 1
                hands[ev.seat][ev.tile // 4] += 1
            elif isinstance(ev, Discard):
                hands[ev.seat][ev.tile // 4] -= 1
                last = ev.tile // 4
            elif isinstance(ev, Call):
                taken = [t // 4 for t in ev.taken]
                for k in taken:
                    hands[ev.seat][k] -= 1
                    used[ev.seat][k] += 1
                if ev.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.OPEN_KAN):
                    used[ev.seat][last] += 1
    assert checked > 0
