from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.core.findings import CODES, Finding, Severity
from pywall.formats.tenhou_rules import date_from_log_id, rule_from_type, vs_computer
from pywall.page import api
from pywall.page.audit_reports import read_problem_context as problem_context
from pywall.results.check import check_log
from pywall.results.exports import CSV_COLUMNS, compact_row, csv_cell, csv_text
from pywall.results.report import EVENT_FIELDS, FileReport, RoundReport
from tests.helpers import TENHOU, vector_seed

LOG = TENHOU / "gimite" / "test.mjlog"


def test_report_round_trips_through_json() -> None:
    report = check_log(str(LOG), LOG.read_bytes(), detail=True)
    assert FileReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report


def test_detail_carries_the_wall_and_every_check() -> None:
    d = check_log("x", LOG.read_bytes(), detail=True).to_dict()
    r = d["rounds"][0]
    assert sorted(r["wall"]) == list(range(136))
    assert len(r["events"]) == r["checked"]
    events = [dict(zip(EVENT_FIELDS, e, strict=True)) for e in r["events"]]
    assert all(e["ok"] and e["log"] == r["wall"][e["pos"]] for e in events)
    assert {e["what"] for e in events} >= {"deal", "draw", "dora"}
    assert len(r["hands"]) == 4


def test_without_detail_no_wall() -> None:
    d = check_log("x", LOG.read_bytes()).to_dict()
    assert "wall" not in d["rounds"][0] and "events" not in d["rounds"][0]
    assert "seed" not in d["game"]


def test_detail_carries_the_seed() -> None:
    d = check_log("x", LOG.read_bytes(), detail=True).to_dict()
    assert d["game"]["seed"].startswith("mt19937ar-sha512-n288-base64,")


def test_every_emitted_code_is_documented() -> None:
    for code in ("deal_mismatch", "draw_mismatch", "incomplete_log", "seed_missing", "log_format"):
        assert code in CODES


def test_rule_names() -> None:
    assert rule_from_type(169, 4) == (
        "4-player, Houou lobby, East-South, open tanyao, red fives",
        "鳳南喰赤",
    )
    assert rule_from_type(185, 3)[1] == "三鳳南喰赤"
    assert "vs computer" in rule_from_type(0, 4)[0]
    assert "vs computer" not in rule_from_type(1, 4)[0]
    assert (vs_computer(0), vs_computer(136), vs_computer(137), vs_computer(None)) == (
        True,
        True,
        False,
        False,
    )


def test_game_says_vs_computer_and_red_fives() -> None:
    text = (TENHOU / "dnovikoff" / "example.xml").read_text(encoding="utf-8")
    assert '<GO type="41"' in text
    people = check_log("p.xml", text).to_dict()["game"]
    assert (people["vs_computer"], people["red_fives"]) == (False, True)
    computer = check_log("c.xml", text.replace('<GO type="41"', '<GO type="40"')).to_dict()["game"]
    assert computer["vs_computer"] is True and computer["rule"].endswith(", vs computer")
    assert (
        computer["rule_code"] == people["rule_code"] == "特南喰赤"
    )  # Tenhou's code has no letter for it
    no_red = check_log("n.xml", text.replace('<GO type="41"', '<GO type="43"')).to_dict()["game"]
    assert no_red["red_fives"] is False and "赤" not in no_red["rule_code"]


