"""``pywall wall SEED --svg FILE``: the picture of a round's wall, written by the CLI."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pywall.checks import tenhou
from pywall.cli import main
from pywall.cli.output import EXIT_OUTPUT
from pywall.page.picture_round import drawing_from
from pywall.pictures.picture import wall_svg
from pywall.results.exports import wall_dict
from tests.helpers import ROOT, vector_seed

SVG = "{http://www.w3.org/2000/svg}"


def tiles_of(text: str) -> dict[int, int]:
    root = ET.fromstring(text)
    return {
        int(u.get("data-pos", -1)): int(u.get("data-tile", -1))
        for u in root.iter(f"{SVG}use")
        if u.get("class") == "tile"
    }


def test_the_picture_is_written_to_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "wall.svg"
    assert main(["wall", vector_seed(), "--svg", str(out), "--round", "2"]) == 0
    assert capsys.readouterr().out == ""  # the picture, not the text
    text = out.read_text(encoding="utf-8")
    walls = tenhou.walls(vector_seed(), 2, 4)
    assert tiles_of(text) == dict(enumerate(walls[1].tiles))  # round 2's 136 tiles
    assert "Round 2 · 4 players" in text
    # the same picture the library draws, with the page's art, captioned with its round and seed
    expected = wall_dict(1, walls[1], 4, tenhou.parse_seed(vector_seed()).era)
    caption = {"round": "2", "seed": vector_seed()}
    assert text == wall_svg(drawing_from(expected), title="Round 2 · 4 players", caption=caption)


def test_three_players_and_no_red_fives(tmp_path: Path) -> None:
    out = tmp_path / "wall.svg"
    assert main(["wall", vector_seed(), "--players", "3", "--no-red", "--svg", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert len(tiles_of(text)) == 108
    assert 'id="pw-0' not in text


def test_dash_writes_to_standard_output(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "wall", vector_seed(), "--svg", "-"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(tiles_of(proc.stdout.decode("utf-8"))) == 136


@pytest.mark.parametrize("where", ["missing-folder/wall.svg", "."], ids=["no-folder", "a-folder"])
def test_an_unwritable_path_exits_3_with_a_message(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / where
    assert main(["wall", vector_seed(), "--svg", str(target)]) == EXIT_OUTPUT
    err = capsys.readouterr().err
    assert err.startswith(f"pywall: cannot write {target}: ") and "Traceback" not in err


def test_a_full_disk_exits_3() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "wall", vector_seed(), "--svg", "/dev/full"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == EXIT_OUTPUT
    assert "cannot write /dev/full: No space left on device" in proc.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--svg", "x.svg", "--json"], "not allowed with"),
        (["--svg", "x.svg", "--round", "0"], "--round"),
    ],
    ids=["svg-and-json", "round-0"],
)
def test_bad_combinations_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["wall", vector_seed(), *args])
    except SystemExit as exc:  # argparse's own refusal
        code = int(exc.code or 0)
    assert code == 2 and message in capsys.readouterr().err
