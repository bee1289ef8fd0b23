"""pywall.page.api.handle, the page's one entry point: any request gives JSON, never an exception.

The worker's whole contract: a request type, a payload as JSON text, maybe a file's
bytes; a reply as JSON text that is a result or ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pywall.page import api

KINDS = sorted(api.HANDLERS) + list(api.RUN_HANDLERS)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
#: Payloads with the request types' own field names, so handlers get past "unknown field".
FIELDS = [
    "name",
    "seed",
    "rounds",
    "players",
    "rows",
    "text",
    "names",
    "seeds",
    "uncertainty",
    "record",
    "paishan",
    "salt",
    "sha256",
    "md5",
    "salt_sha256",
    "hand",
    "visible",
    "round",
    "times",
    "run",
    "label",
    "path",
    "limit",
    "index",
    "reports",
    "runs",
    "tallies",
    "start",
    "survey",
    "records",
    "mismatch_details",
]
payloads = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5)


def reply(
    kind: str, payload: Any, data: bytes | None = None, worker: api.Api | None = None
) -> dict[str, Any]:
    text = api.handle(
        kind, payload if isinstance(payload, str) else json.dumps(payload), data, worker
    )
    assert isinstance(text, str)
    out = json.loads(text)
    assert isinstance(out, dict)
    if "error" in out:
        assert set(out["error"]) == {"code", "message"} and out["error"]["message"]
        assert out["error"]["code"] != "internal", out  # a bug, not bad input
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KINDS), payloads, st.none() | st.binary(max_size=64))
def test_any_payload_of_any_request_gives_json(
    kind: str, payload: dict[str, Any], data: bytes | None
) -> None:
    reply(kind, payload, data)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=20), st.text(max_size=40))
def test_unknown_requests_and_payloads_that_are_not_objects(kind: str, payload: str) -> None:
    out = reply(kind, payload)
    if kind not in KINDS:
        assert out["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    ("kind", "payload", "data", "words"),
    [
        ("csv", {"rows": "x"}, None, "'rows' must be list"),
        ("walls", {"seed": "x" * 3328, "rounds": "x"}, None, "'rounds' must be int"),
        ("verify", {"name": "x"}, None, "needs the file's bytes"),
        ("verify", {"name": None}, b"<mjloggm/>", "'name' must be str"),
        ("warm_up", {"times": 1000000}, None, "'times' must be from 1 to 10"),
        ("warm_up", {"times": 1e6}, None, "'times' must be int"),
        ("archive_next", {"run": "x", "limit": 10}, None, "no such archive run"),
        ("archive_open", {"run": "x", "label": "a", "path": "/nowhere"}, None, "reads no archives"),
        ("walls", {"seed": "x" * 3328, "rounds": 65}, None, "from 1 to 64"),
        ("hands", {"round": []}, None, "'round' must be Mapping"),
        ("audit", {"reports": {}}, None, "'reports' must be list"),
    ],
    ids=[
        "csv-text",
        "walls-rounds-text",
        "verify-no-bytes",
        "verify-no-name",
        "warm-up-huge",
        "warm-up-float",
        "next-chunk-unknown",
        "no-opener",
        "walls-too-many",
        "hands-list",
        "audit-dict",
    ],
)
def test_bad_arguments_are_error_replies(
    kind: str, payload: dict[str, Any], data: bytes | None, words: str
) -> None:
    out = reply(kind, payload, data)
    assert words in out["error"]["message"]


def test_a_bug_in_a_handler_is_an_internal_error_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(payload: Any, data: Any) -> dict[str, Any]:
        raise ZeroDivisionError("oops")

    monkeypatch.setitem(api.HANDLERS, "walls", broken)
    out = json.loads(api.handle("walls", "{}"))
    assert out["error"]["code"] == "internal"
    assert (
        "ZeroDivisionError: oops" in out["error"]["message"]
        and "please report" in out["error"]["message"]
    )


def test_a_payload_over_the_cap_is_refused_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "MAX_JSON", 10)
    assert reply("walls", json.dumps({"seed": "x" * 20}))["error"]["code"] == "bad_request"


# --- issue 13 items 3 and 15 through the worker's API -------------------------------------


def test_a_zip_with_a_corrupt_lzma_member_in_the_page(tmp_path: Any) -> None:
    from tests.unit.test_cli_hostile import lzma_zip_with_a_corrupt_member

    data = lzma_zip_with_a_corrupt_member(tmp_path / "logs.zip").read_bytes()
    out = reply("verify", {"name": "logs.zip"}, data)
    assert [f["status"] for f in out["files"]] == ["verified", "error", "verified"]
    assert [r["status"] for r in out["rows"]] == ["verified", "error", "verified"]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_the_pages_csv_neutralises_formula_cells(start: str) -> None:
    import csv
    import io

    rows = [
        {"path": f'{start}HYPERLINK("http://x")', "status": "error", "first_problem": f"{start}1+1"}
    ]
    text = reply("csv", {"rows": rows})["csv"]
    got = list(csv.DictReader(io.StringIO(text, newline="")))
    assert (
        got[0]["path"] == f'\'{start}HYPERLINK("http://x")'
        and got[0]["first_problem"] == f"'{start}1+1"
    )


def test_importing_the_api_loads_no_tool_audit_or_archive_module() -> None:
    """The page is ready once pywall.page.api is imported: what only a tool, the audit or an
    archive needs is imported on its first request (api.LAZY_MODULES)."""
    import subprocess
    import sys

    code = (
        "import sys, pywall.page.api as api; "
        "print(','.join(m for m in (*api.LAZY_MODULES, 'pywall.checks.commitment', 'pywall.checks.sega', "
        "'pywall.checks.majsoul', 'pywall.analysis.hands', 'pywall.formats.links', 'pywall.analysis.stats') if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == ""


def test_every_tool_kind_reaches_its_handler() -> None:
    from pywall.page import tool_api

    assert set(api.TOOLS) == set(tool_api.HANDLERS)
    assert reply("link", {"text": "2022060222gm-0001-0000-a87679bc"})["link"]["game_id"] == (
        "2022060222gm-0001-0000-a87679bc"
    )


def test_audit_runs_that_are_not_names_are_skipped() -> None:
    # hypothesis found it: a list in `runs` reached a dict lookup (TypeError: unhashable)
    out = reply("audit", {"runs": [["x"], {"a": 1}, 3]})
    assert "error" in out or "games" in out


@pytest.mark.parametrize(
    ("extra", "viewer"),
    [
        ({}, "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3"),
        ({"round": 0}, "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&ts=0&tw=3"),
        (
            {"round": 5, "seat": 0},
            "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&ts=5&tw=0",
        ),
    ],
    ids=["as-pasted", "first-round", "round-and-seat"],
)
def test_link_points_the_viewer_at_a_round(extra: dict[str, int], viewer: str) -> None:
    text = "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3"
    assert reply("link", {"text": text, **extra})["link"]["viewer_url"] == viewer


@pytest.mark.parametrize(
    "extra", [{"round": -1}, {"round": "2"}, {"seat": 4}], ids=["negative", "text", "seat-4"]
)
def test_link_refuses_a_bad_round_or_seat(extra: dict[str, Any]) -> None:
    assert (
        reply("link", {"text": "2022060222gm-0001-0000-a87679bc", **extra})["error"]["code"]
        == "bad_request"
    )


def test_games_lists_every_game_a_text_names_once() -> None:
    a, b = "2022060222gm-0001-0000-a87679bc", "2022060223gm-0001-0000-b8e20009"
    text = f'<a href="https://tenhou.net/0/?log={a}&amp;tw=3">1</a> {b} {a} 2022060222gm-00'
    got = reply("games", {"text": text})
    assert [g["game_id"] for g in got["games"]] == [a, b]
    assert got["games"][0]["seat"] == 3
    assert got["games"][0]["record_url"] == f"https://tenhou.net/0/log/?{a}"
    assert (got["repeated"], got["unread"]) == (1, 1)
    many = "\n".join(f"2022060222gm-0001-0000-{i:08x}" for i in range(1001))
    assert reply("games", {"text": many})["error"]["code"] == "bad_value"
    assert reply("games", {"text": 3})["error"]["code"] == "bad_request"
