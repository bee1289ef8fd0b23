"""The draw test: did each draw give what a fair shuffle gives, from the record's own view?

Theory of operation
-------------------
This module owns the draw test (docs/audit.md states it). A verified record shows
every hand, so for each draw (a live draw, or a replacement draw after a kan or a
North; the dealer's first draw is part of the deal, which the starting-hand audit
tests) the drawer's concealed hand H just before it is known: 13 - 3m tiles with m
melds. With s = shanten(H) (``pywall.analysis.shanten``: regular hands, and seven pairs and
thirteen orphans when m = 0) the effective kinds E are those k with
shanten(H + k) = s - 1 (``pywall.analysis.efficiency.effective_kinds``, one pass over the
suit automaton). U is what the record has not shown before the draw: the tile set
minus every dealt hand, every earlier draw and every dora indicator revealed so far,
so |U| is the number of wall positions not yet revealed. Then p = (tiles of U of a
kind in E) / |U| and X = 1 when the drawn tile's kind is in E. Under a fair shuffle
the unrevealed positions hold a uniformly random arrangement of U whatever the
players decided, so X - p is a martingale difference, and over a group of draws
O = sum X, E = sum p, V = sum p(1 - p) give z = (O - E) / sqrt(V), close to normal.

Three tests read each draw: ``effective`` (every draw), ``tenpai`` (draws made in
tenpai: X = a winning tile) and ``dora`` (every draw: X = the tile is a dora under
the indicators revealed so far; p = dora tiles in U / |U|).

A call's tiles from the hand are the record's (``Call.taken``: Tenhou's meld code,
Mahjong Soul's tiles); where a record names only the called tile (Riichi City: a chi
of 4m from 2m3m5m6m) the walk takes the one choice that keeps every later discard
and call of the round possible, the lowest when several do, found by following each
seat's possible hands as a set (``_choices``: polynomial work, bounded by
``WALK_BUDGET``). A round no choice fits, or over the budget, is left out and counted
(``skipped_rounds``, with its reason in ``skipped_reasons``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
from pywall.core.model import Call, Discard, DoraReveal, Draw, Game, MeldKind, Round, Win
from pywall.core.tiles import dora_kind

NORTH = 30
TESTS = ("effective", "tenpai", "dora")
#: Why a round's draws are left out: its calls and discards fit no hand (``no_fit``), or
#: following every hand its open calls allow took more than ``WALK_BUDGET`` steps.
SKIP_REASONS = ("no_fit", "walk_budget")
#: The work of following a round's open calls (``_choices``): hands followed, summed over
#: the events. A seat makes at most four calls, so a real round needs a few hundred.
WALK_BUDGET = 20_000


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """One tested draw: what the hand could use, what U held, what came."""

    round: int  # the round's index in the game
    event: int  # the draw's event number in the round (1-based)
    seat: int
    dealer: bool
    replacement: bool
    tile: int
    shanten: int  # of the hand before the draw
    effective_kinds: int  # bit mask of the kinds that lower it
    unseen: int  # |U|
    unseen_effective: int  # tiles of U of an effective kind
    unseen_dora: int  # dora tiles in U
    is_effective: bool
    is_dora: bool

    @property
    def tenpai(self) -> bool:
        return self.shanten == 0

    def outcomes(self) -> tuple[tuple[bool, float] | None, ...]:
        """(X, p) for each of ``TESTS``; None where the test does not read this draw."""
        p_effective = self.unseen_effective / self.unseen
        return (
            (self.is_effective, p_effective),
            (self.is_effective, p_effective) if self.shanten == 0 else None,
            (self.is_dora, self.unseen_dora / self.unseen),
        )


@dataclass(frozen=True, slots=True)
class Sums:
    """One test over a group of draws: n draws, O = sum X, E = sum p, V = sum p(1 - p)."""

    n: int = 0
    observed: int = 0
    expected: float = 0.0
    variance: float = 0.0

    def __reduce__(self) -> tuple[type[Sums], tuple[int, int, float, float]]:
        # pickled as its fields (a worker's records): dataclass's slots pickling reads
        # ``fields()`` for each object
        return Sums, (self.n, self.observed, self.expected, self.variance)

    def __add__(self, other: Sums) -> Sums:
        return Sums(
            self.n + other.n,
            self.observed + other.observed,
            self.expected + other.expected,
            self.variance + other.variance,
        )

    def to_list(self) -> list[float]:
        return [self.n, self.observed, self.expected, self.variance]

    @classmethod
    def from_list(cls, v: Sequence[Any]) -> Sums:
        """Raises ValueError on anything but four finite numbers (the caller words it)."""
        n, observed, expected, variance = v
        e, var = float(expected), float(variance)
        if not (math.isfinite(e) and math.isfinite(var)):
            raise ValueError("draw sums must be finite")
        return cls(int(n), int(observed), e, var)


def sums_dict(s: Sums, each: float = 0.0) -> dict[str, Any]:
    """One test's sums for people and JSON: n, O, E, V, z = (O - E) / sqrt V and its
    two-sided p (None when V = 0), the range a fair shuffle gives about 95% of the time
    (``low``, ``high``: ``stats.fair_range``) and where O falls (``reading``: usual,
    unusual, or very_unusual below ``each``, ``stats.reading``)."""
    # imported on first use: the page's start-up leaves the audit's statistics lazy
    from pywall.analysis.stats import fair_range, reading, two_sided_p

    z = (s.observed - s.expected) / math.sqrt(s.variance) if s.variance > 0 else None
    p = None if z is None else two_sided_p(z)
    low, high = fair_range(s.expected, s.variance, s.n)
    return {
        "n": s.n,
        "observed": s.observed,
        "expected": s.expected,
        "variance": s.variance,
        "z": z,
        "p": p,
        "low": low,
        "high": high,
        "reading": reading(p, each),
    }


def _report_p(test: dict[str, Any]) -> dict[str, Any]:
    """A one-game line's p to 10 significant digits: a display choice (one game's normal
    approximation is not worth more digits). CPython and Pyodide agree to the last bit
    without it (``stats.two_sided_p`` uses IEEE operations only); it keeps reports as
    they were."""
    p = test["p"]
    return test if p is None else test | {"p": float(f"{p:.10g}")}


#: The threshold one game's seat lines are read against: the audit's 0.001 split over
#: the three draw tests, as a group's verdict would split it (one game is information,
#: never a verdict).
GAME_EACH = 0.001 / 3


@dataclass(frozen=True, slots=True)
class SeatDraws:
    """One seat's draws in one game, as dealer or not: the three tests' sums."""

    seat: int
    dealer: bool
    effective: Sums
    tenpai: Sums
    dora: Sums

    def __reduce__(self) -> tuple[type[SeatDraws], tuple[int, bool, Sums, Sums, Sums]]:
        return SeatDraws, (self.seat, self.dealer, self.effective, self.tenpai, self.dora)

    def sums(self) -> tuple[Sums, Sums, Sums]:
        return self.effective, self.tenpai, self.dora


@dataclass(frozen=True, slots=True)
class GameDraws:
    """What the audit keeps of one game's draws (typed; ``to_dict`` for the report)."""

    seats: tuple[SeatDraws, ...]
    skipped_rounds: int = 0
    #: why each skipped round was left out, one of ``SKIP_REASONS`` each, in round order
    skipped_reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [[s.seat, s.dealer, *(t.to_list() for t in s.sums())] for s in self.seats],
            "skipped_rounds": self.skipped_rounds,
            "skipped_reasons": list(self.skipped_reasons),
        }

    def by_seat(self) -> list[dict[str, Any]]:
        """Each seat's three tests over the whole game (its rounds as dealer and not),
        in seat order, as ``sums_dict`` words them: the page's one-game lines."""
        totals: dict[int, tuple[Sums, Sums, Sums]] = {}
        for s in self.seats:
            a, b, c = totals.get(s.seat, (Sums(), Sums(), Sums()))
            totals[s.seat] = (a + s.effective, b + s.tenpai, c + s.dora)
        return [
            {"seat": seat}
            | {name: _report_p(sums_dict(x, GAME_EACH)) for name, x in zip(TESTS, sums)}
            for seat, sums in sorted(totals.items())
        ]

    @classmethod
    def from_dict(cls, d: Any) -> GameDraws:
        """Raises KeyError, TypeError or ValueError on anything else (the caller words it)."""
        seats = tuple(
            SeatDraws(int(seat), bool(dealer), *(Sums.from_list(t) for t in tests))
            for seat, dealer, *tests in d["seats"]
        )
        skipped = int(d["skipped_rounds"])
        # a report made before the walk had a budget: its only reason was no_fit
        reasons = d.get("skipped_reasons", ["no_fit"] * skipped)
        if not isinstance(reasons, list) or any(r not in SKIP_REASONS for r in reasons):
            raise ValueError(f"skipped_reasons must list some of {', '.join(SKIP_REASONS)}")
        if len(reasons) != skipped:
            raise ValueError("skipped_reasons must give one reason for each skipped round")
        return cls(seats, skipped, tuple(reasons))


