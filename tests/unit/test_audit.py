"""pywall.audits.verdicts: a fair shuffle's hands pass, hands chosen to be good are caught."""

from __future__ import annotations

import base64
import json
import random
from dataclasses import replace

import pytest

from pywall.analysis.shanten import shanten
from pywall.audits.records import GameRecord, record_of
from pywall.audits.tally import AuditTally, StartingHand
from pywall.audits.verdicts import OVERALL, audit_hands, audit_result
from pywall.checks import tenhou
from pywall.core.errors import ValueInputError
from pywall.core.layout import WallScheme, layout_for
from pywall.core.tiles import counts_from_mpsz, dora_kind, kinds_from_mpsz
from pywall.results.check import check_log

PLAYERS = ("Ann", "Bo", "Cy", "Di")
ALPHA = 0.001


def fair_hands(seed: int, rounds: int) -> list[StartingHand]:
    """Dealt from the library's own fair generator: Tenhou walls of random seeds, dealt
    as Tenhou deals them (the dealer's 14th tile is the first live draw, yama[83])."""
    rng = random.Random(seed)
    hands = []
    games = [
        tenhou.walls(base64.b64encode(rng.randbytes(2496)).decode(), 8)
        for _ in range(rounds // 8 + 1)
    ]
    for r, wall in enumerate([w for game in games for w in game][:rounds]):
        layout = layout_for(WallScheme.TENHOU, 4)
        positions = layout.deal_by_seat(0)
        for step in range(4):
            dealer = step == 0
            tiles = [wall.tiles[p] for p in positions[step]] + (
                [wall.tiles[layout.live[0]]] if dealer else []
            )
            player = PLAYERS[(step + r) % 4]
            hands.append(StartingHand.from_tiles(player, dealer, tiles, wall.tiles[5]))
    return hands


def good_hands(seed: int, rounds: int) -> list[StartingHand]:
    """Each hand the best of three fair deals: a mild bias towards good hands."""
    rng = random.Random(seed)
    hands = []
    for r in range(rounds):
        for seat, player in enumerate(PLAYERS):
            dealer = seat == r % 4
            deals = [rng.sample(range(136), 15 if dealer else 14) for _ in range(3)]
            options = [StartingHand.from_tiles(player, dealer, t[:-1], t[-1]) for t in deals]
            hands.append(min(options, key=lambda h: shanten(h.counts)))
    return hands


@pytest.fixture(scope="module")
def fair() -> list[StartingHand]:
    return fair_hands(2026, 600)


def test_fair_hands_do_not_reject(fair: list[StartingHand]) -> None:
    result = audit_hands(fair)
    assert result.overall.label == OVERALL and result.overall.hands == 2400
    assert [p.label for p in result.players] == sorted(PLAYERS)
    for group in (result.overall, *result.players):
        assert min(group.p_values) > ALPHA, group.label
        assert not group.rejects(ALPHA)
    assert abs(result.overall.shanten_z.z) < 3 and result.overall.dora is not None


def test_good_hands_reject() -> None:
    result = audit_hands(good_hands(7, 150))
    overall = result.overall
    assert overall.rejects(ALPHA)
    assert overall.p_value < 1e-6 and overall.shanten_z.z < -5
    assert all(p.shanten_z.z < 0 for p in result.players)


def test_dora_bias_is_caught_apart_from_shanten(fair: list[StartingHand]) -> None:
    rigged = [StartingHand(h.player, h.dealer, h.counts, min(2, h.dora + 1)) for h in fair[:800]]
    dora = audit_hands(rigged).overall.dora
    assert dora is not None and dora.z > 10 and dora.p_value < 1e-20


def test_parts_by_hand_size(fair: list[StartingHand]) -> None:
    overall = audit_hands(fair).overall
    thirteen, fourteen = overall.parts
    assert (thirteen.tiles, thirteen.hands, fourteen.tiles, fourteen.hands) == (13, 1800, 14, 600)
    assert fourteen.expected_mean == pytest.approx(3.1559378, abs=1e-7)
    assert sum(n for _, n in thirteen.observed) == 1800
    assert sum(e for _, e in fourteen.expected) == pytest.approx(600)
    assert overall.dof == thirteen.chi_square.dof + fourteen.chi_square.dof
    assert all(b.expected >= 5 for b in thirteen.chi_square.bins)


def test_json_form(fair: list[StartingHand]) -> None:
    data = json.loads(json.dumps(audit_hands(fair[:40]).to_dict()))
    assert data["overall"]["hands"] == 40 and len(data["players"]) == 4
    part = data["overall"]["by_tiles"][0]
    assert set(part) >= {"tiles", "observed", "expected", "mean", "z", "chi2", "dof", "p", "bins"}
    assert "cannot" in data["explanation"]


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("4z", "1z"), ("1z", "2z"),
     ("7z", "5z"), ("5z", "6z")],
    ids=lambda v: str(v),
)  # fmt: skip
def test_dora_kind(indicator: str, dora: str) -> None:
    assert dora_kind(kinds_from_mpsz(indicator)[0]) == kinds_from_mpsz(dora)[0]


