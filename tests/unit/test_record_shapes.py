"""Issue 23, part 2: record shapes players have.

- A Mahjong Soul record as Python downloaders save it with the protobuf JSON mapping
  (PyMajsoul's downloader: ``MessageToJson`` of the lobby's answer, then each record
  as ``MessageToDict`` with its message name under ``@type`` in a ``details`` list):
  lowerCamelCase keys, fields at their default value left out, 64-bit integers as
  strings. No such file is in tests/data: **these tests convert the real records**
  (the 2021 MD5-era game, RiichiEnv's 2024 round with the digests restated) to that
  shape, as the mapping writes it, and expect the same tiles checked and the same
  findings, and an altered copy caught at the same place.
- A Riichi City record saved as the record API's ``data`` object, without its
  ``{code, message, data}`` wrapper (the real records, unwrapped).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pywall.checks.verify import GameResult, verify_game
from pywall.formats import parse_record
from tests.unit.test_majsoul_record import md5_record, other, sha_record
from tests.unit.test_riichicity import FOUR, RED_RULE, THREE, edit, load

Record = dict[str, Any]


def camel(key: str) -> str:
    first, *rest = key.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def proto_json(value: Any, ints_as_text: bool) -> Any:
    """``value`` as the protobuf JSON mapping writes it: lowerCamelCase keys, a field at its
    default (0, false, "", empty) left out, and (``ints_as_text``) every integer as a
    string, as the mapping writes 64-bit ones: whichever fields a downloader's proto makes
    64-bit, the reader takes them."""
    if isinstance(value, dict):
        return {
            camel(k): proto_json(v, ints_as_text)
            for k, v in value.items()
            if v not in (0, "", [], {}, None) or isinstance(v, float)
        }
    if isinstance(value, list):
        return [proto_json(v, ints_as_text) for v in value]
    if ints_as_text and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def events_of(record: Record) -> list[Record]:
    if "events" in record:
        return list(record["events"])
    return [a["result"] for a in record["data"]["data"]["actions"] if "result" in a]


def downloaded(record: Record, ints_as_text: bool = False, any_type: bool = False) -> Record:
    """A record as a Python downloader saves it: the lobby's answer (head, the still
    encoded ``data``, ``dataUrl``) and the decoded records as ``details``."""
    prefix = "type.googleapis.com/lq." if any_type else ""
    details = [
        {
            "@type": prefix + "Record" + e["name"].removeprefix(".lq.").removeprefix("Record"),
            **proto_json(e["data"], ints_as_text),
        }
        for e in events_of(record)
    ]
    return {
        "head": proto_json(record.get("head", {}), ints_as_text),
        "data": "CgRkYXRh",
        "dataUrl": "https://example.invalid/record",
        "details": details,
    }


def check(record: Record) -> GameResult:
    return verify_game(parse_record(json.dumps(record, ensure_ascii=False).encode()))


def same(a: GameResult, b: GameResult) -> None:
    assert a.checked == b.checked and a.status == b.status
    assert [(f.code, f.severity, f.round, f.message) for f in a.findings] == [
        (f.code, f.severity, f.round, f.message) for f in b.findings
    ]


SHAPES = [(False, False), (True, False), (True, True)]
SHAPE_IDS = ["camel-case", "ints-as-text", "any-type-url"]


@pytest.mark.parametrize(("ints_as_text", "any_type"), SHAPES, ids=SHAPE_IDS)
def test_the_md5_era_record_as_downloaded_verifies_like_the_original(
    ints_as_text: bool, any_type: bool
) -> None:
    record = md5_record()
    shaped = downloaded(record, ints_as_text, any_type)
    text = json.dumps(shaped)
    assert '"leftTileCount"' in text and '"left_tile_count"' not in text and '"seat": 0' not in text
    original, converted = check(record), check(shaped)
    same(original, converted)
    assert converted.status == "verified" and converted.checked == 400
    game = parse_record(text.encode())
    assert game.names[0] == "六文そば新橋店" and game.date == "2021-08-15T14:51:03+00:00"
    assert game.game_id == "210815-6da08e40-2605-42fb-a5e3-f8aa5940362a"


@pytest.mark.parametrize(("ints_as_text", "any_type"), SHAPES, ids=SHAPE_IDS)
def test_the_sha256_era_round_as_downloaded_verifies_like_the_original(
    ints_as_text: bool, any_type: bool
) -> None:
    record = sha_record()
    converted = check(downloaded(record, ints_as_text, any_type))
    same(check(record), converted)
    assert converted.status == "verified" and converted.checked == 76
    assert {f.code for f in converted.findings} == {"sha256_match", "salt_hash_match"}


@pytest.mark.parametrize("seat", [0, 1])
def test_an_altered_draw_is_caught_in_the_downloaded_shape_as_in_the_original(seat: int) -> None:
    """Seat 0's draw is the case the mapping leaves its seat out of."""
    record = md5_record()
    draw = [
        e for e in events_of(record) if e["name"].endswith("DealTile") and e["data"]["seat"] == seat
    ][5]
    draw["data"]["tile"] = other(draw["data"]["tile"])
    original, converted = check(record), check(downloaded(record, ints_as_text=True))
    same(original, converted)
    (error,) = [f for f in converted.findings if f.severity.value == "error"]
    assert error.code == "draw_mismatch" and error.data["seat"] == seat


def test_an_altered_indicator_and_hash_are_caught_in_the_downloaded_shape() -> None:
    record = sha_record()
    start = events_of(record)[0]["data"]
    start["doras"] = [other(start["doras"][0])]
    converted = check(downloaded(record, ints_as_text=True))
    same(check(record), converted)
    assert "dora_mismatch" in {f.code for f in converted.findings}
    record = sha_record()
    events_of(record)[0]["data"]["sha256"] = "0" * 64
    converted = check(downloaded(record))
    same(check(record), converted)
    assert converted.status == "mismatch" and "hash_mismatch" in {
        f.code for f in converted.findings
    }


# --- Riichi City: the API's data object, without its wrapper ------------------------------------


@pytest.mark.parametrize("path", [FOUR, THREE, RED_RULE], ids=lambda p: p.stem)
def test_a_riichi_city_data_object_saved_alone_verifies_like_the_answer(path: Any) -> None:
    record = load(path)
    assert set(record) >= {"code", "data"}  # the fixture is the API's whole answer
    unwrapped, whole = check(record["data"]), check(record)
    same(whole, unwrapped)
    assert unwrapped.status == "verified" and unwrapped.checked > 200


def test_an_altered_riichi_city_data_object_is_caught_where_the_answer_is() -> None:
    record = load(FOUR)
    rnd = record["data"]["handRecord"][3]

    done: list[bool] = []

    def change(data: Record) -> bool:
        if done or not data.get("in_card") or data.get("is_gang_incard"):
            return False
        done.append(True)
        data["in_card"] = 0x31 if data["in_card"] != 0x31 else 0x41
        return True

    assert edit(rnd, 2, change) == 1
    unwrapped = check(record["data"])
    same(check(record), unwrapped)
    first_error = next(f for f in unwrapped.findings if f.severity.value == "error")
    assert (first_error.code, first_error.round) == ("draw_mismatch", 3)
