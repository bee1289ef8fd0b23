"""The page's panel calls in pywall.page.api: real data in, JSON out; bad input gives
``{"error": {"code", "message"}}`` and never an exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pywall.checks.sega import tenhou_id_from_sega
from pywall.page import api
from tests.helpers import DATA, TENHOU
from tests.unit.test_commitment import recipe_hash, seed_and_names, unique_order

SEGA = json.loads((DATA / "vectors" / "sega-mj" / "vectors.json").read_text())
MAJSOUL = json.loads((DATA / "vectors" / "majsoul" / "lipenghua_sanma_vector.json").read_text())
LOG = TENHOU / "tenhou-python-bot" / "11.txt"
NONAMES = TENHOU / "tenhou-python-bot" / "22.txt"
SANMA = TENHOU / "dnovikoff" / "sanma2.xml"


#: Each request's payload fields, in the order the tests give them positionally.
ARGS = {
    "commitment": ("seed", "names", "text"),
    "sega": ("seeds", "uncertainty"),
    "majsoul": (),
    "shanten": ("hand", "visible"),
    "hands": ("round",),
    "audit": ("reports",),
}


def call(kind: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """``api.handle`` as the worker calls it: a payload object as JSON text, JSON back."""
    payload = dict(zip(ARGS[kind], args)) | kwargs
    out = api.handle(kind, json.dumps(payload))
    assert isinstance(out, str)
    data: dict[str, Any] = json.loads(out)
    return data


def error_of(fn: Any, *args: Any, **kwargs: Any) -> str:
    data = call(fn, *args, **kwargs)
    assert set(data["error"]) == {"code", "message"} and data["error"]["message"]
    return str(data["error"]["message"])


def detailed(path: Path) -> dict[str, Any]:
    files = json.loads(api.handle("verify", json.dumps({"name": path.name}), path.read_bytes()))[
        "files"
    ]
    assert len(files) == 1
    report: dict[str, Any] = files[0]
    return report


# --- commitment ------------------------------------------------------------------------


def test_commitment_hash_matches() -> None:
    seed, names = seed_and_names(LOG)
    order = unique_order(names)
    value = recipe_hash(order, seed)
    data = call("commitment", seed, list(names), value.upper() + "\n")
    assert (data["matched"], data["seat_order"], data["hash"], data["form"], data["mode"]) == (
        True,
        order,
        value,
        "full",
        "hash",
    )
    assert [c["seat_order"] for c in data["candidates"]] == [order]


def test_commitment_list_with_nonames_tries_every_order() -> None:
    seed, names = seed_and_names(NONAMES)
    value = recipe_hash("1023", seed)
    page = (
        "<table>\n" + "\n".join(f"<tr><td>{h}</td></tr>" for h in ("ab" * 64, value)) + "\n</table>"
    )
    data = call("commitment", seed, list(names), page)
    assert data["matched"] and data["mode"] == "list" and data["line"] == 3
    assert data["seat_order"] == "1023" and len(data["candidates"]) == 6


def test_commitment_wrong_hash_does_not_match() -> None:
    seed, names = seed_and_names(LOG)
    data = call("commitment", seed, list(names), "0" * 128)
    assert data["matched"] is False and data["published_hashes"] == 1
    assert len(data["candidates"]) == 1


@pytest.mark.parametrize(
    ("seed", "names", "text", "words"),
    [
        ("x", ["a", "b", "c", "d"], "", "paste a published hash"),
        ("x", ["a", "b", "c", "d"], "no hash here", "no SHA-512 hash"),
        ("x", ["a", "b", "c", "d"], "g" * 128, "not a SHA-512 hash"),
        ("!!!", ["a", "b", "c", "d"], "0" * 128, "seed"),
        ("x", "not a list", "0" * 128, "'names' must be list"),
        ("x", ["a"], "0" * 128, "3 or 4 players"),
    ],
    ids=["empty", "no-hash", "not-hex", "bad-seed", "names-not-list", "one-name"],
)
def test_commitment_bad_input(seed: str, names: Any, text: str, words: str) -> None:
    if seed == "x":
        seed = seed_and_names(LOG)[0]
    assert words in error_of("commitment", seed, names, text)


# --- SEGA MJ -------------------------------------------------------------------------


@pytest.mark.parametrize("case", SEGA[:8], ids=lambda c: str(c["uncertainty"]))
def test_sega_vectors(case: dict[str, Any]) -> None:
    data = call("sega", case["player_seeds"], str(case["uncertainty"]))
    assert data["wall"] == case["wall"]
    assert data["dice"] == [d + 1 for d in case["dice"]]
    assert data["tenhou_ids"] == [tenhou_id_from_sega(t) for t in case["wall"]]
    assert data["break"]["index"] == (sum(data["dice"]) - 1) % 4


def test_sega_integer_uncertainty_and_seed_with_dash() -> None:
    case = SEGA[0]
    assert case["player_seeds"][0].startswith("-")
    assert call("sega", case["player_seeds"], case["uncertainty"])["wall"] == case["wall"]


@pytest.mark.parametrize(
    ("seeds", "value", "words"),
    [
        (["a" * 26] + ["b" * 27] * 3, "1", "player seed 1 has 26 characters"),
        (["a" * 27, "b" * 26 + "!"] + ["c" * 27] * 2, "1", "player seed 2: character 27 is '!'"),
        (["a" * 27] * 3, "1", "4 player seeds"),
        (["a" * 27] * 4, "", "enter the uncertainty value"),
        (["a" * 27] * 4, "12x", "not a whole number"),
        (["a" * 27] * 4, "4294967296", "outside"),
        (["a" * 27] * 4, -1, "outside"),
        ("not a list", "1", "'seeds' must be list"),
    ],
    ids=["short", "bad-char", "three", "no-value", "not-digits", "too-big", "negative", "not-list"],
)
def test_sega_bad_input(seeds: Any, value: Any, words: str) -> None:
    assert words in error_of("sega", seeds, value)


# --- Mahjong Soul --------------------------------------------------------------------


def test_majsoul_typed_values_match() -> None:
    data = call(
        "majsoul",
        paishan=MAJSOUL["paishan"],
        salt=MAJSOUL["salt"],
        sha256=MAJSOUL["sha256"],
        salt_sha256=MAJSOUL["saltSha256"],
    )
    assert data["ok"] is True
    (r,) = data["rounds"]
    assert r["players"] == 3 and len(r["tiles"]) == 108 == len(r["tile_ids"])
    assert r["digests"]["sha256"]["match"] and r["digests"]["salt_sha256"]["match"]
    red = [i for i, code in enumerate(r["tiles"]) if code[0] == "0"]
    assert red and all(r["tile_ids"][i] in (16, 52, 88) for i in red)
    assert all(r["tile_ids"][i] not in (16, 52, 88) for i in range(108) if i not in red)


def test_majsoul_record_file_matches() -> None:
    text = (DATA / "vectors" / "majsoul" / "lipenghua_sanma_vector.json").read_text()
    data = call("majsoul", record=text)
    assert data["ok"] is True and len(data["rounds"]) == 1


@pytest.mark.parametrize("change", ["tile", "salt", "hash"])
def test_majsoul_tampered_is_a_mismatch(change: str) -> None:
    values = {"paishan": MAJSOUL["paishan"], "salt": MAJSOUL["salt"], "sha256": MAJSOUL["sha256"]}
    if change == "tile":  # swap two different tiles: still a valid wall
        p = values["paishan"]
        values["paishan"] = p[2:4] + p[0:2] + p[4:]
    elif change == "salt":
        values["salt"] = "x" + values["salt"][1:]
    else:
        values["sha256"] = "0" * 64
    data = call("majsoul", **values)
    assert data["ok"] is False and data["rounds"][0]["digests"]["sha256"]["match"] is False


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({}, "choose a record file"),
        ({"paishan": MAJSOUL["paishan"]}, "enter the stated hash"),
        ({"paishan": MAJSOUL["paishan"], "sha256": MAJSOUL["sha256"]}, "needs the salt"),
        ({"paishan": MAJSOUL["paishan"][:-2], "md5": "0" * 32}, "107 tiles"),
        ({"paishan": "1m" + MAJSOUL["paishan"][2:], "md5": "0" * 32}, "5th 1m"),
        ({"paishan": MAJSOUL["paishan"], "md5": "xyz"}, "not an MD5 digest"),
        ({"record": "{"}, "not JSON"),
        ({"record": "{}"}, "no round with a 'paishan'"),
    ],
    ids=[
        "nothing",
        "no-hash",
        "no-salt",
        "short-wall",
        "fifth-tile",
        "bad-md5",
        "bad-json",
        "no-rounds",
    ],
)
def test_majsoul_bad_input(kwargs: dict[str, str], words: str) -> None:
    assert words in error_of("majsoul", **kwargs)


# --- shanten ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "minimum", "regular", "chiitoi"),
    [
        ("123m456p789s1111z", 1, 1, 5),
        ("123m456p789s1122z", 0, 0, 4),
        ("11223344556677z", -1, 3, -1),
        ("19m19p19s1234567z", 0, 8, 6),
    ],
    ids=["fifth-tile", "tenpai", "seven-pairs", "kokushi"],
)
def test_shanten_forms(hand: str, minimum: int, regular: int, chiitoi: int) -> None:
    data = call("shanten", hand)
    assert data["shanten"]["minimum"] == minimum
    assert data["shanten"]["regular"] == regular and data["shanten"]["chiitoi"] == chiitoi


def test_shanten_13_effective_tiles() -> None:
    data = call("shanten", "123m456p789s1122z")
    assert data["effective"]["tiles"] == "12z" and data["effective"]["total"] == 4
    data = call("shanten", "123m456p789s1122z", "1z")
    assert data["effective"]["remaining"] == {"1z": 1, "2z": 2} and data["visible"] == "1z"


def test_shanten_14_discard_table_sorted_like_tenhou() -> None:
    data = call("shanten", "123m406p789s11223z")
    assert data["tiles"] == 14 and data["red"] == [13] and data["shanten"]["minimum"] == 0
    rows = data["discards"]
    assert [r["discard"] for r in rows] == ["3z"]
    assert rows[0]["tiles"] == "12z" and rows[0]["total"] == 4
    rows = call("shanten", "1234m456p789s1122z")["discards"]  # tenpai after 1m or 4m
    assert [r["discard"] for r in rows][:2] == ["1m", "4m"]
    totals = [r["total"] for r in rows]
    assert totals == sorted(totals, reverse=True) and len(rows) >= 2


@pytest.mark.parametrize(
    ("hand", "visible", "words"),
    [
        ("", "", "type a hand"),
        ("123m456p789s111z", "", "this one has 12"),
        ("123m456p789s1111z1z", "", "only 4"),
        ("12x", "", "unexpected 'x'"),
        ("123m456p789s1122z", "1z1z1z", "a kind has 4"),
        ("1" * 300 + "m", "", "far more tiles"),
        (None, "", "'hand' must be str"),
        (5, "", "'hand' must be str"),
    ],
    ids=["empty", "twelve", "fifth-copy", "bad-char", "visible-too-many", "huge", "none", "number"],
)
def test_shanten_bad_input(hand: Any, visible: str, words: str) -> None:
    assert words in error_of("shanten", hand, visible)


# --- a round's starting hands -----------------------------------------------------------


def test_round_hands_of_a_real_round() -> None:
    report = detailed(LOG)
    rnd = report["rounds"][0]
    data = call("hands", rnd)
    wall = rnd["wall"]
    assert data["players"] == 4 and data["dora_indicator"] == wall[5] == rnd["dora_indicators"][0]
    dealer = data["dealer"]
    assert dealer == rnd["dealer"] and rnd["hands"][dealer][0] == wall[135]
    for seat in data["seats"]:
        mine = rnd["hands"][seat["seat"]]
        if seat["dealer"]:
            assert seat["draw"] == wall[83] and seat["ids"] == sorted([*mine, wall[83]])
            assert seat["tiles"] == 14 and seat["discards"]
            best = seat["discards"][0]
            assert (
                best["shanten"] == seat["shanten"]["minimum"]
                or best["shanten"] == seat["shanten"]["minimum"] + 1
            )
        else:
            assert seat["draw"] is None and seat["ids"] == sorted(mine)
            assert (
                seat["tiles"] == 13 and seat["effective"]["shanten"] == seat["shanten"]["minimum"]
            )
            indicator_kind = f"{wall[5] // 4 % 9 + 1}{'mpsz'[wall[5] // 36]}"
            remaining = seat["effective"]["remaining"]
            if indicator_kind in remaining:  # the indicator is visible: one fewer left
                held = sum(1 for t in mine if t // 4 == wall[5] // 4)
                assert remaining[indicator_kind] == 3 - held


def test_round_hands_three_player() -> None:
    rnd = detailed(SANMA)["rounds"][0]
    data = call("hands", rnd)
    assert data["players"] == 3 and len(data["seats"]) == 3
    assert data["dora_indicator"] == rnd["wall"][9]
    dealer = data["seats"][data["dealer"]]
    assert dealer["draw"] == rnd["wall"][107 - 39]


LAYOUT = {"scheme": "tenhou"}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("nope", "'round' must be Mapping"),
        ([], "'round' must be Mapping"),
        ({"wall": [1, 2], "hands": [[1] * 13] * 4, "layout": LAYOUT, "dealer": 0}, "136 tile ids"),
        ({"wall": list(range(136)), "hands": [[1] * 13] * 4, "dealer": 0}, "its layout"),
        ({"wall": list(range(136)), "hands": [[1] * 13], "layout": LAYOUT}, "3 or 4 dealt hands"),
        (
            {"wall": list(range(136)), "hands": [[i] * 13 for i in range(4)], "layout": LAYOUT},
            "dealer's seat",
        ),
    ],
    ids=["not-json", "list", "short", "no-layout", "few-hands", "no-dealer"],
)
def test_round_hands_bad_input(value: Any, words: str) -> None:
    assert words in error_of("hands", value)


# --- audit ------------------------------------------------------------------------------


def bot_reports(count: int) -> list[dict[str, Any]]:
    logs = sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))[:count]
    return [detailed(p) for p in logs]


def test_audit_matches_the_cli_audit_of_the_same_games() -> None:
    from pywall.audits.tally import AuditTally
    from pywall.audits.verdicts import audit_result
    from pywall.results.check import check_data

    logs = sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))[:6]
    reports = [detailed(p) for p in logs]
    reports.append(dict(reports[0], path="copy.txt"))  # the same game again
    reports.append(detailed(SANMA))
    broken = json.loads(api.handle("verify", '{"name": "bad.xml"}', b"<mjloggm"))["files"][0]
    reports.append(broken)
    data = call("audit", reports)
    tally = AuditTally()
    for p in [*logs, SANMA]:
        tally.add(check_data(p.name, p.read_bytes(), starting=True).record)
    expected = audit_result(tally).to_dict()
    assert data["overall"] == expected["overall"]
    assert data["players"] == expected["players"] and data["platforms"] == expected["platforms"]
    assert data["explanation"] == expected["explanation"]
    assert data["games"]["used"] == tally.games == 6  # 3.txt and 4.txt are one game
    assert data["games"]["hands"] == tally.hands
    kinds = {e["path"]: e["kind"] for e in data["games"]["excluded"]}
    assert kinds == {"4.txt": "duplicate", "copy.txt": "duplicate", "bad.xml": "error"}
    assert all(e["reason"] for e in data["games"]["excluded"])


def test_audit_sends_big_counts_as_text() -> None:
    data = call("audit", bot_reports(1))
    fair = data["fair"]["4p14"]
    assert fair["counts"]["3"] == "1867404976243926528"  # docs/shanten.md, above 2**53
    assert int(fair["total"]) == sum(int(c) for c in fair["counts"].values())
    assert abs(sum(fair["probability"].values()) - 1) < 1e-12
    assert data["alpha"] == 0.001


def test_audit_without_verified_games_explains() -> None:
    report = bot_reports(1)[0]
    report["status"] = "mismatch"
    data = call(
        "audit",
        [
            report,
            {
                "path": "x",
                "status": "verified",
                "game": {"player_count": 4},
                "rounds": [{"index": 0}],
            },
        ],
    )
    assert data["error"]["code"] == "no_games"
    assert [e["kind"] for e in data["games"]["excluded"]] == ["mismatch", "no_hands"]


@pytest.mark.parametrize(
    "value",
    ["{", 3, [1, 2], [{"status": "verified"}]],
    ids=["not-list", "number", "not-reports", "no-game"],
)
def test_audit_bad_input(value: Any) -> None:
    data = call("audit", value)
    assert "error" in data and data["error"]["message"]


def test_worker_glue_answers_through_handle() -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "web" / "workers" / "worker_py.py"
    spec = importlib.util.spec_from_file_location("pywall_worker_glue", path)
    assert spec and spec.loader
    glue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(glue)
    assert (
        json.loads(glue.start())["limits"]["log_bytes"] > 0
    )  # what worker.mjs calls once Python is up
    assert (
        json.loads(glue.handle("shanten", json.dumps({"hand": "123m456p789s1111z"})))["shanten"][
            "minimum"
        ]
        == 1
    )
    assert json.loads(glue.handle("verify_any", "{}"))["error"]["code"] == "bad_request"
    assert json.loads(glue.handle("shanten", "[1]"))["error"]["code"] == "bad_request"
    assert (
        json.loads(glue.handle("shanten", json.dumps({"nope": 1})))["error"]["code"]
        == "bad_request"
    )
    assert json.loads(glue.handle("sniff", "{}", b"SQLite format 3\x00"))["kind"] == "sqlite"


def test_worker_glue_warms_the_archive_path_and_leaves_nothing(tmp_path: Path) -> None:
    """worker.mjs's warm-up in WebKit: the archive requests run on made-up games that
    verify, then the run, its tally and the zip are gone."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "web" / "workers" / "worker_py.py"
    spec = importlib.util.spec_from_file_location("pywall_worker_glue_warm", path)
    assert spec and spec.loader
    glue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(glue)
    assert json.loads(glue.warm_archive(str(tmp_path))) == {"games": glue.WARM_GAMES}
    assert glue._API.runs == {} and glue._API.tallies == {}


