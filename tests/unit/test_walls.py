"""pywall.analysis.walls: the wall-position test (positions x kinds, regions, red fives)."""

from __future__ import annotations

import random
import statistics

import pytest

from pywall.analysis.walls import (
    RED_TILES,
    GameWalls,
    WallKinds,
    WallTally,
    game_walls,
    regions,
    wall_tests,
    wall_text,
)
from pywall.checks.verify import verify_game
from pywall.core.layout import WallScheme, layout_for
from pywall.formats import parse_record
from tests.helpers import DATA

FULL = {4: list(range(136)), 3: [t for t in range(136) if not 4 <= t < 32]}


def fair_tally(rng: random.Random, players: int, walls: int) -> WallTally:
    tally = WallTally(players)
    tiles = list(FULL[players])
    for k in range(walls):
        rng.shuffle(tiles)
        tally.add(WallKinds("tenhou" if k % 2 else "front", wall_text(tiles, True)))
    return tally


def test_text_keeps_kinds_and_red_fives() -> None:
    text = wall_text([0, 16, 17, 52, 88, 135], True)
    assert [ord(c) - 0x30 for c in text] == [0, 34, 4, 35, 36, 33]
    assert wall_text([16], False) == chr(0x30 + 4)


def test_regions_partition_the_wall_by_layout() -> None:
    for scheme in ("tenhou", "front", "tenhou-early-2009"):
        for players in (3, 4):
            layout = layout_for(WallScheme(scheme), players)
            found = regions(scheme, players)
            assert [found["deal"][p] for p in layout.deal[0]] == [0] * 13
            assert {found["deal"][p] for s in layout.deal[1:] for p in s} == {1}
            assert found["live"][layout.live[0]] == 0 and found["live"][layout.live[-1]] == 1
            assert {found["dead"][p] for p in layout.dead} == {0}
            assert found["dead"].count(0) == 14
            assert sorted(set(found["red_fives"])) == [0, 1, 2, 3, 4]


