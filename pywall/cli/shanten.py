"""``pywall shanten [--json] [--visible TILES] HAND`` or
``pywall shanten --distribution 13|14 [--players 3|4] [--json]``.

HAND is mpsz text (``123m456p789s1122z``; ``0m`` is a red five), 1-14 tiles, not a
multiple of 3 (hands after calls have 3k+1 or 3k+2 tiles). Shanten is given per
form (regular, seven pairs, thirteen orphans) and their minimum; -1 is a complete
hand, 0 tenpai. A 3k+1-tile hand shows the tiles that lower its shanten; a
3k+2-tile hand shows, like Tenhou's 牌理 tool, each discard that keeps the best
shanten with the tiles it then accepts, most first. Remaining counts are 4 minus
the copies in the hand and those given with --visible.

``--distribution`` prints the exact number of 13- or 14-tile hands dealt from 136
tiles at each shanten, computed by pywall (a few seconds); with ``--players 3``,
from the 108 tiles of a 3-player wall (no 2m-8m).
"""

from __future__ import annotations

import argparse
import math

from pywall.analysis.efficiency import DiscardTable, EffectiveTiles, discard_table, effective_tiles
from pywall.analysis.shanten import FormShanten, shanten_by_form
from pywall.analysis.shanten_distribution import distribution, wall_copies
from pywall.analysis.stats import moments
from pywall.cli.output import emit_json, fail, plural, print_lines
from pywall.core.errors import PywallError
from pywall.core.tiles import counts_from_mpsz, kind_text, mpsz_from_counts
from pywall.results.report import SCHEMA


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "shanten",
        help="shanten, effective tiles and discard table of a hand; exact distributions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "hand", nargs="?", metavar="HAND", help="the hand in mpsz, e.g. 123m456p789s1122z"
    )
    p.add_argument(
        "--visible", metavar="TILES", help="tiles seen elsewhere (mpsz), not left to draw"
    )
    p.add_argument(
        "--distribution", type=int, choices=(13, 14), metavar="13|14",
        help="print the exact shanten distribution of all 13- or 14-tile hands instead",
    )  # fmt: skip
    p.add_argument(
        "--players", type=int, choices=(3, 4), metavar="3|4",
        help="with --distribution: a 4-player wall (136 tiles, the default) or a "
        "3-player one (108 tiles, no 2m-8m)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def describe(value: int) -> str:
    return {-1: "complete", 0: "tenpai"}.get(value, f"{value}-shanten")


def forms_dict(forms: FormShanten) -> dict[str, int | None]:
    return {
        "regular": forms.regular,
        "chiitoi": forms.chiitoi,
        "kokushi": forms.kokushi,
        "minimum": forms.minimum,
    }


def forms_line(forms: FormShanten) -> str:
    parts = [f"regular {forms.regular}"]
    if forms.chiitoi is not None:
        parts.append(f"seven pairs {forms.chiitoi}")
    if forms.kokushi is not None:
        parts.append(f"thirteen orphans {forms.kokushi}")
    return f"shanten {forms.minimum} ({describe(forms.minimum)}): " + ", ".join(parts)


def tiles_text(effective: EffectiveTiles) -> str:
    if not effective.tiles:
        return "none"
    listed = " ".join(f"{kind_text(t.kind)}({t.remaining})" for t in effective.tiles)
    return f"{listed} = {effective.total} tiles"


def table_lines(table: DiscardTable) -> list[str]:
    lines = []
    for option in table.options:
        after = describe(option.effective.shanten)
        lines.append(
            f"  discard {kind_text(option.discard)} -> {after}, accepts {tiles_text(option.effective)}"
        )
    return lines


def hand_result(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    counts = counts_from_mpsz(args.hand)
    visible = counts_from_mpsz(args.visible) if args.visible else None
    forms = shanten_by_form(counts)
    tiles = sum(counts)
    data: dict[str, object] = {
        "schema": SCHEMA,
        "hand": mpsz_from_counts(counts),
        "tiles": tiles,
        "shanten": forms_dict(forms),
    }
    lines = [f"{data['hand']} ({plural(tiles, 'tile')})", forms_line(forms)]
    if tiles % 3 == 1:
        effective = effective_tiles(counts, visible)
        data["effective"] = effective.to_dict()
        lines.append(f"effective tiles: {tiles_text(effective)}")
    else:
        table = discard_table(counts, visible)
        data["discards"] = table.to_dict()["discards"]
        lines += table_lines(table)
    return data, lines


def distribution_result(tiles: int, players: int = 4) -> tuple[dict[str, object], list[str]]:
    counts = distribution(tiles, players)
    total = sum(counts.values())
    wall = sum(wall_copies(players))
    mean, variance = moments(counts)
    data: dict[str, object] = {
        "schema": SCHEMA,
        "tiles": tiles,
        "players": players,
        "wall_tiles": wall,
        "counts": {str(s): n for s, n in counts.items()},
        "total": total,
        "mean": float(mean),
        "sd": math.sqrt(variance),
    }
    source = "" if players == 4 else " from a 3-player wall (no 2m-8m)"
    lines = [f"Shanten of all C({wall}, {tiles}) = {total:,} hands of {tiles} tiles{source}:"]
    lines += [
        f"  {s:>2} {describe(s):<11} {n:>29,}  {100 * n / total:10.6f} %" for s, n in counts.items()
    ]
    lines.append(f"  mean {float(mean):.7f}, standard deviation {math.sqrt(variance):.7f}")
    return data, lines


def run(args: argparse.Namespace) -> int:
    if (args.hand is None) == (args.distribution is None):
        return fail("give a HAND or --distribution 13|14 (one of them)")
    if args.distribution is not None and args.visible:
        return fail("--visible goes with a HAND, not with --distribution")
    if args.hand is not None and args.players is not None:
        return fail("--players goes with --distribution, not with a HAND")
    try:
        if args.hand is not None:
            data, lines = hand_result(args)
        else:
            data, lines = distribution_result(args.distribution, args.players or 4)
    except PywallError as exc:
        return fail(f"shanten: {exc.message}")
    if args.json:
        emit_json(data)
    else:
        print_lines(lines)
    return 0
