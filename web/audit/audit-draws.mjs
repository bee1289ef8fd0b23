// The draw and wall tests of the audit (pywall.analysis.draws, pywall.analysis.walls; docs/audit.md), in
// words a player reads right: each draw line says what it counts, the hits, the range a
// fair shuffle gives 95% of the time and a plain reading ("30 of 123 — a fair shuffle gives
// 38 on average, usually between 28 and 48: usual"); a group's verdict of its draw and wall
// tests; the cumulative hits − fair chart; a platform's wall tests as a picture; and one
// game's lines per player. Python computes every number (low, high, reading); this only
// words and draws them.

import { language, number, t, tn } from "../words/i18n.mjs";
import { el, fillWhenOpen } from "../kit/dom.mjs";
import { bandChart, fitted, pBars } from "./charts.mjs";
import "../words/audit-i18n.mjs";

const TESTS = ["effective", "tenpai", "dora"];
const WALL_TESTS = ["positions", "deal", "live", "dead", "red_fives"];
const Z95 = 1.959963984540054; // the band of the chart: the same 95% as the lines' range

export const num = (x, digits = 0) => number(x, digits, true);
export const pText = (p) => (p < 1e-6 ? "< 1e-6" : p.toPrecision(3));
// "p < 1e-6" or "p = 0.0123": a p-value as a relation, never "p = < 1e-6"
export const pIs = (p) => (p < 1e-6 ? "p < 1e-6" : `p = ${p.toPrecision(3)}`);
export const zText = (z) => (z == null || Number.isNaN(z) ? "–" : z >= 0 ? `+${z.toFixed(2)}` : `−${(-z).toFixed(2)}`);

// A reading word ("usual", "unusual", "very unusual"), marked for colour and tests.
// In a group that is not flagged, "unusual" is one sentence that says why it does not flag
// ("Unusual, but not enough to flag: with 6 tests, a flag needs p below 0.000167").
export function readingEl(reading, group = null, alpha = null) {
  if (reading === "unusual" && group && !group.flagged && group.tests && alpha) {
    return el("b", { class: `reading ${reading}`, data: { reading, notFlag: "true" } },
      t("reading.unusualNotFlag", { k: num(group.tests), each: pText(alpha / group.tests) }));
  }
  return el("b", { class: `reading ${reading}`, data: { reading } }, t(`reading.${reading}`));
}

// Each test's JSON name as its group's `flagged_by` names it (pywall.audits.verdicts:
// "chi2", "shanten_sum", "dora", "draws.effective", ..., "walls.positions", ...), its words
// and its p-value in the group's JSON.
export function testName(path) {
  const [part, name] = path.includes(".") ? path.split(".") : ["hands", path];
  if (part === "draws") return t(`draws.${name}`);
  if (part === "walls") return t(`walls.${name}`);
  return t(`audit.test.${{ chi2: "chi", shanten_sum: "mean" }[name] || name}`);
}

export function testP(group, path) {
  const [part, name] = path.includes(".") ? path.split(".") : ["hands", path];
  if (part === "draws") return group.draws?.[name]?.p;
  if (part === "walls") return group.walls?.tests?.find((w) => w.name === name)?.p;
  return { chi2: group.p, shanten_sum: group.shanten_sum?.p, dora: group.dora?.p }[name];
}

// The tests that flag a group (Python's `flagged_by`), each with its p, in plain words:
// the evidence beside the flag (null when nothing flags it).
export function flaggedBy(group) {
  const paths = group.flagged ? group.flagged_by || [] : [];
  if (!paths.length) return null;
  const sep = language() === "en" ? "; " : "；";
  return el("p", { class: "audit-flagged-by", data: { tests: paths.join(" ") } },
    t("audit.flaggedBy"), " ",
    paths.flatMap((path, i) => [i ? sep : "", el("span", { class: "flag-test", data: { test: path.split(".").pop(), path } },
      `${testName(path)} (${pIs(testP(group, path))})`)]));
}

// A shown test's element marked when it is one of the tests that flag its group.
export function marked(node, group, path) {
  if (node && group?.flagged && (group.flagged_by || []).includes(path)) node.dataset.flags = "true";
  return node;
}

