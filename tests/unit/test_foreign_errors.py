"""No foreign exception anywhere (issue 23, part 5): each input that ended in a traceback or
an "internal error" is a clear error, and JSON output escapes what text output escapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pywall.cli import main
from pywall.core.errors import ValueInputError
from pywall.formats import mjlog
from pywall.formats.links import link_from_text
from pywall.page import api
from pywall.results.check import check_log
from tests.helpers import DATA, TENHOU

MAJSOUL = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RIICHI = DATA / "riichicity" / "gameDataSample.json"
LOG_ID = "2022060222gm-0001-0000-a87679bc"


def reply(kind: str, payload: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(api.handle(kind, json.dumps(payload), None, api.Api()))
    return answer


# --- links: urlsplit's errors, ids in other digits -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"http://[{LOG_ID}?tw=1",
        f"https://[::1/0/?log={LOG_ID}&tw=1",
    ],
    ids=["open-bracket", "bad-ipv6"],
)
def test_a_link_urlsplit_cannot_read_is_refused_plainly(text: str) -> None:
    with pytest.raises(ValueInputError, match="not a link pywall can read"):
        link_from_text(text)
    assert reply("link", {"text": text})["error"]["code"] == "bad_value"


@pytest.mark.parametrize(
    "digits",
    ["２０２２０６０２２２", "٢٠٢٢٠٦٠٢٢٢", "२०२२०६०२२२"],
    ids=["fullwidth", "arabic-indic", "devanagari"],
)
def test_an_id_in_other_digits_is_refused_not_made_a_dead_link(digits: str) -> None:
    text = f"https://tenhou.net/0/?log={digits}gm-0001-0000-a87679bc&tw=1"
    with pytest.raises(ValueInputError, match="digits 0-9"):
        link_from_text(text)
    assert "link" not in reply("link", {"text": text})


def test_a_file_named_with_other_digits_has_no_log_id() -> None:
    path = TENHOU / "tenhou-python-bot" / "1.txt"
    game = mjlog.parse(path.read_bytes(), "٢٠٢٢٠٦٠٢٢٢gm-0001-0000-a87679bc.xml")
    assert game.log_id is None
    report = check_log("٢٠٢٢٠٦٠٢٢٢gm-0001-0000-a87679bc.xml", path.read_bytes())
    assert report.game is not None and report.game.date is None


# --- lone surrogates in game ids -------------------------------------------------------------


def with_id(path: Path, key: str, value: str, tmp_path: Path) -> Path:
    doc = json.loads(path.read_text(encoding="utf-8"))

    def put(node: Any) -> bool:
        if isinstance(node, dict):
            if key in node:
                node[key] = value
                return True
            return any(put(v) for v in node.values())
        return isinstance(node, list) and any(put(v) for v in node)

    assert put(doc)
    out = tmp_path / path.name
    out.write_text(json.dumps(doc), encoding="utf-8")  # the surrogate as a \ud800 escape
    return out


@pytest.mark.parametrize(
    ("path", "key"), [(MAJSOUL, "uuid"), (RIICHI, "keyValue")], ids=["majsoul", "riichicity"]
)
def test_a_game_id_with_a_lone_surrogate_is_a_format_error(
    path: Path, key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = with_id(path, key, "\ud800abc", tmp_path)
    report = check_log(bad.name, bad.read_bytes()).to_dict()
    assert report["status"] == "error"
    assert [f["code"] for f in report["findings"]] == ["log_format"]
    assert "lone surrogate" in report["findings"][0]["message"]
    assert main(["verify", str(bad)]) == 2
    out = capsys.readouterr().out
    assert "lone surrogate" in out and "internal error" not in out


# --- the page's records handed back to the audit ---------------------------------------------

GAME = {
    "fingerprint": "f",
    "player_count": 4,
    "platform": "tenhou",
    "players": ["a", "b", "c", "d"],
}
#: A page's report (what ``audit`` reads) and an archive run's record (``GameRecord.to_dict``,
#: what ``tally_add`` reads), each with the same thing wrong.
BAD_RECORDS = {
    "player-count-text": ({"game": {**GAME, "player_count": "x"}}, {"players": "x"}),
    "player-count-null": ({"game": {**GAME, "player_count": None}}, {"players": None}),
    "row-too-short": ({"rounds": [{"starting": [[0]]}]}, {"starting": [[0]]}),
    "seat-text": ({"rounds": [{"starting": [["a", 13, 2, 1]]}]}, {"starting": [["a", 13, 2, 1]]}),
    "tiles-text": ({"rounds": [{"starting": [[0, "13", 2, 1]]}]}, {"starting": [[0, "13", 2, 1]]}),
    "seat-negative": ({"rounds": [{"starting": [[-9, 13, 2, 1]]}]}, {"starting": [[-9, 13, 2, 1]]}),
    "shanten-fraction": (
        {"rounds": [{"starting": [[0, 13, 2.5, 1]]}]},
        {"starting": [[0, 13, 2.5, 1]]},
    ),
    "starting-text": ({"rounds": [{"starting": "abc"}]}, {"starting": "abc"}),
    "shanten-list": (
        {"rounds": [{"starting": [[0, 13, [1], 1]]}]},
        {"starting": [[0, 13, [1], 1]]},
    ),
    "tiles-200": ({"rounds": [{"starting": [[0, 200, 2, 1]]}]}, {"starting": [[0, 200, 2, 1]]}),
}


def real_copy_key() -> Any:
    """A real game's copy key (a page's report carries one; without it the report is left
    out as having no fingerprint before its rows are read)."""
    path = next(TENHOU.glob("**/*.xml"))
    return check_log(str(path), path.read_bytes(), starting=True).to_dict()["copy"]


def record(change: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": "page.xml",
        "status": "verified",
        "game": GAME,
        "copy": real_copy_key(),
        "rounds": [{"starting": [[0, 13, 2, 1]]}],
        **change,
    }


def game_record(change: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": "page.xml",
        "problem": None,
        "fingerprint": "f",
        "platform": "tenhou",
        "players": 4,
        "names": ["a", "b", "c", "d"],
        "starting": [[0, 13, 2, 1]],
        **change,
    }


@pytest.mark.parametrize("changes", list(BAD_RECORDS.values()), ids=list(BAD_RECORDS))
def test_a_page_made_record_of_the_wrong_shape_is_a_clear_error(
    changes: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    worker = api.Api()
    report_change, record_change = changes
    for kind, payload in (
        ("tally_add", {"run": "r", "start": 0, "records": [game_record(record_change)]}),
        ("audit", {"reports": [record(report_change)]}),
    ):
        out = json.loads(api.handle(kind, json.dumps(payload), None, worker))
        assert out["error"]["code"] == "bad_value", (kind, out)
        assert "page.xml" in out["error"]["message"]
    # nothing of the refused record was counted
    assert json.loads(api.handle("tally", json.dumps({"run": "r"}), None, worker))["games"] == 0


@pytest.mark.parametrize(
    "shanten",
    [[[4, 200, {"1": 1}]], [[4, 13, {"2.5": 1}]], [[4, 13, {"99": 1}]]],
    ids=["tiles-200", "shanten-fraction", "shanten-99"],
)
def test_a_page_made_tally_of_the_wrong_shape_is_a_clear_error(shanten: list[Any]) -> None:
    group = {"shanten": shanten, "dora": [0, 0, 0]}
    tally = {
        "overall": group,
        "platforms": {},
        "players": {},
        "games": 1,
        "anonymous_hands": 0,
        "excluded": [],
        "seen": {},
    }
    out = reply("audit", {"tallies": [tally]})
    assert out["error"]["code"] == "bad_value" and "audit tally" in out["error"]["message"]


@pytest.mark.parametrize(
    "rnd",
    [
        {
            "wall": list(range(136)),
            "hands": [[0] * 13] * 4,
            "dealer": 0,
            "layout": {"scheme": "tenhou"},
        },
        {"wall": list(range(136)), "hands": [[]] * 4, "dealer": 0, "layout": {"scheme": "tenhou"}},
        {
            "wall": list(range(136)),
            "hands": [list(range(13))] * 4,
            "dealer": 9,
            "layout": {"scheme": "tenhou"},
        },
        {
            "wall": list(range(136)),
            "hands": [list(range(13))] * 4,
            "dealer": 0,
            "layout": {"scheme": "x"},
        },
        {"wall": "x", "hands": [list(range(13))] * 4, "dealer": 0, "layout": {"scheme": "tenhou"}},
    ],
    ids=["five-copies", "empty-hands", "dealer-9", "unknown-scheme", "wall-text"],
)
def test_a_page_made_round_given_to_hands_is_a_clear_error(rnd: dict[str, Any]) -> None:
    assert reply("hands", {"round": rnd})["error"]["code"] == "bad_value"


# --- JSON output escapes what text output escapes ----------------------------------------------

UNSAFE_NAME = "\u0085\u202e\ud800\u2066"


@pytest.mark.parametrize("style", ["--json", "--jsonl"])
def test_json_output_escapes_c1_controls_bidi_and_lone_surrogates(
    style: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = MAJSOUL.read_text(encoding="utf-8")
    doc = json.loads(text.replace('"nickname": "', '"nickname": "\\u0085\\u202e\\ud800\\u2066', 1))
    named = tmp_path / "names.json"
    named.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", style, str(named)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in UNSAFE_NAME)
    assert "\\u0085\\u202e\\ud800\\u2066" in out
    first = json.loads(out.splitlines()[0] if style == "--jsonl" else out)
    report = first if style == "--jsonl" else first["files"][0]
    assert report["game"]["players"][0].startswith(UNSAFE_NAME)  # the same text, read back


def test_no_docstring_holds_a_lone_surrogate() -> None:
    """A docstring written with a \\ud800 escape holds a lone surrogate: CPython keeps it,
    but Pyodide could not import the module (the page said Python could not be loaded)."""
    import ast

    import pywall

    root = Path(pywall.__file__).parent
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                (ast.get_docstring(node) or "").encode("utf-8")  # raises on a lone surrogate
