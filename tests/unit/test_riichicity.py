"""Riichi City records (pywall.formats.riichicity) read as games and verified tile by tile.

Real records (tests/data/riichicity, SOURCES.md): a 4-player game of 12 rounds with
kans, a 3-player game of 9 rounds with Norths, and a 3-player game whose rule has two
red 5p and two red 5s. Tampering edits the record's JSON (events carry their data as
JSON text) and, where a forger would, recomputes the unsalted SHA-256 in the round
and in every player's start event.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.analysis.draws import game_draws, round_draws
from pywall.checks.verify import GameResult, verify_game
from pywall.core.errors import LogFormatError, PywallError
from pywall.core.model import Call, Draw, MeldKind, Platform
from pywall.core.tiles import face_from_code
from pywall.formats import parse_record
from pywall.formats.riichicity import parse, tile
from tests.helpers import DATA
from tests.unit.test_majsoul_record import codes, errors, json_values

RC = DATA / "riichicity"
FOUR = RC / "4ma_gin_han_sample.json"
THREE = RC / "cnrkj069nc7ajnvadk30.json"
RED_RULE = RC / "gameDataSample.json"
Record = dict[str, Any]


def load(path: Any) -> Record:
    result: Record = json.loads(path.read_text(encoding="utf-8"))
    return result


def check(record: Record) -> GameResult:
    return verify_game(parse_record(json.dumps(record, ensure_ascii=False).encode()))


def rounds(record: Record) -> list[Record]:
    found: list[Record] = record["data"]["handRecord"]
    return found


def edit(rnd: Record, kind: int, change: Callable[[Record], bool]) -> int:
    """Apply ``change`` to the data of each event of ``kind`` until it returns True;
    how many events it changed."""
    changed = 0
    for event in rnd["handEventRecord"]:
        if event["eventType"] != kind:
            continue
        data = json.loads(event["data"])
        if change(data):
            event["data"] = json.dumps(data)
            changed += 1
    return changed


def restate(rnd: Record, copy: bool = True) -> None:
    """Redo what a forger of the wall must: the round's digest, every start's digest and
    (unless ``copy`` is False) the ``paiShan`` copy of the undealt wall."""
    digest = hashlib.sha256(rnd["handCardEncode"].encode()).hexdigest()
    rnd["handCardsSHA256"] = digest

    def start(d: Record) -> bool:
        d["hand_cards_sha_256"] = digest
        return True

    edit(rnd, 1, start)
    if copy:
        s = rnd["handCardEncode"]
        dealt = 13 * len(rnd["players"]) + 1
        rnd["paiShan"] = [int_code(s[k : k + 2]) for k in range(2 * dealt, len(s), 2)]


def int_code(code: str) -> int:
    """A 2-character tile code as Riichi City's tile int (``0p`` -> 0x105, ``1z`` -> 0x31)."""
    digit, suit = int(code[0]), code[1]
    if suit == "z":
        return (digit + 2) << 4 | 1
    high = "psm".index(suit) << 4
    return 0x100 | high | 5 if digit == 0 else high | digit


def swap(rnd: Record, i: int, j: int) -> None:
    s = rnd["handCardEncode"]
    tiles = [s[k : k + 2] for k in range(0, len(s), 2)]
    assert tiles[i] != tiles[j], "swap two different tiles"
    tiles[i], tiles[j] = tiles[j], tiles[i]
    rnd["handCardEncode"] = "".join(tiles)


def other(code: int) -> int:
    return 0x31 if code != 0x31 else 0x41  # East, else South


@pytest.mark.parametrize(
    ("path", "players", "checked", "digests"),
    [(FOUR, 4, 1274, 60), (THREE, 3, 679, 36), (RED_RULE, 3, 248, 12)],
    ids=["4p-kans", "3p-norths", "3p-two-red-fives"],
)
def test_every_fixture_verifies_every_tile(
    path: Any, players: int, checked: int, digests: int
) -> None:
    game = parse(path.read_bytes())
    assert game.platform is Platform.RIICHICITY and game.player_count == players
    result = verify_game(game)
    assert result.status == "verified" and not errors(result)
    assert result.checked == checked
    assert codes(result) == Counter({"sha256_match": digests})  # the round's and each start's


