"""The picture of a wall: well-formed SVG with every wall tile once, where the layout puts
it; names and titles are text, never markup."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pywall.checks import tenhou
from pywall.core.errors import PywallError
from pywall.core.tiles import tile_text
from pywall.page import api
from pywall.page.picture_round import drawing_from
from pywall.pictures.picture import LABELS, drawing_of, drawing_of_round, wall_svg
from pywall.pictures.tile_art import CODES
from pywall.results.check import check_log
from pywall.results.exports import seed_layout, wall_dict
from tests.helpers import ROOT, vector_seed

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
TAMPERED = ROOT / "web" / "samples" / "sample-game-one-draw-changed.xml"
HOSTILE = "<script>alert(1)</script>&amp;\x01\u202e"


def seed_round(players: int = 4, index: int = 0) -> dict[str, Any]:
    seed = vector_seed()
    walls = tenhou.walls(seed, index + 1, players)
    return wall_dict(index, walls[index], players, tenhou.parse_seed(seed).era)


def log_round(bad: bool) -> tuple[dict[str, Any], list[str]]:
    report = check_log(TAMPERED.name, TAMPERED.read_bytes(), detail=True).to_dict()
    rnd = next(r for r in report["rounds"] if (r["result"] != "verified") == bad)
    return rnd, report["game"]["players"]


def wall_tiles(root: ET.Element) -> list[ET.Element]:
    return [u for u in root.iter(f"{SVG}use") if u.get("class") == "tile"]


def faces(root: ET.Element) -> set[str]:
    return {g.get("id", "") for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("pw-")}


@pytest.mark.parametrize("players", [4, 3], ids=["4p", "3p"])
def test_a_seed_wall_is_well_formed_with_every_tile_once(players: int) -> None:
    rnd = seed_round(players)
    root = ET.fromstring(wall_svg(drawing_from(rnd), title="Round 1"))
    assert root.tag == f"{SVG}svg" and int(root.get("width", 0)) > 0
    tiles = wall_tiles(root)
    assert len(tiles) == (136 if players == 4 else 108)
    assert sorted(int(t.get("data-pos", -1)) for t in tiles) == list(range(len(rnd["wall"])))
    for t in tiles:
        pos, tile = int(t.get("data-pos", -1)), int(t.get("data-tile", -1))
        assert tile == rnd["wall"][pos]
        assert t.get(XLINK) == f"#pw-{tile_text(tile)}"
    # each face used is defined once, as tile_art draws it
    assert faces(root) == {f"pw-{tile_text(t)}" for t in rnd["wall"]}


def test_the_picture_follows_the_layout() -> None:
    rnd = seed_round()
    root = ET.fromstring(wall_svg(drawing_from(rnd)))
    y_of = {int(t.get("data-pos", -1)): float(t.get("y", 0)) for t in wall_tiles(root)}
    x_of = {int(t.get("data-pos", -1)): float(t.get("x", 0)) for t in wall_tiles(root)}
    layout = rnd["layout"]
    # a seat's hand is one row, in deal order
    for seat in layout["deal"]:
        assert len({y_of[p] for p in seat}) == 1
        assert [x_of[p] for p in seat] == sorted(x_of[p] for p in seat)
    # the live wall follows, in draw order, 17 a row
    live = layout["live"]
    assert min(y_of[p] for p in live) > max(y_of[p] for seat in layout["deal"] for p in seat)
    assert [(y_of[p], x_of[p]) for p in live] == sorted((y_of[p], x_of[p]) for p in live)
    assert len({y_of[p] for p in live[:17]}) == 1 and y_of[live[17]] > y_of[live[16]]
    # the dead wall: stacks of two, the upper tile above
    dead = layout["dead"]
    assert y_of[dead[1]] < y_of[dead[0]] and x_of[dead[1]] == x_of[dead[0]]


def test_red_fives_have_their_own_face_unless_off() -> None:
    rnd = seed_round()
    assert any(t in (16, 52, 88) for t in rnd["wall"])
    assert {"pw-0m", "pw-0p", "pw-0s"} & faces(ET.fromstring(wall_svg(drawing_from(rnd))))
    assert not {"pw-0m", "pw-0p", "pw-0s"} & faces(
        ET.fromstring(wall_svg(drawing_from(rnd), red=False))
    )


def test_a_mismatch_is_outlined_with_the_logs_tile() -> None:
    rnd, names = log_round(bad=True)
    root = ET.fromstring(wall_svg(drawing_from(rnd), names=names, title="x"))
    assert len(wall_tiles(root)) == 136
    bad = [e for e in rnd["events"] if not e[6]]
    assert len(bad) == 1
    pos, log = bad[0][0], bad[0][5]
    logs = [u for u in root.iter(f"{SVG}use") if u.get("class") == "log-tile"]
    assert [int(u.get("data-tile", -1)) for u in logs] == [log]
    outlines = [
        r
        for r in root.iter(f"{SVG}rect")
        if r.get("stroke") == "#b3261e" and r.get("stroke-width") == "3"
    ]
    assert len(outlines) == 1  # around the wall's tile at that position
    tile = next(t for t in wall_tiles(root) if t.get("data-pos") == str(pos))
    assert float(outlines[0].get("x", 0)) + 2 == float(tile.get("x", 0))
    assert float(outlines[0].get("y", 0)) + 2 == float(tile.get("y", 0))
    # a checked log's unused tiles are pale; a verified round has no log tile
    assert any(t.get("opacity") == ".45" for t in wall_tiles(root))
    good, _ = log_round(bad=False)
    assert not [
        u
        for u in ET.fromstring(wall_svg(drawing_from(good))).iter(f"{SVG}use")
        if u.get("class") == "log-tile"
    ]


def test_names_and_title_are_text_never_markup() -> None:
    rnd, names = log_round(bad=False)
    names = ["<script>x</script>\x01", *names[1:]]
    out = wall_svg(drawing_from(rnd), names=names, title=HOSTILE, labels={"live": HOSTILE})
    root = ET.fromstring(out)  # well-formed: the control character is replaced, not copied
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert "script" not in tags and "<script>" not in out
    texts = ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]
    assert "<script>alert(1)</script>&amp;\ufffd\u202e" in texts  # the title, as it was written
    assert any(t.startswith("1 <script>x</script>\ufffd · ") for t in texts)  # seat 1's name
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == "<script>alert(1)</script>&amp;\ufffd\u202e"  # type: ignore[union-attr]


def test_labels_replace_the_english_words() -> None:
    rnd = seed_round()
    english = [
        "".join(el.itertext())
        for el in ET.fromstring(wall_svg(drawing_from(rnd))).iter(f"{SVG}text")
    ]
    assert "East (dealer)" in english and LABELS["live"] in english
    ja = {"wind0": "東", "dealer": "親", "live": "山（ツモ順）"}
    texts = [
        "".join(el.itertext())
        for el in ET.fromstring(wall_svg(drawing_from(rnd), labels=ja)).iter(f"{SVG}text")
    ]
    assert "東 (親)" in texts and "山（ツモ順）" in texts


def test_a_wall_without_a_layout_is_drawn_as_stored() -> None:
    """SEGA's wall (its place round the table is not published): 17 a row, in index order."""
    wall = seed_round()["wall"]
    root = ET.fromstring(wall_svg(drawing_from({"wall": wall, "dice": [3, 4]}), red=False))
    tiles = wall_tiles(root)
    assert [int(t.get("data-tile", -1)) for t in tiles] == wall
    rows = [float(t.get("y", 0)) for t in tiles]
    assert rows == sorted(rows) and len(set(rows)) == 8  # 136 = 8 rows of 17
    texts = ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]
    assert LABELS["order"] in texts and "Dice: 3 + 4" in texts
    assert [t for t in texts if t.isdigit()] == [str(1 + 17 * k) for k in range(8)]
    assert LABELS["hands"] not in texts and LABELS["dead"] not in texts


