"""An audit in parts: ``pywall audit --save-tally`` and ``--merge`` give what one run gives,
and a saved part that is not right is refused (exit 2), never merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pywall.audits import parts as audit_shards
from pywall.audits.parts import FORMAT, ShardTally, merged_tally, shard_from_json
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import audit_dict
from pywall.cli import main
from pywall.core.errors import ValueInputError
from pywall.results.check import check_entry
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
    doc["version"] = 2
    other = tmp_path / "v2.json"
    other.write_text(json.dumps(doc))
    err = refused([str(path), str(other)], capsys)
    assert "format version 2" in err and "reads version 1 only: refused" in err


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
    assert "game 1: its record does not match its digest" in refused([str(path)], capsys)
    games[0]["digest"] = audit_shards.digest_of(games[0]["record"])  # digest made to match
    path.write_text(json.dumps(doc))
    assert "its counts do not add up" in refused([str(path)], capsys)


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
            shard_from_json(b"{" + b" " * 20 + b"}", "x")
        finally:
            audit_shards.MAX_DOCUMENT_BYTES = old


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "not JSON"),
        (b'{"format": "something else"}', "not a saved audit tally"),
        (json.dumps({"format": FORMAT, "version": 1}).encode(), "without its games"),
        (
            json.dumps({"format": FORMAT, "version": 1, "games": [3], "tally": {}}).encode(),
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
    """Whatever a record's field holds, reading the part raises ``ValueInputError`` (or the
    part reads as records of games that cannot count), never another error."""
    records = [
        check_entry(str(p), p.read_bytes(), starting=True).record for p in fixture_paths()[:2]
    ]
    doc = ShardTally(tuple(records)).to_dict()
    for junk in GARBAGE:
        entry = json.loads(json.dumps(doc))
        entry["games"][0]["record"][field] = junk
        entry["games"][0]["digest"] = audit_shards.digest_of(entry["games"][0]["record"])
        try:
            shard_from_json(json.dumps(entry).encode(), "part.json")
        except ValueInputError as exc:
            assert exc.message.startswith("part.json") and exc.message.endswith("refused")
