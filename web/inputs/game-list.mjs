// A list of Tenhou games: pasted (a log list, a forum post, a saved page) or read from the
// tenhou.net page the bookmarklet ran on. Python's `games` finds each game once, in order,
// and what it could not read (pywall/formats/game_lists.py: at most 1,000 games). The view
// lists each game with the direct link to its log, to open and save, and takes the saved
// files as the page always does. When a tenhou.net page opened this one through the
// bookmarklet (handoff.mjs), "Fetch through tenhou.net" asks that page for each log in turn:
// at most one request a second (the next is asked a whole second after the last answer),
// "n of N" and Stop, each log verified as it arrives (files.mjs's addLog), a game that fails
// a row with its reason while the others go on, and at the end the audit is offered.

import "../words/game-list-i18n.mjs";
import { number, t, tn } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { request } from "../workers/session.mjs";
import { showAnswer } from "./answer.mjs";
import { ANSWER_MS, MAX_LIST_CHARS, askLog, logName, logPayload, onPageList, stopAsking, throughTenhou } from "./handoff.mjs";

export const GAP_MS = 1000; // from one answer's end to the next request
const $ = (id) => document.getElementById(id);

let addFiles = null; // (files) -> void and (name, payload, link, options) -> void, from files.mjs
let addLog = null;
let list = null; // Python's answer: {games, repeated, unread, shown}
let run = null; // {at, total, got, failed, stopped, done, states: Map(id -> state)}

export function initGameList(options) {
  ({ addFiles, addLog } = options);
  onPageList((text) => showGameList(text, { start: true }));
}

// The games a text names, shown as a list (true), or false when it names fewer than `least`.
export async function showGameList(text, { start = false, least = 1 } = {}) {
  if (text.length > MAX_LIST_CHARS) {
    showError("list.tooLong", { max: MAX_LIST_CHARS });
    return true;
  }
  let found;
  try {
    found = await request("games", { text });
  } catch (err) {
    if (err.code === "bad_value") showError("list.tooMany", { max: 1000 });
    else showError(null, { message: err.message });
    return true;
  }
  if (found.games.length < least) return false;
  stopAsking();
  list = found;
  run = null;
  showAnswer(draw);
  if (start && throughTenhou()) fetchAll();
  return true;
}

// Why a list was refused: the words of `key` with `max` (redrawn in a new language), or
// the worker's message as it came.
function showError(key, { max, message }) {
  list = null;
  showAnswer((box) => box.append(el("p", { class: "game-list-error", role: "alert" },
    key ? t(key, { max: number(max) }) : message)));
}

// The list (answer.mjs draws it into the box under the paste box, again on a change of language).
function draw(box) {
  const games = list.games;
  const chooser = el("input", { id: "game-list-files", type: "file", multiple: true,
    on: { change: (e) => { addFiles(e.target.files); e.target.value = ""; } } });
  box.append(el("section", { class: "game-list", "aria-labelledby": "game-list-heading",
    data: { games: games.length } },
  el("h3", { id: "game-list-heading" }, tn("list.heading", games.length, { n: number(games.length) })),
  foundLine(),
  list.shown.length ? el("ul", { class: "game-list-unread" }, list.shown.map((u) =>
    el("li", {}, el("code", {}, u.text), " ", t(`list.unread.${u.code}`)))) : null,
  throughTenhou() ? fetchControls() : el("p", { class: "hint game-list-never" }, t("list.never")),
  el("p", { class: "hint game-list-where" }, t("list.where")),
  el("p", { class: "game-list-save" }, t("list.save"), " ",
    el("label", { for: "game-list-files", class: "button" }, t("list.choose")), chooser),
  el("ol", { class: "game-list-games" }, games.map((g) => gameItem(g)))));
  drawRun();
}

function foundLine() {
  const parts = [];
  if (list.repeated) parts.push(tn("list.repeated", list.repeated, { n: number(list.repeated) }));
  if (list.unread) parts.push(tn("list.unread", list.unread, { n: number(list.unread) }));
  return parts.length ? el("p", { class: "game-list-found" }, parts.join(t("list.and"))) : null;
}

function gameItem(game) {
  return el("li", { data: { game: game.game_id, state: "listed" } },
    el("a", { href: game.record_url, target: "_blank", rel: "noopener noreferrer" }, game.game_id),
    el("span", { class: "game-state" }));
}

