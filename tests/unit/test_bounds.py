"""Issue 23, part 3: bounded work, not only bounded bytes (pywall.core.limits).

Each cap is met by a record made from a real one (tests/data), so what trips it is the
cap and nothing else: rounds per game, events per round, wins per result, tile checks
and findings per game, JSON values and nesting, a zip's directory, its member names,
and an empty zip. The same inputs through the command line, with their time and
memory, are in test_cli_work.py.
"""

from __future__ import annotations

import gzip
import io
import json
import struct
import zipfile
from typing import Any

import pytest

from pywall.checks.verify import verify_game
from pywall.core import limits
from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.formats import majsoul, majsoul_hashes, mjlog, mjlog_tags, parse_record, riichicity
from pywall.inputs.zips import count_zip, iter_zip
from pywall.page import api
from pywall.results.check import check_log
from tests.helpers import DATA, TENHOU, log_text

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
RC = DATA / "riichicity" / "4ma_gin_han_sample.json"
MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"


def head_and_round(text: str) -> tuple[str, str, str]:
    """The log before its first INIT, its first round (INIT to the next INIT), and that INIT."""
    first = text.index("<INIT")
    second = text.index("<INIT", first + 1)
    return text[:first], text[first:second], text[first : text.index(">", first) + 1]


def repeated_rounds(rounds: int, altered: bool = False) -> str:
    """The real log's first round ``rounds`` times (the seed makes a new wall for each, so
    each copy after the first mismatches); ``altered``: its first draw changed too."""
    head, rnd, _ = head_and_round(log_text(LOG))
    if altered:
        at = rnd.index("<T")
        end = rnd.index("/>", at)
        rnd = rnd[:at] + f"<T{(int(rnd[at + 2 : end]) + 4) % 136}" + rnd[end:]
    return head + rnd * rounds + "</mjloggm>"


# --- rounds, events, wins ------------------------------------------------------------------


def test_a_log_of_bare_init_tags_stops_at_the_round_cap() -> None:
    head, _, init = head_and_round(log_text(LOG))
    text = head + init * 60_000 + "</mjloggm>"
    with pytest.raises(
        LogFormatError, match=r"a game of over 100 rounds \(real games have about 30\)"
    ):
        mjlog.parse(text)


def test_a_game_of_the_round_cap_is_read() -> None:
    game = mjlog.parse(repeated_rounds(limits.MAX_ROUNDS))
    assert len(game.rounds) == limits.MAX_ROUNDS


def test_riichi_city_and_mahjong_soul_rounds_are_capped_alike() -> None:
    record = json.loads(RC.read_text(encoding="utf-8"))
    record["data"]["handRecord"] *= 9  # 108 rounds
    with pytest.raises(LogFormatError, match="108 rounds: over the 100 pywall reads"):
        riichicity.parse(json.dumps(record))
    ms = json.loads(MS.read_text(encoding="utf-8"))
    ms["data"]["data"]["actions"] *= 12  # 9 rounds a copy: 108
    with pytest.raises(LogFormatError, match="108 rounds: over the 100 pywall reads"):
        majsoul.parse(json.dumps(ms))


def test_a_result_of_many_wins_is_refused() -> None:
    ms = json.loads(MS.read_text(encoding="utf-8"))
    hule = next(
        a
        for a in ms["data"]["data"]["actions"]
        if a.get("result", {}).get("name", "").endswith("Hule")
    )
    hule["result"]["data"]["hules"] *= 1_000
    with pytest.raises(LogFormatError, match="1,000 wins in one result"):
        majsoul.parse(json.dumps(ms))


# --- tile checks and findings per game -----------------------------------------------------


def test_findings_are_capped_per_game_and_the_rest_counted() -> None:
    result = verify_game(mjlog.parse(repeated_rounds(90, altered=True)))
    more = [f for f in result.findings if f.code == "more_findings"]
    assert len(result.findings) == limits.MAX_FINDINGS + 1 and len(more) == 1
    count = more[0].data["count"]
    assert isinstance(count, int) and count > 1000
    assert f"{count:,} more findings" in more[0].message
    assert result.status == "mismatch" and more[0].severity.value == "error"


