"""``pywall majsoul``: records and hand-typed rounds; exit codes 0 / 1 / 2."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

import pywall.cli.majsoul as cli_majsoul
from pywall.cli import main
from tests.unit.test_majsoul import SALT, SANMA, VECTOR
from tests.unit.test_majsoul_hash_record import actions_record, new_round

MD5 = hashlib.md5(SANMA.encode()).hexdigest()
MANUAL = ["majsoul", "--paishan", SANMA, "--salt", SALT, "--sha256", VECTOR["sha256"]]


def write(tmp_path: Path, obj: object, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


def game(tamper_round: int | None = None) -> dict[str, Any]:
    rounds = [new_round(0, i, 0, seed=i, salt=f"salt{i}") for i in range(4)]
    if tamper_round is not None:
        rounds[tamper_round]["salt"] = "tampered"
    return actions_record(rounds)


def test_record_all_rounds_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["majsoul", write(tmp_path, game())]) == 0
    out = capsys.readouterr().out
    assert "OK    East 1, 0 honba (4 players): sha256 OK, saltSha256 OK" in out
    assert out.rstrip().endswith("all 4 rounds match")


def test_record_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["majsoul", "--json", write(tmp_path, game(2))]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    assert [r["ok"] for r in data["rounds"]] == [True, True, False, True]
    errors = [f for f in data["findings"] if f["severity"] == "error"]
    assert [(f["code"], f["round"]) for f in errors] == [
        ("hash_mismatch", 2), ("salt_hash_mismatch", 2)
    ]  # fmt: skip


def test_record_mismatch_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["majsoul", "--walls", write(tmp_path, game(1))]) == 1
    out = capsys.readouterr().out
    assert "FAIL  East 2, 0 honba (4 players): sha256 MISMATCH, saltSha256 MISMATCH" in out
    assert "round 2 (East 2, 0 honba): SHA-256(paishan + salt) is" in out
    assert out.rstrip().endswith("1 of 4 rounds do not match")
    assert out.count("\n      ") >= 4 * 4  # four rows of tiles per round


def test_record_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.dumps(game()).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["majsoul", "-"]) == 0


def test_manual_sha256(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*MANUAL, "--salt-sha256", VECTOR["saltSha256"]]) == 0
    out = capsys.readouterr().out
    assert "(3 players): sha256 OK, saltSha256 OK" in out
    assert "5p 7s 6z 9m" in out  # the wall is shown for a typed-in round


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--salt", SALT + "x"], 1),
        (["--sha256", VECTOR["sha256"].upper()], 0),
        (["--paishan", SANMA[2:4] + SANMA[:2] + SANMA[4:]], 1),
    ],
    ids=["salt-changed", "uppercase-hash", "tiles-swapped"],
)
def test_manual_variants(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    args = MANUAL.copy()
    args[args.index(argv[0]) + 1] = argv[1]
    assert main(args) == code


def test_manual_md5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["majsoul", "--json", "--paishan", SANMA, "--md5", MD5]) == 0
    assert json.loads(capsys.readouterr().out)["rounds"][0]["digests"]["md5"]["match"] is True
    assert main(["majsoul", "--paishan", SANMA, "--md5", "0" * 32]) == 1
    assert "md5 MISMATCH" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paishan", SANMA[:-2], "--md5", MD5], "107 tiles"),
        (["--paishan", "8z" + SANMA[2:], "--md5", MD5], "tile 1 (characters 1-2) is '8z'"),
        (["--paishan", SANMA, "--md5", "xyz"], "md5 'xyz' is not an MD5 digest"),
        (["--paishan", SANMA, "--sha256", VECTOR["sha256"]], "--sha256 needs --salt"),
        (["--paishan", SANMA], "--paishan needs the stated hash"),
        ([], "give a record file"),
        (["rec.json", "--paishan", SANMA], "not both"),
        (["does-not-exist.json"], "cannot read does-not-exist.json"),
    ],
    ids=["short-wall", "bad-tile", "bad-md5", "sha-without-salt", "no-hash", "nothing",
         "both", "missing-file"],
)  # fmt: skip
def test_bad_input_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["majsoul", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        (json.dumps({"head": {}, "data": "CgRkYXRh"}), "no round with a 'paishan'"),
        (json.dumps({"paishan": SANMA[:-2], "md5": MD5}), "round 1: paishan has 107 tiles"),
        (json.dumps({"paishan": SANMA, "sha256": "x", "salt": "s"}), "round 1: sha256 'x'"),
    ],
    ids=["not-json", "undecoded", "bad-wall", "bad-hash"],
)
def test_bad_records_exit_2(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["majsoul", write(tmp_path, content)]) == 2
    assert message in capsys.readouterr().err


def test_binary_and_folder_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00{")
    assert main(["majsoul", str(tmp_path / "bin.json")]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["majsoul", str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_size_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_majsoul, "MAX_FILE_BYTES", 100)
    assert main(["majsoul", write(tmp_path, game())]) == 2
    assert "is over" in capsys.readouterr().err


def test_md5_era_record_of_83_tile_paishans(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import DATA

    record = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
    assert main(["majsoul", str(record)]) == 0
    out = capsys.readouterr().out
    assert (
        "East 1, 0 honba (4 players, undealt tiles only: the deal is outside the hash): md5 OK"
        in out
    )
    assert out.rstrip().endswith("all 9 rounds match")
