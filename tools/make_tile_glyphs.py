"""Write pywall/pictures/tile_glyphs.py: the kanji outlines the tile faces use, taken once from a font.

A development tool, run by hand when the glyph set changes; nothing at run time or in
the build needs it. It reads Noto Serif CJK JP Bold (SIL Open Font License 1.1) with
fontTools and writes each glyph's outline as compact SVG path data, so the tiles look
the same on every system, with or without a CJK font.

Setup on Debian, without installing the font system-wide (fontTools in a throwaway venv):

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb /tmp/noto
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools==4.68.0
    /tmp/ft/bin/python tools/make_tile_glyphs.py \\
        /tmp/noto/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

(`apt-get install fonts-noto-cjk` gives the same file under /usr/share/fonts/.)
The output is the same for the same font file: fonts-noto-cjk 1:20220127+repack1-1
(Noto Serif CJK version 2.001) made the committed file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "pywall" / "pictures" / "tile_glyphs.py"
FAMILY = "Noto Serif CJK JP"
#: Numerals of the characters suit (5 as 伍, as printed on tiles), 萬, the winds, 發, 中.
CHARS = "一二三四伍六七八九萬東南西北發中"
#: Output units per em: integer coordinates at 1/200 em keep the data small and smooth.
EM = 200
ASCENT = 880  # Noto CJK's ideographic em box runs from -120 to 880 font units


def font_from(path: Path):  # type: ignore[no-untyped-def]
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() == ".ttc":
        for font in TTCollection(str(path)).fonts:
            if font["name"].getDebugName(1).startswith(FAMILY):
                return font
        sys.exit(f"{path} holds no {FAMILY} face")
    return TTFont(str(path))


def outline(font, char: str) -> list[tuple[str, tuple[tuple[float, float], ...]]]:  # type: ignore[no-untyped-def]
    from fontTools.pens.recordingPen import DecomposingRecordingPen

    glyph_set = font.getGlyphSet()
    name = font.getBestCmap()[ord(char)]
    pen = DecomposingRecordingPen(glyph_set)
    glyph_set[name].draw(pen)
    return pen.value


def scaled(x: float, y: float, upm: int) -> tuple[int, int]:
    """Font units (y up) to output units (y down, 0 at the em box's top)."""
    return round(x * EM / upm), round((ASCENT - y) * EM / upm)


def number(n: int, first: bool) -> str:
    return str(n) if first or n < 0 else f" {n}"


def path_data(ops, upm: int) -> tuple[str, tuple[int, int, int, int]]:  # type: ignore[no-untyped-def]
    """Relative SVG path commands from rounded absolute points (so no error accumulates),
    and the outline's box (x0, y0, x1, y1)."""
    out: list[str] = []
    cur = start = (0, 0)
    xs: list[int] = []
    ys: list[int] = []
    letters = {"lineTo": "l", "curveTo": "c", "qCurveTo": "q"}
    for op, args in ops:
        if op == "closePath" or op == "endPath":
            out.append("z")
            cur = start
            continue
        points = [scaled(x, y, upm) for x, y in args]
        for x, y in points:
            xs.append(x)
            ys.append(y)
        if op == "moveTo":
            ((x, y),) = points
            out.append(f"m{x - cur[0]}{number(y - cur[1], False)}" if out else f"M{x} {y}")
            cur = start = (x, y)
            continue
        if op == "qCurveTo" and len(points) != 2:
            raise SystemExit(
                "implied on-curve quadratic points are not supported (use the CFF font)"
            )
        text = letters[op]
        first = True
        for x, y in points:
            text += number(x - cur[0], first) + number(y - cur[1], False)
            first = False
        out.append(text)
        cur = points[-1]
    return "".join(out), (min(xs), min(ys), max(xs), max(ys))


def module_text(font) -> str:  # type: ignore[no-untyped-def]
    upm = font["head"].unitsPerEm
    name = font["name"]
    rows = []
    for char in CHARS:
        data, box = path_data(outline(font, char), upm)
        rows.append(f'    "{char}": (\n        {box!r},\n        "{data}",\n    ),')
    header = f'''"""Kanji outlines for the tile faces (pywall.pictures.tile_art): GENERATED, do not edit.

Made by tools/make_tile_glyphs.py from {name.getDebugName(4)}, {name.getDebugName(5).split(";")[0]},
{name.getDebugName(0).rstrip(".")}, under the SIL Open Font License 1.1.
These outlines are a derivative of that font and are under the same licence: see
OFL-noto-cjk.txt beside this file. Coordinates are 1/{EM} em, y down, 0 at the top of
the ideographic em box; each glyph is ((x0, y0, x1, y1) its box, SVG path data).
"""

from __future__ import annotations

EM = {EM}

GLYPHS: dict[str, tuple[tuple[int, int, int, int], str]] = {{
'''
    return header + "\n".join(rows) + "\n}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("font", type=Path, help="NotoSerifCJK-Bold.ttc (or an OTF of the JP face)")
    args = parser.parse_args()
    OUT.write_text(module_text(font_from(args.font)), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