def test_a_game_over_the_tile_check_cap_is_not_verified() -> None:
    """Each AGARI repeats the round's dora and ura indicator: 1,000 of them are 2,000
    tile checks a round, so the tenth round takes the game over 20,000."""
    text = log_text(LOG)
    head, rnd, _ = head_and_round(text)
    agari = next(t for t in mjlog_tags.iter_tags(text) if t.name == "AGARI")
    dora = agari.attrs["doraHai"].split(",")[0]
    win = f'<AGARI who="0" fromWho="0" doraHai="{dora}" doraHaiUra="0"/>'
    report = check_log("wins.xml", head + (rnd + win * 1000) * 12 + "</mjloggm>")
    assert report.status == "error" and report.checked <= limits.MAX_ROWS
    assert [f.code for f in report.findings if f.code == "too_large"] == ["too_large"]
    assert "over 20,000 tile checks" in next(
        f.message for f in report.findings if f.code == "too_large"
    )


# --- JSON: bytes, values and nesting before json.loads ------------------------------------

DEEP = "[" * 200_000


@pytest.mark.parametrize(
    "reader",
    [parse_record, majsoul.parse, riichicity.parse, majsoul_hashes.parse_hashes],
    ids=["parse_record", "majsoul", "riichicity", "majsoul_hashes"],
)
def test_200000_brackets_are_a_clear_error_in_every_reader(reader: Any) -> None:
    for data in (DEEP, DEEP.encode(), gzip.compress(DEEP.encode())):
        with pytest.raises(LogFormatError, match="nests deeper than 64 levels"):
            reader(data)


def test_200000_brackets_in_a_riichi_city_event_are_a_clear_error() -> None:
    record = json.loads(RC.read_text(encoding="utf-8"))
    record["data"]["handRecord"][0]["handEventRecord"][3]["data"] = DEEP
    with pytest.raises(LogFormatError, match=r"nests deeper than 64 levels.*\(round 1, event 4\)"):
        riichicity.parse(json.dumps(record))


def test_200000_brackets_as_a_request_payload_are_a_bad_request() -> None:
    for kind in ("verify", "audit", "wall_svg", "majsoul", "no_such_request"):
        reply = json.loads(api.handle(kind, DEEP, b""))
        assert reply["error"]["code"] == "bad_request", reply
        assert "nests deeper than 64 levels" in reply["error"]["message"]


def test_a_16_kb_gzip_of_empty_objects_is_refused_before_json_loads() -> None:
    body = b'{"a":[' + b"{}," * (5 * 1024 * 1024) + b"{}]}"
    small = gzip.compress(body, 9)
    assert len(small) < 20_000
    with pytest.raises(InputTooLargeError, match=r"holds over 1,000,000 values"):
        parse_record(small)


def test_json_records_are_capped_like_logs() -> None:
    with pytest.raises(InputTooLargeError, match="over 16 MiB"):
        parse_record(b"{" + b" " * limits.MAX_RECORD_BYTES + b"}")


@pytest.mark.parametrize(
    ("text", "deep"),
    [
        ("[" * 65 + "]" * 65, True),
        ("[" * 64 + "]" * 64, False),
        ('["' + "[" * 500 + '"]', False),
        ('{"a":' * 40 + "1" + "}" * 40 + "," + "[" * 30, True),
        ("[[]," * 100 + "]" * 100, True),
        ('"\\"[[[[' + "[" * 100 + '"', False),
        ("[]" * 1000, False),
    ],
    ids=["65", "64", "in-a-string", "open-after-deep", "open-brackets", "escaped-quote", "flat"],
)
def test_the_depth_count(text: str, deep: bool) -> None:
    assert (limits.json_depth_problem(text) is not None) is deep
    if not deep:  # the count never says "fine" where json.loads would recurse deeper
        try:
            json.loads(text)
        except json.JSONDecodeError:
            pass


