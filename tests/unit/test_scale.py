"""The audit on a real Dask cluster (``distributed.LocalCluster``, two worker processes)
gives the JSON ``pywall audit --jobs 2`` gives, to the last digit; its shards cut files,
zip members and a phoenix-logs database's rows in input order."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

import pywall
import pywall.scale
import pywall.scale.shards as shards_module
from benchmarks import bench_archive
from pywall.cli import main
from pywall.cli.audit import excluded_summary
from pywall.inputs import iter_packed_inputs
from pywall.run.items import record_for
from pywall.scale import audit_on_dask, plan_shards, shard_records
from tests.helpers import DATA, TENHOU, fixture_paths

ROOT = Path(__file__).resolve().parents[2]
#: The 1,000-game phoenix-logs database the CLI and Dask audit alike: copies of the fixture
#: logs (about 50 games) under new ids (bench_archive.py; built in a second into build/bench/,
#: reused), so every shard (8 by default on 2 workers, 125 rows each, seeking by the rows'
#: marks every 16) holds repeats of games in other shards. (It was 4,000 games: three audits
#: of them were a quarter of the unit tests' CPU, and no assertion here depends on the size.
#: bench_dask.py compares them on 4,000 distinct simulated games, which take minutes to make.)
GAMES = 1000


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as connected,  # type: ignore[no-untyped-call]
    ):
        yield connected


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A phoenix-logs database of 150 rows: copies of the fixture logs (repeats included)."""
    db = tmp_path_factory.mktemp("db") / "copies.db"
    bench_archive.build(db, 150)
    return db


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("zip") / "logs.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for p in fixture_paths()[:12]:
            zf.writestr(p.name, p.read_bytes())
        zf.writestr("notes/readme.txt", "not a log")
    return path


def cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["audit", "--json", "--jobs", "2", *args]) == 0
    return capsys.readouterr().out


def dumped(result: pywall.AuditResult) -> str:
    """The result as the CLI prints it."""
    return json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"


def test_shards_cut_rows_and_members_in_input_order(copies: Path, archive: Path) -> None:
    sources = [str(TENHOU / "jim137"), str(archive), str(copies), str(DATA / "riichicity")]
    plan = plan_shards(sources, 9)
    assert 8 <= len(plan) <= 10
    rows = [p for s in plan for p in s.pieces if p.label == str(copies)]
    assert len(rows) > 3 and all(p.survey is not None for p in rows)
    assert [p.start for p in rows] == [
        0,
        *(sum(p.count or 0 for p in rows[:i]) for i in range(1, len(rows))),
    ]
    assert sum(p.games for p in rows) == 150
    names = [r.path for s in plan for r in shard_records(s).records]
    assert names == [name for name, _ in iter_packed_inputs(sources, [])]


