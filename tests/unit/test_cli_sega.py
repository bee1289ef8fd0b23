"""``pywall mj``: through ``pywall.cli.main`` and as ``python -m pywall``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pywall.checks.sega import sega_wall
from pywall.cli import main
from pywall.cli.sega import words_with_seeds_last
from tests.unit.test_sega import VECTORS

ROOT = Path(__file__).resolve().parents[2]
SEEDS = list(VECTORS[0]["player_seeds"])  # the first begins with "-"


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("case", VECTORS[:6], ids=[f"case{i:02d}" for i in range(6)])
def test_vectors_through_the_cli(case: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["mj", "--json", "--uncertainty", str(case["uncertainty"]), *case["player_seeds"]]
    out = run_json(argv, capsys)
    assert out["wall"] == case["wall"]
    assert out["dice"] == [d + 1 for d in case["dice"]]


def test_dash_seed_as_written_in_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    assert SEEDS[0] == "-MArvQSKYlOQyM5HtxqdU4vn1Q-"
    out = run_json(["mj", "--json", "--uncertainty", "5", *SEEDS], capsys)
    expected = sega_wall(SEEDS, 5)
    assert out["wall"] == list(expected.wall) and out["dice"] == list(expected.dice)
    assert out["seeds"] == SEEDS and out["uncertainty"] == 5
    assert len(out["tiles"]) == 136 and out["break"]["dice_sum"] == sum(expected.dice)


@pytest.mark.parametrize(
    "argv",
    [
        [SEEDS[0], "--uncertainty", "5", *SEEDS[1:], "--json"],
        [SEEDS[1], "--unc=5", SEEDS[0], "--js", *SEEDS[2:]],
        ["--json", "--uncertainty", "5", "--", *SEEDS],
    ],
    ids=["options-anywhere", "abbreviated", "double-dash"],
)
def test_argument_orders(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(["mj", *argv], capsys)["wall"] == list(sega_wall(SEEDS, 5).wall)


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mj", "--uncertainty", "1028", *SEEDS]) == 0
    out = capsys.readouterr().out
    assert "dice 6 + 5 = 11" in out and "opposite the dealer" in out
    assert "[  0- 33] 9m 4s 4s 9s" in out
    assert "red fives are not marked" in out


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ([SEEDS[0][:-1], *SEEDS[1:]], "player seed 1 has 26 characters"),
        ([*SEEDS[:2], SEEDS[2] + "x", SEEDS[3]], "player seed 3 has 28 characters"),
        ([*SEEDS[:3], "ZHLnsXlb8DvUup8GWZdJU1GcPf!"], "player seed 4: character 27 is '!'"),
        (["-MArvQSKYlOQyM5Ht.xqdU4vn1Q", *SEEDS[1:]], "player seed 1: character 18 is '.'"),
        (SEEDS[:3], "needs the 4 player seeds, got 3"),
        ([*SEEDS, SEEDS[0]], "got 5"),
    ],
    ids=["short", "long", "bad-char", "dash-seed-bad-char", "three", "five"],
)
def test_bad_seeds_exit_2(
    seeds: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mj", "--uncertainty", "5", *seeds]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["--uncertainty", "-1", *SEEDS],
        ["--uncertainty", "4294967296", *SEEDS],
        ["--uncertainty", "five", *SEEDS],
        [*SEEDS],
        ["--uncertainty", "5", "--bogus", *SEEDS],
    ],
    ids=["negative", "33-bit", "not-a-number", "missing", "unknown-option"],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["mj", *argv])
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("words", "split"),
    [
        (["--json", "-abc" + "x" * 20], ["--json", "--", "-abc" + "x" * 20]),
        (["--uncertainty", "-5", "s"], ["--uncertainty", "-5", "--", "s"]),
        (["-h"], ["-h", "--"]),
        (["--uncertainty"], ["--uncertainty", "--"]),
        (["a", "--", "--json"], ["--", "a", "--json"]),
        (["-x", "b"], ["--", "-x", "b"]),
        (["--bogus", "b"], ["--bogus", "--", "b"]),
    ],
    ids=[
        "dash-seed",
        "negative-value",
        "help",
        "missing-value",
        "double-dash",
        "short-dash-word-is-a-seed",
        "unknown-long",
    ],
)
def test_words_with_seeds_last(words: list[str], split: list[str]) -> None:
    assert words_with_seeds_last(words) == split


def test_python_dash_m_with_a_dash_seed() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "mj", "--json", "--uncertainty", "5", *SEEDS],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["wall"] == list(sega_wall(SEEDS, 5).wall)


def test_python_dash_m_bad_seed_exit_2() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "mj", "--uncertainty", "5", "-short", *SEEDS[1:]],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "pywall" in proc.stderr


def test_short_seed_starting_with_dash_gets_the_seed_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pywall.cli import main

    assert main(["mj", "--uncertainty", "5", "-MArvQ", "1", "2", "3"]) == 2
    err = capsys.readouterr().err
    assert "player seed 1 has 6 characters" in err and "unrecognized" not in err
