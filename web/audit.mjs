// The starting-hand audit of the batch: Python's `audit` over the logs' reports and
// the archive runs it still holds (pywall.results.audit: which games count, the exact fair
// distributions, the tests). Drawn as charts with a table of the same numbers.

import { language, t, tn } from "./i18n.mjs";
import { clear, el } from "./render.mjs";
import { barChart } from "./charts.mjs";
import { ask, failure, redrawers } from "./panel-kit.mjs";
import { shantenText } from "./hand-view.mjs";
import { problemText } from "./findings.mjs";
import "./audit-i18n.mjs";
import { drawsExplanation, drawsSection, seatsSection } from "./audit-draws.mjs";

function fmt(x, digits = 3) {
  if (x == null || Number.isNaN(x)) return "–";
  return Math.abs(x) >= 1000 ? Math.round(x).toLocaleString("en") : x.toFixed(digits);
}

function pText(p) {
  return p < 1e-6 ? "< 1e-6" : p.toPrecision(3);
}

function sizeText(part) {
  const size = t(`audit.size.${part.tiles}`);
  return part.players === 3 ? `${size} · ${t("audit.threePlayer")}` : size;
}

function sizeChart(part, who) {
  const keys = Object.keys(part.expected).sort((a, b) => Number(a) - Number(b));
  const size = sizeText(part);
  const title = t("audit.chartTitle", { who, size });
  const observed = keys.map((k) => part.observed[k] || 0);
  const expected = keys.map((k) => part.expected[k]);
  const chart = barChart({ title, categories: keys.map((k) => shantenText(Number(k))), xLabel: t("audit.shanten"),
    series: [{ name: t("audit.observed"), cls: "observed", values: observed },
      { name: t("audit.expected"), cls: "expected", values: expected }] });
  const table = el("table", { class: "audit-table" },
    el("caption", { class: "sr-only" }, title),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("audit.shanten")),
      el("th", { scope: "col" }, t("audit.observed")), el("th", { scope: "col" }, t("audit.expected")))),
    el("tbody", {}, keys.map((k, i) => el("tr", {}, el("th", { scope: "row" }, shantenText(Number(k))),
      el("td", { class: "num" }, String(observed[i])), el("td", { class: "num" }, expected[i].toFixed(2))))));
  return el("figure", { class: "audit-chart", data: { tiles: String(part.tiles), players: String(part.players) } },
    el("figcaption", {}, el("b", {}, size), ` — ${tn("audit.hands", part.hands)}`),
    chart,
    el("details", {}, el("summary", {}, t("audit.table")), table),
    el("p", {}, meanText(part.mean, part.expected_mean, part.z, part.z_p)),
    chiText(part.chi2, part.dof, part.p));
}

// Plain words first, then the figures: which way a result leans, and how often chance
// alone leans that far (1 / p samples), before z and p.
function chanceText(p) {
  if (p >= 0.1) return t("audit.read.common");
  if (p < 1e-6) return t("audit.read.never");
  return t("audit.read.rare", { n: Math.round(1 / p).toLocaleString(language()) });
}

function meanText(mean, fair, z, p) {
  return t("audit.read.mean", { mean: fmt(mean), fair: fmt(fair), z: fmt(z, 2), p: pText(p),
    direction: t(z > 0 ? "audit.read.worse" : "audit.read.better"), chance: chanceText(p) });
}

// A chi-square with no degrees of freedom (too few hands to compare) tests nothing: not shown.
function chiText(chi, dof, p) {
  if (!dof) return null;
  return el("p", { data: { test: "chi" } }, t("audit.read.chi", { chi: fmt(chi, 2), dof, p: pText(p), chance: chanceText(p) }));
}

function doraText(dora) {
  return t("audit.read.dora", { obs: fmt(dora.observed, 0), exp: fmt(dora.expected, 1), z: fmt(dora.z, 2),
    p: pText(dora.p), direction: t(dora.observed > dora.expected ? "audit.read.more" : "audit.read.fewer"),
    chance: chanceText(dora.p) });
}

// How the headline follows from the tests (the threshold split over them), said once,
// under the first group's verdict: why a small p beside a chart need not flag anything.
function howText(group, alpha) {
  const names = ["chi", "mean", ...(group.dora ? ["dora"] : [])].map((k) => t(`audit.test.${k}`));
  const k = group.tests ?? names.length; // Python's count: the draw and wall tests too
  if (k > names.length) names.push(t("audit.test.others", { n: k - names.length }));
  return el("p", { class: "audit-how hint" }, t("audit.read.how", { k, alpha, each: pText(alpha / k),
    tests: names.join(language() === "en" ? ", " : "、") }));
}