def test_dask_gives_the_cli_json_on_every_kind_of_input(
    client: Client, copies: Path, archive: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = [
        str(TENHOU),
        str(archive),
        str(copies),
        str(DATA / "majsoul"),
        str(tmp_path / "gone"),
    ]
    on_dask = audit_on_dask(sources, client, shards=7)
    assert dumped(on_dask) == cli_json(sources, capsys)
    # a game in two shards (the database repeats the fixtures) counts once, as in one run
    assert on_dask.games == pywall.audit(sources).games
    by_bytes = [p.read_bytes() for p in fixture_paths()[:5]] + [b"junk"]
    assert audit_on_dask(by_bytes, client).to_dict() == pywall.audit(by_bytes).to_dict()
    with pytest.raises(pywall.PywallError, match="shards must be at least 1"):
        audit_on_dask(sources, client, shards=0)
    with pytest.raises(pywall.PywallError, match="no verified game"):
        audit_on_dask([b"junk"], client)


def test_dask_on_a_1000_game_database_is_the_cli_run(
    client: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ROOT / "build" / "bench" / f"phoenix-{GAMES}.db"
    bench_archive.build(db, GAMES)
    expected = cli_json([str(db)], capsys)
    on_dask = audit_on_dask([db], client)
    assert on_dask.games + len(on_dask.excluded) == GAMES
    assert sum(e.kind == "duplicate" for e in on_dask.excluded) > GAMES - 100
    assert dumped(on_dask) == expected
    assert dumped(pywall.audit([db], jobs=2)) == expected


def logs_zip(path: Path, members: int) -> Path:
    """A zip of ``members`` distinct fixture logs (each a game of its own)."""
    with zipfile.ZipFile(path, "w") as zf:
        for p in fixture_paths()[:members]:
            zf.writestr(p.name, p.read_bytes())
    return path


def test_a_zip_that_shrinks_after_planning_has_every_planned_game_accounted_for(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 members when the shards are planned, 5 when the workers read them: the 35
    missing games are left out, each naming the file, its game and the shard's range."""
    archive = logs_zip(tmp_path / "logs.zip", 40)
    plan = pywall.scale.plan_shards

    def plan_then_shrink(sources: list[str], shards: int) -> list[pywall.scale.Shard]:
        planned = plan(sources, shards)
        logs_zip(archive, 5)
        return planned

    monkeypatch.setattr(pywall.scale, "plan_shards", plan_then_shrink)
    result = audit_on_dask([archive], client, shards=4)
    assert result.games + len(result.excluded) == 40
    changed = [e for e in result.excluded if e.kind == "changed"]
    assert len(changed) == 35
    assert {e.reason_code for e in changed} == {"missing_game"}
    sixth = next(e for e in changed if e.reason_data["game"] == 6)
    assert sixth.path == f"{archive}, game 6 of 40"
    assert sixth.reason == (
        f"{archive} changed during the audit: it held 40 games when the shards were "
        "planned, and game 6 (of games 1 to 10, one shard's share) is not there now"
    )
    assert sixth.reason_data == {
        "file": str(archive),
        "game": 6,
        "games": 40,
        "first": 1,
        "last": 10,
    }
    assert excluded_summary(result.tally).startswith("35 in a file that changed during the audit")


def test_a_file_that_grows_after_planning_says_its_later_games_were_not_read(
    tmp_path: Path,
) -> None:
    """A one-log zip planned whole, three logs when read: the planned game counts, and one
    exclusion says the games after it were not read."""
    archive = logs_zip(tmp_path / "one.zip", 1)
    (shard,) = plan_shards([str(archive)], 1)
    logs_zip(archive, 3)
    records = shard_records(shard).records
    assert [r.problem is None for r in records] == [True, False]
    assert records[1].path == str(archive)
    assert records[1].problem == (
        "changed",
        (
            f"{archive} changed during the audit: it holds more than the 1 game planned, "
            "and the games after game 1 were not read"
        ),
        "more_games",
        {"file": str(archive), "games": 1},
    )


def test_a_shard_that_raises_is_an_error_naming_the_shard_and_its_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker whose check of a game raises: the audit stops with a ``ShardError`` (a
    ``PywallError``) naming the shard, what it raised and its inputs, file and range."""
    archive = logs_zip(tmp_path / "logs.zip", 12)
    log = fixture_paths()[20]
    real = record_for

    def failing(item: tuple[str, object]) -> object:
        if item[0].endswith(fixture_paths()[7].name):
            raise RuntimeError("the worker ran out of something")
        return real(item)  # type: ignore[arg-type]

    monkeypatch.setattr(shards_module, "record_for", failing)
    with (  # in-process workers: they run the patched check
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1,
            threads_per_worker=1,
            processes=False,
            dashboard_address="127.0.0.1:0",  # any free port: 8787 may be another's
        ) as cluster,
        Client(cluster) as in_process,  # type: ignore[no-untyped-call]
        pytest.raises(pywall.scale.ShardError) as raised,
    ):
        audit_on_dask([archive, log], in_process, shards=3)
    error = raised.value
    assert isinstance(error, pywall.PywallError)
    assert error.message == (
        "shard 2 of 3 failed on its worker (RuntimeError: the worker ran out of something); "
        f"its inputs: {archive} games 6 to 10 of 12"
    )
    assert error.inputs == (f"{archive} games 6 to 10 of 12",)
