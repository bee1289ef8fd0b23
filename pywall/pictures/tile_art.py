"""The tile faces as SVG: the one source of tile art for the page and for wall pictures.

Every face is vector shapes, so a tile looks the same on any system, with or without a
CJK font: circles are circles, bamboo are rounded sticks, and the kanji (the numerals
and 萬 of the characters suit, the winds, 發 and 中) are outlines taken once from Noto
Serif CJK JP (``pywall.pictures.tile_glyphs``, SIL Open Font License 1.1). 白 is a blue frame.
Red fives are drawn in red throughout (the 伍 of 0m, all five circles of 0p, all five
sticks of 0s), so they differ from a 5 by their art, not only by a label.

A face is drawn in a box of ``FACE_W`` x ``FACE_H`` units (3:4, like a tile's face), on
a transparent ground: the tile's body (the page's CSS, or ``pywall.pictures.picture``'s rounded
rectangle) is drawn under it. Faces are named by their mpsz code (``tiles.tile_text``):
``1m``-``9m``, ``0m``, ..., ``1z``-``7z``. build.py writes ``face_svg(code)`` for each
code into the site as ``tiles/CODE.svg``; ``pywall.pictures.picture`` places ``face_shapes``.
"""

from __future__ import annotations

from pywall.core.errors import ValueInputError
from pywall.pictures.tile_glyphs import EM, GLYPHS

FACE_W = 48
FACE_H = 64

INK = "#1f1f1f"
RED = "#c62828"
GREEN = "#17753a"
BLUE = "#1d5aa8"

#: Every face: 1-9 of each suit with the red five (0) after 9, then the seven honours.
CODES = tuple(f"{n}{s}" for s in "mps" for n in "1234567890") + tuple(f"{n}z" for n in "1234567")

#: The numerals of the characters suit, as printed on tiles (5 is 伍).
NUMERALS = "一二三四伍六七八九"
HONOURS = "東南西北 發中"  # 5z (白) is a frame, not a glyph


def num(x: float) -> str:
    """A coordinate: at most three decimals, no trailing zeros."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def glyph(char: str, cx: float, cy: float, size: float, color: str) -> str:
    """A kanji's outline, ``size`` units to the em, its box centred on (cx, cy)."""
    (x0, y0, x1, y1), data = GLYPHS[char]
    s = size / EM
    tx, ty = cx - s * (x0 + x1) / 2, cy - s * (y0 + y1) / 2
    return f'<path fill="{color}" transform="translate({num(tx)} {num(ty)}) scale({num(s)})" d="{data}"/>'


# --- circles (pinzu) ----------------------------------------------------------------

#: Centres of each number's circles, their radius, and each circle's colour (B G R).
PIN_LAYOUTS: dict[int, tuple[float, tuple[tuple[float, float], ...], str]] = {
    2: (10, ((24, 17), (24, 47)), "GB"),
    3: (8.5, ((12, 13), (24, 32), (36, 51)), "BRG"),
    4: (9, ((13.5, 17), (34.5, 17), (13.5, 47), (34.5, 47)), "BGGB"),
    5: (8.5, ((12, 13), (36, 13), (24, 32), (12, 51), (36, 51)), "BGRGB"),
    6: (8, ((14, 12), (34, 12), (14, 35), (34, 35), (14, 52), (34, 52)), "GGRRRR"),
    7: (
        7.2,
        ((10.5, 9), (24, 14), (37.5, 19), (15, 37), (33, 37), (15, 54), (33, 54)),
        "GGGRRRR",
    ),
    8: (7, tuple((x, y) for y in (9.5, 24.5, 39.5, 54.5) for x in (15, 33)), "BBBBBBBB"),
    9: (7.2, tuple((x, y) for y in (11, 32, 53) for x in (9, 24, 39)), "GGGRRRBBB"),
}
COLOURS = {"B": BLUE, "G": GREEN, "R": RED}


def pin(cx: float, cy: float, r: float, color: str) -> str:
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{color}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.6)}" fill="none" '
        f'stroke="#fff" stroke-width="{num(r * 0.18)}"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.2)}" fill="#fff"/>'
    )


def pins(n: int, red: bool) -> str:
    if n == 1:
        return (
            f'<circle cx="24" cy="32" r="19" fill="{GREEN}"/>'
            '<circle cx="24" cy="32" r="15.5" fill="#fff"/>'
            f'<circle cx="24" cy="32" r="13" fill="{BLUE}"/>'
            f'<circle cx="24" cy="32" r="9" fill="{RED}"/>'
            '<circle cx="24" cy="32" r="5.5" fill="none" stroke="#fff" stroke-width="1.6"/>'
            '<circle cx="24" cy="32" r="2" fill="#fff"/>'
        )
    r, centres, colours = PIN_LAYOUTS[n]
    return "".join(
        pin(x, y, r, RED if red else COLOURS[c]) for (x, y), c in zip(centres, colours, strict=True)
    )


# --- bamboo (souzu) -----------------------------------------------------------------

