"""``pywall audit [--json] PATH_OR_GAME... [--from FILE]``: do the starting hands, the draws and the walls look
like a fair shuffle's?

In parts (docs/scale.md): ``pywall audit --save-tally FILE PATH...`` writes what the
audit counted of PATH... to FILE; ``pywall audit --merge FILE...`` audits saved parts as
one run over all their inputs (a game in two parts counted once). A saved part of
another format version, whose counts do not add up, or too large is refused (exit 2).

Only games that verify count (each game once), of every platform and player count,
with a breakdown per platform and player count (3-player hands are tested against
the exact distributions over 108 tiles). Exit code 0 when the audit ran (whatever
it found), 2 when no game could be used. Tenhou games named by log id or link (or in
lists, --from FILE) are fetched from Tenhou's log server into the cache first, one a
second; a game that could not be fetched is left out with its reason.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, closing

from pywall.analysis.stats import ZScore, fair_range, reading
from pywall.audits.draw_wall_tests import DrawAudit, WallAudit
from pywall.audits.html import audit_html_pieces, detectable_words, games_of
from pywall.audits.tally import KIND_TEXT, AuditTally
from pywall.audits.verdicts import (
    ALPHA,
    DRAWS_EXPLANATION,
    EXPLANATION,
    MAX_PLAYERS_LISTED,
    GroupAudit,
    audit_result,
    cli_json,
    hand_seen,
    players_not_listed,
)
from pywall.audits.words import LANGS, WORDS, count, pick
from pywall.cli.games import GameRequest, add_input_arguments, entries, fetch_missing, request_of
from pywall.cli.output import emit_pieces, fail, plural, print_lines
from pywall.cli.progress import Progress
from pywall.cli.tallies import cannot_write, in_parts, part_file
from pywall.cli.verify import add_jobs_argument, job_count, jobs_problem
from pywall.core.errors import PywallError
from pywall.inputs import PackedEntry, Skipped
from pywall.run.pool import WorkerDied, part_games, records, rereader

SIZES = {13: "non-dealer (13 tiles)", 14: "dealer (14 tiles)"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "audit",
        help="test whether starting hands, draws and walls look like a fair shuffle's",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_arguments(p, "logs, folders, zip archives, or -")
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
    parts = p.add_mutually_exclusive_group()
    parts.add_argument(
        "--save-tally",
        metavar="FILE",
        help="also write what this audit counted to FILE (one part of an audit, for --merge)",
    )
    parts.add_argument(
        "--merge",
        action="store_true",
        help="the PATHs are tallies saved by --save-tally: audit them as one run over all their inputs",
    )
    p.set_defaults(run=run)


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
    each, words = ALPHA / len(g.p_values), WORDS["en"]
    seen = detectable_words(
        "shanten_sum", hand_seen("shanten_sum", g.shanten_z, g.hands, each), words
    )
    lines += [f"    {seen}"] if seen else []
    if g.dora is not None:
        lines.append(
            f"  dora dealt: {g.dora.observed:,.0f} (fair {g.dora.expected:,.1f}), {z_text(g.dora)}"
        )
        seen = detectable_words("hand_dora", hand_seen("dora", g.dora, g.hands, each), words)
        lines += [f"    {seen}"] if seen else []
    lines += draw_lines(g.draws, ALPHA / len(g.p_values)) + wall_lines(g.walls)
    verdict = (
        "UNLIKELY under a fair shuffle" if g.rejects(ALPHA) else "consistent with a fair shuffle"
    )
    lines.append(
        f"  verdict: {verdict} (smallest p {min(g.p_values):.3g}; "
        f"threshold {ALPHA} split over {len(g.p_values)} tests)"
    )
    return lines


WALL_WORDS = {
    "positions": "tile kinds by wall position",
    "deal": "deal by seat (dealer, others, rest)",
    "live": "live wall, early and late",
    "dead": "dead wall",
    "red_fives": "red fives by region",
}


def draw_lines(draws: DrawAudit | None, each: float = ALPHA / 3) -> list[str]:
    """The draw tests in the report's words (``audits.words``): what each counts, the
    hits, the range a fair shuffle gives 95% of the time and where the hits fall ("effective
    draws (...): 412 of 1,530 — a fair shuffle gives 431 on average, usually between 398
    and 464: unusual (z = -1.13, p = 0.259)"); ``each``: a test's share of the threshold."""
    if draws is None:
        return []
    words = WORDS["en"]
    lines = []
    for t in draws.tests:
        s = t.sums
        what = words["draw_" + t.name][0].lower() + words["draw_" + t.name][1:]
        if not s.n:
            lines.append(f"  {what}: {words['no_draws']}")
            continue
        low, high = fair_range(s.expected, s.variance, s.n)
        line = pick(
            words,
            "draw_line",
            what=what,
            obs=count(int(s.observed)),
            n=count(s.n),
            fair=count(round(s.expected)),
            low=count(low),
            high=count(high),
        )
        if t.z is not None and t.p is not None:
            line += f" {words['reading_' + reading(t.p, each)]} (z = {t.z:+.2f}, {p_text(t.p)})"
        lines.append(f"  {line}")
        seen = detectable_words(t.name, t.to_dict(each), words)
        if seen is not None:
            lines.append(f"    {seen}")
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
    """How many files were left out for each reason: "2 repeats, 1 game with conflicting
    copies, 1 mismatch"."""
    kinds = Counter(e.kind for e in tally.excluded)
    return ", ".join(
        plural(n, "repeat")
        if k == "duplicate"
        else f"{plural(n, 'game')} with conflicting copies"
        if k == "conflict"
        else f"{n} {KIND_TEXT[k]}"
        for k, n in kinds.most_common()
    )


def run(args: argparse.Namespace) -> int:
    with ExitStack() as held:  # --save-tally's part file, open until the report is made
        return _run(args, held)


def _run(args: argparse.Namespace, held: ExitStack) -> int:
    problem = jobs_problem(args)
    if problem:
        return fail(problem)
    jobs = job_count(args)
    request = None
    if not args.merge:
        try:
            request = request_of(args)
        except PywallError as exc:
            return fail(exc.message)
    skipped: list[Skipped] = []
    part = None  # --save-tally: the part, written as its games come
    try:
        tally, items = _tally_and_items(request, skipped, jobs)
        if args.save_tally:
            try:
                part = held.enter_context(part_file(args.save_tally))
            except OSError as exc:
                return fail(cannot_write(args.save_tally, exc))
            tally = AuditTally(reread=part.reread)  # its records read back from the part's spool
            with closing(part_games(items, jobs)) as saved:
                for game in saved:
                    part.add(game)
                    tally.add(game.record)
        else:
            with closing(records(items, jobs)) as inputs:
                for found in inputs:
                    tally.add(found)
    except WorkerDied as exc:
        return fail(str(exc))
    except PywallError as exc:  # a limit of the audit (limits.MAX_AUDIT_KEPT): said, exit 2
        return fail(exc.message)
    except OSError as exc:  # the part could not be written
        if part is None:
            raise
        return fail(cannot_write(part.path, exc))
    found_parts = in_parts(args, tally, part, jobs)  # --merge: the parts' tally; --save-tally
    if isinstance(found_parts, int):
        return found_parts
    tally = found_parts
    tally.settle()
    if not tally.hands:  # with --json, standard output is the document or nothing
        left_out = [f"excluded {e.path}: {e.reason}" for e in tally.excluded[:10]]
        print_lines(left_out, file=sys.stderr if args.json else None)
        return fail(f"no verified game to audit ({plural(len(tally.excluded), 'file')} excluded)")
    result = audit_result(tally)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.writelines(audit_html_pieces(result, args.lang, games_of(tally)))
        except OSError as exc:
            return fail(f"cannot write {args.html}: {exc.strerror or exc}")
    if args.json:
        emit_pieces(cli_json(result, tally))
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
    unlisted = players_not_listed(tally)
    if unlisted:
        print(
            f"\n({plural(unlisted, 'player')} not listed, even in --json: the audit lists the "
            f"{MAX_PLAYERS_LISTED:,} with the most hands; every hand counts in the totals)"
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


def _tally_and_items(
    request: GameRequest | None, skipped: list[Skipped], jobs: int
) -> tuple[AuditTally, Iterator[PackedEntry]]:
    """The run's tally and its inputs (the request's games fetched first). Inputs that can
    be read again (not standard input) give a tally that keeps a few hundred bytes a game
    and reads a game again when another copy of it comes (``AuditTally.reread``)."""
    if request is None:  # --merge: the saved parts are read by in_parts, not as logs
        return AuditTally(), iter(())
    progress = Progress(sys.stderr, len(request.games), Progress.wanted(sys.stderr, False))
    failed = fetch_missing(request, progress) if request.games else {}
    if "-" in request.inputs:
        return AuditTally(), entries(request, skipped, failed)
    reread = rereader(lambda: entries(request, [], failed), jobs)
    return AuditTally(reread=reread), entries(request, skipped, failed)


def corpus_notes(tally: AuditTally) -> list[str]:
    """Plain words about a corpus the tests can say little of."""
    notes = []
    skipped = tally.skipped_rounds
    if skipped:
        why = {
            "no_fit": "their calls and discards fit no hand the walk can follow",
            "walk_budget": "following the hands their open calls allow took too long",
        }
        notes.append(
            f"{plural(sum(skipped.values()), 'round')} left out of the draw tests ("
            + "; ".join(f"{n:,}: {why[r]}" for r, n in sorted(skipped.items()))
            + "); their deals and walls still count."
        )
    if not tally.draws:
        notes.append(
            "No draw could be tested"
            + ("." if skipped else " (the games end before any draw, or their reports carry none).")
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
