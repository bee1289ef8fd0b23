"""What pywall.checks.stated checks of a wall a record states, and what it says no check can prove."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pywall.checks.stated import LIMITS, limits_of
from pywall.checks.verify import verify_game
from pywall.formats import parse_record
from pywall.results.check import check_log
from pywall.results.report import FileReport
from tests.helpers import DATA, TENHOU
from tests.unit.test_majsoul_record import MD5_RECORD, SHA_ROUND, sha_record

RC_FOUR = DATA / "riichicity" / "4ma_gin_han_sample.json"


def report(data: bytes, detail: bool = False) -> dict[str, Any]:
    return check_log("x", data, detail=detail).to_dict()


@pytest.mark.parametrize(
    ("data", "limits"),
    [
        (
            MD5_RECORD.read_bytes(),
            [
                "unrevealed_tiles",
                "digest_from_record",
                "deal_outside_hash",
                "unsalted_digest",
                "platform_chooses_walls",
            ],
        ),
        (
            json.dumps(sha_record()).encode(),
            ["unrevealed_tiles", "digest_from_record", "platform_chooses_walls"],
        ),
        (SHA_ROUND.read_bytes(), ["unrevealed_tiles", "no_commitment", "platform_chooses_walls"]),
        (
            RC_FOUR.read_bytes(),
            ["unrevealed_tiles", "digest_from_record", "unsalted_digest", "platform_chooses_walls"],
        ),
        ((TENHOU / "gimite" / "test.mjlog").read_bytes(), []),
    ],
    ids=["majsoul-md5", "majsoul-sha256-salted", "majsoul-no-digest", "riichicity", "tenhou"],
)
def test_a_game_says_what_its_checks_cannot_prove(data: bytes, limits: list[str]) -> None:
    assert report(data)["game"]["limits"] == limits
    assert all(code in LIMITS for code in limits)


def test_limits_follow_the_table_order() -> None:
    game = parse_record(MD5_RECORD.read_bytes())
    assert list(limits_of(reversed(game.rounds))) == [
        c for c in LIMITS if c in limits_of(game.rounds)
    ]


@pytest.mark.parametrize(
    ("data", "first"),
    [
        (
            MD5_RECORD.read_bytes(),
            [
                {
                    "name": "md5",
                    "algorithm": "md5",
                    "covers": "undealt",
                    "salted": False,
                    "tiles": 83,
                    "match": True,
                }
            ],
        ),
        (
            json.dumps(sha_record()).encode(),
            [
                {
                    "name": "sha256",
                    "algorithm": "sha256",
                    "covers": "wall",
                    "salted": True,
                    "tiles": 136,
                    "match": True,
                },
                {
                    "name": "saltSha256",
                    "algorithm": "sha256",
                    "covers": "salt",
                    "salted": False,
                    "tiles": 0,
                    "match": True,
                },
            ],
        ),
        (SHA_ROUND.read_bytes(), []),
    ],
    ids=["md5", "sha256-salted", "none"],
)
def test_each_round_carries_its_digests(data: bytes, first: list[dict[str, Any]]) -> None:
    """With or without detail (the CLI's JSON has them too): what each covers, and the result."""
    for detail in (False, True):
        hashes = report(data, detail)["rounds"][0]["hashes"]
        assert [{k: h[k] for k in first[0]} for h in hashes] == first if first else hashes == []
        assert all(h["stated"] == h["computed"] for h in hashes)


def test_riichicity_rounds_carry_every_copy_of_the_digest() -> None:
    rounds = report(RC_FOUR.read_bytes())["rounds"]
    assert all(len(r["hashes"]) == 5 and all(h["match"] for h in r["hashes"]) for r in rounds)
    assert rounds[0]["hashes"][0]["name"] == "handCardsSHA256"
    assert {(h["covers"], h["salted"], h["tiles"]) for h in rounds[0]["hashes"]} == {
        ("wall", False, 136)
    }


def test_a_digest_without_its_salt_has_no_computed_value() -> None:
    record = sha_record()
    del record["events"][0]["data"]["salt"]
    hashes = report(json.dumps(record).encode())["rounds"][0]["hashes"]
    assert [(h["name"], h["computed"], h["match"]) for h in hashes] == [
        ("sha256", None, None),
        ("saltSha256", None, None),
    ]


def test_a_mismatched_digest_is_reported_in_its_round() -> None:
    record = sha_record()
    record["events"][0]["data"]["sha256"] = "0" * 64
    d = report(json.dumps(record).encode())
    assert [h["match"] for h in d["rounds"][0]["hashes"]] == [False, True]
    assert d["status"] == "mismatch" and d["rounds"][0]["result"] == "mismatch"


def test_tenhou_rounds_carry_no_digests() -> None:
    d = report((TENHOU / "gimite" / "test.mjlog").read_bytes(), detail=True)
    assert all("hashes" not in r for r in d["rounds"])


@pytest.mark.parametrize("path", [MD5_RECORD, RC_FOUR], ids=["majsoul", "riichicity"])
def test_platform_reports_round_trip(path: Any) -> None:
    full = check_log(str(path), path.read_bytes(), detail=True, starting=True)
    assert FileReport.from_dict(json.loads(json.dumps(full.to_dict()))) == full
    result = verify_game(parse_record(path.read_bytes()))
    assert result.limits == tuple(full.to_dict()["game"]["limits"])
