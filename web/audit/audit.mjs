// The fairness audit of the batch (deals, draws, walls): Python's `audit` over the logs'
// reports and the archive runs it still holds (pywall.audits.verdicts: which games count, the
// exact fair distributions, the tests). "You" is only ever a player known: the one the seat
// of a game link names (Tenhou's tw, a pasted link or the bookmarklet's), or the name the
// player chose before on this device (remembered, forgotten with one click); else the page
// asks, and never guesses (not the most frequent, not on a tie). The player reads their own
// verdict, draw lines and chart first, then everyone's, each platform's, each seat's and the
// other players'. A flagged group names the tests that flag it (Python's `flagged_by`). "Export
// audit" saves what `pywall audit --json` prints and the report `pywall audit --html`
// writes (Python's own, through the worker: `audit_export`); "Copy summary" copies a
// short verdict.

import { language, t, tn } from "../words/i18n.mjs";
import { clear, el } from "../kit/dom.mjs";
import { barChart, fitCharts, fitted } from "./charts.mjs";
import { ask, failure, redrawers } from "../tools/panel-kit.mjs";
import { shantenText } from "../verdict/hand-view.mjs";
import { problemText } from "../verdict/findings.mjs";
import "../words/audit-i18n.mjs";
import { drawsExplanation, drawsSection, flaggedBy, handDetectableLine, marked, num, pIs, pText, readingEl, seatsSection,
  testName, testP, zText } from "./audit-draws.mjs";

function fmt(x, digits = 3) {
  if (x == null || Number.isNaN(x)) return "–";
  return Math.abs(x) >= 1000 ? num(x) : num(x, digits);
}

const PLAYER_KEY = "pywall.auditPlayer"; // localStorage: the name chosen, or "-" (none of them)

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
  const chart = fitted(el("div", { class: "bar-chart-box" }), (width) => barChart({ title,
    categories: keys.map((k) => shantenText(Number(k))), xLabel: t("audit.shanten"), width,
    series: [{ name: t("audit.observed"), cls: "observed", values: observed },
      { name: t("audit.expected"), cls: "expected", values: expected }] }));
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
  return t("audit.read.rare", { n: num(Math.round(1 / p)) });
}

// A lean within chance ("usual") is never worded as better or worse: "close to fair".
function lean(reading, positive, up, down) {
  return t(reading === "usual" || !reading ? "audit.read.close" : positive ? up : down);
}

function meanText(mean, fair, z, p, reading, group = null, alpha = null) {
  return [t("audit.read.mean", { mean: fmt(mean), fair: fmt(fair), z: zText(z), p: pIs(p),
    direction: lean(reading, z > 0, "audit.read.worse", "audit.read.better"), chance: chanceText(p) }), " ",
  reading ? readingEl(reading, group, alpha) : null];
}

// A chi-square with no degrees of freedom (too few hands to compare) tests nothing: not shown.
function chiText(chi, dof, p) {
  if (!dof) return null;
  return el("p", { data: { test: "chi2" } }, t("audit.read.chi", { chi: fmt(chi, 2), dof, p: pIs(p), chance: chanceText(p) }));
}

function doraText(dora, group = null, alpha = null) {
  return [t("audit.read.dora", { obs: fmt(dora.observed, 0), exp: fmt(dora.expected, 1), z: zText(dora.z),
    p: pIs(dora.p), direction: lean(dora.reading, dora.observed > dora.expected, "audit.read.more", "audit.read.fewer"),
    chance: chanceText(dora.p) }), " ", dora.reading ? readingEl(dora.reading, group, alpha) : null];
}

// How the headline follows from the tests (the threshold split over them), said once,
// under the first group's verdict: why a small p beside a chart need not flag anything.
function howText(group, alpha) {
  const names = ["chi", "mean", ...(group.dora ? ["dora"] : [])].map((k) => t(`audit.test.${k}`));
  const k = group.tests ?? names.length; // Python's count: the draw and wall tests too
  if (k > names.length) names.push(t("audit.test.others", { n: k - names.length }));
  return el("p", { class: "audit-how hint" }, t("audit.read.how", { k: num(k), alpha, each: pText(alpha / k),
    tests: names.join(language() === "en" ? ", " : "、") }));
}

