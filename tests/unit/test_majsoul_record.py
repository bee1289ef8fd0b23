"""Mahjong Soul records read as games (pywall.formats.majsoul) and verified tile by tile.

Real records: the 2021 export (MD5 era: 83 undealt tiles per round) and RiichiEnv's
2024 round (SHA-256 era: the whole 136-tile wall; its extractor dropped the hash
fields, so the tests add a salt and the digests as the game states them). No real
record with a kan, a North or 3 players was obtainable (FACTS-platforms.md D1), so
those are built here from a wall by the positions FACTS states (A2-A6), written out
as numbers rather than asked of pywall.core.layout.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks.verify import GameResult, verify_game
from pywall.core.errors import PywallError
from pywall.core.model import Draw, Platform
from pywall.core.tiles import face_from_code
from pywall.formats import parse_record
from pywall.formats.majsoul import parse
from tests.helpers import DATA

MS = DATA / "majsoul"
MD5_RECORD = MS / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
SHA_ROUND = MS / "riichienv_mjsoul_corpus_validation.json"
SALT = "7e3a9b1c-salt"
Record = dict[str, Any]


def load(path: Any) -> Record:
    result: Record = json.loads(path.read_text(encoding="utf-8"))
    return result


def check(record: Record) -> GameResult:
    return verify_game(parse_record(json.dumps(record).encode()))


def errors(result: GameResult) -> list[tuple[str, int | None]]:
    return [(f.code, f.round) for f in result.findings if f.severity.value == "error"]


def codes(result: GameResult) -> Counter[str]:
    return Counter(f.code for f in result.findings)


# --- the two real records, and their shapes -----------------------------------------------


def md5_record() -> Record:
    return load(MD5_RECORD)


def md5_events(record: Record) -> list[Record]:
    """Each tile event's ``{name, data}`` (the export's ``actions[i].result``)."""
    return [a["result"] for a in record["data"]["data"]["actions"] if "result" in a]


def sha_record() -> Record:
    """RiichiEnv's round with a salt and the digests the game would state."""
    record = load(SHA_ROUND)
    restate(record["events"][0]["data"])
    return record


def restate(new_round: Record) -> None:
    """Recompute the round's digests from its paishan (what a forger would do)."""
    paishan = new_round["paishan"]
    if len(paishan) // 2 in (83, 68):
        new_round["md5"] = hashlib.md5(paishan.encode()).hexdigest()
        return
    new_round["salt"] = new_round.get("salt", SALT)
    new_round["sha256"] = hashlib.sha256((paishan + new_round["salt"]).encode()).hexdigest()
    new_round["saltSha256"] = hashlib.sha256(new_round["salt"].encode()).hexdigest()


def test_md5_era_record_verifies_every_tile() -> None:
    game = parse(MD5_RECORD.read_bytes())
    assert game.platform is Platform.MAJSOUL and game.player_count == 4
    assert game.game_id == "210815-6da08e40-2605-42fb-a5e3-f8aa5940362a"
    assert game.names[0] == "六文そば新橋店" and game.rule == "4-player, East-South"
    assert game.date == "2021-08-15T14:51:03+00:00"
    assert [r.label for r in game.rounds][:2] == ["East 1, 0 honba", "East 2, 0 honba"]
    assert all(r.wall_scheme == "undealt" and len(r.wall or ()) == 83 for r in game.rounds)
    assert len(game.rounds[0].hands[0]) == 14  # the dealer's 14 tiles: no deal in the wall
    result = verify_game(game)
    assert result.status == "verified" and not errors(result)
    assert result.checked == 400  # 379 draws, 17 dora and 4 ura indicators (deal not positional)
    assert codes(result) == Counter({"md5_match": 9, "deal_not_committed": 9})


def test_sha256_era_round_verifies_every_tile() -> None:
    game = parse(json.dumps(sha_record()))
    (rnd,) = game.rounds
    assert rnd.wall_scheme == "front" and len(rnd.wall or ()) == 136
    assert rnd.wall is not None
    assert rnd.events[0] == Draw(0, rnd.wall[52])  # the dealer's 14th tile is wall[13n]
    result = verify_game(game)
    assert result.status == "verified" and result.checked == 76  # 52 dealt, 22 draws, 2 dora
    assert codes(result) == Counter({"sha256_match": 1, "salt_hash_match": 1})


