// The draw and wall tests of the audit (pywall.analysis.draws, pywall.analysis.walls; docs/audit.md), in
// words beside the starting-hand audit: each group's three draw lines ("effective draws:
// 412 of 1,530, fair 431 ± 17"), a plain verdict of its draw and wall tests, a player's
// cumulative O − E chart with its ±2 sd band, a platform's wall tests, and a single
// game's effective draws per player. Python computes every number; this only words them.

import { language, t, tn } from "./i18n.mjs";
import { el } from "./render.mjs";
import { bandChart } from "./charts.mjs";
import "./audit-i18n.mjs";

const TESTS = ["effective", "tenpai", "dora"];
const WALL_TESTS = ["positions", "deal", "live", "dead", "red_fives"];

const count = (x) => Math.round(x).toLocaleString("en");
const pText = (p) => (p < 1e-6 ? "< 1e-6" : p.toPrecision(3));
const zText = (z) => (z >= 0 ? `+${z.toFixed(2)}` : `−${(-z).toFixed(2)}`);

function drawLine(name, test) {
  if (!test || !test.n) return el("li", { data: { test: name } }, t(`draws.${name}.none`));
  const words = t(`draws.${name}`, { obs: count(test.observed), n: count(test.n),
    fair: count(test.expected), sd: count(Math.sqrt(test.variance)) });
  const stats = test.z == null ? "" : ` (z = ${zText(test.z)}, p = ${pText(test.p)})`;
  return el("li", { data: { test: name, z: test.z == null ? "" : test.z.toFixed(3) } }, words + stats);
}

function wallLines(walls) {
  if (!walls) return null;
  if (!walls.games) return el("p", { class: "audit-walls hint" }, t("walls.none"));
  const head = t("walls.head", { walls: tn("walls.walls", walls.walls), games: tn("walls.games", walls.games) });
  if (!walls.tests.length) return el("p", { class: "audit-walls hint" }, `${head} ${t("walls.tooFew")}`);
  return el("div", { class: "audit-walls" }, el("p", {}, head),
    el("ul", {}, walls.tests.filter((w) => WALL_TESTS.includes(w.name)).map((w) =>
      el("li", { data: { test: w.name } }, t("walls.test", { name: t(`walls.${w.name}`),
        chi: w.chi2.toFixed(1), dof: w.dof.toLocaleString("en"), p: pText(w.p) })))));
}

// Verdict of the draw and wall tests alone, in plain words (Python's `draw_verdict`:
// the threshold split over those tests as the group's own verdict splits it).
function verdict(group) {
  const v = group.draw_verdict;
  if (!v) return null;
  return el("p", { class: `draws-verdict ${v.flagged ? "bad" : "ok"}`, data: { flagged: String(v.flagged) } },
    el("span", { "aria-hidden": "true" }, v.flagged ? "⚠ " : "✓ "),
    t(v.flagged ? "draws.verdict.bad" : "draws.verdict.ok"),
    ` (${t("draws.verdict.detail", { p: pText(v.smallest_p), k: v.tests })})`);
}

function cumulative(points, who) {
  let o = 0, v = 0;
  const values = [0], band = [0];
  for (const [d, w] of points) {
    o += d; v += w;
    values.push(o); band.push(2 * Math.sqrt(v));
  }
  const title = t("draws.chartTitle", { who });
  return el("figure", { class: "draws-chart", data: { games: String(points.length) } },
    bandChart({ title, values, band, xLabel: t("draws.chartX"), yLabel: t("draws.chartY"),
      lineName: t("draws.chartLine"), bandName: t("draws.chartBand") }),
    el("figcaption", { class: "hint" }, t("draws.chartCaption")));
}

// The draw tests of one audit group (null when it has none).
export function drawsSection(group, who) {
  if (!group.draws && !group.walls) return null;
  return el("section", { class: "audit-draws" },
    el("h5", {}, t("draws.heading")),
    group.draws ? el("ul", { class: "draw-lines" }, TESTS.map((k) => drawLine(k, group.draws[k]))) : null,
    wallLines(group.walls),
    verdict(group),
    group.effective_by_game?.length > 1 ? cumulative(group.effective_by_game, who) : null);
}

// Dealer, non-dealer and each seat (pywall.results.audit's `seats` groups), as groups are drawn.
export function seatsSection(data, view) {
  if (!data.seats?.length) return null;
  const label = (g) => (g.label.startsWith("seat ") ? t("draws.seat", { n: g.label.slice(5) }) : t(`draws.${g.label}`));
  return el("details", { class: "audit-seats" }, el("summary", {}, t("draws.seats")),
    data.seats.map((g) => view(g, data.alpha, label(g))));
}

// A single game's effective draws per player (information, not a verdict): from the
// report's `draws` (pywall.analysis.draws.GameDraws: [seat, dealer, effective, tenpai, dora]).
export function gameDrawsView(report) {
  const seats = report?.draws?.seats;
  if (!seats?.length) return null;
  const names = report.game?.players || [];
  const bySeat = new Map();
  for (const [seat, , [n, o, e, v]] of seats) {
    const s = bySeat.get(seat) || [0, 0, 0, 0];
    bySeat.set(seat, [s[0] + n, s[1] + o, s[2] + e, s[3] + v]);
  }
  return el("details", { class: "game-draws" }, el("summary", {}, t("draws.game.heading")),
    el("p", { class: "hint" }, t("draws.game.hint")),
    el("ul", {}, [...bySeat.entries()].sort((a, b) => a[0] - b[0]).map(([seat, [n, o, e, v]]) =>
      el("li", { data: { seat: String(seat) } }, el("bdi", {}, names[seat] || t("draws.seat", { n: seat + 1 })), ": ",
        t("draws.effective", { obs: count(o), n: count(n), fair: count(e), sd: count(Math.sqrt(v)) })))));
}

// What the draw and wall tests can show (English: Python's own text, DRAWS_EXPLANATION).
export function drawsExplanation(data) {
  if (!data.draws_explanation) return null;
  return el("p", { class: "draws-explanation" },
    language() === "en" ? data.draws_explanation : t("draws.explanation"));
}
