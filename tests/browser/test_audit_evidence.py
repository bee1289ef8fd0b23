"""The audit speaks with one voice (issue 44): every flag with its evidence, "you" only when
known, and a door to the audit on the first screen; in English, Japanese and Chinese, on a
desktop (1366×800) and a phone (390×844).

The corpus: 50 Mahjong Soul games (one platform) of simulated walls where, in three walls
of ten, honours fill eight dead-wall positions (tests/sim/majsoul_records.py): everyone's
group is flagged by two wall tests (positions and dead wall), not by a draw test; every
player is dealt 200 hands (a tie). The module's tests share one loaded page, and the
language and size tests one audit of the corpus."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from benchmarks.sim_logs import game
from tests.browser.conftest import audit_in_page, audit_json, clean, in_language
from tests.browser.test_page import WORK_MS, result
from tests.sim.majsoul_records import corpus_zip

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": ViewportSize(width=1366, height=800),
    "phone": ViewportSize(width=390, height=844),
}
LANGS = ["en", "ja", "zh"]
CASES = [(lang, size) for size in SIZES for lang in LANGS]
GAMES = 50
PLAYERS = ["BotA", "BotB", "BotC", "BotD"]
WORDS = {
    "en": {
        "positions": "tile kinds by wall position",
        "dead": "dead wall",
        "effective": "Effective draws",
        "flagged_by": "Flagged by:",
        "decided": "Decided by:",
        "ask": "Which player are you?",
        "you": "You ({name})",
        "door": "Are my games fair? Audit many games",
        "how": "paste a list of your games",
    },
    "ja": {
        "positions": "牌山の位置ごとの牌の種類",
        "dead": "王牌",
        "effective": "有効牌のツモ",
        "flagged_by": "警告の根拠:",
        "decided": "判定の根拠:",
        "ask": "あなたはどのプレイヤーですか？",
        "you": "あなた（{name}）",
        "door": "自分の対局は公平？ 多数の対局を検定",
        "how": "対局の一覧（リンクか牌譜 ID）を下の欄に貼り付け",
    },
    "zh": {
        "positions": "牌山各位置的牌种",
        "dead": "王牌",
        "effective": "有效牌摸牌",
        "flagged_by": "警告依据：",
        "decided": "判定依据：",
        "ask": "你是哪位玩家？",
        "you": "你（{name}）",
        "door": "我的对局公平吗？检验多局",
        "how": "把对局列表（链接或牌谱编号）粘贴到下面的框中",
    },
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The corpus as a zip, and what `pywall audit --json` prints for it."""
    path = tmp_path_factory.mktemp("evidence") / "wall-bias.zip"
    path.write_bytes(corpus_zip(GAMES, PLAYERS, share=0.3))
    cli = audit_json(path)
    assert cli["games"]["used"] == GAMES and len(cli["platforms"]) == 1
    assert cli["overall"]["flagged_by"] == ["walls.positions", "walls.dead"]
    assert {g["hands"] for g in cli["players"]} == {GAMES * 4}  # a tie
    return path, cli


def forget(page: Page) -> None:
    page.evaluate("() => localStorage.removeItem('pywall.auditPlayer')")


@pytest.fixture(scope="module")
def audited(loaded: Page, corpus: tuple[Path, dict[str, Any]]) -> Iterator[Page]:
    """The module's page with the corpus checked and audited once (nothing chosen before)."""
    path, _ = corpus
    page = clean(loaded)
    forget(page)
    yield audit_in_page(page, path)
    in_language(page, "en")


def at_size(page: Page, lang: str, size: str) -> Page:
    page.set_viewport_size(SIZES[size])
    in_language(page, lang)
    return page


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_flag_shows_the_tests_that_flag_it_and_the_summary_names_them(
    audited: Page, corpus: tuple[Path, dict[str, Any]], lang: str, size: str
) -> None:
    """One platform: everyone's group shows its wall tests; the two that flag it are named
    beside the verdict and marked in their list, without opening anything; "Copy summary"
    says they decided (not the effective draws)."""
    _, cli = corpus
    page = at_size(audited, lang, size)
    words = WORDS[lang]
    view = page.locator("#audit-out")
    expect(view.locator(".audit-platforms")).to_have_count(0)  # one platform: no platform groups
    everyone = view.locator('.audit-group[data-group="all players"]')
    expect(everyone).to_have_attribute("data-flagged", "true")
    named = everyone.locator(".audit-flagged-by")
    expect(named).to_be_visible()
    expect(named).to_have_attribute("data-tests", "walls.positions walls.dead")
    expect(named).to_contain_text(words["flagged_by"])
    for name in ("positions", "dead"):
        beside = named.locator(f'.flag-test[data-test="{name}"]')
        expect(beside).to_be_visible()
        expect(beside).to_contain_text(words[name])
        row = everyone.locator(f'.audit-walls li[data-test="{name}"]')
        expect(row).to_be_visible()
        expect(row).to_have_attribute("data-flags", "true")
    tests = [t["name"] for t in cli["overall"]["walls"]["tests"]]
    shown = everyone.locator(".audit-walls li[data-test]")
    expect(shown).to_have_count(len(tests))
    assert shown.evaluate_all("ns => ns.map((n) => n.dataset.test)") == tests
    expect(everyone.locator("[data-flags]")).to_have_count(2)  # no other test is marked
    expect(everyone.locator(".draw-lines li[data-test]")).to_have_count(3)
    expect(everyone.locator('.draw-lines li[data-test="effective"]')).not_to_have_attribute(
        "data-flags", "true"
    )
    for test in ("shanten_sum", "chi2", "dora"):  # the starting-hand tests, by their JSON names
        expect(everyone.locator(f'.audit-tests [data-test="{test}"]')).to_have_count(1)
    # the summary names the tests that decided
    view.locator("button[data-action=copy-summary]").click()
    copied = view.locator("textarea.audit-copy").input_value()
    # the tests that decided, then the effective draws' line (information, not the blame)
    decided = copied.split(words["decided"], 1)[1].split(words["effective"], 1)[0]
    assert words["positions"] in decided and words["dead"] in decided, copied
    assert decided.count("(p ") == 2 and "p = <" not in decided, copied  # "p < 1e-6", a relation
    # a tie (200 hands each) and no link: the page asks, and no one is "you"
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "ask")
    expect(view.locator(".audit-who label")).to_have_text(words["ask"])
    expect(view.locator("#audit-player")).to_have_value("")
    expect(view.locator(".audit-you")).to_have_count(0)
    text = view.inner_text()
    assert not any(words["you"].format(name=n) in text for n in PLAYERS), text[:300]
    assert not any(words["you"].format(name=n) in copied for n in PLAYERS), copied


