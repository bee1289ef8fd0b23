"""Every flag with its evidence: a group's JSON names the tests that flag it (``flagged_by``),
and everyone's group carries the wall tests its verdict counts when there is one platform."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pywall.audits.draw_wall_tests import wall_audit
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import ALPHA, AuditResult, audit_result, group_dict
from pywall.core.layout import WallScheme, layout_for
from pywall.results.check import check_data
from tests.helpers import TENHOU
from tests.unit.test_walls import biased_tally


@pytest.fixture(scope="module")
def one_platform() -> tuple[AuditTally, AuditResult]:
    """Ten 4-player Tenhou games: one platform, one player count."""
    tally = AuditTally()
    for path in sorted((TENHOU / "jim137").iterdir())[:10]:
        tally.add(check_data(str(path), path.read_bytes(), starting=True).record)
    result = audit_result(tally)
    assert len(result.platforms) == 1
    return tally, result


def test_everyone_carries_the_wall_tests_its_verdict_counts_with_one_platform(
    one_platform: tuple[AuditTally, AuditResult],
) -> None:
    _, result = one_platform
    overall, platform = group_dict(result.overall), group_dict(result.platforms[0])
    assert overall["walls"] == platform["walls"]
    assert [t["name"] for t in overall["walls"]["tests"]]  # some wall tests had data enough
    assert overall["tests"] == 6 + len(overall["walls"]["tests"])
    assert "walls" not in group_dict(result.players[0])  # a player's group has no wall tests


def test_a_fair_group_is_flagged_by_nothing(one_platform: tuple[AuditTally, AuditResult]) -> None:
    _, result = one_platform
    for group in (result.overall, *result.platforms, *result.players, *result.seats):
        found = group_dict(group)
        assert found["flagged"] is False and found["flagged_by"] == [], group.label


def test_a_wall_bias_is_flagged_by_the_wall_tests_by_name(
    one_platform: tuple[AuditTally, AuditResult],
) -> None:
    """Honours at the live wall's last eight positions in a quarter of 1,000 walls: everyone's
    group is flagged by the positions and live-wall tests, named as its JSON names them."""
    _, result = one_platform
    last = layout_for(WallScheme.FRONT, 4).live[-8:]
    biased = replace(result.overall, walls=wall_audit(biased_tally(0.25, last, 1000)))
    found = group_dict(biased)
    assert found["flagged"]
    assert {"walls.positions", "walls.live"} <= set(found["flagged_by"])
    assert all(name.startswith("walls.") for name in found["flagged_by"])
    each = ALPHA / found["tests"]
    by_name = {f"walls.{t['name']}": t["p"] for t in found["walls"]["tests"]}
    assert all(by_name[name] < each for name in found["flagged_by"])
    assert all(p >= each for name, p in by_name.items() if name not in found["flagged_by"])


def test_a_draw_bias_is_flagged_by_the_draw_test_by_name(
    one_platform: tuple[AuditTally, AuditResult],
) -> None:
    tally, _ = one_platform
    effective, tenpai, dora = tally.overall.draws
    lucky = replace(effective, observed=int(effective.expected + 6 * effective.variance**0.5))
    tally.overall.draws = (lucky, tenpai, dora)
    try:
        found = group_dict(audit_result(tally).overall)
    finally:
        tally.overall.draws = (effective, tenpai, dora)
    assert found["flagged"] and found["flagged_by"] == ["draws.effective"]


def test_the_names_cover_every_test_the_verdict_counts(
    one_platform: tuple[AuditTally, AuditResult],
) -> None:
    _, result = one_platform
    names = [name for name, _ in result.overall.named_p_values]
    assert names[:6] == [
        "chi2",
        "shanten_sum",
        "dora",
        "draws.effective",
        "draws.tenpai",
        "draws.dora",
    ]
    assert len(names) == len(set(names)) == len(result.overall.p_values)
