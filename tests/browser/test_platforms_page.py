"""Mahjong Soul and Riichi City records on the built page, as a person uses it: the
real records verify with the tiles checked that ``pywall verify --json`` gives, every
round shows its digest's result and what it covers, the page says what the checks
cannot prove, and an altered copy of each record (made here from the fixture) is
reported at exactly the round, turn and player that was changed.

The tests share one loaded page (a load is most of a browser test's cost), each starting
from what a fresh page shows (``fresh``: English, no results)."""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from pywall.core.tiles import tile_text
from tests.browser.conftest import cli_output, report_of
from tests.browser.test_page import WORK_MS, choose, result
from tests.helpers import DATA

pytestmark = pytest.mark.browser

MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
MS_EXCERPT = DATA / "majsoul" / "riichienv_mjsoul_corpus_validation.json"  # no digests
RC = sorted((DATA / "riichicity").glob("*.json"))
RECORDS = [MS, *RC]
#: Each record's digest line, as the page words it for a round whose digest matches.
LINES = {
    MS.name: "MD5 of the 83 undealt tiles matches — the deal is not covered by the hash",
    "4ma_gin_han_sample.json": "unsalted SHA-256 of the wall matches — covers the whole wall "
    "(136 tiles) (all 5 copies in the record)",
    "cnrkj069nc7ajnvadk30.json": "unsalted SHA-256 of the wall matches — covers the whole wall "
    "(108 tiles) (all 4 copies in the record)",
    "gameDataSample.json": "unsalted SHA-256 of the wall matches — covers the whole wall "
    "(108 tiles) (all 4 copies in the record)",
}
Record = dict[str, Any]


def cli_report(path: Path) -> dict[str, Any]:
    """``pywall verify --json PATH``: the one file's report as the CLI prints it."""
    _, out = cli_output("verify", "--json", str(path))
    files = json.loads(out)["files"]
    assert len(files) == 1
    return dict(files[0])


def open_rounds(node: Locator) -> None:
    """A batch folds verified games' rounds: open the list."""
    rounds = node.locator("details.rounds")
    if rounds.get_attribute("open") is None:
        rounds.locator("> summary").click()


# --- the real records ------------------------------------------------------------------


def test_real_records_verify_with_the_clis_count_and_each_rounds_digest(
    fresh: Page, shot: Any
) -> None:
    page = fresh
    choose(page, *RECORDS)
    for path in RECORDS:
        cli = cli_report(path)
        node = result(page, path.name)
        expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
        assert cli["status"] == "verified"
        expect(node.locator(".verdict-detail")).to_have_text(
            f"All {cli['checked']:,} tile events checked match the wall."
        )
        game = cli["game"]
        facts = node.locator("dl.game")
        expect(facts).to_contain_text(
            {"majsoul": "Mahjong Soul", "riichicity": "Riichi City"}[game["platform"]]
        )
        expect(facts).to_contain_text(game["game_id"])
        for name in game["players"]:
            expect(node.locator("ol.players")).to_contain_text(name)
        # each round: its label, and its digest's result with what it covers
        lines = node.locator(".wall-commitments .round-hashes li")
        expect(lines).to_have_count(len(cli["rounds"]))
        for r in cli["rounds"]:
            line = node.locator(f'.wall-commitments li[data-round="{r["index"]}"]')
            expect(line).to_have_attribute("data-hash", "match")
            expect(line).to_have_text(f"✓ {r['label']}: {LINES[path.name]}")
        expect(node.locator(".commitments-summary")).to_have_text(
            f"Digests of {len(cli['rounds'])} rounds: {len(cli['rounds'])} match."
        )
        # what the checks cannot prove, as the report lists it
        limits = node.locator(".wall-commitments .limits li")
        expect(limits).to_have_count(len(game["limits"]))
        assert limits.evaluate_all("ns => ns.map(n => n.dataset.limit)") == game["limits"]
        # the per-round hash results are not listed again as findings
        expect(node.locator('.findings li[data-code$="_match"]')).to_have_count(0)
        open_rounds(node)  # the rounds are drawn when the list opens: wait for them
        expect(node.locator("details.round .round-label")).to_have_text(
            [r["label"] for r in cli["rounds"]]
        )
    expect(result(page, MS.name).locator(".limits")).to_contain_text(
        "the MD5 covers only the undealt tiles"
    )
    expect(result(page, RC[0].name).locator(".limits")).to_contain_text("10¹⁸⁷")
    shot("platforms-verified", page)


