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
    assert out.startswith("Audit of 48 verified games, 1,668 starting hands; excluded 4: 2 3-player, 2 repeated game")
    assert "non-dealer (13 tiles)   1,251 hands" in out
    assert "dealer (14 tiles)         417 hands" in out
    assert "verdict: consistent with a fair shuffle" in out
    assert "What this can show" in out and "cannot prove a shuffle fair" in out


def test_audit_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--json", str(TENHOU)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"]["used"] == 48
    assert sorted(e["kind"] for e in doc["games"]["excluded"]) == ["duplicate", "duplicate",
                                                                  "three_player", "three_player"]
    overall = doc["overall"]
    assert overall["hands"] == 1668 and overall["flagged"] is False
    assert [p["tiles"] for p in overall["by_tiles"]] == [13, 14]
    assert {"z", "chi2", "dof", "p", "observed", "expected"} <= set(overall["by_tiles"][0])
    assert overall["dora"]["expected"] > 0
    assert sum(p["hands"] for p in doc["players"]) == 1668
    assert doc["explanation"]


def test_audit_with_nothing_usable_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.mjlog").write_bytes(b"\x1f\x8bjunk")
    assert main(["audit", str(tmp_path / "a.mjlog"), str(TENHOU / "dnovikoff" / "sanma2.xml")]) == 2
    captured = capsys.readouterr()
    assert "no verified 4-player game to audit" in captured.err
    assert "3-player game" in captured.out and "gzip" in captured.out
