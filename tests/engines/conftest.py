"""Fixtures for the engine tests: one browser per engine for the whole session (Firefox
ESR, WebKitGTK's MiniBrowser), the site served by build.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engines.drivers import ENGINES, Firefox, WebKit, missing
from tests.helpers import served_site


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """`python3 build.py serve --port 0` for the whole session; its printed URL."""
    with served_site() as url:
        yield url


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