def test_a_wall_that_holds_no_deal_has_no_hands() -> None:
    """Mahjong Soul before 2023-05-23: the wall is the 83 undealt tiles."""
    record = (
        ROOT
        / "tests"
        / "data"
        / "majsoul"
        / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
    )
    report = check_log(record.name, record.read_bytes(), detail=True).to_dict()
    rnd = report["rounds"][0]
    assert rnd["layout"]["scheme"] == "undealt" and len(rnd["wall"]) == 83
    root = ET.fromstring(wall_svg(drawing_from(rnd), names=report["game"]["players"]))
    assert sorted(int(t.get("data-pos", -1)) for t in wall_tiles(root)) == list(range(83))
    texts = ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]
    assert LABELS["hands"] not in texts and LABELS["live"] in texts


@pytest.mark.parametrize(
    "change",
    [
        {"wall": None},
        {"wall": [0, 1, 999]},
        {"wall": "1m"},
        {"layout": "front"},
        {"layout": {"live": [500]}},
        {"layout": {"deal": [[0]] * 5}},
        {"dice": [0, 7]},
        {"dice": [3]},
        {"dice": [1, 2, 3]},
        {"events": [[1, 2]]},
    ],
    ids=lambda c: json.dumps(c)[:40],
)
def test_a_malformed_round_is_a_pywall_error(change: dict[str, Any]) -> None:
    with pytest.raises(PywallError):
        wall_svg(drawing_from({**seed_round(), **change}))


