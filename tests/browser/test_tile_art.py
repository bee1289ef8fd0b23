"""Issue 12, items 16 and 17: tile faces that need no font (the shipped SVG art, offline,
in a Chromium that has no fonts at all), and a picture of any drawn wall (SVG and PNG
downloads, drawn by the same art)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, BrowserType, Page, expect

from pywall.checks.sega import tenhou_id_from_sega
from tests.browser.conftest import VIEWPORT, api_call, report_of
from tests.browser.test_page import READY_MS, WORK_MS, choose, open_ready, result, wait_controlled
from tests.browser.test_panels import MAJSOUL_FILE, SEGA
from tests.helpers import ROOT, vector_seed

pytestmark = pytest.mark.browser

SAMPLES = ROOT / "web" / "samples"

# Ink of a text or an image drawn on a canvas: how many pixels it covers, and how many
# of them are red (the red fives' art).
INK = """async ({ codes, text }) => {
  const count = (g, w, h) => {
    const d = g.getImageData(0, 0, w, h).data;
    let ink = 0, red = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 40) ink++;
      if (d[i + 3] > 40 && d[i] > 150 && d[i + 1] < 90 && d[i + 2] < 90) red++;
    }
    return { ink, red };
  };
  const out = {};
  for (const code of codes) {
    const img = new Image();
    img.src = `tiles/${code}.svg`;
    await img.decode();
    const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    out[code] = { ...count(g, c.width, c.height), width: img.naturalWidth };
  }
  // the same characters as text: the pixels this browser draws for each
  out.text = [...text].map((ch) => {
    const c = new OffscreenCanvas(64, 64);
    const g = c.getContext("2d");
    g.font = "48px serif";
    g.fillText(ch, 4, 52);
    return Array.from(g.getImageData(0, 0, 64, 64).data).join();
  });
  for (const code of codes) {
    const img = new Image();
    img.src = `tiles/${code}.svg`;
    await img.decode();
    const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
    c.getContext("2d").drawImage(img, 0, 0);
    out[code].pixels = Array.from(c.getContext("2d").getImageData(0, 0, c.width, c.height).data).join();
  }
  return out;
}"""

# Every tile of a node, once its face has loaded or failed: the face image (loaded?), the
# tile's label and all the text it holds.
TILES = """async (tiles) => {
  const faces = tiles.map((t) => t.querySelector("img")).filter(Boolean);
  await Promise.all(faces.map((img) => img.decode().catch(() => null)));
  return tiles.map((t) => {
  const imgs = t.querySelectorAll("img");
  const img = imgs[0];
  return { id: Number(t.dataset.tile), imgs: imgs.length, text: t.textContent,
           label: t.querySelector(".lbl").textContent, aria: t.getAttribute("aria-label"),
           src: img ? img.currentSrc : "", loaded: Boolean(img && img.complete && img.naturalWidth > 0) };
  });
}"""


def latin_fonts() -> list[str]:
    """The system's font files that have no glyph for 東 (fontconfig's own answer)."""
    if shutil.which("fc-list") is None:
        return []
    listed = [
        subprocess.run(
            ["fc-list", "-f", "%{file}\\n", *query], capture_output=True, text=True, check=False
        ).stdout.split()
        for query in ([], [":charset=6771"])
    ]
    return sorted(set(listed[0]) - set(listed[1]))


@pytest.fixture(scope="module")
def fontless(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Browser]:
    """Chromium that has no CJK font: fontconfig sees only the system's fonts without 東.
    (With no font at all Chromium aborts, so a Latin font stays.)"""
    fonts = latin_fonts()
    if not fonts:
        pytest.skip("fc-list found no font without CJK glyphs to run Chromium with")
    folder = tmp_path_factory.mktemp("latin-fonts")
    for i, path in enumerate(fonts):
        (folder / f"{i}{Path(path).suffix}").symlink_to(path)
    conf = folder / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?>\n<fontconfig><dir>{folder}</dir>'
        f"<cachedir>{folder / 'cache'}</cachedir></fontconfig>\n"
    )
    browser = browser_type.launch(
        **browser_type_launch_args, env={**os.environ, "FONTCONFIG_FILE": str(conf)}
    )
    yield browser
    browser.close()


@pytest.fixture
def fontless_page(fontless: Browser, site_url: str) -> Iterator[Page]:
    context = fontless.new_context(base_url=site_url, locale="en-US", viewport=VIEWPORT)
    yield context.new_page()
    context.close()


# --- 17. tile faces that do not depend on the reader's fonts ---------------------------------


def test_tiles_are_the_shipped_art_without_fonts_and_offline(
    fontless_page: Page, shot: Any
) -> None:
    page = fontless_page
    open_ready(page)
    wait_controlled(page)
    page.context.set_offline(True)
    page.goto(f"/#tenhou={vector_seed()}&round=1")
    page.reload()
    wall = page.locator("#seed-wall")
    expect(wall.locator(".slot")).to_have_count(136, timeout=READY_MS)
    tiles = wall.locator(".tile").evaluate_all(TILES)
    assert len(tiles) == 136
    for tile in tiles:
        # the face is one image of the site's art, loaded from the service worker's cache
        assert tile["imgs"] == 1 and tile["loaded"], tile
        assert tile["src"].endswith(f"/tiles/{tile['label']}.svg"), tile
        # no glyph: the only text in a tile is its mpsz label (ASCII); its name is the aria-label
        assert tile["text"] == tile["label"] and tile["label"].isascii(), tile
        assert tile["aria"].startswith(tile["label"]), tile
    red = next(t for t in tiles if t["id"] == 52)
    assert red["label"] == "0p" and "red five" in red["aria"]

    art = page.evaluate(
        INK, {"codes": ["1z", "2z", "0p", "5p", "0s", "5s", "0m", "5m"], "text": "東南"}
    )
    # this browser has no CJK font: as text, 東 and 南 are the same empty box
    assert art["text"][0] == art["text"][1]
    # as tiles they are drawn all the same, and differ
    assert art["1z"]["width"] == 48 and art["1z"]["ink"] > 300
    assert art["1z"]["pixels"] != art["2z"]["pixels"]
    for suit in "psm":
        # a red five is redder in its art than a five (its numeral, all its circles or sticks)
        red, five = art[f"0{suit}"]["red"], art[f"5{suit}"]["red"]
        assert red > five + 150, (suit, red, five)
    shot("tile-art-no-fonts-offline", page)


def test_every_page_tile_is_an_image(page: Page) -> None:
    """The calculator (and every other view) draws tiles with the same function."""
    page.goto("/calc.html#q=123m456p789s1122z")
    tiles = page.locator(".calc-hand .tile")
    expect(tiles).to_have_count(13, timeout=READY_MS)
    for tile in tiles.evaluate_all(TILES):
        assert tile["loaded"] and tile["text"] == tile["label"], tile


# --- 16. a picture of a wall: SVG and PNG downloads, drawn by the same art --------------------

SVG_NS = "{http://www.w3.org/2000/svg}"
HOSTILE_NAME = "<script>x()</script>"  # short enough to be drawn whole


def download(page: Page, scope: Any, kind: str) -> bytes:
    with page.expect_download(timeout=WORK_MS) as info:
        scope.get_by_role("button", name=f"Download as {kind.upper()}").click()
    got = info.value
    assert got.suggested_filename.endswith(f".{kind}")
    return Path(got.path()).read_bytes()


def wall_tiles(svg: bytes) -> dict[int, int]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG_NS}svg"
    return {
        int(u.get("data-pos", -1)): int(u.get("data-tile", -1))
        for u in root.iter(f"{SVG_NS}use")
        if u.get("class") == "tile"
    }


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def svg_size(svg: bytes) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(float(root.get("width", 0))), int(float(root.get("height", 0)))


def test_a_seed_wall_downloads_as_svg_and_png(fresh: Page) -> None:
    seed = vector_seed()
    page = fresh
    page.evaluate("f => { location.hash = f; }", f"#tenhou={seed}&round=2")
    wall = page.locator("#seed-wall")
    expect(wall.locator(".slot")).to_have_count(136, timeout=WORK_MS)
    svg = download(page, wall, "svg")
    expected = api_call("walls", {"seed": seed, "rounds": 2})["rounds"][1]["wall"]
    assert wall_tiles(svg) == dict(enumerate(expected))  # the wall's 136 tiles, where they are
    assert "Round 2 · 4 players" in svg.decode("utf-8")
    png = download(page, wall, "png")
    width, height = png_size(png)
    assert (width, height) == tuple(2 * n for n in svg_size(svg)) and len(png) > 10_000


def test_a_checked_rounds_picture_keeps_names_as_text(fresh: Page, tmp_path: Path) -> None:
    text = (SAMPLES / "sample-game-one-draw-changed.xml").read_text(encoding="utf-8")
    hostile = tmp_path / "hostile-names.xml"
    hostile.write_text(
        text.replace('n0="%4E%6F%4E%61%6D%65"', f'n0="{quote(HOSTILE_NAME)}"', 1), encoding="utf-8"
    )
    report = report_of(hostile.name, hostile.read_bytes())
    assert report["game"]["players"][0] == HOSTILE_NAME
    bad = next(r for r in report["rounds"] if r["result"] == "mismatch")
    page = fresh
    choose(page, hostile)
    node = result(page, hostile.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    wall = node.locator(f'details.round[data-round="{bad["index"]}"] .wall')
    expect(wall).to_be_visible()
    svg = download(page, wall, "svg")
    assert wall_tiles(svg) == dict(enumerate(bad["wall"]))
    root = ET.fromstring(svg)
    assert not [el for el in root.iter() if el.tag.endswith("script")]
    texts = ["".join(el.itertext()) for el in root.iter(f"{SVG_NS}text")]
    assert any(t.startswith(f"1 {HOSTILE_NAME} · ") for t in texts)
    # the mismatch is in the picture too: the log's tile beside the wall's
    log_tiles = [u for u in root.iter(f"{SVG_NS}use") if u.get("class") == "log-tile"]
    assert [int(u.get("data-tile", -1)) for u in log_tiles] == [
        e[5] for e in bad["events"] if not e[6]
    ]
    assert len(download(page, wall, "png")) > 10_000


def test_the_embed_offers_its_wall_as_pictures(page: Page) -> None:
    page.goto(f"/embed.html#tenhou={vector_seed()}&round=1&players=3&lang=ja")
    wall = page.locator("#seed-wall")
    expect(wall.locator(".slot")).to_have_count(108, timeout=READY_MS)
    with page.expect_download(timeout=WORK_MS) as info:
        wall.get_by_role("button", name="SVG でダウンロード").click()
    svg = Path(info.value.path()).read_bytes()
    assert len(wall_tiles(svg)) == 108
    assert "三人打ち" in svg.decode("utf-8")  # the page's words, in the page's language
    with page.expect_download(timeout=WORK_MS) as info:
        wall.get_by_role("button", name="PNG でダウンロード").click()
    assert png_size(Path(info.value.path()).read_bytes())[0] > 0


def test_the_tool_walls_download_as_stored(fresh: Page) -> None:
    """SEGA's wall and a Mahjong Soul paishan have no published layout: their pictures hold
    the tiles in the order the tools show them."""
    case = SEGA[0]
    page = fresh
    page.evaluate(
        "f => { location.hash = f; }",
        f"#tool=sega&seeds={','.join(case['player_seeds'])}&u={case['uncertainty']}",
    )
    panel = page.locator("#tool-sega")
    expect(panel.locator(".sega-wall .tile")).to_have_count(136, timeout=WORK_MS)
    svg = download(page, panel, "svg")
    assert list(wall_tiles(svg).values()) == [tenhou_id_from_sega(t) for t in case["wall"]]
    assert "Wall (136 tiles in SEGA's order)" in svg.decode("utf-8")
    assert png_size(download(page, panel, "png"))[0] > 0

    page.evaluate("() => { location.hash = '#tool=majsoul'; }")
    panel = page.locator("#tool-majsoul")
    panel.get_by_label("Game record (JSON)").set_input_files(str(MAJSOUL_FILE))
    expect(panel.locator(".ms-result")).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    shown = panel.locator(".ms-wall .tile").evaluate_all(
        "ns => ns.map(n => Number(n.dataset.tile))"
    )
    assert list(wall_tiles(download(page, panel, "svg")).values()) == shown
