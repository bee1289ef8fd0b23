"""``pywall audit [--json] PATH...``: do the starting hands, the draws and the walls look
like a fair shuffle's?

Only games that verify count (each game once), of every platform and player count,
with a breakdown per platform and player count (3-player hands are tested against
the exact distributions over 108 tiles). Exit code 0 when the audit ran (whatever
it found), 2 when no game could be used.
"""

from __future__ import annotations

import argparse
import textwrap
from collections import Counter
from contextlib import closing

from pywall.analysis.audit_draws import DrawAudit, WallAudit
from pywall.analysis.stats import ZScore
from pywall.cli.output import emit_json, fail, plural, print_lines
from pywall.cli.pool import WorkerDied, ordered_map
from pywall.cli.verify import add_jobs_argument, job_count, weight
from pywall.core.archives import Packed, unpack
from pywall.core.errors import PywallError
from pywall.inputs import Skipped, iter_packed_inputs
from pywall.results.audit import (
    ALPHA,
    DRAWS_EXPLANATION,
    EXPLANATION,
    GroupAudit,
    audit_result,
    cli_dict,
)
from pywall.results.audit_html import audit_html, games_of
from pywall.results.audit_records import GameRecord
from pywall.results.audit_tally import KIND_TEXT, AuditTally
from pywall.results.audit_words import LANGS
from pywall.results.check import check_entry

SIZES = {13: "non-dealer (13 tiles)", 14: "dealer (14 tiles)"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "audit",
        help="test whether starting hands, draws and walls look like a fair shuffle's",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="logs, folders, zip archives, or -")
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="also write the audit as a self-contained HTML report to FILE",
    )
    p.add_argument(
        "--lang", choices=LANGS, default="en", help="the HTML report's language (default en)"
    )
    p.add_argument(
        "--min-hands",
        type=int,
        default=50,
        metavar="N",
        help="list players with at least N hands (default 50; JSON lists all)",
    )
    add_jobs_argument(p)
    p.set_defaults(run=run)


def input_for(item: tuple[str, bytes | PywallError | Packed]) -> GameRecord:
    """The worker's job for one log: its audit record, typed (module level, so worker
    processes can run it)."""
    name, content = item
    return check_entry(name, unpack(content), starting=True).record


def p_text(p: float) -> str:
    return "p < 1e-6" if p < 1e-6 else f"p = {p:.3g}"


def z_text(z: ZScore) -> str:
    return f"z = {z.z:+.2f}, {p_text(z.p_value)}"


def group_lines(g: GroupAudit) -> list[str]:
    lines = [f"{g.label}: {plural(g.hands, 'hand')}"]
    mixed = len({part.players for part in g.parts}) > 1
    for part in g.parts:
        size = f"{part.players}p " + SIZES[part.tiles] if mixed else SIZES[part.tiles]
        lines.append(
            f"  {size:<21} {part.hands:>7,} hands: mean shanten {part.mean:.3f} "
            f"(fair {part.expected_mean:.3f}), {z_text(part.z)}; chi-square "
            f"{part.chi_square.statistic:.2f} on {part.chi_square.dof} dof, "
            f"{p_text(part.chi_square.p_value)}"
        )
    if g.dora is not None:
        lines.append(
            f"  dora dealt: {g.dora.observed:,.0f} (fair {g.dora.expected:,.1f}), {z_text(g.dora)}"
        )
    lines += draw_lines(g.draws) + wall_lines(g.walls)
    verdict = (
        "UNLIKELY under a fair shuffle" if g.rejects(ALPHA) else "consistent with a fair shuffle"
    )
    lines.append(
        f"  verdict: {verdict} (smallest p {min(g.p_values):.3g}; "
        f"threshold {ALPHA} split over {len(g.p_values)} tests)"
    )
    return lines


DRAW_WORDS = {
    "effective": "effective draws",
    "tenpai": "winning tiles drawn in tenpai",
    "dora": "dora drawn",
}
WALL_WORDS = {
    "positions": "tile kinds by wall position",
    "deal": "deal by seat (dealer, others, rest)",
    "live": "live wall, early and late",
    "dead": "dead wall",
    "red_fives": "red fives by region",
}