// The run's controls, made once with the panel (the live region stays the same node, so
// each change is announced); drawRun fills them.
function fetchControls() {
  const n = list.games.length;
  return el("div", { class: "game-list-run" },
    el("p", { class: "game-list-start" }, el("button", { id: "game-list-fetch", type: "button", on: { click: fetchAll } },
      tn("list.fetch", n, { n: number(n) }))),
    el("p", { class: "hint" }, t("list.polite")),
    el("progress", { max: n, value: 0, attrs: { "aria-label": t("list.progressLabel") } }),
    el("p", { id: "game-list-progress", role: "status", "aria-live": "polite" }),
    el("p", {}, el("button", { id: "game-list-stop", type: "button", on: { click: stop } }, t("list.stop")),
      el("button", { id: "game-list-audit", type: "button", on: { click: openAudit } }, t("list.audit"))));
}

function drawRun() {
  const panel = document.querySelector(".game-list");
  if (!panel || !list) return;
  for (const item of panel.querySelectorAll(".game-list-games li")) {
    const state = run ? run.states.get(item.dataset.game) : null;
    item.dataset.state = state ? state.kind : "listed";
    item.querySelector(".game-state").textContent = !state ? ""
      : ` — ${state.kind === "failed" ? state.why : t(`list.state.${state.kind}`)}`;
  }
  const box = panel.querySelector(".game-list-run");
  if (!box) return;
  box.querySelector(".game-list-start").hidden = Boolean(run);
  const bar = box.querySelector("progress");
  bar.hidden = !run;
  bar.value = run ? run.at : 0;
  box.querySelector("#game-list-stop").hidden = !run || run.done;
  box.querySelector("#game-list-audit").hidden = !run || !run.done || !run.got;
  box.querySelector("#game-list-progress").textContent = !run ? ""
    : !run.done ? t("list.progress", { i: number(run.at), n: number(run.total) })
      : run.stopped ? t("list.stopped", { ...counts(run), n: number(run.total) })
        : tn("list.done", run.total, { ...counts(run), n: number(run.total) });
}

const counts = (r) => ({ i: number(r.at), received: tn("list.received", r.got, { n: number(r.got) }),
  failed: tn("list.failed", r.failed, { n: number(r.failed) }) });

function stop() {
  if (!run || run.done) return;
  run.stopped = true;
  stopAsking();
  wake();
}

let wake = () => {};
const pause = (ms) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  wake = () => { clearTimeout(timer); resolve(); };
});

// Each game's log, asked of the tenhou.net page in turn, at most one request a second.
async function fetchAll() {
  if (!list || (run && !run.done) || !throughTenhou()) return;
  const games = list.games;
  run = { at: 0, total: games.length, got: 0, failed: 0, stopped: false, done: false, states: new Map() };
  const mine = run;
  let lastEnd = -Infinity;
  const entries = [];
  for (const game of games) {
    await pause(Math.max(0, lastEnd + GAP_MS - performance.now()));
    if (mine.stopped || run !== mine) break;
    mine.at++;
    mine.states.set(game.game_id, { kind: "asking" });
    drawRun();
    const answer = await askLog(game);
    lastEnd = performance.now();
    if (answer.stopped) break;
    entries.push(await take(mine, game, answer));
    drawRun();
  }
  await checked(entries);
  mine.done = true;
  if (run === mine) drawRun();
}

// Until every log taken has its verdict (so the audit counts them all), at most CHECK_MS.
const CHECK_MS = 120000;
async function checked(entries) {
  const until = performance.now() + CHECK_MS;
  while (entries.some((e) => !e.reports) && performance.now() < until) await pause(100);
}

// One answer: a log verified like a dropped file, or a failed row with the reason (its entry).
async function take(mine, game, answer) {
  const why = answer.timeout ? t("handoff.noAnswer", { id: game.game_id, s: ANSWER_MS / 1000 })
    : typeof answer.data.error === "string" ? t("handoff.failed", { id: game.game_id, message: answer.data.error.slice(0, 300) })
      : null;
  if (why) {
    mine.failed++;
    mine.states.set(game.game_id, { kind: "failed", why });
    return addLog(logName(game), { refused: { code: "fetch_failed", message: why } }, game, { scroll: false });
  }
  mine.got++;
  mine.states.set(game.game_id, { kind: "received" });
  return addLog(logName(game), await logPayload(answer.data), game, { scroll: false });
}

// The batch's audit (audit.mjs's button), brought into view and asked for.
function openAudit() {
  const button = $("audit-go");
  if (!button) return;
  button.scrollIntoView({ block: "start" });
  button.click();
}