def test_real_records_are_within_every_json_cap() -> None:
    for path in [
        *sorted((DATA / "majsoul").glob("*.json")),
        *sorted((DATA / "riichicity").glob("*.json")),
    ]:
        text = path.read_text(encoding="utf-8")
        assert (
            limits.json_depth_problem(text) is None and limits.json_values_problem(text) is None
        ), path


# --- zips -------------------------------------------------------------------------------------


def stored_zip(names: list[bytes], utf8: bool = False) -> bytes:
    """A zip of empty stored members, written by hand (fast for 300,000 of them)."""
    flag = 0x800 if utf8 else 0
    local, central, at = [], [], 0
    for name in names:
        header = (
            struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flag, 0, 0, 0, 0, 0, 0, len(name), 0)
            + name
        )
        central.append(
            struct.pack(
                "<4sHHHHHHIIIHHHHHII",
                b"PK\x01\x02",
                20,
                20,
                flag,
                0,
                0,
                0,
                0,
                0,
                0,
                len(name),
                0,
                0,
                0,
                0,
                0,
                at,
            )
            + name
        )
        local.append(header)
        at += len(header)
    directory = b"".join(central)
    count = min(len(names), 0xFFFF)
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, len(directory), at, 0)
    return b"".join(local) + directory + end


def test_a_zip_of_more_members_than_the_cap_is_refused_from_its_end_record() -> None:
    names = [f"{i:06}.xml".encode() for i in range(250_000)]
    data = bytearray(stored_zip(names))
    data[-12:-8] = struct.pack("<HH", 0xFFFF, 0xFFFF)  # as a ZIP64 writer would, with its record:
    directory_size, directory_at = struct.unpack("<II", data[-10:-2])
    zip64 = struct.pack(
        "<4sQHHIIQQQQ",
        b"PK\x06\x06",
        44,
        45,
        45,
        0,
        0,
        250_000,
        250_000,
        directory_size,
        directory_at,
    )
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, directory_at + directory_size, 1)
    data[-22:-22] = zip64 + locator
    entries = list(iter_zip(io.BytesIO(bytes(data)), "many.zip"))
    assert len(entries) == 1 and isinstance(entries[0][1], InputTooLargeError)
    assert "250,000 members; the cap is 200,000" in entries[0][1].message


def test_an_undecodable_member_name_costs_that_member_only() -> None:
    data = stored_zip([b"a.xml", b"b\xff\xfe.xml", b"c.xml"], utf8=True)
    with pytest.raises(UnicodeDecodeError):
        zipfile.ZipFile(io.BytesIO(data))  # what zipfile alone does with it
    entries = list(iter_zip(io.BytesIO(data), "z"))
    assert [n for n, _ in entries] == ["z/a.xml", "z/b??.xml", "z/c.xml"]
    assert [type(c).__name__ for _, c in entries] == ["bytes", "LogFormatError", "bytes"]
    assert "name as UTF-8, but it is not" in str(entries[1][1])
    assert count_zip(io.BytesIO(data)) == 3


def test_an_empty_zip_is_one_error_entry() -> None:
    buf = io.BytesIO()
    zipfile.ZipFile(buf, "w").close()
    entries = list(iter_zip(io.BytesIO(buf.getvalue()), "empty.zip"))
    assert len(entries) == 1 and isinstance(entries[0][1], PywallError)
    assert "holds no files" in entries[0][1].message
    assert count_zip(io.BytesIO(buf.getvalue())) == 1
    reply = json.loads(api.handle("verify", json.dumps({"name": "empty.zip"}), buf.getvalue()))
    assert reply["summary"]["error"] == 1 and reply["rows"][0]["path"] == "empty.zip"


def test_a_zip_whose_end_record_understates_its_members_is_refused_before_zipfile() -> None:
    """250,000 entries, the 16-bit count saying 65,535: the directory is counted first."""
    data = stored_zip([f"{i:06}.xml".encode() for i in range(250_000)])
    entries = list(iter_zip(io.BytesIO(data), "many.zip"))
    assert len(entries) == 1 and "over 200,000 members" in str(entries[0][1])