# --- walking a round ---------------------------------------------------------------


#: A tested draw on the hot path: DrawRecord's fields after ``round`` and ``dealer``
#: (event, seat, replacement, tile, shanten, mask, unseen, unseen_effective,
#: unseen_dora, is_effective, is_dora).
DrawRow = tuple[int, int, bool, int, int, int, int, int, int, int, bool]


class _Inconsistent(Exception):
    """The record's events do not fit the hands as followed (a call read wrongly)."""

    reason = "no_fit"


class _OverBudget(_Inconsistent):
    """Following the hands a round's open calls allow took more than ``WALK_BUDGET``."""

    reason = "walk_budget"


@dataclass(slots=True)
class _State:
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
        raise _Inconsistent
    hand[kind] -= n


def _options(state: _State, ev: Call) -> list[tuple[int, ...]]:
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


def _apply(state: _State, ev: Call, taken: tuple[int, ...]) -> None:
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

#: per-(seat, dealer) sums of a game's draws: n, O, E, V for each of ``TESTS``, flat
Acc = dict[tuple[int, bool], list[float]]


class _Walk:
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

    def start(self) -> tuple[_State, int]:
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
            raise _Inconsistent
        left = sum(unseen)
        self.choices = _choices(rnd, hands, first)
        state = _State(
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

    def run(self, state: _State, i: int, out: list[DrawRow] | None) -> None:
        """Follow events from ``i``; at a call the record leaves open, the choice
        ``_choices`` found.

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
                        raise _Inconsistent
                    if found[0] <= 1 and used[seat] is not None:  # copies in its melds
                        found = capped_effective(tuple(hand), used[seat])  # type: ignore[arg-type]
                    known[seat] = found
                if drawn[seat] >= 0:  # drawn twice
                    raise _Inconsistent
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
                    raise _Inconsistent
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
                    raise _Inconsistent
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
                        raise _Inconsistent
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


#: A seat's hand as ``_choices`` follows it: the concealed counts by kind, and its pons.
_Hand = tuple[tuple[int, ...], frozenset[int]]


def _moves(
    hand: _Hand, ev: Draw | Discard | Call, called: int
) -> list[tuple[tuple[int, ...] | None, _Hand]]:
    """Each way ``ev`` can follow ``hand`` (the option a call takes, or None), and the
    hand after it; none when the record does not fit the hand (as ``_Walk.run`` raises)."""
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


def _choices(rnd: Round, hands: list[list[int]], first: int) -> dict[int, tuple[int, ...]]:
    """The choice the walk takes at each call the record leaves open (a Riichi City chi
    without ``group_cards``: event number -> the kinds it takes), found in work polynomial
    in the round's events: each seat's possible hands are followed event by event as a set
    (equal hands merged), then walked back to keep only those from which the rest of the
    round is possible, and each open call takes its first option that leads to one. This
    is the choice a search of every combination would make (the lowest that keeps every
    later discard and call possible), as a call changes only its own seat's hand. Raises
    ``_OverBudget`` past ``WALK_BUDGET`` hands followed, ``_Inconsistent`` when no choice
    fits."""
    events = rnd.events
    if not any(type(e) is Call and not e.taken for e in events):
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
            raise _Inconsistent
        links: dict[_Hand, list[_Hand]] = {}
        for hand in frontier[seat]:
            for _, after in _moves(hand, ev, last):
                links.setdefault(after, []).append(hand)
        work += len(frontier[seat])
        if work > WALK_BUDGET:
            raise _OverBudget
        if not links:
            raise _Inconsistent
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
            raise _Inconsistent
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
    """``_State.planes`` of per-kind counts (0-4): each plane read in C as a binary
    number, kind 0 its lowest digit."""
    raw = bytes(unseen[::-1])
    d0, d1, d2 = _BIT_DIGITS
    return int(raw.translate(d0), 2), int(raw.translate(d1), 2), int(raw.translate(d2), 2)


def _rows(rnd: Round, players: int) -> list[DrawRow] | None:
    walk = _Walk(rnd, players)
    out: list[DrawRow] = []
    try:
        state, first = walk.start()
        walk.run(state, first, out)
    except _Inconsistent:
        return None
    return out


def _add_round(rnd: Round, players: int, acc: Acc) -> str | None:
    """Add a round's draws to ``acc``; when the record does not fit, leave ``acc`` as it was
    and say why (one of ``SKIP_REASONS``)."""
    before = {key: list(a) for key, a in acc.items()}
    walk = _Walk(rnd, players, acc)
    try:
        state, first = walk.start()
        walk.run(state, first, None)
    except _Inconsistent as e:
        acc.clear()
        acc.update(before)
        return e.reason
    return None


def round_draws(rnd: Round, players: int) -> tuple[DrawRecord, ...] | None:
    """Every tested draw of a round, in order; None when the record does not fit."""
    rows = _rows(rnd, players)
    if rows is None:
        return None
    return tuple(
        DrawRecord(
            rnd.index, e, seat, seat == rnd.dealer, bool(r), t, s, m, u, ue, ud, bool(x), bool(d)
        )
        for e, seat, r, t, s, m, u, ue, ud, x, d in rows
    )


def _add(acc: Acc, rows: list[DrawRow], dealer: int) -> None:
    """Add a round's rows to per-(seat, dealer) sums: n, O, E, V for each of ``TESTS``
    (as ``_Walk.run`` adds a draw)."""
    for _, seat, _, _, value, _, left, useful, dora, x, is_dora in rows:
        key = (seat, seat == dealer)
        a = acc.get(key)
        if a is None:
            a = acc[key] = [0.0] * 12
        p = useful / left
        a[0] += 1
        a[1] += x
        a[2] += p
        a[3] += p * (1 - p)
        if value == 0:
            a[4] += 1
            a[5] += x
            a[6] += p
            a[7] += p * (1 - p)
        q = dora / left
        a[8] += 1
        a[9] += is_dora
        a[10] += q
        a[11] += q * (1 - q)


def _seat_draws(key: tuple[int, bool], a: list[float]) -> SeatDraws:
    return SeatDraws(key[0], key[1], *(Sums.from_list(a[i : i + 4]) for i in (0, 4, 8)))


def summary_of(
    records: Sequence[DrawRecord], skipped_rounds: int = 0, skipped_reasons: tuple[str, ...] = ()
) -> GameDraws:
    """The per-seat sums of draw records (what ``game_draws`` gives from a game)."""
    acc: Acc = {}
    for r in records:
        row = (r.event, r.seat, r.replacement, r.tile, r.shanten, r.effective_kinds, r.unseen,
               r.unseen_effective, r.unseen_dora, int(r.is_effective), r.is_dora)  # fmt: skip
        _add(acc, [row], r.seat if r.dealer else -1)
    seats = tuple(_seat_draws(k, acc[k]) for k in sorted(acc))
    return GameDraws(seats, skipped_rounds, skipped_reasons)


def game_draws(game: Game) -> GameDraws:
    """The draw test's sums of a game (a verified one: its record shows every hand)."""
    acc: Acc = {}
    reasons = []
    for rnd in game.rounds:
        reason = _add_round(rnd, game.player_count, acc)
        if reason is not None:
            reasons.append(reason)
    seats = tuple(_seat_draws(k, acc[k]) for k in sorted(acc))
    return GameDraws(seats, len(reasons), tuple(reasons))
