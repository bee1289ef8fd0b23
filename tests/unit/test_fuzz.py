"""The fuzz suite (tests/fuzz.py, ``python3 build.py fuzz --minutes N``), run briefly."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT


def test_a_short_fuzz_run_finds_nothing() -> None:
    run = subprocess.run([sys.executable, "-m", "tests.fuzz", "--seconds", "8"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
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