// One draw test: what it counts, the hits, the fair range, where the hits fall, then z and p.
export function drawLine(name, test, group = null, alpha = null) {
  if (!test || !test.n) return el("li", { data: { test: name } }, t(`draws.${name}.none`));
  const words = t("draws.line", { what: t(`draws.${name}`), obs: num(test.observed), n: num(test.n),
    fair: num(test.expected), low: num(test.low), high: num(test.high) });
  const stats = test.z == null ? null : el("span", { class: "figures" }, ` (z = ${zText(test.z)}, ${pIs(test.p)})`);
  return el("li", { data: { test: name, z: test.z == null ? "" : test.z.toFixed(3), reading: test.reading,
    low: String(test.low), high: String(test.high) } }, `${words} `, readingEl(test.reading, group, alpha), stats,
  detectableLine(name, test));
}

// What a group's draw test can see (Python's `detectable`, the shift in hits per 100 draws
// caught 8 times in 10, and `detectable_one_in`, the same as "1 in every N draws"), in a
// player's words; null where Python gives none (one game's lines, no draw, no variance).
function detectableLine(name, test) {
  if (test.detectable == null) return null;
  const text = test.detectable_one_in == null ? tn(`draws.few.${name}`, test.n)
    : t(`draws.detect.${name}`, { n: num(test.n), k: num(test.detectable_one_in) });
  return el("span", { class: "detectable", data: { test: name, detectable: String(test.detectable) } }, text);
}

// The same for a starting-hand test (`shanten_sum`: 1 hand in every N a shanten step off;
// `dora`: 1 dora more or fewer in every N hands) over a group's `hands`; inside the test's
// own line, which carries its `data-test` (one element a test: `[data-test=dora]` counts 1).
export function handDetectableLine(name, test, hands) {
  if (test?.detectable == null) return null;
  const text = test.detectable_one_in == null ? tn(`audit.few.${name}`, hands)
    : t(`audit.detect.${name}`, { n: num(hands), k: num(test.detectable_one_in) });
  return el("span", { class: "detectable", data: { part: "hands", detectable: String(test.detectable) } }, text);
}

// `each`: the p one test needs to flag its group (the threshold split over the group's tests).
function wallLines(group, each) {
  const walls = group.walls;
  if (!walls) return null;
  if (!walls.games) return el("p", { class: "audit-walls hint" }, t("walls.none"));
  const head = t("walls.head", { walls: tn("walls.walls", walls.walls, { n: num(walls.walls) }),
    games: tn("walls.games", walls.games, { n: num(walls.games) }) });
  if (!walls.tests.length) return el("p", { class: "audit-walls hint" }, `${head} ${t("walls.tooFew")}`);
  const tests = walls.tests.filter((w) => WALL_TESTS.includes(w.name));
  return el("div", { class: "audit-walls" }, el("p", {}, head),
    fitted(el("figure", { class: "walls-chart" }), (width) => pBars({ title: t("walls.chartTitle"),
      rows: tests.map((w) => ({ name: t(`walls.${w.name}`), p: w.p })), threshold: each,
      thresholdText: t("walls.threshold", { p: pText(each) }), axisText: t("walls.axis"), width })),
    el("ul", {}, tests.map((w) => marked(
      el("li", { data: { test: w.name } }, t("walls.test", { name: t(`walls.${w.name}`),
        chi: num(w.chi2, 1), dof: num(w.dof), p: pIs(w.p) })), group, `walls.${w.name}`))));
}

// Verdict of the draw and wall tests alone, in plain words (Python's `draw_verdict`:
// the threshold split over those tests as the group's own verdict splits it).
function verdict(group) {
  const v = group.draw_verdict;
  if (!v) return null;
  return el("p", { class: `draws-verdict ${v.flagged ? "bad" : "ok"}`, data: { flagged: String(v.flagged) } },
    el("span", { "aria-hidden": "true" }, v.flagged ? "⚠ " : "✓ "),
    t(v.flagged ? "draws.verdict.bad" : "draws.verdict.ok"),
    ` (${t("draws.verdict.detail", { p: pText(v.smallest_p), k: num(v.tests) })})`);
}

