"""The hash-only path of Mahjong Soul records (pywall.formats.majsoul.parse_hashes)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks.majsoul import verify_rounds
from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats.majsoul import MAX_INPUT_BYTES
from pywall.formats.majsoul import parse_hashes as parse
from tests.unit.test_majsoul import SALT, SANMA, VECTOR, yonma_wall


def new_round(chang: int, ju: int, ben: int, seed: int, salt: str = "salt") -> dict[str, Any]:
    wall = yonma_wall(seed)
    return {
        "chang": chang, "ju": ju, "ben": ben, "dora": "3p", "scores": [25000] * 4,
        "tiles0": ["1m"], "md5": "", "paishan": wall, "left_tile_count": 69,
        "sha256": hashlib.sha256((wall + salt).encode()).hexdigest(),
        "saltSha256": hashlib.sha256(salt.encode()).hexdigest(), "salt": salt,
    }  # fmt: skip


def actions_record(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The shape of a downloaded record: head + data.actions[].result.{name, data}."""
    actions = []
    for r in rounds:
        actions.append({"passed": 0, "type": 1,
                        "result": {"name": ".lq.RecordNewRound", "data": r}})  # fmt: skip
        actions.append({"type": 1, "result": {"name": ".lq.RecordDiscardTile",
                                              "data": {"seat": 0, "tile": "1m"}}})  # fmt: skip
    return {"head": {"uuid": "240101-abcdef", "config": {"mode": {"mode": 1}}},
            "data": {"name": ".lq.GameDetailRecords", "data": {"version": 210715,
                                                               "actions": actions}}}  # fmt: skip


def dump(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def test_actions_shape() -> None:
    rounds = [new_round(0, 0, 0, 1), new_round(0, 1, 0, 2), new_round(1, 3, 2, 3)]
    record = parse(dump(actions_record(rounds)))
    assert record.uuid == "240101-abcdef"
    assert [r.label for r in record.rounds] == ["East 1, 0 honba", "East 2, 0 honba",
                                                 "South 4, 2 honba"]  # fmt: skip
    assert record.rounds[0].md5 is None  # "" means not stated
    assert verify_rounds(record.rounds).ok


def test_flat_records_shape_and_snake_case() -> None:
    r = new_round(0, 0, 0, 1)
    r["salt_sha256"] = r.pop("saltSha256")
    record = parse(dump({"records": [{"name": ".lq.RecordNewRound", "data": r}]}))
    assert record.rounds[0].salt_sha256 == r["salt_sha256"]
    assert record.uuid is None


def test_bare_round_and_list_of_rounds() -> None:
    bare = {"paishan": SANMA, "salt": SALT, "sha256": VECTOR["sha256"],
            "saltSha256": VECTOR["saltSha256"]}  # fmt: skip
    assert verify_rounds(parse(dump(bare)).rounds).ok
    assert len(parse(json.dumps([bare, new_round(0, 0, 0, 5)])).rounds) == 2


def test_duplicates_are_kept_once_and_order_is_document_order() -> None:
    a, b = new_round(0, 0, 0, 1), new_round(0, 1, 0, 2)
    record = parse(dump({"x": [a, b], "copy": {"again": [a]}}))
    assert [r.ju for r in record.rounds] == [0, 1]


def test_round_numbers_are_liberal() -> None:
    r = new_round(0, 0, 0, 1) | {"chang": "1", "ju": True, "ben": -3}
    (got,) = parse(dump(r)).rounds
    assert (got.chang, got.ju, got.ben) == (1, None, None)
    assert got.label is None


def test_utf8_bom_and_text_input() -> None:
    data = b"\xef\xbb\xbf" + dump(new_round(0, 0, 0, 1))
    assert len(parse(data).rounds) == 1
    assert len(parse(data.decode("utf-8")).rounds) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not JSON"),
        (b"{\"paishan\": ", "not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{\"head\": {}, \"data\": \"CgRkYXRh\"}", "no round with a 'paishan'"),
        (b"[]", "no round"),
        (b"{\"paishan\": [1, 2, 3]}", "'paishan' is not text"),
        (b"{\"a\": [{\"paishan\": \"1m\", \"salt\": 5}]}", r"'salt' is not text \(\$\.a\[0\]\)"),
        (b"[" * 100000 + b"]" * 100000, "not JSON pywall can read"),
        (b"1" * 5000, "not JSON pywall can read"),
    ],
    ids=["empty", "truncated", "utf16", "undecoded-protobuf", "empty-list", "paishan-list",
         "salt-number", "deep-nesting", "huge-integer"],
)  # fmt: skip
def test_bad_records(data: bytes, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        parse(data)


def test_size_cap() -> None:
    with pytest.raises(InputTooLargeError):
        parse(b" " * (MAX_INPUT_BYTES + 1))


def test_lone_surrogate_salt_is_hashed_not_crashed() -> None:
    data = (
        b'{"paishan": "' + SANMA.encode() + b'", "salt": "\\ud800", "sha256": "' + b"0" * 64 + b'"}'
    )
    report = verify_rounds(parse(data).rounds)
    assert [f.code for f in report.findings] == ["hash_mismatch"]


# --- properties ------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["paishan", "salt", "sha256", "md5", "chang", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@given(st.binary(max_size=200))
def test_parse_raises_only_pywall_errors_on_bytes(data: bytes) -> None:
    try:
        parse(data)
    except PywallError:
        pass


@given(json_values)
@settings(max_examples=300)
def test_parse_and_verify_raise_only_pywall_errors_on_json(value: Any) -> None:
    try:
        verify_rounds(parse(json.dumps(value)).rounds)
    except PywallError:
        pass