def test_whole_walls_only() -> None:
    """Mahjong Soul's MD5-era record states only the undealt tiles: no whole wall."""
    old = parse_record(
        (DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json").read_bytes()
    )
    result = verify_game(old)
    assert game_walls([(r.layout.scheme, r.wall) for r in result.rounds], True).rounds == ()
    new = parse_record((DATA / "riichicity" / "4ma_gin_han_sample.json").read_bytes())
    result = verify_game(new)
    walls = game_walls([(r.layout.scheme, r.wall) for r in result.rounds], True)
    assert len(walls.rounds) == len(new.rounds) == 12
    assert GameWalls.from_dict(walls.to_dict()) == walls
    reds = [sum(ord(c) - 0x30 >= 34 for c in w.text) for w in walls.rounds]
    assert reds == [sum(t in RED_TILES for t in r.wall) for r in result.rounds]


def test_tally_counts_each_position_once_per_wall() -> None:
    tally = fair_tally(random.Random(1), 4, 200)
    positions = tally.table("positions")
    assert tally.walls == 200 and sum(positions.values()) == 200 * 136
    assert all(sum(positions[p * 34 + k] for k in range(34)) == 200 for p in range(136))
    assert all(sum(positions[p * 34 + k] for p in range(136)) == 800 for k in range(34))
    assert sum(tally.table("red_fives").values()) == tally.reds == 600
    other = fair_tally(random.Random(2), 4, 50)
    both = WallTally.from_dict(tally.to_dict())
    both.merge(other)
    assert both.walls == 250 and both.table("positions") == positions + other.table("positions")
    assert both.to_dict()["tables"]["deal"] == [
        a + b for a, b in zip(tally.to_dict()["tables"]["deal"], other.to_dict()["tables"]["deal"])
    ]


def test_walls_counted_in_bulk_are_counted_as_one_by_one() -> None:
    """The tally counts walls a column at a time, once 1,024 of a scheme are held: the
    cells are those of each wall's own positions and regions, in either scheme."""
    tally = fair_tally(random.Random(4), 4, 2100)  # counted twice in bulk, then the rest
    expected: dict[str, dict[int, int]] = {
        name: {} for name in ("positions", "deal", "live", "dead")
    }
    rng, tiles = random.Random(4), list(FULL[4])
    for k in range(2100):
        rng.shuffle(tiles)
        scheme = "tenhou" if k % 2 else "front"
        found = regions(scheme, 4)
        for p, tile in enumerate(tiles):
            for name, counts in expected.items():
                row = p if name == "positions" else found[name][p]
                cell = row * 34 + tile // 4
                counts[cell] = counts.get(cell, 0) + 1
    assert {name: dict(tally.table(name)) for name in expected} == expected
    assert tally.walls == 2100 and WallTally.from_dict(tally.to_dict()) == tally


def test_degrees_of_freedom() -> None:
    tests = {t.name: t for t in wall_tests(fair_tally(random.Random(3), 4, 200))}
    assert {n: t.dof for n, t in tests.items()} == {
        "positions": 135 * 33,
        "deal": 2 * 33,
        "live": 2 * 33,
        "dead": 33,
        "red_fives": 4,
    }
    tests3 = {t.name: t.dof for t in wall_tests(fair_tally(random.Random(3), 3, 200))}
    assert tests3["positions"] == 107 * 26 and tests3["dead"] == 26


def test_too_few_walls_give_no_positions_test() -> None:
    names = [t.name for t in wall_tests(fair_tally(random.Random(4), 4, 100))]
    assert "positions" not in names and "deal" in names
    assert wall_tests(WallTally(4)) == ()


@pytest.mark.parametrize("players", [4, 3], ids=["4-player", "3-player"])
def test_fair_walls_give_uniform_p_values(players: int) -> None:
    """40 fair corpora of 200 walls: every test's p-values have mean 0.5 +- 0.15 (about
    3.3 standard errors of 40 uniforms) and the statistic's mean is its dof (+-3%)."""
    rng = random.Random(players)
    found: dict[str, list[tuple[float, float]]] = {}
    for _ in range(40):
        for t in wall_tests(fair_tally(rng, players, 200)):
            found.setdefault(t.name, []).append((t.p, t.chi2 / t.dof))
    assert set(found) == {"positions", "deal", "live", "dead", "red_fives"}
    for name, values in found.items():
        assert abs(statistics.mean(p for p, _ in values) - 0.5) < 0.15, name
    assert abs(statistics.mean(r for _, r in found["positions"]) - 1) < 0.03


def biased_tally(share: float, positions: tuple[int, ...], walls: int) -> WallTally:
    """Walls where, with chance ``share``, each of ``positions`` is swapped for an honour."""
    rng = random.Random(7)
    tally = WallTally(4)
    tiles = list(range(136))
    for _ in range(walls):
        rng.shuffle(tiles)
        if rng.random() < share:
            for pos in positions:
                j = rng.choice([i for i, t in enumerate(tiles) if t >= 108 and i not in positions])
                tiles[pos], tiles[j] = tiles[j], tiles[pos]
        tally.add(WallKinds("front", wall_text(tiles, True)))
    return tally


def test_a_positional_bias_is_flagged() -> None:
    """The live wall's last eight tiles honours in a quarter more walls: the positions
    test (a bias at one position alone adds little to 4,455 degrees of freedom)."""
    last = layout_for(WallScheme.FRONT, 4).live[-8:]
    tests = {t.name: t for t in wall_tests(biased_tally(0.25, last, 1000))}
    assert tests["positions"].p < 1e-4
    assert tests["live"].p < 1e-4


def test_a_dealer_bias_is_flagged_by_the_deal_test() -> None:
    """Three of the dealer's tiles honours in one wall of five: the deal test."""
    deal = layout_for(WallScheme.FRONT, 4).deal[0][:3]
    tests = {t.name: t for t in wall_tests(biased_tally(0.3, deal, 400))}
    assert tests["deal"].p < 1e-4
    assert tests["dead"].p > 1e-4
