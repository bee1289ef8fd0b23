"""Many players: the audit lists at most ``MAX_PLAYERS_LISTED`` named players (the others
count in every total and in ``players_not_listed``), in the CLI and the page's ``audit``
request; beyond what the audit may keep, a message and exit 2, never a traceback."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from benchmarks.sim_logs import many_players_game
from pywall.audits import tally as audit_tally
from pywall.audits.verdicts import MAX_PLAYERS_LISTED
from pywall.cli import main
from pywall.inputs.sources import ArchiveSource
from pywall.page import api
from tests.helpers import TENHOU

GAMES = MAX_PLAYERS_LISTED // 4 + 10  # one round each, four new names each: 40 names too many


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("players") / "players.zip"
    with zipfile.ZipFile(path, "w") as z:
        for i in range(GAMES):
            z.writestr(f"g{i:04d}.xml", many_players_game(i))
    return path


def check_listing(doc: dict[str, Any]) -> None:
    games, players = doc["games"], doc["players"]
    assert games["used"] == GAMES and games["hands"] == 4 * GAMES
    assert len(players) == MAX_PLAYERS_LISTED and games["players_not_listed"] == 4 * GAMES - 1000
    assert all(p["hands"] == 1 for p in players)  # every name plays one hand
    assert sum(p["hands"] for p in players) + games["players_not_listed"] == games["hands"]
    assert [p["label"] for p in players] == sorted(p["label"] for p in players)


def test_the_cli_lists_players_up_to_the_limit_and_counts_the_rest(
    archive: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "--json", "--jobs", "2", str(archive)]) == 0
    cli = json.loads(capsys.readouterr().out)
    check_listing(cli)
    assert main(["audit", "--min-hands", "1", str(archive)]) == 0
    out = capsys.readouterr().out
    assert "(40 players not listed, even in --json: the audit lists the 1,000 with the most" in out


def test_the_pages_audit_request_lists_what_the_cli_lists(
    archive: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    worker = api.Api(lambda path, label: ArchiveSource(Path(path), label))

    def ask(kind: str, **payload: Any) -> Any:
        return json.loads(api.handle(kind, json.dumps(payload), None, worker))

    assert ask("archive_open", run="r", path=str(archive), label=archive.name)["total"] == GAMES
    while not ask("archive_next", run="r", limit=100)["done"]:
        pass
    page = ask("audit", runs=["r"])
    check_listing(page)
    assert main(["audit", "--json", str(archive)]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert [p["label"] for p in page["players"]] == [p["label"] for p in cli["players"]]
    assert page["overall"]["draws"] == cli["overall"]["draws"]


def test_beyond_what_the_audit_may_keep_it_says_so_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(audit_tally, "MAX_AUDIT_KEPT", 20_000)  # a few games' worth
    assert main(["audit", "--jobs", "1", str(TENHOU / "tenhou-python-bot")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.startswith("pywall: the audit would keep over 0 MiB to tell copies of")
    assert "audit fewer games at a time" in captured.err
