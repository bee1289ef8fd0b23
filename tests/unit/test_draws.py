"""pywall.analysis.draws: the draw test's (X, p) per draw, on the real records of every platform.

The reference below follows a Tenhou record tile by tile (calls decoded from Tenhou's
meld codes, U as the set difference of tile ids, E by 34 shanten calls): every draw
record of every Tenhou fixture must equal it. Other platforms' records name a chi by
its called tile only; they are held to the definitions' invariants and hand-checked
draws.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from pywall.analysis.draws import DrawRecord, GameDraws, game_draws, round_draws, summary_of
from pywall.analysis.efficiency import (
    effective_kinds,
    effective_of,
    effective_tiles,
    step_down,
    step_swap,
    step_up,
    suit_ids,
)
from pywall.analysis.shanten import shanten
from pywall.checks.verify import verify_game
from pywall.core.errors import ValueInputError
from pywall.core.model import Call, Discard, DoraReveal, Draw, Game, MeldKind, Win
from pywall.core.tiles import counts_from_mpsz, dora_kind
from pywall.formats import parse_record
from tests.helpers import DATA, fixture_paths

OTHER = sorted((DATA / "majsoul").glob("*.json")) + sorted((DATA / "riichicity").glob("*.json"))
TENHOU = [p for p in fixture_paths() if p.suffix in (".txt", ".xml", ".mjlog")]


def game_of(path: Path) -> Game:
    game = parse_record(path.read_bytes(), path.name)
    assert verify_game(game).status == "verified"
    return game


# --- effective kinds: the automaton's one pass is the definition ----------------------


def by_definition(hand: tuple[int, ...]) -> tuple[int, int]:
    base = shanten(hand)
    mask = 0
    for kind in range(34):
        if hand[kind] < 4:
            more = list(hand)
            more[kind] += 1
            if shanten(more) < base:
                mask |= 1 << kind
    return base, mask


def random_hand(rng: random.Random, tiles: int) -> tuple[int, ...]:
    counts = [0] * 34
    for t in rng.sample(range(136), tiles):
        counts[t // 4] += 1
    return tuple(counts)


def paired_hand(rng: random.Random) -> tuple[int, ...]:
    """Hands near seven pairs or thirteen orphans, where those forms decide."""
    counts = [0] * 34
    kinds = rng.sample(
        range(34) if rng.random() < 0.5 else [0, 8, 9, 17, 18, 26, *range(27, 34)], 7
    )
    for k in kinds[:6]:
        counts[k] += 2
    counts[kinds[6]] += 1
    return tuple(counts)


@pytest.mark.parametrize("tiles", [1, 4, 7, 10, 13], ids=lambda n: f"{n}-tiles")
def test_effective_kinds_is_the_definition(tiles: int) -> None:
    rng = random.Random(tiles)
    hands = [random_hand(rng, tiles) for _ in range(1500)]
    if tiles == 13:
        hands += [paired_hand(rng) for _ in range(500)]
        hands.append(tuple(counts_from_mpsz("19m19p19s1234567z")))
        hands.append(tuple(counts_from_mpsz("1111m2222p3333s4z")))
        # thirteen orphans with an orphan held 4 times, and seven pairs with few kinds
        hands.append(tuple(counts_from_mpsz("1111m9m19p19s1234z")))
        hands.append(tuple(counts_from_mpsz("1111m99m1199p112z")))
        hands.append(tuple(counts_from_mpsz("11m99m11p99p11s99s1z")))
    for hand in hands:
        assert effective_kinds(hand) == by_definition(hand), hand


def test_effective_kinds_agree_with_effective_tiles() -> None:
    hand = tuple(counts_from_mpsz("123m456p789s1111z"))
    value, mask = effective_kinds(hand)
    assert value == 1
    assert mask == sum(1 << k for k in effective_tiles(hand).kinds)
    assert not mask >> 27 & 1  # 1z held 4 times: no 5th copy


# --- a reference walk of a Tenhou record -------------------------------------------


def meld_tiles(code: int) -> tuple[list[int], int | None]:
    """(tile ids a Tenhou call takes from the hand, the called tile or None)."""
    if code & 0x4:  # chi
        t = code >> 10
        called, t = t % 3, t // 3
        base = t // 7 * 9 + t % 7
        tiles = [(base + i) * 4 + (code >> (3 + 2 * i) & 3) for i in range(3)]
        return [x for i, x in enumerate(tiles) if i != called], tiles[called]
    if code & 0x8:  # pon
        t = code >> 9
        called, kind = t % 3, t // 3
        unused = code >> 5 & 3
        tiles = [kind * 4 + i for i in range(4) if i != unused]
        return [x for i, x in enumerate(tiles) if i != called], tiles[called]
    if code & 0x10:  # added kan
        kind = (code >> 9) // 3
        return [kind * 4 + (code >> 5 & 3)], None
    if code & 0x20:  # North
        return [code >> 8], None
    kind = (code >> 8) // 4
    if code & 0x3:  # open kan
        return [kind * 4 + i for i in range(4) if kind * 4 + i != code >> 8], code >> 8
    return [kind * 4 + i for i in range(4)], None


def reference(game: Game) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    full = set(range(136)) - (set(range(4, 32)) if game.player_count == 3 else set())
    for rnd in game.rounds:
        hands = [set(h) for h in rnd.hands]
        shown = {t for h in rnd.hands for t in h} | {rnd.dora_indicator}
        dora = {dora_kind(rnd.dora_indicator // 4, game.player_count)}
        pending = [False] * game.player_count
        first = True
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, Draw):
                if first and n == 1 and ev.seat == rnd.dealer:
                    hands[ev.seat].add(ev.tile)
                    shown.add(ev.tile)
                    continue
                counts = [0] * 34
                for t in hands[ev.seat]:
                    counts[t // 4] += 1
                value, mask = by_definition(tuple(counts))
                unseen = full - shown
                out.append(
                    (rnd.index, n, ev.seat, pending[ev.seat], value, len(unseen),
                     sum(1 for t in unseen if mask >> (t // 4) & 1),
                     sum(1 for t in unseen if t // 4 in dora),
                     bool(mask >> (ev.tile // 4) & 1), ev.tile // 4 in dora)
                )  # fmt: skip
                pending[ev.seat] = False
                hands[ev.seat].add(ev.tile)
                shown.add(ev.tile)
            elif isinstance(ev, Discard):
                hands[ev.seat].remove(ev.tile)
            elif isinstance(ev, Call):
                taken, _ = meld_tiles(ev.code)
                hands[ev.seat] -= set(taken)
                pending[ev.seat] = pending[ev.seat] or ev.kind.takes_replacement
            elif isinstance(ev, DoraReveal):
                shown.add(ev.tile)
                dora.add(dora_kind(ev.tile // 4, game.player_count))
            elif isinstance(ev, Win):
                break
            first = False
    return out


def as_reference(r: DrawRecord) -> tuple[object, ...]:
    return (r.round, r.event, r.seat, r.replacement, r.shanten, r.unseen, r.unseen_effective,
            r.unseen_dora, r.is_effective, r.is_dora)  # fmt: skip


@pytest.mark.parametrize("path", TENHOU, ids=lambda p: p.name)
def test_every_tenhou_draw_is_the_reference(path: Path) -> None:
    game = game_of(path)
    records = []
    for rnd in game.rounds:
        found = round_draws(rnd, game.player_count)
        assert found is not None
        records += [as_reference(r) for r in found]
    assert records == reference(game)


# --- invariants and hand-checked draws on every platform ----------------------------


@pytest.mark.parametrize("path", TENHOU + OTHER, ids=lambda p: p.name)
def test_unseen_is_the_wall_not_yet_revealed(path: Path) -> None:
    """|U| = the wall's tiles - the deal (with the dealer's 14th) - earlier draws -
    indicators revealed; every hand before a draw holds 13 - 3m tiles."""
    game = game_of(path)
    size = 108 if game.player_count == 3 else 136
    for rnd in game.rounds:
        records = round_draws(rnd, game.player_count)
        assert records is not None
        drawn, revealed = 0, 1
        by_event = {r.event: r for r in records}
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, DoraReveal):
                revealed += 1
            if isinstance(ev, Draw) and n in by_event:
                expected = size - 13 * game.player_count - 1 - drawn - revealed
                assert by_event[n].unseen == expected, (rnd.label, n)
                drawn += 1
        assert len(records) == drawn


def test_a_draw_of_an_effective_kind() -> None:
    """tenhou-python-bot/1.txt, East 1: the first tested draw (event 2, seat 1)."""
    game = game_of(DATA / "tenhou" / "tenhou-python-bot" / "1.txt")
    records = round_draws(game.rounds[0], 4)
    assert records is not None
    first = records[0]
    assert (first.event, first.seat, first.unseen) == (3, 1, 82)
    hand = [0] * 34
    for t in game.rounds[0].hands[1]:
        hand[t // 4] += 1
    value, mask = by_definition(tuple(hand))
    assert (first.shanten, first.effective_kinds) == (value, mask)
    hits = [r for r in records if r.is_effective]
    assert hits and all(r.effective_kinds >> (r.tile // 4) & 1 for r in hits)


@pytest.mark.parametrize("path", TENHOU + OTHER, ids=lambda p: p.name)
def test_a_tenpai_draw_that_wins(path: Path) -> None:
    """Every self-drawn win's draw is a tenpai draw of a winning tile (X = 1)."""
    game = game_of(path)
    wins = 0
    for rnd in game.rounds:
        records = {r.event: r for r in round_draws(rnd, game.player_count) or ()}
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, Win) and ev.from_seat == ev.seat and n - 1 in records:
                draw = records[n - 1]
                assert draw.seat == ev.seat and draw.tenpai and draw.is_effective
                wins += 1
    if path.name in ("1.txt", "test.mjlog", "4ma_gin_han_sample.json"):
        assert wins


