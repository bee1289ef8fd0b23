"""``pywall shanten``: per-form shanten, effective tiles, discard tables, distributions."""

from __future__ import annotations

import json
from math import comb

import pytest

from pywall.cli import main
from tests.unit.test_shanten_distribution import FOURTEEN, THREE_PLAYER


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["shanten", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_thirteen_tile_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123m456p789s1122z")
    assert code == 0
    assert out.splitlines() == [
        "123m456p789s1122z (13 tiles)",
        "shanten 0 (tenpai): regular 0, seven pairs 4, thirteen orphans 8",
        "effective tiles: 1z(2) 2z(2) = 4 tiles",
    ]


def test_fourteen_tile_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "12389m45p6799s135z")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "shanten 2 (2-shanten): regular 2, seven pairs 5, thirteen orphans 6"
    assert lines[2] == "  discard 1z -> 2-shanten, accepts 7m(4) 3p(4) 6p(4) 5s(4) 8s(4) = 20 tiles"
    assert [line.split()[1] for line in lines[2:]] == ["1z", "3z", "5z"]


def test_fifth_tile_and_red_five(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123m406p789s1111z")
    assert code == 0 and "shanten 1 (1-shanten)" in out and out.startswith("123m456p789s1111z")


def test_json_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "--visible", "1z", "123m456p789s11223z")
    data = json.loads(out)
    assert code == 0
    assert data["shanten"] == {"regular": 0, "chiitoi": 4, "kokushi": 7, "minimum": 0}
    assert data["discards"] == [
        {"discard": "3z", "shanten": 0, "tiles": "12z", "remaining": {"1z": 1, "2z": 2}, "total": 3}
    ]


def test_small_hand_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "--json", "5555m")[1])
    assert data["tiles"] == 4 and data["shanten"]["minimum"] == 1
    assert data["shanten"]["chiitoi"] is None and "5m" not in data["effective"]["remaining"]


def test_distribution_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--distribution", "14", "--json")
    data = json.loads(out)
    assert code == 0 and data["tiles"] == 14 and data["players"] == 4 and data["wall_tiles"] == 136
    assert data["counts"] == {str(s): n for s, n in FOURTEEN.items()}
    assert data["total"] == sum(FOURTEEN.values()) == 4250305029168216000
    assert round(data["mean"], 7) == 3.1559378


def test_distribution_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--distribution", "13")
    assert code == 0
    assert "483,774,556,165,488,000 hands of 13 tiles" in out
    assert "39,270,395,383,132" in out and "mean 3.5796795" in out


def test_three_player_distribution_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--distribution", "14", "--players", "3")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == (
        "Shanten of all C(108, 14) = 139,737,927,523,546,800 hands of 14 tiles"
        " from a 3-player wall (no 2m-8m):"
    )
    assert lines[1].split() == ["-1", "complete", "1,321,887,397,648", "0.000946", "%"]
    assert lines[-1] == "  mean 2.9588585, standard deviation 0.8824088"


def test_three_player_distribution_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "--players", "3", "--distribution", "13")
    data = json.loads(out)
    assert code == 0 and data["players"] == 3 and data["wall_tiles"] == 108
    assert data["counts"] == {str(s): n for s, n in THREE_PLAYER[13].items()}
    assert data["total"] == comb(108, 13) and round(data["mean"], 7) == 3.3940175


@pytest.mark.parametrize(
    "argv",
    [
        ["123m456p789s11"],
        ["123m456p789s111z"],
        ["11111m"],
        ["123m456p789s12345z6z"],
        [],
        ["--distribution", "14", "123m"],
        ["--distribution", "14", "--visible", "1z"],
        ["--visible", "11111z", "123m456p789s1122z"],
        ["--players", "3", "123m456p789s1122z"],
    ],
    ids=[
        "no-suit",
        "12-tiles",
        "five-copies",
        "15-tiles",
        "nothing",
        "both",
        "visible-dist",
        "bad-visible",
        "players-with-hand",
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("pywall: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [["--distribution", "12"], ["--distribution", "14", "--players", "2"]],
    ids=["12-tiles", "2-players"],
)
def test_bad_distribution_option_is_an_argparse_error(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["shanten", *argv])
    assert exc.value.code == 2
