"""One story per group (issue 44): the chart's flag band (``flag_z``: the |z| one test needs
to flag its group, the threshold split over its tests) beside the 95% one, and a flagged
seat group that only mirrors one flagged player names that player (``explained_by``):
without that player's hands and draws in it, the seat is not flagged. The seat shares are
exact sums like every other, so the answer does not depend on the order of the games.

The corpus (tests/sim/majsoul_records.py, ``seat_rigged_zip``): 50 Mahjong Soul games;
"Target" sits in the second seat in even games, each wall the best of three for Target's
starting hand; "BotE" sits there in odd games, on fair walls."""

from __future__ import annotations

import json
import random
import zipfile
from dataclasses import replace
from io import BytesIO

import pytest

from pywall.analysis.stats import critical_z, two_sided_p
from pywall.api.audit import AuditResult, audit
from pywall.audits.counts import GroupTally
from pywall.audits.verdicts import ALPHA, GroupAudit, explained
from tests.sim.majsoul_records import seat_rigged_zip


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("seat-rigged")
    with zipfile.ZipFile(BytesIO(seat_rigged_zip(50))) as zf:
        zf.extractall(folder)
    return sorted(str(p) for p in folder.iterdir())


@pytest.fixture(scope="module")
def result(files: list[str]) -> AuditResult:
    return audit(files)


def test_a_seat_flagged_only_by_the_player_who_sat_there_names_that_player(
    result: AuditResult,
) -> None:
    doc = result.to_dict()
    seats = {g["label"]: g for g in doc["seats"]}
    assert seats["seat 2"]["flagged"] and seats["seat 2"]["explained_by"] == "Target"
    assert [p["label"] for p in doc["players"] if p["flagged"]] == ["Target"]
    for label, g in seats.items():  # every seat group carries the key; null unless explained
        assert "explained_by" in g
        if label != "seat 2":
            assert g["explained_by"] is None
    # the group less Target's share is what the audit would give the seat without Target
    tally = result.tally
    share = tally.seat_shares(["Target"])[("seat 2", "Target")]
    assert share.hands == 25 * 4  # 25 games of 4 rounds in that seat
    rest = tally.seats["seat 2"].without(share)
    assert rest.hands == tally.seats["seat 2"].hands - share.hands
    assert rest.draw_units[0] == tally.seats["seat 2"].draw_units[0] - share.draw_units[0]


def test_only_a_flagged_player_who_sat_there_explains_a_seat(result: AuditResult) -> None:
    tally = result.tally
    seats = tuple(replace(g, explained_by=None) for g in result.seats)
    target = next(g for g in result.players if g.label == "Target")
    bot = next(g for g in result.players if g.label == "BotA")  # always in the first seat

    def seat_2(players: tuple[GroupAudit, ...]) -> str | None:
        return next(g for g in explained(tally, seats, players) if g.label == "seat 2").explained_by

    assert seat_2((target,)) == "Target"
    assert explained(tally, seats, (bot,)) == seats  # nobody flagged: nothing to explain
    assert seat_2((replace(bot, p_value=1e-12),)) is None  # flagged, but never in seat 2


def test_explained_by_does_not_depend_on_the_order_of_the_games(
    files: list[str], result: AuditResult
) -> None:
    whole = json.dumps(result.to_dict())
    for seed in (1, 2):
        order = list(files)
        random.Random(seed).shuffle(order)
        assert json.dumps(audit(order).to_dict()) == whole
    # two parts' tallies merged either way: the same seat shares, to the bit
    left, right = audit(files[:17]).tally, audit(files[17:]).tally
    right.merge(left)
    assert right.seat_shares(["Target"]) == result.tally.seat_shares(["Target"])


def test_a_group_less_a_share_of_it_is_exact() -> None:
    a, b = GroupTally(), GroupTally()
    for i in range(7):
        a.add_hand((4, 13), i % 5, i % 3, 0.1 * i, 0.3 / (i + 1))
        b.add_hand((4, 14), 2, 1, 0.7, 1 / 3)
    a.add_flat([3, 1, 0.1, 0.07] * 3)
    b.add_flat([5, 2, 0.3, 0.2] * 3)
    whole = GroupTally()
    whole.merge(a)
    whole.merge(b)
    assert whole.without(b) == a
    assert whole.without(whole).hands == 0


def test_the_chart_carries_the_flag_band_beside_its_series(result: AuditResult) -> None:
    doc = result.to_dict()
    for group in [doc["overall"], *doc["players"]]:
        assert group["effective_by_game"]
        each = ALPHA / group["tests"]
        assert group["flag_z"] == critical_z(each)
        assert two_sided_p(group["flag_z"]) >= each > two_sided_p(group["flag_z"] * (1 + 1e-12))
        assert group["flag_z"] > 1.96
    for group in doc["seats"]:  # no series, no band
        assert "flag_z" not in group


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Seat 2 reads unlikely only because Target sat there"),
        ("ja", "2番目の席が疑わしいのはTargetがそこに座ったからにすぎません"),
        ("zh", "座位 2显得可疑，只是因为Target坐在那里"),
    ],
    ids=["en", "ja", "zh"],
)
def test_the_report_says_a_seat_only_mirrors_a_player(
    result: AuditResult, lang: str, words: str
) -> None:
    page = result.to_html(lang)
    assert page.count("class='mirror'") == 1 and words in page


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "unusual, but not enough to flag: with {k} tests, a flag needs p below"),
        ("ja", "珍しいものの、警告には足りません（検定が{k}個あるので"),
        ("zh", "少见，但不足以判定（共有 {k} 项检验"),
    ],
    ids=["en", "ja", "zh"],
)
def test_the_report_words_unusual_under_a_consistent_verdict_as_one_sentence(
    result: AuditResult, lang: str, words: str
) -> None:
    """Everyone's group is consistent with an unusual shanten reading: the shared report says
    both in one sentence, as the page does, and never the bare amber word under a green
    verdict; a flagged group keeps the bare word."""
    group = result.tests.overall
    assert not group.rejects(ALPHA)
    page = result.to_html(lang)
    everyone = page.split("<h2>", 2)[1] if "<h2>" in page else page
    assert words.format(k=len(group.p_values)) in page, everyone[:400]
    calm = page.count("data-not-flag='true'")
    assert calm >= 1
    target = next(g for g in result.tests.players if g.label == "Target")
    assert target.rejects(ALPHA)  # its unusual readings stay single words
