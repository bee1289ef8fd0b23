"""``pywall audit [--json] PATH...``: do the starting hands look like a fair shuffle's?

Only games that verify count (each game once), of every platform and player count,
with a breakdown per platform and player count (3-player hands are tested against
the exact distributions over 108 tiles). Exit code 0 when the audit ran (whatever
it found), 2 when no game could be used.
"""

from __future__ import annotations

import argparse
import textwrap
from collections import Counter

from pywall.audit import ALPHA, EXPLANATION, KIND_TEXT, GroupAudit, Tally, audit_result
from pywall.cli.output import emit_json, fail, plural, print_lines
from pywall.inputs import Skipped, iter_inputs
from pywall.report import report_for_entry
from pywall.stats import ZScore

SIZES = {13: "non-dealer (13 tiles)", 14: "dealer (14 tiles)"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "audit",
        help="test whether starting hands look like a fair shuffle's",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="logs, folders, zip archives, or -")
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.add_argument(
        "--min-hands",
        type=int,
        default=50,
        metavar="N",
        help="list players with at least N hands (default 50; JSON lists all)",
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
    if g.dora is not None:
        lines.append(
            f"  dora dealt: {g.dora.observed:,.0f} (fair {g.dora.expected:,.1f}), {z_text(g.dora)}"
        )
    verdict = (
        "UNLIKELY under a fair shuffle" if g.rejects(ALPHA) else "consistent with a fair shuffle"
    )
    lines.append(
        f"  verdict: {verdict} (smallest p {min(g.p_values):.3g}; "
        f"threshold {ALPHA} split over {len(g.p_values)} tests)"
    )
    return lines


def excluded_summary(tally: Tally) -> str:
    kinds = Counter(e.kind for e in tally.excluded)
    return ", ".join(f"{n} {KIND_TEXT[k]}" for k, n in kinds.most_common())


def run(args: argparse.Namespace) -> int:
    skipped: list[Skipped] = []
    tally = Tally()
    for name, content in iter_inputs(args.paths, skipped):
        tally.add_report(report_for_entry(name, content, starting=True).to_dict())
    if not tally.hands:
        for e in tally.excluded[:10]:
            print_lines([f"excluded {e.path}: {e.reason}"])
        return fail(f"no verified game to audit ({plural(len(tally.excluded), 'file')} excluded)")
    result = audit_result(tally)
    if args.json:
        doc = result.to_dict()
        doc["games"] = {
            "used": tally.games,
            "hands": tally.hands,
            "anonymous_hands": tally.anonymous_hands,
            "excluded": [
                {"path": e.path, "kind": e.kind, "reason": e.reason} for e in tally.excluded
            ],
        }
        emit_json(doc)
        return 0
    print(
        f"Audit of {plural(tally.games, 'verified game')}, {plural(tally.hands, 'starting hand')}"
        + (f"; excluded {len(tally.excluded)}: {excluded_summary(tally)}" if tally.excluded else "")
    )
    print()
    print_lines(group_lines(result.overall))
    if len(result.platforms) > 1:
        for g in result.platforms:
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
    print()
    print(textwrap.fill(EXPLANATION, width=100))
    for e in tally.excluded:
        print_lines([f"excluded {e.path}: {e.reason}"])
    return 0
