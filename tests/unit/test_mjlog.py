"""Reading mjlogs as they are found in the wild, and refusing hostile input."""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.core.archives import MAX_INPUT_BYTES, MAX_XML_BYTES
from pywall.core.errors import InputTooLargeError, LogFormatError, PywallError
from pywall.core.model import Call, DoraReveal, Draw, MeldKind, Win
from pywall.formats import mjlog
from tests.helpers import TENHOU, fixture_paths, log_text

SAMPLE = TENHOU / "tenhou-python-bot" / "1.txt"


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_parses(path: Path) -> None:
    game = mjlog.parse(path.read_bytes(), str(path))
    assert game.rounds
    assert game.player_count in (3, 4)
    assert len(game.names) == game.player_count
    for rnd in game.rounds:
        assert all(len(h) == 13 for h in rnd.hands)


def test_gzip_and_plain_give_the_same_game() -> None:
    raw = SAMPLE.read_bytes()
    assert mjlog.parse(gzip.compress(raw)) == mjlog.parse(raw)


def test_bom_and_crlf() -> None:
    text = log_text(SAMPLE)
    crlf = "\ufeff" + text.replace("><", ">\r\n<")
    assert mjlog.parse(crlf.encode("utf-8")).rounds == mjlog.parse(text).rounds


def test_names_are_percent_decoded() -> None:
    game = mjlog.parse((TENHOU / "dnovikoff" / "sanma2.xml").read_bytes())
    assert game.names == ("Ｘｅｐｈｅｒ", "水＠氷", "九鳳院紫")
    assert game.player_count == 3


def test_three_player_game_has_nuki_calls() -> None:
    game = mjlog.parse((TENHOU / "dnovikoff" / "sanma2.xml").read_bytes())
    kinds = [e.kind for r in game.rounds for e in r.events if isinstance(e, Call)]
    assert kinds.count(MeldKind.NUKI) == 16


def test_round_labels() -> None:
    game = mjlog.parse((TENHOU / "gimite" / "test.mjlog").read_bytes())
    labels = [r.label for r in game.rounds]
    assert labels[0] == "East 1, 0 honba"
    assert any(label.startswith("South") for label in labels)


def test_events_are_read_in_order() -> None:
    game = mjlog.parse(SAMPLE.read_bytes())
    first = game.rounds[0].events
    assert isinstance(first[0], Draw) and first[0].seat == game.rounds[0].dealer
    assert any(isinstance(e, Win) for r in game.rounds for e in r.events)


def test_dora_tags_are_read() -> None:
    game = mjlog.parse((TENHOU / "gimite" / "test.mjlog").read_bytes())
    assert any(isinstance(e, DoraReveal) for r in game.rounds for e in r.events)


def test_truncated_log_is_read_as_incomplete() -> None:
    text = log_text(SAMPLE)
    cut = text[: text.index("<INIT", text.index("<INIT") + 10) + 300]  # inside round 2, mid-tag
    game = mjlog.parse(cut)
    assert not game.complete
    assert len(game.rounds) == 2


def test_unclosed_tag_in_the_middle_is_an_error() -> None:
    text = log_text(SAMPLE)
    i = text.index("<T", text.index("<INIT"))
    with pytest.raises(LogFormatError, match="not closed"):
        mjlog.parse(text[:i] + "<T12" + text[i:])


def test_duplicate_attribute_is_tolerated_and_noted() -> None:
    text = log_text(SAMPLE).replace(' owari="', ' owari="1,2,3,4" owari="', 1)
    game = mjlog.parse(text)
    assert game.complete
    assert any("owari" in q for q in game.quirks)


def test_log_id_from_file_name() -> None:
    name = "2022060222gm-0001-0000-a87679bc&tw=3.mjlog"
    assert mjlog.log_id_from_name(name) == "2022060222gm-0001-0000-a87679bc"
    assert mjlog.log_id_from_name("1.txt") is None