def test_one_die_is_said_in_words_not_an_internal_error() -> None:
    reply = json.loads(api.handle("wall_svg", json.dumps({"round": {"wall": [1, 2], "dice": [3]}})))
    assert reply["error"] == {
        "code": "bad_value",
        "message": "the round's dice must be two numbers 1-6",
    }


def test_the_api_draws_the_pages_round() -> None:
    rnd = seed_round()
    reply = json.loads(
        api.handle(
            "wall_svg",
            json.dumps({"round": rnd, "title": "Round 1", "red": True, "labels": {"wind0": "東"}}),
        )
    )
    root = ET.fromstring(reply["svg"])
    assert len(wall_tiles(root)) == 136
    assert any("".join(t.itertext()).startswith("東") for t in root.iter(f"{SVG}text"))
    bad = json.loads(api.handle("wall_svg", json.dumps({"round": {"wall": [1, 999]}})))
    assert bad["error"]["code"] != "internal"
    bad = json.loads(api.handle("wall_svg", json.dumps({"round": rnd, "labels": {"live": 3}})))
    assert bad["error"]["code"] != "internal"


def test_every_face_code_can_be_drawn() -> None:
    """A wall holding every kind, red fives on and off, defines every face once."""
    rnd = seed_round()
    seen = faces(ET.fromstring(wall_svg(drawing_from(rnd)))) | faces(
        ET.fromstring(wall_svg(drawing_from(rnd), red=False))
    )
    assert seen == {f"pw-{c}" for c in CODES}


# --- the typed paths draw what the page's JSON draws -----------------------------------


@pytest.mark.parametrize(
    "path",
    [
        TAMPERED,
        ROOT / "tests" / "data" / "tenhou" / "dnovikoff" / "sanma.xml",
        ROOT
        / "tests"
        / "data"
        / "majsoul"
        / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
        ROOT / "tests" / "data" / "riichicity" / "4ma_gin_han_sample.json",
    ],
    ids=["tenhou-tampered", "tenhou-3p", "majsoul-undealt", "riichicity"],
)
def test_a_reports_round_draws_as_its_json_does(path: Any) -> None:
    """drawing_of_round reads the typed RoundReport; the page sends its JSON: one picture."""
    report = check_log(path.name, path.read_bytes(), detail=True)
    names = report.game.players if report.game else ()
    for rnd in report.rounds:
        typed = wall_svg(drawing_of_round(rnd), names, title=rnd.label)
        assert typed == wall_svg(drawing_from(rnd.to_dict()), names, title=rnd.label)


def test_a_round_reported_without_detail_has_no_wall_to_draw() -> None:
    rnd = check_log(TAMPERED.name, TAMPERED.read_bytes()).rounds[0]
    with pytest.raises(PywallError, match="the report carries no wall"):
        drawing_of_round(rnd)


@pytest.mark.parametrize("players", [4, 3], ids=["4p", "3p"])
def test_a_seed_wall_draws_from_its_layout_as_its_json_does(players: int) -> None:
    """The CLI's typed path (the wall, seed_layout) and the walls reply's JSON: one picture;
    without a layout, the wall as stored (SEGA's)."""
    seed = vector_seed()
    era = tenhou.parse_seed(seed).era
    for i, wall in enumerate(tenhou.walls(seed, 2, players)):
        typed = drawing_of(wall.tiles, seed_layout(players, era), 0, wall.dice)
        assert wall_svg(typed) == wall_svg(drawing_from(wall_dict(i, wall, players, era)))
        stored = {"wall": list(wall.tiles), "dice": list(wall.dice or ())}
        assert wall_svg(drawing_of(wall.tiles, None, dice=wall.dice)) == wall_svg(
            drawing_from(stored)
        )
