"""``pywall commitment [--json] LOG (--hash HEX | --list FILE)``: Tenhou's pre-game hash.

Before games start, tenhou.net/stat/rand publishes one SHA-512 per game over
the seat order and the seed. Give the log of a game you played and either the
hash you saved or a saved copy of the whole list (any text: every 128-hex-digit
token in it is compared; ``-`` reads standard input). Exit code 0 when the
game's hash is found, 1 when it is not, 2 when an input cannot be read.
"""

from __future__ import annotations

import argparse
from typing import Any

from pywall.checks import commitment
from pywall.cli.output import emit_json, fail, print_lines
from pywall.core.archives import MAX_INPUT_BYTES
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.model import WINDS
from pywall.formats import mjlog
from pywall.inputs.files import read_named

LIST_BYTES = 64 * 1024 * 1024
FORM_TEXT = {
    commitment.FULL: "full form (4 digits + 4992 hex digits)",
    commitment.LEADING_ZEROS_DROPPED: "leading zeros of the seed's hex dropped",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("commitment", help="check a Tenhou game against its pre-game SHA-512",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("log", metavar="LOG", help="the game's log (.mjlog, .xml, .txt, gzip)")
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--hash", metavar="HEX", help="the published SHA-512 (128 hex digits)")
    given.add_argument("--list", metavar="FILE", help="a saved hash list page, or - for stdin")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def game_inputs(path: str) -> tuple[str, tuple[str, ...]]:
    """The log's seed and the player names by seat (seat 0 = East of the first round)."""
    game = mjlog.parse(read_named(path, MAX_INPUT_BYTES), path)
    if not game.seed:
        raise ValueInputError(f"{path} has no SHUFFLE seed: nothing to hash")
    return game.seed, game.names


def check(args: argparse.Namespace) -> tuple[commitment.CommitmentResult, tuple[str, ...]]:
    seed, names = game_inputs(args.log)
    if args.hash is not None:
        return commitment.check_hash(seed, names, args.hash), names
    text = read_named(args.list, LIST_BYTES).decode(
        "utf-8", errors="replace"
    )  # only ASCII hex matters
    return commitment.check_list(seed, names, text), names


def human_lines(d: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    seats = ", ".join(f"{WINDS[s]} {n or '(no name)'}" for s, n in enumerate(names))
    lines = [f"players: {seats}"]
    if d["matched"]:
        where = f" (line {d['line']} of the list)" if d["line"] else ""
        lines.append(f"MATCH: seat order {d['seat_order']}, hash {d['hash']}{where}")
        lines.append(f"  source form: {FORM_TEXT[d['form']]}")
        return lines
    lines.append(f"NO MATCH among {d['published_hashes']} published hash(es); the game's:")
    for c in d["candidates"]:
        for form, value in c["hashes"].items():
            lines.append(f"  seat order {c['seat_order']} ({form}): {value}")
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        result, names = check(args)
    except PywallError as exc:
        return fail(exc.message)
    except OSError as exc:
        return fail(f"cannot read {exc.filename or 'the input'}: {exc.strerror or exc}")
    data = result.to_dict()
    if args.json:
        emit_json(data)
    else:
        print_lines(human_lines(data, names))
    return 0 if result.matched else 1