def test_game_fields_and_replacements() -> None:
    game = parse(FOUR.read_bytes())
    assert game.game_id == "co22hduai0897qt1uocg" and game.names[1] == "辛苦了你了"
    assert game.date == "2024-03-27T17:29:01+00:00"
    assert [r.label for r in game.rounds][-2:] == ["South 1, 0 honba", "South 2, 0 honba"]
    first = game.rounds[0]
    assert first.dealer == 0 and first.dice == (1, 3) and all(len(h) == 13 for h in first.hands)
    whats = Counter(row[1] for r in verify_game(game).rounds for row in r.rows)
    assert whats["replacement"] == 2 and whats["dora"] == 12 + 2  # two kan dora in South 2
    norths = Counter(
        row[1] for r in verify_game(parse(THREE.read_bytes())).rounds for row in r.rows
    )
    assert norths["replacement"] == 20


def listed(rnd: Record) -> tuple[int, list[Any], dict[Any, Any]]:
    """A round's start as the record lists it: dealer_pos, user ids in list order, and each
    user's dealt tiles."""
    starts = [(e["userId"], json.loads(e["data"])) for e in rnd["handEventRecord"]]
    starts = [(u, d) for (u, d), e in zip(starts, rnd["handEventRecord"]) if e["eventType"] == 1]
    first = starts[0][1]
    users = [u["user_id"] for u in first["user_info_list"]]
    return first["dealer_pos"], users, {u: d["hand_cards"] for u, d in starts}


@pytest.mark.parametrize(("path", "first_dealer"), [(FOUR, 3), (THREE, 1), (RED_RULE, 0)])
def test_seat_0_is_east_of_the_first_round_whoever_is_listed_first(
    path: Any, first_dealer: int
) -> None:
    """Seats as in every record (seat 0 = East of the first round): the list's order is
    not the table's. In the 4-player record the first dealer is listed fourth, in the
    3-player one second; every seat's hand, name, score and draws follow the player."""
    record = load(path)
    game = parse(path.read_bytes())
    players = game.player_count
    position, users, dealt = listed(rounds(record)[0])
    assert position == first_dealer and game.rounds[0].dealer == 0
    names = {p["userId"]: p["nickname"] for p in rounds(record)[0]["players"]}
    for seat in range(players):
        user = users[(seat + first_dealer) % players]
        assert game.names[seat] == names[user]
        assert game.rounds[0].hands[seat] == tile_faces(dealt[user][:13])
    for rnd, raw in zip(game.rounds, rounds(record), strict=True):
        position, users, _ = listed(raw)
        assert rnd.dealer == (position - first_dealer) % players == rnd.number % 4
        drawers = [
            (users.index(e["userId"]) - first_dealer) % players
            for e in raw["handEventRecord"]
            if e["eventType"] == 2 and json.loads(e["data"]).get("in_card")
        ]
        seats = [e.seat for e in rnd.events if isinstance(e, Draw)]
        assert drawers and seats[-len(drawers) :] == drawers  # (the dealer's 14th first)
    summary = game_draws(replace(game, rounds=game.rounds[:1]))
    assert (0, True) in {(s.seat, s.dealer) for s in summary.seats}


def tile_faces(codes: list[int]) -> tuple[int, ...]:
    return tuple(tile(c, "here") for c in codes)


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0x105, "0p"),
        (0x115, "0s"),
        (0x125, "0m"),
        (0x15, "5s"),
        (0x29, "9m"),
        (0x31, "1z"),
        (0x91, "7z"),
    ],
)
def test_tile_codes(code: int, text: str) -> None:
    assert tile(code, "here") == face_from_code(text)


@pytest.mark.parametrize("code", [0, 0x30, 0x32, 0xA1, 0x101, 0x131, 0x200, -1])
def test_bad_tile_codes(code: int) -> None:
    with pytest.raises(LogFormatError):
        tile(code, "here")


# --- tampering, 4 and 3 players -----------------------------------------------------------


@pytest.fixture(params=[FOUR, THREE], ids=["4p", "3p"])
def record(request: pytest.FixtureRequest) -> Record:
    return load(request.param)


def test_altered_draw_is_caught_in_its_round(record: Record) -> None:
    def first_draw(d: Record) -> bool:
        if d.get("in_card") and not d["is_gang_incard"] and not first_draw.done:  # type: ignore[attr-defined]
            d["in_card"] = other(d["in_card"])
            first_draw.done = True  # type: ignore[attr-defined]
            return True
        return False

    first_draw.done = False  # type: ignore[attr-defined]
    assert edit(rounds(record)[2], 2, first_draw) == 1
    assert errors(check(record)) == [("draw_mismatch", 2)]


def test_altered_dealt_tile_is_caught(record: Record) -> None:
    rnd = rounds(record)[1]
    seen: list[int] = []

    def first_start(d: Record) -> bool:
        if seen:
            return False
        d["hand_cards"][0] = other(d["hand_cards"][0])
        seen.append(1)
        return True

    edit(rnd, 1, first_start)
    assert errors(check(record)) == [("deal_mismatch", 1)]