def test_round_without_digests_verifies_with_a_warning() -> None:
    result = verify_game(parse(SHA_ROUND.read_bytes()))
    assert result.status == "verified" and result.checked == 76
    (warning,) = [f for f in result.findings if f.code == "no_hash"]
    assert warning.severity.value == "warning" and "East 1" in warning.message


@pytest.mark.parametrize(
    ("drop", "unchecked"),
    [
        (("salt",), ["sha256", "saltSha256"]),
        (("salt", "saltSha256"), ["sha256"]),
        (("salt", "sha256"), ["saltSha256"]),  # and no digest of the wall at all: no_hash too
    ],
    ids=["salt", "salt-and-saltSha256", "salt-and-sha256"],
)
def test_digests_without_their_salt_say_salt_missing(
    drop: tuple[str, ...], unchecked: list[str]
) -> None:
    """Exports decoded with protos older than 2025 may drop ``salt`` (FACTS A1): the
    round states a digest it gives no means to check; that is ``salt_missing``, a
    warning, not ``no_hash`` (a digest of the wall is stated) and not a mismatch."""
    record = sha_record()
    for key in drop:
        del record["events"][0]["data"][key]
    result = check(record)
    assert result.status == "verified" and result.checked == 76
    (warning,) = [f for f in result.findings if f.code == "salt_missing"]
    assert warning.severity.value == "warning" and warning.round == 0
    assert warning.data["names"] == unchecked
    assert ("no_hash" in codes(result)) == ("sha256" in drop)
    assert [h.name for h in result.rounds[0].hashes or () if h.match is None] == unchecked


def test_md5_with_a_sha256_but_no_salt_checks_the_md5() -> None:
    record = md5_record()
    md5_events(record)[0]["data"]["sha256"] = "ab" * 32
    result = check(record)
    assert codes(result)["salt_missing"] == 1 and codes(result)["md5_match"] == 9
    assert result.status == "verified"


def test_version_0_records_and_names_with_or_without_prefixes() -> None:
    record = md5_record()
    events = [
        {"name": e["name"].removeprefix(".lq."), "data": e["data"]} for e in md5_events(record)
    ]
    version0 = {
        "head": record["head"],
        "data": {"name": "GameDetailRecords", "data": {"version": 0, "records": events}},
    }
    assert verify_game(parse(json.dumps(version0))).checked == 400
    bare = {
        "events": [{"name": e["name"].removeprefix("Record"), "data": e["data"]} for e in events]
    }
    game = parse(json.dumps(bare))
    assert game.names == ("", "", "", "") and game.game_id is None
    assert verify_game(game).checked == 400


def test_mismatch_names_round_seat_and_both_tiles() -> None:
    record = md5_record()
    draw = [e for e in md5_events(record) if e["name"].endswith("DealTile")][3]  # East 1, seat 0
    draw["data"]["tile"] = "7z" if draw["data"]["tile"] != "7z" else "6z"
    (finding,) = [f for f in check(record).findings if f.severity.value == "error"]
    assert finding.code == "draw_mismatch" and finding.round == 0
    assert finding.message.startswith("East 1, 0 honba: draw 4 of the round (seat 0")
    assert "7z in the log, 3s in the wall" in finding.message
    # seat 0 deals: its 14th tile was turn 1 (in the hand, MD5 era), this draw turn 2
    assert finding.data["turn"] == 2 and finding.data["seat"] == 0 and finding.data["k"] == 4


# --- tampering, MD5 era (the real 2021 record) ----------------------------------------------


def new_rounds(record: Record) -> list[Record]:
    return [e["data"] for e in md5_events(record) if e["name"].endswith("NewRound")]


def other(code: str) -> str:
    return "1z" if code != "1z" else "2z"


def swap(paishan: str, i: int, j: int) -> str:
    tiles = [paishan[k : k + 2] for k in range(0, len(paishan), 2)]
    assert tiles[i] != tiles[j], "swap two different tiles"
    tiles[i], tiles[j] = tiles[j], tiles[i]
    return "".join(tiles)


def test_md5_altered_draw_is_caught_in_its_round() -> None:
    record = md5_record()
    events = md5_events(record)
    starts = [i for i, e in enumerate(events) if e["name"].endswith("NewRound")]
    draw = next(e for e in events[starts[2] :] if e["name"].endswith("DealTile"))
    draw["data"]["tile"] = other(draw["data"]["tile"])
    assert errors(check(record)) == [("draw_mismatch", 2)]


