"""Every real log verifies; every kind of alteration is caught at the right place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pywall.checks.verify import GameResult, verify_game
from pywall.core.findings import Finding, Severity
from pywall.formats import mjlog
from pywall.results.check import check_log
from tests.helpers import TENHOU, Tags, current_format_paths, fixture_paths, log_text, search

DRAW = r"<[TUVW](\d+)/>"


def path_id(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


def verify_text(text: str) -> GameResult:
    return verify_game(mjlog.parse(text))


def errors(result: GameResult) -> list[Finding]:
    return [f for f in result.findings if f.severity is Severity.ERROR]


@pytest.mark.parametrize("path", fixture_paths(), ids=path_id)
def test_every_fixture_verifies(path: Path) -> None:
    result = verify_game(mjlog.parse(path.read_bytes(), path.name))
    assert result.status == "verified", [f.message for f in result.findings]
    assert not errors(result)
    assert result.checked > 50 * len(result.rounds)


def test_total_tile_checks_over_all_fixtures() -> None:
    total = sum(verify_game(mjlog.parse(p.read_bytes())).checked for p in fixture_paths())
    assert total == 46750


def test_what_a_round_checks() -> None:
    result = verify_game(mjlog.parse((TENHOU / "gimite" / "test.mjlog").read_bytes()))
    kinds = {c.what for r in result.rounds for c in r.checks}
    assert kinds == {"deal", "draw", "replacement", "dora", "ura"}
    for r in result.rounds:
        assert sum(c.what == "deal" for c in r.checks) == 52


def test_three_player_replacements_after_nuki_are_checked() -> None:
    result = verify_game(mjlog.parse((TENHOU / "dnovikoff" / "sanma2.xml").read_bytes()))
    replacements = [c for r in result.rounds for c in r.checks if c.what == "replacement"]
    assert len(replacements) >= 16
    assert result.status == "verified"


# --- alterations, generated over every current-format fixture ---------------


def target_round(tags: Tags) -> int:
    """The second round if it has at least 8 draws, else the first one that has."""
    rounds = len(tags.find(r"<INIT.*"))
    order = list(range(1, rounds)) + [0]
    return next(r for r in order if len(round_tags(tags, r, DRAW)) >= 8)


def round_tags(tags: Tags, rnd: int, pattern: str) -> list[int]:
    return [i for i in tags.find(pattern) if tags.round_of(i) == rnd]


def first_error(text: str) -> tuple[GameResult, list[Finding]]:
    result = verify_text(text)
    found = errors(result)
    assert result.status == "mismatch"
    assert found
    return result, found


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_altered_draw_is_caught(path: Path) -> None:
    tags = Tags(log_text(path))
    rnd = target_round(tags)
    draws = round_tags(tags, rnd, DRAW)
    i = draws[2]
    old = int(search(r"\d+", tags.tags[i]).group())
    new = (old + 4) % 136
    tags.tags[i] = tags.tags[i].replace(str(old), str(new))
    _, found = first_error(tags.text())
    assert found[0].code in ("draw_mismatch", "replacement_mismatch")
    assert found[0].round == rnd
    assert found[0].data["log"] == new and found[0].data["wall"] == old
    assert len(found) == 1
    # the turn as players count it: that seat's draws so far (T, U, V, W: the seat's letter),
    # a replacement draw (after a North, in sanma2) being in the turn of its live draw
    same_seat = sum(tags.tags[j][1] == tags.tags[i][1] for j in draws[:3])
    assert found[0].data["turn"] == same_seat - (found[0].code == "replacement_mismatch")


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_altered_deal_tile_is_caught(path: Path) -> None:
    tags = Tags(log_text(path))
    rnd = target_round(tags)
    i = round_tags(tags, rnd, r"<INIT.*")[0]
    hai1 = search(r'hai1="([^"]*)"', tags.tags[i]).group(1).split(",")
    old = int(hai1[4])
    hai1[4] = str((old + 4) % 136)
    tags.tags[i] = re.sub(r'hai1="[^"]*"', f'hai1="{",".join(hai1)}"', tags.tags[i])
    _, found = first_error(tags.text())
    assert [(f.code, f.round, f.data["seat"], f.data["k"]) for f in found] == [
        ("deal_mismatch", rnd, 1, 5)
    ]
    assert "deal tile 5 of seat 1" in found[0].message


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_altered_dora_indicator_is_caught(path: Path) -> None:
    tags = Tags(log_text(path))
    rnd = target_round(tags)
    i = round_tags(tags, rnd, r"<INIT.*")[0]
    seed = search(r'seed="([^"]*)"', tags.tags[i]).group(1).split(",")
    seed[5] = str((int(seed[5]) + 1) % 136)
    tags.tags[i] = tags.tags[i].replace(
        search(r'seed="[^"]*"', tags.tags[i]).group(), f'seed="{",".join(seed)}"'
    )
    _, found = first_error(tags.text())
    assert [(f.code, f.round) for f in found] == [("dora_mismatch", rnd)]
    assert "indicator 1 (INIT)" in found[0].message


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_swapped_pair_of_draws_is_caught(path: Path) -> None:
    tags = Tags(log_text(path))
    rnd = target_round(tags)
    a, b = round_tags(tags, rnd, DRAW)[4:6]
    ta, tb = (search(r"\d+", tags.tags[x]).group() for x in (a, b))
    tags.tags[a] = tags.tags[a].replace(ta, tb)
    tags.tags[b] = tags.tags[b].replace(tb, ta)
    _, found = first_error(tags.text())
    assert {f.round for f in found} == {rnd}
    assert len(found) == 2
    assert {f.data["log"] for f in found} == {int(ta), int(tb)}


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_changed_seed_is_caught_in_the_first_round(path: Path) -> None:
    text = log_text(path)
    seed = search(r'seed="mt19937ar-sha512-n288-base64,([^"]*)"', text).group(1)
    flipped = ("B" if seed[10] != "B" else "C").join((seed[:10], seed[11:]))
    result, found = first_error(text.replace(seed, flipped))
    assert found[0].round == 0 and found[0].code == "wall_unrelated"
    assert all(not r.ok for r in result.rounds)


@pytest.mark.parametrize("path", current_format_paths(), ids=path_id)
def test_removed_draw_tag_is_caught(path: Path) -> None:
    tags = Tags(log_text(path))
    rnd = target_round(tags)
    del tags.tags[round_tags(tags, rnd, DRAW)[3]]
    _, found = first_error(tags.text())
    assert found[0].round == rnd


def test_removed_dora_tag_is_caught() -> None:
    tags = Tags(log_text(TENHOU / "gimite" / "test.mjlog"))
    i = tags.find(r"<DORA.*")[0]
    rnd = tags.round_of(i)
    del tags.tags[i]
    _, found = first_error(tags.text())
    assert found[0].round == rnd
    assert found[0].code in ("dora_mismatch", "dora_count_mismatch")


def test_removed_kan_call_is_caught() -> None:
    tags = Tags(log_text(TENHOU / "gimite" / "test.mjlog"))
    kans = [
        i
        for i in tags.find(r'<N who="\d" m="(\d+)" */>')
        if not int(search(r'm="(\d+)"', tags.tags[i]).group(1)) & 0x3C
    ]
    i = kans[0]
    rnd = tags.round_of(i)
    del tags.tags[i]
    _, found = first_error(tags.text())
    assert found[0].round == rnd


def test_altered_dice_are_caught() -> None:
    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    seed = search(r'<INIT seed="([^"]*)"', text).group(1).split(",")
    seed[3] = str((int(seed[3]) + 1) % 6)
    _, found = first_error(
        text.replace(
            search(r'<INIT seed="[^"]*"', text).group(), f'<INIT seed="{",".join(seed)}"', 1
        )
    )
    assert [(f.code, f.round) for f in found] == [("dice_mismatch", 0)]


def test_altered_ura_indicator_is_caught() -> None:
    tags = Tags(log_text(TENHOU / "gimite" / "test.mjlog"))
    i = tags.find(r'<AGARI[^>]*doraHaiUra="[^"]*".*')[0]
    ura = search(r'doraHaiUra="(\d+)', tags.tags[i]).group(1)
    tags.tags[i] = tags.tags[i].replace(f'doraHaiUra="{ura}', f'doraHaiUra="{(int(ura) + 1) % 136}')
    _, found = first_error(tags.text())
    assert [(f.code, f.round) for f in found] == [("ura_mismatch", tags.round_of(i))]


def test_truncated_log_verifies_with_incomplete_note() -> None:
    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    cut = text[: text.index("<INIT", text.index("<INIT") + 10) + 400]
    report = check_log("cut.xml", cut)
    assert report.status == "verified"
    assert [f.code for f in report.findings] == ["incomplete_log"]
    assert report.findings[0].severity is Severity.INFO
    assert len(report.rounds) == 2


def test_log_without_seed_is_an_error() -> None:
    text = re.sub(r"<SHUFFLE[^>]*>", "", log_text(TENHOU / "tenhou-python-bot" / "1.txt"))
    report = check_log("noseed.xml", text)
    assert report.status == "error"
    assert report.findings[0].code == "seed_missing"


def test_too_many_mismatches_are_summarised() -> None:
    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    seed = search(r'base64,([^"]*)"', text).group(1)
    result = verify_text(text.replace(seed, seed[::-1]))
    first_round = [f for f in result.findings if f.round == 0]
    assert first_round[0].code == "wall_unrelated"
    assert "more_mismatches" in [f.code for f in first_round]
    assert result.rounds[0].checked == sum(1 for _ in result.rounds[0].checks)


def test_draws_past_the_wall_are_one_finding_and_a_count() -> None:
    """A log that keeps drawing past the live wall gives one overrun finding and the count of
    the rest, however many there are (findings stay bounded)."""
    text = log_text(TENHOU / "tenhou-python-bot" / "1.txt")
    init_end = text.index(">", text.index("<INIT")) + 1
    game = mjlog.parse(text[:init_end] + "<T0/><D0/>" * 500 + "</mjloggm>")
    result = verify_game(game)
    codes = [f.code for f in result.findings if f.round == 0]
    assert codes.count("live_wall_overrun") == 1
    more = next(
        f for f in result.findings if f.code == "more_mismatches" and "past the end" in f.message
    )
    assert more.data["count"] == 500 - 70 - 1


def test_wrong_wall_counts_are_listed_up_to_the_round_cap() -> None:
    """Every stated count of tiles left is checked; at most MAX_LISTED_PER_ROUND are listed."""
    from dataclasses import replace

    from pywall.checks.verify import MAX_LISTED_PER_ROUND
    from pywall.core.model import Draw, WallCount

    game = mjlog.parse((TENHOU / "tenhou-python-bot" / "1.txt").read_bytes())
    rnd = game.rounds[0]
    events = []
    for ev in rnd.events:
        events.append(ev)
        if isinstance(ev, Draw):
            events.append(WallCount(1000))  # never the true count
    game = replace(game, rounds=(replace(rnd, events=tuple(events)),))
    found = [f for f in verify_game(game).findings if f.code == "left_count_mismatch"]
    draws = sum(isinstance(e, Draw) for e in rnd.events)
    assert draws > MAX_LISTED_PER_ROUND and len(found) == MAX_LISTED_PER_ROUND
