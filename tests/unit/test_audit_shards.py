"""An audit in parts: ``pywall audit --save-tally`` and ``--merge`` give what one run gives,
and a saved part that is not right is refused (exit 2), never merged."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from pywall.audits import parts as audit_shards
from pywall.audits.parts import (
    FORMAT,
    VERSION,
    ShardTally,
    merged_tally,
    part_dict,
    part_from_json,
    part_game,
)
from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import audit_dict
from pywall.cli import main
from pywall.core.errors import ValueInputError
from pywall.results.check import check_entry
from pywall.run.parts import verified_part
from tests.helpers import DATA, TENHOU, fixture_paths


def audit_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["audit", "--json", *args]) == 0
    return capsys.readouterr().out


def save(path: Path, inputs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["audit", "--json", "--save-tally", str(path), *inputs]) == 0
    assert "saved the tally of" in capsys.readouterr().err


def parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, list[str]]:
    """Two saved parts of the fixtures, the second holding games of the first again."""
    paths = [str(p) for p in fixture_paths()]
    first, second = paths[:25], paths[25:] + [str(TENHOU / "jim137"), str(DATA / "majsoul")]
    save(tmp_path / "a.json", first, capsys)
    save(tmp_path / "b.json", second, capsys)
    return tmp_path / "a.json", tmp_path / "b.json", first + second


def test_the_merge_of_parts_is_one_run_over_their_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, inputs = parts(tmp_path, capsys)
    whole = audit_json(inputs, capsys)
    merged = audit_json(["--merge", str(a), str(b)], capsys)
    assert merged == whole  # the very text, to the last digit
    doc = json.loads(whole)
    repeats = [e for e in doc["games"]["excluded"] if e["kind"] == "duplicate"]
    assert len(repeats) >= 4  # jim137's games are in both parts: each counted once
    # the other order is the run in the other order (the repeat is then the other copy)
    assert audit_json(["--merge", str(b), str(a)], capsys) == audit_json(
        inputs[25:] + inputs[:25], capsys
    )
    capsys.readouterr()
    assert main(["audit", "--merge", str(a), str(b)]) == 0
    assert capsys.readouterr().out.startswith("Audit of ")


def test_parts_with_games_in_common_merge_as_one_run() -> None:
    """A game in both parts counts once, whether the parts' records are re-added in order
    (``merged_tally``) or their tallies merged (``AuditTally.merge`` keeps each game's
    copies, docs/audit.md), and both equal one run over every input."""
    items = [(str(p), p.read_bytes()) for p in fixture_paths()]
    records = [check_entry(n, c, starting=True).record for n, c in items]
    first, second = ShardTally(tuple(records[:30])), ShardTally(tuple(records[20:]))
    merged = merged_tally([first, second])
    added = first.tally()
    added.merge(second.tally())
    assert merged.games == added.games == 53
    assert audit_dict(added)["games"]["used"] == audit_dict(merged)["games"]["used"] == 53
    whole = AuditTally()
    for record in records[:30] + records[20:]:
        whole.add(record)
    assert merged.to_dict() == whole.to_dict()


def saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict[str, object]]:
    path = tmp_path / "part.json"
    save(path, [str(p) for p in fixture_paths()[:6]], capsys)
    return path, json.loads(path.read_text())


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["audit", "--merge", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing merged, nothing printed
    return err


def test_a_part_of_another_format_version_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, doc = saved(tmp_path, capsys)
    doc["version"] = 1  # a part saved before its games carried their logs
    other = tmp_path / "v1.json"
    other.write_text(json.dumps(doc))
    err = refused([str(path), str(other)], capsys)
    assert "format version 1" in err and "reads version 2 only: refused" in err
    assert "Save the part again with this version" in err


def test_a_part_whose_counts_do_not_add_up_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, doc = saved(tmp_path, capsys)
    tally = doc["tally"]
    assert isinstance(tally, dict)
    tally["games"] += 1
    path.write_text(json.dumps(doc))
    err = refused([str(path)], capsys)
    assert "its counts do not add up: its tally says 7 games" in err
    assert "its 6 records give 6 games" in err and err.rstrip().endswith("refused")


def test_a_part_with_a_record_or_tally_altered_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, doc = saved(tmp_path, capsys)
    games = doc["games"]
    assert isinstance(games, list)
    games[0]["record"]["starting"][0][2] = 6  # a starting hand made worse
    path.write_text(json.dumps(doc))
    err = refused([str(path)], capsys)
    assert f"{path}: game 1 ({games[0]['path']}): its stated record is not what its log" in err
    assert "(differing: starting)" in err


def test_an_oversized_part_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:  # sparse: no disk used
        f.truncate(audit_shards.MAX_DOCUMENT_BYTES + 1)
    err = refused([str(big)], capsys)
    assert f"over {audit_shards.MAX_DOCUMENT_BYTES:,} bytes" in err and "refused" in err
    with pytest.raises(ValueInputError, match="over the 10 a saved tally may have"):
        old = audit_shards.MAX_DOCUMENT_BYTES
        try:
            audit_shards.MAX_DOCUMENT_BYTES = 10
            part_from_json(b"{" + b" " * 20 + b"}", "x")
        finally:
            audit_shards.MAX_DOCUMENT_BYTES = old


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "not JSON"),
        (b'{"format": "something else"}', "not a saved audit tally"),
        (json.dumps({"format": FORMAT, "version": VERSION}).encode(), "without its games"),
        (
            json.dumps({"format": FORMAT, "version": VERSION, "games": [3], "tally": {}}).encode(),
            "game 1 is not a game's record",
        ),
    ],
    ids=["text", "deep", "other-json", "no-games", "bad-game"],
)
def test_what_is_no_saved_part_is_refused(
    content: bytes, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert words in refused([str(path)], capsys)


def test_a_missing_part_and_a_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "cannot read it" in refused([str(tmp_path / "none.json")], capsys)
    assert "refused" in refused([str(tmp_path)], capsys)


def test_a_part_without_a_verified_game_is_saved_and_merges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.xml"
    junk.write_text("not a log")
    empty = tmp_path / "empty.json"
    capsys.readouterr()
    assert main(["audit", "--save-tally", str(empty), str(junk)]) == 0
    assert "saved the tally of 1 game to" in capsys.readouterr().err
    assert main(["audit", "--merge", str(empty)]) == 2  # as the run over junk.xml alone
    out, err = capsys.readouterr()
    assert "junk.xml: error" in out and "no verified game to audit" in err
    full = tmp_path / "full.json"
    save(full, [str(fixture_paths()[0])], capsys)
    doc = json.loads(audit_json(["--merge", str(empty), str(full)], capsys))
    assert doc == json.loads(audit_json([str(junk), str(fixture_paths()[0])], capsys))
    assert doc["games"]["excluded"][0]["path"] == str(junk)


def test_save_tally_to_a_folder_that_does_not_exist_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    target = tmp_path / "no" / "such" / "part.json"
    assert main(["audit", "--save-tally", str(target), str(fixture_paths()[0])]) == 2
    assert "cannot write the tally" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.tmp"))


def test_merge_and_save_tally_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["audit", "--merge", "--save-tally", "x.json", "y.json"])
    assert exc.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


GARBAGE = [None, 3, "x", [], {}, [[1, 2]], {"rounds": 5}, [None] * 4, -1, 1e308, True]


@pytest.mark.parametrize(
    "field", ["path", "problem", "fingerprint", "players", "names", "starting", "draws", "walls"]
)
def test_a_part_with_a_record_of_the_wrong_shape_is_refused_in_words(field: str) -> None:
    """Whatever a record's field holds, checking the part raises ``ValueInputError`` naming
    the part and the game, never another error, and never merges it."""
    games = [
        part_game(check_entry(str(p), p.read_bytes(), starting=True).record, p.read_bytes())
        for p in fixture_paths()[:2]
    ]
    doc = part_dict(games)
    for junk in GARBAGE:
        entry = json.loads(json.dumps(doc))
        if entry["games"][0]["record"][field] == junk:
            continue  # the honest value (a verified game's problem is null)
        entry["games"][0]["record"][field] = junk
        with pytest.raises(ValueInputError) as exc:
            verified_part(part_from_json(json.dumps(entry).encode(), "part.json"), 1)
        assert exc.value.message.startswith("part.json: game 1 (")
        assert exc.value.message.endswith("refused")


# --- forged parts (issue 43): each refused, naming the part and the game --------------------

HER = "Xenia"  # a player with 11 games among the fixtures


def reforged(doc: dict[str, Any], games: list[dict[str, Any]]) -> dict[str, Any]:
    """``doc`` with ``games``, everything a forger can recompute made to match: each
    record's digest (where a part has them) and the tally the records add up to."""
    for entry in games:
        if "digest" in entry:
            text = json.dumps(
                entry["record"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
            entry["digest"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    records = tuple(GameRecord.from_dict(e["record"]) for e in games)
    doc = {
        **doc,
        "games": games,
        "tally": json.loads(json.dumps(ShardTally(records).tally().to_dict())),
    }
    return doc


@pytest.fixture(scope="module")
def honest_part(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The text of every fixture's part, saved once for the module's forgeries."""
    path = tmp_path_factory.mktemp("honest") / "honest.json"
    with (
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()) as err,
    ):
        assert main(["audit", "--json", "--save-tally", str(path), *map(str, fixture_paths())]) == 0
    assert "saved the tally of" in err.getvalue()
    return path.read_text()


def whole_part(honest_part: str) -> dict[str, Any]:
    """A copy of every fixture's part, for a test to forge."""
    doc: dict[str, Any] = json.loads(honest_part)
    return doc


def hers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        json.loads(json.dumps(e))
        for e in doc["games"]
        if e["record"]["problem"] is None and HER in e["record"]["names"]
    ]


def merge_refused(doc: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    capsys.readouterr()
    code = main(["audit", "--merge", str(forged)])
    out, err = capsys.readouterr()
    assert code == 2, f"a forged part was merged: {out[:300]}"
    assert out == ""
    assert str(forged) in err and err.rstrip().endswith("refused")
    return err


def test_her_games_again_with_her_effective_draws_halved_are_refused(
    honest_part: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's first forgery: her 11 games re-added under paths that sort first, her
    effective draws halved, so that they count and her honest files read as repeats."""
    doc = whole_part(honest_part)
    again = hers(doc)
    assert len(again) == 11
    for entry in again:
        record = entry["record"]
        record["path"] = entry["path"] = "!" + record["path"]
        seat = record["names"].index(HER)
        for row in record["draws"]["seats"]:
            if row[0] == seat:
                row[2][1] //= 2  # the effective draws' hits
    err = merge_refused(reforged(doc, again + doc["games"]), tmp_path, capsys)
    assert "game 1 (!" in err and "not what its log gives" in err and "draws" in err


def test_forty_games_that_never_existed_are_refused(
    honest_part: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's second forgery: 40 games made up (new fingerprints, new paths), with the
    logs of real games, or with no log at all."""
    doc = whole_part(honest_part)
    real = [e for e in doc["games"] if e["record"]["problem"] is None]
    made_up = []
    for i in range(40):
        entry = json.loads(json.dumps(real[i % len(real)]))
        entry["path"] = entry["record"]["path"] = f"/never/{i:02}.xml"
        entry["record"]["fingerprint"] = f"{i:032x}"
        made_up.append(entry)
    err = merge_refused(reforged(doc, doc["games"] + made_up), tmp_path, capsys)
    n = len(doc["games"]) + 1
    assert f"game {n} (/never/00.xml)" in err and "fingerprint" in err
    for entry in made_up:
        entry.pop("log", None)
    err = merge_refused(reforged(doc, doc["games"] + made_up), tmp_path, capsys)
    assert f"game {n} (/never/00.xml) carries neither its log" in err


def test_her_games_made_conflicting_copies_are_refused(
    honest_part: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's third forgery: a copy of each of her games that differs from it, so
    that none of hers counts ("conflicting copies")."""
    doc = whole_part(honest_part)
    copies = hers(doc)
    for entry in copies:
        entry["path"] = entry["record"]["path"] = entry["record"]["path"] + ".copy"
        entry["record"]["copy"][0] = entry["record"]["copy"][0][::-1]  # another copy key
    err = merge_refused(reforged(doc, doc["games"] + copies), tmp_path, capsys)
    assert f"game {len(doc['games']) + 1} (" in err and "copy" in err


def test_a_part_of_a_database_is_checked_again_in_worker_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """150 rows of a phoenix-logs database (packed rows, unpacked in the workers): saved
    and merged with ``--jobs 2`` (more games than one batch: the pool's processes), the
    merge is the run; a row's log altered is refused naming it."""
    from benchmarks import bench_archive

    db = tmp_path / "copies.db"
    bench_archive.build(db, 150)
    part = tmp_path / "db.json"
    capsys.readouterr()
    assert main(["audit", "--json", "--jobs", "2", "--save-tally", str(part), str(db)]) == 0
    whole = capsys.readouterr().out
    assert audit_json(["--jobs", "2", "--merge", str(part)], capsys) == whole
    doc = json.loads(part.read_text())
    entry = doc["games"][100]
    log = zlib.decompress(base64.b64decode(entry["log"]))
    entry["log"] = base64.b64encode(zlib.compress(log.replace(b'who="1"', b'who="2"', 1))).decode()
    part.write_text(json.dumps(doc))
    err = refused(["--jobs", "2", str(part)], capsys)
    assert f"game 101 ({entry['path']}): its stated record is not what its log gives" in err


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("sums", 1.7e308),
        ("hits", -5),
        ("n", 10**310),
        ("wall", "A" * 10_064),
        ("games", 10**310),
        ("games", -1),
        ("excluded", [[None] * 5] * 3),
    ],
    ids=["sums-1e308", "negative-hits", "huge-n", "long-wall", "huge-games", "minus-games", "junk"],
)
def test_crafted_values_in_a_part_are_refused_in_words(
    where: str, value: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A part's record or tally with a value out of range is refused in words naming the
    part (a stated record is never counted: it must be the one its log gives; the page's
    records are checked field by field, tests/unit/test_audit_records.py)."""
    path, doc = saved(tmp_path, capsys)
    games = doc["games"]
    tally = doc["tally"]
    assert isinstance(games, list) and isinstance(tally, dict)
    record = next(g["record"] for g in games if g["record"]["problem"] is None)
    seat = record["draws"]["seats"][0]
    if where == "sums":
        seat[2][2] = seat[2][3] = value
    elif where == "hits":
        seat[2][1] = value
    elif where == "n":
        seat[2][0] = value
    elif where == "wall":
        record["walls"]["rounds"][0][1] = value
    else:
        tally[where] = value
    path.write_text(json.dumps(doc))
    err = refused([str(path)], capsys)
    assert "Traceback" not in err and str(path) in err and err.rstrip().endswith("refused")
    assert len(err) < 1000


def test_a_game_that_could_not_be_read_is_saved_with_its_reason_and_checked_again() -> None:
    """A game whose bytes could not be read (too large, say) carries no log, only its
    reason ([code, message]): merged, it is the same exclusion; its reason altered, refused."""
    from pywall.core.errors import InputTooLargeError
    from pywall.run.items import record_for

    error = InputTooLargeError("the file is over 16,777,216 bytes; pywall reads less")
    path = fixture_paths()[0]
    games = [
        part_game(record_for(("big.xml", error)), error),
        part_game(record_for((str(path), path.read_bytes())), path.read_bytes()),
    ]
    doc = json.loads(json.dumps(part_dict(games)))
    assert doc["games"][0]["unread"] == ["too_large", error.message]
    assert "log" not in doc["games"][0]
    shard = verified_part(part_from_json(json.dumps(doc).encode(), "p.json"), 1)
    assert [r.to_dict() for r in shard.records] == [g.record.to_dict() for g in games]
    doc["games"][0]["unread"][1] = "something else"
    with pytest.raises(ValueInputError, match=r"p\.json: game 1 \(big\.xml\): its stated record"):
        verified_part(part_from_json(json.dumps(doc).encode(), "p.json"), 1)
