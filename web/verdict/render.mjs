// A game's verdict drawn: its report (verdict, facts, findings, rounds) and a round's wall,
// with the element builder (dom.mjs) and the tiles (tile.mjs). Every string that comes from
// a log (names, file names, messages) is added as a text node.

import { number, t, roundLabel } from "../words/i18n.mjs";
import { el, fillWhenOpen } from "../kit/dom.mjs";
import { redFivesOn, tileEl, tileText } from "./tile.mjs";
import { findingsList } from "./findings.mjs";
import { dateText, ruleText, windOf } from "./finding-words.mjs";
import { commitmentsSection, roundDigests } from "./stated-walls.mjs";

// --- verdicts -------------------------------------------------------------------

const ICONS = { verified: "✓", mismatch: "✗", error: "⚠", pending: "…" };

export function verdictBadge(status) {
  return el("span", { class: `verdict verdict-${status}` },
    el("span", { class: "icon", "aria-hidden": "true" }, ICONS[status] || "?"),
    " ", t(`verdict.${status}`));
}

// A seed's walls that could not be made, in the reader's words: a seed Python could not
// read (bad_seed) keeps Python's English reason folded underneath, as a finding does.
export function seedErrorContent(error) {
  if (error.code !== "bad_seed") return [t("seed.error", { message: error.message })];
  return [t("seed.bad"), " ", el("details", { class: "technical" }, el("summary", {}, t("error.detail")), error.message)];
}

// --- one round's wall -------------------------------------------------------------

// Python sends each tile check as a compact row [pos, what, seat, n, k, log, ok]
// (pywall.results.report.EVENT_FIELDS); expanded once per round, with the wall's tile.
const expanded = new WeakMap();

export function eventsOf(round) {
  if (!round.events) return [];
  let events = expanded.get(round);
  if (!events) {
    events = round.events.map(([pos, what, seat, n, k, log, ok]) =>
      ({ pos, what, seat, n, k, log, ok, wall: round.wall ? round.wall[pos] : null }));
    expanded.set(round, events);
  }
  return events;
}

function eventsByPos(events) {
  const map = new Map();
  for (const e of events || []) {
    if (e.pos == null) continue;
    if (!map.has(e.pos)) map.set(e.pos, []);
    map.get(e.pos).push(e);
  }
  return map;
}

// A seat's badge: its colour stays the player's, its letter is the seat's wind then.
function seatMark(seat, wind) {
  return el("span", { class: `who seat${seat}`, "aria-hidden": "true" }, t(`windMark.${wind}`));
}

// One wall position: the wall's tile, marks for what happened there, and the
// log's tile beside it when the two differ.
function slot(pos, wall, ctx, roles = []) {
  const evs = ctx.byPos.get(pos) || [];
  const bad = evs.find((e) => !e.ok);
  const notes = [...roles];
  const draw = evs.find((e) => e.what === "draw" || e.what === "replacement");
  if (draw && draw.seat != null) notes.push(t("wall.drawnBy", { who: ctx.seatName(draw.seat) }));
  if (bad) notes.push(t("wall.logVsWall", { log: tileText(bad.log, ctx.red), wall: tileText(bad.wall, ctx.red) }));
  const used = evs.length > 0;
  const cls = ["slot", bad ? "bad" : "", ctx.withLog && !used ? "unused" : "",
    roles.length ? "role" : ""].filter(Boolean).join(" ");
  const node = el("span", { class: cls, data: { pos: String(pos) } },
    bad ? el("span", { class: "vs-label wall-label" }, t("wall.wallTile")) : null,
    tileEl(wall[pos], { red: ctx.red, extraLabel: notes.join("; ") }));
  if (bad) {
    node.append(el("span", { class: "vs" }, el("span", { class: "vs-label" }, t("wall.log")),
      tileEl(bad.log, { red: ctx.red, small: true })));
  }
  const marks = el("span", { class: "marks", "aria-hidden": "true" });
  if (draw && draw.seat != null) marks.append(seatMark(draw.seat, ctx.wind(draw.seat)));
  for (const r of ctx.roleShort(pos)) marks.append(el("span", { class: `role-mark ${r.cls}` }, r.text));
  node.append(marks);
  return node;
}

