"""Copies of one game in the audit: a copy cut short counts once, as the whole log; copies
that differ in anything else conflict and none counts; the same answer in any order, in
the CLI (``--jobs 1`` and ``2``), the tally (the API core) and the page's ``audit`` request."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from pywall.audits.copies import _item, _round_lines
from pywall.audits.records import record_of
from pywall.audits.tally import AuditTally
from pywall.cli import main
from pywall.core.model import Discard, Draw, Event, Riichi
from pywall.page import api
from pywall.results.check import check_log
from tests.helpers import TENHOU, fixture_paths, log_text

REAL = TENHOU / "dnovikoff" / "example.xml"  # four distinct names, 9 rounds
OTHER = TENHOU / "tenhou-python-bot" / "13.txt"  # another game, so an audit has one to count


def swapped(text: str) -> str:
    """The log with the names of seats 0 and 1 swapped (nothing any seed or hash covers)."""
    un = re.search(r"<UN [^>]*>", text)
    assert un is not None
    tag = un.group(0)
    n0, n1 = re.search(r'n0="([^"]*)"', tag), re.search(r'n1="([^"]*)"', tag)
    assert n0 is not None and n1 is not None and n0.group(1) != n1.group(1)
    new = tag.replace(n0.group(0), "N0").replace(n1.group(0), f'n0="{n1.group(1)}"')
    return text.replace(tag, new.replace("N0", f'n1="{n0.group(1)}"'), 1)


def cut(text: str) -> str:
    """The log cut short in the middle of its third round (as a download that stopped)."""
    third = [m.start() for m in re.finditer("<INIT", text)][2]
    return text[: [m.start() for m in re.finditer("<D", text[third:])][10] + third]


def written(tmp_path: Path, files: dict[str, str | bytes]) -> list[str]:
    out = []
    for name, content in files.items():
        path = tmp_path / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        out.append(str(path))
    return out


def audit_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["audit", "--json", *args]) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


def test_the_generated_copies_verify_as_the_same_game() -> None:
    text = log_text(REAL)
    whole, short, other = (
        check_log(n, t, starting=True)
        for n, t in [("a", text), ("b", cut(text)), ("c", swapped(text))]
    )
    assert whole.status == short.status == other.status == "verified"
    assert whole.game and short.game and other.game
    assert whole.game.fingerprint == short.game.fingerprint == other.game.fingerprint
    assert whole.copy and short.copy and other.copy
    assert whole.copy.covers(short.copy) and not short.copy.covers(whole.copy)
    assert not whole.copy.covers(other.copy) and not other.copy.covers(whole.copy)
    assert short.copy.size < whole.copy.size


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_copy_with_two_names_swapped_placed_first_does_not_replace_the_real_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    text = log_text(REAL)
    paths = written(
        tmp_path, {"forged.xml": swapped(text), "real.xml": text, "other.txt": log_text(OTHER)}
    )
    docs = [audit_json(capsys, "--jobs", jobs, *order) for order in (paths, paths[::-1])]
    assert docs[0] == docs[1]
    games = docs[0]["games"]
    assert isinstance(games, dict)
    alone = audit_json(capsys, paths[2])["games"]
    assert isinstance(alone, dict)
    assert (games["used"], games["hands"], games["draws"]) == (
        1,
        alone["hands"],
        alone["draws"],
    )
    (conflict,) = games["excluded"]
    assert games["left_out"] == {"conflict": 1}
    assert conflict["kind"] == "conflict" and conflict["path"] == paths[0]
    assert paths[0] in conflict["reason"] and paths[1] in conflict["reason"]
    assert main(["audit", "--jobs", jobs, *paths]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Audit of 1 verified game, 12 starting hands; excluded 1: 1 game with conflicting copies"
    )
    assert f"excluded {paths[0]}: conflicting copies of one game" in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_cut_copy_and_its_whole_log_give_the_same_audit_in_either_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    text = log_text(REAL)
    paths = written(tmp_path, {"a-cut.xml": cut(text), "b-whole.xml": text})
    first, second = (audit_json(capsys, "--jobs", jobs, *o) for o in (paths, paths[::-1]))
    assert first == second
    whole = audit_json(capsys, paths[1])
    games, alone = first["games"], whole["games"]
    assert isinstance(games, dict) and isinstance(alone, dict)
    assert games["used"] == 1 and games["excluded"] == [
        {"path": paths[0], "kind": "duplicate", "reason": f"repeat of {paths[1]}"}
    ]
    assert (games["hands"], games["draws"]) == (alone["hands"], alone["draws"])
    assert first["overall"] == whole["overall"]


def test_a_zip_of_logs_in_reverse_order_gives_the_same_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = log_text(REAL)
    logs = [("cut.xml", cut(text).encode()), ("forged.xml", swapped(log_text(OTHER)).encode())]
    logs += [(p.name, p.read_bytes()) for p in fixture_paths()[:8]]
    logs += [("whole.xml", text.encode()), ("other.txt", OTHER.read_bytes())]
    totals = []
    for name, order in (("forward.zip", logs), ("reverse.zip", logs[::-1])):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            for entry, data in order:
                z.writestr(entry, data)
        (tmp_path / name).write_bytes(buffer.getvalue())
        games = audit_json(capsys, "--jobs", "2", str(tmp_path / name))["games"]
        assert isinstance(games, dict)
        kinds = sorted(str(e["kind"]) for e in games["excluded"])
        totals.append((games["used"], games["hands"], games["draws"], kinds, games["left_out"]))
    assert totals[0] == totals[1]
    assert totals[0][3].count("conflict") == 1 and "duplicate" in totals[0][3]


def test_the_tally_decides_by_content_in_any_order_and_across_merges() -> None:
    from pywall.audits.records import record_of

    text = log_text(REAL)
    reports = {
        n: check_log(n, t, starting=True)
        for n, t in [("cut", cut(text)), ("whole", text), ("other", log_text(OTHER))]
    }
    answers = []
    for order in (["cut", "whole", "other"], ["other", "whole", "cut"]):
        tally = AuditTally()
        for n in order:
            tally.add(record_of(reports[n]))
        answers.append((tally.games, tally.hands, tally.draws, tally.excluded))
    # one part holds the cut copy, the other the whole log: merged either way
    for left_names, right_names in ((["cut", "other"], ["whole"]), (["whole"], ["cut", "other"])):
        left, right = AuditTally(), AuditTally()
        for n in left_names:
            left.add(record_of(reports[n]))
        for n in right_names:
            right.add(record_of(reports[n]))
        left.merge(AuditTally.from_dict(json.loads(json.dumps(right.to_dict()))))
        answers.append((left.games, left.hands, left.draws, left.excluded))
    assert all(a == answers[0] for a in answers)
    assert answers[0][0] == 2 and [e.path for e in answers[0][3]] == ["cut"]
    # a conflicting copy added after a merge: the game no longer counts
    tally = AuditTally()
    tally.add(record_of(reports["whole"]))
    forged = AuditTally()
    forged.add(record_of(check_log("forged", swapped(text), starting=True)))
    tally.merge(forged)
    assert tally.games == 0 and [e.kind for e in tally.excluded] == ["conflict"]
    assert tally.excluded[0].reason_data == {"paths": ["forged", "whole"]}


def test_the_pages_audit_request_decides_by_content_in_any_order() -> None:
    text = log_text(REAL)
    reports = [
        check_log(n, t, starting=True).to_dict()
        for n, t in [("forged.xml", swapped(text)), ("real.xml", text), ("cut.xml", cut(text))]
    ]
    reports.append(check_log("other.txt", log_text(OTHER), starting=True).to_dict())
    answers = []
    for order in (reports, reports[::-1]):
        reply = json.loads(api.handle("audit", json.dumps({"reports": order})))
        games = reply["games"]
        answers.append((games["used"], games["hands"], games["draws"]))
        conflict = [e for e in games["excluded"] if e["kind"] == "conflict"]
        assert len(conflict) == 1 and len(games["excluded"]) == 1
        assert conflict[0]["reason_data"] == {"paths": ["cut.xml", "forged.xml", "real.xml"]}
    assert answers[0] == answers[1] and answers[0][0] == 1


def test_a_copy_key_that_is_not_one_is_refused_before_anything_counts() -> None:
    import base64
    import zlib

    from pywall.audits.copies import CopyKey
    from pywall.audits.records import GameRecord, record_of
    from pywall.core.errors import ValueInputError

    good = record_of(check_log("a.xml", log_text(REAL), starting=True)).to_dict()
    head, rounds, items, stream = good["copy"]
    assert CopyKey.from_list(good["copy"], "a.xml") == GameRecord.from_dict(good).copy
    bomb = base64.b64encode(zlib.compress(b"T1,2\n" * 4_000_000, 9)).decode()  # 20 MB inside
    for bad in (
        [head, rounds, items + 1, stream],  # the stream holds another count of items
        [head, rounds, 4_000_000, bomb],  # over MAX_RECORD_BYTES once decompressed
        [head, rounds, items, stream[:-8]],  # cut: not a whole zlib stream
        [head.upper(), rounds, items, stream],
        [head, rounds, items],
    ):
        with pytest.raises(ValueInputError, match="not a game's copy key"):
            CopyKey.from_list(bad, "a.xml")
    reply = json.loads(
        api.handle(
            "tally_add",
            json.dumps({"run": "r", "start": 0, "records": [{**good, "copy": bad}]}),
        )
    )
    assert reply["error"]["code"] == "bad_value" and "record 1" in reply["error"]["message"]


def test_parts_with_no_game_in_common_are_added_not_counted_again() -> None:
    from tests.helpers import fixture_paths

    records = [
        record_of(check_log(str(p), p.read_bytes(), starting=True)) for p in fixture_paths()[:16]
    ]
    whole, left, right = AuditTally(), AuditTally(), AuditTally()
    for i, r in enumerate(records):
        whole.add(r)
        (left if i % 2 else right).add(r)
    counted = right.settle()
    merged = AuditTally()
    merged.merge(left)
    merged.merge(right)
    assert right.settle() is counted  # the part's counts were read, not made again
    assert (merged.games, merged.hands, merged.draws) == (whole.games, whole.hands, whole.draws)
    assert merged.overall.shanten == whole.overall.shanten
    assert merged.players.keys() == whole.players.keys()
    assert merged.overall.draw_sums == pytest.approx(whole.overall.draw_sums)
    assert merged.excluded == whole.excluded


@pytest.mark.parametrize(
    "events",
    [
        (Draw(0, 0), Discard(3, 135), Draw(2, 52), Riichi(2, 1), Discard(1, 16)),
        (Draw(-1, 5), Discard(0, -1), Draw(4, 10), Discard(1, 136), Draw(0, 300)),
    ],
    ids=["in the tables", "a seat or tile outside them"],
)
def test_a_rounds_lines_are_each_events_item_exactly(events: tuple[Event, ...]) -> None:
    # draws and discards are read from tables of lines; a seat or tile past them (negative
    # ones too, which a table would read from its end) is written out as any event is
    assert _round_lines(events) == [_item(e) + b"\n" for e in events]
