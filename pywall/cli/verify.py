"""``pywall verify [--json | --jsonl] [--failures-only] [--jobs N] PATH_OR_GAME...
[--from FILE] [--cache DIR] [--offline]``: check
game records tile by tile against their walls: a Tenhou log's walls rebuilt from
its seed, a Mahjong Soul or Riichi City record's walls as it states them with
their hashes (docs/platforms.md).

PATHs are log files (Tenhou mjlog; Mahjong Soul and Riichi City JSON records,
recognised by their content), folders (searched recursively), zip archives of logs,
phoenix-logs SQLite databases (rows with is_processed = 1 and was_error = 0),
or - for standard input. Tenhou games named by log id or link, on the command line or
in lists (--from FILE: log ids and links, one a line or inside any text), are fetched
from Tenhou's log server into the cache (--cache DIR) first, one request a second; a log
in the cache is never fetched again, and --offline never touches the network (a game
not in the cache is then an error, listed). Logs are checked in worker processes (--jobs, default
all cores) and reported in input order as they finish, so memory stays flat
however large the archive; --jsonl is the form for huge archives.

Exit code 0 when every log verified, 1 when any mismatch, 2 when any input
could not be read, fetched or parsed (a bad file, row or game never stops the others), 130
when interrupted (Ctrl-C; the summary then covers what was checked so far).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pywall.cli.games import add_input_arguments, fetched_entries, request_of
from pywall.cli.output import escaped, fail, plural
from pywall.cli.progress import Progress
from pywall.core.archives import PackedEntry
from pywall.core.errors import PywallError
from pywall.core.findings import Finding, Severity
from pywall.core.json_value import json_text
from pywall.core.limits import MAX_JOBS
from pywall.inputs import Skipped, count_inputs
from pywall.results.exports import Summary
from pywall.results.report import SCHEMA, STATUSES, FileReport
from pywall.run.interrupts import deferred_interrupt, held_interrupts
from pywall.run.items import Item, report_for, weight
from pywall.run.pool import WorkerDied, ordered_map

VERDICTS = {"verified": "OK", "mismatch": "MISMATCH", "error": "ERROR"}
MAX_SHOWN = 10
INTERRUPTED = "interrupted"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="check game records tile by tile against their walls (Tenhou seeds, "
        "Mahjong Soul and Riichi City stated walls)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_arguments(
        p,
        "log files (.mjlog, .xml, .txt, gzip; Mahjong Soul and Riichi City records as "
        ".json), folders (searched recursively), "
        "zip archives of logs, phoenix-logs .db files, or - for standard input",
    )
    form = p.add_mutually_exclusive_group()
    form.add_argument(
        "--json", action="store_true", help="print the full report as one JSON document"
    )
    form.add_argument(
        "--jsonl",
        action="store_true",
        help='print JSON Lines: one object per log, then {"summary": ...}',
    )
    p.add_argument(
        "--failures-only",
        action="store_true",
        help="show only logs that mismatch or could not be read (the summary counts all)",
    )
    add_jobs_argument(p)
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only when stderr is a terminal)",
    )
    p.set_defaults(run=run)


def human_lines(r: FileReport) -> list[str]:
    verdict = VERDICTS[r.status]
    if r.status == "error":
        return [f"{verdict:<9} {r.path}: {r.findings[0].message}"]
    errors = r.errors
    head = f"{verdict:<9} {r.path}: {plural(len(r.rounds), 'round')}, {r.checked:,} tiles checked"
    if errors:
        head += f", {plural(len(errors), 'problem')}"
    lines = [head]
    lines += [f"    {f.message}" for f in errors[:MAX_SHOWN]]
    if len(errors) > MAX_SHOWN:
        lines.append(f"    ... and {len(errors) - MAX_SHOWN} more (use --json for all)")
    lines += note_lines(r.findings)
    return lines


def note_lines(findings: tuple[Finding, ...]) -> list[str]:
    """Warnings and notes, one line per code: a record with a digest per round says
    the first and how many more are alike, not sixty times the same sentence."""
    by_code: dict[str, list[Finding]] = {}
    for f in findings:
        if f.severity is not Severity.ERROR:
            by_code.setdefault(f.code, []).append(f)
    lines = []
    for same in by_code.values():
        first = same[0]
        more = f" (and {len(same) - 1} more alike)" if len(same) > 1 else ""
        lines.append(
            f"    {first.severity.value if first.severity is Severity.WARNING else 'note'}: "
            f"{first.message}{more}"
        )
    return lines


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a worker sends back for one log: the verdict and its text, ready to print."""

    path: str
    status: str
    checked: int
    text: str


