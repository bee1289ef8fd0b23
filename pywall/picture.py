"""A picture of one round's wall as SVG text, for pages that take images but not iframes.

``wall_svg(round)`` draws a round as the report carries it (``wall`` and ``layout``,
with ``dice``, ``dealer`` and, for a checked log, ``events``): each seat's dealt tiles,
the live wall in draw order (17 a row), the dead wall in stacks of two with its dora,
ura and replacement marks, and, for a log, who drew each tile, the tiles the log does
not match (outlined, with the log's tile beside) and the tiles never drawn (pale).
Positions come from the round's layout (``pywall.layout``); nothing here computes one.
The tiles are ``pywall.tile_art``'s faces, the same art the page shows, each face
defined once and placed with ``<use>``; every wall tile is a ``<use class="tile">`` with
``data-pos`` and ``data-tile``. The CLI writes the text to a file (``pywall wall SEED
--svg FILE``), the page offers it (and a PNG made from it) as a download.

Words come from ``labels`` (English by default; the page passes its language's), and
every text from a log (names, the title) is escaped: it is always text, never markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pywall.errors import ValueInputError
from pywall.tile_art import FACE_H, FACE_W, face_shapes, num
from pywall.tiles import tile_text

#: The words a picture uses; a caller's ``labels`` replace any of them.
LABELS: dict[str, str] = {
    "dice": "Dice",
    "hands": "Dealt hands",
    "live": "Live wall, in draw order",
    "dead": "Dead wall",
    "dora": "dora indicator",
    "ura": "ura indicator",
    "rinshan": "replacement",
    "dealer": "dealer",
    "log": "log",
    "mismatch": "does not match the log",
    "not_drawn": "not drawn",
    "wind0": "East",
    "wind1": "South",
    "wind2": "West",
    "wind3": "North",
    "credit": "drawn by pywall",
}

TILE_W, TILE_H = 34, 46  # a tile's body; its face is drawn in it at FACE_SCALE
FACE_SCALE = 0.625
GAP = 3
MARGIN = 14
PER_ROW = 17
BADGE_H = 12
LOG_TILE = 0.5  # the log's tile beside a mismatch, at this scale
SEAT_COLOURS = ("#1558b0", "#2a7a2f", "#b85300", "#6d2a96")
ROLE_COLOURS = {
    "D": ("#8a5a00", "#fff1c7"),
    "U": ("#4d4d8f", "#e6e6fa"),
    "R": ("#2f6f6f", "#dff3f1"),
}
MISMATCH = "#b3261e"
MUTED = "#5b5b66"
NAME_CHARS = 24

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


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


# --- what the round says, checked -----------------------------------------------------


def _ints(value: object, what: str, low: int, high: int) -> list[int]:
    if not isinstance(value, list | tuple) or not all(
        type(v) is int and low <= v < high for v in value
    ):
        raise ValueInputError(f"the round's {what} must be a list of numbers {low}-{high - 1}")
    return list(value)


@dataclass(frozen=True, slots=True)
class Drawing:
    """A round as the picture reads it: the wall and its positions, checked once."""

    wall: list[int]
    dealer: int
    deal: list[list[int]]
    live: list[int]
    dead: list[int]
    roles: dict[int, list[str]]
    dice: list[int] | None
    events: list[Sequence[Any]] | None


def drawing_from(rnd: Mapping[str, Any]) -> Drawing:
    """The round's wall, layout, dice and events; ``ValueInputError`` on any other shape."""
    if not isinstance(rnd, Mapping):
        raise ValueInputError("the round must be an object")
    wall = _ints(rnd.get("wall"), "wall", 0, 136)
    layout = rnd.get("layout")
    if not isinstance(layout, Mapping):
        raise ValueInputError("the round has no layout (its wall positions)")
    size = len(wall)
    deal = layout.get("deal") or []
    if not isinstance(deal, list | tuple) or len(deal) > 4:
        raise ValueInputError("the round's deal must be a list of seats")
    roles: dict[int, list[str]] = {}
    for key, mark in (("dora", "D"), ("ura", "U"), ("replacements", "R")):
        for k, p in enumerate(_ints(layout.get(key, []), key, 0, size)):
            roles.setdefault(p, []).append(f"R{k + 1}" if mark == "R" else mark)
    dice = rnd.get("dice")
    events = rnd.get("events")
    if events is not None and not (
        isinstance(events, list | tuple)
        and all(isinstance(e, list | tuple) and len(e) == 7 for e in events)
    ):
        raise ValueInputError("the round's events must be rows of 7 values")
    dealer = rnd.get("dealer", layout.get("dealer", 0))
    return Drawing(
        wall,
        dealer if type(dealer) is int and 0 <= dealer < 4 else 0,
        [_ints(seat, "deal", 0, size) for seat in deal],
        _ints(layout.get("live", []), "live wall", 0, size),
        _ints(layout.get("dead", []), "dead wall", 0, size),
        roles,
        _ints(dice, "dice", 1, 7) if dice is not None else None,
        list(events) if events is not None else None,
    )


# --- cells: one wall position each, with the marks under it ---------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    pos: int
    tile: int
    badges: tuple[tuple[str, str, str], ...]  # text, ink, ground
    log: int | None  # the log's tile where it differs from the wall's
    pale: bool  # a checked log never drew it


