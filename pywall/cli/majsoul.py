"""``pywall majsoul [--json] (RECORD.json | --paishan P [--salt S] (--sha256 H | --md5 H))``.

Check Mahjong Soul wall hashes: every round of a game record saved as JSON
(``-`` reads standard input), or one round typed in by hand. Since 2023-05-23
a round's ``sha256`` is SHA-256(paishan + salt); before, ``md5`` = MD5(paishan).
Exit code 0 when every round matches, 1 when any does not (or has no digest of its wall
that can be checked), 2 on bad input.
"""

from __future__ import annotations

import argparse

from pywall.checks import majsoul
from pywall.cli.output import emit_json, fail, plural, print_lines
from pywall.core.errors import PywallError
from pywall.core.findings import Severity
from pywall.core.model import RoundHashes
from pywall.formats import majsoul as record_format
from pywall.inputs.files import read_named

MAX_FILE_BYTES = 64 * 1024 * 1024
ROW = 34


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("majsoul", help="check Mahjong Soul wall hashes (sha256 + salt, or md5)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("record", nargs="?", metavar="RECORD.json",
                   help="a game record saved as JSON, or - for standard input")  # fmt: skip
    p.add_argument("--paishan", metavar="P", help="one round's wall, e.g. 1m9m5p...")
    p.add_argument("--salt", metavar="S", help="that round's salt")
    digest = p.add_mutually_exclusive_group()
    digest.add_argument("--sha256", metavar="H", help="the stated SHA-256(paishan + salt)")
    digest.add_argument("--md5", metavar="H", help="the stated MD5(paishan) (before 2023-05-23)")
    p.add_argument("--salt-sha256", metavar="H", help="optional: the stated SHA-256(salt)")
    p.add_argument("--walls", action="store_true", help="also print each round's wall")
    p.add_argument("--json", action="store_true", help="print the full report as JSON")
    p.set_defaults(run=run)


def rounds_from_args(args: argparse.Namespace) -> tuple[RoundHashes, ...]:
    """The rounds to check, from the record or from the values typed in."""
    if args.record is not None:
        typed = (args.paishan, args.salt, args.sha256, args.md5, args.salt_sha256)
        if any(v is not None for v in typed):
            raise _Usage("give either RECORD.json or --paishan and its hashes, not both")
        return record_format.parse_hashes(read_named(args.record, MAX_FILE_BYTES)).rounds
    if args.paishan is None:
        raise _Usage("give a record file, or --paishan with --sha256 (and --salt) or --md5")
    if args.sha256 is None and args.md5 is None:
        raise _Usage("--paishan needs the stated hash: --sha256 H (with --salt S) or --md5 H")
    if (args.sha256 is not None or args.salt_sha256 is not None) and args.salt is None:
        raise _Usage("--sha256 needs --salt: the hash is SHA-256(paishan + salt)")
    majsoul.paishan_from_text(args.paishan)  # reject a malformed wall before anything else
    stated = RoundHashes(args.paishan.strip(), args.salt, args.sha256,
                                 args.salt_sha256, args.md5)  # fmt: skip
    return (stated,)


class _Usage(PywallError):
    code = "usage"


def human_lines(report: majsoul.MajsoulReport, walls: bool) -> list[str]:
    lines = []
    for r in report.rounds:
        label = r.stated.label or f"round {r.index + 1}"
        verdicts = ", ".join(f"{d.name} {'OK' if d.match else 'MISMATCH'}" for d in r.checked)
        undealt = ", undealt tiles only: the deal is outside the hash" if r.paishan.undealt else ""
        lines.append(f"{'OK' if r.ok else 'FAIL':<5} {label} ({r.paishan.players} players{undealt}): "
                     f"{verdicts or 'nothing to check'}")  # fmt: skip
        lines += [f"      {f.message}" for f in r.findings if f.severity is not Severity.INFO]
        if walls:
            tiles = r.paishan.tiles
            lines += [f"      {' '.join(tiles[i : i + ROW])}" for i in range(0, len(tiles), ROW)]
    bad = sum(not r.ok for r in report.rounds)
    total = plural(len(report.rounds), "round")
    lines.append(f"all {total} match" if not bad else f"{bad} of {total} do not match")
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        report = majsoul.verify_rounds(rounds_from_args(args))
    except PywallError as exc:
        return fail(exc.message)
    except OSError as exc:
        return fail(f"cannot read {args.record}: {exc.strerror or exc}")
    if args.json:
        emit_json(report.to_dict())
    else:
        print_lines(human_lines(report, args.walls or args.paishan is not None))
    return 0 if report.ok else 1
