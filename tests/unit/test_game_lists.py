"""games_from_text: every Tenhou game a pasted list, a file or a copied page names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pywall.cli import main
from pywall.core.errors import ValueInputError
from pywall.formats.game_lists import (
    MAJSOUL,
    MAX_GAMES,
    MAX_LIST_CHARS,
    MAX_SHOWN,
    NOT_AN_ID,
    OTHER_DIGITS,
    games_from_text,
)
from pywall.page.api import handle
from tests.unit.test_links import hide

A = "2022060222gm-0001-0000-a87679bc"
B = "2022060223gm-0001-0000-b8e20009"
C = "2022060400gm-0001-0000-d6c5c8e7"


def ids(text: str) -> list[str]:
    return [g.game_id for g in games_from_text(text).games]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"{A}\n{B}\n{C}\n", [A, B, C]),
        (f"{C}\r\n{A}", [C, A]),
        (f"https://tenhou.net/0/?log={A}&tw=3\nhttp://tenhou.net/3/?log={B}", [A, B]),
        (f"see https://tenhou.net/0/?log={A}&tw=1, then {B}.", [A, B]),
        (f'<a href="https://tenhou.net/0/?log={A}&amp;tw=2">{A}</a><br>{B}', [A, B]),
        (f"{A}&tw=3.mjlog {B}_tw2.mjlog", [A, B]),
        (f"http://e.mjv.jp/0/log/?{A}\nhttps://tenhou.net/0/log/?{B}", [A, B]),
        (f"{A} {A} {B} {A}", [A, B]),
        ("", []),
        ("no game here, gm- at all", []),
    ],
    ids=[
        "lines",
        "crlf",
        "links",
        "prose",
        "html",
        "file-names",
        "log-urls",
        "repeats",
        "empty",
        "none",
    ],
)
def test_games_in_order_each_once(text: str, expected: list[str]) -> None:
    assert ids(text) == expected


def test_hidden_ids_are_revealed_and_count_as_their_game() -> None:
    found = games_from_text(f"https://tenhou.net/0/?log={hide(A)}&tw=1\n{A}\n{B}")
    assert [g.game_id for g in found.games] == [A, B]
    assert found.games[0].obfuscated == hide(A) and found.games[0].seat == 1
    assert found.repeated == 1
    assert found.summary() == "2 games found (1 named again)"


def test_seats_from_links_and_file_names() -> None:
    found = games_from_text(f"?log={A}&tw=3 {B}&amp;tw=0 {C}_tw2.mjlog")
    assert [g.seat for g in found.games] == [3, 0, 2]
    assert games_from_text(f"?log={A}&tw=7").games[0].seat is None


def test_what_is_not_understood_is_counted_and_shown() -> None:
    text = (
        f"{A}\n2022060222gm-0001-0000-a876\n{B}zz\n２０２２０６０２２２gm-0001-0000-a87679bc\n"
        "https://game.maj-soul.com/1/?paipu=210815-6da08e40-2605-42fb-a5e3-f8aa5940362a_a1\n"
    )
    found = games_from_text(text)
    assert [g.game_id for g in found.games] == [A]
    assert found.unread == 4
    assert [u.reason for u in found.shown] == [NOT_AN_ID, NOT_AN_ID, OTHER_DIGITS, MAJSOUL]
    assert found.shown[0].text == "2022060222gm-0001-0000-a876"
    assert found.summary() == "1 game found; 4 not understood"


def test_only_the_first_few_unread_pieces_are_kept() -> None:
    found = games_from_text("2022060222gm-00\n" * 50)
    assert found.unread == 50 and len(found.shown) == MAX_SHOWN


def test_a_thousand_games_are_taken_and_one_more_is_refused() -> None:
    lines = [f"2022{i // 10_000:02d}0101gm-0001-0000-{i:08x}" for i in range(MAX_GAMES + 1)]
    assert len(games_from_text("\n".join(lines[:MAX_GAMES])).games) == MAX_GAMES
    with pytest.raises(ValueInputError, match=r"more than 1,000 games \(1,001 log ids\)"):
        games_from_text("\n".join(lines))


def test_a_hundred_thousand_lines_are_refused_with_words() -> None:
    text = "\n".join(f"2022060222gm-0001-0000-{i:08x}" for i in range(100_000))
    with pytest.raises(ValueInputError, match=r"100,000 log ids.*split it"):
        games_from_text(text)


def test_a_text_over_the_cap_is_refused_before_reading() -> None:
    with pytest.raises(ValueInputError, match="characters"):
        games_from_text(A + " " * MAX_LIST_CHARS)


def test_to_dict_names_each_game_and_its_record() -> None:
    doc = games_from_text(f"{A}\nbad 2022060222gm-x")
    assert doc.to_dict() == {
        "games": [games_from_text(A).games[0].to_dict()],
        "repeated": 0,
        "unread": 1,
        "shown": [{"text": "2022060222gm-x", "reason": NOT_AN_ID, "code": "not_an_id"}],
    }
    assert doc.games[0].record_url == "https://tenhou.net/0/log/?" + A


def test_a_list_with_a_nul_is_refused_whole_by_the_cli_as_by_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = f"{A}\n{B}\x00\n{C}\n"
    words = "the list holds a NUL character (line 2): a list of games is plain text"
    with pytest.raises(ValueInputError, match=r"NUL character \(line 2\)"):
        games_from_text(text)
    page = json.loads(handle("games", json.dumps({"text": text})))
    assert page["error"]["code"] == "bad_request" and "NUL character" in page["error"]["message"]
    listing = tmp_path / "games.txt"
    listing.write_bytes(text.encode())
    # nothing is fetched: a server that is never there would show in the words
    monkeypatch.setenv("PYWALL_TENHOU_LOG_URL", "http://127.0.0.1:9/0/log/?")
    for command in ("verify", "fetch", "audit"):
        code = main([command, "--cache", str(tmp_path / "cache"), "--from", str(listing)])
        out, err = capsys.readouterr()
        assert code == 2 and f"{listing}: {words}" in err and A not in out, (command, out, err)
    assert not (tmp_path / "cache").exists()
