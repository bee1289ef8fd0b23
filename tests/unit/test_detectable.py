"""What the audit can see: each group's draw test gives ``detectable``, the shift in hits per
100 draws its n draws catch 8 times in 10 at the threshold the group's verdict gives the test
(docs/audit.md), the same number in the CLI's JSON, the API's, the text and the HTML report;
so do its starting-hand tests (mean shanten, dora dealt: tests/unit/test_detectable_hands.py
has their formula and simulation)."""

from __future__ import annotations

import itertools
import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest

import pywall
from pywall.analysis.draws import Sums, detectable, detectable_one_in
from pywall.analysis.stats import ZScore, critical_z, detectable_shift, two_sided_p
from pywall.audits.verdicts import HAND_UNIT, hand_detectable
from pywall.audits.words import WORDS
from pywall.cli import main
from pywall.core.errors import ValueInputError
from tests.helpers import DATA, TENHOU

TESTS = ("effective", "tenpai", "dora")
#: the starting-hand tests with a figure, and their sentences' words keys
HAND_TESTS = ("shanten_sum", "dora")
HAND_KEYS = {"shanten_sum": "shanten_sum", "dora": "hand_dora"}


@pytest.mark.parametrize(
    ("p", "z"),
    [
        (0.05, 1.959963984540054),
        (0.001, 3.290526731491926),
        (0.4, 0.8416212335729143),  # the one-sided 80% quantile
        (0.001 / 6, 3.764823649533898),
        (1e-12, 7.130506848171),
    ],
    ids=["5%", "0.1%", "power-80", "a-player's-share", "tiny"],
)
def test_critical_z_inverts_two_sided_p(p: float, z: float) -> None:
    found = critical_z(p)
    assert found == pytest.approx(z, rel=1e-12)
    # Wichura's AS 241 (the standard library's, accurate to about 1e-16) agrees
    assert found == pytest.approx(-statistics.NormalDist().inv_cdf(p / 2), rel=1e-12)
    # the largest z whose p is still at least p: one float further and it is below
    assert two_sided_p(found) >= p > two_sided_p(math.nextafter(found, math.inf))


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, 2.0, math.nan], ids=str)
def test_critical_z_needs_a_p_between_0_and_1(p: float) -> None:
    with pytest.raises(ValueInputError, match="between 0 and 1"):
        critical_z(p)


def test_the_figure_is_the_formula() -> None:
    """n d = z_each sqrt V + z_0.80 sqrt V', V' = V + d |n - 2E| - n d^2 the shifted draws'
    variance: 1,530 draws of variance 289 at 0.001 / 2 need 4.85 hits per 100 draws (4.80
    to first order, (z_each + z_0.80) sqrt V / n)."""
    s = Sums(1530, 412, 431.2, 289.0)
    each = 0.001 / 2
    found = detectable(s, each)
    assert found is not None and found == pytest.approx(4.85, abs=0.01)
    d = found / 100
    shifted = 289.0 + d * abs(1530 - 2 * 431.2) - 1530 * d * d
    z_each, z_power = critical_z(each), critical_z(0.4)
    assert 1530 * d == pytest.approx(z_each * 17.0 + z_power * math.sqrt(shifted), rel=1e-14)
    first_order = (z_each + z_power) * 17.0 / 1530 * 100
    assert first_order == pytest.approx(4.8026, abs=1e-4) and found > first_order
    # a stricter threshold (more tests in the group) needs a larger shift
    stricter = detectable(s, 0.001 / 11)
    assert stricter is not None and stricter > found


def test_more_games_see_a_smaller_shift() -> None:
    """Draws like these, k times as many: the figure falls as 1 / sqrt k, never rises."""
    figures = [detectable(Sums(500 * k, 0, 125.0 * k, 90.0 * k), 0.001 / 6) for k in range(1, 65)]
    assert all(f is not None for f in figures)
    shown = [f for f in figures if f is not None]
    assert all(a > b for a, b in itertools.pairwise(shown))
    # 4 times the draws, about half the shift (the shifted variance shrinks with it)
    assert shown[0] / shown[3] == pytest.approx(2.0, rel=0.02)
    assert shown[0] / shown[63] == pytest.approx(8.0, rel=0.03)


