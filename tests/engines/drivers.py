"""The page's other engines, as Debian ships them: Firefox ESR over WebDriver BiDi
(puppeteer-core, through bidi_bridge.mjs) and WebKitGTK's MiniBrowser through
WebKitWebDriver under xvfb-run (Selenium). Both are driven through the same two calls,
``goto(url)`` and ``run(body, *args)`` (the body of an async function run in the page;
its JSON-able answer), so every engine test is written once."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
#: What each engine needs, and the Debian package that brings it (build.py installs them).
NEEDS = {
    "firefox": [(FIREFOX, "firefox-esr")],
    "webkit": [
        (WEBKIT_DRIVER, "webkit2gtk-driver"),
        (MINIBROWSER, "libwebkit2gtk-4.1-0"),
        ("/usr/bin/xvfb-run", "xvfb"),
    ],
}
SCRIPT_S = 240


def missing(engine: str) -> list[str]:
    """The Debian packages an engine lacks on this machine."""
    return [package for path, package in NEEDS[engine] if not Path(path).is_file()]


class Firefox:
    name = "firefox"

    def __init__(self, http_proxy: str | None = None) -> None:
        """``http_proxy``: ``host:port`` every http:// request goes through (the loopback
        address, where the site is served, never does)."""
        node = shutil.which("node") or "node"
        prefs: dict[str, Any] = {}
        if http_proxy:
            host, port = http_proxy.rsplit(":", 1)
            prefs = {
                "network.proxy.type": 1,
                "network.proxy.http": host,
                "network.proxy.http_port": int(port),
            }
        self.proc = subprocess.Popen(
            [node, str(HERE / "bidi_bridge.mjs"), FIREFOX, json.dumps(prefs)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.answer()

    def answer(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"Firefox's bridge stopped (exit {self.proc.poll()})")
        reply = json.loads(line)
        if "error" in reply:
            raise AssertionError(f"in Firefox: {reply['error']}")
        return reply["ok"]

    def send(self, **command: Any) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return self.answer()

    def goto(self, url: str) -> None:
        self.send(op="goto", url=url)

    def run(self, body: str, *args: Any) -> Any:
        return self.send(op="run", body=body, args=list(args))

    def click(self, selector: str) -> None:
        """A person's click (a user gesture: it may open a window)."""
        self.send(op="click", selector=selector)

    def use_last_window(self) -> int:
        """Later commands go to the newest window (a popup); how many there are."""
        return int(self.send(op="last_page"))

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"op": "close"}) + "\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebKit:
    """MiniBrowser (never with --headless: it hangs) on a virtual display."""

    name = "webkit"

    def __init__(self, http_proxy: str | None = None) -> None:
        from selenium import webdriver
        from selenium.webdriver.common.proxy import Proxy
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options

        port = free_port()
        self.proc = subprocess.Popen(
            ["xvfb-run", "-a", WEBKIT_DRIVER, f"--port={port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        if http_proxy:
            options.proxy = Proxy(
                {
                    "proxyType": "manual",
                    "httpProxy": http_proxy,
                    "noProxy": ["127.0.0.1", "localhost"],
                }
            )
        address = f"http://127.0.0.1:{port}"
        config = ClientConfig(remote_server_addr=address, timeout=SCRIPT_S + 60)
        for attempt in range(200):
            try:
                self.driver = webdriver.Remote(
                    command_executor=RemoteConnection(client_config=config), options=options
                )
                break
            except Exception:  # the driver is not listening yet
                if self.proc.poll() is not None or attempt == 199:
                    self.stop_driver()
                    raise
                time.sleep(0.1)
        self.driver.set_script_timeout(SCRIPT_S)
        self.driver.set_page_load_timeout(120)

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def run(self, body: str, *args: Any) -> Any:
        script = (
            "const done = arguments[arguments.length - 1];"
            f"(async (...args) => {{ {body} }})(...arguments[0])"
            ".then((ok) => done({ ok: ok === undefined ? null : ok }),"
            " (err) => done({ error: String(err && err.message ? err.message : err) }));"
        )
        reply = self.driver.execute_async_script(script, list(args))
        if "error" in reply:
            raise AssertionError(f"in WebKit: {reply['error']}")
        return reply["ok"]

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def use_last_window(self) -> int:
        """Later commands go to the newest window (WebKitWebDriver lists windows in no
        particular order: the newest is the one not seen before)."""
        seen = getattr(self, "seen_windows", [])
        handles = self.driver.window_handles
        self.seen_windows = seen + [h for h in handles if h not in seen]
        self.driver.switch_to.window(self.seen_windows[-1])
        return len(handles)

    def stop_driver(self) -> None:
        """xvfb-run, its display and WebKitWebDriver (the process group started here)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(timeout=10)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.stop_driver()


ENGINES: dict[str, type[Firefox | WebKit]] = {"firefox": Firefox, "webkit": WebKit}
