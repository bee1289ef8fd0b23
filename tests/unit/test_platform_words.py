"""What a record of another platform tells the page about itself (issue 24, items 6, 7):
the length of a Mahjong Soul room's game (so the rule line is worded in the reader's
language), a room with test settings (a limit, said in words), and a round whose
revealed wall is not its own (no seed is blamed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pywall.checks.stated import LIMITS
from pywall.page.api import verify
from tests.helpers import DATA

MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RC3 = DATA / "riichicity" / "cnrkj069nc7ajnvadk30.json"


def report(record: dict[str, Any] | Path) -> dict[str, Any]:
    data = record.read_bytes() if isinstance(record, Path) else json.dumps(record).encode()
    files = verify({"name": "record.json"}, data)["files"]
    assert len(files) == 1
    return dict(files[0])


def ms_record() -> dict[str, Any]:
    return dict(json.loads(MS.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("mode", "length", "rule"),
    [
        (1, "east", "4-player, East only"),
        (2, "south", "4-player, East-South"),
        (11, "east", "3-player, East only"),
        (12, "south", "3-player, East-South"),
        (99, None, "4-player, rule unknown"),
    ],
    ids=["4p-east", "4p-south", "3p-east", "3p-south", "unknown"],
)
def test_a_majsoul_rooms_length_is_given_apart_from_its_words(
    mode: int, length: str | None, rule: str
) -> None:
    record = ms_record()
    record["head"]["config"]["mode"]["mode"] = mode
    game = report(record)["game"]
    assert (game["rule_length"], game["rule"], game["rule_code"]) == (length, rule, "")


def test_a_record_that_names_no_rule_has_no_length() -> None:
    game = report(RC3)["game"]
    assert (game["rule"], game["rule_length"]) == ("3-player, rule unknown", None)


@pytest.mark.parametrize(
    ("setting", "limited"),
    [
        ({"paixing": 1}, True),
        ({"paixing": 0, "left_count": 0}, False),
        ({}, False),
        (None, False),
    ],
    ids=["preset", "zeros", "empty", "null"],
)
def test_a_room_with_test_settings_carries_its_limit(setting: Any, limited: bool) -> None:
    record = ms_record()
    record["head"]["config"]["mode"]["testing_environment"] = setting
    limits = report(record)["game"]["limits"]
    assert ("testing_environment" in limits) is limited
    assert list(limits) == [code for code in LIMITS if code in limits]


def test_a_revealed_wall_that_is_another_rounds_blames_no_seed() -> None:
    record = ms_record()
    rounds = [
        a["result"]["data"]
        for a in record["data"]["data"]["actions"]
        if "result" in a and a["result"]["name"].endswith("NewRound")
    ]
    rounds[1]["paishan"], rounds[2]["paishan"] = rounds[2]["paishan"], rounds[1]["paishan"]
    found = [f for f in report(record)["findings"] if f["code"] == "wall_unrelated"]
    assert found and all(f["data"]["stated"] is True for f in found)
    assert all(
        "seed" not in f["message"] and "the wall the record reveals" in f["message"] for f in found
    )
