"""The pipeline (``pywall.results.check``): one ``GameCheck`` per game, its report and its audit
record made once, and the dealer's 14th tile decided in one place."""

from __future__ import annotations

import json
import pickle
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pywall.analysis.draws import game_draws
from pywall.analysis.hands import round_hands
from pywall.audits.records import record_of
from pywall.core.errors import InputTooLargeError
from pywall.core.model import Draw, Round
from pywall.page.audit_reports import read_problem_context, read_record
from pywall.page.tool_api import dealt_round
from pywall.results.check import GameCheck, check_data, check_entry, check_log, report_for_entry
from pywall.results.exports import compact_row, problem_context
from tests.helpers import DATA, fixture_paths, log_text

RECORDS = [
    *fixture_paths(),
    *sorted((DATA / "majsoul").glob("*.json")),
    *sorted((DATA / "riichicity").glob("*.json")),
]
IDS = [f"{p.parent.name}/{p.name}" for p in RECORDS]


@pytest.mark.parametrize("path", RECORDS, ids=IDS)
def test_one_check_holds_the_game_its_result_its_report_and_its_record(path: Path) -> None:
    checked = check_data(path.name, path.read_bytes(), detail=True, starting=True)
    assert isinstance(checked, GameCheck) and checked.game is not None
    assert checked.result is not None and checked.result.status == checked.report.status
    assert checked.report == check_log(path.name, path.read_bytes(), detail=True, starting=True)
    assert checked.record == record_of(checked.report)
    assert checked.record.problem is None and checked.record.starting
    # the CLI's worker processes send the record pickled (draw sums and walls pickle as
    # their fields)
    assert pickle.loads(pickle.dumps(checked.record)) == checked.record


def test_an_unreadable_entry_is_a_check_without_a_game() -> None:
    for checked in (
        check_entry("x.xml", b"junk", starting=True),
        check_entry("big.mjlog", InputTooLargeError("over the cap"), starting=True),
    ):
        assert (checked.game, checked.result, checked.report.status) == (None, None, "error")
        assert checked.record.problem is not None and checked.record.problem[0] == "error"
    assert report_for_entry("x.xml", b"junk") == check_entry("x.xml", b"junk").report


def test_a_mismatch_is_recorded_with_its_first_error() -> None:
    path = fixture_paths()[0]
    text = re.sub(r"<T(\d+)/>", lambda m: f"<T{(int(m[1]) + 4) % 136}/>", log_text(path), 1)
    checked = check_entry(path.name, text.encode(), starting=True)
    assert checked.report.status == "mismatch"
    assert checked.record.problem is not None and checked.record.problem[0] == "mismatch"


def dealt_13(path: Path) -> list[tuple[Round, GameCheck]]:
    checked = check_data(path.name, path.read_bytes(), detail=True, starting=True)
    assert checked.game is not None
    return [(rnd, checked) for rnd in checked.game.rounds if len(rnd.hands[rnd.dealer]) == 13]


@pytest.mark.parametrize("path", RECORDS, ids=IDS)
def test_the_dealers_14th_tile_is_the_same_from_the_record_and_the_wall(path: Path) -> None:
    for rnd, checked in dealt_13(path):
        first = rnd.dealer_draw
        assert first is not None and first.seat == rnd.dealer
        assert first is next(e for e in rnd.events if type(e) is Draw)
        shown = checked.report.rounds[rnd.index].to_dict()
        dealer = round_hands(dealt_round(shown))["seats"][rnd.dealer]
        assert dealer["draw"] == shown["wall"][shown["layout"]["live"][0]]
        assert dealer["draw"] // 4 == first.tile // 4  # the wall's tile, the record's draw


def test_a_round_whose_first_draw_is_not_the_dealers_has_no_dealer_draw() -> None:
    path = fixture_paths()[0]
    rnd, _ = dealt_13(path)[0]
    other = (rnd.dealer + 1) % len(rnd.hands)
    events = tuple(
        Draw(e.seat if i else other, e.tile) if type(e) is Draw else e
        for i, e in enumerate(rnd.events)
    )
    moved = replace(rnd, events=events)
    assert rnd.dealer_draw is not None and moved.dealer_draw is None


def test_the_draw_test_counts_the_dealers_14th_tile_in_the_deal() -> None:
    path = fixture_paths()[0]
    checked = check_data(path.name, path.read_bytes(), starting=True)
    assert checked.game is not None and checked.report.draws is not None
    assert checked.report.draws == game_draws(checked.game)


def test_a_problems_context_is_the_same_typed_and_read_back_from_json() -> None:
    """compact_row and the audit's record word a game's first error from the typed report;
    what the page hands back is read into the same dict and the same record."""
    path = fixture_paths()[0]
    text = re.sub(r"<T(\d+)/>", lambda m: f"<T{(int(m[1]) + 4) % 136}/>", log_text(path), 1)
    for detail in (False, True):
        checked = check_entry(path.name, text.encode(), detail=detail, starting=True)
        report, first = checked.report, checked.report.errors[0]
        assert report.game is not None and first.round is not None
        as_json = json.loads(json.dumps(report.to_dict()))
        read = read_problem_context(first.to_dict(), as_json["game"], as_json["rounds"])
        typed = problem_context(first, report.game, report.rounds)
        assert typed == read and typed["round"]["index"] == first.round
        assert compact_row(0, report)["first_problem_data"] == typed
        assert checked.record == read_record(as_json)