@pytest.mark.parametrize(
    "path", [MS, RC[0], RC[1]], ids=["majsoul-md5", "riichicity-4p", "riichicity-3p"]
)
def test_a_rounds_wall_is_drawn_from_its_layout(fresh: Page, path: Path, shot: Any) -> None:
    """The wall drawing places each tile where the report's layout says (render.mjs
    computes no position); an MD5-era wall lacks the deal, whose hands are drawn beside it."""
    report = report_of(path.name, path.read_bytes())
    first = report["rounds"][0]
    page = fresh
    choose(page, path)
    node = result(page, path.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    round0 = node.locator('details.round[data-round="0"]')
    round0.locator("summary").click()
    slots = round0.locator(".wall .slot")
    expect(slots).to_have_count(len(first["wall"]))
    drawn = slots.evaluate_all(
        "ns => ns.map(n => [Number(n.dataset.pos), Number(n.querySelector('.tile').dataset.tile)])"
    )
    assert sorted(pos for pos, _ in drawn) == list(range(first["layout"]["size"]))
    assert all(first["wall"][pos] == tile for pos, tile in drawn)
    live = round0.locator(".tiles.live .slot").evaluate_all(
        "ns => ns.map(n => Number(n.dataset.pos))"
    )
    assert live == first["layout"]["live"]
    off_wall = round0.locator(".off-wall-hands .tile")
    if first["layout"]["deal"][0]:
        expect(off_wall).to_have_count(0)
    else:  # MD5 era: 13 tiles a seat and the dealer's 14th, as the record states them
        expect(off_wall).to_have_count(sum(len(h) for h in first["hands"]))
        expect(round0.locator(".wall")).to_contain_text("the committed wall does not hold the deal")
    digests = round0.locator(".round-digests li")
    expect(digests).to_have_count(len(first["hashes"]))
    expect(digests.first).to_contain_text(first["hashes"][0]["stated"])
    shot(f"platform-wall-{path.stem[:12]}", round0)


def test_a_record_without_digests_says_nothing_commits_its_wall(fresh: Page) -> None:
    cli = cli_report(MS_EXCERPT)
    page = fresh
    choose(page, MS_EXCERPT)
    node = result(page, MS_EXCERPT.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(node.locator(".verdict-detail")).to_contain_text(f"{cli['checked']:,}")
    line = node.locator('.wall-commitments li[data-round="0"]')
    expect(line).to_have_attribute("data-hash", "none")
    expect(line).to_contain_text("no hash in the record: nothing commits this wall")
    expect(node.locator('.findings li[data-code="no_hash"]')).to_have_count(1)
    expect(node.locator('.limits li[data-limit="no_commitment"]')).to_have_count(1)
    expect(node.locator("ol.players li").first).to_have_text(
        "E East"
    )  # no names in the excerpt: the wind


# --- altered records -----------------------------------------------------------------------


def other_code(code: str) -> str:
    return "1z" if code != "1z" else "2z"


def other_int(code: int) -> int:
    return 0x31 if code != 0x31 else 0x41


def alter_majsoul(record: Record, round_index: int, nth: int) -> tuple[int, int, int, str]:
    """Change the ``nth`` draw of a round; (seat, turn, draw k, the new tile)."""
    actions = [a["result"] for a in record["data"]["data"]["actions"] if "result" in a]
    starts = [i for i, e in enumerate(actions) if e["name"].endswith("NewRound")]
    start, end = starts[round_index], (starts + [len(actions)])[round_index + 1]
    dealer = actions[start]["data"]["ju"]
    draws = [e["data"] for e in actions[start:end] if e["name"].endswith("DealTile")]
    d = draws[nth]
    d["tile"] = other_code(d["tile"])
    seat = d["seat"]
    turn = sum(x["seat"] == seat for x in draws[: nth + 1]) + (seat == dealer)  # 14th in hand
    return seat, turn, nth + 1, d["tile"]


def alter_riichicity(record: Record, round_index: int, nth: int) -> tuple[int, int, int, str]:
    """Change the ``nth`` live draw (event 2 with a tile) of a round."""
    rnd = record["data"]["handRecord"][round_index]
    events = rnd["handEventRecord"]
    start = json.loads(next(e["data"] for e in events if e["eventType"] == 1))
    # seats counted from the first round's dealer (seat 0 = East of the first round), as on
    # every platform; the record lists its players in another order
    first_round = record["data"]["handRecord"][0]["handEventRecord"]
    first = json.loads(next(e["data"] for e in first_round if e["eventType"] == 1))
    players = len(start["user_info_list"])
    seats = {
        u["user_id"]: (s - first["dealer_pos"]) % players
        for s, u in enumerate(start["user_info_list"])
    }
    dealer = (start["dealer_pos"] - first["dealer_pos"]) % players
    draws = [e for e in events if e["eventType"] == 2 and json.loads(e["data"]).get("in_card")
             and not json.loads(e["data"]).get("is_gang_incard")]  # fmt: skip
    event = draws[nth]
    data = json.loads(event["data"])
    data["in_card"] = other_int(data["in_card"])
    event["data"] = json.dumps(data)
    seat = seats[event["userId"]]
    turn = sum(seats[e["userId"]] == seat for e in draws[: nth + 1]) + (seat == dealer)
    # the draw's number in the round counts the dealer's 14th tile (the first live tile)
    return seat, turn, nth + 2, "1z" if data["in_card"] == 0x31 else "2z"


ALTERED = [(MS, alter_majsoul, 2, 9), *[(p, alter_riichicity, 1, 6) for p in RC]]


def test_an_altered_draw_is_shown_at_its_round_turn_and_player(
    fresh: Page, tmp_path: Path, shot: Any
) -> None:
    expected = []
    for path, alter, round_index, nth in ALTERED:
        record = json.loads(path.read_text(encoding="utf-8"))
        seat, turn, k, tile = alter(record, round_index, nth)
        bad = tmp_path / f"altered-{path.name}"
        bad.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        cli = cli_report(bad)
        assert cli["status"] == "mismatch"
        (finding,) = [f for f in cli["findings"] if f["severity"] == "error"]
        assert finding["code"] == "draw_mismatch" and finding["round"] == round_index
        assert (finding["data"]["seat"], finding["data"]["turn"], finding["data"]["k"]) == (
            seat,
            turn,
            k,
        )
        assert tile_text(finding["data"]["log"]) == tile
        expected.append((bad, cli, finding))
    page = fresh
    choose(page, *[bad for bad, _, _ in expected])
    for bad, cli, finding in expected:
        node = result(page, bad.name)
        expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
        expect(node.locator(".verdict-detail")).to_have_text(
            f"1 of {cli['checked']:,} tile events checked do not match the wall."
        )
        d = finding["data"]
        label = cli["rounds"][finding["round"]]["label"]
        name = cli["game"]["players"][d["seat"]]
        players = cli["game"]["player_count"]
        wind = ["East", "South", "West", "North"][
            (d["seat"] - cli["rounds"][finding["round"]]["dealer"]) % players
        ]
        words = (
            f"{label}: the draw by {name} ({wind}) on turn {d['turn']} is {tile_text(d['log'])} "
            f"in the record, {tile_text(d['wall'])} in the wall"
        )
        expect(node.locator('.findings li[data-code="draw_mismatch"]')).to_have_text(
            f"error: {words}"
        )
        # exactly that round is open and mismatched, its wall marks exactly that position
        expect(node.locator('details.round[data-result="mismatch"]')).to_have_count(1)
        bad_round = node.locator(f'details.round[data-round="{finding["round"]}"]')
        expect(bad_round).to_have_attribute("open", "")
        expect(bad_round.locator(".slot.bad")).to_have_count(1)
        expect(bad_round.locator(".slot.bad")).to_have_attribute("data-pos", str(d["position"]))
        expect(bad_round.locator(".slot.bad .tile").first).to_have_attribute(
            "aria-label", re.compile(re.escape(f"drawn by {name} ({wind})"))
        )
        # the digests still match: the record's draw was changed, not its wall
        expect(node.locator(".commitments-summary")).to_contain_text(f"{len(cli['rounds'])} match")
    shot("platform-altered-draw", result(page, expected[0][0].name))


def test_a_majsoul_record_with_its_hash_altered_shows_the_hash_finding(
    fresh: Page, tmp_path: Path
) -> None:
    record = json.loads(MS.read_text(encoding="utf-8"))
    starts = [a["result"]["data"] for a in record["data"]["data"]["actions"]
              if a.get("result", {}).get("name", "").endswith("NewRound")]  # fmt: skip
    starts[4]["md5"] = "0" * 32
    bad = tmp_path / "md5-altered.json"
    bad.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    cli = cli_report(bad)
    assert [(f["code"], f["round"]) for f in cli["findings"] if f["severity"] == "error"] == [
        ("md5_mismatch", 4)
    ]
    page = fresh
    choose(page, bad)
    node = result(page, bad.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(node.locator('.findings li[data-code="md5_mismatch"]')).to_contain_text(
        "South 1, 1 honba: md5 does not match"
    )
    line = node.locator('.wall-commitments li[data-round="4"]')
    expect(line).to_have_attribute("data-hash", "mismatch")
    expect(line).to_have_text(
        "✗ South 1, 1 honba: MD5 of the 83 undealt tiles does not match — "
        "the wall shown is not the one committed to"
    )
    expect(node.locator(".commitments-summary")).to_have_text(
        "Digests of 9 rounds: 8 match, 1 does not match."
    )
    expect(node.locator('.wall-commitments li[data-hash="match"]')).to_have_count(8)
    round4 = node.locator('details.round[data-round="4"]')
    expect(round4).to_have_attribute("data-result", "mismatch")
    expect(round4.locator(".slot.bad")).to_have_count(0)  # every tile is still where the wall says
    expect(round4.locator('.round-digests li[data-match="false"]')).to_contain_text("0" * 32)


# --- archives, gzip, languages --------------------------------------------------------------


def test_records_inside_a_zip_and_gzip(fresh: Page, tmp_path: Path) -> None:
    archive = tmp_path / "records.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(MS, "ms/game.json")
        zf.write(RC[1], "rc/game")  # no name says what it is: the content does
    packed = tmp_path / "rc.json.gz"
    packed.write_bytes(gzip.compress(RC[0].read_bytes()))
    page = fresh
    choose(page, archive, packed)
    expect(result(page, "records.zip")).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    for name, path in (
        ("records.zip/ms/game.json", MS),
        ("records.zip/rc/game", RC[1]),
        ("rc.json.gz", RC[0]),
    ):
        node = result(page, name)
        expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
        cli = cli_report(path)
        expect(node.locator(".verdict-detail")).to_contain_text(
            f"All {cli['checked']:,} tile events"
        )
        expect(node.locator(".wall-commitments .round-hashes li")).to_have_count(len(cli["rounds"]))
        expect(node.locator('.wall-commitments li[data-hash="match"]')).to_have_count(
            len(cli["rounds"])
        )


def test_a_broken_record_says_why_without_a_traceback(fresh: Page, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(RC[2].read_text(encoding="utf-8")[:5000], encoding="utf-8")
    page = fresh
    choose(page, broken)
    node = result(page, "broken.json")
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    expect(node.locator(".findings")).to_contain_text("not JSON")
    assert "Traceback" not in node.inner_text()


@pytest.mark.parametrize(
    ("lang", "heading", "line", "limit", "where"),
    [
        (
            "ja",
            "牌山のコミットメント（ハッシュ）",
            "東1局 0 本場: 配られていない 83 枚の MD5 が一致 — 配牌はハッシュに含まれません",
            "2023-05-23 より前の雀魂",
            "巡目のツモ",
        ),
        (
            "zh",
            "牌山承诺（哈希）",
            "东1局 0 本场: 未发出的 83 张牌的 MD5 一致 — 配牌不在哈希范围内",
            "2023-05-23 之前的雀魂",
            "巡的摸牌",
        ),
    ],
    ids=["ja", "zh"],
)
def test_the_words_in_japanese_and_chinese(
    fresh: Page, tmp_path: Path, lang: str, heading: str, line: str, limit: str, where: str
) -> None:
    record = json.loads(MS.read_text(encoding="utf-8"))
    alter_majsoul(record, 2, 9)
    bad = tmp_path / "altered.json"
    bad.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    page = fresh
    page.select_option("#lang", lang)
    choose(page, MS, bad)
    node = result(page, MS.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(node.locator(".wall-commitments h4")).to_have_text(heading)
    expect(node.locator('.wall-commitments li[data-round="0"]')).to_have_text(f"✓ {line}")
    expect(node.locator('.limits li[data-limit="deal_outside_hash"]')).to_contain_text(limit)
    altered = result(page, "altered.json")
    expect(altered).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    expect(altered.locator('.findings li[data-code="draw_mismatch"]')).to_contain_text(where)
    expect(altered.locator("dl.game")).to_contain_text("雀魂")
