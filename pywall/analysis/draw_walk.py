"""The draw test's walk: a round followed event by event, each seat's concealed hand and
what the record has not shown (U), so that each draw's effective kinds, |U| and its hits
are known (``pywall.analysis.draws`` owns the test, its sums and its report form; docs/audit.md).

``Walk`` follows a round as the record tells it: the deal, each draw, discard, call, dora
indicator and win. A call's tiles from the hand are the record's (``Call.taken``); where a
record names only the called tile (a Riichi City chi of 4m from 2m3m5m6m), ``choices_of``
follows each seat's possible hands as a set (equal hands merged), walks back to keep the
hands from which the rest of the round is possible, and takes at each open call the lowest
option that leads to one: polynomial work, bounded by ``WALK_BUDGET``. A round no choice
fits raises ``Inconsistent``, one over the budget ``OverBudget``; each names its reason
(one of ``SKIP_REASONS``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_
from typing import cast

from pywall.analysis.capped import capped_effective
from pywall.analysis.efficiency import (
    SUIT_DOWN,
    SUIT_SWAP,
    SUIT_UP,
    effective_of,
    step_down,
    step_swap,
    step_up,
    suit_ids,
)
from pywall.core.model import Call, Discard, DoraReveal, Draw, MeldKind, Round, Win
from pywall.core.tiles import dora_kind

NORTH = 30
#: Why a round's draws are left out: its calls and discards fit no hand (``no_fit``), or
#: following every hand its open calls allow took more than ``WALK_BUDGET`` steps.
SKIP_REASONS = ("no_fit", "walk_budget")
#: The work of following a round's open calls (``choices_of``): hands followed, summed over
#: the events. A seat makes at most four calls, so a real round needs a few hundred.
WALK_BUDGET = 20_000

#: A tested draw on the hot path: DrawRecord's fields after ``round`` and ``dealer``
#: (event, seat, replacement, tile, shanten, mask, unseen, unseen_effective,
#: unseen_dora, is_effective, is_dora).
DrawRow = tuple[int, int, bool, int, int, int, int, int, int, int, bool]


class Inconsistent(Exception):
    """The record's events do not fit the hands as followed (a call read wrongly)."""

    reason = "no_fit"


class OverBudget(Inconsistent):
    """Following the hands a round's open calls allow took more than ``WALK_BUDGET``."""

    reason = "walk_budget"


@dataclass(slots=True)
class WalkState:
    hands: list[list[int]]
    #: each hand's suit ids (``efficiency.suit_ids``), kept with it but for the tile
    #: drawn (``drawn``: its kind, -1 for none), which joins them at the next discard
    ids: list[list[int]]
    drawn: list[int]
    unseen: list[int]  # per kind
    #: U's counts as bit planes: bit k of ``planes[j]`` is bit j of kind k's count, so
    #: that U's tiles of a set of kinds (a mask) are three popcounts
    planes: tuple[int, int, int]
    dora: list[int]  # dora kinds (distinct) under the indicators revealed so far
    #: each hand's ``effective_of`` while its suits stay as they are (None: not known):
    #: a hand whose drawn tile was cut is asked again at its next draw (a draw in four)
    known: list[tuple[int, int] | None]
    pons: list[set[int]]
    pending: list[bool]  # a replacement draw is due
    #: each seat's copies in its own melds (the called tile included) and Norths, by kind:
    #: used, so a hand cannot complete with them (``capped``); None for a seat with none
    used: list[list[int] | None]
    left: int = 0  # |U|
    last_discard: int = -1


def _take(hand: list[int], kind: int, n: int = 1) -> None:
    if not 0 <= kind < 34 or hand[kind] < n:
        raise Inconsistent
    hand[kind] -= n


def _options(state: WalkState, ev: Call) -> list[tuple[int, ...]]:
    """The kinds a call may take from the hand (each option, in order)."""
    return options_of(state.hands[ev.seat], state.pons[ev.seat], state.last_discard, ev)