@pytest.mark.parametrize(
    "sums",
    [Sums(), Sums(0, 0, 0.0, 0.0), Sums(40, 0, 0.0, 0.0), Sums(40, 40, 40.0, 0.0)],
    ids=["empty", "no-draws", "never-a-chance", "always-a-hit"],
)
def test_no_draw_or_no_variance_gives_null(sums: Sums) -> None:
    """n = 0 or V = 0 (every chance 0 or 1): no z, so no shift to speak of: None (null)."""
    assert detectable(sums, 0.001 / 6) is None
    assert detectable_shift(sums.n, sums.expected, sums.variance, 0.001 / 6) is None
    assert detectable_one_in(None) is None


@pytest.mark.parametrize(
    ("per_100", "one_in"),
    [
        (1.1604962911734413, 86),  # 100 / 1.16 = 86.2
        (4.8026, 20),
        (0.5178, 190),  # 193.1: two significant digits, rounded down
        (0.0123, 8100),  # 8,130.1
        (50.0, 2),
        (50.000001, None),  # no "1 in every N" for N of 2 or more
        (230.0, None),
    ],
    ids=["86", "20", "190", "8100", "2", "just-over-half", "over-100"],
)
def test_one_in_n_never_names_a_smaller_shift(per_100: float, one_in: int | None) -> None:
    assert detectable_one_in(per_100) == one_in
    if one_in is not None:
        assert 100 / one_in >= per_100  # the sentence's shift is at least the figure


