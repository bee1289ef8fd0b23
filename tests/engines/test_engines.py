"""The page in Firefox (Gecko) and WebKit (Safari's engine), as Debian ships them: ready,
the sample games, a real record of each platform (Tenhou, Mahjong Soul, Riichi City
files; SEGA's seeds), a zip of logs and its audit, the exports and wall pictures, and
offline after the first visit. Verdicts and counts are CPython's (pywall's own API)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pywall.checks.sega import tenhou_id_from_sega
from tests.browser.conftest import audit_json, report_of
from tests.browser.plain_host import plain_host
from tests.helpers import DATA, ROOT, TENHOU, first_difference

pytestmark = pytest.mark.engines

SITE = ROOT / "site"
TENHOU_LOG = TENHOU / "gimite" / "test.mjlog"  # gzip, 17 rounds
MAJSOUL = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
RIICHI_CITY = min((DATA / "riichicity").glob("*.json"))
SEGA = json.loads((DATA / "vectors" / "sega-mj" / "vectors.json").read_text())[0]
PLAIN = TENHOU / "dnovikoff" / "example.xml"
THREE_PLAYER = TENHOU / "dnovikoff" / "sanma2.xml"

#: Small helpers every script in the page starts with.
PRELUDE = """
const $ = (s) => document.querySelector(s);
const $$ = (s) => [...document.querySelectorAll(s)];
const until = async (what, test, ms = 180000) => {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
    const value = test();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
};
const verdicts = () => Object.fromEntries($$("#results [data-file][data-verdict]")
  .map((n) => [n.dataset.file, n.dataset.verdict]));
"""

GIVE = """
const dt = new DataTransfer();
for (const [name, b64] of args[0]) {
  dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
}
const input = $("#files");
input.files = dt.files;
input.dispatchEvent(new Event("change", { bubbles: true }));
"""

#: Downloads are kept in the page (window.kept: name, type, text or first bytes) instead of
#: being saved; a page that keeps them already starts a new list (the hooks are set once).
CAPTURE = """
if (!window.kept) {
  const make = URL.createObjectURL;
  URL.createObjectURL = (blob) => { const url = make.call(URL, blob); window.kept.push({ url, blob }); return url; };
  HTMLAnchorElement.prototype.click = function () {
    const kept = window.kept.find((k) => k.url === this.href);
    if (this.download && kept) kept.name = this.download;
    else HTMLElement.prototype.click.call(this);
  };
}
window.kept = [];
"""

READ_DOWNLOADS = """
return Promise.all(window.kept.filter((k) => k.name).map(async (k) => ({
  name: k.name, type: k.blob.type, text: k.blob.type.startsWith("image/png") ? "" : await k.blob.text(),
  head: [...new Uint8Array(await k.blob.slice(0, 8).arrayBuffer())] })));
"""


def run(engine: Any, body: str, *args: Any) -> Any:
    return engine.run(PRELUDE + body, *args)


def open_ready(engine: Any, url: str, fresh: bool = False) -> dict[str, Any]:
    """The page at ``url`` with Python up and no results: loaded when it is not there yet
    (or when ``fresh``), else cleared with "Clear results" (Python starts in seconds in
    these engines, and each test would wait for it); the `pywall:ready` detail."""
    if not fresh and run(
        engine,
        """
            if (location.href !== args[0] || !$("#status") || $("#status").dataset.state !== "ready") return false;
            $("#clear").click();
            await until("no results", () => !$$("#results > *").length);
            return true;""",
        url,
    ):
        return dict(run(engine, 'return performance.getEntriesByName("pywall:ready")[0].detail;'))
    engine.goto("about:blank")
    engine.goto(url)
    return dict(
        run(
            engine,
            """
        await until("ready", () => $("#status").dataset.state !== "loading");
        if ($("#status").dataset.state !== "ready") throw new Error($("#status").textContent.trim());
        return performance.getEntriesByName("pywall:ready")[0].detail;""",
        )
    )


def give(engine: Any, *files: tuple[str, bytes]) -> None:
    """Choose files in the page's file input, as a person does."""
    run(engine, GIVE, [[name, base64.b64encode(data).decode()] for name, data in files])


