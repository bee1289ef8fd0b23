"""A pasted list of Tenhou games fetched through the bookmarklet's tenhou.net page (issue 34),
in Firefox and WebKit: the list, one request a second, a failing game a row with its reason,
the others counted, and the audit.

Neither engine maps a host name the way Chromium's --host-resolver-rules does (Firefox's
DNS overrides and WebKitGTK's have no port, and tenhou.net's port 80 is not ours to take
on a shared machine). Both take an HTTP proxy instead, which reaches the same stand-in:
tests/tenhou_server.py's TenhouSite answers ``GET http://tenhou.net/...`` as tenhou.net,
so the pages' origin is http://tenhou.net as in Chromium's test, while the site itself,
on the loopback address, is never proxied. Each engine here is its own browser (the
proxy is a launch setting), so this module starts one per engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from tests.engines.drivers import ENGINES, missing
from tests.engines.test_engines import run
from tests.tenhou_server import FIXTURES, UNKNOWN, TenhouSite, tenhou_site

pytestmark = pytest.mark.engines

GAMES = list(FIXTURES)[:4]
LINKS = [*(f"http://tenhou.net/0/?log={g}&tw=1" for g in GAMES[:2]), UNKNOWN, *GAMES[2:]]


@pytest.fixture(scope="module")
def site() -> Iterator[TenhouSite]:
    with tenhou_site([]) as served:
        yield served


@pytest.fixture(scope="module", params=sorted(ENGINES))
def proxied(request: pytest.FixtureRequest, site: TenhouSite) -> Iterator[Any]:
    name = str(request.param)
    lacking = missing(name)
    if lacking:
        pytest.fail(f"the {name} tests need Debian's {', '.join(lacking)}")
    browser = ENGINES[name](http_proxy=f"127.0.0.1:{site.port}")
    yield browser
    browser.close()


def test_a_pasted_list_is_fetched_through_tenhou_and_audited(
    proxied: Any, site_url: str, site: TenhouSite
) -> None:
    engine = proxied
    engine.goto(site_url + "#lang=en")
    href = run(
        engine,
        """await until("the bookmarklet", () => $("#bookmarklet").href.startsWith("javascript:"));
        return $("#bookmarklet").href;""",
    )
    engine.goto("http://tenhou.net/")  # through the proxy: the stand-in's page
    assert run(engine, "return location.origin;") == "http://tenhou.net"
    run(
        engine,
        """const a = document.createElement("a"); a.id = "bookmark"; a.href = args[0];
        a.textContent = "bookmark"; document.body.append(a);""",
        href,
    )
    windows = engine.use_last_window()  # the tenhou.net page is the newest window
    engine.click("#bookmark")  # as a bookmark is clicked: it opens pywall
    assert engine.use_last_window() == windows + 1
    run(
        engine,
        """await until("ready", () => $("#status") && $("#status").dataset.state === "ready");
        await until("the page's answer", () => $("#handoff-msg").textContent.includes("a tenhou.net page that names no single game"));
        $("#paste").value = args[0];
        $("#paste-go").click();
        await until("the list", () => $("#game-list-fetch"));""",
        "\n".join(LINKS),
    )
    assert run(engine, 'return $(".game-list h3").textContent;') == "5 Tenhou games in the list"
    del site.asked[:]
    engine.click("#game-list-fetch")
    done = run(
        engine,
        """await until("the end", () => $("#game-list-audit") && !$("#game-list-audit").hidden, 240000);
        return $("#game-list-progress").textContent;""",
    )
    assert done == "All 5 games asked for: 4 logs received, 1 failed."
    assert [g for _, g in site.asked] == [*GAMES[:2], UNKNOWN, *GAMES[2:]]
    gaps = [b - a for (a, _), (b, _) in pairwise(site.asked)]
    assert min(gaps) >= 1.0, gaps
    verdicts = run(
        engine,
        """return Object.fromEntries($$("#results [data-file][data-verdict]")
          .map((n) => [n.dataset.file, n.dataset.verdict]));""",
    )
    assert verdicts == {
        **{f"tenhou.net/0/log/?{g}": "verified" for g in GAMES},
        f"tenhou.net/0/log/?{UNKNOWN}": "error",
    }
    audit = run(
        engine,
        """$("#game-list-audit").click();
        const s = await until("the audit", () => $("#audit-out .audit-summary"), 240000);
        return [s.dataset.games, $('#audit-out li[data-kind="error"]').textContent];""",
    )
    assert audit[0] == "4"
    assert f"tenhou.net did not give the log of {UNKNOWN}: HTTP 404" in audit[1]
