"""The audit's draw and wall tests: groups, JSON names, flagged, words, bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pywall.analysis.draws import Sums
from pywall.audits.draw_wall_tests import DrawAudit
from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import audit_result
from pywall.cli import main
from pywall.cli.audit import corpus_notes, draw_lines
from pywall.page.audit_reports import read_record
from pywall.results.check import check_data, check_log
from tests.helpers import DATA, TENHOU, fixture_paths

T_KEYS = {"n", "observed", "expected", "variance", "z", "p", "low", "high", "reading"}
#: a group's draw test also says what it can see (one game's lines do not)
GROUP_T_KEYS = T_KEYS | {"detectable", "detectable_one_in"}


def reports(paths: list) -> list[dict]:  # type: ignore[type-arg]
    return [check_log(str(p), p.read_bytes(), starting=True).to_dict() for p in paths]


def records(paths: list) -> list[GameRecord]:  # type: ignore[type-arg]
    return [check_data(str(p), p.read_bytes(), starting=True).record for p in paths]


def read_back(record: GameRecord) -> GameRecord:
    """The record as the page hands it back: its JSON, read."""
    return GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))


@pytest.fixture(scope="module")
def every_platform() -> dict:  # type: ignore[type-arg]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert (
            main(["audit", "--json", str(TENHOU), str(DATA / "majsoul"), str(DATA / "riichicity")])
            == 0
        )
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def test_every_group_has_the_draw_tests(every_platform: dict) -> None:  # type: ignore[type-arg]
    doc = every_platform
    groups = [doc["overall"], *doc["platforms"], *doc["players"], *doc["seats"]]
    for g in groups:
        assert set(g["draws"]) == {"effective", "tenpai", "dora"}, g["label"]
        for t in g["draws"].values():
            assert set(t) == GROUP_T_KEYS
    assert [g["label"] for g in doc["seats"]] == [
        "dealer",
        "non-dealer",
        "seat 1",
        "seat 2",
        "seat 3",
        "seat 4",
    ]
    effective = doc["overall"]["draws"]["effective"]
    assert effective["n"] == doc["games"]["draws"] > 20_000
    assert sum(g["draws"]["effective"]["n"] for g in doc["seats"][:2]) == effective["n"]
    assert sum(g["draws"]["effective"]["n"] for g in doc["seats"][2:]) == effective["n"]
    named = sum(g["draws"]["effective"]["n"] for g in doc["players"])
    assert named + doc["games"]["anonymous_draws"] == effective["n"]
    assert sum(g["draws"]["effective"]["n"] for g in doc["platforms"]) == effective["n"]
    assert abs(effective["z"]) < 4 and effective["observed"] <= effective["n"]


def test_every_platform_has_its_wall_tests(every_platform: dict) -> None:  # type: ignore[type-arg]
    walls = {(g["platform"], g["players"]): g["walls"] for g in every_platform["platforms"]}
    assert set(walls) == {
        ("tenhou", 3),
        ("tenhou", 4),
        ("majsoul", 4),
        ("riichicity", 3),
        ("riichicity", 4),
    }
    tenhou = walls["tenhou", 4]
    assert tenhou["games"] == 51  # the 4-player games, the three 2009 eras' included
    assert [t["name"] for t in tenhou["tests"]] == [
        "positions",
        "deal",
        "live",
        "dead",
        "red_fives",
    ]
    assert tenhou["tests"][0]["dof"] == 135 * 33
    assert all(set(t) == {"name", "chi2", "dof", "p"} for t in tenhou["tests"])
    assert walls["majsoul", 4]["games"] == 1  # the MD5-era game states only the undealt tiles


def test_flagged_considers_the_draw_tests() -> None:
    tally = AuditTally()
    for record in records(fixture_paths()[:10]):
        tally.add(record)
    fair = audit_result(tally).overall
    assert not fair.rejects(0.001)
    effective, tenpai, dora = tally.overall.draws
    lucky = replace(effective, observed=int(effective.expected + 6 * effective.variance**0.5))
    tally.overall.draws = (lucky, tenpai, dora)
    unfair = audit_result(tally).overall
    assert unfair.rejects(0.001)
    assert len(unfair.p_values) == len(fair.p_values) == 6  # threshold split over all tests
    from pywall.audits.verdicts import group_dict

    words = group_dict(unfair)
    assert words["tests"] == 6 and words["smallest_p"] == min(unfair.p_values) and words["flagged"]
    assert words["draw_verdict"]["flagged"] and words["draw_verdict"]["tests"] == 3
    assert group_dict(fair)["draw_verdict"]["flagged"] is False
    assert unfair.draws is not None and unfair.draws.tests[0].z == pytest.approx(6, abs=0.05)


def test_a_records_json_and_merge_carry_draws_and_walls() -> None:
    found = records(fixture_paths()[:8])
    whole, parts, left, right = AuditTally(), AuditTally(), AuditTally(), AuditTally()
    for i, record in enumerate(found):
        whole.add(record)
        parts.add(read_back(record))
        (left if i < 3 else right).add(record)
    assert parts.to_dict() == whole.to_dict()
    left.merge(AuditTally.from_dict(json.loads(json.dumps(right.to_dict()))))
    assert left.draws == whole.draws > 0
    mine, theirs = left.walls["tenhou:4"].to_dict(), whole.walls["tenhou:4"].to_dict()
    assert mine["tables"] == theirs["tables"] and mine["reds"] == pytest.approx(theirs["reds"])
    for part, all_ in zip(left.overall.draws, whole.overall.draws):
        assert (part.n, part.observed) == (all_.n, all_.observed)
        assert part.expected == pytest.approx(all_.expected)


def test_draw_lines_in_words() -> None:
    audit = DrawAudit(())
    assert draw_lines(None) == []
    from pywall.audits.draw_wall_tests import draw_audit

    made = draw_audit(
        (Sums(1530, 412, 431.2, 289.0), Sums(0, 0, 0.0, 0.0), Sums(1530, 50, 40.0, 36.0))
    )
    assert made is not None and audit.tests == ()
    lines = draw_lines(made, 0.001 / 2)
    assert lines[0] == (
        "  effective draws (a tile that brings the hand closer to ready): 412 of 1,530 — a fair "
        "shuffle gives 431 on average, usually between 398 and 465: usual (z = -1.13, p = 0.259)"
    )
    # under each line, what the test can see: about (3.4807 + 0.8416) sqrt 289 / 1,530 = 4.85 hits
    # per 100 draws, 1 in every 20 (100 / 4.85 = 20.6, rounded down)
    assert lines[1] == (
        "    With these 1,530 draws, a rigged shuffle that took away (or added) 1 effective "
        "tile in every 20 draws would be caught 8 times in 10."
    )
    assert lines[2] == "  winning tiles drawn while ready (tenpai): no draws"
    assert lines[3].endswith("usually between 28 and 52: usual (z = +1.67, p = 0.0956)")
    assert lines[4].endswith(
        "1 dora in every 37 draws would be caught 8 times in 10."
    )  # the dora figure times 1.5 (draws.CALIBRATION)
    assert len(lines) == 5
    assert made.p_values and len(made.p_values) == 2


def test_text_output_says_the_draw_tests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(TENHOU / "tenhou-python-bot" / "1.txt")]) == 0
    out = capsys.readouterr().out
    assert "303 draws tested" in out
    assert "One game: every test below has little power" in out
    assert (
        "  effective draws (a tile that brings the hand closer to ready): 82 of 303 — a fair "
        "shuffle gives 81 on average, usually between 67 and 94: usual (z = +0.22" in out
    )
    assert "  wall positions, 7 whole walls of 1 game:\n    live wall, early and late" in out
    assert "threshold 0.001 split over 7 tests" in out  # the wall test counts in the verdict
    assert "\ndealer: " in out and "\nseat 1: " in out
    assert "The draw tests follow every draw" in out


def test_no_draws_and_mixed_platforms_in_words() -> None:
    record = records([TENHOU / "tenhou-python-bot" / "1.txt"])[0]
    tally = AuditTally()
    tally.add(replace(record, draws=None, walls=None))
    assert tally.draws == 0
    assert corpus_notes(tally)[0].startswith("No draw could be tested")
    assert audit_result(tally).overall.draws is None  # the hands' tests still run
    mixed = AuditTally()
    for r in records(
        [TENHOU / "tenhou-python-bot" / "1.txt", DATA / "riichicity" / "gameDataSample.json"]
    ):
        mixed.add(r)
    assert any("several platforms" in n for n in corpus_notes(mixed))


def test_thousands_of_players() -> None:
    """3,000 named players, each in one game: every hand counts, the 1,000 players the
    audit lists (``MAX_PLAYERS_LISTED``) are audited without error, the rest are counted."""
    from pywall.audits.verdicts import MAX_PLAYERS_LISTED, games_dict

    record = records([TENHOU / "tenhou-python-bot" / "1.txt"])[0]
    tally = AuditTally()
    for i in range(750):
        names = tuple(f"p{4 * i + s}" for s in range(4))
        tally.add(replace(record, path=f"{i}.xml", fingerprint=f"f{i}", names=names))
    result = audit_result(tally)
    assert len(result.players) == MAX_PLAYERS_LISTED == 1000
    assert games_dict(tally)["players_not_listed"] == 2000 and len(tally.players) == 3000
    assert result.overall.draws is not None and result.overall.draws.draws == 750 * 303


def test_each_players_effective_draws_game_by_game() -> None:
    """The chart's data: per named player, (O - E, V) of each game's effective draws, in
    the order the games were added; the sums are the player's totals."""
    found = records(fixture_paths()[:20])
    tally = AuditTally()
    for record in found:
        tally.add(record)
    doc = {g["label"]: g for g in audit_result(tally).to_dict()["players"]}
    busiest = max(tally.series, key=lambda k: len(tally.series[k]))
    points = doc[busiest]["effective_by_game"]
    assert len(points) == 4  # 三色豆大好き plays four of these games
    effective = doc[busiest]["draws"]["effective"]
    assert sum(o for o, _ in points) == pytest.approx(effective["observed"] - effective["expected"])
    assert sum(v for _, v in points) == pytest.approx(effective["variance"])
    left, right = AuditTally(), AuditTally()
    for i, record in enumerate(found):
        (left if i < 10 else right).add(record)
    left.merge(AuditTally.from_dict(json.loads(json.dumps(right.to_dict()))))
    assert [o for o, _ in left.series[busiest]] == pytest.approx(
        [o for o, _ in tally.series[busiest]]
    )


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("draws", {"seats": "x"}, "not a game's draws"),
        ("draws", [1, 2], "not a game's draws"),
        ("walls", {"rounds": [["no-such-scheme", "abc"]]}, "not a game's walls"),
        ("walls", {"rounds": 5}, "not a game's walls"),
        ("walls", {"rounds": [["tenhou", "~" * 136]]}, "not a game's walls"),
    ],
    ids=[
        "draws-text-seats",
        "draws-list",
        "walls-bad-scheme",
        "walls-number",
        "walls-no-tile-symbols",
    ],
)
def test_a_records_draws_or_walls_of_the_wrong_shape_are_a_clear_error(
    key: str, value: object, words: str
) -> None:
    """The page hands audit records back: draws or walls it altered are refused with
    words, before anything of the game is counted."""
    from pywall.core.errors import ValueInputError

    (record,) = records([TENHOU / "tenhou-python-bot" / "1.txt"])
    tally = AuditTally()
    with pytest.raises(ValueInputError, match=words):
        tally.add(GameRecord.from_dict({**record.to_dict(), key: value}))
    assert tally.games == 0 and tally.hands == 0 and tally.draws == 0


@pytest.mark.parametrize("rounds", [-1, "rounds", {"0": {}}], ids=["number", "text", "object"])
def test_a_record_whose_rounds_are_no_list_is_a_clear_error(rounds: object) -> None:
    """Found by the fuzzer: rounds of -1 in a record handed back raised a TypeError."""
    from pywall.core.errors import ValueInputError

    (report,) = reports([TENHOU / "tenhou-python-bot" / "1.txt"])
    tally = AuditTally()
    with pytest.raises(ValueInputError, match="rounds are not a list"):
        tally.add(read_record({**report, "rounds": rounds}))
    assert tally.games == 0 and tally.hands == 0


def test_draws_naming_a_seat_the_game_lacks_are_refused() -> None:
    from pywall.core.errors import ValueInputError

    (found,) = records([TENHOU / "tenhou-python-bot" / "1.txt"])
    record = json.loads(json.dumps(found.to_dict()))
    record["draws"]["seats"][0][0] = 7  # [seat, dealer, effective, tenpai, dora]
    tally = AuditTally()
    with pytest.raises(ValueInputError, match="a seat it does not have"):
        tally.add(GameRecord.from_dict(record))
    assert tally.games == 0