def _worker_glue(name: str) -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "web" / "workers" / "worker_py.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    glue = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(glue)
    return glue


def test_worker_glue_warms_the_archive_path_a_step_at_a_time(tmp_path: Path) -> None:
    """worker.mjs runs the archive warm-up a step a turn: the run opened, then a game a step,
    then nothing left (the run, its tally and the zip gone)."""
    glue = _worker_glue("pywall_worker_glue_steps")
    steps = 1
    while glue.warm_archive_step(str(tmp_path)):
        steps += 1
        assert list(glue._API.runs) == ["warm-up"] and (tmp_path / "pywall-warm-up.zip").exists()
    assert steps == 1 + glue.WARM_GAMES
    assert glue._API.runs == {} and glue._API.tallies == {} and not list(tmp_path.iterdir())
    assert glue.warm_archive_step(str(tmp_path)) is True  # a new warm-up starts again
    glue.warm_archive_stop()


@pytest.mark.parametrize("steps", [1, 2], ids=["opened", "one-game"])
def test_worker_glue_warm_up_stopped_between_steps_leaves_nothing(
    tmp_path: Path, steps: int
) -> None:
    """A request came: worker.mjs stops the warm-up between two steps, and nothing is kept."""
    glue = _worker_glue(f"pywall_worker_glue_stop_{steps}")
    for _ in range(steps):
        assert glue.warm_archive_step(str(tmp_path)) is True
    glue.warm_archive_stop()
    assert glue._API.runs == {} and glue._API.tallies == {} and not list(tmp_path.iterdir())
    glue.warm_archive_stop()  # twice: nothing to do
    assert list(tmp_path.iterdir()) == []


