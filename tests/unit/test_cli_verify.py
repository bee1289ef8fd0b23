"""``pywall verify`` and ``pywall wall`` as a person runs them."""

from __future__ import annotations

import gzip
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pywall.cli import main
from tests.helpers import TENHOU, log_text, vector_seed

LOG = TENHOU / "tenhou-python-bot" / "1.txt"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def tampered(tmp_path: Path) -> Path:
    text = log_text(LOG)
    m = list(re.finditer(r"<U(\d+)/>", text))[30]
    bad = tmp_path / "tampered.xml"
    bad.write_text(text[: m.start()] + f"<U{(int(m.group(1)) + 4) % 136}/>" + text[m.end() :])
    return bad


def test_folder_of_real_logs_all_verified(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify", str(TENHOU)], capsys)
    assert code == 0
    assert out.count("\nOK ") + out.startswith("OK ") == 55
    assert out.strip().endswith("55 files: 55 verified, 0 mismatch, 0 error; 46,750 tiles checked")


def test_mismatch_exit_1_and_says_where(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify", str(tampered(tmp_path))], capsys)
    assert code == 1
    assert "MISMATCH" in out
    assert (
        "East 2, 1 honba: draw 55 of the round (seat 1, event 117) is 7s in the log, 6s in the wall (position 29)"
        in out
    )


def test_bad_file_exit_2_and_others_still_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.xml"
    junk.write_bytes(b"\x00\x01 not a log")
    code, out, _ = run(["verify", str(junk), str(LOG), str(tmp_path / "missing.mjlog")], capsys)
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith("ERROR") and "junk.xml" in lines[0]
    assert lines[1].startswith("OK")
    assert "no such file" in lines[2]


def test_json_report_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify", "--json", str(LOG), str(tampered(tmp_path))], capsys)
    assert code == 1
    doc = json.loads(out)
    assert doc["schema"] == 2
    ok, bad = doc["files"]
    assert ok["status"] == "verified" and ok["checked"] > 0 and ok["path"].endswith("1.txt")
    assert {"label", "dice", "result", "checked"} <= set(ok["rounds"][0])
    assert bad["status"] == "mismatch"
    f = bad["findings"][0]
    assert (f["code"], f["severity"], f["round"]) == (
        "draw_mismatch",
        "error",
        2,
    )  # East 2, 1 honba
    assert doc["summary"] == {
        "files": 2,
        "verified": 1,
        "mismatch": 1,
        "error": 0,
        "checked": ok["checked"] + bad["checked"],
    }


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(LOG.read_bytes()))))
    code, out, _ = run(["verify", "-"], capsys)
    assert code == 0 and out.startswith("OK        -:")


def test_zip_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(LOG, "a/1.txt")
        zf.write(tampered(tmp_path), "b/tampered.xml")
        zf.writestr("c/broken.mjlog", b"\x1f\x8b\x08 broken")
    code, out, _ = run(["verify", str(archive)], capsys)
    assert code == 2
    assert re.search(r"^OK .*logs.zip/a/1.txt", out, re.MULTILINE)
    assert re.search(r"^MISMATCH .*logs.zip/b/tampered.xml", out, re.MULTILINE)
    assert re.search(r"^ERROR .*logs.zip/c/broken.mjlog: .*gzip", out, re.MULTILINE)


def test_folder_skips_files_that_are_not_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.md").write_text("# my logs")
    (tmp_path / "1.txt").write_bytes(LOG.read_bytes())
    code, _, err = run(["verify", str(tmp_path)], capsys)
    assert code == 0
    assert "skipped 1 file" in err and "notes.md" in err


def test_empty_folder_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["verify", str(tmp_path)], capsys)
    assert code == 2 and "no logs found" in err


def test_hostile_name_is_printed_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = re.sub(
        r'n0="[^"]*"', 'n0="%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"', log_text(LOG), count=1
    )
    path = tmp_path / "xss.xml"
    path.write_text(text)
    code, out, _ = run(["verify", "--json", str(path)], capsys)
    assert code == 0
    assert json.loads(out)["files"][0]["game"]["players"][0] == "<img src=x onerror=alert(1)>"


def test_wall_command_shows_the_published_wall(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["wall", vector_seed()], capsys)
    assert code == 0
    assert "Round 1: dice 6 + 2 = 8" in out
    assert "dora indicator yama[5] 5m" in out
    assert "dealer    5z 3z 9s 4z" in out


def test_wall_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["wall", "--json", "--rounds", "3", "--players", "3", vector_seed()], capsys)
    assert code == 0
    doc = json.loads(out)
    assert len(doc["rounds"]) == 3 and len(doc["rounds"][0]["wall"]) == 108
    assert len(doc["rounds"][0]["hands"]) == 3 and doc["rounds"][0]["layout"]["dora"][0] == 9


@pytest.mark.parametrize(
    "args,message",
    [
        (["wall", "not-a-seed"], "bad seed"),
        (["wall", "--rounds", "0", "QUJD"], "--rounds"),
    ],
    ids=["bad-seed", "zero-rounds"],
)
def test_wall_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(args, capsys)
    assert code == 2 and message in err and "Traceback" not in err


def test_python_dash_m_works_like_the_script() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "verify", str(LOG)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK")


def test_usage_error_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "verify"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_platform_records_in_folders_and_zips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON records are recognised by their content, whatever they are called."""
    from tests.helpers import DATA

    (tmp_path / "folder").mkdir()
    rc = (DATA / "riichicity" / "gameDataSample.json").read_bytes()
    (tmp_path / "folder" / "game.txt").write_bytes(rc)
    (tmp_path / "folder" / "notes.json").write_text('{"title": "not a record"}')
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as zf:
        zf.writestr(
            "ms.json", (DATA / "majsoul" / "riichienv_mjsoul_corpus_validation.json").read_bytes()
        )
    assert (
        main(["verify", "--jobs", "1", str(tmp_path / "folder"), str(tmp_path / "games.zip")]) == 0
    )
    out = capsys.readouterr().out
    assert (
        "game.txt: 3 rounds, 248 tiles checked" in out
        and "ms.json: 1 round, 76 tiles checked" in out
    )
    assert "warning: East 1, 0 honba: the record states no digest" in out
    altered = rc.replace(b'\\"in_card\\":21,', b'\\"in_card\\":49,', 1)
    assert altered != rc
    (tmp_path / "folder" / "game.txt").write_bytes(altered)
    assert main(["verify", "--jobs", "1", str(tmp_path / "folder")]) == 1
    assert "draw" in capsys.readouterr().out
