"""The draw walk's bounded work (issue 32, items 1 and 2): calls a record leaves open are
followed as sets of possible hands, never by trying every combination; a closed or added
kan takes the kind the record names.

``choice_round`` generates the smallest round that made the old walk exponential: each
of the four seats holds 2m3m5m6m and 2p3p5p6p and calls a 4m and a 4p with no tiles
named (a Riichi City record without ``group_cards``): eight calls of three choices each,
3^8 = 6,561 combinations when a later event fits none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pywall.analysis import draw_walk
from pywall.analysis.draws import GameDraws, game_draws, round_draws
from pywall.analysis.efficiency import effective_kinds
from pywall.core.model import Call, Discard, Draw, Event, Game, MeldKind, Platform, Round, Ryuukyoku
from pywall.core.tiles import counts_from_mpsz
from tests.helpers import DATA
from tests.unit.test_draws import game_of

#: Each seat's honours: a pair cut after each of its two calls, and two more.
_HONOURS = ((27, 27, 28, 28, 29), (29, 29, 30, 30, 31), (31, 31, 32, 32, 33), (33, 33, 27, 27, 28))


def _ids(kinds: list[int]) -> tuple[int, ...]:
    """Distinct tile ids for kinds (copy 0, 1, 2, 3 in turn)."""
    seen: dict[int, int] = {}
    out = []
    for k in kinds:
        out.append(k * 4 + seen.get(k, 0))
        seen[k] = seen.get(k, 0) + 1
    return tuple(out)


def choice_round(index: int = 0, misfit: bool = False) -> Round:
    """A 4-player round of eight three-way calls (see the module's docstring); with
    ``misfit`` it ends with a discard of a tile no hand holds (1m)."""
    runs = [1, 2, 4, 5, 10, 11, 13, 14]  # 2m3m5m6m 2p3p5p6p
    hands = []
    for seat in range(4):
        kinds = runs + list(_HONOURS[seat])
        hands.append(tuple(k * 4 + seat for k in kinds[:8]) + _ids(kinds[8:]))
    events: list[Event] = [Draw(0, 30 * 4 + 3), Discard(0, 30 * 4 + 3)]
    for called in (3, 12):  # 4m, then 4p
        for copy, caller in enumerate((1, 2, 3, 0)):
            giver = (caller + 3) % 4
            tile = called * 4 + copy
            cut = _HONOURS[caller][0] * 4 + (0 if called == 3 else 1)
            events += [Draw(giver, tile), Discard(giver, tile), Call(caller, tile, MeldKind.CHI)]
            events.append(Discard(caller, cut))
    events.append(Discard(1, 0) if misfit else Ryuukyoku("exhaustive"))
    return Round(index, 0, 0, 0, None, 32 * 4 + 3, 0, tuple(hands), (25000,) * 4, tuple(events))


def choice_game(rounds: int, misfit: bool) -> Game:
    return Game(
        None,
        4,
        ("a", "b", "c", "d"),
        tuple(choice_round(i, misfit) for i in range(rounds)),
        True,
        platform=Platform.RIICHICITY,
    )


def test_a_round_of_open_calls_that_all_fit_is_tested_with_the_lowest_choices() -> None:
    found = round_draws(choice_round(), 4)
    assert found is not None and len(found) == 8  # each giver's draw of a 4m or a 4p
    summary = game_draws(choice_game(1, misfit=False))
    assert summary.skipped_rounds == 0 and sum(s.effective.n for s in summary.seats) == 8
    walk = draw_walk.Walk(choice_round(), 4)
    walk.start()
    assert len(walk.choices) == 8  # each call: 2m3m (2p3p), the lowest of its three
    assert set(walk.choices.values()) == {(1, 2), (10, 11)}


def test_open_calls_are_followed_as_sets_of_hands_not_combinations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a misfit after eight three-way calls, a search of every combination asks each
    call's options 3^8 times; the walk asks them a few times per call, and leaves the round
    out saying why."""
    asked = [0]
    real = draw_walk.options_of

    def counting(*args: object) -> list[tuple[int, ...]]:
        asked[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(draw_walk, "options_of", counting)
    summary = game_draws(choice_game(1, misfit=True))
    assert summary.skipped_rounds == 1 and summary.skipped_reasons == ("no_fit",)
    assert summary.seats == ()
    assert asked[0] <= 8 * 9  # at most the 9 hands two three-way calls leave a seat, per call


def test_a_round_over_the_walks_budget_is_skipped_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(draw_walk, "WALK_BUDGET", 20)
    summary = game_draws(choice_game(2, misfit=False))
    assert summary.skipped_rounds == 2
    assert summary.skipped_reasons == ("walk_budget", "walk_budget")
    assert GameDraws.from_dict(summary.to_dict()) == summary


# --- the kan the record names -------------------------------------------------------------


#: 5p, the kind the dealer of ``kan_round`` declares a closed kan of.
FIVE_P = 13


def kan_round() -> Round:
    """A dealer holding four 1m and four 5p draws 7z, declares a closed kan of 5p (its
    tiles named, as Mahjong Soul records and Riichi City's ``group_cards`` name them) and
    draws 9s from the dead wall."""
    hand = counts_from_mpsz("1111m5555p19s123z")
    tiles = tuple(k * 4 + c for k, n in enumerate(hand) for c in range(n))
    others = (
        _ids([1, 2, 3, 19, 20, 21, 10, 11, 12, 31, 31, 31, 32]),
        _ids([1, 2, 3, 19, 20, 21, 10, 11, 12, 30, 30, 30, 32]),
        _ids([1, 2, 3, 19, 20, 21, 10, 11, 12, 29, 29, 29, 32]),
    )
    named = Call(0, FIVE_P * 4, MeldKind.CLOSED_KAN, (FIVE_P * 4,) * 4)
    events = (Draw(0, 33 * 4), named, Draw(0, 26 * 4 + 3))
    return Round(0, 0, 0, 0, None, 28 * 4, 0, (tiles, *others), (25000,) * 4, events)


def test_a_closed_kan_takes_the_kind_the_record_names() -> None:
    """A dealer holding four 1m and four 5p declares 5p (named, as Mahjong Soul and Riichi
    City records do): the hand keeps its 1m, so its next draw is tested on 1111m, not 5555p."""
    rnd = kan_round()
    events, named = rnd.events, rnd.events[1]
    assert isinstance(named, Call)
    (drawn,) = round_draws(rnd, 4) or ()
    assert drawn.replacement and drawn.event == 3
    kept = counts_from_mpsz("1111m19s1237z")  # the hand after the kan of 5p
    assert (drawn.shanten, drawn.effective_kinds) == effective_kinds(tuple(kept))
    # read without the named tiles, the walk would take the first kind held four times
    unnamed = replace(rnd, events=(events[0], replace(named, taken=()), events[2]))
    (guessed,) = round_draws(unnamed, 4) or ()
    wrong = counts_from_mpsz("5555p19s1237z")
    assert effective_kinds(tuple(wrong)) != effective_kinds(tuple(kept))
    assert (guessed.shanten, guessed.effective_kinds) == effective_kinds(tuple(wrong))


def test_a_riichi_city_closed_kan_named_only_by_card_takes_that_kind() -> None:
    """Issue 43, finding 6: the same round as a Riichi City record whose closed kan names
    only its ``card`` (5p; no ``group_cards``): the call takes four 5p, and the replacement
    draw is tested on the hand with 5p gone (1111m19s1237z: effective 2m 3m ...), not as
    if the first quad held (1m) had gone (effective 3p 4p 6p 7p ...)."""
    import json

    from pywall.formats import parse_record
    from tests.unit.test_riichicity import int_code

    record = riichi_city_record([kan_round()])
    kans = [e for r in rounds_of(record) for e in r if e.get("action") == 8]
    assert kans == [{"action": 8, "card": int_code("5p"), "user_id": 1000}]  # by card only
    (rnd,) = parse_record(json.dumps(record).encode()).rounds
    (kan,) = [e for e in rnd.events if isinstance(e, Call)]
    assert kan.kind is MeldKind.CLOSED_KAN and [t // 4 for t in kan.taken] == [FIVE_P] * 4
    (drawn,) = round_draws(rnd, 4) or ()
    assert drawn.replacement
    kept = effective_kinds(tuple(counts_from_mpsz("1111m19s1237z")))
    assert (drawn.shanten, drawn.effective_kinds) == kept

    def kinds(mask: int) -> set[int]:
        return {k for k in range(34) if mask >> k & 1}

    assert {1, 2} <= kinds(kept[1]) and not {11, 12, 14, 15} & kinds(kept[1])  # 2m 3m
    first_quad_gone = effective_kinds(tuple(counts_from_mpsz("5555p19s1237z")))
    assert {11, 12, 14, 15} <= kinds(first_quad_gone[1])  # 3p 4p 6p 7p: the old reading


@pytest.mark.parametrize(
    "path",
    [
        DATA / "riichicity" / "4ma_gin_han_sample.json",
        DATA / "tenhou" / "gimite" / "test.mjlog",
    ],
    ids=["riichicity", "tenhou"],
)
def test_kans_of_real_records_take_the_kind_named(path: object) -> None:
    """Every closed and added kan of a real record takes the kind it names: its tiles
    are of that kind and the round is followed to its end."""
    game = game_of(path)  # type: ignore[arg-type]
    kans = [
        (rnd, e)
        for rnd in game.rounds
        for e in rnd.events
        if isinstance(e, Call) and e.kind in (MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN)
    ]
    assert kans
    for rnd, kan in kans:
        assert len({t // 4 for t in kan.taken}) == 1
        assert round_draws(rnd, game.player_count) is not None


# --- the same rounds as a Riichi City record (benchmarks/bench_hostile.py's walk row) ---------

_SUITS = "mpsz"


def _code(kind: int) -> str:
    return f"{kind % 9 + 1}{_SUITS[kind // 9]}"


#: A call's Riichi City ``action`` code by kind (pywall.formats.riichicity).
_ACTIONS = {MeldKind.CHI: 2, MeldKind.CLOSED_KAN: 8}


def rounds_of(record: dict[str, object]) -> list[list[dict[str, object]]]:
    """Each round's action events' data, as ``riichi_city_record`` wrote them."""
    import json

    data = record["data"]
    assert isinstance(data, dict)
    return [
        [json.loads(e["data"]) for e in r["handEventRecord"] if e["eventType"] == 4]
        for r in data["handRecord"]
    ]


def choice_record(rounds: int, misfit: bool) -> dict[str, object]:
    """``choice_game`` as a Riichi City record whose walls are stated (each round's wall
    holds its deal, draws and dora indicator where the ``front`` layout puts them, and its
    SHA-256): a record that verifies, with eight open three-way chis a round."""
    return riichi_city_record([choice_round(i, misfit) for i in range(rounds)])


def riichi_city_record(rounds: list[Round]) -> dict[str, object]:
    """4-player rounds as a Riichi City record, each wall stated as ``choice_record`` says;
    a call names only its ``card`` (no ``group_cards``)."""
    import hashlib
    import json

    from pywall.core.layout import WallScheme, layout_for
    from tests.unit.test_riichicity import int_code

    layout = layout_for(WallScheme.FRONT, 4)
    users = [{"user_id": 1000 + s, "hand_points": 25000} for s in range(4)]
    out = []
    for i, rnd in enumerate(rounds):
        wall: list[int | None] = [None] * 136
        for seat, positions in enumerate(layout.deal_by_seat(rnd.dealer)):
            for p, t in zip(positions, rnd.hands[seat], strict=True):
                wall[p] = t // 4
        draws = [e for e in rnd.events if isinstance(e, Draw)]
        for p, drawn in zip(layout.live, draws, strict=False):
            wall[p] = drawn.tile // 4
        wall[layout.dora[0]] = rnd.dora_indicator // 4
        left = [4] * 34
        for k in wall:
            if k is not None:
                left[k] -= 1
        spare = iter(k for k in range(34) for _ in range(left[k]))
        kinds = [k if k is not None else next(spare) for k in wall]
        encode = "".join(_code(k) for k in kinds)
        digest = hashlib.sha256(encode.encode()).hexdigest()
        events: list[dict[str, object]] = []
        for seat in range(4):
            hand = [int_code(_code(t // 4)) for t in rnd.hands[seat]]
            if seat == rnd.dealer:
                hand.append(int_code(_code(draws[0].tile // 4)))
            start = {
                "hand_cards": hand, "dealer_pos": rnd.dealer, "dices": [1, 1],
                "bao_pai_card": int_code(_code(rnd.dora_indicator // 4)), "quan_feng": 49,
                "chang_ci": 1, "ben_chang_num": i, "li_zhi_bang_num": 0,
                "user_info_list": users, "hand_cards_sha_256": digest,
            }  # fmt: skip
            events.append({"eventType": 1, "userId": 1000 + seat, "data": json.dumps(start)})
        for e in rnd.events[1:]:
            if isinstance(e, Draw):
                turn = {"in_card": int_code(_code(e.tile // 4)), "is_gang_incard": False}
                events.append({"eventType": 2, "userId": 1000 + e.seat, "data": json.dumps(turn)})
            elif isinstance(e, (Discard, Call)):
                action = 11 if isinstance(e, Discard) else _ACTIONS[e.kind]
                card = e.tile if isinstance(e, Discard) else e.code
                act = {
                    "action": action,
                    "card": int_code(_code(card // 4)),
                    "user_id": 1000 + e.seat,
                }
                events.append({"eventType": 4, "userId": 1000 + e.seat, "data": json.dumps(act)})
        events.append({"eventType": 5, "userId": 1000, "data": json.dumps({"end_type": 7})})
        out.append(
            {"handCardEncode": encode, "handCardsSHA256": digest, "handEventRecord": events,
             "players": [{"nickname": f"p{s}", "position": s, "userId": 1000 + s} for s in range(4)]}
        )  # fmt: skip
    return {"code": 0, "data": {"playerCount": 4, "keyValue": "choice", "handRecord": out}}


def test_the_rounds_as_a_riichi_city_record_verify_and_walk_as_generated() -> None:
    import json

    from pywall.checks.verify import verify_game
    from pywall.formats import parse_record

    for misfit in (False, True):
        game = parse_record(json.dumps(choice_record(2, misfit)).encode())
        assert verify_game(game).status == "verified"
        summary = game_draws(game)
        assert summary.skipped_rounds == (2 if misfit else 0)
        if not misfit:
            assert sum(s.effective.n for s in summary.seats) == 16


def test_the_audit_counts_the_rounds_the_walk_left_out_and_says_why(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A round left out of the draw tests is counted in the audit's JSON and named in its
    text, with its reason, not passed off as a game that ended before any draw."""
    import json
    from pathlib import Path

    from pywall.cli import main

    folder = Path(str(tmp_path))
    (folder / "misfit.json").write_text(json.dumps(choice_record(3, misfit=True)))
    (folder / "fits.json").write_text(json.dumps(choice_record(2, misfit=False)))

    def audit(*args: str) -> str:
        """`pywall audit ARGS FOLDER`'s output (run in this process)."""
        capsys.readouterr()
        code = main(["audit", *args, str(folder)])
        printed = capsys.readouterr()
        assert code == 0, printed.err
        return printed.out

    games = json.loads(audit("--json"))["games"]
    assert games["skipped_rounds"] == 3 and games["skipped_round_reasons"] == {"no_fit": 3}
    assert games["draws"] == 16  # the two rounds that fit are tested
    text = audit()
    assert "3 rounds left out of the draw tests (3: their calls and discards fit no hand" in text
    assert "the games end before any draw" not in text