def test_audit_export_is_what_the_cli_prints_for_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's "Export audit": its JSON text is ``pywall audit --json`` of the same files
    (same keys, same numbers) and its HTML is ``pywall audit --html`` with the chosen player first
    (the CLI run in this process, from the files' folder)."""
    import shutil

    from pywall.cli import main

    logs = sorted((TENHOU / "tenhou-python-bot").glob("*.txt"), key=lambda p: int(p.stem))[:6]
    for p in logs:
        shutil.copy(p, tmp_path / p.name)
    reports = [detailed(p) for p in logs]
    out = api.handle("audit_export", json.dumps({"reports": reports, "lang": "ja"}))
    export = json.loads(out)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    code = main(["audit", "--json", "--html", "a.html", "--lang", "ja", *(p.name for p in logs)])
    cli = capsys.readouterr()
    assert code == 0, cli.err
    assert json.loads(export["json"]) == json.loads(cli.out)
    assert export["html"] == (tmp_path / "a.html").read_text(encoding="utf-8")
    name = json.loads(export["json"])["players"][0]["label"]
    mine = json.loads(
        api.handle("audit_export", json.dumps({"reports": reports, "lang": "en", "player": name}))
    )
    assert f"<h2>You ({name})</h2>" in mine["html"]
    none = json.loads(api.handle("audit_export", json.dumps({"reports": []})))
    assert none["error"]["message"] == "no verified game to audit"


def test_audit_export_is_the_clis_text_byte_for_byte_with_bidi_and_controls_in_names(
    tmp_path: Path,
) -> None:
    """A name holding a right-to-left override and a C1 control: the page's exported JSON
    text is exactly what ``pywall audit --json`` prints, both writing them as ``\\u``
    escapes (json_value.json_text), which read back as the name."""
    import subprocess
    import sys

    name = "Mpeace\u202e\x85"
    log = (TENHOU / "dnovikoff" / "example.xml").read_text(encoding="utf-8")
    encoded = "".join(f"%{b:02X}" for b in name.encode())
    changed = log.replace('n0="%4D%70%65%61%63%65"', f'n0="{encoded}"', 1)
    assert changed != log
    path = tmp_path / "named.xml"
    path.write_text(changed, encoding="utf-8")
    export = json.loads(api.handle("audit_export", json.dumps({"reports": [detailed(path)]})))
    cli = subprocess.run(
        [sys.executable, "-m", "pywall", "audit", "--json", path.name],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        check=True,
    )
    assert export["json"] == cli.stdout
    assert "\\u202e\\u0085" in cli.stdout and "\u202e" not in cli.stdout
    assert name in [g["label"] for g in json.loads(cli.stdout)["players"]]