// The cumulative hits − fair of a group's effective draws, game by game, inside the
// 95% band of a fair shuffle, and the flag line the verdict uses (Python's `flag_z`: the
// |z| one test needs once the threshold is split over the group's tests), each named in
// the legend; the caption says that leaving the 95% band is not a flag (null for fewer
// than two games).
export function cumulative(points, who, group = {}, alpha = null) {
  if (!points || points.length < 2) return null;
  let o = 0, v = 0;
  const values = [0], band = [0], flag = [0];
  const flagZ = group.flag_z;
  for (const [d, w] of points) {
    o += d; v += w;
    values.push(o); band.push(Z95 * Math.sqrt(v));
    if (flagZ) flag.push(flagZ * Math.sqrt(v));
  }
  const title = t("draws.chartTitle", { who });
  const figure = el("figure", { class: "draws-chart", data: { games: String(points.length) } },
    el("figcaption", {}, title));
  fitted(figure, (width) => bandChart({ title, values, band, xLabel: t("draws.chartX"),
    lineName: t("draws.chartLine"), bandName: t("draws.chartBand"), format: (x) => num(x), width,
    flag: flagZ ? flag : null, flagName: t("draws.chartFlag") }));
  figure.append(el("p", { class: "hint" }, t("draws.chartCaption")));
  if (flagZ && group.tests && alpha) {
    figure.append(el("p", { class: "not-flag" },
      t("draws.chartNotFlag", { k: num(group.tests), each: pText(alpha / group.tests) })));
  }
  return figure;
}

// The draw and wall tests of one audit group (null when it has none).
export function drawsSection(group, who, alpha) {
  if (!group.draws && !group.walls) return null;
  return el("section", { class: "audit-draws" },
    el("h5", {}, t("draws.heading")),
    group.draws ? el("ul", { class: "draw-lines" }, TESTS.map((k) => marked(drawLine(k, group.draws[k], group, alpha), group, `draws.${k}`))) : null,
    verdict(group),
    cumulative(group.effective_by_game, who, group, alpha),
    wallLines(group, alpha / (group.tests || 1)));
}

// Dealer, non-dealer and each seat (pywall.audits.verdicts's `seats` groups), as groups are drawn.
export function seatsSection(data, view) {
  if (!data.seats?.length) return null;
  const label = (g) => (g.label.startsWith("seat ") ? t("draws.seat", { n: g.label.slice(5) }) : t(`draws.${g.label}`));
  return el("details", { class: "audit-seats" }, el("summary", {}, t("draws.seats")),
    data.seats.map((g) => mirrored(view(g, data.alpha, label(g)), g, label(g))));
}

// A flagged seat group that one flagged player explains (Python's `explained_by`) says so
// under its verdict: it only mirrors that player.
function mirrored(section, group, label) {
  if (!group.explained_by) return section;
  const words = el("p", { class: "audit-mirror", data: { explainedBy: group.explained_by } },
    t("audit.mirror", { seat: label, name: group.explained_by }));
  const verdictEl = section.querySelector(":scope > .audit-flagged-by") || section.querySelector(":scope > .audit-verdict");
  verdictEl ? verdictEl.after(words) : section.append(words);
  return section;
}

// A single game's draws per player (information, not a verdict): the report's
// `draws.by_seat` (pywall.analysis.draws.GameDraws.by_seat: each seat's three tests).
export function gameDrawsView(report) {
  const seats = report?.draws?.by_seat;
  if (!seats?.length) return null;
  const names = report.game?.players || [];
  // drawn when first opened: a batch of many games draws only the folded line
  const box = el("details", { class: "game-draws" }, el("summary", {}, t("draws.game.heading")));
  fillWhenOpen(box, () => [el("p", { class: "hint" }, t("draws.game.hint")),
    el("ul", {}, seats.map((s) => el("li", { data: { seat: String(s.seat) } },
      el("bdi", { class: "who" }, names[s.seat] || t("draws.seat", { n: s.seat + 1 })),
      el("ul", { class: "draw-lines" }, TESTS.map((k) => drawLine(k, s[k]))))))], false);
  return box;
}

// What the draw and wall tests can show (English: Python's own text, DRAWS_EXPLANATION),
// with the method's page as a link.
export function drawsExplanation(data) {
  if (!data.draws_explanation) return null;
  const text = language() === "en" ? data.draws_explanation.replace(/ docs\/audit\.md explains the tests\.$/, "")
    : t("draws.explanation");
  return el("p", { class: "draws-explanation" }, text);
}
