"""Check every tile of a game record against the walls it is supposed to come from.

Theory of operation: a Tenhou log's walls are rebuilt from its seed
(``pywall.tenhou``); Mahjong Soul and Riichi City records state each round's
wall and a digest of it. Either way, each round is walked with the positions of
``pywall.layout`` (the only place that computes a wall index; docs/walls.md
states the facts): every dealt tile, every live draw, every replacement draw
after a kan or a North extraction, every dora and ura indicator is compared with
the wall tile at its position. Each comparison is one row; a mismatch becomes a
``Finding`` that says where, and checking goes on. A stated wall is also checked
for its tile set (``pywall.stated``) and against its digests (``pywall.digests``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from pywall.digests import DigestResult, RoundDigests, check_digests
from pywall.errors import SeedError
from pywall.findings import TILE_CODES, Finding, Severity, capped
from pywall.layout import Layout, WallScheme, layout_for
from pywall.limits import MAX_ROWS
from pywall.model import (
    Call,
    Discard,
    DoraReveal,
    Draw,
    Game,
    Platform,
    Round,
    WallCount,
    Win,
)
from pywall.stated import composition_findings, copy_findings, limits_of
from pywall.tenhou import (
    SEEN_ON_REAL_LOGS,
    TILE_KINDS,
    Era,
    RoundWall,
    Scheme,
    Seed,
    early_2009_wall,
    iter_walls,
    parse_seed,
    wall_scheme,
)
from pywall.tiles import tile_text

#: Findings that mean the log could not be verified at all (status ``error``).
FATAL_CODES = frozenset(
    {"seed_missing", "bad_seed", "no_rounds", "log_format", "too_large", "unreadable", "error"}
)
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


@dataclass(frozen=True, slots=True)
class GameResult:
    rounds: tuple[RoundResult, ...]
    findings: tuple[Finding, ...]  # game-level and round findings, in order
    scheme: Scheme | None  # Tenhou's seed format (None for other platforms)
    limits: tuple[str, ...] = ()  # what the checks cannot prove: pywall.stated.LIMITS codes
    era: Era | None = None  # Tenhou's era of walls (None for other platforms)

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


def deal_rows(rnd: Round, layout: Layout) -> list[Row]:
    by_seat = layout.deal_by_seat(rnd.dealer)
    return [
        (pos, "deal", seat, 0, k, tile)
        for seat, hand in enumerate(rnd.hands)
        for k, (tile, pos) in enumerate(zip(hand, by_seat[seat]), 1)
    ]


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
    # type(ev) is X: exact-type dispatch, cheapest on this hot path; en: the event's number
    for en, ev in enumerate(rnd.events, 1):
        if type(ev) is Discard:
            continue
        if type(ev) is Draw:
            if pending[ev.seat]:
                _replacement(rnd, ev, en, layout, cur, pending, rows, extra)
                allowed = layout.live_draws(cur.replacements)
                continue
            cur.draws += 1
            if cur.draws > allowed:
                _overrun(rnd, ev, en, cur, extra, "live draws than the live wall holds")
                continue
            rows.append((live[cur.draws - 1], "draw", ev.seat, en, cur.draws, ev.tile))
        elif type(ev) is Call:
            pending[ev.seat] = pending[ev.seat] or ev.kind.takes_replacement
        elif type(ev) is DoraReveal:
            cur.doras += 1
            _indicator(rows, cur, layout.dora, ("dora", None, en, cur.doras + 1, ev.tile))
        elif type(ev) is Win:
            _win_rows(rnd, ev, en, layout, cur, rows, extra)
        elif type(ev) is WallCount:
            _wall_count(rnd, ev, en, layout, cur, extra)
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
    tiles = wall.tiles
    extra: list[Finding] = []
    moves, cur = event_rows(rnd, layout, extra)
    rows = deal_rows(rnd, layout) + moves
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
    if wall.dice is not None and rnd.dice is not None and rnd.dice != wall.dice:
        findings.append(
            Finding(
                "dice_mismatch",
                Severity.ERROR,
                rnd.index,
                f"{rnd.label}: the dice are {rnd.dice[0]}+{rnd.dice[1]} in the log, "
                f"{wall.dice[0]}+{wall.dice[1]} from the seed",
                {"log": list(rnd.dice), "wall": list(wall.dice)},
            )
        )
    return RoundResult(
        rnd.index,
        rnd.label,
        wall.dice if wall.dice is not None else rnd.dice,
        rnd.dice,
        tuple(rows),
        tiles,
        tuple(findings + extra),
        layout,
        rnd.dealer,
        min(cur.doras + 1, len(layout.dora)),
        min(cur.uras, len(layout.ura)),
    )


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


def red_fives(game: Game) -> bool:
    """Whether the rule uses red fives (Tenhou: GO type bit 0x02 means "no red")."""
    if game.platform is not Platform.TENHOU:
        return True
    return game.go_type is None or not game.go_type & 0x02


def walls_for(game: Game, seed: Seed | None) -> Iterator[RoundWall]:
    if seed is not None and seed.scheme is not Scheme.EARLY_2009:
        yield from iter_walls(seed, game.player_count)
        return
    for rnd in game.rounds:  # June and July 2009: a seed on each INIT
        own = parse_seed(rnd.shuffle or "")
        if seed is not None and own.era is not seed.era:
            raise SeedError(
                f"{rnd.label}: its seed is of {own.era.value}, the first round's of {seed.era.value}"
            )
        yield early_2009_wall(own.key, game.player_count)


def game_findings(game: Game) -> tuple[list[Finding], Seed | None]:
    """Findings about the game as a whole, and its parsed seed."""
    found = [
        Finding("duplicate_attribute", Severity.INFO, None, f"{q}; the first value is used")
        for q in game.quirks
    ]
    seed: Seed | None = None
    if not game.rounds:
        found.append(
            Finding("no_rounds", Severity.ERROR, None, "the log has no rounds (no INIT tag)")
        )
    if not game.complete:
        found.append(
            Finding(
                "incomplete_log",
                Severity.INFO,
                None,
                f"the log ends before the game's final result; the {len(game.rounds)} "
                "rounds it has were verified",
            )
        )
    if game.platform is not Platform.TENHOU:
        return found, None
    try:
        if game.seed is not None:
            seed = parse_seed(game.seed)
        elif not (game.rounds and all(r.shuffle for r in game.rounds)):
            found.append(
                Finding(
                    "seed_missing",
                    Severity.ERROR,
                    None,
                    "the log has no SHUFFLE seed: its walls cannot be rebuilt",
                )
            )
        else:
            seed = parse_seed(game.rounds[0].shuffle or "")
    except SeedError as exc:
        found.append(
            Finding("bad_seed", Severity.ERROR, None, f"the log's seed is unusable: {exc.message}")
        )
    if seed is not None and seed.scheme.legacy:
        found.append(legacy_finding(seed, game.player_count))
    return found, seed


def legacy_finding(seed: Seed, players: int) -> Finding:
    """Which 2009 era the seed is of, and which kinds of its tiles real logs have shown."""
    seen = SEEN_ON_REAL_LOGS.get((seed.era, players), ())
    unseen = tuple(k for k in TILE_KINDS if k not in seen)
    words = len(seed.raw) // 4
    head = f"{seed.era.value} seed format ({seed.scheme.value}, {words} words)"
    if not unseen:
        tail = f"every kind of tile ({', '.join(seen)}) holds on real {players}-player logs of it"
    elif seen:
        tail = (
            f"{', '.join(seen)} hold on real {players}-player logs of it; "
            f"{', '.join(unseen)} verified best-effort (no real log of it shows them)"
        )
    else:
        tail = f"verified best-effort (no real {players}-player log of it has been checked)"
    data = {"era": seed.era.value, "seen": list(seen), "unseen": list(unseen)}
    return Finding("legacy_seed", Severity.INFO, None, f"{head}: {tail}", data)


def verify_game(game: Game) -> GameResult:
    """Rebuild or read every round's wall and compare every tile of the log with it."""
    findings, seed = game_findings(game)
    scheme, era = (seed.scheme, seed.era) if seed else (None, None)
    if any(f.code in FATAL_CODES for f in findings):
        return GameResult((), tuple(findings), scheme, era=era)
    if game.platform is not Platform.TENHOU:
        return _verify_stated(game, findings)
    layout = layout_for(wall_scheme(era or Era.CURRENT), game.player_count)
    red = red_fives(game)
    rounds: list[RoundResult] = []
    try:
        for rnd, wall in zip(game.rounds, walls_for(game, seed)):
            result = check_round(rnd, wall, layout, red)
            if _over_budget(rounds, result, findings):
                break
            rounds.append(result)
            findings.extend(result.findings)
    except SeedError as exc:
        findings.append(
            Finding(
                "bad_seed",
                Severity.ERROR,
                len(rounds),
                f"a round's seed is unusable: {exc.message}",
            )
        )
    return GameResult(tuple(rounds), capped(findings, FATAL_CODES), scheme, era=era)