@pytest.mark.parametrize(
    "path",
    [DATA / "tenhou" / "gimite" / "test.mjlog", DATA / "riichicity" / "4ma_gin_han_sample.json"],
    ids=lambda p: p.name,
)
def test_dora_after_a_kan_dora_is_revealed(path: Path) -> None:
    """The draw after a kan dora's reveal counts the new dora kind in U and in X."""
    game = game_of(path)
    checked = 0
    for rnd in game.rounds:
        records = {r.event: r for r in round_draws(rnd, game.player_count) or ()}
        unseen = [4] * 34
        kinds = {dora_kind(rnd.dora_indicator // 4, game.player_count)}
        shown = [*(t for h in rnd.hands for t in h), rnd.dora_indicator]
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, DoraReveal):
                kinds.add(dora_kind(ev.tile // 4, game.player_count))
                shown.append(ev.tile)
            elif isinstance(ev, Draw):
                if n in records and len(kinds) > 1:
                    left = list(unseen)
                    for t in shown:
                        left[t // 4] -= 1
                    assert records[n].unseen_dora == sum(left[k] for k in kinds)
                    assert records[n].is_dora == (ev.tile // 4 in kinds)
                    checked += 1
                shown.append(ev.tile)
    assert checked


def test_replacement_draws_are_tested() -> None:
    """sanma2.xml: 16 North extractions, each followed by a tested replacement draw
    from a hand of 13 - 3m tiles."""
    game = game_of(DATA / "tenhou" / "dnovikoff" / "sanma2.xml")
    calls = sum(
        1 for r in game.rounds for e in r.events if isinstance(e, Call) and e.kind.takes_replacement
    )
    records = [r for rnd in game.rounds for r in round_draws(rnd, 3) or ()]
    assert calls >= 16
    assert sum(r.replacement for r in records) == calls
    for rnd in game.rounds:
        for r in round_draws(rnd, 3) or ():
            if r.replacement:  # right after the seat's kan or North
                before = rnd.events[r.event - 2]
                assert (
                    isinstance(before, Call)
                    and before.seat == r.seat
                    and before.kind.takes_replacement
                )


@pytest.mark.parametrize("path", TENHOU[:8], ids=lambda p: p.name)
def test_a_hand_whose_drawn_tile_was_cut_is_not_asked_again(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk keeps a hand's effective kinds while its suits stay: it asks
    ``effective_of`` at a draw only when the seat's hand changed since its last draw (a
    discard of another kind than the tile drawn, or a call), and the answers are those of
    every draw asked afresh (the reference test)."""
    from pywall.analysis import draw_walk

    asked = 0
    original = draw_walk.effective_of  # type: ignore[attr-defined]

    def counted(i0: int, i1: int, i2: int, i3: int) -> tuple[int, int] | None:
        nonlocal asked
        asked += 1
        return original(i0, i1, i2, i3)

    monkeypatch.setattr(draw_walk, "effective_of", counted)
    game = game_of(path)
    expected = cut = 0
    for rnd in game.rounds:
        asked_for: set[int] = set()  # seats whose hand was asked and has not changed since
        drawn: dict[int, int] = {}
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, Draw) and not (n == 1 and ev.seat == rnd.dealer):
                if ev.seat not in asked_for:
                    expected += 1
                    asked_for.add(ev.seat)
                drawn[ev.seat] = ev.tile // 4
            elif isinstance(ev, Discard):
                if drawn.pop(ev.seat, -1) == ev.tile // 4:
                    cut += 1
                else:
                    asked_for.discard(ev.seat)
            elif isinstance(ev, Call):
                asked_for.discard(ev.seat)
                drawn.pop(ev.seat, None)
            elif isinstance(ev, Win):
                break
        assert round_draws(rnd, game.player_count) is not None
    asked = 0
    game_draws(game)
    assert cut > 0 and asked == expected


@pytest.mark.parametrize("path", TENHOU + OTHER, ids=lambda p: p.name)
def test_game_sums_are_those_of_its_draw_records(path: Path) -> None:
    """``game_draws`` adds each draw as it walks; ``summary_of`` adds the records of
    ``round_draws``: the same floats, added in the same order, on every real game."""
    game = game_of(path)
    records = [r for rnd in game.rounds for r in round_draws(rnd, game.player_count) or ()]
    summary = game_draws(game)
    assert summary == summary_of(records, summary.skipped_rounds)
    assert summary.skipped_rounds == sum(
        round_draws(rnd, game.player_count) is None for rnd in game.rounds
    )


def test_game_summary_sums_its_draws() -> None:
    game = game_of(DATA / "tenhou" / "tenhou-python-bot" / "1.txt")
    records = [r for rnd in game.rounds for r in round_draws(rnd, 4) or ()]
    summary = game_draws(game)
    assert summary == summary_of(records)
    assert sum(s.effective.n for s in summary.seats) == len(records)
    assert sum(s.effective.observed for s in summary.seats) == sum(r.is_effective for r in records)
    expected = sum(r.unseen_effective / r.unseen for r in records)
    assert sum(s.effective.expected for s in summary.seats) == pytest.approx(expected)
    tenpai = [r for r in records if r.tenpai]
    assert sum(s.tenpai.n for s in summary.seats) == len(tenpai)
    assert GameDraws.from_dict(summary.to_dict()) == summary
    dealer = {(s.seat, s.dealer) for s in summary.seats}
    assert any(d for _, d in dealer) and any(not d for _, d in dealer)


def test_a_record_that_does_not_fit_is_left_out() -> None:
    """A discard of a tile the hand does not hold: the round is skipped, not guessed."""
    game = game_of(DATA / "tenhou" / "tenhou-python-bot" / "1.txt")
    rnd = game.rounds[0]
    i, discard = next((i, e) for i, e in enumerate(rnd.events) if isinstance(e, Discard))
    held = {t // 4 for t in rnd.hands[discard.seat]}
    stranger = next(k for k in range(34) if k not in held) * 4
    events = list(rnd.events)
    events[i] = Discard(discard.seat, stranger)
    from dataclasses import replace

    bad = replace(rnd, events=tuple(events))
    assert round_draws(bad, 4) is None
    assert game_draws(replace(game, rounds=(bad,))).skipped_rounds == 1


def test_a_round_that_fails_late_adds_nothing() -> None:
    """A round whose record stops fitting after many draws: the draws walked before the
    misfit are not in the game's sums (they were added as the walk went)."""
    from dataclasses import replace

    game = game_of(DATA / "tenhou" / "tenhou-python-bot" / "1.txt")
    rnd = game.rounds[1]
    discards = [i for i, e in enumerate(rnd.events) if isinstance(e, Discard)]
    i = discards[len(discards) * 3 // 4]
    discard = rnd.events[i]
    assert isinstance(discard, Discard)
    held = {t // 4 for t in rnd.hands[discard.seat]}
    stranger = next(k for k in range(34) if k not in held and k != discard.tile // 4)
    events = list(rnd.events)
    events[i] = Discard(discard.seat, stranger * 4)
    bad = replace(rnd, events=tuple(events))
    assert round_draws(bad, 4) is None
    rounds = (game.rounds[0], bad, *game.rounds[2:])
    without = game_draws(replace(game, rounds=(game.rounds[0], *game.rounds[2:])))
    got = game_draws(replace(game, rounds=rounds))
    assert got.skipped_rounds == 1
    assert got.seats == without.seats


def test_calls_the_record_does_not_spell_out_are_followed() -> None:
    """Without Call.taken (as in a Riichi City record) the walk finds tiles for each call
    that fit the round's later events: every round is still followed, with the same draws
    and the same U. Where several choices fit, the hand may differ from the real one
    (docs/audit.md: the lowest choice is taken)."""
    from dataclasses import replace

    for path in TENHOU[:12]:
        game = game_of(path)
        for rnd in game.rounds:
            bare = tuple(replace(e, taken=()) if isinstance(e, Call) else e for e in rnd.events)
            with_tiles = round_draws(rnd, game.player_count) or ()
            without = round_draws(replace(rnd, events=bare), game.player_count)
            assert without is not None, (path.name, rnd.label)
            assert [(r.event, r.unseen, r.unseen_dora, r.is_dora) for r in without] == [
                (r.event, r.unseen, r.unseen_dora, r.is_dora) for r in with_tiles
            ]


# --- a hand's suit ids, followed through draws and discards --------------------------


def test_suit_ids_follow_a_hand_through_draws_and_discards() -> None:
    """The walk keeps each hand's suit ids by steps (a tile in, a tile out, or both in
    one suit) instead of reading its counts: after every step they are the ids of the
    counts, and ``effective_of`` on them is ``effective_kinds`` of the counts."""
    rng = random.Random(25)
    for _ in range(40):
        wall = rng.sample(range(136), 136)
        counts = [0] * 34
        for t in wall[:13]:
            counts[t // 4] += 1
        ids = suit_ids(counts)
        for t in wall[13:80]:
            drawn = t // 4
            assert effective_of(*ids) == effective_kinds(tuple(counts))
            counts[drawn] += 1
            out = rng.choice([k for k in range(34) if counts[k]])
            counts[out] -= 1
            (q_in, p_in), (q_out, p_out) = divmod(drawn, 9), divmod(out, 9)
            if drawn == out:
                pass
            elif q_in == q_out:
                ids[q_in] = step_swap(ids[q_in], p_in, p_out)
            else:
                ids[q_in] = step_up(ids[q_in], p_in)
                ids[q_out] = step_down(ids[q_out], p_out)
            assert ids == suit_ids(counts)
    assert effective_of(*suit_ids(counts)) == by_definition(tuple(counts))


def test_a_step_past_four_or_below_none_is_refused() -> None:
    four = suit_ids(counts_from_mpsz("1111m"))[0]
    with pytest.raises(ValueError):
        step_up(four, 0)
    with pytest.raises(ValueError):
        step_down(four, 1)
    with pytest.raises(ValueError):
        step_swap(four, 0, 1)


def test_effective_kinds_need_3k_plus_1_tiles() -> None:
    hand = counts_from_mpsz("123m456p789s11223z")  # 14 tiles
    assert effective_of(*suit_ids(hand)) is None
    with pytest.raises(ValueInputError, match="3k\\+1"):
        effective_kinds(tuple(hand))


def test_the_caches_stay_bounded_and_answers_do_not_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each cache of the draw test is emptied when it reaches its bound (memory stays
    bounded on any archive): with tiny bounds the caches are emptied again and again,
    and every game's sums are what they were."""
    from pywall.analysis import efficiency

    games = [game_of(p) for p in TENHOU[:6]]
    before = [game_draws(g) for g in games]
    bounds = {"_MASKS_KEPT": 40, "_QUADS_KEPT": 16, "_SWAPS_KEPT": 8}
    for name, bound in bounds.items():
        monkeypatch.setattr(efficiency, name, bound)
    for cache in (efficiency._MASKS, efficiency._QUADS, efficiency.SUIT_SWAP):
        cache.clear()
    assert [game_draws(g) for g in games] == before
    assert len(efficiency._MASKS) <= 40 and len(efficiency._QUADS) <= 16
    assert len(efficiency.SUIT_SWAP) <= 8


# --- a reference walk by kinds, for records that name tiles by face -------------------------


def reference_by_kind(game: Game) -> list[tuple[object, ...]]:
    """The reference walk for Mahjong Soul and Riichi City records (tiles are faces, not
    distinct ids): hands and U as counts by kind, a closed kan taking four of the kind the
    record names (its called tile), an added kan one, a North the North; other calls the
    tiles the record names."""
    out: list[tuple[object, ...]] = []
    full = [0 if game.player_count == 3 and 1 <= k <= 7 else 4 for k in range(34)]
    for rnd in game.rounds:
        hands = [[0] * 34 for _ in rnd.hands]
        unseen = list(full)
        for seat, hand in enumerate(rnd.hands):
            for t in hand:
                hands[seat][t // 4] += 1
                unseen[t // 4] -= 1
        unseen[rnd.dora_indicator // 4] -= 1
        dora = {dora_kind(rnd.dora_indicator // 4, game.player_count)}
        pending = [False] * game.player_count
        for n, ev in enumerate(rnd.events, 1):
            if isinstance(ev, Draw):
                kind = ev.tile // 4
                if n == 1 and rnd.dealer_draw is ev:
                    hands[ev.seat][kind] += 1
                    unseen[kind] -= 1
                    continue
                value, mask = by_definition(tuple(hands[ev.seat]))
                out.append(
                    (rnd.index, n, ev.seat, pending[ev.seat], value, sum(unseen),
                     sum(c for k, c in enumerate(unseen) if mask >> k & 1),
                     sum(unseen[k] for k in dora), bool(mask >> kind & 1), kind in dora)
                )  # fmt: skip
                pending[ev.seat] = False
                hands[ev.seat][kind] += 1
                unseen[kind] -= 1
            elif isinstance(ev, Discard):
                hands[ev.seat][ev.tile // 4] -= 1
            elif isinstance(ev, Call):
                named = ev.code // 4
                taken = {
                    MeldKind.CLOSED_KAN: [named] * 4,
                    MeldKind.ADDED_KAN: [named],
                    MeldKind.NUKI: [30],
                }.get(ev.kind, [t // 4 for t in ev.taken])
                for k in taken:
                    hands[ev.seat][k] -= 1
                pending[ev.seat] = pending[ev.seat] or ev.kind.takes_replacement
            elif isinstance(ev, DoraReveal):
                unseen[ev.tile // 4] -= 1
                dora.add(dora_kind(ev.tile // 4, game.player_count))
            elif isinstance(ev, Win):
                break
    return out


@pytest.mark.parametrize("path", OTHER, ids=lambda p: p.name)
def test_every_draw_of_other_platforms_is_the_reference(path: Path) -> None:
    """Every draw record of every Mahjong Soul and Riichi City fixture equals the reference
    walk by kinds: closed and added kans (Riichi City, 4-player), Norths (3-player), chis
    read from the record's own tiles."""
    game = game_of(path)
    records = []
    for rnd in game.rounds:
        found = round_draws(rnd, game.player_count)
        assert found is not None, rnd.label
        records += [as_reference(r) for r in found]
    assert records == reference_by_kind(game)


def test_the_fixtures_hold_closed_and_added_kans_and_norths() -> None:
    kinds = {
        e.kind
        for path in OTHER
        for rnd in game_of(path).rounds
        for e in rnd.events
        if isinstance(e, Call)
    }
    assert {MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN, MeldKind.NUKI, MeldKind.CHI} <= kinds


#: The SHA-256 of every fixture's ``game_draws`` as JSON (name and sums, in fixture order),
#: as the walk gave them before it was made faster: the sums must stay equal to the bit.
PINNED_SUMS = "94f6b64e366398f99ee9de3949719b915c217d106a811834617c6e8cc8d6d0aa"


def test_the_fixtures_draw_sums_are_pinned_to_the_bit() -> None:
    """Every real game's draw sums (n, O, E, V of each test, per seat and dealer, and the
    skipped rounds) as they were: a change to the walk, its caches or the order in which
    it adds floats shows here, not only in a z-score's last digits."""
    digest = hashlib.sha256()
    for path in TENHOU + OTHER:
        digest.update(json.dumps([path.name, game_draws(game_of(path)).to_dict()]).encode())
    assert digest.hexdigest() == PINNED_SUMS
