"""The audit's memory flat in the number of games: a game with one copy keeps a few hundred
bytes (its path, fingerprint and a digest of its items), read again from its file only
when another copy comes; the answer is the same as a tally that keeps every record, in any
order, and however the games are split between workers or tallies."""

from __future__ import annotations

import gc
import json
import math
import random
import sys
import tracemalloc
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import fields, is_dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from pywall.analysis import efficiency
from pywall.audits.counts import Points, Series
from pywall.audits.html import audit_html, audit_html_pieces, games_of
from pywall.audits.parts import PartGame, part_dict, part_game, part_text
from pywall.audits.records import GameRecord
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import (
    AuditResult,
    audit_result,
    cli_dict,
    cli_json,
    games_dict,
    series_json,
)
from pywall.cli import main
from pywall.cli.tallies import part_file
from pywall.core.errors import ValueInputError
from pywall.core.json_value import json_text
from pywall.results.check import check_data
from tests.helpers import TENHOU, fixture_paths, log_text
from tests.unit.test_audit_copies import OTHER, REAL, cut, swapped, written


def deep_size(root: object) -> int:
    """Bytes of everything reachable from ``root`` (containers, dataclasses, arrays, texts),
    each object once (small ints and the like are shared: counted once too)."""
    seen: set[int] = set()
    total, todo = 0, [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or obj is None or isinstance(obj, type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
        elif is_dataclass(obj):
            todo += [getattr(obj, f.name) for f in fields(obj)]
        elif not isinstance(obj, str | bytes | int | float | bool | array):
            raise AssertionError(f"unexpected {type(obj).__name__} in the tally")
    return total


def records() -> list[GameRecord]:
    found = []
    for p in fixture_paths():
        r = check_data(str(p), p.read_bytes(), starting=True).record
        if r.problem is None and r.copy is not None:
            found.append(r)
    return found


def distinct(base: Sequence[GameRecord], n: int) -> list[GameRecord]:
    """``n`` distinct games made of ``base``'s: the fingerprint and path of each its own."""
    return [
        replace(
            base[i % len(base)],
            fingerprint=f"{base[i % len(base)].fingerprint}-{i}",
            path=f"/archives/phoenix-2024.db:2024010{i:07d}gm-00a9-0000-{i:08x}",
        )
        for i in range(n)
    ]


def reader(given: Sequence[GameRecord]) -> Any:
    """A ``reread`` that gives the records added at these places (as a run's driver does)."""

    def read(places: Sequence[int]) -> Iterator[GameRecord]:
        return iter([given[at] for at in places])

    return read


def kept_state(tally: AuditTally) -> int:
    return deep_size((tally.copies, tally.counts.by_game, tally.counts.by_player, tally.waiting))


def test_a_game_with_one_copy_keeps_under_a_kilobyte() -> None:
    base = records()
    sizes = []
    for n in (300, 600):
        games = distinct(base, n)
        tally = AuditTally(reread=reader(games))
        for r in games:
            tally.add(r)
        assert tally.games == n
        sizes.append(kept_state(tally))
    per_game = (sizes[1] - sizes[0]) / 300
    assert per_game < 1024, per_game
    # the tally's own account of it (``MAX_AUDIT_KEPT``) is not below it
    assert tally.kept >= sizes[1] * 0.9
    # a tally that keeps every record (the page's) keeps several kilobytes a game
    keeping = AuditTally()
    for r in distinct(base, 300):
        keeping.add(r)
    assert kept_state(keeping) / 300 > 3 * per_game


def answer(tally: AuditTally) -> str:
    return json.dumps([audit_result(tally).to_dict(), games_dict(tally)])


def copies_of_one_game(tmp_path: Path) -> dict[str, GameRecord]:
    text = log_text(REAL)
    logs = {"whole": text, "cut": cut(text), "again": text, "other": log_text(OTHER)}
    return {n: check_data(n, t.encode(), starting=True).record for n, t in logs.items()}


@pytest.mark.parametrize("seed", range(6))
def test_copies_found_late_give_what_a_tally_keeping_every_record_gives(
    tmp_path: Path, seed: int
) -> None:
    """The first copy dropped, the whole one, a cut one and an equal one coming later in
    any order (and a forged one: a conflict found late), split between two tallies."""
    made = copies_of_one_game(tmp_path)
    forged = check_data("forged", swapped(log_text(REAL)).encode(), starting=True).record
    crowd = distinct(records(), 40)
    for with_forged in (False, True):
        games = [*made.values(), *crowd] + ([forged] if with_forged else [])
        random.Random(seed).shuffle(games)
        keeping = AuditTally()
        for r in games:
            keeping.add(r)
        dropping = AuditTally(reread=reader(games))
        for r in games:
            dropping.add(r)
        assert answer(dropping) == answer(keeping)
        kinds = sorted(e.kind for e in dropping.excluded)
        assert kinds == (["conflict"] if with_forged else ["duplicate"] * 2)
        # in two parts (as two workers' or runs' tallies), merged either way
        cut_at = len(games) // 2
        for first, second in ((games[:cut_at], games[cut_at:]), (games[cut_at:], games[:cut_at])):
            left, right = AuditTally(reread=reader(first)), AuditTally(reread=reader(second))
            for r in first:
                left.add(r)
            for r in second:
                right.add(r)
            left.merge(right)
            assert answer(left) == answer(keeping)


def test_a_copy_read_again_that_is_no_longer_the_same_is_refused_with_its_path() -> None:
    text = log_text(REAL)
    whole = check_data("a.xml", text.encode(), starting=True).record
    later = check_data("b.xml", cut(text).encode(), starting=True).record
    other = check_data("a.xml", cut(text).encode(), starting=True).record  # a.xml changed
    tally = AuditTally(reread=reader([other, later]))
    tally.add(whole)
    tally.add(later)
    with pytest.raises(ValueInputError, match=r"^a\.xml: the game read again .* changed"):
        tally.settle()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_reads_a_copy_again_from_its_file_in_any_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    """A game whose second copy is in another file, a copy cut short in a third, and a
    forged one in a fourth after many other games (with ``--jobs 2``, in other workers'
    batches): the same JSON in either order, the copies read again from their files."""
    text = log_text(REAL)
    crowd = sorted((TENHOU / "tenhou-python-bot").iterdir())  # 38 games: more than a batch
    copies = written(tmp_path, {"a.xml": text, "b-cut.xml": cut(text), "c.xml": text})
    forged = written(tmp_path, {"d-forged.xml": swapped(text)})
    for tail, kinds in (([], ["duplicate", "duplicate"]), (forged, ["conflict"])):
        inputs = [copies[0], *map(str, crowd), *copies[1:], *map(str, crowd[:30]), *tail]
        outs = []
        for order in (inputs, inputs[::-1]):
            assert main(["audit", "--json", "--jobs", jobs, *order]) == 0
            outs.append(capsys.readouterr().out)
        assert outs[0] == outs[1]
        games = json.loads(outs[0])["games"]
        assert sorted({e["kind"] for e in games["excluded"] if e["path"] in copies + tail}) == [
            *sorted(set(kinds))
        ]


def output_peak(tally: AuditTally, write: Any) -> tuple[int, int]:
    """The peak of memory traced (beyond the tally) while the audit of ``tally`` is
    computed and its ``--json`` text made by ``write(result, tally)`` (the text's pieces),
    and the text's length. (Collected first: the collector's next runs then fall at the
    same places in each measurement.)"""
    gc.collect()
    tracemalloc.start()
    try:
        result = audit_result(tally)
        length = sum(len(piece) for piece in write(result, tally))
        return tracemalloc.get_traced_memory()[1], length
    finally:
        tracemalloc.stop()


def four_players(games: Sequence[GameRecord]) -> list[GameRecord]:
    """The games with the same four named players (a listed player's points grow a game)."""
    return [replace(g, names=("A", "B", "C", "D")[: len(g.names)]) for g in games]


@pytest.mark.parametrize("named", [False, True], ids=["anonymous", "four players"])
def test_the_json_output_holds_no_object_a_game(named: bool) -> None:
    """``audit --json``'s text is written in pieces from the series' arrays: computing the
    audit and writing it grows by a few bytes a point (the series' points in fingerprint
    order, 16 bytes, and each game's place, 8), where the whole document built as objects,
    then as one text, takes kilobytes a game."""
    base = [replace(r, names=("NoName",) * len(r.names)) for r in records()]
    streamed, whole, lengths = [], [], []
    for n in (400, 800):
        games = four_players(distinct(base, n)) if named else distinct(base, n)
        tally = AuditTally(reread=reader(games))
        for r in games:
            tally.add(r)
        tally.settle()
        "".join(cli_json(audit_result(tally), tally))  # the caches the audit fills once, filled
        peak, length = output_peak(tally, cli_json)
        streamed.append(peak)
        lengths.append(length)
        whole.append(output_peak(tally, lambda r, t: [json_text(cli_dict(r, t), indent=2)])[0])
    text_per_game = (lengths[1] - lengths[0]) / 400
    per_game = (streamed[1] - streamed[0]) / 400
    assert text_per_game > (300 if named else 60)  # each game's points are in the text
    assert per_game < (400 if named else 60), per_game
    assert (whole[1] - whole[0]) / 400 > 5 * per_game


def test_the_json_output_in_pieces_is_the_document_byte_for_byte() -> None:
    base = records()
    games = distinct(base, 40)
    tally = AuditTally(reread=reader(games))
    for r in games:
        tally.add(r)
    result = audit_result(tally)
    pieces = list(cli_json(result, tally))
    assert len(pieces) > 3  # the series streamed apart from the rest
    assert "".join(pieces) == json_text(cli_dict(result, tally), indent=2)


@pytest.mark.parametrize("seed", range(4))
def test_a_series_in_fingerprint_order_is_the_sorted_points_of_the_games_that_count(
    seed: int,
) -> None:
    """``Series.ordered``: by slots (a point in most games) or sorted (a few), the points of
    the games with a place, in the order of their places."""
    rng = random.Random(seed)
    games = 500
    rank = array("q", [-1]) * games
    places = rng.sample(range(games), games)
    for game in rng.sample(range(games), 400):  # 100 games no longer count
        rank[game] = places[game]
    for share in (1.0, 0.05):  # everyone's series, a player's
        series = Series()
        for game in sorted(rng.sample(range(games), int(games * share))):
            series.append(game, (rng.uniform(-2, 2), rng.uniform(0, 1)))
        expected = sorted(
            (rank[g], (o, v))
            for g, o, v in zip(series.games, series.observed, series.variance, strict=True)
            if rank[g] >= 0
        )
        assert list(series.ordered(rank)) == [p for _, p in expected]


def test_a_series_written_in_pieces_is_what_json_writes() -> None:
    """``series_json`` at any depth: the characters ``json.dumps(indent=2)`` writes there,
    NaN and the infinities as it writes them."""
    points = Points(
        array("d", [0.5, -1e-300, math.inf, 3.0, -0.0]),
        array("d", [1.0, 0.0, 2.5, math.nan, -math.inf]),
    )
    for depth in (1, 2, 4):
        document: Any = {"s": [list(p) for p in points]}
        for _ in range(depth - 1):
            document = {"a": document}
        whole = json.dumps(document, indent=2)
        inner = whole.split('"s": ', 1)[1].rsplit("\n", depth)[0]
        assert "".join(series_json(points, 2 * depth)) == inner
    many = Points(array("d", range(2500)), array("d", [0.25] * 2500))  # pieces of 1,024
    whole = json.dumps({"s": [list(p) for p in many]}, indent=2)
    assert "".join(series_json(many, 2)) == whole.split('"s": ', 1)[1].rsplit("\n", 1)[0]
    assert len(list(series_json(many, 2))) > 3


def test_the_html_report_is_written_in_pieces() -> None:
    """``audit --html``'s page is written a part at a time (a group's section with its
    charts, the files counted a chunk at a time): computing the audit and writing it grows
    by about 220 bytes a game with four named players, less than the page's own text a game
    (made as one text, from its parts joined, it took over 1 KB)."""
    base = [replace(r, names=("NoName",) * len(r.names)) for r in records()]
    streamed, lengths = [], []
    for n in (400, 800):
        games = four_players(distinct(base, n))
        tally = AuditTally(reread=reader(games))
        for r in games:
            tally.add(r)
        tally.settle()

        def pieces(result: AuditResult, tally: AuditTally) -> Iterator[str]:
            return audit_html_pieces(result, "en", games_of(tally))

        result = audit_result(tally)  # (and the caches the audit fills once, filled)
        assert "".join(pieces(result, tally)) == audit_html(result, "en", games_of(tally))
        peak, length = output_peak(tally, pieces)
        streamed.append(peak)
        lengths.append(length)
    per_game = (streamed[1] - streamed[0]) / 400
    assert (lengths[1] - lengths[0]) / 400 > 250  # each game's points and file are in it
    # Made as one text from its parts joined, the page took over 1.5 KB a game; written in
    # pieces about 220 bytes alone, up to about 410 in a whole run (other tests' objects in
    # the same process move tracemalloc's peak): a bound well between the two.
    assert per_game < 1_000, per_game


def test_the_draw_tests_caches_are_emptied_between_games_at_their_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The draw test's caches (``analysis.efficiency``) stay under their bounds, the suits'
    tables emptied between games: a worker's memory stops growing with the games it checks,
    and every record is the same to the bit as with caches that keep everything."""
    paths = fixture_paths()[:16]
    wide = [check_data(str(p), p.read_bytes(), starting=True).record.to_dict() for p in paths]
    bounds = {"_SUITS_KEPT": 150, "_MASKS_KEPT": 400, "_QUADS_KEPT": 300, "_SWAPS_KEPT": 200}
    for name, bound in bounds.items():
        monkeypatch.setattr(efficiency, name, bound)
    efficiency.forget_suits()
    start = efficiency.cache_sizes()  # (the quads, keyed by profiles, are not emptied there)
    sizes, narrow = [], []
    for p in paths:
        narrow.append(check_data(str(p), p.read_bytes(), starting=True).record.to_dict())
        sizes.append(efficiency.cache_sizes())
    assert narrow == wide
    suits = [s["suits"] for s in sizes]
    assert any(b < a for a, b in pairwise(suits)), suits  # emptied
    assert max(suits) < 150 + max(suits[0], 600), suits  # at most one game past the bound
    assert max(s["masks"] for s in sizes) <= 400
    assert max(s["quads"] for s in sizes) <= max(300, start["quads"])
    assert max(s["swaps"] for s in sizes) <= 200


def test_the_suits_tables_are_not_emptied_while_a_check_holds_suit_ids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Dask worker checks games in threads: the tables are emptied only when no check is
    under way, never under one that holds suit ids."""
    first, second = fixture_paths()[:2]
    monkeypatch.setattr(efficiency, "_SUITS_KEPT", 0)
    hand = (1,) * 9 + (1, 1, 1, 1) + (0,) * 21  # 123456789m1234p
    with efficiency.suits_held():
        ids = efficiency.suit_ids(hand)
        expected = efficiency.effective_of(*ids)
        check_data(str(second), second.read_bytes(), starting=True)  # under way: kept
        assert efficiency.effective_of(*ids) == expected == efficiency.effective_kinds(hand)
    efficiency.forget_suits()
    check_data(str(first), first.read_bytes(), starting=True)
    alone = efficiency.cache_sizes()["suits"]
    check_data(str(second), second.read_bytes(), starting=True)
    check_data(str(first), first.read_bytes(), starting=True)  # none under way: emptied first
    assert efficiency.cache_sizes()["suits"] == alone


def part_games_of(records_: Sequence[GameRecord]) -> list[PartGame]:
    return [part_game(r, f"<mjloggm ver='2.3' n='{i}'/>".encode()) for i, r in enumerate(records_)]


def written_part(path: Path, games: Sequence[PartGame]) -> None:
    """``audit --save-tally``'s writing of a part: each game as it comes, the run's tally
    reading its records back from the part's spool."""
    with part_file(str(path)) as part:
        tally = AuditTally(reread=part.reread)
        for game in games:
            part.add(game)
            tally.add(game.record)
        part.finish(tally)


def test_a_part_written_a_game_at_a_time_is_the_document_byte_for_byte(tmp_path: Path) -> None:
    """Copies found late, a conflict and unreadable games: the part's text is what one
    ``json_text`` of the whole document writes (and ``--merge`` reads it back)."""
    made = copies_of_one_game(tmp_path)
    forged = check_data("forged", swapped(log_text(REAL)).encode(), starting=True).record
    broken = check_data("broken.xml", b"<mjloggm", starting=True).record
    games = part_games_of([made["whole"], *distinct(records(), 12), made["cut"], broken])
    games += part_games_of([made["again"], made["other"], forged])
    written_part(tmp_path / "part.json", games)
    text = (tmp_path / "part.json").read_text(encoding="utf-8")
    assert text == json_text(part_dict(games), separators=(",", ":")) + "\n"
    assert text == part_text(games)
    assert [p.name for p in tmp_path.iterdir()] == ["part.json"]  # no scratch file left


def test_a_part_is_written_with_memory_flat_in_its_games(tmp_path: Path) -> None:
    """``--save-tally`` keeps no game's record nor log: the peak grows by the tally's few
    hundred bytes a game, where a part made whole at the end (its records kept, its tally
    made from them) took several kilobytes a game."""
    base = records()
    streamed, whole = [], []
    for n in (500, 1000):
        games = part_games_of(distinct(base, n))
        tracemalloc.start()
        try:
            written_part(tmp_path / f"{n}.json", games)
            streamed.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            json_text(part_dict(games), separators=(",", ":"))
            whole.append(tracemalloc.get_traced_memory()[1] - before)
        finally:
            tracemalloc.stop()
    per_game = (streamed[1] - streamed[0]) / 500
    assert per_game < 1024, per_game
    assert (whole[1] - whole[0]) / 500 > 3 * per_game
