"""``pywall wall SEED [--rounds N] [--players 3|4] [--json | --svg FILE [--round N]]``:
show the walls a seed defines.

SEED is the SHUFFLE seed of a log, with or without its
``mt19937ar-sha512-n288-base64,`` prefix (or ``@FILE`` to read it from a file,
``-`` from standard input). Tiles are written mpsz style (``5m 0p 7z``; red fives
as ``0``). Hands are shown in deal order from the dealer (the first seat dealt).
``--svg FILE`` writes one round's wall (``--round N``, default 1) as a picture
instead, drawn with the page's tile art (``pywall.pictures.picture``), its caption naming the
round and the seed (shortened on the picture, whole in its ``<desc>``); ``-`` writes it to
standard output. A file that cannot be written exits 3, like any output failure.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pywall.checks import tenhou
from pywall.cli.output import EXIT_OUTPUT, emit_json, fail, print_lines
from pywall.core.errors import PywallError
from pywall.core.limits import MAX_SEED_CHARS, MAX_WALL_ROUNDS
from pywall.core.tiles import mpsz_from_ids, tile_text
from pywall.inputs.files import read_named
from pywall.pictures.picture import drawing_of, wall_svg
from pywall.results.exports import seed_layout, wall_dict
from pywall.results.report import SCHEMA

SEED_BYTES = MAX_SEED_CHARS  # a UTF-8 seed of more bytes has more characters
SEATS = ("dealer", "dealer+1", "dealer+2", "dealer+3")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "wall",
        help="show the walls a Tenhou seed defines",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("seed", metavar="SEED", help="the seed text, @FILE, or - for standard input")
    p.add_argument("--rounds", type=int, default=1, metavar="N", help="how many rounds (default 1)")
    p.add_argument("--players", type=int, choices=(3, 4), default=4, help="3 or 4 (default 4)")
    p.add_argument("--no-red", action="store_true", help="show red fives as plain 5s")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the walls as JSON")
    out.add_argument(
        "--svg",
        metavar="FILE",
        help="write one round's wall as an SVG picture to FILE (- for standard output)",
    )
    p.add_argument(
        "--round", type=int, default=1, metavar="N", help="the round --svg draws (default 1)"
    )
    p.set_defaults(run=run)


def read_seed(arg: str) -> str:
    """The seed text: as given, from a file (``@FILE``) or from standard input (``-``)."""
    if arg == "-" or arg.startswith("@"):
        return read_named(arg if arg == "-" else arg[1:], SEED_BYTES).decode("utf-8")
    return arg


def tiles(ids: list[int], red: bool) -> str:
    return " ".join(tile_text(t, red) for t in ids)


def human(d: dict[str, Any], red: bool) -> list[str]:
    wall = d["wall"]
    dice = d["dice"]
    lines = [f"Round {d['index'] + 1}: dice {dice[0]} + {dice[1]} = {sum(dice)}"]
    for seat, hand in enumerate(d["hands"]):
        lines.append(f"  {SEATS[seat]:<9} {tiles(hand, red)}   [{mpsz_from_ids(hand, red)}]")
    layout = d["layout"]
    live = layout["live"]
    lines.append(f"  live wall, yama[{live[0]}..{live[-1]}] in draw order ({len(live)} tiles):")
    for i in range(0, len(live), 17):
        lines.append("    " + tiles([wall[p] for p in live[i : i + 17]], red))
    dora, ura, repl = layout["dora"], layout["ura"], layout["replacements"]
    dead = layout["dead"][::-1]
    lines.append(f"  dead wall yama[{dead[0]}..{dead[-1]}]: {tiles([wall[p] for p in dead], red)}")
    lines.append(
        f"    dora indicator yama[{dora[0]}] {tile_text(wall[dora[0]], red)}; "
        f"kan dora {tiles([wall[p] for p in dora[1:]], red)}"
    )
    lines.append(f"    ura indicators {tiles([wall[p] for p in ura], red)}")
    lines.append(f"    replacement tiles in order {tiles([wall[p] for p in repl], red)}")
    return lines


def write_svg(path: str, svg: str) -> int:
    """The picture to FILE, or to standard output for ``-`` (whose failures ``main`` reports)."""
    if path == "-":
        sys.stdout.write(svg)
        return 0
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    except OSError as exc:
        return fail(f"cannot write {path}: {exc.strerror or exc}", EXIT_OUTPUT)
    return 0


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.rounds <= MAX_WALL_ROUNDS:
        return fail(f"--rounds must be from 1 to {MAX_WALL_ROUNDS}")
    if not 1 <= args.round <= MAX_WALL_ROUNDS:
        return fail(f"--round must be from 1 to {MAX_WALL_ROUNDS}")
    try:
        seed = read_seed(args.seed)
    except (PywallError, UnicodeDecodeError) as exc:
        return fail(f"cannot read the seed: {exc}")
    try:
        parsed = tenhou.parse_seed(seed)
        count = args.round if args.svg else args.rounds
        walls = tenhou.walls(seed, count, args.players)
    except PywallError as exc:
        return fail(f"bad seed: {exc.message}")
    if args.svg:
        chosen = walls[args.round - 1]
        drawing = drawing_of(chosen.tiles, seed_layout(args.players, parsed.era), 0, chosen.dice)
        title = f"Round {args.round} · {args.players} players"
        caption = {"round": str(args.round), "seed": seed.strip()}
        return write_svg(
            args.svg, wall_svg(drawing, red=not args.no_red, title=title, caption=caption)
        )
    dicts = [wall_dict(i, w, args.players, parsed.era) for i, w in enumerate(walls)]
    if args.json:
        emit_json(
            {
                "schema": SCHEMA,
                "seed_scheme": parsed.scheme.value,
                "era": parsed.era.value,
                "players": args.players,
                "rounds": dicts,
            }
        )
        return 0
    red = not args.no_red
    for d in dicts:
        print_lines(human(d, red))
    return 0
