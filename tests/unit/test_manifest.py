"""The installed app (issue 33, item 10): the web app manifest is valid and complete, its
icons are the PNGs tools/make_icons.py writes, at the sizes it names, and the page links
the manifest, its theme colour and an apple-touch-icon."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_build

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "manifest.webmanifest").read_text(encoding="utf-8"))
    return data


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_manifest_has_what_an_installable_app_needs() -> None:
    m = manifest()
    assert m["name"].startswith("pywall") and m["short_name"] == "pywall"
    assert m["start_url"] == "./" and m["scope"] == "./" and m["display"] == "standalone"
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", m[key]), key
    pngs = {i["sizes"]: i for i in m["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= set(pngs)
    assert any(i["purpose"] == "maskable" for i in m["icons"])
    for icon in m["icons"]:
        path = WEB / icon["src"]
        assert path.is_file(), icon["src"]
        if icon["type"] == "image/png":
            w, h = (int(x) for x in icon["sizes"].split("x"))
            assert png_size(path) == (w, h), icon["src"]


def test_every_manifest_file_is_part_of_the_site() -> None:
    """Copied into site/ and so precached by the service worker (write_service_worker
    lists every site file): the installed app opens offline."""
    build = load_build()
    names = set(build.PAGE_FILES)
    assert "manifest.webmanifest" in names and "apple-touch-icon.png" in names
    assert {i["src"] for i in manifest()["icons"]} <= names
    assert build.MIME_TYPES[".webmanifest"] == "application/manifest+json"


def test_the_page_links_the_manifest_theme_colour_and_touch_icon() -> None:
    page = (WEB / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    colour = re.search(r'<meta name="theme-color" content="(#[0-9a-f]{6})">', page)
    assert colour and colour.group(1) == manifest()["theme_color"]
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert touch and png_size(WEB / touch.group(1)) == (180, 180)


@pytest.mark.parametrize("name", ["icon-192.png", "apple-touch-icon.png"])
def test_the_icons_are_what_the_script_writes(name: str) -> None:
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "tools" / "make_icons.py")
    assert spec and spec.loader
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    size, scale = tool.ICONS[name]
    assert tool.png(size, scale) == (WEB / name).read_bytes()