// Each seat's dealt tiles, in deal order, from the round's layout (deal by seat); a wall
// without a log names seats by wind only. Where the wall does not hold the deal (scheme
// `undealt`), the hands the record states, as tiles beside the wall (`offWall`).
function handRows(round, ctx) {
  const deal = ctx.layout.deal || [];
  const offWall = ctx.withLog && !deal.some((seat) => seat.length) && Array.isArray(round.hands);
  const players = offWall ? round.hands.length : deal.length;
  const dealer = round.dealer ?? ctx.layout.dealer ?? 0;
  const rows = Array.from({ length: players }, (_, s) => {
    const wind = t(`wind.${(s - dealer + players) % players}`);
    const dealerNote = s === dealer ? ` (${t("wall.dealer")})` : "";
    const label = ctx.withLog
      ? [seatMark(s, ctx.wind(s)), " ", ctx.names[s] || wind, s === ctx.you ? youMark() : null,
        ` · ${wind}`, dealerNote]
      : [wind, dealerNote];
    const tiles = offWall
      ? round.hands[s].map((id) => el("span", { class: "off-wall" }, tileEl(id, { red: ctx.red })))
      : deal[s].map((p) => slot(p, round.wall, ctx));
    return [label, tiles];
  }).filter(([, tiles]) => tiles.length);
  if (!rows.length) return null;
  return { offWall, node: el("div", { class: `hands${offWall ? " off-wall-hands" : ""}` }, rows.map(([label, tiles]) =>
    el("div", { class: "hand" }, el("span", { class: "hand-label" }, label),
      el("span", { class: "tiles" }, tiles)))) };
}

// The dead wall as it stands: its positions in wall order, in stacks of two.
function deadWall(round, ctx) {
  const dead = ctx.layout.dead || [];
  const top = [], bottom = [];
  for (let i = 0; i < dead.length; i += 2) {
    bottom.push(slot(dead[i], round.wall, ctx, ctx.roles(dead[i])));
    if (i + 1 < dead.length) top.push(slot(dead[i + 1], round.wall, ctx, ctx.roles(dead[i + 1])));
  }
  return el("div", { class: "dead" }, el("span", { class: "tiles dead-top" }, top),
    el("span", { class: "tiles dead-bottom" }, bottom));
}

// What each position is for (dora / ura indicator k, replacement tile k), from the layout.
function positionRoles(layout) {
  const roles = new Map();
  const add = (positions, long, cls, short) => (positions || []).forEach((p, k) => {
    if (!roles.has(p)) roles.set(p, { long: [], short: [] });
    roles.get(p).long.push(`${t(long)} ${k + 1}`);
    roles.get(p).short.push({ cls, text: short(k) });
  });
  add(layout.dora, "wall.dora", "mark-dora", () => "D");
  add(layout.ura, "wall.ura", "mark-ura", () => "U");
  add(layout.replacements, "wall.rinshan", "mark-rinshan", (k) => `R${k + 1}`);
  return roles;
}

const DICE = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function diceEl(dice) {
  return el("span", { class: "dice" }, dice.map((d) =>
    el("span", { class: "die", role: "img", "aria-label": String(d), title: String(d) }, DICE[d - 1] || "?", el("small", {}, String(d)))));
}

