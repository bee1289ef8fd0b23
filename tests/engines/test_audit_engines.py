"""The audit's evidence and its "you" in Firefox and WebKit (issue 44), once each: a flag
beside the tests that flag it (the wall tests of one platform's corpus), the question "which
player are you?" on a tie, a choice remembered and forgotten, and a game link's tw; one
story per group on a phone-wide page: the flag line, the mirrored seat, charts whose
labels are at least 11 px and inside their box."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from benchmarks.sim_logs import game
from tests.browser.test_audit_one_story import MEASURE
from tests.engines.test_engines import open_ready, run
from tests.sim.majsoul_records import corpus_zip, seat_rigged_zip

pytestmark = pytest.mark.engines

PLAYERS = ("BotA", "BotB", "BotC", "BotD")

SET_FILES = """
const dt = new DataTransfer();
for (const [name, b64] of args[1]) {
  dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
}
const input = await until(args[0], () => $(args[0]));
input.files = dt.files;
input.dispatchEvent(new Event("change", { bubbles: true }));
"""

AUDIT = """
const button = await until("the audit's button", () => {
  const b = $("button[data-action=audit]");
  return b && !b.hidden && !b.disabled && b;
});
const before = $('#audit-out [data-result="audit"]');
button.click();
await until("the audit", () => { const a = $('#audit-out [data-result="audit"]'); return a && a !== before; });
"""

SEEN = """
const everyone = $('#audit-out .audit-group[data-group="all players"]');
const you = $("#audit-out .audit-you");
return { flagged: everyone.dataset.flagged,
  named: everyone.querySelector(".audit-flagged-by")?.dataset.tests ?? "",
  beside: [...everyone.querySelectorAll(".audit-flagged-by .flag-test")].map((n) => n.dataset.test),
  marked: [...everyone.querySelectorAll("[data-flags]")].map((n) => n.dataset.test),
  walls: [...everyone.querySelectorAll(".audit-walls li[data-test]")].map((n) => n.dataset.test),
  how: $("#audit-out .audit-who")?.dataset.how ?? "", you: you ? you.dataset.player : null,
  text: $("#audit-out").innerText, stored: localStorage.getItem("pywall.auditPlayer") };
"""


def files(*named: tuple[str, bytes]) -> list[list[str]]:
    return [[name, base64.b64encode(data).decode()] for name, data in named]


def seen(engine: Any) -> dict[str, Any]:
    return dict(run(engine, SEEN))


def test_a_flag_with_its_evidence_and_you_only_when_known(engine: Any, site_url: str) -> None:
    open_ready(engine, site_url)
    run(engine, 'localStorage.removeItem("pywall.auditPlayer");')
    run(engine, SET_FILES, "#files", files(("wall-bias.zip", corpus_zip(50, PLAYERS, 0.3))))
    run(
        engine,
        'await until("the zip", () => $(\'#results [data-file="wall-bias.zip"][data-verdict="verified"]\'));',
    )
    run(engine, AUDIT)
    got = seen(engine)
    assert got["flagged"] == "true"
    assert got["named"] == "walls.positions walls.dead"
    assert got["beside"] == ["positions", "dead"] and got["marked"] == ["positions", "dead"]
    assert got["walls"][:2] == ["positions", "deal"] and "dead" in got["walls"]
    # a tie, no link, nothing chosen: the page asks; no one is "you"
    assert got["how"] == "ask" and got["you"] is None
    assert not any(f"You ({n})" in got["text"] for n in PLAYERS)
    # chosen: "you", remembered; asked again: still; forgotten with one click: asked again
    run(
        engine,
        'const s = $("#audit-player"); s.value = "BotB"; s.dispatchEvent(new Event("change", { bubbles: true }));',
    )
    run(engine, 'await until("BotB", () => $("#audit-out .audit-you")?.dataset.player === "BotB");')
    run(engine, AUDIT)
    got = seen(engine)
    assert (got["how"], got["you"], got["stored"]) == ("chosen", "BotB", "BotB")
    run(engine, '$("#audit-out button[data-action=forget-player]").click();')
    run(
        engine,
        'await until("the question", () => $("#audit-out .audit-who")?.dataset.how === "ask");',
    )
    got = seen(engine)
    assert got["you"] is None and got["stored"] is None
    # a Tenhou link with tw=2, a log chosen for it and another game: seat 2's player ("c")
    run(engine, '$("#clear").click(); await until("no results", () => !$$("#results > *").length);')
    run(
        engine,
        """$("#paste").value = args[0]; $("#paste-go").click();""",
        "https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=2",
    )
    run(engine, SET_FILES, "#link-file", files(("sim0.xml", game(0).encode())))
    run(engine, SET_FILES, "#files", files(("sim1.xml", game(1).encode())))
    run(
        engine,
        'await until("two games", () => $$(\'#results [data-verdict="verified"]\').length >= 2);',
    )
    run(engine, AUDIT)
    got = seen(engine)
    assert (got["how"], got["you"]) == ("link", "c")


ONE_STORY = """
const everyone = $('#audit-out .audit-group[data-group="all players"]');
for (const d of everyone.querySelectorAll("details")) d.open = true;
for (const d of $$("#audit-out details.audit-seats")) d.open = true;
await new Promise((r) => setTimeout(r, 300));
const measure = MEASURE;
return { flagLines: everyone.querySelectorAll("figure.draws-chart polyline.flag-line").length,
  mirror: $('#audit-out .audit-group[data-group="seat 2"] .audit-mirror')?.dataset.explainedBy ?? null,
  charts: measure(everyone) };
"""


def test_one_story_on_a_phone_wide_page(engine: Any, site_url: str) -> None:
    open_ready(engine, site_url)
    run(engine, SET_FILES, "#files", files(("seat-rigged.zip", seat_rigged_zip(50))))
    run(
        engine,
        'await until("the zip", () => $(\'#results [data-file="seat-rigged.zip"][data-verdict="verified"]\'));',
    )
    try:  # a phone's width: the audit's charts are drawn at the width they get
        run(engine, 'document.documentElement.style.width = "390px";')
        run(engine, AUDIT)
        got = run(engine, ONE_STORY.replace("MEASURE", f"({MEASURE})", 1))
    finally:
        run(engine, 'document.documentElement.style.width = "";')
    assert got["flagLines"] == 2 and got["mirror"] == "Target"
    kinds = {c["cls"] for c in got["charts"]}
    assert {"chart band-chart", "chart bar-chart"} <= kinds, got["charts"]
    for chart in got["charts"]:
        assert chart["smallest"] >= 11 and chart["outside"] <= 0.5, chart
