"""``pywall commitment``: a log against a hash or a saved hash list; exit 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pywall.cli.commitment as cli_commitment
from pywall.cli import main
from tests.helpers import TENHOU
from tests.unit.test_commitment import random_hashes, recipe_hash, seed_and_names, unique_order

LOG = TENHOU / "tenhou-python-bot/11.txt"
NONAMES = TENHOU / "tenhou-python-bot/22.txt"
GZ = TENHOU / "jim137/2022060222gm-0001-0000-a87679bc_tw3.mjlog"


def published(path: Path) -> tuple[str, str]:
    seed, names = seed_and_names(path)
    order = unique_order(names) if len(set(names)) == len(names) else "1023"
    return order, recipe_hash(order, seed)


def hash_list(tmp_path: Path, *hashes: str) -> str:
    path = tmp_path / "rand.html"
    rows = [f"<tr><td>{h}</td><td>四般南喰赤</td></tr>" for h in (*random_hashes(30), *hashes)]
    path.write_text("<html><body><table>\n" + "\n".join(rows) + "\n</table></body></html>",
                    encoding="shift_jis")  # fmt: skip
    return str(path)


def test_hash_matches(capsys: pytest.CaptureFixture[str]) -> None:
    order, value = published(LOG)
    assert main(["commitment", str(LOG), "--hash", value]) == 0
    out = capsys.readouterr().out
    assert f"MATCH: seat order {order}, hash {value}" in out
    assert "full form" in out and "East " in out


def test_hash_json(capsys: pytest.CaptureFixture[str]) -> None:
    order, value = published(GZ)
    assert main(["commitment", "--json", str(GZ), "--hash", value.upper()]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["matched"], data["seat_order"], data["hash"], data["form"]) == (
        True, order, value, "full"
    )  # fmt: skip
    assert [c["seat_order"] for c in data["candidates"]] == [order]


def test_list_match_reports_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _order, value = published(LOG)
    assert main(["commitment", "--json", str(LOG), "--list", hash_list(tmp_path, value)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matched"] and data["line"] == 32 and data["published_hashes"] == 31


def test_noname_game_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    order, value = published(NONAMES)
    assert main(["commitment", "--json", str(NONAMES), "--list", hash_list(tmp_path, value)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat_order"] == order and len(data["candidates"]) == 6


def test_no_match_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["commitment", str(NONAMES), "--list", hash_list(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "NO MATCH among 30 published hash(es)" in out
    assert out.count("seat order ") == 6


@pytest.mark.parametrize("alteration", ["seats", "hash"])
def test_tampered_exit_1(
    tmp_path: Path, alteration: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seed, names = seed_and_names(LOG)
    order = unique_order(names)
    if alteration == "seats":
        order = order[1] + order[0] + order[2:]
    value = recipe_hash(order, seed)
    if alteration == "hash":
        value = ("0" if value[0] != "0" else "1") + value[1:]
    assert main(["commitment", str(LOG), "--hash", value]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([str(LOG), "--hash", "abc"], "'abc' is not a SHA-512 hash"),
        (["missing.mjlog", "--hash", "0" * 128], "cannot read missing.mjlog"),
        ([str(TENHOU / "legacy-2009/2009060321gm-00b9-0000-75b25bcf.xml"), "--hash", "0" * 128],
         "no SHUFFLE seed"),
        ([str(TENHOU / "legacy-2009/2009100718gm-00e1-0000-470654d3.xml"), "--hash", "0" * 128],
         "format"),
        ([str(LOG), "--list", "missing.html"], "cannot read missing.html"),
    ],
    ids=["bad-hash", "missing-log", "early-2009-no-shuffle", "late-2009-seed", "missing-list"],
)  # fmt: skip
def test_unreadable_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["commitment", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert "Traceback" not in captured.err


def test_not_a_log_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"title": "tenhou.net/6 log"}')
    assert main(["commitment", str(path), "--hash", "0" * 128]) == 2
    assert "no seed" in capsys.readouterr().err


def test_list_without_hashes_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.html"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert main(["commitment", str(LOG), "--list", str(path)]) == 2
    assert "no SHA-512 hash" in capsys.readouterr().err


def test_list_size_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_commitment, "LIST_BYTES", 1000)
    assert main(["commitment", str(LOG), "--list", hash_list(tmp_path)]) == 2
    assert "is over" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [[str(LOG)], [str(LOG), "--hash", "0" * 128, "--list", "x"], []],
    ids=["neither", "both", "no-log"],
)
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["commitment", *argv])
    assert exc.value.code == 2