def _over_budget(rounds: list[RoundResult], result: RoundResult, findings: list[Finding]) -> bool:
    """Whether this round's tile checks take the game over ``limits.MAX_ROWS`` (then a
    ``too_large`` finding says so: the game is not verified, and no more rounds are read)."""
    if sum(r.checked for r in rounds) + result.checked <= MAX_ROWS:
        return False
    findings.append(
        Finding(
            "too_large",
            Severity.ERROR,
            result.index,
            f"{result.label}: the game makes over {MAX_ROWS:,} tile checks (a real game "
            "makes about 4,000); pywall stops checking here",
            {"cap": MAX_ROWS},
        )
    )
    return True


# --- walls the record states (Mahjong Soul, Riichi City) ---------------------------


def _verify_stated(game: Game, findings: list[Finding]) -> GameResult:
    rounds: list[RoundResult] = []
    limits = limits_of(game.rounds, game.testing_environment)
    for rnd in game.rounds:
        layout = layout_for(WallScheme(rnd.wall_scheme or "front"), game.player_count)
        wall = rnd.wall or ()
        if len(wall) != layout.size:
            findings.append(
                Finding(
                    "log_format",
                    Severity.ERROR,
                    rnd.index,
                    f"{rnd.label}: the wall has {len(wall)} tiles; this record's "
                    f"walls have {layout.size}",
                )
            )
            return GameResult(tuple(rounds), capped(findings, FATAL_CODES), None, limits)
        result = check_round(rnd, RoundWall(wall, None), layout, True, stated=True)
        if _over_budget(rounds, result, findings):
            break
        digests = check_digests(
            rnd.hashes, index=rnd.index, where=rnd.label, tiles=len(wall),
            undealt=not layout.holds_deal,
        )  # fmt: skip
        more = composition_findings(rnd, layout) + copy_findings(rnd, layout)
        findings_of_round = result.findings + tuple(more) + digests.findings
        result = replace(result, findings=findings_of_round, digests=digests)
        rounds.append(result)
        findings.extend(result.findings)
    return GameResult(tuple(rounds), capped(findings, FATAL_CODES), None, limits)
