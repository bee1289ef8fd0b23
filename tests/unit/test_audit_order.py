"""One answer for one set of files: ``pywall audit --json`` is the same text, byte for byte,
whatever the order of the files, the number of worker processes and the split into saved
tallies, and the Python API gives the same numbers (issue 33, point 6)."""

from __future__ import annotations

import json
import random
from functools import reduce
from operator import add
from pathlib import Path

import pytest

from pywall.analysis.stats import exact_sum, exact_units, from_units
from pywall.api.audit import audit
from pywall.audits.counts import GroupTally
from pywall.cli import main
from tests.helpers import DATA

#: real records of the three platforms: Tenhou logs, Mahjong Soul and Riichi City records
FILES = sorted(
    str(p)
    for folder in ("tenhou", "majsoul", "riichicity")
    for p in (DATA / folder).rglob("*")
    if p.is_file()
)


def audit_text(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["audit", "--json", *args]) == 0
    return capsys.readouterr().out


def shuffled(items: list[str], seed: int) -> list[str]:
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


def test_the_audit_is_the_same_text_whatever_the_order_jobs_and_split(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = audit_text(FILES, capsys)
    doc = json.loads(whole)
    assert doc["games"]["used"] >= 50 and doc["games"]["draws"] > 10_000
    assert len(doc["overall"]["effective_by_game"]) >= 50  # the chart's series is there
    assert {p["label"] for p in doc["platforms"]} >= {"Tenhou, 4-player", "Mahjong Soul, 4-player"}
    for order in (FILES[::-1], shuffled(FILES, 1), shuffled(FILES, 2)):
        assert audit_text(order, capsys) == whole
    # worker processes: two batches of 64 or more (every file twice: the second copies are
    # repeats, left out), in two orders, --jobs 1 and 2
    twice = shuffled(FILES + FILES, 3)
    alone = audit_text([*twice, "--jobs", "1"], capsys)
    assert audit_text([*shuffled(twice, 4), "--jobs", "2"], capsys) == alone
    assert json.loads(alone)["overall"] == doc["overall"]
    # saved tallies of two parts (split at two places, in shuffled orders), merged
    # either way: the run over all the files
    for seed, cut in ((5, 17), (6, 40)):
        order = shuffled(FILES, seed)
        a, b = tmp_path / f"a{seed}.json", tmp_path / f"b{seed}.json"
        assert audit_text(["--save-tally", str(a), *order[:cut]], capsys)
        assert audit_text(["--save-tally", str(b), *order[cut:]], capsys)
        assert audit_text(["--merge", str(b), str(a)], capsys) == whole
        assert audit_text(["--merge", str(a), str(b)], capsys) == whole
    # the Python API: the same numbers, in any order
    assert audit(shuffled(FILES, 7)).to_dict() == doc


def test_float_sums_in_counting_order_would_differ_and_exact_ones_do_not() -> None:
    """The power of the test above: the games' draw variances, added with float ``+`` in
    the orders the files come in, give different last bits; added exactly, the same."""
    series = audit(FILES).tally.overall_series
    variances = [v for _, v in series]
    assert len(variances) >= 50
    naive = {reduce(add, shuffled_floats(variances, seed)) for seed in range(20)}
    assert len(naive) > 1  # float += depends on the order
    exact = {exact_sum(shuffled_floats(variances, seed)) for seed in range(20)}
    assert len(exact) == 1 and abs(exact.pop() - sum(variances)) < 1e-9 * sum(variances)
    # and the group's running sums, added game by game in any order and merged in any
    # split, are those exact bits
    results = set()
    for seed in range(5):
        order = shuffled_floats(variances, seed)
        left, right = GroupTally(), GroupTally()
        for i, v in enumerate(order):
            (left if i % (seed + 2) else right).add_hand((4, 13), 3, 0, v, v)
        left.merge(right)
        results.add((left.dora_mean, left.dora_var))
    assert results == {(exact_sum(variances), exact_sum(variances))}


def shuffled_floats(values: list[float], seed: int) -> list[float]:
    out = list(values)
    random.Random(seed).shuffle(out)
    return out


def test_exact_units_are_every_float_exactly() -> None:
    for x in (
        0.0,
        -0.0,
        5e-324,
        2.2250738585072014e-308,
        0.1,
        -3.75,
        1e300,
        1.7976931348623157e308,
    ):
        assert from_units(exact_units(x)) == x
    assert from_units(sum(map(exact_units, [0.1, 0.2, 0.3]))) == 0.6  # not 0.6000000000000001
    assert 0.1 + 0.2 + 0.3 == 0.6000000000000001
