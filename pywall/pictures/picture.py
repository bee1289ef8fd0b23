"""A picture of one round's wall as SVG text, for pages that take images but not iframes.

``wall_svg(drawing)`` draws a round's typed ``Drawing``: its wall and ``Layout``, with
the dice, the dealer and, for a checked log, its events (``drawing_of_round`` of a
``RoundReport``; ``drawing_of`` of a wall and its layout, as the CLI's seed walls; the
page's JSON is read into one by ``pywall.page.picture_round``): each seat's dealt tiles,
the live wall in draw order (17 a row), the dead wall in stacks of two with its dora,
ura and replacement marks, and, for a log, who drew each tile, the tiles the log does
not match (outlined, with the log's tile beside) and the tiles never drawn (pale).
Positions come from the round's layout (``pywall.core.layout``); nothing here computes one.
The tiles are ``pywall.pictures.tile_art``'s faces, the same art the page shows, each face
defined once and placed with ``<use>``; every wall tile is a ``<use class="tile">`` with
``data-pos`` and ``data-tile``. The CLI writes the text to a file (``pywall wall SEED
--svg FILE``), the page offers it (and a PNG made from it) as a download. A wall without
a layout (SEGA's, whose place round the table is not published; a Mahjong Soul paishan in
the page's hash tool) is drawn as it is stored, 17 a row, each row's first position numbered.

Words come from ``labels`` (English by default; the page passes its language's), and
every text from a log (names, the title) is escaped: it is always text, never markup.

A ``caption`` says which game the picture shows, so a picture posted on a wiki can be
traced back: the game's id, date and round, and its seed or the round's digest where
known (``CAPTION``'s keys). It is drawn under the title (a seed, thousands of characters,
shortened to its start and end) and kept whole in the picture's ``<desc>``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pywall.core.errors import ValueInputError
from pywall.core.layout import Layout
from pywall.pictures.picture_svg import (
    GAP,
    MARGIN,
    MISMATCH,
    MUTED,
    TILE_H,
    TILE_W,
    Cell,
    Svg,
    text,
    text_width,
)
from pywall.pictures.tile_art import num
from pywall.results.report import RoundReport

PER_ROW = 17
SEAT_COLOURS = ("#1558b0", "#2a7a2f", "#b85300", "#6d2a96")
ROLE_COLOURS = {
    "D": ("#8a5a00", "#fff1c7"),
    "U": ("#4d4d8f", "#e6e6fa"),
    "R": ("#2f6f6f", "#dff3f1"),
}

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
    "order": "The wall as stored, position 1 first",
    "wind0": "East",
    "wind1": "South",
    "wind2": "West",
    "wind3": "North",
    "credit": "drawn by pywall",
    "game": "Game",
    "date": "Date",
    "round": "Round",
    "seed": "Seed",
    "digest": "Wall hash",
}

#: What a caption may say, in the order it is drawn (each word is ``LABELS[key]``).
CAPTION = ("game", "date", "round", "seed", "digest")
SEED_SHOWN = (40, 8)  # a seed is drawn as its first and last characters

NAME_CHARS = 24


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


# --- what the picture draws: a round's wall and its positions, typed --------------------


@dataclass(frozen=True, slots=True)
class Drawing:
    """A round as the picture reads it: the wall, the positions of each part (``deal`` by
    seat), the dice and, for a checked log, its events (``report.EVENT_FIELDS`` rows).
    ``stored_order``: no positions are known, the wall is drawn as it is stored."""

    wall: tuple[int, ...]
    dice: tuple[int, ...] | None = None
    dealer: int = 0
    deal: tuple[tuple[int, ...], ...] = ()
    live: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    replacements: tuple[int, ...] = ()
    events: tuple[Sequence[Any], ...] | None = None
    stored_order: bool = False


def drawing_of(
    wall: Sequence[int],
    layout: Layout | None,
    dealer: int = 0,
    dice: Sequence[int] | None = None,
    events: Sequence[Sequence[Any]] | None = None,
) -> Drawing:
    """A wall and where its layout puts each tile (``None``: drawn as stored), with the
    round's dealer, dice and, for a checked log, events."""
    dice = None if dice is None else tuple(dice)
    if layout is None:
        return Drawing(tuple(wall), dice, stored_order=True)
    return Drawing(
        tuple(wall),
        dice,
        dealer,
        layout.deal_by_seat(dealer),
        layout.live,
        layout.dead,
        layout.dora,
        layout.ura,
        layout.replacements,
        None if events is None else tuple(events),
    )


