"""SVG text for pictures (``pywall.pictures.picture``): escaped text, tiles placed from
``pywall.pictures.tile_art``'s faces (each defined once, then ``<use>``), badges and rows.

Sizes are the picture's units (pixels at 1x). Nothing here knows what a wall is: a
``Cell`` is one tile to draw with the marks under it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pywall.core.tiles import tile_text
from pywall.pictures.tile_art import FACE_H, FACE_W, face_shapes, num

TILE_W, TILE_H = 34, 46  # a tile's body; its face is drawn in it at FACE_SCALE
FACE_SCALE = 0.625
GAP = 3
MARGIN = 14
BADGE_H = 12
LOG_TILE = 0.5  # the log's tile beside a mismatch, at this scale
MISMATCH = "#b3261e"
MUTED = "#5b5b66"

#: Characters XML 1.0 does not allow in a document (C0 controls but tab and newlines,
#: lone surrogates, U+FFFE and U+FFFF); a name holding one is drawn with U+FFFD there.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text(value: object) -> str:
    """Any value as XML character data: escaped, and never anything but text."""
    clean = _NOT_XML.sub("\ufffd", str(value))
    return clean.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text_width(words: str, size: float) -> float:
    """About how wide ``words`` is drawn (no font metrics here): wide characters a full em."""
    return sum(size if ord(ch) >= 0x2E80 else size * 0.56 for ch in words)


@dataclass(frozen=True, slots=True)
class Cell:
    pos: int
    tile: int
    badges: tuple[tuple[str, str, str], ...]  # text, ink, ground
    log: int | None  # the log's tile where it differs from the wall's
    pale: bool  # a checked log never drew it


class Svg:
    """The picture's elements, the faces it uses, and where the next part goes."""

    def __init__(self, red: bool) -> None:
        self.red = red
        self.parts: list[str] = []
        self.faces: set[str] = set()
        self.y: float = MARGIN
        self.width = 0

    def code(self, tile: int) -> str:
        code = tile_text(tile, self.red)
        self.faces.add(code)
        return code

    def label(self, x: float, y: float, words: str, size: float = 13, **attrs: str) -> None:
        more = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
        self.parts.append(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{more}>{text(words)}</text>'
        )
        self.width = max(self.width, int(x + text_width(words, size)))

    def tile(self, cell: Cell, x: float, y: float) -> None:
        fade = ' opacity=".45"' if cell.pale else ""
        self.parts.append(
            f'<use class="tile" data-pos="{cell.pos}" data-tile="{cell.tile}" '
            f'xlink:href="#pw-{self.code(cell.tile)}" x="{num(x)}" y="{num(y)}"{fade}/>'
        )
        if cell.log is not None:
            self.parts.append(
                f'<rect x="{num(x - 2)}" y="{num(y - 2)}" width="{TILE_W + 4}" '
                f'height="{TILE_H + 4}" rx="5" fill="none" stroke="{MISMATCH}" stroke-width="3"/>'
            )
        self.width = max(self.width, int(x + TILE_W))

    def badge(self, words: str, ink: str, ground: str, x: float, y: float) -> float:
        w = 4 + 6.5 * len(words)
        self.parts.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{BADGE_H}" rx="3" '
            f'fill="{ground}" stroke="{ink}" stroke-width=".6"/>'
        )
        self.label(
            x + w / 2, y + 9.5, words, 10, fill=ink, text_anchor="middle", font_weight="bold"
        )
        return w

    def under(self, cell: Cell, x: float, y: float, labels: Mapping[str, str]) -> None:
        """The marks under a tile: who drew it, its roles; the log's tile if it differs."""
        widths = [4 + 6.5 * len(b[0]) for b in cell.badges]
        bx = x + TILE_W / 2 - (sum(widths) + 2 * (len(widths) - 1)) / 2
        for b in cell.badges:
            bx += self.badge(*b, bx, y + 2) + 2
        if cell.log is not None:
            ly = y + (BADGE_H + 4 if cell.badges else 2)
            self.label(
                x + TILE_W / 2,
                ly + 9,
                labels["log"],
                9,
                fill=MISMATCH,
                text_anchor="middle",
                font_weight="bold",
            )
            self.parts.append(
                f'<use class="log-tile" data-tile="{cell.log}" xlink:href="#pw-{self.code(cell.log)}" '
                f'transform="translate({num(x + TILE_W * (1 - LOG_TILE) / 2)} {num(ly + 12)}) '
                f'scale({LOG_TILE})"/>'
            )

    def row(self, cells: Sequence[Cell], x: float, labels: Mapping[str, str]) -> None:
        """One row of tiles at the current height, their marks under them."""
        y = self.y
        for i, cell in enumerate(cells):
            cx = x + i * (TILE_W + GAP)
            self.tile(cell, cx, y)
            self.under(cell, cx, y + TILE_H, labels)
        marks = BADGE_H + 4 if any(c.badges for c in cells) else 0
        logs = 14 + TILE_H * LOG_TILE if any(c.log is not None for c in cells) else 0
        self.y += TILE_H + max(marks + logs, 4) + GAP

    def heading(self, words: str) -> None:
        self.y += 6
        self.label(MARGIN, self.y + 11, words, 12, fill=MUTED, font_weight="bold")
        self.y += 17

    def defs(self) -> str:
        bodies = (
            '<linearGradient id="pw-body" x1="0" y1="0" x2="0" y2="1">'
            '<stop offset="0" stop-color="#fffef8"/><stop offset="1" stop-color="#f1e9d2"/>'
            "</linearGradient>"
            '<linearGradient id="pw-body-red" x1="0" y1="0" x2="0" y2="1">'
            '<stop offset="0" stop-color="#fff2f0"/><stop offset="1" stop-color="#f9d4cf"/>'
            "</linearGradient>"
        )
        fx, fy = (TILE_W - FACE_W * FACE_SCALE) / 2, (TILE_H - FACE_H * FACE_SCALE) / 2
        faces = "".join(
            f'<g id="pw-{code}"><rect x=".5" y=".5" width="{TILE_W - 1}" height="{TILE_H - 1}" '
            f'rx="4" fill="url(#pw-body{"-red" if code[0] == "0" else ""})" stroke="#8d8471"/>'
            f'<g transform="translate({num(fx)} {num(fy)}) scale({FACE_SCALE})">'
            f"{face_shapes(code)}</g></g>"
            for code in sorted(self.faces)
        )
        return f"<defs>{bodies}{faces}</defs>"