def draw_lines(draws: DrawAudit | None) -> list[str]:
    """The draw tests in words: "effective draws: 412 of 1,530, fair 431 +- 17 (z ...)"."""
    if draws is None:
        return []
    lines = []
    for t in draws.tests:
        s = t.sums
        if not s.n:
            lines.append(f"  {DRAW_WORDS[t.name]}: no draws")
            continue
        fair = f"fair {s.expected:,.0f} +- {s.variance**0.5:,.0f}"
        test = (
            f"z = {t.z:+.2f}, {p_text(t.p)}" if t.z is not None and t.p is not None else "no test"
        )
        lines.append(f"  {DRAW_WORDS[t.name]}: {s.observed:,} of {s.n:,}, {fair} ({test})")
    return lines


def wall_lines(walls: WallAudit | None) -> list[str]:
    if walls is None:
        return []
    if not walls.walls:
        return [
            "  wall positions: no whole wall known (Mahjong Soul before 2023-05-23 states only the undealt tiles)"
        ]
    head = (
        f"  wall positions, {plural(walls.walls, 'whole wall')} of {plural(walls.games, 'game')}:"
    )
    if not walls.tests:
        return [head + " too few for a test (the position test needs about 170)"]
    return [head] + [
        f"    {WALL_WORDS[t.name]}: chi-square {t.chi2:,.1f} on {t.dof:,} dof, {p_text(t.p)}"
        for t in walls.tests
    ]


def excluded_summary(tally: AuditTally) -> str:
    kinds = Counter(e.kind for e in tally.excluded)
    return ", ".join(f"{n} {KIND_TEXT[k]}" for k, n in kinds.most_common())


def run(args: argparse.Namespace) -> int:
    jobs = job_count(args)
    if jobs is None:
        return fail("--jobs must be at least 1")
    skipped: list[Skipped] = []
    tally = AuditTally()
    items = iter_packed_inputs(args.paths, skipped)
    try:
        with closing(ordered_map(input_for, items, jobs, weight=weight)) as inputs:
            for found in inputs:
                tally.add(found)
    except WorkerDied as exc:
        return fail(str(exc))
    if not tally.hands:
        for e in tally.excluded[:10]:
            print_lines([f"excluded {e.path}: {e.reason}"])
        return fail(f"no verified game to audit ({plural(len(tally.excluded), 'file')} excluded)")
    result = audit_result(tally)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(audit_html(result, args.lang, games_of(tally)))
        except OSError as exc:
            return fail(f"cannot write {args.html}: {exc.strerror or exc}")
    if args.json:
        emit_json(cli_dict(result, tally))
        return 0
    print(
        f"Audit of {plural(tally.games, 'verified game')}, {plural(tally.hands, 'starting hand')}"
        + (f"; excluded {len(tally.excluded)}: {excluded_summary(tally)}" if tally.excluded else "")
    )
    print(f"{plural(tally.draws, 'draw')} tested, live and replacement draws")
    for note in corpus_notes(tally):
        print(note)
    print()
    print_lines(group_lines(result.overall))
    for g in result.platforms if len(result.platforms) > 1 else ():
        print()
        print_lines(group_lines(g))
    for g in result.seats:
        print()
        print_lines(group_lines(g))
    shown = [g for g in sorted(result.players, key=lambda g: -g.hands) if g.hands >= args.min_hands]
    for g in shown:
        print()
        print_lines(group_lines(g))
    hidden = len(result.players) - len(shown)
    if hidden:
        print(
            f"\n({plural(hidden, 'player')} with fewer than {args.min_hands} hands not listed; see --json)"
        )
    if tally.anonymous_hands:
        print(
            f"\n({plural(tally.anonymous_hands, 'hand')} of anonymous players (NoName) count in the "
            "totals only: they are not one player)"
        )
    if tally.anonymous_draws:
        print(
            f"({plural(tally.anonymous_draws, 'draw')} of anonymous players count in the totals only)"
        )
    print()
    print(textwrap.fill(EXPLANATION, width=100))
    print()
    print(textwrap.fill(DRAWS_EXPLANATION, width=100))
    for e in tally.excluded:
        print_lines([f"excluded {e.path}: {e.reason}"])
    return 0


def corpus_notes(tally: AuditTally) -> list[str]:
    """Plain words about a corpus the tests can say little of."""
    notes = []
    if not tally.draws:
        notes.append(
            "No draw could be tested (the games end before any draw, or their reports carry none)."
        )
    if tally.games == 1:
        notes.append(
            "One game: every test below has little power; a few hundred games detect only large effects."
        )
    if len(tally.walls) + len(tally.platforms) > 2:
        notes.append(
            "Games of several platforms or player counts: each is tested apart below, and together."
        )
    return notes