def drawing_of_round(rnd: RoundReport) -> Drawing:
    """A checked round, as its report carries it (made with detail: with its wall)."""
    if rnd.wall is None:
        raise ValueInputError(
            f"{rnd.label}: the report carries no wall (it was made without detail)"
        )
    return drawing_of(rnd.wall, rnd.layout, rnd.dealer, rnd.dice, rnd.events)


# --- cells: one wall position each, with the marks under it ---------------------------


class Cells:
    """Each position's cell, from the drawing's roles and events."""

    def __init__(self, d: Drawing) -> None:
        self.d = d
        self.roles: dict[int, list[str]] = {}
        for mark, positions in (("D", d.dora), ("U", d.ura), ("R", d.replacements)):
            for k, p in enumerate(positions):
                self.roles.setdefault(p, []).append(f"R{k + 1}" if mark == "R" else mark)
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
        for role in self.roles.get(pos, ()):
            badges.append((role, *ROLE_COLOURS[role[0]]))
        bad = next((e for e in evs if not e[6] and type(e[5]) is int and 0 <= e[5] < 136), None)
        return Cell(
            pos,
            self.d.wall[pos],
            tuple(badges),
            bad[5] if bad else None,
            self.d.events is not None and not evs,
        )


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


def draw_stored_order(svg: Svg, d: Drawing, labels: Mapping[str, str]) -> None:
    svg.heading(labels["order"])
    for i in range(0, len(d.wall), PER_ROW):
        svg.row(
            [
                Cell(p, d.wall[p], ((str(p + 1), MUTED, "#fff"),) if p == i else (), None, False)
                for p in range(i, min(i + PER_ROW, len(d.wall)))
            ],
            MARGIN,
            labels,
        )


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


def caption_lines(caption: Mapping[str, str], labels: Mapping[str, str]) -> list[str]:
    """The caption as drawn: the game, date and round on one line, the seed (shortened)
    and the digest each on their own."""
    said = {k: str(caption[k]) for k in CAPTION if caption.get(k)}
    first = " · ".join(f"{labels[k]} {said[k]}" for k in ("game", "date", "round") if k in said)
    lines = [first] if first else []
    if "seed" in said:
        seed, (head, tail) = said["seed"], SEED_SHOWN
        shown = seed if len(seed) <= head + tail + 1 else f"{seed[:head]}…{seed[-tail:]}"
        lines.append(f"{labels['seed']} {shown}")
    if "digest" in said:
        lines.append(f"{labels['digest']} {said['digest']}")
    return lines


def caption_desc(caption: Mapping[str, str], labels: Mapping[str, str]) -> str:
    """The caption whole (the seed too), one fact a line, for the picture's ``<desc>``."""
    return "\n".join(f"{labels[k]}: {caption[k]}" for k in CAPTION if caption.get(k))


def wall_svg(
    d: Drawing,
    names: Sequence[str] = (),
    red: bool = True,
    title: str = "",
    labels: Mapping[str, str] | None = None,
    caption: Mapping[str, str] | None = None,
) -> str:
    """The round's wall as a standalone SVG document (text); ``caption``: which game it is."""
    words = {**LABELS, **(labels or {})}
    cells = Cells(d)
    svg = Svg(red)
    if title:
        svg.label(MARGIN, svg.y + 15, title, 17, font_weight="bold")
        svg.y += 24
    for line in caption_lines(caption or {}, words):
        svg.label(MARGIN, svg.y + 11, line, 11, fill=MUTED, **{"class": "caption"})
        svg.y += 15
    if d.dice:
        svg.label(MARGIN, svg.y + 14, f"{words['dice']}: {d.dice[0]} + {d.dice[1]}", 13)
        svg.y += 20
    if d.stored_order:
        draw_stored_order(svg, d, words)
    else:
        draw_hands(svg, d, cells, names, words)
        draw_live(svg, d, cells, words)
        draw_dead(svg, d, cells, words)
        draw_legend(svg, d, words)
    width = max(svg.width, MARGIN + PER_ROW * (TILE_W + GAP)) + MARGIN
    svg.label(width - MARGIN, svg.y + 12, words["credit"], 10, fill=MUTED, text_anchor="end")
    height = svg.y + 18 + MARGIN
    said = caption_desc(caption or {}, words)
    desc = f"<desc>{text(said)}</desc>" if said else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width}" height="{num(height)}" viewBox="0 0 {width} {num(height)}" '
        'role="img" aria-labelledby="pw-title">'
        f'<title id="pw-title">{text(title or words["live"])}</title>'
        f"{desc}{svg.defs()}"
        f'<rect width="{width}" height="{num(height)}" fill="#fff"/>'
        f'<g font-family="sans-serif" fill="#1d1d1f">{"".join(svg.parts)}</g></svg>\n'
    )