def test_a_rows_first_problem_carries_its_code_and_context() -> None:
    from tests.browser.test_page import tamper_draw

    text = (TENHOU / "dnovikoff" / "example.xml").read_text(encoding="utf-8")
    bad = check_log("bad.xml", tamper_draw(text, round_index=3, nth=5), detail=True)
    row = compact_row(0, bad)
    (finding,) = [f for f in bad.findings if f.severity is Severity.ERROR]
    assert row["first_problem"] == finding.message  # the English stays
    assert row["first_problem_code"] == "draw_mismatch"
    context = row["first_problem_data"]
    assert context["finding"] == finding.to_dict()
    assert (context["finding"]["category"], context["finding"]["where"]) == ("tile", "draw")
    assert context["round"] == {
        "index": 3,
        "label": bad.rounds[3].label,
        "dealer": bad.rounds[3].dealer,
    }
    assert bad.game is not None
    assert context["game"] == {
        "players": list(bad.game.players),
        "player_count": 4,
        "red_fives": True,
    }
    json.dumps(row)  # plain JSON
    good = compact_row(1, check_log("good.xml", text))
    assert (good["first_problem"], good["first_problem_code"], good["first_problem_data"]) == (
        "",
        "",
        None,
    )
    junk = compact_row(2, check_log("junk.xml", b"junk"))
    assert junk["first_problem_code"] == "log_format"
    assert (
        junk["first_problem_data"]["round"] is None and junk["first_problem_data"]["game"] is None
    )


def test_problem_context_ignores_what_it_cannot_read() -> None:
    finding = {"code": "draw_mismatch", "round": True, "data": [1], "message": 5}
    assert problem_context(finding, {"players": "ab"}, [None, 3, {"index": 1}]) == {
        "finding": {
            "code": "draw_mismatch",
            "severity": "error",
            "round": None,
            "message": "5",
            "data": {},
            "category": "tile",  # from the code, not from anything the page sent
            "where": "draw",
        },
        "round": None,
        "game": {"players": [], "player_count": None, "red_fives": True},
    }


def test_date_from_log_id() -> None:
    assert date_from_log_id("2016022509gm-0009-0000-b327da61") == "2016-02-25T09:00+09:00"


def test_csv_export() -> None:
    text = csv_text([check_log("a.xml", LOG.read_bytes()), check_log("b.xml", b"junk")])
    lines = text.splitlines()
    assert lines[0] == "path,status,round_count,checked,errors,first_problem,log_id,date,platform"
    assert lines[1].startswith("a.xml,verified,17,1826,0,,")
    assert lines[2].startswith("b.xml,error,0,0,1,not a Tenhou mjlog")


def test_csv_of_typed_cells_is_the_csv_of_their_reports() -> None:
    """The exporter takes reports or a game's cells in CSV_COLUMNS (the page's compact rows,
    read into cells by its api): one CSV either way."""
    reports = [check_log("a.xml", LOG.read_bytes()), check_log("=b.xml", b"junk")]
    rows = [compact_row(i, r) for i, r in enumerate(reports)]
    assert csv_text([tuple(row[c] for c in CSV_COLUMNS) for row in rows]) == csv_text(reports)
    page = json.loads(api.handle("csv", json.dumps({"rows": rows})))["csv"]
    assert page == csv_text(reports) and "'=b.xml,error" in page


def test_api_walls_json_and_errors() -> None:
    doc = json.loads(
        api.handle("walls", json.dumps({"seed": vector_seed(), "rounds": 2, "players": 4}))
    )
    assert doc["rounds"][0]["wall"][:6] == [22, 91, 36, 115, 56, 19]
    assert doc["rounds"][0]["dice"] == [6, 2]
    assert doc["rounds"][0]["layout"]["dora"][0] == 5
    bad = json.loads(api.handle("walls", json.dumps({"seed": "nope"})))
    assert bad["error"]["code"] == "bad_seed"


def test_api_never_raises_on_junk() -> None:
    for junk in (b"", b"PK\x03\x04junk", b"\x1f\x8b", b"<mjloggm><INIT"):
        doc = json.loads(api.handle("verify", '{"name": "junk"}', junk))
        assert doc["files"][0]["status"] == "error"


