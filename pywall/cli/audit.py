"""``pywall audit [--json] PATH...``: do the starting hands look like a fair shuffle's?

Only games that verify against their seed count (each game once, by seed);
3-player games are left out (the exact distributions are for 136 tiles).
Exit code 0 when the audit ran (whatever it found), 2 when no game could be used.
"""

from __future__ import annotations

import argparse
import textwrap
from collections import Counter

from pywall.audit import ALPHA, EXPLANATION, Collected, GroupAudit, audit_hands, collect
from pywall.cli.output import emit_json, fail, plural, print_lines
from pywall.inputs import Skipped, iter_inputs
from pywall.stats import ZScore

SIZES = {13: "non-dealer (13 tiles)", 14: "dealer (14 tiles)"}
KINDS = {"unreadable": "unreadable", "error": "could not be verified", "mismatch": "mismatch",
         "three_player": "3-player", "duplicate": "repeated game"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("audit", help="test whether starting hands look like a fair shuffle's",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH", help="logs, folders, zip archives, or -")
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.add_argument("--min-hands", type=int, default=50, metavar="N",
                   help="list players with at least N hands (default 50; JSON lists all)")
    p.set_defaults(run=run)


def p_text(p: float) -> str:
    return "p < 1e-6" if p < 1e-6 else f"p = {p:.3g}"


def z_text(z: ZScore) -> str:
    return f"z = {z.z:+.2f}, {p_text(z.p_value)}"


def group_lines(g: GroupAudit) -> list[str]:
    lines = [f"{g.label}: {plural(g.hands, 'hand')}"]
    for part in g.parts:
        lines.append(f"  {SIZES[part.tiles]:<21} {part.hands:>7,} hands: mean shanten {part.mean:.3f} "
                     f"(fair {part.expected_mean:.3f}), {z_text(part.z)}; chi-square "
                     f"{part.chi_square.statistic:.2f} on {part.chi_square.dof} dof, "
                     f"{p_text(part.chi_square.p_value)}")
    if g.dora is not None:
        lines.append(f"  dora dealt: {g.dora.observed:,.0f} (fair {g.dora.expected:,.1f}), {z_text(g.dora)}")
    verdict = ("UNLIKELY under a fair shuffle" if g.rejects(ALPHA)
               else "consistent with a fair shuffle")
    lines.append(f"  verdict: {verdict} (smallest p {min(g.p_values):.3g}; "
                 f"threshold {ALPHA} split over {len(g.p_values)} tests)")
    return lines


def excluded_summary(c: Collected) -> str:
    kinds = Counter(e.kind for e in c.excluded)
    return ", ".join(f"{n} {KINDS[k]}" for k, n in kinds.most_common())


def run(args: argparse.Namespace) -> int:
    skipped: list[Skipped] = []
    collected = collect(iter_inputs(args.paths, skipped))
    if not collected.hands:
        for e in collected.excluded[:10]:
            print_lines([f"excluded {e.path}: {e.reason}"])
        return fail(f"no verified 4-player game to audit ({plural(len(collected.excluded), 'file')} excluded)")
    result = audit_hands(collected.hands)
    if args.json:
        doc = result.to_dict()
        doc["games"] = {"used": collected.games,
                        "excluded": [{"path": e.path, "kind": e.kind, "reason": e.reason}
                                     for e in collected.excluded]}
        emit_json(doc)
        return 0
    print(f"Audit of {plural(collected.games, 'verified game')}, {plural(len(collected.hands), 'starting hand')}"
          + (f"; excluded {len(collected.excluded)}: {excluded_summary(collected)}" if collected.excluded else ""))
    print()
    print_lines(group_lines(result.overall))
    shown = [g for g in sorted(result.players, key=lambda g: -g.hands) if g.hands >= args.min_hands]
    for g in shown:
        print()
        print_lines(group_lines(g))
    hidden = len(result.players) - len(shown)
    if hidden:
        print(f"\n({plural(hidden, 'player')} with fewer than {args.min_hands} hands not listed; see --json)")
    print()
    print(textwrap.fill(EXPLANATION, width=100))
    for e in collected.excluded:
        print_lines([f"excluded {e.path}: {e.reason}"])
    return 0