def test_altered_indicator_is_caught(record: Record) -> None:
    def indicator(d: Record) -> bool:
        d["bao_pai_card"] = other(d["bao_pai_card"])
        return True

    edit(rounds(record)[3], 1, indicator)
    assert errors(check(record)) == [("dora_mismatch", 3)]


def test_altered_replacement_draw_is_caught(record: Record) -> None:
    index = next(i for i, r in enumerate(rounds(record))
                 if any('"is_gang_incard":true' in e["data"] for e in r["handEventRecord"]))  # fmt: skip
    done: list[int] = []

    def replacement(d: Record) -> bool:
        if d.get("is_gang_incard") and not done:
            d["in_card"] = other(d["in_card"])
            done.append(1)
            return True
        return False

    edit(rounds(record)[index], 2, replacement)
    assert errors(check(record)) == [("replacement_mismatch", index)]


def test_altered_ura_and_kan_dora_are_caught() -> None:
    record = load(FOUR)
    last = rounds(record)[11]

    def kan_dora(d: Record) -> bool:
        d["cards"][0] = other(d["cards"][0])
        return True

    assert edit(last, 7, kan_dora) == 2  # the list is cumulative: both copies agree
    assert errors(check(record)) == [("dora_mismatch", 11)]
    record = load(FOUR)

    def ura(d: Record) -> bool:
        for w in d.get("win_info") or []:
            if w.get("li_bao_card"):
                w["li_bao_card"] = [other(w["li_bao_card"][0])]
                return True
        return False

    assert edit(rounds(record)[0], 5, ura) == 1
    assert errors(check(record)) == [("ura_mismatch", 0)]


def test_swap_with_the_hash_left_fails_every_copy_of_the_hash(record: Record) -> None:
    rnd = rounds(record)[0]
    swap(rnd, 0, 4)  # the dealer's first tile and the next seat's first tile
    players = len(rnd["players"])
    assert Counter(errors(check(record))) == Counter(
        {("hash_mismatch", 0): 1 + players, ("deal_mismatch", 0): 2}
    )


def test_swap_with_the_hash_recomputed_is_caught_by_position(record: Record) -> None:
    rnd = rounds(record)[0]
    swap(rnd, 0, 4)
    restate(rnd)
    assert errors(check(record)) == [("deal_mismatch", 0), ("deal_mismatch", 0)]


def hidden_swap(record: Record) -> tuple[int, int]:
    """Two wall positions of round 1 that never show (not dealt, drawn or an indicator),
    holding tiles of different kinds."""
    game = parse_record(json.dumps(record))
    result = verify_game(game).rounds[0]
    shown = {row[0] for row in result.rows}
    n = len(result.wall)
    hidden = [p for p in range(13 * game.player_count + 1, n) if p not in shown and p not in result.layout.dora
              and p not in result.layout.ura]  # fmt: skip
    return next(
        (a, b) for a in hidden for b in hidden if result.wall[a] // 4 != result.wall[b] // 4
    )


def test_swap_of_never_revealed_tiles_with_the_hash_recomputed_verifies(record: Record) -> None:
    """Nobody can detect this: tiles past the last live draw of the round and not an
    indicator never show; swapped, with every digest and the paiShan copy redone, the
    round verifies."""
    swap(rounds(record)[0], *hidden_swap(record))
    restate(rounds(record)[0])
    assert check(record).status == "verified"


def test_never_revealed_swap_with_the_paishan_copy_left_is_caught(record: Record) -> None:
    """The digests redone but not ``paiShan``: the record's two walls disagree."""
    i, j = hidden_swap(record)
    swap(rounds(record)[0], i, j)
    restate(rounds(record)[0], copy=False)
    result = check(record)
    assert errors(result) == [("wall_copy_mismatch", 0)]
    (found,) = [f for f in result.findings if f.code == "wall_copy_mismatch"]
    players = len(rounds(record)[0]["players"])
    assert found.data["differences"] == 2
    assert found.data["index"] == min(i, j) - (13 * players + 1)
    assert found.data["position"] == min(i, j)


def test_the_fixtures_paishan_is_the_undealt_wall(record: Record) -> None:
    """``paiShan`` = handCardEncode[13n+1:] in every round (what ``restate`` rebuilds)."""
    for rnd in rounds(record):
        before = list(rnd["paiShan"])
        restate(rnd)
        assert rnd["paiShan"] == before


