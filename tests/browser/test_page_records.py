"""Records of each platform as their players meet them (issue 24, items 6 and 5): a
verdict's words fit the platform (a Mahjong Soul or Riichi City record has no seed; a
Mahjong Soul room with test settings is said for what it is), and each platform's
players are told how to get a record the page can check, a phone player with only a
Tenhou link included (at 390x844).

The tests share one loaded page (a load is most of a browser test's cost), each starting
from what a fresh page shows (``fresh``: English, no results, the records guide folded);
the phone's tests share one phone's page."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.browser.conftest import clean, in_language
from tests.browser.test_page import WORK_MS, choose, open_ready, result
from tests.browser.test_page_a11y import no_violations
from tests.browser.test_page_ux import GAME, GAME_LOG, PAIPU, VIEWER, paste
from tests.browser.test_platforms_page import MS, RC, alter_majsoul, alter_riichicity
from tests.helpers import DATA

pytestmark = pytest.mark.browser

SEED_WORDS = {"en": "seed", "ja": "シード", "zh": "种子"}
LANGS = ("en", "ja", "zh")


def unfold(details: Locator) -> None:
    """Open a <details> by its summary, unless it is open (a redraw may have closed it)."""
    if details.get_attribute("open") is None:
        details.locator(":scope > summary").click()


# --- 6. a verdict's words per platform --------------------------------------------------------


def test_a_mismatch_in_a_record_that_reveals_its_wall_blames_no_seed(
    fresh: Page, tmp_path: Path
) -> None:
    """Checked once, read in each language in turn."""
    page = fresh
    ms = json.loads(MS.read_text(encoding="utf-8"))
    alter_majsoul(ms, 2, 9)
    rc = json.loads(RC[0].read_text(encoding="utf-8"))
    alter_riichicity(rc, 1, 6)
    paths = [tmp_path / "ms-altered.json", tmp_path / "rc-altered.json"]
    for path, record in zip(paths, (ms, rc), strict=True):
        path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    choose(page, *paths)
    for path in paths:
        expect(result(page, path.name)).to_have_attribute(
            "data-verdict", "mismatch", timeout=WORK_MS
        )
    for lang in LANGS:
        in_language(page, lang)
        wall_changed = {
            "en": "the wall in the file was changed",
            "ja": "ファイルの牌山が変更された",
            "zh": "文件中的牌山在对局后被改动",
        }[lang]
        for path in paths:
            node = result(page, path.name)
            said = f"{lang}, {path.name}"
            expect(node, said).to_have_attribute("data-verdict", "mismatch")
            meaning = node.locator('details.meaning[data-meaning="mismatch"]')
            expect(meaning, said).to_have_attribute("data-platform", "stated")
            expect(meaning, said).to_contain_text(wall_changed)
            expect(meaning, said).not_to_contain_text(SEED_WORDS[lang])


def test_a_record_whose_wall_is_another_rounds_says_so_without_a_seed(
    fresh: Page, tmp_path: Path
) -> None:
    page = fresh
    ms = json.loads(MS.read_text(encoding="utf-8"))
    actions = [a["result"] for a in ms["data"]["data"]["actions"] if "result" in a]
    rounds = [e["data"] for e in actions if e["name"].endswith("NewRound")]
    rounds[1]["paishan"], rounds[2]["paishan"] = rounds[2]["paishan"], rounds[1]["paishan"]
    swapped = tmp_path / "swapped-walls.json"
    swapped.write_text(json.dumps(ms, ensure_ascii=False), encoding="utf-8")
    in_language(page, "ja")
    choose(page, swapped)
    node = result(page, swapped.name)
    expect(node).to_have_attribute("data-verdict", "mismatch", timeout=WORK_MS)
    unrelated = node.locator('.findings li[data-code="wall_unrelated"]').first
    expect(unrelated).to_contain_text("牌譜の公開した牌山と異なります")
    expect(node.locator(".findings")).not_to_contain_text("シード")
    expect(node.locator("details.meaning")).not_to_contain_text("シード")
    expect(node.locator(".meaning-unrelated")).to_contain_text("別の対局")


def room_record(tmp_path: Path, alter: bool) -> Path:
    """The real record as a room with test settings would give it (head.config.mode.testing_environment)."""
    record = json.loads(MS.read_text(encoding="utf-8"))
    record["head"]["config"]["mode"]["testing_environment"] = {"paixing": 1}
    if alter:
        alter_majsoul(record, 2, 9)
    path = tmp_path / f"room-{'altered' if alter else 'plain'}.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


ROOM_WORDS = [
    ("en", "room with test settings", "nothing about the platform's shuffled games"),
    ("ja", "テスト設定のある", "シャッフルされた対局については何も言えません"),
    ("zh", "带测试设置的", "对平台正常洗牌的对局什么也说明不了"),
]


def test_a_room_with_test_settings_is_said_for_what_it_is(fresh: Page, tmp_path: Path) -> None:
    """Checked once, read in each language in turn."""
    page = fresh
    paths = [room_record(tmp_path, alter=False), room_record(tmp_path, alter=True)]
    choose(page, MS, *paths)
    for path, verdict in zip([*paths, MS], ("verified", "mismatch", "verified"), strict=True):
        expect(result(page, path.name)).to_have_attribute("data-verdict", verdict, timeout=WORK_MS)
    for lang, room, limit in ROOM_WORDS:
        in_language(page, lang)
        for path, verdict in zip(paths, ("verified", "mismatch"), strict=True):
            node = result(page, path.name)
            said = f"{lang}, {path.name}"
            expect(node, said).to_have_attribute("data-verdict", verdict)
            note = node.locator('[data-meaning="room"]')
            expect(note, said).to_contain_text(room)
            expect(
                node.locator('.limits li[data-limit="testing_environment"]'), said
            ).to_contain_text(limit)
        # the same record from an ordinary room says nothing of the kind
        plain = result(page, MS.name)
        expect(plain, lang).to_have_attribute("data-verdict", "verified")
        expect(plain.locator('[data-meaning="room"]'), lang).to_have_count(0)
        expect(plain.locator('.limits li[data-limit="testing_environment"]'), lang).to_have_count(0)
        expect(plain, lang).not_to_contain_text(re.compile(room))


# --- 5. getting a record: each platform's steps, and a phone route for a Tenhou link -----------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            {
                "tenhou": ["Touch and hold", "tenhou.net/6"],
                "majsoul": [
                    "GetPaipuJSON.js",
                    "Fat-pig-Cui/misc-code",
                    "md5",
                    "sha256",
                    "saltSha256",
                    "tenhou.net/6",
                ],
                "riichicity": [
                    "handCardEncode",
                    "handCardsSHA256",
                    "0num4/paifu-playground",
                    "tenhou.net/6",
                ],
                "sega": ["uncertainty value"],
            },
        ),
        (
            "ja",
            {
                "tenhou": ["長押し", "tenhou.net/6"],
                "majsoul": ["GetPaipuJSON.js", "md5", "saltSha256", "tenhou.net/6"],
                "riichicity": ["handCardEncode", "記録 API", "tenhou.net/6"],
                "sega": ["不確定要素"],
            },
        ),
        (
            "zh",
            {
                "tenhou": ["长按", "tenhou.net/6"],
                "majsoul": ["GetPaipuJSON.js", "md5", "saltSha256", "tenhou.net/6"],
                "riichicity": ["handCardEncode", "记录 API", "tenhou.net/6"],
                "sega": ["不确定要素"],
            },
        ),
    ],
)
def test_each_platform_says_where_its_record_comes_from(
    fresh: Page, lang: str, words: dict[str, list[str]]
) -> None:
    page = fresh
    in_language(page, lang)
    guide = page.locator("details#records-guide")
    expect(guide).to_be_visible()
    guide.locator("summary").click()
    for name, said in words.items():
        section = guide.locator(f'.records-platform[data-platform="{name}"]')
        expect(section).to_be_visible()
        for text in said:
            expect(section).to_contain_text(text)
    # the buttons it names are the page's own, in the reader's language
    verify = page.locator("#paste-go").inner_text()
    expect(guide.locator('[data-platform="tenhou"] ol.records-phone li').first).to_contain_text(
        verify
    )
    guide.locator('[data-platform="sega"] a[href="#tool=sega"]').click()
    expect(page.locator("#tool-sega")).to_be_visible()


def test_a_majsoul_link_names_a_way_to_save_its_record(fresh: Page) -> None:
    page = fresh
    paste(page, PAIPU)
    panel = page.locator('.link-result[data-platform="majsoul"]')
    expect(panel).to_contain_text("GetPaipuJSON.js", timeout=WORK_MS)
    expect(panel).to_contain_text("tenhou.net/6")
    panel.locator("button.records-link").click()
    expect(page.locator("details#records-guide")).to_have_attribute("open", "")
    expect(page.locator('#records-guide [data-platform="majsoul"]')).to_be_in_viewport()


PHONE = ViewportSize(width=390, height=844)


@pytest.fixture(scope="module")
def phone_page(browser: Browser, site_url: str) -> Iterator[Page]:
    """One phone's page (390x844, touch), loaded to ready, for the module's phone tests."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=site_url)
    page = context.new_page()
    open_ready(page)
    yield page
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_phone_player_with_only_a_tenhou_link_can_check_the_game(
    phone_page: Page, tmp_path: Path, lang: str
) -> None:
    page = clean(phone_page, PHONE)
    in_language(page, lang)
    page.locator("#paste").fill(VIEWER)
    page.locator("#paste-go").tap()
    panel = page.locator('.link-result[data-platform="tenhou"]')
    expect(panel).to_be_visible(timeout=WORK_MS)
    # the phone's steps: download the log file from its link, then choose it here
    phone = panel.locator("ol.link-phone")
    expect(phone).to_be_visible()
    expect(phone.locator("li").first).to_contain_text(
        {"en": "Touch and hold", "ja": "長押し"}[lang]
    )
    expect(panel.locator(".log-url a")).to_have_attribute(
        "href", f"https://tenhou.net/0/log/?{GAME}"
    )
    button = phone.locator("label.button")
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport()
    box = button.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # a phone saves the log under whatever name it likes: the chooser lists every file
    expect(panel.locator("#link-file")).not_to_have_attribute("accept", re.compile("."))
    saved = tmp_path / "log"
    saved.write_bytes(gzip.decompress(GAME_LOG.read_bytes()))
    with page.expect_file_chooser() as chooser:
        button.tap()
    chooser.value.set_files(str(saved))
    node = result(page, "log")
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    expect(node.locator("ol.players li.is-you")).to_have_count(1)
    expect(node.locator("ol.players li").nth(3)).to_have_class("is-you")


