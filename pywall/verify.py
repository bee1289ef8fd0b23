"""Check every tile of a game record against the walls its seed defines.

Theory of operation (FACTS.md "How a log uses the wall", held on every round of
every fixture): the deal takes yama[n-1] downward, three passes of four tiles
per seat from the dealer round the table, then one tile each; live draws go on
downward; the draw after a kan or a North extraction comes from the dead wall
in the order yama[1, 0, 3, 2, ...]; dora indicators sit at yama[DB + 2k] and ura
indicators at yama[DB - 1 + 2k]. Each comparison is one ``TileCheck``; a
mismatch becomes a ``Finding`` that says where, and checking goes on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pywall.errors import SeedError
from pywall.findings import Finding, Severity
from pywall.model import Call, Discard, DoraReveal, Draw, Game, Round, Win
from pywall.tenhou import (
    Layout,
    RoundWall,
    Scheme,
    Seed,
    early_2009_wall,
    iter_walls,
    layout_for,
    parse_seed,
)
from pywall.tiles import tile_text

#: Findings that mean the log could not be verified at all (status ``error``).
FATAL_CODES = frozenset({"seed_missing", "bad_seed", "no_rounds", "log_format", "too_large",
                         "unreadable", "error"})
MAX_LISTED_PER_ROUND = 20
_WHAT_CODE = {"deal": "deal_mismatch", "draw": "draw_mismatch", "replacement": "replacement_mismatch",
              "dora": "dora_mismatch", "ura": "ura_mismatch"}


#: A tile comparison before the wall is read: TileCheck's fields but ``wall``.
#: Plain tuples on the hot path; TileCheck objects only where a person needs one.
Row = tuple[int, str, "int | None", int, int, int]


@dataclass(frozen=True, slots=True)
class TileCheck:
    """One tile of the log compared with the wall."""

    pos: int  # index into yama
    what: str  # deal | draw | replacement | dora | ura
    seat: int | None
    n: int  # event number within the round (0: the INIT tag)
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
    dice: tuple[int, int]  # from the wall
    log_dice: tuple[int, int]
    rows: tuple[Row, ...]  # every tile compared, as TileCheck's fields but ``wall``
    wall: tuple[int, ...]
    findings: tuple[Finding, ...]

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


@dataclass(frozen=True, slots=True)
class GameResult:
    rounds: tuple[RoundResult, ...]
    findings: tuple[Finding, ...]  # game-level and round findings, in order
    scheme: Scheme | None

    @property
    def checked(self) -> int:
        return sum(r.checked for r in self.rounds)

    @property
    def status(self) -> str:
        return status_of(self.findings)


def status_of(findings: Sequence[Finding]) -> str:
    if any(f.code in FATAL_CODES for f in findings):
        return "error"
    if any(f.severity is Severity.ERROR for f in findings):
        return "mismatch"
    return "verified"


def deal_positions(dealer: int, players: int, n: int) -> list[list[int]]:
    """For each seat, the yama indices of its 13 dealt tiles in deal order."""
    hands: list[list[int]] = [[] for _ in range(players)]
    p = n - 1
    for size in (4, 4, 4, 1):
        for step in range(players):
            seat = (dealer + step) % players
            hands[seat].extend(range(p, p - size, -1))
            p -= size
    return hands


def deal_rows(rnd: Round, players: int, n: int) -> list[Row]:
    wall_positions = deal_positions(rnd.dealer, players, n)
    return [(pos, "deal", seat, 0, k, tile)
            for seat, hand in enumerate(rnd.hands)
            for k, (tile, pos) in enumerate(zip(hand, wall_positions[seat]), 1)]


@dataclass
class _Cursor:
    """Where the next live draw, replacement and dora come from."""

    live: int
    replacements: int = 0
    draws: int = 0
    doras: int = 0
    beyond: int = 0  # indicators a corrupt log names past the end of the wall


def event_rows(rnd: Round, layout: Layout, players: int, n: int, extra: list[Finding]) -> list[Row]:
    """Rows for every draw, replacement draw, dora and ura indicator of the round;
    problems that are not a tile comparison go to ``extra``."""
    cur = _Cursor(live=n - 1 - 13 * players)
    pending = [False] * players
    rows: list[Row] = [(layout.dora_position(0), "dora", None, 0, 1, rnd.dora_indicator)]
    # type(ev) is X: exact-type dispatch, cheapest on this hot path; en: the event's number
    for en, ev in enumerate(rnd.events, 1):
        if type(ev) is Discard:
            continue
        if type(ev) is Draw:
            if pending[ev.seat]:
                _replacement(rnd, ev, en, layout, cur, pending, rows, extra)
                continue
            cur.draws += 1
            if cur.live < 14 + cur.replacements:
                extra.append(_overrun(rnd, ev, en, "live draws than the live wall holds"))
                continue
            rows.append((cur.live, "draw", ev.seat, en, cur.draws, ev.tile))
            cur.live -= 1
        elif type(ev) is Call:
            pending[ev.seat] = pending[ev.seat] or ev.kind.takes_replacement
        elif type(ev) is DoraReveal:
            cur.doras += 1
            _indicator(rows, cur, n, layout.dora_position(cur.doras),
                       ("dora", None, en, cur.doras + 1, ev.tile))
        elif type(ev) is Win:
            _win_rows(rnd, ev, en, layout, cur, n, rows, extra)
    if cur.beyond:
        extra.append(Finding("dora_count_mismatch", Severity.ERROR, rnd.index,
                             f"{rnd.label}: the log names {cur.beyond} more dora or ura indicators "
                             "than a wall can hold", {"count": cur.beyond}))
    return rows


def _replacement(rnd: Round, ev: Draw, en: int, layout: Layout, cur: _Cursor, pending: list[bool],
                 rows: list[Row], extra: list[Finding]) -> None:
    pending[ev.seat] = False
    order = layout.replacement_order
    cur.replacements += 1
    if cur.replacements > len(order):
        extra.append(_overrun(rnd, ev, en, "replacement draws than the dead wall holds"))
        return
    rows.append((order[cur.replacements - 1], "replacement", ev.seat, en, cur.replacements, ev.tile))


def _win_rows(rnd: Round, ev: Win, en: int, layout: Layout, cur: _Cursor, n: int, rows: list[Row],
              extra: list[Finding]) -> None:
    if ev.dora and len(ev.dora) != cur.doras + 1:
        extra.append(_dora_count(rnd, ev, en, cur.doras + 1))
    for i, tile in enumerate(ev.dora):
        _indicator(rows, cur, n, layout.dora_position(i), ("dora", ev.seat, en, i + 1, tile))
    for i, tile in enumerate(ev.ura):
        _indicator(rows, cur, n, layout.ura_position(i), ("ura", ev.seat, en, i + 1, tile))


def _indicator(rows: list[Row], cur: _Cursor, n: int, pos: int,
               rest: tuple[str, int | None, int, int, int]) -> None:
    if pos < n:
        rows.append((pos, *rest))
    else:
        cur.beyond += 1


def _overrun(rnd: Round, ev: Draw, en: int, what: str) -> Finding:
    return Finding("live_wall_overrun", Severity.ERROR, rnd.index,
                   f"{rnd.label}: event {en} (seat {ev.seat}) makes more {what}",
                   {"event": en, "seat": ev.seat})


def _dora_count(rnd: Round, ev: Win, en: int, revealed: int) -> Finding:
    return Finding("dora_count_mismatch", Severity.ERROR, rnd.index,
                   f"{rnd.label}: the win at event {en} lists {len(ev.dora)} dora indicators, "
                   f"but the log revealed {revealed}", {"event": en, "listed": len(ev.dora),
                                                        "revealed": revealed})


def describe(check: TileCheck, label: str, red: bool) -> str:
    log, wall = tile_text(check.log, red), tile_text(check.wall, red)
    if check.what == "deal":
        where = f"deal tile {check.k} of seat {check.seat}"
    elif check.what in ("draw", "replacement"):
        where = f"{check.what} {check.k} of the round (seat {check.seat}, event {check.n})"
    else:
        where = f"{check.what} indicator {check.k}" + (f" (event {check.n})" if check.n else " (INIT)")
    return f"{label}: {where} is {log} in the log, {wall} in the wall (position {check.pos})"


def check_round(rnd: Round, wall: RoundWall, layout: Layout, players: int, red: bool) -> RoundResult:
    tiles = wall.tiles
    extra: list[Finding] = []
    rows = deal_rows(rnd, players, len(tiles)) + event_rows(rnd, layout, players, len(tiles), extra)
    bad = [TileCheck(*r, tiles[r[0]]) for r in rows if tiles[r[0]] != r[5]]
    findings = [_mismatch(c, rnd, red) for c in bad[:MAX_LISTED_PER_ROUND]]
    if len(bad) > MAX_LISTED_PER_ROUND:
        findings.append(Finding("more_mismatches", Severity.ERROR, rnd.index,
                                f"{rnd.label}: {len(bad) - MAX_LISTED_PER_ROUND} more mismatches",
                                {"count": len(bad) - MAX_LISTED_PER_ROUND}))
    if len(rows) >= 10 and 2 * len(bad) > len(rows):
        findings.insert(0, Finding(
            "wall_unrelated", Severity.ERROR, rnd.index,
            f"{rnd.label}: {len(bad)} of {len(rows)} tiles differ from the wall: "
            "the seed does not belong to this game (or the log was rewritten)",
            {"mismatches": len(bad), "checked": len(rows)}))
    if rnd.dice != wall.dice:
        findings.append(Finding(
            "dice_mismatch", Severity.ERROR, rnd.index,
            f"{rnd.label}: the dice are {rnd.dice[0]}+{rnd.dice[1]} in the log, "
            f"{wall.dice[0]}+{wall.dice[1]} from the seed",
            {"log": list(rnd.dice), "wall": list(wall.dice)}))
    return RoundResult(rnd.index, rnd.label, wall.dice, rnd.dice, tuple(rows), tiles,
                       tuple(findings + extra))


def _mismatch(c: TileCheck, rnd: Round, red: bool) -> Finding:
    return Finding(_WHAT_CODE[c.what], Severity.ERROR, rnd.index, describe(c, rnd.label, red),
                   {"what": c.what, "seat": c.seat, "event": c.n, "k": c.k, "position": c.pos,
                    "log": c.log, "wall": c.wall})


def red_fives(game: Game) -> bool:
    """Whether the rule uses red fives (GO type bit 0x02 means "no red")."""
    return game.go_type is None or not game.go_type & 0x02


def walls_for(game: Game, seed: Seed | None) -> Iterator[RoundWall]:
    if seed is not None and seed.scheme is not Scheme.EARLY_2009:
        yield from iter_walls(seed, game.player_count)
        return
    for rnd in game.rounds:  # early 2009: a seed on each INIT
        yield early_2009_wall(parse_seed(rnd.shuffle or "").key, game.player_count)


def game_findings(game: Game) -> tuple[list[Finding], Seed | None]:
    """Findings about the game as a whole, and its parsed seed."""
    found = [Finding("duplicate_attribute", Severity.INFO, None, f"{q}; the first value is used")
             for q in game.quirks]
    seed: Seed | None = None
    if not game.rounds:
        found.append(Finding("no_rounds", Severity.ERROR, None, "the log has no rounds (no INIT tag)"))
    if not game.complete:
        found.append(Finding("incomplete_log", Severity.INFO, None,
                             f"the log ends before the game's final result; the {len(game.rounds)} "
                             "rounds it has were verified"))
    try:
        if game.seed is not None:
            seed = parse_seed(game.seed)
        elif not (game.rounds and all(r.shuffle for r in game.rounds)):
            found.append(Finding("seed_missing", Severity.ERROR, None,
                                 "the log has no SHUFFLE seed: its walls cannot be rebuilt"))
        else:
            seed = parse_seed(game.rounds[0].shuffle or "")
    except SeedError as exc:
        found.append(Finding("bad_seed", Severity.ERROR, None, f"the log's seed is unusable: {exc.message}"))
    if seed is not None and seed.scheme.legacy:
        found.append(Finding("legacy_seed", Severity.INFO, None,
                             f"2009 seed format ({seed.scheme.value}): verified best-effort"))
    return found, seed


def verify_game(game: Game) -> GameResult:
    """Rebuild every round's wall and compare every tile of the log with it."""
    findings, seed = game_findings(game)
    if any(f.code in FATAL_CODES for f in findings):
        return GameResult((), tuple(findings), seed.scheme if seed else None)
    layout = layout_for(seed.scheme if seed else Scheme.CURRENT, game.player_count)
    red = red_fives(game)
    rounds: list[RoundResult] = []
    try:
        for rnd, wall in zip(game.rounds, walls_for(game, seed)):
            result = check_round(rnd, wall, layout, game.player_count, red)
            rounds.append(result)
            findings.extend(result.findings)
    except SeedError as exc:
        findings.append(Finding("bad_seed", Severity.ERROR, len(rounds),
                                f"a round's seed is unusable: {exc.message}"))
    return GameResult(tuple(rounds), tuple(findings), seed.scheme if seed else None)
