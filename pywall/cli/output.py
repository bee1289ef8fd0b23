"""Printing helpers shared by the sub-commands.

Text for people goes through ``escaped``: file names, zip member names,
database ids and player names come from the input, and a raw ESC, BEL, OSC
sequence, newline or bidi override in them could forge lines or drive the
terminal. JSON output (``json_text``) writes the same characters as JSON
escapes (``\\u202e``): its encoder escapes only C0 controls, and C1 controls,
bidi overrides and line separators reach a terminal that shows the JSON as
they do in text; a lone surrogate (JSON records can carry ``\\ud800``) has no
UTF-8 form to write.

``GuardedStream`` wraps stdout so that a failed write (a full disk, a closed
pipe as in ``| head -1``) becomes ``OutputFailed``, which ``main`` turns into
one clear message and the exit code ``EXIT_OUTPUT``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from pywall.core.json_value import json_text

EXIT_OUTPUT = 3

#: C0 and C1 controls, DEL, the bidi and line-separator characters, and lone surrogates.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` safe to print on one line: controls and bidi characters as ``\\x1b``, ``\\u202e``."""
    return _UNSAFE.sub(_escape, text)


def print_lines(lines: Iterable[str], file: TextIO | None = None) -> None:
    """Each line escaped, one per line."""
    print("\n".join(escaped(line) for line in lines), file=file or sys.stdout)


def emit_json(obj: Any) -> None:
    sys.stdout.write(json_text(obj, indent=2) + "\n")


def emit_pieces(pieces: Iterable[str]) -> None:
    """A document given in pieces (``verdicts.cli_json``), written as they come, and a newline."""
    for piece in pieces:
        sys.stdout.write(piece)
    sys.stdout.write("\n")


def fail(message: str, code: int = 2) -> int:
    """A one-line message for a person on stderr; the exit code to return."""
    print(f"pywall: {escaped(message)}", file=sys.stderr)
    return code


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 'es' if word.endswith('ch') else 's'}"


class OutputFailed(Exception):
    """Writing to stdout failed: ``reason`` says why (a closed pipe, a full disk...)."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.broken_pipe = isinstance(exc, BrokenPipeError)
        self.reason = "the reader closed the pipe" if self.broken_pipe else str(exc.strerror or exc)


class GuardedStream:
    """A text stream whose write and flush errors are ``OutputFailed``; all else is delegated."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise OutputFailed(exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