// A round's wall (from a log's report, or from a seed alone): every position where
// `round.layout` (pywall.core.layout, by way of the report) puts it. Nothing here
// computes a wall position. picture {title, file}: offer the wall as a picture (the
// `picture` hook's buttons, picture.mjs) under that title and file name. `heading`: the
// level of its parts' headings, one below the heading the wall sits under (a log's
// round: 5; the seed view: 4; the embed: 2).
export function renderWall(round, { names = [], red = true, withLog = true, compact = false, you = null,
  picture = null, heading = 5 } = {}) {
  const layout = round.layout || {};
  const marks = positionRoles(layout);
  const ctx = {
    layout, red, withLog, names, you,
    roles: (p) => (marks.get(p) || { long: [] }).long,
    roleShort: (p) => (marks.get(p) || { short: [] }).short,
    byPos: eventsByPos(eventsOf(round)),
    wind: (s) => windOf(s, round.dealer ?? layout.dealer, (layout.deal || []).length || names.length || 4),
    seatName: (s) => (names[s] ? `${names[s]} (${t(`wind.${ctx.wind(s)}`)})` : t(`wind.${ctx.wind(s)}`)),
  };
  const live = (layout.live || []).map((p) => slot(p, round.wall, ctx));
  const hands = handRows(round, ctx);
  const part = (name, key, ...body) => el("div", { class: `wall-part part-${name}` },
    el(`h${heading}`, { class: "part-heading" }, t(key)), body);
  return el("div", { class: `wall${compact ? " compact" : ""}` },
    round.dice ? part("dice", "wall.dice", diceEl(round.dice)) : null,
    hands ? part("hands", hands.offWall ? "wall.handsOffWall" : "wall.hands", hands.node) : null,
    part("live", "wall.live", el("div", { class: "tiles live" }, live)),
    part("dead", "wall.dead", deadWall(round, ctx)),
    legend(withLog),
    picture ? pictureButtons(round, { names: withLog ? names : [], red, ...picture }) : null);
}

// The `picture` hook's buttons (picture.mjs) for a wall: round {wall, layout, dice, ...}, or
// {wall, dice} alone for a wall drawn as stored (the SEGA and Mahjong Soul tools); null when
// the page set no hook. options {names, red, title, file, labels}.
export function pictureButtons(round, options) {
  return hooks.picture ? hooks.picture(round, options) : null;
}

function legend(withLog) {
  return el("p", { class: "legend" }, el("span", { class: "sr-only" }, t("wall.legend") + ": "),
    el("span", { class: "role-mark mark-dora" }, "D"), ` ${t("wall.dora")} · `,
    el("span", { class: "role-mark mark-ura" }, "U"), ` ${t("wall.ura")} · `,
    el("span", { class: "role-mark mark-rinshan" }, "R"), ` ${t("wall.rinshan")}`,
    withLog ? [" · ", el("span", { class: "legend-bad" }, "✗"), ` ${t("wall.mismatchLegend")}`,
      " · ", el("span", { class: "legend-unused" }, "▢"), ` ${t("wall.notDrawn")}`] : []);
}

// --- a whole file report ----------------------------------------------------------

// Extra views other modules add (panels.mjs, meaning.mjs, links.mjs, picture.mjs):
// report(report) -> nodes after the game's facts; round(round, game, red) -> nodes under an
// opened round's wall; roundLinks(round, game, you) -> links to that round, right under its
// wall; meaning(report) -> what the verdict means, under it; you(report) -> the seat of the
// player a game link was made for (Tenhou's tw), or null;
// picture(round, {names, red, title, file, labels}) -> the wall's download buttons.
const hooks = { report: null, round: null, roundLinks: null, meaning: null, you: null, picture: null };

export function setRenderHooks(more) {
  Object.assign(hooks, more);
}

export function verdictDetail(report) {
  if (report.status === "verified") return t("detail.verified", { checked: number(report.checked) });
  if (report.status === "mismatch") {
    const count = report.rounds.reduce((sum, r) =>
      sum + eventsOf(r).filter((e) => !e.ok).length, 0);
    return t("detail.mismatch", { count: number(count || report.findings.filter((f) => f.severity === "error").length),
      checked: number(report.checked) });
  }
  return t("detail.error");
}

function youMark() {
  return el("span", { class: "you" }, ` (${t("wall.you")})`);
}

