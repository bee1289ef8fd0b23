"""The page's shared archive runs keep what the command keeps of a game with one copy (its
path, fingerprint, a digest of its items, its chart points), the archive read again for a
game that turns out to have another copy, and give the command's answer to the byte."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pywall.audits.tally import _size
from pywall.cli import main
from pywall.page import api
from pywall.page.runs import SharedRunTally
from tests.helpers import TENHOU, log_text
from tests.unit.test_api_archives import opener
from tests.unit.test_audit_copies import REAL, cut, swapped

CROWD = sorted((TENHOU / "tenhou-python-bot").iterdir())  # 38 distinct games


def zipped(path: Path, members: dict[str, bytes]) -> str:
    with zipfile.ZipFile(path, "w") as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    return str(path)


def shared_run(pool: list[api.Api], run: str, path: str, limit: int, reread: bool) -> None:
    """One archive over the pool as archive-run.mjs drives it: chunks to the workers in
    turn, their records to the first worker's tally in the archive's order (with the
    archive the first worker keeps open for it, when ``reread``)."""

    def on(k: int, kind: str, **payload: Any) -> Any:
        out = json.loads(api.handle(kind, json.dumps(payload), None, pool[k]))
        assert "error" not in out, out
        return out

    opened = on(0, "archive_open", run=f"{run}/0", label=path, path=path, records=True)
    for k in range(1, len(pool)):
        on(k, "archive_open", run=f"{run}/{k}", label=path, path=path, records=True,
           survey=opened["survey"])  # fmt: skip
    kept = {"path": path, "label": path, "survey": opened["survey"]} if reread else {}
    for i, start in enumerate(range(0, opened["total"], limit)):
        chunk = on(i % len(pool), "archive_next", run=f"{run}/{i % len(pool)}", start=start,
                   limit=limit)  # fmt: skip
        on(0, "tally_add", run=run, start=start, records=chunk["records"], **kept)
    for k in range(len(pool)):
        on(k, "archive_close", run=f"{run}/{k}")


def archives(tmp_path: Path, forged: bool) -> list[str]:
    """A game in one zip, a copy cut short in another chunk of it and (``forged``) a copy
    with two names swapped in another zip (a conflict), among other games."""
    text = log_text(REAL)
    crowd = {p.name: p.read_bytes() for p in CROWD}
    first = {"a.xml": text.encode(), **dict(list(crowd.items())[:20]), "b-cut.xml": cut(text)
             .encode(), **dict(list(crowd.items())[20:])}  # fmt: skip
    second = {"c.xml": (swapped(text) if forged else text).encode(), "d.xml": text.encode()}
    return [zipped(tmp_path / "one.zip", first), zipped(tmp_path / "two.zip", second)]


@pytest.mark.parametrize("forged", [False, True], ids=["repeats", "conflict"])
def test_a_shared_run_that_reads_copies_again_gives_the_commands_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], forged: bool
) -> None:
    paths = archives(tmp_path, forged)
    pool = [api.Api(opener), api.Api(opener)]
    for n, path in enumerate(paths):
        shared_run(pool, f"r{n}", path, 7, reread=True)
    first = pool[0].tallies["r0"].tally
    assert first.reread is not None and first.waiting  # the cut copy waits for the first
    payload = json.dumps({"runs": ["r0", "r1"], "lang": "en"})
    page = json.loads(api.handle("audit_export", payload, None, pool[0]))["json"]
    capsys.readouterr()
    assert main(["audit", "--json", "--jobs", "1", *paths]) == 0
    cli = capsys.readouterr().out
    assert page == cli
    ours = ("a.xml", "b-cut.xml", "c.xml", "d.xml")
    kinds = {e["kind"] for e in json.loads(cli)["games"]["excluded"] if e["path"].endswith(ours)}
    assert kinds == ({"conflict"} if forged else {"duplicate"})
    # asked again, the same answer (the runs' tallies are merged into a new one each time)
    assert json.loads(api.handle("audit_export", payload, None, pool[0]))["json"] == cli


def test_a_shared_run_keeps_under_a_kilobyte_a_game_with_one_copy(tmp_path: Path) -> None:
    """What the first worker's tally keeps, by its own count (``kept``, which
    test_audit_memory.py checks against the objects' real size): the command's bound."""
    path = zipped(tmp_path / "crowd.zip", {p.name: p.read_bytes() for p in CROWD})
    pool = [api.Api(opener), api.Api(opener)]
    shared_run(pool, "r", path, 7, reread=True)
    shared: SharedRunTally = pool[0].tallies["r"]
    tally = shared.tally
    tally.settle()  # the repeats read again and compared
    alone = [g for g in tally.copies.values() if len(g.copies) == 1]
    assert tally.games == len(tally.copies) and len(alone) >= 30  # a few games repeat
    assert all(g.dropped and g.record is None for g in alone)
    several = [(f, g) for f, g in tally.copies.items() if len(g.copies) > 1]
    assert (tally.kept - sum(_size(f, g) for f, g in several)) / len(alone) < 1024


def test_a_game_read_again_that_changed_is_refused_with_its_path(tmp_path: Path) -> None:
    text = log_text(REAL)
    path = zipped(tmp_path / "x.zip", {"a.xml": text.encode(), "b.xml": cut(text).encode()})
    pool = [api.Api(opener)]
    shared_run(pool, "r", path, 1, reread=True)
    zipped(tmp_path / "x.zip", {"a.xml": swapped(text).encode(), "b.xml": b""})
    out = json.loads(api.handle("audit", json.dumps({"runs": ["r"]}), None, pool[0]))
    assert out["error"]["code"] == "bad_value"
    assert "x.zip/a.xml" in out["error"]["message"] and "changed" in out["error"]["message"]
