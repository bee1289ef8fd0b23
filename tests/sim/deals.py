"""Rigged deals for the starting-hand tests' ``detectable`` figure (tests only).

A round's deal is a shuffled 136-tile set: the dora indicator, the dealer's 14 tiles (the
first draw with them), the other seats' 13, the rest undealt. A ``DealRig`` moves a share
``shift`` of the hands one step: one shanten further from ready (``shanten``, positive
``shift``) or closer (negative), one dora more (``dora``, positive) or fewer (negative), by
swapping one of the hand's tiles with an undealt one (never another seat's tile: a rig that
took from one seat to give another would leave everyone's total as it was). A hand chosen
that no swap can move (already 6 from ready, no dora left undealt, ...) passes its step to
the next hand, so the hands move by ``shift`` each on average, as ``detectable`` supposes.
The hands are ``StartingHand``s, read by the audit's own tests (``pywall.audits.verdicts``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pywall.analysis.shanten import shanten
from pywall.audits.counts import StartingHand
from pywall.core.tiles import dora_kind

PLAYERS = 4
#: random swaps tried for a hand's shanten step before it passes the step on
TRIES = 200


@dataclass(frozen=True)
class DealRig:
    """A shuffle that deals a share ``abs(shift)`` of the hands one step off: ``test``
    ``shanten`` (positive: further from ready) or ``dora`` (positive: one dora more)."""

    test: str
    shift: float


@dataclass
class _Owed:
    steps: int = 0  # steps chosen that a hand could not take, passed on
    moved: int = 0  # steps taken


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t // 4] += 1
    return counts


def _isolated(kind: int, counts: list[int]) -> bool:
    """No tile of the hand is ``kind`` or within two of it in its suit: adding it cannot
    bring the hand closer to ready."""
    if kind >= 27:
        return counts[kind] == 0
    low, high = kind - kind % 9, kind - kind % 9 + 8
    return not any(counts[k] for k in range(max(low, kind - 2), min(high, kind + 2) + 1))


def _shanten_step(hand: list[int], rest: list[int], up: bool, rng: random.Random) -> bool:
    """Swap one tile of ``hand`` with one of ``rest`` so its shanten moves one step (further
    from ready: an undealt tile isolated from the hand comes in, when there is one, so only
    the tile that leaves counts)."""
    counts = _counts(hand)
    target = shanten(counts) + (1 if up else -1)
    far = [_isolated(k, counts) for k in range(34)] if up else []
    lone = [j for j, t in enumerate(rest) if far[t // 4]] if up else []
    for _ in range(TRIES):
        i = rng.randrange(len(hand))
        j = rng.choice(lone) if lone else rng.randrange(len(rest))
        if hand[i] // 4 == rest[j] // 4:
            continue
        counts = _counts(hand)
        counts[hand[i] // 4] -= 1
        counts[rest[j] // 4] += 1
        if shanten(counts) == target:
            hand[i], rest[j] = rest[j], hand[i]
            return True
    return False


def _dora_step(hand: list[int], rest: list[int], kind: int, more: bool, rng: random.Random) -> bool:
    """Swap a tile of ``hand`` with one of ``rest`` so it holds one dora more (or fewer)."""
    give = [j for j, t in enumerate(rest) if (t // 4 == kind) == more]
    take = [i for i, t in enumerate(hand) if (t // 4 == kind) != more]
    if not give or not take:
        return False
    i, j = rng.choice(take), rng.choice(give)
    hand[i], rest[j] = rest[j], hand[i]
    return True


def _step(rig: DealRig, hand: list[int], rest: list[int], kind: int, rng: random.Random) -> bool:
    if rig.test == "dora":
        return _dora_step(hand, rest, kind, rig.shift > 0, rng)
    return _shanten_step(hand, rest, rig.shift > 0, rng)


def deal_round(
    rng: random.Random, dealer: int, rig: DealRig | None = None, owed: _Owed | None = None
) -> list[StartingHand]:
    """One round's four starting hands, by seat (player names ``seat 0`` .. ``seat 3``)."""
    wall = list(range(136))
    rng.shuffle(wall)
    indicator, rest = wall[0], wall[1 + 14 + 13 * 3 :]
    hands, at = [], 1
    for k in range(PLAYERS):
        size = 14 if k == 0 else 13
        hands.append(wall[at : at + size])
        at += size
    kind = dora_kind(indicator // 4)
    if rig is not None and owed is not None:
        for hand in hands:
            owed.steps += rng.random() < abs(rig.shift)
            if owed.steps and _step(rig, hand, rest, kind, rng):
                owed.steps -= 1
                owed.moved += 1
    seats = [(dealer + k) % PLAYERS for k in range(PLAYERS)]
    found = [
        StartingHand.from_tiles(f"seat {seat}", k == 0, hand, indicator)
        for k, (seat, hand) in enumerate(zip(seats, hands))
    ]
    return sorted(found, key=lambda h: h.player)


def seat_hands(
    rounds: int, rng: random.Random, rig: DealRig | None = None
) -> tuple[list[list[StartingHand]], int]:
    """Each seat's hands over ``rounds`` rounds (the dealer moves round by round: a
    player's group), and the steps the rig took."""
    owed = _Owed()
    seats: list[list[StartingHand]] = [[] for _ in range(PLAYERS)]
    for r in range(rounds):
        for seat, hand in enumerate(deal_round(rng, r % PLAYERS, rig, owed)):
            seats[seat].append(hand)
    return seats, owed.moved
