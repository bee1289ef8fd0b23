"""Benchmark the audit's own work on the fixture records, this tree against a git revision
(default ``HEAD``) in the same run; prints figures, asserts nothing.

Two timings, each the median of R runs (default 7), the two trees alternating so that both
see the same machine load, each in a fresh subprocess with that tree's ``pywall`` first on
the path:
* ``tests``: the tests of a settled tally of every fixture game (``audit_result`` and the
  JSON ``pywall audit --json`` prints), where the p-values are computed: every group's
  chi-square and z-scores, the draw and wall tests;
* ``count``: counting the games' records into a fresh tally and those tests (what the audit
  adds to checking each game);
* ``check``: checking every fixture once (parse, verify, the report with its one-game draw
  lines, whose p-values the statistics give), which makes the records the others use.
Then each tree's time and this tree's over the revision's.

Run: python3 benchmarks/bench_audit_tests.py [--against REV] [--runs R]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run in a subprocess: ``sys.argv[1]`` the repeat count; prints the seconds per repeat
TIMER = """
import json, sys, time
from pathlib import Path
from pywall.audits.verdicts import audit_result, cli_dict
from pywall.audits.tally import AuditTally
from pywall.results.check import check_data

data = Path(sys.argv[2])
paths = sorted(p for d in ("tenhou", "majsoul", "riichicity") for p in (data / d).rglob("*")
               if p.is_file())
logs = [(str(p), p.read_bytes()) for p in paths]
start = time.perf_counter()
records = [check_data(name, data, starting=True).record for name, data in logs]
checked = time.perf_counter() - start
repeat = int(sys.argv[1])

def fresh():
    tally = AuditTally()
    tally.add_all(records)
    tally.settle()
    return tally

settled = fresh()
out = {"check": checked}
for name, work in (
    ("tests", lambda: cli_dict(audit_result(settled), settled)),
    ("count", lambda: (lambda t: cli_dict(audit_result(t), t))(fresh())),
):
    work()
    start = time.perf_counter()
    for _ in range(repeat):
        work()
    out[name] = (time.perf_counter() - start) / repeat
out["games"] = settled.games
print(json.dumps(out))
"""


def tree_of(rev: str, where: Path) -> Path:
    """The revision's ``pywall`` package, unpacked under ``where``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "pywall"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    return where


def timing(tree: Path, repeat: int) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", TIMER, str(repeat), str(ROOT / "tests" / "data")],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(proc.stdout)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="timed repeats per subprocess")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT, args.against: tree_of(args.against, Path(tmp))}
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in range(args.runs):
            for name, tree in trees.items():
                runs[name].append(timing(tree, args.repeat))
    games = int(runs["this tree"][0]["games"])
    print(f"the audit of {games} fixture games, median of {args.runs} runs × {args.repeat}:")
    for key in ("tests", "count", "check"):
        medians = {name: statistics.median(r[key] for r in found) for name, found in runs.items()}
        line = ", ".join(f"{name} {1000 * s:.1f} ms" for name, s in medians.items())
        ratio = medians["this tree"] / medians[args.against]
        print(f"  {key}: {line}; this tree / {args.against} = {ratio:.2f}")


if __name__ == "__main__":
    main()