// `few`: the games are too few for any verdict (one game): the headline says so, in place
// of a tick the tests cannot give.
function groupView(group, alpha, label, explain = false, few = false) {
  // Python's flag splits the threshold over every test of the group (draws and walls too)
  const tests = group.tests ?? 2 + (group.dora ? 1 : 0);
  const smallest = group.smallest_p ?? Math.min(group.p, group.shanten_sum.p, group.dora ? group.dora.p : 1);
  const sum = group.shanten_sum, hands = Math.max(1, group.hands);
  const draws = group.draws?.effective?.n || 0;
  return el("section", { class: "audit-group", data: { group: group.label, flagged: String(group.flagged) } },
    el("h4", {}, el("bdi", {}, label), ` — ${tn("audit.hands", group.hands, { n: num(group.hands) })}`,
      draws ? `${t("audit.and")}${tn("audit.draws", draws, { n: num(draws) })}` : ""),
    few ? el("p", { class: "audit-verdict few" }, el("span", { "aria-hidden": "true" }, "⚠ "), t("audit.tooFew")) : null,
    el("p", { class: `audit-verdict ${group.flagged ? "bad" : "ok"}`, hidden: few },
      el("span", { "aria-hidden": "true" }, group.flagged ? "⚠ " : "✓ "),
      group.flagged ? t("audit.flagged") : t("audit.ok"),
      ` (${t("audit.read.smallest", { k: num(tests), p: pText(smallest), each: pText(alpha / tests) })})`),
    flaggedBy(group),
    explain ? howText(group, alpha) : null,
    drawsSection(group, label, alpha),
    el("h5", {}, t("audit.dealsHeading")),
    el("div", { class: "audit-tests" },
      marked(el("p", { data: { test: "shanten_sum" } }, meanText(sum.observed / hands, sum.expected / hands, sum.z, sum.p, sum.reading, group, alpha),
        handDetectableLine("shanten_sum", sum, group.hands)),
        group, "shanten_sum"),
      marked(chiText(group.chi2, group.dof, group.p), group, "chi2"),
      group.dora ? marked(el("p", { data: { test: "dora" } }, doraText(group.dora, group, alpha),
        handDetectableLine("dora", group.dora, group.hands)), group, "dora") : null),
    group.by_tiles ? el("details", { class: "audit-hand-charts" }, el("summary", {}, t("audit.handCharts")),
      el("div", { class: "audit-charts" }, group.by_tiles.map((part) => sizeChart(part, label)))) : null);
}

// Why a game was left out, from its reason code and data (English: Python's reason).
function reasonText(e) {
  const code = e.reason_code, data = e.reason_data || {};
  if (language() === "en" || !code) return e.reason;
  if (code === "duplicate") { // the path, data not words, kept apart (bidi-isolated)
    const [before, after] = t("excluded.duplicate", { path: "\u0000" }).split("\u0000");
    return [before, el("bdi", { title: data.same_as ?? "?" }, data.same_as ?? "?"), after ?? ""];
  }
  if (code === "conflict") return t("excluded.conflict", { paths: (data.paths || []).join("、") });
  if (code === "no_starting_hands" || code === "no_fingerprint") return t(`excluded.${code}`);
  if (code === "missing_game" || code === "more_games") { // a file changed during a Dask audit
    const figures = Object.fromEntries(["games", "game", "first", "last"].map((k) => [k, num(data[k] ?? 0)]));
    return t(`excluded.${code}`, { ...figures, file: data.file ?? "?" });
  }
  if (!["mismatch", "error", "unreadable"].includes(code)) return e.reason;
  const problem = problemText(data);
  return problem ? t(`excluded.${code}`, { problem }) : t(`excluded.${code}.bare`);
}

// How many were left out for each reason ("2 repeats, 1 game with conflicting copies"),
// the CLI's summary line in the reader's language.
function leftOutText(games) {
  const kinds = Object.entries(games.left_out || {}).sort((a, b) => b[1] - a[1]);
  return kinds.map(([kind, n]) => tn(`leftOut.${kind}`, n)).join(t("leftOut.sep"));
}