@pytest.mark.parametrize(
    "change",
    [
        lambda copy: copy.__setitem__(0, other(copy[0])),
        lambda copy: copy.__setitem__(-1, other(copy[-1])),
        lambda copy: copy.pop(),
        lambda copy: copy.append(0x31),
    ],
    ids=["first-tile", "last-tile", "one-short", "one-more"],
)
def test_altered_paishan_copy_is_caught(record: Record, change: Callable[[list[int]], Any]) -> None:
    change(rounds(record)[4]["paiShan"])
    assert errors(check(record)) == [("wall_copy_mismatch", 4)]


def test_a_round_without_paishan_verifies() -> None:
    record = load(RED_RULE)
    for rnd in rounds(record):
        del rnd["paiShan"]
    assert check(record).status == "verified"


def test_a_paishan_that_is_not_tiles_is_a_format_error() -> None:
    record = load(RED_RULE)
    rounds(record)[1]["paiShan"] = [0x31, "x"]
    with pytest.raises(LogFormatError, match="round 2, paiShan"):
        check(record)


# --- properties ------------------------------------------------------------------------------


def small_record() -> Record:
    record = load(RED_RULE)
    rounds(record)[:] = rounds(record)[:1]
    return record


@given(st.binary(max_size=300))
def test_any_bytes_give_a_game_or_a_pywall_error(data: bytes) -> None:
    try:
        verify_game(parse(data))
    except PywallError:
        pass


@given(json_values)
@settings(max_examples=200)
def test_any_json_gives_a_game_or_a_pywall_error(value: Any) -> None:
    for document in (
        value,
        {"code": 0, "data": {"handRecord": value}},
        {"data": {"handRecord": [value]}},
    ):
        try:
            verify_game(parse(json.dumps(document)))
        except PywallError:
            pass


SMALL = small_record()
EVENT_COUNT = len(rounds(SMALL)[0]["handEventRecord"])


@given(
    st.integers(0, EVENT_COUNT - 1), st.sampled_from(["eventType", "data", "userId"]), json_values
)
@settings(max_examples=200)
def test_a_real_record_with_an_event_replaced_gives_a_game_or_a_pywall_error(
    index: int, key: str, value: Any
) -> None:
    record = json.loads(json.dumps(SMALL))
    event = rounds(record)[0]["handEventRecord"][index]
    event[key] = json.dumps(value) if key == "data" and not isinstance(value, str) else value
    try:
        verify_game(parse(json.dumps(record)))
    except PywallError:
        pass


@pytest.mark.parametrize("path", [FOUR, THREE, RED_RULE], ids=["4p", "3p", "3p-red"])
def test_calls_take_the_tiles_group_cards_names(path: Any) -> None:
    """A call's ``group_cards`` are the hand's tiles it takes (a closed kan's fourth is its
    ``card``; an added kan names only ``card``); a record without them leaves the walk to
    find them (a closed kan takes four of its ``card``), and the walk's draws are then the
    same on these real games."""
    record = load(path)
    game = parse(path.read_bytes())
    raw = [
        json.loads(e["data"])
        for r in rounds(record)
        for e in r["handEventRecord"]
        if e["eventType"] == 4 and json.loads(e["data"]).get("action") in (2, 3, 4, 5, 8, 9)
    ]
    calls = [e for r in game.rounds for e in r.events if isinstance(e, Call)]
    calls = [c for c in calls if c.kind is not MeldKind.NUKI]
    assert len(raw) == len(calls)
    for d, call in zip(raw, calls, strict=True):
        if d["action"] == 9:
            assert call.taken == (tile(d["card"], "card"),)
            continue
        named = tuple(tile(c, "group_cards") for c in d["group_cards"])
        assert call.taken == (named + (tile(d["card"], "card"),) if d["action"] == 8 else named)

    def without(d: Record) -> bool:
        if d.get("group_cards") is None:
            return False
        d["group_cards"] = None
        return True

    for r in rounds(record):
        edit(r, 4, without)
    bare = parse(json.dumps(record).encode())
    bare_calls = [e for r in bare.rounds for e in r.events if isinstance(e, Call)]
    assert not [
        e for e in bare_calls if e.taken and e.kind not in (MeldKind.ADDED_KAN, MeldKind.CLOSED_KAN)
    ]
    # a closed kan's ``card`` names its kind: it takes four of it (issue 43, finding 6)
    closed = [e for e in bare_calls if e.kind is MeldKind.CLOSED_KAN]
    assert all(e.taken == (e.code,) * 4 for e in closed)
    for named_round, bare_round in zip(game.rounds, bare.rounds, strict=True):
        assert round_draws(bare_round, game.player_count) == round_draws(
            named_round, game.player_count
        )