def test_md5_altered_dealt_tile_breaks_the_tile_set() -> None:
    record = md5_record()
    hand = new_rounds(record)[4]["tiles1"]
    hand[0] = other(hand[0])
    assert errors(check(record)) == [("wall_composition", 4)]


def test_md5_deal_swapped_between_hands_is_outside_the_hash() -> None:
    """FACTS C: in the MD5 era the deal is not committed; a swap between two hands keeps
    the tile set, the hash and every position. Only a replay of the hand could see it."""
    record = md5_record()
    rnd = new_rounds(record)[1]
    a, b = rnd["tiles1"], rnd["tiles2"]
    i, j = next((i, j) for i in range(13) for j in range(13) if a[i] != b[j])
    a[i], b[j] = b[j], a[i]
    result = check(record)
    assert result.status == "verified"
    assert codes(result)["deal_not_committed"] == 9


def test_md5_altered_indicator_is_caught() -> None:
    record = md5_record()
    new_rounds(record)[3]["doras"] = [other(new_rounds(record)[3]["doras"][0])]
    assert errors(check(record)) == [("dora_mismatch", 3)]


def test_md5_swap_with_the_hash_left_fails_the_hash() -> None:
    record = md5_record()
    rnd = new_rounds(record)[0]
    rnd["paishan"] = swap(rnd["paishan"], 0, 1)  # the first two draws
    assert Counter(errors(check(record))) == Counter(
        {("md5_mismatch", 0): 1, ("draw_mismatch", 0): 2}
    )


def test_md5_swap_with_the_hash_recomputed_is_caught_where_revealed() -> None:
    record = md5_record()
    rnd = new_rounds(record)[0]
    rnd["paishan"] = swap(rnd["paishan"], 0, 1)
    restate(rnd)
    assert errors(check(record)) == [("draw_mismatch", 0), ("draw_mismatch", 0)]


def test_md5_swap_of_never_revealed_tiles_with_the_hash_recomputed_verifies() -> None:
    """Nobody can detect this: East 1 draws 29 tiles, so positions 40 and 41 of its
    83 never show, and the recomputed hash matches. It must verify (so nobody believes
    pywall catches it)."""
    record = md5_record()
    rnd = new_rounds(record)[0]
    rnd["paishan"] = swap(rnd["paishan"], 40, 42)
    restate(rnd)
    assert check(record).status == "verified"


# --- tampering, SHA-256 era (RiichiEnv's real round, digests as the game states them) ------


def sha_events(record: Record) -> list[Record]:
    events: list[Record] = record["events"]
    return events


def test_sha_altered_draw_and_dealt_tile_and_indicator() -> None:
    record = sha_record()
    next(e for e in sha_events(record) if e["name"] == "DealTile")["data"]["tile"] = "7z"
    assert errors(check(record)) == [("draw_mismatch", 0)]
    record = sha_record()
    hand = sha_events(record)[0]["data"]["tiles2"]
    hand[5] = other(hand[5])
    assert errors(check(record)) == [("deal_mismatch", 0)]  # the wall itself is intact
    record = sha_record()
    sha_events(record)[0]["data"]["doras"] = ["1z"]  # a consistent forgery: the round and its win
    sha_events(record)[-1]["data"]["hules"][0]["doras"] = ["1z"]
    assert Counter(errors(check(record))) == Counter({("dora_mismatch", 0): 2})


def test_sha_swap_with_the_hash_left_fails_the_hash() -> None:
    record = sha_record()
    rnd = sha_events(record)[0]["data"]
    rnd["paishan"] = swap(rnd["paishan"], 0, 4)  # seat 0's first tile, seat 1's first tile
    assert Counter(errors(check(record))) == Counter(
        {("hash_mismatch", 0): 1, ("deal_mismatch", 0): 2}
    )


def test_sha_swap_with_the_hash_recomputed_is_caught_by_the_deal() -> None:
    record = sha_record()
    rnd = sha_events(record)[0]["data"]
    rnd["paishan"] = swap(rnd["paishan"], 0, 4)
    restate(rnd)
    assert errors(check(record)) == [("deal_mismatch", 0), ("deal_mismatch", 0)]


