"""``pywall mj [--json] --uncertainty N SEED1 SEED2 SEED3 SEED4``: a SEGA MJ arcade wall.

The four 27-character player seeds and the round's uncertainty value (不確定要素)
are shown on the cabinet and on MJ.NET ("乱数情報"). Seeds may begin with ``-``
(it is in SEGA's alphabet) and can be written as they are. Tiles are shown
mpsz style; red fives are not marked (SEGA does not publish which ids are red).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from pywall.checks import sega
from pywall.cli.output import emit_json, fail, print_lines
from pywall.core.errors import PywallError

ROW = 34  # tiles per printed row: one side of the table, 17 stacks


class _SeedFriendlyParser(argparse.ArgumentParser):
    """Puts the seeds behind ``--`` so a seed such as ``-MArv...`` is not read as an option.

    The command's own options (and argparse's abbreviations of them) stay in
    front; every other word is a seed, in the order given (a seed of the wrong
    length then gets the seed's own clear message), except unknown ``--long``
    options, which are left for argparse to report.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if args is not None:
            args = words_with_seeds_last(args)
        return super().parse_known_args(args, namespace)


_FLAGS = ("--json", "--help")
_VALUED = ("--uncertainty",)


def words_with_seeds_last(words: Sequence[str]) -> list[str]:
    """``[options..., "--", seeds...]``: the pre-split argparse needs for dash seeds."""
    options: list[str] = []
    seeds: list[str] = []
    rest = iter(words)
    for word in rest:
        name = word.split("=", 1)[0]
        if word == "--":
            seeds.extend(rest)
        elif word == "-h" or _abbreviates(name, _FLAGS):
            options.append(word)
        elif _abbreviates(name, _VALUED):
            options.append(word)
            value = next(rest, None) if "=" not in word else None
            if value is not None:
                options.append(value)
        elif word.startswith("--") and not _is_seed(word):
            options.append(word)  # an unknown long option: argparse reports it
        else:
            seeds.append(word)
    return [*options, "--", *seeds]


def _is_seed(word: str) -> bool:
    """27 characters of SEGA's alphabet: a seed even if it starts with ``--``."""
    return len(word) == sega.SEED_LENGTH and all(c in sega.SEED_ALPHABET for c in word)


def _abbreviates(name: str, options: tuple[str, ...]) -> bool:
    return name.startswith("--") and len(name) > 2 and any(o.startswith(name) for o in options)


def uncertainty_value(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= sega.MAX_UNCERTAINTY:
        raise argparse.ArgumentTypeError(f"{value} is outside 0-{sega.MAX_UNCERTAINTY}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("mj", help="show a SEGA MJ arcade wall from the four player seeds",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.__class__ = _SeedFriendlyParser  # argparse calls parse_known_args on sub-parsers
    p.add_argument("--json", action="store_true", help="print the wall as JSON")
    p.add_argument("--uncertainty", required=True, type=uncertainty_value, metavar="N",
                   help="the round's uncertainty value (不確定要素), 0-4294967295")  # fmt: skip
    p.add_argument("seeds", nargs="*", metavar="SEED", help="the four player seeds (27 characters)")
    p.set_defaults(run=run)


def human_lines(d: dict[str, Any]) -> list[str]:
    tiles = d["tiles"]
    dice = d["dice"]
    brk = d["break"]
    lines = [
        f"SEGA MJ wall, uncertainty {d['uncertainty']}",
        (
            f"dice {dice[0]} + {dice[1]} = {brk['dice_sum']}: the break is in "
            f"{brk['wall']}, {brk['stacks_from_right']} stacks from its right end"
        ),
        "yama in SEGA's order (index 0 first; how SEGA lays it round the table is not published):",
    ]
    for start in range(0, len(tiles), ROW):
        row = tiles[start : start + ROW]
        lines.append(f"  [{start:3}-{start + len(row) - 1:3}] {' '.join(row)}")
    lines.append("red fives are not marked: SEGA does not publish which tile ids are red")
    return lines


def run(args: argparse.Namespace) -> int:
    if len(args.seeds) != sega.PLAYERS:
        return fail(f"mj needs the {sega.PLAYERS} player seeds, got {len(args.seeds)}")
    try:
        result = sega.sega_wall(args.seeds, args.uncertainty)
    except PywallError as exc:
        return fail(exc.message)
    data = result.to_dict()
    if args.json:
        emit_json(data)
    else:
        print_lines(human_lines(data))
    return 0
