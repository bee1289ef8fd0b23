"""Fixtures for the Playwright tests: system Chromium, the site served by build.py."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ViewportSize

from pywall.page import api
from tests.helpers import served_site

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: The size every test's page starts at (``clean`` puts a shared page back to it).
VIEWPORT = ViewportSize(width=1200, height=900)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("PYWALL_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    path = chromium_path()
    if path is None:
        pytest.skip(
            "no Chromium at $PYWALL_CHROMIUM or /usr/bin/chromium (apt-get install chromium)"
        )
    return {**browser_type_launch_args, "executable_path": path, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """`python3 build.py serve --port 0` for the whole session; its printed URL."""
    with served_site() as url:
        yield url


@pytest.fixture(scope="session")
def base_url(site_url: str) -> str:
    return site_url


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": VIEWPORT, "locale": "en-US"}


@pytest.fixture
def shot() -> Any:
    """shot("name", page_or_locator): a screenshot into test-artifacts/ (pages: full length)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name: str, target: Any) -> Path:
        path = ARTIFACTS / f"{name}.png"
        if hasattr(target, "goto"):
            target.screenshot(path=str(path), full_page=True)
        else:
            target.screenshot(path=str(path))
        return path

    return take


# --- one loaded page shared by a module's tests ---------------------------------------


@pytest.fixture(scope="module")
def loaded(browser: Any, browser_context_args: dict[str, Any]) -> Iterator[Any]:
    """One page, loaded to ready, for the module's tests (a load costs seconds of CPU)."""
    from tests.browser.test_page import open_ready  # test_page imports this module's helpers

    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    open_ready(page)
    yield page
    context.close()


def clean(page: Any, size: ViewportSize = VIEWPORT) -> Any:
    """A loaded page as a fresh one shows it: in English, no fragment (no tool shown over
    the verifier), on the Verify tab, the records guide folded, no results, the whole
    table, at the size it was loaded at (``size``: the context's, ``VIEWPORT`` unless the
    test's context says otherwise), scrolled to the top."""
    from playwright.sync_api import expect

    if page.viewport_size != size:
        page.set_viewport_size(size)
    page.select_option("#lang", "en")
    # choosing the language already shown redraws nothing, and leaves the status line ready
    expect(page.locator("#status")).to_have_attribute("data-state", "ready")
    expect(page.locator("#status")).to_contain_text("Ready")
    # a tool's tab or link (#tool=NAME) shows the tool alone: no fragment, the verifier
    if page.evaluate("() => location.hash.length > 1"):
        page.evaluate("() => { location.hash = ''; }")
    expect(page.locator("section.tool:visible")).to_have_count(0)
    expect(page.locator("main > section.input")).to_be_visible()
    guide = page.locator("details#records-guide")
    if guide.count() and guide.get_attribute("open") is not None:
        guide.locator(":scope > summary").click()
        expect(guide).not_to_have_attribute("open", "")
    if page.locator("#clear").is_visible():
        page.get_by_label("Show").select_option("all")
        page.locator("#clear").click()
    expect(page.locator("#results > *")).to_have_count(0)
    expect(page.locator("#batch")).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    return page


@pytest.fixture
def fresh(loaded: Any) -> Any:
    """The module's loaded page, cleaned (``clean``)."""
    return clean(loaded)


def in_language(page: Any, lang: str) -> Any:
    """The page's language select set to ``lang``: the page redraws in place, no reload."""
    from playwright.sync_api import expect

    if page.locator("#lang").input_value() != lang:
        page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


def watch_frames(page: Any) -> None:
    """Start recording the time between animation frames (a stalled main thread shows
    as a long gap); ``frame_gaps`` stops and returns them, in milliseconds."""
    page.evaluate("""() => {
        window.__gaps = [];
        window.__stop = false;
        const gen = window.__gen = (window.__gen || 0) + 1; // a new watch ends the last one
        let last = performance.now();
        const tick = (now) => { if (window.__gen !== gen) return;
                                window.__gaps.push(now - last); last = now;
                                if (!window.__stop) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
    }""")


def frame_gaps(page: Any) -> list[float]:
    gaps: list[float] = page.evaluate("() => { window.__stop = true; return window.__gaps; }")
    return gaps


# --- CPython's answers, through the same request API the page's worker uses ----------


def api_call(kind: str, payload: dict[str, Any], data: bytes | None = None) -> Any:
    """``pywall.page.api.handle`` as the worker calls it, parsed."""
    return json.loads(api.handle(kind, json.dumps(payload), data))


def report_of(name: str, data: bytes) -> dict[str, Any]:
    """The file report of one log (what the page's ``verify`` gives for it)."""
    files = api_call("verify", {"name": name}, data)["files"]
    assert len(files) == 1
    return dict(files[0])


def read_csv(path: str | Path) -> tuple[str, str]:
    """A downloaded CSV: (its first character, the text after a UTF-8 byte-order mark)."""
    raw = Path(path).read_text(encoding="utf-8")
    return raw[:1], raw.removeprefix("\ufeff")


def cli_output(*args: str) -> tuple[int, str]:
    """`pywall ARGS` run in this process (no interpreter started: where a test wants the
    CLI's answer, not the process): its exit status and what it prints."""
    import contextlib
    import io

    from pywall.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


def audit_json(path: Path) -> dict[str, Any]:
    """What `pywall audit --json PATH` prints, read in this process (no interpreter started)."""
    code, printed = cli_output("audit", "--json", str(path))
    assert code == 0
    return dict(json.loads(printed))


def audit_in_page(page: Any, path: Path) -> Any:
    """``path`` chosen in the page, checked, and its audit shown (the Audit button pressed)."""
    from playwright.sync_api import expect

    from tests.browser.test_page import WORK_MS, result

    page.locator("input[type=file][multiple]").set_input_files(str(path))
    expect(result(page, path.name)).to_have_attribute("data-verdict", "verified", timeout=WORK_MS)
    page.locator("button[data-action=audit]").click()
    expect(page.locator('#audit-out [data-result="audit"]')).to_have_count(1, timeout=WORK_MS)
    return page
