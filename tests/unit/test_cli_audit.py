"""``pywall audit`` over real logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pywall.cli import main
from tests.helpers import TENHOU


def test_audit_of_the_fixture_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(TENHOU)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Audit of 53 verified games, 1,757 starting hands; excluded 2: 2 repeats")
    # 4-player hands against the 136-tile distributions, 3-player ones against the 108-tile ones
    assert (
        "Tenhou, 4-player: 1,736 hands\n  non-dealer (13 tiles)   1,302 hands: mean shanten 3.532 (fair 3.580)"
        in out
    )
    assert "dealer (14 tiles)         434 hands: mean shanten 3.154 (fair 3.156)" in out
    assert (
        "Tenhou, 3-player: 21 hands\n  non-dealer (13 tiles)      14 hands: mean shanten 3.786 (fair 3.394)"
        in out
    )
    assert "282 hands of anonymous players (NoName) count in the totals only" in out
    assert "verdict: consistent with a fair shuffle" in out
    assert "What this can show" in out and "cannot prove a shuffle fair" in out


def test_audit_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--json", str(TENHOU)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"]["used"] == 53 and doc["games"]["hands"] == 1757
    assert sorted(e["kind"] for e in doc["games"]["excluded"]) == ["duplicate", "duplicate"]
    overall = doc["overall"]
    assert overall["hands"] == 1757 and overall["flagged"] is False
    assert [(p["players"], p["tiles"]) for p in overall["by_tiles"]] == [
        (3, 13),
        (3, 14),
        (4, 13),
        (4, 14),
    ]
    assert [(g["label"], g["hands"]) for g in doc["platforms"]] == [
        ("Tenhou, 3-player", 21),
        ("Tenhou, 4-player", 1736),
    ]
    assert {"z", "chi2", "dof", "p", "observed", "expected"} <= set(overall["by_tiles"][0])
    assert overall["dora"]["expected"] > 0
    assert sum(p["hands"] for p in doc["players"]) + doc["games"]["anonymous_hands"] == 1757
    assert doc["explanation"]


def test_audit_with_nothing_usable_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.mjlog").write_bytes(b"\x1f\x8bjunk")
    (tmp_path / "b.xml").write_text("<mjloggm></mjloggm>")
    assert main(["audit", str(tmp_path / "a.mjlog"), str(tmp_path / "b.xml")]) == 2
    captured = capsys.readouterr()
    assert "no verified game to audit" in captured.err
    assert "no rounds" in captured.out and "gzip" in captured.out


def test_audit_of_a_folder_mixing_platforms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tenhou, Mahjong Soul and Riichi City games, 3 and 4 players, counted per platform."""
    from tests.helpers import DATA

    for source in [*(DATA / "majsoul").iterdir(), *(DATA / "riichicity").iterdir(),
                   TENHOU / "gimite" / "test.mjlog", TENHOU / "dnovikoff" / "sanma2.xml"]:  # fmt: skip
        (tmp_path / source.name).write_bytes(source.read_bytes())
    assert main(["audit", "--json", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"]["used"] == 7
    assert [(g["label"], g["hands"]) for g in doc["platforms"]] == [
        ("Mahjong Soul, 4-player", 40), ("Riichi City, 3-player", 36), ("Riichi City, 4-player", 48),
        ("Tenhou, 3-player", 18), ("Tenhou, 4-player", 68)]  # fmt: skip


def test_audit_with_worker_processes_is_the_audit_in_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two batches or more go to worker processes (--jobs): the same JSON as --jobs 1."""
    args = ["audit", "--json", str(TENHOU), str(TENHOU)]  # 110 logs: two batches of 64
    assert main([*args, "--jobs", "1"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    shared = json.loads(capsys.readouterr().out)
    assert shared == alone
    # 55 logs twice: 53 distinct games used, the 2 repeats and the 55 second copies excluded
    assert alone["games"]["used"] == 53 and len(alone["games"]["excluded"]) == 57
    assert alone["overall"]["draws"]["effective"]["n"] == alone["games"]["draws"] > 0
    assert main(["audit", "--jobs", "0", str(TENHOU)]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["audit", "verify"], ids=["audit", "verify"])
def test_jobs_are_held_to_the_apis_bound(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs`` starts that many processes: past ``MAX_JOBS`` it is refused before any
    work, as ``pywall.audit(jobs=)`` refuses it (tests/unit/test_api_bounds.py)."""
    from pywall.core.limits import MAX_JOBS

    assert main([command, "--jobs", str(MAX_JOBS + 1), str(TENHOU)]) == 2
    captured = capsys.readouterr()
    assert f"--jobs must be at most {MAX_JOBS} (each is a process)" in captured.err
    assert captured.out == ""
