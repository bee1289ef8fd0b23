"""``pywall audit --save-tally FILE`` and ``--merge``: an audit's parts, written and read.

The document and its checks are ``pywall.audits.parts``', the games' re-derivation
``pywall.run.parts``'; this module only opens files: a part is written whole to a temporary file beside FILE and renamed over it (a
reader never sees half a tally), and a saved part is read capped in size, from a
regular file only.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pywall.audits.parts import MAX_DOCUMENT_BYTES, PartGame, part_dict, part_from_json
from pywall.audits.tally import AuditTally
from pywall.cli.output import fail, plural, print_lines
from pywall.core.errors import PywallError
from pywall.core.json_value import json_text
from pywall.inputs.files import read_capped
from pywall.run.parts import verified_part
from pywall.run.pool import WorkerDied


def save_tally(path: str, games: Sequence[PartGame]) -> str | None:
    """Write the part's document to ``path``; None, or why it could not be written."""
    target = Path(path)
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    text = json_text(part_dict(games), separators=(",", ":")) + "\n"
    try:
        scratch.write_text(text, encoding="utf-8")
        os.replace(scratch, target)
    except OSError as exc:
        scratch.unlink(missing_ok=True)
        return f"cannot write the tally to {path}: {exc.strerror or exc}"
    return None


def merged_from_files(paths: Sequence[str], jobs: int) -> AuditTally | str:
    """The tally of saved parts, in the order named, one part in memory at a time, every
    game re-derived from its log over ``jobs`` processes; or why one is refused (nothing is
    reported then)."""
    tally = AuditTally()
    for path in paths:
        try:
            part = part_from_json(read_capped(Path(path), MAX_DOCUMENT_BYTES), path)
            for record in verified_part(part, jobs).records:
                tally.add(record)
        except PywallError as exc:
            message = exc.message if exc.message.startswith(path) else f"{path}: {exc.message}"
            return message if message.endswith("refused") else message + ": refused"
        except WorkerDied as exc:
            return f"{path}: {exc}"
    return tally


def in_parts(
    args: argparse.Namespace, tally: AuditTally, games: Sequence[PartGame], jobs: int
) -> AuditTally | int:
    """The audit's parts: with ``--merge`` the saved parts' tally (or exit 2, nothing
    merged); with ``--save-tally`` this run's records written (a part without a verified
    game is saved all the same, exit 0); the tally to report, or the exit code."""
    if args.merge:
        merged = merged_from_files(args.paths, jobs)
        return fail(merged) if isinstance(merged, str) else merged
    if args.save_tally:
        problem = save_tally(args.save_tally, games)
        if problem:
            return fail(problem)
        print_lines(
            [f"saved the tally of {plural(len(games), 'game')} to {args.save_tally}"],
            file=sys.stderr,
        )
        if not tally.hands:
            return 0
    return tally
