"""Issue 13, items 1, 2, 8 and 9: hostile Tenhou logs give a ``PywallError``, quickly."""

from __future__ import annotations

import gzip
import re

import pytest

from pywall.core.archives import MAX_STREAMS, bunzip_bounded, gunzip_bounded
from pywall.core.errors import LogFormatError, PywallError
from pywall.formats import mjlog
from pywall.results.check import check_log
from tests.helpers import TENHOU, log_text

LOG = log_text(TENHOU / "tenhou-python-bot" / "1.txt")


# --- item 1: digits that int() refuses ---------------------------------------------------------


@pytest.mark.parametrize(
    "tag",
    ["<T\u00b2/>", "<D\u0663/>", "<T" + "9" * 5000 + "/>", "<U" + "0" * 5000 + "7/>"],
    ids=["superscript-two", "arabic-indic-three", "5000-digits", "5000-zeros"],
)
def test_odd_digits_in_a_move_tag_are_a_log_error_or_ignored(tag: str) -> None:
    text = (
        '<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,1,2,3" ten="250,250,250,250" oya="0" '
        + " ".join(f'hai{s}="{",".join(str(13 * s + i) for i in range(13))}"' for s in range(4))
        + "/>"
        + tag
    )
    try:
        mjlog.parse(text)
    except PywallError:
        pass
    report = check_log("a.xml", text)
    assert report.status in ("mismatch", "error")


def test_the_issue_reproducer_is_a_log_error() -> None:
    assert check_log("a.xml", b"<mjloggm><INIT/><T\xc2\xb2/>").status == "error"


@pytest.mark.parametrize(
    "entity",
    ["&#\u00b2;", "&#" + "9" * 5000 + ";", "&#x" + "f" * 5000 + ";"],
    ids=["superscript", "long-decimal", "long-hex"],
)
def test_odd_character_references_never_crash(entity: str) -> None:
    game = mjlog.parse(f'<mjloggm ver="2.3"><UN n0="{entity}" n1="b" n2="c" n3="d"/>')
    assert game.names[1] == "b"


# --- item 2: the player count changes after INIT -------------------------------------------


def test_a_go_tag_that_makes_a_four_player_log_three_player_late_is_refused() -> None:
    at = LOG.rindex("<INIT")
    text = LOG[:at] + '<GO type="16"/>' + LOG[at:]
    with pytest.raises(LogFormatError, match="player count changes from 4 to 3"):
        mjlog.parse(text)
    assert check_log("late-go.xml", text).status == "error"


def test_a_go_tag_that_repeats_the_same_count_is_fine() -> None:
    go = re.search(r"<GO [^>]*>", LOG)
    assert go is not None
    at = LOG.rindex("<INIT")
    assert check_log("same-go.xml", LOG[:at] + go.group(0) + LOG[at:]).status == "verified"


# --- item 9: attribute reading is linear --------------------------------------------------------


@pytest.mark.timeout(60)
def test_long_attribute_names_are_refused_quickly() -> None:
    with pytest.raises(LogFormatError, match="a tag of over"):
        mjlog.parse('<mjloggm ver="2.3"><UN ' + "a" * 100_000 + "=/>")


@pytest.mark.timeout(60)
def test_a_long_name_under_the_cap_is_read_in_linear_time() -> None:
    game = mjlog.parse('<mjloggm ver="2.3"><UN ' + "a" * 60_000 + '= n1="b"/>')
    assert game.names[:2] == ("", "b")


def test_an_unterminated_long_value_is_read_in_linear_time() -> None:
    body = '<UN n0="' + "a=b " * 15_000 + "/>"  # 60,000 characters, under the tag cap
    game = mjlog.parse('<mjloggm ver="2.3">' + body)
    assert game.names[0] == ""


# --- item 8: many gzip members or bz2 streams --------------------------------------------------


def test_thousands_of_empty_gzip_members_are_refused() -> None:
    data = gzip.compress(b"", mtime=0) * (MAX_STREAMS + 1)
    with pytest.raises(LogFormatError, match="gzip streams"):
        gunzip_bounded(data, 1 << 20)


def test_a_16_mib_file_of_empty_gzip_members_is_refused() -> None:
    member = gzip.compress(b"", mtime=0)
    data = member * (16 * 1024 * 1024 // len(member))
    with pytest.raises(PywallError):
        mjlog.parse(data)


def test_empty_bz2_streams_are_refused() -> None:
    import bz2

    with pytest.raises(LogFormatError, match="bz2 streams"):
        bunzip_bounded(bz2.compress(b"") * (MAX_STREAMS + 1), 1 << 20)


def test_a_few_members_still_read_in_order() -> None:
    data = b"".join(
        gzip.compress(part, mtime=0) for part in (b"<mjloggm", b' ver="2.3">', b"</mjloggm>")
    )
    assert gunzip_bounded(data, 1 << 20) == b'<mjloggm ver="2.3"></mjloggm>'
    big = gzip.compress(LOG.encode(), mtime=0)
    assert gunzip_bounded(big + big, 1 << 24) == LOG.encode() * 2
