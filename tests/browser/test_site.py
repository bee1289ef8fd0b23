"""The built site and `build.py serve`, over plain HTTP: types, precompressed
bodies, the security header, the service worker's list, a reproducible wheel."""

from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import pytest

from tests.helpers import ROOT, load_build

SITE = ROOT / "site"


def get(
    url: str, encoding: str | None = None, etag: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    headers = {"Accept-Encoding": encoding} if encoding else {}
    if etag:
        headers["If-None-Match"] = etag
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


@pytest.mark.parametrize(
    ("path", "ctype"),
    [
        ("", "text/html"),
        ("index.html", "text/html"),
        ("embed.html", "text/html"),
        ("shell/app.js", "text/javascript"),
        ("workers/worker.mjs", "text/javascript"),
        ("pyodide/pyodide.mjs", "text/javascript"),
        ("pyodide/pyodide.asm.mjs", "text/javascript"),
        ("pyodide/packed.mjs", "text/javascript"),
        ("pyodide/pyodide-lock.json", "application/json"),
        ("styles/style.css", "text/css"),
        ("sw.js", "text/javascript"),
    ],
    ids=lambda v: v or "root",
)
def test_types_and_security_headers(site_url: str, path: str, ctype: str) -> None:
    status, headers, _ = get(site_url + path)
    assert status == 200
    assert headers["content-type"].startswith(ctype)
    csp = headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("accept", "encoding"),
    [
        ("br, gzip", "br"),
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("identity", None),
        (None, None),
    ],
)
def test_precompressed_bodies(site_url: str, accept: str | None, encoding: str | None) -> None:
    original = (SITE / "pyodide" / "pyodide.asm.mjs").read_bytes()
    status, headers, body = get(site_url + "pyodide/pyodide.asm.mjs", accept)
    assert status == 200
    assert headers.get("content-encoding") == encoding
    assert headers["content-type"].startswith("text/javascript")
    assert "accept-encoding" in headers.get("vary", "").lower()
    decoded = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](body)
    assert decoded == original


def test_pages_carry_the_same_policy_as_a_meta_tag(site_url: str) -> None:
    _, headers, _ = get(site_url)
    for page in ("index.html", "embed.html"):
        html = (SITE / page).read_text()
        meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
        assert meta and meta.group(1) == headers["content-security-policy"]
        assert "<script>" not in html and not re.search(r"\son[a-z]+\s*=", html)


def test_revalidation_answers_304(site_url: str) -> None:
    url = site_url + "pyodide/pyodide.asm.mjs"
    status, headers, _ = get(url, "br")
    assert status == 200 and headers["etag"]
    assert get(url, "br", headers["etag"])[0] == 304
    assert get(url, "gzip", headers["etag"])[0] == 200  # another body, another tag


def test_missing_files_are_404(site_url: str) -> None:
    assert get(site_url + "nope.js")[0] == 404


def test_service_worker_precaches_every_file(site_url: str) -> None:
    text = (SITE / "sw.js").read_text()
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', text)
    assert version
    listed = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.DOTALL).group(1))  # type: ignore[union-attr]
    packed = json.loads(re.search(r"const PACKED = (\[.*?\]);", text, re.DOTALL).group(1))  # type: ignore[union-attr]
    files = {
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*")
        if p.is_file()
        and p.name not in (".stamp", "sw.js")
        and not (p.suffix in (".br", ".gz") and p.with_suffix("").is_file())
    }
    assert not set(listed) & set(packed)
    assert set(listed) | set(packed) == files | {"./"}
    assert packed == sorted(f"pyodide/{name}" for name in load_build().read_packed().values())


def test_the_large_runtime_files_ship_packed() -> None:
    """The interpreter and the snapshot are in the site only gzipped, named by their
    content; each unpacks to the runtime Pyodide under Node reads (build/pyodide), the
    snapshot to its delta from the interpreter without its pages of zeros (the worker
    puts them back and XORs it)."""
    build = load_build()
    packed = build.read_packed()
    assert set(packed) == {"pyodide.asm.wasm", "python_stdlib.zip", "python-snapshot.bin"}
    for name, packed_name in packed.items():
        assert not (SITE / "pyodide" / name).exists()
        body = (SITE / "pyodide" / packed_name).read_bytes()
        plain = (build.RUNTIME / name).read_bytes()
        if name == "python-snapshot.bin":
            wasm = (build.RUNTIME / "pyodide.asm.wasm").read_bytes()
            plain = build.snapshot_pages(build.snapshot_delta(plain, wasm))
        assert packed_name.startswith(f"{name}.{build.sha256_bytes(body)[:16]}")
        assert (gzip.decompress(body) if packed_name.endswith(".gz") else body) == plain
    assert packed["pyodide.asm.wasm"].endswith(".gz") and packed["python-snapshot.bin"].endswith(
        ".gz"
    )


def test_packed_files_are_served_as_they_are(site_url: str) -> None:
    """build.py serve sends a packed .gz file as its bytes, never encoded again."""
    name = load_build().read_packed()["pyodide.asm.wasm"]
    status, headers, body = get(site_url + f"pyodide/{name}", "br, gzip")
    assert status == 200 and "content-encoding" not in headers
    assert body == (SITE / "pyodide" / name).read_bytes()


def test_app_code_never_parses_html() -> None:
    web = ROOT / "web"
    # the entry scripts and every room's modules (docs/architecture.md), not npm's
    paths = [p for p in [*web.glob("*.*js"), *web.glob("*/*.*js")] if p.parts[-2] != "node_modules"]
    assert len(paths) > 40
    for path in paths:
        code = path.read_text()
        for risky in (
            "innerHTML",
            "outerHTML =",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert risky not in code, f"{path.relative_to(web)} uses {risky}"


def test_wheel_is_reproducible(tmp_path: Path) -> None:
    build = load_build()
    first = build.build_wheel(tmp_path / "a").read_bytes()
    second = build.build_wheel(tmp_path / "b").read_bytes()
    assert first == second