def render(style: str, report: FileReport) -> str:
    if style == "human":
        return "\n".join(escaped(line) for line in human_lines(report))
    if style == "jsonl":
        return json_text(report.to_dict(), separators=(",", ":"))
    return "    " + json_text(report.to_dict(), indent=2).replace("\n", "\n    ")


def outcome_for(style: str, failures_only: bool, item: Item) -> Outcome:
    """The worker's job for one log (module level, so worker processes can run it)."""
    report = report_for(item)
    shown = not (failures_only and report.status == "verified")
    return Outcome(
        report.path, report.status, report.checked, render(style, report) if shown else ""
    )


@dataclass
class VerifyTally:
    """What ``pywall verify`` counts as it goes: files by status, and the tiles checked."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    checked: int = 0

    def add(self, o: Outcome) -> None:
        self.counts[o.status] += 1
        self.checked += o.checked

    @property
    def files(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> Summary:
        c = self.counts
        return Summary(self.files, c["verified"], c["mismatch"], c["error"], self.checked)


class Output:
    """Writes outcomes to stdout as they come, in the chosen style.

    ``--json`` is streamed too: the text is exactly what ``json.dump(batch_dict(
    reports), indent=2)`` gives, without holding the reports.
    """

    def __init__(self, style: str, failures_only: bool, progress: Progress) -> None:
        self.style = style
        self.failures_only = failures_only
        self.progress = progress
        self.shown = 0
        self.to_terminal = sys.stdout.isatty()
        if style == "json":
            self._write(f'{{\n  "schema": {SCHEMA},\n  "files": [')

    def _write(self, text: str) -> None:
        if self.to_terminal:
            self.progress.clear()
        with held_interrupts():  # a Ctrl-C never cuts an entry in two
            sys.stdout.write(text)
            if self.style == "human":
                sys.stdout.flush()

    def add(self, o: Outcome) -> None:
        if self.failures_only and o.status == "verified":
            return
        if self.style == "json":
            self._write(("\n" if not self.shown else ",\n") + o.text)
        else:
            self._write(o.text + "\n")
        self.shown += 1

    def finish(self, summary: Summary, interrupted: bool) -> None:
        doc: dict[str, Any] = summary.to_dict() | ({"interrupted": True} if interrupted else {})
        if self.style == "json":
            body = json_text(doc, indent=2).replace("\n", "\n  ")
            self._write(("\n  ]" if self.shown else "]") + f',\n  "summary": {body}\n}}\n')
        elif self.style == "jsonl":
            self._write(json_text({"summary": doc}, separators=(",", ":")) + "\n")
        else:
            self._write(summary_line(summary) + (" (interrupted)" if interrupted else "") + "\n")
        with held_interrupts():
            sys.stdout.flush()


def summary_line(s: Summary) -> str:
    return (
        f"{plural(s.files, 'file')}: {s.verified:,} verified, {s.mismatch:,} mismatch, "
        f"{s.error:,} error; {s.checked:,} tiles checked"
    )


def check_all(
    items: Iterator[PackedEntry],
    jobs: int,
    skipped: list[Skipped],
    progress: Progress,
    out: Output,
    tally: VerifyTally,
) -> str | None:
    """Check every input, feeding ``out``; why it stopped early, or None.

    Ctrl-C stops the run between two logs, so the summary counts exactly what
    was shown.
    """
    try:
        with (
            deferred_interrupt() as interrupted,
            closing(
                ordered_map(
                    partial(outcome_for, out.style, out.failures_only), items, jobs, weight=weight
                )
            ) as outcomes,
        ):
            for o in outcomes:
                out.add(o)
                tally.add(o)
                progress.update(tally.files)
                if interrupted():
                    return INTERRUPTED
    except KeyboardInterrupt:
        return INTERRUPTED
    except WorkerDied as exc:
        return str(exc)
    return None


def add_jobs_argument(p: argparse.ArgumentParser) -> None:
    """``--jobs N``, as ``verify`` and ``audit`` take it."""
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help=f"worker processes, 1 to {MAX_JOBS} (default: all cores, {os.cpu_count() or 1} here; 1: no workers)",
    )


def job_count(args: argparse.Namespace) -> int:
    """How many worker processes ``--jobs`` asks for (all cores when not given, at most
    ``MAX_JOBS``), once ``jobs_problem`` found none."""
    return int(args.jobs or min(os.cpu_count() or 1, MAX_JOBS))


def jobs_problem(args: argparse.Namespace) -> str | None:
    """Why ``--jobs`` cannot be used, or None."""
    if args.jobs is not None and args.jobs < 1:
        return "--jobs must be at least 1"
    if args.jobs is not None and args.jobs > MAX_JOBS:
        return f"--jobs must be at most {MAX_JOBS} (each is a process)"
    return None


def run(args: argparse.Namespace) -> int:
    problem = jobs_problem(args)
    if problem:
        return fail(problem)
    jobs = job_count(args)
    try:
        request = request_of(args)
    except PywallError as exc:
        return fail(exc.message)
    wanted = Progress.wanted(sys.stderr, args.no_progress)
    skipped: list[Skipped] = []
    items = fetched_entries(request, skipped, Progress(sys.stderr, len(request.games), wanted))
    progress = Progress(sys.stderr, None, wanted)
    if progress.enabled:
        progress.total = count_inputs(request.paths) + len(request.games)
    style = "json" if args.json else "jsonl" if args.jsonl else "human"
    tally = VerifyTally()
    out = Output(style, args.failures_only, progress)
    start = time.monotonic()
    stopped = check_all(items, jobs, skipped, progress, out, tally)
    seconds = time.monotonic() - start
    progress.finish()
    summary = tally.summary()
    out.finish(summary, stopped is not None)
    return conclude(summary, skipped, stopped, seconds)


def skipped_lines(skipped: list[Skipped]) -> list[str]:
    """One line per reason: how many paths in folders were not checked, and the first."""
    by_reason: dict[str, list[str]] = {}
    for s in skipped:
        by_reason.setdefault(s.reason, []).append(s.path)
    return [
        f"skipped {plural(len(paths), 'file')} in folders: {reason} (first: {paths[0]})"
        for reason, paths in by_reason.items()
    ]


def conclude(summary: Summary, skipped: list[Skipped], stopped: str | None, seconds: float) -> int:
    """The closing messages on stderr, and the exit code."""
    if summary.files > 1 or stopped:
        rate = summary.files / seconds if seconds > 0 else 0.0
        took = f"{seconds:.2f}" if seconds < 10 else f"{seconds:,.0f}"
        print(
            f"pywall: {plural(summary.files, 'log')} in {took} s, {rate:,.0f} per second",
            file=sys.stderr,
        )
    for line in skipped_lines(skipped):
        print(f"pywall: {escaped(line)}", file=sys.stderr)
    if stopped:
        print(f"pywall: {stopped}", file=sys.stderr)
        return 130 if stopped == INTERRUPTED else 2
    if not summary.files:
        print("pywall: no logs found", file=sys.stderr)
        return 2
    return 2 if summary.error else 1 if summary.mismatch else 0