// What counts in the totals but is not shown: players past the listed limit, rounds whose
// draws the walk could not follow (with why).
function notShownNotes(games, listed) {
  const notes = [];
  if (games.players_not_listed) {
    notes.push(el("p", { class: "audit-not-listed hint", data: { n: String(games.players_not_listed) } },
      tn("audit.notListed", games.players_not_listed, { max: num(listed) })));
  }
  if (games.skipped_rounds) {
    const why = Object.entries(games.skipped_round_reasons || {})
      .map(([reason, n]) => t(`skipped.${reason}`, { n: num(n) })).join(t("leftOut.sep"));
    notes.push(el("p", { class: "audit-skipped hint", data: { n: String(games.skipped_rounds) } },
      tn("audit.skipped", games.skipped_rounds, { why })));
  }
  return notes;
}

function excludedList(games) {
  if (!games.excluded.length) return null;
  return el("details", { class: "excluded" },
    el("summary", {}, t("audit.excluded", { n: num(games.excluded.length) }),
      el("span", { class: "left-out-kinds" }, t("leftOut.colon"), leftOutText(games))),
    el("ul", {}, games.excluded.map((e) => el("li", { data: { kind: e.kind } },
      el("bdi", { title: e.path }, e.path), ": ", reasonText(e)))));
}

// A platform's group in the reader's language (Python's label is English, for the CLI).
function platformLabel(group) {
  if (!group.platform) return group.label;
  return t("audit.platformGroup", { platform: t(`platform.${group.platform}`), players: group.players });
}

// Who "you" are, and how that is known: {name, how}. `how`: "link" (the one player the
// batch's game links name by their seat), "chosen" (picked in this view, or before on this
// device and remembered), or "ask" (name ""): never a guess. name "-": none of these players.
let picked = null; // a choice made in this page's audit view, over the links' player

function remembered() {
  try { return localStorage.getItem(PLAYER_KEY) || ""; } catch { return ""; } // storage off
}

function whoYouAre(players, linked) {
  const known = (name) => name === "-" || players.some((g) => g.label === name);
  if (picked != null && known(picked)) return { name: picked, how: "chosen" };
  const named = [...new Set(linked)].filter((name) => players.some((g) => g.label === name));
  if (named.length === 1) return { name: named[0], how: "link" };
  const stored = remembered();
  if (stored && known(stored)) return { name: stored, how: "chosen" };
  return { name: "", how: "ask" };
}

function choosePlayer(name) {
  picked = name;
  try { localStorage.setItem(PLAYER_KEY, name); } catch { /* storage off: this view only */ }
}

function forgetPlayer() {
  picked = null;
  try { localStorage.removeItem(PLAYER_KEY); } catch { /* storage off */ }
}

// The question ("Which player are you?") until it is answered; then the answer, with how it
// is known, and, for a remembered choice, one click to forget it.
function whoPicker(players, who, onChange, onForget) {
  if (!players.length) return null;
  const select = el("select", { id: "audit-player", on: { change: (ev) => onChange(ev.target.value) } },
    who.how === "ask" ? el("option", { value: "", selected: true, disabled: true }, t("audit.who.pick")) : null,
    players.map((g) => el("option", { value: g.label, selected: g.label === who.name },
      `${g.label} (${tn("audit.hands", g.hands, { n: num(g.hands) })})`)),
    el("option", { value: "-", selected: who.name === "-" }, t("audit.who.none")));
  const stored = remembered();
  return el("div", { class: "audit-who", data: { how: who.how } },
    el("p", {}, el("label", { for: "audit-player" }, t(who.how === "ask" ? "audit.who.ask" : "audit.who.label")), " ", select),
    who.how === "ask" ? el("p", { class: "hint" }, t("audit.who.why")) : null,
    who.how === "link" ? el("p", { class: "hint audit-who-how" }, t("audit.who.fromLink")) : null,
    stored ? el("p", { class: "audit-who-how" }, el("span", { class: "hint" }, t("audit.who.remembered")), " ",
      el("button", { type: "button", data: { action: "forget-player" }, on: { click: onForget } }, t("audit.who.forget"))) : null);
}