def options_of(
    hand: Sequence[int], pons: set[int] | frozenset[int], called: int, ev: Call
) -> list[tuple[int, ...]]:
    """The kinds ``ev`` may take from ``hand`` (each option, in order), ``called`` the last
    discard's kind: the record's own tiles where it names them (none if they cannot form
    the call), else each choice the hand allows."""
    kind = ev.kind
    if ev.taken:  # the record says which tiles (a kan: the kind it names)
        named = tuple(t // 4 for t in ev.taken)
        return [named] if _fits(kind, named, called, pons) else []
    if kind is MeldKind.CHI:
        if called < 0 or called >= 27:
            return []
        base = called - called % 9
        pairs = ((called - 2, called - 1), (called - 1, called + 1), (called + 1, called + 2))
        return [
            pair
            for pair in pairs
            if all(base <= k < base + 9 and hand[k] for k in pair)
            and (pair[0] != pair[1] or hand[pair[0]] >= 2)
        ]
    if kind is MeldKind.PON:
        return [(called, called)] if called >= 0 and hand[called] >= 2 else []
    if kind is MeldKind.OPEN_KAN:
        return [(called,) * 3] if called >= 0 and hand[called] >= 3 else []
    if kind is MeldKind.CLOSED_KAN:
        return [(k,) * 4 for k in range(34) if hand[k] == 4]
    if kind is MeldKind.ADDED_KAN:
        return [(k,) for k in sorted(pons) if hand[k]]
    return [(NORTH,)] if hand[NORTH] else []  # NUKI


def _fits(
    kind: MeldKind, named: tuple[int, ...], called: int, pons: set[int] | frozenset[int]
) -> bool:
    """Whether tiles a record names can make its call (a chi's two and the called tile a
    run of one suit, a pon's or an open kan's the called kind, a closed kan's four of one
    kind, an added kan's a kind the hand has a pon of, a North's the North)."""
    if not all(0 <= k < 34 for k in named):
        return False
    if kind is MeldKind.CHI:
        run = sorted((*named, called))
        return (
            len(named) == 2
            and 0 <= called < 27
            and run[0] // 9 == run[2] // 9
            and run[1] == run[0] + 1
            and run[2] == run[0] + 2
        )
    if kind is MeldKind.PON:
        return named == (called, called)
    if kind is MeldKind.OPEN_KAN:
        return named == (called,) * 3
    if kind is MeldKind.CLOSED_KAN:
        return len(named) == 4 and len(set(named)) == 1
    if kind is MeldKind.ADDED_KAN:
        return len(named) == 1 and named[0] in pons
    return named == (NORTH,)  # NUKI


def _apply(state: WalkState, ev: Call, taken: tuple[int, ...]) -> None:
    hand = state.hands[ev.seat]
    for k in taken:
        _take(hand, k)
    if ev.kind is MeldKind.PON:
        state.pons[ev.seat].add(taken[0])
    elif ev.kind is MeldKind.ADDED_KAN:
        state.pons[ev.seat].discard(taken[0])
    if ev.kind.takes_replacement:
        state.pending[ev.seat] = True
    used = state.used[ev.seat]
    if used is None:
        used = state.used[ev.seat] = [0] * 34
    for k in taken:
        used[k] += 1
    if ev.kind in _CALLED_FROM_A_DISCARD:
        used[state.last_discard] += 1
    state.ids[ev.seat] = suit_ids(hand)
    state.known[ev.seat] = None
    state.drawn[ev.seat] = -1


#: Calls whose meld holds the discard they call besides the tiles from the hand.
_CALLED_FROM_A_DISCARD = frozenset((MeldKind.CHI, MeldKind.PON, MeldKind.OPEN_KAN))

#: per-(seat, dealer) sums of a game's draws: n, O, E, V for each of the draw tests (``draws.TESTS``), flat
Acc = dict[tuple[int, bool], list[float]]


class Walk:
    """A round followed event by event: each draw goes to a list of rows (``run``'s
    ``out``) or, with ``out`` None, straight into the game's sums ``acc``."""

    def __init__(self, rnd: Round, players: int, acc: Acc | None = None) -> None:
        self.rnd = rnd
        self.players = players
        self.acc: Acc = {} if acc is None else acc
        self.seats: list[list[float] | None] = [None] * players  # each seat's list in acc
        #: the choice taken at each call the record leaves open (event number -> kinds)
        self.choices: dict[int, tuple[int, ...]] = {}

    def _sums_of(self, seat: int) -> list[float]:
        key = (seat, seat == self.rnd.dealer)
        found = self.acc.get(key)
        if found is None:
            found = self.acc[key] = [0.0] * 12
        self.seats[seat] = found
        return found

    def start(self) -> tuple[WalkState, int]:
        """The state after the deal (and the dealer's first draw), and the next event."""
        rnd, players = self.rnd, self.players
        unseen = [4] * 34
        if players == 3:
            unseen[1:8] = [0] * 7
        hands = []
        for hand in rnd.hands:
            counts = [0] * 34
            for t in hand:
                counts[t // 4] += 1
                unseen[t // 4] -= 1
            hands.append(counts)
        first = 0
        events = rnd.events
        dealt = rnd.dealer_draw
        if dealt is not None and events[0] is dealt:
            kind = dealt.tile // 4
            hands[rnd.dealer][kind] += 1
            unseen[kind] -= 1
            first = 1
        indicator = rnd.dora_indicator // 4
        unseen[indicator] -= 1
        if min(unseen) < 0:
            raise Inconsistent
        left = sum(unseen)
        self.choices = choices_of(rnd, hands, first)
        state = WalkState(
            hands,
            [suit_ids(h) for h in hands],
            [-1] * players,
            unseen,
            _planes(unseen),
            [dora_kind(indicator, players)],
            [None] * players,
            [set() for _ in range(players)],
            [False] * players,
            [None] * players,
            left,
        )
        return state, first

    def run(self, state: WalkState, i: int, out: list[DrawRow] | None) -> None:
        """Follow events from ``i``; at a call the record leaves open, the choice
        ``choices_of`` found.

        A draw is tested here, inline (this loop runs for every event of every round),
        and added to the sums as ``_add`` adds a row when ``out`` is None."""
        events = self.rnd.events
        hands, unseen, pending, dora = state.hands, state.unseen, state.pending, state.dora
        ids, drawn, known, used = state.ids, state.drawn, state.known, state.used
        b0, b1, b2 = state.planes
        left, last = state.left, state.last_discard  # kept in locals, put back for calls
        place_of = _SUIT_PLACE
        up, down, swap = SUIT_UP, SUIT_DOWN, SUIT_SWAP
        append = None if out is None else out.append
        seats = self.seats
        while i < len(events):
            ev = events[i]
            i += 1
            if type(ev) is Draw:
                seat = ev.seat
                hand = hands[seat]
                replacement = pending[seat]
                pending[seat] = False
                found = known[seat]
                if found is None:
                    found = effective_of(*ids[seat])
                    if found is None:  # not 3k+1 tiles
                        raise Inconsistent
                    if found[0] <= 1 and used[seat] is not None:  # copies in its melds
                        found = capped_effective(tuple(hand), used[seat], found)  # type: ignore[arg-type]
                    known[seat] = found
                if drawn[seat] >= 0:  # drawn twice
                    raise Inconsistent
                value, mask = found
                useful = (
                    (b0 & mask).bit_count()
                    + 2 * (b1 & mask).bit_count()
                    + 4 * (b2 & mask).bit_count()
                )
                in_dora = 0
                for k in dora:
                    in_dora += unseen[k]
                kind = ev.tile // 4
                held = unseen[kind] - 1
                if held < 0 or hand[kind] == 4:
                    raise Inconsistent
                unseen[kind] = held
                bit = 1 << kind  # the count's bits that change from held + 1 to held
                b0 ^= bit
                if held & 1:
                    b1 ^= bit
                    if held == 3:
                        b2 ^= bit
                hand[kind] += 1
                drawn[seat] = kind
                if append is not None:
                    append((i, seat, replacement, ev.tile, value, mask, left, useful, in_dora,
                            mask >> kind & 1, kind in dora))  # fmt: skip
                    left -= 1
                    continue
                a = seats[seat] or self._sums_of(seat)
                x = mask >> kind & 1
                q = useful / left
                a[0] += 1
                a[1] += x
                a[2] += q
                a[3] += q * (1 - q)
                if value == 0:
                    a[4] += 1
                    a[5] += x
                    a[6] += q
                    a[7] += q * (1 - q)
                q = in_dora / left
                a[8] += 1
                a[9] += kind in dora
                a[10] += q
                a[11] += q * (1 - q)
                left -= 1
            elif type(ev) is Discard:
                kind = ev.tile // 4
                seat = ev.seat
                hand = hands[seat]
                if not hand[kind]:
                    raise Inconsistent
                hand[kind] -= 1
                last = kind
                came = drawn[seat]
                if came == kind:  # the drawn tile cut: the suits are as they were
                    drawn[seat] = -1
                    continue
                known[seat] = None
                suits = ids[seat]
                q, place = place_of[kind]
                if came >= 0:
                    drawn[seat] = -1
                    qin, place_in = place_of[came]
                    if qin == q:
                        suits[q] = swap.get(suits[q] << 8 | place_in << 4 | place) or step_swap(
                            suits[q], place_in, place
                        )
                        continue
                    suits[qin] = up[suits[qin]][place_in] or step_up(suits[qin], place_in)
                suits[q] = down[suits[q]][place] or step_down(suits[q], place)
            elif type(ev) is Call:
                state.last_discard = last
                options = _options(state, ev)
                if len(options) != 1:
                    chosen = self.choices.get(i)
                    if chosen is None or chosen not in options:
                        raise Inconsistent
                    options = [chosen]
                _apply(state, ev, options[0])
            elif type(ev) is DoraReveal:
                kind = ev.tile // 4
                _take(unseen, kind)
                b0, b1, b2 = _planes(unseen)  # rare (a kan's new indicator): all again
                left -= 1
                indicated = dora_kind(kind, self.players)
                if indicated not in dora:
                    dora.append(indicated)
            elif type(ev) is Win:
                return


#: A seat's hand as ``choices_of`` follows it: the concealed counts by kind, and its pons.
_Hand = tuple[tuple[int, ...], frozenset[int]]


def _moves(
    hand: _Hand, ev: Draw | Discard | Call, called: int
) -> list[tuple[tuple[int, ...] | None, _Hand]]:
    """Each way ``ev`` can follow ``hand`` (the option a call takes, or None), and the
    hand after it; none when the record does not fit the hand (as ``Walk.run`` raises)."""
    counts, pons = hand
    if type(ev) is Draw:
        kind = ev.tile // 4
        if counts[kind] == 4:
            return []
        return [(None, (counts[:kind] + (counts[kind] + 1,) + counts[kind + 1 :], pons))]
    if type(ev) is Discard:
        kind = ev.tile // 4
        if not counts[kind]:
            return []
        return [(None, (counts[:kind] + (counts[kind] - 1,) + counts[kind + 1 :], pons))]
    assert type(ev) is Call
    found: list[tuple[tuple[int, ...] | None, _Hand]] = []
    for option in options_of(counts, pons, called, ev):
        after = list(counts)
        for k in option:
            after[k] -= 1
        if min(after) < 0:
            continue
        if ev.kind is MeldKind.PON:
            kept = pons | {option[0]}
        elif ev.kind is MeldKind.ADDED_KAN:
            kept = pons - {option[0]}
        else:
            kept = pons
        found.append((option, (tuple(after), kept)))
    return found


def choices_of(rnd: Round, hands: list[list[int]], first: int) -> dict[int, tuple[int, ...]]:
    """The choice the walk takes at each call the record leaves open (a Riichi City chi
    without ``group_cards``: event number -> the kinds it takes), found in work polynomial
    in the round's events: each seat's possible hands are followed event by event as a set
    (equal hands merged), then walked back to keep only those from which the rest of the
    round is possible, and each open call takes its first option that leads to one. This
    is the choice a search of every combination would make (the lowest that keeps every
    later discard and call possible), as a call changes only its own seat's hand. Raises
    ``OverBudget`` past ``WALK_BUDGET`` hands followed, ``Inconsistent`` when no choice
    fits."""
    events = rnd.events
    # the calls picked out in C: this runs for every round, and most hold none left open
    calls = cast("Iterator[Call]", compress(events, map(is_, map(type, events), repeat(Call))))
    if all(e.taken for e in calls):
        return {}
    start: list[_Hand] = [(tuple(h), frozenset()) for h in hands]
    frontier: list[set[_Hand]] = [{h} for h in start]
    #: per seat: (event number, the event, the last discard's kind, each hand after it ->
    #: the hands before it that lead there)
    steps: list[list[tuple[int, Draw | Discard | Call, int, dict[_Hand, list[_Hand]]]]] = [
        [] for _ in hands
    ]
    last, work = -1, 0
    for n in range(first, len(events)):
        ev = events[n]
        if type(ev) is Win:
            break
        if type(ev) is not Draw and type(ev) is not Discard and type(ev) is not Call:
            continue
        seat = ev.seat
        if not 0 <= seat < len(hands):
            raise Inconsistent
        links: dict[_Hand, list[_Hand]] = {}
        for hand in frontier[seat]:
            for _, after in _moves(hand, ev, last):
                links.setdefault(after, []).append(hand)
        work += len(frontier[seat])
        if work > WALK_BUDGET:
            raise OverBudget
        if not links:
            raise Inconsistent
        steps[seat].append((n + 1, ev, last, links))
        frontier[seat] = set(links)
        if type(ev) is Discard:
            last = ev.tile // 4
    chosen: dict[int, tuple[int, ...]] = {}
    for seat, seat_steps in enumerate(steps):
        good = frontier[seat]
        ahead: list[set[_Hand]] = []  # the hands after each step that can finish the round
        for _, _, _, links in reversed(seat_steps):
            ahead.append(good)
            good = {before for after in good for before in links[after]}
        ahead.reverse()
        hand = start[seat]
        if hand not in good:  # no choice fits the rest of the round
            raise Inconsistent
        for (number, ev, called, _), fine in zip(seat_steps, ahead, strict=True):
            moves = _moves(hand, ev, called)
            option, hand = next((m for m in moves if m[1] in fine), moves[0])
            if option is not None and type(ev) is Call and not ev.taken:
                chosen[number] = option
    return chosen


#: kind -> (its suit: 0-3, its place in the suit)
_SUIT_PLACE = tuple(divmod(kind, 9) for kind in range(34))


#: A count (0-4) -> the ASCII digit of each of its bits, for ``_planes``.
_BIT_DIGITS = tuple(
    bytes.maketrans(bytes(range(5)), digits) for digits in (b"01010", b"00110", b"00001")
)


def _planes(unseen: list[int]) -> tuple[int, int, int]:
    """``WalkState.planes`` of per-kind counts (0-4): each plane read in C as a binary
    number, kind 0 its lowest digit."""
    raw = bytes(unseen[::-1])
    d0, d1, d2 = _BIT_DIGITS
    return int(raw.translate(d0), 2), int(raw.translate(d1), 2), int(raw.translate(d2), 2)


def rows_of(rnd: Round, players: int) -> list[DrawRow] | None:
    walk = Walk(rnd, players)
    out: list[DrawRow] = []
    try:
        state, first = walk.start()
        walk.run(state, first, out)
    except Inconsistent:
        return None
    return out


def add_round(rnd: Round, players: int, acc: Acc) -> str | None:
    """Add a round's draws to ``acc``; when the record does not fit, leave ``acc`` as it was
    and say why (one of ``SKIP_REASONS``)."""
    before = {key: list(a) for key, a in acc.items()}
    walk = Walk(rnd, players, acc)
    try:
        state, first = walk.start()
        walk.run(state, first, None)
    except Inconsistent as e:
        acc.clear()
        acc.update(before)
        return e.reason
    return None