findings = st.builds(
    Finding,
    st.sampled_from(sorted(CODES)),
    st.sampled_from(list(Severity)),
    st.none() | st.integers(0, 30),
    st.text(max_size=40),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
rounds = st.builds(
    RoundReport,
    st.integers(0, 30),
    st.text(max_size=20),
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    st.sampled_from(["verified", "mismatch"]),
    st.integers(0, 2000),
)


@settings(max_examples=100)
@given(
    st.builds(
        FileReport,
        st.text(max_size=30),
        st.sampled_from(["verified", "mismatch", "error"]),
        st.integers(0, 10**6),
        st.none(),
        st.tuples(rounds),
        st.tuples(findings, findings),
    )
)
def test_reports_round_trip(report: FileReport) -> None:
    assert FileReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report


def test_report_for_entry_never_raises(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pywall.core.errors import InputTooLargeError
    from pywall.results import check

    gone = check.report_for_entry("big.mjlog", InputTooLargeError("over the cap"))
    assert (gone.status, gone.findings[0].code, gone.findings[0].message) == (
        "error",
        "too_large",
        "over the cap",
    )
    ok = check.report_for_entry("a.mjlog", LOG.read_bytes(), detail=True)
    assert ok.status == "verified" and ok.rounds[0].wall is not None

    def broken(*args: object) -> None:
        raise KeyError("bug")

    monkeypatch.setattr(check, "check_data", broken)
    bug = check.report_for_entry("b.mjlog", b"<mjloggm>")
    assert bug.status == "error" and bug.findings[0].code == "error"
    assert bug.findings[0].message.startswith("internal error (KeyError")


# --- issue 13, item 15: CSV formula injection ------------------------------------------------


@pytest.mark.parametrize(
    "start",
    ["=", "+", "-", "@", "\t", "\r"],
    ids=["equals", "plus", "minus", "at", "tab", "carriage-return"],
)
def test_csv_cells_that_could_start_a_formula_are_neutralised(start: str) -> None:
    evil = f'{start}HYPERLINK("http://x")'
    assert csv_cell(evil) == "'" + evil
    report = check_log(f"{start}cmd|' /C calc'!A0.xml", b"not a log")
    import csv
    import io

    row = list(csv.reader(io.StringIO(csv_text([report]), newline="")))[1]
    assert row[:2] == [f"'{start}cmd|' /C calc'!A0.xml", "error"]


@pytest.mark.parametrize("value", ["plain.xml", "", 0, 12, "a=b", "'=quoted"], ids=repr)
def test_csv_cells_that_cannot_start_a_formula_are_kept(value: object) -> None:
    assert csv_cell(value) == value


def test_a_csv_cell_with_a_line_break_stays_in_its_row() -> None:
    import csv
    import io

    rows = [{"path": "a\rb.xml", "status": "error"}, {"path": "c\nd.xml", "status": "verified"}]
    text = json.loads(api.handle("csv", json.dumps({"rows": rows})))["csv"]
    got = list(csv.reader(io.StringIO(text, newline="")))
    assert [r[0] for r in got] == ["path", "a\rb.xml", "c\nd.xml"]


@pytest.mark.parametrize(
    ("code", "carried"),
    [
        ("deal_mismatch", {"category": "tile", "where": "deal"}),
        ("ura_mismatch", {"category": "tile", "where": "ura"}),
        ("md5_match", {"category": "digest", "outcome": "match"}),
        ("salt_hash_mismatch", {"category": "digest", "outcome": "mismatch"}),
        ("no_hash", {"category": "digest", "outcome": "missing"}),
        ("deal_not_committed", {"category": "digest", "outcome": "note"}),
        ("log_format", {"category": "input"}),
        ("bad_seed", {"category": "input"}),
        ("incomplete_log", {"category": "record"}),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_findings_json_carries_its_category(code: str, carried: dict[str, str]) -> None:
    d = Finding(code, Severity.ERROR, None, "m").to_dict()
    assert {k: d[k] for k in ("category", "where", "outcome") if k in d} == carried


def test_every_tile_and_digest_code_is_documented() -> None:
    from pywall.core.findings import DIGEST_CODES, INPUT_CODES, TILE_CODES

    assert set(TILE_CODES) | set(DIGEST_CODES) | INPUT_CODES <= set(CODES)