def wait_verdicts(engine: Any, count: int) -> dict[str, str]:
    return dict(
        run(
            engine,
            """
        await until(`${args[0]} verdicts`, () => Object.keys(verdicts()).length >= args[0]);
        return verdicts();""",
            count,
        )
    )


def results_text(engine: Any) -> str:
    """What the page says of each file (a failed check's words, for an assertion's message)."""
    text: str = run(engine, 'return $("#results").innerText;')
    return text


def test_ready(engine: Any, site_url: str) -> None:
    detail = open_ready(engine, site_url, fresh=True)
    assert detail["snapshot"] is True  # the packed snapshot, unpacked in this engine
    assert run(engine, 'return $("#status-text").textContent.trim();') == "Ready"
    assert "Python 3.14" in run(engine, 'return $("#about").textContent;')


def test_warm_up_after_ready_runs_the_archive_path_in_webkit(engine: Any, site_url: str) -> None:
    """WebKit runs WebAssembly it has not run before slowly: its first worker runs the archive
    path once on made-up games after ready (worker.mjs, worker_py.py: warm_archive), so that
    a zip chosen later starts at speed; Firefox does not need it and is not made to wait."""
    open_ready(engine, site_url, fresh=True)
    warmed = run(
        engine,
        """
        const m = await until("the warm-up", () => performance.getEntriesByName("pywall:warmed")[0], 60000);
        return m.detail;""",
    )
    assert warmed["archive"] is (engine.name == "webkit")
    assert warmed["cut"] is False and warmed["ms"] >= 0


def test_a_log_given_at_ready_cuts_the_warm_up_short(engine: Any, site_url: str) -> None:
    """The warm-up gives way to work: the sample games given as the page is ready wait for
    one warm-up step at most, not for the archive path's warm-up (WebKit's took 1-3 s on
    this machine, most of it compiling the archive and audit modules), which is dropped."""
    open_ready(engine, site_url, fresh=True)
    got = run(
        engine,
        """
        $("#sample-go").click();
        const m = await until("the warm-up", () => performance.getEntriesByName("pywall:warmed")[0], 60000);
        await until("2 verdicts", () => $$("#results [data-verdict]").length >= 2);
        return m.detail;""",
    )
    if engine.name == "webkit":  # Firefox's warm-up (three short games) may end first
        assert got["cut"] is True and got["archive"] is False, got
    assert len(got["steps"]) <= 4, got


def test_sample_games(engine: Any, site_url: str) -> None:
    open_ready(engine, site_url)
    run(engine, '$("#sample-go").click();')
    got = wait_verdicts(engine, 2)
    assert sorted(got.values()) == ["mismatch", "verified"], results_text(engine)


def test_a_real_record_of_each_platform(engine: Any, site_url: str) -> None:
    open_ready(engine, site_url)
    files = [(p.name, p.read_bytes()) for p in (TENHOU_LOG, MAJSOUL, RIICHI_CITY)]
    give(engine, *files)
    got = wait_verdicts(engine, len(files))
    for name, data in files:
        cli = report_of(name, data)
        assert got[name] == cli["status"] == "verified", name
        detail = run(
            engine,
            'return $(`#results [data-file="${args[0]}"] .verdict-detail`).textContent;',
            name,
        )
        assert f"{cli['checked']:,}" in detail, (name, detail)
    seeds = ",".join(SEGA["player_seeds"])
    engine.goto("about:blank")
    engine.goto(f"{site_url}#tool=sega&seeds={seeds}&u={SEGA['uncertainty']}")
    shown = run(
        engine,
        """
        await until("the SEGA wall", () => $$("#tool-sega .sega-wall .tile").length === 136);
        return $$("#tool-sega .sega-wall .tile").map((n) => Number(n.dataset.tile));""",
    )
    assert shown == [tenhou_id_from_sega(t) for t in SEGA["wall"]]