def test_sha_swap_of_never_revealed_tiles_with_the_hash_recomputed_verifies() -> None:
    """22 live draws after the deal: wall[53 + 22 ...] never shows; nor do the dead
    wall's unrevealed tiles. Swapped and rehashed, the round verifies: undetectable."""
    record = sha_record()
    rnd = sha_events(record)[0]["data"]
    rnd["paishan"] = swap(rnd["paishan"], 100, 101)
    restate(rnd)
    assert check(record).status == "verified"


# --- kans, Norths and 3 players: built from a wall by FACTS A2-A6's positions ----------------

TILES_4P = [f"{n}{s}" for s in "mps" for n in range(1, 10)] * 4 + [f"{n}z" for n in range(1, 8)] * 4
TILES_3P = [t for t in TILES_4P if t[1] != "m" or t[0] in "19"]


def built_record(players: int, seed: int = 7) -> Record:
    """A round dealt by FACTS A2 from a shuffled wall P (dealer seat 1): one live draw
    each, then seat 2 declares a closed kan (4p) or a North (3p) and draws P[N-1]; the
    kan reveals indicator 2 at P[N-7]; seat 2 wins by tsumo with riichi (ura P[N-6],
    3p: dora P[N-9], ura P[N-10])."""
    wall = (TILES_4P if players == 4 else TILES_3P)[:]
    random.Random(seed).shuffle(wall)
    n, dealer = len(wall), 1
    hands: list[list[str]] = [[] for _ in range(players)]
    p = 0
    for size in (4, 4, 4, 1):
        for j in range(players):
            hands[(dealer + j) % players] += wall[p : p + size]
            p += size
    hands[dealer].append(wall[p])  # the dealer's 14th, P[13n]
    live = p + 1
    base = n - 5 if players == 4 else n - 9
    events: list[Record] = [{"name": "NewRound", "data": {
        "chang": 0, "ju": dealer, "ben": 0, "liqibang": 0, "scores": [25000] * players,
        **{f"tiles{s}": hands[s] if s < players else [] for s in range(4)},
        "paishan": "".join(wall), "left_tile_count": n - 14 - live, "doras": [wall[base]]}}]  # fmt: skip
    left = n - 14 - live
    events.append({"name": "DiscardTile", "data": {"seat": dealer, "tile": hands[dealer][0]}})
    for seat in [(dealer + k) % players for k in range(1, players + 1)]:
        left -= 1
        events.append(
            {
                "name": "DealTile",
                "data": {"seat": seat, "tile": wall[live], "left_tile_count": left},
            }
        )
        events.append({"name": "DiscardTile", "data": {"seat": seat, "tile": wall[live]}})
        live += 1
    kan_seat = (dealer + 1) % players
    doras = [wall[base]]
    if players == 4:
        events.append(
            {"name": "AnGangAddGang", "data": {"seat": kan_seat, "type": 3, "tiles": "1z"}}
        )
        doras = [wall[base], wall[n - 7]]
    else:
        events.append({"name": "BaBei", "data": {"seat": kan_seat}})
    left -= 1
    events.append({"name": "DealTile", "data": {"seat": kan_seat, "tile": wall[n - 1], "left_tile_count": left,
                                                 "doras": doras}})  # fmt: skip
    events.append({"name": "Hule", "data": {"hules": [{"seat": kan_seat, "zimo": True, "doras": doras,
                                                       "li_doras": [wall[base - 1]]}]}})  # fmt: skip
    record: Record = {"head": {"uuid": f"built-{players}p", "config": {"mode": {"mode": 2 if players == 4 else 12}}},
                      "events": events}  # fmt: skip
    restate(events[0]["data"])
    return record


@pytest.mark.parametrize(
    ("players", "checked"),
    [(4, 52 + 1 + 4 + 1 + 5), (3, 39 + 1 + 3 + 1 + 3)],
    ids=["4p-closed-kan", "3p-north"],
)  # dealt, the dealer's 14th, live draws, the replacement, indicators (kan dora revealed and listed)
def test_built_round_with_a_replacement_draw_verifies(players: int, checked: int) -> None:
    result = check(built_record(players))
    assert result.status == "verified", errors(result)
    assert result.checked == checked
    assert [row[1] for row in result.rounds[0].rows].count("replacement") == 1