def test_from_tiles_counts_dora() -> None:
    # 5m is kind 4, ids 16-19; indicator 4m (id 12) makes 5m dora
    hand = StartingHand.from_tiles("Ann", False, [16, 17, 18, *range(36, 46)], indicator=12)
    assert hand.dora == 3 and hand.tiles == 13


@pytest.mark.parametrize(
    ("dealer", "hand", "dora"),
    [
        (True, "123m456p789s1122z", 0),
        (False, "123m456p789s11223z", 0),
        (False, "123m456p789s1122z", 5),
    ],
    ids=["dealer-13", "nondealer-14", "too-many-dora"],
)
def test_rejects_bad_records(dealer: bool, hand: str, dora: int) -> None:
    with pytest.raises(ValueInputError):
        StartingHand("Ann", dealer, tuple(counts_from_mpsz(hand)), dora)


def test_needs_hands() -> None:
    with pytest.raises(ValueInputError):
        audit_hands([])


# --- the audit over real logs ------------------------------------------------


def tally_of_files(items: list[tuple[str, bytes | Exception]]) -> AuditTally:
    from pywall.core.errors import PywallError
    from pywall.results.report import error_report

    tally = AuditTally()
    for name, content in items:
        if isinstance(content, PywallError):
            report = error_report(name, content.code, content.message)
        else:
            assert isinstance(content, bytes)
            report = check_log(name, content, starting=True)
        tally.add(record_of(report))
    return tally


def test_tally_uses_verified_games_of_both_player_counts_once() -> None:
    from tests.helpers import fixture_paths

    paths = fixture_paths()
    tally = tally_of_files([(str(p), p.read_bytes()) for p in paths])
    assert sorted(e.kind for e in tally.excluded) == ["duplicate", "duplicate"]
    assert tally.games == 53
    four = tally.platforms["tenhou:4"]
    three = tally.platforms["tenhou:3"]
    assert set(four.shanten) == {(4, 13), (4, 14)} and set(three.shanten) == {(3, 13), (3, 14)}
    # every round deals 3 non-dealer hands per dealer hand (4-player), 2 (3-player)
    assert sum(four.shanten[(4, 14)].values()) * 3 == sum(four.shanten[(4, 13)].values())
    assert sum(three.shanten[(3, 14)].values()) * 2 == sum(three.shanten[(3, 13)].values())
    result = audit_result(tally)
    assert result.overall.hands == tally.hands == four.hands + three.hands
    assert [g.label for g in result.platforms] == ["Tenhou, 3-player", "Tenhou, 4-player"]
    assert [(g.platform, g.players) for g in result.platforms] == [("tenhou", 3), ("tenhou", 4)]
    platforms = result.to_dict()["platforms"]
    assert [(g["platform"], g["players"]) for g in platforms] == [("tenhou", 3), ("tenhou", 4)]
    assert "platform" not in result.to_dict()["overall"]


def test_tally_excludes_a_tampered_log_with_its_reason() -> None:
    import re

    from pywall.core.errors import LogFormatError
    from tests.helpers import TENHOU, log_text

    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    m = list(re.finditer(r"<U(\d+)/>", text))[30]
    bad = text[: m.start()] + f"<U{(int(m.group(1)) + 4) % 136}/>" + text[m.end() :]
    tally = tally_of_files(
        [("bad.xml", bad.encode()), ("junk", b"junk"), ("gone", LogFormatError("gone"))]
    )
    assert [(e.path, e.kind) for e in tally.excluded] == [  # in code-point order of the paths
        ("bad.xml", "mismatch"),
        ("gone", "error"),
        ("junk", "error"),
    ]
    assert "draw 55 of the round" in tally.excluded[0].reason
    assert tally.games == 0 and not tally.hands
    # the reason as codes and data, for words in another language (the page)
    first = tally.excluded[0]
    assert first.reason_code == "mismatch"
    problem = json.loads(json.dumps(first.reason_data))  # as the page reads it
    assert problem["finding"]["code"] == "draw_mismatch" and problem["finding"]["data"][
        "seat"
    ] in range(4)
    assert problem["round"]["label"] == "East 2, 1 honba" and problem["round"]["dealer"] == 1
    assert len(problem["game"]["players"]) == 4 and problem["game"]["red_fives"] is True
    assert [e.reason_code for e in tally.excluded[1:]] == ["error", "error"]
    unreadable = json.loads(json.dumps(tally.excluded[2].reason_data))
    assert unreadable["finding"]["code"] == "log_format"
    assert unreadable["round"] is None and unreadable["game"] is None


