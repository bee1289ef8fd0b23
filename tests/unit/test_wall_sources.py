"""The wall source of each platform (pywall.checks.wall_sources) and the one loop that checks
every source's rounds (pywall.checks.verify): a Tenhou seed's walls, a record's stated walls,
what getting them finds, and where a source stops the game's rounds."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from itertools import islice
from pathlib import Path

import pytest

from pywall.checks import round_checks, verify, wall_sources
from pywall.checks.stated import limits_of
from pywall.checks.tenhou import Era, iter_walls, wall_scheme
from pywall.checks.verify import verify_game
from pywall.checks.wall_sources import (
    NO_CHECKS,
    SOURCES,
    SeededWalls,
    SourcedWall,
    StatedWalls,
    source_for,
)
from pywall.core.findings import Finding
from pywall.core.layout import WallScheme, layout_for
from pywall.core.model import Draw, Game, Platform
from pywall.formats import parse_record
from tests.helpers import DATA, TENHOU

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
JUNE_2009 = TENHOU / "legacy-2009" / "2009060321gm-00b9-0000-75b25bcf.xml"
MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RC = DATA / "riichicity" / "4ma_gin_han_sample.json"


def game_of(path: Path) -> Game:
    return parse_record(path.read_bytes(), path.name)


def sourced(items: list[SourcedWall | Finding]) -> list[SourcedWall]:
    return [i for i in items if isinstance(i, SourcedWall)]


def test_every_platform_has_a_source() -> None:
    assert set(SOURCES) == set(Platform)


@pytest.mark.parametrize(
    ("path", "kind", "stated"),
    [(LOG, SeededWalls, False), (MS, StatedWalls, True), (RC, StatedWalls, True)],
    ids=["tenhou", "majsoul", "riichicity"],
)
def test_source_of_each_platform(path: Path, kind: type, stated: bool) -> None:
    source = source_for(game_of(path))
    assert isinstance(source, kind)
    assert source.stated is stated


def test_seeded_walls_are_the_seeds() -> None:
    game = game_of(LOG)
    source = source_for(game)
    assert source.findings == () and source.era is Era.CURRENT and source.limits() == ()
    items = list(source.walls())
    walls = sourced(items)
    assert len(items) == len(walls) == len(game.rounds)
    assert [w.round for w in walls] == list(game.rounds)
    assert [w.wall for w in walls] == list(islice(iter_walls(game.seed or ""), len(walls)))
    assert {w.layout for w in walls} == {layout_for(wall_scheme(Era.CURRENT), 4)}
    assert all(source.check_wall(w) is NO_CHECKS for w in walls)


@pytest.mark.parametrize(
    ("seed", "codes"),
    [(None, ["seed_missing"]), ("mt19937ar-sha512-n288-base64,AAAA", ["bad_seed"])],
    ids=["missing", "unusable"],
)
def test_seed_problems_are_the_sources_findings(seed: str | None, codes: list[str]) -> None:
    game = dataclasses.replace(game_of(LOG), seed=seed)
    assert [f.code for f in source_for(game).findings] == codes
    result = verify_game(game)
    assert result.status == "error" and result.rounds == ()
    assert [f.code for f in result.findings] == codes


def test_a_legacy_seed_is_named_by_its_source() -> None:
    source = source_for(game_of(JUNE_2009))
    assert source.era is Era.JUNE_2009
    assert [f.code for f in source.findings] == ["legacy_seed"]
    layouts = {w.layout.scheme for w in sourced(list(source.walls()))}
    assert layouts == {WallScheme.TENHOU_EARLY_2009}


def test_a_rounds_unusable_seed_ends_the_rounds_there() -> None:
    game = game_of(JUNE_2009)
    first = game.rounds[0]  # the log's one round, then a copy whose own seed is unusable
    second = dataclasses.replace(first, index=1, shuffle="not a seed")
    game = dataclasses.replace(game, rounds=(first, second))
    items = list(source_for(game).walls())
    assert len(sourced(items)) == 1 and len(items) == 2
    last = items[-1]
    assert isinstance(last, Finding) and (last.code, last.round) == ("bad_seed", 1)
    result = verify_game(game)
    assert len(result.rounds) == 1
    assert [(f.code, f.round) for f in result.findings][-1] == ("bad_seed", 1)


@pytest.mark.parametrize("path", [MS, RC], ids=["majsoul", "riichicity"])
def test_stated_walls_are_the_records(path: Path) -> None:
    game = game_of(path)
    source = source_for(game)
    assert source.findings == () and source.era is None and source.scheme is None
    assert source.limits() == limits_of(game.rounds, game.testing_environment)
    walls = sourced(list(source.walls()))
    assert [w.wall.tiles for w in walls] == [r.wall for r in game.rounds]
    assert all(w.wall.dice is None for w in walls)
    assert [w.layout.scheme.value for w in walls] == [r.wall_scheme or "front" for r in game.rounds]
    checks = [source.check_wall(w) for w in walls]
    assert all(c.digests is not None for c in checks)
    result = verify_game(game)
    assert [r.digests for r in result.rounds] == [c.digests for c in checks]


def test_a_stated_wall_of_the_wrong_size_ends_the_rounds_there() -> None:
    game = game_of(MS)
    rounds = list(game.rounds)
    rounds[1] = dataclasses.replace(rounds[1], wall=(rounds[1].wall or ())[:-1])
    game = dataclasses.replace(game, rounds=tuple(rounds))
    items = list(source_for(game).walls())
    assert len(items) == 2
    last = items[-1]
    assert isinstance(last, Finding) and (last.code, last.round) == ("log_format", 1)
    result = verify_game(game)
    assert len(result.rounds) == 1 and result.status == "error"


def test_one_loop_checks_a_stated_wall_as_it_checks_a_seeded_one() -> None:
    """A Tenhou game restated as a record with its walls written out goes through the same
    round checks: the same rows and the same tile findings, round by round."""
    game = game_of(LOG)
    walls = sourced(list(source_for(game).walls()))
    events = list(game.rounds[0].events)
    j, draw = next((i, ev) for i, ev in enumerate(events) if isinstance(ev, Draw))
    events[j] = Draw(draw.seat, (draw.tile + 4) % 136)
    rounds = (dataclasses.replace(game.rounds[0], events=tuple(events)), *game.rounds[1:])
    seeded = verify_game(dataclasses.replace(game, rounds=rounds))
    restated = dataclasses.replace(
        game,
        platform=Platform.MAJSOUL,
        seed=None,
        rounds=tuple(
            dataclasses.replace(r, wall=w.wall.tiles, wall_scheme=w.layout.scheme.value, dice=None)
            for r, w in zip(rounds, walls, strict=True)
        ),
    )
    stated = verify_game(restated)
    assert [r.rows for r in stated.rounds] == [r.rows for r in seeded.rounds]
    tile_codes = {"deal_mismatch", "draw_mismatch", "replacement_mismatch", "dora_mismatch"}
    tiles_of = [
        [(f.code, f.message) for f in r.findings if f.code in tile_codes] for r in (seeded, stated)
    ]
    assert tiles_of[0] == tiles_of[1] != []


def test_the_loop_asks_no_platform() -> None:
    """verify_game names no platform: choosing the source is the wall sources' table."""
    tree = ast.parse(inspect.getsource(verify.verify_game))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "Platform" not in names
    assert {"source_for", "check_round", "check_budget"} <= names


@pytest.mark.parametrize("module", [verify, round_checks, wall_sources], ids=lambda m: m.__name__)
def test_verification_modules_stay_small(module: object) -> None:
    assert len(inspect.getsource(module).splitlines()) < 400  # type: ignore[arg-type]