def logs_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.write(PLAIN, "a/example.xml")
        zf.write(THREE_PLAYER, "b/sanma2.xml")
        zf.write(TENHOU_LOG, "c/test.mjlog")
        zf.writestr("d/not-a-log.txt", "hello")
    return buf.getvalue()


@pytest.fixture(scope="module")
def zip_audit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """logs.zip, and what `pywall audit --json logs.zip` prints for it (run in this process,
    from the zip's folder, once for both engines)."""
    archive = tmp_path_factory.mktemp("zip") / "logs.zip"
    archive.write_bytes(logs_zip())
    with contextlib.chdir(archive.parent):
        return archive, audit_json(Path(archive.name))


def test_a_zip_of_logs_and_its_audit(
    engine: Any, site_url: str, zip_audit: tuple[Path, dict[str, Any]]
) -> None:
    """The audit flow: the button that asks the question, everyone's chart, and the exports:
    the JSON `pywall audit --json` prints for the same zip, and the HTML report."""
    archive, expected = zip_audit
    hands = expected["overall"]["hands"]
    open_ready(engine, site_url, fresh=True)  # the downloads are kept by this page only
    run(engine, CAPTURE)
    give(engine, ("logs.zip", archive.read_bytes()))
    got = wait_verdicts(engine, 5)
    assert got == {
        "logs.zip": "error",
        "logs.zip/a/example.xml": "verified",
        "logs.zip/b/sanma2.xml": "verified",
        "logs.zip/c/test.mjlog": "verified",
        "logs.zip/d/not-a-log.txt": "error",
    }
    seen = run(
        engine,
        """
        const button = await until("the audit's button", () => {
          const b = $("button[data-action=audit]");
          return b && !b.hidden && b;
        });
        const words = button.textContent.trim();
        button.click();
        await until("the audit", () => $('#audit-out [data-result="audit"]'));
        const everyone = $('#audit-out .audit-group[data-group="all players"]');
        const chart = everyone.querySelector("figure.draws-chart svg.band-chart");
        $("#audit-out button[data-action=export-audit]").click();
        await until("the JSON", () => window.kept.some((k) => k.name === "pywall-audit.json"));
        $("#audit-out button[data-action=export-audit-html]").click();
        await until("the HTML", () => window.kept.some((k) => k.name === "pywall-audit.html"));
        return { words, heading: everyone.querySelector("h4").textContent,
          chart: chart ? chart.getBoundingClientRect().width : 0,
          ticks: chart ? chart.querySelectorAll("text.tick").length : 0,
          swatches: chart ? chart.querySelectorAll(".swatch").length : 0,
          flag: chart ? chart.querySelectorAll(".flag-line.swatch").length : 0 };""",
    )
    assert seen["words"] == "Is the dealing fair? Test these 3 games: deals, draws, walls"
    assert f"{hands} hands" in seen["heading"]
    # the line, the 95% band and the flag line the verdict uses (one story per group)
    assert (
        seen["chart"] > 200 and seen["ticks"] >= 2 and seen["swatches"] == 3 and seen["flag"] == 1
    )
    kept = {k["name"]: k for k in run(engine, READ_DOWNLOADS)}
    exported = json.loads(kept["pywall-audit.json"]["text"])
    assert first_difference(exported, expected) is None, first_difference(exported, expected)
    html = kept["pywall-audit.html"]["text"]
    assert html.startswith("<!doctype html>") and "<script" not in html and "<svg" in html