class Cells:
    """Each position's cell, from the drawing's roles and events."""

    def __init__(self, d: Drawing) -> None:
        self.d = d
        self.by_pos: dict[int, list[Sequence[Any]]] = {}
        for e in d.events or ():
            if type(e[0]) is int:
                self.by_pos.setdefault(e[0], []).append(e)

    def cell(self, pos: int) -> Cell:
        evs = self.by_pos.get(pos, [])
        badges = []
        for e in evs:
            if e[1] in ("draw", "replacement") and type(e[2]) is int and 0 <= e[2] < 4:
                badges.append((str(e[2] + 1), "#fff", SEAT_COLOURS[e[2]]))
                break
        for role in self.d.roles.get(pos, ()):
            badges.append((role, *ROLE_COLOURS[role[0]]))
        bad = next((e for e in evs if not e[6] and type(e[5]) is int and 0 <= e[5] < 136), None)
        return Cell(
            pos,
            self.d.wall[pos],
            tuple(badges),
            bad[5] if bad else None,
            self.d.events is not None and not evs,
        )


# --- drawing ---------------------------------------------------------------------------


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


def seat_label(d: Drawing, seat: int, names: Sequence[str], labels: Mapping[str, str]) -> str:
    players = len(d.deal)
    wind = labels[f"wind{(seat - d.dealer) % players}"]
    dealer = f" ({labels['dealer']})" if seat == d.dealer else ""
    if seat < len(names):
        return f"{seat + 1} {short(str(names[seat]))} · {wind}{dealer}"
    return f"{wind}{dealer}"


def draw_hands(
    svg: Svg, d: Drawing, cells: Cells, names: Sequence[str], labels: Mapping[str, str]
) -> None:
    if not any(d.deal):
        return
    svg.heading(labels["hands"])
    rows = [(seat_label(d, s, names, labels), p) for s, p in enumerate(d.deal) if p]
    column = max(text_width(label, 13) for label, _ in rows) + 12
    for label, positions in rows:
        svg.label(MARGIN, svg.y + TILE_H / 2 + 5, label, 13)
        svg.row([cells.cell(p) for p in positions], MARGIN + column, labels)


def draw_live(svg: Svg, d: Drawing, cells: Cells, labels: Mapping[str, str]) -> None:
    svg.heading(labels["live"])
    for i in range(0, len(d.live), PER_ROW):
        svg.row([cells.cell(p) for p in d.live[i : i + PER_ROW]], MARGIN, labels)


def draw_dead(svg: Svg, d: Drawing, cells: Cells, labels: Mapping[str, str]) -> None:
    """The dead wall in wall order, in stacks of two: the upper tile of each stack above."""
    svg.heading(labels["dead"])
    stacks = (len(d.dead) + 1) // 2
    first, top = len(svg.parts), svg.y
    svg.row([cells.cell(p) for p in d.dead[1::2]], MARGIN, labels)
    svg.row([cells.cell(p) for p in d.dead[0::2]], MARGIN, labels)
    svg.parts.insert(
        first,
        f'<rect x="{MARGIN - 4}" y="{top - 4}" width="{stacks * (TILE_W + GAP) + 5}" '
        f'height="{num(svg.y - top + 4)}" rx="5" fill="#ece7d8"/>',
    )
    svg.y += 4


def draw_legend(svg: Svg, d: Drawing, labels: Mapping[str, str]) -> None:
    x: float = MARGIN
    y = svg.y + 6
    items = [("D", "dora"), ("U", "ura"), ("R", "rinshan")]
    for mark, key in items:
        x += svg.badge(mark, *ROLE_COLOURS[mark], x, y) + 4
        svg.label(x, y + 10, labels[key], 11, fill=MUTED)
        x += text_width(labels[key], 11) + 14
    if d.events is not None:
        svg.parts.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="12" height="12" rx="2" fill="none" '
            f'stroke="{MISMATCH}" stroke-width="2.5"/>'
        )
        svg.label(x + 16, y + 10, labels["mismatch"], 11, fill=MUTED)
        x += 16 + text_width(labels["mismatch"], 11) + 14
        svg.parts.append(
            f'<rect x="{num(x)}" y="{num(y)}" width="12" height="12" rx="2" fill="#f1e9d2" '
            'stroke="#8d8471" opacity=".45"/>'
        )
        svg.label(x + 16, y + 10, labels["not_drawn"], 11, fill=MUTED)
    svg.y = y + 18


def wall_svg(
    rnd: Mapping[str, Any],
    names: Sequence[str] = (),
    red: bool = True,
    title: str = "",
    labels: Mapping[str, str] | None = None,
) -> str:
    """The round's wall as a standalone SVG document (text)."""
    words = {**LABELS, **(labels or {})}
    d = drawing_from(rnd)
    cells = Cells(d)
    svg = Svg(red)
    if title:
        svg.label(MARGIN, svg.y + 15, title, 17, font_weight="bold")
        svg.y += 24
    if d.dice:
        svg.label(MARGIN, svg.y + 14, f"{words['dice']}: {d.dice[0]} + {d.dice[1]}", 13)
        svg.y += 20
    draw_hands(svg, d, cells, names, words)
    draw_live(svg, d, cells, words)
    draw_dead(svg, d, cells, words)
    draw_legend(svg, d, words)
    width = max(svg.width, MARGIN + PER_ROW * (TILE_W + GAP)) + MARGIN
    svg.label(width - MARGIN, svg.y + 12, words["credit"], 10, fill=MUTED, text_anchor="end")
    height = svg.y + 18 + MARGIN
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width}" height="{num(height)}" viewBox="0 0 {width} {num(height)}" '
        'role="img" aria-labelledby="pw-title">'
        f'<title id="pw-title">{text(title or words["live"])}</title>'
        f"{svg.defs()}"
        f'<rect width="{width}" height="{num(height)}" fill="#fff"/>'
        f'<g font-family="sans-serif" fill="#1d1d1f">{"".join(svg.parts)}</g></svg>\n'
    )