@pytest.mark.parametrize("players", [4, 3])
def test_built_round_altered_replacement_draw_is_caught(players: int) -> None:
    record = built_record(players)
    replacement = [e for e in record["events"] if e["name"] == "DealTile"][-1]["data"]
    replacement["tile"] = "5z" if replacement["tile"] != "5z" else "6z"
    assert errors(check(record)) == [("replacement_mismatch", 0)]


def test_built_round_altered_kan_dora_is_caught() -> None:
    record = built_record(4)
    replacement = [e for e in record["events"] if e["name"] == "DealTile"][-1]["data"]
    replacement["doras"] = [
        replacement["doras"][0],
        "5z" if replacement["doras"][1] != "5z" else "6z",
    ]
    assert ("dora_mismatch", 0) in errors(check(record))


def test_built_left_tile_count_is_checked() -> None:
    record = built_record(3)
    [e for e in record["events"] if e["name"] == "DealTile"][-1]["data"]["left_tile_count"] += 1
    assert errors(check(record)) == [("left_count_mismatch", 0)]


def test_contradicting_dora_lists_are_flagged_not_raised() -> None:
    record = built_record(4)
    hule = record["events"][-1]["data"]["hules"][0]
    hule["doras"] = ["5z" if hule["doras"][0] != "5z" else "6z", *hule["doras"][1:]]
    assert ("dora_mismatch", 0) in errors(check(record))


# --- properties: any JSON, any bytes -> a Game or a PywallError -------------------------------

KEYS = ["name", "data", "events", "records", "actions", "result", "seat", "tile", "tiles", "tiles0",
        "tiles1", "tiles2", "tiles3", "paishan", "doras", "ju", "chang", "hules", "type", "salt"]  # fmt: skip
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["NewRound", "DealTile", "1m", "0p", "9z"])
    | st.text(max_size=4),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(KEYS), children, max_size=5),
    max_leaves=25,
)  # fmt: skip


def parses_or_refuses(data: bytes | str) -> None:
    try:
        verify_game(parse(data))
    except PywallError:
        pass


@given(st.binary(max_size=300))
def test_any_bytes_give_a_game_or_a_pywall_error(data: bytes) -> None:
    parses_or_refuses(data)


@given(json_values)
@settings(max_examples=300)
def test_any_json_gives_a_game_or_a_pywall_error(value: Any) -> None:
    parses_or_refuses(json.dumps(value))


def mutations() -> st.SearchStrategy[Callable[[Record], None]]:
    """Replace one value somewhere in a real record with an arbitrary JSON value."""

    def paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        found = [path]
        if isinstance(node, dict):
            for k, v in node.items():
                found += paths(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                found += paths(v, (*path, i))
        return found

    every = paths(built_record(3))[1:]

    def mutate(path: tuple[Any, ...], value: Any) -> Callable[[Record], None]:
        def apply(record: Record) -> None:
            node = record
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value

        return apply

    return st.builds(mutate, st.sampled_from(every), json_values)


@given(mutations())
@settings(max_examples=300)
def test_a_real_shape_with_any_value_replaced_gives_a_game_or_a_pywall_error(
    mutate: Callable[[Record], None],
) -> None:
    record = copy.deepcopy(built_record(3))
    mutate(record)
    parses_or_refuses(json.dumps(record))


def test_an_indicator_on_a_draw_is_revealed_before_that_draw() -> None:
    """One moment on every platform (docs/audit.md): an indicator Mahjong Soul writes in a
    draw's ``doras`` (a closed kan's, on its replacement draw) comes before that draw, as
    Tenhou's DORA tag and Riichi City's kan-dora event do. No real Mahjong Soul record with
    a closed kan is at hand: the real 2024 round is given a new indicator on one draw."""
    record = load(SHA_ROUND)
    events = record["events"]
    first = events[0]["data"]["doras"][0]
    at = next(i for i, e in enumerate(events) if e["name"] == "DealTile" and i > 20)
    events[at]["data"]["doras"] = [first, "1z"]
    game = parse(json.dumps(record).encode())
    seq = game.rounds[0].events
    (reveal,) = [i for i, e in enumerate(seq) if type(e).__name__ == "DoraReveal"]
    drawn = events[at]["data"]["tile"]
    after = seq[reveal + 1]
    assert isinstance(after, Draw) and after.tile // 4 == face_from_code(drawn) // 4
    kinds = [type(e).__name__ for e in seq[reveal - 1 : reveal + 2]]
    assert kinds == ["Discard", "DoraReveal", "Draw"]
