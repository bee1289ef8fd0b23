"""``pywall.formats.parse_record``: any record, plain or gzip, read by its content.

gzip JSON records (a Mahjong Soul or Riichi City record saved as ``.json.gz``) are read
like plain ones, with a gzip mjlog's caps: at most ``archives.MAX_INPUT_BYTES``
compressed and ``archives.MAX_XML_BYTES`` once decompressed (a bomb is refused).
"""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.checks.verify import verify_game
from pywall.cli import main
from pywall.core.archives import MAX_INPUT_BYTES, MAX_XML_BYTES
from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.core.model import Platform
from pywall.formats import parse_record
from pywall.formats.majsoul import parse_hashes
from pywall.page import api
from pywall.results.check import check_log
from tests.helpers import DATA, TENHOU

MS = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RC = DATA / "riichicity" / "4ma_gin_han_sample.json"
RECORDS = [(MS, Platform.MAJSOUL, 400), (RC, Platform.RIICHICITY, 1274)]
IDS = ["majsoul", "riichicity"]


@pytest.mark.parametrize(("path", "platform", "checked"), RECORDS, ids=IDS)
def test_a_gzip_json_record_reads_like_the_plain_one(
    path: Path, platform: Platform, checked: int
) -> None:
    plain = path.read_bytes()
    game = parse_record(gzip.compress(plain))
    assert game == parse_record(plain)
    assert game.platform is platform
    result = verify_game(game)
    assert result.status == "verified" and result.checked == checked


@pytest.mark.parametrize(("path", "platform", "checked"), RECORDS, ids=IDS)
def test_a_gzip_json_record_in_reports_and_the_page_api(
    path: Path, platform: Platform, checked: int
) -> None:
    packed = gzip.compress(path.read_bytes())
    report = check_log("x.json.gz", packed).to_dict()
    assert report["status"] == "verified" and report["checked"] == checked
    reply = json.loads(api.handle("verify", json.dumps({"name": "x.json.gz"}), packed))
    assert [(f["status"], f["checked"]) for f in reply["files"]] == [("verified", checked)]
    assert reply["files"][0]["game"]["platform"] == platform.value


def test_gzip_of_several_members_and_of_a_tenhou_log() -> None:
    text = MS.read_bytes()
    half = len(text) // 2
    assert parse_record(gzip.compress(text[:half]) + gzip.compress(text[half:])).rounds
    tenhou = (TENHOU / "dnovikoff" / "example.xml").read_bytes()
    assert parse_record(gzip.compress(tenhou)) == parse_record(tenhou)


def test_the_hash_only_reader_takes_gzip_too() -> None:
    assert parse_hashes(gzip.compress(MS.read_bytes())) == parse_hashes(MS.read_bytes())


def test_a_gzip_bomb_is_refused() -> None:
    bomb = gzip.compress(b'{"head": {}, "data": "' + b" " * (MAX_XML_BYTES + 10) + b'"}', 9)
    assert len(bomb) < MAX_INPUT_BYTES
    with pytest.raises(InputTooLargeError, match="bomb"):
        parse_record(bomb)
    assert check_log("bomb.json.gz", bomb).findings[0].code == "too_large"


def test_gzip_input_over_the_cap_is_refused_before_decompressing() -> None:
    big = b"\x1f\x8b" + b"\x00" * MAX_INPUT_BYTES
    with pytest.raises(InputTooLargeError, match="gzip record"):
        parse_record(big)


@pytest.mark.parametrize(
    "data",
    [gzip.compress(RC.read_bytes())[:-20], b"\x1f\x8b\x08\x00garbage"],
    ids=["truncated", "corrupt"],
)
def test_broken_gzip_is_a_format_error(data: bytes) -> None:
    with pytest.raises(LogFormatError):
        parse_record(data)


def test_cli_verifies_gzip_records_as_files_in_folders_and_zips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "game").write_bytes(gzip.compress(MS.read_bytes()))  # no name says what it is
    single = tmp_path / "rc.json.gz"
    single.write_bytes(gzip.compress(RC.read_bytes()))
    archive = tmp_path / "records.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a/ms.json.gz", gzip.compress(MS.read_bytes()))
    code = main(["verify", "--json", str(folder), str(single), str(archive)])
    files = json.loads(capsys.readouterr().out)["files"]
    assert code == 0
    assert [(f["game"]["platform"], f["checked"]) for f in files] == [
        ("majsoul", 400),
        ("riichicity", 1274),
        ("majsoul", 400),
    ]


@given(st.binary(max_size=400))
@settings(max_examples=200)
def test_any_gzip_content_gives_a_game_or_a_pywall_error(data: bytes) -> None:
    for packed in (gzip.compress(data), gzip.compress(b'{"data": {"handRecord": ' + data + b"}}")):
        try:
            verify_game(parse_record(packed))
        except PywallError:
            pass
