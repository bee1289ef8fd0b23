"""Fixtures for the engine tests: one browser per engine for the whole session (Firefox
ESR, WebKitGTK's MiniBrowser), the site served by build.py."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.engines.drivers import ENGINES, Firefox, WebKit, missing
from tests.helpers import ROOT, load_build


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """`python3 build.py serve --port 0` for the whole session; its printed URL."""
    build = load_build()
    if not build.site_is_current():
        build.build_site()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"build.py serve printed {line!r}"
        yield match.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session", params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Iterator[Firefox | WebKit]:
    """One browser of the engine, shared by its tests (they reload the page each)."""
    name = str(request.param)
    lacking = missing(name)
    if lacking:
        pytest.fail(
            f"the {name} tests need Debian's {', '.join(lacking)}: `python3 build.py test` "
            f"installs it when run as root (or: sudo apt-get install {' '.join(lacking)})"
        )
    browser = ENGINES[name]()
    yield browser
    browser.close()