@pytest.fixture(scope="module")
def cli_json() -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["audit", "--jobs", "1", "--json", str(DATA)]) == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def groups(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [doc["overall"], *doc["platforms"], *doc["players"], *doc["seats"]]


def test_every_group_json_gives_the_figure_at_its_own_threshold(cli_json: dict[str, Any]) -> None:
    """Each group's test: detectable at ALPHA split over the group's tests, positive, or
    null exactly where the test has no variance."""
    nulls = 0
    for g in groups(cli_json):
        each = 0.001 / g["tests"]
        for name in TESTS:
            t = g["draws"][name]
            want = detectable(Sums(t["n"], t["observed"], t["expected"], t["variance"]), each, name)
            assert t["detectable"] == want, (g["label"], name)
            assert t["detectable_one_in"] == detectable_one_in(want)
            if want is None:
                nulls += 1
                assert t["variance"] == 0
            else:
                assert want > 0
    assert cli_json["overall"]["draws"]["effective"]["detectable"] < 2  # 24,219 draws
    assert 0 < nulls < 3 * len(groups(cli_json))  # players never in tenpai: null, not 0


def test_every_group_json_gives_the_hand_figures_at_its_own_threshold(
    cli_json: dict[str, Any],
) -> None:
    """Each group's hand tests: ``detectable`` at ALPHA split over the group's tests, in
    shanten a hand and dora per 100 hands, positive; its "1 in N" never a smaller shift."""
    for g in groups(cli_json):
        each = 0.001 / g["tests"]
        for name in HAND_TESTS:
            t = g[name]
            if t is None:  # a group without dora variance has no dora test
                continue
            z = ZScore(t["observed"], t["expected"], t["sd"], t["z"], t["p"])
            want = hand_detectable(name, z, g["hands"], each)
            assert want is not None and want > 0
            assert t["detectable"] == want, (g["label"], name)
            one_in = detectable_one_in(want * 100 / HAND_UNIT[name])
            assert t["detectable_one_in"] == one_in
            if one_in is not None:
                assert HAND_UNIT[name] / one_in >= want
    everyone = cli_json["overall"]
    # 2,065 hands: a step in 1 hand of about 11, 1 dora in about 16 hands
    assert 0.05 < everyone["shanten_sum"]["detectable"] < 0.12
    assert everyone["shanten_sum"]["detectable_one_in"] >= 8
    assert 3 < everyone["dora"]["detectable"] < 9
    # a player of 17 hands: too few for a "1 in N"
    few = [g for g in cli_json["players"] if g["hands"] < 30]
    assert few and all(g["shanten_sum"]["detectable_one_in"] is None for g in few)


def test_the_api_gives_the_clis_numbers(cli_json: dict[str, Any]) -> None:
    api = pywall.audit(DATA).to_dict()
    for mine, theirs in zip(groups(api), groups(cli_json), strict=True):
        assert mine["label"] == theirs["label"]
        for name in TESTS:
            for key in ("detectable", "detectable_one_in"):
                assert mine["draws"][name][key] == theirs["draws"][name][key]
        for name in HAND_TESTS:  # the starting hands' too
            for key in ("detectable", "detectable_one_in"):
                assert (mine[name] or {}).get(key) == (theirs[name] or {}).get(key)


def test_the_text_says_it_under_each_line(
    cli_json: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "--jobs", "1", str(DATA)]) == 0
    out = capsys.readouterr().out
    eff = cli_json["overall"]["draws"]["effective"]
    assert (
        f"\n    With these {eff['n']:,} draws, a rigged shuffle that took away (or added) 1 "
        f"effective tile in every {eff['detectable_one_in']:,} draws would be caught 8 times "
        "in 10.\n"
    ) in out
    g = cli_json["overall"]
    mean, dora = g["shanten_sum"], g["dora"]
    assert (
        f"\n    With these {g['hands']:,} starting hands, a rigged shuffle that dealt 1 hand in "
        f"every {mean['detectable_one_in']:,} one shanten further from ready (or closer) would "
        "be caught 8 times in 10.\n"
    ) in out
    assert (
        f"\n    With these {g['hands']:,} starting hands, a rigged shuffle that dealt 1 dora more "
        f"(or fewer) in every {dora['detectable_one_in']:,} hands would be caught 8 times in 10.\n"
    ) in out
    assert "too few hands to see a bias" in out  # a player of a few hands


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_the_html_report_says_it_in_each_language(lang: str, tmp_path: Path) -> None:
    """The report's sentence under each of everyone's draw lines, in the report's language,
    with the JSON's figure on the element (``data-detectable``)."""
    page = tmp_path / "a.html"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["audit", "--json", "--html", str(page), "--lang", lang, str(TENHOU)]) == 0
    doc = json.loads(out.getvalue())
    html = page.read_text(encoding="utf-8")
    for name in TESTS:
        t = doc["overall"]["draws"][name]
        sentence = WORDS[lang][f"detect_{name}"].format(
            n=f"{t['n']:,}", k=f"{t['detectable_one_in']:,}"
        )
        element = (
            f"<span class='detectable hint' data-test='{name}' "
            f"data-detectable='{t['detectable']!r}'>{sentence}</span>"
        )
        assert element in html, (lang, name)
    g = doc["overall"]
    for name in HAND_TESTS:  # under the mean shanten and dora dealt lines
        t = g[name]
        sentence = WORDS[lang][f"detect_{HAND_KEYS[name]}"].format(
            n=f"{g['hands']:,}", k=f"{t['detectable_one_in']:,}"
        )
        element = (
            f"<span class='detectable hint' data-test='{name}' data-part='hands' "
            f"data-detectable='{t['detectable']!r}'>{sentence}</span>"
        )
        assert element in html, (lang, name)
    expected = {
        "en": "would be caught 8 times in 10",
        "ja": "10回中8回見抜けます",
        "zh": "10 次中有 8 次会被发现",
    }
    assert expected[lang] in html


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_too_few_draws_say_so(lang: str) -> None:
    from pywall.audits.html import detectable_words

    test = {"n": 12, "detectable": 130.0, "detectable_one_in": None}
    text = detectable_words("effective", test, WORDS[lang])
    assert text is not None and "12" in text
    assert {"en": "too few draws", "ja": "少なすぎます", "zh": "摸牌太少"}[lang] in text
    assert detectable_words("effective", {"n": 0, "detectable": None}, WORDS[lang]) is None
    one = detectable_words(
        "dora", {"n": 1, "detectable": 400.0, "detectable_one_in": None}, WORDS["en"]
    )
    assert one is not None and one.startswith("With only 1 draw,")