// The tests that decided a group's flag, named, each with its p ("" when not flagged).
function decidedBy(group) {
  const paths = group.flagged ? group.flagged_by || [] : [];
  const sep = language() === "en" ? "; " : "；";
  return paths.map((path) => `${testName(path)} (${pIs(testP(group, path))})`).join(sep);
}

// A short verdict for a forum post: the counts, everyone's and the chosen player's verdict,
// the tests that decided a flag, and the effective draws (the reader's language).
function summaryText(data, mine) {
  const g = data.games;
  const line = (group, who) => {
    const eff = group.draws?.effective;
    const verdictWords = group.flagged ? t("audit.copy.bad") : t("audit.copy.ok");
    const decided = decidedBy(group);
    const by = decided ? ` ${t("audit.copy.by", { tests: decided })}${t("audit.stop")}` : "";
    const draws = eff?.n ? ` ${t("draws.line", { what: t("draws.effective"), obs: num(eff.observed), n: num(eff.n),
      fair: num(eff.expected), low: num(eff.low), high: num(eff.high) })} ${t(`reading.${eff.reading}`)}${t("audit.stop")}` : "";
    return `${who}: ${verdictWords}${by}${draws}`;
  };
  return [t("audit.copy.head", { games: tn("audit.games", g.used, { n: num(g.used) }),
    hands: tn("audit.startingHands", g.hands, { n: num(g.hands) }), draws: tn("audit.draws", g.draws || 0, { n: num(g.draws || 0) }) }),
  mine ? line(mine, t("audit.you", { name: mine.label })) : null, line(data.overall, t("audit.everyone")), t("audit.copy.tail")]
    .filter(Boolean).join("\n");
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function shareButtons(data, sources, player) {
  const note = el("span", { class: "hint audit-share-msg", role: "status" });
  const exported = async (kind) => {
    note.textContent = t("audit.working");
    try {
      const answer = await ask("audit_export", { ...sources(), lang: language(), player: player() });
      if (kind === "json") download("pywall-audit.json", "application/json", answer.json);
      else download("pywall-audit.html", "text/html;charset=utf-8", answer.html);
      note.textContent = t("audit.saved", { name: `pywall-audit.${kind}` });
    } catch (err) {
      note.textContent = t("call.failed", { message: err.message || String(err) });
    }
  };
  const copy = async () => {
    const mine = data.players.find((g) => g.label === player());
    const text = summaryText(data, mine);
    copyArea.value = text;
    try {
      await navigator.clipboard.writeText(text);
      note.textContent = t("audit.copied");
    } catch {
      copyArea.hidden = false; // no clipboard (permission, http): the text to copy by hand
      copyArea.select();
      note.textContent = t("audit.copyByHand");
    }
  };
  const copyArea = el("textarea", { class: "audit-copy", rows: 5, readonly: true, hidden: true, "aria-label": t("audit.copy") });
  return el("div", { class: "audit-share" },
    el("p", { class: "audit-actions" },
      el("button", { type: "button", data: { action: "export-audit" }, on: { click: () => exported("json") } }, t("audit.export")),
      el("button", { type: "button", data: { action: "export-audit-html" }, on: { click: () => exported("html") } }, t("audit.exportHtml")),
      el("button", { type: "button", data: { action: "copy-summary" }, on: { click: copy } }, t("audit.copy")),
      note),
    copyArea);
}

function auditView(data, sources, redraw, linked) {
  const games = data.games;
  const counts = el("p", { class: "audit-summary", data: { games: String(games.used), hands: String(games.hands),
    draws: String(games.draws), anonymous: String(games.anonymous_hands) } },
    t("audit.summary", { games: tn("audit.games", games.used, { n: num(games.used) }),
      hands: tn("audit.startingHands", games.hands, { n: num(games.hands) }),
      draws: tn("audit.draws", games.draws || 0, { n: num(games.draws || 0) }) }));
  if (data.error) return el("div", { data: { result: "none" } }, el("p", {}, t("audit.none")), excludedList(games));
  const few = games.used < 2;
  const players = [...data.players].sort((a, b) => b.hands - a.hands || (a.label < b.label ? -1 : 1));
  const who = whoYouAre(players, linked());
  const chosen = who.name;
  const mine = players.find((g) => g.label === chosen);
  const platforms = data.platforms || [];
  const choose = (name) => { choosePlayer(name); redraw(); };
  const forget = () => { forgetPlayer(); redraw(); };
  return el("div", { data: { result: "audit", player: chosen } },
    counts,
    games.anonymous_hands ? el("p", { class: "audit-anonymous hint" }, tn("audit.anonymous", games.anonymous_hands, { n: num(games.anonymous_hands) })) : null,
    games.excluded.length ? el("p", { class: "audit-left-out" }, t("audit.leftOutWhy", { why: leftOutText(games) })) : null,
    excludedList(games),
    ...notShownNotes(games, players.length),
    whoPicker(players, who, choose, forget),
    shareButtons(data, sources, () => (mine ? mine.label : "")),
    mine ? el("div", { class: "audit-you", data: { player: mine.label } },
      groupView(mine, data.alpha, t("audit.you", { name: mine.label }), false, few)) : null,
    groupView(data.overall, data.alpha, t("audit.everyone"), true, few),
    platforms.length > 1 ? el("section", { class: "audit-platforms" }, el("h4", {}, t("audit.platforms")),
      platforms.map((g) => groupView(g, data.alpha, platformLabel(g)))) : null,
    seatsSection(data, groupView),
    el("details", { class: "audit-players" },
      el("summary", {}, `${t("audit.otherPlayers")} (${num(players.length - (mine ? 1 : 0))})`),
      players.filter((g) => g !== mine).map((g) => groupView(g, data.alpha, g.label))),
    el("h4", {}, t("audit.explanationHeading")),
    el("p", { class: "explanation" }, language() === "en" ? data.explanation : t("audit.explanation")),
    drawsExplanation(data));
}

// The button and the view at the top of the results, under the batch's summary and
// its buttons (reached without passing every result); `sources()` -> {reports, runs}.
// The button asks the question, with the number of verified games it would test; it
// shows once a game is verified (with a word that one game is too few to tell).
// `linked()`: the names the batch's game links name by their seat (tw), "you" when one.
export function auditControls(sources, linked = () => []) {
  const actions = document.querySelector("#batch .batch-actions");
  if (!actions || document.getElementById("audit-view")) return;
  const out = el("div", { id: "audit-out", "aria-live": "polite" });
  const button = el("button", { id: "audit-go", type: "button", data: { action: "audit" } }, t("audit.button", { n: "2" }));
  const hint = el("p", { class: "hint audit-need" });
  const heading = el("h3", { id: "audit-heading" }, t("audit.heading"));
  const intro = el("p", { class: "audit-intro" }, t("audit.intro"));
  const section = el("section", { id: "audit-view", class: "audit", "aria-labelledby": "audit-heading" },
    heading, intro, el("p", { class: "audit-go-row" }, button), hint, out);
  actions.after(section);
  let verified = 0, running = false;
  const label = () => {
    heading.textContent = t("audit.heading");
    intro.textContent = t("audit.intro");
    button.textContent = tn("audit.button", verified, { n: num(verified) });
    button.hidden = verified < 1;
    button.dataset.games = String(verified);
    hint.textContent = verified < 2 ? t("audit.needTwo") : running ? t("audit.stillRunning") : "";
  };
  document.addEventListener("pywall:counts", (ev) => {
    verified = ev.detail.verified;
    running = ev.detail.running;
    label();
  });
  let last = null;
  let asked = 0; // audits asked for: an answer to one asked before "Clear results" is not drawn
  const draw = () => {
    label();
    if (last) clear(out).append(auditView(last, sources, draw, linked));
    fitCharts(out);
  };
  // a chart in a list opened later is drawn at the width it then has
  out.addEventListener("toggle", (ev) => { if (ev.target.open) fitCharts(ev.target); }, true);
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