def test_a_zip_with_copies_exports_the_clis_audit_json(
    engine: Any, site_url: str, tmp_path: Path
) -> None:
    """A game and its copy cut short, a game and its copy with two names swapped (a
    conflict): the worker reads the File a slice at a time in both engines (WebKit has no
    FileReaderSync: worker.mjs reads blob: URLs synchronously), never a copy of it, and
    reads the first copies again from the File; both export what the CLI prints."""
    from tests.unit.test_audit_copies import REAL, cut, swapped

    real, other = REAL.read_text(encoding="utf-8"), (REAL.parent / "ratio.xml").read_text()
    archive = tmp_path / "copies.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name, text in (("a.xml", real), ("b.xml", other), ("c.xml", cut(real)),
                           ("d.xml", swapped(other))):  # fmt: skip
            zf.writestr(name, text)
    with contextlib.chdir(tmp_path):
        expected = audit_json(Path(archive.name))
    kinds = sorted(e["kind"] for e in expected["games"]["excluded"])
    assert kinds == ["conflict", "duplicate"]
    open_ready(engine, site_url, fresh=True)
    run(engine, CAPTURE)
    give(engine, ("copies.zip", archive.read_bytes()))
    wait_verdicts(engine, 5)
    run(
        engine,
        """
        const button = await until("the audit's button", () => {
          const b = $("button[data-action=audit]");
          return b && !b.hidden && b;
        });
        button.click();
        await until("the audit", () => $('#audit-out [data-result="audit"]'));
        $("#audit-out button[data-action=export-audit]").click();
        await until("the JSON", () => window.kept.some((k) => k.name === "pywall-audit.json"));
        return true;""",
    )
    read = run(
        engine,
        """const m = performance.getEntriesByName("pywall:archive")[0];
        return m.detail.profile.workers.map((w) => w.lazy);""",
    )
    assert read == [True]  # one worker, the File never copied into its memory
    kept = {k["name"]: k for k in run(engine, READ_DOWNLOADS)}
    exported = json.loads(kept["pywall-audit.json"]["text"])
    assert first_difference(exported, expected) is None, first_difference(exported, expected)


def test_exports_and_wall_pictures(engine: Any, site_url: str) -> None:
    # the page the zip's test left keeps its downloads already (no second Python start)
    open_ready(engine, site_url)
    run(engine, CAPTURE)
    files = [(p.name, p.read_bytes()) for p in (PLAIN, THREE_PLAYER)]
    give(engine, *files)
    wait_verdicts(engine, 2)
    run(
        engine,
        """
        $("#export-json").click();
        $("#export-csv").click();
        await until("two exports", () => window.kept.filter((k) => k.name).length === 2);
        const game = $('#results [data-file="example.xml"]');
        const rounds = game.querySelector("details.rounds");
        if (rounds && !rounds.open) rounds.querySelector(":scope > summary").click();
        const round = await until("a round", () => game.querySelector("details.round"));
        if (!round.open) round.querySelector(":scope > summary").click();
        const svg = await until("the picture buttons", () => round.querySelector('[data-picture="svg"]'));
        svg.click();
        await until("the SVG", () => window.kept.filter((k) => k.name).length === 3);
        round.querySelector('[data-picture="png"]').click();
        await until("the PNG", () => window.kept.filter((k) => k.name).length === 4);""",
    )
    kept = {k["name"]: k for k in run(engine, READ_DOWNLOADS)}
    report = json.loads(kept["pywall-report.json"]["text"])
    assert {f["path"]: f["status"] for f in report["files"]} == {
        n: report_of(n, d)["status"] for n, d in files
    }
    csv = kept["pywall-report.csv"]
    assert bytes(csv["head"][:3]) == "\ufeff".encode()  # a byte-order mark (text() drops it)
    assert (
        csv["text"].splitlines()[0].startswith("path,status,")
        and len(csv["text"].splitlines()) == 3
    )
    pictures = {k["type"].split(";")[0]: k for k in kept.values() if k["type"].startswith("image/")}
    assert pictures["image/svg+xml"]["text"].lstrip().startswith("<svg")
    assert bytes(pictures["image/png"]["head"]) == b"\x89PNG\r\n\x1a\n"


def test_offline_after_the_first_visit(engine: Any) -> None:
    """A first visit from a host that is then gone: the page, Python and the samples
    come from the service worker's cache."""
    with plain_host(SITE) as (url, _):
        open_ready(engine, url, fresh=True)
        run(
            engine,
            """
            await navigator.serviceWorker.ready;
            await until("the service worker in control", () => navigator.serviceWorker.controller, 300000);""",
        )
    open_ready(engine, url, fresh=True)  # the host is down now
    run(engine, '$("#sample-go").click();')
    got = wait_verdicts(engine, 2)
    assert sorted(got.values()) == ["mismatch", "verified"], results_text(engine)
