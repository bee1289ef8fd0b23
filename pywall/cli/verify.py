"""``pywall verify [--json] PATH...``: check logs against their seeds.

Exit code 0 when every file verified, 1 when any mismatch, 2 when any input
could not be read or parsed (a bad file never stops the others).
"""

from __future__ import annotations

import argparse
import sys

from pywall.cli.output import emit_json, plural
from pywall.cli.sources import iter_inputs
from pywall.errors import PywallError
from pywall.findings import Severity
from pywall.report import FileReport, batch_dict, check_log, error_report, summarise

VERDICTS = {"verified": "OK", "mismatch": "MISMATCH", "error": "ERROR"}
MAX_SHOWN = 10


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="check Tenhou logs tile by tile against their seeds",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="log files (.mjlog, .xml, .txt, gzip), folders (searched recursively), "
                        "zip archives of logs, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the full report as JSON")
    p.set_defaults(run=run)


def report_for(name: str, content: bytes | PywallError) -> FileReport:
    if isinstance(content, PywallError):
        return error_report(name, content.code, content.message)
    try:
        return check_log(name, content)
    except Exception as exc:  # a bug in pywall: report it, keep going with the batch
        return error_report(name, "error", f"internal error ({type(exc).__name__}: {exc}); please report it")


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
    lines += [f"    note: {f.message}" for f in r.findings if f.severity is Severity.INFO]
    return lines


def run(args: argparse.Namespace) -> int:
    skipped: list[str] = []
    reports: list[FileReport] = []
    for name, content in iter_inputs(args.paths, skipped):
        report = report_for(name, content)
        reports.append(report)
        if not args.json:
            print("\n".join(human_lines(report)), flush=True)
    summary = summarise(reports)
    if args.json:
        emit_json(batch_dict(reports))
    else:
        print(f"{plural(summary.files, 'file')}: {summary.verified:,} verified, "
              f"{summary.mismatch:,} mismatch, {summary.error:,} error; "
              f"{summary.checked:,} tiles checked")
    if skipped:
        print(f"pywall: skipped {plural(len(skipped), 'file')} in folders that are not logs "
              f"(first: {skipped[0]})", file=sys.stderr)
    if not reports:
        print("pywall: no logs found", file=sys.stderr)
        return 2
    return 2 if summary.error else 1 if summary.mismatch else 0