@pytest.mark.parametrize(
    "data,message",
    [
        (b"", "no <mjloggm>"),
        (b"hello world", "no <mjloggm>"),
        (b'{"title": [], "log": []}', "no seed"),
        (b"\xff\xfe\x00<", "not UTF-8"),
        (b"\x1f\x8b\x08\x00garbage", "gzip"),
        (gzip.compress(b"<mjloggm>")[:-6], "truncated"),
        (b'<mjloggm ver="2.3"><INIT seed="1,2"/></mjloggm>', "6 numbers"),
        (
            b'<mjloggm><INIT seed="0,0,0,1,1,5" oya="0" hai0="1,2" hai1="" hai2="" hai3=""/></mjloggm>',
            "dealt 2 tiles",
        ),
        (b'<mjloggm><INIT seed="0,0,0,9,1,5" oya="0"/></mjloggm>', "out of range"),
    ],
    ids=[
        "empty",
        "text",
        "json6",
        "not-utf8",
        "bad-gzip",
        "cut-gzip",
        "short-init",
        "short-hand",
        "dice",
    ],
)
def test_bad_input_says_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        mjlog.parse(data)


def test_bad_tile_in_a_draw_says_where() -> None:
    text = log_text(SAMPLE)
    i = text.index("<T", text.index("<INIT"))
    bad = text[:i] + "<T999/>" + text[i:]
    with pytest.raises(LogFormatError, match=r"tile 999 .*tag \d+ <T999>"):
        mjlog.parse(bad)


def test_dtd_and_entities_are_refused() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
        b'"&lol;&lol;&lol;&lol;">]><mjloggm ver="2.3"><UN n0="&lol2;"/></mjloggm>'
    )
    with pytest.raises(LogFormatError, match="DTD"):
        mjlog.parse(bomb)


def test_gzip_bomb_is_refused_without_inflating_it_all() -> None:
    bomb = gzip.compress(b"<mjloggm>" + b" " * (MAX_XML_BYTES + 10), compresslevel=9)
    assert len(bomb) < 100_000
    with pytest.raises(InputTooLargeError, match="bomb"):
        mjlog.parse(bomb)


def test_oversized_raw_input_is_refused() -> None:
    with pytest.raises(InputTooLargeError):
        mjlog.parse(b" " * (MAX_INPUT_BYTES + 1))


def test_multi_member_gzip() -> None:
    raw = SAMPLE.read_bytes()
    half = len(raw) // 2
    assert mjlog.parse(gzip.compress(raw[:half]) + gzip.compress(raw[half:])) == mjlog.parse(raw)


def test_entities_in_names_are_decoded_not_expanded() -> None:
    text = re.sub(r'n0="[^"]*"', 'n0="a&amp;b&#x3C;&#60;"', log_text(SAMPLE), count=1)
    assert mjlog.parse(text).names[0] == "a&b<<"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_raise_only_pywall_errors(data: bytes) -> None:
    try:
        mjlog.parse(data)
    except PywallError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mangled_real_logs_raise_only_pywall_errors(data: st.DataObject) -> None:
    raw = bytearray(SAMPLE.read_bytes()[:3000])
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw[pos] = data.draw(st.integers(0, 255))
    try:
        mjlog.parse(bytes(raw))
    except PywallError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=500))
def test_arbitrary_gzip_payload_raises_only_pywall_errors(data: bytes) -> None:
    try:
        mjlog.parse(zlib.compress(data, wbits=31) if data else b"\x1f\x8b")
    except PywallError:
        pass


# Players' names are percent-escaped UTF-8; mjlog decodes them without urllib.parse
# (its import was a fifth of the page's start-up), and must answer exactly as it would.
_ESCAPE_TEXT = st.lists(
    st.one_of(
        st.sampled_from(
            ["%", "%%", "%2", "%zz", "%E3%81", "%82", "%e3%81%82", "%FF", "%C3", "%A9", "x", "名"]
        ),
        st.binary(max_size=6).map(lambda b: "".join(f"%{c:02X}" for c in b)),
        st.text(max_size=4),
    ),
    max_size=12,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_ESCAPE_TEXT)
def test_percent_decode_answers_as_urllib_unquote(text: str) -> None:
    from urllib.parse import unquote

    assert mjlog.percent_decode(text) == unquote(text, errors="replace")


def test_percent_decode_reads_a_japanese_name() -> None:
    assert mjlog.percent_decode("%E3%81%82%E3%81%84x%20y") == "あいx y"
    assert mjlog.percent_decode("100%") == "100%"
