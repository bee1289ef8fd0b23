"""The fuzz suite (tests/fuzz.py, ``python3 build.py fuzz --minutes N``), run briefly."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT


def test_a_short_fuzz_run_finds_nothing() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tests.fuzz", "--seconds", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "no failure" in run.stdout


def test_a_failure_names_its_reproducer(tmp_path: object) -> None:
    from tests import fuzz

    path = fuzz.save("mjlog.parse", b"<mjloggm>")
    try:
        assert "--replay mjlog.parse" in fuzz.reproducer("mjlog.parse", path)
        fuzz.replay("mjlog.parse", path)  # a PywallError: reported, not raised
    finally:
        path.unlink()


def test_the_run_goes_on_after_a_failure_and_lists_them_all() -> None:
    """A reader broken on purpose fails every time it is chosen: the run still goes on to
    other cases and ends listing each failure with its replay command."""
    env = {**os.environ, "PYWALL_FUZZ_BREAK": "links.link_from_text"}
    run = subprocess.run(
        [sys.executable, "-m", "tests.fuzz", "--seconds", "8", "--seed", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    summary = next(
        line for line in run.stdout.splitlines() if line.startswith("fuzz: ") and "cases" in line
    )
    cases, failures = (int(w) for w in summary.replace(",", "").split()[1::2][:2])
    listed = run.stdout.split(summary, 1)[1]
    # a case of the mutation phase is listed with its replay command; one found by the
    # hypothesis phase (when the run gets there in its 8 s) with hypothesis's own report
    mutated = listed.count("FAIL links.link_from_text")
    assert failures >= 2 and cases > failures
    assert mutated + listed.count("FAIL hypothesis links.link_from_text") == failures
    assert listed.count("--replay links.link_from_text") == mutated