#: Each stick: centre x, centre y, length, tilt in degrees, colour.
Stick = tuple[float, float, float, float, str]


def _grid(xs: tuple[float, ...], ys: tuple[float, ...], length: float, colours: str) -> list[Stick]:
    cells = [(x, y) for y in ys for x in xs]
    return [(x, y, length, 0, c) for (x, y), c in zip(cells, colours, strict=True)]


SOU_LAYOUTS: dict[int, list[Stick]] = {
    2: _grid((24,), (17, 47), 25, "GG"),
    3: [(24, 17, 25, 0, "G"), (14, 47, 25, 0, "G"), (34, 47, 25, 0, "G")],
    4: _grid((14, 34), (17, 47), 25, "GGGG"),
    5: [*_grid((11, 37), (17, 47), 25, "GGGG"), (24, 32, 25, 0, "R")],
    6: _grid((10, 24, 38), (17, 47), 25, "GGGGGG"),
    7: [(24, 11, 16, 0, "R"), *_grid((10, 24, 38), (31.5, 51.5), 18, "GGGGGG")],
    8: [
        *((x, 17, 25, a, "G") for x, a in ((7, 0), (18.5, 24), (29.5, -24), (41, 0))),
        *((x, 47, 25, a, "G") for x, a in ((7, 0), (18.5, -24), (29.5, 24), (41, 0))),
    ],
    9: _grid((10, 24, 38), (11, 32, 53), 18, "GRGGRGGRG"),
}


def stick(cx: float, cy: float, length: float, tilt: float, color: str) -> str:
    w = 7
    x, top = cx - w / 2, cy - length / 2
    turn = f' transform="rotate({num(tilt)} {num(cx)} {num(cy)})"' if tilt else ""
    return (
        f"<g{turn}>"
        f'<rect x="{num(x)}" y="{num(top)}" width="{w}" height="{num(length)}" rx="3" '
        f'fill="{color}"/>'
        f'<path d="M{num(x)} {num(cy)}h{w}M{num(cx)} {num(top + 2.5)}v{num(length - 5)}" '
        'stroke="#fff" stroke-width="1"/>'
        "</g>"
    )


def bird() -> str:
    """1s: a peacock standing on a bamboo stem, as the suit's one is usually shown."""
    feathers = "".join(
        f'<ellipse cx="24" cy="17" rx="4.2" ry="12" fill="{GREEN}" transform="rotate({a} 24 33)"/>'
        f'<circle cx="24" cy="9" r="2.3" fill="{RED}" transform="rotate({a} 24 33)"/>'
        for a in (-56, -28, 0, 28, 56)
    )
    return (
        feathers + f'<ellipse cx="24" cy="40" rx="8.5" ry="11" fill="{BLUE}"/>'
        f'<circle cx="24" cy="27" r="5" fill="{BLUE}"/>'
        f'<path d="M19.4 27.5l-5 1.6l5 1.2z" fill="{RED}"/>'
        '<circle cx="22.6" cy="26" r="1.3" fill="#fff"/>'
        f'<path d="M21 50.5l-2 8M27 50.5l2 8M16 58.5h16" stroke="{RED}" stroke-width="2" '
        'stroke-linecap="round" fill="none"/>'
    )


def sticks(n: int, red: bool) -> str:
    if n == 1:
        return bird()
    return "".join(
        stick(x, y, length, tilt, RED if red else COLOURS[c])
        for x, y, length, tilt, c in SOU_LAYOUTS[n]
    )


# --- characters (manzu) and honours -------------------------------------------------


def characters(n: int, red: bool) -> str:
    return glyph(NUMERALS[n - 1], 24, 16.5, 28, RED if red else INK) + glyph("萬", 24, 46, 30, RED)


def honour(n: int) -> str:
    if n == 5:
        return (
            f'<rect x="9.5" y="12.5" width="29" height="39" rx="2.5" fill="none" stroke="{BLUE}" '
            'stroke-width="3"/>'
        )
    color = {6: GREEN, 7: RED}.get(n, INK)
    return glyph(HONOURS[n - 1], 24, 32, 40, color)


# --- faces --------------------------------------------------------------------------


def face_shapes(code: str) -> str:
    """The face of tile ``code`` (mpsz, ``0`` a red five) as SVG elements in the face box."""
    if code not in CODES:
        raise ValueInputError(f"{code[:8]!r} is not a tile face (1m-9m, 0m, ... 1z-7z)")
    digit, suit = int(code[0]), code[1]
    n, red = (5, True) if digit == 0 else (digit, False)
    if suit == "m":
        return characters(n, red)
    if suit == "p":
        return pins(n, red)
    if suit == "s":
        return sticks(n, red)
    return honour(n)


def face_svg(code: str) -> str:
    """One face as a standalone SVG file (the page's ``tiles/CODE.svg``)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {FACE_W} {FACE_H}" '
        f'width="{FACE_W}" height="{FACE_H}">{face_shapes(code)}</svg>\n'
    )