// The players with their seat winds at the start (the first round's dealer is East).
function gameFacts(game, you, dealer = 0) {
  if (!game) return null;
  const players = el("ol", { class: "players" }, game.players.map((name, s) => {
    const wind = windOf(s, dealer, game.player_count);
    return el("li", { class: s === you ? "is-you" : null }, seatMark(s, wind), " ", name || t(`wind.${wind}`),
      name ? ` (${t(`wind.${wind}`)})` : null, s === you ? youMark() : null);
  }));
  const rows = [
    [t("game.players"), players],
    [t("game.rule"), [ruleText(game.rule_code, game.player_count, game.vs_computer, game.rule_length), game.rule_code ? ` (${game.rule_code})` : ""]],
    [t("game.date"), game.date ? el("time", { datetime: game.date }, dateText(game.date)) : t("game.unknown")],
  ];
  if (game.platform) rows.push([t("game.platform"), t(`platform.${game.platform}`)]);
  if (game.log_id) rows.push([t("game.log"), game.log_id]);
  else if (game.game_id) rows.push([t("game.id"), game.game_id]);
  return el("dl", { class: "game" }, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function roundDetails(round, game, red, you, path) {
  const ok = round.result === "verified";
  const summary = el("summary", {},
    el("span", { class: "round-label" }, roundLabel(round.label)), " ",
    diceText(round.dice), " ",
    el("span", { class: `round-result round-${round.result}` },
      el("span", { "aria-hidden": "true" }, ok ? "✓ " : "✗ "), t(`round.${round.result}`)),
    " ", el("span", { class: "round-checked" }, t("round.checked", { checked: round.checked })));
  const details = el("details", { class: "round", data: { round: String(round.index), result: round.result } }, summary);
  // A report without walls (an archive game checked without detail) lists the round only.
  fillWhenOpen(details, () => (round.wall ? [
    renderWall(round, { names: game ? game.players : [], red, withLog: true, you,
      picture: { title: `${path} · ${roundLabel(round.label)}`, file: `${fileBase(path)}-round-${round.index + 1}`, game } }),
    hooks.roundLinks ? hooks.roundLinks(round, game, you) || "" : "",
    roundDigests(round) || "",
    hooks.round ? hooks.round(round, game, red) || "" : "",
  ] : []), !ok);
  return details;
}

function diceText(dice) {
  if (!dice) return null;
  return el("span", { class: "round-dice" }, `${t("wall.dice")} ${dice[0]}+${dice[1]}`);
}

// you: the seat to mark as the reader's (a game link's tw); by default the `you` hook's answer.
export function renderReport(report, { expanded = true, you } = {}) {
  const red = redFivesOn(report.game);
  if (you === undefined) you = hooks.you ? hooks.you(report) : null;
  const head = el("header", {}, el("h3", { class: "file-name" }, report.path), " ", verdictBadge(report.status));
  const article = el("article", { class: "file-result", tabindex: "-1",
    data: { file: report.path, verdict: report.status } },
    head,
    el("p", { class: "verdict-detail" }, verdictDetail(report)),
    hooks.meaning ? hooks.meaning(report) : null,
    gameFacts(report.game, you, (report.rounds || [])[0]?.dealer),
    findingsList(report, red),
    commitmentsSection(report),
    hooks.report ? hooks.report(report) : null);
  if (report.rounds && report.rounds.length) {
    // In a batch, a verified game's rounds stay folded, and are drawn when first
    // opened: the page stays short, and a batch of many logs draws little.
    const rounds = el("details", { class: "rounds" },
      el("summary", {}, el("h4", {}, `${t("rounds")} (${report.rounds.length})`)));
    fillWhenOpen(rounds, () => report.rounds.map((r) => roundDetails(r, report.game, red, you, report.path)),
      expanded || report.status !== "verified");
    article.append(rounds);
  }
  return article;
}

// A file name from any text: letters, digits, dots and dashes only, no extension.
export function fileBase(text) {
  return String(text).replace(/\.[^.]*$/, "").replace(/[^\p{L}\p{N}.-]+/gu, "_").slice(0, 80) || "wall";
}

export function pendingEl(name) {
  return el("article", { class: "file-result pending", tabindex: "-1", data: { file: name, state: "pending" } },
    el("header", {}, el("h3", { class: "file-name" }, name), " ", verdictBadge("pending")));
}
