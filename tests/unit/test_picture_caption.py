"""A wall picture says which game it shows (issue 24, item 10): the game's id, date,
round and seed (shortened on the picture, whole in its <desc>) or the round's digest,
each escaped as text; the CLI's ``pywall wall --svg`` and the page's ``wall_svg``
request draw it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

from pywall.checks import tenhou
from pywall.page import api
from pywall.page.picture_round import drawing_from
from pywall.pictures.picture import wall_svg
from pywall.results.exports import wall_dict
from tests.helpers import ROOT, vector_seed

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script>&amp;'


def seed_round(seed: str, index: int = 0) -> dict[str, Any]:
    walls = tenhou.walls(seed, index + 1, 4)
    return wall_dict(index, walls[index], 4, tenhou.parse_seed(seed).era)


def captions(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]


def desc(svg: str) -> str:
    node = ET.fromstring(svg).find(f"{SVG}desc")
    return "" if node is None else "".join(node.itertext())


def test_a_caption_names_the_game_date_round_and_seed() -> None:
    seed = vector_seed()
    caption = {
        "game": "2016022509gm-0009-0000-b327da61",
        "date": "2016-02-25 09:00",
        "round": "East 2, 1 honba",
        "seed": seed,
    }
    svg = wall_svg(drawing_from(seed_round(seed)), title="t", caption=caption)
    lines = captions(svg)
    assert (
        lines[0]
        == "Game 2016022509gm-0009-0000-b327da61 · Date 2016-02-25 09:00 · Round East 2, 1 honba"
    )
    assert lines[1] == f"Seed {seed[:40]}…{seed[-8:]}" and len(seed) > 1000
    # the whole seed stays in the picture, for anyone who wants to rebuild the wall
    assert desc(svg).splitlines() == [
        f"Game: {caption['game']}",
        f"Date: {caption['date']}",
        f"Round: {caption['round']}",
        f"Seed: {seed}",
    ]


def test_a_records_digest_and_the_readers_words() -> None:
    seed = vector_seed()
    labels = {"game": "対局", "round": "局", "digest": "牌山ハッシュ"}
    svg = wall_svg(
        drawing_from(seed_round(seed)),
        labels=labels,
        caption={"game": "abc", "round": "東1局", "digest": "md5 0123456789abcdef"},
    )
    assert captions(svg) == ["対局 abc · 局 東1局", "牌山ハッシュ md5 0123456789abcdef"]


def test_no_caption_no_lines() -> None:
    svg = wall_svg(drawing_from(seed_round(vector_seed())))
    assert captions(svg) == [] and ET.fromstring(svg).find(f"{SVG}desc") is None


def test_a_hostile_caption_is_text() -> None:
    svg = wall_svg(
        drawing_from(seed_round(vector_seed())), caption={"game": HOSTILE, "seed": HOSTILE}
    )
    root = ET.fromstring(svg)  # well-formed, or this raises
    assert not [el for el in root.iter() if el.tag.endswith("script")]
    assert captions(svg)[0] == f"Game {HOSTILE}" and HOSTILE in desc(svg)


def test_the_worker_request_takes_a_caption() -> None:
    seed = vector_seed()
    payload = {"round": seed_round(seed), "caption": {"round": "2", "seed": seed}}
    reply = json.loads(api.handle("wall_svg", json.dumps(payload)))
    assert captions(reply["svg"])[0] == "Round 2"
    bad = json.loads(api.handle("wall_svg", json.dumps({**payload, "caption": {"seed": 5}})))
    assert bad["error"]["code"] == "bad_request" and "caption" in bad["error"]["message"]


def test_the_cli_picture_names_its_round_and_seed() -> None:
    seed = vector_seed()
    out = subprocess.run(
        [sys.executable, "-m", "pywall", "wall", seed, "--svg", "-", "--round", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert captions(out) == ["Round 3", f"Seed {seed[:40]}…{seed[-8:]}"]
    assert f"Seed: {seed}" in desc(out)
