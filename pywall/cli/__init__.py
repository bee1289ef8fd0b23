"""The ``pywall`` command: the only layer that opens files, prints and exits.

Each sub-command lives in its own module here and exposes
``register(subparsers) -> None``; the parser it adds sets ``run=function``
where ``function(args) -> int`` returns the exit code.
Exit codes across commands: 0 all good, 1 a mismatch was found, 2 bad input,
3 the output could not be written (a full disk, a pipe closed early: the run
stopped, so not every input was checked), 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TextIO, cast

from pywall.cli.output import EXIT_OUTPUT, GuardedStream, OutputFailed
from pywall.core.version import VERSION as __version__

#: Sub-command modules, in the order ``pywall --help`` lists them.
MODULES = ("verify", "fetch", "wall", "audit", "shanten", "commitment", "sega", "majsoul")


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
    # Ctrl-C at any moment, the commands' modules still loading included: one line, 130
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("pywall: interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    stdout = sys.stdout
    sys.stdout = cast(TextIO, GuardedStream(stdout))
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except OutputFailed as exc:
        return output_failed(stdout, exc)
    finally:
        sys.stdout = stdout
    return code


def output_failed(stdout: TextIO, exc: OutputFailed) -> int:
    """Stops writing to the broken stdout (its buffer too, at exit); says so on stderr."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass
    try:
        print(
            f"pywall: cannot write the output ({exc.reason}); stopped, so not every input "
            "was checked",
            file=sys.stderr,
        )
    except OSError:
        pass
    return EXIT_OUTPUT
