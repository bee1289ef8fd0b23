"""The page installs as an app (issue 33, item 10): Chromium reads its manifest, and once
the service worker holds the site, the manifest, its icons and the start page come from it
with the network off."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_page import READY_MS, open_ready, wait_controlled

pytestmark = pytest.mark.browser

FETCH = """async (url) => { const r = await fetch(url); const bytes = await r.arrayBuffer();
  return { status: r.status, type: r.headers.get("content-type"), size: bytes.byteLength,
    text: url.endsWith(".png") ? "" : new TextDecoder().decode(bytes) }; }"""


def test_the_manifest_and_icons_are_served_offline(context: BrowserContext, page: Page) -> None:
    open_ready(page)
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "manifest.webmanifest"
    expect(page.locator('meta[name="theme-color"]')).to_have_attribute("content", "#1b6e35")
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    wait_controlled(page)
    # the precache holds the whole site once the page is idle: wait for the manifest in it
    page.wait_for_function(
        """async () => !!(await caches.match("manifest.webmanifest"))""", timeout=READY_MS
    )
    context.set_offline(True)
    got = page.evaluate(FETCH, href)
    assert got["status"] == 200 and got["type"].startswith("application/manifest+json")
    manifest = json.loads(got["text"])
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    for icon in [*manifest["icons"], {"src": touch}]:
        answer = page.evaluate(FETCH, icon["src"])
        assert answer["status"] == 200 and answer["size"] > 200, icon["src"]
    # the installed app opens offline: its start URL
    page.goto(manifest["start_url"])
    expect(page.locator("#status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