def export_html(page: Page) -> str:
    with page.expect_download() as got:
        page.locator("#audit-out button[data-action=export-audit-html]").click()
    return Path(got.value.path()).read_text(encoding="utf-8")


def test_the_report_says_you_only_for_a_player_chosen(audited: Page) -> None:
    """Saved while the page asks, the report says "You" of no one; once a player is chosen,
    of that player; the choice is remembered on this device and forgotten with one click; a
    choice made before (stored) is "you" when the audit is asked again."""
    page = at_size(audited, "en", "desktop")
    view = page.locator("#audit-out")
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "ask")
    html = export_html(page)
    assert not any(f"You ({n})" in html for n in PLAYERS)
    page.locator("#audit-player").select_option("BotC")
    expect(view.locator(".audit-you")).to_have_attribute("data-player", "BotC")
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "chosen")
    assert page.evaluate("() => localStorage.getItem('pywall.auditPlayer')") == "BotC"
    assert "<h2>You (BotC)</h2>" in export_html(page)
    # asked again: still BotC, in each language
    page.locator("button[data-action=audit]").click()
    expect(view.locator(".audit-you")).to_have_attribute("data-player", "BotC", timeout=WORK_MS)
    for lang in LANGS:
        in_language(page, lang)
        you = WORDS[lang]["you"].format(name="BotC")
        expect(view.locator(".audit-you h4").first).to_contain_text(you)
    in_language(page, "en")
    # one click forgets it: the page asks again
    view.locator("button[data-action=forget-player]").click()
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "ask")
    expect(view.locator(".audit-you")).to_have_count(0)
    expect(view.locator("button[data-action=forget-player]")).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('pywall.auditPlayer')") is None
    # a name chosen on an earlier visit (stored on this device) is "you"
    page.evaluate("() => localStorage.setItem('pywall.auditPlayer', 'BotD')")
    page.locator("button[data-action=audit]").click()
    expect(view.locator(".audit-you")).to_have_attribute("data-player", "BotD", timeout=WORK_MS)
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "chosen")
    view.locator("button[data-action=forget-player]").click()
    expect(view.locator(".audit-you")).to_have_count(0)


def test_a_tw_link_says_who_you_are(loaded: Page, tmp_path: Path) -> None:
    """A Tenhou link with tw=2, a log chosen for it, and two more games: the audit's "you" is
    the player in seat 2 of that game, though all four players have as many hands."""
    page = clean(loaded)
    forget(page)
    logs = []
    for i in range(3):
        path = tmp_path / f"sim{i}.xml"
        path.write_text(game(i), encoding="utf-8")
        logs.append(path)
    page.locator("#paste").fill("https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=2")
    page.get_by_role("button", name="Verify pasted text").click()
    page.locator("#link-file").set_input_files(str(logs[0]))
    page.locator("input[type=file][multiple]").set_input_files([str(p) for p in logs[1:]])
    for path in logs:
        expect(result(page, path.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
    page.locator("button[data-action=audit]").click()
    view = page.locator("#audit-out")
    expect(view.locator('[data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    # the sim's players are a, b, c, d in seats 0-3, each dealt as many hands: seat 2 is "c"
    expect(view.locator(".audit-who")).to_have_attribute("data-how", "link")
    expect(view.locator(".audit-you")).to_have_attribute("data-player", "c")
    expect(view.locator("#audit-player")).to_have_value("c")
    for lang in LANGS:
        in_language(page, lang)
        expect(view.locator(".audit-you h4").first).to_contain_text(
            WORDS[lang]["you"].format(name="c")
        )
    in_language(page, "en")


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_the_first_screen_has_a_door_to_the_audit(loaded: Page, lang: str, size: str) -> None:
    page = at_size(loaded, lang, size)
    page.evaluate("window.scrollTo(0, 0)")
    door = page.locator("[data-action=audit-many]")
    expect(door).to_have_text(WORDS[lang]["door"])
    expect(door).to_be_in_viewport()
    box = door.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SIZES[size]["height"], box
    door.click()
    how = page.locator("#audit-many-how")
    expect(how).to_be_visible()
    expect(how).to_contain_text(WORDS[lang]["how"])
    expect(page.locator("#paste")).to_be_focused()  # where a list of games is pasted
    expect(page.locator("label[for=files]")).to_be_in_viewport()  # or the zip chosen
