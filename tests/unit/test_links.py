"""pywall.formats.links: Tenhou links and ids (plain and hidden), Mahjong Soul replay links."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pywall.formats.links import _T, link_from_text, real_log_id


def hide(log_id: str) -> str:
    """The inverse of real_log_id's arithmetic, written out from the facts, to test it."""
    head, _, last = log_id.rpartition("-")
    first, second = int(last[:4], 16), int(last[4:], 16)
    index = int("3" + log_id[4:10]) % (33 - int(log_id[9])) if log_id[:12] > "2010041111gm" else 0
    a = 0x1234
    b = first ^ a ^ _T[index]
    c = second ^ b ^ _T[index] ^ _T[index + 1]
    return f"{head}-x{a:04x}{b:04x}{c:04x}"


@pytest.mark.parametrize(
    "log_id",
    [
        "2022060222gm-0001-0000-a87679bc",
        "2009100718gm-00e1-0000-470654d3",
        "2019010100gm-00a9-0000-0000ffff",
    ],
)
def test_a_hidden_id_comes_back(log_id: str) -> None:
    hidden = hide(log_id)
    assert hidden != log_id and real_log_id(hidden) == log_id


def test_index_follows_the_date_rule() -> None:
    # after 2010041111gm the table index is int("3" + id[4:10]) mod (33 - id[9])
    log_id = "2022060222gm-0001-0000-a87679bc"
    assert int("3" + log_id[4:10]) % (33 - int(log_id[9])) == 3060222 % 31 == 26
    assert real_log_id(log_id) == log_id  # a plain id is left as it is


@pytest.mark.parametrize(
    ("text", "game_id", "seat"),
    [
        (
            "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3",
            "2022060222gm-0001-0000-a87679bc",
            3,
        ),
        (
            "https://tenhou.net/3/?log=2022060222gm-0001-0000-a87679bc",
            "2022060222gm-0001-0000-a87679bc",
            None,
        ),
        ("  2022060222gm-0001-0000-a87679bc\n", "2022060222gm-0001-0000-a87679bc", None),
        (
            "http://tenhou.net/5/?log=2022060222gm-0001-0000-a87679bc&tw=9",
            "2022060222gm-0001-0000-a87679bc",
            None,
        ),
    ],
    ids=["viewer-tw", "viewer-3", "bare-id", "bad-tw"],
)
def test_tenhou_links(text: str, game_id: str, seat: int | None) -> None:
    link = link_from_text(text)
    assert link is not None and (link.platform, link.game_id, link.seat) == (
        "tenhou",
        game_id,
        seat,
    )
    assert link.record_url == "https://tenhou.net/0/log/?" + game_id


def test_a_hidden_id_in_a_link_is_revealed() -> None:
    real = "2022060222gm-0001-0000-a87679bc"
    link = link_from_text(f"https://tenhou.net/0/?log={hide(real)}&tw=1")
    assert (
        link is not None
        and link.game_id == real
        and link.obfuscated == hide(real)
        and link.seat == 1
    )


def test_majsoul_paipu_link() -> None:
    link = link_from_text(
        "https://game.maj-soul.com/1/?paipu=210815-6da08e40-2605-42fb-a5e3-f8aa5940362a_a12345"
    )
    assert link is not None and link.platform == "majsoul"
    assert link.game_id == "210815-6da08e40-2605-42fb-a5e3-f8aa5940362a" and link.record_url is None


@pytest.mark.parametrize("text", ["", "hello", "<mjloggm>", "x" * 5000, "2022060222gm"])
def test_text_that_names_no_game(text: str) -> None:
    assert link_from_text(text) is None


def test_viewer_address_at_a_round_and_seat() -> None:
    link = link_from_text("2022060222gm-0001-0000-a87679bc")
    assert (
        link is not None
        and link.viewer_url == "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc"
    )
    at = replace(link, round=3, seat=1)
    assert at.viewer_url == "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&ts=3&tw=1"
    assert at.to_dict()["round"] == 3
