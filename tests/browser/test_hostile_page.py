"""The page never starves a good file (issue 23, part 4): beside a log whose check runs
far too long and a log whose report is huge, a real log still gets its verdict, and each
hostile one a clear message, from the worker's limits (web/workers/pool.mjs,
web/workers/worker.mjs).

The hostile logs are the issue's: 16 MiB of bare INIT tags (one real round's INIT,
67,635 times: its check would take minutes) and 600 copies of a real round with every
draw altered (a report of about 5.7 MB of JSON). Once the core caps rounds per game, it
refuses them itself with a message of its own: either clear message passes.

The tests share one loaded page (a load is most of a browser test's cost), each starting
from what a fresh page shows (``fresh``: English, no results): each stopped worker is
replaced by the page, as a person's page would replace it, and a test that lowers the
pool's limits gives them back, whatever happens.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_page import PLAIN, WORK_MS, choose, result
from tests.helpers import TENHOU, log_text

pytestmark = pytest.mark.browser

ROUND_LOG = TENHOU / "tenhou-python-bot" / "1.txt"
# A core refusal (a cap on rounds or events) is as clear as the worker's.
CORE = {"log_format", "too_large"}


def slow_log(path: Path) -> Path:
    text = log_text(ROUND_LOG)
    start = text.index("<INIT")
    init = text[start : text.index(">", start) + 1]
    count = (16 * 1024 * 1024 - start - 20) // len(init)
    path.write_text(text[:start] + init * count + "</mjloggm>", encoding="utf-8")
    return path


def huge_reply_log(path: Path, copies: int = 600) -> Path:
    text = log_text(ROUND_LOG)
    start = text.index("<INIT")
    first = text[start : text.index("<INIT", start + 1)]
    altered = re.sub(r"<T(\d+)/>", lambda m: f"<T{(int(m.group(1)) + 4) % 136}/>", first)
    path.write_text(text[:start] + altered * copies + "</mjloggm>", encoding="utf-8")
    return path


@contextmanager
def limits_given_back(page: Page) -> Iterator[Page]:
    """The block may lower the pool's limits; after it, the page has the ones it had."""
    own = page.evaluate("async () => ({ ...(await import('./workers/pool.mjs')).limits })")
    try:
        yield page
    finally:
        page.evaluate(
            "async (own) => Object.assign((await import('./workers/pool.mjs')).limits, own)",
            own,
        )


def problem(page: Page, name: str) -> tuple[str, str]:
    node = result(page, name)
    expect(node).to_have_attribute("data-verdict", "error", timeout=WORK_MS)
    item = node.locator(".findings li").first
    return item.get_attribute("data-code") or "", item.inner_text()


def test_a_good_log_beside_two_hostile_ones_gets_its_verdict(fresh: Page, tmp_path: Path) -> None:
    page = fresh
    slow, huge = slow_log(tmp_path / "slow.xml"), huge_reply_log(tmp_path / "huge.xml")
    choose(
        page, slow, PLAIN, huge
    )  # one worker on this machine: the good log waits behind the slow one
    expect(result(page, PLAIN.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    code, words = problem(page, slow.name)
    assert code in {"timed_out", *CORE}, words
    if code == "timed_out":
        assert "took too long, so the page stopped it" in words
    code, words = problem(page, huge.name)
    assert code in {"reply_too_large", *CORE}, words
    if code == "reply_too_large":
        assert "too large for the page to show" in words
    # the worker the page started in place of the stopped one answers what comes next
    choose(page, ROUND_LOG)
    expect(result(page, ROUND_LOG.name)).to_have_attribute(
        "data-verdict", "verified", timeout=WORK_MS
    )
    expect(page.locator("#status")).to_have_attribute("data-state", "ready")


def test_the_limits_hold_for_files_the_core_takes(fresh: Page, tmp_path: Path) -> None:
    """The worker's limits work whatever the core accepts: lowered (as the pool's limits
    object allows), a small altered log's 0.3 MB report is refused, and the good log
    beside it is verified."""
    huge = huge_reply_log(tmp_path / "thirty.xml", copies=30)
    with limits_given_back(fresh) as page:
        page.evaluate(
            "async () => { (await import('./workers/pool.mjs')).limits.replyChars = 100_000; }"
        )
        choose(page, huge, PLAIN)
        expect(result(page, PLAIN.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
        code, words = problem(page, huge.name)
        assert code == "reply_too_large" and "too large for the page to show" in words


def long_log(path: Path) -> Path:
    """A log the core takes whole (99 rounds, each a real round followed by 900 draws and
    discards past its wall: under every cap) whose check takes about 0.25 s in CPython
    and longer in the page: far over a time limit lowered to 100 ms."""
    text = log_text(ROUND_LOG)
    start = text.index("<INIT")
    first = text[start : text.index("<INIT", start + 1)]
    path.write_text(
        text[:start] + (first + "<T1/><D1/>" * 900) * 99 + "</mjloggm>", encoding="utf-8"
    )
    return path


def test_the_time_limit_stops_a_long_check_the_core_takes(fresh: Page, tmp_path: Path) -> None:
    """With the caps on work in the core, no real hostile log reaches the worker's time
    limit any more; lowered to 100 ms, it stops a long check the core takes whole, says so,
    and the good log queued behind it on the same worker is checked by the worker started
    in its place. The limit goes back to 10 s the moment the long log's message is drawn
    (before the new worker, which takes over a second to start, can begin the good log)."""
    long = long_log(tmp_path / "long.xml")
    with limits_given_back(fresh) as page:
        page.evaluate(
            """async (name) => {
              const { limits } = await import('./workers/pool.mjs');
              limits.jobMs = 100;
              const restore = new MutationObserver(() => {
                const node = document.querySelector(`#results [data-file="${name}"][data-verdict]`);
                if (node) { limits.jobMs = 10_000; restore.disconnect(); }
              });
              restore.observe(document.getElementById('results'), { subtree: true, childList: true, attributes: true });
            }""",
            long.name,
        )
        choose(page, long, PLAIN)
        code, words = problem(page, long.name)
        assert code == "timed_out" and "took too long, so the page stopped it" in words, words
        expect(result(page, PLAIN.name)).to_have_attribute(
            "data-verdict", "verified", timeout=WORK_MS
        )
        assert (
            page.evaluate("async () => (await import('./workers/pool.mjs')).limits.jobMs") == 10_000
        )
