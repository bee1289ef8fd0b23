"""The ``pywall`` command: the only layer that opens files, prints and exits.

Each sub-command lives in its own module here and exposes
``register(subparsers) -> None``; the parser it adds sets ``run=function``
where ``function(args) -> int`` returns the exit code.
Exit codes across commands: 0 all good, 1 a mismatch was found, 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pywall import __version__

#: Sub-command modules, in the order ``pywall --help`` lists them.
MODULES = ("verify", "wall", "audit", "shanten", "commitment", "mj", "majsoul")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pywall",
        description="Verify online mahjong walls against their published seeds.",
    )
    parser.add_argument("--version", action="version", version=f"pywall {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in MODULES:
        importlib.import_module(f"pywall.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        print("pywall: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code
