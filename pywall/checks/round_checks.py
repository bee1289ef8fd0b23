"""One round's tiles against its wall: the checks every platform's rounds go through.

Theory of operation (docs/walls.md): a round is walked with the positions of
``pywall.core.layout`` (the only place that computes a wall index). Every dealt tile, every
live draw, every replacement draw after a kan or a North extraction, every dora and ura
indicator becomes one row (a ``Row``: a position and the tile the log has there); rows
whose tile differs from the wall's become findings that say where, and checking goes on.
Problems that are not a tile comparison (draws past the wall, wrong wall counts, wins
that list the wrong number of indicators) are findings of the walk itself. The wall
may be rebuilt from a seed or stated by the record (``pywall.checks.wall_sources``): these
checks do not know which, beyond the words of ``wall_unrelated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count, repeat
from operator import itemgetter

from pywall.checks.digests import DigestResult, RoundDigests
from pywall.checks.tenhou import RoundWall
from pywall.core.findings import TILE_CODES, Finding, Severity
from pywall.core.layout import Layout
from pywall.core.model import Call, Discard, DoraReveal, Draw, Round, WallCount, Win
from pywall.core.tiles import tile_text

MAX_LISTED_PER_ROUND = 20
#: A mismatched tile's code by the part of the wall it is in (findings.TILE_CODES, read backwards).
_WHAT_CODE = {where: code for code, where in TILE_CODES.items()}


#: A tile comparison before the wall is read: TileCheck's fields but ``wall``.
#: Plain tuples on the hot path; TileCheck objects only where a person needs one.
Row = tuple[int, str, "int | None", int, int, int]


@dataclass(frozen=True, slots=True)
class TileCheck:
    """One tile of the log compared with the wall."""

    pos: int  # index into the wall
    what: str  # deal | draw | replacement | dora | ura
    seat: int | None
    n: int  # event number within the round (0: the round's start)
    k: int  # 1-based count of this kind of check (draw 23, deal tile 5 of a seat)
    log: int
    wall: int

    @property
    def ok(self) -> bool:
        return self.log == self.wall


@dataclass(frozen=True, slots=True)
class RoundResult:
    index: int
    label: str
    dice: tuple[int, int] | None  # from the wall (Tenhou), else the record's
    log_dice: tuple[int, int] | None
    rows: tuple[Row, ...]  # every tile compared, as TileCheck's fields but ``wall``
    wall: tuple[int, ...]
    findings: tuple[Finding, ...]
    layout: Layout
    dealer: int
    dora_revealed: int  # dora indicators the record revealed (the first and kan dora)
    ura_revealed: int
    digests: RoundDigests | None = None  # a stated wall's digests (None: Tenhou)

    @property
    def hashes(self) -> tuple[DigestResult, ...] | None:
        """Each digest the round states, as the report carries them (None: Tenhou)."""
        return None if self.digests is None else self.digests.results

    @property
    def checked(self) -> int:
        return len(self.rows)

    @property
    def checks(self) -> tuple[TileCheck, ...]:
        """The comparisons as objects (built on demand: the hot path keeps rows)."""
        wall = self.wall
        return tuple(TileCheck(*r, wall[r[0]]) for r in self.rows)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def deal_rows(rnd: Round, layout: Layout) -> list[Row]:
    by_seat = layout.deal_by_seat(rnd.dealer)
    rows: list[Row] = []  # (position, "deal", seat, 0, k, tile), k from 1: made by zip, in C
    for seat, hand in enumerate(rnd.hands):
        rows += zip(by_seat[seat], repeat("deal"), repeat(seat), repeat(0), count(1), hand)
    return rows


@dataclass
class _Cursor:
    """How far the round has taken each part of the wall."""

    replacements: int = 0
    draws: int = 0
    doras: int = 0
    uras: int = 0
    beyond: int = 0  # indicators a corrupt log names past the end of the wall
    overruns: int = 0  # draws past the end of the live wall or the replacement tiles
    left_mismatches: int = 0  # wall counts the record states wrongly
    dora_count_mismatches: int = 0  # wins that list the wrong number of dora indicators


def event_rows(rnd: Round, layout: Layout, extra: list[Finding]) -> tuple[list[Row], _Cursor]:
    """Rows for every draw, replacement draw, dora and ura indicator of the round;
    problems that are not a tile comparison go to ``extra``."""
    cur = _Cursor()
    pending = [False] * layout.players
    live = layout.live
    rows: list[Row] = [(layout.dora[0], "dora", None, 0, 1, rnd.dora_indicator)]
    allowed = layout.live_draws(0)  # live draws left to the wall; fewer after a replacement
    draws = 0  # cur.draws, kept in a local on the hot path (put back for _wall_count)
    # type(ev) is X: exact-type dispatch, cheapest on this hot path; en: the event's number
    for en, ev in enumerate(rnd.events, 1):
        if type(ev) is Discard:
            continue
        if type(ev) is Draw:
            seat = ev.seat
            if pending[seat]:
                _replacement(rnd, ev, en, layout, cur, pending, rows, extra)
                allowed = layout.live_draws(cur.replacements)
                continue
            draws += 1
            if draws > allowed:
                _overrun(rnd, ev, en, cur, extra, "live draws than the live wall holds")
                continue
            rows.append((live[draws - 1], "draw", seat, en, draws, ev.tile))
        elif type(ev) is Call:
            pending[ev.seat] = pending[ev.seat] or ev.kind.takes_replacement
        elif type(ev) is DoraReveal:
            cur.doras += 1
            _indicator(rows, cur, layout.dora, ("dora", None, en, cur.doras + 1, ev.tile))
        elif type(ev) is Win:
            _win_rows(rnd, ev, en, layout, cur, rows, extra)
        elif type(ev) is WallCount:
            cur.draws = draws
            _wall_count(rnd, ev, en, layout, cur, extra)
    cur.draws = draws
    if cur.beyond:
        extra.append(
            Finding(
                "dora_count_mismatch",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: the log names {cur.beyond} more dora or ura indicators "
                "than a wall can hold",
                {"count": cur.beyond},
            )
        )
    if cur.overruns > 1:
        extra.append(
            Finding(
                "more_mismatches",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: {cur.overruns - 1} more draws past the end of the wall",
                {"count": cur.overruns - 1},
            )
        )
    return rows, cur


def _replacement(
    rnd: Round,
    ev: Draw,
    en: int,
    layout: Layout,
    cur: _Cursor,
    pending: list[bool],
    rows: list[Row],
    extra: list[Finding],
) -> None:
    pending[ev.seat] = False
    order = layout.replacements
    cur.replacements += 1
    if cur.replacements > len(order):
        _overrun(rnd, ev, en, cur, extra, "replacement draws than the dead wall holds")
        return
    rows.append(
        (order[cur.replacements - 1], "replacement", ev.seat, en, cur.replacements, ev.tile)
    )


def _win_rows(
    rnd: Round,
    ev: Win,
    en: int,
    layout: Layout,
    cur: _Cursor,
    rows: list[Row],
    extra: list[Finding],
) -> None:
    if ev.dora and len(ev.dora) != cur.doras + 1:
        cur.dora_count_mismatches += 1
        if cur.dora_count_mismatches <= MAX_LISTED_PER_ROUND:
            extra.append(_dora_count(rnd, ev, en, cur.doras + 1))
    for i, tile in enumerate(ev.dora):
        _indicator(rows, cur, layout.dora, ("dora", ev.seat, en, i + 1, tile))
    for i, tile in enumerate(ev.ura):
        _indicator(rows, cur, layout.ura, ("ura", ev.seat, en, i + 1, tile))
    cur.uras = max(cur.uras, len(ev.ura))


def _indicator(
    rows: list[Row],
    cur: _Cursor,
    positions: tuple[int, ...],
    rest: tuple[str, int | None, int, int, int],
) -> None:
    k = rest[3] - 1
    if k < len(positions):
        rows.append((positions[k], *rest))
    else:
        cur.beyond += 1


def _overrun(rnd: Round, ev: Draw, en: int, cur: _Cursor, extra: list[Finding], what: str) -> None:
    """One finding for the first draw past the wall; the rest are counted (a hostile
    log of millions of draws must not make millions of findings)."""
    cur.overruns += 1
    if cur.overruns == 1:
        extra.append(
            Finding(
                "live_wall_overrun",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: event {en} (seat {ev.seat}) makes more {what}",
                {"event": en, "seat": ev.seat},
            )
        )


def _wall_count(
    rnd: Round, ev: WallCount, en: int, layout: Layout, cur: _Cursor, extra: list[Finding]
) -> None:
    expected = layout.live_draws(cur.replacements) - cur.draws
    if ev.left == expected:
        return
    cur.left_mismatches += 1
    if cur.left_mismatches <= MAX_LISTED_PER_ROUND:
        extra.append(
            Finding(
                "left_count_mismatch",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: at event {en} the record says {ev.left} tiles are left "
                f"in the live wall; its draws leave {expected}",
                {"event": en, "log": ev.left, "wall": expected},
            )
        )


def _dora_count(rnd: Round, ev: Win, en: int, revealed: int) -> Finding:
    return Finding(
        "dora_count_mismatch",
        Severity.ERROR,
        rnd.index,
        f"{rnd.label}: the win at event {en} lists {len(ev.dora)} dora indicators, "
        f"but the log revealed {revealed}",
        {"event": en, "listed": len(ev.dora), "revealed": revealed},
    )


def describe(check: TileCheck, label: str, red: bool) -> str:
    log, wall = tile_text(check.log, red), tile_text(check.wall, red)
    if check.what == "deal":
        where = f"deal tile {check.k} of seat {check.seat}"
    elif check.what in ("draw", "replacement"):
        where = f"{check.what} {check.k} of the round (seat {check.seat}, event {check.n})"
    else:
        where = f"{check.what} indicator {check.k}" + (
            f" (event {check.n})" if check.n else " (INIT)"
        )
    return f"{label}: {where} is {log} in the log, {wall} in the wall (position {check.pos})"


def check_round(
    rnd: Round, wall: RoundWall, layout: Layout, red: bool, stated: bool = False
) -> RoundResult:
    """One round's tiles against its wall (``stated``: the wall the record itself reveals,
    Mahjong Soul's or Riichi City's, rather than one rebuilt from a seed)."""
    extra: list[Finding] = []
    moves, cur = event_rows(rnd, layout, extra)
    rows = deal_rows(rnd, layout) + moves
    findings = check_tiles(rnd, rows, wall.tiles, layout, red, stated) + check_dice(rnd, wall)
    return RoundResult(
        rnd.index,
        rnd.label,
        wall.dice if wall.dice is not None else rnd.dice,
        rnd.dice,
        tuple(rows),
        wall.tiles,
        tuple(findings + extra),
        layout,
        rnd.dealer,
        min(cur.doras + 1, len(layout.dora)),
        min(cur.uras, len(layout.ura)),
    )


def check_tiles(
    rnd: Round,
    rows: list[Row],
    tiles: tuple[int, ...],
    layout: Layout,
    red: bool,
    stated: bool,
) -> list[Finding]:
    """A finding per row whose tile differs from the wall's (the first
    ``MAX_LISTED_PER_ROUND``; the rest counted), led by ``wall_unrelated`` when most do."""
    found = map(tiles.__getitem__, map(itemgetter(0), rows))
    if list(found) == list(map(itemgetter(5), rows)):  # every tile as the wall has it
        return []
    bad_at = [i for i, r in enumerate(rows) if tiles[r[0]] != r[5]]
    bad = [TileCheck(*rows[i], tiles[rows[i][0]]) for i in bad_at]
    listed = zip(bad[:MAX_LISTED_PER_ROUND], bad_at, strict=False)
    in_hand = None if layout.holds_deal else rnd.dealer  # the dealer's 14th is in the hand
    findings = [_mismatch(c, rnd, red, _turn(rows, i, in_hand)) for c, i in listed]
    if len(bad) > MAX_LISTED_PER_ROUND:
        findings.append(
            Finding(
                "more_mismatches",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: {len(bad) - MAX_LISTED_PER_ROUND} more mismatches",
                {"count": len(bad) - MAX_LISTED_PER_ROUND},
            )
        )
    if len(rows) >= 10 and 2 * len(bad) > len(rows):
        findings.insert(
            0,
            Finding(
                "wall_unrelated",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: {len(bad)} of {len(rows)} tiles differ from the wall: "
                + (
                    "the wall the record reveals is not this round's (or the record was rewritten)"
                    if stated
                    else "the seed does not belong to this game (or the log was rewritten)"
                ),
                {"mismatches": len(bad), "checked": len(rows)}
                | ({"stated": True} if stated else {}),
            ),
        )
    return findings


def check_dice(rnd: Round, wall: RoundWall) -> list[Finding]:
    """The record's dice against the wall's (only a wall rebuilt from a seed has dice)."""
    if wall.dice is None or rnd.dice is None or rnd.dice == wall.dice:
        return []
    return [
        Finding(
            "dice_mismatch",
            Severity.ERROR,
            rnd.index,
            f"{rnd.label}: the dice are {rnd.dice[0]}+{rnd.dice[1]} in the log, "
            f"{wall.dice[0]}+{wall.dice[1]} from the seed",
            {"log": list(rnd.dice), "wall": list(wall.dice)},
        )
    ]


def _turn(rows: list[Row], i: int, in_hand: int | None) -> int | None:
    """A draw's turn as players count it: the seat's live draws so far, this one included
    (a replacement draw is in the turn of the seat's latest live draw; the dealer's 14th
    tile is turn 1, also where the record has it in the hand: seat ``in_hand``)."""
    what, seat = rows[i][1], rows[i][2]
    if what not in ("draw", "replacement"):
        return None
    draws = sum(1 for r in rows[: i + 1] if r[1] == "draw" and r[2] == seat)
    return draws + (seat == in_hand)


def _mismatch(c: TileCheck, rnd: Round, red: bool, turn: int | None = None) -> Finding:
    return Finding(
        _WHAT_CODE[c.what],
        Severity.ERROR,
        rnd.index,
        describe(c, rnd.label, red),
        {
            "what": c.what,
            "seat": c.seat,
            "event": c.n,
            "k": c.k,
            "turn": turn,
            "position": c.pos,
            "log": c.log,
            "wall": c.wall,
        },
    )
