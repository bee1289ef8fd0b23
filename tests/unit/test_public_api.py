"""The public Python API: its names and signatures pinned, and the same answers as the CLI."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import pywall
from pywall.cli import main
from tests.helpers import DATA, TENHOU, fixture_paths

ROOT = Path(__file__).resolve().parents[2]

#: The public names and each function's signature, as ``inspect`` writes them: a change
#: here is a change of the stable API (CHANGELOG.md, docs/python.md).
SIGNATURES = {
    "verify": "(source: 'Source') -> 'FileReport'",
    "audit": "(sources: 'Sequence[AuditSource] | AuditSource', jobs: 'int' = 1) -> 'AuditResult'",
    "walls": "(seed: 'str', rounds: 'int', players: 'int' = 4) -> 'list[RoundWall]'",
    "parse_record": "(data: 'bytes | str') -> 'Game'",
    "shanten": "(hand: 'Hand') -> 'int'",
    "effective_tiles": "(hand: 'Hand') -> 'EffectiveTiles'",
}
TYPES = {"AuditResult", "EffectiveTiles", "FileReport", "Game", "RoundWall"}
METHODS = {
    "AuditResult": {
        "to_dict": "(self) -> 'dict[str, Any]'",
        "rows": "(self) -> 'list[dict[str, Any]]'",
        "to_html": "(self, lang: 'str' = 'en', player: 'str | None' = None) -> 'str'",
    },
    "FileReport": {
        "to_dict": "(self) -> 'dict[str, Any]'",
        "rows": "(self) -> 'list[dict[str, Any]]'",
    },
}


def test_the_public_names_and_signatures_are_pinned() -> None:
    assert set(pywall.__all__) == (
        set(SIGNATURES) | TYPES | {"LogFormatError", "PywallError", "__version__"}
    )
    for name, signature in SIGNATURES.items():
        assert str(inspect.signature(getattr(pywall, name))) == signature, name
        assert inspect.getdoc(getattr(pywall, name)), f"{name} has no docstring"
    for name, methods in METHODS.items():
        for method, signature in methods.items():
            assert str(inspect.signature(getattr(getattr(pywall, name), method))) == signature
    assert all(isinstance(getattr(pywall, t), type) for t in TYPES)
    with pytest.raises(AttributeError, match="no attribute 'tenhou'"):
        _ = pywall.tenhou


@pytest.mark.parametrize(
    ("imported", "absent"),
    [
        ("pywall", ("dask", "distributed", "pywall.audits.verdicts", "pywall.run.pool")),
        ("pywall.scale", ("dask", "distributed")),
    ],
    ids=["pywall", "pywall.scale"],
)
def test_imports_stay_light(imported: str, absent: tuple[str, ...]) -> None:
    """``import pywall`` loads the public names on first use; Dask is the caller's to import."""
    code = f"import sys, {imported}; print(sorted(m for m in {absent!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> object:
    capsys.readouterr()
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "path",
    [
        fixture_paths()[0],
        DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
        DATA / "riichicity" / "cnrkj069nc7ajnvadk30.json",
    ],
    ids=["tenhou", "majsoul", "riichicity"],
)
def test_verify_gives_the_report_verify_json_lists(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = cli_json(["verify", "--json", "--no-progress", str(path)], capsys)
    assert isinstance(doc, dict)
    (listed,) = doc["files"]
    report = pywall.verify(str(path))
    assert isinstance(report, pywall.FileReport)
    assert report.to_dict() == listed
    assert pywall.verify(path).to_dict() == listed  # a Path as well as its text
    by_bytes = pywall.verify(path.read_bytes()).to_dict()
    assert by_bytes == listed | {"path": "<data>"}
    if path.suffix != ".mjlog":  # text (a gzip file has none)
        text = path.read_text(encoding="utf-8")
        assert pywall.verify(text).to_dict() == by_bytes
        assert pywall.verify("\ufeff\n" + text.lstrip("\ufeff")).status == listed["status"]
    rows = report.rows()
    assert len(rows) == len(report.rounds) and rows[0]["path"] == str(path)
    assert sum(r["checked"] for r in rows) == report.checked


def test_verify_of_what_is_no_record_is_an_error_report(tmp_path: Path) -> None:
    assert pywall.verify(b"not a log").status == "error"
    missing = pywall.verify(tmp_path / "missing.xml")
    assert missing.status == "error" and "no such file" in missing.errors[0].message
    assert pywall.verify(str(tmp_path)).errors[0].message.startswith("no log in this folder")
    (row,) = pywall.verify(b"junk").rows()
    assert row["status"] == "error" and row["round"] is None and row["errors"] == 1
    with pytest.raises(TypeError):
        pywall.verify(12)  # type: ignore[arg-type]


@pytest.mark.parametrize("jobs", [1, 2], ids=["jobs1", "jobs2"])
def test_audit_to_dict_is_audit_json(jobs: int, capsys: pytest.CaptureFixture[str]) -> None:
    sources = [TENHOU, DATA / "majsoul", DATA / "riichicity"]
    doc = cli_json(["audit", "--json", *map(str, sources)], capsys)
    result = pywall.audit(sources, jobs=jobs)
    assert isinstance(result, pywall.AuditResult)
    assert json.loads(json.dumps(result.to_dict())) == doc
    assert result.games == doc["games"]["used"] > 50  # type: ignore[index]
    rows = result.rows()
    assert [r["group"] for r in rows[:2]] == ["overall", "platform"]
    assert rows[0]["hands"] == result.hands and all(0 <= r["smallest_p"] <= 1 for r in rows)
    assert {r["label"] for r in rows if r["group"] == "player"} == {g.label for g in result.players}


def test_audit_of_bytes_and_of_nothing_usable() -> None:
    paths = fixture_paths()[:3]
    by_bytes = pywall.audit([p.read_bytes() for p in paths])
    by_path = pywall.audit(paths)
    assert by_bytes.rows() == by_path.rows() and by_bytes.games == 3
    with pytest.raises(pywall.PywallError, match="no verified game to audit"):
        pywall.audit([b"junk"])
    with pytest.raises(TypeError):
        pywall.audit([3.5])  # type: ignore[list-item]


def test_audit_to_html_is_the_report_pywall_audit_html_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``to_html`` gives the same page as ``pywall audit --html`` for the same files, in
    each language (the CLI run in this process)."""
    paths = fixture_paths()[:3]
    result = pywall.audit(paths)
    for lang in ("en", "ja", "zh"):
        out = tmp_path / f"report-{lang}.html"
        code = main(["audit", "--html", str(out), "--lang", lang, *map(str, paths)])
        assert code == 0, capsys.readouterr().err
        html = result.to_html(lang)
        assert html.lower().startswith("<!doctype html") and "<script" not in html.lower()
        assert html == out.read_text(encoding="utf-8")


def test_walls_parse_record_shanten_and_effective_tiles() -> None:
    game = pywall.parse_record(fixture_paths()[0].read_bytes())
    assert isinstance(game, pywall.Game) and game.seed
    rebuilt = pywall.walls(game.seed, len(game.rounds), game.player_count)
    assert len(rebuilt) == len(game.rounds)
    assert sorted(rebuilt[0].tiles) == list(range(136))
    counts = [0] * 34
    for kind in (0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28):  # 123m 456p 789s 11z 22z
        counts[kind] += 1
    assert pywall.shanten(counts) == pywall.shanten("123m456p789s1122z") == 0
    assert pywall.shanten("123m456p789s11222z") == -1  # 14 tiles, complete
    assert pywall.shanten("19m19p19s1234567z") == 0  # thirteen orphans, waiting on any
    waits = pywall.effective_tiles("123m456p789s1122z")  # waiting on 1z or 2z, 2 of each left
    assert waits.to_dict() == {
        "shanten": 0,
        "tiles": "12z",
        "remaining": {"1z": 2, "2z": 2},
        "total": 4,
    }
    assert pywall.effective_tiles(counts) == waits
    with pytest.raises(pywall.PywallError):
        pywall.shanten("12x")
    with pytest.raises(pywall.PywallError):
        pywall.shanten([5] + [0] * 33)
    with pytest.raises(pywall.LogFormatError):
        pywall.parse_record(b"junk")
