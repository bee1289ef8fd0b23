"""With ``--json``, standard output is one JSON document or nothing, whatever the exit
code: words for people go to standard error (issue 43: ``pywall audit --json`` with no
game that could count printed its left-out files as text on standard output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pywall.cli import main
from tests.helpers import fixture_paths

#: Each command's --json run on input it cannot use: (arguments, exit code); ``{junk}``
#: is a file that is no record, ``{empty}`` an empty folder, ``{log}`` a real log.
RUNS = [
    ("audit-junk", ["audit", "--json", "{junk}"], 2),
    ("audit-empty", ["audit", "--json", "{empty}"], 2),
    ("audit-merge-junk", ["audit", "--json", "--merge", "{junk}"], 2),
    ("audit-save-tally-junk", ["audit", "--json", "--save-tally", "{out}", "{junk}"], 0),
    ("audit-jobs-0", ["audit", "--json", "--jobs", "0", "{log}"], 2),
    ("verify-junk", ["verify", "--json", "--no-progress", "{junk}"], 2),
    ("verify-empty", ["verify", "--json", "--no-progress", "{empty}"], 2),
    ("verify-jobs-0", ["verify", "--json", "--jobs", "0", "{log}"], 2),
    ("wall-bad-seed", ["wall", "--json", "not a seed"], 2),
    ("wall-rounds-0", ["wall", "--json", "--rounds", "0", "AAAA"], 2),
    ("shanten-bad-hand", ["shanten", "--json", "12x"], 2),
    ("commitment-junk", ["commitment", "--json", "{junk}", "--hash", "00"], 2),
    ("majsoul-junk", ["majsoul", "--json", "{junk}"], 2),
    ("mj-bad-seeds", ["mj", "--json", "--uncertainty", "1", "a", "b", "c", "d"], 2),
]


@pytest.mark.parametrize(("args", "code"), [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_json_output_is_json_or_nothing(
    args: list[str], code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.xml"
    junk.write_bytes(b"not a log")
    (tmp_path / "empty").mkdir()
    names = {
        "junk": str(junk),
        "empty": str(tmp_path / "empty"),
        "out": str(tmp_path / "part.tally"),
        "log": str(fixture_paths()[0]),
    }
    capsys.readouterr()
    assert main([a.format(**names) for a in args]) == code
    out, err = capsys.readouterr()
    if out:
        json.loads(out)  # raises when standard output is not one JSON document
    else:  # nothing on standard output: what happened is said on standard error
        assert err.strip()


def test_audit_json_with_no_usable_game_names_the_left_out_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.xml"
    junk.write_bytes(b"not a log")
    capsys.readouterr()
    assert main(["audit", "--json", str(junk)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"excluded {junk}: error: not a Tenhou mjlog" in err
    assert "pywall: no verified game to audit (1 file excluded)" in err
    assert main(["audit", str(junk)]) == 2  # the text output keeps them on stdout
    assert f"excluded {junk}" in capsys.readouterr().out