function groupView(group, alpha, label, explain = false) {
  // Python's flag splits the threshold over every test of the group (draws and walls too)
  const tests = group.tests ?? 2 + (group.dora ? 1 : 0);
  const smallest = group.smallest_p ?? Math.min(group.p, group.shanten_sum.p, group.dora ? group.dora.p : 1);
  const sum = group.shanten_sum, hands = Math.max(1, group.hands);
  return el("section", { class: "audit-group", data: { group: group.label, flagged: String(group.flagged) } },
    el("h4", {}, el("bdi", {}, label), ` — ${tn("audit.hands", group.hands)}`),
    el("p", { class: `audit-verdict ${group.flagged ? "bad" : "ok"}` },
      el("span", { "aria-hidden": "true" }, group.flagged ? "⚠ " : "✓ "),
      group.flagged ? t("audit.flagged", { alpha, k: tests }) : t("audit.ok"),
      ` (${t("audit.read.smallest", { k: tests, p: pText(smallest), each: pText(alpha / tests) })})`),
    explain ? howText(group, alpha) : null,
    el("div", { class: "audit-tests" },
      el("p", { data: { test: "mean" } }, meanText(sum.observed / hands, sum.expected / hands, sum.z, sum.p)),
      chiText(group.chi2, group.dof, group.p),
      group.dora ? el("p", { data: { test: "dora" } }, doraText(group.dora)) : null),
    group.by_tiles ? el("div", { class: "audit-charts" }, group.by_tiles.map((part) => sizeChart(part, label))) : null,
    drawsSection(group, label));
}

// Why a game was left out, from its reason code and data (English: Python's reason).
function reasonText(e) {
  const code = e.reason_code, data = e.reason_data || {};
  if (language() === "en" || !code) return e.reason;
  if (code === "duplicate") return t("excluded.duplicate", { path: data.same_as ?? "?" });
  if (code === "conflict") return t("excluded.conflict", { paths: (data.paths || []).join("、") });
  if (code === "no_starting_hands" || code === "no_fingerprint") return t(`excluded.${code}`);
  if (!["mismatch", "error", "unreadable"].includes(code)) return e.reason;
  const problem = problemText(data);
  return problem ? t(`excluded.${code}`, { problem }) : t(`excluded.${code}.bare`);
}

function excludedList(games) {
  if (!games.excluded.length) return null;
  return el("details", { class: "excluded" },
    el("summary", {}, t("audit.excluded", { n: games.excluded.length })),
    el("ul", {}, games.excluded.map((e) => el("li", { data: { kind: e.kind } },
      el("bdi", {}, e.path), `: ${reasonText(e)}`))));
}

// A platform's group in the reader's language (Python's label is English, for the CLI).
function platformLabel(group) {
  if (!group.platform) return group.label;
  return t("audit.platformGroup", { platform: t(`platform.${group.platform}`), players: group.players });
}

function auditView(data) {
  const games = data.games;
  const counts = el("p", { class: "audit-summary", data: { games: String(games.used), hands: String(games.hands),
    draws: String(games.draws), anonymous: String(games.anonymous_hands) } },
    t("audit.summary", { games: tn("audit.games", games.used), hands: tn("audit.startingHands", games.hands) }));
  if (data.error) return el("div", { data: { result: "none" } }, el("p", {}, t("audit.none")), excludedList(games));
  const players = [...data.players].sort((a, b) => b.hands - a.hands);
  const platforms = data.platforms || [];
  return el("div", { data: { result: "audit" } },
    counts,
    games.anonymous_hands ? el("p", { class: "audit-anonymous hint" }, tn("audit.anonymous", games.anonymous_hands)) : null,
    excludedList(games),
    groupView(data.overall, data.alpha, t("audit.overall"), true),
    platforms.length > 1 ? el("section", { class: "audit-platforms" }, el("h4", {}, t("audit.platforms")),
      platforms.map((g) => groupView(g, data.alpha, platformLabel(g)))) : null,
    seatsSection(data, groupView),
    el("details", { class: "audit-players" }, el("summary", {}, `${t("audit.players")} (${players.length})`),
      players.map((g) => groupView(g, data.alpha, g.label))),
    el("h4", {}, t("audit.explanationHeading")),
    el("p", { class: "explanation" }, language() === "en" ? data.explanation : t("audit.explanation")),
    drawsExplanation(data));
}

// The button and the view at the top of the results, under the batch's summary and
// its buttons (reached without passing every result); `sources()` -> {reports, runs}.
export function auditControls(sources) {
  const actions = document.querySelector("#batch .batch-actions");
  if (!actions || document.getElementById("audit-view")) return;
  const out = el("div", { id: "audit-out", "aria-live": "polite" });
  const button = el("button", { id: "audit-go", type: "button" }, t("audit.button"));
  const section = el("section", { id: "audit-view", class: "audit", "aria-labelledby": "audit-heading" },
    el("h3", { id: "audit-heading" }, t("audit.heading")), el("p", {}, button), out);
  actions.after(section);
  let last = null;
  let asked = 0; // audits asked for: an answer to one asked before "Clear results" is not drawn
  const draw = () => { if (last) clear(out).append(auditView(last)); };
  redrawers.add(draw);
  document.addEventListener("pywall:cleared", () => { asked++; last = null; clear(out); });
  button.addEventListener("click", async () => {
    const mine = ++asked;
    button.disabled = true;
    clear(out).append(el("p", { class: "hint" }, t("audit.working")));
    try {
      const answer = await ask("audit", sources());
      if (mine !== asked) return;
      last = answer;
      draw();
    } catch (err) {
      if (mine !== asked) return;
      last = null;
      clear(out).append(failure(err));
    } finally {
      button.disabled = false;
    }
  });
}
