"""Structurally mangled logs (tags inserted, deleted, repeated) never crash verification."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pywall.results.check import check_log
from tests.helpers import TENHOU, Tags, log_text

BASE = Tags(log_text(TENHOU / "gimite" / "test.mjlog")).tags[:400]
EXTRA = [
    '<DORA hai="5"/>',
    '<N who="0" m="0"/>',
    '<N who="2" m="32"/>',
    "<T0/>",
    "<U135/>",
    '<AGARI who="0" fromWho="0" doraHai="1,2,3,4,5,6,7,8,9,10,11,12" doraHaiUra="1,2,3,4,5,6,7,8"/>',
    (
        '<INIT seed="0,0,0,0,0,0" oya="3" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
        'hai1="0,1,2,3,4,5,6,7,8,9,10,11,12" hai2="0,1,2,3,4,5,6,7,8,9,10,11,12" '
        'hai3="0,1,2,3,4,5,6,7,8,9,10,11,12"/>'
    ),
    '<REACH who="1" step="1"/>',
    "<RYUUKYOKU/>",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(BASE) - 1), st.sampled_from(["del", "dup"] + EXTRA)),
        max_size=40,
    )
)
def test_mangled_tag_sequences_give_a_report(edits: list[tuple[int, str]]) -> None:
    tags = list(BASE)
    for pos, op in edits:
        pos %= len(tags)
        if op == "del" and len(tags) > 3:
            del tags[pos]
        elif op == "dup":
            tags.insert(pos, tags[pos])
        else:
            tags.insert(pos, op)
    report = check_log("mangled.xml", "".join(tags))
    assert report.status in ("verified", "mismatch", "error")


def test_seventy_dora_reveals() -> None:
    tags = list(BASE)
    at = next(i for i, t in enumerate(tags) if re.fullmatch(r"<T\d+/>", t))
    tags[at:at] = ['<DORA hai="5"/>'] * 70
    report = check_log("many-dora.xml", "".join(tags))
    assert report.status == "mismatch"
    beyond = [
        f
        for f in report.findings
        if f.code == "dora_count_mismatch" and "wall can hold" in f.message
    ]
    assert len(beyond) == 1
    count = beyond[0].data["count"]
    assert isinstance(count, int) and count > 0
