"""A report's round carries its layout and its digests typed (issue 22): ``Layout`` and
``DigestResult``, whose JSON is the report's as before, read back and checked by
``from_dict`` (``ValueInputError`` in words for any other shape)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pywall.checks.digests import DigestResult
from pywall.core.errors import ValueInputError
from pywall.core.layout import Layout, WallScheme, layout_for
from pywall.results.check import check_log
from pywall.results.report import FileReport, RoundReport
from tests.helpers import DATA, TENHOU

MD5_RECORD = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RC_FOUR = DATA / "riichicity" / "4ma_gin_han_sample.json"
SANMA = TENHOU / "dnovikoff" / "sanma.xml"
LOG = TENHOU / "gimite" / "test.mjlog"


def detail(path: Path) -> FileReport:
    return check_log(path.name, path.read_bytes(), detail=True)


def test_a_tenhou_rounds_layout_is_its_schemes_and_its_json_deals_by_seat() -> None:
    report = detail(LOG)
    rnd = next(r for r in report.rounds if r.dealer == 1)
    assert rnd.layout == layout_for(WallScheme.TENHOU, 4) and rnd.hashes is None
    d = rnd.to_dict()
    # the JSON as the page and --json always had it: the dealer's seat dealt first, wall[135] down
    assert d["layout"] == layout_for(WallScheme.TENHOU, 4).to_dict(1)
    assert d["layout"]["dealer"] == 1 and d["layout"]["deal"][1][:4] == [135, 134, 133, 132]
    assert d["layout"]["deal"][2][:4] == [131, 130, 129, 128] and d["layout"]["dora"][0] == 5
    assert d["layout"]["dead"] == list(range(14)) and "hashes" not in d


@pytest.mark.parametrize("path", [LOG, SANMA, MD5_RECORD, RC_FOUR], ids=lambda p: p.parent.name)
def test_every_round_reads_back_from_its_json_to_the_same_json(path: Path) -> None:
    for rnd in detail(path).rounds:
        text = json.dumps(rnd.to_dict())
        back = RoundReport.from_dict(json.loads(text))
        assert back == rnd and isinstance(back.layout, Layout)
        assert json.dumps(back.to_dict()) == text


@pytest.mark.parametrize("path", [MD5_RECORD, RC_FOUR], ids=["majsoul-md5", "riichicity"])
def test_a_stated_walls_digests_are_typed_and_read_back(path: Path) -> None:
    rnd = detail(path).rounds[0]
    assert rnd.hashes and all(isinstance(h, DigestResult) and h.match for h in rnd.hashes)
    for h in rnd.hashes:
        d = json.loads(json.dumps(h.to_dict()))
        assert DigestResult.from_dict(d) == h and DigestResult.from_dict(d).to_dict() == d
    salt_missing = DigestResult("sha256", "sha256", "wall", True, 136, "ab" * 32, None)
    assert DigestResult.from_dict(salt_missing.to_dict()) == salt_missing


def _round_json(**change: Any) -> dict[str, Any]:
    d = detail(MD5_RECORD).rounds[0].to_dict()
    d.update(change)
    return d


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"layout": "front"}, "a round's layout must be an object"),
        ({"layout": {"scheme": "sideways"}}, "no known scheme (tenhou, tenhou-late-2009"),
        ({"hashes": {"md5": "x"}}, "a round's hashes must be a list of digests"),
        ({"hashes": ["md5"]}, "a round's digest must be an object"),
        ({"dealer": 3}, "a round's layout is dealt from another seat than its dealer"),
    ],
    ids=["layout-text", "scheme", "hashes-object", "digest-text", "dealer"],
)
def test_a_malformed_round_is_said_in_words(change: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueInputError, match=re.escape(words)):
        RoundReport.from_dict(_round_json(**change))


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("tiles", "83", "needs its tiles (int)"),
        ("salted", 0, "needs its salted (bool)"),
        ("computed", 5, "needs its computed (str)"),
        ("name", None, "needs its name (str)"),
    ],
    ids=["tiles", "salted", "computed", "name"],
)
def test_a_malformed_digest_is_said_in_words(key: str, value: object, words: str) -> None:
    d = detail(MD5_RECORD).rounds[0].to_dict()["hashes"][0]
    with pytest.raises(ValueInputError, match=re.escape(words)):
        DigestResult.from_dict({**d, key: value})
