"""The tile faces: every code has a well-formed face drawn without text, red fives differ."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pywall.core.errors import PywallError
from pywall.core.tiles import tile_text
from pywall.pictures.tile_art import CODES, FACE_H, FACE_W, face_shapes, face_svg
from pywall.pictures.tile_glyphs import GLYPHS
from tests.helpers import load_build

SVG = "{http://www.w3.org/2000/svg}"


def test_there_is_a_face_for_every_tile_text() -> None:
    texts = {tile_text(t, red) for t in range(136) for red in (True, False)}
    assert texts == set(CODES)
    assert len(CODES) == 37


@pytest.mark.parametrize("code", CODES, ids=CODES)
def test_each_face_is_a_well_formed_svg_of_shapes_only(code: str) -> None:
    root = ET.fromstring(face_svg(code))
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == (str(FACE_W), str(FACE_H))
    tags = {el.tag.removeprefix(SVG) for el in root.iter()} - {"svg"}
    assert tags <= {"path", "circle", "rect", "ellipse", "g"}, tags
    assert tags, "an empty face"
    # no glyph depends on a font: there is no text at all
    assert "".join(root.itertext()).strip() == ""


@pytest.mark.parametrize("suit", "mps")
def test_a_red_five_is_drawn_differently_from_a_five(suit: str) -> None:
    red, five = face_shapes(f"0{suit}"), face_shapes(f"5{suit}")
    assert red != five
    assert "#c62828" in red
    # the red five's own marks are red: the numeral of 0m, every circle of 0p, every stick of 0s
    if suit == "p":
        fills = re.findall(r'r="8.5" fill="(#[0-9a-f]+)"', red)
        assert fills == ["#c62828"] * 5
    if suit == "s":
        assert re.findall(r'rx="3" fill="(#[0-9a-f]+)"', red) == ["#c62828"] * 5
        assert re.findall(r'rx="3" fill="(#[0-9a-f]+)"', five).count("#c62828") == 1


def test_the_glyphs_are_path_data_only() -> None:
    for char, (box, data) in GLYPHS.items():
        assert re.fullmatch(r"M[-0-9 mlcqzMLCQZ]+", data), char
        assert box[0] < box[2] and box[1] < box[3]


@pytest.mark.parametrize("bad", ["8z", "0z", "5x", "", "55m", "<m"], ids=repr)
def test_an_unknown_face_is_a_pywall_error(bad: str) -> None:
    with pytest.raises(PywallError):
        face_shapes(bad)


def test_the_whole_art_is_small() -> None:
    assert sum(len(face_svg(c).encode()) for c in CODES) < 60_000


def test_the_site_ships_these_faces_and_their_licence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """build.py writes tiles/CODE.svg from this module: one source of the art."""
    build = load_build()
    monkeypatch.setattr(build, "SITE", tmp_path)
    build.write_tile_faces()
    written = {p.name for p in (tmp_path / "tiles").iterdir()}
    assert written == {f"{c}.svg" for c in CODES} | {"LICENSE.txt"}
    for code in CODES:
        assert (tmp_path / "tiles" / f"{code}.svg").read_text(encoding="utf-8") == face_svg(code)
    assert "SIL OPEN FONT LICENSE Version 1.1" in (tmp_path / "tiles" / "LICENSE.txt").read_text(
        encoding="utf-8"
    )