def test_axe_over_the_records_guide_and_a_links_phone_steps(fresh: Page) -> None:
    page = fresh
    page.locator("details#records-guide > summary").click()
    paste(page, VIEWER)
    expect(page.locator(".link-result ol.link-phone")).to_be_visible(timeout=WORK_MS)
    no_violations(page, "records guide and a Tenhou link's steps")


# --- a June 2009 four-player log (issue 37) ---------------------------------------------------


def test_a_june_2009_four_player_log_verifies_with_every_kind_of_tile_seen(fresh: Page) -> None:
    """A real 4-player June 2009 game (a kan, its kan dora, riichi wins with ura): verified,
    and the era's note says every kind of tile has been seen on real logs (no best-effort)."""
    page = fresh
    june = DATA / "june2009-4p" / "june2009-4p-dnovikoff-bug1.xml"
    choose(page, june)
    node = result(page, june.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    note = node.locator('.findings li[data-code="legacy_seed"]')
    expect(note).to_contain_text(
        "walls of September 2008 to June 2009: every kind of tile has been seen"
    )
    expect(note).not_to_contain_text("as far as is known")


# --- issue 33, item 8: what "verified" proves, per platform and era ---------------------------

VERIFIED_CASES = [
    (
        TENHOU_PLAIN := Path(__file__).resolve().parents[1]
        / "data"
        / "tenhou"
        / "dnovikoff"
        / "example.xml",
        "tenhou",
    ),
    (
        Path(__file__).resolve().parents[1]
        / "data"
        / "majsoul"
        / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
        "majsoul_md5",
    ),
    (
        Path(__file__).resolve().parents[1]
        / "data"
        / "majsoul"
        / "riichienv_mjsoul_corpus_validation.json",
        "nohash",
    ),
    (
        Path(__file__).resolve().parents[1] / "data" / "riichicity" / "4ma_gin_han_sample.json",
        "riichicity",
    ),
]
#: A phrase each case's "proves" paragraph says, per language.
PROVES = {
    "tenhou": {
        "en": "the wall Tenhou's published seed defines",
        "ja": "天鳳が公開したシード",
        "zh": "天凤公布的种子",
    },
    "majsoul_md5": {
        "en": "The deal is not covered by that hash",
        "ja": "配牌はこのハッシュに含まれず",
        "zh": "配牌不在该哈希之内",
    },
    "nohash": {
        "en": "The record states no digest of its walls",
        "ja": "牌山のダイジェストがありません",
        "zh": "没有给出牌山的摘要",
    },
    "riichicity": {
        "en": "SHA-256 digest (unsalted)",
        "ja": "SHA-256 ダイジェスト（ソルトなし）",
        "zh": "SHA-256 摘要（无盐）",
    },
}


def test_what_verified_proves_fits_the_platform_and_era(fresh: Page) -> None:
    """Checked once, read in each language in turn."""
    page = fresh
    choose(page, *[p for p, _ in VERIFIED_CASES])
    for path, _ in VERIFIED_CASES:
        expect(result(page, path.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
    for lang in LANGS:
        in_language(page, lang)
        for path, case in VERIFIED_CASES:
            node = result(page, path.name)
            said = f"{lang}, {path.name}"
            expect(node, said).to_have_attribute("data-verdict", "verified")
            meaning = node.locator('details.meaning[data-meaning="verified"]')
            expect(meaning, said).to_have_attribute("data-case", case)
            unfold(meaning)
            expect(meaning.locator('[data-part="proves"]'), said).to_contain_text(
                PROVES[case][lang]
            )
            if case != "tenhou":  # a record that reveals its wall has no seed to speak of
                expect(meaning, said).not_to_contain_text(SEED_WORDS[lang])


# --- issue 33, item 11: a digest a seat's start event states, in the reader's words ------------

SEAT_START = {"en": "hand_cards_sha_256 (seat 1's start)", "ja": "hand_cards_sha_256 (1番目の席の開始時)",
              "zh": "hand_cards_sha_256 (座位 1 开局时)"}  # fmt: skip


def test_digest_rows_name_seats_from_one_in_the_readers_words(fresh: Page) -> None:
    """Checked once, read in each language in turn."""
    page = fresh
    record = VERIFIED_CASES[3][0]  # Riichi City: each seat's start event states the digest
    choose(page, record)
    node = result(page, record.name)
    expect(node).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    for lang in LANGS:
        in_language(page, lang)
        unfold(node.locator('details.round[data-round="0"]'))
        names = node.locator('details.round[data-round="0"] .round-digests li b')
        expect(names.first, lang).to_be_visible()
        texts = names.all_inner_texts()
        assert SEAT_START[lang] in texts, (lang, texts)
        assert not [t for t in texts if "seat 0" in t or (lang != "en" and "seat" in t)], (
            lang,
            texts,
        )


# --- issue 33, item 9: guides a player can follow ---------------------------------------------

DESKTOP_ONLY = {"en": "On a computer only", "ja": "コンピュータのみ", "zh": "仅限电脑"}


SIZES = {
    "desktop": ViewportSize(width=1366, height=800),
    "phone": ViewportSize(width=390, height=844),
}


def test_each_platform_has_numbered_steps_links_and_a_file_shape(fresh: Page) -> None:
    """One page shows each language in turn (the language select redraws the guide in place)
    at each size (the viewport changed in place; the next test's clean() gives it back)."""
    page = fresh
    guide = page.locator("details#records-guide")
    guide.locator("summary").click()
    for lang in LANGS:
        in_language(page, lang)
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            check_the_guides_steps(page, guide, lang, f"{lang} at {size_name}")


def check_the_guides_steps(page: Page, guide: Locator, lang: str, variant: str) -> None:
    for name in ("tenhou", "majsoul", "riichicity", "sega"):
        steps = guide.locator(f'ol.records-steps[data-steps="{name}"] > li')
        expect(steps, variant).to_have_count(3)
    # Mahjong Soul: marked desktop-only, its exporter's repository a real link
    majsoul = guide.locator('.records-platform[data-platform="majsoul"]')
    expect(majsoul.locator(".desktop-only"), variant).to_contain_text(DESKTOP_ONLY[lang])
    link = majsoul.locator('ol.records-steps a[href="https://github.com/Fat-pig-Cui/misc-code"]')
    expect(link, variant).to_have_text("github.com/Fat-pig-Cui/misc-code")
    riichi = guide.locator('.records-platform[data-platform="riichicity"]')
    expect(
        riichi.locator('a[href="https://github.com/0num4/paifu-playground"]'), variant
    ).to_have_count(1)
    # what the saved file looks like: the fixtures' own first characters
    for name, start in (("tenhou", '<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,'),
                        ("majsoul", '".lq.GameDetailRecords"'), ("riichicity", '"handCardEncode"')):  # fmt: skip
        expect(
            guide.locator(f'.records-platform[data-platform="{name}"] .records-looks code'), variant
        ).to_contain_text(start)
    # SEGA: where the seeds and the uncertainty value are shown
    sega = guide.locator('ol.records-steps[data-steps="sega"]')
    expect(sega, variant).to_contain_text("乱数情報")
    expect(sega, variant).to_contain_text("MJ.NET")
    width = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert width <= 0, f"{variant}: the guide scrolls {width} px sideways"