def test_exclusion_codes_for_repeats_and_missing_hands() -> None:
    from tests.helpers import TENHOU

    data = (TENHOU / "tenhou-python-bot" / "1.txt").read_bytes()
    with_hands = check_log("a.xml", data, starting=True)
    tally = AuditTally()
    for report in (with_hands, replace(with_hands, path="b.xml"), check_log("c.xml", data)):
        tally.add(record_of(report))
    assert [(e.kind, e.reason_code, dict(e.reason_data)) for e in tally.excluded] == [
        ("no_hands", "no_starting_hands", {}),
        ("duplicate", "duplicate", {"same_as": "a.xml"}),
    ]
    from pywall.audits.verdicts import audit_dict

    listed = audit_dict(tally)["games"]["excluded"]
    assert listed[1] == {
        "path": "b.xml",
        "kind": "duplicate",
        "reason": "repeat of a.xml",
        "reason_code": "duplicate",
        "reason_data": {"same_as": "a.xml"},
    }
    # a tally written before reason codes (three items per exclusion) still reads
    old = tally.to_dict() | {"problems": [e[:3] for e in tally.to_dict()["problems"]]}
    assert [(e.path, e.reason_code) for e in AuditTally.from_dict(old).excluded] == [
        ("c.xml", ""),
        ("b.xml", "duplicate"),
    ]


def test_a_records_json_counts_as_its_whole_report() -> None:
    # A shared archive run sends each game's record as JSON, not its report: the tally, the
    # reasons' codes and the words' data (round label, dealer, players) must be the same.
    import re

    from pywall.results.report import error_report
    from tests.helpers import TENHOU, fixture_paths, log_text

    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    m = list(re.finditer(r"<U(\d+)/>", text))[30]
    bad = text[: m.start()] + f"<U{(int(m.group(1)) + 4) % 136}/>" + text[m.end() :]
    reports = [check_log(str(p), p.read_bytes(), starting=True) for p in fixture_paths()[:12]]
    reports += [
        check_log("bad.xml", bad.encode(), starting=True),
        check_log("junk", b"junk", starting=True),
        error_report("gone", "log_format", "gone"),
        check_log("no-hands.xml", text.encode()),
        replace(reports[0], path="again.xml"),
    ]
    whole, parts = AuditTally(), AuditTally()
    for report in reports:
        whole.add(record_of(report))
        parts.add(GameRecord.from_dict(json.loads(json.dumps(record_of(report).to_dict()))))
    assert parts.to_dict() == whole.to_dict()
    assert [e.reason_code for e in parts.excluded] == [
        "mismatch",
        "error",
        "error",
        "no_starting_hands",
        "duplicate",
    ]
    assert json.loads(json.dumps(parts.excluded[0].reason_data))["round"]["label"] == (
        "East 2, 1 honba"
    )


def test_tallies_merge_to_the_tally_of_the_whole() -> None:
    from tests.helpers import fixture_paths

    items: list[tuple[str, bytes | Exception]] = [
        (str(p), p.read_bytes()) for p in fixture_paths()[:12]
    ]
    whole = tally_of_files(items)
    left, right = tally_of_files(items[:5]), tally_of_files(items[5:])
    left.merge(AuditTally.from_dict(right.to_dict()))
    assert (left.games, left.excluded, set(left.copies)) == (
        whole.games,
        whole.excluded,
        set(whole.copies),
    )
    pairs = [(left.overall, whole.overall)] + [
        (left.platforms[k], g) for k, g in whole.platforms.items()
    ]
    pairs += [(left.players[k], g) for k, g in whole.players.items()]
    assert set(left.players) == set(whole.players)
    for mine, theirs in pairs:
        assert mine.shanten == theirs.shanten and mine.dora == theirs.dora
        assert (mine.dora_mean, mine.dora_var) == pytest.approx((theirs.dora_mean, theirs.dora_var))


def test_anonymous_players_are_not_one_player() -> None:
    from tests.helpers import TENHOU

    path = TENHOU / "tenhou-python-bot" / "22.txt"
    tally = tally_of_files([(path.name, path.read_bytes())])
    assert "NoName" not in tally.players and tally.anonymous_hands > 0
    assert tally.overall.hands == tally.anonymous_hands + sum(
        g.hands for g in tally.players.values()
    )


def test_dealer_hand_is_the_deal_plus_first_draw() -> None:
    from pywall.formats import mjlog
    from pywall.results.check import starting_hands
    from tests.helpers import TENHOU

    game = mjlog.parse((TENHOU / "tenhou-python-bot" / "1.txt").read_bytes())
    first = game.rounds[0]
    hands = starting_hands(first, 4)
    dealer = next(h for h in hands if h[0] == first.dealer)
    draw = next(e for e in first.events if hasattr(e, "tile"))
    expected = [0] * 34
    for t in (*first.hands[first.dealer], draw.tile):
        expected[t // 4] += 1
    assert dealer[1] == 14 and dealer[2] == shanten(expected)
