"""The page's warm-up game (pywall.page.warmup) is a real, verified game."""

from __future__ import annotations

import json

from pywall.core.model import Draw
from pywall.formats import mjlog
from pywall.page import api
from pywall.page.warmup import made_up_log, warm_up_report
from pywall.results.check import check_log


def test_made_up_log_verifies_every_tile() -> None:
    report = check_log("warm-up.xml", made_up_log().encode()).to_dict()
    assert report["status"] == "verified"
    assert len(report["rounds"]) == 4
    # each round: 52 dealt tiles, 70 live draws (the whole live wall), 1 dora indicator
    assert [r["checked"] for r in report["rounds"]] == [123] * 4
    assert [f["code"] for f in report["findings"]] == ["incomplete_log"]


def test_made_up_log_is_a_whole_wall_per_round() -> None:
    game = mjlog.parse(made_up_log(rounds=2))
    assert game.player_count == 4 and len(game.rounds) == 2
    for rnd in game.rounds:
        draws = [e for e in rnd.events if isinstance(e, Draw)]
        assert len(draws) == 70 and [d.seat for d in draws[:5]] == [0, 1, 2, 3, 0]


def test_a_changed_tile_in_the_made_up_log_is_caught() -> None:
    text = made_up_log(rounds=1)
    first_draw = text.index("<T", text.index("<INIT"))
    tile = int(text[first_draw + 2 : text.index("/>", first_draw)])
    changed = (
        text[:first_draw] + f"<T{(tile + 4) % 136}/>" + text[text.index("/>", first_draw) + 2 :]
    )
    report = check_log("changed.xml", changed.encode()).to_dict()
    assert report["status"] == "mismatch"
    assert [f["code"] for f in report["findings"] if f["severity"] == "error"] == ["draw_mismatch"]


def test_warm_up_reports_the_status_it_saw() -> None:
    assert warm_up_report(times=1) == "verified"
    assert json.loads(api.handle("warm_up", '{"times": 1}')) == {"status": "verified"}
    assert json.loads(api.handle("warm_up", '{"times": 1000000}'))["error"]["code"] == "bad_request"
